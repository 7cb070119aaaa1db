# SPDX-License-Identifier: GPL-2.0
"""What the names of the LKMM C dialect (tools/memory-model/linux-kernel.def) become in Rust on
kernel::sync::atomic and the litmus runner's harness, and the runner's limits."""

HARNESS = 'crate::harness'
ATOMIC = 'crate::atomic'
# The runner's limits (MAX_VARS in samples/litmus/harness.rs, the others in runner.rs).
MAX_THREADS = 8
MAX_VARS = 8
MAX_REGS = 8        # per thread
MAX_SLOTS = 16


# Shared-variable kinds, by their type as a thread parameter and in the init section.
PARAM_TYPES = {'int *': 'int', 'atomic_t *': 'int', 'int **': 'ptr', 'spinlock_t *': 'lock'}
INIT_TYPES = {'int': 'int', 'atomic_t': 'int', 'int *': 'ptr', 'spinlock_t': 'lock'}
KIND_C_TYPE = {'int': 'int *', 'ptr': 'int **', 'lock': 'spinlock_t *'}
VAR_KIND = {'int': 'Int', 'ptr': 'Ptr', 'lock': 'Lock'}
# Register types.
REG_TYPES = {'int': 'int', 'int *': 'ptr'}
RUST_REG_TYPE = {'int': 'i32', 'ptr': 'usize'}

# READ_ONCE() and friends: C name -> (location form, method, stores). A 'deref' location is
# written `*x`, a 'ptr' one `x`, as in linux-kernel.def.
ACCESSORS = {
    'READ_ONCE': ('deref', 'read', False),
    'WRITE_ONCE': ('deref', 'set', True),
    'smp_load_acquire': ('ptr', 'read_acquire', False),
    'smp_store_release': ('ptr', 'set_release', True),
    'rcu_dereference': ('deref', 'read', False),
    'rcu_assign_pointer': ('deref', 'set_release', True),
}
BARRIERS = ('barrier', 'smp_mb', 'smp_rmb', 'smp_wmb', 'smp_mb__before_atomic',
            'smp_mb__after_atomic', 'smp_mb__after_spinlock')
RCU = ('rcu_read_lock', 'rcu_read_unlock', 'synchronize_rcu')
# spin_*(): C name -> (Lock method, result kind).
LOCK_OPS = {'spin_lock': ('lock', 'void'), 'spin_unlock': ('unlock', 'void'),
            'spin_trylock': ('trylock', 'bool'), 'spin_is_locked': ('is_locked', 'bool')}

# Names the generated functions use themselves, and Rust keywords that C allows as names.
RESERVED = {'m', 'out', 'as', 'async', 'await', 'crate', 'dyn', 'fn', 'impl', 'in', 'let',
            'loop', 'match', 'mod', 'move', 'mut', 'pub', 'ref', 'self', 'Self', 'super',
            'trait', 'true', 'false', 'type', 'unsafe', 'use', 'where', 'abstract', 'become',
            'box', 'final', 'macro', 'override', 'priv', 'typeof', 'unsized', 'virtual',
            'yield', 'try', 'gen'}

PLAIN_NOTE = ['// A plain C access, made a marked one: a plain Rust access that another thread',
              '// may race with would be UB, and the marked access is the strongest form the',
              '// compiler must honour, so it allows a subset of what the C access allows.']
