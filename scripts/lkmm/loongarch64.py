# SPDX-License-Identifier: GPL-2.0
"""loongarch64 machine code as llvm-objdump prints it: the ordering signature's classes
(ordering_class(), for codegen parity), the frame record (FRAME) and the branch kinds
(is_call(), is_jump(), is_cond(), is_ret(): scripts/lkmm/objdump.py). herd7 has no LoongArch
model, so there is no translation for it: ordering parity with C is the proof here.

What orders memory here (LoongArch Reference Manual, Volume 1, 2.2.7 and 2.2.8): the barrier
`dbar` with its hint (Linux's hints, arch/loongarch/include/asm/barrier.h: bit 4 ordering or
completion, bits 3-0 which earlier and later accesses it leaves out; `0x700` orders reads of
one address), `ibar`; the AM* atomics, plain or `_db` (with barrier semantics before and after);
`ll` and `sc` (each with barrier semantics of its own); and the plain loads and stores.
"""

import re

# An AM* atomic (`amswap`, `amadd`, `amand`, `amor`, `amxor`, `ammax`, `ammin` and their unsigned
# forms, `amcas`), with or without `_db`, of any size.
ORDERING_AM = re.compile(r'^am(swap|add|and|or|xor|max|min|maxu|minu|cas)(_db)?\.(b|h|w|d|wu|du)$')
ORDERING_LLSC = re.compile(r'^(ll|sc|llacq|screl)\.(w|d|q)$')
# Plain loads and stores: `ld.<size>`, `ldptr.<size>`, `ldx.<size>` (and `st`), the bounds-checked
# `ldgt`/`ldle`, `stgt`/`stle`.
ORDERING_PLAIN = re.compile(r'^(ld|st)(ptr|x|gt|le)?\.(b|h|w|d|bu|hu|wu)$')
# Accesses to the stack: base register $sp, or the frame pointer $fp.
STACK = re.compile(r'\$(sp|fp), ')

# The frame record, which the kernel's Rust flags force (-Cforce-frame-pointers) even in leaf
# functions, and C's kernel build leaves out (no CONFIG_FRAME_POINTER on LoongArch: its
# unwinders read the prologue or ORC): left out of instruction counts (scripts/lkmm/objdump.py),
# as arm64's and 32-bit ARM's are.
FRAME = frozenset({('addi.d', '$sp, $sp, -16'), ('st.d', '$ra, $sp, 8'), ('st.d', '$fp, $sp, 0'),
                   ('addi.d', '$fp, $sp, 16'), ('ld.d', '$fp, $sp, 0'), ('ld.d', '$ra, $sp, 8'),
                   ('addi.d', '$sp, $sp, 16')})

# The conditional branches, with the assembler's aliases that llvm-objdump prints.
BRANCHES = {'beq', 'bne', 'blt', 'bge', 'bltu', 'bgeu', 'beqz', 'bnez', 'bceqz', 'bcnez', 'bgt',
            'ble', 'bgtu', 'bleu', 'bltz', 'bgtz', 'blez', 'bgez'}


def ordering_class(mnem, ops):
    """The ordering signature's entry of one loongarch64 instruction, or None:
    - barriers: `dbar.<hint>` (the hint as a number: `dbar.16` for `dbar 0x10`), `ibar`;
    - the AM* atomics: `am` or `am_db`, whatever their operation and size;
    - `ll`, `sc` (and LA v1.1's `llacq`, `screl`), whatever their size;
    - plain accesses: `ld`, `st`, whatever their size and addressing form.
    Stack accesses are private to the thread and not part of the signature."""
    if mnem == 'dbar':
        return f'dbar.{int(ops.strip(), 0)}'
    if mnem == 'ibar':
        return 'ibar'
    m = ORDERING_AM.match(mnem)
    if m:
        return 'am' + (m.group(2) or '')
    m = ORDERING_LLSC.match(mnem)
    if m:
        return m.group(1)
    if STACK.search(ops + ', '):
        return None
    m = ORDERING_PLAIN.match(mnem)
    if m:
        return m.group(1)
    return None


def is_ret(mnem, ops=''):
    """A return: `ret` (`jirl $zero, $ra, 0`), or `jr $ra`."""
    return mnem == 'ret' or (mnem == 'jr' and ops.strip() == '$ra')


def is_call(mnem, ops=''):
    """A call: `bl`, `jirl` linking a register, or `jr` of another register (a tail call)."""
    if mnem == 'jirl':
        return not ops.startswith('$zero')
    return mnem == 'bl' or (mnem == 'jr' and ops.strip() != '$ra')


def is_jump(mnem, ops=''):
    """An unconditional branch: `b`."""
    return mnem == 'b'


def is_cond(mnem, ops=''):
    """A conditional branch."""
    return mnem in BRANCHES
