# SPDX-License-Identifier: GPL-2.0
"""s390x machine code as llvm-objdump prints it (with --mcpu=z196: scripts/lkmm/objdump.py):
the ordering signature's classes (ordering_class(), for codegen parity), the frame record
(FRAME) and the branch kinds (is_call(), is_jump(), is_cond(), is_ret()). herd7 has no s390
model, so there is no translation for it: ordering parity with C is the proof here.

What orders memory here (z/Architecture Principles of Operation, chapter 5, "Storage-Operand
Consistency" and "Serialization"): the machine keeps each CPU's accesses in order but lets a
load pass an earlier store; serialization closes that gap: `bcr 15,0` (printed `br 0`) and the
fast form `bcr 14,0` (printed `bnor 0`), and the compare-and-swap family (`cs`, `csg`, `cds`,
`cdsg`), which serializes before and after. The interlocked-update instructions (`laa` and
friends, `asi`, `alsi` and their 64-bit forms) are atomic but do not serialize.
"""

import re

# Interlocked-update instructions (facility 45's interlocked-access, and the storage-immediate
# adds), of either size.
INTERLOCKED = {'laa', 'laag', 'laal', 'laalg', 'lan', 'lang', 'lao', 'laog', 'lax', 'laxg',
               'asi', 'agsi', 'alsi', 'algsi'}
# Compare-and-swap, which serializes.
COMPARE_AND_SWAP = {'cs', 'csy', 'csg', 'cds', 'cdsy', 'cdsg'}
# A storage operand: displacement(base) or displacement(index,base); a base of %r15 is the
# stack pointer's (the stack is private to the thread).
STORAGE = re.compile(r'(^|, )-?\d*\((%r\d+)(, *(%r\d+))?\)')
STACK_BASE = '%r15'
# Instructions with a storage operand that do not access it: address computations, prefetch.
NO_ACCESS = {'la', 'lay', 'pfd'}
# Relative-long loads and stores of a global (`lrl`, `strl`, ...), whose operand is an address.
RELATIVE_LONG = re.compile(r'^(l|lg|lgf|llgf|lh|lgh|llhrl|llghrl)rl$|^(st|stg|sth)rl$')

# The frame record, which the kernel's Rust flags force (-Cforce-frame-pointers, with s390's
# backchain, -Ctarget-feature=+backchain) even in leaf functions, and C's leaves out of leaf
# functions: left out of instruction counts (scripts/lkmm/objdump.py), as arm64's is.
FRAME = frozenset({('stmg', '%r11, %r15, 88(%r15)'), ('lgr', '%r1, %r15'),
                   ('aghi', '%r15, -160'), ('stg', '%r1, 0(%r15)'), ('lgr', '%r11, %r15'),
                   ('lmg', '%r11, %r15, 248(%r15)')})

# The condition-code masks' mnemonic suffixes (the assembler's extended mnemonics).
COND = r'(o|h|p|nle|l|m|nhe|lh|ne|nz|e|z|nlh|he|nl|nm|le|nh|np|no)'
COND_BRANCH = re.compile(rf'^(j|jg|b){COND}$|^(brc|brcl|brct|brctg|brxh|brxle)$|'
                         rf'^c(l)?(g)?(r|i)j{COND}?$|^c(l)?(g)?(r|i)b{COND}?$')
COND_RETURN = re.compile(rf'^b{COND}r$')


def ordering_class(mnem, ops):
    """The ordering signature's entry of one s390x instruction, or None:
    - `serialize`: `bcr 15,0` and `bcr 14,0` (both serialize; C's `smp_mb()` is the first,
      patched at load time to the second, in C and Rust alike);
    - `interlocked`: an interlocked update (`laa`, `lan`, `lao`, `lax`, `laal`, `asi`,
      `alsi`, 32 or 64 bits);
    - `cs`: compare-and-swap, any size;
    - plain accesses: `st` (a store: `st*`, `mv*`) and `ld` (any other access of a storage
      operand, compares on memory included), whatever their size.
    Stack accesses are private to the thread and not part of the signature."""
    if mnem in ('br', 'bnor', 'bcr') and ops.replace(' ', '') in ('0', '%r0', '15,0', '14,0',
                                                                    '15,%r0', '14,%r0'):
        return 'serialize'
    if mnem in INTERLOCKED:
        return 'interlocked'
    if mnem in COMPARE_AND_SWAP:
        return 'cs'
    m = RELATIVE_LONG.match(mnem)
    if m:
        return 'ld' if m.group(1) is not None else 'st'
    m = STORAGE.search(ops)
    if not m or mnem in NO_ACCESS or mnem.startswith(('stm', 'lm')):
        return None
    if m.group(2) == STACK_BASE and not m.group(4):
        return None
    if mnem.startswith(('st', 'mv')):
        return 'st'
    return 'ld'


def is_ret(mnem, ops=''):
    """A return: `br %r14`."""
    return mnem == 'br' and ops.strip() == '%r14'


def is_call(mnem, ops=''):
    """A call: `brasl`, `bras`, `basr`, `bas`, a branch relocated against a function
    (scripts/lkmm/objdump.py prints it `call.reloc`), or a branch to a register other than
    the return address (an indirect tail call)."""
    if mnem in ('brasl', 'bras', 'basr', 'bas', 'call.reloc'):
        return True
    return mnem == 'br' and ops.strip() not in ('%r14', '0', '%r0')


def is_jump(mnem, ops=''):
    """An unconditional branch: `j`, `jg`."""
    return mnem in ('j', 'jg')


def is_cond(mnem, ops=''):
    """A conditional branch (conditional returns, `b<cond>r %r14`, included: they fall
    through too)."""
    if COND_RETURN.match(mnem):
        # `b<cond>r 0` branches nowhere: `bnor 0` is `bcr 14,0`, a serialization.
        return ops.strip() == '%r14'
    return bool(COND_BRANCH.match(mnem)) and mnem not in ('j', 'jg')
