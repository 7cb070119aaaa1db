// SPDX-License-Identifier: GPL-2.0

//! Architecture primitives: each supported architecture provides, in one file, the marker
//! types `I8`, `I16`, `I32` and `I64` implementing the traits of `primitive.rs` (loads and
//! stores and exchange for all; read-modify-write operations for `I32` and `I64`), and the
//! barriers `barrier`, `smp_mb`, `smp_rmb`, `smp_wmb`, `smp_mb__before_atomic`,
//! `smp_mb__after_atomic` and `smp_mb__after_spinlock`. The typed API is built on these alone.
//!
//! Adding an architecture means adding one file next to `x86.rs` and `arm64.rs`.

#[cfg(CONFIG_X86_64)]
#[path = "arch/x86.rs"]
mod x86;
#[cfg(CONFIG_X86_64)]
pub(crate) use x86::*;

#[cfg(CONFIG_ARM64)]
#[path = "arch/arm64.rs"]
mod arm64;
#[cfg(CONFIG_ARM64)]
pub(crate) use arm64::*;

#[cfg(all(CONFIG_X86, not(CONFIG_X86_64)))]
compile_error!(
    "kernel::sync::atomic supports 64-bit x86 only (arch/x86.rs uses 64-bit registers and \
     instructions): 32-bit x86 needs its own rust/atomic/arch/ file"
);

#[cfg(not(any(CONFIG_X86, CONFIG_ARM64)))]
compile_error!(
    "kernel::sync::atomic has no implementation for this architecture: \
     add rust/atomic/arch/<arch>.rs (x86_64 and arm64 are supported)"
);
