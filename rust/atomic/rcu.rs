// SPDX-License-Identifier: GPL-2.0

//! RCU-protected pointers: C's `T __rcu *` with `rcu_assign_pointer()`, `rcu_dereference()`
//! and their family (`include/linux/rcupdate.h`), on this module's marked accesses.
//!
//! An updater publishes a fully initialised object with [`RcuPointer::assign`]
//! (`rcu_assign_pointer()`): a store-release ([`smp_store_release`]), so every store that
//! initialised the object is ordered before the store of its address. A reader loads the
//! address with [`RcuPointer::dereference`] (`rcu_dereference()`): a single marked load
//! ([`read_once`], C's `READ_ONCE()`), no barrier. What orders the reader's later loads *through
//! that address* after it is the address dependency: their addresses are computed from the
//! value the load returned, and the LKMM (`tools/memory-model/Documentation/explanation.txt`,
//! "DEPENDENCY RELATIONS") and every architecture the kernel supports order such a load after
//! the load it depends on. So a reader that follows the pointer it dereferenced sees the object
//! as initialised before it was published: the `MP+onceassign+derefonce` litmus test of
//! `tools/memory-model/litmus-tests/`, and `tests/litmus/MP+rcuassigns+rcuderefs.litmus` and
//! `tests/litmus/LIST+rcuinsert+rcuread.litmus` of this repository, which the herd7 check
//! holds our compiled code to on every architecture and code path, against the LKMM and
//! against C's compiled code of the same test.
//!
//! # What a reader does not get, and what breaks the dependency
//!
//! Only accesses whose *address* comes from the dereferenced pointer are ordered; the load is
//! not an acquire. A load of another variable after [`RcuPointer::dereference`] may be
//! satisfied before it; use [`smp_load_acquire`] or a barrier where that matters.
//!
//! [`smp_load_acquire`]: super::smp_load_acquire
//!
//! The dependency exists in the compiled code only as long as the compiler cannot know the
//! pointer's value (`Documentation/RCU/rcu_dereference.rst`, whose rules apply to Rust code as
//! they do to C):
//! - Do not compare the pointer with the address of an object and then access that object
//!   through the *other* operand: once `p == &DEFAULT` holds, the compiler may use `&DEFAULT`,
//!   a constant, for `p`, and the load through it no longer depends on the dereference.
//!   Comparing with null, or with a pointer that is itself only compared, is fine.
//! - Do not compute with the pointer in ways that cancel (`p - p`, `p ^ p`, masks that clear
//!   every varying bit): the result is a constant to the compiler. Setting or clearing
//!   must-be-zero low bits, and converting to an integer and back, are fine.
//! - Do not use relational comparisons (`<`, `>`) of the pointer to choose what to access:
//!   they are branches, and a branch does not order later loads on weakly ordered CPUs.
//! - Do not read the pointer with a plain access (`*ptr.as_ptr()`), or twice: the compiler may
//!   then reload or fuse it, and a reader may see two values of one pointer.
//!
//! A dereferenced pointer is only valid inside the RCU read-side critical section that loaded
//! it (`rcu_read_lock()` to `rcu_read_unlock()`; `kernel::sync::rcu::read_lock()` on Linux 7.2),
//! and the object only until a grace period has elapsed after it was unpublished
//! (`synchronize_rcu()`, `call_rcu()`): that is the caller's to uphold, which is why
//! [`RcuPointer::dereference`] returns a raw pointer.
//!
//! Both spellings: the methods of [`RcuPointer`], and C's names as functions of the same
//! semantics ([`rcu_dereference`], [`rcu_assign_pointer`], [`rcu_access_pointer`],
//! [`rcu_dereference_protected`], [`rcu_init_pointer`] for `RCU_INIT_POINTER()`,
//! [`rcu_replace_pointer`]).
//!
//! # Examples
//!
//! ```
//! use kernel::sync::atomic::{rcu_assign_pointer, rcu_dereference, RcuPointer};
//!
//! struct Config {
//!     limit: u32,
//! }
//!
//! static DEFAULT: Config = Config { limit: 1 };
//! let mut new = Config { limit: 0 };
//! let current = RcuPointer::new((&raw const DEFAULT).cast_mut());
//!
//! // Updater: initialise, then publish.
//! new.limit = 64;
//! current.assign(&raw mut new);
//!
//! // Reader (inside an RCU read-side critical section): the load of `limit` depends on the
//! // dereference, so it sees the initialisation.
//! let config = current.dereference();
//! // SAFETY: `config` points to `new` or `DEFAULT`, both alive here.
//! assert_eq!(unsafe { (*config).limit }, 64);
//!
//! // C's spelling, on the same pointer.
//! rcu_assign_pointer(&current, (&raw const DEFAULT).cast_mut());
//! // SAFETY: As above.
//! assert_eq!(unsafe { (*rcu_dereference(&current)).limit }, 1);
//! ```

use super::once::{read_once, smp_store_release, write_once};
use core::cell::UnsafeCell;

/// A pointer that RCU protects: C's `T __rcu *`.
///
/// Every access is a single marked access of the pointer: loads are `READ_ONCE()`, stores
/// `WRITE_ONCE()` or `smp_store_release()`, so C code may access the same pointer with its own
/// `rcu_*()` at the same time (see [`RcuPointer::from_ptr`]). See the module docs for the
/// ordering a reader gets.
///
/// # Invariants
///
/// Every access to `ptr` while the pointer is shared is a marked access.
#[repr(transparent)]
pub struct RcuPointer<T> {
    ptr: UnsafeCell<*mut T>,
}

// SAFETY: By the type invariant every access to the pointer is a marked access, which may run
// on several CPUs at once; the pointee is only reached through a raw pointer, whose use is the
// caller's (as for `core::sync::atomic::AtomicPtr`).
unsafe impl<T> Send for RcuPointer<T> {}
// SAFETY: As above.
unsafe impl<T> Sync for RcuPointer<T> {}

impl<T> RcuPointer<T> {
    /// A pointer initialised to `p` (C: `RCU_POINTER_INITIALIZER()`, or a plain initialisation
    /// before the pointer is shared).
    #[inline(always)]
    pub const fn new(p: *mut T) -> Self {
        // INVARIANT: Not shared yet.
        Self {
            ptr: UnsafeCell::new(p),
        }
    }

    /// A null pointer.
    #[inline(always)]
    pub const fn null() -> Self {
        Self::new(core::ptr::null_mut())
    }

    /// Views C's `T __rcu *` at `ptr` as an [`RcuPointer`], for code that shares a pointer with
    /// C.
    ///
    /// # Safety
    ///
    /// `ptr` must be valid for reads and writes and aligned for all of `'a`, and every access
    /// to `*ptr` that may run concurrently must be a marked access (C's `rcu_*()`,
    /// `RCU_INIT_POINTER()`, `READ_ONCE()`/`WRITE_ONCE()`, or this type's methods).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::sync::atomic::RcuPointer;
    ///
    /// let mut value = 7;
    /// let mut c_field: *mut i32 = core::ptr::null_mut(); // A `int __rcu *` of a C structure.
    /// // SAFETY: `c_field` is valid, aligned, and only accessed through the view here.
    /// let p = unsafe { RcuPointer::from_ptr(&raw mut c_field) };
    /// p.assign(&raw mut value);
    /// assert_eq!(p.dereference(), &raw mut value);
    /// ```
    #[inline(always)]
    pub unsafe fn from_ptr<'a>(ptr: *mut *mut T) -> &'a Self {
        // SAFETY: `RcuPointer<T>` is a transparent `UnsafeCell<*mut T>`, which has the layout
        // of `*mut T`; the caller guarantees validity and alignment for `'a`, and (INVARIANT)
        // that every concurrent access is marked.
        unsafe { &*ptr.cast::<Self>() }
    }

    /// The address of the pointer, for C (`&gp` of a `T __rcu *gp`).
    #[inline(always)]
    pub const fn as_ptr(&self) -> *mut *mut T {
        self.ptr.get()
    }

    /// Loads the pointer for dereferencing: C's `rcu_dereference()`, a single marked load
    /// (`READ_ONCE()`) that orders the loads whose addresses depend on its value after it (see
    /// the module docs, with what breaks that).
    ///
    /// The result is valid only inside the RCU read-side critical section of the caller.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::sync::atomic::RcuPointer;
    ///
    /// let gp = RcuPointer::<u64>::null();
    /// assert!(gp.dereference().is_null());
    /// ```
    #[inline(always)]
    pub fn dereference(&self) -> *mut T {
        // Mutant `rcu_dereference_plain` (tests/mutants-kcsan): the pointer read with a plain
        // load, which KCSAN sees as one, and which races with C's `rcu_assign_pointer()`.
        #[cfg(rust_atomic_mutant = "rcu_dereference_plain")]
        super::instrument::kcsan_plain_read(self.ptr.get());
        #[cfg(rust_atomic_mutant = "rcu_dereference_plain")]
        // SAFETY: `self.ptr` is valid and aligned (the race is the mutant's point).
        return unsafe { self.ptr.get().read() };
        #[cfg(not(rust_atomic_mutant = "rcu_dereference_plain"))]
        // SAFETY: `self.ptr` is valid and aligned; by the type invariant every concurrent access
        // is marked.
        unsafe {
            read_once(self.ptr.get())
        }
    }

    /// Loads the pointer only to test or compare it, never to dereference it: C's
    /// `rcu_access_pointer()`, the same single marked load as [`Self::dereference`], which
    /// may run outside a read-side critical section.
    #[inline(always)]
    pub fn access(&self) -> *mut T {
        // SAFETY: As for `dereference`.
        unsafe { read_once(self.ptr.get()) }
    }

    /// Loads the pointer on the update side, where the caller's lock keeps it from changing:
    /// C's `rcu_dereference_protected()`, a plain load (`include/linux/rcupdate.h`,
    /// `__rcu_dereference_protected()`): here a volatile one, the same instruction, never
    /// `READ_ONCE()`'s ordered load (arm64 with LTO), as no writer can run meanwhile.
    #[inline(always)]
    pub fn dereference_protected(&self) -> *mut T {
        // SAFETY: `self.ptr` is valid and aligned; the caller's lock excludes every writer, and
        // readers only read.
        unsafe { self.ptr.get().read_volatile() }
    }

    /// Publishes `p`: C's `rcu_assign_pointer()`, a store-release ([`smp_store_release`]), so
    /// that the stores that initialised `*p` are ordered before it. (C stores a constant NULL
    /// with `WRITE_ONCE()`: that is [`Self::init`].)
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::sync::atomic::RcuPointer;
    ///
    /// let mut node = [0u8; 4];
    /// let head = RcuPointer::null();
    /// node[0] = 1;
    /// head.assign(&raw mut node);
    /// assert_eq!(head.access(), &raw mut node);
    /// ```
    // `p` is the value stored, never dereferenced here (clippy takes it for an address).
    #[allow(clippy::not_unsafe_ptr_arg_deref)]
    #[inline(always)]
    pub fn assign(&self, p: *mut T) {
        // SAFETY: As for `dereference`.
        unsafe { smp_store_release(self.ptr.get(), p) }
    }

    /// Stores `p` with no ordering: C's `RCU_INIT_POINTER()`, for NULL, for a pointer no reader
    /// can reach yet, or for an object whose initialisation readers cannot see through it
    /// (`include/linux/rcupdate.h` lists the cases).
    // As for `assign`: `p` is the value stored.
    #[allow(clippy::not_unsafe_ptr_arg_deref)]
    #[inline(always)]
    pub fn init(&self, p: *mut T) {
        // SAFETY: As for `dereference`.
        unsafe { write_once(self.ptr.get(), p) }
    }

    /// Publishes `p` and returns the pointer it replaces: C's `rcu_replace_pointer()`, an
    /// update-side load ([`Self::dereference_protected`]) and then [`Self::assign`], not one
    /// atomic exchange: the caller serialises the updaters (C's lockdep condition).
    #[inline(always)]
    pub fn replace(&self, p: *mut T) -> *mut T {
        let old = self.dereference_protected();
        self.assign(p);
        old
    }
}

/// C's `rcu_dereference()`: [`RcuPointer::dereference`].
#[inline(always)]
pub fn rcu_dereference<T>(p: &RcuPointer<T>) -> *mut T {
    p.dereference()
}

/// C's `rcu_access_pointer()`: [`RcuPointer::access`].
#[inline(always)]
pub fn rcu_access_pointer<T>(p: &RcuPointer<T>) -> *mut T {
    p.access()
}

/// C's `rcu_dereference_protected()` (its lockdep condition is the caller's):
/// [`RcuPointer::dereference_protected`].
#[inline(always)]
pub fn rcu_dereference_protected<T>(p: &RcuPointer<T>) -> *mut T {
    p.dereference_protected()
}

/// C's `rcu_assign_pointer()`: [`RcuPointer::assign`].
///
/// # Examples
///
/// ```
/// use kernel::sync::atomic::{rcu_assign_pointer, rcu_dereference, RcuPointer};
///
/// let mut a = 1;
/// let gp = RcuPointer::null();
/// rcu_assign_pointer(&gp, &raw mut a);
/// assert_eq!(rcu_dereference(&gp), &raw mut a);
/// ```
#[inline(always)]
pub fn rcu_assign_pointer<T>(p: &RcuPointer<T>, v: *mut T) {
    p.assign(v)
}

/// C's `RCU_INIT_POINTER()`: [`RcuPointer::init`].
#[inline(always)]
pub fn rcu_init_pointer<T>(p: &RcuPointer<T>, v: *mut T) {
    p.init(v)
}

/// C's `rcu_replace_pointer()` (its lockdep condition is the caller's):
/// [`RcuPointer::replace`].
#[inline(always)]
pub fn rcu_replace_pointer<T>(p: &RcuPointer<T>, v: *mut T) -> *mut T {
    p.replace(v)
}
