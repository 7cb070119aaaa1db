# SPDX-License-Identifier: GPL-2.0
"""The two sides of the differential test of kernel::sync::atomic: the kernel's C operations
as a table (tests/kernel/rust_atomic_c_ops_table.c) and the matching Rust operations
(tests/kernel/common/differential_ops.rs), one per operation of atomics.tbl, ordering of
orderings.tbl and type of types.tbl with every operation, in both Rust spellings."""

import re
import sys

from . import typed_api
from .casts import cast, from_i64, to_i64
from .methods import methods_for
from .paths import GENERATED_BY
from .rustfmt import rustfmt


def differential_ops(tables):
    """(C name, family, bits, C function body, Rust type, Rust closure body) for every method
    of every read-modify-write type: the Rust side of each C operation, unsigned views
    included (they run the same C operation)."""
    out = []
    for t in tables.types:
        if t.ops != 'all':
            continue
        rust, value, raw = t.rust, t.value, t.repr
        c_type, c_prefix, c_value = t.c_type, t.c_prefix, t.c_int
        for op in tables.ops:
            if not t.has(op):
                continue
            name, args = op.name, op.args
            for m in methods_for(op):
                c_name = f'{c_prefix}_{m.name}'
                # C call arguments in the table's order; a takes the first value, b the second.
                c_args, rs_args, pre_c, post_c, pre_rs, post_rs = [], [], [], [], [], []
                slots = iter(['a', 'b'])
                if m.name in ('read', 'read_acquire'):
                    c_args = ['(' + c_type + ' *)v']
                elif m.name in ('set', 'set_release'):
                    c_args = ['(' + c_type + ' *)v', f'({c_value})a']
                    rs_args = [from_i64('a', value)]
                else:
                    for a in args:
                        kind, _, pname = a.partition(':')
                        if kind == 'v':
                            c_args.append(f'({c_type} *)v')
                        elif kind == 'i':
                            slot = next(slots)
                            c_args.append(f'({c_value}){slot}')
                            rs_args.append(from_i64(slot, value))
                        elif kind == 'p':
                            slot = next(slots)
                            pre_c.append(f'{c_value} old = ({c_value}){slot};')
                            post_c.append('*aux = old;')
                            c_args.append('&old')
                            pre_rs.append(f'let mut old = {from_i64(slot, value)};')
                            post_rs.append(f'*aux = {to_i64("old", value, raw)};')
                            rs_args.append('&mut old')
                call = f'{c_prefix}_{m.name}({", ".join(c_args)})'
                if m.ret is None:
                    c_body = pre_c + [f'{call};'] + post_c + ['return 0;']
                else:
                    c_body = pre_c + [f'{"bool" if m.ret == "bool" else "s64"} ret = {call};'] + \
                        post_c + ['return ret;']
                rs_call = f'v.{m.name}({", ".join(rs_args)})'
                if m.ret is None:
                    rs_body = pre_rs + [f'{rs_call};'] + post_rs + ['0']
                else:
                    ret = cast(rs_call, 'bool', 'i64') if m.ret == 'bool' else to_i64(rs_call, value, raw)
                    rs_body = (pre_rs + [f'let ret = {ret};'] + post_rs + ['ret']) if post_rs \
                        else pre_rs + [ret]
                used = ' '.join(rs_body)
                params = [n if re.search(rf'\b{n}\b', used) else f'_{n}' for n in ('a', 'b', 'aux')]
                nargs = len(rs_args)
                out.append((c_name, name, t.bits, c_body, rust, raw, params, rs_body, nargs))
                # The same operation in the typed spelling, on the same C operation.
                typed_body = [line.replace(rs_call, typed_call(op, m.name, rs_args))
                              for line in rs_body]
                out.append((c_name, name, t.bits, c_body, f'Atomic::<{value}>', raw, params,
                            typed_body, nargs))
    return out


def typed_call(op, c_method, args):
    """The typed spelling of C-named method `c_method` (of table line `op`) on `v`, with
    the C-named call's arguments `args`; it returns what the C-named method returns."""
    for tm in typed_api.typed_methods(op):
        for arg, sfx in tm.orderings:
            if tm.c_op + sfx == c_method:
                call = f'v.{tm.name}({", ".join(list(args) + [arg])})'
                return f'{call}.unwrap_or_else(|found| found)' if tm.name == 'cmpxchg' else call
    sys.exit(f'no typed spelling of {c_method}')


def generate_c(tables):
    """tests/kernel/rust_atomic_c_ops_table.c."""
    seen, funcs, rows = set(), [], []
    for c_name, family, bits, c_body, _rust, _raw, _params, _rs, _nargs in differential_ops(tables):
        if c_name in seen:
            continue
        seen.add(c_name)
        funcs += ['', f'static s64 op_{c_name}(void *v, s64 a, s64 b, s64 *aux)', '{']
        funcs += [f'\t{line}' for line in c_body] + ['}']
        rows.append(f'\t{{ "{c_name}", "{family}", {"BITS_PER_LONG" if bits == "long" else bits}, '
                    f'op_{c_name} }},')
    head = ['// SPDX-License-Identifier: GPL-2.0', '',
            f'/* {GENERATED_BY} */', '',
            '/*', ' * The kernel\'s own atomic operations, one function per operation, ordering and type,',
            ' * with one signature, for the differential test of kernel::sync::atomic',
            ' * (tests/kernel/rust_atomic_differential.rs): each takes the variable, the operation\'s value',
            ' * arguments as `a` and `b`, returns the result (0 for none, 0 or 1 for a bool) and stores',
            ' * try_cmpxchg()\'s updated old value in `*aux`. The functions are not called directly but',
            ' * through the exported table, whose rows the Rust side looks up by name.',
            ' */', '', '#include <linux/atomic.h>', '#include <linux/module.h>', '',
            '/* Layout shared with `COp` in tests/kernel/common/differential_ops.rs. */',
            'struct rust_atomic_c_op {', '\tconst char *name;', '\tconst char *family;', '\tu32 bits;',
            '\ts64 (*fn)(void *v, s64 a, s64 b, s64 *aux);', '};']
    tail = ['', 'const struct rust_atomic_c_op rust_atomic_c_ops[] = {'] + rows + ['};',
            'EXPORT_SYMBOL_GPL(rust_atomic_c_ops);', '',
            'const u32 rust_atomic_c_ops_count = ARRAY_SIZE(rust_atomic_c_ops);',
            'EXPORT_SYMBOL_GPL(rust_atomic_c_ops_count);', '',
            'MODULE_LICENSE("GPL");',
            'MODULE_DESCRIPTION("The C side of the Rust atomics tests: C operations and C kthreads");']
    return '\n'.join(head + funcs + tail) + '\n'


def generate_rust(tables):
    """tests/kernel/common/differential_ops.rs."""
    rows = []
    for c_name, family, bits, _c, rust, raw, params, rs_body, nargs in differential_ops(tables):
        body = '\n'.join(f'            {line}' for line in rs_body)
        rows.append(f'''    RustOp {{
        c_name: "{c_name}",
        family: "{family}",
        bits: {"usize::BITS" if bits == "long" else bits},
        args: {nargs},
        run: |p, {", ".join(params)}| {{
            // SAFETY: The caller passes a valid, aligned variable of `bits` bits.
            let v = unsafe {{ {rust}::from_ptr(p.cast()) }};
{body}
        }},
    }},''')
    text = '\n'.join([
        '// SPDX-License-Identifier: GPL-2.0', '',
        f'// {GENERATED_BY}', '',
        '//! The Rust side of the differential test: every operation of every read-modify-write',
        '//! type of `kernel::sync::atomic`, with the name of the C operation it must match',
        '//! (`tests/kernel/rust_atomic_c_ops_table.c` is the C side).', '',
        'use super::atomic::*;', '',
        '/// One Rust operation and the C operation it must behave like.',
        'pub(crate) struct RustOp {',
        '    /// The C function, e.g. `atomic_fetch_add_relaxed`.',
        '    pub(crate) c_name: &\'static str,',
        '    /// The table line it comes from, e.g. `add`.',
        '    pub(crate) family: &\'static str,',
        '    /// Width of the variable.',
        '    pub(crate) bits: u32,',
        '    /// How many value arguments the operation takes (0, 1 or 2: `a`, then `b`).',
        '    pub(crate) args: u32,',
        '    /// Runs the operation on the variable at the pointer with value arguments `a`, `b`;',
        '    /// returns the result as C returns it and stores try_cmpxchg\'s old value in `aux`.',
        '    pub(crate) run: fn(*mut u64, i64, i64, &mut i64) -> i64,',
        '}', '',
        f'/// Every Rust operation under test.',
        f'pub(crate) static RUST_OPS: [RustOp; {len(rows)}] = [',
    ] + rows + ['];']) + '\n'
    return rustfmt(text)
