// SPDX-License-Identifier: GPL-2.0

//! Host benchmark of the x86 layer of `kernel::sync::atomic` (`rust/atomic/arch/x86.rs`, the
//! very file the kernel builds), where cycles are real, unlike in a TCG guest: ns per
//! `fetch_add_relaxed` for
//! - `ours`: the library's inline `asm!` (`lock xadd`);
//! - `core`: `core::sync::atomic::AtomicI32::fetch_add(Relaxed)`, Rust's own model;
//! - `call`: the library's operation behind an out-of-line function called once per operation,
//!   the cost of the upstream approach (a call to a C helper per atomic operation).
//!
//! Each variant runs with 1..=N threads on one shared variable and with N threads on private
//! cache-line-aligned variables; every figure is the median of `REPEATS` runs after a warm-up.
//! Prints one machine-readable line per measurement:
//! `bench host <variant> <shared|private> <threads> <ns/op>`.

#[path = "../../../rust/atomic.rs"]
#[allow(dead_code, unused_imports)]
mod atomic;

use atomic::AtomicI32;
use std::hint::black_box;
use std::sync::atomic::Ordering;
use std::sync::Barrier;
use std::time::Instant;

/// Operations per thread per run.
const OPS: u32 = 10_000_000;
/// Runs per measurement; the median is reported.
const REPEATS: usize = 11;

/// A variable alone on its cache line, so that private variables do not share lines.
#[repr(C, align(64))]
struct Padded<T>(T);

/// The upstream approach: one out-of-line call per operation.
#[inline(never)]
extern "C" fn call_fetch_add(v: &AtomicI32, i: i32) -> i32 {
    v.fetch_add_relaxed(i)
}

#[derive(Clone, Copy)]
enum Variant {
    Ours,
    Core,
    Call,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::Ours => "ours",
            Variant::Core => "core",
            Variant::Call => "call",
        }
    }
}

/// Runs `OPS` operations of `variant` on `v`.
#[inline(always)]
fn run(variant: Variant, v: &AtomicI32) {
    match variant {
        Variant::Ours => {
            for _ in 0..OPS {
                black_box(v.fetch_add_relaxed(black_box(1)));
            }
        }
        Variant::Core => {
            // `AtomicI32` has the layout of an `i32`; here it is only accessed atomically.
            // SAFETY: `v.as_ptr()` is a valid, aligned `i32` for `v`'s lifetime, as `core` needs.
            let c = unsafe { core::sync::atomic::AtomicI32::from_ptr(v.as_ptr()) };
            for _ in 0..OPS {
                black_box(c.fetch_add(black_box(1), Ordering::Relaxed));
            }
        }
        Variant::Call => {
            for _ in 0..OPS {
                black_box(call_fetch_add(black_box(v), black_box(1)));
            }
        }
    }
}

/// ns per operation, per thread, of one run of `threads` threads; `shared` puts them all on
/// one variable, otherwise each has its own cache line.
fn once(variant: Variant, threads: usize, shared: bool) -> f64 {
    let vars: Vec<Padded<AtomicI32>> = (0..threads).map(|_| Padded(AtomicI32::new(0))).collect();
    let barrier = Barrier::new(threads);
    let times: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let v = if shared { &vars[0].0 } else { &vars[t].0 };
                let barrier = &barrier;
                s.spawn(move || {
                    barrier.wait();
                    let start = Instant::now();
                    run(variant, v);
                    start.elapsed().as_nanos() as f64
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let total: i64 = vars.iter().map(|v| i64::from(v.0.read())).sum();
    assert_eq!(total, i64::from(OPS) * threads as i64, "lost updates");
    times.iter().sum::<f64>() / threads as f64 / f64::from(OPS)
}

/// Median ns/op over `REPEATS` runs, after one warm-up run.
fn measure(variant: Variant, threads: usize, shared: bool) -> f64 {
    once(variant, threads, shared);
    let mut runs: Vec<f64> = (0..REPEATS)
        .map(|_| once(variant, threads, shared))
        .collect();
    runs.sort_by(f64::total_cmp);
    runs[REPEATS / 2]
}

fn main() {
    let n = std::thread::available_parallelism().map_or(1, |n| n.get());
    let variants = [Variant::Ours, Variant::Core, Variant::Call];
    for threads in 1..=n {
        for v in variants {
            let ns = measure(v, threads, true);
            println!("bench host {} shared {threads} {ns:.3}", v.name());
        }
    }
    for v in variants {
        let ns = measure(v, n, false);
        println!("bench host {} private {n} {ns:.3}", v.name());
    }
}
