// SPDX-License-Identifier: GPL-2.0

//! Deliberately broken primitives, for mutation tests only.
//!
//! A build with `--cfg rust_atomic_mutant="NAME"` uses the architecture's primitives except
//! the one that mutant `NAME` replaces with a wrong implementation. A test suite that is worth
//! its name must then fail; `samples/Kbuild` builds these variants and `scripts/boot-test`
//! checks that the expected test fails. Nothing here is ever built into a normal kernel.

pub(super) use super::arch::*;

/// Mutant `nonatomic_rmw`: fetch-add as a plain load followed by a plain store, so two CPUs
/// adding at once lose updates.
///
/// # Safety
///
/// `v` must be valid for reads and writes of an `i32` and aligned.
#[cfg(rust_atomic_mutant = "nonatomic_rmw")]
#[inline(always)]
pub(super) unsafe fn i32_fetch_add_relaxed(v: *mut i32, i: i32) -> i32 {
    // SAFETY: The caller guarantees that `v` is valid and aligned.
    let old = unsafe { v.read_volatile() };
    // SAFETY: As above.
    unsafe { v.write_volatile(old.wrapping_add(i)) };
    old
}

/// Mutant `sub_adds`: fetch-sub-release adds instead of subtracting.
///
/// # Safety
///
/// As for the architecture's `i32_fetch_sub_release`.
#[cfg(rust_atomic_mutant = "sub_adds")]
#[inline(always)]
pub(super) unsafe fn i32_fetch_sub_release(v: *mut i32, i: i32) -> i32 {
    // SAFETY: The caller upholds the architecture primitive's contract.
    unsafe { super::arch::i32_fetch_add_relaxed(v, i) }
}
