// SPDX-License-Identifier: GPL-2.0

//! Host tests of the x86 architecture layer: `rust/atomic.rs` compiled for user space on the
//! build machine (`--cfg CONFIG_X86 --cfg CONFIG_SMP`, as Kbuild passes them), where threads
//! run on real cores. `scripts/host/host-tests` also builds this file against mutants of the library
//! (`--cfg rust_atomic_mutant="NAME"`) and expects the named test to fail.

#[path = "../../rust/atomic.rs"]
#[allow(dead_code)]
mod atomic;

use atomic::AtomicI32;
use std::sync::Barrier;
use std::thread;

const THREADS: usize = 4;
const ITERATIONS: i32 = 1_000_000;
/// Rounds of each concurrency test. A round whose threads happen to run one after another
/// (a loaded host) cannot lose an update, so one round alone would let a broken primitive
/// pass now and then; every round must be exact.
const ROUNDS: usize = 8;

#[test]
fn seed_doc_examples() {
    let a = AtomicI32::new(0);
    assert_eq!(a.fetch_add_relaxed(1), 0);
    assert_eq!(a.fetch_add_relaxed(2), 1);

    let s = AtomicI32::new(1);
    assert_eq!(s.fetch_sub_release(1), 1);
    assert_eq!(s.fetch_sub_release(2), 0);
    assert_eq!(s.fetch_sub_release(3), -2);
    assert_eq!(s.fetch_sub_release(i32::MIN), -5);
    assert_eq!(s.fetch_add_relaxed(0), (-5i32).wrapping_sub(i32::MIN));
}

#[test]
fn wrapping_at_the_edges() {
    for (start, i) in [
        (i32::MAX, 1),
        (i32::MIN, -1),
        (i32::MIN, i32::MIN),
        (0, i32::MIN),
        (-1, i32::MAX),
    ] {
        let a = AtomicI32::new(start);
        assert_eq!(a.fetch_add_relaxed(i), start);
        assert_eq!(a.fetch_add_relaxed(0), start.wrapping_add(i));
        let s = AtomicI32::new(start);
        assert_eq!(s.fetch_sub_release(i), start);
        assert_eq!(s.fetch_add_relaxed(0), start.wrapping_sub(i));
    }
}

/// Runs `op` `ITERATIONS` times on each of `THREADS` threads that start together.
fn hammer(counter: &AtomicI32, op: fn(&AtomicI32) -> i32) -> Vec<Vec<i32>> {
    let barrier = Barrier::new(THREADS);
    thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    barrier.wait();
                    (0..ITERATIONS).map(|_| op(counter)).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

#[test]
fn fetch_add_relaxed_no_lost_update() {
    let total = THREADS as i32 * ITERATIONS;
    for round in 0..ROUNDS {
        let counter = AtomicI32::new(0);
        let olds = hammer(&counter, |c| c.fetch_add_relaxed(1));
        assert_eq!(counter.fetch_add_relaxed(0), total, "round {round}");
        // Every old value 0..total was returned exactly once.
        let mut all: Vec<i32> = olds.concat();
        all.sort_unstable();
        assert!(all.iter().copied().eq(0..total), "round {round}");
    }
}

#[test]
fn fetch_sub_release_no_lost_update() {
    let total = THREADS as i32 * ITERATIONS;
    for round in 0..ROUNDS {
        let counter = AtomicI32::new(0);
        let olds = hammer(&counter, |c| c.fetch_sub_release(1));
        assert_eq!(counter.fetch_add_relaxed(0), -total, "round {round}");
        let mut all: Vec<i32> = olds.concat();
        all.sort_unstable();
        assert!(all.iter().copied().eq((-total + 1)..=0), "round {round}");
    }
}

/// A test-and-set lock on `AtomicBool::xchg_acquire`/`set_release` must exclude: the plain
/// counter it protects loses no increment.
#[test]
fn atomic_bool_xchg_lock_excludes() {
    struct Counter(core::cell::UnsafeCell<u64>);
    // SAFETY: Only accessed under the lock below.
    unsafe impl Sync for Counter {}
    let (lock, counter) = (
        atomic::AtomicBool::new(false),
        Counter(core::cell::UnsafeCell::new(0)),
    );
    let barrier = Barrier::new(THREADS);
    thread::scope(|s| {
        for _ in 0..THREADS {
            let (lock, counter, barrier) = (&lock, &counter, &barrier);
            s.spawn(move || {
                barrier.wait();
                // As many rounds as the counters get: on a loaded 2-core host the threads
                // overlap rarely, and a lock that fails to exclude must still be caught.
                for _ in 0..ITERATIONS {
                    // A broken exchange can lose a release and leave the lock taken by nobody.
                    let since = std::time::Instant::now();
                    while lock.xchg_acquire(true) {
                        assert!(since.elapsed().as_secs() < 5, "lock not released in 5 s");
                        core::hint::spin_loop();
                    }
                    // A critical section with a window between its load and its store, so that
                    // two threads inside it at once lose an increment even when they overlap
                    // by a little (a single `add` to memory rarely shows it on a loaded host).
                    // SAFETY: The lock is held.
                    let v = unsafe { counter.0.get().read_volatile() };
                    core::hint::spin_loop();
                    core::hint::spin_loop();
                    // SAFETY: As above.
                    unsafe { counter.0.get().write_volatile(v + 1) };
                    lock.set_release(false);
                }
            });
        }
    });
    assert_eq!(counter.0.into_inner(), THREADS as u64 * ITERATIONS as u64);
    let mut old = true;
    assert!(!lock.try_cmpxchg(&mut old, true));
    assert!(!old);
}
