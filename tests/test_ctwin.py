# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the herd7 check's comparison with C's compiled twin: the C source of a test's
threads (scripts/lkmm/ctwin.py), the verdict that holds our states to C's and to the LKMM
(scripts/memory-model/herd-check: judge()), and the naming of a dependency by taking it away
from the LKMM (Dependencies), each shown able to fail.

    python3 -m unittest tests/test_ctwin.py   # the LKMM cases need herd7 and a kernel source
"""

import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
sys.path.insert(0, os.path.join(ROOT, 'tests'))
from lkmm import aarch64, ctwin, herd, objdump, riscv64, x86_64  # noqa: E402
from lkmm_objects import assemble  # noqa: E402

_loader = importlib.machinery.SourceFileLoader(
    'herd_check', os.path.join(ROOT, 'scripts', 'memory-model', 'herd-check'))
_spec = importlib.util.spec_from_loader('herd_check', _loader)
herd_check = importlib.util.module_from_spec(_spec)
_loader.exec_module(herd_check)


def described(path):
    """litmus2rust's description (JSON) of the test at `path`."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 't.json')
        subprocess.run([os.path.join(ROOT, 'scripts', 'memory-model', 'litmus2rust'), '-o',
                        os.path.join(d, 't.rs'), '--json', out, path], check=True,
                       capture_output=True)
        with open(out, encoding='utf-8') as f:
            return json.load(f)[0]


def state(values):
    """A final state as herd-check holds one: {'1:r0': 'x', 'y': 0}."""
    return frozenset(values.items())


class TwinSourceTest(unittest.TestCase):
    def test_threads_take_the_variables_in_json_order_and_store_registers_by_index(self):
        t = described(os.path.join(ROOT, 'tests', 'litmus', 'MP+rcuassigns+rcuderefs.litmus'))
        src = ctwin.source(t)
        index = {v['name']: n for n, v in enumerate(t['vars'])}
        self.assertIn(f'int **p = (int **)herd_v[{index["p"]}];', src)
        self.assertIn(f'int *x = (int *)herd_v[{index["x"]}];', src)
        regs = t['threads'][1]['regs']
        for reg, info in regs.items():
            self.assertIn(f'herd_out[{info["index"]}] = (long){reg};', src)
        # The test's statements, as the kernel's C, between the two markers.
        self.assertIn('r0 = rcu_dereference((*p));', src)
        self.assertIn('rcu_assign_pointer((*p), x);', src)
        self.assertLess(src.index('HERD_VARIABLES(herd_v);'), src.index('WRITE_ONCE((*x), 1);'))
        self.assertLess(src.index('WRITE_ONCE((*x), 1);'), src.index('HERD_REGISTERS(herd_out);'))

    def test_register_initial_values_and_locks(self):
        t = described(os.path.join(ROOT, 'tests', 'litmus', 'INIT+registers.litmus'))
        src = ctwin.source(t)
        for thread in t['threads']:
            for reg, info in thread['regs'].items():
                init = info['init']
                if 'int' in init and init['int']:
                    self.assertRegex(src, rf'\b{reg} = {init["int"]};')
        t = described(os.path.join(ROOT, 'tests', 'litmus', 'LOCK+xchg+cmpxchg.litmus'))
        src = ctwin.source(t)
        self.assertNotIn('spinlock_t', src)     # the harness's lock word (harness.h)

    def test_int_declarations_take_the_pointers_their_values_need(self):
        # herd7's C is untyped; the kernel's C refuses an address in an `int` and an `int *`
        # passed to atomic_inc(): the twin declares what litmus2rust's kinds say they hold.
        text = ('C UNTYPED\n{ int *z=y; }\n'
                'P0(int *y, int *z, int *s, atomic_t *a)\n{\n\tint r1 = y;\n\tint r2;\n'
                '\tintptr_t r3;\n\tr2 = READ_ONCE(*z);\n\tif (r1 == r2)\n'
                '\t\tatomic_inc(s);\n\tatomic_inc(a);\n\tr3 = (intptr_t)r2;\n}\n'
                'exists (0:r2=y)\n')
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'UNTYPED.litmus')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
            src = ctwin.source(described(path))
        self.assertRegex(src, r'\bint \*\*z = \(int \*\*\)herd_v\[\d\];')
        self.assertRegex(src, r'\bint \*y = \(int \*\)herd_v\[\d\];')
        self.assertIn('int *r1 = 0;', src)
        self.assertIn('int *r2 = 0;', src)
        self.assertIn('intptr_t r3 = 0;', src)        # not an `int`: as declared
        self.assertIn('atomic_inc(((atomic_t *)s));', src)
        self.assertIn('atomic_inc(a);', src)          # declared atomic_t: as written

    def test_a_thread_that_is_not_the_one_described_is_refused(self):
        t = described(os.path.join(ROOT, 'tests', 'litmus', 'SB+releaseacquires.litmus'))
        t['threads'] = t['threads'][:1]
        with self.assertRaises(ctwin.TwinError):
            ctwin.source(t)


class Fake:
    """The part of an Outcome that judge() reads."""

    def __init__(self, states, violations=(), test=None):
        self.states, self.violations = set(states), sorted(violations, key=herd_check.show)
        self.status, self.message, self.file = 'PASS', 'm', 'f.litmus'
        self.test = test or {'name': 'T', 'path': 'T.litmus'}
        self.twin_states = self.stronger_than_c = None
        self.klass, self.dependencies = 'not representable', ()


class NoDependency:
    def explain(self, test, s):
        return ()


class AddrExplains:
    def explain(self, test, s):
        return ('addr',)


class JudgeTest(unittest.TestCase):
    A, B, C = state({'0:r0': 0}), state({'0:r0': 1}), state({'0:r0': 2})

    def test_a_state_c_forbids_fails_even_if_the_lkmm_allows_it(self):
        ours, c = Fake({self.A, self.B}), Fake({self.A})
        herd_check.judge(ours, c, '', NoDependency())
        self.assertEqual((ours.status, ours.klass), ('FAIL', 'weaker than C'))

    def test_the_same_states_are_as_c_and_fewer_stronger(self):
        ours, c = Fake({self.A}), Fake({self.A})
        herd_check.judge(ours, c, '', NoDependency())
        self.assertEqual((ours.status, ours.klass), ('PASS', 'as C'))
        ours, c = Fake({self.A}), Fake({self.A, self.B})
        herd_check.judge(ours, c, '', NoDependency())
        self.assertEqual((ours.status, ours.klass, len(ours.stronger_than_c)),
                         ('PASS', 'stronger than C', 1))

    def test_a_forbidden_state_c_shares_is_named_by_its_dependency_or_fails(self):
        ours, c = Fake({self.A, self.C}, violations={self.C}), Fake({self.A, self.C})
        ours.status = 'FAIL'
        herd_check.judge(ours, c, '', AddrExplains())
        self.assertEqual((ours.status, ours.klass, ours.dependencies),
                         ('PASS', 'compiler-broken, as C', ('addr',)))
        ours, c = Fake({self.A, self.C}, violations={self.C}), Fake({self.A, self.C})
        ours.status = 'FAIL'
        herd_check.judge(ours, c, '', NoDependency())
        self.assertEqual((ours.status, ours.klass), ('FAIL', 'forbidden, as C, unexplained'))

    def test_without_a_twin_the_lkmm_verdict_stands(self):
        ours = Fake({self.A, self.C}, violations={self.C})
        ours.status = 'FAIL'
        herd_check.judge(ours, None, 'C twin does not compile', NoDependency())
        self.assertEqual((ours.status, ours.klass), ('FAIL', 'no C twin'))


def memory_model():
    out = subprocess.run(['bash', '-c', '. "$1/scripts/lib.sh"; kernel_litmus_dir', '_', ROOT],
                         capture_output=True, text=True, check=False).stdout.strip()
    return os.path.dirname(out) if out else None


try:
    herd.install()
    HAVE = memory_model() is not None
except herd.HerdError:
    HAVE = False


@unittest.skipUnless(HAVE, 'herd7 or the kernel source is missing: run scripts/setup')
class DependenciesTest(unittest.TestCase):
    def test_a_dependency_is_named_by_its_kind_and_ordering_is_not_one(self):
        mm = memory_model()
        with tempfile.TemporaryDirectory() as d:
            deps = herd_check.Dependencies(mm, d, 120)
            t = described(os.path.join(mm, 'litmus-tests', 'MP+onceassign+derefonce.litmus'))
            # r0 = x (the new pointer) with r1 = 0: forbidden by the address dependency alone.
            forbidden = herd_check.normalize(state({'1:r0': 'x', '1:r1': 0}), t)
            self.assertEqual(deps.explain(t, forbidden), ('addr',))
            # A data dependency every compiler folds ((r0 & 0) + 1): named 'data'.
            t = described(os.path.join(ROOT, 'tests', 'litmus',
                                       'LB+datafoldedonce+fencembonceonce.litmus'))
            forbidden = herd_check.normalize(state({'0:r0': 1, '1:r0': 1}), t)
            self.assertEqual(deps.explain(t, forbidden), ('data',))
            # SB with full barriers: no dependency explains its forbidden state.
            t = described(os.path.join(mm, 'litmus-tests', 'SB+fencembonceonces.litmus'))
            forbidden = herd_check.normalize(state({'0:r0': 0, '1:r0': 0}), t)
            self.assertEqual(deps.explain(t, forbidden), ())


class CallRefusalTest(unittest.TestCase):
    """A thread refused for a call names the function it calls (its relocation: unrelocated,
    the call's operands name the caller) and why herd7 cannot run it."""

    CASES = {'x86_64': (x86_64, ['-triple=x86_64-linux-gnu'],
                        f'{x86_64.IN_MARKER}\n\tcall {{callee}}\n\t{x86_64.OUT_MARKER}\n'),
             'arm64': (aarch64, ['-triple=aarch64-linux-gnu'],
                       f'hint {aarch64.IN_MARKER}\n\tbl {{callee}}\n\thint {aarch64.OUT_MARKER}\n'),
             'riscv64': (riscv64, ['-triple=riscv64-linux-gnu'],
                         f'{riscv64.IN_MARKER[0]} {riscv64.IN_MARKER[1]}\n\tcall {{callee}}\n'
                         f'\t{riscv64.OUT_MARKER[0]} {riscv64.OUT_MARKER[1]}\n')}

    def refusal(self, arch, callee):
        module, args, body = self.CASES[arch]
        with tempfile.TemporaryDirectory() as d:
            obj = objdump.Object(assemble('\t.text\n\t.globl f\n\t.type f,@function\nf:\n\t'
                                          + body.format(callee=callee) + '\t.size f, .-f\n',
                                          d, *args))
        insns = obj.body('f')
        with self.assertRaises(module.Unrepresentable) as e:
            module.translate(insns, 0, 8)
        return herd_check.why_calls(obj, insns, e.exception)

    def test_each_architecture_names_the_callee_and_why(self):
        for arch in self.CASES:
            with self.subTest(arch=arch):
                why = self.refusal(arch, 'synchronize_rcu')
                self.assertIn('synchronize_rcu: the LKMM models its grace period', why)
                self.assertIn('a function outside the thread',
                              self.refusal(arch, 'some_helper'))

    def test_a_refusal_that_is_no_call_adds_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            obj = objdump.Object(assemble('\t.text\n\t.globl f\nf:\n\tcall synchronize_rcu\n',
                                          d, '-triple=x86_64-linux-gnu'))
        self.assertEqual(herd_check.why_calls(obj, obj.body('f'),
                                              Exception('adcl $0x1, %eax: no herd7 model')), '')


class TranslatorGapTest(unittest.TestCase):
    """scripts/memory-model/translator-gap holds each refused test to herd7: one herd7 reads
    is a gap, one herd7 refuses too is none."""

    def test_a_refusal_herd7_reads_is_a_gap(self):
        tests = {
            # An int register that holds an address (C-viro-2020.09.29a): herd7 reads it,
            # the translator refuses it.
            'arith.litmus': 'C arith\n{ int y; }\nP0(int *y)\n{\n\tint r8 = 0;\n'
                            '\tint r1;\n\tr8 = y + r8;\n\tr1 = READ_ONCE(*r8);\n}\n'
                            'exists (0:r1=0)\n',
            # Retired: herd7 refuses it too.
            'wait.litmus': 'C wait\n{}\nP0(spinlock_t *l)\n{\n\tspin_unlock_wait(l);\n}\n'
                           'exists (true)\n',
            'ok.litmus': 'C ok\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\n'
                         'exists (x=1)\n'}
        with tempfile.TemporaryDirectory() as d:
            for name, text in tests.items():
                with open(os.path.join(d, name), 'w', encoding='utf-8') as f:
                    f.write(text)
            out = subprocess.run([os.path.join(ROOT, 'scripts', 'memory-model',
                                               'translator-gap'), d],
                                 capture_output=True, text=True, check=True).stdout
        self.assertRegex(out, r"arith.litmus: refused: register 'r8'.*herd7 reads it "
                         r'\(LKMM Always\): a gap')
        self.assertRegex(out, r'wait.litmus: refused: .*herd7 refuses it too: .*'
                         r'spin_unlock_wait')
        self.assertTrue(out.endswith('translator-gap: 1 translated, 2 refused: 1 that herd7 '
                                     'reads, 1 that it refuses\n'), out)


if __name__ == '__main__':
    unittest.main()
