// SPDX-License-Identifier: GPL-2.0

//! Hammers shared `AtomicI32`s from one kthread per CPU and checks that no update is lost.
//!
//! On load the module starts `threads` kthreads (default: one per online CPU), each bound to a
//! CPU, which wait for each other and then run `iterations` rounds of every operation under
//! test on shared counters. A controller thread waits for them, checks the exact totals and the
//! invariants of the returned old values, and prints the results as a KTAP suite. Loading
//! returns as soon as the threads run; unloading stops them, finished or not.
//!
//! Parameters: `threads=1..64`, `iterations=1..10000000`, and `ktap_number`, the suite's
//! position in the boot test's KTAP document (omit it when loading by hand).

use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool as CoreAtomicBool, AtomicUsize, Ordering};
use kernel::ffi::{c_int, c_void};
use kernel::prelude::*;

// `pub`, as `kernel::sync::atomic` is: the library is compiled here as it is in the kernel.
// `sample_module!`, before its use.
#[macro_use]
#[path = "common/module.rs"]
mod module_macro;
#[path = "../rust/atomic.rs"]
pub mod atomic;
#[path = "common/ktap.rs"]
mod ktap;
#[path = "common/kthread.rs"]
mod kthread;
#[path = "common/math64.rs"]
mod math64;
#[path = "common/param.rs"]
mod param;

use atomic::{AtomicBool, AtomicI32};
use kthread::Thread;
use param::module_param_i32;

sample_module! {
    type: RustAtomicKthreads,
    name: "rust_atomic_kthreads",
    description: "Concurrent no-lost-update test of kernel::sync::atomic from kthreads",
}

/// The KTAP suite name: the crate's, which is also the module's (a mutant's is its own).
const SUITE: &str = module_path!();
const MAX_THREADS: usize = 64;
const MAX_ITERATIONS: i32 = 10_000_000;
const DEFAULT_ITERATIONS: i32 = 1_000_000;

module_param_i32!(
    THREADS,
    "threads",
    0,
    "Number of kthreads, 1..64 (default: one per online CPU)"
);
module_param_i32!(
    ITERATIONS,
    "iterations",
    DEFAULT_ITERATIONS,
    "Rounds per thread, 1..10000000"
);

/// Counters start here so the wrapping test crosses `i32::MAX` within a few operations.
const WRAP_START: i32 = i32::MAX - 2;
/// Odd and larger than 2^16: the wrapping counter overflows thousands of times per thread.
const WRAP_STEP: i32 = 0x0001_0001;
/// Start of the add/sub balance counter: any net loss or gain shows.
const BALANCE_START: i32 = i32::MIN + 5;

/// The validated parameters of one run.
#[derive(Clone, Copy)]
struct Config {
    threads: usize,
    iterations: i32,
}

impl Config {
    fn from_params() -> Result<Self> {
        let online = kthread::online_cpus() as i32;
        let threads = THREADS.value_in(online, 1..=MAX_THREADS as i32)?;
        let iterations = ITERATIONS.value_in(DEFAULT_ITERATIONS, 1..=MAX_ITERATIONS)?;
        ktap::check_param()?;
        Ok(Self {
            threads: threads as usize,
            iterations,
        })
    }

    /// Total number of operations of one kind over all threads; below `i32::MAX` by the limits.
    fn total(&self) -> i64 {
        self.threads as i64 * i64::from(self.iterations)
    }
}

/// What one worker observed; written only by that worker, read by the controller after it
/// has stopped the worker.
#[derive(Clone, Copy)]
struct WorkerReport {
    ran: bool,
    /// Sum of the old values `fetch_add_relaxed(1)` returned.
    add_old_sum: i64,
    /// Every returned old value was greater than the previous one and within `0..total`.
    add_old_ok: bool,
    sub_old_sum: i64,
    sub_old_ok: bool,
    add_ns: i64,
    sub_ns: i64,
    /// The worker gave up waiting for the lock.
    lock_timed_out: bool,
}

impl WorkerReport {
    /// The report of a worker that has not run.
    const NONE: Self = Self {
        ran: false,
        add_old_sum: 0,
        add_old_ok: false,
        sub_old_sum: 0,
        sub_old_ok: false,
        add_ns: 0,
        sub_ns: 0,
        lock_timed_out: false,
    };
}

/// State shared by the module, the controller and the workers.
///
/// # Invariants
///
/// - `locked_counter` is accessed only with `lock` held, or after every worker has stopped.
/// - `reports[i]` is written only by worker `i`, and read by others only after worker `i` has
///   been stopped (`kthread_stop()` waits for the worker, which orders its writes before).
/// - `workers` is filled by `init` before any thread runs; afterwards the controller takes the
///   handles out while it runs, and the module's `drop` after the controller has stopped.
struct Run {
    cfg: Config,
    add_counter: AtomicI32,
    sub_counter: AtomicI32,
    wrap_counter: AtomicI32,
    balance_counter: AtomicI32,
    /// A test-and-set lock (`xchg_acquire`/`set_release`) and the plain counter it protects.
    lock: AtomicBool,
    locked_counter: UnsafeCell<i64>,
    /// The harness's own synchronization, on `core::sync::atomic` on purpose: it must not
    /// depend on the library under test, which mutation-test builds break deliberately (a
    /// start line counted with a lossy add would never open).
    harness: Harness,
    reports: [UnsafeCell<WorkerReport>; MAX_THREADS],
    workers: [UnsafeCell<Option<Thread>>; MAX_THREADS],
}

// SAFETY: The atomics are `Sync`; `reports` and `workers` are accessed as the type invariants
// say, never concurrently.
unsafe impl Sync for Run {}

/// Start lines, completion count and abort flag of a run (see `Run::harness`). Relaxed
/// ordering suffices: no data is published through them, results are read after
/// `kthread_stop()`.
struct Harness {
    /// Arrivals at the start lines of the phases (see `start_line`).
    ready: AtomicUsize,
    /// Workers that have finished all their rounds.
    finished: AtomicUsize,
    /// Set once the module is being unloaded: everybody winds down early.
    abort: CoreAtomicBool,
}

/// What a worker gets: the shared run and its own index.
struct WorkerArg {
    run: *const Run,
    index: usize,
}

impl Run {
    fn new(cfg: Config) -> Self {
        Self {
            cfg,
            add_counter: AtomicI32::new(0),
            sub_counter: AtomicI32::new(0),
            wrap_counter: AtomicI32::new(WRAP_START),
            balance_counter: AtomicI32::new(BALANCE_START),
            lock: AtomicBool::new(false),
            locked_counter: UnsafeCell::new(0),
            harness: Harness {
                ready: AtomicUsize::new(0),
                finished: AtomicUsize::new(0),
                abort: CoreAtomicBool::new(false),
            },
            reports: [const { UnsafeCell::new(WorkerReport::NONE) }; MAX_THREADS],
            workers: [const { UnsafeCell::new(None) }; MAX_THREADS],
        }
    }

    fn aborted(&self) -> bool {
        self.harness.abort.load(Ordering::Relaxed)
    }
}

/// The lock phase runs `iterations / LOCK_ROUNDS_DIVISOR` rounds: each round is a handover.
/// Many: on a loaded host the guest's CPUs overlap rarely, and a lock that does not exclude
/// must still be caught.
const LOCK_ROUNDS_DIVISOR: i32 = 2;
/// No worker waits longer than this for the lock; a lock that works hands over in
/// microseconds, even emulated.
const LOCK_WAIT_LIMIT_NS: i64 = 5_000_000_000;

/// Rounds between checks for an abort and chances for other tasks to run.
const CHECK_EVERY: i32 = 1024;

/// Waits until every worker has arrived at the start of phase `phase` (counting from 0), so
/// that each phase's operations overlap in time on all CPUs: a lost update needs two CPUs
/// inside the same read-modify-write at once.
fn start_line(run: &Run, phase: usize) {
    run.harness.ready.fetch_add(1, Ordering::Relaxed);
    let everybody = run.cfg.threads * (phase + 1);
    while run.harness.ready.load(Ordering::Relaxed) < everybody && !run.aborted() {
        kthread::yield_cpu();
    }
}

/// The body of worker `index`: every operation under test in turn, each phase started by all
/// workers together.
fn work(run: &Run, index: usize) -> WorkerReport {
    let n = run.cfg.iterations;
    let total = run.cfg.total();
    let mut report = WorkerReport {
        ran: true,
        ..WorkerReport::NONE
    };

    // fetch_add_relaxed(1): this thread sees a strictly increasing sequence of old values.
    start_line(run, 0);
    let start = kthread::now_ns();
    let mut ok = true;
    let mut prev = -1i64;
    for k in 0..n {
        let old = i64::from(run.add_counter.fetch_add_relaxed(1));
        ok &= old > prev && old < total;
        prev = old;
        report.add_old_sum += old;
        if k % CHECK_EVERY == 0 && pause_or_abort(run) {
            break;
        }
    }
    report.add_ns = kthread::now_ns() - start;
    report.add_old_ok = ok;

    // fetch_sub_release(1): strictly decreasing old values, all within -total..=0.
    start_line(run, 1);
    let start = kthread::now_ns();
    let mut ok = true;
    let mut prev = 1i64;
    for k in 0..n {
        let old = i64::from(run.sub_counter.fetch_sub_release(1));
        ok &= old < prev && old > -total;
        prev = old;
        report.sub_old_sum += old;
        if k % CHECK_EVERY == 0 && pause_or_abort(run) {
            break;
        }
    }
    report.sub_ns = kthread::now_ns() - start;
    report.sub_old_ok = ok;

    // Wrapping arithmetic across i32::MAX, and add/sub pairs of arbitrary values (i32::MIN
    // included) that must cancel exactly.
    start_line(run, 2);
    let mut x = 0x9e37_79b9u32 ^ index as u32;
    for k in 0..n {
        run.wrap_counter.fetch_add_relaxed(WRAP_STEP);
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let v = if k % 64 == 0 { i32::MIN } else { x as i32 };
        run.balance_counter.fetch_add_relaxed(v);
        run.balance_counter.fetch_sub_release(v);
        if k % CHECK_EVERY == 0 && pause_or_abort(run) {
            break;
        }
    }

    // A lock built on AtomicBool::xchg_acquire must exclude: no increment of the plain
    // counter it protects is lost.
    start_line(run, 3);
    'rounds: for k in 0..n / LOCK_ROUNDS_DIVISOR {
        let deadline = kthread::now_ns() + LOCK_WAIT_LIMIT_NS;
        while run.lock.xchg_acquire(true) {
            // A broken exchange can lose a release and leave the lock taken by nobody.
            if kthread::now_ns() > deadline || run.aborted() {
                report.lock_timed_out = !run.aborted();
                break 'rounds;
            }
            kthread::yield_cpu();
        }
        // SAFETY: The lock is held: no other thread accesses the counter (invariant of `Run`).
        unsafe { *run.locked_counter.get() += 1 };
        run.lock.set_release(false);
        if k % CHECK_EVERY == 0 && pause_or_abort(run) {
            break;
        }
    }
    report
}

/// Gives waiting tasks the CPU; returns whether the run is being aborted.
fn pause_or_abort(run: &Run) -> bool {
    kthread::yield_cpu();
    run.aborted()
}

/// Thread function of a worker.
///
/// # Safety
///
/// `data` is a `WorkerArg` whose `run` outlives the thread (see `Thread::create_on_cpu`).
unsafe extern "C" fn worker_main(data: *mut c_void) -> c_int {
    // SAFETY: Per this function's contract.
    let arg = unsafe { &*data.cast::<WorkerArg>() };
    // SAFETY: Per this function's contract.
    let run = unsafe { &*arg.run };
    let report = work(run, arg.index);
    // SAFETY: Per the invariant of `Run`, nobody else accesses this report until we stop.
    unsafe { *run.reports[arg.index].get() = report };
    run.harness.finished.fetch_add(1, Ordering::Relaxed);
    kthread::wait_for_stop();
    0
}

/// Thread function of the controller: waits for the workers, stops them, reports.
///
/// # Safety
///
/// `data` is the `Run`, which outlives the thread.
unsafe extern "C" fn controller_main(data: *mut c_void) -> c_int {
    // SAFETY: Per this function's contract.
    let run = unsafe { &*data.cast::<Run>() };
    while run.harness.finished.load(Ordering::Relaxed) < run.cfg.threads && !kthread::should_stop()
    {
        // SAFETY: Sleeping is allowed in a kthread's function.
        unsafe { kernel::bindings::msleep(10) };
    }
    let aborted = kthread::should_stop();
    if aborted {
        run.harness.abort.store(true, Ordering::Relaxed);
    }
    let mut exits_ok = true;
    for slot in &run.workers[..run.cfg.threads] {
        // SAFETY: By the invariant of `Run`, the controller owns the handles while it runs.
        if let Some(worker) = unsafe { (*slot.get()).take() } {
            exits_ok &= worker.stop() == 0;
        }
    }
    report(run, aborted, exits_ok);
    kthread::wait_for_stop();
    0
}

/// Checks the final state against the exact expected values and prints the KTAP suite.
fn report(run: &Run, aborted: bool, exits_ok: bool) {
    const CASES: [&str; 9] = [
        "seed_doc_examples",
        "fetch_add_relaxed_no_lost_update",
        "fetch_add_relaxed_old_values",
        "fetch_sub_release_no_lost_update",
        "fetch_sub_release_old_values",
        "wrapping_add_across_overflow",
        "add_sub_pairs_cancel",
        "atomic_bool_xchg_lock_excludes",
        "all_threads_ran",
    ];
    let cfg = run.cfg;
    // Not a `let` bound to `format_args!` with arguments: rustc 1.85 (Linux 7.2's minimum)
    // refuses it (E0716, the arguments' temporaries do not live long enough).
    let online_cpus = kthread::online_cpus();
    let config_diag = |suite: &ktap::Suite| {
        suite.diag(format_args!(
            "threads={} iterations={} online_cpus={}",
            cfg.threads, cfg.iterations, online_cpus
        ))
    };
    if aborted {
        // The totals are meaningless for a run cut short; what is checked is that it stopped.
        let mut suite = ktap::Suite::start(SUITE, 2);
        config_diag(&suite);
        suite.diag(format_args!("aborted by module unload"));
        suite.case(CASES[0], seed_doc_examples());
        suite.case("all_threads_stopped", exits_ok);
        suite.finish();
        return;
    }
    let mut suite = ktap::Suite::start(SUITE, CASES.len());
    config_diag(&suite);
    suite.diag(format_args!("atomics: {}", atomic::implementation()));
    suite.case(CASES[0], seed_doc_examples());

    let mut reports = KVec::new();
    for r in &run.reports[..cfg.threads] {
        // SAFETY: All workers are stopped, so per the invariant of `Run` the reports are ours.
        let r = unsafe { *r.get() };
        if reports.push(r, GFP_KERNEL).is_err() {
            break;
        }
    }
    let all_ran = reports.len() == cfg.threads && reports.iter().all(|r| r.ran);
    let total = cfg.total();
    // The old values of N increments from 0 are exactly 0..N: their sum is N(N-1)/2.
    let triangle = total * (total - 1) / 2;

    let add_final = i64::from(run.add_counter.read());
    suite.case(CASES[1], add_final == total);
    if add_final != total {
        suite.diag(format_args!(
            "add counter: expected {}, found {}",
            math64::dec_i64(total),
            math64::dec_i64(add_final)
        ));
    }
    let add_sum: i64 = reports.iter().map(|r| r.add_old_sum).sum();
    suite.case(
        CASES[2],
        all_ran && reports.iter().all(|r| r.add_old_ok) && add_sum == triangle,
    );

    let sub_final = i64::from(run.sub_counter.read());
    suite.case(CASES[3], sub_final == -total);
    if sub_final != -total {
        suite.diag(format_args!(
            "sub counter: expected {}, found {}",
            math64::dec_i64(-total),
            math64::dec_i64(sub_final)
        ));
    }
    let sub_sum: i64 = reports.iter().map(|r| r.sub_old_sum).sum();
    suite.case(
        CASES[4],
        all_ran && reports.iter().all(|r| r.sub_old_ok) && sub_sum == -triangle,
    );

    let wrap_expected = (i64::from(WRAP_START) + total * i64::from(WRAP_STEP)) as i32;
    suite.case(CASES[5], run.wrap_counter.read() == wrap_expected);
    suite.case(CASES[6], run.balance_counter.read() == BALANCE_START);
    // SAFETY: All workers are stopped, so per the invariant of `Run` the counter is ours.
    let locked = unsafe { *run.locked_counter.get() };
    let lock_rounds = cfg.threads as i64 * i64::from(cfg.iterations / LOCK_ROUNDS_DIVISOR);
    let timed_out = reports.iter().filter(|r| r.lock_timed_out).count();
    suite.case(CASES[7], locked == lock_rounds && timed_out == 0);
    if locked != lock_rounds || timed_out != 0 {
        suite.diag(format_args!(
            "lock: {} of {} increments, {timed_out} threads gave up waiting",
            math64::dec_i64(locked),
            math64::dec_i64(lock_rounds)
        ));
    }

    suite.case(CASES[8], all_ran && exits_ok);

    for (name, ns) in [
        (
            "fetch_add_relaxed",
            reports.iter().map(|r| r.add_ns).sum::<i64>(),
        ),
        (
            "fetch_sub_release",
            reports.iter().map(|r| r.sub_ns).sum::<i64>(),
        ),
    ] {
        // Divisors of at least 1 (math64.rs): no division panic path. Objtool does not know
        // `panic_const_div_by_zero` as noreturn (tools/objtool/check.c:216 matches the
        // `panic_const_*` names 24 characters long; this one has 23), and where the compiler
        // places that call last in the function, as rustc 1.85 does, it warns that the
        // function falls through to the next.
        let per_thread = math64::div_s64(ns, cfg.threads as i64).max(1);
        suite.diag(format_args!(
            "{name}: {} ops/s per thread ({} threads contending)",
            math64::dec_i64(math64::div_s64(
                i64::from(cfg.iterations) * 1_000_000_000,
                per_thread
            )),
            cfg.threads
        ));
    }
    suite.finish();
}

/// The seed series' doc examples, run single-threaded in the kernel.
fn seed_doc_examples() -> bool {
    let a = AtomicI32::new(0);
    let adds = (a.fetch_add_relaxed(1), a.fetch_add_relaxed(2));
    let s = AtomicI32::new(1);
    let subs = (
        s.fetch_sub_release(1),
        s.fetch_sub_release(2),
        s.fetch_sub_release(3),
        s.fetch_sub_release(i32::MIN),
    );
    adds == (0, 1) && subs == (1, 0, -2, -5) && s.read() == (-5i32).wrapping_sub(i32::MIN)
}

/// The module: owns the shared run and the controller thread.
struct RustAtomicKthreads {
    run: KBox<Run>,
    args: KVec<WorkerArg>,
    controller: Option<Thread>,
}

// SAFETY: The raw pointers in `args` point into `run`, which the module owns; the threads
// that use them are stopped before `run` is freed (in `drop`).
unsafe impl Send for RustAtomicKthreads {}
// SAFETY: The module value is not used concurrently by the kernel; see also `Send`.
unsafe impl Sync for RustAtomicKthreads {}

impl kernel::Module for RustAtomicKthreads {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let cfg = Config::from_params()?;
        let run = KBox::new(Run::new(cfg), GFP_KERNEL)?;
        let mut args = KVec::with_capacity(cfg.threads, GFP_KERNEL)?;
        for index in 0..cfg.threads {
            args.push(WorkerArg { run: &*run, index }, GFP_KERNEL)?;
        }
        let mut this = Self {
            run,
            args,
            controller: None,
        };
        let cpus = kthread::online_cpus();
        for index in 0..cfg.threads {
            let data = core::ptr::from_ref(&this.args[index]).cast_mut().cast();
            // CPUs 0..online are online: nothing hotplugs CPUs in this test.
            // SAFETY: `worker_main` waits for `should_stop`; `drop` stops it before freeing.
            let worker = unsafe { Thread::create_on_cpu(worker_main, data, index as u32 % cpus) };
            match worker {
                // SAFETY: No thread runs yet, so `init` is the only user of the slots.
                Ok(w) => unsafe { *this.run.workers[index].get() = Some(w) },
                Err(e) => {
                    pr_err!("cannot create worker kthread {index}: {e:?}\n");
                    return Err(e); // `drop` stops the workers created so far.
                }
            }
        }
        let data = core::ptr::from_ref(&*this.run).cast_mut().cast();
        // SAFETY: `controller_main` waits for `should_stop`; `drop` stops it before freeing.
        let controller = unsafe { Thread::create_on_cpu(controller_main, data, 0) }?;
        for slot in &this.run.workers[..cfg.threads] {
            // SAFETY: Still no thread runs; the slots are `init`'s.
            if let Some(w) = unsafe { &*slot.get() } {
                w.wake();
            }
        }
        controller.wake();
        this.controller = Some(controller);
        Ok(this)
    }
}

impl Drop for RustAtomicKthreads {
    fn drop(&mut self) {
        self.run.harness.abort.store(true, Ordering::Relaxed);
        // `-EINTR`: the controller was stopped before it ran, so it has not reported.
        let controller_ran = match self.controller.take() {
            Some(controller) => controller.stop() != EINTR.to_errno(),
            None => true,
        };
        let mut exits_ok = true;
        for slot in &self.run.workers {
            // Workers the controller did not take (it never ran, or was cut short) stop here.
            // SAFETY: The controller is stopped, so per the invariant of `Run` the slots are ours.
            if let Some(worker) = unsafe { (*slot.get()).take() } {
                exits_ok &= worker.stop() == 0;
            }
        }
        if !controller_ran {
            report(&self.run, true, exits_ok);
        }
    }
}
