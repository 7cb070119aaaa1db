// SPDX-License-Identifier: GPL-2.0

//! A stand-in for the kernel crate on the host: `kernel::sync::atomic` is `rust/atomic.rs`,
//! compiled as Kbuild compiles it for an SMP x86 kernel (`--cfg CONFIG_X86 --cfg CONFIG_SMP`),
//! so that its doc examples run as host tests (`scripts/host/host-tests`), as they run as KUnit
//! tests in a kernel tree.

#[path = "../../rust/atomic.rs"]
#[doc(hidden)]
pub mod atomic;

#[path = "../../rust/barrier.rs"]
#[doc(hidden)]
pub mod barrier;

/// Synchronisation primitives, as in the kernel crate.
pub mod sync {
    pub use super::atomic;
    pub use super::barrier;
}

/// The one kernel type the doc examples use, as the kernel crate has it (`rust/kernel/types.rs`):
/// a value that C code may access, which Rust accesses only through pointers.
pub mod types {
    use core::cell::UnsafeCell;
    use core::mem::MaybeUninit;

    /// `kernel::types::Opaque`, reduced to what the examples need.
    #[repr(transparent)]
    pub struct Opaque<T> {
        value: UnsafeCell<MaybeUninit<T>>,
    }

    impl<T> Opaque<T> {
        /// Creates a new opaque value.
        pub const fn new(value: T) -> Self {
            Self {
                value: UnsafeCell::new(MaybeUninit::new(value)),
            }
        }

        /// Returns a raw pointer to the opaque data.
        pub const fn get(&self) -> *mut T {
            UnsafeCell::get(&self.value).cast::<T>()
        }
    }
}
