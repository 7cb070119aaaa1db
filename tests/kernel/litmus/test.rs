// SPDX-License-Identifier: GPL-2.0

//! What a translated litmus test is: the types `scripts/memory-model/litmus2rust` writes its tests in, and
//! the spinlock its `spin_lock()` becomes. Shared by every harness that runs translated tests:
//! the in-kernel runner (`harness.rs`), the herd7 check's entry points
//! (`tests/herd/harness.rs`) and the host check (`tests/litmus/host_check.rs`); each defines,
//! in the module that includes this file, the `Instance` a thread runs on (with
//! `Instance::wait_while`, how long a `spin_lock()` waits), its SRCU domain type `Srcu`, and
//! RCU's functions.

use super::Instance;
use crate::atomic::{AtomicI32, AtomicUsize, RcuPointer};

/// The outcome the test's `Result:` comment predicts (LKMM's verdict).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
    /// The clause's proposition must never hold: observing it is a failure.
    Never,
    /// The proposition may or may not hold: the test passes either way.
    Sometimes,
    /// The proposition must hold in every final state.
    Always,
    /// No execution completes: in every one a thread waits forever for a lock (herd7's
    /// `Never 0 0`, judgelitmus.sh's `Result: DEADLOCK`), so the runner counts none.
    Deadlock,
}

/// A shared variable's type in the litmus test.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum VarKind {
    /// `int` or `atomic_t`: an [`AtomicI32`] cell.
    Int,
    /// A variable that holds addresses (`int **p` in the thread's parameters, or whatever
    /// the test's uses make one, `scripts/litmus/kinds.py`): an [`AtomicUsize`] cell holding
    /// the address of an `Int` or `Ptr` variable of the same instance, or 0 for NULL.
    Ptr,
    /// `spinlock_t`: a [`Lock`].
    Lock,
    /// `struct srcu_struct`: an SRCU domain (the harness's `Srcu`).
    Srcu,
}

/// A shared variable's initial value (the test's `{ ... }` section; 0 when absent).
#[derive(Clone, Copy)]
pub(crate) enum Init {
    /// An integer (`x=1;`); for a `Ptr` variable only 0, NULL.
    Int(i32),
    /// The address of variable number `.0` of the same instance (`p=y;`).
    Addr(usize),
}

/// A shared variable.
pub(crate) struct Var {
    /// Its name in the litmus test.
    pub(crate) name: &'static str,
    pub(crate) kind: VarKind,
    pub(crate) init: Init,
}

/// How a final-state value is printed and compared.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum SlotKind {
    /// An integer.
    Int,
    /// A pointer: in the state given to [`Test::holds`] it is the index of the variable it
    /// points to, [`NULL`] for NULL, [`WILD`] for any other address.
    Ptr,
}

/// A pointer slot's value for NULL.
pub(crate) const NULL: i64 = -1;
/// A pointer slot's value for an address that is no variable of the instance.
pub(crate) const WILD: i64 = -2;

/// Where a final-state value comes from.
#[derive(Clone, Copy)]
pub(crate) enum Source {
    /// Register `index` of thread `thread`'s `out` array.
    Reg { thread: usize, index: usize },
    /// The final value of shared variable number `.0`.
    Var(usize),
}

/// One value of the final state: every register and variable that the clause or the test's
/// `locations [...]` names, in order of first mention.
pub(crate) struct Slot {
    /// As herd prints it: `0:r0` for a register, `x` for a variable.
    pub(crate) name: &'static str,
    pub(crate) kind: SlotKind,
    pub(crate) source: Source,
}

/// The final-state clause's quantifier.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quantifier {
    /// `exists P`.
    Exists,
    /// `~exists P`: P must never hold.
    NotExists,
    /// `forall P`: P must always hold.
    Forall,
}

/// A litmus thread's body: runs once on `m`, stores its registers into `out` (integers as
/// themselves, pointers as addresses cast to `i64`).
pub(crate) type ThreadFn = fn(m: &Instance<'_>, out: &mut [i64]);

/// One translated litmus test.
pub(crate) struct Test {
    /// The test's name (its first line, after `C`).
    pub(crate) name: &'static str,
    /// `Result:` in its header comment; `None` when it has none (the quantifier then decides:
    /// `exists` passes either way, `~exists` and `forall` fail when violated).
    pub(crate) expect: Option<Expect>,
    pub(crate) quantifier: Quantifier,
    /// The clause as written in the test, for the report.
    pub(crate) clause: &'static str,
    pub(crate) vars: &'static [Var],
    /// One function per litmus thread, P0 first.
    pub(crate) threads: &'static [ThreadFn],
    /// The number of `out` registers of each thread.
    pub(crate) regs: &'static [usize],
    pub(crate) slots: &'static [Slot],
    /// The clause's proposition P (not its negation), on the final state: one value per slot.
    pub(crate) holds: fn(state: &[i64]) -> bool,
    /// The test's `filter`: an execution whose final state does not satisfy it is not
    /// counted (herd7 discards it), as one that could not finish (see [`Lock::lock`]).
    pub(crate) filter: Option<fn(state: &[i64]) -> bool>,
    /// A thread waits for a grace period (`synchronize_rcu()`, `synchronize_srcu()`): about a
    /// millisecond each under TCG, so the runner runs fewer iterations of it.
    pub(crate) grace_periods: bool,
}

/// A test-and-set spinlock built on the library, with the LKMM semantics of `spin_lock()`
/// (an ACQUIRE) and `spin_unlock()` (a RELEASE), and as strong as the kernel's own lock of the
/// architecture: the queued spinlock takes it with an acquire cmpxchg
/// (`atomic_try_cmpxchg_acquire()`, kernel/locking/qspinlock.h), the generic ticket lock with a
/// fully ordered read-modify-write (`atomic_fetch_add()`, `atomic_try_cmpxchg()`,
/// include/asm-generic/spinlock.h:33-55), which is what an architecture without
/// `CONFIG_ARCH_USE_QUEUED_SPINLOCKS` (riscv's ticket spinlocks) runs. That difference matters:
/// riscv's `smp_mb__after_unlock_lock()` is empty, and only the fully ordered acquisition
/// makes an unlock followed by a lock a full barrier there (LOCK+mbafterunlocklock).
#[repr(transparent)]
pub(crate) struct Lock(pub(crate) AtomicI32);

impl Lock {
    /// Takes the lock word from 0 to 1 with the ordering of the kernel's lock acquisition (see
    /// the type's docs); whether it did.
    #[inline(always)]
    fn acquire(&self) -> bool {
        #[cfg(CONFIG_ARCH_USE_QUEUED_SPINLOCKS)]
        let found = self.0.cmpxchg_acquire(0, 1);
        #[cfg(not(CONFIG_ARCH_USE_QUEUED_SPINLOCKS))]
        let found = self.0.cmpxchg(0, 1);
        found == 0
    }

    /// `spin_lock()`: true once the lock is taken; false if `m` says that no thread can
    /// release it any more (a thread that ended holding it, or every thread waiting). herd7
    /// has no execution in which a thread waits forever: the caller returns at once and the
    /// runner does not count the execution.
    #[inline(always)]
    pub(crate) fn lock(&self, m: &Instance<'_>) -> bool {
        while !self.acquire() {
            if !m.wait_while(|| self.0.read() != 0) {
                return false;
            }
        }
        true
    }

    /// `spin_trylock()`: whether the lock was taken.
    #[inline(always)]
    pub(crate) fn trylock(&self) -> bool {
        self.acquire()
    }

    /// `spin_unlock()`.
    #[inline(always)]
    pub(crate) fn unlock(&self) {
        self.0.set_release(0);
    }

    /// `spin_is_locked()`: a plain `READ_ONCE()` of the lock word, as in C.
    #[inline(always)]
    pub(crate) fn is_locked(&self) -> bool {
        self.0.read() != 0
    }
}

/// The RCU-protected pointer in pointer cell `cell` (`VarKind::Ptr`): a litmus test's
/// `rcu_dereference()` and `rcu_assign_pointer()` of a pointer are the library's
/// (`rust/atomic/rcu.rs`), on the same cell.
#[inline(always)]
pub(crate) fn rcu_pointer(cell: &AtomicUsize) -> &RcuPointer<u8> {
    // SAFETY: The cell holds an address as a `usize`, which has the size and alignment of a
    // pointer; it lives as long as the reference, and every access to it is a marked access
    // (the cell's atomic operations, or the `RcuPointer`'s).
    unsafe { RcuPointer::from_ptr(cell.as_ptr().cast()) }
}

/// C's `==` of two addresses (neither the literal NULL). A translated thread holds addresses as
/// `usize`, and a compiler may replace an integer by another it found equal to it, which moves
/// a load off the address it depends on (paulmckrcu/litmus's `LB-addr-equals`: in
/// `if (r1 == r2) r3 = READ_ONCE(*r2);` LLVM reads through `r1`, losing the dependency on the
/// load of `r2`). It does not replace a pointer by an equal pointer with other provenance,
/// which C's `int *` (and a Rust raw pointer) has: the twin of that test in C keeps the
/// dependency. So the comparison is made between copies the compiler cannot see through (an
/// empty `asm!`), and what it learns is of the copies, not of the registers.
#[inline(always)]
pub(crate) fn ptr_eq(a: usize, b: usize) -> bool {
    // Mutant `ptr_eq_plain` (tests/ordering-mutants): the integers compared as they are, which
    // the herd7 check must find weaker than C's twin.
    if cfg!(rust_atomic_mutant = "ptr_eq_plain") {
        return a == b;
    }
    opaque(a) == opaque(b)
}

/// `v`, through an empty `asm!` whose output the compiler cannot relate to its input.
#[inline(always)]
fn opaque(mut v: usize) -> usize {
    // SAFETY: The template is a comment: no instruction, no memory access, no flags.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) v, options(pure, nomem, nostack, preserves_flags))
    };
    v
}
