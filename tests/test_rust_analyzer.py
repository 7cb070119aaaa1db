"""Unit test of scripts/host/rust-analyzer: the rust-project.json it writes for a built kernel
(KDIR=) is valid for rust-analyzer and names the kernel crate and every crate of this tree that
Kbuild builds, each depending on the kernel crate."""

import json
import os
import re
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, 'scripts', 'host', 'rust-analyzer')
KDIR = os.environ.get('KDIR')


def kbuild_crates():
    """The Rust crate roots the Kbuild files of this tree name as objects (`x.o` with `x.rs`),
    but the generated mutation-test roots."""
    roots = set()
    for kbuild in ('samples/Kbuild', 'tests/kernel/Kbuild', 'bench/kernel/Kbuild', 'tests/codegen/Kbuild'):
        text = open(os.path.join(ROOT, kbuild), encoding='utf-8').read()
        for name in re.findall(r'\b([a-z0-9_]+)\.o\b', text):
            path = os.path.join(ROOT, os.path.dirname(kbuild), name + '.rs')
            if os.path.isfile(path) and '_mutant' not in name:
                roots.add(path)
    return roots


@unittest.skipUnless(KDIR, 'KDIR (a built Rust-enabled kernel tree) not set')
class RustProjectTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        cls.path = os.path.join(cls.dir, 'rust-project.json')
        cls.proc = subprocess.run([SCRIPT, '--kdir', KDIR, '-o', cls.path],
                                  capture_output=True, text=True, check=False)

    def project(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        with open(self.path, encoding='utf-8') as f:
            return json.load(f)

    def test_project_is_valid_for_rust_analyzer(self):
        project = self.project()
        self.assertTrue(os.path.isdir(project['sysroot']), project['sysroot'])
        for k, crate in enumerate(project['crates']):
            self.assertTrue(os.path.isfile(crate['root_module']), crate['root_module'])
            self.assertIn(crate['edition'], ('2015', '2018', '2021', '2024'))
            for dep in crate['deps']:
                # rust-analyzer needs dependencies listed before their users.
                self.assertLess(dep['crate'], k, f'{crate["display_name"]} -> {dep}')
                self.assertEqual(project['crates'][dep['crate']]['display_name'], dep['name'])

    def test_every_crate_of_this_tree_is_named_with_the_kernel_crate(self):
        crates = {c['display_name']: c for c in self.project()['crates']}
        self.assertIn('kernel', crates)
        self.assertIn('core', crates)
        kernel = list(crates).index('kernel')
        ours = {c['root_module']: c for c in crates.values()
                if c['root_module'].startswith(ROOT + os.sep)}
        expected = kbuild_crates()
        self.assertTrue(expected, 'no crate roots found in the Kbuild files')
        self.assertLessEqual(expected, set(ours))
        scratch = os.path.join(ROOT, 'results') + os.sep
        self.assertEqual([r for r in ours if r.startswith(scratch)], [])
        for root, crate in ours.items():
            self.assertIn(kernel, [d['crate'] for d in crate['deps']], root)
            self.assertIn('CONFIG_RUST', crate['cfg'], root)

    def test_a_tree_that_is_no_kernel_is_refused(self):
        proc = subprocess.run([SCRIPT, '--kdir', self.dir, '-o', os.path.join(self.dir, 'x')],
                              capture_output=True, text=True, check=False)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('is not a configured kernel tree', proc.stderr)


if __name__ == '__main__':
    unittest.main()
