"""Unit tests of scripts/boot/ktap-verdict: what it accepts and, above all, what it rejects."""

import contextlib
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, 'scripts', 'boot', 'ktap-verdict')
KUNIT_DIR = os.environ.get('KUNIT_DIR', '')
# What boot-test passes for loongarch64 (qemu/targets/loongarch64: restart_warning=).
LOONGARCH = ('--restart-warning', 'stop_this_cpu')

GOOD = """\
[    0.000000] Linux version 6.12.118
[    1.131553] KTAP version 1
[    1.132062] 1..2
[    1.139497] rust_atomic_kthreads: loading out-of-tree module taints kernel.
[    1.165896]     KTAP version 1
[    1.166165]     # Subtest: rust_atomic_kthreads
[    1.166369]     1..2
[    1.166563]     # threads=4 iterations=1000000 online_cpus=4
[    1.166852]     ok 1 seed_doc_examples
[    1.167123]     ok 2 fetch_add_relaxed_no_lost_update
[    1.168109]     # fetch_add_relaxed: 99625904 ops/s per thread (4 threads contending)
[    1.168537] # rust_atomic_kthreads: pass:2 fail:0 skip:0 total:2
[    1.168662] ok 1 rust_atomic_kthreads
[    5.510405]     KTAP version 1
[    5.510624]     # Subtest: rust_atomic_lifecycle
[    5.510762]     1..1
[    5.510992]     ok 1 rust_atomic_kthreads rejects threads=0
[    5.519892] ok 2 rust_atomic_lifecycle
[    5.520153] # boot-test: plan done
[    5.527441] reboot: Restarting system
"""


@contextlib.contextmanager
def mutants_file(text):
    """A temporary tests/mutants file holding `text`; yields its path."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'mutants')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        yield path


def run(log_text, *args):
    """Runs the script on a log; returns (exit status, stdout, parsed JSON summary)."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, 't.log')
        with open(log, 'w', encoding='utf-8') as f:
            f.write(log_text)
        proc = subprocess.run([sys.executable, SCRIPT, *args, log],
                              capture_output=True, text=True, check=False)
        summary = None
        if os.path.exists(log + '.json'):
            with open(log + '.json', encoding='utf-8') as f:
                summary = json.load(f)
        return proc.returncode, proc.stdout, summary


class VerdictTest(unittest.TestCase):
    def test_good_log_passes_and_counts_every_case(self):
        rc, out, summary = run(GOOD)
        self.assertEqual(rc, 0, out)
        # crash, plan done, all suites, 3 cases, 2 suite results; kunit.py skipped.
        self.assertEqual((summary['passed'], summary['failed']), (8, 0))
        self.assertEqual(summary['rates'], {'fetch_add_relaxed': 99625904})
        self.assertTrue(out.rstrip().endswith('t: 8 passed, 0 failed, 1 skipped'))

    def test_failed_case_fails(self):
        rc, out, _ = run(GOOD.replace('    ok 2 fetch_add', '    not ok 2 fetch_add'))
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: rust_atomic_kthreads.fetch_add_relaxed_no_lost_update', out)

    def test_crash_signature_fails(self):
        crash = '[    2.000000] WARNING: CPU: 1 PID: 42 at kernel/kthread.c:1 kthread_stop\n'
        rc, out, _ = run(GOOD.replace('[    5.510405]', crash + '[    5.510405]'))
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: no kernel crash signature', out)

    # LoongArch's smp_send_stop() handler warning at restart (seen on 6.12 under TCG), as the
    # kernel prints it; trace shortened to its frames that name it.
    STOP_CPU_SPLAT = """\
[   23.816284] ------------[ cut here ]------------
[   23.816469] WARNING: CPU: 2 PID: 0 at kernel/smp.c:661 smp_call_function_single+0xc4/0x128
[   23.819129] Call Trace:
[   23.819390] [<9000000000295d40>] smp_call_function_single+0xc4/0x128
[   23.819490] [<9000000000272cf0>] swake_up_one_online+0x98/0xac
[   23.819496] [<900000000027102c>] rcutree_report_cpu_dead+0xcc/0x16c
[   23.819503] [<900000000020b5d8>] stop_this_cpu+0x28/0x2c
[   23.819510] [<9000000000295ab0>] __flush_smp_call_function_queue+0x174/0x25c
[   23.819742] ---[ end trace 0000000000000000 ]---
"""

    def test_stop_cpu_warning_at_restart_is_a_note(self):
        rc, out, _ = run(GOOD + self.STOP_CPU_SPLAT, *LOONGARCH)
        self.assertEqual(rc, 0, out)
        self.assertIn('PASS t: no kernel crash signature', out)
        self.assertIn("NOTE t: after the plan, at restart: the kernel's LoongArch stop-CPU", out)

    def test_stop_cpu_warning_at_restart_fails_where_the_descriptor_does_not_name_it(self):
        rc, out, _ = run(GOOD + self.STOP_CPU_SPLAT)
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: no kernel crash signature', out)
        rc, out, _ = run(GOOD + self.STOP_CPU_CUT)
        self.assertEqual(rc, 1)

    def test_stop_cpu_warning_during_the_plan_fails(self):
        rc, out, _ = run(GOOD.replace('[    5.510405]', self.STOP_CPU_SPLAT + '[    5.510405]'), *LOONGARCH)
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: no kernel crash signature', out)

    def test_other_warning_at_restart_fails(self):
        other = self.STOP_CPU_SPLAT.replace('stop_this_cpu+0x28/0x2c', 'my_module_exit+0x28/0x2c')
        rc, out, _ = run(GOOD + other, *LOONGARCH)
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: no kernel crash signature', out)
        self.assertNotIn('stop-CPU', out)

    # The same warning, its trace cut off by the restart (seen on 6.12's grafted kernel).
    STOP_CPU_CUT = """\
[    1.821849] WARNING: CPU: 2 PID: 0 at kernel/smp.c:661 smp_call_function_single+0xc4/0x128
[    1.822364] Modules linked in:
[    1.822632] CPU: 2 UID: 0 PID: 0 Comm: swapper/2 Tainted: G                 N 6.12.118 #2
[    1.823000] pc 9000000000295d40 ra 9000000000272cf0 tp 9000000008100000 sp 9000000008063de0
"""

    def test_stop_cpu_warning_cut_off_by_the_restart_is_a_note(self):
        rc, out, _ = run(GOOD + self.STOP_CPU_CUT, *LOONGARCH)
        self.assertEqual(rc, 0, out)
        self.assertIn("NOTE t: after the plan, at restart: the kernel's LoongArch stop-CPU", out)

    def test_cut_off_warning_of_another_site_fails(self):
        other = self.STOP_CPU_CUT.replace('kernel/smp.c:661 smp_call_function_single',
                                          'kernel/kthread.c:1 kthread_stop')
        rc, out, _ = run(GOOD + other, *LOONGARCH)
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: no kernel crash signature', out)

    def test_crash_after_a_cut_off_stop_cpu_warning_fails(self):
        later = '[    1.900000] Kernel panic - not syncing: Fatal exception\n'
        rc, out, _ = run(GOOD + self.STOP_CPU_CUT + later, *LOONGARCH)
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: no kernel crash signature', out)

    def test_second_warning_after_the_stop_cpu_one_fails(self):
        later = '[   24.000000] BUG: unable to handle page fault for address: 0000000000000008\n'
        rc, out, _ = run(GOOD + self.STOP_CPU_SPLAT + later)
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: no kernel crash signature', out)

    def test_guest_that_did_not_finish_fails(self):
        rc, out, _ = run(GOOD.split('[    5.510405]')[0])
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: guest ran its whole plan', out)
        self.assertIn('FAIL t: every planned suite reported', out)

    def test_missing_cases_fail_the_plan(self):
        rc, out, _ = run(GOOD.replace('[    1.167123]     ok 2 fetch_add_relaxed_no_lost_update\n', ''))
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: rust_atomic_kthreads: plan', out)

    def test_no_ktap_at_all_fails(self):
        rc, _, _ = run('[    0.000000] Linux version 6.12.118\n[    9.0] Kernel panic - not syncing\n')
        self.assertEqual(rc, 1)

    def test_expected_diagnostic(self):
        rc, out, _ = run(GOOD, '--expect-diag', 'fetch_add_relaxed: 99625904')
        self.assertEqual(rc, 0, out)
        rc, out, _ = run(GOOD, '--expect-diag', 'atomics: arm64 LSE')
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: reports "atomics: arm64 LSE"', out)

    def test_mutant_must_fail_its_case(self):
        with mutants_file('# sample mutant case\n'
                          'rust_atomic_kthreads broken fetch_add_relaxed_no_lost_update\n') as m:
            mutant_log = GOOD.replace('rust_atomic_kthreads', 'rust_atomic_kthreads_mutant_broken')
            rc, out, _ = run(mutant_log, '--mutants', m)
            self.assertEqual(rc, 1, 'a mutant that passes its case must fail the verdict')
            self.assertIn('fetch_add_relaxed_no_lost_update is ok', out)
            caught = mutant_log.replace('    ok 2 fetch_add', '    not ok 2 fetch_add').replace(
                '] ok 1 rust_atomic_kthreads_mutant_broken', '] not ok 1 rust_atomic_kthreads_mutant_broken')
            rc, out, _ = run(caught, '--mutants', m)
            self.assertEqual(rc, 0, out)

    def test_unobservable_weakening_needs_its_evidence(self):
        """`or-unobservable`: the case fails, or is skipped with a 'not observable' line."""
        case = '    ok 2 fetch_add_relaxed_no_lost_update'
        skipped = f'{case} # SKIP weakening not observable on this target'
        said = ('    # fetch_add_relaxed_no_lost_update: the weakening is not observable on this '
                'target: 1000 iterations, none forbidden\n')
        log = GOOD.replace('rust_atomic_kthreads', 'rust_atomic_kthreads_mutant_weak')
        with mutants_file('rust_atomic_kthreads weak fetch_add_relaxed_no_lost_update '
                          'or-unobservable\n') as m:
            rc, out, _ = run(log.replace(case, skipped), '--mutants', m)
            self.assertEqual(rc, 1, 'a skip without its evidence must fail:\n' + out)
            rc, out, _ = run(log, '--mutants', m)
            self.assertEqual(rc, 1, 'a weakening that passes silently must fail:\n' + out)
            evidence = log.replace(case, said[:-1] + '\n[    1.166901] ' + skipped)
            rc, out, _ = run(evidence, '--mutants', m)
            self.assertEqual(rc, 0, out)
            self.assertIn('NOTE', out)
            caught = log.replace(case, '    not ok 2 fetch_add_relaxed_no_lost_update')
            rc, out, _ = run(caught, '--mutants', m)
            self.assertEqual(rc, 0, out)

    def test_control_excuses_only_a_machine_that_showed_the_weak_outcome_too_rarely(self):
        """`control=TEST`: the case fails, or is skipped with its evidence and TEST's weak
        outcome too rare (below evidence.FAIR_CHANCE expected sightings in the case's
        iterations), as the Observation lines, not the module's word, say."""
        case = '    ok 2 fetch_add_relaxed_no_lost_update'
        skipped = f'{case} # SKIP weakening not observable on this machine'
        said = ('    # fetch_add_relaxed_no_lost_update: the weakening is not observable on this '
                'machine: 1000 iterations, none forbidden, and its control seed_doc_examples, '
                'interleaved with it, showed its weak outcome only 0 times in 5000 iterations')
        mine = '    # Observation fetch_add_relaxed_no_lost_update Never 0 1000'
        log = GOOD.replace('rust_atomic_kthreads', 'rust_atomic_kthreads_mutant_weak')

        def with_control(observation):
            return log.replace(case, f'{said}\n[    1.166899] {mine}\n'
                               f'[    1.166900]     # {observation}\n[    1.166901] {skipped}')
        with mutants_file('rust_atomic_kthreads weak fetch_add_relaxed_no_lost_update '
                          'control=seed_doc_examples\n') as m:
            for never_or_rare in ('Never 0 5000', 'Sometimes 49 4951'):
                rc, out, _ = run(with_control(f'Observation seed_doc_examples {never_or_rare}'),
                                 '--mutants', m)
                self.assertEqual(rc, 0, out)
                self.assertIn('SKIP t: rust_atomic_kthreads_mutant_weak: '
                              'fetch_add_relaxed_no_lost_update fails as it must', out)
                self.assertIn('NOTE', out)
            # 50 in 5000: 10 expected in the case's 1000 iterations, a fair chance it missed.
            rc, out, _ = run(with_control('Observation seed_doc_examples Sometimes 50 4950'),
                             '--mutants', m)
            self.assertEqual(rc, 1, 'a skip whose control was seen often enough must fail:\n'
                             + out)
            rc, out, _ = run(log.replace(case, f'{said}\n[    1.166900] {skipped}'),
                             '--mutants', m)
            self.assertEqual(rc, 1, 'a skip without the Observation lines must fail:\n' + out)
            rc, out, _ = run(log.replace(case, skipped), '--mutants', m)
            self.assertEqual(rc, 1, 'a skip without its evidence must fail:\n' + out)
            rc, out, _ = run(log, '--mutants', m)
            self.assertEqual(rc, 1, 'a weakening that passes must fail:\n' + out)
            caught = log.replace(case, '    not ok 2 fetch_add_relaxed_no_lost_update')
            rc, out, _ = run(caught, '--mutants', m)
            self.assertEqual(rc, 0, out)

    @unittest.skipUnless(KUNIT_DIR, 'KUNIT_DIR (the kernel\'s tools/testing/kunit) not set')
    def test_kunit_py_agrees_with_good_log(self):
        rc, out, summary = run(GOOD, '--kunit-dir', KUNIT_DIR)
        self.assertEqual(rc, 0, out)
        self.assertIn('PASS t: kunit.py parse agrees on every case', out)
        self.assertEqual(summary['skipped'], 0)

    @unittest.skipUnless(KUNIT_DIR, 'KUNIT_DIR (the kernel\'s tools/testing/kunit) not set')
    def test_kunit_py_agrees_with_interleaved_kernel_line(self):
        # A kernel message between a suite's KTAP line and its name makes kunit.py nest the
        # suite one level deeper; every case must still be found.
        one_suite = GOOD.replace('] 1..2', '] 1..1').split('[    5.510405]')[0] + \
            '[    5.520153] # boot-test: plan done\n'
        noisy = one_suite.replace(
            '[    1.165896]     KTAP version 1\n',
            '[    1.165896]     KTAP version 1\n[    1.165900] input: AT Translated Set 2 keyboard\n')
        rc, out, _ = run(noisy, '--kunit-dir', KUNIT_DIR)
        self.assertEqual(rc, 0, out)
        self.assertIn('PASS t: kunit.py parse agrees on every case', out)

    @unittest.skipUnless(KUNIT_DIR, 'KUNIT_DIR (the kernel\'s tools/testing/kunit) not set')
    def test_kunit_py_disagreement_fails(self):
        # A case line kunit.py cannot read (no number) is a case it does not see.
        broken = GOOD.replace('    ok 1 seed_doc_examples', '    ok seed_doc_examples')
        rc, out, _ = run(broken, '--kunit-dir', KUNIT_DIR)
        self.assertEqual(rc, 1, out)


if __name__ == '__main__':
    unittest.main()
