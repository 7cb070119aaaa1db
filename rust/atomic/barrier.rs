// SPDX-License-Identifier: GPL-2.0

//! Memory barriers, with the semantics of C's of the same name
//! (`Documentation/memory-barriers.txt`).

use super::backend::fence as arch;
use super::instrument;

/// A compiler barrier (C: `barrier()`): the compiler does not move memory accesses across it,
/// nor reuse values read before it. It emits no instruction and orders nothing between CPUs.
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::barrier;
///
/// let mut x = 1;
/// x += 1;
/// barrier(); // The store of 2 happens here, not later.
/// assert_eq!(x, 2);
/// ```
#[inline(always)]
pub fn barrier() {
    arch::barrier();
}

/// A full memory barrier (C: `smp_mb()`): every access before it in program order is ordered
/// before every access after it, as seen by every CPU.
///
/// # Examples
///
/// The store-buffering pattern: with `smp_mb()` between the store and the load on both
/// sides, at least one CPU sees the other's store.
///
/// ```
/// use kernel::sync::atomic::{smp_mb, AtomicI32};
///
/// let (x, y) = (AtomicI32::new(0), AtomicI32::new(0));
/// x.set(1);
/// smp_mb();
/// let r0 = y.read();
/// assert_eq!(r0, 0); // No other CPU here: the point is what a second one could not see.
/// ```
#[inline(always)]
pub fn smp_mb() {
    // As C's (include/asm-generic/barrier.h), KCSAN's barrier on SMP only.
    #[cfg(CONFIG_SMP)]
    instrument::kcsan_mb();
    arch::smp_mb();
}

/// A read barrier (C: `smp_rmb()`): loads before it are ordered before loads after it. Pairs
/// with [`smp_wmb`] on the writing side.
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::{smp_rmb, smp_wmb, AtomicI32};
///
/// let (data, flag) = (AtomicI32::new(0), AtomicI32::new(0));
/// // Writer:
/// data.set(42);
/// smp_wmb();
/// flag.set(1);
/// // Reader:
/// if flag.read() == 1 {
///     smp_rmb();
///     assert_eq!(data.read(), 42);
/// }
/// ```
#[inline(always)]
pub fn smp_rmb() {
    // As C's (include/asm-generic/barrier.h), KCSAN's barrier on SMP only.
    #[cfg(CONFIG_SMP)]
    instrument::kcsan_rmb();
    arch::smp_rmb();
}

/// A write barrier (C: `smp_wmb()`): stores before it are ordered before stores after it.
/// Pairs with [`smp_rmb`] on the reading side.
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::{smp_wmb, AtomicI32};
///
/// let (data, flag) = (AtomicI32::new(0), AtomicI32::new(0));
/// data.set(42);
/// smp_wmb();
/// flag.set(1);
/// assert_eq!((data.read(), flag.read()), (42, 1));
/// ```
#[inline(always)]
pub fn smp_wmb() {
    // As C's (include/asm-generic/barrier.h), KCSAN's barrier on SMP only.
    #[cfg(CONFIG_SMP)]
    instrument::kcsan_wmb();
    arch::smp_wmb();
}

/// Makes the following atomic operation that returns nothing (or is relaxed) fully ordered
/// with respect to earlier accesses (C: `smp_mb__before_atomic()`); free where atomic
/// operations are full barriers already (x86).
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::{smp_mb__before_atomic, AtomicI32};
///
/// let (done, pending) = (AtomicI32::new(0), AtomicI32::new(1));
/// done.set(1);
/// smp_mb__before_atomic();
/// pending.dec();
/// assert_eq!(pending.read(), 0);
/// ```
#[inline(always)]
// The C name, so that it is found where C uses it.
#[allow(non_snake_case)]
pub fn smp_mb__before_atomic() {
    // As C's (include/asm-generic/barrier.h), KCSAN's barrier on SMP only.
    #[cfg(CONFIG_SMP)]
    instrument::kcsan_mb();
    arch::smp_mb__before_atomic();
}

/// Makes the preceding atomic operation that returns nothing (or is relaxed) fully ordered
/// with respect to later accesses (C: `smp_mb__after_atomic()`).
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::{smp_mb__after_atomic, AtomicI32};
///
/// let (refs, state) = (AtomicI32::new(0), AtomicI32::new(7));
/// refs.inc();
/// smp_mb__after_atomic();
/// assert_eq!(state.read(), 7);
/// ```
#[inline(always)]
// The C name, so that it is found where C uses it.
#[allow(non_snake_case)]
pub fn smp_mb__after_atomic() {
    // As C's (include/asm-generic/barrier.h), KCSAN's barrier on SMP only.
    #[cfg(CONFIG_SMP)]
    instrument::kcsan_mb();
    arch::smp_mb__after_atomic();
}

/// Makes the preceding `spin_lock()` a full barrier (C: `smp_mb__after_spinlock()`): accesses
/// before the lock acquisition are ordered before accesses in the critical section, as seen by
/// every CPU, not only by the lock's next holder.
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::{smp_mb__after_spinlock, AtomicI32};
///
/// let (lock, x) = (AtomicI32::new(0), AtomicI32::new(0));
/// while lock.cmpxchg_acquire(0, 1) != 0 {}
/// smp_mb__after_spinlock();
/// x.set(1);
/// lock.set_release(0);
/// assert_eq!(x.read(), 1);
/// ```
#[inline(always)]
// The C name, so that it is found where C uses it.
#[allow(non_snake_case)]
pub fn smp_mb__after_spinlock() {
    // include/linux/spinlock.h:176 (x86), arch/arm64/include/asm/spinlock.h:12 (smp_mb()).
    instrument::kcsan_mb();
    arch::smp_mb__after_spinlock();
}
