# SPDX-License-Identifier: GPL-2.0
"""The architectures' descriptors, `qemu/targets/<arch>` (key=value lines): what the Python
tools read of an architecture, so that none of them names one. scripts/lib.sh reads the same
files for the shell scripts (arch_var)."""

import functools
import importlib
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGETS = os.path.join(ROOT, 'qemu', 'targets')


class UnknownArch(Exception):
    """An architecture without a descriptor; the message lists those there are."""


def known():
    """Every architecture that has a descriptor, sorted."""
    return sorted(n for n in os.listdir(TARGETS) if os.path.isfile(os.path.join(TARGETS, n)))


def descriptor(arch):
    """The keys and values of `arch`'s descriptor (a later line of a key wins, as in lib.sh)."""
    path = os.path.join(TARGETS, arch)
    if not os.path.isfile(path):
        raise UnknownArch(f'unknown architecture {arch!r} (known: {" ".join(known())}; each is '
                          'a file in qemu/targets/)')
    st = os.stat(path)
    return dict(_read_descriptor(path, st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=None)
def _read_descriptor(path, _mtime_ns, _size):
    """The descriptor at `path` as it is at that modification time and size, read once (the
    machine-code readers ask for it for every instruction)."""
    out = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if line and not line.startswith('#') and '=' in line:
                key, value = line.split('=', 1)
                out[key] = value
    return out


def paths(arch):
    """The code paths the boot-time selection chooses among on `arch` (`-` for one)."""
    return tuple(descriptor(arch).get('paths', '-').split())


def herd_paths(arch):
    """The code paths the herd7 check reads (`herd_paths=`; default: every path): a path whose
    instructions herd7 has no semantics for is left to ordering parity."""
    return tuple(descriptor(arch).get('herd_paths', '').split()) or paths(arch)


def isa(arch):
    """The name of the module of scripts/lkmm/ that reads `arch`'s machine code (isa=): its
    ordering classes and frame record and, where herd7 models the architecture, its
    translation for herd7 (translate(), SYNTAX)."""
    name = descriptor(arch).get('isa')
    if not name:
        raise UnknownArch(f'qemu/targets/{arch} names no isa= (a module of scripts/lkmm/)')
    return name


def isa_module(arch):
    """The module isa() names, imported."""
    return importlib.import_module(f'lkmm.{isa(arch)}')


def herd_translator(arch):
    """The module of scripts/lkmm/ that translates `arch`'s machine code for herd7 (the isa=
    module, if it has translate()), or None."""
    module = isa_module(arch)
    return module if hasattr(module, 'translate') else None


def herd_model(arch):
    """herd7's model of `arch` (a .cat file), or None where herd7 has none."""
    return descriptor(arch).get('herd_model') or None
