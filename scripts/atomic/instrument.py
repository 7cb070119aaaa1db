# SPDX-License-Identifier: GPL-2.0
"""Which sanitizer hooks each operation calls (rust/atomic/instrument.rs), as C's instrumented
layer does (include/linux/atomic/atomic-instrumented.h): for scripts/atomic/gen-atomics, which
emits them into both spellings, and for the host test that holds them against the kernel's
header.

An operation's hooks: its ordering's KCSAN barrier (`kcsan_mb()` if fully ordered,
`kcsan_release()` if release, none if acquire or relaxed), then the access check of its
variable (`instrument_atomic_read()` for a load, `_write()` for a store, `_read_write()` for
everything else), and for `try_cmpxchg()` a check of `*old`: `atomic_try_cmpxchg()` checks it
as an atomic read-modify-write, the scalar `try_cmpxchg()` macro (on a `bool`, `u8`, `u16` or
pointer) as a plain one (`instrument_read_write()`).
"""

from . import tables

ACCESS = {'read': 'Read', 'read_acquire': 'Read', 'set': 'Write', 'set_release': 'Write'}


def hooks(c_op, returns):
    """(access, order) of C operation `c_op` without its type prefix (`fetch_add_release`),
    which `returns` a value or not: the arguments of `instrument::atomic()`."""
    access = ACCESS.get(c_op, 'ReadWrite')
    if c_op in ('read', 'read_acquire', 'set') or not returns and access == 'ReadWrite':
        return access, 'Relaxed'
    # The ordering is the C name's suffix (orderings.tbl), fully ordered if it has none.
    for ordering in tables.orderings():
        if ordering.suffix and c_op.endswith(ordering.suffix):
            return access, ordering.name
    return access, 'Full'


def c_hooks(c_op, returns, scalar=False):
    """The hooks as atomic-instrumented.h writes them, e.g. ['kcsan_mb',
    'instrument_atomic_read_write', 'instrument_atomic_read_write'] for `atomic_try_cmpxchg`;
    `scalar`: of the macro without an `atomic*_` prefix."""
    access, order = hooks(c_op, returns)
    out = {'Full': ['kcsan_mb'], 'Release': ['kcsan_release']}.get(order, [])
    out.append({'Read': 'instrument_atomic_read', 'Write': 'instrument_atomic_write',
                'ReadWrite': 'instrument_atomic_read_write'}[access])
    if c_op.startswith('try_cmpxchg'):
        out.append('instrument_read_write' if scalar else 'instrument_atomic_read_write')
    return out


def rust_lines(c_op, returns, order=None, pointer='p', old=None, scalar='false'):
    """The Rust statements of the hooks of `c_op` on variable `pointer`. `order`: a Rust
    expression for the ordering where it is a type parameter (the typed spelling's `O`, whose
    `Acquire` and `Relaxed` have no hook, as the C name's suffix would say); `old`: the pointer
    to `*old` of a `try_cmpxchg`; `scalar`: a Rust expression, whether that is the scalar
    macro's."""
    access, fixed = hooks(c_op, returns)
    if c_op in ('read', 'read_acquire', 'set', 'set_release'):
        # C's atomic_read() and friends on atomic_t, READ_ONCE() and friends on a scalar.
        fn = 'load' if access == 'Read' else 'store'
        ordered = ('OrderingType::Acquire' if fn == 'load' else 'OrderingType::Release')
        flag = (f'matches!(O::TYPE, {ordered})' if order
                else 'true' if c_op.endswith(('_acquire', '_release')) else 'false')
        return [f'instrument::{fn}({pointer}, {flag}, {scalar});']
    lines = [f'instrument::atomic({pointer}, Access::{access}, {order or "Order::" + fixed});']
    if old is not None:
        lines.append(f'instrument::try_cmpxchg_old({old}, {scalar});')
    return lines
