// SPDX-License-Identifier: GPL-2.0

//! Deliberately broken primitives, for mutation tests only.
//!
//! A build with `--cfg rust_atomic_mutant --cfg rust_atomic_mutant="NAME"` runs the typed API
//! on [`Mutant`], which forwards every primitive to the architecture's except the one that
//! mutant `NAME` breaks. A test suite that is worth its name must then fail; `Kbuild.include`
//! builds these variants, `tests/mutants` says which test must catch each, and the test
//! command checks that it does. Nothing here is built into a normal kernel. The mutants of the
//! sanitizer hooks (`uninstrumented`, `kcsan_plain`: `tests/mutants-kasan`,
//! `tests/mutants-kcsan`) are in `instrument.rs`, next to what they break.

use super::primitive::{Exchange, LoadStore, Order, Primitive, Rmw};
use core::marker::PhantomData;

/// The primitives of `A`, with one broken by the mutant this build selects.
pub struct Mutant<A>(PhantomData<A>);

// SAFETY: Test-only: this implementation breaks the contract on purpose, in the ways the
// mutants below describe, and is only built for mutation tests.
unsafe impl<A: LoadStore> LoadStore for Mutant<A> {
    type V = A::V;

    #[inline(always)]
    unsafe fn read(p: *const Self::V) -> Self::V {
        // Mutant `read_volatile`: `READ_ONCE()` a volatile load where the architecture's is
        // more (arm64 with LTO: C's `ldar`/`ldapr`).
        #[cfg(rust_atomic_mutant = "read_volatile")]
        // SAFETY: The caller guarantees that `p` is valid and aligned.
        return unsafe { p.read_volatile() };
        #[cfg(not(rust_atomic_mutant = "read_volatile"))]
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe {
            A::read(p)
        }
    }

    #[inline(always)]
    unsafe fn read_acquire(p: *const Self::V) -> Self::V {
        // Mutant `acquire_plain`: a load-acquire is a plain `READ_ONCE()`.
        #[cfg(rust_atomic_mutant = "acquire_plain")]
        // SAFETY: The caller upholds the contract, which `A` shares.
        return unsafe { A::read(p) };
        #[cfg(not(rust_atomic_mutant = "acquire_plain"))]
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe {
            A::read_acquire(p)
        }
    }

    #[inline(always)]
    unsafe fn set(p: *mut Self::V, v: Self::V) {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::set(p, v) }
    }

    #[inline(always)]
    unsafe fn set_release(p: *mut Self::V, v: Self::V) {
        // Mutant `release_plain`: a store-release is a plain `WRITE_ONCE()`.
        #[cfg(rust_atomic_mutant = "release_plain")]
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe {
            A::set(p, v)
        }
        #[cfg(not(rust_atomic_mutant = "release_plain"))]
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe {
            A::set_release(p, v)
        }
    }
}

/// The time between the load and the store of the non-atomic mutants (`nonatomic_rmw`,
/// `nonatomic_xchg`): a few spin-loop hints, so that two CPUs overlap inside it often enough for
/// the tests to see the lost update or the lock taken twice even on a loaded host or under TCG,
/// where the bare load and store, one instruction apart, rarely overlap. What the tests must
/// catch is the missing atomicity, not a lucky interleaving. Each round also stores to and loads
/// from a local, volatile, so that the window is never empty: on s390x `spin_loop()` emits no
/// instruction, and a loop of nothing but it is compiled away.
#[cfg(any(
    rust_atomic_mutant = "nonatomic_rmw",
    rust_atomic_mutant = "nonatomic_xchg"
))]
#[inline(always)]
fn nonatomic_window() {
    let mut rounds = 0u32;
    for _ in 0..8 {
        core::hint::spin_loop();
        let p = core::ptr::addr_of_mut!(rounds);
        // SAFETY: `p` points to a local of this function, which nothing else accesses.
        unsafe { p.write_volatile(p.read_volatile() + 1) };
    }
}

// SAFETY: Test-only, see the `LoadStore` implementation.
unsafe impl<A: Exchange> Exchange for Mutant<A> {
    #[inline(always)]
    unsafe fn xchg(p: *mut Self::V, new: Self::V, order: Order) -> Self::V {
        // Mutant `nonatomic_xchg`: exchange as a plain load followed by a plain store, so two
        // CPUs can both take a test-and-set lock.
        #[cfg(rust_atomic_mutant = "nonatomic_xchg")]
        {
            let _ = order;
            // SAFETY: The caller guarantees that `p` is valid and aligned.
            let old = unsafe { A::read(p) };
            nonatomic_window();
            // SAFETY: As above.
            unsafe { A::set(p, new) };
            old
        }
        #[cfg(not(rust_atomic_mutant = "nonatomic_xchg"))]
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe {
            A::xchg(p, new, order)
        }
    }

    #[inline(always)]
    unsafe fn cmpxchg(p: *mut Self::V, old: Self::V, new: Self::V, order: Order) -> Self::V {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::cmpxchg(p, old, new, order) }
    }

    #[inline(always)]
    unsafe fn try_cmpxchg(p: *mut Self::V, old: &mut Self::V, new: Self::V, order: Order) -> bool {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::try_cmpxchg(p, old, new, order) }
    }
}

// SAFETY: Test-only, see the `LoadStore` implementation.
unsafe impl<A: Primitive> Primitive for Mutant<A> {
    #[inline(always)]
    unsafe fn rmw(p: *mut Self::V, op: Rmw, v: Self::V) {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::rmw(p, op, v) }
    }

    #[inline(always)]
    unsafe fn fetch_rmw(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
        // Mutant `nonatomic_rmw`: fetch-add as a plain load followed by a plain store, so two
        // CPUs adding at once lose updates.
        #[cfg(rust_atomic_mutant = "nonatomic_rmw")]
        if op == Rmw::Add {
            // SAFETY: The caller guarantees that `p` is valid and aligned.
            let old = unsafe { A::read(p) };
            nonatomic_window();
            // SAFETY: As above.
            unsafe { A::set(p, <Self::V as super::primitive::Int>::apply(op, old, v)) };
            return old;
        }
        // Mutant `extra_barrier`: a redundant full barrier before every fetch operation, the
        // kind of overhead the codegen-parity check (scripts/machine-code/codegen-parity) must catch.
        #[cfg(rust_atomic_mutant = "extra_barrier")]
        super::arch::smp_mb_instruction();
        // Mutant `sub_adds`: fetch-sub adds instead of subtracting.
        #[cfg(rust_atomic_mutant = "sub_adds")]
        let op = if op == Rmw::Sub { Rmw::Add } else { op };
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::fetch_rmw(p, op, v, order) }
    }

    #[inline(always)]
    unsafe fn rmw_return(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::rmw_return(p, op, v, order) }
    }

    #[inline(always)]
    unsafe fn rmw_one(p: *mut Self::V, op: Rmw) {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::rmw_one(p, op) }
    }

    #[inline(always)]
    unsafe fn fetch_rmw_one(p: *mut Self::V, op: Rmw, order: Order) -> Self::V {
        // The mutants of `fetch_rmw` break `fetch_inc` and `fetch_dec` too.
        #[cfg(any(
            rust_atomic_mutant = "nonatomic_rmw",
            rust_atomic_mutant = "extra_barrier",
            rust_atomic_mutant = "sub_adds"
        ))]
        // SAFETY: The caller upholds the contract.
        return unsafe { Self::fetch_rmw(p, op, <Self::V as super::primitive::Int>::ONE, order) };
        #[allow(unreachable_code)]
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe {
            A::fetch_rmw_one(p, op, order)
        }
    }

    #[inline(always)]
    unsafe fn rmw_return_one(p: *mut Self::V, op: Rmw, order: Order) -> Self::V {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::rmw_return_one(p, op, order) }
    }

    #[inline(always)]
    unsafe fn inc(p: *mut Self::V) {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::inc(p) }
    }

    #[inline(always)]
    unsafe fn dec(p: *mut Self::V) {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::dec(p) }
    }

    #[inline(always)]
    unsafe fn sub_and_test(p: *mut Self::V, v: Self::V) -> bool {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::sub_and_test(p, v) }
    }

    #[inline(always)]
    unsafe fn dec_and_test(p: *mut Self::V) -> bool {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::dec_and_test(p) }
    }

    #[inline(always)]
    unsafe fn inc_and_test(p: *mut Self::V) -> bool {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::inc_and_test(p) }
    }

    #[inline(always)]
    unsafe fn dec_if_positive(p: *mut Self::V) -> Self::V {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::dec_if_positive(p) }
    }

    #[inline(always)]
    unsafe fn add_negative(p: *mut Self::V, v: Self::V, order: Order) -> bool {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::add_negative(p, v, order) }
    }

    #[inline(always)]
    unsafe fn fetch_add_unless(p: *mut Self::V, a: Self::V, u: Self::V) -> Self::V {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::fetch_add_unless(p, a, u) }
    }

    #[inline(always)]
    unsafe fn inc_not_zero(p: *mut Self::V) -> bool {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::inc_not_zero(p) }
    }

    #[inline(always)]
    unsafe fn inc_unless_negative(p: *mut Self::V) -> bool {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::inc_unless_negative(p) }
    }

    #[inline(always)]
    unsafe fn dec_unless_positive(p: *mut Self::V) -> bool {
        // SAFETY: The caller upholds the contract, which `A` shares.
        unsafe { A::dec_unless_positive(p) }
    }
}

/// The architecture's barriers, with one broken by the mutant this build selects.
pub(crate) mod fence {
    pub(crate) use super::super::arch::{
        barrier, smp_mb__after_atomic, smp_mb__after_spinlock, smp_mb__before_atomic, smp_rmb,
        smp_wmb,
    };

    /// `smp_mb()`; mutant `smp_mb_compiler_only` makes it a compiler barrier only, which lets
    /// the CPU's store buffer reorder a store with a later load (store buffering).
    #[inline(always)]
    pub(crate) fn smp_mb() {
        #[cfg(rust_atomic_mutant = "smp_mb_compiler_only")]
        {
            // The real barrier stays referenced: this build must not warn that it is unused.
            let _ = super::super::arch::smp_mb as fn();
            barrier();
        }
        #[cfg(not(rust_atomic_mutant = "smp_mb_compiler_only"))]
        super::super::arch::smp_mb();
    }
}
