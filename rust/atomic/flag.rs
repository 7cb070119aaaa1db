// SPDX-License-Identifier: GPL-2.0

//! [`AtomicFlag`]: upstream's atomic boolean backed by the best integer for read-modify-write
//! operations (`rust/kernel/sync/atomic.rs`, Linux 7.2). On x86_64 and arm64, both of which have
//! byte-sized `xchg` and `cmpxchg`, that is a byte.

use super::ordering;
use super::{Atomic, AtomicType};

#[repr(C)]
#[derive(Clone, Copy)]
struct Flag {
    bool_field: bool,
}

impl Flag {
    #[inline(always)]
    const fn new(b: bool) -> Self {
        Self { bool_field: b }
    }
}

// SAFETY: `Flag` and `i8` have the same size and alignment, and `Flag` is round-trip
// transmutable to `i8` (its one field is a `bool`).
unsafe impl AtomicType for Flag {
    type Repr = i8;
}

/// An atomic flag type intended to be backed by performance-optimal integer type.
///
/// The backing integer type is an implementation detail; it may vary by architecture and change
/// in the future.
///
/// [`AtomicFlag`] is generally preferable to [`Atomic<bool>`] when you need read-modify-write
/// (RMW) operations (e.g. [`Atomic::xchg()`]/[`Atomic::cmpxchg()`]) or when [`Atomic<bool>`] does
/// not save memory due to padding. On some architectures that do not support byte-sized atomic
/// RMW operations, RMW operations on [`Atomic<bool>`] are slower.
///
/// If you only use [`Atomic::load()`]/[`Atomic::store()`], [`Atomic<bool>`] is fine.
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::{AtomicFlag, Relaxed};
///
/// let flag = AtomicFlag::new(false);
/// assert_eq!(false, flag.load(Relaxed));
/// flag.store(true, Relaxed);
/// assert_eq!(true, flag.load(Relaxed));
/// ```
pub struct AtomicFlag(Atomic<Flag>);

impl AtomicFlag {
    /// Creates a new atomic flag.
    #[inline(always)]
    pub const fn new(b: bool) -> Self {
        Self(Atomic::new(Flag::new(b)))
    }

    /// Returns a mutable reference to the underlying flag as a [`bool`].
    ///
    /// This is safe because the mutable reference of the atomic flag guarantees exclusive access.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::sync::atomic::{AtomicFlag, Relaxed};
    ///
    /// let mut atomic_flag = AtomicFlag::new(false);
    /// assert_eq!(false, atomic_flag.load(Relaxed));
    /// *atomic_flag.get_mut() = true;
    /// assert_eq!(true, atomic_flag.load(Relaxed));
    /// ```
    #[inline(always)]
    pub fn get_mut(&mut self) -> &mut bool {
        &mut self.0.get_mut().bool_field
    }

    /// Loads the value from the atomic flag.
    #[inline(always)]
    pub fn load<Ordering: ordering::AcquireOrRelaxed>(&self, o: Ordering) -> bool {
        self.0.load(o).bool_field
    }

    /// Stores a value to the atomic flag.
    #[inline(always)]
    pub fn store<Ordering: ordering::ReleaseOrRelaxed>(&self, v: bool, o: Ordering) {
        self.0.store(Flag::new(v), o);
    }

    /// Stores a value to the atomic flag and returns the previous value.
    #[inline(always)]
    pub fn xchg<Ordering: ordering::Ordering>(&self, new: bool, o: Ordering) -> bool {
        self.0.xchg(Flag::new(new), o).bool_field
    }

    /// Store a value to the atomic flag if the current value is equal to `old`.
    #[inline(always)]
    pub fn cmpxchg<Ordering: ordering::Ordering>(
        &self,
        old: bool,
        new: bool,
        o: Ordering,
    ) -> Result<bool, bool> {
        match self.0.cmpxchg(Flag::new(old), Flag::new(new), o) {
            Ok(_) => Ok(old),
            Err(f) => Err(f.bool_field),
        }
    }
}
