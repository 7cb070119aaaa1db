# SPDX-License-Identifier: GPL-2.0
"""Reads the generator's three tables, each described by its own comment header:
atomics.tbl (the operations), types.tbl (the C-named types) and orderings.tbl (the orderings).
A malformed line stops the generator with its file, line and what is wrong."""

import os
import sys
from dataclasses import dataclass
from functools import cache

from .paths import ATOMIC_DIR, relative

ATOMICS = os.path.join(ATOMIC_DIR, 'atomics.tbl')
TYPES = os.path.join(ATOMIC_DIR, 'types.tbl')
ORDERINGS = os.path.join(ATOMIC_DIR, 'orderings.tbl')

META = 'lsvRFfIiBb'
ARG_KINDS = ('v', 'i', 'p')
OPS_KINDS = ('all', 'exchange', 'loadstore')
# The operations C has on any scalar besides loads and stores: xchg() and the cmpxchg() family.
EXCHANGE_OPS = {'read', 'set', 'xchg', 'cmpxchg', 'try_cmpxchg'}


@dataclass(frozen=True)
class Op:
    """One line of atomics.tbl."""
    name: str
    meta: str           # its meta letters, e.g. 'vRF'
    args: tuple         # 'v', 'i', 'i:new', 'p:old'... in C's order
    signed_only: bool   # marked `signed`: only on the signed types
    where: str          # file:line, for messages


@dataclass(frozen=True)
class AtomicType:
    """One line of types.tbl."""
    rust: str
    value: str
    backend: str
    repr: str
    c_type: str
    c_prefix: str
    c_int: str
    bits: str           # '8', '16', '32', '64', or 'long' (C's long: 32 or 64 by kernel)
    signed: bool
    ops: str            # 'all', 'exchange' or 'loadstore'
    where: str

    def has(self, op):
        """Whether this type has the methods of table line `op`."""
        if op.signed_only and not self.signed:
            return False
        if self.ops == 'exchange':
            return op.name in EXCHANGE_OPS
        if self.ops == 'loadstore':
            return set(op.meta) <= set('ls')
        return True


@dataclass(frozen=True)
class Ordering:
    """One line of orderings.tbl."""
    name: str           # Full, Acquire, Release, Relaxed
    suffix: str         # of the C name: '' or '_acquire'...
    meaning: str
    where: str


@dataclass(frozen=True)
class Tables:
    """All three tables, each a tuple of its lines in order."""
    ops: tuple
    types: tuple
    orderings: tuple


def lines(path):
    """(file:line, fields) of every line of `path` that is neither blank nor a comment."""
    with open(path, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            if line.strip() and not line.startswith('#'):
                yield f'{relative(path)}:{lineno}', line.split()


def fail(where, message):
    sys.exit(f'{where}: {message}')


@cache
def ops():
    out = []
    for where, fields in lines(ATOMICS):
        if len(fields) < 3:
            fail(where, 'expected `name meta args...` (at least one argument)')
        name, meta, args = fields[0], fields[1], fields[2:]
        signed_only = args[-1] == 'signed'
        if signed_only:
            args = args[:-1]
        if not set(meta) <= set(META):
            fail(where, f'unknown meta {meta!r} for {name} (the letters are {META})')
        for arg in args:
            if arg.partition(':')[0] not in ARG_KINDS:
                fail(where, f'unknown argument {arg!r} of {name}: expected v, i[:name] or '
                            'p[:name], and `signed` only last')
        out.append(Op(name, meta, tuple(args), signed_only, where))
    return tuple(out)


@cache
def types():
    out = []
    for where, fields in lines(TYPES):
        if len(fields) != 10:
            fail(where, f'expected 10 columns (rust value backend repr c_type c_prefix c_int '
                        f'bits sign ops), found {len(fields)}')
        rust, value, backend, repr_, c_type, c_prefix, c_int, bits, sign, ops_kind = fields
        if not bits.isdigit() and bits != 'long':
            fail(where, f'bits must be a number or `long`, not {bits!r}')
        if sign not in ('signed', 'unsigned'):
            fail(where, f'sign must be `signed` or `unsigned`, not {sign!r}')
        if ops_kind not in OPS_KINDS:
            fail(where, f'ops must be one of {", ".join(OPS_KINDS)}, not {ops_kind!r}')
        if any(t.rust == rust or t.value == value for t in out):
            fail(where, f'{rust} or its value type {value} is already in the table')
        out.append(AtomicType(rust, value, backend, repr_, c_type, c_prefix, c_int, bits,
                              sign == 'signed', ops_kind, where))
    return tuple(out)


@cache
def orderings():
    out = []
    for where, fields in lines(ORDERINGS):
        if len(fields) < 3:
            fail(where, 'expected `name suffix meaning...`')
        name, suffix, meaning = fields[0], fields[1], ' '.join(fields[2:])
        if suffix != '-' and not suffix.startswith('_'):
            fail(where, f'the suffix must start with `_`, or be `-` for none, not {suffix!r}')
        out.append(Ordering(name, '' if suffix == '-' else suffix, meaning, where))
    return tuple(out)


def ordering(name):
    """The line of orderings.tbl named `name` (the generator needs Full, Acquire, Release and
    Relaxed by name, for the meta letters that allow only some of them)."""
    for o in orderings():
        if o.name == name:
            return o
    return sys.exit(f'{relative(ORDERINGS)}: no line for {name}, which the meta letters of '
                    'atomics.tbl need')


def load():
    return Tables(ops(), types(), orderings())
