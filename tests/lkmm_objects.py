# SPDX-License-Identifier: GPL-2.0
"""What the unit tests of an architecture's machine-code reader share (tests/test_lkmm_*.py):
an object assembled by llvm-mc from a few lines, and the ordering signature that
scripts/lkmm/objdump.py and ordering.py read of one function of it, with the architecture's
module of scripts/lkmm/ in place of its descriptor's isa=."""

import os
import subprocess
import sys
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
from lkmm import objdump, ordering  # noqa: E402


def assemble(text, directory, *mc_args):
    """The object llvm-mc (LLVM 19, scripts/setup) makes of assembly `text`, with `mc_args`
    (the triple, the CPU or features), in `directory`."""
    src, obj = os.path.join(directory, 'f.s'), os.path.join(directory, 'f.o')
    with open(src, 'w', encoding='utf-8') as f:
        f.write(text)
    subprocess.run([f'{objdump.LLVM}/llvm-mc', *mc_args, '-filetype=obj', '-o', obj, src],
                   check=True)
    return obj


def path_signature(obj_path, isa, arch, name='f'):
    """(ordering signature, problems) of function `name`'s path in the object at `obj_path`,
    read with module `isa` of scripts/lkmm/ as architecture `arch`'s."""
    obj = objdump.Object(obj_path)
    with mock.patch.object(objdump.targets, 'isa_module', return_value=isa), \
            mock.patch.object(objdump.targets, 'descriptor', return_value={}):
        insns, problems = objdump.path(obj, name, arch, False)
    with mock.patch.object(ordering.targets, 'isa_module', return_value=isa):
        return ordering.signature(insns, arch), problems
