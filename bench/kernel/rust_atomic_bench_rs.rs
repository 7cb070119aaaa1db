// SPDX-License-Identifier: GPL-2.0

//! In-guest benchmark: the cost per operation of `kernel::sync::atomic` against C's atomics.
//!
//! For each operation (`fetch_add_relaxed`, fully ordered `fetch_add`, and an increment by
//! `cmpxchg`), four variants (six on Linux 7) add 1 to a counter `iterations` times per thread:
//!
//! - `rust_inline`: this library's inline `asm!`, in a Rust loop;
//! - `c_inline`: the kernel's inline `atomic_*()` in a C loop (`rust_atomic_bench_c_loop()`
//!   in `rust_atomic_bench_c.c`), the baseline;
//! - `c_call`: the same C operation out of line, called from a Rust loop once per operation
//!   (`rust_atomic_bench_c_fetch_add_relaxed()` and friends), as upstream's helpers are;
//! - `core`: `core::sync::atomic` (Rust's own memory model), for reference only;
//! - on Linux 7, upstream's own `kernel::sync::atomic` (`common/bench_upstream.rs`): `upstream`,
//!   as a kernel without `CONFIG_RUST_INLINE_HELPERS` has it (a call of a C helper per
//!   operation; with the option, the separately built crate `rust_atomic_bench_upstream.rs`),
//!   and with the option, `upstream_inline` (the helpers inlined into this crate).
//!
//! Each runs with 1..N kthreads (N: `threads`, default the online CPUs), bound to distinct
//! CPUs and started together, on one shared variable (`shared`) and on private
//! cache-line-aligned variables (`private`). Every thread times its own loop with
//! `ktime_get()`; a figure is the mean ns/op of the threads, and the reported one the median
//! of `rounds` rounds. Within a round every configuration runs all four variants one after the
//! other (in an order that rotates from round to round), so the ratios to `c_inline` are
//! measured side by side, in the same run: the reported ratio is the median of the rounds'
//! ratios (not the ratio of the medians).
//!
//! Output: a KTAP suite with one case per operation x mode x threads x variant, which passes
//! if every round completed with the exact counter total (no lost update), and one line per
//! case such as `# bench op=fetch_add_relaxed mode=shared threads=2 variant=rust_inline
//! ns_per_op=12.345 ratio_to_c_inline=1.012` for `scripts/perf/bench-report`. The benchmark runs
//! in `init`, so `insmod` returns when it is done.
//!
//! Parameters: `iterations=1..10000000` per thread per round, `rounds=1..99`,
//! `threads=1..<online CPUs, at most 16>`, and `ktap_number`, the suite's position in the boot
//! test's KTAP document (omit it when loading by hand).

use core::sync::atomic::{AtomicI32 as CoreAtomicI32, AtomicI64, AtomicUsize, Ordering};
use kernel::bindings;
use kernel::ffi::{c_int, c_void};
use kernel::prelude::*;

// `pub`, as `kernel::sync::atomic` is: the library is compiled here as it is in the kernel.
// `sample_module!`, before its use.
#[macro_use]
#[path = "../../samples/common/module.rs"]
mod module_macro;
#[path = "../../rust/atomic.rs"]
pub mod atomic;
#[path = "../../samples/common/ktap.rs"]
mod ktap;
#[path = "../../samples/common/kthread.rs"]
mod kthread;
#[path = "../../samples/common/math64.rs"]
mod math64;
#[path = "../../samples/common/param.rs"]
mod param;

use atomic::AtomicI32;
use kthread::Thread;
use param::module_param_i32;

sample_module! {
    type: RustAtomicBench,
    name: "rust_atomic_bench",
    description: "ns per atomic operation: Rust inline asm vs C inline vs a C call vs core",
}

/// The KTAP suite name, the module's (the crate is named after its file).
const SUITE: &str = "rust_atomic_bench";
/// Workers at most; their slots live in the `Bench` (in a `KBox`), one cache line each.
const MAX_THREADS: usize = 16;
const MAX_ITERATIONS: i32 = 10_000_000;
const DEFAULT_ITERATIONS: i32 = 100_000;
const MAX_ROUNDS: i32 = 99;
const DEFAULT_ROUNDS: i32 = 11;
/// A job that takes longer than this has hung: the benchmark stops there.
const JOB_TIMEOUT_NS: i64 = 120_000_000_000;

module_param_i32!(
    ITERATIONS,
    "iterations",
    DEFAULT_ITERATIONS,
    "Operations per thread per round, 1..10000000"
);
module_param_i32!(
    ROUNDS,
    "rounds",
    DEFAULT_ROUNDS,
    "Rounds; every figure is the median of the rounds, 1..99"
);
module_param_i32!(
    THREADS,
    "threads",
    0,
    "Most threads, 1..online CPUs, at most 16 (default: one per online CPU)"
);

extern "C" {
    fn rust_atomic_bench_c_read(v: *mut bindings::atomic_t) -> c_int;
    fn rust_atomic_bench_c_fetch_add_relaxed(v: *mut bindings::atomic_t, i: c_int) -> c_int;
    fn rust_atomic_bench_c_fetch_add(v: *mut bindings::atomic_t, i: c_int) -> c_int;
    fn rust_atomic_bench_c_cmpxchg(v: *mut bindings::atomic_t, old: c_int, new: c_int) -> c_int;
    fn rust_atomic_bench_c_loop(op: c_int, v: *mut bindings::atomic_t, iterations: c_int);
    #[cfg(CONFIG_RUST_INLINE_HELPERS)]
    fn rust_atomic_bench_upstream_loop(op: c_int, v: *mut i32, iterations: c_int);
}

// Upstream's atomics, in this crate (with the kernel's inline helpers if it has them).
#[cfg(kernel_7)]
#[path = "common/bench_upstream.rs"]
mod bench_upstream;

/// The operations; the numbers are the C side's `BENCH_*`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    FetchAddRelaxed = 0,
    FetchAdd = 1,
    /// An increment: `cmpxchg(old, old + 1)`, retried with the value it returned.
    Cmpxchg = 2,
}

const OPS: [Op; 3] = [Op::FetchAddRelaxed, Op::FetchAdd, Op::Cmpxchg];

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::FetchAddRelaxed => "fetch_add_relaxed",
            Op::FetchAdd => "fetch_add",
            Op::Cmpxchg => "cmpxchg",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    RustInline,
    CInline,
    CCall,
    Core,
    /// Upstream's `Atomic<T>`, as a kernel without `CONFIG_RUST_INLINE_HELPERS` has it.
    #[cfg(kernel_7)]
    Upstream,
    /// Upstream's `Atomic<T>`, C helpers inlined.
    #[cfg(CONFIG_RUST_INLINE_HELPERS)]
    UpstreamInline,
}

const VARIANTS: &[Variant] = &[
    Variant::RustInline,
    Variant::CInline,
    Variant::CCall,
    Variant::Core,
    #[cfg(kernel_7)]
    Variant::Upstream,
    #[cfg(CONFIG_RUST_INLINE_HELPERS)]
    Variant::UpstreamInline,
];

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::RustInline => "rust_inline",
            Variant::CInline => "c_inline",
            Variant::CCall => "c_call",
            Variant::Core => "core",
            #[cfg(kernel_7)]
            Variant::Upstream => "upstream",
            #[cfg(CONFIG_RUST_INLINE_HELPERS)]
            Variant::UpstreamInline => "upstream_inline",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// All threads on one variable.
    Shared,
    /// Each thread on its own cache line.
    Private,
}

const MODES: [Mode; 2] = [Mode::Shared, Mode::Private];

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Shared => "shared",
            Mode::Private => "private",
        }
    }
}

/// One timed loop per thread, for the first `threads` workers.
#[derive(Clone, Copy)]
struct Job {
    op: Op,
    variant: Variant,
    mode: Mode,
    threads: usize,
    iterations: i32,
}

/// `iterations` increments of `v` by operation `op`: this library, inline.
#[inline(never)]
fn loop_rust_inline(op: Op, v: &AtomicI32, iterations: i32) {
    match op {
        Op::FetchAddRelaxed => {
            for _ in 0..iterations {
                v.fetch_add_relaxed(1);
            }
        }
        Op::FetchAdd => {
            for _ in 0..iterations {
                v.fetch_add(1);
            }
        }
        Op::Cmpxchg => {
            for _ in 0..iterations {
                let mut old = v.read();
                loop {
                    let cur = v.cmpxchg(old, old.wrapping_add(1));
                    if cur == old {
                        break;
                    }
                    old = cur;
                }
            }
        }
    }
}

/// The same loops, with one call of an out-of-line C function per atomic operation.
#[inline(never)]
fn loop_c_call(op: Op, v: &AtomicI32, iterations: i32) {
    let p = v.as_ptr().cast::<bindings::atomic_t>();
    match op {
        Op::FetchAddRelaxed => {
            for _ in 0..iterations {
                // SAFETY: `p` is a valid `atomic_t`, only accessed atomically.
                unsafe { rust_atomic_bench_c_fetch_add_relaxed(p, 1) };
            }
        }
        Op::FetchAdd => {
            for _ in 0..iterations {
                // SAFETY: As above.
                unsafe { rust_atomic_bench_c_fetch_add(p, 1) };
            }
        }
        Op::Cmpxchg => {
            for _ in 0..iterations {
                // SAFETY: As above.
                let mut old = unsafe { rust_atomic_bench_c_read(p) };
                loop {
                    // SAFETY: As above.
                    let cur = unsafe { rust_atomic_bench_c_cmpxchg(p, old, old.wrapping_add(1)) };
                    if cur == old {
                        break;
                    }
                    old = cur;
                }
            }
        }
    }
}

/// The same loops on `core::sync::atomic` (sequentially consistent for the fully ordered
/// operations).
#[inline(never)]
fn loop_core(op: Op, v: &AtomicI32, iterations: i32) {
    // `AtomicI32` has the size and alignment of an `i32`, as `core`'s atomic needs.
    // SAFETY: The variable is valid for the loop and only accessed atomically.
    let c = unsafe { CoreAtomicI32::from_ptr(v.as_ptr()) };
    match op {
        Op::FetchAddRelaxed => {
            for _ in 0..iterations {
                c.fetch_add(1, Ordering::Relaxed);
            }
        }
        Op::FetchAdd => {
            for _ in 0..iterations {
                c.fetch_add(1, Ordering::SeqCst);
            }
        }
        Op::Cmpxchg => {
            for _ in 0..iterations {
                let mut old = c.load(Ordering::Relaxed);
                while let Err(cur) =
                    c.compare_exchange(old, old.wrapping_add(1), Ordering::SeqCst, Ordering::SeqCst)
                {
                    old = cur;
                }
            }
        }
    }
}

/// Runs one thread's loop of `job` on `v`.
fn run_loop(job: &Job, v: &AtomicI32) {
    match job.variant {
        Variant::RustInline => loop_rust_inline(job.op, v, job.iterations),
        Variant::CInline => {
            // SAFETY: `v` is a valid `atomic_t`, only accessed atomically.
            unsafe {
                rust_atomic_bench_c_loop(
                    job.op as c_int,
                    v.as_ptr().cast::<bindings::atomic_t>(),
                    job.iterations,
                )
            }
        }
        Variant::CCall => loop_c_call(job.op, v, job.iterations),
        Variant::Core => loop_core(job.op, v, job.iterations),
        #[cfg(all(kernel_7, not(CONFIG_RUST_INLINE_HELPERS)))]
        // SAFETY: `v` is a valid `i32`, only accessed atomically.
        Variant::Upstream => unsafe {
            bench_upstream::upstream_loop(job.op as i32, v.as_ptr(), job.iterations)
        },
        #[cfg(CONFIG_RUST_INLINE_HELPERS)]
        // SAFETY: As above.
        Variant::Upstream => unsafe {
            rust_atomic_bench_upstream_loop(job.op as c_int, v.as_ptr(), job.iterations)
        },
        #[cfg(CONFIG_RUST_INLINE_HELPERS)]
        // SAFETY: As above.
        Variant::UpstreamInline => unsafe {
            bench_upstream::upstream_loop(job.op as i32, v.as_ptr(), job.iterations)
        },
    }
}

/// A value alone on its cache line (64 bytes on x86_64 and arm64, `L1_CACHE_BYTES`).
#[repr(C, align(64))]
struct Line<T>(T);

/// A worker's private counter and the time its last loop took.
struct Slot {
    counter: AtomicI32,
    ns: AtomicI64,
}

/// What the controller (module init) and the workers share. The harness's own
/// synchronization uses `core::sync::atomic`, so that it does not depend on what is measured.
///
/// The controller writes a job's description, then publishes it by incrementing
/// `generation` (release); the first `threads` workers see it (acquire), meet at `ready`, run
/// and time their loops, store their times and count themselves in `done` (release), which
/// the controller waits for (acquire) before it reads the times and counters.
struct Bench {
    generation: Line<AtomicUsize>,
    ready: Line<AtomicUsize>,
    done: Line<AtomicUsize>,
    /// The current job, packed: see [`Bench::publish`].
    job: Line<[AtomicUsize; 5]>,
    shared: Line<AtomicI32>,
    slots: [Line<Slot>; MAX_THREADS],
}

impl Bench {
    fn new() -> Self {
        Self {
            generation: Line(AtomicUsize::new(0)),
            ready: Line(AtomicUsize::new(0)),
            done: Line(AtomicUsize::new(0)),
            job: Line([const { AtomicUsize::new(0) }; 5]),
            shared: Line(AtomicI32::new(0)),
            slots: [const {
                Line(Slot {
                    counter: AtomicI32::new(0),
                    ns: AtomicI64::new(0),
                })
            }; MAX_THREADS],
        }
    }

    /// Hands `job` to the workers (the controller only, while no job runs).
    fn publish(&self, job: &Job) {
        let fields = [
            job.op as usize,
            VARIANTS.iter().position(|&v| v == job.variant).unwrap_or(0),
            MODES.iter().position(|&m| m == job.mode).unwrap_or(0),
            job.threads,
            job.iterations as usize,
        ];
        for (cell, value) in self.job.0.iter().zip(fields) {
            cell.store(value, Ordering::Relaxed);
        }
        self.ready.0.store(0, Ordering::Relaxed);
        self.done.0.store(0, Ordering::Relaxed);
        self.generation.0.fetch_add(1, Ordering::Release);
    }

    /// The published job (after an acquire load of `generation` that saw it).
    fn job(&self) -> Job {
        let f = |i: usize| self.job.0[i].load(Ordering::Relaxed);
        Job {
            op: OPS[f(0).min(OPS.len() - 1)],
            variant: VARIANTS[f(1).min(VARIANTS.len() - 1)],
            mode: MODES[f(2).min(MODES.len() - 1)],
            threads: f(3),
            iterations: f(4) as i32,
        }
    }

    /// The variable worker `index` updates in `mode`.
    fn variable(&self, mode: Mode, index: usize) -> &AtomicI32 {
        match mode {
            Mode::Shared => &self.shared.0,
            Mode::Private => &self.slots[index].0.counter,
        }
    }
}

/// What a worker gets: the shared state and its own index.
struct WorkerArg {
    bench: *const Bench,
    index: usize,
}

/// Sleeps about a millisecond (an hrtimer sleep: `msleep(1)` is two jiffies, 8 ms at 250 Hz).
fn nap() {
    // SAFETY: Sleeping is allowed in process context.
    unsafe { bindings::usleep_range_state(500, 1000, bindings::TASK_UNINTERRUPTIBLE) };
}

/// Thread function of a worker: runs its part of every job until asked to stop.
///
/// # Safety
///
/// `data` is a `WorkerArg` that, with its `Bench`, outlives the thread.
unsafe extern "C" fn worker_main(data: *mut c_void) -> c_int {
    // SAFETY: Per this function's contract.
    let arg = unsafe { &*data.cast::<WorkerArg>() };
    // SAFETY: Per this function's contract.
    let bench = unsafe { &*arg.bench };
    let mut seen = 0;
    loop {
        let generation = bench.generation.0.load(Ordering::Acquire);
        if generation == seen {
            if kthread::should_stop() {
                break;
            }
            nap();
            continue;
        }
        seen = generation;
        let job = bench.job();
        if arg.index >= job.threads {
            continue;
        }
        // Start together: the loops of all threads overlap in time.
        bench.ready.0.fetch_add(1, Ordering::Relaxed);
        while bench.ready.0.load(Ordering::Relaxed) < job.threads {
            kthread::yield_cpu();
        }
        let v = bench.variable(job.mode, arg.index);
        let start = kthread::now_ns();
        run_loop(&job, v);
        let ns = kthread::now_ns() - start;
        bench.slots[arg.index].0.ns.store(ns, Ordering::Relaxed);
        bench.done.0.fetch_add(1, Ordering::Release);
    }
    // Already asked to stop: returns at once, as the protocol of `kthread_stop()` requires.
    kthread::wait_for_stop();
    0
}

/// The validated parameters.
#[derive(Clone, Copy)]
struct Config {
    iterations: i32,
    rounds: usize,
    threads: usize,
}

impl Config {
    fn from_params() -> Result<Self> {
        let online = (kthread::online_cpus() as usize).min(MAX_THREADS) as i32;
        let iterations = ITERATIONS.value_in(DEFAULT_ITERATIONS, 1..=MAX_ITERATIONS)?;
        let rounds = ROUNDS.value_in(DEFAULT_ROUNDS, 1..=MAX_ROUNDS)?;
        // At most the online CPUs: one worker per CPU.
        let threads = THREADS.value_in(online, 1..=online)?;
        ktap::check_param()?;
        Ok(Self {
            iterations,
            rounds: rounds as usize,
            threads: threads as usize,
        })
    }
}

/// Results of all jobs: picoseconds per operation per round, and whether every round of a
/// configuration ended with the exact total. Indexed by [`Results::index`].
struct Results {
    cfg: Config,
    ps: KVec<u64>,
    exact: KVec<bool>,
}

impl Results {
    fn new(cfg: Config) -> Result<Self> {
        let cells = OPS.len() * VARIANTS.len() * MODES.len() * cfg.threads;
        let mut ps = KVec::with_capacity(cells * cfg.rounds, GFP_KERNEL)?;
        let mut exact = KVec::with_capacity(cells, GFP_KERNEL)?;
        for _ in 0..cells * cfg.rounds {
            ps.push(0, GFP_KERNEL)?;
        }
        for _ in 0..cells {
            exact.push(true, GFP_KERNEL)?;
        }
        Ok(Self { cfg, ps, exact })
    }

    /// Index of a configuration (`threads` counts from 1).
    fn index(&self, op: usize, mode: usize, threads: usize, variant: usize) -> usize {
        ((op * MODES.len() + mode) * self.cfg.threads + threads - 1) * VARIANTS.len() + variant
    }

    /// The median over the rounds of a configuration, in ps/op.
    fn median(&self, cell: usize) -> Result<u64> {
        let r = self.cfg.rounds;
        median((0..r).map(|round| self.ps[cell * r + round]), r)
    }

    /// The median over the rounds of the ratio of a configuration to `base`, in thousandths:
    /// each round's ratio compares runs made one right after the other, so a change of the
    /// host's load between rounds cancels out.
    fn median_ratio(&self, cell: usize, base: usize) -> Result<u64> {
        let r = self.cfg.rounds;
        let ratio = |i: usize| math64::div_u64(self.ps[cell * r + i] * 1000, self.ps[base * r + i]);
        median((0..r).map(ratio), r)
    }
}

/// The median of `n` values (at most `MAX_ROUNDS`), sorted by insertion as they come: not
/// `sort_unstable()`, whose quicksort in rustc 1.85's `core` ends a path in
/// `panic_on_ord_violation()`, which objtool does not know as noreturn
/// (tools/objtool/check.c:182-220) and then warns that the quicksort falls through.
fn median(values: impl Iterator<Item = u64>, n: usize) -> Result<u64> {
    let mut sorted = KVec::with_capacity(n, GFP_KERNEL)?;
    for v in values {
        sorted.push(v, GFP_KERNEL)?;
        let mut i = sorted.len() - 1;
        while i > 0 && sorted[i - 1] > v {
            sorted.swap(i - 1, i);
            i -= 1;
        }
    }
    sorted.get(n / 2).copied().ok_or(EINVAL)
}

/// Runs `job` and waits for it. Returns ps per operation (mean of the threads) and whether
/// the counters hold the exact totals, or `None` if the job did not finish in time.
fn run_job(bench: &Bench, job: &Job) -> Option<(u64, bool)> {
    bench.shared.0.set(0);
    for slot in &bench.slots[..job.threads] {
        slot.0.counter.set(0);
    }
    bench.publish(job);
    let deadline = kthread::now_ns() + JOB_TIMEOUT_NS;
    while bench.done.0.load(Ordering::Acquire) < job.threads {
        if kthread::now_ns() > deadline {
            return None;
        }
        nap();
    }
    let ns: i64 = bench.slots[..job.threads]
        .iter()
        .map(|s| s.0.ns.load(Ordering::Relaxed).max(0))
        .sum();
    let ops = job.threads as u64 * job.iterations as u64;
    let exact = match job.mode {
        Mode::Shared => bench.shared.0.read() as u64 == ops,
        Mode::Private => bench.slots[..job.threads]
            .iter()
            .all(|s| s.0.counter.read() == job.iterations),
    };
    Some((math64::div_u64(ns as u64 * 1000, ops), exact))
}

/// Runs every round of every configuration; returns whether all jobs finished.
fn run_all(bench: &Bench, results: &mut Results) -> bool {
    let cfg = results.cfg;
    for round in 0..cfg.rounds {
        for (m, &mode) in MODES.iter().enumerate() {
            for threads in 1..=cfg.threads {
                for (o, &op) in OPS.iter().enumerate() {
                    for k in 0..VARIANTS.len() {
                        // Rotate the order from round to round: no variant always goes first.
                        let v = (k + round) % VARIANTS.len();
                        let job = Job {
                            op,
                            variant: VARIANTS[v],
                            mode,
                            threads,
                            iterations: cfg.iterations,
                        };
                        let cell = results.index(o, m, threads, v);
                        match run_job(bench, &job) {
                            Some((ps, exact)) => {
                                results.ps[cell * cfg.rounds + round] = ps;
                                results.exact[cell] &= exact;
                            }
                            None => return false,
                        }
                    }
                }
            }
        }
    }
    true
}

/// Formats a fixed-point value with three decimals.
struct Milli(u64);

impl core::fmt::Display for Milli {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (whole, thousandths) = (math64::div_u64(self.0, 1000), math64::rem_u64(self.0, 1000));
        write!(f, "{}.{:03}", math64::dec_u64(whole), thousandths as u32)
    }
}

/// Prints the figures and the KTAP cases.
fn report(suite: &mut ktap::Suite, results: &Results, completed: bool) -> Result {
    let cfg = results.cfg;
    for (o, &op) in OPS.iter().enumerate() {
        for (m, &mode) in MODES.iter().enumerate() {
            for threads in 1..=cfg.threads {
                let base = results.index(o, m, threads, 1);
                for (v, &variant) in VARIANTS.iter().enumerate() {
                    let cell = results.index(o, m, threads, v);
                    let ps = results.median(cell)?;
                    let ratio = results.median_ratio(cell, base)?;
                    if completed {
                        suite.diag(format_args!(
                            "bench op={} mode={} threads={threads} variant={} ns_per_op={} \
                             ratio_to_c_inline={}",
                            op.name(),
                            mode.name(),
                            variant.name(),
                            Milli(ps),
                            Milli(ratio)
                        ));
                    }
                    suite.case(
                        &CaseName(op, mode, threads, variant).to_buf()?,
                        completed && results.exact[cell],
                    );
                }
            }
        }
    }
    Ok(())
}

/// The name of a KTAP case: `<op>_<mode>_<threads>_threads_<variant>`.
struct CaseName(Op, Mode, usize, Variant);

impl CaseName {
    /// The name as a string in a buffer.
    fn to_buf(&self) -> Result<CaseBuf> {
        let mut buf = CaseBuf {
            bytes: [0; 64],
            len: 0,
        };
        core::fmt::write(
            &mut buf,
            format_args!(
                "{}_{}_{}_threads_{}",
                self.0.name(),
                self.1.name(),
                self.2,
                self.3.name()
            ),
        )
        .map_err(|_| EINVAL)?;
        Ok(buf)
    }
}

/// A short string built on the stack.
struct CaseBuf {
    bytes: [u8; 64],
    len: usize,
}

impl core::fmt::Write for CaseBuf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        if end > self.bytes.len() {
            return Err(core::fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl core::ops::Deref for CaseBuf {
    type Target = str;
    fn deref(&self) -> &str {
        // Only whole `&str`s are ever appended, so the bytes are UTF-8.
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("?")
    }
}

/// Creates the workers, runs the benchmark, stops the workers and reports.
fn bench(suite: &mut ktap::Suite, cfg: Config) -> Result {
    let bench = KBox::new(Bench::new(), GFP_KERNEL)?;
    let mut results = Results::new(cfg)?;
    let mut args = KVec::with_capacity(cfg.threads, GFP_KERNEL)?;
    for index in 0..cfg.threads {
        args.push(
            WorkerArg {
                bench: &*bench,
                index,
            },
            GFP_KERNEL,
        )?;
    }
    let mut workers = KVec::with_capacity(cfg.threads, GFP_KERNEL)?;
    let mut created = Ok(());
    for (index, arg) in args.iter().enumerate() {
        let data = core::ptr::from_ref(arg).cast_mut().cast();
        // CPUs 0..online are online: nothing hotplugs CPUs in this test.
        // The workers are stopped below, before `args` and `bench` go.
        // SAFETY: `worker_main` returns only once asked to stop; `data` outlives the thread.
        match unsafe { Thread::create_on_cpu(worker_main, data, index as u32) } {
            Ok(w) => {
                w.wake();
                workers.push(w, GFP_KERNEL)?;
            }
            Err(e) => {
                created = Err(e);
                break;
            }
        }
    }
    let start = kthread::now_ns();
    let completed = created.is_ok() && run_all(&bench, &mut results);
    let seconds = math64::div_s64(kthread::now_ns() - start, 1_000_000_000);
    let exits_ok = workers.into_iter().all(|w: Thread| w.stop() == 0);
    created?;
    if !completed {
        suite.diag(format_args!(
            "a job did not finish within {} ns",
            math64::dec_i64(JOB_TIMEOUT_NS)
        ));
    }
    suite.diag(format_args!(
        "bench done in {} s; workers stopped cleanly: {exits_ok}",
        math64::dec_i64(seconds)
    ));
    report(suite, &results, completed && exits_ok)
}

/// The module: the benchmark runs in `init`.
struct RustAtomicBench;

impl kernel::Module for RustAtomicBench {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let cfg = Config::from_params()?;
        let cases = OPS.len() * MODES.len() * cfg.threads * VARIANTS.len();
        let mut suite = ktap::Suite::start(SUITE, cases);
        suite.diag(format_args!(
            "bench config iterations={} rounds={} threads=1..{} online_cpus={}",
            cfg.iterations,
            cfg.rounds,
            cfg.threads,
            kthread::online_cpus()
        ));
        suite.diag(format_args!("atomics: {}", atomic::implementation()));
        let result = bench(&mut suite, cfg);
        suite.finish();
        result.map(|()| Self)
    }
}
