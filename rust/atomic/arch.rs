// SPDX-License-Identifier: GPL-2.0

//! Architecture primitives: each supported architecture provides, in one file, the marker
//! types `I8`, `I16` (loads and stores), `I32` and `I64` (also read-modify-write operations)
//! implementing the traits of `primitive.rs`, and the barriers `barrier`, `smp_mb`, `smp_rmb`,
//! `smp_wmb`, `smp_mb__before_atomic` and `smp_mb__after_atomic`. The typed API is built on
//! these alone.
//!
//! Adding an architecture means adding one file next to `x86.rs` and `arm64.rs`.

#[cfg(CONFIG_X86)]
#[path = "arch/x86.rs"]
mod x86;
#[cfg(CONFIG_X86)]
pub(crate) use x86::*;

#[cfg(CONFIG_ARM64)]
#[path = "arch/arm64.rs"]
mod arm64;
#[cfg(CONFIG_ARM64)]
pub(crate) use arm64::*;

#[cfg(not(any(CONFIG_X86, CONFIG_ARM64)))]
compile_error!(
    "kernel::sync::atomic has no implementation for this architecture: \
     add rust/atomic/arch/<arch>.rs (x86 and arm64 are supported)"
);
