# SPDX-License-Identifier: GPL-2.0
"""The weakening mutants of tests/ordering-mutants: reading the table, and writing a copy of
the library (`rust/`) with one mutant's patch applied, for a build that must fail the checks
that read machine code (scripts/machine-code/codegen-parity, scripts/memory-model/herd-check)."""

import configparser
import os
import shutil
from dataclasses import dataclass

from . import targets

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, 'tests', 'ordering-mutants')


class MutantError(Exception):
    """A mutant that is not well defined, or whose patch no longer applies."""


@dataclass
class Mutant:
    name: str
    description: str
    arches: tuple
    cfg: str = None         # a rust/atomic/mutant.rs mutant
    file: str = None        # a patch: in `file`, `replace` becomes `with`
    replace: str = None
    with_text: str = None
    herd: tuple = ()        # (path, litmus test name) pairs that herd7 must fail
    # Where no litmus test can catch it (no_herd_why): an architecture, or `arch:CONFIG_X`, that
    # architecture's kernels with that option (arm64:CONFIG_LTO: there every relaxed load is
    # already an acquire, C's READ_ONCE() under LTO).
    no_herd: tuple = ()
    twin: tuple = ()        # (path, litmus test name) pairs where ours must be weaker than C
    kconfig: tuple = ()     # options a kernel must have for the mutant to apply (CONFIG_LTO)
    # False for a mutant of the litmus harness (tests/kernel/litmus/test.rs), not of the
    # library: the library's code is C's as before, so ordering parity has nothing to find;
    # the herd7 check alone must catch it.
    parity: bool = True

    def applies_to(self, kdir):
        """Whether the mutant changes what is compiled against the kernel at `kdir` (every
        option of `kconfig` set in its .config); without a kernel, whether it has no such
        condition."""
        return all(kernel_has(kdir, option) for option in self.kconfig)


    def herd_tests(self, arch, kdir=None):
        """The (path, test) pairs the herd7 check must fail on `arch` (on the kernel at `kdir`,
        if given): against the LKMM (`herd`), or against C's compiled twin (`twin`)."""
        if arch in self.no_herd or any(
                a == arch and kernel_has(kdir, o)
                for a, _, o in (e.partition(':') for e in self.no_herd if ':' in e)):
            return []
        return [(p, t) for p, t in self.herd + self.twin if p in targets.herd_paths(arch)]

    def against_twin(self, path, test):
        """Whether the check of `test` on `path` must find ours weaker than C's twin (not
        a state the LKMM forbids)."""
        return (path, test) in self.twin



def kernel_has(kdir, option):
    """Whether the built kernel at `kdir` has `option` set (=y); False without one."""
    if not kdir:
        return False
    try:
        with open(os.path.join(kdir, '.config'), encoding='utf-8') as f:
            return f'{option}=y' in f.read().split()
    except OSError:
        return False


def load(table=TABLE):
    """Every mutant of the table, in its order."""
    parser = configparser.ConfigParser(interpolation=None, delimiters=('=',),
                                       comment_prefixes=('#',), empty_lines_in_values=False)
    parser.optionxform = str
    try:
        with open(table, encoding='utf-8') as f:
            parser.read_file(f)
    except (OSError, configparser.Error) as e:
        raise MutantError(f'{table}: {e}') from e
    out = []
    for name in parser.sections():
        s = parser[name]
        where = f'{table}: [{name}]'
        arches = tuple(s.get('arch', '').split())
        known = targets.known()
        if not arches or any(a not in known for a in arches):
            raise MutantError(f'{where}: arch must name architectures of qemu/targets/ '
                              f'({" ".join(known)})')
        herd, twin = [], []
        for key, found in (('herd', herd), ('twin', twin)):
            for line in s.get(key, '').splitlines():
                words = line.split()
                if len(words) != 2 or not any(words[0] in targets.paths(a) for a in arches):
                    raise MutantError(f'{where}: {key} line {line!r} is not "<path> <test>" '
                                      f'with a path of {", ".join(arches)}')
                found.append(tuple(words))
        no_herd = tuple(s.get('no_herd', '').split())
        if any(a.partition(':')[0] not in arches or (':' in a and not a.partition(':')[2]
                                                     .startswith('CONFIG_')) for a in no_herd) \
                or bool(no_herd) != bool(s.get('no_herd_why')):
            raise MutantError(f'{where}: no_herd must name architectures of its arch (or '
                              'arch:CONFIG_X), and no_herd_why why no litmus test can catch '
                              'it there')
        m = Mutant(name, s.get('class', ''), arches, cfg=s.get('cfg'), file=s.get('file'),
                   replace=s.get('replace'), with_text=s.get('with'), herd=tuple(herd),
                   no_herd=no_herd, twin=tuple(twin), kconfig=tuple(s.get('kconfig', '').split()),
                   parity=s.get('parity', 'yes') != 'no')
        if s.get('parity', 'yes') not in ('yes', 'no') or (not m.parity and not (herd or twin)):
            raise MutantError(f'{where}: parity is yes or no, and a mutant without parity '
                              '(one of the litmus harness) needs herd or twin lines')
        if any(not o.startswith('CONFIG_') for o in m.kconfig):
            raise MutantError(f'{where}: kconfig must name kernel options (CONFIG_...)')
        if bool(m.cfg) == bool(m.file) or (m.file and (m.replace is None or m.with_text is None)):
            raise MutantError(f'{where}: give either cfg, or file, replace and with')
        # Where herd7 models an architecture of the mutant, a litmus test must catch it too,
        # unless the mutant removes an ordering that the model's architecture gives anyway
        # (no_herd: UML's fences around acquire and release on x86-TSO, which C has and the
        # LKMM does not need there); elsewhere (loongarch64) and there, ordering parity with C
        # is the proof, and catches it alone.
        for a in arches:
            if targets.herd_model(a) and a not in no_herd and not m.herd_tests(a):
                raise MutantError(f'{where}: no herd line for {a}: which litmus test must '
                                  'catch it?')
        out.append(m)
    return out


def for_arch(arch, table=TABLE, kdir=None, parity=False):
    """The mutants of `arch` that apply to the kernel at `kdir` (applies_to()); with `parity`,
    only those ordering parity must catch (not the litmus harness's)."""
    return [m for m in load(table) if arch in m.arches and m.applies_to(kdir)
            and (m.parity or not parity)]


def write_copy(mutant, dest):
    """Writes `rust/` to `dest/rust` with the mutant's patch applied (a cfg mutant: as is), so
    that `dest/rust/atomic.rs` is the mutated library's root."""
    src = os.path.join(ROOT, 'rust')
    target = os.path.join(dest, 'rust')
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(src, target)
    if mutant.cfg:
        return
    path = os.path.join(target, os.path.relpath(os.path.join(ROOT, mutant.file), src))
    with open(path, encoding='utf-8') as f:
        text = f.read()
    found = text.count(mutant.replace)
    if found != 1:
        raise MutantError(f'mutant {mutant.name}: the text to replace occurs {found} times in '
                          f'{mutant.file}, not once; update tests/ordering-mutants:\n'
                          f'  {mutant.replace}')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text.replace(mutant.replace, mutant.with_text))
