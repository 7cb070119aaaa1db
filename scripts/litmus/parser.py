# SPDX-License-Identifier: GPL-2.0
"""Recursive-descent parser of one LKMM C-dialect litmus test into the tree of syntax.py: herd's
header, init section and final clause, and the C of the threads."""

import re

from .errors import syntax_error, unsupported
from .lexer import Lexer, describe
from .syntax import (Assign, Atom, Binary, Block, Call, Cast, Decl, ExprStmt, If, InitItem,
                     Litmus, Loc, Name, Num, Param, Prop, Thread, Unary)

# `Result:` words the runner checks, and its name for them (judgelitmus.sh knows the same).
RESULTS = {'Never': 'Never', 'Sometimes': 'Sometimes', 'Always': 'Always',
           'DEADLOCK': 'Deadlock'}
QUANTIFIERS = {'exists': 'Exists', '~exists': 'NotExists', 'forall': 'Forall'}
C_STATEMENT_KEYWORDS = ('while', 'for', 'do', 'switch', 'return', 'goto', 'break',
                        'continue', 'case', 'default')
BINARY_PREC = {'||': 1, '&&': 2, '|': 3, '^': 4, '&': 5, '==': 6, '!=': 6, '<': 7, '<=': 7,
               '>': 7, '>=': 7, '<<': 8, '>>': 8, '+': 9, '-': 9, '*': 10, '/': 10, '%': 10}
UNARY_OPS = ('-', '!', '~', '*', '&')
COMPOUND_ASSIGN = ('+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=')
POSTFIX = ('++', '--', '->', '[', '.')
FINAL_WORDS = ('exists', 'forall', 'locations', 'filter')
C_TYPE_WORDS = ('int', 'long', 'short', 'char', 'unsigned', 'signed', 'const', 'volatile',
                'struct', 'union', 'void', 'bool', '_Bool', 'atomic_t', 'spinlock_t',
                'intptr_t', 'uintptr_t', 'u8', 'u16', 'u32', 'u64', 's8', 's16', 's32',
                's64')


def c_int(tok):
    """The value of a C integer constant (decimal, octal or hex, no suffix)."""
    text = tok.text
    try:
        if text.lower().startswith('0x'):
            return int(text[2:], 16)
        if len(text) > 1 and text.startswith('0'):
            return int(text[1:], 8)
        return int(text, 10)
    except ValueError:
        raise unsupported(tok.line, text, 'integer constant') from None


class Parser:
    """Recursive-descent parser of one litmus test. Non-fatal errors go to `errors`."""

    def __init__(self, text):
        self.lex = Lexer(text)
        self.text = text
        self.pos = 0            # after the last token taken
        self.mode = 'herd'
        self.tok = None         # the lookahead, lexed in self.mode from self.pos
        self.last = None
        self.trace = None       # tokens taken, when recording the clause's text
        self.errors = []

    # Token stream.

    def peek(self):
        if self.tok is None:
            self.tok = self.lex.token(self.pos, self.mode)
        return self.tok

    def peek2(self):
        """The token after the lookahead."""
        return self.lex.token(self.peek().end, self.mode)

    def take(self):
        tok = self.peek()
        self.pos, self.tok, self.last = tok.end, None, tok
        if self.trace is not None:
            self.trace.append(tok)
        return tok

    def set_mode(self, mode, at_lookahead=False):
        """Reads on in the other dialect, from after the last token taken or, with
        `at_lookahead`, from the token peeked (what was skipped before it stays skipped)."""
        if at_lookahead:
            self.pos = self.peek().start
        self.mode, self.tok = mode, None

    def at(self, text):
        tok = self.peek()
        return tok.kind in ('punct', 'ident') and tok.text == text

    def accept(self, text):
        if self.at(text):
            return self.take()
        return None

    def expect_after(self, text, what):
        """Expects `text` after `what`, reporting its absence at the line of `what`."""
        if not self.at(text):
            raise syntax_error(self.last.line, f'expected {text!r} after {what!r}, found '
                              f'{describe(self.peek())}')
        return self.take()

    def expect(self, text, context):
        if not self.at(text):
            tok = self.peek()
            raise syntax_error(tok.line, f'expected {text!r} {context}, found {describe(tok)}')
        return self.take()

    def ident(self, context):
        tok = self.peek()
        if tok.kind != 'ident':
            raise syntax_error(tok.line, f'expected a name {context}, found {describe(tok)}')
        return self.take()

    def source(self, start):
        """The source text from position `start` to the last token taken, on one line."""
        return ' '.join(self.text[start:self.last.end].split())

    # The test.

    def parse(self):
        name, name_line = self.parse_name()
        result, headers = self.parse_prelude()
        init = self.parse_init()
        test = Litmus(name, name_line, result, init, [], [], headers=headers)
        self.parse_threads(test)
        self.set_mode('herd', at_lookahead=True)
        self.parse_final(test)
        return test

    def parse_name(self):
        """`C <name>` on the first line."""
        match = re.match(r'\s*(\S+)[ \t]+(\S+)', self.text)
        if not match or match.group(1) != 'C':
            dialect = match.group(1) if match else self.text.strip()[:20]
            raise unsupported(1, dialect, "not a C litmus test: the first line must be 'C <name>'")
        self.pos = match.end()
        return match.group(2), self.lex.line_at(match.start(2))

    def parse_prelude(self):
        """What comes before the init section: an optional string, comments, and herd's
        header lines (`Cycle=...`, `Prefetch=...`, `Com=...`, `Orig=...`: one `key=value`
        per line, information herd7 does not act on; other text, which herd7 skips). Returns
        (Result:, the header lines)."""
        comments, headers = [], []
        while True:
            tok = self.peek()
            comments += tok.comments
            if tok.kind == 'string':
                self.take()
            elif tok.kind == 'ident' and self.peek2().text == '=':
                end = self.text.find('\n', tok.start)
                end = len(self.text) if end < 0 else end
                headers.append((tok.line, ' '.join(self.text[tok.start:end].split())))
                self.pos, self.tok = end, None
            elif tok.kind == 'eof' or tok.text == '{' or re.fullmatch(r'P\d+', tok.text):
                break
            else:
                # Any other text up to the end of its line or a '{': herd7's splitter skips it
                # (herdtools7 lib/splitter.mll, find_init), e.g. a second `C <name>` line. A
                # thread's header stops it, so that a missing init section is still named.
                ends = [e for e in (self.text.find('\n', tok.start), self.text.find('{', tok.start))
                        if e >= 0]
                self.pos, self.tok = min(ends) if ends else len(self.text), None
        for comment in comments:
            match = re.search(r'Result:[ \t]*(\S*)([^\n]*)', comment)
            if match:
                line = self.lex.line_at(self.text.find(comment) + match.start())
                return (line, match.group(1), ' '.join(match.group(2).split())), headers
        return None, headers

    def parse_init(self):
        """`{ x=1; int *p=&x; ... }`: the initial values of shared variables."""
        self.expect('{', 'to open the init section (after the header)')
        items = []
        while not self.at('}'):
            item = self.parse_init_item()
            if item:
                items.append(item)
            if not self.at('}'):
                self.expect(';', f'after the initialisation of {items[-1].name!r}'
                            if item else 'after the initialisation')
        self.take()
        return items

    def parse_init_item(self):
        """`[type] x [= value]` for a shared variable, `[type] N:r [= value]` for register r
        of thread N (its type and initial value)."""
        ctype, name, thread = self.parse_declarator('in the init section', registers=True)
        value = None
        if self.accept('='):
            value = self.parse_init_value()
        return InitItem(name.text, ctype, value, name.line, thread)

    def parse_init_value(self):
        """A number, `NULL`, a variable's address (`x` or `&x`) or `ATOMIC_INIT(number)`."""
        tok = self.peek()
        if tok.kind == 'ident' and tok.text == 'ATOMIC_INIT':
            self.take()
            self.expect('(', 'after ATOMIC_INIT')
            value = self.parse_init_value()
            self.expect(')', 'to close ATOMIC_INIT(')
            if value[0] != 'int':
                raise unsupported(tok.line, f'ATOMIC_INIT({value[1]})', 'an atomic_t holds a '
                                  'number')
            return value
        if self.accept('-'):
            return ('int', -c_int(self.expect_int('after \'-\'')))
        if tok.kind == 'int':
            return ('int', c_int(self.take()))
        self.accept('&')
        name = self.ident('or a number as initial value')
        return ('int', 0) if name.text == 'NULL' else ('addr', name.text)

    def expect_int(self, context):
        tok = self.peek()
        if tok.kind != 'int':
            raise syntax_error(tok.line, f'expected a number {context}, found {describe(tok)}')
        return self.take()

    def parse_declarator(self, context, registers=False):
        """`type *...* name`: returns (the type as `int *`, or None if absent, name token).
        The type is C type words (`unsigned long`, `struct s`) or one typedef name. With
        `registers`, the name may also be `N:r` (the init section's register of thread N):
        the result then has the thread number as a third item (None for a variable)."""
        words, stars = [], 0
        if registers and self.peek().kind == 'int':
            return (None, *self.register_name())
        while self.peek().kind == 'ident':
            word = self.peek().text
            if word in C_TYPE_WORDS or not words or words[-1].text in ('struct', 'union'):
                words.append(self.take())
            else:
                break
        while self.accept('*'):
            stars += 1
        if registers and self.peek().kind == 'int' and words:
            return (self.make_type(words, stars), *self.register_name())
        if self.peek().kind == 'ident':
            ctype, name = self.make_type(words, stars), self.take()
        elif not words or stars:
            raise syntax_error(self.peek().line,
                               f'expected a name {context}, found {describe(self.peek())}')
        else:
            name = words.pop()
            ctype = self.make_type(words, 0) if words else None
        return (ctype, name, None) if registers else (ctype, name)

    def register_name(self):
        """`N:r`, a register of thread N in herd's sections: (name token, N)."""
        number = self.take()
        self.expect(':', 'after a thread number')
        return self.ident('of a register'), int(number.text, 10)

    @staticmethod
    def make_type(words, stars):
        return ' '.join(w.text for w in words) + (' ' + '*' * stars if stars else '')

    # Threads.

    def parse_threads(self, test):
        self.set_mode('c')
        while True:
            tok = self.peek()
            if tok.text == '(' and self.text.startswith('(*', tok.start):
                return      # a herd comment: the final section starts
            if tok.kind == 'ident' and re.fullmatch(r'P\d+', tok.text):
                test.threads.append(self.parse_thread(len(test.threads)))
            elif tok.kind == 'eof' or tok.text in FINAL_WORDS or tok.text == '~':
                return
            else:
                raise syntax_error(tok.line, 'expected a thread (P0, P1, ...) or the final '
                                  f'clause, found {describe(tok)}')

    def parse_thread(self, number):
        tok = self.take()
        if int(tok.text[1:]) != number:
            raise syntax_error(tok.line, f'expected thread P{number}, found {tok.text} '
                              '(threads are numbered from P0, in order)')
        self.expect('(', f'after {tok.text}')
        params = []
        if not self.at(')'):
            while True:
                ctype, name = self.parse_declarator(f'in the parameters of {tok.text}')
                params.append(Param(name.text, ctype, name.line))
                if not self.accept(','):
                    break
        self.expect(')', f'after the parameters of {tok.text}')
        if not self.at('{'):
            self.expect('{', f'to open the body of {tok.text}')
        return Thread(number, params, self.parse_block(), tok.line)

    # Statements.

    def parse_block(self):
        line = self.take().line
        stmts = []
        while not self.at('}'):
            if self.peek().kind == 'eof':
                raise syntax_error(self.peek().line, f"expected '}}' to close the block of line "
                                  f'{line}, found end of file')
            stmts.append(self.parse_statement())
        self.take()
        return Block(stmts, line)

    def parse_statement(self):
        tok = self.peek()
        if self.at('{'):
            return self.parse_block()
        if self.accept(';'):
            return Block([], tok.line)
        if tok.kind == 'ident' and tok.text == 'if':
            return self.parse_if()
        if tok.kind == 'ident' and tok.text in C_STATEMENT_KEYWORDS:
            raise unsupported(tok.line, tok.text, 'statement')
        nxt = self.peek2()
        if tok.kind == 'ident' and (nxt.kind == 'ident' or
                                    nxt.text == '*' and tok.text in C_TYPE_WORDS):
            return self.parse_decl()
        return self.parse_simple()

    def parse_if(self):
        start = self.take()
        self.expect('(', "after 'if'")
        cond = self.parse_expr()
        self.expect(')', 'after the condition of the if statement')
        src = self.source(start.start)
        then = self.parse_statement()
        otherwise = self.parse_statement() if self.accept('else') else None
        return If(cond, then, otherwise, start.line, src)

    def parse_decl(self):
        start = self.peek()
        ctype, name = self.parse_declarator('in a declaration')
        decls = [[name, ctype, None]]
        while True:
            if self.accept('='):
                decls[-1][2] = self.parse_expr()
            if not self.accept(','):
                break
            stars = 0
            while self.accept('*'):
                stars += 1
            base = (ctype or '').rstrip(' *')
            decls.append([self.ident('in a declaration'),
                          base + (' ' + '*' * stars if stars else ''), None])
        self.expect_after(';', self.source(start.start))
        src = self.source(start.start)
        if len(decls) == 1:
            return Decl(name.text, ctype, decls[0][2], name.line, src)
        return Block([Decl(n.text, t, e, n.line, src) for n, t, e in decls], start.line, False)

    def parse_simple(self):
        """An assignment or an expression statement."""
        start = self.peek()
        expr = self.parse_expr()
        tok = self.peek()
        if tok.text in COMPOUND_ASSIGN:
            raise unsupported(tok.line, tok.text, 'compound assignment')
        if self.accept('='):
            value = self.parse_expr()
            self.expect_after(';', self.source(start.start))
            return Assign(expr, value, start.line, self.source(start.start))
        self.expect_after(';', self.source(start.start))
        return ExprStmt(expr, start.line, self.source(start.start))

    # Expressions, with C's precedence.

    def parse_expr(self, min_prec=1):
        left = self.parse_unary()
        while True:
            tok = self.peek()
            if tok.text == '?':
                raise unsupported(tok.line, '?:', 'conditional operator')
            prec = BINARY_PREC.get(tok.text) if tok.kind == 'punct' else None
            if prec is None or prec < min_prec:
                return left
            self.take()
            left = Binary(tok.text, left, self.parse_expr(prec + 1), tok.line)

    def parse_unary(self):
        tok = self.peek()
        if tok.kind == 'punct' and tok.text in UNARY_OPS:
            self.take()
            operand = self.parse_unary()
            if tok.text == '-' and isinstance(operand, Num):
                return Num(-operand.value, tok.line)
            return Unary(tok.text, operand, tok.line)
        if tok.kind == 'punct' and tok.text in ('++', '--'):
            raise unsupported(tok.line, tok.text)
        if tok.text == '(' and self.peek2().kind == 'ident' and \
                self.peek2().text in C_TYPE_WORDS:
            return self.parse_cast()
        expr = self.parse_primary()
        tok = self.peek()
        if tok.kind == 'punct' and tok.text in POSTFIX:
            raise unsupported(tok.line, tok.text)
        return expr

    def parse_cast(self):
        """`(type) operand`, as in `(intptr_t)x` or `*(int **)p`."""
        line = self.take().line
        ctype, _ = self.parse_type_name()
        self.expect(')', f'to close the cast to {ctype!r}')
        return Cast(ctype, self.parse_unary(), line)

    def parse_type_name(self):
        """A type without a name (`unsigned long`, `int **`): (the type, its words)."""
        words, stars = [], 0
        while self.peek().kind == 'ident' and (self.peek().text in C_TYPE_WORDS or
                                               words and words[-1].text == 'struct'):
            words.append(self.take())
        while self.accept('*'):
            stars += 1
        return self.make_type(words, stars), words

    def parse_primary(self):
        tok = self.peek()
        if tok.kind == 'int':
            return Num(c_int(self.take()), tok.line)
        if tok.kind == 'ident':
            self.take()
            if not self.accept('('):
                return Name(tok.text, tok.line)
            args = []
            if not self.at(')'):
                args.append(self.parse_expr())
                while self.accept(','):
                    args.append(self.parse_expr())
            self.expect(')', f'after the arguments of {tok.text}()')
            return Call(tok.text, args, tok.line)
        if self.accept('('):
            expr = self.parse_expr()
            self.expect(')', 'to close the parenthesis')
            return expr
        raise syntax_error(tok.line, f'expected an expression, found {describe(tok)}')

    # The final section (herd's syntax).

    def parse_final(self, test):
        while True:
            tok = self.peek()
            if tok.kind == 'eof':
                break
            if self.at('locations'):
                self.take()
                test.locations += self.parse_locations()
            elif self.at('filter'):
                if test.filter:
                    raise syntax_error(tok.line, "a second 'filter'")
                self.trace = []
                self.take()
                test.filter = self.parse_prop()
                test.filter_text = self.join_tokens(self.trace[1:])
                self.trace = None
            elif self.at('exists') or self.at('forall') or self.at('~'):
                if test.quantifier:
                    raise syntax_error(tok.line, 'a second final clause')
                self.parse_clause(test)
            else:
                raise syntax_error(tok.line, "expected 'exists', '~exists', 'forall' or "
                                  f"'locations', found {describe(tok)}")
        if not test.quantifier:
            # herd7's default: `forall (true)`, every execution is counted.
            test.quantifier, test.clause, test.clause_text = 'Forall', Prop('const', [True]), \
                'true'
            test.clause_line = self.peek().line

    def parse_locations(self):
        self.expect('[', "after 'locations'")
        locs = []
        while not self.at(']'):
            locs.append(self.parse_loc())
            if not self.at(']'):
                self.expect(';', 'between locations')
        self.take()
        return locs

    def parse_clause(self, test):
        self.trace = []
        tok = self.take()
        word = tok.text
        if word == '~':
            word += self.expect('exists', "after '~'").text
        test.quantifier = QUANTIFIERS[word]
        test.clause = self.parse_prop()
        test.clause_line = tok.line
        test.clause_text = self.join_tokens(self.trace)
        self.trace = None

    def join_tokens(self, tokens):
        """The tokens as written, without comments, white space reduced to single spaces."""
        out = []
        for prev, tok in zip([None] + tokens, tokens):
            if prev and self.text[prev.end:tok.start]:
                out.append(' ')
            out.append(self.text[tok.start:tok.end])
        return ''.join(out)

    def parse_prop(self):
        left = self.parse_conj()
        while self.accept('\\/'):
            left = Prop('or', [left, self.parse_conj()])
        return left

    def parse_conj(self):
        left = self.parse_neg()
        while self.accept('/\\'):
            left = Prop('and', [left, self.parse_neg()])
        return left

    def parse_neg(self):
        # herd's negation is `~` or `not` (herdtools7 lib/stateParser.mly: TOKEN_NOT).
        if self.accept('~') or (self.at('not') and self.peek2().text not in ('=', '!=', '~=')
                                and self.accept('not')):
            return Prop('not', [self.parse_neg()])
        if self.accept('('):
            prop = self.parse_prop()
            self.expect(')', 'to close the parenthesis of the clause')
            return prop
        if self.at('true') or self.at('false'):
            return Prop('const', [self.take().text == 'true'])
        loc = self.parse_loc()
        if self.accept('!=') or self.accept('~='):
            # herd's `loc != v` (also written `~=`): not (loc = v).
            return Prop('not', [self.parse_atom_value(loc)])
        self.expect('=', f'after {str(loc)!r} in the clause')
        return self.parse_atom_value(loc)

    def parse_atom_value(self, loc):
        """What `loc` is compared with: a number, a variable (its address), or another
        register or variable written `N:r` (its value)."""
        tok = self.peek()
        if self.accept('-'):
            return Atom(loc, ('int', -c_int(self.expect_int("after '-'"))), tok.line)
        if tok.kind == 'int' and self.peek2().text == ':':
            return Atom(loc, ('loc', self.parse_loc()), tok.line)
        if tok.kind == 'int':
            return Atom(loc, ('int', c_int(self.take())), tok.line)
        return Atom(loc, ('name', self.ident('or a number in the clause').text), tok.line)

    def parse_loc(self):
        tok = self.peek()
        if tok.kind == 'int':
            self.take()
            self.expect(':', 'after a thread number')
            return Loc(int(tok.text), self.ident('of a register').text, tok.line)
        return Loc(None, self.ident('of a variable or register').text, tok.line)
