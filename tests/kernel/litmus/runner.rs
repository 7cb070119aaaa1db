// SPDX-License-Identifier: GPL-2.0

//! Runs one translated litmus test: one kthread per litmus thread, each on its own CPU, over
//! batches of instances, and the histogram of final states.
//!
//! A batch is klitmus7's scheme: every thread waits at a start line, then runs its body on
//! instances `0..batch` in order, then waits at a finish line; thread 0 then records the final
//! state of every instance and resets them, while the others wait at the next start line.
//! `batch=1` is a synchronized start for every single iteration. A run can stop early, after
//! a whole batch: when its time budget is spent, or (`until_seen`) once the clause held.
//! A run may also continue the histogram of an earlier run of the same test (see
//! [`Run::new`]): a test run in slices, interleaved with its control test, is counted as one.
//!
//! The harness's own synchronization uses `core::sync::atomic`, never the library under test:
//! mutation-test builds break the library on purpose, and the harness must still count.

use crate::harness::{Instance, Progress, Slot, SlotKind, Source, Test, MAX_BATCH};
use crate::kthread::{self, Thread};
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, AtomicI64, AtomicU8, AtomicUsize, Ordering};
use kernel::ffi::{c_int, c_void};
use kernel::prelude::*;

/// Most threads of a test.
pub(crate) const MAX_THREADS: usize = 8;
/// Most registers of one thread.
pub(crate) const MAX_REGS: usize = 8;
/// Most values of a final state.
pub(crate) const MAX_SLOTS: usize = 16;
/// Most distinct final states the histogram keeps; more are counted as "other".
const MAX_STATES: usize = 64;

/// One final state: a value per slot of the test.
type State = [i64; MAX_SLOTS];

/// The registers every thread left for every instance of the current batch.
static OUT: [[[AtomicI64; MAX_REGS]; MAX_BATCH]; MAX_THREADS] =
    [const { [const { [const { AtomicI64::new(0) }; MAX_REGS] }; MAX_BATCH] }; MAX_THREADS];

/// A start or finish line for all threads of a test (sense-reversing, spinning).
struct Line {
    arrived: AtomicUsize,
    generation: AtomicUsize,
}

impl Line {
    const fn new() -> Self {
        Self {
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
        }
    }

    /// Waits until `n` threads have arrived; false if the run was aborted meanwhile. Acquire
    /// and release: what a thread did before it arrived is visible to all after they leave.
    fn wait(&self, n: usize, abort: &AtomicBool) -> bool {
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == n {
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::Release);
            return true;
        }
        let mut spins = 0u32;
        while self.generation.load(Ordering::Acquire) == generation {
            spins = spins.wrapping_add(1);
            if spins % 4096 == 0 {
                if abort.load(Ordering::Relaxed) {
                    return false;
                }
                kthread::yield_cpu();
            }
            core::hint::spin_loop();
        }
        true
    }
}

/// The histogram of final states of one test, and its verdict counts.
pub(crate) struct Histogram {
    states: [State; MAX_STATES],
    counts: [u64; MAX_STATES],
    len: usize,
    /// Iterations whose state did not fit.
    pub(crate) other: u64,
    /// Iterations whose final state satisfies the clause's proposition.
    pub(crate) positive: u64,
    pub(crate) negative: u64,
    /// Iterations not counted: herd7 has no such execution (a thread gave up on a lock that
    /// no thread could release any more, or the final state fails the test's `filter`).
    pub(crate) discarded: u64,
    /// The iteration (from 0) whose final state first satisfied the proposition.
    pub(crate) first_positive: Option<u64>,
}

impl Histogram {
    const fn new() -> Self {
        Self {
            states: [[0; MAX_SLOTS]; MAX_STATES],
            counts: [0; MAX_STATES],
            len: 0,
            other: 0,
            positive: 0,
            negative: 0,
            discarded: 0,
            first_positive: None,
        }
    }

    /// Empties the histogram, in place (it is too large for a kthread's stack).
    fn clear(&mut self) {
        self.len = 0;
        self.other = 0;
        self.positive = 0;
        self.negative = 0;
        self.discarded = 0;
        self.first_positive = None;
    }

    fn add(&mut self, iteration: u64, state: &State, holds: bool) {
        if holds {
            self.first_positive.get_or_insert(iteration);
            self.positive += 1;
        } else {
            self.negative += 1;
        }
        if let Some(k) = self.states[..self.len].iter().position(|s| s == state) {
            self.counts[k] += 1;
        } else if self.len < MAX_STATES {
            self.states[self.len] = *state;
            self.counts[self.len] = 1;
            self.len += 1;
        } else {
            self.other += 1;
        }
    }

    /// The recorded states with their counts.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (&State, u64)> {
        self.states[..self.len]
            .iter()
            .zip(self.counts[..self.len].iter().copied())
    }
}

/// A histogram of a test: a static, as it is too large for a kthread's stack (and only one test
/// runs at a time).
struct HistogramCell(UnsafeCell<Histogram>);

// SAFETY: Accessed only as the invariant of `Run` says, by one thread at a time.
unsafe impl Sync for HistogramCell {}

/// Which histogram a run counts in: a test's, or that of the control test interleaved with it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tally {
    Test = 0,
    Control = 1,
}

static HISTOGRAMS: [HistogramCell; 2] = [
    HistogramCell(UnsafeCell::new(Histogram::new())),
    HistogramCell(UnsafeCell::new(Histogram::new())),
];

/// Whether a `Run` exists: there is one histogram, so there is at most one run at a time.
static RUN_EXISTS: AtomicBool = AtomicBool::new(false);

/// How long a run goes on.
#[derive(Clone, Copy)]
pub(crate) struct Limits {
    /// Iterations, at most.
    pub(crate) iterations: u64,
    /// Instances per batch, `1..=MAX_BATCH`.
    pub(crate) batch: usize,
    /// Stop after the batch during which this much time has passed (0: no time limit).
    pub(crate) budget_ns: i64,
    /// Stop after the batch in which the clause's proposition first held.
    pub(crate) until_seen: bool,
}

/// Why a run stopped before its iterations were done.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cut {
    /// The proposition held (`Limits::until_seen`).
    Seen = 1,
    /// The time budget ran out.
    Time = 2,
    /// A control stopped with the test it ran interleaved with.
    Partner = 3,
}

/// One run of one test, shared by its threads.
///
/// # Invariants
///
/// - At most one `Run` exists at a time (`RUN_EXISTS`), so it owns [`HISTOGRAMS`].
/// - The histograms are accessed only by thread 0 while the test runs, and by the owner of the
///   `Run` before the threads start or after every thread has been stopped.
pub(crate) struct Run {
    pub(crate) test: &'static Test,
    pub(crate) limits: Limits,
    tally: Tally,
    /// The iterations the histogram already held when the run started.
    offset: u64,
    /// How often the clause had held in those.
    positive_before: u64,
    started_ns: i64,
    /// Why the run stopped early (a `Cut`), or 0; written by thread 0 before a start line.
    cut: AtomicU8,
    start: Line,
    finish: Line,
    abort: AtomicBool,
    /// What the threads share besides the variables (a wild dereference, lock waits).
    pub(crate) progress: Progress,
    finished: AtomicUsize,
}

// SAFETY: The fields are `Sync`; the histogram is accessed as the type invariant says.
unsafe impl Sync for Run {}

/// What a thread gets: the run and its litmus thread number.
struct ThreadArg {
    run: *const Run,
    thread: usize,
}

impl Run {
    /// A run of `test` within `limits` that counts in histogram `tally`, or `None` while
    /// another run exists. With `resume`, the histogram goes on from the previous run, which
    /// must have been of the same test; otherwise it starts empty. `limits.iterations` counts
    /// this run's iterations only.
    pub(crate) fn new(
        test: &'static Test,
        limits: Limits,
        tally: Tally,
        resume: bool,
    ) -> Option<Self> {
        if RUN_EXISTS.swap(true, Ordering::Acquire) {
            return None;
        }
        // SAFETY: No other `Run` exists (checked above) and no thread of this one runs yet.
        let histogram = unsafe { &mut *HISTOGRAMS[tally as usize].0.get() };
        if !resume {
            histogram.clear();
        }
        let (offset, positive_before) = (
            histogram.positive + histogram.negative + histogram.discarded,
            histogram.positive,
        );
        // INVARIANT: `RUN_EXISTS` was false and is now true until this `Run` is dropped.
        Some(Self {
            test,
            limits: Limits {
                batch: limits.batch.clamp(1, MAX_BATCH),
                ..limits
            },
            tally,
            offset,
            positive_before,
            started_ns: kthread::now_ns(),
            cut: AtomicU8::new(0),
            start: Line::new(),
            finish: Line::new(),
            abort: AtomicBool::new(false),
            progress: Progress::new(test.threads.len()),
            finished: AtomicUsize::new(0),
        })
    }

    /// The histogram, once every thread has been stopped.
    pub(crate) fn histogram(&self) -> &Histogram {
        // SAFETY: Callers only call this after `execute` returned, which stops every thread.
        unsafe { &*HISTOGRAMS[self.tally as usize].0.get() }
    }

    /// Why the run stopped before its iterations were done, if it did.
    pub(crate) fn cut(&self) -> Option<Cut> {
        match self.cut.load(Ordering::Relaxed) {
            1 => Some(Cut::Seen),
            2 => Some(Cut::Time),
            _ => None,
        }
    }

    /// Runs the test: starts its threads, waits for them (or for `stop()` to say so), stops
    /// them. Returns false if it was cut short.
    pub(crate) fn execute(&self, stop: impl Fn() -> bool) -> Result<bool> {
        let n = self.test.threads.len();
        for i in 0..self.limits.batch {
            Instance::new(i, &self.progress).reset(self.test.vars);
        }
        let mut args: KVec<ThreadArg> = KVec::with_capacity(n, GFP_KERNEL)?;
        for thread in 0..n {
            args.push(ThreadArg { run: self, thread }, GFP_KERNEL)?;
        }
        let mut threads: KVec<Thread> = KVec::with_capacity(n, GFP_KERNEL)?;
        for (cpu, arg) in args.iter().enumerate() {
            let data = core::ptr::from_ref(arg).cast_mut().cast();
            // The threads are stopped below, before `args` and `self` go away.
            // SAFETY: `thread_main` waits for `should_stop`; `data` outlives the thread.
            match unsafe { Thread::create_on_cpu(thread_main, data, cpu as u32) } {
                Ok(t) => threads.push(t, GFP_KERNEL)?,
                Err(e) => {
                    self.abort.store(true, Ordering::Relaxed);
                    for t in threads {
                        t.stop();
                    }
                    return Err(e);
                }
            }
        }
        for t in threads.iter() {
            t.wake();
        }
        let mut completed = true;
        while self.finished.load(Ordering::Acquire) < n {
            if stop() {
                self.abort.store(true, Ordering::Relaxed);
                completed = false;
                break;
            }
            // SAFETY: Sleeping is allowed in a kthread's function.
            unsafe { kernel::bindings::msleep(2) };
        }
        for t in threads {
            t.stop();
        }
        Ok(completed)
    }

    /// The body of litmus thread `thread`: all batches.
    fn work(&self, thread: usize) {
        let test = self.test;
        let n = test.threads.len();
        let body = test.threads[thread];
        let regs = test.regs[thread];
        let mut done = 0u64;
        while done < self.limits.iterations {
            let size = (self.limits.iterations - done).min(self.limits.batch as u64) as usize;
            // Thread 0 decides on a cut before it arrives, so every thread sees the same one.
            if !self.start.wait(n, &self.abort) || self.cut.load(Ordering::Relaxed) != 0 {
                return;
            }
            for (i, saved) in OUT[thread][..size].iter().enumerate() {
                let mut out = [0i64; MAX_REGS];
                body(&Instance::new(i, &self.progress), &mut out[..regs]);
                for (cell, value) in saved.iter().zip(&out[..regs]) {
                    cell.store(*value, Ordering::Relaxed);
                }
            }
            self.progress.batch_done();
            if !self.finish.wait(n, &self.abort) {
                return;
            }
            if thread == 0 {
                // SAFETY: Only thread 0 touches the histogram while the test runs.
                let histogram = unsafe { &mut *HISTOGRAMS[self.tally as usize].0.get() };
                for i in 0..size {
                    let m = Instance::new(i, &self.progress);
                    let state = final_state(test, &m, i);
                    let state_slots = &state[..test.slots.len()];
                    if self.progress.discarded(i) || test.filter.is_some_and(|f| !f(state_slots)) {
                        histogram.discarded += 1;
                    } else {
                        let holds = (test.holds)(state_slots);
                        histogram.add(self.offset + done + i as u64, &state, holds);
                    }
                    m.reset(test.vars);
                }
                self.progress.new_batch(size);
                let cut = if self.limits.until_seen && histogram.positive > self.positive_before {
                    Some(Cut::Seen)
                } else if self.limits.budget_ns > 0
                    && kthread::now_ns() - self.started_ns >= self.limits.budget_ns
                {
                    Some(Cut::Time)
                } else {
                    None
                };
                if let Some(cut) = cut {
                    self.cut.store(cut as u8, Ordering::Relaxed);
                }
            }
            done += size as u64;
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        RUN_EXISTS.store(false, Ordering::Release);
    }
}

/// The histograms between runs, to report a test run in slices once its last slice is done.
///
/// # Invariants
///
/// It holds `RUN_EXISTS` as a `Run` does, so no run touches the histograms while it exists.
pub(crate) struct Histograms(());

impl Histograms {
    /// The histograms, or `None` while a run exists.
    pub(crate) fn get() -> Option<Self> {
        // INVARIANT: `RUN_EXISTS` was false and is now true until this value is dropped.
        (!RUN_EXISTS.swap(true, Ordering::Acquire)).then_some(Self(()))
    }

    /// The histogram `tally`.
    pub(crate) fn of(&self, tally: Tally) -> &Histogram {
        // SAFETY: No run exists (the type invariant), so nothing else accesses the histogram.
        unsafe { &*HISTOGRAMS[tally as usize].0.get() }
    }
}

impl Drop for Histograms {
    fn drop(&mut self) {
        RUN_EXISTS.store(false, Ordering::Release);
    }
}

/// The final state of instance `i` of the batch that just finished.
fn final_state(test: &Test, m: &Instance<'_>, i: usize) -> State {
    let mut state = [0i64; MAX_SLOTS];
    for (value, slot) in state.iter_mut().zip(test.slots) {
        *value = slot_value(test, m, i, slot);
    }
    state
}

fn slot_value(test: &Test, m: &Instance<'_>, i: usize, slot: &Slot) -> i64 {
    match (slot.source, slot.kind) {
        (Source::Var(v), _) => m.final_value(test.vars, v),
        (Source::Reg { thread, index }, kind) => {
            let raw = OUT[thread][i][index].load(Ordering::Relaxed);
            match kind {
                SlotKind::Int => raw,
                SlotKind::Ptr => m.pointee(test.vars, raw as usize),
            }
        }
    }
}

/// Thread function of litmus thread `arg.thread`.
///
/// # Safety
///
/// `data` is a `ThreadArg` whose `run` outlives the thread (see `Thread::create_on_cpu`).
unsafe extern "C" fn thread_main(data: *mut c_void) -> c_int {
    // SAFETY: Per this function's contract.
    let arg = unsafe { &*data.cast::<ThreadArg>() };
    // SAFETY: Per this function's contract.
    let run = unsafe { &*arg.run };
    run.work(arg.thread);
    run.finished.fetch_add(1, Ordering::Release);
    kthread::wait_for_stop();
    0
}
