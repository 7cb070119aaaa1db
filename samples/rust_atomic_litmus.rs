// SPDX-License-Identifier: GPL-2.0

//! Runs the kernel's LKMM litmus tests, translated to Rust on `kernel::sync::atomic`, and
//! judges every outcome against the memory model's verdict.
//!
//! `scripts/litmus2rust` translates the tests (by default all of
//! `tools/memory-model/litmus-tests/`) into `litmus/generated.rs`. On load the module runs them
//! one after the other from a controller kthread: each litmus thread on its own CPU,
//! `iterations` times, in batches of `batch` instances (`litmus/runner.rs`), and prints for each
//! its histogram of final states, the herd7/klitmus7 `Observation` line, the rate, and a KTAP
//! case: a `Result: Never` test fails if its clause was ever observed, `Always` if it was ever
//! not, `Sometimes` passes either way and says whether the weak outcome was seen.
//!
//! Parameters: `iterations=1..100000000` (per test), `batch=1..512`, `test=NAME` (run only
//! that test), `seconds=0..3600` (time budget of each test; 0: none), `until_seen=0|1` (stop a
//! test once its clause held), `control=NAME` (run NAME first, until its clause held; see
//! below), and `ktap_number` (the suite's position in the boot test's KTAP document).
//!
//! A mutation-test build (`tests/mutants`) weakens the library on purpose. A strict test that
//! still passes there did not catch the weakening, and says so. With `control=NAME`, where NAME
//! is the same test without the ordering that was weakened (`SB+poonceonces` for
//! `SB+fencembonceonces`), a machine that never showed NAME's weak outcome (its budget: a third
//! of `seconds`) could not have shown the weakening either, and the module says that instead.

use core::sync::atomic::{AtomicBool as CoreAtomicBool, Ordering};
use kernel::ffi::{c_int, c_void};
use kernel::prelude::*;

// `pub`, as `kernel::sync::atomic` is: the library is compiled here as it is in the kernel.
#[path = "../rust/atomic.rs"]
pub mod atomic;
#[path = "litmus/generated.rs"]
mod generated;
// The translated tests use a part of the harness, which part depends on the tests.
#[allow(dead_code)]
#[path = "litmus/harness.rs"]
mod harness;
#[path = "common/ktap.rs"]
mod ktap;
#[path = "common/kthread.rs"]
mod kthread;
#[path = "common/param.rs"]
mod param;
#[path = "litmus/report.rs"]
mod report;
#[path = "litmus/runner.rs"]
mod runner;

use harness::Test;
use kthread::Thread;
use param::{module_param_i32, module_param_string};

module! {
    type: RustAtomicLitmus,
    name: "rust_atomic_litmus",
    author: "Rust LKMM atomics authors",
    description: "LKMM litmus tests on kernel::sync::atomic, with their verdicts",
    license: "GPL",
}

/// The KTAP suite name: the crate's, which is also the module's (a mutant's is its own).
const SUITE: &str = module_path!();
const MAX_ITERATIONS: i32 = 100_000_000;
const DEFAULT_ITERATIONS: i32 = 10_000;
/// Measured (see README): batches of 256 show store buffering about 500 times as often per
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
    "Run this test first, until its clause held: whether this machine shows that weak outcome"
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

    /// The tests this run runs, the control first.
    fn tests(&self) -> impl Iterator<Item = &'static Test> + Clone {
        let control = self.control.map(|index| generated::TESTS[index]);
        let rest = match self.only {
            Some(index) => &generated::TESTS[index..=index],
            None => generated::TESTS,
        };
        let is_control = move |t: &&'static Test| control.is_some_and(|c| core::ptr::eq(c, *t));
        Iterator::chain(
            control.into_iter(),
            rest.iter().copied().filter(move |t| !is_control(t)),
        )
    }
}

/// What the control test showed: its name, whether its clause held, its iterations.
#[derive(Clone, Copy)]
struct ControlResult {
    name: &'static str,
    seen: bool,
    iterations: u64,
}

/// What the controller needs; lives in the module until the controller has stopped.
struct Control {
    cfg: Config,
    /// Set when the module is unloaded: the running test stops, the rest are not run.
    abort: CoreAtomicBool,
}

/// Runs `test` within `limits` and reports it as a case of `suite`; returns the run's
/// histogram counts (clause held, did not hold) if it ran to its end or to a cut.
fn run_test(
    suite: &mut ktap::Suite,
    test: &'static Test,
    limits: runner::Limits,
    stop: &impl Fn() -> bool,
    control: Option<ControlResult>,
) -> Option<(u64, u64)> {
    // The controller runs one test at a time: no other `Run` exists.
    let Some(run) = runner::Run::new(test, limits) else {
        suite.diag(format_args!("{}: another run is in progress", test.name));
        suite.case(test.name, false);
        return None;
    };
    let start = kthread::now_ns();
    let completed = run.execute(stop);
    let elapsed = kthread::now_ns() - start;
    let ok = match completed {
        Ok(true) => report::test(suite, &run, elapsed),
        Ok(false) => {
            suite.diag(format_args!("aborted by module unload"));
            suite.skip(test.name, format_args!("aborted by module unload"));
            return None;
        }
        Err(e) => {
            suite.diag(format_args!(
                "{}: cannot start its threads: {e:?}",
                test.name
            ));
            suite.case(test.name, false);
            return None;
        }
    };
    let h = run.histogram();
    let iterations = h.positive + h.negative;
    if !(cfg!(rust_atomic_mutant) && ok && report::strict(test)) {
        suite.case(test.name, ok);
    } else if let Some(c) = control.filter(|c| !c.seen) {
        // A mutation-test build on a machine that showed no weak outcome at all.
        suite.diag(format_args!(
            "{}: the weakening is not observable on this machine: {iterations} iterations, none \
             forbidden, and its control {} showed no weak outcome either in {} iterations",
            test.name, c.name, c.iterations
        ));
        suite.skip(
            test.name,
            format_args!("weakening not observable on this machine"),
        );
    } else {
        // A mutation-test build: a strict test that passes did not catch the weakening.
        suite.diag(format_args!(
            "{}: the weakening is not observable on this target: {iterations} iterations, none \
             forbidden",
            test.name
        ));
        suite.skip(
            test.name,
            format_args!("weakening not observable on this target"),
        );
    }
    Some((h.positive, h.negative))
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
    let mut suite = ktap::Suite::start(SUITE, cfg.tests().count());
    let cpus = kthread::online_cpus() as usize;
    suite.diag(format_args!(
        "atomics: {}; {} iterations per test in batches of {}; {} CPUs",
        atomic::implementation(),
        cfg.limits.iterations,
        cfg.limits.batch,
        cpus
    ));
    let mut control_result = None;
    for test in cfg.tests() {
        if test.threads.len() > cpus {
            suite.skip(
                test.name,
                format_args!("needs {} CPUs, {} online", test.threads.len(), cpus),
            );
            continue;
        }
        if stop() {
            suite.skip(test.name, format_args!("aborted by module unload"));
            continue;
        }
        let is_control = cfg
            .control
            .is_some_and(|index| core::ptr::eq(generated::TESTS[index], test));
        let limits = if is_control {
            runner::Limits {
                budget_ns: cfg.limits.budget_ns / 3,
                until_seen: true,
                ..cfg.limits
            }
        } else {
            cfg.limits
        };
        let counts = run_test(&mut suite, test, limits, &stop, control_result);
        if is_control {
            let (positive, negative) = counts.unwrap_or((0, 0));
            control_result = Some(ControlResult {
                name: test.name,
                seen: positive > 0,
                iterations: positive + negative,
            });
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
    }
}
