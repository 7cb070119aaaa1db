// SPDX-License-Identifier: GPL-2.0

//! The benchmark's loops on upstream's atomics (`common/bench_upstream.rs`) as a kernel without
//! `CONFIG_RUST_INLINE_HELPERS` runs them: Kbuild builds this crate of `rust_atomic_bench`
//! with that option off (`bench/kernel/Kbuild`), so that each operation calls the kernel's C helper,
//! compiled out of line into the module (`common/upstream_helpers.c`).

#[path = "common/bench_upstream.rs"]
mod bench_upstream;

/// [`bench_upstream::upstream_loop`], for the benchmark crate.
///
/// # Safety
///
/// As for [`bench_upstream::upstream_loop`].
#[no_mangle]
pub unsafe extern "C" fn rust_atomic_bench_upstream_loop(op: i32, v: *mut i32, iterations: i32) {
    // SAFETY: The caller upholds the contract, which is the loop's.
    unsafe { bench_upstream::upstream_loop(op, v, iterations) }
}
