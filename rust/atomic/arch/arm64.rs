// SPDX-License-Identifier: GPL-2.0

//! arm64 primitives.
//!
//! Implementation choices, with the ordering argument:
//! - Read-modify-write operations are load-exclusive/store-exclusive (LL/SC) loops, the
//!   sequences of C's `arch/arm64/include/asm/atomic_ll_sc.h` and `cmpxchg.h`. The ordering is
//!   carried by the exclusive instructions and one barrier, per C's choice for each ordering:
//!   RELAXED `ldxr`/`stxr`; ACQUIRE `ldaxr`/`stxr`; RELEASE `ldxr`/`stlxr`; fully ordered
//!   `ldxr`/`stlxr` followed by `dmb ish` (Arm ARM, B2.3.7 "Load-Acquire, Store-Release" and
//!   B2.3.11 "Memory barriers"). A failed cmpxchg branches past the store and the barrier: it
//!   is a relaxed load, as the LKMM allows.
//! - The load-exclusive and the store-exclusive sit in one `asm!` block: the compiler must not
//!   put a memory access (a spill) between them, which could clear the exclusive monitor on
//!   every iteration and make the loop livelock (Arm ARM, B2.9.5 "Load-Exclusive and
//!   Store-Exclusive instruction usage restrictions").
//! - `prfm pstl1strm` first, as C does, to fetch the line for writing rather than reading.
//! - Loads and stores are volatile accesses, as C's `READ_ONCE()`/`WRITE_ONCE()` (aligned
//!   accesses up to 8 bytes are single-copy atomic, Arm ARM B2.2.1); `smp_load_acquire()` is
//!   `ldar`, `smp_store_release()` is `stlr`, as in C's `arch/arm64/include/asm/barrier.h`.
//! - The asm writes no flags (`add`, `sub`, `and`, `orr`, `eor`, `bic`, `cbnz` leave NZCV
//!   alone), so `preserves_flags` holds. No block has `nomem`: each is also a compiler barrier.
//! - Outputs are `out`, never `lateout`: they are written while the inputs are still needed by
//!   the next iteration, so they must not share a register with an input.

use super::super::primitive::{LoadStore, Order, Primitive, Rmw};
use core::arch::asm;

/// A compiler barrier, C's `barrier()`: no instruction is emitted.
#[inline(always)]
pub(crate) fn barrier() {
    // SAFETY: An empty `asm!` has no effect but being a compiler barrier.
    unsafe { asm!("", options(nostack, preserves_flags)) };
}

/// Emits `dmb $option`, a data memory barrier over the inner shareable domain.
macro_rules! dmb {
    ($option:literal) => {
        // SAFETY: A barrier instruction has no effect but ordering.
        unsafe { asm!(concat!("dmb ", $option), options(nostack, preserves_flags)) }
    };
}

/// `smp_mb()`: orders all earlier accesses before all later ones.
#[inline(always)]
pub(crate) fn smp_mb() {
    dmb!("ish");
}

/// `smp_rmb()`: orders earlier loads before later loads and stores.
#[inline(always)]
pub(crate) fn smp_rmb() {
    dmb!("ishld");
}

/// `smp_wmb()`: orders earlier stores before later stores.
#[inline(always)]
pub(crate) fn smp_wmb() {
    dmb!("ishst");
}

/// `smp_mb__before_atomic()`: a relaxed read-modify-write orders nothing on arm64, so this is
/// a full barrier (the generic definition C uses on arm64).
#[inline(always)]
// The C name, so that it is found where C uses it.
#[allow(non_snake_case)]
pub(crate) fn smp_mb__before_atomic() {
    smp_mb();
}

/// `smp_mb__after_atomic()`: as [`smp_mb__before_atomic`].
#[inline(always)]
// The C name, so that it is found where C uses it.
#[allow(non_snake_case)]
pub(crate) fn smp_mb__after_atomic() {
    smp_mb();
}

/// Defines marker `$m` for the primitives on `$t` and implements [`LoadStore`] for it; the
/// acquire/release instructions end in `$sfx` and the registers take template modifier `$w`.
macro_rules! impl_load_store {
    ($($m:ident: $t:ty, $sfx:literal, $w:literal);+) => {$(
        #[doc = concat!("The arm64 primitives on `", stringify!($t), "`.")]
        pub(crate) enum $m {}

        // SAFETY: Aligned accesses of at most 8 bytes are single-copy atomic; `ldar`/`stlr`
        // are the acquire/release forms (see the module docs).
        unsafe impl LoadStore for $m {
            type V = $t;

            #[inline(always)]
            unsafe fn read(p: *const Self::V) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe { p.read_volatile() }
            }

            #[inline(always)]
            unsafe fn read_acquire(p: *const Self::V) -> Self::V {
                let v: Self::V;
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe {
                    asm!(
                        concat!("ldar", $sfx, " {v", $w, "}, [{p}]"),
                        p = in(reg) p,
                        v = out(reg) v,
                        options(nostack, preserves_flags),
                    )
                };
                v
            }

            #[inline(always)]
            unsafe fn set(p: *mut Self::V, v: Self::V) {
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe { p.write_volatile(v) }
            }

            #[inline(always)]
            unsafe fn set_release(p: *mut Self::V, v: Self::V) {
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe {
                    asm!(
                        concat!("stlr", $sfx, " {v", $w, "}, [{p}]"),
                        p = in(reg) p,
                        v = in(reg) v,
                        options(nostack, preserves_flags),
                    )
                };
            }
        }
    )+};
}

impl_load_store!(I8: i8, "b", ":w"; I16: i16, "h", ":w"; I32: i32, "", ":w"; I64: i64, "", "");

/// Expands `$m!($($args)*, LDX, STX, MB)` with the exclusives and barrier of `$order`.
macro_rules! by_order {
    ($order:expr, $m:ident!($($args:tt)*)) => {
        match $order {
            Order::Relaxed => $m!($($args)*, "ldxr", "stxr", ""),
            Order::Acquire => $m!($($args)*, "ldaxr", "stxr", ""),
            Order::Release => $m!($($args)*, "ldxr", "stlxr", ""),
            Order::Full => $m!($($args)*, "ldxr", "stlxr", "dmb ish"),
        }
    };
}

/// Expands `$m!($($args)*, INSN)` with the data-processing instruction of `$op`.
macro_rules! by_rmw {
    ($op:expr, $m:ident!($($args:tt)*)) => {
        match $op {
            Rmw::Add => $m!($($args)*, "add"),
            Rmw::Sub => $m!($($args)*, "sub"),
            Rmw::And => $m!($($args)*, "and"),
            Rmw::Or => $m!($($args)*, "orr"),
            Rmw::Xor => $m!($($args)*, "eor"),
            Rmw::AndNot => $m!($($args)*, "bic"),
        }
    };
}

/// The LL/SC loop `old = *p; new = old INSN v; *p = new`, retried until the store-exclusive
/// succeeds; evaluates to `(old, new)`.
macro_rules! ll_sc_rmw {
    ($t:ty, $w:literal, $p:expr, $v:expr, $insn:literal, $ldx:literal, $stx:literal, $mb:literal) => {{
        let (old, new): ($t, $t);
        // SAFETY: The caller of the enclosing function guarantees that `$p` is valid, aligned
        // and accessed atomically; the loop accesses exactly that integer.
        unsafe {
            asm!(
                "prfm pstl1strm, [{p}]",
                concat!("1: ", $ldx, " {old", $w, "}, [{p}]"),
                concat!($insn, " {new", $w, "}, {old", $w, "}, {v", $w, "}"),
                concat!($stx, " {tmp:w}, {new", $w, "}, [{p}]"),
                "cbnz {tmp:w}, 1b",
                $mb,
                p = in(reg) $p,
                v = in(reg) $v,
                old = out(reg) old,
                new = out(reg) new,
                tmp = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        (old, new)
    }};
}

/// The LL/SC exchange loop; evaluates to the old value.
macro_rules! ll_sc_xchg {
    ($t:ty, $w:literal, $p:expr, $new:expr, $ldx:literal, $stx:literal, $mb:literal) => {{
        let old: $t;
        // SAFETY: The caller of the enclosing function guarantees that `$p` is valid, aligned
        // and accessed atomically; the loop accesses exactly that integer.
        unsafe {
            asm!(
                "prfm pstl1strm, [{p}]",
                concat!("1: ", $ldx, " {old", $w, "}, [{p}]"),
                concat!($stx, " {tmp:w}, {new", $w, "}, [{p}]"),
                "cbnz {tmp:w}, 1b",
                $mb,
                p = in(reg) $p,
                new = in(reg) $new,
                old = out(reg) old,
                tmp = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        old
    }};
}

/// The LL/SC compare-and-exchange of C's `__CMPXCHG_CASE`; evaluates to the value found.
/// On a mismatch it branches past the store and the barrier.
macro_rules! ll_sc_cmpxchg {
    ($t:ty, $w:literal, $p:expr, $old:expr, $new:expr, $ldx:literal, $stx:literal, $mb:literal) => {{
        let found: $t;
        // SAFETY: The caller of the enclosing function guarantees that `$p` is valid, aligned
        // and accessed atomically; the loop accesses exactly that integer.
        unsafe {
            asm!(
                "prfm pstl1strm, [{p}]",
                concat!("1: ", $ldx, " {found", $w, "}, [{p}]"),
                concat!("eor {tmp", $w, "}, {found", $w, "}, {old", $w, "}"),
                concat!("cbnz {tmp", $w, "}, 2f"),
                concat!($stx, " {tmp:w}, {new", $w, "}, [{p}]"),
                "cbnz {tmp:w}, 1b",
                $mb,
                "2:",
                p = in(reg) $p,
                old = in(reg) $old,
                new = in(reg) $new,
                found = out(reg) found,
                tmp = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        found
    }};
}

/// Implements [`Primitive`] for marker `$m` of type `$t`, whose registers take template
/// modifier `$w`.
macro_rules! impl_primitive {
    ($m:ident: $t:ty, $w:literal) => {
        // SAFETY: Every operation is an LL/SC loop with C's exclusives and barriers for its
        // ordering (see the module docs).
        unsafe impl Primitive for $m {
            #[inline(always)]
            unsafe fn rmw(p: *mut Self::V, op: Rmw, v: Self::V) {
                by_rmw!(op, ll_sc_rmw_by_order!($t, $w, p, v, Order::Relaxed));
            }

            #[inline(always)]
            unsafe fn fetch_rmw(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
                by_rmw!(op, ll_sc_rmw_by_order!($t, $w, p, v, order)).0
            }

            #[inline(always)]
            unsafe fn rmw_return(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
                by_rmw!(op, ll_sc_rmw_by_order!($t, $w, p, v, order)).1
            }

            #[inline(always)]
            unsafe fn xchg(p: *mut Self::V, new: Self::V, order: Order) -> Self::V {
                by_order!(order, ll_sc_xchg!($t, $w, p, new))
            }

            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                old: Self::V,
                new: Self::V,
                order: Order,
            ) -> Self::V {
                by_order!(order, ll_sc_cmpxchg!($t, $w, p, old, new))
            }
        }
    };
}

/// `ll_sc_rmw!` with the exclusives of `$order`, for one instruction `$insn` (last argument,
/// as `by_rmw!` appends it).
macro_rules! ll_sc_rmw_by_order {
    ($t:ty, $w:literal, $p:expr, $v:expr, $order:expr, $insn:literal) => {
        by_order!($order, ll_sc_rmw!($t, $w, $p, $v, $insn))
    };
}

impl_primitive!(I32: i32, ":w");
impl_primitive!(I64: i64, "");
