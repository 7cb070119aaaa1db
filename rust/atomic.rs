// SPDX-License-Identifier: GPL-2.0

//! Atomic and barrier primitives with the semantics of the Linux kernel memory model (LKMM).
//!
//! Rust code in the kernel shares data with C code, so it must follow the model C code follows:
//! the LKMM (`tools/memory-model/`, `Documentation/atomic_t.txt`,
//! `Documentation/memory-barriers.txt`), not the C++/Rust model of `core::sync::atomic`. Every
//! operation here has the semantics of the C operation of the same name, and the ordering is
//! part of the name (`_relaxed`, `_acquire`, `_release`, or none for fully ordered), chosen per
//! access.
//!
//! The types ([`AtomicI32`] for C's `atomic_t`, [`AtomicI64`] for `atomic64_t`,
//! [`AtomicIsize`] for `atomic_long_t`, unsigned views of each, and load/store-only 8- and
//! 16-bit types) are for variables that are shared in every context. Where only some contexts
//! share a variable (data under a lock elsewhere, say), keep it a plain variable and mark the
//! shared accesses with [`read_once`] and [`write_once`], as C does with `READ_ONCE()` and
//! `WRITE_ONCE()`: it is the context of an access, not the type of the variable, that makes it
//! need care.
//!
//! Every operation is inline assembly (one file per architecture under `atomic/arch/`), so an
//! atomic operation costs what it costs in C: a few instructions, never a function call.
//!
//! # Two spellings of one table
//!
//! Every operation has two names, both generated from `scripts/atomic/atomics.tbl` (the
//! kernel's own table) and both compiled to the same primitives:
//!
//! - The C names, on the C-named types: `AtomicI32::fetch_add_release(1)` is
//!   `atomic_fetch_add_release(v, 1)`, the ordering a suffix of the name. These are what C
//!   developers grep for, and every C operation is here.
//! - Upstream's spelling (Linux 6.18 and later, whose implementation calls a C helper per
//!   operation): [`Atomic<T>`] over any [`AtomicType`], the ordering an argument of type
//!   [`Relaxed`], [`Acquire`], [`Release`] or [`Full`] ([`ordering`]): `a.fetch_add(1, Release)`.
//!   Code written for mainline compiles unchanged against this module. Upstream (7.2) has
//!   `load`, `store`, `xchg`, `cmpxchg`, `add`, `fetch_add`, `fetch_sub`, [`AtomicFlag`] and the
//!   raw-pointer [`atomic_load`], [`atomic_store`], [`xchg`] and [`cmpxchg`]; every other method of
//!   `Atomic<T>` (`sub`, the bitwise operations, the `_return` and `fetch_` forms, `inc`/`dec`,
//!   `*_and_test`, `add_negative`, `fetch_add_unless`, `inc_not_zero` and the like,
//!   `try_cmpxchg`) is this module's, in upstream's spelling, and its documentation says so.
//!
//! Where the two spellings would use one name for two signatures (C's fully ordered
//! `cmpxchg(old, new) -> T` against upstream's `cmpxchg(old, new, ordering) -> Result<T, T>`;
//! `xchg` likewise), Rust, having no overloading, could not have both on one type. So they are
//! two types over one representation: [`AtomicI32`] and `Atomic<i32>` have the same size,
//! alignment and bits, and `AtomicI32::typed()` / `Atomic::<i32>::c_named()` convert a
//! reference to one into a reference to the other at no cost, so that code in either spelling
//! can share one variable. A method call never means something else than its spelling says.
//!
//! ```
//! use kernel::sync::atomic::{Atomic, AtomicI32, Full, Relaxed};
//!
//! let c_style = AtomicI32::new(1);
//! assert_eq!(c_style.cmpxchg(1, 2), 1); // C's atomic_cmpxchg(): returns the value found.
//! let upstream_style: &Atomic<i32> = c_style.typed(); // The same variable.
//! assert_eq!(upstream_style.cmpxchg(2, 3, Full), Ok(2));
//! assert_eq!(upstream_style.c_named().read(), 3);
//! assert_eq!(upstream_style.load(Relaxed), 3);
//! ```

#[path = "atomic/primitive.rs"]
mod primitive;

#[path = "atomic/arch.rs"]
mod arch;

#[path = "atomic/instrument.rs"]
mod instrument;

#[cfg(rust_atomic_mutant)]
#[path = "atomic/mutant.rs"]
mod mutant;

/// The primitives the typed API is built on: the architecture's, or, in a mutation-test build,
/// the architecture's wrapped by `atomic/mutant.rs`.
mod backend {
    /// C's `long` (`arch.rs`: from `CONFIG_64BIT`).
    pub(crate) use super::arch::Long;
    #[cfg(not(rust_atomic_mutant))]
    pub(crate) use super::arch::{ILong, I16, I32, I64, I8};

    #[cfg(rust_atomic_mutant)]
    pub(crate) type I8 = super::mutant::Mutant<super::arch::I8>;
    #[cfg(rust_atomic_mutant)]
    pub(crate) type I16 = super::mutant::Mutant<super::arch::I16>;
    #[cfg(rust_atomic_mutant)]
    pub(crate) type I32 = super::mutant::Mutant<super::arch::I32>;
    #[cfg(rust_atomic_mutant)]
    pub(crate) type I64 = super::mutant::Mutant<super::arch::I64>;
    #[cfg(rust_atomic_mutant)]
    pub(crate) type ILong = super::mutant::Mutant<super::arch::ILong>;

    /// The barriers.
    #[cfg(not(rust_atomic_mutant))]
    pub(crate) mod fence {
        pub(crate) use super::super::arch::{
            barrier, smp_mb, smp_mb__after_atomic, smp_mb__after_spinlock, smp_mb__before_atomic,
            smp_rmb, smp_wmb,
        };
    }
    #[cfg(rust_atomic_mutant)]
    pub(crate) use super::mutant::fence;
}

#[path = "atomic/generated.rs"]
mod generated;
pub use generated::*;

#[path = "atomic/ordering.rs"]
pub mod ordering;
pub use ordering::{Acquire, Full, Relaxed, Release};

#[path = "atomic/internal.rs"]
mod internal;
pub use internal::AtomicImpl;
// As upstream: for the kernel crate's own generic users (`debugfs` bounds its `Atomic<T>`
// readers on `T::Repr: AtomicBasicOps`); a sample crate need not use them.
#[allow(unused_imports)]
pub(crate) use internal::{AtomicArithmeticOps, AtomicBasicOps, AtomicExchangeOps};

#[path = "atomic/typed.rs"]
mod typed;
pub use typed::{
    atomic_load, atomic_store, cmpxchg, xchg, Atomic, AtomicAdd, AtomicBitwise, AtomicInteger,
    AtomicSigned, AtomicType,
};

#[path = "atomic/generated_typed.rs"]
mod generated_typed;

#[path = "atomic/predefine.rs"]
mod predefine;

#[path = "atomic/flag.rs"]
mod flag;
pub use flag::AtomicFlag;

#[path = "atomic/barrier.rs"]
mod barrier;
pub use barrier::*;

#[path = "atomic/once.rs"]
mod once;
pub use once::*;

#[path = "atomic/rcu.rs"]
mod rcu;
pub use rcu::{
    rcu_access_pointer, rcu_assign_pointer, rcu_dereference, rcu_dereference_protected,
    rcu_init_pointer, rcu_replace_pointer, RcuPointer,
};

/// Which instructions the read-modify-write operations run on this system, for reports: on
/// arm64 it says whether the boot-time selection chose the LSE atomics or the LL/SC loops.
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::implementation;
///
/// assert!(!implementation().is_empty());
/// ```
pub fn implementation() -> &'static str {
    arch::implementation()
}
