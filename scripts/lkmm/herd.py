# SPDX-License-Identifier: GPL-2.0
"""Running herd7 and reading what it prints: the final states a model allows, its verdict on
the test's condition, and its warnings.

herd7 prints, for each test (herd/README, "Output"):

    Test NAME Allowed|Required|Forbidden
    States N
    0:r0=1; 1:r0=0; [x]=1;        one line per final state
    Ok|No
    Witnesses
    Positive: P Negative: N
    Flag NAME                     zero or more
    Condition exists (...)
    Observation NAME Never|Sometimes|Always P N
    Time NAME SECONDS

and its warnings on stderr (`Warning: File "...": unrolling limit exceeded at L1, legal
outcomes may be missing.`).
"""

import os
import re
import subprocess
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OBSERVATION = re.compile(r'^Observation \S+ (Never|Sometimes|Always) (\d+) (\d+)')
STATES = re.compile(r'^States (\d+)$')


class HerdError(Exception):
    """herd7 is missing, failed, or printed what this module cannot read."""


class Timeout(HerdError):
    """herd7 did not finish within the time given."""


@dataclass
class Result:
    states: set                 # frozensets of (name, value) pairs
    verdict: str                # Never, Sometimes or Always
    positive: int
    negative: int
    flags: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def unrolled(self):
        """Whether herd7 cut a loop at its unrolling limit."""
        return any('unrolling limit' in w for w in self.warnings)


def install():
    """(herd7 binary, its model directory): HERD7 and HERD7_LIBDIR from the environment, or
    the installation scripts/setup made (scripts/lib.sh's herd_dir)."""
    binary, libdir = os.environ.get('HERD7'), os.environ.get('HERD7_LIBDIR')
    if not binary:
        out = subprocess.run(['bash', '-c', '. "$1/scripts/lib.sh"; herd_dir', '_', ROOT],
                             capture_output=True, text=True, check=False)
        d = out.stdout.strip()
        if not d:
            raise HerdError('herd7 is not built: run scripts/setup (it builds herd7 from '
                            "Debian's herdtools7 source package)")
        binary, libdir = os.path.join(d, 'bin', 'herd7'), os.path.join(d, 'share', 'herdtools7')
    return binary, libdir


def state_name(key):
    """A state's location as the C test names it: `[x]` and `x` are the same variable."""
    return key[1:-1] if key.startswith('[') and key.endswith(']') else key


def parse_value(text):
    """An integer (decimal or hex, signed), or a symbol (an address such as `x`)."""
    try:
        return int(text, 0)
    except ValueError:
        return text


def parse(text, stderr=''):
    """The Result of herd7's output for one test."""
    states, verdict, lines = set(), None, text.splitlines()
    flags, positive, negative = [], 0, 0
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        m = STATES.match(line)
        if m:
            for state in lines[i + 1:i + 1 + int(m.group(1))]:
                pairs = [p.strip() for p in state.split(';') if p.strip()]
                states.add(frozenset((state_name(k.strip()), parse_value(v.strip()))
                                     for k, _, v in (p.partition('=') for p in pairs)))
            i += 1 + int(m.group(1))
            continue
        m = OBSERVATION.match(line)
        if m:
            verdict, positive, negative = m.group(1), int(m.group(2)), int(m.group(3))
        elif line.startswith('Flag '):
            flags.append(line[5:])
        i += 1
    if verdict is None:
        raise HerdError('herd7 printed no Observation line:\n' + (stderr or text).strip())
    warnings = [w.strip() for w in stderr.splitlines() if w.startswith('Warning')]
    return Result(states, verdict, positive, negative, flags, warnings)


def run(path, options, timeout, cwd=None):
    """herd7 OPTIONS PATH; the Result, or HerdError with what herd7 said."""
    binary, libdir = install()
    cmd = [binary, '-I', libdir] + list(options) + [path]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                              check=False)
    except subprocess.TimeoutExpired as e:
        raise Timeout(f'herd7 took more than {timeout} s') from e
    except OSError as e:
        raise HerdError(f'cannot run {binary}: {e}') from e
    errors = [w for w in proc.stderr.splitlines() if 'User error' in w or 'Error' in w]
    if proc.returncode != 0 or errors:
        raise HerdError((errors[0] if errors else proc.stderr.strip() or
                         f'exit status {proc.returncode}').replace(path, os.path.basename(path)))
    result = parse(proc.stdout, proc.stderr)
    m = re.search(r'^Time \S+ ([0-9.]+)', proc.stdout, re.M)
    result.seconds = float(m.group(1)) if m else 0.0
    return result
