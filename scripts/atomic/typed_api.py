# SPDX-License-Identifier: GPL-2.0
"""The typed spelling of the operation table (upstream's `Atomic<T>` API, orderings as types),
for scripts/gen-atomics: from each line of scripts/atomic/atomics.tbl, the methods of
`Atomic<T>` (rust/atomic/generated_typed.rs) and their codegen twins (tests/codegen/).

Upstream (Linux 7.2) has `load`, `store`, `xchg`, `cmpxchg`, `add`, `fetch_add` and
`fetch_sub`; every other method is ours, in the same spelling: the C name, the ordering as an
argument of type `Relaxed`, `Acquire`, `Release` or `Full` (or `Relaxed`/`Full` alone where C
has only that ordering), and `Result` only where upstream uses it (`cmpxchg`).
"""

from dataclasses import dataclass, field

from . import instrument

UPSTREAM = {'load', 'store', 'xchg', 'cmpxchg', 'add', 'fetch_add', 'fetch_sub'}
# Table operation -> primitive read-modify-write.
RMW = {'add': 'Add', 'sub': 'Sub', 'and': 'And', 'or': 'Or', 'xor': 'Xor', 'andnot': 'AndNot',
       'inc': 'Add', 'dec': 'Sub'}
BITWISE = {'and', 'or', 'xor', 'andnot'}
# (type parameter for the ordering, its bound, the C suffix of each ordering it allows)
ANY = ('O', 'Ordering')
C_TYPES = ('atomic', 'atomic64', 'atomic_long')


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
    ordering: str               # 'any', 'relaxed', 'full', 'load', 'store'
    trait: str                  # AtomicBasicOps, AtomicExchangeOps, AtomicArithmeticOps
    example: list = field(default_factory=list)

    @property
    def upstream(self):
        return self.name in UPSTREAM


SAFETY = '// SAFETY: `p` is the `Atomic`\'s own valid, aligned value, accessed only atomically.'
FROM = ('// SAFETY: The value comes from `self.0`, a valid `T` per the type invariants (every '
        'store keeps it one).')


def ret_value(expr):
    return [f'let v = {{ {SAFETY}', f'unsafe {{ {expr} }} }};', FROM,
            'unsafe { from_repr(<T::Repr as AtomicBasicOps>::from_int(v)) }']


def rhs(kind):
    """The delta of argument `v`, as the primitives' integer."""
    conv = 'rhs_into_bits' if kind == 'bits' else 'rhs_into_delta'
    return f'let v = <T::Repr as AtomicArithmeticOps>::delta_into_int(T::{conv}(v));'


def typed_methods(op, meta):
    """The typed methods of one table line."""
    out = []
    if op == 'read':
        body = ['let p = self.int_ptr();', SAFETY,
                '// `AcquireOrRelaxed`: acquire, or else relaxed.',
                'let v = unsafe { if matches!(O::TYPE, OrderingType::Acquire) {',
                'Prim::<T>::read_acquire(p) } else { Prim::<T>::read(p) } };', FROM,
                'unsafe { from_repr(<T::Repr as AtomicBasicOps>::from_int(v)) }']
        out.append(TypedMethod('load', 'read', ['O: ordering::AcquireOrRelaxed'], [('_', 'O')],
                               'T', [], body, 'Loads the value from the atomic `T`.', 'load',
                               'AtomicBasicOps'))
    elif op == 'set':
        body = ['let p = self.int_ptr();',
                'let v = <T::Repr as AtomicBasicOps>::into_int(into_repr(v));',
                '// INVARIANT: `v` is a valid `T`.', '// `ReleaseOrRelaxed`: release, or else relaxed.',
                SAFETY, 'unsafe { if matches!(O::TYPE, OrderingType::Release) {',
                'Prim::<T>::set_release(p, v) } else { Prim::<T>::set(p, v) } }']
        out.append(TypedMethod('store', 'set', ['O: ordering::ReleaseOrRelaxed'],
                               [('v', 'T'), ('_', 'O')], None, [], body,
                               'Stores a value to the atomic `T`.', 'store', 'AtomicBasicOps'))
    elif op == 'xchg':
        body = ['let p = self.int_ptr();',
                'let v = <T::Repr as AtomicBasicOps>::into_int(into_repr(v));',
                '// INVARIANT: `v` is a valid `T`.']
        body += ret_value('Prim::<T>::xchg(p, v, order::<O>())')
        out.append(TypedMethod('xchg', 'xchg', ['O: Ordering'], [('v', 'T'), ('_', 'O')], 'T',
                               [], body, 'Atomic exchange.\n\nAtomically updates `*self` to `v` '
                               'and returns the old value of `*self`.', 'any',
                               'AtomicExchangeOps'))
    elif op == 'cmpxchg':
        body = ['let p = self.int_ptr();',
                'let expected = <T::Repr as AtomicBasicOps>::into_int(into_repr(old));',
                'let new = <T::Repr as AtomicBasicOps>::into_int(into_repr(new));',
                '// INVARIANT: `new` is a valid `T`.',
                '// C\'s `cmpxchg()`, which returns the value found: with `.unwrap_or_else(|v| v)`,',
                '// exactly C\'s instructions (`try_cmpxchg()` is the form that returns whether it',
                '// stored).', SAFETY,
                'let found = unsafe { Prim::<T>::cmpxchg(p, expected, new, order::<O>()) };',
                'if found == expected {', 'Ok(old)', '} else {', FROM,
                'Err(unsafe { from_repr(<T::Repr as AtomicBasicOps>::from_int(found)) })', '}']
        doc = ('Atomic compare and exchange.\n\nIf `*self` == `old`, atomically updates `*self` '
               'to `new`. Otherwise, `*self` is not modified.\n\nCompare: The comparison is done '
               'via the byte level comparison between `*self` and `old`.\n\nOrdering: When '
               'succeeds, provides the corresponding ordering as the `Ordering` type parameter '
               'indicates, and a failed one doesn\'t provide any ordering, the load part of a '
               'failed cmpxchg is a [`Relaxed`] load.\n\nReturns `Ok(value)` if cmpxchg '
               'succeeds, and `value` is guaranteed to be equal to `old`, otherwise returns '
               '`Err(value)`, and `value` is the current value of `*self`.')
        out.append(TypedMethod('cmpxchg', 'cmpxchg', ['O: Ordering'],
                               [('old', 'T'), ('new', 'T'), ('_', 'O')], 'Result<T, T>', [],
                               body, doc, 'any', 'AtomicExchangeOps'))
    elif op == 'try_cmpxchg':
        body = ['let p = self.int_ptr();',
                'let mut found = <T::Repr as AtomicBasicOps>::into_int(into_repr(*old));',
                'let new = <T::Repr as AtomicBasicOps>::into_int(into_repr(new));',
                '// INVARIANT: `new` is a valid `T`.', SAFETY,
                'let stored = unsafe { Prim::<T>::try_cmpxchg(p, &mut found, new, '
                'order::<O>()) };', FROM,
                '*old = unsafe { from_repr(<T::Repr as AtomicBasicOps>::from_int(found)) };',
                'stored']
        doc = ('Atomic compare and exchange that returns whether it stored: if `*self` == '
               '`*old`, atomically updates `*self` to `new`; otherwise `*self` is not modified '
               'and `*old` is updated to the current value of `*self` (C\'s `try_cmpxchg()`: a '
               'retry loop needs no extra load). "Compare" and "Ordering" are as for '
               '[`Atomic::cmpxchg()`].')
        out.append(TypedMethod('try_cmpxchg', 'try_cmpxchg', ['O: Ordering'],
                               [('old', '&mut T'), ('new', 'T'), ('_', 'O')], 'bool', [], body,
                               doc, 'any', 'AtomicExchangeOps'))
    elif op in RMW and op not in ('inc', 'dec'):
        out += arithmetic(op, meta)
    elif op in ('inc', 'dec'):
        out += inc_dec(op, meta)
    else:
        out += conditional(op)
    return out


def arithmetic(op, meta):
    """add, sub, and, or, xor, andnot: void, `_return` and `fetch_` forms."""
    kind = 'bits' if op in BITWISE else 'delta'
    bound = 'AtomicBitwise<Rhs>' if kind == 'bits' else 'AtomicAdd<Rhs>'
    what = {'add': 'adds `v` to', 'sub': 'subtracts `v` from', 'and': 'ANDs `v` into',
            'or': 'ORs `v` into', 'xor': 'XORs `v` into',
            'andnot': 'ANDs the complement of `v` into'}[op]
    out = []
    for ch in meta:
        if ch == 'v':
            body = ['let p = self.int_ptr();', rhs(kind),
                    f'// INVARIANT: `self.0` stays a valid `T` per the safety requirement of '
                    f'`{bound.split("<")[0]}`.', SAFETY,
                    f'unsafe {{ Prim::<T>::rmw(p, Rmw::{RMW[op]}, v) }}']
            out.append(TypedMethod(op, op, ['Rhs'], [('v', 'Rhs'), ('_', 'ordering::Relaxed')],
                                   None, [f'T: {bound}'], body,
                                   f'Atomically {what} `*self` (wrapping); returns nothing.',
                                   'relaxed', 'AtomicArithmeticOps'))
        elif ch == 'R':
            body = ['let p = self.int_ptr();', rhs(kind)]
            body += ret_value(f'Prim::<T>::rmw_return(p, Rmw::{RMW[op]}, v, order::<O>())')
            out.append(TypedMethod(f'{op}_return', f'{op}_return', ['Rhs', 'O: Ordering'],
                                   [('v', 'Rhs'), ('_', 'O')], 'T', [f'T: {bound}'], body,
                                   f'Atomically {what} `*self` (wrapping) and returns the new '
                                   'value.', 'any', 'AtomicArithmeticOps'))
        elif ch in 'F':
            body = ['let p = self.int_ptr();', rhs(kind)]
            body += ret_value(f'Prim::<T>::fetch_rmw(p, Rmw::{RMW[op]}, v, order::<O>())')
            out.append(TypedMethod(f'fetch_{op}', f'fetch_{op}', ['Rhs', 'O: Ordering'],
                                   [('v', 'Rhs'), ('_', 'O')], 'T', [f'T: {bound}'], body,
                                   f'Atomically {what} `*self` (wrapping) and returns the value '
                                   'of `*self` before the update.', 'any',
                                   'AtomicArithmeticOps'))
    return out


def inc_dec(op, meta):
    what = 'adds one to' if op == 'inc' else 'subtracts one from'
    out = []
    for ch in meta:
        if ch == 'v':
            body = ['let p = self.int_ptr();', SAFETY, f'unsafe {{ Prim::<T>::{op}(p) }}']
            out.append(TypedMethod(op, op, [], [('_', 'ordering::Relaxed')], None,
                                   ['T: AtomicInteger'], body,
                                   f'Atomically {what} `*self` (wrapping); returns nothing.',
                                   'relaxed', 'AtomicArithmeticOps'))
        elif ch == 'R':
            body = ['let p = self.int_ptr();']
            body += ret_value(f'Prim::<T>::rmw_return_one(p, Rmw::{RMW[op]}, order::<O>())')
            out.append(TypedMethod(f'{op}_return', f'{op}_return', ['O: Ordering'],
                                   [('_', 'O')], 'T', ['T: AtomicInteger'], body,
                                   f'Atomically {what} `*self` (wrapping) and returns the new '
                                   'value.', 'any', 'AtomicArithmeticOps'))
        elif ch == 'F':
            body = ['let p = self.int_ptr();']
            body += ret_value(f'Prim::<T>::fetch_rmw_one(p, Rmw::{RMW[op]}, order::<O>())')
            out.append(TypedMethod(f'fetch_{op}', f'fetch_{op}', ['O: Ordering'], [('_', 'O')],
                                   'T', ['T: AtomicInteger'], body,
                                   f'Atomically {what} `*self` (wrapping) and returns the value '
                                   'before the update.', 'any', 'AtomicArithmeticOps'))
    return out


def conditional(op):
    """The `*_and_test`, `add_negative`, `*_unless` and `*_if_*` operations."""
    bool_body = {
        'sub_and_test': (['Rhs'], [('v', 'Rhs')], ['T: AtomicAdd<Rhs>'], 'delta',
                         'Prim::<T>::sub_and_test(p, v)',
                         'Atomically subtracts `v` from `*self`; returns whether the result is '
                         'zero.'),
        'dec_and_test': ([], [], ['T: AtomicInteger'], None, 'Prim::<T>::dec_and_test(p)',
                         'Atomically subtracts one from `*self`; returns whether the result is '
                         'zero.'),
        'inc_and_test': ([], [], ['T: AtomicInteger'], None, 'Prim::<T>::inc_and_test(p)',
                         'Atomically adds one to `*self`; returns whether the result is zero.'),
        'inc_not_zero': ([], [], ['T: AtomicInteger'], None,
                         'Prim::<T>::inc_not_zero(p)',
                         'Atomically adds one to `*self` unless it is zero; returns whether it '
                         'added (taking a reference only while the object is alive). Fully '
                         'ordered if it adds; if not, relaxed.'),
        'inc_unless_negative': ([], [], ['T: AtomicInteger + AtomicSigned'], None,
                                'Prim::<T>::inc_unless_negative(p)',
                                'Atomically adds one to `*self` unless it is negative; returns '
                                'whether it added. Fully ordered if it adds; if not, relaxed.'),
        'dec_unless_positive': ([], [], ['T: AtomicInteger + AtomicSigned'], None,
                                'Prim::<T>::dec_unless_positive(p)',
                                'Atomically subtracts one from `*self` unless it is positive; '
                                'returns whether it subtracted. Fully ordered if it subtracts; '
                                'if not, relaxed.'),
    }
    if op in bool_body:
        generics, params, where, kind, call, doc = bool_body[op]
        body = ['let p = self.int_ptr();'] + ([rhs(kind)] if kind else []) + \
            ['// INVARIANT: `self.0` stays a valid `T` per the safety requirement of '
             f'`{"AtomicAdd" if kind else "AtomicInteger"}`.',
             SAFETY, f'unsafe {{ {call} }}']
        return [TypedMethod(op, op, generics, params + [('_', 'ordering::Full')], 'bool', where,
                            body, doc, 'full', 'AtomicArithmeticOps')]
    if op == 'add_negative':
        body = ['let p = self.int_ptr();', rhs('delta'), SAFETY,
                'unsafe { Prim::<T>::add_negative(p, v, order::<O>()) }']
        return [TypedMethod(op, op, ['Rhs', 'O: Ordering'], [('v', 'Rhs'), ('_', 'O')], 'bool',
                            ['T: AtomicAdd<Rhs> + AtomicSigned'], body,
                            'Atomically adds `v` to `*self` (wrapping); returns whether the '
                            'result is negative.', 'any', 'AtomicArithmeticOps')]
    if op == 'add_unless':
        pre = ['let p = self.int_ptr();',
               'let a = <T::Repr as AtomicArithmeticOps>::delta_into_int(T::rhs_into_delta(a));',
               'let u = <T::Repr as AtomicBasicOps>::into_int(into_repr(u));']
        fetch = pre + ret_value('Prim::<T>::fetch_add_unless(p, a, u)')
        test = pre + [SAFETY, 'unsafe { Prim::<T>::fetch_add_unless(p, a, u) != u }']
        params = [('a', 'Rhs'), ('u', 'T'), ('_', 'ordering::Full')]
        return [TypedMethod('fetch_add_unless', 'fetch_add_unless', ['Rhs'], params, 'T',
                            ['T: AtomicAdd<Rhs>'], fetch,
                            'Atomically adds `a` to `*self` unless it is `u`; returns the value '
                            'before. Fully ordered if it adds; if not, relaxed.', 'full',
                            'AtomicArithmeticOps'),
                TypedMethod('add_unless', 'add_unless', ['Rhs'], params, 'bool',
                            ['T: AtomicAdd<Rhs>'], test,
                            'Atomically adds `a` to `*self` unless it is `u`; returns whether it '
                            'added. Fully ordered if it adds; if not, relaxed.', 'full',
                            'AtomicArithmeticOps')]
    if op == 'dec_if_positive':
        body = ['let p = self.int_ptr();'] + ret_value('Prim::<T>::dec_if_positive(p)')
        return [TypedMethod(op, op, [], [('_', 'ordering::Full')], 'T',
                            ['T: AtomicInteger + AtomicSigned'], body,
                            'Atomically subtracts one from `*self` unless the result would be '
                            'negative; returns the old value minus one either way. Fully ordered '
                            'if it stores; if not, relaxed.', 'full', 'AtomicArithmeticOps')]
    raise ValueError(f'no typed method for table operation {op}')


# Each ordering a method allows: (the argument to pass, the C name suffix).
ORDERINGS = {'any': [('Full', ''), ('Acquire', '_acquire'), ('Release', '_release'),
                     ('Relaxed', '_relaxed')],
             'load': [('Relaxed', ''), ('Acquire', '_acquire')],
             'store': [('Relaxed', ''), ('Release', '_release')],
             'relaxed': [('Relaxed', '')], 'full': [('Full', '')]}


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


def c_aliases(m):
    orders = ORDERINGS[m.ordering]
    return [f'{t}_{m.c_op}{sfx}' for t in C_TYPES for _, sfx in orders]


def render_method(m):
    from textwrap import wrap
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
    aliases = ', '.join(f'"{a}"' for a in c_aliases(m))
    lines += [f'#[doc(alias({aliases}))]', '#[inline(always)]']
    generics = f'<{", ".join(m.generics)}>' if m.generics else ''
    params = ''.join(f', {n}: {t}' for n, t in m.params)
    ret = f' -> {m.ret}' if m.ret else ''
    where = f' where {", ".join(m.where)}' if m.where else ''
    lines += [f'pub fn {m.name}{generics}(&self{params}){ret}{where} {{'] + with_hooks(m) + ['}']
    return lines


def with_hooks(m):
    """The body of `m` with its sanitizer hooks after `let p = self.int_ptr();`: those of its
    C twin, the ordering the type parameter's (scripts/lkmm/instrument.py)."""
    order = {'relaxed': 'Order::Relaxed', 'full': 'Order::Full'}.get(m.ordering, 'order::<O>()')
    old = 'core::ptr::from_ref(old)' if m.c_op == 'try_cmpxchg' else None
    hooks = instrument.rust_lines(m.c_op, m.ret is not None, order=order, old=old,
                                  scalar='<T::Repr as AtomicBasicOps>::SCALAR')
    assert m.body[0] == 'let p = self.int_ptr();', m.name
    return m.body[:1] + hooks + m.body[1:]


def render(ops, rustfmt):
    """rust/atomic/generated_typed.rs: the typed methods, one impl block per operation trait."""
    methods = [m for name, meta, _args, _signed in ops for m in typed_methods(name, meta)]
    out = ['// SPDX-License-Identifier: GPL-2.0', '',
           '// Generated by scripts/gen-atomics from scripts/atomic/atomics.tbl: do not edit.',
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
                out += render_method(m)
        out.append('}')
    return rustfmt('\n'.join(out) + '\n')
