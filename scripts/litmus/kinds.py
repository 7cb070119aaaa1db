# SPDX-License-Identifier: GPL-2.0
"""Which values are addresses, and of what. herd7 does not type-check a test: a register may be
used without a declaration, an `intptr_t` (or `long`) variable or register may hold a number or
an address, the init section may give a variable an address without a type, and an address
may be that of a variable that itself holds an address (`x1=y1; 0:r3=x2;` with `x2=y2`). The
runner keeps numbers and addresses in cells of their own, so each variable and register gets
the kind its uses give it, and each address the kind of what it points to:

- a location read or written with an address (a variable's name, `&x`, a pointer register,
  a location that holds addresses) holds addresses; so does a register dereferenced (`*r`),
  one given an address, and one compared with a variable's name in the final clause;
- the two sides of an assignment, of a write and its location, and of a `loc=loc` comparison
  in the final clause have one kind, and when they are addresses, what they point to has one
  kind too (the address of `x` points to what `x` holds);
- a name its uses do not decide has the kind of its declaration (`int *x` is a number,
  `int **p` an address: herd7 lets `int *x` hold an address too), else it holds numbers.

The rules are flow-insensitive, over the whole test: equivalence classes (union-find), each
with a kind and, for addresses, the class of what they point to. A class that gets both kinds
from its uses keeps the first, and the translation then reports the use that disagrees with
it, at its line.

A value is None (a number that may also be NULL: 0), NUMBER, a class key, or `Address(key)`
(an address of a location of class `key`, None if unknown)."""

from dataclasses import dataclass

from .dialect import ACCESSORS, LOCK_OPS, SRCU_OPS, base_kind
from .syntax import Assign, Block, Call, Cast, Decl, ExprStmt, If, Name, Num, Unary

NUMBER, ADDRESS = 'int', 'ptr'


@dataclass(frozen=True)
class Address:
    """An address, of a location of class `of` (None: not known)."""
    of: tuple = None


class Kinds:
    """The kinds of a test's variables ('var', name) and registers ('reg', thread, name), as
    far as the declarations leave them open, and of what their addresses point to."""

    def __init__(self):
        self.parent = {}
        self.kind = {}      # root -> the kind its uses give it
        self.declared = {}  # root -> the kind a declaration gives it
        self.pointee = {}   # root -> the class of what its addresses point to
        self.used_as = {}   # variable name -> 'lock' or 'srcu': a spin_*() or SRCU argument

    def find(self, key):
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def set(self, key, kind, declared=False):
        """Gives class `key` a kind (NUMBER, ADDRESS or an `Address`)."""
        root = self.find(key)
        if isinstance(kind, Address):
            if kind.of is not None:
                self.join(self.points_to(root), kind.of)
            kind = ADDRESS
        kinds = self.declared if declared else self.kind
        if kind and not kinds.get(root):
            kinds[root] = kind

    def points_to(self, key):
        """The class of what the addresses of class `key` point to (made if new)."""
        root = self.find(key)
        if root not in self.pointee:
            self.pointee[root] = ('pointee', root)
        return self.find(self.pointee[root])

    def join(self, a, b):
        """Gives `a` and `b` (values) one kind."""
        if a is None or b is None:
            return
        if not isinstance(a, tuple):
            a, b = b, a
        if not isinstance(a, tuple):
            return      # two kinds: nothing to join
        if not isinstance(b, tuple):
            self.set(a, b)
            return
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        for kinds in (self.kind, self.declared):
            kinds[ra] = kinds.get(ra) or kinds.get(rb)
        self.parent[rb] = ra
        pa, pb = self.pointee.get(ra), self.pointee.get(rb)
        if pb is not None:
            if pa is None:
                self.pointee[ra] = pb
            else:
                self.join(pa, pb)

    def of(self, key):
        """The kind of `key`: what its uses gave it, else its declaration, else a number."""
        root = self.find(key)
        return self.kind.get(root) or self.declared.get(root) or NUMBER

    def target(self, key):
        """The kind of what an address of class `key` points to: NUMBER (an `int` variable)
        or ADDRESS (a variable that holds addresses)."""
        root = self.find(key)
        return self.of(self.pointee[root]) if root in self.pointee else NUMBER

    def known(self, value):
        """The kind of a value so far (None while its uses have not decided it)."""
        if isinstance(value, Address):
            return ADDRESS
        if isinstance(value, tuple):
            return self.kind.get(self.find(value))
        return value


def infer(test, declared_var_kinds):
    """The kinds of `test`'s variables and registers. `declared_var_kinds`: variable name ->
    kind from the declarations ('int', 'ptr', 'lock', 'srcu', or None: open)."""
    kinds = Kinds()
    for name, kind in declared_var_kinds.items():
        if kind in (NUMBER, ADDRESS):
            kinds.set(('var', name), kind, declared=True)
    for item in test.init:
        key = ('var', item.name) if item.thread is None else ('reg', item.thread, item.name)
        if item.thread is not None and item.ctype:
            kinds.set(key, base_kind(item.ctype, 'register'), declared=True)
        if item.value and item.value[0] == 'addr':
            kinds.set(key, Address(('var', item.value[1])))
    # Twice: the second pass knows which operands of `+` and `-` are addresses (a pointer
    # plus a number is a pointer), whatever the order of the statements.
    for _ in range(2):
        for thread in test.threads:
            ThreadKinds(kinds, thread).visit(thread.body)
    for atom, _ in clause_atoms(test):
        left = loc_key(atom.loc)
        what, value = atom.value
        if what == 'name' and value != 'NULL':
            kinds.set(left, ADDRESS)
        elif what == 'loc':
            kinds.join(left, loc_key(value))
    return kinds


def loc_key(loc):
    return ('var', loc.name) if loc.thread is None else ('reg', loc.thread, loc.name)


def clause_atoms(test):
    """The atoms of the final clause and of the filter, with the proposition each is in."""
    out = []

    def walk(prop, where):
        if prop is None:
            return
        if hasattr(prop, 'loc'):
            out.append((prop, where))
        else:
            for arg in prop.args:
                if not isinstance(arg, bool):
                    walk(arg, where)
    walk(test.clause, 'clause')
    walk(test.filter, 'filter')
    return out


class ThreadKinds:
    """The constraints of one thread's body."""

    def __init__(self, kinds, thread):
        self.kinds, self.number = kinds, thread.number
        self.params = {p.name for p in thread.params}

    def reg(self, name):
        return ('reg', self.number, name)

    def visit(self, stmt):
        if isinstance(stmt, Block):
            for s in stmt.stmts:
                self.visit(s)
        elif isinstance(stmt, Decl):
            key = self.reg(stmt.name)
            self.kinds.set(key, base_kind(stmt.ctype, 'register'), declared=True)
            if stmt.init is not None:
                self.kinds.join(key, self.value(stmt.init))
        elif isinstance(stmt, Assign):
            if isinstance(stmt.target, Name) and stmt.target.name not in self.params:
                self.kinds.join(self.reg(stmt.target.name), self.value(stmt.value))
            else:
                self.kinds.join(self.content(strip_deref(stmt.target)), self.value(stmt.value))
        elif isinstance(stmt, If):
            self.value(stmt.cond)
            self.visit(stmt.then)
            if stmt.otherwise is not None:
                self.visit(stmt.otherwise)
        elif isinstance(stmt, ExprStmt):
            self.value(stmt.expr)

    def content(self, expr):
        """The class of what location `expr` (written `x`: a parameter or a pointer register)
        holds."""
        expr = strip_cast(expr)
        if isinstance(expr, Name):
            if expr.name in self.params:
                return ('var', expr.name)
            key = self.reg(expr.name)
            self.kinds.set(key, ADDRESS)
            return self.kinds.points_to(key)
        return None

    def value(self, expr):
        """The value of `expr` (see the module docs)."""
        if isinstance(expr, Num):
            return None if expr.value == 0 else NUMBER
        if isinstance(expr, Name):
            if expr.name in self.params:
                return Address(('var', expr.name))
            return None if expr.name == 'NULL' else self.reg(expr.name)
        if isinstance(expr, Cast):
            inner = self.value(expr.operand)
            return Address() if '*' in expr.ctype and inner is NUMBER else inner
        if isinstance(expr, Unary):
            if expr.op == '*':
                return self.content(expr.operand)
            if expr.op == '&':
                return Address()
            self.value(expr.operand)
            return NUMBER
        if isinstance(expr, Call):
            return self.call(expr)
        left, right = self.value(expr.left), self.value(expr.right)
        if expr.op in ('+', '-'):
            for side in (left, right):
                if self.kinds.known(side) == ADDRESS:
                    return side
        return NUMBER

    def call(self, call):
        func, args = call.func, call.args
        if func in ACCESSORS and args:
            form, _, stores = ACCESSORS[func]
            loc = strip_deref(args[0]) if form == 'deref' else args[0]
            content = self.content(loc)
            if stores and len(args) > 1:
                self.kinds.join(content, self.value(args[1]))
                return None
            return content
        if func in LOCK_OPS or func in SRCU_OPS:
            first = strip_cast(args[0]) if args else None
            if isinstance(first, Name) and first.name in self.params:
                self.kinds.used_as.setdefault(first.name, 'lock' if func in LOCK_OPS else 'srcu')
            for arg in args[1:]:
                self.value(arg)
            return NUMBER
        if (func.startswith('xchg') or func.startswith('cmpxchg')) and args:
            content = self.content(args[0])
            for arg in args[1:]:
                self.kinds.join(content, self.value(arg))
            return content
        for arg in args:
            if isinstance(strip_cast(arg), Name) and strip_cast(arg).name in self.params:
                self.kinds.set(('var', strip_cast(arg).name), NUMBER)
            else:
                self.value(arg)
        # atomic_*() on an atomic_t; anything else the translation refuses.
        return NUMBER if func.startswith('atomic_') else None


def strip_cast(expr):
    while isinstance(expr, Cast):
        expr = expr.operand
    return expr


def strip_deref(expr):
    """`x` of `*x` (and of `*(int **)x`)."""
    expr = strip_cast(expr)
    if isinstance(expr, Unary) and expr.op == '*':
        return strip_cast(expr.operand)
    return expr
