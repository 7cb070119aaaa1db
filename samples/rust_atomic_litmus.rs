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
//! that test), and `ktap_number` (the suite's position in the boot test's KTAP document).

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

/// The validated parameters.
#[derive(Clone, Copy)]
struct Config {
    iterations: u64,
    batch: usize,
    /// The index in `generated::TESTS` of the only test to run.
    only: Option<usize>,
}

impl Config {
    fn from_params() -> Result<Self> {
        let iterations = ITERATIONS.given().unwrap_or(DEFAULT_ITERATIONS);
        let batch = BATCH.given().unwrap_or(DEFAULT_BATCH);
        if !(1..=MAX_ITERATIONS).contains(&iterations) {
            pr_err!(
                "iterations={iterations} is invalid: it must be between 1 and {MAX_ITERATIONS}\n"
            );
            return Err(EINVAL);
        }
        if !(1..=harness::MAX_BATCH as i32).contains(&batch) {
            pr_err!(
                "batch={batch} is invalid: it must be between 1 and {}\n",
                harness::MAX_BATCH
            );
            return Err(EINVAL);
        }
        let only = match TEST.given() {
            None => None,
            Some(name) => match generated::TESTS.iter().position(|t| t.name == name) {
                Some(index) => Some(index),
                None => {
                    pr_err!("test={name} is invalid: no translated test has that name\n");
                    return Err(EINVAL);
                }
            },
        };
        ktap::check_param()?;
        Ok(Self {
            iterations: iterations as u64,
            batch: batch as usize,
            only,
        })
    }

    /// The tests this run runs.
    fn tests(&self) -> &'static [&'static Test] {
        match self.only {
            Some(index) => &generated::TESTS[index..=index],
            None => generated::TESTS,
        }
    }
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
    let tests = control.cfg.tests();
    let mut suite = ktap::Suite::start(SUITE, tests.len());
    let cpus = kthread::online_cpus() as usize;
    suite.diag(format_args!(
        "atomics: {}; {} iterations per test in batches of {}; {} CPUs",
        atomic::implementation(),
        control.cfg.iterations,
        control.cfg.batch,
        cpus
    ));
    for test in tests {
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
        // The controller runs one test at a time: no other `Run` exists.
        let Some(run) = runner::Run::new(test, control.cfg.iterations, control.cfg.batch) else {
            suite.diag(format_args!("{}: another run is in progress", test.name));
            suite.case(test.name, false);
            continue;
        };
        let start = kthread::now_ns();
        let completed = run.execute(stop);
        let elapsed = kthread::now_ns() - start;
        let ok = match completed {
            Ok(true) => report::test(&suite, &run, elapsed),
            Ok(false) => {
                suite.diag(format_args!("aborted by module unload"));
                suite.skip(test.name, format_args!("aborted by module unload"));
                continue;
            }
            Err(e) => {
                suite.diag(format_args!(
                    "{}: cannot start its threads: {e:?}",
                    test.name
                ));
                false
            }
        };
        if cfg!(rust_atomic_mutant) && ok && completed.is_ok_and(|c| c) && report::strict(test) {
            // A mutation-test build: a strict test that passes did not catch the weakening.
            suite.diag(format_args!(
                "{}: the weakening is not observable on this target: {} iterations, none forbidden",
                test.name,
                run.histogram().positive + run.histogram().negative
            ));
            suite.skip(
                test.name,
                format_args!("weakening not observable on this target"),
            );
        } else {
            suite.case(test.name, ok);
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
