# SPDX-License-Identifier: GPL-2.0
"""32-bit ARM (ARMv7-A, ARM state) machine code as llvm-objdump prints it: the ordering
signature's classes (ordering_class(), for codegen parity), the frame record (FRAME) and the
branch kinds (is_call(), is_jump(), is_cond(), is_ret(): scripts/lkmm/objdump.py).

What orders memory here (Arm ARM (ARMv7-A/R), A3.8 "Memory access order"): the barriers `dmb`,
`dsb` and `isb` with their option, and the accesses, plain (`ldr`, `str` and their byte,
halfword and doubleword forms) or exclusive (`ldrex`, `strex`, with `b`, `h`, `d`); ARMv7 has no
acquire or release forms. An instruction may carry a condition (`strexeq`, `strexdeq`): the
condition decides whether it runs, not how it is ordered, so it is not part of the class.
Prefetches (`pld`, `pldw`) and `clrex` order nothing.
"""

import re

# Condition codes (Arm ARM (ARMv7-A/R), A8.3 "Conditional execution"), `hs`/`lo` as the aliases
# of `cs`/`cc`.
CONDITIONS = ('eq', 'ne', 'cs', 'hs', 'cc', 'lo', 'mi', 'pl', 'vs', 'vc', 'hi', 'ls', 'ge',
              'lt', 'gt', 'le', 'al')
COND = '(?:' + '|'.join(CONDITIONS) + ')?'

ORDERING_EXCLUSIVE = re.compile(rf'^(ldrex|strex)(b|h|d)?{COND}$')
ORDERING_PLAIN = re.compile(rf'^(ldr|str)(s?b|s?h|d|t|bt|ht|sbt|sht)?{COND}$')
ORDERING_MULTIPLE = re.compile(rf'^(ldm|stm)(ia|ib|da|db|fd|ed|fa|ea)?{COND}$')
# Accesses to the stack (base register sp, or r11, the ARM-state frame pointer), and the
# instructions that only push or pop it.
STACK = re.compile(r'\[(sp|r11)\b|^(sp|r11)!?,')

# The frame record, which the kernel's Rust flags force (-Cforce-frame-pointers) even in leaf
# functions, and C's kernel build leaves out (no CONFIG_FRAME_POINTER with the ARM unwinder):
# left out of instruction counts (scripts/lkmm/objdump.py). The return through it is a return
# (is_ret()).
FRAME = frozenset({('push', '{r11, lr}'), ('mov', 'r11, sp')})

BRANCH_CONDITIONAL = re.compile(rf'^b(?:{"|".join(c for c in CONDITIONS if c != "al")})$')


def ordering_class(mnem, ops):
    """The ordering signature's entry of one ARMv7 instruction, or None:
    - barriers: `dmb.<option>`, `dsb.<option>` (`dmb.ish`, `dmb.ishst`, ...), `isb`;
    - exclusives: `ldrex`, `strex`, whatever their size (`b`, `h`, `d`) and condition;
    - plain accesses: `ld`, `st` (single, doubleword or multiple), whatever their size.
    Stack accesses are private to the thread and not part of the signature."""
    base = mnem.split('.')[0]
    if base in ('dmb', 'dsb'):
        return f'{base}.{ops.strip() or "sy"}'
    if base == 'isb':
        return 'isb'
    if base in ('push', 'pop') or STACK.search(ops):
        return None
    m = ORDERING_EXCLUSIVE.match(base)
    if m:
        return m.group(1)
    m = ORDERING_PLAIN.match(base) or ORDERING_MULTIPLE.match(base)
    if m:
        return 'ld' if m.group(1).startswith('ld') else 'st'
    return None


def is_ret(mnem, ops=''):
    """A return: `bx lr`, or a pop (or load-multiple from sp) into pc."""
    if mnem == 'bx' and ops.strip() == 'lr':
        return True
    if mnem in ('pop', 'ldm', 'ldmia', 'ldmfd') and re.search(r'\bpc\b', ops):
        return True
    return mnem == 'mov' and ops.replace(' ', '') == 'pc,lr'


def is_call(mnem, ops=''):
    """A call: `bl`, `blx` (of a label or a register)."""
    return mnem in ('bl', 'blx')


def is_jump(mnem, ops=''):
    """An unconditional branch: `b`, and `bx` of a register other than lr (a tail call)."""
    return mnem in ('b', 'bal') or (mnem == 'bx' and ops.strip() != 'lr')


def is_cond(mnem, ops=''):
    """A conditional branch: `b<cond>`."""
    return bool(BRANCH_CONDITIONAL.match(mnem))
