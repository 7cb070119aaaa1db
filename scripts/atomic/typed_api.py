# SPDX-License-Identifier: GPL-2.0
"""The typed spelling of the operation table (upstream's `Atomic<T>` API, orderings as types),
for scripts/atomic/gen-atomics: from each line of scripts/atomic/atomics.tbl, the methods of
`Atomic<T>` (rust/atomic/generated_typed.rs) and their codegen twins (tests/codegen/). A
method's signature follows from its table line; its body is its templates/typed/fallbacks/
template, its doc its templates/typed/kerneldoc/ one.

Upstream (Linux 7.2) has `load`, `store`, `xchg`, `cmpxchg`, `add`, `fetch_add` and
`fetch_sub`; every other method is ours, in the same spelling: the C name, the ordering as an
argument of type `Relaxed`, `Acquire`, `Release` or `Full` (or `Relaxed`/`Full` alone where C
has only that ordering), and `Result` only where upstream uses it (`cmpxchg`).
"""

from dataclasses import dataclass, field
from textwrap import wrap

from . import instrument, tables, templates, variants
from .paths import GENERATED_BY
from .rustfmt import rustfmt

UPSTREAM = {'load', 'store', 'xchg', 'cmpxchg', 'add', 'fetch_add', 'fetch_sub'}
# Upstream's names: of the methods of `read` and `set`, and of xchg()'s argument `new`.
NAMES = {'read': 'load', 'set': 'store'}
PARAM_NAMES = {('xchg', 'new'): 'v'}
# The operations whose argument is bits (`AtomicBitwise`), not a delta (`AtomicAdd`).
BITWISE = {'and', 'or', 'xor', 'andnot'}
# The bound of a method's ordering type parameter `O`, by meta letter (any ordering: `Ordering`).
ORDER_BOUNDS = {'l': 'ordering::AcquireOrRelaxed', 's': 'ordering::ReleaseOrRelaxed'}


@dataclass
class TypedMethod:
    name: str
    c_op: str                   # the C operation without type prefix, e.g. fetch_or
    generics: list              # e.g. ['Rhs', 'O: Ordering']
    params: list                # (name, type)
    ret: str                    # Rust return type or None
    where: list                 # where-clause predicates
    body: list                  # lines
    doc: str
    orderings: list             # (ordering, C suffix) of each it takes: [('Full', '')]
    trait: str                  # AtomicBasicOps, AtomicExchangeOps, AtomicArithmeticOps
    example: list = field(default_factory=list)

    @property
    def upstream(self):
        return self.name in UPSTREAM


def trait_of(op):
    """The operation trait whose representations have the methods of table line `op`."""
    if set(op.meta) <= set('ls'):
        return 'AtomicBasicOps'
    return 'AtomicExchangeOps' if op.name in tables.EXCHANGE_OPS else 'AtomicArithmeticOps'


def value_params(op, trait):
    """The value parameters of table line `op`: (name, type). An arithmetic operation's first
    value is its operand (`Rhs`: a delta, or bits); every other value is a `T`."""
    out = []
    for arg in op.args:
        kind, _, name = arg.partition(':')
        if kind == 'p':
            out.append((name or 'old', '&mut T'))
        elif kind == 'i':
            name = PARAM_NAMES.get((op.name, name), name or 'v')
            rhs = trait == 'AtomicArithmeticOps' and not out
            out.append((name, 'Rhs' if rhs else 'T'))
    return out


def typed_method(op, meta):
    """The typed method of meta letter `meta` of table line `op`: one for all its orderings."""
    vs = variants.variants(op, meta)
    v = vs[0]
    trait = trait_of(op)
    params = value_params(op, trait)
    has_rhs = any(t == 'Rhs' for _, t in params)
    generics = ['Rhs'] if has_rhs else []
    if len(vs) > 1:
        generics.append(f'O: {ORDER_BOUNDS.get(meta, "Ordering")}')
        params.append(('_', 'O'))
    else:
        params.append(('_', f'ordering::{v.ordering.name}'))
    where = []
    if trait == 'AtomicArithmeticOps':
        bound = 'AtomicInteger'
        if has_rhs:
            bound = f'{"AtomicBitwise" if op.name in BITWISE else "AtomicAdd"}<Rhs>'
        where.append(f'T: {bound}' + (' + AtomicSigned' if op.signed_only else ''))
    # Upstream's cmpxchg() returns the value found in a `Result`: `Ok` if it stored.
    ret = {'value': 'T', 'bool': 'bool', None: None}[v.returns]
    if op.name == 'cmpxchg':
        ret = 'Result<T, T>'
    body = templates.render('typed/fallbacks', v).split('\n')
    doc = '\n\n'.join(templates.paragraphs(templates.render('typed/kerneldoc', v)))
    return TypedMethod(NAMES.get(v.form, v.form), v.form, generics, params, ret, where, body,
                       doc, [(x.ordering.name, x.order) for x in vs], trait)


def typed_methods(op):
    """The typed methods of one table line."""
    return [typed_method(op, meta) for meta in op.meta]


# Upstream's doc examples (rust/kernel/sync/atomic.rs, Linux 7.2), kept word for word; the
# methods that are ours get examples of the same shape.
UPSTREAM_EXAMPLES = {
    'load': ['use kernel::sync::atomic::{Atomic, Relaxed};', '', 'let x = Atomic::new(42i32);',
             '', 'assert_eq!(42, x.load(Relaxed));', '', 'let x = Atomic::new(42i64);', '',
             'assert_eq!(42, x.load(Relaxed));'],
    'store': ['use kernel::sync::atomic::{Atomic, Relaxed};', '', 'let x = Atomic::new(42i32);',
              '', 'assert_eq!(42, x.load(Relaxed));', '', 'x.store(43, Relaxed);', '',
              'assert_eq!(43, x.load(Relaxed));'],
    'xchg': ['use kernel::sync::atomic::{Atomic, Acquire, Relaxed};', '',
             'let x = Atomic::new(42);', '', 'assert_eq!(42, x.xchg(52, Acquire));',
             'assert_eq!(52, x.load(Relaxed));'],
    'cmpxchg': ['use kernel::sync::atomic::{Atomic, Full, Relaxed};', '',
                'let x = Atomic::new(42);', '', '// Checks whether cmpxchg succeeded.',
                'let success = x.cmpxchg(52, 64, Relaxed).is_ok();', '# assert!(!success);', '',
                '// Checks whether cmpxchg failed.',
                'let failure = x.cmpxchg(52, 64, Relaxed).is_err();', '# assert!(failure);', '',
                '// Uses the old value if failed, probably re-try cmpxchg.',
                'match x.cmpxchg(52, 64, Relaxed) {', '    Ok(_) => { },', '    Err(old) => {',
                '        // do something with `old`.', '        # assert_eq!(old, 42);', '    }',
                '}', '', '// Uses the latest value regardlessly, same as atomic_cmpxchg() in C.',
                'let latest = x.cmpxchg(42, 64, Full).unwrap_or_else(|old| old);',
                '# assert_eq!(42, latest);', 'assert_eq!(64, x.load(Relaxed));'],
    'add': ['use kernel::sync::atomic::{Atomic, Relaxed};', '', 'let x = Atomic::new(42);', '',
            'assert_eq!(42, x.load(Relaxed));', '', 'x.add(12, Relaxed);', '',
            'assert_eq!(54, x.load(Relaxed));'],
    'fetch_add': ['use kernel::sync::atomic::{Atomic, Acquire, Full, Relaxed};', '',
                  'let x = Atomic::new(42);', 'assert_eq!(42, x.load(Relaxed));',
                  'assert_eq!(42, x.fetch_add(12, Acquire));', 'assert_eq!(54, x.load(Relaxed));',
                  '', 'let x = Atomic::new(42);', 'assert_eq!(42, x.load(Relaxed));',
                  'assert_eq!(42, x.fetch_add(12, Full));', 'assert_eq!(54, x.load(Relaxed));'],
    'fetch_sub': ['use kernel::sync::atomic::{Atomic, Acquire, Full, Relaxed};', '',
                  'let x = Atomic::new(42);', 'assert_eq!(42, x.load(Relaxed));',
                  'assert_eq!(42, x.fetch_sub(12, Acquire));', 'assert_eq!(30, x.load(Relaxed));',
                  '', 'let x = Atomic::new(42);', 'assert_eq!(42, x.load(Relaxed));',
                  'assert_eq!(42, x.fetch_sub(12, Full));', 'assert_eq!(30, x.load(Relaxed));'],
}

# Ours: (initial value, statements on `x`); `{o}` is the ordering the example uses.
OUR_EXAMPLES = {
    'sub': ('44', ['x.sub(2, Relaxed);', 'assert_eq!(42, x.load(Relaxed));']),
    'inc': ('41', ['x.inc(Relaxed);', 'assert_eq!(42, x.load(Relaxed));']),
    'dec': ('43', ['x.dec(Relaxed);', 'assert_eq!(42, x.load(Relaxed));']),
    'and': ('0b1100', ['x.and(0b1010, Relaxed);', 'assert_eq!(0b1000, x.load(Relaxed));']),
    'andnot': ('0b1100', ['x.andnot(0b1010, Relaxed);', 'assert_eq!(0b0100, x.load(Relaxed));']),
    'or': ('0b1100', ['x.or(0b1010, Relaxed);', 'assert_eq!(0b1110, x.load(Relaxed));']),
    'xor': ('0b1100', ['x.xor(0b1010, Relaxed);', 'assert_eq!(0b0110, x.load(Relaxed));']),
    'add_return': ('40', ['assert_eq!(42, x.add_return(2, Release));']),
    'sub_return': ('44', ['assert_eq!(42, x.sub_return(2, Acquire));']),
    'inc_return': ('41', ['assert_eq!(42, x.inc_return(Full));']),
    'dec_return': ('43', ['assert_eq!(42, x.dec_return(Relaxed));']),
    'fetch_inc': ('41', ['assert_eq!(41, x.fetch_inc(Full));', 'assert_eq!(42, x.load(Relaxed));']),
    'fetch_dec': ('43', ['assert_eq!(43, x.fetch_dec(Release));',
                         'assert_eq!(42, x.load(Relaxed));']),
    'fetch_and': ('0b1100', ['assert_eq!(0b1100, x.fetch_and(0b1010, Acquire));',
                             'assert_eq!(0b1000, x.load(Relaxed));']),
    'fetch_andnot': ('0b1100', ['assert_eq!(0b1100, x.fetch_andnot(0b1010, Full));',
                                'assert_eq!(0b0100, x.load(Relaxed));']),
    'fetch_or': ('0b1100', ['assert_eq!(0b1100, x.fetch_or(0b1010, Release));',
                            'assert_eq!(0b1110, x.load(Relaxed));']),
    'fetch_xor': ('0b1100', ['assert_eq!(0b1100, x.fetch_xor(0b1010, Relaxed));',
                             'assert_eq!(0b0110, x.load(Relaxed));']),
    'try_cmpxchg': ('1', ['let mut old = 1;', 'assert!(x.try_cmpxchg(&mut old, 2, Acquire));',
                          '// The value is not 1 any more: no store, and `old` updated to it.',
                          'old = 1;', 'assert!(!x.try_cmpxchg(&mut old, 3, Full));',
                          'assert_eq!(2, old);']),
    'sub_and_test': ('3', ['assert!(!x.sub_and_test(2, Full));', 'assert!(x.sub_and_test(1, Full));']),
    'dec_and_test': ('2', ['assert!(!x.dec_and_test(Full));', 'assert!(x.dec_and_test(Full));']),
    'inc_and_test': ('-2', ['assert!(!x.inc_and_test(Full));', 'assert!(x.inc_and_test(Full));']),
    'add_negative': ('1', ['assert!(!x.add_negative(-1, Relaxed));',
                           'assert!(x.add_negative(-1, Full));']),
    'fetch_add_unless': ('1', ['assert_eq!(1, x.fetch_add_unless(1, 0, Full));',
                               'x.store(0, Relaxed);', 'assert_eq!(0, x.fetch_add_unless(1, 0, Full));',
                               'assert_eq!(0, x.load(Relaxed));']),
    'add_unless': ('1', ['assert!(x.add_unless(1, 0, Full));', 'x.store(0, Relaxed);',
                         'assert!(!x.add_unless(1, 0, Full));']),
    'inc_not_zero': ('0', ['assert!(!x.inc_not_zero(Full));', 'x.store(1, Relaxed);',
                           'assert!(x.inc_not_zero(Full));', 'assert_eq!(2, x.load(Relaxed));']),
    'inc_unless_negative': ('-1', ['assert!(!x.inc_unless_negative(Full));',
                                   'x.store(0, Relaxed);', 'assert!(x.inc_unless_negative(Full));']),
    'dec_unless_positive': ('1', ['assert!(!x.dec_unless_positive(Full));',
                                  'x.store(0, Relaxed);', 'assert!(x.dec_unless_positive(Full));',
                                  'assert_eq!(-1, x.load(Relaxed));']),
    'dec_if_positive': ('1', ['assert_eq!(0, x.dec_if_positive(Full));',
                              '// Would go negative: no store, and the would-be result returned.',
                              'assert_eq!(-1, x.dec_if_positive(Full));',
                              'assert_eq!(0, x.load(Relaxed));']),
}


def example(m):
    if m.upstream:
        return UPSTREAM_EXAMPLES[m.name]
    init, stmts = OUR_EXAMPLES[m.name]
    return ['use kernel::sync::atomic::{Acquire, Atomic, Full, Relaxed, Release};', '',
            f'let x = Atomic::new({init}i32);'] + stmts


def c_aliases(m, types):
    """The C names of `m`: of each C type with every operation (types.tbl), each ordering."""
    prefixes = dict.fromkeys(t.c_prefix for t in types if t.ops == 'all')
    return [f'{t}_{m.c_op}{sfx}' for t in prefixes for _, sfx in m.orderings]


def render_method(m, types):
    lines = ['']
    for para in m.doc.split('\n\n'):
        lines += [f'/// {x}' for x in wrap(para, 96, break_on_hyphens=False)] + ['///']
    if m.upstream:
        lines.append('/// Upstream\'s: in `kernel::sync::atomic` since Linux 6.18.')
    else:
        lines += [f'/// {x}' for x in wrap(
            f'Ours: upstream (Linux 7.2) does not have it; C\'s `atomic_{m.c_op}()` '
            f'family, in the typed spelling.', 96)]
    lines += ['///', '/// # Examples', '///', '/// ```']
    lines += [f'/// {x}' if x else '///' for x in example(m)]
    lines += ['/// ```']
    aliases = ', '.join(f'"{a}"' for a in c_aliases(m, types))
    lines += [f'#[doc(alias({aliases}))]', '#[inline(always)]']
    generics = f'<{", ".join(m.generics)}>' if m.generics else ''
    params = ''.join(f', {n}: {t}' for n, t in m.params)
    ret = f' -> {m.ret}' if m.ret else ''
    where = f' where {", ".join(m.where)}' if m.where else ''
    lines += [f'pub fn {m.name}{generics}(&self{params}){ret}{where} {{'] + with_hooks(m) + ['}']
    return lines


def with_hooks(m):
    """The body of `m` with its sanitizer hooks after `let p = self.int_ptr();`: those of its
    C twin, the ordering the type parameter's (scripts/atomic/instrument.py)."""
    order = f'Order::{m.orderings[0][0]}' if len(m.orderings) == 1 else 'order::<O>()'
    old = 'core::ptr::from_ref(old)' if m.c_op == 'try_cmpxchg' else None
    hooks = instrument.rust_lines(m.c_op, m.ret is not None, order=order, old=old,
                                  scalar='<T::Repr as AtomicBasicOps>::SCALAR')
    assert m.body[0] == 'let p = self.int_ptr();', m.name
    return m.body[:1] + hooks + m.body[1:]


def generate(tables):
    """rust/atomic/generated_typed.rs: the typed methods, one impl block per operation trait."""
    methods = [m for op in tables.ops for m in typed_methods(op)]
    out = ['// SPDX-License-Identifier: GPL-2.0', '',
           f'// {GENERATED_BY}',
           '// Regenerate with `make generate` (the test suite fails if this file is stale).', '',
           '//! The operations of [`Atomic<T>`] (the typed spelling), one method per table',
           '//! operation, the ordering a type parameter; each calls the same primitive as its',
           '//! C-named twin in `generated.rs`.', '',
           'use super::instrument::{self, Access};',
           'use super::internal::{AtomicArithmeticOps, AtomicBasicOps, AtomicExchangeOps};',
           'use super::ordering::{self, order, Ordering, OrderingType};',
           'use super::primitive::{Exchange, LoadStore, Order, Primitive, Rmw};',
           'use super::typed::{from_repr, into_repr};',
           'use super::{Atomic, AtomicAdd, AtomicBitwise, AtomicInteger, AtomicSigned, '
           'AtomicType};', '',
           '/// The primitives on `T`\'s representation.',
           'type Prim<T> = <<T as AtomicType>::Repr as AtomicBasicOps>::Prim;']
    for trait in ('AtomicBasicOps', 'AtomicExchangeOps', 'AtomicArithmeticOps'):
        out += ['', f'impl<T: AtomicType> Atomic<T> where T::Repr: {trait} {{']
        for m in methods:
            if m.trait == trait:
                out += render_method(m, tables.types)
        out.append('}')
    return rustfmt('\n'.join(out) + '\n')
