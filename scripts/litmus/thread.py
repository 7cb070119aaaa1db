# SPDX-License-Identifier: GPL-2.0
"""Translation of one litmus thread's body into the lines of a Rust function on the library."""

import re
from dataclasses import dataclass

from .dialect import (ACCESSORS, ATOMIC, BARRIERS, HARNESS, KIND_C_TYPE, LOCK_OPS, MAX_REGS,
                      OPEN, PLAIN_NOTE, RCU, RCU_POINTER, RESERVED, RETIRED, RUST_REG_TYPE,
                      SRCU_OPS, pointee_kind, split_type)
from .errors import LitmusError, unsupported
from .kinds import strip_cast
from .rust import (ARITH, ATOM, AND, BIT_PREC, CMP, COMPARISONS, DIVISION, OR, SHIFTS, UNARY,
                   Code, int32, paren, receiver, shorten)
from .syntax import Assign, Block, Call, Cast, Decl, If, Name, Num, Unary


@dataclass
class Register:
    name: str
    rust: str
    kind: str       # 'int' or 'ptr'
    index: int
    init: str = None    # its initial value (Rust), from the init section


class ThreadTranslator:
    """Translates one thread's body into the lines of a Rust function."""

    def __init__(self, test, thread):
        self.test, self.thread = test, thread
        self.ops = test.ops
        self.where = f'P{thread.number}'
        self.params = {}         # C name -> (Rust name, Var)
        self.regs = {}           # C name -> Register, in declaration order
        self.plain = False       # a plain access since the last statement
        self.noted = False       # PLAIN_NOTE emitted
        self.inits = test.reg_inits.get(thread.number, {})
        c_names = [p.name for p in thread.params] + list(self.inits) + \
            declared_names(thread.body) + assigned_names(thread.body)
        self.rust_names = {n: self.rust_name(n, c_names) for n in c_names}

    @staticmethod
    def rust_name(name, c_names):
        rust = name
        while rust in RESERVED or rust != name and rust in c_names:
            rust += '_'
        return rust

    def error(self, err):
        self.test.errors.append(err)

    def translate(self):
        bindings = []
        for param in self.thread.params:
            var = self.test.vars[param.name]
            if param.name in self.params:
                self.error(LitmusError(param.line, f'parameter {param.name!r} of {self.where} '
                                       'given twice'))
            rust = self.rust_names[param.name]
            self.params[param.name] = (rust, var)
            bindings.append(f'let {rust} = m.{var.kind}({var.index});')
        for item in self.inits.values():
            self.init_register(item)
        body = self.statements(self.thread.body.stmts)
        for name, line in self.test.clause_regs.get(self.thread.number, []):
            if name not in self.regs:
                try:
                    self.implicit_register(name, line)
                except LitmusError as e:
                    self.error(e)
        lets = [f'let mut {r.rust}: {RUST_REG_TYPE[r.kind]} = {r.init or 0};'
                for r in self.regs.values()]
        stores = [f'out[{r.index}] = ' + (f'i64::from({r.rust});' if r.kind == 'int'
                                          else f'{r.rust} as i64;')
                  for r in self.regs.values()]
        return bindings + lets + body + stores, self.regs

    # Statements.

    def statements(self, stmts):
        lines = []
        for stmt in stmts:
            try:
                lines += self.statement(stmt)
            except LitmusError as e:
                self.error(e)
        return lines

    def statement(self, stmt):
        if isinstance(stmt, Block) and not stmt.scoped:
            return self.statements(stmt.stmts)
        if isinstance(stmt, Block):
            lines = self.statements(stmt.stmts)
            return ['{'] + lines + ['}'] if lines else []
        if isinstance(stmt, Decl):
            return self.declaration(stmt)
        if isinstance(stmt, Assign):
            return self.assignment(stmt)
        if isinstance(stmt, If):
            return self.if_statement(stmt)
        return self.commented(stmt, [self.expression_statement(stmt.expr)])

    def commented(self, stmt, lines):
        """`lines`, after the note on plain accesses if the statement made one (in full the
        first time in the function)."""
        if not self.plain:
            return lines
        self.plain = False
        if self.noted:
            return [f'// C: {shorten(stmt.src, 50)} (plain, made marked: see above)'] + lines
        self.noted = True
        return [f'// C: {shorten(stmt.src)}'] + PLAIN_NOTE + lines

    def register_kind(self, ctype, name, line):
        """The kind of register `name` declared `ctype` (None: undeclared)."""
        kind = pointee_kind(*split_type(ctype)) if ctype is not None else OPEN
        if kind not in ('int', 'ptr', OPEN):
            shown = f'{ctype}{"" if ctype.endswith("*") else " "}{name}'
            raise unsupported(line, shown, 'a register is a number (int, intptr_t, long, ...) '
                              'or a pointer to one')
        return self.test.kinds.of(('reg', self.thread.number, name))

    def new_register(self, name, kind, line):
        """Register `name` of the thread (herd7's registers belong to the thread, not to a
        block: every one is declared at the top of the Rust function)."""
        if name in self.params:
            raise LitmusError(line, f'register {name!r} has the name of a parameter '
                              f'of {self.where}')
        if len(self.regs) == MAX_REGS:
            raise LitmusError(line, f'too many registers in {self.where} (the runner '
                              f'supports at most {MAX_REGS} per thread)')
        reg = Register(name, self.rust_names[name], kind, len(self.regs))
        self.regs[name] = reg
        return reg

    def implicit_register(self, name, line):
        """A register without a declaration (0 until written, as in herd7)."""
        if name not in self.rust_names:
            self.rust_names[name] = self.rust_name(name, list(self.rust_names))
        return self.new_register(name, self.test.kinds.of(('reg', self.thread.number, name)),
                                 line)

    def init_register(self, item):
        """A register of the init section (`0:r1=x;`, `int 0:r1;`): declared for the whole
        thread, with its initial value."""
        try:
            reg = self.new_register(item.name, self.register_kind(item.ctype, item.name,
                                                                  item.line),
                                    item.line)
            if item.value is None:
                return
            what, value = item.value
            if what == 'addr':
                var = self.test.vars[value]
                if reg.kind != 'ptr' or var.kind not in ('int', 'ptr'):
                    raise LitmusError(item.line, f'{item.thread}:{item.name}={value}: only a '
                                      'pointer register can hold an address, and only that of '
                                      'a variable that holds a number or an address')
                reg.init = address_of(var)
            elif reg.kind == 'ptr' and value != 0:
                raise LitmusError(item.line, f'pointer register {item.thread}:{item.name} '
                                  f'initialised to {value}, not to an address')
            elif reg.kind == 'int':
                reg.init = str(int32(value, item.line))
        except LitmusError as e:
            self.error(e)

    def declaration(self, decl):
        kind = self.register_kind(decl.ctype, decl.name, decl.line)
        if decl.name in self.regs:
            # Declared again, or declared in the init section: herd7's registers belong to
            # the thread, not to a block, so it is the same register.
            reg = self.regs[decl.name]
        else:
            reg = self.new_register(decl.name, kind, decl.line)
        if decl.init is None:
            return []
        value = self.convert(self.expr(decl.init), kind, decl.line, f'register {decl.name!r}')
        return self.commented(decl, [f'{reg.rust} = {value};'])

    def assignment(self, stmt):
        target = stmt.target
        if isinstance(target, Name):
            reg = self.register(target)
            if reg is None:
                raise LitmusError(stmt.line, f'cannot assign to shared variable {target.name!r}'
                                  f': use WRITE_ONCE(*{target.name}, ...)')
            value = self.convert(self.expr(stmt.value), reg.kind, stmt.line,
                                 f'register {target.name!r}')
            return self.commented(stmt, [f'{reg.rust} = {value};'])
        if isinstance(target, Unary) and target.op == '*' and \
                isinstance(strip_cast(target.operand), Name):
            target = Unary('*', strip_cast(target.operand), target.line)
            loc, kind = self.value_location(target.operand, '*')
            self.plain = True
            value = self.convert(self.expr(stmt.value), kind, stmt.line, f'*{target.operand.name}')
            return self.commented(stmt, [f'{loc}.set({value});'])
        raise unsupported(stmt.line, stmt.src, 'assignment to something other than a register '
                          'or *variable')

    def if_statement(self, stmt):
        cond = self.condition_code(self.expr(stmt.cond)).text
        head = self.commented(stmt, [f'if {cond} {{'])
        lines = head + self.branch(stmt.then)
        if stmt.otherwise is None:
            return lines + ['}']
        other = self.branch(stmt.otherwise)
        if isinstance(stmt.otherwise, If) and other and other[0].startswith('if '):
            return lines + ['} else ' + other[0]] + other[1:]
        return lines + ['} else {'] + other + ['}']

    def branch(self, stmt):
        """The lines of an if statement's branch, without braces."""
        stmts = stmt.stmts if isinstance(stmt, Block) else [stmt]
        return self.statements(stmts)

    def expression_statement(self, expr):
        if isinstance(expr, Call) and expr.func == 'spin_lock':
            # A lock no thread can release any more is given up: the execution is one
            # herd7 does not have (Lock::lock in tests/kernel/litmus/test.rs).
            self.arity(expr, 1)
            loc = self.lock_location(expr.args[0], expr.func)
            return f'if !{loc}.lock(m) {{ return; }}'
        if isinstance(expr, Call):
            return self.call(expr, statement=True).text + ';'
        return f'let _ = {self.expr(expr).text};'

    # Names.

    def register(self, name):
        """The visible register `name`, None if it is a parameter; else an error. A name
        that is neither is a register without a declaration, as herd7 allows: declared
        here, for the whole thread (its kind from its uses, kinds.py)."""
        if name.name in self.regs:
            # herd7's registers belong to the thread, not to a block.
            return self.regs[name.name]
        if name.name in self.params:
            return None
        if name.name not in self.test.vars and name.name not in self.regs:
            return self.implicit_register(name.name, name.line)
        if name.name in self.test.vars:
            raise LitmusError(name.line, f'unknown shared variable {name.name!r} (not a '
                              f'parameter of {self.where})')
        raise LitmusError(name.line, f'undeclared register {name.name!r}')

    def location(self, name, func):
        """The Rust place of a shared access through `name`: (code, kind of value)."""
        reg = self.register(name)
        if reg is not None:
            if reg.kind != 'ptr':
                raise LitmusError(name.line, f'{func}: register {name.name!r} is not a pointer')
            # What it points to: an int variable, or one that holds addresses (kinds.py).
            if self.test.kinds.target(('reg', self.thread.number, name.name)) == 'ptr':
                return f'm.deref_ptr({reg.rust})', 'ptr'
            return f'm.deref({reg.rust})', 'int'
        rust, var = self.params[name.name]
        return rust, var.kind

    def value_location(self, name, func):
        """A location whose value is read or written (a spinlock's is its lock word, as
        herd7 lets a test read or exchange it)."""
        loc, kind = self.location(name, func)
        if kind == 'lock':
            return f'{loc}.0', 'int'
        if kind == 'srcu':
            raise LitmusError(name.line, f'{func}: {name.name!r} is '
                              f'{KIND_C_TYPE[kind].rstrip(" *")}, not a value')
        return loc, kind

    # Expressions.

    def expr(self, expr):
        """`expr` as a Rust expression."""
        if isinstance(expr, Num):
            value = int32(expr.value, expr.line)
            return Code(str(value), 'int', ATOM if value >= 0 else UNARY, value)
        if isinstance(expr, Name):
            return self.name_value(expr)
        if isinstance(expr, Call):
            return self.call(expr)
        if isinstance(expr, Unary):
            return self.unary(expr)
        if isinstance(expr, Cast):
            return self.cast(expr)
        return self.binary(expr)

    def cast(self, expr):
        """`(type)operand`: the value itself (herd7's C has one kind of value); only NULL
        becomes a pointer by a cast."""
        code = self.expr(expr.operand)
        if '*' in expr.ctype and code.literal == 0:
            return Code('0', 'ptr')
        return code

    def name_value(self, name):
        if name.name == 'NULL' and name.name not in self.params:
            return Code('0', 'ptr')
        reg = self.register(name)
        if reg is not None:
            return Code(reg.rust, reg.kind)
        var = self.params[name.name][1]
        if var.kind not in ('int', 'ptr'):
            raise LitmusError(name.line, f'{name.name!r} is {KIND_C_TYPE[var.kind]}: only the '
                              'address of a variable that holds a number or an address can be '
                              'taken')
        return Code(address_of(var), 'ptr')

    def unary(self, expr):
        op, operand = expr.op, expr.operand
        if op == '*':
            operand = strip_cast(operand)
            if not isinstance(operand, Name):
                raise unsupported(expr.line, '*(...)', 'only *variable or *register')
            loc, kind = self.value_location(operand, '*')
            self.plain = True
            return Code(f'{loc}.read()', kind)
        if op == '&':
            raise unsupported(expr.line, '&', 'address of a register, outside of '
                              'try_cmpxchg()')
        code = self.expr(operand)
        if op == '!':
            if code.kind == 'bool':
                return Code('!' + paren(code, UNARY), 'bool', UNARY)
            return Code(f'{paren(code, CMP + 1)} == 0', 'bool', CMP)
        code = self.as_int(code, expr.line, op)
        if op == '-':
            return Code(f'{receiver(code)}.wrapping_neg()', 'int')
        return Code('!' + paren(code, UNARY), 'int', UNARY)

    def binary(self, expr):
        op = expr.op
        left, right = self.expr(expr.left), self.expr(expr.right)
        if op in ('&&', '||'):
            prec = AND if op == '&&' else OR
            left, right = self.condition_code(left), self.condition_code(right)
            return Code(f'{paren(left, prec)} {op} {paren(right, prec + 1)}', 'bool', prec)
        if op in ('==', '!=') and 'ptr' in (left.kind, right.kind):
            left = self.convert_code(left, 'ptr', expr.line, f'the other side of {op}')
            right = self.convert_code(right, 'ptr', expr.line, f'the other side of {op}')
            if left.text == '0' or right.text == '0':
                # NULL: a compiler may put 0 for a pointer found equal to it, in C too.
                return Code(f'{left.text} {op} {right.text}', 'bool', CMP)
            # Two addresses: C compares pointers, which a compiler does not substitute for one
            # another (their provenance differs); the registers here are integers, which it
            # would (tests/kernel/litmus/test.rs, ptr_eq).
            call = f'{HARNESS}::ptr_eq({left.text}, {right.text})'
            return Code(call, 'bool', ATOM) if op == '==' else Code(f'!{call}', 'bool', UNARY)
        if op in ('+', '-') and (left.kind == 'ptr') != (right.kind == 'ptr') and \
                not (op == '-' and right.kind == 'ptr'):
            return self.pointer_offset(op, left, right, expr.line)
        left, right = self.as_int(left, expr.line, op, True), self.as_int(right, expr.line, op, True)
        if op in COMPARISONS:
            return Code(f'{paren(left, CMP + 1)} {op} {paren(right, CMP + 1)}', 'bool', CMP)
        if op in BIT_PREC:
            prec = BIT_PREC[op]
            lhs = left.text if left.prec == prec or left.prec >= UNARY else f'({left.text})'
            return Code(f'{lhs} {op} {paren(right, UNARY)}', 'int', prec)
        if op in ARITH:
            return Code(f'{receiver(left)}.{ARITH[op]}({right.text})', 'int')
        if op in DIVISION:
            # Division by zero, undefined in C, gives 0 instead of a panic.
            return Code(f'{receiver(left)}.{DIVISION[op]}({right.text}).unwrap_or(0)', 'int')
        if right.literal is not None:
            if not 0 <= right.literal < 32:
                raise LitmusError(expr.line, f'shift by {right.literal} (out of range for int)')
            amount = right.text
        else:
            amount = f'{paren(right, UNARY)} as u32'
        return Code(f'{receiver(left)}.{SHIFTS[op]}({amount})', 'int')

    @staticmethod
    def kind_name(kind):
        return {'int': 'an int', 'bool': 'an int', 'ptr': 'a pointer',
                'void': 'a call that returns nothing'}[kind]

    def pointer_offset(self, op, left, right, line):
        """`p + i`, `i + p`, `p - i`: C's pointer arithmetic on an `int *` (in `int`s), as
        the tests that make an address depend on a value write it (`y + (r1 ^ r1)`)."""
        ptr, offset = (left, right) if left.kind == 'ptr' else (right, left)
        offset = self.as_int(offset, line, op)
        base = '0_usize' if ptr.text == '0' else paren(ptr, ATOM)
        scale = '-4' if op == '-' else '4'
        return Code(f'{base}.wrapping_add_signed(({paren(offset, UNARY)} as isize)'
                    f'.wrapping_mul({scale}))', 'ptr')

    def as_int(self, code, line, what, address_bits=False):
        """`code` as an int; with `address_bits`, an address too (its low 32 bits, for the
        arithmetic of tests such as `r1 ^ r1` on a pointer)."""
        if code.kind == 'bool':
            return Code(f'i32::from({code.text})', 'int')
        if code.kind == 'ptr' and address_bits:
            return Code(f'({code.text} as i32)', 'int')
        if code.kind != 'int':
            raise LitmusError(line, f'{what}: expected an int, found {self.kind_name(code.kind)}'
                              + (' (pointer arithmetic is not supported)'
                                 if code.kind == 'ptr' else ''))
        return code

    def convert_code(self, code, kind, line, what):
        """`code` as a value of `kind` ('int' or 'ptr') for `what`."""
        if kind == 'int':
            return self.as_int(code, line, what)
        if code.kind == 'ptr':
            return code
        if code.literal == 0:
            return Code('0', 'ptr')
        raise LitmusError(line, f'{what}: expected a pointer (a variable, a pointer register or '
                          f'0), found {self.kind_name(code.kind)}')

    def convert(self, code, kind, line, what):
        return self.convert_code(code, kind, line, what).text

    @staticmethod
    def condition_code(code):
        """`code` as a Rust `bool` (C: nonzero)."""
        if code.kind == 'bool':
            return code
        return Code(f'{paren(code, CMP + 1)} != 0', 'bool', CMP)

    # Calls.

    def call(self, call, statement=False):
        """A call, as an expression (`statement`: its result is not used)."""
        func, args = call.func, call.args
        if func in ACCESSORS:
            code = self.accessor(call)
        elif func in BARRIERS or func in RCU:
            self.arity(call, 0)
            self.test.grace_periods |= func.startswith('synchronize_')
            module = ATOMIC if func in BARRIERS else HARNESS
            code = Code(f'{module}::{func}()', 'void')
        elif func == 'spin_lock':
            raise LitmusError(call.line, 'spin_lock() returns nothing: its value cannot be used')
        elif func in LOCK_OPS:
            self.arity(call, 1)
            method, kind = LOCK_OPS[func]
            code = Code(f'{self.lock_location(args[0], func)}.{method}()', kind)
        elif func in SRCU_OPS:
            method, others, kind = SRCU_OPS[func]
            self.arity(call, 1 + others)
            loc, loc_kind = self.pointer_location(args[0], func)
            if loc_kind != 'srcu':
                raise LitmusError(call.line, f'{func}(): {strip_cast(args[0]).name!r} is not '
                                  'a struct srcu_struct')
            values = [self.convert(self.expr(a), 'int', call.line, f'{func}()')
                      for a in args[1:]]
            code = Code(f'{loc}.{method}({", ".join(values)})', kind)
            self.test.grace_periods |= func.startswith('synchronize_')
        elif func in self.ops[0]:
            code = self.atomic_op(call, self.ops[0][func], ('int',))
        elif func in self.ops[1]:
            code = self.atomic_op(call, self.ops[1][func], ('int', 'ptr'))
        elif func in RETIRED:
            raise unsupported(call.line, func, f'not in linux-kernel.def, herd7 refuses it too: '
                              f'{RETIRED[func]}')
        else:
            raise unsupported(call.line, func)
        if code.kind == 'void' and not statement:
            raise LitmusError(call.line, f'{func}() returns nothing: its value cannot be used')
        return code

    def arity(self, call, n):
        if len(call.args) != n:
            raise LitmusError(call.line, f'{call.func}() takes {n} argument'
                              f'{"" if n == 1 else "s"}, not {len(call.args)}')

    def lock_location(self, arg, func):
        loc, kind = self.pointer_location(arg, func)
        if kind != 'lock':
            raise LitmusError(arg.line, f'{func}(): {strip_cast(arg).name!r} is not a '
                              'spinlock_t')
        return loc

    def pointer_location(self, arg, func):
        """The location of an argument written `x` (a pointer)."""
        arg = strip_cast(arg)
        if not isinstance(arg, Name):
            raise LitmusError(arg.line, f'{func}(): the location must be a '
                              'shared variable or pointer register (written x, not *x)')
        return self.location(arg, f'{func}()')

    def deref_location(self, arg, func):
        """The location of an argument written `*x`."""
        arg = strip_cast(arg)
        if isinstance(arg, Unary) and arg.op == '*':
            arg = Unary('*', strip_cast(arg.operand), arg.line)
        if not (isinstance(arg, Unary) and arg.op == '*' and isinstance(arg.operand, Name)):
            raise LitmusError(arg.line, f'{func}(): the location must be '
                              'written *x, with x a shared variable or pointer register')
        return self.value_location(arg.operand, f'{func}()')

    def accessor(self, call):
        form, method, stores = ACCESSORS[call.func]
        self.arity(call, 2 if stores else 1)
        if form == 'deref':
            loc, kind = self.deref_location(call.args[0], call.func)
        else:
            loc, kind = self.pointer_location(call.args[0], call.func)
            if kind == 'lock':
                loc, kind = f'{loc}.0', 'int'
            elif kind == 'srcu':
                raise LitmusError(call.line, f'{call.func}(): {strip_cast(call.args[0]).name!r} '
                                  f'is {KIND_C_TYPE[kind].rstrip(" *")}, not a value')
        if call.func in RCU_POINTER and kind == 'ptr':
            # On a pointer cell, the library's RCU-protected pointer (rust/atomic/rcu.rs),
            # whose functions have C's names; the cell holds the address as a usize.
            pointer = f'{HARNESS}::rcu_pointer({loc})'
            if not stores:
                # `as` binds less tightly than a unary operator, more than a binary one.
                return Code(f'{ATOMIC}::{call.func}({pointer}) as usize', kind, UNARY - 1)
            value = self.convert(self.expr(call.args[1]), kind, call.line, f'{call.func}()')
            if not re.fullmatch(r'[\w.]+(\([\w.]*\))?', value):
                value = f'({value})'
            return Code(f'{ATOMIC}::{call.func}({pointer}, {value} as *mut u8)', 'void')
        if not stores:
            return Code(f'{loc}.{method}()', kind)
        value = self.convert(self.expr(call.args[1]), kind, call.line, f'{call.func}()')
        if call.func == 'smp_store_mb':
            return Code(f'{{ {loc}.{method}({value}); {ATOMIC}::smp_mb() }}', 'void')
        return Code(f'{loc}.{method}({value})', 'void')

    def atomic_op(self, call, op, kinds):
        """A table operation: `v` becomes the receiver, the other arguments keep their order."""
        self.arity(call, len(op.args))
        loc, kind, values = None, None, []
        for spec, arg in zip(op.args, call.args):
            if spec == 'v':
                loc, kind = self.pointer_location(arg, call.func)
                if kind == 'lock':
                    loc, kind = f'{loc}.0', 'int'
                if kind not in kinds:
                    raise LitmusError(call.line, f'{call.func}(): {arg.name!r} is '
                                      f'{KIND_C_TYPE[kind]}; expected '
                                      f'{" or ".join(KIND_C_TYPE[k] for k in kinds)}')
        for spec, arg in zip(op.args, call.args):
            if spec == 'i':
                values.append(self.convert(self.expr(arg), kind, call.line, f'{call.func}()'))
            elif spec == 'p':
                values.append(self.old_pointer(arg, call.func, kind))
        result = kind if op.result == 'int' else op.result
        return Code(f'{loc}.{op.method}({", ".join(values)})', result)

    def old_pointer(self, arg, func, kind):
        """try_cmpxchg()'s `&old`: a register of the variable's type."""
        if isinstance(arg, Unary) and arg.op == '&' and isinstance(arg.operand, Name):
            reg = self.register(arg.operand)
            if reg is not None and reg.kind == kind:
                return f'&mut {reg.rust}'
        raise LitmusError(arg.line, f'{func}(): the old value must be written '
                          f'&r, with r an {"int" if kind == "int" else "int *"} register')


def address_of(var):
    """The address of shared variable `var` (its cell: `int` or pointer)."""
    return f'm.{"addr" if var.kind == "int" else "ptr_addr"}({var.index})'


def assigned_names(stmt):
    """The names assigned anywhere in a statement (`r = ...`): registers, declared or not."""
    if isinstance(stmt, Assign) and isinstance(stmt.target, Name):
        return [stmt.target.name]
    if isinstance(stmt, Block):
        return [n for s in stmt.stmts for n in assigned_names(s)]
    if isinstance(stmt, If):
        return assigned_names(stmt.then) + (assigned_names(stmt.otherwise)
                                            if stmt.otherwise else [])
    return []


def declared_names(stmt):
    """The names of the registers declared anywhere in a statement."""
    if isinstance(stmt, Decl):
        return [stmt.name]
    if isinstance(stmt, Block):
        return [n for s in stmt.stmts for n in declared_names(s)]
    if isinstance(stmt, If):
        return declared_names(stmt.then) + (declared_names(stmt.otherwise)
                                            if stmt.otherwise else [])
    return []
