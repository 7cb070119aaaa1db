// SPDX-License-Identifier: GPL-2.0

//! The representations of the typed API ([`Atomic<T>`] stores a `T` as its
//! [`AtomicType::Repr`]), and how each reaches the architecture's primitives.
//!
//! Upstream (`rust/kernel/sync/atomic/internal.rs`, Linux 6.18 and later) maps each
//! representation to C helper functions (`rust/helpers/atomic.c`), one call per operation. Here
//! each maps to the same inline-assembly primitives as the C-named API (`primitive.rs`,
//! `arch/`), so that a typed operation and its C-named twin are the same instructions.
//!
//! [`Atomic<T>`]: super::Atomic
//! [`AtomicType::Repr`]: super::AtomicType::Repr

use super::backend;
use super::primitive::{Exchange, LoadStore, Primitive};
use core::cell::UnsafeCell;
use core::ffi::c_void;

mod private {
    /// Sealed trait marker to disable customized impls on atomic implementation traits.
    pub trait Sealed {}
}

// As upstream: the integers of C's `atomic_t` and `atomic64_t`, and `i8`, `i16` and pointers,
// which C accesses with `READ_ONCE()`/`WRITE_ONCE()`, `xchg()` and `cmpxchg()`.
impl private::Sealed for i8 {}
impl private::Sealed for i16 {}
impl private::Sealed for *const c_void {}
impl private::Sealed for i32 {}
impl private::Sealed for i64 {}

/// A marker trait for types that implement atomic operations with the architecture's primitives.
///
/// This trait is sealed, and only types that map directly to the C side atomics
/// or can be implemented with lower-level C primitives are allowed to implement this:
///
/// - `i8`, `i16` and `*const c_void` are implemented with loads, stores, `xchg` and `cmpxchg`.
/// - `i32` map to `atomic_t`
/// - `i64` map to `atomic64_t`
pub trait AtomicImpl: Sized + Copy + private::Sealed {
    /// The type of the delta in arithmetic or logical operations.
    ///
    /// For example, in `atomic_add(ptr, v)`, it's the type of `v`. Usually it's the same type of
    /// [`Self`], but it may be different for the atomic pointer type.
    type Delta;
}

impl AtomicImpl for i8 {
    type Delta = Self;
}

impl AtomicImpl for i16 {
    type Delta = Self;
}

impl AtomicImpl for *const c_void {
    type Delta = isize;
}

impl AtomicImpl for i32 {
    type Delta = Self;
}

impl AtomicImpl for i64 {
    type Delta = Self;
}

/// Atomic representation.
#[repr(transparent)]
pub(crate) struct AtomicRepr<T: AtomicImpl>(UnsafeCell<T>);

impl<T: AtomicImpl> AtomicRepr<T> {
    /// Creates a new atomic representation `T`.
    #[inline(always)]
    pub(crate) const fn new(v: T) -> Self {
        Self(UnsafeCell::new(v))
    }

    /// Returns a pointer to the underlying `T`.
    ///
    /// # Guarantees
    ///
    /// The returned pointer is valid and properly aligned (i.e. aligned to [`align_of::<T>()`]).
    ///
    /// [`align_of::<T>()`]: core::mem::align_of
    #[inline(always)]
    pub(crate) const fn as_ptr(&self) -> *mut T {
        // GUARANTEE: `self.0` is an `UnsafeCell<T>`, therefore the pointer returned by `.get()`
        // must be valid and properly aligned.
        self.0.get()
    }
}

/// Loads and stores: every representation.
pub trait AtomicBasicOps: AtomicImpl {
    /// The architecture's primitives on the integer this representation is stored as.
    type Prim: LoadStore;

    /// Whether C's operations on it are the scalar `xchg()`/`cmpxchg()` macros (`i8`, `i16`,
    /// pointers), not `atomic_t`'s or `atomic64_t`'s: what the sanitizers see of a
    /// `try_cmpxchg()` differs (`instrument.rs`).
    const SCALAR: bool;

    /// `self` as that integer (the same bits).
    fn into_int(self) -> <Self::Prim as LoadStore>::V;

    /// The representation whose bits are `v`.
    fn from_int(v: <Self::Prim as LoadStore>::V) -> Self;
}

/// Exchange and compare-and-exchange: every representation (C's `xchg()` and `cmpxchg()` take
/// any naturally aligned scalar up to the word size).
pub trait AtomicExchangeOps: AtomicBasicOps<Prim: Exchange> {}

/// Arithmetic and bitwise operations: the integers of C's `atomic_t` and `atomic64_t`.
pub trait AtomicArithmeticOps: AtomicExchangeOps + AtomicBasicOps<Prim: Primitive> {
    /// A delta as the primitives' integer.
    fn delta_into_int(d: Self::Delta) -> <Self::Prim as LoadStore>::V;
}

/// Implements the operation traits for integer representation `$t` on primitives `$prim`.
macro_rules! impl_integer_ops {
    ($($t:ty => $prim:ty, $scalar:literal $(, $arith:ident)?;)+) => {$(
        impl AtomicBasicOps for $t {
            type Prim = $prim;
            const SCALAR: bool = $scalar;

            #[inline(always)]
            fn into_int(self) -> $t {
                self
            }

            #[inline(always)]
            fn from_int(v: $t) -> Self {
                v
            }
        }

        impl AtomicExchangeOps for $t {}

        $(
            impl $arith for $t {
                #[inline(always)]
                fn delta_into_int(d: $t) -> $t {
                    d
                }
            }
        )?
    )+};
}

impl_integer_ops! {
    i8 => backend::I8, true;
    i16 => backend::I16, true;
    i32 => backend::I32, false, AtomicArithmeticOps;
    i64 => backend::I64, false, AtomicArithmeticOps;
}

impl AtomicBasicOps for *const c_void {
    type Prim = backend::ILong;
    const SCALAR: bool = true;

    // A pointer is stored and exchanged as the integer of its address, as C's `xchg()` and
    // `cmpxchg()` on a pointer do; `as` keeps the provenance exposed, so the pointer a load
    // gives back may be dereferenced wherever the one stored could be.
    #[inline(always)]
    fn into_int(self) -> backend::Long {
        self as usize as backend::Long
    }

    #[inline(always)]
    fn from_int(v: backend::Long) -> Self {
        v as usize as *const c_void
    }
}

impl AtomicExchangeOps for *const c_void {}
