"""Unit test of the sanitizer hooks (scripts/atomic/instrument.py, which scripts/atomic/gen-atomics
emits into rust/atomic/generated*.rs): for every operation C's instrumented layer defines
(include/linux/atomic/atomic-instrumented.h of the kernel source in the cache, or
KERNEL_SRC=), the hooks ours call must be the ones C's calls, in order, and every operation the
library has must be one C instruments."""

import os
import re
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
from atomic import instrument  # noqa: E402 (after the path it is found on)

HOOK = re.compile(r'\b(kcsan_mb|kcsan_release|instrument_atomic_read_write|'
                  r'instrument_atomic_read|instrument_atomic_write|instrument_read_write)\(')


def header():
    """The path of the kernel's atomic-instrumented.h, or None."""
    src = os.environ.get('KERNEL_SRC')
    if not src:
        src = subprocess.run(['bash', '-c', '. "$1/scripts/lib.sh"; kernel_source_dir', '_',
                              ROOT], capture_output=True, text=True, check=True).stdout.strip()
    path = os.path.join(src, 'include', 'linux', 'atomic', 'atomic-instrumented.h')
    return path if src and os.path.isfile(path) else None


HEADER = header()


def c_operations(path):
    """{C name: (returns a value, [hooks in order])} of every function and scalar macro of the
    instrumented layer."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    ops = {}
    for ret, name, body in re.findall(
            r'static __always_inline (\w+)\s*\n(\w+)\([^)]*\)\n\{\n(.*?)\n\}', text, re.S):
        ops[name] = (ret != 'void', HOOK.findall(body))
    for name, body in re.findall(r'#define (\w+)\(ptr, (?:oldp, )?\.\.\.\) \\\n\(\{ \\\n(.*?)\n\}\)',
                                 text, re.S):
        ops[name] = (True, HOOK.findall(body))
    return ops


@unittest.skipUnless(HEADER, 'no kernel source in the cache (scripts/build-kernel) or KERNEL_SRC')
class InstrumentTest(unittest.TestCase):
    def test_every_atomic_operation_has_the_hooks_of_c(self):
        ops = c_operations(HEADER)
        prefixes = ('atomic_long_', 'atomic64_', 'atomic_')
        checked = 0
        for name, (returns, hooks) in ops.items():
            prefix = next((p for p in prefixes if name.startswith(p)), '')
            # The library has the scalar macros of a machine word at most, not the 64- and
            # 128-bit cmpxchg64()/cmpxchg128(), the CPU-local ones or sync_cmpxchg().
            if not prefix and re.search(r'64|128|_local|^sync_', name):
                continue
            c_op = name[len(prefix):]
            with self.subTest(name=name):
                self.assertEqual(instrument.c_hooks(c_op, returns, scalar=not prefix), hooks)
            checked += 1
        # atomic_t, atomic64_t and atomic_long_t each, and the scalar xchg()/cmpxchg() family.
        self.assertGreater(checked, 3 * 80)

    def test_the_library_has_only_operations_c_instruments(self):
        ops = c_operations(HEADER)
        with open(os.path.join(ROOT, 'rust', 'atomic', 'generated.rs'), encoding='utf-8') as f:
            generated = f.read()
        # Each C-named method says its C twin: "C: `atomic_fetch_add_release()`" or
        # "C: `xchg()` on a `bool`".
        twins = set(re.findall(r'/// C: `(\w+)\(\)`', generated))
        self.assertTrue(twins)
        # The loads and stores of the 8- and 16-bit types are C's marked accesses, which C's
        # compiler instruments (rust/atomic/instrument.rs: `marked()`).
        twins -= {'READ_ONCE', 'WRITE_ONCE', 'smp_load_acquire', 'smp_store_release'}
        self.assertEqual(sorted(t for t in twins if t not in ops), [])


if __name__ == '__main__':
    unittest.main()
