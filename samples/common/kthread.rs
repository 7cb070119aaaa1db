// SPDX-License-Identifier: GPL-2.0

//! Kernel threads bound to a CPU, for the samples (the 6.12 `kernel` crate has no kthread
//! abstraction).
//!
//! The protocol is the one `kthread_stop()` requires: a thread function never returns on its
//! own, it waits for [`should_stop`]; the owner of the [`Thread`] stops it exactly once. That
//! way the `task_struct` is alive whenever `kthread_stop()` is called.

use core::ptr::NonNull;
use kernel::bindings;
use kernel::error::{from_err_ptr, Result};
use kernel::ffi::{c_int, c_void};

/// A created, not yet stopped, kernel thread.
///
/// # Invariants
///
/// `task` is a kthread created by [`Thread::create_on_cpu`] that has not been stopped; its
/// function does not return before `kthread_should_stop()` is true, so it has not exited.
pub(crate) struct Thread {
    task: NonNull<bindings::task_struct>,
}

// SAFETY: A kthread may be woken and stopped from any thread; `Thread` is only a handle.
unsafe impl Send for Thread {}
// SAFETY: `&Thread` only allows `wake`, which may run concurrently from any thread.
unsafe impl Sync for Thread {}

impl Thread {
    /// Creates a kthread named `rust_atomic/<cpu>` that will run `f(data)` on `cpu` once woken.
    ///
    /// # Safety
    ///
    /// `f` must not return before [`should_stop`] returns true, and `data` must stay valid for
    /// `f` until [`Thread::stop`] has returned.
    pub(crate) unsafe fn create_on_cpu(
        f: unsafe extern "C" fn(*mut c_void) -> c_int,
        data: *mut c_void,
        cpu: u32,
    ) -> Result<Self> {
        // SAFETY: `%u` takes the `c_uint` passed; `f` and `data` are valid per the contract.
        let task = unsafe {
            bindings::kthread_create_on_node(
                Some(f),
                data,
                bindings::NUMA_NO_NODE,
                crate::ktap::c_chars(c"rust_atomic/%u").cast(),
                cpu as kernel::ffi::c_uint,
            )
        };
        let task = from_err_ptr(task)?;
        // SAFETY: `task` was just created and has not run yet, as `kthread_bind()` requires.
        unsafe { bindings::kthread_bind(task, cpu) };
        // INVARIANT: `from_err_ptr` succeeded, so `task` is a new kthread; `f` waits for
        // `should_stop` per this function's contract.
        Ok(Self {
            task: NonNull::new(task).ok_or(kernel::error::code::ENOMEM)?,
        })
    }

    /// Lets the thread run.
    pub(crate) fn wake(&self) {
        // SAFETY: By the type invariant the task has not exited.
        unsafe { bindings::wake_up_process(self.task.as_ptr()) };
    }

    /// Stops the thread and returns what its function returned, or `-EINTR` if it was stopped
    /// before it ever ran.
    pub(crate) fn stop(self) -> i32 {
        // SAFETY: Per the type invariant the task is alive and unstopped; `self` is consumed.
        unsafe { bindings::kthread_stop(self.task.as_ptr()) }
    }
}

/// Whether the current kthread has been asked to stop.
pub(crate) fn should_stop() -> bool {
    // SAFETY: Called from a kthread's function, as `kthread_should_stop()` requires.
    unsafe { bindings::kthread_should_stop() }
}

/// Sleeps until the current kthread is asked to stop: the end of every thread function.
pub(crate) fn wait_for_stop() {
    while !should_stop() {
        // SAFETY: Sleeping is allowed in a kthread's function.
        unsafe { bindings::msleep(5) };
    }
}

/// Lets another task run on this CPU if one is waiting (`cond_resched()`): spinning kthreads
/// must call it, since a kernel without preemption never takes the CPU away from them. A
/// preemptible kernel (7.2's default, `PREEMPT_LAZY`) needs nothing: there, as in C
/// (include/linux/sched.h), it does nothing.
pub(crate) fn yield_cpu() {
    #[cfg(not(CONFIG_PREEMPTION))]
    // SAFETY: Called from process context.
    unsafe {
        bindings::__cond_resched()
    };
}

/// The number of online CPUs (`num_online_cpus()`).
pub(crate) fn online_cpus() -> u32 {
    // C's `num_online_cpus()` is a `READ_ONCE()` of this counter, i.e. a volatile read.
    // SAFETY: `__num_online_cpus` is a valid `atomic_t` for the kernel's lifetime.
    let n = unsafe { core::ptr::read_volatile(&raw const bindings::__num_online_cpus.counter) };
    n.max(1) as u32
}

/// Monotonic time in nanoseconds (`ktime_get()`).
pub(crate) fn now_ns() -> i64 {
    // SAFETY: `ktime_get()` has no preconditions.
    unsafe { bindings::ktime_get() }
}
