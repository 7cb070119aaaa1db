// SPDX-License-Identifier: GPL-2.0

//! Differential test of `kernel::sync::atomic` against the kernel's own C atomics.
//!
//! Every operation of every read-modify-write type, in every ordering, runs on the same inputs
//! as the C operation of the same name (`atomic_*()`, `atomic64_*()`, `atomic_long_*()`; the
//! unsigned views run against the C operation on the same bits): edge values (0, +-1, MIN,
//! MAX, ...) and pseudo-random ones, for the value and every argument. The return value, the
//! final memory and `try_cmpxchg`'s updated old value must be identical. One KTAP case per
//! operation family (a line of `scripts/atomic/atomics.tbl`).
//!
//! The C side is the module `rust_atomic_c_ops`, whose table is generated from the same table:
//! load it first.

use kernel::ffi::{c_char, c_void};
use kernel::prelude::*;

// `pub`, as `kernel::sync::atomic` is: the library is compiled here as it is in the kernel.
// `sample_module!`, before its use.
#[macro_use]
#[path = "../../samples/common/module.rs"]
mod module_macro;
#[path = "../../rust/atomic.rs"]
pub mod atomic;
#[path = "common/differential_ops.rs"]
mod differential_ops;
#[path = "../../samples/common/ktap.rs"]
mod ktap;
#[path = "../../samples/common/math64.rs"]
mod math64;
#[path = "../../samples/common/param.rs"]
mod param;

use differential_ops::{RustOp, RUST_OPS};

sample_module! {
    type: RustAtomicDifferential,
    name: "rust_atomic_differential",
    description: "Differential test of kernel::sync::atomic against the C atomic operations",
}

/// The KTAP suite name: the crate's, which is also the module's (a mutant's is its own).
const SUITE: &str = module_path!();

/// One row of the C table (`struct rust_atomic_c_op` in `rust_atomic_c_ops_table.c`).
#[repr(C)]
struct COp {
    name: *const c_char,
    family: *const c_char,
    bits: u32,
    f: unsafe extern "C" fn(*mut c_void, i64, i64, *mut i64) -> i64,
}

extern "C" {
    /// Exported by `rust_atomic_c_ops`: `rust_atomic_c_ops_count` rows.
    static rust_atomic_c_ops: [COp; 0];
    static rust_atomic_c_ops_count: u32;
}

/// The C table.
fn c_ops() -> &'static [COp] {
    // The C module, on which this module depends for the symbols, outlives it.
    // SAFETY: The C module exports an array of `rust_atomic_c_ops_count` rows.
    unsafe {
        core::slice::from_raw_parts(
            (&raw const rust_atomic_c_ops).cast::<COp>(),
            rust_atomic_c_ops_count as usize,
        )
    }
}

/// A C string of the table as a `&str` (the table's strings are ASCII literals).
fn c_str(p: *const c_char) -> &'static str {
    // SAFETY: The table's strings are NUL-terminated literals of the C module.
    let s = unsafe { kernel::str::CStr::from_char_ptr(p) };
    s.to_str().unwrap_or("?")
}

/// The inputs for variables of `bits` bits: edge values, then pseudo-random ones, each
/// sign-extended from `bits` (as C's `int` or `s64` holds it).
fn inputs(bits: u32) -> KVec<i64> {
    const EDGES: [i64; 14] = [
        0,
        1,
        -1,
        2,
        -2,
        42,
        i64::MIN,
        i64::MAX,
        i64::MIN + 1,
        i64::MAX - 1,
        i32::MIN as i64,
        i32::MAX as i64,
        0x5555_5555_5555_5555,
        0x0000_ffff_ffff_0000,
    ];
    let mut out = KVec::new();
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    for k in 0..EDGES.len() + 6 {
        let v = EDGES.get(k).copied().unwrap_or_else(|| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as i64
        });
        let v = if bits == 32 { i64::from(v as i32) } else { v };
        if !out.contains(&v) && out.push(v, GFP_KERNEL).is_err() {
            break;
        }
    }
    out
}

/// A variable of 32 or 64 bits, 8-byte aligned so that either width is aligned.
#[repr(C, align(8))]
struct Cell(u64);

impl Cell {
    fn new(bits: u32, v: i64) -> Self {
        let mut cell = Cell(0);
        // SAFETY: The cell is 8 bytes, aligned to 8, so valid for an `i32` or an `i64`.
        unsafe {
            if bits == 32 {
                (&raw mut cell.0).cast::<i32>().write(v as i32);
            } else {
                (&raw mut cell.0).cast::<i64>().write(v);
            }
        }
        cell
    }

    fn value(&self, bits: u32) -> i64 {
        // SAFETY: As in `new`.
        unsafe {
            if bits == 32 {
                i64::from((&raw const self.0).cast::<i32>().read())
            } else {
                (&raw const self.0).cast::<i64>().read()
            }
        }
    }
}

/// The outcome of one operation on one input: (result, final value, `aux`).
type Outcome = (i64, i64, i64);

fn run_c(op: &COp, init: i64, a: i64, b: i64) -> Outcome {
    let mut cell = Cell::new(op.bits, init);
    let mut aux = a;
    // SAFETY: `cell` is a valid, aligned variable of `op.bits` bits, as the C function takes.
    let ret = unsafe { (op.f)((&raw mut cell.0).cast(), a, b, &mut aux) };
    (ret, cell.value(op.bits), aux)
}

fn run_rust(op: &RustOp, init: i64, a: i64, b: i64) -> Outcome {
    let mut cell = Cell::new(op.bits, init);
    let mut aux = a;
    let ret = (op.run)(&raw mut cell.0, a, b, &mut aux);
    (ret, cell.value(op.bits), aux)
}

/// Tally of one family.
#[derive(Default)]
struct Tally {
    ops: usize,
    vectors: usize,
    mismatches: usize,
}

/// Runs one Rust operation and its C twin on every input; returns the vectors run and the
/// mismatches, and reports the first mismatch.
fn compare(suite: &ktap::Suite, rust: &RustOp, c: &COp, tally: &mut Tally) {
    let values = inputs(rust.bits);
    // Arguments the operation does not take are passed as 0, once.
    let as_: &[i64] = if rust.args >= 1 { &values } else { &[0] };
    let bs: &[i64] = if rust.args >= 2 { &values } else { &[0] };
    let mut reported = false;
    for &init in values.iter() {
        for &a in as_ {
            for &b in bs {
                let (c_out, rust_out) = (run_c(c, init, a, b), run_rust(rust, init, a, b));
                tally.vectors += 1;
                if c_out != rust_out {
                    tally.mismatches += 1;
                    if !reported {
                        reported = true;
                        let d = math64::dec_i64;
                        suite.diag(format_args!(
                            "{}: value {} args ({}, {}): (ret, final, old) C ({}, {}, {}) \
                             Rust ({}, {}, {})",
                            rust.c_name,
                            d(init),
                            d(a),
                            d(b),
                            d(c_out.0),
                            d(c_out.1),
                            d(c_out.2),
                            d(rust_out.0),
                            d(rust_out.1),
                            d(rust_out.2)
                        ));
                    }
                }
            }
        }
    }
}

/// The C operation a Rust one must match: same name, width and table line.
fn twin<'a>(c_table: &'a [COp], op: &RustOp) -> Option<&'a COp> {
    c_table
        .iter()
        .find(|c| c_str(c.name) == op.c_name && c.bits == op.bits && c_str(c.family) == op.family)
}

fn run_suite() {
    let c_table = c_ops();

    // Families in table order.
    let mut families: KVec<&str> = KVec::new();
    for op in RUST_OPS.iter() {
        if !families.contains(&op.family) && families.push(op.family, GFP_KERNEL).is_err() {
            return;
        }
    }
    let mut suite = ktap::Suite::start(SUITE, families.len() + 1);
    suite.diag(format_args!("atomics: {}", atomic::implementation()));

    let mut missing = 0;
    for op in RUST_OPS.iter() {
        if twin(c_table, op).is_none() {
            missing += 1;
            suite.diag(format_args!(
                "no C operation {} of {} bits in family {}",
                op.c_name, op.bits, op.family
            ));
        }
    }
    suite.case(
        "every_rust_op_has_its_c_op",
        missing == 0 && !RUST_OPS.is_empty(),
    );

    let (mut total_ops, mut total_vectors) = (0, 0);
    for family in families.iter() {
        let mut tally = Tally::default();
        for op in RUST_OPS.iter().filter(|op| op.family == *family) {
            if let Some(c) = twin(c_table, op) {
                tally.ops += 1;
                compare(&suite, op, c, &mut tally);
            }
        }
        suite.diag(format_args!(
            "{family}: {} operations, {} vectors, {} mismatches",
            tally.ops, tally.vectors, tally.mismatches
        ));
        total_ops += tally.ops;
        total_vectors += tally.vectors;
        suite.case(family, tally.ops > 0 && tally.mismatches == 0);
    }
    suite.diag(format_args!(
        "total: {total_ops} operations ({} C), {total_vectors} vectors",
        c_table.len()
    ));
    suite.finish();
}

/// The module: the test runs in `init` (it is single-threaded and short).
struct RustAtomicDifferential;

impl kernel::Module for RustAtomicDifferential {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        ktap::check_param()?;
        run_suite();
        Ok(Self)
    }
}
