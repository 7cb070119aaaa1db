# SPDX-License-Identifier: GPL-2.0
"""Unit test of the architectures' descriptors (qemu/targets/<arch>, scripts/lkmm/targets.py):
every descriptor has every key the scripts read, with values that name things that exist (its
kernel config fragment, a known kernel version, a reported implementation for each CPU
model), and the lint itself rejects a descriptor that lacks one."""

import os
import re
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
from lkmm import targets  # noqa: E402 (after the path it is found on)

# What the scripts read of every descriptor (scripts/lib.sh arch_var, scripts/lkmm/targets.py).
REQUIRED = ('karch', 'srcarch', 'kernels', 'image', 'main_job', 'memory', 'cpus', 'busybox',
            'paths', 'library', 'isa')
# What scripts/boot/boot-test and scripts/setup read of a target that QEMU runs (runner=qemu,
# the default; runner=uml runs the kernel as a host process).
QEMU_REQUIRED = ('qemu', 'packages', 'machine', 'console')


def kernels():
    """scripts/lib.sh's KERNELS."""
    out = subprocess.run(['bash', '-c', '. "$1/scripts/lib.sh"; echo "$KERNELS"', '_', ROOT],
                         capture_output=True, text=True, check=True)
    return out.stdout.split()


def problems(arch):
    """What is wrong with `arch`'s descriptor: a list of messages, empty when it is right."""
    d = targets.descriptor(arch)
    out = [f'{arch}: no {k}=' for k in REQUIRED if k not in d]
    runner = d.get('runner', 'qemu')
    if runner not in ('qemu', 'uml'):
        out.append(f'{arch}: runner={runner} is neither qemu nor uml')
    if runner == 'qemu':
        out += [f'{arch}: no {k}=' for k in QEMU_REQUIRED if k not in d]
    known = kernels()
    if 'default_kernel' in d and d['default_kernel'] not in d.get('kernels', '').split():
        out.append(f'{arch}: default_kernel={d["default_kernel"]} is not one of its kernels=')
    out += [f'{arch}: kernels= names {k!r}, not one of {known}'
            for k in d.get('kernels', '').split() if k not in known]
    if not d.get('kernels', '').split():
        out.append(f'{arch}: kernels= is empty')
    if not os.path.isfile(os.path.join(ROOT, 'qemu', 'kconfig', f'{arch}.config')):
        out.append(f'{arch}: no qemu/kconfig/{arch}.config')
    for cpu in d.get('cpus', '').split():
        if not d.get(f'atomics.{cpu}'):
            out.append(f'{arch}: no atomics.{cpu}= (what the samples report on that CPU model)')
    if d.get('library') not in ('asm', 'fallback'):
        out.append(f'{arch}: library= is neither asm nor fallback')
    for key in [k for k in d if k == 'variants' or k.startswith('variants.')]:
        out += [f'{arch}: {key}= names {v}, which has no qemu/kconfig/{v}.config'
                for v in d[key].split()
                if not os.path.isfile(os.path.join(ROOT, 'qemu', 'kconfig', f'{v}.config'))]
        version = key.partition('.')[2]
        if version and version not in d.get('kernels', '').split():
            out.append(f'{arch}: {key}= is for a kernel it has no Rust on ({d.get("kernels")})')
    declared = {v for k in d if k == 'variants' or k.startswith('variants.') for v in d[k].split()}
    out += [f'{arch}: herd_variants= names {v}, which is none of its variants'
            for v in d.get('herd_variants', '').split() if v not in declared]
    if d.get('fallback_test', 'no') not in ('yes', 'no'):
        out.append(f'{arch}: fallback_test= is neither yes nor no')
    if d.get('main_job') not in ('yes', 'no'):
        out.append(f'{arch}: main_job= is neither yes nor no')
    busybox = d.get('busybox', '')
    if busybox != 'host':
        if not re.fullmatch(r'debian [a-z0-9]+ [a-z-]+', busybox):
            out.append(f'{arch}: busybox={busybox} is neither host nor "debian <arch> <suite>"')
        if not re.fullmatch(r'[0-9a-f]{4}', d.get('elf_machine', '')):
            out.append(f'{arch}: a fetched busybox needs elf_machine= (4 hex digits)')
    isa = d.get('isa', '')
    if isa and not os.path.isfile(os.path.join(ROOT, 'scripts', 'lkmm', f'{isa}.py')):
        out.append(f'{arch}: isa={isa} names no module of scripts/lkmm/')
    elif isa:
        module = targets.isa_module(arch)
        out += [f'{arch}: scripts/lkmm/{isa}.py has no {name}'
                for name in ('ordering_class', 'FRAME') if not hasattr(module, name)]
        if d.get('herd_model') and not hasattr(module, 'translate'):
            out.append(f'{arch}: herd_model= but scripts/lkmm/{isa}.py has no translate()')
    if not d.get('memory', '').isdigit():
        out.append(f'{arch}: memory= is not a number of MiB')
    return out


class Descriptors(unittest.TestCase):
    def test_every_descriptor_is_complete(self):
        archs = targets.known()
        self.assertGreaterEqual(len(archs), 2)
        for arch in archs:
            with self.subTest(arch=arch):
                self.assertEqual(problems(arch), [])

    def test_a_descriptor_without_a_key_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(ROOT, 'qemu', 'targets', 'x86_64'), encoding='utf-8') as f:
                text = f.read()
            with open(os.path.join(d, 'x86_64'), 'w', encoding='utf-8') as f:
                f.write(re.sub(r'^console=.*\n', '', text, flags=re.M))
            with mock.patch.object(targets, 'TARGETS', d):
                self.assertEqual(problems('x86_64'), ['x86_64: no console='])

    def test_a_runner_and_its_keys_are_checked(self):
        # x86_64's descriptor without machine=: a QEMU target needs it, a UML one does not.
        no_machine = "x86_64: no machine="
        cases = (('', [no_machine]),
                 ('runner=uml\n', []),
                 ('runner=bochs\n', ['x86_64: runner=bochs is neither qemu nor uml']),
                 ('default_kernel=5.10\n',
                  [no_machine, 'x86_64: default_kernel=5.10 is not one of its kernels=']))
        with open(os.path.join(ROOT, 'qemu', 'targets', 'x86_64'), encoding='utf-8') as f:
            text = re.sub(r'^machine=.*\n', '', f.read(), flags=re.M)
        for extra, expected in cases:
            with tempfile.TemporaryDirectory() as d, self.subTest(extra=extra):
                with open(os.path.join(d, 'x86_64'), 'w', encoding='utf-8') as f:
                    f.write(text + extra)
                with mock.patch.object(targets, 'TARGETS', d):
                    self.assertEqual(problems('x86_64'), expected)

    def test_an_isa_module_without_what_is_read_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(ROOT, 'qemu', 'targets', 'riscv64'), encoding='utf-8') as f:
                text = f.read()
            for isa, expected in (('nosuch', ['isa=nosuch names no module']),
                                  ('targets', ['has no ordering_class', 'has no FRAME',
                                               'herd_model= but scripts/lkmm/targets.py has no '
                                               'translate()'])):
                with open(os.path.join(d, 'riscv64'), 'w', encoding='utf-8') as f:
                    f.write(re.sub(r'^isa=.*$', f'isa={isa}', text, flags=re.M))
                with mock.patch.object(targets, 'TARGETS', d), self.subTest(isa=isa):
                    found = problems('riscv64')
                    self.assertEqual(len(found), len(expected), found)
                    for message, part in zip(found, expected):
                        self.assertIn(part, message)

    def test_an_unknown_architecture_names_the_known_ones(self):
        with self.assertRaises(targets.UnknownArch) as e:
            targets.descriptor('vax')
        for arch in targets.known():
            self.assertIn(arch, str(e.exception))

    def test_the_shell_and_python_readers_agree(self):
        for arch in targets.known():
            for key in REQUIRED:
                out = subprocess.run(['bash', '-c', '. "$1/scripts/lib.sh"; arch_var "$2" "$3"',
                                      '_', ROOT, arch, key],
                                     capture_output=True, text=True, check=True)
                self.assertEqual(out.stdout.rstrip('\n'), targets.descriptor(arch)[key],
                                 f'{arch} {key}')

    def test_the_shell_refuses_an_unknown_architecture(self):
        out = subprocess.run(['bash', '-c', '. "$1/scripts/lib.sh"; arch_var vax karch', '_',
                              ROOT], capture_output=True, text=True, check=False)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("unknown architecture 'vax'", out.stderr)



# What scripts/kernel/distro-kernel and distro-root read of a distribution's descriptor.
DISTRO_REQUIRED = ('suite', 'kernel', 'headers', 'binary', 'image_path', 'source', 'root_suite',
                   'root_packages')
DISTROS = os.path.join(ROOT, 'qemu', 'distros')


def distro_problems(path):
    """What is wrong with the distribution descriptor at `path`: a list of messages."""
    name = os.path.basename(path)
    with open(path, encoding='utf-8') as f:
        d = dict(line.rstrip('\n').split('=', 1) for line in f
                 if '=' in line and not line.startswith('#'))
    out = [f'{name}: no {k}=' for k in DISTRO_REQUIRED if k not in d]
    if d.get('kernel') and d['kernel'] not in kernels():
        out.append(f'{name}: kernel={d["kernel"]} is not one of {kernels()}')
    for key in ('headers', 'binary', 'image_path'):
        if key in d and '{V}' not in d[key]:
            out.append(f'{name}: {key}= does not name the version ({{V}})')
    flavoured = [k.split('.', 1)[1] for k in d if k.startswith('flavour.')]
    if not flavoured:
        out.append(f'{name}: no flavour.<arch>= (no architecture has a kernel here)')
    for arch in flavoured:
        if arch not in targets.known():
            out.append(f'{name}: flavour.{arch}= names no descriptor of qemu/targets/')
        for key in ('debarch', 'make'):
            if not d.get(f'{key}.{arch}'):
                out.append(f'{name}: flavour.{arch}= without {key}.{arch}=')
    return out


class DistroDescriptors(unittest.TestCase):
    def test_every_distro_descriptor_is_complete(self):
        names = sorted(os.listdir(DISTROS))
        self.assertGreaterEqual(len(names), 1)
        for name in names:
            with self.subTest(distro=name):
                self.assertEqual(distro_problems(os.path.join(DISTROS, name)), [])

    def test_a_flavour_without_its_make_variables_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(DISTROS, 'debian-7.2'), encoding='utf-8') as f:
                text = f.read()
            path = os.path.join(d, 'debian-7.2')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(re.sub(r'^make\.arm64=.*\n', '', text, flags=re.M))
            self.assertEqual(distro_problems(path),
                             ['debian-7.2: flavour.arm64= without make.arm64='])


if __name__ == '__main__':
    unittest.main()
