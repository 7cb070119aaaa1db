// SPDX-License-Identifier: GPL-2.0

//! The in-kernel runner's harness (`samples/rust_atomic_litmus.rs`): where the shared variables
//! of the running test's instances live, and `rcu_read_lock()` and friends.
//!
//! `scripts/litmus2rust` turns each LKMM litmus test (`tools/memory-model/litmus-tests/`) into
//! one [`Test`] (`test.rs`): its shared variables, one function per litmus thread, and its
//! final-state clause. A thread function runs the litmus thread's body once, on one
//! [`Instance`] of the shared variables, and leaves its registers in `out`; every access to a
//! shared variable goes through `kernel::sync::atomic` (this crate's `atomic` module), the
//! library under test.

use crate::atomic::{AtomicI32, AtomicUsize};

#[path = "test.rs"]
mod test;
pub(crate) use test::*;

/// Most shared variables of one test.
pub(crate) const MAX_VARS: usize = 8;
/// Most instances of a test run at once (the `batch` parameter's limit).
pub(crate) const MAX_BATCH: usize = 512;

/// The shared variables of every instance of the running test, struct-of-arrays as klitmus7
/// lays them out: `INTS[v][i]` is `int` variable `v` of instance `i`, so the variables of one
/// instance are on different cache lines, and one variable of neighbouring instances shares one.
///
/// Only one test runs at a time; between batches the runner's thread 0 reads and resets them
/// while the other threads wait (see `runner.rs`).
static INTS: [[AtomicI32; MAX_BATCH]; MAX_VARS] =
    [const { [const { AtomicI32::new(0) }; MAX_BATCH] }; MAX_VARS];
static PTRS: [[AtomicUsize; MAX_BATCH]; MAX_VARS] =
    [const { [const { AtomicUsize::new(0) }; MAX_BATCH] }; MAX_VARS];
static LOCKS: [[Lock; MAX_BATCH]; MAX_VARS] =
    [const { [const { Lock(AtomicI32::new(0)) }; MAX_BATCH] }; MAX_VARS];

/// Where a wild pointer (see [`Instance::deref`]) reads and writes, instead of at random.
static WILD_CELL: AtomicI32 = AtomicI32::new(0);

/// One instance of a test's shared variables: what the litmus threads' parameters point to.
///
/// # Invariants
///
/// `index < MAX_BATCH`.
#[derive(Clone, Copy)]
pub(crate) struct Instance<'a> {
    index: usize,
    /// Set when a thread dereferences an address that is no `int` variable of any instance.
    wild: &'a core::sync::atomic::AtomicBool,
}

impl<'a> Instance<'a> {
    /// Instance number `index`; `wild` records wild dereferences.
    pub(crate) fn new(index: usize, wild: &'a core::sync::atomic::AtomicBool) -> Self {
        assert!(index < MAX_BATCH);
        // INVARIANT: Checked above.
        Self { index, wild }
    }

    /// `int` (or `atomic_t`) variable number `v`.
    #[inline(always)]
    pub(crate) fn int(&self, v: usize) -> &'static AtomicI32 {
        &INTS[v][self.index]
    }

    /// `int *` variable number `v`: it holds an address (0 is NULL).
    #[inline(always)]
    pub(crate) fn ptr(&self, v: usize) -> &'static AtomicUsize {
        &PTRS[v][self.index]
    }

    /// `spinlock_t` variable number `v`.
    #[inline(always)]
    pub(crate) fn lock(&self, v: usize) -> &'static Lock {
        &LOCKS[v][self.index]
    }

    /// The address of `int` variable number `v` (C: `x` where the parameter is `int *x`).
    #[inline(always)]
    pub(crate) fn addr(&self, v: usize) -> usize {
        self.int(v).as_ptr() as usize
    }

    /// The `int` at address `addr` (C: `*r0`), which must be an `int` variable of some
    /// instance; any other address reads and writes a dummy and marks the run as wild.
    ///
    /// The reference is made from `addr` itself, not looked up, so that the access keeps the
    /// address dependency on the load that produced `addr` (which `rcu_dereference()` relies
    /// on); the range check is only a control dependency beside it.
    #[inline(always)]
    pub(crate) fn deref(&self, addr: usize) -> &'static AtomicI32 {
        let base = INTS.as_ptr() as usize;
        let in_range = addr >= base && addr < base + core::mem::size_of_val(&INTS);
        if in_range && addr % core::mem::align_of::<AtomicI32>() == 0 {
            // SAFETY: `addr` is within `INTS`, aligned: it is one of its `'static` cells.
            unsafe { AtomicI32::from_ptr(addr as *mut i32) }
        } else {
            self.wild.store(true, core::sync::atomic::Ordering::Relaxed);
            &WILD_CELL
        }
    }

    /// The index of the variable of this instance that `addr` points to, [`NULL`] for 0,
    /// [`WILD`] for any other address: how a pointer appears in the final state.
    pub(crate) fn pointee(&self, vars: &[Var], addr: usize) -> i64 {
        if addr == 0 {
            return NULL;
        }
        (0..vars.len())
            .find(|&v| vars[v].kind == VarKind::Int && self.addr(v) == addr)
            .map_or(WILD, |v| v as i64)
    }

    /// Sets every variable of this instance to its initial value.
    pub(crate) fn reset(&self, vars: &[Var]) {
        for (v, var) in vars.iter().enumerate() {
            match (var.kind, var.init) {
                (VarKind::Int, Init::Int(i)) => self.int(v).set(i),
                (VarKind::Ptr, Init::Int(_)) => self.ptr(v).set(0),
                (VarKind::Ptr, Init::Addr(w)) => self.ptr(v).set(self.addr(w)),
                (VarKind::Lock, _) => self.lock(v).0.set(0),
                (VarKind::Int, Init::Addr(w)) => self.int(v).set(self.addr(w) as i32),
            }
        }
    }

    /// The final value of variable number `v`, as the final state holds it.
    pub(crate) fn final_value(&self, vars: &[Var], v: usize) -> i64 {
        match vars[v].kind {
            VarKind::Int => i64::from(self.int(v).read()),
            VarKind::Ptr => self.pointee(vars, self.ptr(v).read()),
            VarKind::Lock => i64::from(self.lock(v).is_locked()),
        }
    }
}

/// `rcu_read_lock()`: the kernel's own where its kernel crate has it (Linux 7:
/// `rust/helpers/rcu.c`, whatever the preemption model). Linux 6.12's has no RCU helper; its
/// test kernels are built without preemption (`CONFIG_PREEMPT_NONE`, no `CONFIG_PREEMPT_COUNT`),
/// where C's `rcu_read_lock()` is `preempt_disable()`, that is `barrier()`: a reader is a region
/// without a context switch, and a litmus thread never sleeps inside one.
#[inline(always)]
pub(crate) fn rcu_read_lock() {
    #[cfg(kernel_7)]
    // SAFETY: A litmus thread is a kthread; it unlocks what it locked before it returns.
    unsafe {
        kernel::bindings::rcu_read_lock()
    };
    #[cfg(not(kernel_7))]
    crate::atomic::barrier();
}

/// `rcu_read_unlock()`: as [`rcu_read_lock`].
#[inline(always)]
pub(crate) fn rcu_read_unlock() {
    #[cfg(kernel_7)]
    // SAFETY: Ends the read-side section the thread's `rcu_read_lock()` began.
    unsafe {
        kernel::bindings::rcu_read_unlock()
    };
    #[cfg(not(kernel_7))]
    crate::atomic::barrier();
}

/// `synchronize_rcu()`: waits for every reader that started before it.
pub(crate) fn synchronize_rcu() {
    // SAFETY: Called from a kthread, which may sleep.
    unsafe { kernel::bindings::synchronize_rcu() };
}

#[cfg(all(CONFIG_PREEMPT_COUNT, not(kernel_7)))]
compile_error!("rcu_read_lock() here assumes a Linux 6.12 kernel without CONFIG_PREEMPT_COUNT");
