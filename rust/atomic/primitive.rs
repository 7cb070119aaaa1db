// SPDX-License-Identifier: GPL-2.0

//! The contract between the typed API and an architecture, and the operations derived from it.
//!
//! An architecture implements [`Primitive`] for `i32` and `i64` (and [`LoadStore`] for `i8` and
//! `i16`) in `arch/<arch>.rs`: loads, stores, the read-modify-write operations its instructions
//! provide directly, `xchg` and `cmpxchg`, each in every [`Order`]. Everything else the kernel's
//! `atomic_*()` API offers is derived here once, generically, the way the kernel's
//! `scripts/atomic/fallbacks/` derives it in C; an architecture overrides a derived operation
//! only where it has a better instruction sequence (x86's `lock sub; sete` for `sub_and_test`).

/// The integer types atomic operations act on, with the arithmetic the instructions do.
pub trait Int: Copy + Eq + Ord {
    /// Zero, for the derived operations.
    const ZERO: Self;
    /// One, for the derived operations.
    const ONE: Self;

    /// `old <op> v` in two's complement, wrapping, as the instructions compute it.
    fn apply(op: Rmw, old: Self, v: Self) -> Self;
}

macro_rules! impl_int {
    ($($t:ty),+) => {$(
        impl Int for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;

            #[inline(always)]
            fn apply(op: Rmw, old: Self, v: Self) -> Self {
                match op {
                    Rmw::Add => old.wrapping_add(v),
                    Rmw::Sub => old.wrapping_sub(v),
                    Rmw::And => old & v,
                    Rmw::Or => old | v,
                    Rmw::Xor => old ^ v,
                    Rmw::AndNot => old & !v,
                }
            }
        }
    )+};
}

impl_int!(i32, i64);

/// Memory ordering of one operation, as the suffix of its LKMM name says: `_relaxed`,
/// `_acquire`, `_release`, or none for fully ordered. See `tools/memory-model/Documentation/`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Order {
    /// Atomic, but orders no other access.
    Relaxed,
    /// Accesses after the operation (in program order) are not performed before its load.
    Acquire,
    /// Accesses before the operation are performed before its store.
    Release,
    /// A full barrier before and after the operation (`smp_mb()` on both sides).
    Full,
}

/// A read-modify-write operation that architectures implement with one instruction or loop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rmw {
    Add,
    Sub,
    And,
    Or,
    Xor,
    AndNot,
}

/// Naturally aligned loads and stores of one integer type, including the ordered ones
/// (`smp_load_acquire()`, `smp_store_release()`). Implemented by a marker type of the
/// architecture (e.g. `arch::I32`), so that a mutation-test build can wrap it.
///
/// # Safety
///
/// Implementations must perform each access as a single, untorn, access to memory (a
/// "marked access" in LKMM terms) with the ordering its name says.
pub unsafe trait LoadStore {
    /// The integer type accessed.
    type V: Copy;

    /// `READ_ONCE(*p)`: a volatile load, as in C. Every supported architecture performs an
    /// aligned load of up to 8 bytes as one single-copy atomic access (Intel SDM Vol. 3A
    /// 9.1.1; Arm ARM B2.2.1), so this is the same for all of them, but where C's
    /// `READ_ONCE()` is more than a load: arm64 with LTO (`arch/arm64.rs`).
    ///
    /// # Safety
    ///
    /// `p` must be valid for reads and aligned to `size_of::<Self>()`, and every write to `*p`
    /// that may run concurrently must be a marked access.
    #[inline(always)]
    unsafe fn read(p: *const Self::V) -> Self::V {
        // SAFETY: The caller guarantees that `p` is valid and aligned.
        unsafe { p.read_volatile() }
    }

    /// `smp_load_acquire(p)`.
    ///
    /// # Safety
    ///
    /// As for [`LoadStore::read`].
    unsafe fn read_acquire(p: *const Self::V) -> Self::V;

    /// `WRITE_ONCE(*p, v)`: a volatile store, as in C (single-copy atomic, as for
    /// [`LoadStore::read`]).
    ///
    /// # Safety
    ///
    /// `p` must be valid for writes and aligned to `size_of::<Self>()`, and every access to
    /// `*p` that may run concurrently must be a marked access.
    #[inline(always)]
    unsafe fn set(p: *mut Self::V, v: Self::V) {
        // SAFETY: The caller guarantees that `p` is valid and aligned.
        unsafe { p.write_volatile(v) }
    }

    /// `smp_store_release(p, v)`.
    ///
    /// # Safety
    ///
    /// As for [`LoadStore::set`].
    unsafe fn set_release(p: *mut Self::V, v: Self::V);
}

/// Atomic exchange and compare-and-exchange of the integer type of a [`LoadStore`]: what
/// every type with read-modify-write operations has, `AtomicBool` included (C's `xchg()` and
/// `cmpxchg()` work on any naturally aligned scalar up to the word size).
///
/// Every method has the same safety requirement: `p` must be valid for reads and writes and
/// aligned to `size_of::<Self::V>()`, and every access to `*p` that may run concurrently must
/// be atomic.
///
/// # Safety
///
/// Implementations must be atomic and ordered as the LKMM defines the C operation of the same
/// name, for every [`Order`].
pub unsafe trait Exchange: LoadStore<V: Eq> {
    /// `atomic_xchg{,_acquire,_release,_relaxed}()`.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    unsafe fn xchg(p: *mut Self::V, new: Self::V, order: Order) -> Self::V;

    /// `atomic_cmpxchg{,_acquire,_release,_relaxed}()`: stores `new` if the value is `old`;
    /// returns the value found. A failed cmpxchg is a relaxed load, whatever `order` says.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    unsafe fn cmpxchg(p: *mut Self::V, old: Self::V, new: Self::V, order: Order) -> Self::V;

    /// `atomic_try_cmpxchg{,_acquire,_release,_relaxed}()`: like `cmpxchg`, but returns
    /// whether it stored and updates `*old` to the value found when it did not.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn try_cmpxchg(p: *mut Self::V, old: &mut Self::V, new: Self::V, order: Order) -> bool {
        // SAFETY: The caller upholds the trait's contract.
        let found = unsafe { Self::cmpxchg(p, *old, new, order) };
        let stored = found == *old;
        *old = found;
        stored
    }
}

/// Atomic read-modify-write operations on the integer type of a [`LoadStore`].
///
/// Every method has the same safety requirement: `p` must be valid for reads and writes and
/// aligned to `size_of::<Self>()`, and every access to `*p` that may run concurrently must be
/// atomic (a method of this trait or of [`LoadStore`]).
///
/// # Safety
///
/// Implementations must be atomic and ordered as the LKMM defines the C operation of the same
/// name, for every [`Order`].
pub unsafe trait Primitive: Exchange<V: Int> {
    /// `atomic_<op>()`: no return value, no ordering (like C's void operations).
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    unsafe fn rmw(p: *mut Self::V, op: Rmw, v: Self::V);

    /// `atomic_fetch_<op>{,_acquire,_release,_relaxed}()`: returns the old value.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    unsafe fn fetch_rmw(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V;

    /// [`Primitive::rmw`] of the constant one: what `atomic_inc()` and `atomic_dec()` do.
    /// The `*_one` methods let an architecture whose instructions take an immediate use it
    /// where C's compiler does (arm64's LL/SC `add #1`, C's constraint `"I"`): `asm!` has no
    /// immediate-or-register operand, and a register operand costs a `mov` per call.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn rmw_one(p: *mut Self::V, op: Rmw) {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { Self::rmw(p, op, Self::V::ONE) }
    }

    /// [`Primitive::fetch_rmw`] of the constant one (`atomic_fetch_{inc,dec}*()`); see
    /// [`Primitive::rmw_one`].
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn fetch_rmw_one(p: *mut Self::V, op: Rmw, order: Order) -> Self::V {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { Self::fetch_rmw(p, op, Self::V::ONE, order) }
    }

    /// `atomic_inc()`: no return value, no ordering.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn inc(p: *mut Self::V) {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { Self::rmw_one(p, Rmw::Add) }
    }

    /// `atomic_dec()`: no return value, no ordering.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn dec(p: *mut Self::V) {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { Self::rmw_one(p, Rmw::Sub) }
    }

    /// `atomic_<op>_return{,_acquire,_release,_relaxed}()` for `Add` and `Sub`: returns the
    /// new value.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn rmw_return(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
        // SAFETY: The caller upholds the trait's contract.
        Self::V::apply(op, unsafe { Self::fetch_rmw(p, op, v, order) }, v)
    }

    /// [`Primitive::rmw_return`] of the constant one (`atomic_{inc,dec}_return*()`); see
    /// [`Primitive::rmw_one`].
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn rmw_return_one(p: *mut Self::V, op: Rmw, order: Order) -> Self::V {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { Self::rmw_return(p, op, Self::V::ONE, order) }
    }

    /// `atomic_sub_and_test()`: fully ordered; whether the result is zero.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn sub_and_test(p: *mut Self::V, v: Self::V) -> bool {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { Self::rmw_return(p, Rmw::Sub, v, Order::Full) == Self::V::ZERO }
    }

    /// `atomic_dec_and_test()`: fully ordered; whether the result is zero.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn dec_and_test(p: *mut Self::V) -> bool {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { Self::rmw_return_one(p, Rmw::Sub, Order::Full) == Self::V::ZERO }
    }

    /// `atomic_inc_and_test()`: fully ordered; whether the result is zero.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn inc_and_test(p: *mut Self::V) -> bool {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { Self::rmw_return_one(p, Rmw::Add, Order::Full) == Self::V::ZERO }
    }

    /// `atomic_dec_if_positive()`: decrements unless the result would be negative; returns
    /// the old value minus one (wrapping) either way. Fully ordered when it stores.
    ///
    /// This is C's generic definition, where "negative" is that of the wrapped result, so
    /// the minimum value decrements to the maximum. arm64 defines `atomic64_dec_if_positive()`
    /// with a flag test that sees the overflow instead; `arch/arm64.rs` overrides accordingly.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn dec_if_positive(p: *mut Self::V) -> Self::V {
        // SAFETY: The caller upholds the trait's contract.
        unsafe {
            dec_if::<Self>(p, |c| {
                Self::V::apply(Rmw::Sub, c, Self::V::ONE) >= Self::V::ZERO
            })
        }
    }

    /// `atomic_add_negative{,_acquire,_release,_relaxed}()`: whether the result is negative.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn add_negative(p: *mut Self::V, v: Self::V, order: Order) -> bool {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { Self::rmw_return(p, Rmw::Add, v, order) < Self::V::ZERO }
    }

    /// `atomic_fetch_add_unless()`: adds `a` unless the value is `u`; returns the old value.
    /// Fully ordered when it adds, relaxed when it does not. C's generic fallback, a
    /// `try_cmpxchg()` loop ([`fetch_add_unless`]); riscv overrides it with C's own LR/SC loop.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn fetch_add_unless(p: *mut Self::V, a: Self::V, u: Self::V) -> Self::V {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { fetch_add_unless::<Self>(p, a, u) }
    }

    /// `atomic_inc_not_zero()`: adds one unless the value is zero; whether it added. Fully
    /// ordered when it adds, relaxed when it does not. A `try_cmpxchg()` loop, as C's generic
    /// fallback (`atomic_add_unless(v, 1, 0)` of the generic `fetch_add_unless`).
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn inc_not_zero(p: *mut Self::V) -> bool {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { add_if::<Self>(p, Self::V::ONE, |c| c != Self::V::ZERO) }
    }

    /// `atomic_inc_unless_negative()`: adds one unless the value is negative; whether it added.
    /// Fully ordered when it adds, relaxed when it does not. C's generic fallback, a
    /// `try_cmpxchg()` loop.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn inc_unless_negative(p: *mut Self::V) -> bool {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { add_if::<Self>(p, Self::V::ONE, |c| c >= Self::V::ZERO) }
    }

    /// `atomic_dec_unless_positive()`: subtracts one unless the value is positive; whether it
    /// subtracted. Fully ordered when it subtracts, relaxed when it does not. C's generic
    /// fallback, a `try_cmpxchg()` loop.
    ///
    /// # Safety
    ///
    /// See the trait documentation.
    #[inline(always)]
    unsafe fn dec_unless_positive(p: *mut Self::V) -> bool {
        let minus_one = Self::V::apply(Rmw::Sub, Self::V::ZERO, Self::V::ONE);
        // SAFETY: The caller upholds the trait's contract.
        unsafe { add_if::<Self>(p, minus_one, |c| c <= Self::V::ZERO) }
    }
}

/// `atomic_fetch_add_unless()`: adds `a` unless the value is `u`; returns the old value.
/// Fully ordered when it adds, relaxed when it does not (as the C fallback).
///
/// # Safety
///
/// As for the methods of [`Primitive`].
#[inline(always)]
pub(crate) unsafe fn fetch_add_unless<P: Primitive + ?Sized>(
    p: *mut P::V,
    a: P::V,
    u: P::V,
) -> P::V {
    // SAFETY: The caller upholds `Primitive`'s contract.
    let mut c = unsafe { P::read(p) };
    loop {
        if c == u {
            return c;
        }
        let new = P::V::apply(Rmw::Add, c, a);
        // SAFETY: As above.
        if unsafe { P::try_cmpxchg(p, &mut c, new, Order::Full) } {
            return c;
        }
    }
}

/// Adds `delta` if `allow(value)`, with a fully ordered cmpxchg loop; returns whether it did.
/// The shape of C's `inc_unless_negative`, `dec_unless_positive` and `inc_not_zero`
/// fallbacks.
///
/// # Safety
///
/// As for the methods of [`Primitive`].
#[inline(always)]
pub(crate) unsafe fn add_if<P: Primitive + ?Sized>(
    p: *mut P::V,
    delta: P::V,
    allow: impl Fn(P::V) -> bool,
) -> bool {
    // SAFETY: The caller upholds `Primitive`'s contract.
    let mut c = unsafe { P::read(p) };
    loop {
        if !allow(c) {
            return false;
        }
        let new = P::V::apply(Rmw::Add, c, delta);
        // SAFETY: As above.
        if unsafe { P::try_cmpxchg(p, &mut c, new, Order::Full) } {
            return true;
        }
    }
}

/// Decrements if `allow(value)`, with a fully ordered cmpxchg loop; returns the value minus
/// one (wrapping) either way. The shape of C's `dec_if_positive` definitions.
///
/// # Safety
///
/// As for the methods of [`Primitive`].
#[inline(always)]
pub(crate) unsafe fn dec_if<P: Primitive + ?Sized>(
    p: *mut P::V,
    allow: impl Fn(P::V) -> bool,
) -> P::V {
    // SAFETY: The caller upholds `Primitive`'s contract.
    let mut c = unsafe { P::read(p) };
    loop {
        let dec = P::V::apply(Rmw::Sub, c, P::V::ONE);
        if !allow(c) {
            return dec;
        }
        // SAFETY: As above.
        if unsafe { P::try_cmpxchg(p, &mut c, dec, Order::Full) } {
            return dec;
        }
    }
}
