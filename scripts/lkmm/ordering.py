# SPDX-License-Identifier: GPL-2.0
"""The ordering signature of a path of machine code: its ordering-relevant instructions, in
order, each reduced to what it means for the memory model. Two paths with the same signature
order memory accesses alike; scripts/machine-code/codegen-compare requires every Rust operation to have
its C twin's.

arm64 (Arm ARM B2.3, "Definition of the Armv8 memory model"):
- loads and stores, plain or exclusive, with their acquire/release form: `ld`, `ldar`
  (`ldar*`), `ldapr` (`ldapr*`, RCpc acquire), `st`, `stlr`; `ldxr`, `ldaxr`, `stxr`,
  `stlxr` for the exclusives. The access size (`b`, `h`) is not part of the signature: the
  operand type is, and C and Rust twins have the same.
- the LSE atomics (`ldadd`, `ldclr`, `ldset`, `ldeor`, `ld{s,u}{max,min}`, their `st*`
  forms, `swp`, `cas`): `amo`, `swp`, `cas`, with the ordering suffix after a dot (`.a`,
  `.l`, `.al`; nothing for relaxed);
- barriers: `dmb.<option>`, `dsb.<option>`, `isb`.
  Stack accesses (base register `sp`, or the frame pointer `x29`) are private to the thread
  and not part of the signature.
riscv64 (the unprivileged ISA's RVWMO, chapter 17, and the A extension, chapter 8):
- loads and stores, plain or load-reserved/store-conditional, with the ordering bits: `ld`,
  `st`; `lr`, `sc` with `.aq`, `.rl` or `.aqrl` after a dot; the access size (`.w`, `.d`,
  `lw`/`ld`, ...) is not part of the signature, as for arm64;
- the AMOs (`amoadd`, `amoand`, `amoor`, `amoxor`, `amoswap`, `amomin`/`amomax` and their
  unsigned forms, `amocas`): `amo` with the ordering bits after a dot;
- fences: `fence.<predecessor>,<successor>` (`fence.rw,rw`, `fence.r,rw`, `fence.rw,w`, ...),
  `fence.tso`, `fence.i`.
  Stack accesses (base register `sp`, or the frame pointer `s0`) are left out, as for arm64.
x86 (Intel SDM Vol. 3A 9.2.2): `locked` for a `lock`-prefixed instruction and for `xchg` with
a memory operand (locked implicitly), `mfence`, `lfence`, `sfence`. Plain loads and stores
are left out: x86 orders them all alike (TSO), and which instruction reads memory (a `mov`
or a `cmp` with a memory operand) is not an ordering difference.
"""

import re

ARM64_LSE = re.compile(r'^(ld(add|clr|set|eor|smax|smin|umax|umin)|st(add|clr|set|eor|smax|smin|'
                       r'umax|umin)|swp|casp?)(a|l|al)?(b|h)?$')
ARM64_EXCLUSIVE = re.compile(r'^(ld|st)(a|l)?xr(b|h)?$')
ARM64_ACQREL = re.compile(r'^(ldar|ldapr|stlr)(b|h)?$')
ARM64_PLAIN = re.compile(r'^(ldr|ldur|str|stur)(s?b|s?h|sw)?$')
RISCV_AMO = re.compile(r'^amo(add|and|or|xor|swap|min|max|minu|maxu|cas)\.(b|h|w|d|q)'
                       r'(\.(aq|rl|aqrl))?$')
RISCV_RESERVED = re.compile(r'^(lr|sc)\.(w|d)(\.(aq|rl|aqrl))?$')
RISCV_PLAIN = re.compile(r'^(c\.)?(l[bhwd]u?|s[bhwd])$')
STACK_BASE = re.compile(r'\[(sp|x29)\b|\(%(rsp|rbp)\)|\((sp|s0)\)')


def arm64_class(mnem, ops):
    """The signature entry of one arm64 instruction, or None."""
    if mnem in ('dmb', 'dsb'):
        return f'{mnem}.{ops.strip()}'
    if mnem == 'isb':
        return 'isb'
    if STACK_BASE.search(ops):
        return None
    m = ARM64_LSE.match(mnem)
    if m:
        family = m.group(1)
        kind = 'amo' if family.startswith(('ld', 'st')) else family
        return kind + (f'.{m.group(4)}' if m.group(4) else '')
    m = ARM64_EXCLUSIVE.match(mnem)
    if m:
        return f'{m.group(1)}{m.group(2) or ""}xr'
    m = ARM64_ACQREL.match(mnem)
    if m:
        return m.group(1)
    if ARM64_PLAIN.match(mnem) or mnem in ('ldp', 'stp'):
        return 'ld' if mnem.startswith('ld') else 'st'
    return None


def riscv64_class(mnem, ops):
    """The signature entry of one riscv64 instruction, or None."""
    if mnem == 'fence':
        return 'fence.' + ops.replace(' ', '')
    if mnem in ('fence.tso', 'fence.i'):
        return mnem
    if STACK_BASE.search(ops):
        return None
    m = RISCV_AMO.match(mnem)
    if m:
        return 'amo' + (f'.{m.group(4)}' if m.group(4) else '')
    m = RISCV_RESERVED.match(mnem)
    if m:
        return m.group(1) + (f'.{m.group(4)}' if m.group(4) else '')
    m = RISCV_PLAIN.match(mnem)
    if m:
        return 'ld' if m.group(2).startswith('l') else 'st'
    return None


def x86_class(mnem, ops):
    """The signature entry of one x86 instruction, or None."""
    if mnem.startswith('lock '):
        return 'locked'
    if mnem.rstrip('bwlq') == 'xchg' and '(' in ops:
        return 'locked'
    if mnem in ('mfence', 'lfence', 'sfence'):
        return mnem
    return None


# The classifier of each architecture's instructions (qemu/targets/ names the architectures).
CLASSIFIERS = {'arm64': arm64_class, 'riscv64': riscv64_class, 'x86_64': x86_class}


class NoClassifier(Exception):
    """An architecture whose instructions this module cannot classify."""


def classifier(arch):
    """The signature entry function of `arch`'s instructions."""
    try:
        return CLASSIFIERS[arch]
    except KeyError:
        raise NoClassifier(f'no ordering classifier for {arch!r} in scripts/lkmm/ordering.py '
                           f'(there are: {" ".join(sorted(CLASSIFIERS))})') from None


def signature(insns, arch):
    """The signature of a path: `insns` are (address, mnemonic, operands) in program order
    (scripts/lkmm/objdump.py `path()`); a replacement `nop` is `nop.alt` and is left out.
    The path is the set of instructions reachable on it, in address order, not one run: an
    entry repeated at once (the two copies of a peeled loop's locked instruction) is one."""
    entry = classifier(arch)
    out = []
    for _, m, o in insns:
        c = entry(m, o)
        # A loop the compiler peeled or rotated has its body twice: count a repeat once.
        if c is not None and (not out or out[-1] != c):
            out.append(c)
    return out
