// SPDX-License-Identifier: GPL-2.0

//! A user type that is `AtomicAdd` but not `AtomicInteger` (`scripts/host/host-tests`): adding its
//! own deltas must compile (`--cfg add`), `inc()` must not (`--cfg inc`), since adding one to
//! its representation could make a value that is no `State`.

use kernel::sync::atomic::{Atomic, AtomicAdd, AtomicType, Relaxed};

#[derive(Clone, Copy)]
#[repr(i32)]
enum State {
    Idle = 0,
    Busy = 2,
}

// SAFETY: `State` and `i32` have the same size and alignment, and every `State` is an `i32`.
unsafe impl AtomicType for State {
    type Repr = i32;
}

// SAFETY: The delta is always zero: adding it keeps any `State` the same `State`.
unsafe impl AtomicAdd for State {
    fn rhs_into_delta(_: State) -> i32 {
        0
    }
}

fn main() {
    let s = Atomic::new(State::Idle);
    #[cfg(add)]
    s.add(State::Busy, Relaxed);
    #[cfg(inc)]
    s.inc(Relaxed);
    let _ = s.load(Relaxed);
}
