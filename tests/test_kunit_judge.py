# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/boot/kunit-judge, the verdict on a `kunit.py exec` run of a grafted
UML kernel (scripts/boot/kunit-exec): a clean run passes, and each way a run goes wrong fails
it: kunit.py's exit status, a failed case, lines the console dropped (kunit.py's "Expected test
number" errors, as 6.12's UML gives), a doctest missing, upstream's rust_atomics not passed.

    python3 -m unittest tests/test_kunit_judge.py
"""

import importlib.machinery
import importlib.util
import os
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_loader = importlib.machinery.SourceFileLoader(
    'kunit_judge', os.path.join(ROOT, 'scripts', 'boot', 'kunit-judge'))
_spec = importlib.util.spec_from_loader('kunit_judge', _loader)
kunit_judge = importlib.util.module_from_spec(_spec)
_loader.exec_module(kunit_judge)


def log(doctests=3, atomics='PASSED', summary=None, extra=()):
    """kunit.py's output for upstream's rust_atomics and `doctests` doctests, all passed."""
    lines = ['[16:00:44] ================ rust_atomics (1 subtests) =================',
             f'[16:00:44] [{atomics}] atomic_basic_tests',
             f'[16:00:44] ================== [{atomics}] rust_atomics ===================',
             f'[16:00:44] =========== rust_doctests_kernel ({doctests} subtests) ============']
    lines += [f'[16:00:44] [PASSED] rust_doctest_kernel_sync_atomic_rs_{k}'
              for k in range(doctests)]
    lines += list(extra)
    lines.append('[16:00:44] ============== [PASSED] rust_doctests_kernel ===============')
    lines.append(summary or f'[16:00:44] Testing complete. Ran {doctests + 1} tests: '
                 f'passed: {doctests + 1}')
    return '\n'.join(lines) + '\n'


class KunitJudge(unittest.TestCase):
    def verdict(self, text, rc=0, cases=3):
        lines, ok = kunit_judge.judge('um-7.2-kunit-py', rc, cases, text)
        return ok, lines

    def test_a_clean_run_passes(self):
        ok, lines = self.verdict(log())
        self.assertTrue(ok, lines)
        self.assertEqual(lines[-1], 'um-7.2-kunit-py: 10 passed, 0 failed, 0 skipped')

    def test_kunit_py_exit_status(self):
        ok, _ = self.verdict(log(), rc=1)
        self.assertFalse(ok)

    def test_dropped_lines(self):
        # What 6.12's UML console gives: kunit.py counts errors and crashes, and a doctest's
        # line is missing.
        text = log(doctests=2, summary='[16:00:45] Testing complete. Ran 3 tests: passed: 2, '
                   'crashed: 1, errors: 1',
                   extra=['[16:00:45] [ERROR] Test: rust_doctest_kernel_sync_atomic_rs_2: '
                          'Expected test number 3 but found 9'])
        ok, lines = self.verdict(text)
        self.assertFalse(ok)
        self.assertIn('FAIL um-7.2-kunit-py: every doctest of the graft passed (2 of 3)', lines)
        self.assertTrue(lines[-1].startswith('um-7.2-kunit-py: ') and ' 0 failed' not in lines[-1])

    def test_a_failed_case(self):
        text = log(summary='[16:00:45] Testing complete. Ran 4 tests: passed: 3, failed: 1')
        ok, _ = self.verdict(text)
        self.assertFalse(ok)

    def test_upstreams_suite_must_pass(self):
        ok, lines = self.verdict(log(atomics='FAILED'))
        self.assertFalse(ok)
        self.assertIn("FAIL um-7.2-kunit-py: upstream's suite rust_atomics passed", lines)

    def test_no_summary(self):
        ok, _ = self.verdict(log().rsplit('\n', 2)[0] + '\n')
        self.assertFalse(ok)


if __name__ == '__main__':
    unittest.main()
