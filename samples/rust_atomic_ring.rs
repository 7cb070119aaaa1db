// SPDX-License-Identifier: GPL-2.0

//! A single-producer/single-consumer ring in the kernel's circular-buffer idiom
//! (`Documentation/core-api/circular-buffers.rst`), passing checked records between two
//! kthreads on different CPUs.
//!
//! The indices are plain `u32`s and the records plain data: what makes them safe is the
//! *context* of each access, marked where the other side may look at the same time. The
//! producer fills the slot at `head`, then publishes it with `smp_store_release(&head)`; the
//! consumer reads `head` with `smp_load_acquire()`, reads the slot, and frees it with
//! `smp_store_release(&tail)`, which the producer reads with `smp_load_acquire()` before it
//! reuses the slot. Each side reads its own index plainly.
//!
//! Every record carries a sequence number, a payload derived from it and a checksum; the
//! consumer checks each one: none may be lost, duplicated, reordered or torn. Mutation tests
//! (`tests/mutants`): in the build `publish_before_fill` the producer publishes a slot before it
//! fills it, which the check must catch; in `release_plain` the publish is a plain
//! `WRITE_ONCE()`, and the module says whether that weakening was observable on this target.
//!
//! Parameters: `records=1..100000000`, `seconds=1..3600` (the producer stops early once this
//! much time has passed: on a loaded host two vCPUs rarely run at once, and every hand-over
//! then waits for the host's scheduler) and `ktap_number`.

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

use atomic::{read_once, smp_load_acquire, smp_store_release};
use kthread::Thread;
use param::module_param_i32;

sample_module! {
    type: RustAtomicRing,
    name: "rust_atomic_ring",
    description: "SPSC ring (circular-buffer idiom) on kernel::sync::atomic, every record checked",
}

const SUITE: &str = module_path!();
const MAX_RECORDS: i32 = 100_000_000;
const DEFAULT_RECORDS: i32 = 10_000_000;

module_param_i32!(
    RECORDS,
    "records",
    DEFAULT_RECORDS,
    "Records to pass through the ring, 1..100000000"
);
const MAX_SECONDS: i32 = 3600;
/// Ten times what 10^7 records take on an idle host.
const DEFAULT_SECONDS: i32 = 30;
module_param_i32!(
    SECONDS,
    "seconds",
    DEFAULT_SECONDS,
    "Time budget: the producer stops after this many seconds, 1..3600"
);

/// Slots of the ring: small, so that the producer wraps and waits for the consumer all the time.
const SLOTS: u32 = 16;
const _: () = assert!(SLOTS.is_power_of_two());
/// Records between checks for an abort and chances for other tasks to run.
const CHECK_EVERY: u64 = 4096;
/// Payload words per record: several stores, so that a torn record can show.
const WORDS: usize = 6;

/// One record.
#[derive(Clone, Copy)]
#[repr(C)]
struct Record {
    seq: u64,
    payload: [u32; WORDS],
    checksum: u32,
}

impl Record {
    const EMPTY: Self = Self {
        seq: 0,
        payload: [0; WORDS],
        checksum: 0,
    };

    /// The record with sequence number `seq`: payload words derived from it, and a checksum.
    fn new(seq: u64) -> Self {
        let mut payload = [0u32; WORDS];
        let mut x = (seq as u32) ^ ((seq >> 32) as u32) ^ 0x9e37_79b9;
        for word in &mut payload {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *word = x;
        }
        Self {
            seq,
            payload,
            checksum: checksum(seq, &payload),
        }
    }
}

fn checksum(seq: u64, payload: &[u32; WORDS]) -> u32 {
    payload
        .iter()
        .fold(seq as u32 ^ 0x5bd1_e995, |c, w| c.rotate_left(5) ^ w)
}

/// CIRC_CNT(): records in the ring.
fn circ_cnt(head: u32, tail: u32) -> u32 {
    head.wrapping_sub(tail) & (SLOTS - 1)
}

/// CIRC_SPACE(): free slots; one slot stays empty to tell full from empty.
fn circ_space(head: u32, tail: u32) -> u32 {
    circ_cnt(tail, head.wrapping_add(1))
}

/// The ring.
///
/// # Invariants
///
/// - `head` is written only by the producer, `tail` only by the consumer, each with
///   `smp_store_release()`; the other side reads it with `smp_load_acquire()`.
/// - `slots[i]` is written only by the producer while `i` is outside `tail..head` (free), and
///   read only by the consumer while it is inside (published): the release/acquire pairs above
///   order those accesses, so they never overlap.
struct Ring {
    head: UnsafeCell<u32>,
    tail: UnsafeCell<u32>,
    slots: [UnsafeCell<Record>; SLOTS as usize],
}

/// What one run found.
struct Run {
    ring: Ring,
    records: u64,
    budget_ns: i64,
    /// Records the producer sent, once it is done (`usize::MAX` until then).
    sent: AtomicUsize,
    /// Results, written by the consumer before it reports `finished`.
    received: AtomicUsize,
    errors: AtomicUsize,
    first_error: UnsafeCell<Option<(u64, u64)>>,
    producer_ns: UnsafeCell<i64>,
    consumer_ns: UnsafeCell<i64>,
    finished: AtomicUsize,
    abort: CoreAtomicBool,
}

// SAFETY: The ring is accessed as its invariants say; the result cells are written by one
// thread before `finished` (release) and read by the controller after it (acquire).
unsafe impl Sync for Run {}

impl Run {
    fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    /// The producer: pushes records `0..records`.
    fn produce(&self) {
        let ring = &self.ring;
        let start = kthread::now_ns();
        let mut seq = 0u64;
        let mut spins = 0u32;
        while seq < self.records {
            // SAFETY: Only the producer writes `head`: its own plain read races with nothing.
            let head = unsafe { read_once(ring.head.get()) };
            // SAFETY: `tail` is a valid `u32`; the consumer publishes it with release.
            let tail = unsafe { smp_load_acquire(ring.tail.get()) };
            if circ_space(head, tail) == 0 {
                spins = spins.wrapping_add(1);
                if spins % 1024 == 0 && (self.pause_or_abort() || self.out_of_time(start)) {
                    break;
                }
                continue;
            }
            // Mutation test `publish_before_fill`: the classic driver bug, the slot published
            // before it is filled, so the consumer can read it half written (the test must
            // catch it; it breaks the invariant of `Ring` on purpose).
            #[cfg(rust_atomic_mutant = "publish_before_fill")]
            // SAFETY: Only the producer writes `head` (test-only: publishes an unfilled slot).
            unsafe {
                smp_store_release(ring.head.get(), head.wrapping_add(1) & (SLOTS - 1))
            };
            // SAFETY: Slot `head` is free: the consumer is done with it (invariant of `Ring`).
            unsafe { *ring.slots[head as usize].get() = Record::new(seq) };
            #[cfg(not(rust_atomic_mutant = "publish_before_fill"))]
            // SAFETY: Only the producer writes `head`; this publishes the slot.
            unsafe {
                smp_store_release(ring.head.get(), head.wrapping_add(1) & (SLOTS - 1))
            };
            seq += 1;
            if seq % CHECK_EVERY == 0 && (self.pause_or_abort() || self.out_of_time(start)) {
                break;
            }
        }
        // SAFETY: Only the producer writes this cell, before it reports.
        unsafe { *self.producer_ns.get() = kthread::now_ns() - start };
        // Release: the consumer that reads it has seen every record published before.
        self.sent.store(seq as usize, Ordering::Release);
    }

    /// The consumer: pops `records` records and checks each.
    fn consume(&self) {
        let ring = &self.ring;
        let start = kthread::now_ns();
        let mut expected = 0u64;
        let mut spins = 0u32;
        let mut errors = 0usize;
        while expected < self.records {
            // SAFETY: `head` is a valid `u32`; the producer publishes it with release.
            let head = unsafe { smp_load_acquire(ring.head.get()) };
            // SAFETY: Only the consumer writes `tail`: its own plain read races with nothing.
            let tail = unsafe { read_once(ring.tail.get()) };
            if circ_cnt(head, tail) == 0 {
                // The producer stopped early (time budget), and every record it sent is in.
                if expected >= self.sent.load(Ordering::Acquire) as u64 {
                    break;
                }
                spins = spins.wrapping_add(1);
                if spins % 1024 == 0 && self.pause_or_abort() {
                    break;
                }
                continue;
            }
            // SAFETY: Slot `tail` is published (invariant of `Ring`): the producer is done.
            let record = unsafe { *ring.slots[tail as usize].get() };
            // SAFETY: Only the consumer writes `tail`; this frees the slot.
            unsafe { smp_store_release(ring.tail.get(), tail.wrapping_add(1) & (SLOTS - 1)) };
            let intact = record.seq == expected
                && record.checksum == checksum(record.seq, &record.payload)
                && record.payload == Record::new(expected).payload;
            if !intact {
                if errors == 0 {
                    // SAFETY: Only the consumer writes this cell, before it reports.
                    unsafe { *self.first_error.get() = Some((expected, record.seq)) };
                }
                errors += 1;
            }
            expected += 1;
            if expected % CHECK_EVERY == 0 && self.pause_or_abort() {
                break;
            }
        }
        self.received.store(expected as usize, Ordering::Relaxed);
        self.errors.store(errors, Ordering::Relaxed);
        // SAFETY: Only the consumer writes this cell, before it reports.
        unsafe { *self.consumer_ns.get() = kthread::now_ns() - start };
    }

    /// Whether the time budget is spent, for a side that started at `start_ns`.
    fn out_of_time(&self, start_ns: i64) -> bool {
        kthread::now_ns() - start_ns >= self.budget_ns
    }

    fn pause_or_abort(&self) -> bool {
        kthread::yield_cpu();
        self.aborted()
    }
}

/// Thread function of the producer (`index` 0) and the consumer (1).
///
/// # Safety
///
/// `data` is a `Side` whose `run` outlives the thread.
unsafe extern "C" fn side_main(data: *mut c_void) -> c_int {
    // SAFETY: Per this function's contract.
    let side = unsafe { &*data.cast::<Side>() };
    // SAFETY: Per this function's contract.
    let run = unsafe { &*side.run };
    if side.producer {
        run.produce();
    } else {
        run.consume();
    }
    run.finished.fetch_add(1, Ordering::Release);
    kthread::wait_for_stop();
    0
}

/// What a side's thread gets.
struct Side {
    run: *const Run,
    producer: bool,
}

/// Thread function of the controller: waits for both sides, stops them, reports.
///
/// # Safety
///
/// `data` is the module's `State`, which outlives the thread.
unsafe extern "C" fn controller_main(data: *mut c_void) -> c_int {
    // SAFETY: Per this function's contract.
    let state = unsafe { &*data.cast::<State>() };
    let run = &state.run;
    while run.finished.load(Ordering::Acquire) < 2 && !kthread::should_stop() {
        // SAFETY: Sleeping is allowed in a kthread's function.
        unsafe { kernel::bindings::msleep(10) };
    }
    let aborted = kthread::should_stop();
    run.abort.store(true, Ordering::Relaxed);
    for slot in &state.sides {
        // SAFETY: Per the invariant of `State`, the controller owns the handles while it runs.
        if let Some(side) = unsafe { (*slot.get()).take() } {
            side.stop();
        }
    }
    report(run, aborted);
    kthread::wait_for_stop();
    0
}

/// Prints the suite.
fn report(run: &Run, aborted: bool) {
    let mut suite = ktap::Suite::start(SUITE, 1);
    let received = run.received.load(Ordering::Relaxed) as u64;
    let errors = run.errors.load(Ordering::Relaxed);
    // SAFETY: Both sides have been stopped: nothing writes the result cells any more.
    let (producer_ns, consumer_ns, first_error) = unsafe {
        (
            *run.producer_ns.get(),
            *run.consumer_ns.get(),
            *run.first_error.get(),
        )
    };
    suite.diag(format_args!(
        "atomics: {}; {} records through {} slots",
        atomic::implementation(),
        math64::dec_u64(run.records),
        SLOTS
    ));
    if aborted {
        suite.diag(format_args!("aborted by module unload"));
    }
    let ms = math64::div_u64(consumer_ns.max(producer_ns).max(0) as u64, 1_000_000).max(1);
    suite.diag(format_args!(
        "received {} records, {errors} lost, duplicated, reordered or torn, \
         in {}.{:03} s: {} records/s",
        math64::dec_u64(received),
        math64::div_u64(ms, 1000) as u32,
        math64::rem_u64(ms, 1000) as u32,
        math64::dec_u64(math64::div_u64(received * 1000, ms))
    ));
    if let Some((expected, seen)) = first_error {
        suite.diag(format_args!(
            "first bad record: expected sequence {}, got {}",
            math64::dec_u64(expected),
            math64::dec_u64(seen)
        ));
    }
    let sent = run.sent.load(Ordering::Relaxed) as u64;
    if !aborted && sent < run.records {
        suite.diag(format_args!(
            "stopped by the time budget (seconds): {} of {} records sent",
            math64::dec_u64(sent),
            math64::dec_u64(run.records)
        ));
    }
    let complete = !aborted && received == sent.min(run.records);
    if cfg!(rust_atomic_mutant) && complete && errors == 0 {
        // A weakened build: no error is not a pass, it is an observation.
        suite.diag(format_args!(
            "records_intact: the weakening is not observable on this target: \
             {} records, 0 bad",
            math64::dec_u64(received)
        ));
        suite.skip(
            "records_intact",
            format_args!("weakening not observable on this target"),
        );
    } else if aborted && errors == 0 {
        suite.skip("records_intact", format_args!("aborted by module unload"));
    } else {
        suite.case("records_intact", complete && errors == 0);
    }
    suite.finish();
}

/// The module's state.
///
/// # Invariants
///
/// `sides` is filled by `init` before any thread runs; afterwards only the controller takes
/// the handles out, while it runs, and the module's `drop` after the controller has stopped.
struct State {
    run: Run,
    args: [Side; 2],
    sides: [UnsafeCell<Option<Thread>>; 2],
}

// SAFETY: `args` holds pointers into the state itself, which lives as long as they are used;
// the thread handles may be stopped from any thread.
unsafe impl Send for State {}
// SAFETY: `run` is `Sync`; `args` is only read; `sides` is accessed as the invariant says.
unsafe impl Sync for State {}

struct RustAtomicRing {
    state: KBox<State>,
    controller: Option<Thread>,
}

impl kernel::Module for RustAtomicRing {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let records = RECORDS.value_in(DEFAULT_RECORDS, 1..=MAX_RECORDS)?;
        let seconds = SECONDS.value_in(DEFAULT_SECONDS, 1..=MAX_SECONDS)?;
        ktap::check_param()?;
        if kthread::online_cpus() < 2 {
            pr_err!("needs 2 online CPUs\n");
            return Err(EINVAL);
        }
        let mut state = KBox::new(
            State {
                run: Run {
                    ring: Ring {
                        head: UnsafeCell::new(0),
                        tail: UnsafeCell::new(0),
                        slots: [const { UnsafeCell::new(Record::EMPTY) }; SLOTS as usize],
                    },
                    records: records as u64,
                    budget_ns: i64::from(seconds) * 1_000_000_000,
                    sent: AtomicUsize::new(usize::MAX),
                    received: AtomicUsize::new(0),
                    errors: AtomicUsize::new(0),
                    first_error: UnsafeCell::new(None),
                    producer_ns: UnsafeCell::new(0),
                    consumer_ns: UnsafeCell::new(0),
                    finished: AtomicUsize::new(0),
                    abort: CoreAtomicBool::new(false),
                },
                args: [
                    Side {
                        run: core::ptr::null(),
                        producer: true,
                    },
                    Side {
                        run: core::ptr::null(),
                        producer: false,
                    },
                ],
                sides: [const { UnsafeCell::new(None) }; 2],
            },
            GFP_KERNEL,
        )?;
        let run: *const Run = &state.run;
        for side in &mut state.args {
            side.run = run;
        }
        let mut this = Self {
            state,
            controller: None,
        };
        for (i, side) in this.state.args.iter().enumerate() {
            let data = core::ptr::from_ref(side).cast_mut().cast();
            // SAFETY: `side_main` waits for `should_stop`; `drop` stops it before freeing.
            let thread = unsafe { Thread::create_on_cpu(side_main, data, i as u32) }?;
            // SAFETY: No thread runs yet, so `init` is the only user of the slots.
            unsafe { *this.state.sides[i].get() = Some(thread) };
        }
        let data = core::ptr::from_ref(&*this.state).cast_mut().cast();
        let cpu = kthread::online_cpus() - 1;
        // SAFETY: `controller_main` waits for `should_stop`; `drop` stops it before freeing.
        let controller = unsafe { Thread::create_on_cpu(controller_main, data, cpu) }?;
        for slot in &this.state.sides {
            // SAFETY: No thread runs yet, so `init` is the only user of the slots.
            if let Some(side) = unsafe { &*slot.get() } {
                side.wake();
            }
        }
        controller.wake();
        this.controller = Some(controller);
        Ok(this)
    }
}

impl Drop for RustAtomicRing {
    fn drop(&mut self) {
        self.state.run.abort.store(true, Ordering::Relaxed);
        let controller_ran = match self.controller.take() {
            Some(controller) => controller.stop() != EINTR.to_errno(),
            None => true,
        };
        for slot in &self.state.sides {
            // SAFETY: The controller is stopped: by the invariant of `State` the slots are ours.
            if let Some(side) = unsafe { (*slot.get()).take() } {
                side.stop();
            }
        }
        if !controller_ran {
            report(&self.state.run, true);
        }
    }
}
