// SPDX-License-Identifier: GPL-2.0

//! Host check of `scripts/memory-model/litmus2rust`'s output (tests/test_litmus2rust.py builds and runs
//! it): the translated tests compiled against the real library (`rust/atomic.rs`, as on an
//! SMP x86 kernel) and the runner's contract types (`tests/kernel/litmus/test.rs`, given as
//! `LITMUS_CONTRACT`), then each test's threads run one after another
//! in every order. A sequential run is a sequentially consistent execution, which the LKMM
//! always allows: a `Never` proposition must hold in none of them, an `Always` one in all. A
//! run in which a thread finds a lock taken (no other thread runs meanwhile: it would wait
//! forever) or whose final state fails the test's `filter` is one herd7 does not have either:
//! it is not counted.
//!
//! Prints one line per test: name, expected result, runs where the proposition held, runs
//! counted.

#[path = "../../rust/atomic.rs"]
#[allow(dead_code, unused_imports)]
mod atomic_lib;

/// The library, plus what the tests need that it may not have yet (an item of the library
/// of the same name replaces the glob-imported stand-in, so this keeps compiling when it
/// does).
mod atomic {
    pub use super::atomic_lib::*;

    #[allow(dead_code, non_snake_case)]
    pub fn smp_mb__after_spinlock() {
        smp_mb();
    }
}

/// The runner's contract, and a host `Instance` over plain arrays.
#[allow(dead_code)]
mod harness {
    include!(env!("LITMUS_CONTRACT"));

    /// One set of shared variables: every variable has a cell of each kind, only the one of
    /// its kind is used.
    pub(crate) struct Instance<'a> {
        pub(crate) ints: &'a [crate::atomic::AtomicI32],
        pub(crate) ptrs: &'a [crate::atomic::AtomicUsize],
        pub(crate) locks: &'a [Lock],
        pub(crate) srcus: &'a [Srcu],
        /// A thread found a lock taken.
        pub(crate) gave_up: core::cell::Cell<bool>,
    }

    impl Instance<'_> {
        /// A thread runs alone: a lock that is taken stays taken.
        pub(crate) fn wait_while(&self, held: impl Fn() -> bool) -> bool {
            if held() {
                self.gave_up.set(true);
                return false;
            }
            true
        }

        pub(crate) fn srcu(&self, v: usize) -> &Srcu {
            &self.srcus[v]
        }

        pub(crate) fn int(&self, v: usize) -> &crate::atomic::AtomicI32 {
            &self.ints[v]
        }

        pub(crate) fn ptr(&self, v: usize) -> &crate::atomic::AtomicUsize {
            &self.ptrs[v]
        }

        pub(crate) fn lock(&self, v: usize) -> &Lock {
            &self.locks[v]
        }

        pub(crate) fn addr(&self, v: usize) -> usize {
            core::ptr::from_ref(&self.ints[v]) as usize
        }

        pub(crate) fn ptr_addr(&self, v: usize) -> usize {
            core::ptr::from_ref(&self.ptrs[v]) as usize
        }

        /// NULL: the run does not count (herd7 has no execution that dereferences a
        /// number); another address that is no variable's is a bug of the translation.
        pub(crate) fn deref(&self, addr: usize) -> &crate::atomic::AtomicI32 {
            let v = (0..self.ints.len()).find(|&v| self.addr(v) == addr);
            &self.ints[v.unwrap_or_else(|| self.null(addr))]
        }

        pub(crate) fn deref_ptr(&self, addr: usize) -> &crate::atomic::AtomicUsize {
            let v = (0..self.ptrs.len()).find(|&v| self.ptr_addr(v) == addr);
            &self.ptrs[v.unwrap_or_else(|| self.null(addr))]
        }

        /// A dereference of `addr`, no variable's: NULL gives up (on a scratch cell).
        fn null(&self, addr: usize) -> usize {
            assert!(addr == 0, "dereference of a wild pointer");
            self.gave_up.set(true);
            self.ints.len() - 1
        }

        /// The variable at `addr` (of either kind of cell), if any.
        pub(crate) fn index(&self, addr: usize) -> Option<usize> {
            (0..self.ints.len()).find(|&v| self.addr(v) == addr || self.ptr_addr(v) == addr)
        }
    }

    pub(crate) fn new_lock() -> Lock {
        Lock(crate::atomic::AtomicI32::new(0))
    }

    /// SRCU, run sequentially: no reader is ever in the way of a grace period.
    pub(crate) struct Srcu;

    impl Srcu {
        pub(crate) fn read_lock(&self) -> i32 {
            0
        }

        pub(crate) fn read_unlock(&self, _idx: i32) {}

        pub(crate) fn down_read(&self) -> i32 {
            0
        }

        pub(crate) fn up_read(&self, _idx: i32) {}

        pub(crate) fn synchronize(&self) {}

        pub(crate) fn synchronize_expedited(&self) {}
    }

    pub(crate) fn rcu_read_lock() {}

    pub(crate) fn rcu_read_unlock() {}

    pub(crate) fn synchronize_rcu() {}

    pub(crate) fn synchronize_rcu_expedited() {}

    #[allow(non_snake_case)]
    pub(crate) fn smp_mb__after_unlock_lock() {}

    #[allow(non_snake_case)]
    pub(crate) fn smp_mb__after_srcu_read_unlock() {}
}

/// The translated tests: the attributes they carry must silence every warning.
#[deny(warnings)]
mod translated {
    include!(env!("LITMUS_RS"));
}

use atomic::{AtomicI32, AtomicUsize};
use harness::{Expect, Init, Instance, SlotKind, Source, Test, VarKind};

/// Runs the threads of `test` in the order `order`, on fresh variables; returns whether the
/// proposition held in the final state, `None` if the run does not count.
fn run(test: &Test, order: &[usize]) -> Option<bool> {
    // One more cell of each kind than variables: where a NULL dereference goes.
    let n = test.vars.len() + 1;
    let ints: Vec<AtomicI32> = (0..n).map(|_| AtomicI32::new(0)).collect();
    let ptrs: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
    let locks: Vec<harness::Lock> = (0..n).map(|_| harness::new_lock()).collect();
    let srcus: Vec<harness::Srcu> = (0..n).map(|_| harness::Srcu).collect();
    let m = Instance {
        ints: &ints,
        ptrs: &ptrs,
        locks: &locks,
        srcus: &srcus,
        gave_up: core::cell::Cell::new(false),
    };
    for (v, var) in test.vars.iter().enumerate() {
        match (var.kind, var.init) {
            (VarKind::Int, Init::Int(i)) => m.int(v).set(i),
            (VarKind::Ptr, Init::Int(0)) => m.ptr(v).set(0),
            (VarKind::Ptr, Init::Addr(a)) if test.vars[a].kind == VarKind::Ptr => {
                m.ptr(v).set(m.ptr_addr(a))
            }
            (VarKind::Ptr, Init::Addr(a)) => m.ptr(v).set(m.addr(a)),
            (VarKind::Lock | VarKind::Srcu, Init::Int(0)) => {}
            _ => panic!("{}: bad initial value of {}", test.name, var.name),
        }
    }
    let mut outs: Vec<Vec<i64>> = test.regs.iter().map(|&r| vec![0; r]).collect();
    for &t in order {
        (test.threads[t])(&m, &mut outs[t]);
    }
    let state: Vec<i64> = test
        .slots
        .iter()
        .map(|slot| {
            let raw = match slot.source {
                Source::Reg { thread, index } => outs[thread][index],
                Source::Var(v) if slot.kind == SlotKind::Ptr => m.ptr(v).read() as i64,
                Source::Var(v) => i64::from(m.int(v).read()),
            };
            match (slot.kind, raw) {
                (SlotKind::Int, _) => raw,
                (SlotKind::Ptr, 0) => harness::NULL,
                (SlotKind::Ptr, _) => m.index(raw as usize).map_or(harness::WILD, |v| v as i64),
            }
        })
        .collect();
    if m.gave_up.get() || test.filter.is_some_and(|f| !f(&state)) {
        return None;
    }
    Some((test.holds)(&state))
}

/// Every order of `0..n`.
fn orders(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for rest in orders(n - 1) {
        for at in 0..=rest.len() {
            let mut order = rest.clone();
            order.insert(at, n - 1);
            out.push(order);
        }
    }
    out
}

fn main() {
    for test in translated::TESTS {
        let runs: Vec<bool> = orders(test.threads.len())
            .iter()
            .filter_map(|order| run(test, order))
            .collect();
        let held = runs.iter().filter(|&&h| h).count();
        let expect = match test.expect {
            Some(Expect::Never) => "Never",
            Some(Expect::Sometimes) => "Sometimes",
            Some(Expect::Always) => "Always",
            Some(Expect::Deadlock) => "Deadlock",
            None => "-",
        };
        println!("{}\t{}\t{}\t{}", test.name, expect, held, runs.len());
    }
}
