// SPDX-License-Identifier: GPL-2.0

//! Memory barriers: upstream's `kernel::sync::barrier` (Linux 6.18 and later), here the
//! barriers of `kernel::sync::atomic` (inline assembly, as C's, not calls of C helpers).
//!
//! These primitives have the same semantics as their C counterparts: and the precise definitions
//! of semantics can be found at [`LKMM`].
//!
//! [`LKMM`]: srctree/tools/memory-model/
//!
//! # Examples
//!
//! ```
//! use kernel::sync::barrier::{smp_mb, smp_rmb, smp_wmb};
//!
//! smp_wmb();
//! smp_rmb();
//! smp_mb();
//! ```

pub use super::atomic::{smp_mb, smp_rmb, smp_wmb};

/// The compiler barrier, as upstream has it here for the kernel crate's own use (C's
/// `barrier()`).
#[allow(unused_imports)]
pub(crate) use super::atomic::barrier;
