// SPDX-License-Identifier: GPL-2.0

//! Every operation of `kernel::sync::atomic` as a small function (`codegen_ops.rs`), and the
//! types Rust and C share, for the checks that read this module's object file: the
//! codegen-parity check (`scripts/machine-code/codegen-parity`) and the layout check
//! (`scripts/machine-code/pahole-check`). The module does nothing when loaded; it is never loaded.

use kernel::prelude::*;

// `pub`, as `kernel::sync::atomic` is: the library is compiled here as it is in the kernel.
// `sample_module!`, before its use.
#[macro_use]
#[path = "../../samples/common/module.rs"]
mod module_macro;
#[path = "../../rust/atomic.rs"]
pub mod atomic;
#[path = "codegen_ops.rs"]
pub mod codegen_ops;
// Upstream's own atomics, which the kernel crate has since Linux 6.18.
#[cfg(kernel_7)]
#[path = "codegen_upstream.rs"]
pub mod codegen_upstream;

use atomic::{AtomicI32, AtomicI64, AtomicIsize};

sample_module! {
    type: RustAtomicCodegen,
    name: "rust_atomic_codegen",
    description: "Every kernel::sync::atomic operation as a function, for inspection only",
}

/// A structure of atomics shared with C: `struct rust_atomic_counters` in `layout_c.c`.
#[repr(C)]
pub struct Counters {
    /// C: `atomic_t refs`.
    pub refs: AtomicI32,
    /// C: `u8 state`.
    pub state: u8,
    /// C: `atomic64_t bytes`.
    pub bytes: AtomicI64,
    /// C: `atomic_long_t flags`.
    pub flags: AtomicIsize,
    /// C: `u16 cpu`.
    pub cpu: u16,
}

/// The Rust side of a deliberately mismatched pair (`struct rust_atomic_layout_decoy` in
/// `layout_c.c` has a 64-bit `b`): the layout check must report it.
#[repr(C)]
pub struct LayoutDecoy {
    /// C: `u32 a`.
    pub a: u32,
    /// C: `u64 b`: the mismatch.
    pub b: u32,
}

/// Keeps [`Counters`] in the debug info.
#[no_mangle]
pub static rust_atomic_counters_rs: Counters = Counters {
    refs: AtomicI32::new(0),
    state: 0,
    bytes: AtomicI64::new(0),
    flags: AtomicIsize::new(0),
    cpu: 0,
};

/// Keeps [`LayoutDecoy`] in the debug info.
#[no_mangle]
pub static rust_atomic_layout_decoy_rs: LayoutDecoy = LayoutDecoy { a: 0, b: 0 };

struct RustAtomicCodegen;

impl kernel::Module for RustAtomicCodegen {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(Self)
    }
}
