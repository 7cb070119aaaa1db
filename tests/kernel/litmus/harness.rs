// SPDX-License-Identifier: GPL-2.0

//! The in-kernel runner's harness (`tests/kernel/rust_atomic_litmus.rs`): where the shared variables
//! of the running test's instances live, how a `spin_lock()` that cannot succeed gives up, the
//! kernel's SRCU, and `rcu_read_lock()` and friends.
//!
//! `scripts/memory-model/litmus2rust` turns each LKMM litmus test (`tools/memory-model/litmus-tests/`) into
//! one [`Test`] (`test.rs`): its shared variables, one function per litmus thread, and its
//! final-state clause. A thread function runs the litmus thread's body once, on one
//! [`Instance`] of the shared variables, and leaves its registers in `out`; every access to a
//! shared variable goes through `kernel::sync::atomic` (this crate's `atomic` module), the
//! library under test.

use crate::atomic::{AtomicI32, AtomicUsize};
use core::sync::atomic::{fence, AtomicBool, Ordering};
use kernel::{
    bindings,
    error::{Error, Result},
    types::Opaque,
};

#[path = "test.rs"]
mod test;
pub(crate) use test::*;

/// Most shared variables of one test.
pub(crate) const MAX_VARS: usize = 16;
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
/// The same for [`Instance::deref_ptr`].
static WILD_PTR: AtomicUsize = AtomicUsize::new(0);

/// What the threads of one run share besides the variables: whether one dereferenced a wild
/// pointer, and what a `spin_lock()` needs to tell a lock that no thread can release any more.
///
/// Like the runner's own synchronization, it uses `core::sync::atomic`, never the library under
/// test (a mutation-test build breaks the library on purpose).
pub(crate) struct Progress {
    /// Set when a thread dereferences an address that is no `int` variable of any instance.
    pub(crate) wild: AtomicBool,
    /// The number of threads of the test.
    threads: usize,
    /// Threads done with their part of the current batch.
    finished: core::sync::atomic::AtomicUsize,
    /// Threads waiting in `spin_lock()`.
    waiting: core::sync::atomic::AtomicUsize,
    /// The instances of the current batch that a thread gave up on.
    discarded: [AtomicBool; MAX_BATCH],
}

impl Progress {
    /// The progress of a run of a test with `threads` threads.
    pub(crate) const fn new(threads: usize) -> Self {
        Self {
            wild: AtomicBool::new(false),
            threads,
            finished: core::sync::atomic::AtomicUsize::new(0),
            waiting: core::sync::atomic::AtomicUsize::new(0),
            discarded: [const { AtomicBool::new(false) }; MAX_BATCH],
        }
    }

    /// A thread is done with its part of the current batch (it will not release a lock).
    pub(crate) fn batch_done(&self) {
        self.finished.fetch_add(1, Ordering::SeqCst);
    }

    /// Before a batch starts, while every thread waits at its start line.
    pub(crate) fn new_batch(&self, size: usize) {
        self.finished.store(0, Ordering::SeqCst);
        for d in &self.discarded[..size] {
            d.store(false, Ordering::Relaxed);
        }
    }

    /// Whether a thread gave up on instance `i` of the batch that just finished.
    pub(crate) fn discarded(&self, i: usize) -> bool {
        self.discarded[i].load(Ordering::Relaxed)
    }

    /// Whether every thread is done with the batch or waits for a lock: then no thread can
    /// release a lock that is held.
    fn stuck(&self) -> bool {
        self.waiting.load(Ordering::SeqCst) + self.finished.load(Ordering::SeqCst) >= self.threads
    }
}

/// One instance of a test's shared variables: what the litmus threads' parameters point to.
///
/// # Invariants
///
/// `index < MAX_BATCH`.
#[derive(Clone, Copy)]
pub(crate) struct Instance<'a> {
    index: usize,
    progress: &'a Progress,
}

impl<'a> Instance<'a> {
    /// Instance number `index` of a run whose threads share `progress`.
    pub(crate) fn new(index: usize, progress: &'a Progress) -> Self {
        assert!(index < MAX_BATCH);
        // INVARIANT: Checked above.
        Self { index, progress }
    }

    /// `spin_lock()`'s wait (see `Lock::lock`): spins while `held()`; false, and this instance
    /// is given up on, once no thread can release the lock: every thread is done with the
    /// batch or waits for a lock (itself included), and the lock is still held after a full
    /// barrier. (A thread that took the lock in the meantime is counted until it has taken it:
    /// at worst an execution is given up on that could have gone on, never one counted that
    /// could not.)
    #[inline(always)]
    pub(crate) fn wait_while(&self, held: impl Fn() -> bool) -> bool {
        let p = self.progress;
        p.waiting.fetch_add(1, Ordering::SeqCst);
        let released = loop {
            if !held() {
                break true;
            }
            if p.stuck() && held() {
                fence(Ordering::SeqCst);
                if p.stuck() && held() {
                    break false;
                }
            }
            core::hint::spin_loop();
        };
        p.waiting.fetch_sub(1, Ordering::SeqCst);
        if !released {
            p.discarded[self.index].store(true, Ordering::Relaxed);
        }
        released
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

    /// The address of `int *` variable number `v` (a variable that holds addresses, as
    /// `x2` of `{ x1=x2; x2=y; }`).
    #[inline(always)]
    pub(crate) fn ptr_addr(&self, v: usize) -> usize {
        self.ptr(v).as_ptr() as usize
    }

    /// The address of variable number `v` of `vars`, of its kind's cell.
    fn addr_of(&self, vars: &[Var], v: usize) -> usize {
        if vars[v].kind == VarKind::Ptr {
            self.ptr_addr(v)
        } else {
            self.addr(v)
        }
    }

    /// The `int *` at address `addr` (C: `*r0` where `r0` points to a variable that holds
    /// addresses), which must be an `int *` variable of some instance; as [`Self::deref`].
    #[inline(always)]
    pub(crate) fn deref_ptr(&self, addr: usize) -> &'static AtomicUsize {
        let base = PTRS.as_ptr() as usize;
        let in_range = addr >= base && addr < base + core::mem::size_of_val(&PTRS);
        if in_range && addr % core::mem::align_of::<AtomicUsize>() == 0 {
            // SAFETY: `addr` is within `PTRS`, aligned: it is one of its `'static` cells.
            unsafe { AtomicUsize::from_ptr(addr as *mut usize) }
        } else {
            self.wild(addr);
            &WILD_PTR
        }
    }

    /// A dereference of `addr`, no variable's address: NULL gives up on the instance (herd7
    /// has no execution that dereferences a number), anything else marks the run as wild
    /// (a bug of the translation, which fails the test).
    #[cold]
    fn wild(&self, addr: usize) {
        if addr == 0 {
            self.progress.discarded[self.index].store(true, Ordering::Relaxed);
        } else {
            self.progress.wild.store(true, Ordering::Relaxed);
        }
    }

    /// The `int` at address `addr` (C: `*r0`), which must be an `int` variable of some
    /// instance; any other address reads and writes a dummy and marks the run as wild (NULL:
    /// gives up on the instance).
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
            self.wild(addr);
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
            .find(|&v| {
                matches!(vars[v].kind, VarKind::Int | VarKind::Ptr) && self.addr_of(vars, v) == addr
            })
            .map_or(WILD, |v| v as i64)
    }

    /// Sets every variable of this instance to its initial value.
    pub(crate) fn reset(&self, vars: &[Var]) {
        for (v, var) in vars.iter().enumerate() {
            match (var.kind, var.init) {
                (VarKind::Int, Init::Int(i)) => self.int(v).set(i),
                (VarKind::Ptr, Init::Int(_)) => self.ptr(v).set(0),
                (VarKind::Ptr, Init::Addr(w)) => self.ptr(v).set(self.addr_of(vars, w)),
                (VarKind::Lock, _) => self.lock(v).0.set(0),
                (VarKind::Srcu, _) => (),
                (VarKind::Int, Init::Addr(w)) => self.int(v).set(self.addr_of(vars, w) as i32),
            }
        }
    }

    /// The final value of variable number `v`, as the final state holds it.
    pub(crate) fn final_value(&self, vars: &[Var], v: usize) -> i64 {
        match vars[v].kind {
            VarKind::Int => i64::from(self.int(v).read()),
            VarKind::Ptr => self.pointee(vars, self.ptr(v).read()),
            VarKind::Lock => i64::from(self.lock(v).is_locked()),
            VarKind::Srcu => 0,
        }
    }

    /// `struct srcu_struct` variable number `v`: the kernel's SRCU domain of that number (see
    /// [`Srcu`]).
    #[inline(always)]
    pub(crate) fn srcu(&self, v: usize) -> &'static Srcu {
        &SRCU[v]
    }
}

/// An SRCU domain: the kernel's SRCU (`include/linux/srcu.h`), a `struct srcu_struct` per
/// variable number, shared by every instance of the running test: a grace period of one
/// instance waits for the readers of the others too, that is longer, never shorter (as RCU's
/// does: RCU is one domain for the whole kernel).
///
/// # Invariants
///
/// Between [`srcu_init`] and [`srcu_cleanup`] (the module's life) the `srcu_struct` is
/// initialised.
#[repr(transparent)]
pub(crate) struct Srcu(Opaque<bindings::srcu_struct>);

// SAFETY: A `srcu_struct` is made to be used by many CPUs at once.
unsafe impl Sync for Srcu {}

static SRCU: [Srcu; MAX_VARS] = [const { Srcu(Opaque::uninit()) }; MAX_VARS];

/// Initialises the SRCU domains; at module load.
pub(crate) fn srcu_init() -> Result {
    for (n, srcu) in SRCU.iter().enumerate() {
        // SAFETY: The struct is not initialised yet (the module loads) and is `'static`.
        let ret = unsafe { bindings::init_srcu_struct(srcu.0.get()) };
        if ret != 0 {
            for done in &SRCU[..n] {
                // SAFETY: Initialised above, and no reader or grace period uses it yet.
                unsafe { bindings::cleanup_srcu_struct(done.0.get()) };
            }
            return Err(Error::from_errno(ret));
        }
    }
    Ok(())
}

/// Frees what [`srcu_init`] allocated; at module unload, once no litmus thread runs.
pub(crate) fn srcu_cleanup() {
    for srcu in &SRCU {
        // SAFETY: Initialised by `srcu_init`; the litmus threads have stopped, so no reader
        // is in a read-side section and no grace period is waited for.
        unsafe { bindings::cleanup_srcu_struct(srcu.0.get()) };
    }
}

#[cfg(CONFIG_DEBUG_LOCK_ALLOC)]
compile_error!("Srcu uses init_srcu_struct(), which lockdep (CONFIG_DEBUG_LOCK_ALLOC) replaces");
#[cfg(all(CONFIG_TINY_SRCU, CONFIG_PREEMPT_COUNT))]
compile_error!("Srcu::read_lock() assumes Tiny SRCU without CONFIG_PREEMPT_COUNT");

impl Srcu {
    /// `srcu_read_lock()`: `__srcu_read_lock()`, as C's wrapper calls it (its other work is
    /// lockdep's, `include/linux/srcu.h`). Returns the index to unlock with.
    #[cfg(not(CONFIG_TINY_SRCU))]
    #[inline(always)]
    pub(crate) fn read_lock(&self) -> i32 {
        // SAFETY: Initialised, by the type invariant.
        unsafe { bindings::__srcu_read_lock(self.0.get()) }
    }

    /// `srcu_read_lock()` of Tiny SRCU (a kernel without `CONFIG_SMP`: 6.12's UML), whose
    /// `__srcu_read_lock()` is an inline function bindgen does not bind: its body, as C's
    /// (include/linux/srcutiny.h:63-72, 6.12), with `preempt_disable()`/`preempt_enable()`
    /// compiler barriers, as they are without `CONFIG_PREEMPT_COUNT`.
    #[cfg(CONFIG_TINY_SRCU)]
    #[inline(always)]
    pub(crate) fn read_lock(&self) -> i32 {
        let ssp = self.0.get();
        crate::atomic::barrier();
        // SAFETY: Initialised, by the type invariant; the fields are read and written with
        // volatile accesses, as C's READ_ONCE() and WRITE_ONCE() do.
        let idx = unsafe {
            let idx = ((core::ptr::addr_of!((*ssp).srcu_idx).read_volatile() + 1) & 0x2) >> 1;
            let nesting = core::ptr::addr_of_mut!((*ssp).srcu_lock_nesting[idx]);
            nesting.write_volatile(nesting.read_volatile() + 1);
            idx as i32
        };
        crate::atomic::barrier();
        idx
    }

    /// `srcu_read_unlock()`: `__srcu_read_unlock()`. The index selects one of two counters:
    /// a test that passes anything but what `read_lock` returned gets its low bit, where C
    /// would warn (`WARN_ON_ONCE(idx & ~0x1)`) and write out of bounds.
    #[inline(always)]
    pub(crate) fn read_unlock(&self, idx: i32) {
        // SAFETY: Initialised, by the type invariant; `idx & 1` is a valid index.
        unsafe { bindings::__srcu_read_unlock(self.0.get(), idx & 1) }
    }

    /// `srcu_down_read()`: as `srcu_read_lock()` (C calls `__srcu_read_lock()` too).
    #[inline(always)]
    pub(crate) fn down_read(&self) -> i32 {
        self.read_lock()
    }

    /// `srcu_up_read()`: as `srcu_read_unlock()`.
    #[inline(always)]
    pub(crate) fn up_read(&self, idx: i32) {
        self.read_unlock(idx)
    }

    /// `synchronize_srcu()`: waits for the readers that started before it.
    pub(crate) fn synchronize(&self) {
        // SAFETY: Initialised, by the type invariant; called from a kthread, which may sleep.
        unsafe { bindings::synchronize_srcu(self.0.get()) }
    }

    /// `synchronize_srcu_expedited()` (Tiny SRCU's is `synchronize_srcu()`, inline:
    /// include/linux/srcutiny.h:74-77, 6.12).
    pub(crate) fn synchronize_expedited(&self) {
        #[cfg(not(CONFIG_TINY_SRCU))]
        // SAFETY: As for `synchronize`.
        unsafe {
            bindings::synchronize_srcu_expedited(self.0.get())
        }
        #[cfg(CONFIG_TINY_SRCU)]
        self.synchronize()
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

/// `synchronize_rcu_expedited()` (Tiny RCU's is `synchronize_rcu()`, inline:
/// include/linux/rcutiny.h:88-91, 6.12).
pub(crate) fn synchronize_rcu_expedited() {
    #[cfg(not(CONFIG_TINY_RCU))]
    // SAFETY: Called from a kthread, which may sleep.
    unsafe {
        kernel::bindings::synchronize_rcu_expedited()
    };
    #[cfg(CONFIG_TINY_RCU)]
    synchronize_rcu();
}

/// `smp_mb__after_unlock_lock()`: nothing, as in C (`include/linux/rcupdate.h`, 6.12 line 1126:
/// only `CONFIG_ARCH_WEAK_RELEASE_ACQUIRE`, powerpc, needs `smp_mb()`; elsewhere an unlock and a
/// lock already order as a full barrier, with the lock as strong as the architecture's:
/// [`Lock`](test::Lock)). The herd7 check holds it to the LKMM's full barrier.
#[allow(non_snake_case)]
#[inline(always)]
pub(crate) fn smp_mb__after_unlock_lock() {}

/// `smp_mb__after_srcu_read_unlock()`: nothing, as in C (`include/linux/srcu.h`: the
/// `smp_mb()` is in `__srcu_read_unlock()`).
#[allow(non_snake_case)]
#[inline(always)]
pub(crate) fn smp_mb__after_srcu_read_unlock() {}

#[cfg(all(CONFIG_PREEMPT_COUNT, not(kernel_7)))]
compile_error!("rcu_read_lock() here assumes a Linux 6.12 kernel without CONFIG_PREEMPT_COUNT");
