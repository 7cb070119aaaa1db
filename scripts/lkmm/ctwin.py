# SPDX-License-Identifier: GPL-2.0
"""C's compiled twin of a litmus test, for the herd7 check (scripts/memory-model/herd-check):
each thread of the C test written out as the kernel's C (the test's own statements, with the
kernel's READ_ONCE(), atomic_*(), barriers, as klitmus7 writes them), as one function between
the markers of tests/herd/harness.h, which are those of tests/herd/harness.rs. Compiled with
the kernel's C flags and compiler against the same kernel as our code, disassembled and lowered
by the same translator, run by herd7 under the same model: the reference our compiled code is
held to, test by test.

The thread's shared variables come from the first marker's registers, in the order of
`litmus2rust --json` (`vars`, which archtest.py gives their locations in); its registers are
declared at the top of the function with the initial values of the test's init section, and
stored in `out` at their `index` for the second marker, as the Rust entry points do.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from litmus.dialect import KIND_C_TYPE, split_type  # noqa: E402
from litmus.parser import Parser  # noqa: E402
from litmus.syntax import Assign, Binary, Block, Call, Cast, Decl, ExprStmt, If, Name, Num, \
    Unary  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARNESS = os.path.join(ROOT, 'tests', 'herd', 'harness.h')
MARKED = 8          # the registers of HERD_VARIABLES
MARKED_WIDE = 12    # of HERD_VARIABLES_WIDE


class TwinError(Exception):
    """A test that has no C twin (its threads are not those the JSON describes)."""


def c_type(ctype):
    """A litmus type as the twin declares it: spinlock_t is the harness's lock word."""
    return ctype.replace('spinlock_t', 'herd_lock_t')


def declare(ctype, name):
    """`int r0`, `int *p`: a declaration of `name` with C type `ctype`."""
    ctype = c_type(ctype).replace(' *', '*').replace('*', ' *', 1) if '*' in ctype else ctype
    return f'{ctype}{name}' if ctype.endswith('*') else f'{ctype} {name}'


def expr(e, ptrs=frozenset()):
    """C source of an expression of the test, fully parenthesised. `ptrs`: the names that
    hold addresses; an atomic_*() operation takes them as `atomic_t *` (herd7's C passes an
    `int *x` to atomic_inc(x), the kernel's C wants the type)."""
    def sub(x):
        return expr(x, ptrs)
    if isinstance(e, Num):
        return str(e.value)
    if isinstance(e, Name):
        return e.name
    if isinstance(e, Unary):
        return f'({e.op}{sub(e.operand)})'
    if isinstance(e, Binary):
        return f'({sub(e.left)} {e.op} {sub(e.right)})'
    if isinstance(e, Cast):
        return f'(({c_type(e.ctype)}){sub(e.operand)})'
    if isinstance(e, Call):
        atomic = e.func.startswith('atomic_') and not e.func.startswith('atomic_long_')
        return f'{e.func}(' + ', '.join(
            f'((atomic_t *){a.name})' if atomic and isinstance(a, Name) and a.name in ptrs
            else sub(a) for a in e.args) + ')'
    raise TwinError(f'no C for expression {e!r}')


def declarations(stmt, found):
    """Every declaration of a statement, in order: (name, C type)."""
    if isinstance(stmt, Decl):
        found.setdefault(stmt.name, stmt.ctype)
    elif isinstance(stmt, Block):
        for s in stmt.stmts:
            declarations(s, found)
    elif isinstance(stmt, If):
        declarations(stmt.then, found)
        if stmt.otherwise is not None:
            declarations(stmt.otherwise, found)
    return found


def statement(s, indent, ptrs=frozenset()):
    """C source lines of a statement; declarations are hoisted (`declarations`), so one
    with an initial value is an assignment here."""
    pad = '\t' * indent
    if isinstance(s, Decl):
        return [f'{pad}{s.name} = {expr(s.init, ptrs)};'] if s.init is not None else []
    if isinstance(s, Assign):
        return [f'{pad}{expr(s.target, ptrs)} = {expr(s.value, ptrs)};']
    if isinstance(s, ExprStmt):
        return [f'{pad}{expr(s.expr, ptrs)};']
    if isinstance(s, If):
        lines = [f'{pad}if ({expr(s.cond, ptrs)}) {{'] + statement(s.then, indent + 1, ptrs)
        if s.otherwise is not None:
            lines += [f'{pad}}} else {{'] + statement(s.otherwise, indent + 1, ptrs)
        return lines + [f'{pad}}}']
    if isinstance(s, Block):
        inner = [line for st in s.stmts for line in statement(st, indent + 1, ptrs)]
        return [f'{pad}{{'] + inner + [f'{pad}}}'] if s.scoped else \
            [line for st in s.stmts for line in statement(st, indent, ptrs)]
    raise TwinError(f'no C for statement {s!r}')


def register_value(info, var_index, ctype):
    """A register's initial value as C: a number, or a variable's address from the marker."""
    init = info.get('init') or {'int': 0}
    if 'addr' in init:
        return f'({ctype})herd_v[{var_index[init["addr"]]}]'
    return str(init['int'])


def thread_function(described, thread, ast):
    """The entry point herd_<fn> of one thread: C source."""
    var_index = {v['name']: n for n, v in enumerate(described['vars'])}
    wide = len(described['vars']) > MARKED
    name = f'herd_{thread["fn"]}'
    lines = [f'void {name}(void);', f'void {name}(void)', '{',
             f'\tvoid *herd_v[{MARKED_WIDE if wide else MARKED}];',
             '\tlong herd_out[HERD_MAX_REGS] = { 0 };', '',
             f'\tHERD_VARIABLES{"_WIDE" if wide else ""}(herd_v);', '\t{']
    # herd7's C is untyped: an `int` parameter or register is declared with as many `*` as
    # what it holds (litmus2rust's kinds) needs, where its declaration has another count
    # (`int *y` holding an address is `int **y`; LB-addr-equals's `int r1 = y;` is
    # `int *r1`), which the kernel's C would refuse (-Werror=int-conversion). Other types
    # (`intptr_t`) stay as declared.
    kinds = {v['name']: v['kind'] for v in described['vars']}
    for p in ast.params:
        if p.name not in var_index:
            raise TwinError(f'P{ast.number}\'s parameter {p.name} is no variable of the test')
        ctype = p.ctype
        wanted = KIND_C_TYPE.get(kinds[p.name])
        if wanted and split_type(ctype)[0] == 'int' and ctype.count('*') != wanted.count('*'):
            ctype = wanted
        lines.append(f'\t\t{declare(ctype, p.name)} = ({c_type(ctype)})'
                     f'herd_v[{var_index[p.name]}];')
    decls = declarations(ast.body, {})
    regs = thread['regs']
    for reg, info in regs.items():
        if reg not in decls:
            decls[reg] = 'int *' if info['kind'] == 'ptr' else 'int'
        elif info['kind'] == 'ptr' and decls[reg] and split_type(decls[reg]) == ('int', 0):
            decls[reg] = 'int *'
    ptrs = frozenset([p.name for p in ast.params if 'atomic_t' not in p.ctype] +
                     [reg for reg, info in regs.items() if info['kind'] == 'ptr'])
    for reg, ctype in decls.items():
        value = register_value(regs[reg], var_index, c_type(ctype)) if reg in regs else '0'
        lines.append(f'\t\t{declare(ctype, reg)} = {value};')
    lines.append('')
    for s in ast.body.stmts:
        lines += statement(s, 2, ptrs)
    lines.append('')
    for reg, info in sorted(regs.items(), key=lambda r: r[1]['index']):
        lines.append(f'\t\therd_out[{info["index"]}] = (long){reg};')
    lines += ['\t}', '\tHERD_REGISTERS(herd_out);', '}', '']
    return '\n'.join(lines)


def source(described):
    """The C file of one test (`described`: its entry of litmus2rust's JSON): its threads'
    entry points, or TwinError."""
    with open(described['path'], encoding='utf-8') as f:
        text = f.read()
    try:
        ast = Parser(text).parse()
    except Exception as e:  # noqa: BLE001 (litmus2rust read it: a mismatch is the twin's)
        raise TwinError(f'cannot parse {described["path"]}: {e}') from e
    if len(ast.threads) != len(described['threads']):
        raise TwinError(f'{len(ast.threads)} threads in the file, '
                        f'{len(described["threads"])} translated')
    head = ['// SPDX-License-Identifier: GPL-2.0',
            f'/* {described["name"]} ({os.path.basename(described["path"])}): C\'s compiled '
            'twin, by scripts/lkmm/ctwin.py. Never loaded. */',
            f'#include "{HARNESS}"', '']
    body = [thread_function(described, th, a) for th, a in zip(described['threads'], ast.threads)]
    tail = ['MODULE_LICENSE("GPL");',
            f'MODULE_DESCRIPTION("herd7 check: C twin of {described["name"]}");', '']
    return '\n'.join(head) + '\n'.join(body) + '\n'.join(tail)
