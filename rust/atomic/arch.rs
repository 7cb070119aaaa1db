// SPDX-License-Identifier: GPL-2.0

//! Architecture primitives: each supported architecture provides the same set of `unsafe`
//! functions on raw pointers (`i32_fetch_add_relaxed`, ...), and the typed API in `atomic.rs`
//! is built on them alone.
//!
//! Adding an architecture means adding one file next to `x86.rs` and `arm64.rs`.

#[cfg(CONFIG_X86)]
#[path = "arch/x86.rs"]
mod x86;
#[cfg(CONFIG_X86)]
pub(super) use x86::*;

#[cfg(CONFIG_ARM64)]
#[path = "arch/arm64.rs"]
mod arm64;
#[cfg(CONFIG_ARM64)]
pub(super) use arm64::*;

#[cfg(not(any(CONFIG_X86, CONFIG_ARM64)))]
compile_error!(
    "kernel::sync::atomic has no implementation for this architecture: \
     add rust/atomic/arch/<arch>.rs (x86 and arm64 are supported)"
);
