// SPDX-License-Identifier: GPL-2.0

//! Marked accesses to plain variables: C's `READ_ONCE()`, `WRITE_ONCE()`,
//! `smp_load_acquire()` and `smp_store_release()`.
//!
//! These are for variables that are not atomic types because most of their accesses need no
//! care: only the accesses made where another CPU may access the variable at the same time
//! are marked, at the access site.

use super::backend::{ILong, Long, I16, I32, I64, I8};
use super::instrument;
use super::primitive::LoadStore;

mod private {
    pub trait Sealed {}
}

/// Integer types, `bool` and (thin) raw pointers: the types whose naturally aligned loads and
/// stores are single accesses on every supported architecture, so they can be marked accesses.
/// A 64-bit one on a 32-bit kernel is too: it is `atomic64_read()`'s and `atomic64_set()`'s
/// sequence (ARMv7 without LPAE: `ldrexd`, an `ldrexd`/`strexd` loop), where C's `READ_ONCE()`
/// and `WRITE_ONCE()` of 64 bits may be two accesses.
pub trait Marked: Copy + private::Sealed {
    #[doc(hidden)]
    /// # Safety
    ///
    /// As for [`read_once`].
    unsafe fn load(p: *const Self, acquire: bool) -> Self;
    #[doc(hidden)]
    /// # Safety
    ///
    /// As for [`write_once`].
    unsafe fn store(p: *mut Self, v: Self, release: bool);
}

macro_rules! impl_marked {
    ($($t:ty => $b:ty),+) => {$(
        impl private::Sealed for $t {}

        impl Marked for $t {
            #[inline(always)]
            unsafe fn load(p: *const Self, acquire: bool) -> Self {
                let p = p.cast::<<$b as LoadStore>::V>();
                if acquire {
                    // SAFETY: The caller guarantees `p` valid and aligned; sizes are equal.
                    (unsafe { <$b>::read_acquire(p) }) as $t
                } else {
                    // SAFETY: The caller guarantees `p` valid and aligned; sizes are equal.
                    (unsafe { <$b>::read(p) }) as $t
                }
            }

            #[inline(always)]
            unsafe fn store(p: *mut Self, v: Self, release: bool) {
                let p = p.cast::<<$b as LoadStore>::V>();
                let v = v as <$b as LoadStore>::V;
                if release {
                    // SAFETY: The caller guarantees `p` valid and aligned; sizes are equal.
                    unsafe { <$b>::set_release(p, v) }
                } else {
                    // SAFETY: The caller guarantees `p` valid and aligned; sizes are equal.
                    unsafe { <$b>::set(p, v) }
                }
            }
        }
    )+};
}

impl_marked!(i8 => I8, u8 => I8, i16 => I16, u16 => I16, i32 => I32, u32 => I32,
             i64 => I64, u64 => I64, isize => ILong, usize => ILong);

impl private::Sealed for bool {}

/// A `bool` is a byte, 0 or 1, as C's `bool` (C's `READ_ONCE()` on one is a byte load).
impl Marked for bool {
    #[inline(always)]
    unsafe fn load(p: *const Self, acquire: bool) -> Self {
        let p = p.cast::<i8>();
        // SAFETY: The caller guarantees `p` valid and aligned; a `bool` is a byte.
        let v = unsafe {
            if acquire {
                I8::read_acquire(p)
            } else {
                I8::read(p)
            }
        };
        // The byte is 0 or 1: `*p` is a `bool`, written only as one (the caller's contract).
        // Not `v != 0`, which would test the byte again: C's `READ_ONCE()` of a `bool` is the
        // load alone.
        #[allow(clippy::transmute_int_to_bool)]
        // SAFETY: 0 and 1 are the valid representations of `bool`.
        unsafe {
            core::mem::transmute::<i8, bool>(v)
        }
    }

    #[inline(always)]
    unsafe fn store(p: *mut Self, v: Self, release: bool) {
        let p = p.cast::<i8>();
        // SAFETY: The caller guarantees `p` valid and aligned; a `bool` is a byte.
        unsafe {
            if release {
                I8::set_release(p, i8::from(v))
            } else {
                I8::set(p, i8::from(v))
            }
        }
    }
}

/// Marked accesses to a pointer variable (C's `READ_ONCE()` of a pointer, `rcu_dereference()`'s
/// load): the address as an integer of C's `long` ([`Long`], as wide as a pointer), which `as`
/// converts back with its provenance exposed.
macro_rules! impl_marked_pointer {
    ($($ptr:ident),+) => {$(
        impl<U> private::Sealed for *$ptr U {}

        impl<U> Marked for *$ptr U {
            #[inline(always)]
            unsafe fn load(p: *const Self, acquire: bool) -> Self {
                // SAFETY: As for the integers: `p` valid and aligned, a pointer is as wide as
                // `Long` (asserted in `arch.rs`).
                (unsafe { Long::load(p.cast::<Long>(), acquire) }) as usize as Self
            }

            #[inline(always)]
            unsafe fn store(p: *mut Self, v: Self, release: bool) {
                // SAFETY: As above.
                unsafe { Long::store(p.cast::<Long>(), v as usize as Long, release) }
            }
        }
    )+};
}

impl_marked_pointer!(const, mut);

/// Reads `*p` with a single marked load (C: `READ_ONCE()`): the compiler neither tears,
/// fuses, repeats nor invents it.
///
/// # Safety
///
/// `p` must be valid for reads and aligned, and every write to `*p` that may run concurrently
/// must be a marked access ([`write_once`], [`smp_store_release`] or an atomic operation).
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::read_once;
///
/// let stop = 1u32; // Set by `write_once` on another CPU.
/// // SAFETY: `stop` is valid, aligned, and only written with marked accesses.
/// assert_eq!(unsafe { read_once(&raw const stop) }, 1);
/// ```
#[inline(always)]
pub unsafe fn read_once<T: Marked>(p: *const T) -> T {
    instrument::read_once(p);
    // SAFETY: The caller upholds this function's contract, which `load` shares.
    unsafe { T::load(p, false) }
}

/// Writes `v` to `*p` with a single marked store (C: `WRITE_ONCE()`).
///
/// # Safety
///
/// `p` must be valid for writes and aligned, and every access to `*p` that may run
/// concurrently must be a marked access.
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::{read_once, write_once};
///
/// let mut stop = 0u32;
/// // SAFETY: `stop` is valid, aligned, and only accessed with marked accesses here.
/// unsafe { write_once(&raw mut stop, 1) };
/// // SAFETY: As above.
/// assert_eq!(unsafe { read_once(&raw const stop) }, 1);
/// ```
#[inline(always)]
pub unsafe fn write_once<T: Marked>(p: *mut T, v: T) {
    instrument::write_once(p);
    // SAFETY: The caller upholds this function's contract, which `store` shares.
    unsafe { T::store(p, v, false) }
}

/// Reads `*p` with ACQUIRE ordering (C: `smp_load_acquire()`): accesses after it in program
/// order are not performed before it. Pairs with [`smp_store_release`].
///
/// # Safety
///
/// As for [`read_once`].
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::{smp_load_acquire, smp_store_release};
///
/// let mut data = 0i64;
/// let mut ready = 0u8;
/// data = 42; // Plain: nobody reads `data` before `ready` is set.
/// // SAFETY: `ready` is valid, aligned, and only accessed with marked accesses.
/// unsafe { smp_store_release(&raw mut ready, 1) };
/// // SAFETY: As above.
/// if unsafe { smp_load_acquire(&raw const ready) } == 1 {
///     assert_eq!(data, 42);
/// }
/// ```
#[inline(always)]
pub unsafe fn smp_load_acquire<T: Marked>(p: *const T) -> T {
    instrument::load_acquire(p);
    // SAFETY: The caller upholds this function's contract, which `load` shares.
    unsafe { T::load(p, true) }
}

/// Writes `v` to `*p` with RELEASE ordering (C: `smp_store_release()`): accesses before it in
/// program order are performed before it. Pairs with [`smp_load_acquire`].
///
/// # Safety
///
/// As for [`write_once`].
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::{read_once, smp_store_release};
///
/// let mut head = 0usize;
/// // SAFETY: `head` is valid, aligned, and only accessed with marked accesses.
/// unsafe { smp_store_release(&raw mut head, 3) };
/// // SAFETY: As above.
/// assert_eq!(unsafe { read_once(&raw const head) }, 3);
/// ```
#[inline(always)]
pub unsafe fn smp_store_release<T: Marked>(p: *mut T, v: T) {
    instrument::store_release(p);
    // SAFETY: The caller upholds this function's contract, which `store` shares.
    unsafe { T::store(p, v, true) }
}
