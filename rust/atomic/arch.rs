// SPDX-License-Identifier: GPL-2.0

//! The contract between the library and an architecture, and the architecture this kernel is
//! built for.
//!
//! An architecture is one file, `arch/<arch>.rs`, whose type `Arch` implements [`Contract`]:
//! every item the library takes from an architecture is an item of that trait, so that the
//! compiler lists what a new architecture lacks. The typed API is built on these alone:
//!
//! - the marker types [`Contract::I8`], [`Contract::I16`], [`Contract::I32`] and
//!   [`Contract::I64`], whose implementations of `primitive.rs`'s traits are the loads, stores,
//!   exchanges and read-modify-write operations;
//! - the barriers `smp_mb()`, `smp_rmb()`, `smp_wmb()`, `smp_mb__before_atomic()`,
//!   `smp_mb__after_atomic()` and `smp_mb__after_spinlock()`, of which only `smp_mb()` has no
//!   default: the others default to what C's `include/asm-generic/barrier.h` (6.12: lines
//!   61-93, 131-135) and `include/linux/spinlock.h` (6.12: line 176) make of them when the
//!   architecture does not define them, and an architecture overrides exactly those its C
//!   overrides;
//! - [`Contract::ACQUIRE_RELEASE_VOLATILE`], which says how the sanitizers see its
//!   `smp_load_acquire()` and `smp_store_release()`, and [`Contract::implementation`].
//!
//! What C decides for every architecture alike is decided here, once: `barrier()` is the
//! compiler's (`include/linux/compiler.h`), and without `CONFIG_SMP` the `smp_*()` barriers are
//! `barrier()` (asm-generic/barrier.h, 6.12: lines 110-121, 179-190), all but
//! `smp_mb__after_spinlock()`, which is the architecture's either way.

use super::primitive::{Exchange, Primitive};
use core::arch::asm;

/// Defines the marker type `$m` of each integer type `$t` for an architecture (`$arch`, as the
/// markers' docs name it) and implements [`LoadStore`](super::primitive::LoadStore) for it:
/// `READ_ONCE()` and `WRITE_ONCE()` are volatile accesses (the trait's defaults),
/// `smp_load_acquire()` the volatile load and then `$acquire`, `smp_store_release()` `$release`
/// and then the volatile store: the shape of C's asm-generic `__smp_load_acquire()` and
/// `__smp_store_release()` (include/asm-generic/barrier.h), which the architectures that build
/// theirs that way share, each with its own fences (see their module docs for which and why).
/// Volatile accesses are what C's are, so KASAN and KCSAN see them as C's
/// ([`Contract::ACQUIRE_RELEASE_VOLATILE`]).
// Unused where loads and stores are instructions of their own (arm64's `ldar`/`stlr`) or C's
// (the generic fallback).
#[allow(unused_macros)]
macro_rules! fenced_load_store {
    ($arch:literal, acquire: $acquire:block, release: $release:block; $($m:ident: $t:ty),+) => {$(
        #[doc = concat!("The ", $arch, " primitives on `", stringify!($t), "`.")]
        pub enum $m {}

        // SAFETY: Naturally aligned volatile accesses of at most the architecture's word size are
        // single accesses, and the fences give the ordered variants their ordering (the
        // architecture's module docs).
        unsafe impl super::super::primitive::LoadStore for $m {
            type V = $t;

            #[inline(always)]
            unsafe fn read_acquire(p: *const Self::V) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                let v = unsafe { p.read_volatile() };
                $acquire
                v
            }

            #[inline(always)]
            unsafe fn set_release(p: *mut Self::V, v: Self::V) {
                $release
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe { p.write_volatile(v) }
            }
        }
    )+};
}

// An architecture's own file, unless `--cfg rust_atomic_fallback` asks for the generic one.
// x86_64, and UML on it (`CONFIG_UML` sets `CONFIG_X86_64`: the same instructions, UML's
// barriers).
#[cfg(all(CONFIG_X86_64, not(rust_atomic_fallback)))]
#[path = "arch/x86.rs"]
mod imp;

#[cfg(all(CONFIG_ARM64, not(rust_atomic_fallback)))]
#[path = "arch/arm64.rs"]
mod imp;

#[cfg(all(CONFIG_RISCV, CONFIG_64BIT, not(rust_atomic_fallback)))]
#[path = "arch/riscv64.rs"]
mod imp;

#[cfg(all(CONFIG_LOONGARCH, CONFIG_64BIT, not(rust_atomic_fallback)))]
#[path = "arch/loongarch64.rs"]
mod imp;

// s390x where C's atomics are the z196 interlocked-access ones (the kernel's default -march;
// a z10 kernel's are `cs` loops: arch/s390/include/asm/atomic_ops.h:61-171).
#[cfg(all(
    CONFIG_S390,
    CONFIG_HAVE_MARCH_Z196_FEATURES,
    not(rust_atomic_fallback)
))]
#[path = "arch/s390x.rs"]
mod imp;

// 32-bit ARM where C's code is ARMv7's (`__LINUX_ARM_ARCH__` 7: arch/arm/Makefile:77-85).
#[cfg(all(
    CONFIG_ARM,
    CONFIG_CPU_32v7,
    not(CONFIG_CPU_32v6),
    not(rust_atomic_fallback)
))]
#[path = "arch/arm.rs"]
mod imp;

// Every other architecture the kernel builds Rust for, and any with `--cfg rust_atomic_fallback`:
// the kernel's C operations, called (`arch/generic.rs`, with `fallback.c`).
#[cfg(any(
    rust_atomic_fallback,
    not(any(
        CONFIG_X86_64,
        CONFIG_ARM64,
        all(CONFIG_RISCV, CONFIG_64BIT),
        all(CONFIG_LOONGARCH, CONFIG_64BIT),
        all(CONFIG_S390, CONFIG_HAVE_MARCH_Z196_FEATURES),
        all(CONFIG_ARM, CONFIG_CPU_32v7, not(CONFIG_CPU_32v6))
    ))
))]
#[path = "arch/generic.rs"]
mod imp;

/// What an architecture provides: implemented by the type `Arch` of `arch/<arch>.rs`. (Public in
/// a private module, as the marker types are: the typed API names them in its public traits.)
///
/// # Safety
///
/// The marker types' implementations are atomic and ordered as the LKMM defines the C
/// operations of the same names (the `# Safety` sections of `primitive.rs`'s traits), and each
/// barrier orders at least what C's barrier of the same name orders on the architecture.
pub unsafe trait Contract {
    /// The primitives on `i8`: loads, stores, `xchg` and `cmpxchg`.
    type I8: Exchange<V = i8>;
    /// The primitives on `i16`: loads, stores, `xchg` and `cmpxchg`.
    type I16: Exchange<V = i16>;
    /// The primitives on `i32` (`atomic_t`): every operation.
    type I32: Primitive<V = i32>;
    /// The primitives on `i64` (`atomic64_t`): every operation.
    type I64: Primitive<V = i64>;

    /// Whether `smp_load_acquire()` and `smp_store_release()` are volatile accesses (then the
    /// compilers' KASAN instrumentation checks them and C's KCSAN sees them as marked accesses,
    /// as on x86), or instructions in inline assembly that C tells KASAN about explicitly and
    /// KCSAN does not see (arm64's `ldar`/`stlr`). `instrument.rs` follows it.
    const ACQUIRE_RELEASE_VOLATILE: bool;

    /// `smp_mb()` on SMP: orders all earlier accesses before all later ones.
    fn smp_mb();

    /// `smp_rmb()` on SMP: asm-generic's `__smp_rmb()` is `rmb()`, which is `mb()`.
    #[inline(always)]
    fn smp_rmb() {
        Self::smp_mb();
    }

    /// `smp_wmb()` on SMP: asm-generic's `__smp_wmb()` is `wmb()`, which is `mb()`.
    #[inline(always)]
    fn smp_wmb() {
        Self::smp_mb();
    }

    /// `smp_mb__before_atomic()` on SMP: asm-generic's is `__smp_mb()`.
    #[inline(always)]
    // The C name, so that it is found where C uses it.
    #[allow(non_snake_case)]
    fn smp_mb__before_atomic() {
        Self::smp_mb();
    }

    /// `smp_mb__after_atomic()` on SMP: asm-generic's is `__smp_mb()`.
    #[inline(always)]
    // The C name, so that it is found where C uses it.
    #[allow(non_snake_case)]
    fn smp_mb__after_atomic() {
        Self::smp_mb();
    }

    /// `smp_mb__after_spinlock()`: nothing in C's generic definition (`kcsan_mb()`, which is
    /// empty without KCSAN), for architectures whose lock acquisition is a full barrier.
    #[inline(always)]
    // The C name, so that it is found where C uses it.
    #[allow(non_snake_case)]
    fn smp_mb__after_spinlock() {}

    /// Which instructions the read-modify-write operations run on this system, for reports
    /// (where a boot-time selection chooses among several, which one it chose).
    fn implementation() -> &'static str;
}

/// The architecture this kernel is built for.
type Arch = imp::Arch;

/// The primitives on `i8`.
pub(crate) type I8 = <Arch as Contract>::I8;
/// The primitives on `i16`.
pub(crate) type I16 = <Arch as Contract>::I16;
/// The primitives on `i32`.
pub(crate) type I32 = <Arch as Contract>::I32;
/// The primitives on `i64`.
pub(crate) type I64 = <Arch as Contract>::I64;

/// C's `long`: the width of `isize`, `usize`, pointers and `atomic_long_t`, decided here once.
/// `atomic_long_t` is `atomic64_t` with `CONFIG_64BIT` and `atomic_t` without
/// (`include/linux/atomic/atomic-long.h`, 6.12: lines 12-22), as upstream's `isize_atomic_repr`.
#[cfg(CONFIG_64BIT)]
pub(crate) type Long = i64;
/// C's `long`: see above.
#[cfg(not(CONFIG_64BIT))]
pub(crate) type Long = i32;
/// The primitives on C's `long` ([`Long`]): those of `atomic64_t` or of `atomic_t`.
#[cfg(CONFIG_64BIT)]
pub(crate) type ILong = I64;
/// The primitives on C's `long`: see above.
#[cfg(not(CONFIG_64BIT))]
pub(crate) type ILong = I32;

const _: () = assert!(core::mem::size_of::<Long>() == core::mem::size_of::<usize>());

/// See [`Contract::ACQUIRE_RELEASE_VOLATILE`].
pub(crate) const ACQUIRE_RELEASE_VOLATILE: bool = <Arch as Contract>::ACQUIRE_RELEASE_VOLATILE;

/// A compiler barrier, C's `barrier()` (`include/linux/compiler.h`): the compiler neither moves
/// memory accesses across it nor caches memory values across it; no instruction is emitted.
#[inline(always)]
pub(crate) fn barrier() {
    // SAFETY: An empty `asm!` has no effect but being a compiler barrier.
    unsafe { asm!("", options(nostack, preserves_flags)) };
}

/// Defines each barrier of [`Contract`] as a function: the architecture's with `CONFIG_SMP`,
/// `barrier()` without it (no other CPU can observe the order; asm-generic/barrier.h).
macro_rules! smp_barriers {
    ($($name:ident),+) => {$(
        #[doc = concat!("`", stringify!($name), "()`: see [`Contract::", stringify!($name), "`].")]
        #[inline(always)]
        // The C name, so that it is found where C uses it.
        #[allow(non_snake_case)]
        pub(crate) fn $name() {
            #[cfg(CONFIG_SMP)]
            <Arch as Contract>::$name();
            #[cfg(not(CONFIG_SMP))]
            barrier();
        }
    )+};
}

smp_barriers!(
    smp_mb,
    smp_rmb,
    smp_wmb,
    smp_mb__before_atomic,
    smp_mb__after_atomic
);

/// `smp_mb__after_spinlock()`: the architecture's, with or without `CONFIG_SMP`, as C's is not
/// one of asm-generic's `smp_*()` barriers (riscv's stays a `fence iorw,iorw`).
#[inline(always)]
// The C name, so that it is found where C uses it.
#[allow(non_snake_case)]
pub(crate) fn smp_mb__after_spinlock() {
    <Arch as Contract>::smp_mb__after_spinlock();
}

/// The architecture's `smp_mb()` with or without `CONFIG_SMP`: the redundant barrier of the
/// `extra_barrier` mutant (`mutant.rs`), which must cost an instruction on every kernel (on one
/// without `CONFIG_SMP`, [`smp_mb()`] is a compiler barrier).
#[cfg(rust_atomic_mutant = "extra_barrier")]
#[inline(always)]
pub(crate) fn smp_mb_instruction() {
    <Arch as Contract>::smp_mb();
}

/// See [`Contract::implementation`].
pub(crate) fn implementation() -> &'static str {
    <Arch as Contract>::implementation()
}
