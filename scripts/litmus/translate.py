# SPDX-License-Identifier: GPL-2.0
"""Translation of one parsed test: its shared variables, its threads (thread.py) and its final
clause, checked against what the runner can run; errors go to a list, not raised."""

from dataclasses import dataclass, field

from .dialect import (HARNESS, KIND_C_TYPE, MAX_SLOTS, MAX_THREADS, MAX_VARS, OPEN,
                      split_type, var_kind)
from .errors import LitmusError, unsupported
from .kinds import clause_atoms, infer
from .parser import RESULTS
from .rust import AND, CMP, OR, UNARY, Code, int32, paren, rust_ident
from .syntax import Atom
from .thread import ThreadTranslator

# What a variable of each kind is, for messages.
KIND_WORDS = {'int': 'an int variable', 'ptr': 'a pointer variable', 'lock': 'a spinlock',
              'srcu': 'an SRCU domain', OPEN: 'a number or address'}


@dataclass
class Var:
    name: str
    index: int
    line: int       # of its first appearance
    kind: str = None
    init: tuple = ('int', 0)    # ('int', n) or ('addr', name), then ('addr', index)
    init_line: int = None       # of its initialisation, if any
    decls: list = field(default_factory=list)   # (kind, where, line, C type) of its types


@dataclass
class Slot:
    name: str
    kind: str       # 'int' or 'ptr'
    source: str     # Rust `Source`


class Translator:
    """Checks one parsed test and renders it as Rust; errors go to `errors`."""

    def __init__(self, test, ops, errors):
        self.test, self.ops, self.errors = test, ops, errors
        self.set_ident(rust_ident(test.name))
        self.vars = {}
        self.thread_fns = []     # (Rust lines, registers) per thread
        self.slots = []
        self.holds = 'false'
        self.filter = None      # the filter's Rust expression, if the test has one
        self.kinds = None       # kinds.Kinds of the variables and registers
        self.reg_inits = {}     # thread -> register name -> InitItem of the init section
        self.grace_periods = False  # a thread waits for a grace period

    def set_ident(self, ident):
        """Names the Rust items: `ident` lower case for functions, upper case for the static."""
        self.fn_prefix, self.static = ident.lower(), ident.upper()
        if self.static == 'TESTS':
            self.fn_prefix, self.static = 't_' + self.fn_prefix, 'T_' + self.static

    def translate(self):
        self.collect_vars()
        if len(self.test.threads) > MAX_THREADS:
            self.error(self.test.threads[MAX_THREADS].line,
                       f'too many threads ({len(self.test.threads)}; the runner supports at '
                       f'most {MAX_THREADS})')
        # Registers the final clause names that their thread never mentions: 0, as in herd7.
        self.clause_regs = {}
        for atom, _ in clause_atoms(self.test):
            for loc in [atom.loc] + ([atom.value[1]] if atom.value[0] == 'loc' else []):
                if loc.thread is not None:
                    self.clause_regs.setdefault(loc.thread, []).append((loc.name, loc.line))
        for loc in self.test.locations:
            if loc.thread is not None:
                self.clause_regs.setdefault(loc.thread, []).append((loc.name, loc.line))
        for thread in self.test.threads:
            self.thread_fns.append(ThreadTranslator(self, thread).translate())
        self.translate_final()

    def error(self, line, message):
        self.errors.append(LitmusError(line, message))

    # Shared variables.

    def var(self, name, line):
        if name not in self.vars:
            self.vars[name] = Var(name, len(self.vars), line)
        return self.vars[name]

    def expectation(self):
        """The runner's name of the test's `Result:` if it is one the runner checks (Never,
        Sometimes, Always, DEADLOCK), else None: herd7 ignores the comment, and a test that
        says `Result: Maybe` runs with no expectation, as one without a Result."""
        result = self.test.result
        return RESULTS.get(result[1]) if result else None

    def collect_vars(self):
        """The shared variables, in order of first appearance, with their kinds and values;
        the init section's registers."""
        initialised = set()
        for item in self.test.init:
            if item.thread is not None:
                self.init_register(item)
                continue
            var = self.var(item.name, item.line)
            ctype = item.ctype
            if ctype is not None and item.value and item.value[0] == 'int' and \
                    item.value[1] != 0 and split_type(ctype)[1] > 0:
                # `int *z=1;` (C-RCU-remove): herd7's C is untyped, the location holds the
                # number 1, as `int z=1;` would; its uses decide as for an int variable.
                ctype = split_type(ctype)[0]
            if ctype is not None:
                self.declare(var, ctype, 'init', 'the init section', item.line)
            if item.value and item.value[0] == 'addr':
                self.var(item.value[1], item.line)
            if item.name in initialised:
                self.error(item.line, f'{item.name!r} initialised twice')
            initialised.add(item.name)
            if item.value:
                var.init, var.init_line = item.value, item.line
        for thread in self.test.threads:
            for param in thread.params:
                var = self.var(param.name, param.line)
                self.declare(var, param.ctype, 'param', f'P{thread.number}', param.line)
        declared = {}
        for var in self.vars.values():
            fixed = [kind for kind, *_ in var.decls if kind != OPEN]
            declared[var.name] = fixed[0] if fixed else None
            for kind in ('lock', 'srcu'):
                if kind in fixed:
                    declared[var.name] = kind
        self.kinds = infer(self.test, declared)
        if len(self.vars) > MAX_VARS:
            extra = list(self.vars.values())[MAX_VARS]
            self.error(extra.line, f'too many shared variables ({len(self.vars)}; the runner '
                       f'supports at most {MAX_VARS})')
        for var in self.vars.values():
            self.resolve_kind(var)
        for var in self.vars.values():
            self.check_init(var)
        for var in self.vars.values():
            if var.init[0] == 'addr':
                var.init = ('addr', self.vars[var.init[1]].index)

    def init_register(self, item):
        """`0:r1=x;` or `int 0:r1;`: register r1 of P0, its type and initial value."""
        if item.thread >= len(self.test.threads):
            self.error(item.line, f'{item.thread}:{item.name}: there is no thread '
                       f'P{item.thread}')
            return
        regs = self.reg_inits.setdefault(item.thread, {})
        if item.name in regs:
            self.error(item.line, f'register {item.thread}:{item.name} initialised twice')
        regs[item.name] = item
        if item.value and item.value[0] == 'addr':
            self.var(item.value[1], item.line)

    def declare(self, var, ctype, role, where, line):
        """Records that `var` is declared `ctype` (role 'param' or 'init') in `where`."""
        kind = var_kind(ctype, role)
        if kind is None:
            shown = f'{ctype}{"" if ctype.endswith("*") else " "}{var.name}'
            example = 'int *x, intptr_t *x, int **p, atomic_t *a, spinlock_t *l, ' \
                'struct srcu_struct *s' if role == 'param' else \
                'int x, intptr_t x, int *p, atomic_t a, spinlock_t l, struct srcu_struct s'
            self.error(line, str(unsupported(line, shown, f'a {"parameter" if role == "param" else "variable"} '
                                             f'is one of {example}')))
            return
        var.decls.append((kind, where, line, ctype))

    def resolve_kind(self, var):
        """A spinlock or SRCU domain is one in every declaration (of those that are no
        numbers: a thread may declare it `int *` and not use it) if a spin_*() or SRCU
        operation uses it; a number or an address is what the uses make it (kinds.py)."""
        special = [d for d in var.decls if d[0] in ('lock', 'srcu')]
        if var.name not in self.kinds.used_as:
            special = []
        for kind, where, line, ctype in special[1:]:
            first = special[0]
            if kind != first[0]:
                self.error(line, f'{var.name!r} is {KIND_WORDS[kind]} ({self.shown(ctype, var)} '
                           f'in {where}) but {KIND_WORDS[first[0]]} '
                           f'({self.shown(first[3], var)} in {first[1]})')
        var.kind = special[0][0] if special else self.kinds.of(('var', var.name))

    @staticmethod
    def shown(ctype, var):
        base, stars = split_type(ctype)
        return f'{base} {"*" * stars}{var.name}'

    def check_init(self, var):
        if var.init_line is None:
            return
        (what, value), line = var.init, var.init_line
        if what == 'addr':
            target = self.vars[value]
            if var.kind != 'ptr':
                self.error(line, f'{var.name!r} is not a pointer ({KIND_C_TYPE[var.kind]} in '
                           f'the threads) but is initialised to the address of {value!r}')
            elif target.kind not in ('int', 'ptr'):
                self.error(line, f'{var.name}={value}: only the address of a variable that '
                           f'holds a number or an address can be taken, and {value!r} is '
                           f'{KIND_C_TYPE[target.kind]}')
        elif var.kind in ('lock', 'srcu'):
            self.error(line, f'{KIND_WORDS[var.kind]} ({var.name!r}) cannot be initialised')
        elif var.kind == 'ptr' and value != 0:
            self.error(line, f'pointer {var.name!r} initialised to {value}, not to an address')
        elif var.kind == 'int':
            try:
                int32(value, line)
            except LitmusError as e:
                self.errors.append(e)

    # The final clause.

    def translate_final(self):
        for loc in self.test.locations:
            try:
                self.slot(loc)
            except LitmusError as e:
                self.errors.append(e)
        location_slots, self.slots = self.slots, []
        try:
            self.holds = self.prop(self.test.clause).text
        except LitmusError as e:
            self.errors.append(e)
        if self.test.filter is not None:
            try:
                self.filter = self.prop(self.test.filter).text
            except LitmusError as e:
                self.errors.append(e)
        # The clause's and the filter's first, then those of the locations not in them.
        in_clause = {s.name for s in self.slots}
        self.slots += [s for s in location_slots if s.name not in in_clause]
        if len(self.slots) > MAX_SLOTS:
            self.error(self.test.clause_line, f'too many values in the final state '
                       f'({len(self.slots)}; the runner supports at most {MAX_SLOTS})')

    def slot(self, loc):
        """The index of the slot of `loc` (added if new) and its kind."""
        for i, slot in enumerate(self.slots):
            if slot.name == str(loc):
                return i, slot.kind
        if loc.thread is None:
            var = self.vars.get(loc.name)
            if var is None:
                raise LitmusError(loc.line, f'unknown shared variable {loc.name!r}')
            if var.kind in ('lock', 'srcu'):
                raise LitmusError(loc.line, f'{KIND_WORDS[var.kind]} ({loc.name!r}) has no '
                                  'value to check')
            kind, source = var.kind, f'{HARNESS}::Source::Var({var.index})'
        else:
            if loc.thread >= len(self.thread_fns):
                raise LitmusError(loc.line, f'{loc}: there is no thread P{loc.thread}')
            reg = self.thread_fns[loc.thread][1].get(loc.name)
            if reg is None:
                raise LitmusError(loc.line, f'undeclared register {str(loc)!r}')
            kind = reg.kind
            source = f'{HARNESS}::Source::Reg {{ thread: {loc.thread}, index: {reg.index} }}'
        self.slots.append(Slot(str(loc), kind, source))
        return len(self.slots) - 1, kind

    def prop(self, prop):
        """The clause's proposition as a Rust `bool` expression over the state `s`."""
        if isinstance(prop, Atom):
            return self.atom(prop)
        if prop.op == 'const':
            return Code('true' if prop.args[0] else 'false', 'bool')
        if prop.op == 'not':
            return Code('!' + paren(self.prop(prop.args[0]), UNARY), 'bool', UNARY)
        prec = AND if prop.op == 'and' else OR
        left, right = (self.prop(p) for p in prop.args)
        op = ' && ' if prop.op == 'and' else ' || '
        return Code(paren(left, prec) + op + paren(right, prec + 1), 'bool', prec)

    def atom(self, atom):
        index, kind = self.slot(atom.loc)
        what, value = atom.value
        if what == 'loc':
            other, other_kind = self.slot(value)
            if other_kind != kind:
                raise LitmusError(atom.line, f'{atom.loc}={value}: {atom.loc} is '
                                  f'{"an int" if kind == "int" else "a pointer"} and {value} '
                                  f'{"an int" if other_kind == "int" else "a pointer"}')
            return Code(f's[{index}] == s[{other}]', 'bool', CMP)
        # As in herd7, a number and an address (a symbol) are never equal.
        never = Code(f'false /* {atom.loc}={value}: a number is no address */', 'bool')
        if kind == 'int':
            if what == 'name' and value != 'NULL':
                return never
            return Code(f's[{index}] == {0 if what == "name" else int32(value, atom.line)}',
                        'bool', CMP)
        if what == 'int' and value == 0 or what == 'name' and value == 'NULL':
            return Code(f's[{index}] == {HARNESS}::NULL', 'bool', CMP)
        if what == 'int':
            return never
        target = self.vars.get(value)
        if target is None:
            return Code(f'false /* {atom.loc}={value}: no such variable */', 'bool')
        if target.kind not in ('int', 'ptr'):
            return Code(f'false /* {atom.loc}={value}: {KIND_C_TYPE[target.kind]} */', 'bool')
        return Code(f's[{index}] == {target.index}', 'bool', CMP)

    def thread_fn(self, n):
        return f'{self.fn_prefix}_p{n}'
