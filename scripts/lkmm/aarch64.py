# SPDX-License-Identifier: GPL-2.0
"""arm64 machine code of one litmus thread (tests/herd/harness.rs) as herd7 AArch64 code.

The thread is the code between the two markers of its entry point: `hint #120`, after which
x0..x7 (x0..x11 with more than 8 variables) hold the addresses of the shared variables, and
`hint #121`, where x0..x7 hold its registers. The translation is the instructions reachable between them, one herd7 instruction
for each, in llvm-objdump's order, with branch targets as labels; a path that reaches the
second marker jumps to the end. herd7 reads the same instructions as the Arm ARM defines them
(herdtools7's AArch64 semantics), so what is checked is the compiled code itself. Left out,
and why:
- `prfm`: a prefetch hint, with no effect on the memory model (Arm ARM C6.2 "PRFM"; herd7
  has no such instruction);
- `nop`, the markers, `bti`, `paciasp`/`autiasp`: no memory or register effect that matters;
`cmn`, which herd7 lacks, is its alias `adds` to the zero register;
- before the first marker, the frame record and stack saves of callee-saved registers, and
  register-only instructions that set a marker register (dead: the marker overwrites it).
Anything else that herd7 cannot model is refused by name (Unrepresentable): a call, a stack
access between the markers (a spill), an addressing mode other than [Xn], an instruction
outside the list below.
"""

import re

from . import archtest, cfg
from .archtest import Unrepresentable

IN_MARKER, OUT_MARKER = '#0x78', '#0x79'
# herd7's syntax of the translated code.
SYNTAX = archtest.AARCH64

MEMORY = re.compile(r'^(ldr|ldrsw|str|ldar|stlr|ldapr|ld(a)?xr|st(l)?xr|'
                    r'(ld|st)(add|clr|set|eor|smax|smin|umax|umin)(a|l|al)?|'
                    r'swp(a|l|al)?|cas(a|l|al)?)$')
REGISTER_ONLY = {'mov', 'movz', 'movn', 'movk', 'add', 'adds', 'sub', 'subs', 'and', 'ands',
                 'orr', 'orn', 'eor', 'eon', 'bic', 'mvn', 'neg', 'negs', 'cmp', 'tst',
                 'csel', 'csinc', 'csinv', 'csneg', 'cset', 'csetm', 'cinc', 'sxtw', 'lsl',
                 'lsr', 'asr', 'mul', 'madd', 'msub', 'mneg'}
DROPPED = {'nop', 'prfm', 'bti', 'paciasp', 'autiasp'}
BRANCH_TARGET = re.compile(r'0x([0-9a-f]+) <[^>]*>')
STACK = re.compile(r'\[(sp|x29)\b')
# The frame record, which the kernel's Rust flags force even in leaf functions: left out of
# instruction counts (scripts/lkmm/objdump.py) and of herd7's code.
FRAME = {('stp', 'x29, x30, [sp, #-0x10]!'), ('mov', 'x29, sp'),
         ('ldp', 'x29, x30, [sp], #0x10')}


# The ordering signature's classes (scripts/lkmm/ordering.py).
ORDERING_LSE = re.compile(r'^(ld(add|clr|set|eor|smax|smin|umax|umin)|st(add|clr|set|eor|smax|smin|'
                          r'umax|umin)|swp|casp?)(a|l|al)?(b|h)?$')
ORDERING_EXCLUSIVE = re.compile(r'^(ld|st)(a|l)?xr(b|h)?$')
ORDERING_ACQREL = re.compile(r'^(ldar|ldapr|stlr)(b|h)?$')
ORDERING_PLAIN = re.compile(r'^(ldr|ldur|str|stur)(s?b|s?h|sw)?$')


def ordering_class(mnem, ops):
    """The ordering signature's entry of one arm64 instruction, or None (Arm ARM B2.3,
    "Definition of the Armv8 memory model"):
    - loads and stores, plain or exclusive, with their acquire/release form: `ld`, `ldar`
      (`ldar*`), `ldapr` (`ldapr*`, RCpc acquire), `st`, `stlr`; `ldxr`, `ldaxr`, `stxr`,
      `stlxr` for the exclusives. The access size (`b`, `h`) is not part of the signature:
      the operand type is, and C and Rust twins have the same.
    - the LSE atomics (`ldadd`, `ldclr`, `ldset`, `ldeor`, `ld{s,u}{max,min}`, their `st*`
      forms, `swp`, `cas`): `amo`, `swp`, `cas`, with the ordering suffix after a dot (`.a`,
      `.l`, `.al`; nothing for relaxed);
    - barriers: `dmb.<option>`, `dsb.<option>`, `isb`.
    Stack accesses (base register `sp`, or the frame pointer `x29`) are private to the thread
    and not part of the signature."""
    if mnem in ('dmb', 'dsb'):
        return f'{mnem}.{ops.strip()}'
    if mnem == 'isb':
        return 'isb'
    if STACK.search(ops):
        return None
    m = ORDERING_LSE.match(mnem)
    if m:
        family = m.group(1)
        kind = 'amo' if family.startswith(('ld', 'st')) else family
        return kind + (f'.{m.group(4)}' if m.group(4) else '')
    m = ORDERING_EXCLUSIVE.match(mnem)
    if m:
        return f'{m.group(1)}{m.group(2) or ""}xr'
    m = ORDERING_ACQREL.match(mnem)
    if m:
        return m.group(1)
    if ORDERING_PLAIN.match(mnem) or mnem in ('ldp', 'stp'):
        return 'ld' if mnem.startswith('ld') else 'st'
    return None


def is_register(word):
    return re.fullmatch(r'[wx]([0-9]|[12][0-9]|30)|[wx]zr|sp', word) is not None


def immediate(text, bits):
    """`#0x1f` as herd7 writes it (`#31`); W-register immediates as signed 32-bit values."""
    value = int(text[1:], 0)
    if bits == 32:
        value &= 0xffffffff
        value -= (1 << 32) if value & 0x80000000 else 0
    return f'#{value}'


def operands(mnem, ops, labels, where):
    """The operands in herd7's syntax: upper case registers, decimal immediates, labels."""
    ops = ops.split('//')[0].strip()
    m = BRANCH_TARGET.search(ops)
    if m:
        ops = ops[:m.start()] + labels[int(m.group(1), 16)] + ops[m.end():]
    words = [w.strip() for w in ops.split(',')]
    bits = 32 if words and words[0].startswith('w') else 64
    out = []
    for w in words:
        if w.startswith('[') or w.endswith(']'):
            inner = w.strip('[]').strip()
            if not re.fullmatch(r'x([0-9]|[12][0-9]|30)', inner):
                raise Unrepresentable(f'{where}: {mnem} {ops}: only [Xn] addressing is modelled')
            out.append(f'[{inner.upper()}]')
        elif w.startswith('#'):
            out.append(immediate(w, bits))
        elif is_register(w) or re.fullmatch(r'(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)',
                                           w):
            out.append(w.upper())
        elif re.fullmatch(r'(lsl|lsr|asr|sxtw|uxtw) #\S+', w):
            kind, amount = w.split()
            out.append(f'{kind.upper()} {immediate(amount, 64)}')
        elif w.startswith('L') and w in labels.values():
            out.append(w)
        else:
            raise Unrepresentable(f'{where}: {mnem} {ops}: operand {w!r} is not modelled')
    return ','.join(out)


def is_branch(mnem):
    return mnem == 'b' or mnem.startswith('b.') or mnem in ('cbz', 'cbnz', 'tbz', 'tbnz')


def instruction(insn, labels, where, thread):
    """The herd7 lines of one instruction."""
    _, mnem, ops = insn
    if mnem in DROPPED or mnem == 'hint':
        return []
    if STACK.search(ops):
        raise Unrepresentable(f'{where}: {mnem} {ops}: a stack access (spill) between the '
                              'markers')
    if not (is_branch(mnem) or MEMORY.match(mnem) or mnem in REGISTER_ONLY or
            mnem in ('dmb', 'isb', 'cmn')):
        raise Unrepresentable(f'{where}: {mnem} {ops}: no herd7 model of this instruction')
    if mnem == 'dmb':
        return [f'DMB {ops.strip().upper()}']
    if mnem == 'isb':
        return ['ISB']
    if mnem == 'cmn':
        # herd7 has no CMN: it is ADDS to the zero register (Arm ARM C6.2 "CMN").
        zr = 'WZR' if ops.strip().startswith('w') else 'XZR'
        return [f'ADDS {zr},{operands(mnem, ops, labels, where)}']
    return [f'{mnem.upper()} {operands(mnem, ops, labels, where)}']


def translate(insns, thread, marked=8):
    """The herd7 lines of thread number `thread`: instructions and labels. `insns` are
    (address, mnemonic, operands) of its entry point, alternatives applied as on the path
    checked (objdump.Object.patched); the entry marker sets x0 up to x`marked - 1` (8, or 12
    for a test with more variables: tests/herd/harness.rs)."""
    var_regs = [f'x{i}' for i in range(marked)]
    where = f'P{thread}'
    index = {a: i for i, (a, _, _) in enumerate(insns)}
    starts = [i for i, (_, m, o) in enumerate(insns) if m == 'hint' and o == IN_MARKER]
    if len(starts) != 1:
        raise Unrepresentable(f'{where}: {len(starts)} entry markers (hint #120), not one')
    start = starts[0]
    prologue = []
    for _, mnem, ops in insns[:start]:
        if (mnem, ops) in FRAME or mnem in DROPPED or mnem == 'hint':
            continue
        if STACK.search(ops) and mnem in ('stp', 'str') or re.search(r'\bsp\b', ops):
            continue  # the frame, and saves of callee-saved registers restored after the end
        if mnem not in REGISTER_ONLY:
            raise Unrepresentable(f'{where}: {mnem} {ops} before the entry marker')
        if ops.split(',')[0].strip().replace('w', 'x') in var_regs:
            continue  # dead: the marker sets that register
        prologue.append((mnem, ops))

    def flow(i):
        _, mnem, ops = insns[i]
        if mnem == 'hint' and ops == OUT_MARKER:
            return False, None
        if mnem in ('ret', 'bl', 'blr', 'br', 'brk', 'hlt', 'udf') or mnem.startswith('blr'):
            raise Unrepresentable(f'{where}: {mnem} {ops}: '
                                  + ('a call' if mnem.startswith('bl') else 'leaves the thread'))
        if not is_branch(mnem):
            return True, None
        m = BRANCH_TARGET.search(ops)
        if not m or int(m.group(1), 16) not in index:
            raise Unrepresentable(f'{where}: {mnem} {ops}: a branch out of the function')
        return mnem != 'b', index[int(m.group(1), 16)]

    try:
        blocks = cfg.layout(len(insns), start + 1, flow)
    except (cfg.Irreducible, IndexError) as e:
        raise Unrepresentable(f'{where}: {e}') from e
    block_label, labels = cfg.labels(blocks, insns, thread)
    prologue_lines = [f'{m.upper()} {operands(m, o, labels, where)}' for m, o in prologue]
    return prologue_lines + cfg.emit(
        blocks, insns, thread, block_label, 'B', lambda insn: insn[1:] == ('hint', OUT_MARKER),
        lambda blk: [line for i in blk.insns
                     for line in instruction(insns[i], labels, where, thread)])
