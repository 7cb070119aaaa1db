// SPDX-License-Identifier: GPL-2.0

//! The report of one litmus test, as KTAP diagnostics: the histogram and `Observation` line in
//! herd7/klitmus7's format (so that `tools/memory-model/scripts/judgelitmus.sh` can judge a
//! log that `scripts/memory-model/litmus-judge` cut out), the verdict, and the rate.

use crate::harness::{Expect, Quantifier, SlotKind, Test, NULL, WILD};
use crate::ktap::Suite;
use crate::math64;
use crate::runner::{Cut, Histogram};
use core::fmt;

/// One final state, as herd7 prints it: `0:r0=1; x=2;`.
struct StateText<'a> {
    test: &'a Test,
    state: &'a [i64],
}

impl fmt::Display for StateText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, (slot, &value)) in self.test.slots.iter().zip(self.state).enumerate() {
            if k > 0 {
                f.write_str(" ")?;
            }
            match slot.kind {
                SlotKind::Int => write!(f, "{}={};", slot.name, math64::dec_i64(value))?,
                SlotKind::Ptr if value == NULL => write!(f, "{}=NULL;", slot.name)?,
                SlotKind::Ptr if value == WILD => write!(f, "{}=?;", slot.name)?,
                SlotKind::Ptr => {
                    write!(f, "{}={};", slot.name, self.test.vars[value as usize].name)?
                }
            }
        }
        Ok(())
    }
}

/// herd7's word for how often the proposition held.
fn observation(positive: u64, negative: u64) -> &'static str {
    match (positive, negative) {
        (0, _) => "Never",
        (_, 0) => "Always",
        _ => "Sometimes",
    }
}

/// Whether the outcome agrees with the test's `Result:` (or, without one, its quantifier).
fn verdict(test: &Test, positive: u64, negative: u64) -> bool {
    match test.expect {
        Some(Expect::Never) => positive == 0,
        Some(Expect::Always) => negative == 0,
        Some(Expect::Sometimes) => true,
        Some(Expect::Deadlock) => positive + negative == 0,
        None => match test.quantifier {
            Quantifier::Exists => true,
            Quantifier::NotExists => positive == 0,
            Quantifier::Forall => negative == 0,
        },
    }
}

/// Whether some outcome would fail the test (it is not `Sometimes` or a bare `exists`).
pub(crate) fn strict(test: &Test) -> bool {
    match test.expect {
        Some(Expect::Sometimes) => false,
        Some(_) => true,
        None => test.quantifier != Quantifier::Exists,
    }
}

/// What the runs of one test came to: one run's, or the sum of the slices of a test run
/// interleaved with its control.
pub(crate) struct Outcome<'a> {
    pub(crate) test: &'static Test,
    pub(crate) histogram: &'a Histogram,
    pub(crate) elapsed_ns: i64,
    /// Why the (last) run stopped before its iterations were done, if it did.
    pub(crate) cut: Option<Cut>,
    /// The iterations asked for.
    pub(crate) iterations: u64,
    /// A thread dereferenced a wild pointer.
    pub(crate) wild: bool,
}

/// Prints the report of `outcome`; returns the verdict.
pub(crate) fn test(suite: &Suite, outcome: &Outcome<'_>) -> bool {
    let (test, h, elapsed_ns) = (outcome.test, outcome.histogram, outcome.elapsed_ns);
    let expect = match test.expect {
        Some(Expect::Never) => "Never",
        Some(Expect::Sometimes) => "Sometimes",
        Some(Expect::Always) => "Always",
        Some(Expect::Deadlock) => "DEADLOCK",
        None => "none",
    };
    suite.diag(format_args!("Test {} Result: {expect}", test.name));
    suite.diag(format_args!("Histogram ({} states)", h.entries().count()));
    for (state, count) in h.entries() {
        let state = &state[..test.slots.len()];
        let mark = if (test.holds)(state) { '*' } else { ':' };
        suite.diag(format_args!(
            "{:<8}{mark}>{}",
            math64::dec_u64(count),
            StateText { test, state }
        ));
    }
    if h.other > 0 {
        suite.diag(format_args!(
            "{:<8} more states not recorded",
            math64::dec_u64(h.other)
        ));
    }
    suite.diag(format_args!("Condition {}", test.clause));
    suite.diag(format_args!(
        "Observation {} {} {} {}",
        test.name,
        observation(h.positive, h.negative),
        math64::dec_u64(h.positive),
        math64::dec_u64(h.negative)
    ));
    if h.discarded > 0 {
        suite.diag(format_args!(
            "{}: {} executions not counted (as herd7 has none such: its filter failed, or a \
             thread would have waited forever for a lock)",
            test.name,
            math64::dec_u64(h.discarded)
        ));
    }
    let run = h.positive + h.negative;
    let iterations = math64::dec_u64(run);
    let ms = math64::div_u64(elapsed_ns.max(0) as u64, 1_000_000).max(1);
    suite.diag(format_args!(
        "Time {} {}.{:03} s, {} iterations/s",
        test.name,
        math64::div_u64(ms, 1000) as u32,
        math64::rem_u64(ms, 1000) as u32,
        math64::dec_u64(math64::div_u64(run * 1000, ms))
    ));
    match outcome.cut {
        Some(Cut::Seen) => suite.diag(format_args!(
            "{}: stopped once the clause held (until_seen), after {iterations} of {} iterations",
            test.name,
            math64::dec_u64(outcome.iterations)
        )),
        Some(Cut::Time) => suite.diag(format_args!(
            "{}: stopped by the time budget (seconds), after {iterations} of {} iterations",
            test.name,
            math64::dec_u64(outcome.iterations)
        )),
        Some(Cut::Partner) => suite.diag(format_args!(
            "{}: stopped with the test it ran interleaved with, after {iterations} of {} \
             iterations",
            test.name,
            math64::dec_u64(outcome.iterations)
        )),
        None => (),
    }
    let mut ok = verdict(test, h.positive, h.negative);
    if outcome.wild {
        suite.diag(format_args!(
            "{}: a thread dereferenced a wild pointer",
            test.name
        ));
        ok = false;
    }
    let first = math64::dec_u64(h.first_positive.unwrap_or(0) + 1);
    let weak_allowed = !strict(test);
    if weak_allowed && h.positive > 0 {
        suite.diag(format_args!(
            "{}: weak outcome seen {} times in {iterations} iterations, first at iteration {first}",
            test.name,
            math64::dec_u64(h.positive)
        ));
    } else if weak_allowed {
        suite.diag(format_args!(
            "{}: weak outcome not seen in {iterations} iterations",
            test.name
        ));
    } else if !ok {
        suite.diag(format_args!(
            "{}: verdict {expect} violated: Observation {} {} {}, first at iteration {first}",
            test.name,
            observation(h.positive, h.negative),
            math64::dec_u64(h.positive),
            math64::dec_u64(h.negative)
        ));
    }
    ok
}
