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

import functools
import hashlib
import json
import os
import re
import subprocess
import threading
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The models of ours that a descriptor may name (herd_model=), beside herd7's own: each
# includes one of herd7's and adds what its front end misses (scripts/lkmm/models/*.cat).
MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'models')
OBSERVATION = re.compile(r'^Observation \S+ (Never|Sometimes|Always) (\d+) (\d+)')
STATES = re.compile(r'^States (\d+)$')


class HerdError(Exception):
    """herd7 is missing, failed, or printed what this module cannot read."""


class Timeout(HerdError):
    """herd7 did not finish within the time given."""


class Exhausted(HerdError):
    """herd7 gave up enumerating a test's executions: its OCaml stack overflowed ("Fatal
    error: exception Stack overflow", then "Adios"), as on a test with many threads and loops."""


@dataclass
class Result:
    states: set                 # frozensets of (name, value) pairs
    verdict: str                # Never, Sometimes or Always
    positive: int
    negative: int
    flags: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    seconds: float = 0.0
    reused: bool = False        # herd7's output for the same inputs, from the cache (run())

    @property
    def unrolled(self):
        """Whether herd7 cut a loop at its unrolling limit."""
        return any('unrolling limit' in w for w in self.warnings)


def lib_sh(function):
    """The output of a function of scripts/lib.sh ('' if it prints nothing or fails)."""
    return subprocess.run(['bash', '-c', '. "$1/scripts/lib.sh"; "$2"', '_', ROOT, function],
                          capture_output=True, text=True, check=False).stdout.strip()


def memory_model_dir():
    """The unpacked kernel's tools/memory-model (where linux-kernel.cfg is), or None."""
    litmus = lib_sh('kernel_litmus_dir')
    return os.path.dirname(litmus) if litmus else None


def install():
    """(herd7 binary, its model directory): HERD7 and HERD7_LIBDIR from the environment, or
    the installation scripts/setup made (scripts/lib.sh's herd_dir)."""
    binary, libdir = os.environ.get('HERD7'), os.environ.get('HERD7_LIBDIR')
    if not binary:
        d = lib_sh('herd_dir')
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


# herd7's output for the same inputs: a file per run, keyed by everything herd7 reads (below),
# in the cache directory that scripts/lib.sh names (CACHE_DIR), so that a second check of
# unchanged machine code does not enumerate the same executions again. herd7 is deterministic:
# the same binary, models, options and test give the same output. HERD7_NO_CACHE=1 runs every
# test afresh.
CACHE = os.path.join(os.environ.get('RUST_LKMM_CACHE') or os.path.join(
    os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'rust-lkmm-atomics'),
    'herd7-runs')


# The share of its time budget that a timed-out herd7 run must have spent on the CPU to be
# kept: less means a loaded machine made it slow, and it runs again next time.
TIMEOUT_CPU_SHARE = 0.9


@functools.lru_cache(maxsize=None)
def _tree_digest(root, recursive):
    """A digest of the names and contents of the files under `root` (or in it only)."""
    h = hashlib.sha256()
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            p = os.path.join(d, name)
            if os.path.isfile(p):
                h.update(os.path.relpath(p, root).encode() + b'\0')
                with open(p, 'rb') as f:
                    h.update(hashlib.sha256(f.read()).digest())
        if not recursive:
            break
    return h.hexdigest()


def _file_digest(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


@functools.lru_cache(maxsize=None)
def _binary_digest(path, _mtime_ns, _size):
    """herd7's binary's digest, computed once per process (and per version of the file)."""
    return _file_digest(path)


def cache_key(binary, libdir, options, path, cwd):
    """What herd7's output depends on: its binary, its model library and ours (MODELS), the
    options, the test, and the files of the directory it runs in (the LKMM's linux-kernel.cfg
    and the models it names)."""
    h = hashlib.sha256()
    st = os.stat(binary)
    parts = [_binary_digest(binary, st.st_mtime_ns, st.st_size), _tree_digest(libdir, True),
             json.dumps(list(options)), _file_digest(path),
             _tree_digest(cwd, False) if cwd else '']
    # Ours only where an option names one of them (herd7's own models do not read them).
    if any(o in os.listdir(MODELS) for o in options):
        parts.append(_tree_digest(MODELS, True))
    for part in parts:
        h.update(part.encode() + b'\0')
    return h.hexdigest()


def _store(path, out):
    """Writes `out` as JSON to `path`, whole or not at all."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f'{path}.{os.getpid()}.{threading.get_ident()}.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        json.dump(out, f)
    os.replace(tmp, path)


def run(path, options, timeout, cwd=None):
    """herd7 OPTIONS PATH; the Result, or HerdError with what herd7 said. The output of a run
    with the same inputs is reused (CACHE); so is a timeout, if herd7 had used the whole time
    budget on the CPU (not one that a loaded machine caused), for a budget no larger. A failed
    run is never stored."""
    binary, libdir = install()
    cmd = [binary, '-I', libdir, '-I', MODELS] + list(options) + [path]
    use_cache = os.environ.get('HERD7_NO_CACHE') != '1'
    key = cache_key(binary, libdir, options, path, cwd) if use_cache else None
    stored = os.path.join(CACHE, key[:2], key + '.json') if key else None
    out = None
    if stored and os.path.isfile(stored):
        with open(stored, encoding='utf-8') as f:
            out = json.load(f)
        if 'timeout' in out:
            if timeout <= out['timeout']:
                raise Timeout(f'herd7 took more than {timeout} s (on the CPU, when it ran these '
                              'inputs)')
            out = None
    if out is not None:
        result = parse(out['stdout'], out['stderr'])
        result.reused = True
    else:
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, cwd=cwd)
        except OSError as e:
            raise HerdError(f'cannot run {binary}: {e}') from e
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as e:
            proc.kill()
            _, _, usage = os.wait4(proc.pid, 0)
            proc.returncode = -9
            proc.communicate()
            cpu = usage.ru_utime + usage.ru_stime
            if stored and cpu >= TIMEOUT_CPU_SHARE * timeout:
                _store(stored, {'timeout': timeout, 'cpu': cpu})
            raise Timeout(f'herd7 took more than {timeout} s') from e
        errors = [w for w in stderr.splitlines() if 'User error' in w or 'Error' in w]
        if 'exception Stack overflow' in stderr:
            raise Exhausted('herd7 ran out of stack enumerating the executions of '
                            f'{os.path.basename(path)} ("Fatal error: exception Stack overflow")')
        if proc.returncode != 0 or errors:
            raise HerdError((errors[0] if errors else stderr.strip() or
                             f'exit status {proc.returncode}').replace(path, os.path.basename(path)))
        result = parse(stdout, stderr)
        out = {'stdout': stdout, 'stderr': stderr}
        if stored:
            _store(stored, out)
    m = re.search(r'^Time \S+ ([0-9.]+)', out['stdout'], re.M)
    result.seconds = float(m.group(1)) if m else 0.0
    return result
