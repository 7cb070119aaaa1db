# SPDX-License-Identifier: GPL-2.0
"""The doc examples of the C-named methods (rust/atomic/generated.rs): statements on a
variable `v`, with `{m}` the method's name, keyed by the method's form (its name without the
ordering). All values fit every type of types.tbl and give the same results in each."""

EXAMPLES = {
    'read': ('42', ['assert_eq!(v.{m}(), 42);']),
    'set': ('0', ['v.{m}(42);', 'assert_eq!(v.read(), 42);']),
    'add': ('40', ['v.{m}(2);', 'assert_eq!(v.read(), 42);']),
    'sub': ('44', ['v.{m}(2);', 'assert_eq!(v.read(), 42);']),
    'inc': ('41', ['v.{m}();', 'assert_eq!(v.read(), 42);']),
    'dec': ('43', ['v.{m}();', 'assert_eq!(v.read(), 42);']),
    'and': ('0b1100', ['v.{m}(0b1010);', 'assert_eq!(v.read(), 0b1000);']),
    'andnot': ('0b1100', ['v.{m}(0b1010);', 'assert_eq!(v.read(), 0b0100);']),
    'or': ('0b1100', ['v.{m}(0b1010);', 'assert_eq!(v.read(), 0b1110);']),
    'xor': ('0b1100', ['v.{m}(0b1010);', 'assert_eq!(v.read(), 0b0110);']),
    'add_return': ('40', ['assert_eq!(v.{m}(2), 42);', 'assert_eq!(v.read(), 42);']),
    'sub_return': ('44', ['assert_eq!(v.{m}(2), 42);', 'assert_eq!(v.read(), 42);']),
    'inc_return': ('41', ['assert_eq!(v.{m}(), 42);', 'assert_eq!(v.read(), 42);']),
    'dec_return': ('43', ['assert_eq!(v.{m}(), 42);', 'assert_eq!(v.read(), 42);']),
    'fetch_add': ('40', ['assert_eq!(v.{m}(2), 40);', 'assert_eq!(v.read(), 42);']),
    'fetch_sub': ('44', ['assert_eq!(v.{m}(2), 44);', 'assert_eq!(v.read(), 42);']),
    'fetch_inc': ('41', ['assert_eq!(v.{m}(), 41);', 'assert_eq!(v.read(), 42);']),
    'fetch_dec': ('43', ['assert_eq!(v.{m}(), 43);', 'assert_eq!(v.read(), 42);']),
    'fetch_and': ('0b1100', ['assert_eq!(v.{m}(0b1010), 0b1100);', 'assert_eq!(v.read(), 0b1000);']),
    'fetch_andnot': ('0b1100', ['assert_eq!(v.{m}(0b1010), 0b1100);', 'assert_eq!(v.read(), 0b0100);']),
    'fetch_or': ('0b1100', ['assert_eq!(v.{m}(0b1010), 0b1100);', 'assert_eq!(v.read(), 0b1110);']),
    'fetch_xor': ('0b1100', ['assert_eq!(v.{m}(0b1010), 0b1100);', 'assert_eq!(v.read(), 0b0110);']),
    'xchg': ('1', ['assert_eq!(v.{m}(2), 1);', 'assert_eq!(v.read(), 2);']),
    'cmpxchg': ('1', ['assert_eq!(v.{m}(1, 2), 1);', 'assert_eq!(v.read(), 2);',
                      '// The value is not 1 any more: no store, and the value found returned.',
                      'assert_eq!(v.{m}(1, 3), 2);', 'assert_eq!(v.read(), 2);']),
    'try_cmpxchg': ('1', ['let mut old = 1;', 'assert!(v.{m}(&mut old, 2));',
                          'assert_eq!(v.read(), 2);',
                          '// The value is not 1 any more: no store, and `old` updated to it.',
                          'old = 1;', 'assert!(!v.{m}(&mut old, 3));', 'assert_eq!(old, 2);']),
    'sub_and_test': ('3', ['assert!(!v.{m}(2));', 'assert!(v.{m}(1));', 'assert_eq!(v.read(), 0);']),
    'dec_and_test': ('2', ['assert!(!v.{m}());', 'assert!(v.{m}());', 'assert_eq!(v.read(), 0);']),
    'inc_and_test': ('{neg2}', ['assert!(!v.{m}());', 'assert!(v.{m}());', 'assert_eq!(v.read(), 0);']),
    'add_negative': ('1', ['assert!(!v.{m}(-1));', 'assert!(v.{m}(-1));', 'assert_eq!(v.read(), -1);']),
    'fetch_add_unless': ('1', ['assert_eq!(v.{m}(1, 0), 1);', 'assert_eq!(v.read(), 2);',
                               'v.set(0);', 'assert_eq!(v.{m}(1, 0), 0);', 'assert_eq!(v.read(), 0);']),
    'add_unless': ('1', ['assert!(v.{m}(1, 0));', 'assert_eq!(v.read(), 2);',
                         'v.set(0);', 'assert!(!v.{m}(1, 0));', 'assert_eq!(v.read(), 0);']),
    'inc_not_zero': ('0', ['assert!(!v.{m}());', 'assert_eq!(v.read(), 0);',
                           'v.set(1);', 'assert!(v.{m}());', 'assert_eq!(v.read(), 2);']),
    'inc_unless_negative': ('-1', ['assert!(!v.{m}());', 'assert_eq!(v.read(), -1);',
                                   'v.set(0);', 'assert!(v.{m}());', 'assert_eq!(v.read(), 1);']),
    'dec_unless_positive': ('1', ['assert!(!v.{m}());', 'assert_eq!(v.read(), 1);',
                                  'v.set(0);', 'assert!(v.{m}());', 'assert_eq!(v.read(), -1);']),
    'dec_if_positive': ('1', ['assert_eq!(v.{m}(), 0);', 'assert_eq!(v.read(), 0);',
                              '// Would go negative: no store, and the would-be result returned.',
                              'assert_eq!(v.{m}(), -1);', 'assert_eq!(v.read(), 0);']),
}

# Those of AtomicBool, replacing those of EXAMPLES.
BOOL_EXAMPLES = {
    'read': ('true', ['assert!(v.{m}());']),
    'set': ('false', ['v.{m}(true);', 'assert!(v.read());']),
    'xchg': ('false', ['assert!(!v.{m}(true));', 'assert!(v.read());']),
    'cmpxchg': ('false', ['assert!(!v.{m}(false, true));', 'assert!(v.read());',
                          '// The value is not false any more: no store, and the value found returned.',
                          'assert!(v.{m}(false, false));', 'assert!(v.read());']),
    'try_cmpxchg': ('false', ['let mut old = false;', 'assert!(v.{m}(&mut old, true));',
                              'assert!(v.read());',
                              '// The value is not false any more: no store, and `old` updated to it.',
                              'old = false;', 'assert!(!v.{m}(&mut old, false));', 'assert!(old);']),
}

# Extra examples kept from the seed series (Boqun Feng's WIP), on AtomicI32 only.
SEED_EXAMPLES = {
    'fetch_add_relaxed': ['', 'let a = AtomicI32::new(0);', 'let b = a.fetch_add_relaxed(1);',
                          'let c = a.fetch_add_relaxed(2);', '', 'assert_eq!(b, 0);',
                          'assert_eq!(c, 1);'],
    'fetch_sub_release': ['', 'let a = AtomicI32::new(1);', 'let b = a.fetch_sub_release(1);',
                          'let c = a.fetch_sub_release(2);', 'let d = a.fetch_sub_release(3);',
                          'let e = a.fetch_sub_release(i32::MIN);', '', 'assert_eq!(b, 1);',
                          'assert_eq!(c, 0);', 'assert_eq!(d, -2);', 'assert_eq!(e, -5);'],
}


def example(t, form, name):
    """The doc example of method `name` (of form `form`) of type `t` (a line of types.tbl): the
    variable's initial value and the statements, `{m}` replaced, plus any seed example."""
    init, stmts = (BOOL_EXAMPLES if t.value == 'bool' else EXAMPLES)[form]
    init = init.replace('{neg2}', '-2' if t.signed else f'{t.value}::MAX - 1')
    seed = SEED_EXAMPLES.get(name, []) if t.rust == 'AtomicI32' else []
    return init, [x.format(m=name) for x in stmts], seed
