// SPDX-License-Identifier: GPL-2.0

//! arm64 primitives.
//!
//! Implementation choices, with the ordering argument:
//! - Read-modify-write operations are load-exclusive/store-exclusive (LL/SC) loops, the
//!   sequences of C's `arch/arm64/include/asm/atomic_ll_sc.h`: the ordering is carried by the
//!   exclusive instructions themselves, `ldxr`/`stxr` for RELAXED and `ldxr`/`stlxr` for
//!   RELEASE (Arm ARM, B2.3.7 "Load-Acquire, Store-Release": a store-release is observed only
//!   after every access that precedes it in program order).
//! - The load-exclusive and the store-exclusive sit in one `asm!` block: the compiler must not
//!   put a memory access (a spill) between them, which could clear the exclusive monitor on
//!   every iteration and make the loop livelock (Arm ARM, B2.9.5 "Load-Exclusive and
//!   Store-Exclusive instruction usage restrictions").
//! - `prfm pstl1strm` first, as C does, to fetch the line for writing rather than reading.
//! - The asm writes no flags (`add`, `sub`, `cbnz` leave NZCV alone), so `preserves_flags`
//!   holds. No block has `nomem`: each is also a compiler barrier, as C's are for the ordered
//!   variants.
//! - Outputs are `out`, never `lateout`: they are written while the inputs are still needed by
//!   the next iteration, so they must not share a register with an input.

use core::arch::asm;

/// Defines `unsafe fn $name(v: *mut i32, i: i32) -> i32`: an LL/SC loop that stores
/// `old $op i` and returns `old`, with load-exclusive `$ldx` and store-exclusive `$stx`.
macro_rules! ll_sc_fetch_op_i32 {
    ($(#[$meta:meta])* $name:ident, $op:literal, $ldx:literal, $stx:literal) => {
        $(#[$meta])*
        ///
        /// # Safety
        ///
        /// `v` must be valid for reads and writes of an `i32` and 4-byte aligned for the
        /// duration of the call, and every access to `*v` that may run concurrently must be
        /// atomic.
        #[inline(always)]
        pub(crate) unsafe fn $name(v: *mut i32, i: i32) -> i32 {
            let old: i32;
            // The loop accesses exactly the four bytes at `v` and retries until its
            // store-exclusive succeeds; it touches neither the stack nor the flags.
            // SAFETY: The caller guarantees that `v` is valid, aligned and accessed atomically.
            unsafe {
                asm!(
                    "prfm pstl1strm, [{v}]",
                    concat!("1: ", $ldx, " {old:w}, [{v}]"),
                    concat!($op, " {new:w}, {old:w}, {i:w}"),
                    concat!($stx, " {fail:w}, {new:w}, [{v}]"),
                    "cbnz {fail:w}, 1b",
                    v = in(reg) v,
                    i = in(reg) i,
                    old = out(reg) old,
                    new = out(reg) _,
                    fail = out(reg) _,
                    options(nostack, preserves_flags),
                );
            }
            old
        }
    };
}

ll_sc_fetch_op_i32!(
    /// C: `atomic_fetch_add_relaxed()`.
    i32_fetch_add_relaxed, "add", "ldxr", "stxr"
);
ll_sc_fetch_op_i32!(
    /// C: `atomic_fetch_sub_release()`.
    i32_fetch_sub_release, "sub", "ldxr", "stlxr"
);
