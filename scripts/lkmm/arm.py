# SPDX-License-Identifier: GPL-2.0
"""32-bit ARM (ARMv7-A, ARM state) machine code as llvm-objdump prints it: the ordering
signature's classes (ordering_class(), for codegen parity), the frame record (FRAME), the
branch kinds (is_call(), is_jump(), is_cond(), is_ret(): scripts/lkmm/objdump.py), and one
litmus thread (tests/herd/harness.rs) as herd7 ARM code (translate()).

What orders memory here (Arm ARM (ARMv7-A/R), A3.8 "Memory access order"): the barriers `dmb`,
`dsb` and `isb` with their option, and the accesses, plain (`ldr`, `str` and their byte,
halfword and doubleword forms) or exclusive (`ldrex`, `strex`, with `b`, `h`, `d`); ARMv7 has no
acquire or release forms. An instruction may carry a condition (`strexeq`, `strexdeq`): the
condition decides whether it runs, not how it is ordered, so it is not part of the class.
Prefetches (`pld`, `pldw`) and `clrex` order nothing.
"""

import re

from . import archtest, cfg
from .archtest import Unrepresentable

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


# ---------------------------------------------------------------------------------------
# herd7's ARM code of one litmus thread.
#
# The thread is the code between the two markers of its entry point, `hint #0x78`, after which
# r0..r5, r7, r8 (and r9, r10, r12, lr with more than 8 variables) hold the addresses of the
# shared variables, and `hint #0x79`, where the first eight hold its registers: the
# instructions reachable between them, laid out in reverse postorder (scripts/lkmm/cfg.py),
# with branch targets as labels; a path that reaches the second marker jumps to the end.
#
# herd7 7.58's ARM front end (herdtools7 lib/ARMLexer.mll, ARMParser.mly, herd/ARMSem.ml)
# reads the memory instructions as the architecture defines them: `LDR`, `STR`, `LDREX`,
# `STREX` on [Rn], `DMB`/`DSB` with their option (`ishst` as `ST`: BARRIER_OPTIONS), `ISB`;
# they stay as they are, so the events and barriers arm.cat orders are the compiled ones. Its register instructions are fewer than
# the compiler's, and some are lowered to what it reads, with the same registers, values and
# dependencies:
# - `teq a, b` is `CMP a, b`: both set Z alike, and every condition of the translated code is
#   `eq` or `ne` (a `mi`, `ge`, ... is refused), so N, C and V are never read;
# - `movweq`/`movwne` (a 16-bit immediate) is `MOVEQ`/`MOVNE` of it, as herd7 reads a
#   predicated `MOV`: C's compiler writes the one where ours writes the other;
# - an instruction with condition `eq` or `ne` that herd7 lacks (`strexeq`, `teqeq`,
#   `strexdeq`...) is the instruction behind a branch on the opposite condition (a branch
#   reads the flags and changes nothing else; the instruction's own dependencies are kept);
# - `mvn` of an immediate is `MOV` of its complement;
# - `orr`, `and`, `eor` with an immediate where herd7 has only the register form or the
#   reverse are refused, as are what herd7 lacks (`and`/`orr`/`bic` of registers, `adc`,
#   shifted operands): the check then SKIPs the test, saying why, and ordering parity covers it.
# A conditional instruction stays conditional (`MOVNE`, `STRNE`, ...: herd7 has them) or, where
# herd7 lacks it, is the instruction behind a branch: both are control dependencies on the
# flags, as the architecture defines them for conditional execution, which the model used here,
# aarch32.cat (herdtools7's Armv8 AArch32 model), respects; arm.cat (the ARMv7 model of 2014)
# does not order a predicated store after the load its condition depends on, and allows
# LB+fencembonceonce+ctrlonceonce as compiled here (`cmp; strne`), which the hardware does not.
# Left out: `pld`/`pldw` (prefetch hints, no effect on the memory model: Arm ARM (ARMv7-A/R),
# A8.8.127/128 "PLD, PLDW"), `nop`, the markers; before the first marker, the frame and saves
# of callee-saved registers (restored after the end), and register-only instructions that set
# a marker register (dead: the marker overwrites it).
# Refused (Unrepresentable), by name: a call, a stack access between the markers (a spill),
# an address other than [Rn], byte, halfword and doubleword accesses (herd7's ARM tests are
# not mixed-size; 7.58 has no `ldrexd`: the 64-bit sequences are covered by parity only).

IN_MARKER, OUT_MARKER = '#0x78', '#0x79'
# herd7's syntax of the translated code.
SYNTAX = archtest.ARM
REGISTER = re.compile(r'r([0-9]|1[0-2])|lr')
MARKED = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r7', 'r8', 'r9', 'r10', 'r12', 'lr']
# Register-only instructions herd7 reads as they are (7.58: ADD, SUB with a register or an
# immediate; ADDS, SUBS; EOR of registers; AND, ORR of an immediate; MOV, MOVW; CMP).
SAME = {'add', 'sub', 'adds', 'subs', 'mov', 'movw', 'cmp'}
IMMEDIATE_ONLY = {'and', 'orr'}
REGISTER_ONLY = {'eor'}
CONDITIONAL = re.compile(r'^(.*?)(eq|ne)$')
KNOWN_CONDITIONAL = {'moveq', 'movne', 'ldreq', 'ldrne', 'streq', 'strne', 'beq', 'bne'}
DROPPED = {'nop', 'pld', 'pldw'}
# The barrier options as herd7's ARM front end and models know them: `ishst` is parsed but
# then ignored by the models (arm.cat's fences, herdtools7 armfences.cat, are DMB, DMB.ST,
# DMB.ISH, DSB, DSB.ST; under aarch32.cat a `DMB ISHST` between two stores did not forbid MP's
# weak outcome either). `dmb ishst` is `DMB ST`: the store-store barrier of the full system,
# which for a test's threads, all in one inner shareable domain, orders exactly what `ishst`
# orders (Arm ARM (ARMv7-A/R), A3.8.3 "DMB": the shareability domain only limits which
# observers the ordering applies to).
BARRIER_OPTIONS = {'sy': '', 'ish': ' ISH', 'st': ' ST', 'ishst': ' ST'}
BRANCH_TARGET = re.compile(r'0x([0-9a-f]+) <[^>]*>')


def herd_register(word, where, text):
    if not REGISTER.fullmatch(word):
        raise Unrepresentable(f'{where}: {text}: operand {word!r} is not modelled')
    return word.upper()


def herd_operands(mnem, ops, labels, where):
    """The operands in herd7's syntax: upper case registers, decimal immediates, [Rn], labels."""
    text = f'{mnem} {ops}'
    ops = ops.split('@')[0].strip()
    m = BRANCH_TARGET.search(ops)
    if m:
        return labels[int(m.group(1), 16)]
    out = []
    for w in re.split(r',\s*(?![^\[]*\])', ops):
        w = w.strip()
        if w.startswith('['):
            inner = w.strip('[]').strip()
            if not REGISTER.fullmatch(inner):
                raise Unrepresentable(f'{where}: {text}: only [Rn] addressing is modelled')
            out.append(f'[{inner.upper()}]')
        elif w.startswith('#'):
            out.append(f'#{int(w[1:], 0)}')
        else:
            out.append(herd_register(w, where, text))
    return ','.join(out)


def herd_instruction(mnem, ops, labels, where, skip_label):
    """The herd7 lines of one instruction; `skip_label` is a fresh label for a lowering."""
    text = f'{mnem} {ops}'
    if mnem in DROPPED:
        return []
    if re.search(r'\[(sp|r11)\b', ops) or mnem in ('push', 'pop'):
        raise Unrepresentable(f'{where}: {text}: a stack access (spill) between the markers')
    if mnem == 'dmb' or mnem == 'dsb':
        option = ops.strip() or 'sy'
        if option not in BARRIER_OPTIONS:
            raise Unrepresentable(f'{where}: {text}: arm.cat has no barrier {option}')
        return [f'{mnem.upper()}{BARRIER_OPTIONS[option]}']
    if mnem == 'isb':
        return ['ISB']
    if mnem in ('b', 'beq', 'bne'):
        return [f'{mnem.upper()} {herd_operands(mnem, ops, labels, where)}']
    if mnem in ('movweq', 'movwne'):
        mnem = 'mov' + mnem[4:]
    m = CONDITIONAL.match(mnem)
    if m and mnem not in KNOWN_CONDITIONAL and m.group(1) in (
            'teq', 'cmp', 'strex', 'ldrex', 'ldr', 'str', 'add', 'sub', 'mov'):
        # The instruction behind a branch on the opposite condition.
        inverse = 'BNE' if m.group(2) == 'eq' else 'BEQ'
        return [f'{inverse} {skip_label}'] + \
            herd_instruction(m.group(1), ops, labels, where, None) + [f'{skip_label}:']
    if mnem == 'teq':
        return [f'CMP {herd_operands(mnem, ops, labels, where)}']
    m = re.fullmatch(r'(r[0-9]+|lr),\s*#(-?(?:0x[0-9a-f]+|\d+))', ops.strip())
    if mnem == 'mvn' and m:
        # The complement of an immediate is a constant: MOV of it.
        value = ~int(m.group(2), 0) & 0xffffffff
        value -= (1 << 32) if value & 0x80000000 else 0
        return [f'MOV {herd_register(m.group(1), where, text)},#{value}']
    if mnem in ('ldr', 'str', 'ldrex', 'strex') or mnem in KNOWN_CONDITIONAL:
        return [f'{mnem.upper()} {herd_operands(mnem, ops, labels, where)}']
    if mnem in SAME or (mnem in IMMEDIATE_ONLY and '#' in ops) or \
            (mnem in REGISTER_ONLY and '#' not in ops):
        return [f'{mnem.upper()} {herd_operands(mnem, ops, labels, where)}']
    raise Unrepresentable(f'{where}: {text}: no herd7 (7.58) model of this instruction')


def translate(insns, thread, marked=8):
    """The herd7 lines of thread number `thread`: instructions and labels. `insns` are
    (address, mnemonic, operands) of its entry point (objdump.Object.body); the entry marker
    sets the first `marked` registers of MARKED (8, or 12 for a test with more variables)."""
    var_regs = MARKED[:marked]
    where = f'P{thread}'
    index = {a: i for i, (a, _, _) in enumerate(insns)}
    starts = [i for i, (_, m, o) in enumerate(insns) if m == 'hint' and o == IN_MARKER]
    if len(starts) != 1:
        raise Unrepresentable(f'{where}: {len(starts)} entry markers (hint #0x78), not one')
    start = starts[0]
    prologue = []
    for _, mnem, ops in insns[:start]:
        if (mnem, ops) in FRAME or mnem in DROPPED or mnem == 'hint':
            continue
        if mnem == 'push' or re.search(r'\bsp\b', ops):
            continue  # the frame, and saves of callee-saved registers restored after the end
        if mnem not in SAME:
            raise Unrepresentable(f'{where}: {mnem} {ops} before the entry marker')
        if ops.split(',')[0].strip() in var_regs:
            continue  # dead: the marker sets that register
        prologue.append((mnem, ops))

    def flow(i):
        _, mnem, ops = insns[i]
        if mnem == 'hint' and ops == OUT_MARKER:
            return False, None
        if is_ret(mnem, ops) or is_call(mnem, ops) or mnem in ('udf', 'bkpt'):
            raise Unrepresentable(f'{where}: {mnem} {ops}: '
                                  + ('a call' if is_call(mnem, ops) else 'leaves the thread'))
        if not (is_jump(mnem, ops) or is_cond(mnem, ops)):
            return True, None
        if mnem not in ('b', 'beq', 'bne'):
            raise Unrepresentable(f'{where}: {mnem} {ops}: a branch on a condition other than '
                                  'eq/ne (herd7 7.58 has BEQ and BNE only)')
        m = BRANCH_TARGET.search(ops)
        if not m or int(m.group(1), 16) not in index:
            raise Unrepresentable(f'{where}: {mnem} {ops}: a branch out of the function')
        return mnem != 'b', index[int(m.group(1), 16)]

    try:
        blocks = cfg.layout(len(insns), start + 1, flow)
    except (cfg.Irreducible, IndexError) as e:
        raise Unrepresentable(f'{where}: {e}') from e
    block_label, labels = cfg.labels(blocks, insns, thread)

    def body(blk):
        # A lowering's own label is named by the instruction's index: unique in the thread.
        return [line for i in blk.insns if insns[i][1] != 'hint'
                for line in herd_instruction(insns[i][1], insns[i][2], labels, where,
                                             f'LS{thread}_{i}')]
    prologue_lines = [f'{m.upper()} {herd_operands(m, o, labels, where)}' for m, o in prologue]
    return prologue_lines + cfg.emit(blocks, insns, thread, block_label, 'B',
                                     lambda insn: insn[1:] == ('hint', OUT_MARKER), body)
