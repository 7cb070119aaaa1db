// SPDX-License-Identifier: GPL-2.0

//! Runs the kernel's LKMM litmus tests, translated to Rust on `kernel::sync::atomic`, and
//! judges every outcome against the memory model's verdict.
//!
//! `scripts/memory-model/litmus2rust` translates the tests (by default all of
//! `tools/memory-model/litmus-tests/`) into `litmus/generated.rs`. On load the module runs them
//! one after the other from a controller kthread: each litmus thread on its own CPU,
//! `iterations` times, in batches of `batch` instances (`litmus/runner.rs`), and prints for each
//! its histogram of final states, the herd7/klitmus7 `Observation` line, the rate, and a KTAP
//! case: a `Result: Never` test fails if its clause was ever observed, `Always` if it was ever
//! not, `Sometimes` passes either way and says whether the weak outcome was seen.
//!
//! Parameters: `iterations=1..100000000` (per test), `batch=1..512`, `test=NAME` (run only
//! that test), `seconds=0..3600` (time budget of each test; 0: none), `until_seen=0|1` (stop a
//! test once its clause held), `control=NAME` (with `test=`: run NAME interleaved with that
//! test; see below), and `ktap_number` (the suite's position in the boot test's KTAP document).
//!
//! A mutation-test build (`tests/mutants`) weakens the library on purpose. A strict test that
//! still passes there did not catch the weakening, and says so. With `control=NAME`, where NAME
//! is the same test without the ordering that was weakened (`SB+poonceonces` for
//! `SB+fencembonceonces`), the two run in alternating slices of one second, so that both see
//! the same load on the host, within the test's budget, and each is reported once, with all its
//! slices. If the control showed its weak outcome so rarely that the test's iterations would
//! have shown it fewer than [`FAIR_CHANCE`] times at that rate, this machine cannot tell, and
//! the module says so with the numbers; otherwise the test had a fair chance and missed.

use core::sync::atomic::{AtomicBool as CoreAtomicBool, Ordering};
use kernel::ffi::{c_int, c_void};
use kernel::prelude::*;

// `pub`, as `kernel::sync::atomic` is: the library is compiled here as it is in the kernel.
// `sample_module!`, before its use.
#[macro_use]
#[path = "../../samples/common/module.rs"]
mod module_macro;
#[path = "../../rust/atomic.rs"]
pub mod atomic;
#[path = "litmus/generated.rs"]
mod generated;
// The translated tests use a part of the harness, which part depends on the tests.
#[allow(dead_code)]
#[path = "litmus/harness.rs"]
mod harness;
#[path = "../../samples/common/ktap.rs"]
mod ktap;
#[path = "../../samples/common/kthread.rs"]
mod kthread;
#[path = "../../samples/common/math64.rs"]
mod math64;
#[path = "../../samples/common/param.rs"]
mod param;
#[path = "litmus/report.rs"]
mod report;
#[path = "litmus/runner.rs"]
mod runner;

use harness::Test;
use kthread::Thread;
use param::{module_param_i32, module_param_string};

sample_module! {
    type: RustAtomicLitmus,
    name: "rust_atomic_litmus",
    description: "LKMM litmus tests on kernel::sync::atomic, with their verdicts",
}

/// The KTAP suite name: the crate's, which is also the module's (a mutant's is its own).
const SUITE: &str = module_path!();
const MAX_ITERATIONS: i32 = 100_000_000;
const DEFAULT_ITERATIONS: i32 = 10_000;
/// Measured (see docs/memory-model.md): batches of 256 show store buffering about 500 times as often per
/// second as a synchronized start of every iteration (`batch=1`) under QEMU/TCG.
const DEFAULT_BATCH: i32 = 256;
const MAX_SECONDS: i32 = 3600;
/// Bounds a run on a slow or loaded host; every default run takes a few seconds at most.
const DEFAULT_SECONDS: i32 = 60;
/// Long enough to name any kernel litmus test.
const TEST_NAME_LEN: usize = 96;

module_param_i32!(
    ITERATIONS,
    "iterations",
    DEFAULT_ITERATIONS,
    "Iterations of every test, 1..100000000"
);
module_param_i32!(
    BATCH,
    "batch",
    DEFAULT_BATCH,
    "Instances per synchronized batch, 1..512 (1: every iteration starts together)"
);
module_param_string!(
    TEST,
    "test",
    TEST_NAME_LEN,
    "Run only the test of this name"
);
module_param_i32!(
    SECONDS,
    "seconds",
    DEFAULT_SECONDS,
    "Time budget of every test in seconds, 0..3600 (0: none)"
);
module_param_i32!(
    UNTIL_SEEN,
    "until_seen",
    0,
    "1: stop every test once its clause held"
);
module_param_string!(
    CONTROL,
    "control",
    TEST_NAME_LEN,
    "With test=: run this test interleaved with it, to tell whether this machine shows that weak outcome"
);

/// The validated parameters.
#[derive(Clone, Copy)]
struct Config {
    limits: runner::Limits,
    /// The index in `generated::TESTS` of the only test to run (besides the control).
    only: Option<usize>,
    /// The index in `generated::TESTS` of the control test.
    control: Option<usize>,
}

/// The index of the test named by string parameter `param`, if it was given.
fn test_index(param: &str, given: Option<&str>) -> Result<Option<usize>> {
    let Some(name) = given else {
        return Ok(None);
    };
    match generated::TESTS.iter().position(|t| t.name == name) {
        Some(index) => Ok(Some(index)),
        None => {
            pr_err!("{param}={name} is invalid: no translated test has that name\n");
            Err(EINVAL)
        }
    }
}

impl Config {
    fn from_params() -> Result<Self> {
        let iterations = ITERATIONS.value_in(DEFAULT_ITERATIONS, 1..=MAX_ITERATIONS)?;
        let batch = BATCH.value_in(DEFAULT_BATCH, 1..=harness::MAX_BATCH as i32)?;
        let seconds = SECONDS.value_in(DEFAULT_SECONDS, 0..=MAX_SECONDS)?;
        let until_seen = UNTIL_SEEN.value_in(0, 0..=1)?;
        let only = test_index("test", TEST.given())?;
        let control = test_index("control", CONTROL.given())?;
        if control.is_some() && (only.is_none() || only == control) {
            pr_err!("control= is invalid without test= naming another test: the control runs interleaved with that test\n");
            return Err(EINVAL);
        }
        ktap::check_param()?;
        Ok(Self {
            limits: runner::Limits {
                iterations: iterations as u64,
                batch: batch as usize,
                budget_ns: i64::from(seconds) * 1_000_000_000,
                until_seen: until_seen == 1,
            },
            only,
            control,
        })
    }

    /// The tests this run runs, besides the control.
    fn tests(&self) -> impl Iterator<Item = &'static Test> {
        match self.only {
            Some(index) => &generated::TESTS[index..=index],
            None => generated::TESTS,
        }
        .iter()
        .copied()
    }
}

/// How long each slice of a test interleaved with its control runs: short, so that both see the
/// same load on the host; long, so that starting threads costs little of it.
const SLICE_NS: i64 = 1_000_000_000;

/// The sightings of the control's weak outcome that the test's iterations would have shown at
/// the control's rate, from which on a test that showed none has had a fair chance: at the same
/// rate, it would have shown none with probability e^-10 (4.5e-5). Below it, this machine shows
/// the weak outcome too rarely to tell. `scripts/lkmm/evidence.py` holds the same number.
const FAIR_CHANCE: u64 = 10;

/// A test that waits for grace periods runs this share of the iterations: a grace period
/// (`synchronize_srcu()`) takes about 1 ms under TCG (10,000 iterations of one: 20 s).
const GRACE_PERIOD_SHARE: u64 = 10;

/// The runs of one test, added up.
#[derive(Default)]
struct Progress {
    runs: u32,
    /// Iterations of all runs.
    iterations: u64,
    elapsed_ns: i64,
    /// Why the last run stopped early, if it did.
    cut: Option<runner::Cut>,
    wild: bool,
}

/// Runs `test` once within `limits`, counted in `tally` after the runs `progress` holds. On an
/// error (another run exists, the threads cannot start, the module is being unloaded) reports
/// the test's case, and returns `Err`.
fn run_once(
    suite: &mut ktap::Suite,
    test: &'static Test,
    limits: runner::Limits,
    tally: runner::Tally,
    progress: &mut Progress,
    stop: &impl Fn() -> bool,
) -> core::result::Result<(), ()> {
    // The controller runs one test at a time: no other `Run` exists.
    let Some(run) = runner::Run::new(test, limits, tally, progress.runs > 0) else {
        suite.diag(format_args!("{}: another run is in progress", test.name));
        suite.case(test.name, false);
        return Err(());
    };
    let start = kthread::now_ns();
    let completed = run.execute(stop);
    progress.elapsed_ns += kthread::now_ns() - start;
    match completed {
        Ok(true) => (),
        Ok(false) => {
            suite.diag(format_args!("aborted by module unload"));
            suite.skip(test.name, format_args!("aborted by module unload"));
            return Err(());
        }
        Err(e) => {
            suite.diag(format_args!(
                "{}: cannot start its threads: {e:?}",
                test.name
            ));
            suite.case(test.name, false);
            return Err(());
        }
    }
    let h = run.histogram();
    progress.runs += 1;
    progress.iterations = h.positive + h.negative + h.discarded;
    progress.cut = run.cut();
    progress.wild |= run.progress.wild.load(Ordering::Relaxed);
    Ok(())
}

/// Whether `iterations` of a test had a fair chance to show the weak outcome that `control`
/// showed, at the control's rate (see [`FAIR_CHANCE`]).
fn fair_chance(control: &runner::Histogram, iterations: u64) -> bool {
    let control_iterations = control.positive + control.negative;
    control_iterations > 0
        && u128::from(control.positive) * u128::from(iterations)
            >= u128::from(FAIR_CHANCE) * u128::from(control_iterations)
}

/// Reports `test`, whose runs `progress` and histogram `h` hold, as a case of `suite`. In a
/// mutation-test build a strict test that passes did not catch the weakening: its case is
/// skipped, with what the control (name and histogram), if it ran interleaved with it, showed.
fn report_case(
    suite: &mut ktap::Suite,
    test: &'static Test,
    h: &runner::Histogram,
    progress: &Progress,
    limits: runner::Limits,
    control: Option<(&'static str, &runner::Histogram)>,
) {
    let outcome = report::Outcome {
        test,
        histogram: h,
        elapsed_ns: progress.elapsed_ns,
        cut: progress.cut,
        iterations: limits.iterations,
        wild: progress.wild,
    };
    let ok = report::test(suite, &outcome);
    if !(cfg!(rust_atomic_mutant) && ok && report::strict(test)) {
        suite.case(test.name, ok);
        return;
    }
    let run = h.positive + h.negative;
    let iterations = math64::dec_u64(run);
    match control {
        Some((name, c)) if !fair_chance(c, run) => {
            // A mutation-test build on a machine that shows the weak outcome too rarely.
            suite.diag(format_args!(
                "{}: the weakening is not observable on this machine: {iterations} iterations, \
                 none forbidden, and its control {name}, interleaved with it, showed its weak \
                 outcome only {} times in {} iterations (fewer than {} expected in this test's \
                 iterations)",
                test.name,
                math64::dec_u64(c.positive),
                math64::dec_u64(c.positive + c.negative),
                math64::dec_u64(FAIR_CHANCE)
            ));
            suite.skip(
                test.name,
                format_args!("weakening not observable on this machine"),
            );
        }
        _ => {
            // A strict test that passes did not catch the weakening.
            suite.diag(format_args!(
                "{}: the weakening is not observable on this target: {iterations} iterations, \
                 none forbidden",
                test.name
            ));
            if let Some((name, c)) = control {
                suite.diag(format_args!(
                    "{}: its control {name}, interleaved with it, showed its weak outcome {} \
                     times in {} iterations",
                    test.name,
                    math64::dec_u64(c.positive),
                    math64::dec_u64(c.positive + c.negative)
                ));
            }
            suite.skip(
                test.name,
                format_args!("weakening not observable on this target"),
            );
        }
    }
}

/// Runs `test` within `limits` and reports it.
fn run_alone(
    suite: &mut ktap::Suite,
    test: &'static Test,
    limits: runner::Limits,
    stop: &impl Fn() -> bool,
) {
    let mut progress = Progress::default();
    let limits = if test.grace_periods {
        let iterations = math64::div_u64(limits.iterations, GRACE_PERIOD_SHARE).max(1);
        suite.diag(format_args!(
            "{}: waits for grace periods: {} iterations (1/{} of those asked)",
            test.name,
            math64::dec_u64(iterations),
            math64::dec_u64(GRACE_PERIOD_SHARE)
        ));
        runner::Limits {
            iterations,
            ..limits
        }
    } else {
        limits
    };
    if run_once(
        suite,
        test,
        limits,
        runner::Tally::Test,
        &mut progress,
        stop,
    )
    .is_err()
    {
        return;
    }
    let histograms = runner::Histograms::get().expect("no run exists between runs");
    report_case(
        suite,
        test,
        histograms.of(runner::Tally::Test),
        &progress,
        limits,
        None,
    );
}

/// Runs `test` and `control` in alternating slices of [`SLICE_NS`], within `limits` (the test
/// stops once its clause held if `limits.until_seen`; the control runs its slices whole), so
/// that both run under the same load; reports the control, then the test.
fn run_interleaved(
    suite: &mut ktap::Suite,
    test: &'static Test,
    control: &'static Test,
    limits: runner::Limits,
    stop: &impl Fn() -> bool,
) {
    let slice_ns = match limits.budget_ns {
        0 => SLICE_NS,
        budget => budget.min(SLICE_NS),
    };
    let (mut t, mut c) = (Progress::default(), Progress::default());
    loop {
        if c.iterations < limits.iterations {
            let slice = runner::Limits {
                iterations: limits.iterations - c.iterations,
                budget_ns: slice_ns,
                until_seen: false,
                ..limits
            };
            if run_once(suite, control, slice, runner::Tally::Control, &mut c, stop).is_err() {
                suite.skip(
                    test.name,
                    format_args!("its control {} did not run", control.name),
                );
                return;
            }
        }
        let slice = runner::Limits {
            iterations: limits.iterations - t.iterations,
            budget_ns: slice_ns,
            ..limits
        };
        if run_once(suite, test, slice, runner::Tally::Test, &mut t, stop).is_err() {
            // The test's case is reported; the control's comes first in the plan.
            suite.skip(
                control.name,
                format_args!("its test {} did not run", test.name),
            );
            return;
        }
        let seen = t.cut == Some(runner::Cut::Seen);
        let out_of_time = limits.budget_ns > 0 && t.elapsed_ns + c.elapsed_ns >= limits.budget_ns;
        if seen || t.iterations >= limits.iterations || out_of_time {
            break;
        }
    }
    // Why each stopped, overall (each slice stopped by its own budget).
    let overall = |p: &Progress, why: runner::Cut| match p.cut {
        Some(runner::Cut::Seen) => Some(runner::Cut::Seen),
        _ if p.iterations >= limits.iterations => None,
        _ => Some(why),
    };
    t.cut = overall(&t, runner::Cut::Time);
    c.cut = overall(&c, runner::Cut::Partner);
    let histograms = runner::Histograms::get().expect("no run exists between runs");
    let ch = histograms.of(runner::Tally::Control);
    report_case(suite, control, ch, &c, limits, None);
    let th = histograms.of(runner::Tally::Test);
    report_case(suite, test, th, &t, limits, Some((control.name, ch)));
}

/// What the controller needs; lives in the module until the controller has stopped.
struct Control {
    cfg: Config,
    /// Set when the module is unloaded: the running test stops, the rest are not run.
    abort: CoreAtomicBool,
}

/// Thread function of the controller: runs the tests, prints the suite.
///
/// # Safety
///
/// `data` is the `Control`, which outlives the thread.
unsafe extern "C" fn controller_main(data: *mut c_void) -> c_int {
    // SAFETY: Per this function's contract.
    let control = unsafe { &*data.cast::<Control>() };
    let stop = || kthread::should_stop() || control.abort.load(Ordering::Relaxed);
    let cfg = control.cfg;
    let partner = cfg.control.map(|index| generated::TESTS[index]);
    let mut suite = ktap::Suite::start(SUITE, cfg.tests().count() + usize::from(partner.is_some()));
    let cpus = kthread::online_cpus() as usize;
    suite.diag(format_args!(
        "atomics: {}; {} iterations per test in batches of {}; {} CPUs",
        atomic::implementation(),
        math64::dec_u64(cfg.limits.iterations),
        cfg.limits.batch,
        cpus
    ));
    for test in cfg.tests() {
        let needs = test
            .threads
            .len()
            .max(partner.map_or(0, |c| c.threads.len()));
        if needs > cpus || stop() {
            let why = if needs > cpus {
                "needs more CPUs than are online"
            } else {
                // Unloaded before this test began: said as when it stops one that runs.
                suite.diag(format_args!("aborted by module unload"));
                "aborted by module unload"
            };
            for t in Iterator::chain(partner.into_iter(), [test]) {
                suite.skip(
                    t.name,
                    format_args!("{why} ({needs} needed, {cpus} online)"),
                );
            }
            continue;
        }
        match partner {
            Some(c) => run_interleaved(&mut suite, test, c, cfg.limits, &stop),
            None => run_alone(&mut suite, test, cfg.limits, &stop),
        }
    }
    suite.finish();
    kthread::wait_for_stop();
    0
}

struct RustAtomicLitmus {
    control: KBox<Control>,
    controller: Option<Thread>,
}

impl kernel::Module for RustAtomicLitmus {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let cfg = Config::from_params()?;
        harness::srcu_init()?;
        Self::start(cfg).inspect_err(|_| harness::srcu_cleanup())
    }
}

impl RustAtomicLitmus {
    /// Starts the controller thread, which runs the tests `cfg` names.
    fn start(cfg: Config) -> Result<Self> {
        let control = KBox::new(
            Control {
                cfg,
                abort: CoreAtomicBool::new(false),
            },
            GFP_KERNEL,
        )?;
        let data = core::ptr::from_ref(&*control).cast_mut().cast();
        // The controller mostly sleeps; the litmus threads take CPUs 0, 1, ...
        let cpu = kthread::online_cpus() - 1;
        // SAFETY: `controller_main` waits for `should_stop`; `drop` stops it before freeing.
        let controller = unsafe { Thread::create_on_cpu(controller_main, data, cpu) }?;
        controller.wake();
        Ok(Self {
            control,
            controller: Some(controller),
        })
    }
}

impl Drop for RustAtomicLitmus {
    fn drop(&mut self) {
        self.control.abort.store(true, Ordering::Relaxed);
        if let Some(controller) = self.controller.take() {
            controller.stop();
        }
        // The controller stops the litmus threads before it returns.
        harness::srcu_cleanup();
    }
}
