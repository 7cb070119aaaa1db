# SPDX-License-Identifier: GPL-2.0
"""Unit tests of how the machine-code checks read loongarch64 (scripts/lkmm/loongarch64.py and
the LoongArch parts of scripts/lkmm/objdump.py), on objects assembled by llvm-mc: the branch
targets that llvm-objdump prints as offsets become addresses, so that a path follows a branch
to code placed after a `ret` (C's compiler puts try_cmpxchg's store of `*old` there); and the
ordering classes of the instructions the library and C's atomics use.

    python3 -m unittest tests/test_lkmm_loongarch64.py   # needs LLVM 19 (scripts/setup)
"""

import os
import sys
import tempfile
import unittest
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
sys.path.insert(0, os.path.join(ROOT, 'tests'))
import lkmm_objects  # noqa: E402
from lkmm import loongarch64, objdump  # noqa: E402

# C's atomic_try_cmpxchg() as clang compiles it for Linux 7.2 (tests/codegen, c_atomic_try_cmpxchg):
# the store of the value found to *old is after the `ret`, reached by a forward branch.
TRY_CMPXCHG = '''
    .text
    .globl f
    .type f, @function
f:
    ld.w $a3, $a1, 0
1:  ll.w $a4, $a0, 0
    bne $a4, $a3, 2f
    move $t0, $a2
    sc.w $t0, $a0, 0
    beqz $t0, 1b
2:  dbar 0x700
    addi.w $a0, $a4, 0
    bne $a0, $a3, 4f
3:  xor $a0, $a0, $a3
    sltui $a0, $a0, 1
    ret
4:  st.w $a4, $a1, 0
    b 3b
    .size f, .-f
'''


def assemble(text, directory):
    return lkmm_objects.assemble(text, directory, '-triple=loongarch64-linux-gnu', '-mattr=+d')


def path_signature(obj_path):
    return lkmm_objects.path_signature(obj_path, loongarch64, 'loongarch64')


class BranchTargets(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.obj = assemble(TRY_CMPXCHG, self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_offsets_become_addresses(self):
        body = objdump.Object(self.obj).body('f')
        branches = [(a, o) for a, m, o in body if m in ('bne', 'beqz', 'b')]
        self.assertEqual(len(branches), 4)
        for addr, ops in branches:
            target = objdump.TARGET.search(ops)
            self.assertIsNotNone(target, ops)
            self.assertIn(int(target.group(1), 16), {a for a, _, _ in body}, ops)
        # The backward branch of the loop goes to the ll.w, the forward one to the dbar.
        by_addr = {a: m for a, m, _ in body}
        self.assertEqual(by_addr[int(objdump.TARGET.search(branches[1][1]).group(1), 16)], 'll.w')
        self.assertEqual(by_addr[int(objdump.TARGET.search(branches[0][1]).group(1), 16)], 'dbar')

    def test_the_store_after_the_ret_is_on_the_path(self):
        signature, problems = path_signature(self.obj)
        self.assertEqual(problems, [])
        self.assertEqual(signature, ['ld', 'll', 'sc', 'dbar.1792', 'st'])

    def test_without_the_rewrite_the_store_is_lost(self):
        # What the check saw before the rewrite: the branch past the ret unread, the store of
        # *old missing from C's signature (and Rust's, which stores in line, then differed).
        with mock.patch.object(objdump, 'RELATIVE_BRANCH_TARGETS', set()):
            signature, _ = path_signature(self.obj)
        self.assertEqual(signature, ['ld', 'll', 'sc', 'dbar.1792'])


class OrderingClasses(unittest.TestCase):
    def test_classes(self):
        cases = [
            ('amadd_db.w', '$a0, $a1, $a2', 'am_db'), ('amadd.d', '$zero, $a1, $a0', 'am'),
            ('amswap_db.d', '$a3, $a1, $a0', 'am_db'), ('amand.w', '$a3, $a1, $a0', 'am'),
            ('ll.w', '$a3, $a0, 0', 'll'), ('sc.d', '$a4, $a0, 0', 'sc'),
            ('dbar', '1792', 'dbar.1792'), ('dbar', '0x10', 'dbar.16'), ('dbar', '20', 'dbar.20'),
            ('ld.w', '$a0, $a0, 0', 'ld'), ('ld.bu', '$a0, $a0, 3', 'ld'),
            ('ldptr.d', '$a0, $a1, 8', 'ld'), ('st.h', '$a1, $a0, 0', 'st'),
            ('stx.d', '$a1, $a0, $a2', 'st'),
            ('st.d', '$ra, $sp, 8', None), ('ld.d', '$fp, $sp, 0', None),
            ('ld.w', '$a0, $fp, -20', None),
            ('add.w', '$a0, $a1, $a2', None), ('move', '$a4, $a2', None), ('ret', '', None),
        ]
        for mnem, ops, want in cases:
            with self.subTest(insn=f'{mnem} {ops}'):
                self.assertEqual(loongarch64.ordering_class(mnem, ops), want)

    def test_branch_kinds(self):
        self.assertTrue(loongarch64.is_ret('ret'))
        self.assertTrue(loongarch64.is_ret('jr', '$ra'))
        self.assertTrue(loongarch64.is_call('bl', '0x10 <f>'))
        self.assertTrue(loongarch64.is_call('jirl', '$ra, $t0, 0'))
        self.assertTrue(loongarch64.is_call('jr', '$t1'))
        self.assertFalse(loongarch64.is_call('jirl', '$zero, $ra, 0'))
        self.assertTrue(loongarch64.is_jump('b'))
        for mnem in ('beq', 'bne', 'beqz', 'bnez', 'bltz', 'bgeu'):
            self.assertTrue(loongarch64.is_cond(mnem), mnem)
        self.assertFalse(loongarch64.is_cond('b'))


if __name__ == '__main__':
    unittest.main()
