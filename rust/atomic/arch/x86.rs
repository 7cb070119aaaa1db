// SPDX-License-Identifier: GPL-2.0

//! x86 primitives.
//!
//! Implementation choices, with the ordering argument:
//! - Read-modify-write operations are `lock`-prefixed instructions (`xadd` for fetch-add and,
//!   with the negated operand, fetch-sub). A locked instruction is a full barrier on x86
//!   (Intel SDM Vol. 3A, 9.2.2 "Memory Ordering in P6 and More Recent Processor Families":
//!   "Locked instructions have a total order" and "reads or writes cannot be reordered with
//!   locked instructions"), so the relaxed, acquire, release and fully ordered variants are all
//!   the same instruction, as in C's `arch/x86/include/asm/atomic.h`.
//! - The `lock` prefix is recorded in `.smp_locks`, exactly as C's `LOCK_PREFIX` does, so that
//!   the kernel can patch it out when it runs on a single CPU; without `CONFIG_SMP` there is no
//!   prefix at all.
//! - No `asm!` here has `preserves_flags`: `xadd` writes the arithmetic flags. None has `nomem`:
//!   like C's `"memory"` clobber, each operation is also a compiler barrier.

use core::arch::asm;

/// Emits `$insn` with the `lock` prefix that C's `LOCK_PREFIX` emits.
#[cfg(CONFIG_SMP)]
macro_rules! lock_prefixed {
    ($insn:literal) => {
        concat!(
            ".pushsection .smp_locks,\"a\"\n",
            ".balign 4\n",
            ".long 671f - .\n",
            ".popsection\n",
            "671:\n",
            "\tlock ",
            $insn
        )
    };
}

/// Emits `$insn` unprefixed: a kernel built without `CONFIG_SMP` has no other CPU to exclude.
#[cfg(not(CONFIG_SMP))]
macro_rules! lock_prefixed {
    ($insn:literal) => {
        $insn
    };
}

/// Atomically adds `i` to `*v` (wrapping) and returns the previous value; fully ordered.
///
/// # Safety
///
/// `v` must be valid for reads and writes of an `i32` and 4-byte aligned for the duration of
/// the call, and every access to `*v` that may run concurrently must be atomic.
#[inline(always)]
unsafe fn i32_xadd(v: *mut i32, mut i: i32) -> i32 {
    // `xadd` accesses exactly the four bytes at `v` and does not touch the stack.
    // SAFETY: The caller guarantees that `v` is valid, aligned and accessed atomically.
    unsafe {
        asm!(
            lock_prefixed!("xaddl {i:e}, ({v})"),
            v = in(reg) v,
            i = inout(reg) i,
            options(att_syntax, nostack),
        );
    }
    i
}

/// C: `atomic_fetch_add_relaxed()`.
///
/// # Safety
///
/// As for [`i32_xadd`].
#[inline(always)]
pub(crate) unsafe fn i32_fetch_add_relaxed(v: *mut i32, i: i32) -> i32 {
    // SAFETY: The caller upholds the contract of `i32_xadd`.
    unsafe { i32_xadd(v, i) }
}

/// C: `atomic_fetch_sub_release()`. Subtraction is the addition of the wrapping negation,
/// which is exact for every `i`, `i32::MIN` included.
///
/// # Safety
///
/// As for [`i32_xadd`].
#[inline(always)]
pub(crate) unsafe fn i32_fetch_sub_release(v: *mut i32, i: i32) -> i32 {
    // SAFETY: The caller upholds the contract of `i32_xadd`.
    unsafe { i32_xadd(v, i.wrapping_neg()) }
}
