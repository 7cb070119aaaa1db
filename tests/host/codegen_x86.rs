// SPDX-License-Identifier: GPL-2.0

//! Every operation of the library, instantiated once (the differential test's table of Rust
//! operations), compiled for x86 as an object file: `scripts/host/host-tests` disassembles it to
//! check that no operation calls a function, and that every `lock` prefix is recorded in
//! `.smp_locks` (with `CONFIG_SMP`) or absent (without).

#[path = "../../rust/atomic.rs"]
pub mod atomic;

#[path = "../kernel/common/differential_ops.rs"]
pub mod differential_ops;

/// Keeps the table, and so every operation, in the object file.
#[used]
static RUST_OPS_FOR_CODEGEN: &[differential_ops::RustOp] = &differential_ops::RUST_OPS;
