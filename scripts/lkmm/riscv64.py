# SPDX-License-Identifier: GPL-2.0
"""riscv64 machine code of one litmus thread (tests/herd/harness.rs) as herd7 RISCV code.

The thread is the code between the two markers of its entry point, `addi zero, zero, 120`
(llvm-objdump: `li zero, 0x78`), after which a0..a7 (and t3..t6 with more than 8 variables)
hold the addresses of the shared variables, and `addi zero, zero, 121`, where a0..a7 hold its
registers: the instructions reachable between them, in llvm-objdump's order, with branch
targets as labels; a path that reaches the second marker jumps to the end. Registers are
written x0..x31 (herd7 7.58's RISCVBase.ml misspells s10, so not every ABI name reads).

herd7's RISCV front end (herdtools7 7.58: lib/RISCVLexer.mll, RISCVParser.mly, RISCVBase.ml,
herd/RISCVSem.ml) reads the memory instructions as the ISA defines them: `lw`, `ld`, `sw`,
`sd`, `lr.{w,d}`, `sc.{w,d}`, `amo<op>.{w,d}` with `.aq`/`.rl`/`.aqrl`, `fence` with the sets
r, w, rw (and ir, ow, iorw, which it takes as those), `fence.tso`; they stay as they are, so
the events and annotations riscv.cat orders are the compiled ones. Its values are 64 bits,
but it never narrows one: `lw`, `lr.w` and `amo<op>.w` return the 64-bit value memory holds
(a 32-bit location's initial value zero-extended), `lui` does not sign-extend, and `addw` and
the other `*w` operations compute in 64 bits. So each of those is followed by herd7's
`sext.w` of its result, as the hardware sign-extends (RISC-V Unprivileged ISA, RV64I), `lwu`
by a zero-extension (`slli`, `srli` by 32), and `srliw` is the same shifts; a value stored by
`sw`/`sc.w`/`amo<op>.w` keeps its upper bits in herd7's memory, which every 32-bit load drops
again, and the final states compare `int` locations on their low 32 bits (scripts/memory-model/herd-check).
The lowering adds register events only: the memory events and the dependencies through
registers are the same. The compiler's `sext.w` of a register that holds a sign-extended
value on every path to it (`extends`: after a 32-bit load, a comparison, ...) is the identity
and is left out: fewer events for herd7 to enumerate.
Aliases become what herd7 reads: `beqz a0, L` is `beq x10,x0,L`, `bgt`/`ble` swap their
operands, `neg`/`not` are `sub`/`xori`, and `seqz`/`snez` (herd7 has no `sltu`/`sltiu`)
compute `(x | -x) >> 63`, through a register the thread does not name where the result
overwrites the operand. Left out, and why:
- `nop`, the markers, `pause` and a `fence` with an empty predecessor or successor set: HINTs
  that order nothing (RISC-V Unprivileged ISA, "HINT Instructions", "Zihintpause");
- before the first marker, whatever names `sp` (the frame, saves of callee-saved registers
  restored after the end), and register-only instructions that set a marker register (dead:
  the marker overwrites it).
Anything else that herd7 cannot model faithfully is refused by name (Unrepresentable): a call,
a stack access between the markers (a spill), an address with an offset, `amocas` (Zacas),
byte and halfword AMOs (Zabha), byte and halfword loads and stores (herd7's RISCV tests are not
mixed-size: a byte access would read the whole location), `amomax`/`amomin` on 32-bit
locations (herd7 compares the 64-bit values it keeps, not the sign-extended ones), and what
herd7 7.58's RISCVSem.ml leaves unimplemented (`amomaxu`, `amominu`, `sltu`, `sltiu`, `bltu`,
`bgeu`, `sra`, `srl`, `srai`, `sraiw`, `srlw`, `sraw`) or lacks (`mul`, `div`, ...).
"""

import re

from . import archtest, cfg
from .archtest import Unrepresentable

IN_MARKER, OUT_MARKER = ('li', 'zero, 0x78'), ('li', 'zero, 0x79')
# herd7's syntax of the translated code.
SYNTAX = archtest.RISCV64
ABI = ['zero', 'ra', 'sp', 'gp', 'tp', 't0', 't1', 't2', 's0', 's1'] + \
    [f'a{i}' for i in range(8)] + [f's{i}' for i in range(2, 12)] + [f't{i}' for i in range(3, 7)]
X = {**{name: f'x{i}' for i, name in enumerate(ABI)}, 'fp': 'x8',
     **{f'x{i}': f'x{i}' for i in range(32)}}
# The variables' registers at the first marker, in order (tests/herd/harness.rs).
MARKED = [f'a{i}' for i in range(8)] + ['t3', 't4', 't5', 't6']
# Registers a lowering may take as scratch if the thread never names them.
SCRATCH = ['t6', 't5', 't4', 't3', 's11', 's10', 's9', 's8', 's7', 's6', 's5', 's4', 's3', 's2']
BRANCH_TARGET = re.compile(r'0x([0-9a-f]+) <[^>]*>')
ADDRESS = re.compile(r'^(-?(?:0x[0-9a-f]+|\d+))?\((\w+)\)$')
# The conditional branches herd7 reads, and llvm-objdump's aliases as (branch, swapped).
BRANCHES = {'beq': ('beq', False), 'bne': ('bne', False), 'blt': ('blt', False),
            'bge': ('bge', False), 'bgt': ('blt', True), 'ble': ('bge', True)}
ZERO_BRANCHES = {'beqz': ('beq', 'x', 'zero'), 'bnez': ('bne', 'x', 'zero'),
                 'bltz': ('blt', 'x', 'zero'), 'bgez': ('bge', 'x', 'zero'),
                 'bgtz': ('blt', 'zero', 'x'), 'blez': ('bge', 'zero', 'x')}
UNSIGNED_BRANCHES = {'bltu', 'bgeu', 'bgtu', 'bleu'}
# Register-only instructions herd7 computes as the hardware does (RISCVSem.ml).
SAME = {'add', 'sub', 'and', 'or', 'xor', 'sll', 'slt', 'addi', 'andi', 'ori', 'xori', 'slli',
        'srli', 'slti', 'mv', 'li'}
# 32-bit operations: herd7's 64-bit one, then `sext.w` of the result.
WORD = {'addw': 'add', 'subw': 'sub', 'sllw': 'sll', 'addiw': 'addi', 'slliw': 'slli'}
LOADS = {'lw', 'ld', 'lwu'}
STORES = {'sw', 'sd'}
SUBWORD = {'lb', 'lbu', 'lh', 'lhu', 'sb', 'sh'}
AMO = re.compile(r'^amo(swap|add|and|or|xor|max|min|maxu|minu|cas)\.([bhwdq])(\.aq|\.rl|\.aqrl)?$')
LRSC = re.compile(r'^(lr|sc)\.([wd])(\.aq|\.rl|\.aqrl)?$')
FENCE_SETS = {'r', 'w', 'rw', 'ir', 'ow', 'iorw'}


# The ordering signature's classes (scripts/lkmm/ordering.py).
ORDERING_AMO = re.compile(r'^amo(add|and|or|xor|swap|min|max|minu|maxu|cas)\.(b|h|w|d|q)'
                          r'(\.(aq|rl|aqrl))?$')
ORDERING_RESERVED = re.compile(r'^(lr|sc)\.(w|d)(\.(aq|rl|aqrl))?$')
ORDERING_PLAIN = re.compile(r'^(c\.)?(l[bhwd]u?|s[bhwd])$')
STACK = re.compile(r'\((sp|s0)\)')
# No frame record to leave out of instruction counts (scripts/lkmm/objdump.py).
FRAME = frozenset()


def ordering_class(mnem, ops):
    """The ordering signature's entry of one riscv64 instruction, or None (the unprivileged
    ISA's RVWMO, chapter 17, and the A extension, chapter 8):
    - loads and stores, plain or load-reserved/store-conditional, with the ordering bits: `ld`,
      `st`; `lr`, `sc` with `.aq`, `.rl` or `.aqrl` after a dot; the access size (`.w`, `.d`,
      `lw`/`ld`, ...) is not part of the signature, as for arm64;
    - the AMOs (`amoadd`, `amoand`, `amoor`, `amoxor`, `amoswap`, `amomin`/`amomax` and their
      unsigned forms, `amocas`): `amo` with the ordering bits after a dot;
    - fences: `fence.<predecessor>,<successor>` (`fence.rw,rw`, `fence.r,rw`, `fence.rw,w`,
      ...), `fence.tso`, `fence.i`.
    Stack accesses (base register `sp`, or the frame pointer `s0`) are left out, as for arm64."""
    if mnem == 'fence':
        return 'fence.' + ops.replace(' ', '')
    if mnem in ('fence.tso', 'fence.i'):
        return mnem
    if STACK.search(ops):
        return None
    m = ORDERING_AMO.match(mnem)
    if m:
        return 'amo' + (f'.{m.group(4)}' if m.group(4) else '')
    m = ORDERING_RESERVED.match(mnem)
    if m:
        return m.group(1) + (f'.{m.group(4)}' if m.group(4) else '')
    m = ORDERING_PLAIN.match(mnem)
    if m:
        return 'ld' if m.group(2).startswith('l') else 'st'
    return None


def reg(word, where, text):
    if word not in X:
        raise Unrepresentable(f'{where}: {text}: operand {word!r} is not modelled')
    return X[word]


def imm(word, where, text):
    try:
        return str(int(word, 0))
    except ValueError:
        raise Unrepresentable(f'{where}: {text}: operand {word!r} is not modelled') from None


def address(word, where, text):
    """`(a1)` or `0x0(a1)` as herd7's `0(x11)`; anything else is refused."""
    m = ADDRESS.match(word)
    if not m:
        raise Unrepresentable(f'{where}: {text}: operand {word!r} is not modelled')
    if int(m.group(1) or '0', 0) != 0:
        raise Unrepresentable(f'{where}: {text}: only 0(rs) addressing is modelled')
    return f'0({reg(m.group(2), where, text)})'


def is_branch(mnem):
    return mnem == 'j' or mnem in BRANCHES or mnem in ZERO_BRANCHES or \
        mnem in UNSIGNED_BRANCHES


def names(insns):
    """Every register the instructions name."""
    out = set()
    for _, _, ops in insns:
        out |= {X[w] for w in re.findall(r'\b\w+\b', ops) if w in X}
    return out


def instruction(insn, labels, where, scratch, extended=frozenset()):
    """The herd7 lines of one instruction; `scratch` is a register the thread does not use
    (or None), `extended` the registers that hold sign-extended 32-bit values before it."""
    _, mnem, ops = insn
    text = f'{mnem} {ops}'.strip()
    ops_main = BRANCH_TARGET.sub(lambda m: labels.get(int(m.group(1), 16), m.group(0)), ops)
    words = [w.strip() for w in ops_main.split(',')] if ops_main.strip() else []
    if mnem in ('nop', 'pause') or (mnem, ops) in (IN_MARKER, OUT_MARKER):
        return []
    if re.search(r'\b(sp|x2)\b', ops):
        raise Unrepresentable(f'{where}: {text}: a stack access (spill) between the markers')

    def r(i):
        return reg(words[i], where, text)

    def sext(rd):
        return [] if rd == 'x0' else [f'sext.w {rd},{rd}']

    if mnem == 'fence':
        if not words:
            return ['fence rw,rw']  # `fence` alone is `fence iorw, iorw`
        if '0' in words:
            return []   # a HINT: one of its sets is empty, it orders nothing
        if len(words) != 2 or not set(words) <= FENCE_SETS:
            raise Unrepresentable(f'{where}: {text}: no herd7 model of these fence sets')
        return [f'fence {words[0]},{words[1]}']
    if mnem in ('fence.tso', 'fence.i'):
        return [mnem]
    if mnem in SUBWORD:
        raise Unrepresentable(f'{where}: {text}: a byte or halfword access (herd7 runs '
                              'RISCV tests without mixed sizes)')
    if mnem in LOADS or mnem in STORES:
        rd, addr = r(0), address(words[1], where, text)
        if mnem == 'lw':
            return [f'lw {rd},{addr}'] + sext(rd)
        if mnem == 'lwu':
            return [f'lw {rd},{addr}'] + ([] if rd == 'x0' else
                                          [f'slli {rd},{rd},32', f'srli {rd},{rd},32'])
        return [f'{mnem} {rd},{addr}']
    m = LRSC.match(mnem)
    if m:
        if m.group(1) == 'lr':
            rd = r(0)
            return [f'{mnem} {rd},{address(words[1], where, text)}'] + \
                (sext(rd) if m.group(2) == 'w' else [])
        return [f'{mnem} {r(0)},{r(1)},{address(words[2], where, text)}']
    m = AMO.match(mnem)
    if m:
        op, width = m.group(1), m.group(2)
        if op == 'cas':
            raise Unrepresentable(f'{where}: {text}: no herd7 model of amocas (Zacas)')
        if width in 'bh':
            raise Unrepresentable(f'{where}: {text}: no herd7 model of byte and halfword '
                                  'AMOs (Zabha)')
        if op in ('maxu', 'minu') or (op in ('max', 'min') and width == 'w'):
            raise Unrepresentable(f'{where}: {text}: herd7 does not compute amo{op}.{width} '
                                  'as the hardware does')
        if width != 'w' and width != 'd':
            raise Unrepresentable(f'{where}: {text}: no herd7 model of this instruction')
        rd = r(0)
        return [f'{mnem} {rd},{r(1)},{address(words[2], where, text)}'] + \
            (sext(rd) if width == 'w' else [])
    if is_branch(mnem):
        if mnem in UNSIGNED_BRANCHES:
            raise Unrepresentable(f'{where}: {text}: herd7 7.58 has no semantics of unsigned '
                                  'branches')
        if mnem == 'j':
            return [f'j {words[0]}']
        if mnem in ZERO_BRANCHES:
            base, a, b = ZERO_BRANCHES[mnem]
            regs = {'x': r(0), 'zero': 'x0'}
            return [f'{base} {regs[a]},{regs[b]},{words[1]}']
        base, swapped = BRANCHES[mnem]
        a, b = (r(1), r(0)) if swapped else (r(0), r(1))
        return [f'{base} {a},{b},{words[2]}']
    if mnem == 'lui':
        rd = r(0)
        return [f'lui {rd},{imm(words[1], where, text)}'] + sext(rd)
    if mnem in SAME:
        return [f'{mnem} ' + ','.join(imm(w, where, text) if w not in X else X[w]
                                      for w in words)]
    if mnem in WORD:
        rd = r(0)
        rest = [X[w] if w in X else imm(w, where, text) for w in words[1:]]
        return [f'{WORD[mnem]} {rd},{",".join(rest)}'] + sext(rd)
    if mnem == 'sext.w':
        return [] if r(0) == r(1) and r(1) in extended else [f'sext.w {r(0)},{r(1)}']
    if mnem == 'srliw':
        # The low 32 bits shifted right, then sign-extended: for a shift of 1 or more the
        # result is below 2^31.
        rd, shift = r(0), int(words[2], 0)
        if shift == 0:
            return [f'sext.w {rd},{r(1)}']
        return [f'slli {rd},{r(1)},32', f'srli {rd},{rd},{32 + shift}']
    if mnem == 'negw':
        return [f'sub {r(0)},x0,{r(1)}'] + sext(r(0))
    if mnem == 'neg':
        return [f'sub {r(0)},x0,{r(1)}']
    if mnem == 'not':
        return [f'xori {r(0)},{r(1)},-1']
    if mnem == 'sltz':
        return [f'slt {r(0)},{r(1)},x0']
    if mnem == 'sgtz':
        return [f'slt {r(0)},x0,{r(1)}']
    if mnem in ('seqz', 'snez'):
        # x != 0 exactly when x or -x has its sign bit set: (x | -x) >> 63.
        rd, rs = r(0), r(1)
        tmp = rd if rd != rs else scratch
        if tmp is None:
            raise Unrepresentable(f'{where}: {text}: no free register for its lowering')
        out = [f'sub {tmp},x0,{rs}', f'or {tmp},{tmp},{rs}', f'srli {rd},{tmp},63']
        return out + ([f'xori {rd},{rd},1'] if mnem == 'seqz' else [])
    raise Unrepresentable(f'{where}: {text}: no herd7 model of this instruction')


# Results that are sign-extended 32-bit values whatever the operands (after the lowering's
# sext.w, where it adds one), and those that are if their register operands are.
EXTENDING = {'lw', 'lui', 'slt', 'slti', 'sltz', 'sgtz', 'seqz', 'snez', 'li', 'sext.w',
             'srliw', 'negw'} | set(WORD)
PRESERVING = {'and', 'or', 'xor', 'andi', 'ori', 'xori', 'not', 'mv'}


def extends(insn, before):
    """The registers that hold sign-extended 32-bit values after `insn`, given `before`
    (what the hardware computes, and herd7 after the lowering)."""
    _, mnem, ops = insn
    words = [w.strip() for w in ops.split(',')]
    rd = X.get(words[0])
    # Every instruction translated writes its first operand, but stores, branches and fences.
    if rd in (None, 'x0') or mnem in STORES or is_branch(mnem) or mnem.startswith('fence'):
        return before
    sources = [X[w] for w in words[1:] if w in X]
    if (mnem in EXTENDING or re.match(r'^(lr|sc)\.w|^sc\.d|^amo\w+\.w', mnem) or
            (mnem in PRESERVING and all(x in before for x in sources)) or
            (mnem == 'andi' and int(words[2], 0) >= 0) or
            (mnem == 'srli' and int(words[2], 0) > 32)):
        return before | {rd}
    return before - {rd}


def extended_on_entry(insns, blocks):
    """For each block (by first instruction), the registers that hold sign-extended 32-bit
    values on every path into it: a forward must-analysis to its fixpoint."""
    top = frozenset(X.values())
    preds = {b.start: [] for b in blocks}
    for b in blocks:
        for succ in b.successors:
            preds[succ].append(b)
    entry = {b.start: top for b in blocks}
    entry[blocks[0].start] = frozenset({'x0'})
    changed = True
    while changed:
        changed = False
        for b in blocks[1:]:
            outs = []
            for p in preds[b.start]:
                known = entry[p.start]
                for i in p.insns:
                    known = extends(insns[i], known)
                outs.append(known)
            new = frozenset.intersection(*outs) if outs else frozenset({'x0'})
            if new != entry[b.start]:
                entry[b.start], changed = new, True
    return entry


def leaves(mnem, ops, insns, i):
    """Why instruction i leaves the thread (a call, a return, a trap), or None."""
    if mnem in ('call', 'tail', 'jal', 'jalr') or (mnem == 'jr' and ops != 'ra'):
        return 'a call'
    if mnem == 'auipc':
        nxt = insns[i + 1] if i + 1 < len(insns) else (None, '', '')
        return 'a call' if nxt[1] in ('jalr', 'jr') else 'a PC-relative address (a static)'
    if mnem in ('ret', 'jr', 'ebreak', 'unimp', 'ecall', 'wfi'):
        return 'leaves the thread'
    return None


def translate(insns, thread, marked=8):
    """The herd7 lines of thread number `thread`: instructions and labels. `insns` are
    (address, mnemonic, operands) of its entry point (objdump.Object.body); the entry marker
    sets the first `marked` registers of MARKED (8, or 12 for a test with more variables:
    tests/herd/harness.rs)."""
    var_regs = {X[r] for r in MARKED[:marked]}
    where = f'P{thread}'
    index = {a: i for i, (a, _, _) in enumerate(insns)}
    starts = [i for i, (_, m, o) in enumerate(insns) if (m, o) == IN_MARKER]
    if len(starts) != 1:
        raise Unrepresentable(f'{where}: {len(starts)} entry markers (addi zero, zero, 120), '
                              'not one')
    start = starts[0]
    used = names(insns)
    scratch = next((X[s] for s in SCRATCH if X[s] not in used), None)
    prologue = []
    for _, mnem, ops in insns[:start]:
        words = [w.strip() for w in ops.split(',')]
        if mnem == 'nop' or re.search(r'\b(sp|x2)\b', ops):
            continue  # the frame, and saves of callee-saved registers restored after the end
        if mnem in LOADS or mnem in STORES or mnem in SUBWORD or mnem.startswith(
                ('amo', 'lr.', 'sc.', 'fence')) or is_branch(mnem) or leaves(mnem, ops, [], 0):
            raise Unrepresentable(f'{where}: {mnem} {ops} before the entry marker')
        if X.get(words[0]) in var_regs:
            continue  # dead: the marker sets that register
        prologue.append((None, mnem, ops))

    def flow(i):
        _, mnem, ops = insns[i]
        if (mnem, ops) == OUT_MARKER:
            return False, None
        why = leaves(mnem, ops, insns, i)
        if why:
            raise Unrepresentable(f'{where}: {mnem} {ops}: {why}')
        if not is_branch(mnem):
            return True, None
        m = BRANCH_TARGET.search(ops)
        if not m or int(m.group(1), 16) not in index:
            raise Unrepresentable(f'{where}: {mnem} {ops}: a branch out of the function')
        return mnem != 'j', index[int(m.group(1), 16)]

    try:
        blocks = cfg.layout(len(insns), start + 1, flow)
    except (cfg.Irreducible, IndexError) as e:
        raise Unrepresentable(f'{where}: {e}') from e
    block_label, labels = cfg.labels(blocks, insns, thread)
    lines = []
    for insn in prologue:
        lines += instruction(insn, labels, where, scratch)
    extended = extended_on_entry(insns, blocks)

    def body(blk):
        out, known = [], extended[blk.start]
        for i in blk.insns:
            out += instruction(insns[i], labels, where, scratch, known)
            known = extends(insns[i], known)
        return out
    return lines + cfg.emit(blocks, insns, thread, block_label, 'j',
                            lambda insn: (insn[1], insn[2]) == OUT_MARKER, body)
