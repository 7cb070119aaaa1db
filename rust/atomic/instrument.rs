// SPDX-License-Identifier: GPL-2.0

//! What KASAN and KCSAN see of an operation: the hooks C's instrumented layer calls before the
//! architecture's instructions, which no sanitizer sees in inline assembly.
//!
//! C's `atomic_*()` are `include/linux/atomic/atomic-instrumented.h`: before the raw operation,
//! `kcsan_mb()` for a fully ordered one, `kcsan_release()` for a release one, then
//! `instrument_atomic_read()`, `instrument_atomic_write()` or `instrument_atomic_read_write()` of
//! the variable (`try_cmpxchg()`: of `*old` too). Those are (`include/linux/instrumented.h`)
//! `kasan_check_read()`/`kasan_check_write()` (a read-modify-write is checked as a write) and
//! `kcsan_check_atomic_read()`, `_write()`, `_read_write()`: `__kcsan_check_access()` with
//! `KCSAN_ACCESS_ATOMIC`, `| KCSAN_ACCESS_WRITE`, `| KCSAN_ACCESS_COMPOUND`
//! (`include/linux/kcsan-checks.h`). `kcsan_mb()` and friends do something only with
//! `CONFIG_KCSAN_WEAK_MEMORY`; the atomic checks nothing with `CONFIG_KCSAN_IGNORE_ATOMICS`. The
//! barriers (`include/asm-generic/barrier.h`) call `kcsan_mb()`, `kcsan_rmb()`, `kcsan_wmb()`
//! first; `smp_store_release()` calls `kcsan_release()`.
//!
//! Here the same hooks are calls of the exported C functions behind those macros
//! (`__kasan_check_read()`, `__kasan_check_write()`, `__kcsan_check_access()`, `__kcsan_mb()`,
//! `__kcsan_rmb()`, `__kcsan_wmb()`, `__kcsan_release()`), made only when the kernel has the
//! sanitizer: without `CONFIG_KASAN` and `CONFIG_KCSAN` every function below is empty and
//! inlined away, and the operations are exactly the instructions they are without it. Each
//! generated operation calls [`atomic`] with the access and ordering of its C twin
//! (`scripts/atomic/instrument.py` derives them from the table, and a host test holds them against
//! `atomic-instrumented.h`). Mutation tests break them here: `uninstrumented` (no hook at all)
//! and `kcsan_plain` (KCSAN told the accesses are plain), `tests/mutants-kasan` and
//! `tests/mutants-kcsan`.

use super::primitive::Order;

/// The kind of access an operation makes to its variable, as C's `instrument_atomic_*()` name it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// `instrument_atomic_read()`: loads.
    Read,
    /// `instrument_atomic_write()`: stores.
    Write,
    /// `instrument_atomic_read_write()`: every read-modify-write, exchange and compare-exchange.
    ReadWrite,
}

/// The hooks of the instrumented C operation that makes access `access` to the `T` at `p` with
/// ordering `order` (`atomic-instrumented.h`): the ordering's KCSAN barrier, then the access's
/// KASAN and KCSAN checks.
#[inline(always)]
pub(crate) fn atomic<T>(p: *const T, access: Access, order: Order) {
    match order {
        Order::Full => kcsan_mb(),
        Order::Release => kcsan_release(),
        Order::Acquire | Order::Relaxed => (),
    }
    marked(p, access);
}

/// The KASAN and KCSAN checks of an access of C's instrumented layer: `instrument_atomic_*()`.
#[inline(always)]
fn marked<T>(p: *const T, access: Access) {
    kasan_check(p, access);
    kcsan_check_atomic(p, access);
}

/// The hooks of a load of an atomic variable: of `atomic_read()` and `atomic_read_acquire()`
/// ([`atomic`]), or, on a `scalar` of C's `xchg()` family (`bool`, bytes, halfwords, pointers,
/// which C loads with `READ_ONCE()` and `smp_load_acquire()`), of those ([`read_once`],
/// [`load_acquire`]).
#[inline(always)]
pub(crate) fn load<T>(p: *const T, acquire: bool, scalar: bool) {
    match (scalar, acquire) {
        (false, _) => atomic(p, Access::Read, Order::Relaxed),
        (true, false) => read_once(p),
        (true, true) => load_acquire(p),
    }
}

/// The hooks of a store to an atomic variable, as [`load`]: `atomic_set()`,
/// `atomic_set_release()`, `WRITE_ONCE()`, `smp_store_release()`.
#[inline(always)]
pub(crate) fn store<T>(p: *const T, release: bool, scalar: bool) {
    match (scalar, release) {
        (false, false) => atomic(p, Access::Write, Order::Relaxed),
        (false, true) => atomic(p, Access::Write, Order::Release),
        (true, false) => write_once(p),
        (true, true) => store_release(p),
    }
}

/// The hooks of `READ_ONCE()`, which C's compilers instrument: KASAN checks the load, KCSAN
/// sees it as atomic (an aligned volatile access of at most 8 bytes, `kernel/kcsan/core.c`'s
/// `__tsan_volatile_read*()`). The plain loads here are volatile accesses too (on every
/// architecture), which rustc's KASAN instrumentation checks itself; but 6.12 passes rustc no
/// KCSAN flags, so KCSAN is told explicitly.
#[inline(always)]
pub(crate) fn read_once<T>(p: *const T) {
    kcsan_check_atomic(p, Access::Read);
}

/// The hooks of `WRITE_ONCE()`, as [`read_once`].
#[inline(always)]
pub(crate) fn write_once<T>(p: *const T) {
    kcsan_check_atomic(p, Access::Write);
}

/// The check of `*old` (`p`) of a `try_cmpxchg()`: C's `atomic_try_cmpxchg()` checks it as an
/// atomic read-modify-write, the scalar `try_cmpxchg()` macro (a `bool`, byte, halfword or
/// pointer: `scalar`) as a plain one, `instrument_read_write()` (atomic-instrumented.h).
#[inline(always)]
pub(crate) fn try_cmpxchg_old<T>(p: *const T, scalar: bool) {
    if !scalar {
        return marked(p, Access::ReadWrite);
    }
    kasan_check(p, Access::ReadWrite);
    #[cfg(all(CONFIG_KCSAN, not(rust_atomic_mutant = "uninstrumented")))]
    // KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND: kcsan_check_read_write().
    // SAFETY: KCSAN only records or watches the address; it never dereferences it.
    unsafe {
        hooks::__kcsan_check_access(p.cast(), size_of::<T>(), (1 << 0) | (1 << 1))
    };
}

/// The hooks of `smp_load_acquire()` on the `T` at `p`, as the architecture's C has them: x86's
/// is `READ_ONCE()` (arch/x86/include/asm/barrier.h:66), which both sanitizers see as an
/// atomic load, as [`read_once`]; arm64's is an `ldar` that KASAN checks
/// (`kasan_check_read()`, arch/arm64/include/asm/barrier.h:167) and KCSAN does not see.
#[inline(always)]
pub(crate) fn load_acquire<T>(p: *const T) {
    if super::arch::ACQUIRE_RELEASE_VOLATILE {
        // rustc's KASAN instrumentation checks the volatile load itself.
        kcsan_check_atomic(p, Access::Read);
    } else {
        kasan_check(p, Access::Read);
    }
}

/// The hooks of `smp_store_release()`: `kcsan_release()` on SMP only
/// (include/asm-generic/barrier.h:172; without SMP it is `barrier()` and `WRITE_ONCE()`, :193),
/// then, as for [`load_acquire`], x86's `WRITE_ONCE()` (arch/x86/include/asm/barrier.h:59) or
/// arm64's `kasan_check_write()` and `stlr` (arch/arm64/include/asm/barrier.h:133).
#[inline(always)]
pub(crate) fn store_release<T>(p: *const T) {
    #[cfg(CONFIG_SMP)]
    kcsan_release();
    if super::arch::ACQUIRE_RELEASE_VOLATILE {
        kcsan_check_atomic(p, Access::Write);
    } else {
        kasan_check(p, Access::Write);
    }
}

/// The KASAN check of an access (a read-modify-write is checked as a write, as C does).
#[inline(always)]
fn kasan_check<T>(p: *const T, access: Access) {
    #[cfg(all(
        any(CONFIG_KASAN_GENERIC, CONFIG_KASAN_SW_TAGS),
        not(rust_atomic_mutant = "uninstrumented")
    ))]
    {
        let (p, size) = (
            p.cast::<kernel::ffi::c_void>(),
            size_of::<T>() as kernel::ffi::c_uint,
        );
        // SAFETY: The checks only read KASAN's shadow of `p..p + size`, for any address.
        unsafe {
            if access == Access::Read {
                hooks::__kasan_check_read(p, size);
            } else {
                hooks::__kasan_check_write(p, size);
            }
        }
    }
    #[cfg(not(all(
        any(CONFIG_KASAN_GENERIC, CONFIG_KASAN_SW_TAGS),
        not(rust_atomic_mutant = "uninstrumented")
    )))]
    let _ = (p, access);
}

/// KCSAN's check of an atomic access (`kcsan_check_atomic_read()` and friends).
#[inline(always)]
fn kcsan_check_atomic<T>(p: *const T, access: Access) {
    #[cfg(all(
        CONFIG_KCSAN,
        not(CONFIG_KCSAN_IGNORE_ATOMICS),
        not(rust_atomic_mutant = "uninstrumented")
    ))]
    {
        // KCSAN_ACCESS_WRITE, _COMPOUND and _ATOMIC (include/linux/kcsan-checks.h).
        const WRITE: i32 = 1 << 0;
        const COMPOUND: i32 = 1 << 1;
        const ATOMIC: i32 = 1 << 2;
        let kind = match access {
            Access::Read => ATOMIC,
            Access::Write => ATOMIC | WRITE,
            Access::ReadWrite => ATOMIC | WRITE | COMPOUND,
        };
        // Mutant `kcsan_plain` (tests/mutants-kcsan): KCSAN is told the access is plain.
        #[cfg(rust_atomic_mutant = "kcsan_plain")]
        let kind = kind & !ATOMIC;
        // SAFETY: KCSAN only records or watches the address; it never dereferences it.
        unsafe { hooks::__kcsan_check_access(p.cast(), size_of::<T>(), kind) };
    }
    #[cfg(not(all(
        CONFIG_KCSAN,
        not(CONFIG_KCSAN_IGNORE_ATOMICS),
        not(rust_atomic_mutant = "uninstrumented")
    )))]
    let _ = (p, access);
}

/// KCSAN's check of a plain read of the `T` at `p`: what the compiler's instrumentation of a
/// plain C load calls (`__tsan_read*()`, `kernel/kcsan/core.c`: `check_access()` with no
/// `KCSAN_ACCESS_ATOMIC`). Only for mutant `rcu_dereference_plain` (`rcu.rs`), whose plain load
/// KCSAN must see as one (rustc does not instrument Rust code for KCSAN).
#[cfg(rust_atomic_mutant = "rcu_dereference_plain")]
#[inline(always)]
pub(crate) fn kcsan_plain_read<T>(p: *const T) {
    #[cfg(CONFIG_KCSAN)]
    // SAFETY: KCSAN only records or watches the address; it never dereferences it.
    unsafe {
        hooks::__kcsan_check_access(p.cast(), size_of::<T>(), 0)
    };
    #[cfg(not(CONFIG_KCSAN))]
    let _ = p;
}

/// Defines the KCSAN barrier hooks: `kcsan_mb()` and friends.
macro_rules! kcsan_barriers {
    ($($(#[$doc:meta])* $name:ident => $hook:ident;)+) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub(crate) fn $name() {
            #[cfg(all(CONFIG_KCSAN_WEAK_MEMORY, not(rust_atomic_mutant = "uninstrumented")))]
            // SAFETY: The hook only updates KCSAN's per-task model of reordered accesses.
            unsafe {
                hooks::$hook()
            };
        }
    )+};
}

kcsan_barriers! {
    /// `kcsan_mb()`: before a full barrier or a fully ordered operation.
    kcsan_mb => __kcsan_mb;
    /// `kcsan_rmb()`: before `smp_rmb()` (with `CONFIG_SMP` only, as C's).
    #[cfg_attr(not(CONFIG_SMP), allow(dead_code))]
    kcsan_rmb => __kcsan_rmb;
    /// `kcsan_wmb()`: before `smp_wmb()` (with `CONFIG_SMP` only, as C's).
    #[cfg_attr(not(CONFIG_SMP), allow(dead_code))]
    kcsan_wmb => __kcsan_wmb;
    /// `kcsan_release()`: before a release operation.
    kcsan_release => __kcsan_release;
}

/// The exported C functions behind the hooks (`mm/kasan/shadow.c`, `kernel/kcsan/core.c`), as
/// `include/linux/kasan-checks.h` and `kcsan-checks.h` declare them.
#[cfg(any(CONFIG_KASAN, CONFIG_KCSAN))]
#[allow(dead_code)]
mod hooks {
    use kernel::ffi::c_void;

    extern "C" {
        #[cfg(any(CONFIG_KASAN_GENERIC, CONFIG_KASAN_SW_TAGS))]
        pub(super) fn __kasan_check_read(p: *const c_void, size: kernel::ffi::c_uint) -> bool;
        #[cfg(any(CONFIG_KASAN_GENERIC, CONFIG_KASAN_SW_TAGS))]
        pub(super) fn __kasan_check_write(p: *const c_void, size: kernel::ffi::c_uint) -> bool;
        #[cfg(CONFIG_KCSAN)]
        pub(super) fn __kcsan_check_access(p: *const c_void, size: usize, kind: kernel::ffi::c_int);
        #[cfg(CONFIG_KCSAN)]
        pub(super) fn __kcsan_mb();
        #[cfg(CONFIG_KCSAN)]
        pub(super) fn __kcsan_rmb();
        #[cfg(CONFIG_KCSAN)]
        pub(super) fn __kcsan_wmb();
        #[cfg(CONFIG_KCSAN)]
        pub(super) fn __kcsan_release();
    }
}
