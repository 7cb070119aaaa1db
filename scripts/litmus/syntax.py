# SPDX-License-Identifier: GPL-2.0
"""The syntax tree of a litmus test, as the parser (parser.py) builds it."""

from dataclasses import dataclass, field

@dataclass
class Num:
    value: int
    line: int


@dataclass
class Name:
    name: str
    line: int


@dataclass
class Unary:
    op: str         # '-', '!', '~', '*' (dereference) or '&' (address of)
    operand: object
    line: int


@dataclass
class Binary:
    op: str
    left: object
    right: object
    line: int


@dataclass
class Cast:
    ctype: str      # as written: `intptr_t`, `int **`
    operand: object
    line: int


@dataclass
class Call:
    func: str
    args: list
    line: int


@dataclass
class Decl:
    name: str
    ctype: str
    init: object    # an expression or None
    line: int
    src: str


@dataclass
class Assign:
    target: object
    value: object
    line: int
    src: str


@dataclass
class ExprStmt:
    expr: object
    line: int
    src: str


@dataclass
class If:
    cond: object
    then: object
    otherwise: object
    line: int
    src: str


@dataclass
class Block:
    stmts: list
    line: int
    scoped: bool = True     # False for the declarations of one statement (`int a, b;`)


@dataclass
class Param:
    name: str
    ctype: str
    line: int


@dataclass
class Thread:
    number: int
    params: list
    body: Block
    line: int


@dataclass
class InitItem:
    """`x=1;`, `int *p=&x;` or, with `thread`, a register's `0:r1=x;` or `int 0:r1;`."""
    name: str
    ctype: str      # None when untyped
    value: tuple    # ('int', n), ('addr', name) or None
    line: int
    thread: int = None


@dataclass
class Loc:
    """A register `thread:reg` or a shared variable `var` of the final clause."""
    thread: int     # None for a variable
    name: str
    line: int

    def __str__(self):
        return self.name if self.thread is None else f'{self.thread}:{self.name}'


@dataclass
class Atom:
    loc: Loc
    value: tuple    # ('int', n), ('name', name): its address, or ('loc', Loc): its value
    line: int


@dataclass
class Prop:
    op: str         # 'and', 'or', 'not' or 'const'
    args: list      # sub-propositions, or [True/False] for 'const'


@dataclass
class Litmus:
    name: str
    name_line: int
    result: tuple   # (line, word, rest) or None
    init: list
    threads: list
    locations: list
    quantifier: str = None
    clause: object = None
    clause_text: str = ''
    clause_line: int = 0
    filter: object = None   # a Prop: only the executions whose final state satisfies it count
    filter_text: str = ''
    headers: list = field(default_factory=list)     # (line, `key=value`): herd's, not used
