// SPDX-License-Identifier: GPL-2.0

//! A stand-in for the kernel crate on the host: `kernel::sync::atomic` is `rust/atomic.rs`,
//! compiled as Kbuild compiles it for an SMP x86 kernel (`--cfg CONFIG_X86 --cfg CONFIG_SMP`),
//! so that its doc examples run as host tests (`scripts/host-tests`), as they run as KUnit
//! tests in a kernel tree.

#[path = "../../rust/atomic.rs"]
#[doc(hidden)]
pub mod atomic;

/// Synchronisation primitives, as in the kernel crate.
pub mod sync {
    pub use super::atomic;
}
