# SPDX-License-Identifier: GPL-2.0
"""What the names of the LKMM C dialect (tools/memory-model/linux-kernel.def) become in Rust on
kernel::sync::atomic and the litmus runner's harness, and the runner's limits."""

HARNESS = 'crate::harness'
ATOMIC = 'crate::atomic'
# The runner's limits (MAX_VARS in tests/kernel/litmus/harness.rs, the others in runner.rs).
MAX_THREADS = 8
MAX_VARS = 16
MAX_REGS = 8        # per thread
MAX_SLOTS = 16


# C types. A number is an `int` (32 bits, as the runner's cells); a word type may also hold
# an address (herd7 does not type-check: `intptr_t r0 = READ_ONCE(*x)` may read a pointer):
# its kind comes from its uses (kinds.py). Qualifiers make no difference to a litmus test.
QUALIFIERS = ('volatile', 'const', 'signed')
NUMBER_TYPES = ('int', 'unsigned', 'unsigned int', 'short', 'unsigned short', 'char',
                'unsigned char', 'bool', '_Bool', 'u8', 'u16', 'u32', 's8', 's16', 's32',
                'atomic_t')
WORD_TYPES = ('long', 'long int', 'unsigned long', 'unsigned long int', 'long long',
              'unsigned long long', 'intptr_t', 'uintptr_t', 'u64', 's64')
OPEN = 'open'       # a word: the kind its uses give it


def split_type(ctype):
    """(base type without qualifiers, number of `*`) of a C type as the parser writes it."""
    words = (ctype or '').replace('*', ' * ').split()
    stars = words.count('*')
    base = ' '.join(w for w in words if w != '*' and w not in QUALIFIERS) or \
        ('int' if 'signed' in words else '')
    return base, stars


def pointee_kind(base, stars):
    """The kind of a location of type `base` with `stars` (0: `int x`, 1: `int *p`), None if
    the runner has no such location."""
    if stars == 0:
        if base in NUMBER_TYPES:
            return 'int'
        if base in WORD_TYPES:
            return OPEN
        return {'spinlock_t': 'lock', 'struct srcu_struct': 'srcu'}.get(base)
    if stars == 1 and (base in NUMBER_TYPES or base in WORD_TYPES):
        return 'ptr'
    return None


def var_kind(ctype, role):
    """The kind of a shared variable declared with `ctype` as a thread parameter
    (role 'param': `int *x` is an int variable) or in the init section (role 'init')."""
    base, stars = split_type(ctype)
    if role == 'param':
        return pointee_kind(base, stars - 1) if stars else None
    return pointee_kind(base, stars)


def base_kind(ctype, role):
    """The kind a declaration fixes ('int' or 'ptr'), None if it leaves it open (or is not a
    register type: the translation says so)."""
    if ctype is None:
        return None
    kind = pointee_kind(*split_type(ctype)) if role == 'register' else var_kind(ctype, role)
    return kind if kind in ('int', 'ptr', 'lock', 'srcu') else None


KIND_C_TYPE = {'int': 'int *', 'ptr': 'int **', 'lock': 'spinlock_t *',
               'srcu': 'struct srcu_struct *'}
VAR_KIND = {'int': 'Int', 'ptr': 'Ptr', 'lock': 'Lock', 'srcu': 'Srcu'}
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
    # asm-generic/barrier.h's __smp_store_mb(): WRITE_ONCE() then smp_mb() (x86's xchg() is
    # as strong); the translation adds the smp_mb().
    'smp_store_mb': ('deref', 'set', True),
}
# The accessors that are the library's RCU-protected pointer's (rust/atomic/rcu.rs: functions
# of C's names on an `RcuPointer`) where the location is a pointer cell.
RCU_POINTER = ('rcu_dereference', 'rcu_assign_pointer')
BARRIERS = ('barrier', 'smp_mb', 'smp_rmb', 'smp_wmb', 'smp_mb__before_atomic',
            'smp_mb__after_atomic', 'smp_mb__after_spinlock')
# The harness's: RCU, and the barriers that are not the atomic API's (include/linux/rcupdate.h,
# include/linux/srcu.h).
RCU = ('rcu_read_lock', 'rcu_read_unlock', 'synchronize_rcu', 'synchronize_rcu_expedited',
       'smp_mb__after_unlock_lock', 'smp_mb__after_srcu_read_unlock')
# SRCU on a `struct srcu_struct *` (the kernel's, in the runner): C name -> (method, the other
# arguments' count, result kind).
SRCU_OPS = {'srcu_read_lock': ('read_lock', 0, 'int'), 'srcu_read_unlock': ('read_unlock', 1, 'void'),
            'srcu_down_read': ('down_read', 0, 'int'), 'srcu_up_read': ('up_read', 1, 'void'),
            'synchronize_srcu': ('synchronize', 0, 'void'),
            'synchronize_srcu_expedited': ('synchronize_expedited', 0, 'void')}
# spin_*(): C name -> (Lock method, result kind).
LOCK_OPS = {'spin_lock': ('lock', 'void'), 'spin_unlock': ('unlock', 'void'),
            'spin_trylock': ('trylock', 'bool'), 'spin_is_locked': ('is_locked', 'bool')}

# What the kernel retired and linux-kernel.def no longer has.
RETIRED = {'lockless_dereference': 'READ_ONCE() orders dependent loads since Linux 4.15',
           'smp_read_barrier_depends': 'folded into READ_ONCE() since Linux 4.15',
           'spin_unlock_wait': 'removed from the kernel in 2017'}

# Names the generated functions use themselves, and Rust keywords that C allows as names.
RESERVED = {'m', 'out', '_', 'None', 'Some', 'Ok', 'Err', 'as', 'async', 'await', 'crate', 'dyn', 'fn', 'impl', 'in', 'let',
            'loop', 'match', 'mod', 'move', 'mut', 'pub', 'ref', 'self', 'Self', 'super',
            'trait', 'true', 'false', 'type', 'unsafe', 'use', 'where', 'abstract', 'become',
            'box', 'final', 'macro', 'override', 'priv', 'typeof', 'unsized', 'virtual',
            'yield', 'try', 'gen'}

PLAIN_NOTE = ['// A plain C access, made a marked one: a plain Rust access that another thread',
              '// may race with would be UB, and the marked access is the strongest form the',
              '// compiler must honour, so it allows a subset of what the C access allows.']
