"""Unit tests of scripts/memory-model/litmus2rust: what it translates, how, and above all what it rejects.

    python3 -m unittest -v tests/test_litmus2rust.py
    UPDATE_GOLDEN=1 python3 -m unittest tests/test_litmus2rust.py   # rewrite the golden files

Inputs: tests/litmus/*.litmus (valid tests), tests/litmus/bad/*.litmus (each names the errors
it must give in `Expected: LINE: MESSAGE` comments), tests/litmus/golden/*.rs (the exact
translation of two kernel tests), and the kernel's tools/memory-model/litmus-tests: $LITMUS_DIR,
or else the source tree scripts/kernel/build-kernel unpacks in the cache (scripts/lib.sh's CACHE_DIR);
the cases that need them are skipped without them.

The host check (tests/litmus/host_check.rs) compiles the translations against rust/atomic.rs
and the types of tests/kernel/litmus/harness.rs with $RUSTC (default: scripts/lib.sh's
/usr/bin/rustc), then runs each test's threads one after another in every order.
"""

import glob
import importlib
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, 'scripts', 'memory-model', 'litmus2rust')
INPUTS = os.path.join(ROOT, 'tests', 'litmus')
BAD = os.path.join(INPUTS, 'bad')
GOLDEN = os.path.join(INPUTS, 'golden')
HOST_CHECK = os.path.join(INPUTS, 'host_check.rs')
HARNESS = os.path.join(ROOT, 'tests', 'kernel', 'litmus', 'test.rs')
RUNNER = os.path.join(ROOT, 'tests', 'kernel', 'litmus', 'runner.rs')
GENERATED_API = os.path.join(ROOT, 'rust', 'atomic', 'generated.rs')
UPDATE_GOLDEN = os.environ.get('UPDATE_GOLDEN') == '1'
KERNEL_TEST_COUNT = 35


def load_translator():
    """The translator's package scripts/litmus/, for its tables (without leaving a
    scripts/litmus/__pycache__ behind)."""
    dont_write, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    sys.path.insert(0, os.path.join(ROOT, 'scripts'))
    try:
        return importlib.import_module('litmus.dialect'), importlib.import_module('litmus.table')
    finally:
        sys.path.pop(0)
        sys.dont_write_bytecode = dont_write


DIALECT, TABLE = load_translator()


def kernel_litmus_dir():
    """The kernel's litmus tests: $LITMUS_DIR, or the unpacked source tree in the cache."""
    if os.environ.get('LITMUS_DIR'):
        return os.environ['LITMUS_DIR']
    out = subprocess.run(['bash', '-c', '. "$1/scripts/lib.sh"; kernel_litmus_dir', '_', ROOT],
                         capture_output=True, text=True, check=True).stdout.strip()
    return out or None


KERNEL_DIR = kernel_litmus_dir()
NO_KERNEL = (f'no kernel litmus tests in {KERNEL_DIR!r}: set LITMUS_DIR to the kernel\'s '
             'tools/memory-model/litmus-tests (or run scripts/kernel/build-kernel)')


def have_kernel_tests():
    return bool(KERNEL_DIR) and os.path.isdir(KERNEL_DIR)


def run(*args, env=None):
    """Runs the script; returns (exit status, stdout, stderr)."""
    proc = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          check=False, env=env)
    return proc.returncode, proc.stdout, proc.stderr


# The line of the first statement of the body in litmus(): the init section is on line 3.
BODY = 7


def litmus(body, params='int *x', clause='exists (x=1)', init='{}', name='T', header=''):
    """A one-thread litmus test around `body` (the clause is on line BODY + 2 + body lines)."""
    return f'C {name}\n{header}\n{init}\n\nP0({params})\n{{\n{body}\n}}\n\n{clause}\n'


class TempDirTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='litmus2rust-test-')
        self.addCleanup(shutil.rmtree, self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path

    def translate(self, text, *args):
        """Translates one test given as text; returns (exit status, stdout, stderr)."""
        return run(*args, self.write('t.litmus', text))

    def assert_translates(self, text, *expected):
        rc, out, err = self.translate(text)
        self.assertEqual(rc, 0, err)
        for snippet in expected:
            self.assertIn(snippet, out)
        return out

    def assert_rejected(self, text, line, message):
        rc, out, err = self.translate(text)
        self.assertEqual(rc, 1, out)
        self.assertEqual(out, '')
        self.assertIn(f't.litmus:{line}: {message}', err)
        return err


class BadInputTest(TempDirTest):
    # tests/litmus/bad/*.litmus: each gives exactly the errors its Expected comments name,
    # with file and line, writes nothing and exits 1.

    @staticmethod
    def expected(path):
        with open(path, encoding='utf-8') as f:
            return [f'{path}:{line}: {message}' for line, message in
                    re.findall(r'Expected: (\d+): (.*?)\s*(?:\*\))?$', f.read(), re.M)]

    def test_each_bad_file_gives_its_errors(self):
        files = sorted(glob.glob(os.path.join(BAD, '*.litmus')))
        self.assertGreaterEqual(len(files), 10)
        for path in files:
            with self.subTest(os.path.basename(path)):
                want = self.expected(path)
                self.assertTrue(want, 'no Expected: comment')
                out_path = os.path.join(self.dir, 'out.rs')
                rc, out, err = run('-o', out_path, path)
                self.assertEqual(rc, 1)
                self.assertFalse(os.path.exists(out_path), 'an output file was written')
                lines = [l for l in err.splitlines() if not l.startswith('litmus2rust:')]
                self.assertEqual(len(lines), len(want), err)
                for message, line in zip(want, lines):
                    self.assertTrue(line.startswith(message), f'{line!r} is not {message!r}')

    def test_directory_mode_leaves_out_what_it_refuses(self):
        # A directory's refused files are reported and left out; the others are translated.
        bad = sorted(glob.glob(os.path.join(BAD, '*.litmus')))
        want = [e for p in bad for e in self.expected(p)]
        rc, out, err = run(BAD, os.path.join(INPUTS, 'RMW+atomics.litmus'))
        self.assertEqual(rc, 0, err)
        self.assertIn('pub(crate) static RMW_ATOMICS', out)
        self.assertEqual(out.count('harness::Test = '), 1)
        for message in want:
            self.assertIn(message, err)
        self.assertIn(f'litmus2rust: {len(bad)} of {len(bad) + 1} tests found in directories '
                      'refused and left out', err)
        # Named on the command line, the same files are errors: nothing is written.
        rc, out, err = run(*bad, os.path.join(INPUTS, 'RMW+atomics.litmus'))
        self.assertEqual((rc, out), (1, ''))
        self.assertIn(f'litmus2rust: {len(want)} errors; no output written', err)
        # A directory of nothing but refused files: no output either.
        rc, out, err = run(BAD)
        self.assertEqual((rc, out), (1, ''))
        self.assertIn('litmus2rust: no test translated', err)

    def test_a_second_test_of_the_same_name_takes_its_files_name_or_is_left_out(self):
        text = litmus('\tWRITE_ONCE(*x, 1);', name='SAME')
        first, second = self.write('a.litmus', text), self.write('b.litmus', text)
        third = self.write('SAME.litmus', text)
        self.write('c.litmus', litmus('\tWRITE_ONCE(*x, 1);', name='OTHER'))
        rc, out, err = run(self.dir)
        self.assertEqual(rc, 0, err)
        # SAME.litmus (listed first) keeps the name; a.litmus becomes 'a', b.litmus 'b'.
        self.assertEqual(out.count('harness::Test = '), 4)
        for name in ('SAME', 'a', 'b', 'OTHER'):
            self.assertIn(f'name: "{name}",', out)
        self.assertIn(f"{second}:1: note: test name 'SAME' is also that of {third}; named 'b' "
                      'after its file', err)
        # A file whose own name is the test's: nothing to rename it to, so it is refused.
        rc, out, err = run(first, third)
        self.assertEqual((rc, out), (1, ''))
        self.assertIn(f"{third}:1: test name 'SAME' is also that of {first}", err)

    def test_summary_counts_refusals_by_reason(self):
        bad = sorted(glob.glob(os.path.join(BAD, '*.litmus')))
        rc, out, err = run('--summary', BAD, os.path.join(INPUTS, 'RMW+atomics.litmus'))
        self.assertEqual(rc, 0, err)
        self.assertIn(f'1 translated, {len(bad)} refused', out)
        self.assertIn(f"{os.path.join(INPUTS, 'RMW+atomics.litmus')}: translated", out)
        counts = re.findall(r'^ +(\d+)  ', out, re.M)
        self.assertEqual(sum(map(int, counts)), len(bad))

    def test_failure_leaves_an_existing_output_alone(self):
        out_path = self.write('out.rs', 'previous\n')
        rc, _, _ = run('-o', out_path, os.path.join(BAD, 'filter.litmus'))
        self.assertEqual(rc, 1)
        with open(out_path, encoding='utf-8') as f:
            self.assertEqual(f.read(), 'previous\n')
        self.assertEqual(os.listdir(self.dir), ['out.rs'])

    def test_unreadable_file(self):
        missing = os.path.join(self.dir, 'missing.litmus')
        rc, out, err = run(missing, os.path.join(INPUTS, 'RMW+atomics.litmus'))
        self.assertEqual((rc, out), (1, ''))
        self.assertIn(f'{missing}: cannot read: No such file or directory', err)

    def test_missing_rustfmt(self):
        out_path = os.path.join(self.dir, 'out.rs')
        rc, out, err = run('-o', out_path, os.path.join(INPUTS, 'RMW+atomics.litmus'),
                           env=dict(os.environ, PATH=self.dir))
        self.assertEqual((rc, out), (1, ''))
        self.assertIn('error: rustfmt not found', err)
        self.assertEqual(os.listdir(self.dir), [])

    def test_directory_without_tests(self):
        rc, _, err = run(self.dir)
        self.assertEqual(rc, 1)
        self.assertIn(f'{self.dir}: no .litmus files in this directory', err)

    def test_parse_errors_name_what_was_expected(self):
        self.assert_rejected(litmus('\tint r0\n\tr0 = READ_ONCE(*x);'), BODY,
                             "syntax error: expected ';' after 'int r0', found 'r0'")
        self.assert_rejected(litmus('\tWRITE_ONCE(*x, 1;'), BODY,
                             "syntax error: expected ')' after the arguments of WRITE_ONCE()")
        self.assert_rejected(litmus('\tWRITE_ONCE(*x, 1);', clause='exists (x=1 /\\ )'),
                             BODY + 3, 'syntax error: expected a name of a variable or register')
        self.assert_rejected('X86 SB\n', 1, "unsupported construct 'X86'")
        self.assert_rejected(litmus('\tWRITE_ONCE(*x, 1);', init=''), 5,
                             "syntax error: expected '{' to open the init section")
        self.assert_rejected(litmus('\tWRITE_ONCE(*x, 1); /* open'), BODY,
                             "syntax error: unterminated comment '/*'")

    def test_unsupported_constructs_are_named(self):
        cases = [
            ('\tint r0;\n\tr0 = READ_ONCE(*x) ? 1 : 2;', 1, "'?:'"),
            ('\tint r0;\n\tr0 += 1;', 1, "'+='"),
            ('\tint r0;\n\tr0++;', 1, "'++'"),
            ('\tstruct foo r0;', 0, "'struct foo r0' (a register is a number (int, intptr_t, "
             "long, ...) or a pointer to one)"),
            ('\tint r0 = lockless_dereference(*x);', 0, "'lockless_dereference' (not in "
             'linux-kernel.def, herd7 refuses it too'),
            ('\tspin_unlock_wait(x);', 0, "'spin_unlock_wait' (not in linux-kernel.def, herd7 "
             'refuses it too: removed from the kernel in 2017)'),
            ('\tfor (;;) ;', 0, "'for' (statement)"),
        ]
        for body, line, construct in cases:
            with self.subTest(body):
                self.assert_rejected(litmus(body), BODY + line,
                                     f'unsupported construct {construct}')

    def test_semantic_errors(self):
        cases = [
            ('\tint x;', 0, "register 'x' has the name of a parameter of P0"),
            ('\tx = 1;', 0, "cannot assign to shared variable 'x': use WRITE_ONCE(*x, ...)"),
            ('\tWRITE_ONCE(x, 1);', 0, 'WRITE_ONCE(): the location must be written *x'),
            ('\tsmp_store_release(*x, 1);', 0, 'smp_store_release(): the location must be a '
             'shared variable or pointer register (written x, not *x)'),
            ('\tWRITE_ONCE(*x, 1, 2);', 0, 'WRITE_ONCE() takes 2 arguments, not 3'),
            ('\tint r0;\n\tr0 = smp_mb();', 1, 'smp_mb() returns nothing'),
            # A register that holds an address (it is dereferenced) and a number: the runner
            # keeps the two apart.
            ('\tint r0;\n\tr0 = READ_ONCE(*r0);\n\tr0 = 1;', 2, "register 'r0': expected a "
             'pointer (a variable, a pointer register or 0), found an int'),
            ('\tspin_lock(x);', 0, "spin_lock(): 'x' is not a spinlock_t"),
            ('\tsrcu_read_lock(x);', 0, "srcu_read_lock(): 'x' is not a struct srcu_struct"),
            ('\tint r0;\n\tr0 = atomic_try_cmpxchg(x, 0, 1);', 1,
             'atomic_try_cmpxchg(): the old value must be written &r, with r an int register'),
            ('\tint r0;\n\tr0 = 1 << 32;', 1, 'shift by 32 (out of range for int)'),
            ('\tWRITE_ONCE(*x, 4294967296);', 0, 'integer constant 4294967296 out of range'),
        ]
        for body, line, message in cases:
            with self.subTest(body):
                self.assert_rejected(litmus(body, params='int *x, int **p'), BODY + line,
                                     message)

    def test_clause_errors(self):
        body = '\tint *r0;\n\tint r1 = 2;\n\tr0 = READ_ONCE(*p);\n\tspin_lock(l);'
        cases = [
            ('exists (1:r0=1)', '1:r0: there is no thread P1'),
            ('exists (l=1)', "a spinlock ('l') has no value to check"),
            ('exists (x=1) exists (x=2)', 'syntax error: a second final clause'),
        ]
        for clause, message in cases:
            with self.subTest(clause):
                self.assert_rejected(litmus(body, params='int *x, int **p, spinlock_t *l',
                                            clause=clause), BODY + 6, message)

    def test_numbers_and_addresses_are_never_equal(self):
        # As in herd7: an int register compared with a variable's name (its address), a
        # pointer compared with a number other than 0, a name that is no variable.
        body = '\tint *r0;\n\tint r1 = 2;\n\tr0 = READ_ONCE(*p);'
        for clause, loc in (('exists (0:r1=x)', '0:r1=x'), ('exists (0:r0=1)', '0:r0=1'),
                            ('exists (0:r0=nowhere)', '0:r0=nowhere')):
            with self.subTest(clause):
                out = self.assert_translates(litmus(body, params='int *x, int **p',
                                                    clause=clause))
                self.assertRegex(out, r'fn t_holds\(s: &\[i64\]\) -> bool \{\n    false /\* '
                                 + re.escape(loc))

    def test_init_errors(self):
        body = '\tWRITE_ONCE(*x, 1);'
        cases = [
            ('{ p=3; }', "pointer 'p' initialised to 3, not to an address"),
            ('{ x=1; x=2; }', "'x' initialised twice"),
            ('{ struct foo x; }', "unsupported construct 'struct foo x' (a variable is one of "
             'int x, intptr_t x, int *p, atomic_t a, spinlock_t l, struct srcu_struct s)'),
        ]
        for init, message in cases:
            with self.subTest(init):
                self.assert_rejected(litmus(body, params='int *x, int **p', init=init), 3,
                                     message)

    def test_a_pointer_declared_with_a_number_holds_that_number(self):
        # herd7's C is untyped: `int *z=1;` (C-RCU-remove) is a location holding 1.
        out = self.assert_translates(
            litmus('\tint r0;\n\tr0 = READ_ONCE(*z);', params='int *z', init='{ int *z=1; }',
                   clause='exists (0:r0=1)'),
            'kind: crate::harness::VarKind::Int,', 'init: crate::harness::Init::Int(1),')
        self.assertNotIn('VarKind::Ptr', out)
        # Without a type, a variable the threads use as a pointer still cannot hold a number.
        self.assert_rejected(litmus('\tint *r0;\n\tr0 = READ_ONCE(*p);', params='int **p',
                                    init='{ p=3; }'), 3,
                             "pointer 'p' initialised to 3, not to an address")

    def test_limits_match_the_runner(self):
        # The translator rejects what tests/kernel/litmus/ cannot run.
        sources = {'MAX_VARS': HARNESS, 'MAX_THREADS': RUNNER, 'MAX_REGS': RUNNER,
                   'MAX_SLOTS': RUNNER}
        for name, path in sources.items():
            if not os.path.exists(path):
                continue
            with open(path, encoding='utf-8') as f:
                match = re.search(rf'const {name}: usize = (\d+);', f.read())
            if match:
                self.assertEqual(int(match.group(1)), getattr(DIALECT, name), f'{name} in {path}')

    def test_too_many_registers_and_slots(self):
        decls = ''.join(f'\tint r{i};\n' for i in range(9))
        self.assert_rejected(litmus(decls), BODY + 8, 'too many registers in P0 (the runner '
                             'supports at most 8 per thread)')
        regs = ''.join(f'\tint r{i};\n' for i in range(8))
        atoms = ' /\\ '.join(f'{t}:r{i}=0' for t in (0, 1) for i in range(8))
        text = (f'C T\n\n{{}}\n\nP0(int *x)\n{{\n{regs}}}\n\nP1(int *x)\n{{\n{regs}}}\n\n'
                f'exists ({atoms})\n')
        self.assertEqual(self.translate(text)[0], 0)
        self.assert_rejected(text.replace('=0)', '=0 /\\ x=0)'), 29, 'too many values in the '
                             'final state (17; the runner supports at most 16)')


class TableTest(unittest.TestCase):
    # The atomic_*() operations come from scripts/atomic/atomics.tbl, as the library does.

    def test_operations_are_the_library_methods(self):
        atomic_ops, scalar_ops = TABLE.read_table()
        with open(GENERATED_API, encoding='utf-8') as f:
            api = f.read()
        impl = re.search(r'^impl AtomicI32 \{$(.*?)^\}$', api, re.M | re.S).group(1)
        methods = set(re.findall(r'pub (?:unsafe )?fn (\w+)', impl))
        methods -= {'new', 'from_ptr', 'from_c', 'as_ptr', 'get_mut', 'typed'}
        self.assertEqual({op.method for op in atomic_ops.values()}, methods)
        self.assertEqual(set(atomic_ops), {f'atomic_{m}' for m in methods})
        self.assertEqual(set(scalar_ops), {f'{f}{o}' for f in ('xchg', 'cmpxchg')
                                           for o in ('', '_acquire', '_release', '_relaxed')})

    def test_argument_orders_are_the_tables(self):
        atomic_ops, _ = TABLE.read_table()
        self.assertEqual(atomic_ops['atomic_add'].args, ['i', 'v'])
        self.assertEqual(atomic_ops['atomic_fetch_add_unless'].args, ['v', 'i', 'i'])
        self.assertEqual(atomic_ops['atomic_try_cmpxchg_release'].args, ['v', 'p', 'i'])
        self.assertEqual(atomic_ops['atomic_sub_and_test'].result, 'bool')
        self.assertEqual(atomic_ops['atomic_dec_if_positive'].result, 'int')
        self.assertEqual(atomic_ops['atomic_andnot'].result, 'void')

    def test_orderings_only_where_the_table_gives_them(self):
        atomic_ops, _ = TABLE.read_table()
        for name in ('atomic_read_relaxed', 'atomic_inc_and_test_acquire',
                     'atomic_fetch_add_unless_relaxed', 'atomic_dec_if_positive_release',
                     'atomic_andnot_return', 'atomic_add_negative_foo'):
            self.assertNotIn(name, atomic_ops)
        for name in ('atomic_add_negative_relaxed', 'atomic_fetch_andnot_release',
                     'atomic_read_acquire', 'atomic_set_release', 'atomic_xchg_acquire'):
            self.assertIn(name, atomic_ops)


class TranslationTest(TempDirTest):
    # What a construct becomes.

    def test_atomic_operations_keep_c_argument_order(self):
        body = ('\tint r0;\n\tatomic_add(2, v);\n\tr0 = atomic_cmpxchg(v, 1, 3);\n'
                '\tr0 = atomic_fetch_add_unless(v, 4, 5);\n\tr0 = atomic_try_cmpxchg(v, &r0, 6);'
                '\n\tr0 = atomic_sub_and_test(7, v);\n\tatomic_andnot(8, v);')
        self.assert_translates(litmus(body, params='atomic_t *v', clause='exists (v=1)'),
                               'v.add(2);', 'r0 = v.cmpxchg(1, 3);',
                               'r0 = v.fetch_add_unless(4, 5);',
                               'r0 = i32::from(v.try_cmpxchg(&mut r0, 6));',
                               'r0 = i32::from(v.sub_and_test(7));', 'v.andnot(8);')

    def test_accesses_barriers_locks_and_rcu(self):
        body = ('\tint r0;\n\tspin_lock(l);\n\tr0 = smp_load_acquire(x);\n\tsmp_mb();\n'
                '\tsmp_store_release(x, r0);\n\tsmp_mb__after_spinlock();\n'
                '\tr0 = spin_trylock(l) + spin_is_locked(l);\n\tspin_unlock(l);\n'
                '\trcu_read_lock();\n\trcu_read_unlock();\n\tsynchronize_rcu();')
        self.assert_translates(litmus(body, params='int *x, spinlock_t *l'),
                               'let l = m.lock(1);', 'if !l.lock(m) {\n        return;\n    }', 'r0 = x.read_acquire();',
                               'crate::atomic::smp_mb();', 'x.set_release(r0);',
                               'crate::atomic::smp_mb__after_spinlock();',
                               'r0 = i32::from(l.trylock()).wrapping_add(i32::from('
                               'l.is_locked()));',
                               'l.unlock();', 'crate::harness::rcu_read_lock();',
                               'crate::harness::synchronize_rcu();')

    def test_pointers(self):
        body = ('\tint *r0;\n\tint r1;\n\tr0 = rcu_dereference(*p);\n\tr1 = READ_ONCE(*r0);\n'
                '\tWRITE_ONCE(*r0, 2);\n\trcu_assign_pointer(*p, y);\n\tif (r0 == y) r1 = 3;\n'
                '\tif (r0 != y) r1 = 4;\n\tif (r0 != NULL) r1 = 5;')
        out = self.assert_translates(
            litmus(body, params='int **p, int *y', init='{ p=x; }', clause='exists (0:r0=x)'),
            'let p = m.ptr(0);', 'let y = m.int(2);', 'let mut r0: usize = 0;',
            # rcu_dereference() and rcu_assign_pointer() of a pointer: the library's
            # RcuPointer (rust/atomic/rcu.rs) on the cell.
            'r0 = crate::atomic::rcu_dereference(crate::harness::rcu_pointer(p)) as usize;',
            'r1 = m.deref(r0).read();', 'm.deref(r0).set(2);',
            'crate::atomic::rcu_assign_pointer(crate::harness::rcu_pointer(p), m.addr(2) as '
            '*mut u8);',
            # Two addresses compared: through ptr_eq, which the compiler cannot turn into a
            # substitution (LB-addr-equals); NULL as it is.
            'if crate::harness::ptr_eq(r0, m.addr(2)) {',
            'if !crate::harness::ptr_eq(r0, m.addr(2)) {', 'if r0 != 0 {', 'out[0] = r0 as i64;',
            's[0] == 1', 'kind: crate::harness::VarKind::Ptr',
            'init: crate::harness::Init::Addr(1)',
            'kind: crate::harness::SlotKind::Ptr')
        self.assertIn('name: "x",\n            kind: crate::harness::VarKind::Int', out)

    def test_expressions_cannot_panic(self):
        body = ('\tint r0;\n\tr0 = READ_ONCE(*x);\n\tr0 = (r0 + 1) * -r0 / (r0 - 2) % 3 << r0;')
        chain = ['r0', '.wrapping_add(1)', '.wrapping_mul(r0.wrapping_neg())',
                 '.checked_div(r0.wrapping_sub(2))', '.unwrap_or(0)', '.checked_rem(3)',
                 '.unwrap_or(0)', '.wrapping_shl(r0 as u32);']
        self.assert_translates(litmus(body), 'r0 = ' + '\n        '.join(chain))

    def test_conditions_and_logic(self):
        body = ('\tint r0;\n\tr0 = READ_ONCE(*x);\n\tif (r0 && !(r0 == 2) || r0 < 0) {\n'
                '\t\tr0 = r0 != 1;\n\t} else if (!r0)\n\t\t;\n\telse\n\t\tr0 = ~r0 & 3 | 4;')
        self.assert_translates(litmus(body), 'if r0 != 0 && !(r0 == 2) || r0 < 0 {',
                               'r0 = i32::from(r0 != 1);', '} else if r0 == 0 {\n    } else {',
                               'r0 = (!r0 & 3) | 4;')

    def test_plain_accesses_are_marked_with_a_note(self):
        out = self.assert_translates(litmus('\tint r0;\n\t*x = 1;\n\tr0 = *x;'),
                                     '// C: *x = 1;\n', 'x.set(1);', 'r0 = x.read();',
                                     '// C: r0 = *x; (plain, made marked: see above)')
        self.assertIn('would be UB', out)

    def test_quantifiers_results_and_clause(self):
        out = self.assert_translates(
            litmus('\tWRITE_ONCE(*x, -1);', header='(* Result: Never DATARACE *)',
                   clause='~exists (x=-1 \\/ ~(x=2) /\\ true) (* comment *)'),
            '// t.litmus: Result: Never DATARACE', 'expect: Some(crate::harness::Expect::Never)',
            'quantifier: crate::harness::Quantifier::NotExists',
            'clause: "~exists (x=-1 \\\\/ ~(x=2) /\\\\ true)"',
            's[0] == -1 || !(s[0] == 2) && true')
        self.assertIn('x.set(-1);', out)
        self.assert_translates(litmus('\tWRITE_ONCE(*x, 1);', clause='forall (x=1)'),
                               'expect: None', 'quantifier: crate::harness::Quantifier::Forall')

    def test_herds_not_and_the_text_it_skips_before_the_init_section(self):
        # `not` is herd's `~` (C-PaulEMcKenney-SB+adat-o+adat-o); a variable may still be
        # named `not`.
        self.assert_translates(
            litmus('\tWRITE_ONCE(*x, 1);', clause='exists not(x=0 /\\ not (x=2))'),
            'clause: "exists not(x=0 /\\\\ not (x=2))"', '!(s[0] == 0 && !(s[0] == 2))')
        self.assert_translates(
            litmus('\tWRITE_ONCE(*not, 1);', params='int *not', clause='exists (not=1)'),
            's[0] == 1')
        # A second `C <name>` line (C-JanStancek-rwsem) and other text: skipped, as herd7's
        # splitter does; the output is that of the test without them.
        plain = self.assert_translates(litmus('\tWRITE_ONCE(*x, 1);'))
        self.assertEqual(self.assert_translates(
            litmus('\tWRITE_ONCE(*x, 1);', header='C rwsem, some words')), plain)

    def test_slots_clause_first_then_locations(self):
        body = '\tint r0;\n\tint r1;\n\tr0 = READ_ONCE(*y);\n\tr1 = READ_ONCE(*x);'
        out = self.assert_translates(
            litmus(body, params='int *x, int *y', clause='locations [x; 0:r0; y]\n'
                   'exists (0:r1=0 /\\ y=1)'), 's[0] == 0 && s[1] == 1')
        self.assertEqual(re.findall(r'Slot \{\s+name: "([^"]+)"', out), ['0:r1', 'y', 'x', '0:r0'])

    def test_register_declarations_anywhere(self):
        body = ('\tint a = READ_ONCE(*x), *b;\n\tif (a) {\n\t\tint c = a + 1;\n'
                '\t\tWRITE_ONCE(*x, c);\n\t}')
        self.assert_translates(litmus(body, clause='exists (0:a=1 /\\ 0:c=2)'),
                               'let mut a: i32 = 0;\n    let mut b: usize = 0;\n'
                               '    let mut c: i32 = 0;\n    a = x.read();',
                               'c = a.wrapping_add(1);', 'out[2] = i64::from(c);')

    def test_rust_keywords_and_reserved_names(self):
        body = '\tint m;\n\tint type;\n\tm = READ_ONCE(*out);\n\ttype = m;'
        self.assert_translates(litmus(body, params='int *out', clause='exists (0:type=1)'),
                               'let out_ = m.int(0);', 'let mut m_: i32 = 0;',
                               'm_ = out_.read();', 'type_ = m_;')

    def test_test_names_become_unique_identifiers(self):
        text = litmus('\tWRITE_ONCE(*x, 1);', name='Z6.0+poonceLock-x')
        out = self.assert_translates(text, 'static Z6_0_POONCELOCK_X: crate::harness::Test',
                                     'fn z6_0_pooncelock_x_p0(')
        self.assertIn('name: "Z6.0+poonceLock-x"', out)
        a = self.write('a.litmus', text)
        b = self.write('b.litmus', litmus('\tWRITE_ONCE(*x, 1);', name='Z6.0+pooncelock-x'))
        rc, out, err = run(a, b)
        self.assertEqual(rc, 0, err)
        self.assertIn('pub(crate) static Z6_0_POONCE_LOCK_X:', out)
        self.assertIn('pub(crate) static Z6_0_POONCELOCK_X:', out)
        self.assertIn('static TESTS: &[&crate::harness::Test] = &[&Z6_0_POONCE_LOCK_X, '
                      '&Z6_0_POONCELOCK_X];', out)
        c = self.write('c.litmus', litmus('\tWRITE_ONCE(*x, 1);', name='9a'))
        d = self.write('d.litmus', litmus('\tWRITE_ONCE(*x, 1);', name='9a'))
        rc, out, err = run(c, d)
        self.assertEqual(rc, 0, err)
        self.assertIn(f"{d}:1: note: test name '9a' is also that of {c}; named 'd'", err)
        self.assertIn('pub(crate) static D: crate::harness::Test', out)
        rc, out, err = run(c)
        self.assertIn('pub(crate) static T_9A: crate::harness::Test', out)
        self.assertIn('fn t_9a_p0(', out)

    def test_output_file_and_list(self):
        out_path = os.path.join(self.dir, 'out.rs')
        rc, out, err = run('-o', out_path, INPUTS)
        self.assertEqual((rc, out, err), (0, '', ''))
        with open(out_path, encoding='utf-8') as f:
            text = f.read()
        self.assertTrue(text.startswith('// SPDX-License-Identifier: GPL-2.0\n\n// Generated by '
                                        'scripts/memory-model/litmus2rust from 2+2W+poonceonces.litmus,'))
        self.assertIn('Do not edit.', text)
        self.assertEqual(run('-o', '-', INPUTS)[1], text)
        self.assertEqual(os.listdir(self.dir), ['out.rs'])
        rc, out, _ = run('--list', INPUTS)
        self.assertEqual(rc, 0)
        self.assertIn('RMW+atomics\tAlways\t2\n', out)
        self.assertIn('MP+plain+datarace\tSometimes\t2\n', out)
        self.assertEqual(len(out.splitlines()),
                         len(glob.glob(os.path.join(INPUTS, '*.litmus'))))

    def test_output_is_rustfmt_clean(self):
        rc, out, err = run(INPUTS)
        self.assertEqual(rc, 0, err)
        proc = subprocess.run(['rustfmt', '--edition', '2021', '--config', 'newline_style=Unix',
                               '--check'], input=out, capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual([l for l in out.splitlines() if len(l) > 100], [])


class KernelTestsTest(TempDirTest):
    # The kernel's own litmus tests.

    @unittest.skipUnless(have_kernel_tests(), NO_KERNEL)
    def test_all_kernel_tests_translate(self):
        out_path = os.path.join(self.dir, 'all.rs')
        rc, out, err = run('-o', out_path, KERNEL_DIR)
        self.assertEqual(rc, 0, err)
        with open(out_path, encoding='utf-8') as f:
            text = f.read()
        self.assertEqual(text.count(': crate::harness::Test = crate::harness::Test {')
                         + text.count(': crate::harness::Test =\n'), KERNEL_TEST_COUNT)
        rc, out, _ = run('--list', KERNEL_DIR)
        self.assertEqual(len(out.splitlines()), KERNEL_TEST_COUNT)
        self.assertIn('dep+plain\tNever\t2\n', out)

    @unittest.skipUnless(have_kernel_tests(), NO_KERNEL)
    def test_golden_sb_fencembonceonces(self):
        self.check_golden('SB+fencembonceonces')

    @unittest.skipUnless(have_kernel_tests(), NO_KERNEL)
    def test_golden_mp_onceassign_derefonce(self):
        self.check_golden('MP+onceassign+derefonce')

    def check_golden(self, name):
        check_golden(self, os.path.join(KERNEL_DIR, f'{name}.litmus'), name)


def check_golden(test, path, name):
    """The translation of `path` must be tests/litmus/golden/NAME.rs (UPDATE_GOLDEN=1: is
    written there)."""
    rc, out, err = run(path)
    test.assertEqual(rc, 0, err)
    golden = os.path.join(GOLDEN, f'{name}.rs')
    if UPDATE_GOLDEN:
        with open(golden, 'w', encoding='utf-8') as f:
            f.write(out)
    with open(golden, encoding='utf-8') as f:
        test.assertEqual(out, f.read(), f'{golden} differs: if the change is meant, rerun '
                         'with UPDATE_GOLDEN=1 and review the diff')


# The tests of tests/litmus/ whose constructs change the generated Rust: each has its golden
# output, tests/litmus/golden/NAME.rs (`UPDATE_GOLDEN=1` rewrites them).
CONSTRUCT_GOLDENS = ('CAST+intptr', 'FILTER+sb', 'FINAL+regs', 'INIT+registers',
                     'LOCK+held+deadlock', 'LOCK+mbafterunlocklock', 'NAMES+Upper-+Case',
                     'REG+undeclared', 'SRCU+sync+reads', 'VARS+ten')


class ConstructGoldenTest(unittest.TestCase):
    # Each construct of the dialect that the kernel's tests do not use, as it translates.

    def test_each_construct_translates_to_its_golden_output(self):
        for name in CONSTRUCT_GOLDENS:
            with self.subTest(name):
                check_golden(self, os.path.join(INPUTS, f'{name}.litmus'), name)

    def test_constructs_that_only_change_the_header(self):
        # Header lines and volatile parameters: the same Rust as without them.
        with open(os.path.join(INPUTS, 'HDR+volatile+headers.litmus'), encoding='utf-8') as f:
            text = f.read()
        plain = re.sub(r'^(Cycle|Prefetch|Com|Orig)=.*\n', '', text, flags=re.M)
        plain = plain.replace('volatile int', 'int')
        self.assertNotEqual(plain, text)
        with tempfile.TemporaryDirectory() as d:
            outs = []
            for n, body in enumerate((text, plain)):
                path = os.path.join(d, f'{n}.litmus')
                with open(path, 'w', encoding='utf-8') as f:
                    f.write(body)
                rc, out, err = run(path)
                self.assertEqual(rc, 0, err)
                outs.append(out.replace(f'{n}.litmus', 'T.litmus'))
            self.assertEqual(outs[0], outs[1])

    def test_unknown_result_word_means_no_expectation(self):
        rc, out, err = run(os.path.join(INPUTS, 'RESULT+maybe.litmus'))
        self.assertEqual(rc, 0, err)
        self.assertIn('expect: None,', out)
        self.assertIn('// RESULT+maybe.litmus: Result: Maybe', out)


def host_contract(text):
    """tests/kernel/litmus/test.rs, the types the translations are written in, as host_check.rs
    includes it: into the module that defines the host `Instance`, so without its inner docs
    and its import of the including module's `Instance`."""
    return '\n'.join(line for line in text.splitlines()
                     if not line.startswith('//!') and line != 'use super::Instance;') + '\n'


def all_operations_test():
    """A litmus test calling every operation the translator knows, once each."""
    atomic_ops, scalar_ops = TABLE.read_table()
    body = ['\tint r0 = 1;', '\tint *r1;', '']
    for name, op in sorted(atomic_ops.items()):
        args = ', '.join({'v': 'v', 'i': '1', 'p': '&r0'}[a] for a in op.args)
        body.append(f'\t{"" if op.result == "void" else "r0 = "}{name}({args});')
    for name, op in sorted(scalar_ops.items()):
        body.append(f'\tr0 = {name}({", ".join({"v": "x", "i": "1"}[a] for a in op.args)});')
        body.append(f'\tr1 = {name}({", ".join({"v": "p", "i": "y"}[a] for a in op.args)});')
    for name in sorted(DIALECT.BARRIERS + DIALECT.RCU):
        body.append(f'\t{name}();')
    body += ['\tspin_lock(l);', '\tr0 = spin_trylock(l) + spin_is_locked(l);',
             '\tspin_unlock(l);', '\tr1 = rcu_dereference(*p);', '\tr0 = READ_ONCE(*r1);',
             '\tWRITE_ONCE(*r1, r0);', '\tr0 = smp_load_acquire(x);',
             '\tsmp_store_release(x, r0);', '\trcu_assign_pointer(*p, y);']
    return litmus('\n'.join(body), params='atomic_t *v, int *x, int **p, int *y, spinlock_t *l',
                  init='{ p=y; }', name='ALL+operations', clause='exists (0:r0=1)')


@unittest.skipUnless(platform.machine() == 'x86_64', 'the host check runs on x86-64 only')
class HostCheckTest(unittest.TestCase):
    # The translations compiled against the library and run sequentially on the host.

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix='litmus2rust-host-')
        rustc = os.environ.get('RUSTC') or ('/usr/bin/rustc' if os.path.exists('/usr/bin/rustc')
                                            else shutil.which('rustc'))
        if not rustc:
            raise unittest.SkipTest('no rustc (set RUSTC)')
        all_ops = os.path.join(cls.dir, 'ALL+operations.litmus')
        with open(all_ops, 'w', encoding='utf-8') as f:
            f.write(all_operations_test())
        # The negative case of the filter: FILTER+sb without its filter must break its own
        # `Result: Always` (the executions the filter leaves out are counted then).
        with open(os.path.join(INPUTS, 'FILTER+sb.litmus'), encoding='utf-8') as f:
            unfiltered = re.sub(r'^filter .*\n', '', f.read(), flags=re.M)
        no_filter = os.path.join(cls.dir, 'FILTER+sb+nofilter.litmus')
        with open(no_filter, 'w', encoding='utf-8') as f:
            f.write(unfiltered.replace('C FILTER+sb\n', 'C FILTER+sb+nofilter\n'))
        inputs = [INPUTS, all_ops, no_filter] + ([KERNEL_DIR] if have_kernel_tests() else [])
        translated = os.path.join(cls.dir, 'translated.rs')
        rc, _, err = run('-o', translated, *inputs)
        if rc != 0:
            raise AssertionError(f'translation failed:\n{err}')
        contract = os.path.join(cls.dir, 'contract.rs')
        with open(HARNESS, encoding='utf-8') as f, open(contract, 'w', encoding='utf-8') as out:
            out.write(host_contract(f.read()))
        binary = os.path.join(cls.dir, 'host_check')
        env = dict(os.environ, LITMUS_CONTRACT=contract, LITMUS_RS=translated)
        proc = subprocess.run([rustc, '--edition', '2021', '--cfg', 'CONFIG_X86', '--cfg',
                               'CONFIG_X86_64', '--cfg', 'CONFIG_64BIT', '--cfg', 'CONFIG_SMP',
                               HOST_CHECK, '-o', binary], env=env,
                              capture_output=True, text=True, check=False)
        cls.build = proc
        cls.results = {}
        if proc.returncode == 0:
            run_proc = subprocess.run([binary], capture_output=True, text=True, check=False)
            cls.run_status = run_proc
            for line in run_proc.stdout.splitlines():
                name, expect, held, runs = line.split('\t')
                cls.results[name] = (expect, int(held), int(runs))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_translations_compile_without_warnings(self):
        # host_check.rs denies warnings in the translated code.
        self.assertEqual(self.build.returncode, 0, self.build.stderr[-4000:])

    def test_sequential_runs_agree_with_result(self):
        self.assertEqual(self.build.returncode, 0, 'does not compile')
        self.assertEqual(self.run_status.returncode, 0, self.run_status.stderr[-2000:])
        expected = len(glob.glob(os.path.join(INPUTS, '*.litmus'))) + 2 + \
            (KERNEL_TEST_COUNT if have_kernel_tests() else 0)
        self.assertEqual(len(self.results), expected)
        for name, (expect, held, runs) in self.results.items():
            if name == 'FILTER+sb+nofilter':
                continue    # the negative case (test_sequential_runs_see_what_they_must)
            with self.subTest(name):
                if expect == 'Never':
                    self.assertEqual(held, 0, f'{name}: held in {held} of {runs} runs')
                elif expect == 'Always':
                    self.assertEqual(held, runs, f'{name}: held in {held} of {runs} runs')
                elif expect == 'Deadlock':
                    self.assertEqual(runs, 0, f'{name}: {runs} runs completed')

    def test_sequential_runs_see_what_they_must(self):
        # Sanity of the check itself: outcomes that sequential runs do produce.
        self.assertEqual(self.results.get('2+2W+poonceonces'), ('Sometimes', 0, 2))
        self.assertEqual(self.results.get('ALL+operations', ('',))[0], '-')
        if have_kernel_tests():
            self.assertEqual(self.results['SB+poonceonces'], ('Sometimes', 0, 2))
            self.assertEqual(self.results['IRIW+poonceonces+OnceOnce'], ('Sometimes', 0, 24))
        # Filters and locks: the runs that do not count are left out.
        self.assertEqual(self.results['FILTER+sb'], ('Always', 1, 1))
        self.assertEqual(self.results['FILTER+sb+nofilter'], ('Always', 1, 2))
        self.assertEqual(self.results['LOCK+held+deadlock'], ('Deadlock', 0, 0))


if __name__ == '__main__':
    unittest.main()
