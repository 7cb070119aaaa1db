"""Unit tests of scripts/memory-model/litmus-judge: the kernel's judgelitmus.sh must accept what LKMM allows
and reject what it forbids, from the runner's output in a boot log."""

import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, 'scripts', 'memory-model', 'litmus-judge')


def kernel_litmus_dir():
    """The kernel's litmus-tests directory (scripts/lib.sh's kernel_litmus_dir), or None."""
    out = subprocess.run(['bash', '-c', '. "$1/scripts/lib.sh"; kernel_litmus_dir', '_', ROOT],
                         capture_output=True, text=True, check=True).stdout.strip()
    return out or None


def report(name, expect, positive, negative, suite='rust_atomic_litmus'):
    """A boot log in which the runner reported one test."""
    return reports(suite, (name, expect, positive, negative))


def reports(suite, *tests):
    """A boot log in which the runner reported each (name, expect, positive, negative)."""
    lines = [f'    # Subtest: {suite}', f'    1..{len(tests)}']
    for k, (name, expect, positive, negative) in enumerate(tests, 1):
        kind = 'Never' if positive == 0 else 'Always' if negative == 0 else 'Sometimes'
        lines += [f'    # Test {name} Result: {expect}', '    # Histogram (1 states)',
                  f'    # {positive + negative:<8}:>0:r0=0; 1:r0=1;',
                  '    # Condition exists (0:r0=0 /\\ 1:r0=0)',
                  f'    # Observation {name} {kind} {positive} {negative}',
                  f'    # Time {name} 1.000 s, {positive + negative} iterations/s',
                  f'    ok {k} {name}']
    return ''.join(f'[    1.{i:06d}] {line}\n' for i, line in enumerate(lines))


@unittest.skipUnless(kernel_litmus_dir(), 'no kernel source with tools/memory-model (scripts/setup)')
class JudgeTest(unittest.TestCase):
    def judge(self, log_text, *args):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, 'x86_64-max.log')
            with open(log, 'w', encoding='utf-8') as f:
                f.write(log_text)
            table = os.path.join(d, 'table.md')
            proc = subprocess.run([sys.executable, SCRIPT, '--table', table, *args, log],
                                  capture_output=True, text=True, check=False)
            with open(table, encoding='utf-8') as f:
                return proc.returncode, proc.stdout, f.read()

    def test_never_test_not_observed_is_accepted(self):
        rc, out, table = self.judge(report('SB+fencembonceonces', 'Never', 0, 1000))
        self.assertEqual(rc, 0, out)
        self.assertIn('1 passed, 0 failed', out)
        self.assertIn('| SB+fencembonceonces | Never | 1,000 | - |', table)

    def test_never_test_observed_is_rejected(self):
        rc, out, table = self.judge(report('SB+fencembonceonces', 'Never', 3, 997))
        self.assertEqual(rc, 1, out)
        self.assertIn('FORBIDDEN SEEN', table)

    def test_must_fail_inverts_the_check(self):
        log = report('SB+fencembonceonces', 'Never', 3, 997, suite='rust_atomic_litmus_mutant_m')
        rc, out, _ = self.judge(log, '--suite', 'rust_atomic_litmus_mutant_m',
                                '--must-fail', 'SB+fencembonceonces')
        self.assertEqual(rc, 0, out)
        log = report('SB+fencembonceonces', 'Never', 0, 1000, suite='rust_atomic_litmus_mutant_m')
        rc, out, _ = self.judge(log, '--suite', 'rust_atomic_litmus_mutant_m',
                                '--must-fail', 'SB+fencembonceonces')
        self.assertEqual(rc, 1, 'a mutant the kernel tool accepts must fail:\n' + out)

    def test_must_fail_is_skipped_only_if_its_control_was_too_rare(self):
        suite = 'rust_atomic_litmus_mutant_m'
        args = ('--suite', suite, '--must-fail', 'SB+fencembonceonces',
                '--control', 'SB+poonceonces')
        unseen = reports(suite, ('SB+poonceonces', 'Sometimes', 0, 5000),
                         ('SB+fencembonceonces', 'Never', 0, 1000))
        rc, out, _ = self.judge(unseen, *args)
        self.assertEqual(rc, 0, out)
        self.assertIn('0 passed, 0 failed, 1 skipped', out)
        self.assertIn('SB+poonceonces showed its weak outcome 0 times in 5000 iterations', out)
        # 49 in 5000: under 10 expected in the test's 1000 iterations, too rare to tell.
        rare = reports(suite, ('SB+poonceonces', 'Sometimes', 49, 4951),
                       ('SB+fencembonceonces', 'Never', 0, 1000))
        rc, out, _ = self.judge(rare, *args)
        self.assertEqual(rc, 0, out)
        self.assertIn('0 passed, 0 failed, 1 skipped', out)
        # 50 in 5000: 10 expected; the mutant's test not failing is a failure.
        seen = reports(suite, ('SB+poonceonces', 'Sometimes', 50, 4950),
                       ('SB+fencembonceonces', 'Never', 0, 1000))
        rc, out, _ = self.judge(seen, *args)
        self.assertEqual(rc, 1, out)
        self.assertIn('0 passed, 1 failed, 0 skipped', out)
        # No control in the log: no excuse either.
        rc, out, _ = self.judge(report('SB+fencembonceonces', 'Never', 0, 1000, suite=suite),
                                *args)
        self.assertEqual(rc, 1, out)
        caught = reports(suite, ('SB+poonceonces', 'Sometimes', 0, 5000),
                         ('SB+fencembonceonces', 'Never', 2, 998))
        rc, out, _ = self.judge(caught, *args)
        self.assertEqual(rc, 0, out)
        self.assertIn('1 passed, 0 failed, 0 skipped', out)

    def test_sometimes_not_seen_is_forgiven(self):
        rc, out, table = self.judge(report('SB+poonceonces', 'Sometimes', 0, 1000))
        self.assertEqual(rc, 0, out)
        self.assertIn('forgiven', out)
        self.assertIn('| SB+poonceonces | Sometimes | 1,000 | no |', table)

    def test_log_without_reports_fails(self):
        rc, out, _ = self.judge('[    0.000000] Linux version 6.12.118\n')
        self.assertEqual(rc, 1, out)

    def test_unknown_test_fails(self):
        rc, out, _ = self.judge(report('No+such+test', 'Never', 0, 10))
        self.assertEqual(rc, 1, out)
        self.assertIn('no No+such+test.litmus', out)


if __name__ == '__main__':
    unittest.main()
