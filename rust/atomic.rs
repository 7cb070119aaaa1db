// SPDX-License-Identifier: GPL-2.0

//! Atomic and barrier primitives with the semantics of the Linux kernel memory model (LKMM).
//!
//! Rust code in the kernel shares data with C code, so it must follow the model C code follows:
//! the LKMM (`tools/memory-model/`, `Documentation/atomic_t.txt`), not the C++/Rust model of
//! [`core::sync::atomic`]. Every operation here has the semantics of the C operation of the same
//! name, and the ordering is part of the name (`_relaxed`, `_acquire`, `_release`, or none for
//! fully ordered), chosen per access.
//!
//! The operations are inline assembly, one file per architecture under `arch/`, so that an
//! atomic operation costs what it costs in C: a few instructions, never a function call.

use core::cell::UnsafeCell;

#[path = "atomic/arch.rs"]
#[cfg_attr(rust_atomic_mutant, allow(dead_code))]
mod arch;

#[cfg(rust_atomic_mutant)]
#[path = "atomic/mutant.rs"]
mod mutant;

// The primitives the typed API is built on: the architecture's, or, in a mutation-test build
// (`--cfg rust_atomic_mutant --cfg rust_atomic_mutant="NAME"`), the architecture's with one
// deliberately broken (see `atomic/mutant.rs`).
#[cfg(not(rust_atomic_mutant))]
use arch as ops;
#[cfg(rust_atomic_mutant)]
use mutant as ops;

/// An `i32` that is read and modified atomically; the layout of C's `atomic_t`.
///
/// Use it where the *context* of an access does not already exclude concurrent writers: a
/// counter updated from several CPUs at once, a state word polled without a lock. Data that is
/// only ever touched under a lock needs no atomic type (see `LockedBy`).
///
/// # Invariants
///
/// The value is only ever modified through the atomic operations of this module, so concurrent
/// accesses through a shared `&AtomicI32` are never data races.
#[repr(transparent)]
pub struct AtomicI32(UnsafeCell<i32>);

// SAFETY: By the type invariant every access that may run concurrently is atomic, so sharing
// an `AtomicI32` between threads cannot cause a data race.
unsafe impl Sync for AtomicI32 {}

impl AtomicI32 {
    /// Creates a new atomic value.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use kernel::sync::atomic::AtomicI32;
    ///
    /// static COUNTER: AtomicI32 = AtomicI32::new(0);
    /// assert_eq!(COUNTER.fetch_add_relaxed(1), 0);
    /// ```
    #[inline(always)]
    pub const fn new(v: i32) -> Self {
        Self(UnsafeCell::new(v))
    }

    /// Adds `i` to the value with RELAXED ordering (C: `atomic_fetch_add_relaxed()`) and
    /// returns the value before the addition. The addition wraps on overflow.
    ///
    /// RELAXED means the operation is atomic but orders no other memory access: use it for
    /// statistics and counters whose readers need only the value itself.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use kernel::sync::atomic::AtomicI32;
    ///
    /// let a = AtomicI32::new(0);
    /// let b = a.fetch_add_relaxed(1);
    /// let c = a.fetch_add_relaxed(2);
    ///
    /// assert_eq!(b, 0);
    /// assert_eq!(c, 1);
    ///
    /// let m = AtomicI32::new(i32::MAX);
    /// assert_eq!(m.fetch_add_relaxed(1), i32::MAX);
    /// assert_eq!(m.fetch_add_relaxed(0), i32::MIN);
    /// ```
    #[inline(always)]
    pub fn fetch_add_relaxed(&self, i: i32) -> i32 {
        // SAFETY: `self.0` is valid and aligned, and all its concurrent accesses are atomic.
        unsafe { ops::i32_fetch_add_relaxed(self.0.get(), i) }
    }

    /// Subtracts `i` from the value with RELEASE ordering (C: `atomic_fetch_sub_release()`)
    /// and returns the value before the subtraction. The subtraction wraps on overflow.
    ///
    /// RELEASE means every memory access that precedes this operation in program order is
    /// visible to any CPU that observes its result with ACQUIRE ordering: the pattern of
    /// dropping a reference after the last use of an object.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use kernel::sync::atomic::AtomicI32;
    ///
    /// let a = AtomicI32::new(1);
    /// let b = a.fetch_sub_release(1);
    /// let c = a.fetch_sub_release(2);
    /// let d = a.fetch_sub_release(3);
    /// let e = a.fetch_sub_release(i32::MIN);
    ///
    /// assert_eq!(b, 1);
    /// assert_eq!(c, 0);
    /// assert_eq!(d, -2);
    /// assert_eq!(e, -5);
    /// assert_eq!(a.fetch_add_relaxed(0), (-5i32).wrapping_sub(i32::MIN));
    /// ```
    #[inline(always)]
    pub fn fetch_sub_release(&self, i: i32) -> i32 {
        // SAFETY: `self.0` is valid and aligned, and all its concurrent accesses are atomic.
        unsafe { ops::i32_fetch_sub_release(self.0.get(), i) }
    }
}
