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

#[path = "atomic/primitive.rs"]
mod primitive;

#[path = "atomic/arch.rs"]
mod arch;

#[cfg(rust_atomic_mutant)]
#[path = "atomic/mutant.rs"]
mod mutant;

/// The primitives the typed API is built on: the architecture's, or, in a mutation-test build,
/// the architecture's wrapped by `atomic/mutant.rs`.
mod backend {
    #[cfg(not(rust_atomic_mutant))]
    pub(crate) use super::arch::{I16, I32, I64, I8};

    #[cfg(rust_atomic_mutant)]
    pub(crate) type I8 = super::mutant::Mutant<super::arch::I8>;
    #[cfg(rust_atomic_mutant)]
    pub(crate) type I16 = super::mutant::Mutant<super::arch::I16>;
    #[cfg(rust_atomic_mutant)]
    pub(crate) type I32 = super::mutant::Mutant<super::arch::I32>;
    #[cfg(rust_atomic_mutant)]
    pub(crate) type I64 = super::mutant::Mutant<super::arch::I64>;

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

#[path = "atomic/barrier.rs"]
mod barrier;
pub use barrier::*;

#[path = "atomic/once.rs"]
mod once;
pub use once::*;

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
