# SPDX-License-Identifier: GPL-2.0
"""The sources of the codegen-parity check (scripts/machine-code/codegen-parity): one function per
operation of atomics.tbl, ordering and signed type of types.tbl with every operation, in C
(tests/codegen/codegen_c.c), in both spellings of this library (tests/codegen/codegen_ops.rs)
and on upstream's own atomics (tests/codegen/codegen_upstream.rs), plus the barriers and the
marked accesses to plain data."""

from . import typed_api
from .methods import methods_for
from .paths import GENERATED_BY
from .rustfmt import rustfmt


def codegen_types(tables):
    """The types of the check: the signed ones with every operation (the unsigned views run
    the same instructions as their signed types, so they are left out)."""
    return [t for t in tables.types if t.ops == 'all' and t.signed]


def codegen_pairs(tables):
    """(C name, Rust params, Rust return, Rust call, C params, C return, C call) for every
    operation, ordering and type of the check."""
    out = []
    for t in codegen_types(tables):
        rust, value, c_type, c_prefix, c_value = t.rust, t.value, t.c_type, t.c_prefix, t.c_int
        for op in tables.ops:
            for m in methods_for(op):
                c_name = f'{c_prefix}_{m.name}'
                rs_params = [f'v: &{rust}'] + [f'{n}: {ty.replace("V", value)}' for n, ty in m.params]
                rs_ret = m.ret.replace('V', value) if m.ret else None
                rs_call = f'v.{m.name}({", ".join(n for n, _ in m.params)})'
                c_params = [f'{c_type} *v'] + [
                    f'{c_value} *{n}' if ty.startswith('&') else f'{c_value} {n}' for n, ty in m.params]
                c_ret = {None: 'void', 'bool': 'bool'}.get(m.ret, c_value)
                if m.name in ('read', 'read_acquire'):
                    c_args = ['v']
                elif m.name in ('set', 'set_release'):
                    c_args = ['v', 'i']
                else:
                    c_args = []
                    for a in op.args:
                        kind, _, pname = a.partition(':')
                        c_args.append('v' if kind == 'v' else pname or ('i' if kind == 'i' else 'old'))
                c_call = f'{c_name}({", ".join(c_args)})'
                out.append((c_name, rs_params, rs_ret, rs_call, c_params, c_ret, c_call))
    return out


# The barriers and the marked accesses to plain data, which the codegen-parity check compares
# with C's too (their orderings are what the read-modify-write operations are built on):
# name, Rust parameters, Rust return, Rust call (unsafe), C parameters, C return, C call.
CODEGEN_BARRIERS = ('barrier', 'smp_mb', 'smp_rmb', 'smp_wmb', 'smp_mb__before_atomic',
                    'smp_mb__after_atomic', 'smp_mb__after_spinlock')
CODEGEN_MARKED = [('u8', 'u8'), ('s32', 'int'), ('s64', 's64')]
MARKED_RUST = {'u8': 'u8', 's32': 'i32', 's64': 'i64'}
# The marked accesses C has only where the type is a native word (generate_c()).
WORD_ONLY = ('smp_load_acquire_s64', 'smp_store_release_s64')
# On a 32-bit kernel, C's READ_ONCE()/WRITE_ONCE() of 64 bits may be two accesses (the volatile
# access the compiler makes: `ldrd`/`strd`, single-copy atomic on ARMv7 only with LPAE), while
# the library's are always one, atomic64_read()'s and atomic64_set()'s sequences (once.rs): the
# twin there is that C operation (generate_c()).
WORD_ALTERNATIVES = {'read_once_s64': 'atomic64_read((atomic64_t *)p)',
                     'write_once_s64': 'atomic64_set((atomic64_t *)p, i)'}


# The RCU-protected pointer (rust/atomic/rcu.rs) against C's rcu_*() on an `int __rcu *`:
# name, Rust parameters and return (safe functions), the C-named call, the method (the typed
# spelling), C parameters, C return, C call.
RCU_POINTER = 'super::atomic::RcuPointer<i32>'
CODEGEN_RCU = [
    ('rcu_dereference', [], '*mut i32', 'dereference()', 'int *', 'rcu_dereference(*gp)'),
    ('rcu_access_pointer', [], '*mut i32', 'access()', 'int *', 'rcu_access_pointer(*gp)'),
    ('rcu_dereference_protected', [], '*mut i32', 'dereference_protected()', 'int *',
     'rcu_dereference_protected(*gp, 1)'),
    ('rcu_assign_pointer', ['i'], None, 'assign(i)', 'void', 'rcu_assign_pointer(*gp, i)'),
    ('rcu_init_pointer', ['i'], None, 'init(i)', 'void', 'RCU_INIT_POINTER(*gp, i)'),
    ('rcu_replace_pointer', ['i'], '*mut i32', 'replace(i)', 'int *',
     'rcu_replace_pointer(*gp, i, 1)'),
]


def rcu_functions():
    """(name, Rust params, Rust return, C-named body, typed body, C params, C return, C call)
    of the RCU-protected pointer's operations."""
    out = []
    for name, args, ret, method, c_ret, c_call in CODEGEN_RCU:
        params = [f'gp: &{RCU_POINTER}'] + [f'{a}: *mut i32' for a in args]
        c_params = ['int __rcu **gp'] + [f'int *{a}' for a in args]
        call = f'super::atomic::{name}(gp{"".join(", " + a for a in args)})'
        out.append((name, params, ret, call, f'gp.{method}', c_params, c_ret, c_call))
    return out


def codegen_extras():
    out = [(b, [], None, f'super::atomic::{b}()', ['void'], 'void', f'{b}()')
           for b in CODEGEN_BARRIERS]
    for suffix, c_value in CODEGEN_MARKED:
        v = MARKED_RUST[suffix]
        for rust, c, store in (('read_once', 'READ_ONCE', False),
                               ('write_once', 'WRITE_ONCE', True),
                               ('smp_load_acquire', 'smp_load_acquire', False),
                               ('smp_store_release', 'smp_store_release', True)):
            deref = '*p' if c.endswith('ONCE') else 'p'
            if store:
                out.append((f'{rust}_{suffix}', [f'p: *mut {v}', f'i: {v}'], None,
                            f'unsafe {{ super::atomic::{rust}(p, i) }}',
                            [f'{c_value} *p', f'{c_value} i'], 'void', f'{c}({deref}, i)'))
            else:
                out.append((f'{rust}_{suffix}', [f'p: *const {v}'], v,
                            f'unsafe {{ super::atomic::{rust}(p) }}',
                            [f'{c_value} *p'], c_value, f'{c}({deref})'))
    return out


def typed_twins(tables, prefix='rst_', upstream_only=False):
    """The typed spelling's twin of every codegen function: (function name, its C twin's name,
    Rust params, Rust return, body). `rst_<C name>` calls the typed method of that C operation
    and ordering; for `cmpxchg()`, whose `Result` holds the value found either way, that value,
    which is what C's `cmpxchg()` returns. `upstream_only`: only the methods upstream has, and
    no marked accesses (for upstream's own `Atomic<T>`)."""
    out = []
    for t in codegen_types(tables):
        value, c_prefix = t.value, t.c_prefix
        for op in tables.ops:
            for tm in typed_api.typed_methods(op):
                if upstream_only and not tm.upstream:
                    continue
                for arg, sfx in tm.orderings:
                    c_name = f'{c_prefix}_{tm.c_op}{sfx}'
                    params = [f'v: &Atomic<{value}>']
                    call_args = []
                    for pname, ptype in tm.params:
                        if pname in ('_', 'o'):
                            call_args.append(arg)
                        elif pname == 'mut old':
                            continue
                        else:
                            cname = {'v': 'i'}.get(pname, pname)
                            ty = value if ptype in ('T', 'Rhs') else f'&mut {value}'
                            params.append(f'{cname}: {ty}')
                            call_args.append(cname)
                    if tm.name == 'cmpxchg':
                        # C's cmpxchg() returns the value found: "same as atomic_cmpxchg() in C".
                        body = [f'match v.cmpxchg(old, new, {arg}) {{',
                                'Ok(found) | Err(found) => found,', '}']
                        out.append((f'{prefix}{c_name}', c_name, params, value, body))
                        continue
                    ret = {'T': value, 'bool': 'bool', None: None}[tm.ret]
                    call = f'v.{tm.name}({", ".join(call_args)})'
                    out.append((f'{prefix}{c_name}', c_name, params, ret,
                                [call + ('' if ret else ';')]))
    if upstream_only:
        return out
    for name, params, ret, _call, method, *_ in rcu_functions():
        out.append((f'rst_{name}', name, params, ret, [method + ('' if ret else ';')]))
    for suffix, _c_value in CODEGEN_MARKED:
        v = MARKED_RUST[suffix]
        out.append((f'rst_read_once_{suffix}', f'read_once_{suffix}', [f'p: *const {v}'], v,
                    ['// SAFETY: The caller passes a valid, aligned pointer.',
                     'unsafe { atomic_load(p.cast_mut(), Relaxed) }']))
        out.append((f'rst_smp_load_acquire_{suffix}', f'smp_load_acquire_{suffix}',
                    [f'p: *const {v}'], v,
                    ['// SAFETY: The caller passes a valid, aligned pointer.',
                     'unsafe { atomic_load(p.cast_mut(), Acquire) }']))
        out.append((f'rst_write_once_{suffix}', f'write_once_{suffix}',
                    [f'p: *mut {v}', f'i: {v}'], None,
                    ['// SAFETY: The caller passes a valid, aligned pointer.',
                     'unsafe { atomic_store(p, i, Relaxed) };']))
        out.append((f'rst_smp_store_release_{suffix}', f'smp_store_release_{suffix}',
                    [f'p: *mut {v}', f'i: {v}'], None,
                    ['// SAFETY: The caller passes a valid, aligned pointer.',
                     'unsafe { atomic_store(p, i, Release) };']))
    return out


def generate_rust(tables):
    """tests/codegen/codegen_ops.rs."""
    # (rustfmt sorts them.)
    imports = ['atomic_load', 'atomic_store', 'Atomic'] + [t.rust for t in codegen_types(tables)] \
        + [o.name for o in tables.orderings]
    lines = ['// SPDX-License-Identifier: GPL-2.0', '',
             f'// {GENERATED_BY}', '',
             '//! One function per operation, ordering and type of `kernel::sync::atomic`, named',
             '//! `rs_<C name>`, each the twin of `c_<C name>` in `codegen_c.c`, and the same in the',
             '//! typed spelling (`rst_<C name>`): the codegen-parity check',
             '//! (`scripts/machine-code/codegen-parity`) compares their instructions.', '',
             f'use super::atomic::{{{", ".join(imports)}}};']
    for c_name, rs_params, rs_ret, rs_call, _cp, _cr, _cc in codegen_pairs(tables):
        ret = f' -> {rs_ret}' if rs_ret else ''
        lines += ['', f'/// `{c_name}()` in Rust.', '#[no_mangle]',
                  f'pub extern "C" fn rs_{c_name}({", ".join(rs_params)}){ret} {{',
                  f'    {rs_call}{"" if rs_ret else ";"}', '}']
    for name, c_name, params, ret, body in typed_twins(tables):
        unsafe = any(p.startswith('p:') for p in params)
        lines += ['', f'/// `{c_name}()` in the typed spelling.']
        if unsafe:
            lines += ['///', '/// # Safety', '///',
                      '/// `p` must be valid and aligned, as for the C twin.']
        lines += ['#[no_mangle]',
                  f'pub {"unsafe " if unsafe else ""}extern "C" fn {name}({", ".join(params)})'
                  f'{f" -> {ret}" if ret else ""} {{'] + [f'    {b}' for b in body] + ['}']
    for name, rs_params, rs_ret, rs_call, _cp, _cr, _cc in codegen_extras():
        ret = f' -> {rs_ret}' if rs_ret else ''
        if rs_params:
            lines += ['', f'/// `{name.rsplit("_", 1)[0]}()` in Rust, on a plain `{rs_params[0].split()[-1]}`.',
                      '///', '/// # Safety', '///',
                      '/// `p` must be valid and aligned, as for the C twin.', '#[no_mangle]',
                      f'pub unsafe extern "C" fn rs_{name}({", ".join(rs_params)}){ret} {{',
                      '    // SAFETY: The caller passes a valid, aligned pointer.',
                      f'    {rs_call}{"" if rs_ret else ";"}', '}']
        else:
            lines += ['', f'/// `{name}()` in Rust.', '#[no_mangle]',
                      f'pub extern "C" fn rs_{name}() {{', f'    {rs_call};', '}']
    for name, params, ret, call, *_ in rcu_functions():
        lines += ['', f'/// `{name}()` in Rust, on an RCU-protected pointer.', '#[no_mangle]',
                  f'pub extern "C" fn rs_{name}({", ".join(params)})'
                  f'{f" -> {ret}" if ret else ""} {{', f'    {call}{"" if ret else ";"}', '}']
    return rustfmt('\n'.join(lines) + '\n')


def generate_upstream(tables):
    """tests/codegen/codegen_upstream.rs: every operation of upstream's own `Atomic<T>` (the
    kernel crate's, Linux 7.2) that has a C twin, as `rsu_<C name>`."""
    imports = ['Atomic'] + [o.name for o in tables.orderings]
    lines = ['// SPDX-License-Identifier: GPL-2.0', '',
             f'// {GENERATED_BY}', '',
             '//! Upstream\'s own `kernel::sync::atomic` (Linux 6.18 and later: the kernel crate\'s,',
             '//! not this library), one function per operation, ordering and type it has, named',
             '//! `rsu_<C name>` as the twin of `c_<C name>` in `codegen_c.c`: codegen parity',
             '//! (`scripts/machine-code/codegen-parity`) measures it with and without',
             '//! `CONFIG_RUST_INLINE_HELPERS` against ours.', '',
             f'use kernel::sync::atomic::{{{", ".join(imports)}}};']
    for name, c_name, params, ret, body in typed_twins(tables, 'rsu_', upstream_only=True):
        lines += ['', f'/// `{c_name}()` by upstream\'s `Atomic<T>`.', '#[no_mangle]',
                  f'pub extern "C" fn {name}({", ".join(params)})'
                  f'{f" -> {ret}" if ret else ""} {{'] + [f'    {b}' for b in body] + ['}']
    return rustfmt('\n'.join(lines) + '\n')


def generate_c(tables):
    """tests/codegen/codegen_c.c."""
    lines = ['// SPDX-License-Identifier: GPL-2.0', '',
             f'/* {GENERATED_BY} */', '',
             '/*', " * One function per operation, ordering and type of the kernel's atomic_*() API,",
             ' * named c_<C name>, each the twin of rs_<C name> in codegen_ops.rs, with the same',
             ' * parameters in the same order: the codegen-parity check (scripts/machine-code/codegen-parity)',
             ' * compares their instructions.', ' */', '', '#include <linux/atomic.h>',
             '#include <linux/rcupdate.h>', '#include <linux/spinlock.h>']
    for c_name, _rp, _rr, _rc, c_params, c_ret, c_call in codegen_pairs(tables):
        sig = f'{c_ret} c_{c_name}({", ".join(c_params)})'
        body = f'\t{c_call};' if c_ret == 'void' else f'\treturn {c_call};'
        lines += ['', f'{sig};', sig, '{', body, '}']
    for name, _rp, _rr, _rc, c_params, c_ret, c_call in codegen_extras():
        sig = f'{c_ret} c_{name}({", ".join(c_params)})'
        body = f'\t{c_call};' if c_ret == 'void' else f'\treturn {c_call};'
        function = ['', f'{sig};', sig, '{', body, '}']
        if name in WORD_ALTERNATIVES:
            other = WORD_ALTERNATIVES[name]
            other = f'\t{other};' if c_ret == 'void' else f'\treturn {other};'
            function = ['', f'{sig};', sig, '{', '#if BITS_PER_LONG == 64', body, '#else', other,
                        '#endif', '}']
        if name in WORD_ONLY:
            # C's acquire and release accesses need a native word (compiletime_assert_atomic_type(),
            # include/linux/compiler_types.h): on a 32-bit kernel C has none of 64 bits, and the
            # Rust one, which is atomic64_read_acquire()'s sequence, has no twin to compare.
            function = ['', '#if BITS_PER_LONG == 64'] + function[1:] + ['#endif']
        lines += function
    for name, *_, c_params, c_ret, c_call in rcu_functions():
        sig = f'{c_ret}{"" if c_ret.endswith("*") else " "}c_{name}({", ".join(c_params)})'
        body = f'\t{c_call};' if c_ret == 'void' else f'\treturn {c_call};'
        lines += ['', f'{sig};', sig, '{', body, '}']
    return '\n'.join(lines) + '\n'
