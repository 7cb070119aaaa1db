# SPDX-License-Identifier: GPL-2.0
"""Tokenizer. The C code of the threads has C comments; the header, the init section and the
final clause are herd's, with OCaml comments `(* *)`: the parser says which it is reading."""

import bisect
import string
from dataclasses import dataclass, field

from .errors import syntax_error

C_PUNCT = ['<<=', '>>=', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '++', '--', '->',
           '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=',
           '(', ')', '{', '}', '[', ']', ';', ',', '=', '+', '-', '*', '/', '%', '&', '|',
           '^', '!', '~', '<', '>', '?', ':', '.']
HERD_PUNCT = ['/\\', '\\/', '!=', '~=', '~', '(', ')', '[', ']', '{', '}', ';', ':', '=', '&', '*', '-',
              ',']
IDENT_START = frozenset(string.ascii_letters + '_')
IDENT_CHARS = frozenset(string.ascii_letters + string.digits + '_')


@dataclass
class Token:
    kind: str       # 'ident', 'int', 'punct', 'string' or 'eof'
    text: str
    line: int
    start: int
    end: int
    comments: list = field(default_factory=list)  # herd comments skipped before it


def describe(tok):
    """A token as an error message shows it."""
    return 'end of file' if tok.kind == 'eof' else repr(tok.text)


class Lexer:
    """Splits a litmus test into tokens, on demand, from any position, in either dialect."""

    def __init__(self, text):
        self.text = text
        self.line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == '\n']

    def line_at(self, pos):
        return bisect.bisect_right(self.line_starts, pos)

    def token(self, pos, mode):
        """The token at or after `pos`, in mode 'c' or 'herd'."""
        pos, comments = self.skip(pos, mode)
        text, line = self.text, self.line_at(pos)
        if pos >= len(text):
            return Token('eof', '', line, pos, pos, comments)
        c = text[pos]
        if c in IDENT_START:
            end = self.scan(pos, lambda ch: ch in IDENT_CHARS)
            return Token('ident', text[pos:end], line, pos, end, comments)
        if c in string.digits:
            end = self.scan(pos, lambda ch: ch in IDENT_CHARS)
            return Token('int', text[pos:end], line, pos, end, comments)
        if c == '"' and mode == 'herd':
            end = text.find('"', pos + 1)
            if end < 0:
                raise syntax_error(line, 'unterminated string')
            return Token('string', text[pos + 1:end], line, pos, end + 1, comments)
        for p in C_PUNCT if mode == 'c' else HERD_PUNCT:
            if text.startswith(p, pos):
                return Token('punct', p, line, pos, pos + len(p), comments)
        raise syntax_error(line, f'unexpected character {c!r}')

    def scan(self, pos, ok):
        while pos < len(self.text) and ok(self.text[pos]):
            pos += 1
        return pos

    def skip(self, pos, mode):
        """Skips white space and comments; returns the new position and herd comments."""
        text, comments = self.text, []
        while pos < len(text):
            if text[pos].isspace():
                pos += 1
            elif mode == 'c' and text.startswith('//', pos):
                end = text.find('\n', pos)
                pos = len(text) if end < 0 else end
            elif mode == 'c' and text.startswith('/*', pos):
                end = text.find('*/', pos + 2)
                if end < 0:
                    raise syntax_error(self.line_at(pos), "unterminated comment '/*'")
                pos = end + 2
            elif mode == 'herd' and text.startswith('(*', pos):
                end = self.herd_comment_end(pos)
                comments.append(text[pos + 2:end - 2])
                pos = end
            else:
                break
        return pos, comments

    def herd_comment_end(self, pos):
        """The end of the (nestable) OCaml comment starting at `pos`."""
        depth, i = 0, pos
        while i < len(self.text):
            if self.text.startswith('(*', i):
                depth, i = depth + 1, i + 2
            elif self.text.startswith('*)', i):
                depth, i = depth - 1, i + 2
                if depth == 0:
                    return i
            else:
                i += 1
        raise syntax_error(self.line_at(pos), "unterminated comment '(*'")
