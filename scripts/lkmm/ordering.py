# SPDX-License-Identifier: GPL-2.0
"""The ordering signature of a path of machine code: its ordering-relevant instructions, in
order, each reduced to what it means for the memory model. Two paths with the same signature
order memory accesses alike; scripts/machine-code/codegen-compare requires every Rust operation to have
its C twin's.

What an instruction means is the architecture's: the function `ordering_class(mnem, ops)` of
the module of scripts/lkmm/ that its descriptor names (qemu/targets/<arch>: isa=), which says
what it counts (loads and stores with their ordering forms, atomics, barriers) and why, and
returns None for an instruction that orders nothing.
"""

from . import targets


class NoClassifier(Exception):
    """An architecture whose instructions this module cannot classify."""


def classifier(arch):
    """The signature entry function of `arch`'s instructions."""
    module = targets.isa_module(arch)
    entry = getattr(module, 'ordering_class', None)
    if entry is None:
        raise NoClassifier(f'{module.__file__} (isa= of qemu/targets/{arch}) has no '
                           'ordering_class(mnem, ops)')
    return entry


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
