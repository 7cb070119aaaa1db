// SPDX-License-Identifier: GPL-2.0

//! C and Rust kthreads update the same C-owned `atomic_t` and `atomic64_t` at once.
//!
//! The variables belong to the C module `rust_atomic_c_ops` (load it first), whose kthreads
//! add to them with the kernel's `atomic_fetch_add_relaxed()`; the Rust kthreads here view them
//! with [`AtomicI32::from_c`] and add with `fetch_add_relaxed`. All threads start together
//! (a Rust-owned start flag that the C threads read with `atomic_read_acquire()`), one of each
//! language per online CPU. The totals must be exact: one variable, one memory model, two
//! languages. The test runs in `init`.

use core::sync::atomic::{AtomicUsize, Ordering};
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

use atomic::{AtomicI32, AtomicI64};
use kthread::Thread;

sample_module! {
    type: RustAtomicMixed,
    name: "rust_atomic_mixed",
    description: "C and Rust kthreads updating the same atomic_t through kernel::sync::atomic",
}

/// The KTAP suite name: the crate's, which is also the module's (a mutant's is its own).
const SUITE: &str = module_path!();
/// Rounds per thread, in each language: enough that the threads overlap for a long time (about a
/// second of emulated time) even when the host runs the guest's CPUs one after another in
/// millisecond slices; a shorter run let a lossy add go unnoticed on a loaded host.
const ITERATIONS: i32 = 2_000_000;

extern "C" {
    static mut rust_atomic_c_shared32: bindings::atomic_t;
    static mut rust_atomic_c_shared64: bindings::atomic64_t;
    fn rust_atomic_c_hammer_start(threads: c_int, iterations: c_int, go: *const c_void) -> c_int;
    fn rust_atomic_c_hammer_finished() -> c_int;
    fn rust_atomic_c_hammer_stop();
}

/// The C-owned variables, as Rust atomics.
fn shared() -> (&'static AtomicI32, &'static AtomicI64) {
    // The C module outlasts this one (a symbol dependency) and uses only atomic operations.
    // SAFETY: The C module owns both variables, valid and aligned for as long as it is loaded.
    unsafe {
        (
            AtomicI32::from_c(&raw mut rust_atomic_c_shared32),
            AtomicI64::from_c(&raw mut rust_atomic_c_shared64),
        )
    }
}

/// What the Rust workers share.
struct Shared {
    /// The start flag, read by the C threads too (`atomic_read_acquire()`).
    go: AtomicI32,
    /// Rust workers done; the harness's own counter (see `rust_atomic_kthreads`).
    finished: AtomicUsize,
}

/// Thread function of a Rust worker.
///
/// # Safety
///
/// `data` is a `Shared` that outlives the thread.
unsafe extern "C" fn worker_main(data: *mut c_void) -> c_int {
    // SAFETY: Per this function's contract.
    let shared_state = unsafe { &*data.cast::<Shared>() };
    let (v32, v64) = shared();
    while shared_state.go.read_acquire() == 0 && !kthread::should_stop() {
        kthread::yield_cpu();
    }
    for k in 0..ITERATIONS {
        v32.fetch_add_relaxed(1);
        v64.fetch_add_relaxed(3);
        if k % 1024 == 0 {
            kthread::yield_cpu();
        }
    }
    shared_state.finished.fetch_add(1, Ordering::Relaxed);
    kthread::wait_for_stop();
    0
}

fn run(suite: &mut ktap::Suite) -> Result {
    let threads = kthread::online_cpus() as usize;
    let (v32, v64) = shared();
    v32.set(0);
    v64.set(0);
    let state = KBox::new(
        Shared {
            go: AtomicI32::new(0),
            finished: AtomicUsize::new(0),
        },
        GFP_KERNEL,
    )?;
    let go = state.go.as_ptr().cast::<c_void>().cast_const();
    // SAFETY: `go` stays valid until the C threads are stopped below.
    let ret = unsafe { rust_atomic_c_hammer_start(threads as c_int, ITERATIONS, go) };
    if ret != 0 {
        suite.diag(format_args!("cannot start the C threads: {ret}"));
        return Err(Error::from_errno(ret));
    }
    let mut workers = KVec::with_capacity(threads, GFP_KERNEL)?;
    let data = core::ptr::from_ref(&*state).cast_mut().cast();
    for cpu in 0..threads {
        // SAFETY: `worker_main` waits for `should_stop`; workers are stopped before `state` goes.
        match unsafe { Thread::create_on_cpu(worker_main, data, cpu as u32) } {
            Ok(w) => workers.push(w, GFP_KERNEL)?,
            Err(e) => {
                state.go.set_release(1);
                workers.into_iter().for_each(|w: Thread| {
                    w.stop();
                });
                // SAFETY: The C threads were started above.
                unsafe { rust_atomic_c_hammer_stop() };
                return Err(e);
            }
        }
    }
    workers.iter().for_each(Thread::wake);
    let start = kthread::now_ns();
    state.go.set_release(1);
    loop {
        // SAFETY: The C threads were started above.
        let c_finished = unsafe { rust_atomic_c_hammer_finished() } as usize;
        if c_finished >= threads && state.finished.load(Ordering::Relaxed) >= threads {
            break;
        }
        // SAFETY: Sleeping is allowed in module init.
        unsafe { bindings::msleep(10) };
    }
    let elapsed = (kthread::now_ns() - start).max(1);
    let rust_exits_ok = workers.into_iter().all(|w| w.stop() == 0);
    // SAFETY: The C threads were started above.
    unsafe { rust_atomic_c_hammer_stop() };

    let rounds = 2 * threads as i64 * i64::from(ITERATIONS);
    suite.diag(format_args!(
        "{threads} C and {threads} Rust kthreads, {ITERATIONS} rounds each, {} rounds/s; {}",
        math64::dec_i64(math64::div_s64(rounds * 1_000_000_000, elapsed)),
        atomic::implementation()
    ));
    let (got32, got64) = (i64::from(v32.read()), v64.read());
    suite.diag(format_args!(
        "atomic_t: {} (expected {}); atomic64_t: {} (expected {})",
        math64::dec_i64(got32),
        math64::dec_i64(rounds),
        math64::dec_i64(got64),
        math64::dec_i64(3 * rounds)
    ));
    suite.case("atomic_t_c_and_rust_no_lost_update", got32 == rounds);
    suite.case("atomic64_t_c_and_rust_no_lost_update", got64 == 3 * rounds);
    suite.case("all_threads_ran", rust_exits_ok);
    Ok(())
}

/// The module: the test runs in `init`.
struct RustAtomicMixed;

impl kernel::Module for RustAtomicMixed {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        ktap::check_param()?;
        let mut suite = ktap::Suite::start(SUITE, 3);
        let result = run(&mut suite);
        suite.finish();
        result.map(|()| Self)
    }
}
