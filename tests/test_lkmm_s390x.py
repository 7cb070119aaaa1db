# SPDX-License-Identifier: GPL-2.0
"""Unit tests of how the machine-code checks read s390x (scripts/lkmm/s390x.py and the s390x
parts of scripts/lkmm/objdump.py), on big-endian objects assembled by llvm-mc: the z196
instructions are decoded (not `<unknown>`), the bare branch targets that llvm-objdump prints are
followed, a branch relocated against another function is a call, the two serializing `bcr`s are
one class and the interlocked updates another; and without those rewrites the path loses what
it must see.

    python3 -m unittest tests/test_lkmm_s390x.py   # needs LLVM 19 (scripts/setup)
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
from lkmm import objdump, s390x  # noqa: E402

# A fetch_add (laa; bcr 14,0), then a cmpxchg loop whose failure path is placed after the
# return and branches back, a smp_mb() (bcr 15,0), and a conditional tail call of `h`.
CODE = '''
    .text
    .globl f
    .type f, @function
f:
    laa %r1, %r3, 0(%r2)
    bcr 14, 0
    l %r0, 0(%r2)
1:  cs %r0, %r4, 0(%r2)
    jl 2f
    bcr 15, 0
    st %r0, 0(%r5)
    br %r14
2:  alsi 0(%r2), -1
    j 1b
    .size f, .-f
    .globl g
    .type g, @function
g:
    asi 0(%r2), 1
    cijlh %r3, 0, 1f
    br %r14
1:  jg h
    .size g, .-g
'''


def assemble(text, directory):
    return lkmm_objects.assemble(text, directory, '-triple=s390x-linux-gnu', '-mcpu=z196')


def path_signature(obj_path, name='f'):
    return lkmm_objects.path_signature(obj_path, s390x, 's390x', name)


class Reading(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.obj = assemble(CODE, self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_big_endian_machine(self):
        self.assertEqual(objdump.elf_machine(self.obj), 22)
        self.assertIsNotNone(objdump.elf_section(self.obj, '.text'))

    def test_z196_decoded(self):
        mnems = [m for _, m, _ in objdump.Object(self.obj).body('f')]
        self.assertIn('laa', mnems)
        self.assertNotIn('<unknown>', mnems)

    def test_path_follows_bare_targets(self):
        signature, problems = path_signature(self.obj)
        self.assertEqual(problems, [])
        self.assertEqual(signature, ['interlocked', 'serialize', 'ld', 'cs', 'serialize', 'st',
                                     'interlocked'])

    def test_without_the_rewrite_the_failure_path_is_lost(self):
        with mock.patch.object(objdump, 'BARE_BRANCH_TARGETS', set()):
            signature, _ = path_signature(self.obj)
        self.assertNotIn('interlocked', signature[2:])

    def test_relocated_branch_is_a_call(self):
        _, problems = path_signature(self.obj, 'g')
        self.assertEqual(problems, ['calls <h>'])

    def test_without_the_reloc_rewrite_the_call_is_missed(self):
        with mock.patch.object(objdump, 'RELOCATED_BRANCHES', set()):
            _, problems = path_signature(self.obj, 'g')
        self.assertEqual(problems, [])


class OrderingClasses(unittest.TestCase):
    def test_classes(self):
        cases = [
            ('bnor', '0', 'serialize'), ('br', '0', 'serialize'), ('bcr', '14, 0', 'serialize'),
            ('laa', '%r1, %r3, 0(%r2)', 'interlocked'), ('laalg', '%r1, %r3, 0(%r2)', 'interlocked'),
            ('asi', '0(%r2), -1', 'interlocked'), ('algsi', '0(%r2), 1', 'interlocked'),
            ('cs', '%r0, %r4, 0(%r2)', 'cs'), ('csg', '%r0, %r4, 0(%r2)', 'cs'),
            ('l', '%r0, 0(%r2)', 'ld'), ('lgf', '%r2, 4(%r1,%r3)', 'ld'),
            ('chsi', '0(%r2), 0', 'ld'), ('st', '%r0, 0(%r5)', 'st'),
            ('mvhi', '0(%r2), 5', 'st'), ('strl', '%r0, 0x40 <>', 'st'),
            ('lgrl', '%r1, 0x40 <>', 'ld'),
            ('stg', '%r1, 0(%r15)', None), ('lg', '%r2, 160(%r15)', None),
            ('stmg', '%r11, %r15, 88(%r15)', None), ('la', '%r1, 4(%r2)', None),
            ('lhi', '%r0, 1', None), ('lgfr', '%r2, %r0', None), ('br', '%r14', None),
        ]
        for mnem, ops, want in cases:
            with self.subTest(insn=f'{mnem} {ops}'):
                self.assertEqual(s390x.ordering_class(mnem, ops), want)

    def test_branch_kinds(self):
        self.assertTrue(s390x.is_ret('br', '%r14'))
        self.assertFalse(s390x.is_ret('br', '0'))
        self.assertTrue(s390x.is_call('brasl', '%r14, 0x10 <>'))
        self.assertTrue(s390x.is_call('call.reloc', '<h>'))
        self.assertTrue(s390x.is_call('br', '%r1'))
        self.assertFalse(s390x.is_call('br', '0'))
        self.assertTrue(s390x.is_jump('j'))
        self.assertTrue(s390x.is_jump('jg'))
        for mnem in ('jl', 'jhe', 'jnlh', 'jgne', 'brc', 'cijlh', 'cgrje', 'clgij', 'brctg'):
            self.assertTrue(s390x.is_cond(mnem), mnem)
        self.assertTrue(s390x.is_cond('ber', '%r14'))
        self.assertFalse(s390x.is_cond('bnor', '0'))
        self.assertFalse(s390x.is_cond('j'))


if __name__ == '__main__':
    unittest.main()
