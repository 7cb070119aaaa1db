// SPDX-License-Identifier: GPL-2.0

//! The benchmark's loops on upstream's own `kernel::sync::atomic` (Linux 6.18 and later: the
//! kernel crate's, not this library), shared by the benchmark crate, where the kernel's C
//! helpers are inlined (`CONFIG_RUST_INLINE_HELPERS`), and by `rust_atomic_bench_upstream.rs`,
//! the same loops built without them.

use kernel::sync::atomic::{Atomic, Full, Relaxed};

/// `iterations` increments of the `i32` at `v` by operation `op` (the benchmark's `Op`: 0
/// `fetch_add_relaxed`, 1 fully ordered `fetch_add`, 2 a `cmpxchg` loop).
///
/// # Safety
///
/// `v` must be valid and aligned, and only accessed atomically while the loop runs.
#[inline(always)]
pub(crate) unsafe fn upstream_loop(op: i32, v: *mut i32, iterations: i32) {
    // SAFETY: Per this function's contract.
    let v = unsafe { Atomic::<i32>::from_ptr(v) };
    match op {
        0 => {
            for _ in 0..iterations {
                v.fetch_add(1, Relaxed);
            }
        }
        1 => {
            for _ in 0..iterations {
                v.fetch_add(1, Full);
            }
        }
        _ => {
            for _ in 0..iterations {
                let mut old = v.load(Relaxed);
                while let Err(cur) = v.cmpxchg(old, old.wrapping_add(1), Full) {
                    old = cur;
                }
            }
        }
    }
}
