# SPDX-License-Identifier: GPL-2.0
"""A herd7 litmus test in an architecture's syntax (AArch64, X86_64, RISCV, ARM) for a translated
LKMM litmus test: the same shared variables with the same initial values, each thread's code
as its entry point compiled it (aarch64.py, x86_64.py, riscv64.py), and the C test's final
condition over the same registers and variables, with each register `n:rK` named as the
machine register that holds it at the thread's end.

`test` is what `scripts/memory-model/litmus2rust --json` says of the C test: variables in `Instance` order
(the order of the registers that hold their addresses), each thread's registers with their
`out` index (the order of the registers that hold them at the end), and the clause as a tree.
"""

from dataclasses import dataclass


class Unrepresentable(Exception):
    """Something in a thread's code that the herd7 test cannot represent faithfully (raised by
    every architecture's translator)."""


QUANTIFIERS = {'Exists': 'exists', 'NotExists': '~exists', 'Forall': 'forall'}


@dataclass
class Arch:
    name: str           # herd7's name of the architecture
    regs: list          # the registers of variables (entry) and of registers (end), in order
    reg_name: object    # register -> its name in the test's init and condition
    pointer: str = 'uint64_t'   # the type of an `int *` variable (a pointer's width)

    def var_decl(self, var):
        """A shared variable in the init section: `int` and spinlock words are 32-bit, `int *`
        is a pointer (`pointer`) and holds an address (or 0 for NULL)."""
        init = var['init']
        value = init['addr'] if 'addr' in init else init['int']
        ctype = self.pointer if var['kind'] == 'ptr' else 'int'
        return f'{ctype} {var["name"]}={value};'


# The first marker's registers (tests/herd/harness.rs: `variables`); the second marker's are
# the first 8 of them.
AARCH64 = Arch('AArch64', [f'x{i}' for i in range(12)], lambda r: r.upper())
X86_64 = Arch('X86_64', ['rdi', 'rsi', 'rdx', 'rcx', 'r8', 'r9', 'r10', 'r11', 'rax', 'r12',
                         'r13', 'r14'], lambda r: r)
# a0..a7 and t3..t6, named as herd7's RISCV tests and riscv64.py name registers (x0..x31).
RISCV64 = Arch('RISCV', [f'x{i}' for i in (*range(10, 18), *range(28, 32))], lambda r: r)
# 32-bit ARM: r0..r5, r7, r8, then r9, r10, r12, lr (arm.py MARKED); pointers are 32-bit.
ARM = Arch('ARM', ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r7', 'r8', 'r9', 'r10', 'r12', 'lr'],
           lambda r: r.upper(), 'uint32_t')


def register_map(test, arch):
    """C register `n:r` -> the machine register holding it at the end, `n:X3`."""
    out = {}
    for n, thread in enumerate(test['threads']):
        for reg, info in thread['regs'].items():
            out[f'{n}:{reg}'] = f'{n}:{arch.reg_name(arch.regs[info["index"]])}'
    return out


def loc_name(loc):
    return loc['name'] if loc['thread'] is None else f'{loc["thread"]}:{loc["name"]}'


def condition(prop, regs):
    """The clause's proposition with every register renamed by `regs`."""
    if 'atom' in prop:
        name = loc_name(prop['atom'])
        what, value = prop['value']
        if what == 'name' and value == 'NULL':
            value = 0
        elif what == 'loc':
            value = regs.get(loc_name(value), loc_name(value))
        return f'{regs.get(name, name)}={value}'
    if prop['op'] == 'const':
        return 'true' if prop['value'] else 'false'
    if prop['op'] == 'not':
        return f'~({condition(prop["args"][0], regs)})'
    sep = ' /\\ ' if prop['op'] == 'and' else ' \\/ '
    return '(' + sep.join(condition(a, regs) for a in prop['args']) + ')'


def render(test, arch, threads, comment):
    """The test's text. `threads` holds each thread's herd7 lines."""
    regs = register_map(test, arch)
    init = [arch.var_decl(v) for v in test['vars']]
    for n in range(len(threads)):
        init += [f'{n}:{arch.reg_name(arch.regs[i])}={v["name"]};'
                 for i, v in enumerate(test['vars'])]
    columns = [[f'P{n}'] + lines for n, lines in enumerate(threads)]
    widths = [max(len(x) for x in col) for col in columns]
    rows = max(len(col) for col in columns)
    body = []
    for r in range(rows):
        cells = [(col[r] if r < len(col) else '').ljust(w) for col, w in zip(columns, widths)]
        body.append(' ' + ' | '.join(cells) + ' ;')
    locations = [regs.get(loc_name(loc), loc_name(loc)) for loc in test['locations']]
    lines = [f'{arch.name} {test["name"]}', '(*'] + [f' * {c}' for c in comment] + [' *)', '{']
    lines += [f' {i}' for i in init] + ['}'] + body
    if locations:
        lines.append(f'locations [{"; ".join(locations)};]')
    if test.get('filter'):
        lines.append(f'filter {condition(test["filter"], regs)}')
    lines.append(f'{QUANTIFIERS[test["quantifier"]]} {condition(test["clause"], regs)}')
    return '\n'.join(lines) + '\n'


def c_names(state, test, arch):
    """A final state of the architecture's test with the C test's names: `0:X3` -> `0:r1`."""
    back = {v: k for k, v in register_map(test, arch).items()}
    return frozenset((back.get(k, k), v) for k, v in state)
