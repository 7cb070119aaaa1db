// SPDX-License-Identifier: GPL-2.0

//! The generic fallback: the primitives of an architecture without an asm file.
//!
//! Each primitive, in each ordering and on each type, is a call of the kernel's own C
//! operation, through one helper per operation (`rust/atomic/fallback.c`, named
//! `rust_helper_lkmm_<type>_<C operation>`), as upstream's `kernel::sync::atomic` calls
//! `rust/helpers/atomic.c`: in a kernel (the file grafted into `rust/helpers/`) the helpers are
//! inlined where `CONFIG_RUST_INLINE_HELPERS` is on and called where it is off; out of tree
//! they are the module `rust_atomic_fallback`'s, always called. Whatever C does on the
//! architecture, this does: the ordering argument is C's. Every derived operation C has
//! (`inc`, `fetch_inc`, `add_return`, `add_negative`, `dec_if_positive`, `fetch_add_unless`,
//! ...) is C's too, not `primitive.rs`'s default, and the 64-bit loads and stores are
//! `atomic64_read()`/`atomic64_set()`, which a 32-bit architecture implements with its
//! doubleword instructions.
//!
//! Selected in `arch.rs` for an architecture without an asm file, or by `--cfg
//! rust_atomic_fallback` on one with (the test of this file: `scripts/boot/boot-test --fallback`).
//! The compiled code is a call per operation: codegen parity reports it as "fallback (calls)".

use super::super::primitive::{Exchange, Int, LoadStore, Order, Primitive, Rmw};
use super::Contract;
use ::kernel::macros::paste;

/// Declares the helpers `rust_helper_lkmm_<w>_<op>` in every ordering (C's suffixes).
macro_rules! extern_ordered {
    ($w:ident: $($op:ident($($p:ident: $pt:ty),*) -> $r:ty;)+) => {
        paste! {
            extern "C" {$(
                fn [<rust_helper_lkmm_ $w _ $op>]($($p: $pt),*) -> $r;
                fn [<rust_helper_lkmm_ $w _ $op _acquire>]($($p: $pt),*) -> $r;
                fn [<rust_helper_lkmm_ $w _ $op _release>]($($p: $pt),*) -> $r;
                fn [<rust_helper_lkmm_ $w _ $op _relaxed>]($($p: $pt),*) -> $r;
            )+}
        }
    };
}

/// Calls helper `rust_helper_lkmm_<w>_<op>` (prefix `$w`, operation `$op`) with arguments
/// `$a`, in the ordering `$order` says (a constant after inlining: the `match` folds away).
macro_rules! call_ordered {
    ($order:expr, $w:ident, $op:ident($($a:expr),*)) => {
        paste! {
            match $order {
                Order::Full => [<rust_helper_lkmm_ $w _ $op>]($($a),*),
                Order::Acquire => [<rust_helper_lkmm_ $w _ $op _acquire>]($($a),*),
                Order::Release => [<rust_helper_lkmm_ $w _ $op _release>]($($a),*),
                Order::Relaxed => [<rust_helper_lkmm_ $w _ $op _relaxed>]($($a),*),
            }
        }
    };
}

/// Declares the barrier helpers `rust_helper_lkmm_<barrier>`.
macro_rules! extern_barriers {
    ($($name:ident),+) => {
        paste! {
            extern "C" {$(
                fn [<rust_helper_lkmm_ $name>]();
            )+}
        }
    };
}

extern_barriers!(
    smp_mb,
    smp_rmb,
    smp_wmb,
    smp_mb__before_atomic,
    smp_mb__after_atomic,
    smp_mb__after_spinlock
);

/// Defines a barrier of [`Contract`] as the call of its helper.
macro_rules! barrier_calls {
    ($($name:ident),+) => {$(
        #[doc = concat!("C's `", stringify!($name), "()`, called.")]
        #[inline(always)]
        fn $name() {
            // SAFETY: A barrier has no precondition.
            unsafe { paste!([<rust_helper_lkmm_ $name>]()) }
        }
    )+};
}

/// The architecture without an asm file: the items of [`Contract`], each C's, called.
pub enum Arch {}

// SAFETY: Every primitive and every barrier is the C operation of the same name (see the module
// docs), which is what the contract asks for.
unsafe impl Contract for Arch {
    type I8 = I8;
    type I16 = I16;
    type I32 = I32;
    type I64 = I64;

    /// The acquire loads and release stores are made in C, by helpers built without the
    /// sanitizers' instrumentation (`fallback.c`): like an asm instruction, nothing the
    /// compilers instrument, so `instrument.rs` makes the hooks C makes for those.
    const ACQUIRE_RELEASE_VOLATILE: bool = false;

    barrier_calls!(
        smp_mb,
        smp_rmb,
        smp_wmb,
        smp_mb__before_atomic,
        smp_mb__after_atomic,
        smp_mb__after_spinlock
    );

    fn implementation() -> &'static str {
        "fallback (calls of the kernel's C operations)"
    }
}

/// Defines marker `$m` for the primitives on `$t` (helper prefix `$w`) and implements
/// [`LoadStore`] and [`Exchange`] for it: C's `smp_load_acquire()`, `smp_store_release()`,
/// `xchg()` and `cmpxchg()` on a scalar. `READ_ONCE()` and `WRITE_ONCE()` are the volatile
/// accesses of [`LoadStore`]'s defaults, as in C.
macro_rules! impl_scalar {
    ($($m:ident: $t:ty, $w:ident;)+) => {$(
        paste! {
            extern "C" {
                fn [<rust_helper_lkmm_ $w _read_acquire>](p: *const $t) -> $t;
                fn [<rust_helper_lkmm_ $w _set_release>](p: *mut $t, v: $t);
            }
        }
        extern_ordered!($w:
            xchg(p: *mut $t, v: $t) -> $t;
            cmpxchg(p: *mut $t, old: $t, new: $t) -> $t;
        );

        #[doc = concat!("The primitives on `", stringify!($t), "`: C's, called.")]
        pub enum $m {}

        // SAFETY: Each method is C's operation of the same name (see the module docs).
        unsafe impl LoadStore for $m {
            type V = $t;

            #[inline(always)]
            unsafe fn read_acquire(p: *const Self::V) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe { paste!([<rust_helper_lkmm_ $w _read_acquire>](p)) }
            }

            #[inline(always)]
            unsafe fn set_release(p: *mut Self::V, v: Self::V) {
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe { paste!([<rust_helper_lkmm_ $w _set_release>](p, v)) }
            }
        }

        impl_exchange!($m, $w);
    )+};
}

/// Implements [`Exchange`] for marker `$m` with the helpers of prefix `$w`, `try_cmpxchg` too
/// if given (C has it for `atomic_t` and `atomic64_t`; on scalars, the default is C's shape).
macro_rules! impl_exchange {
    ($m:ident, $w:ident $(, $try_cmpxchg:ident)?) => {
        // SAFETY: Each method is C's operation of the same name (see the module docs).
        unsafe impl Exchange for $m {
            #[inline(always)]
            unsafe fn xchg(p: *mut Self::V, new: Self::V, order: Order) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { call_ordered!(order, $w, xchg(p, new)) }
            }

            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                old: Self::V,
                new: Self::V,
                order: Order,
            ) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { call_ordered!(order, $w, cmpxchg(p, old, new)) }
            }
$(
            #[inline(always)]
            unsafe fn $try_cmpxchg(
                p: *mut Self::V,
                old: &mut Self::V,
                new: Self::V,
                order: Order,
            ) -> bool {
                let old: *mut Self::V = old;
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic; `old`
                // is a valid reference.
                unsafe { call_ordered!(order, $w, try_cmpxchg(p, old, new)) }
            }
)?
        }
    };
}

impl_scalar! {
    I8: i8, i8;
    I16: i16, i16;
}

/// Defines marker `$m` for the primitives on `$t` (helper prefix `$w`), C's `atomic_t` or
/// `atomic64_t`, and implements every method of [`Primitive`] that C has an operation for.
macro_rules! impl_atomic {
    ($($m:ident: $t:ty, $w:ident;)+) => {$(
        paste! {
            extern "C" {
                fn [<rust_helper_lkmm_ $w _read>](p: *const $t) -> $t;
                fn [<rust_helper_lkmm_ $w _set>](p: *mut $t, v: $t);
                fn [<rust_helper_lkmm_ $w _read_acquire>](p: *const $t) -> $t;
                fn [<rust_helper_lkmm_ $w _set_release>](p: *mut $t, v: $t);
                fn [<rust_helper_lkmm_ $w _add>](p: *mut $t, v: $t);
                fn [<rust_helper_lkmm_ $w _sub>](p: *mut $t, v: $t);
                fn [<rust_helper_lkmm_ $w _and>](p: *mut $t, v: $t);
                fn [<rust_helper_lkmm_ $w _or>](p: *mut $t, v: $t);
                fn [<rust_helper_lkmm_ $w _xor>](p: *mut $t, v: $t);
                fn [<rust_helper_lkmm_ $w _andnot>](p: *mut $t, v: $t);
                fn [<rust_helper_lkmm_ $w _inc>](p: *mut $t);
                fn [<rust_helper_lkmm_ $w _dec>](p: *mut $t);
                fn [<rust_helper_lkmm_ $w _sub_and_test>](p: *mut $t, v: $t) -> bool;
                fn [<rust_helper_lkmm_ $w _dec_and_test>](p: *mut $t) -> bool;
                fn [<rust_helper_lkmm_ $w _inc_and_test>](p: *mut $t) -> bool;
                fn [<rust_helper_lkmm_ $w _dec_if_positive>](p: *mut $t) -> $t;
                fn [<rust_helper_lkmm_ $w _fetch_add_unless>](p: *mut $t, a: $t, u: $t) -> $t;
                fn [<rust_helper_lkmm_ $w _inc_not_zero>](p: *mut $t) -> bool;
                fn [<rust_helper_lkmm_ $w _inc_unless_negative>](p: *mut $t) -> bool;
                fn [<rust_helper_lkmm_ $w _dec_unless_positive>](p: *mut $t) -> bool;
            }
        }
        extern_ordered!($w:
            xchg(p: *mut $t, v: $t) -> $t;
            cmpxchg(p: *mut $t, old: $t, new: $t) -> $t;
            try_cmpxchg(p: *mut $t, old: *mut $t, new: $t) -> bool;
            fetch_add(p: *mut $t, v: $t) -> $t;
            fetch_sub(p: *mut $t, v: $t) -> $t;
            fetch_and(p: *mut $t, v: $t) -> $t;
            fetch_or(p: *mut $t, v: $t) -> $t;
            fetch_xor(p: *mut $t, v: $t) -> $t;
            fetch_andnot(p: *mut $t, v: $t) -> $t;
            fetch_inc(p: *mut $t) -> $t;
            fetch_dec(p: *mut $t) -> $t;
            add_return(p: *mut $t, v: $t) -> $t;
            sub_return(p: *mut $t, v: $t) -> $t;
            inc_return(p: *mut $t) -> $t;
            dec_return(p: *mut $t) -> $t;
            add_negative(p: *mut $t, v: $t) -> bool;
        );

        #[doc = concat!("The primitives on `", stringify!($t), "`: C's, called.")]
        pub enum $m {}

        // SAFETY: Each method is C's operation of the same name (see the module docs): on a
        // 32-bit architecture, `atomic64_read()` and `atomic64_set()` are single-copy atomic
        // where a volatile access of 8 bytes would not be.
        unsafe impl LoadStore for $m {
            type V = $t;

            #[inline(always)]
            unsafe fn read(p: *const Self::V) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe { paste!([<rust_helper_lkmm_ $w _read>](p)) }
            }

            #[inline(always)]
            unsafe fn read_acquire(p: *const Self::V) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe { paste!([<rust_helper_lkmm_ $w _read_acquire>](p)) }
            }

            #[inline(always)]
            unsafe fn set(p: *mut Self::V, v: Self::V) {
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe { paste!([<rust_helper_lkmm_ $w _set>](p, v)) }
            }

            #[inline(always)]
            unsafe fn set_release(p: *mut Self::V, v: Self::V) {
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe { paste!([<rust_helper_lkmm_ $w _set_release>](p, v)) }
            }
        }

        impl_exchange!($m, $w, try_cmpxchg);

        // SAFETY: Each method is C's operation of the same name (see the module docs).
        unsafe impl Primitive for $m {
            #[inline(always)]
            unsafe fn rmw(p: *mut Self::V, op: Rmw, v: Self::V) {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe {
                    paste! {
                        match op {
                            Rmw::Add => [<rust_helper_lkmm_ $w _add>](p, v),
                            Rmw::Sub => [<rust_helper_lkmm_ $w _sub>](p, v),
                            Rmw::And => [<rust_helper_lkmm_ $w _and>](p, v),
                            Rmw::Or => [<rust_helper_lkmm_ $w _or>](p, v),
                            Rmw::Xor => [<rust_helper_lkmm_ $w _xor>](p, v),
                            Rmw::AndNot => [<rust_helper_lkmm_ $w _andnot>](p, v),
                        }
                    }
                }
            }

            #[inline(always)]
            unsafe fn fetch_rmw(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe {
                    match op {
                        Rmw::Add => call_ordered!(order, $w, fetch_add(p, v)),
                        Rmw::Sub => call_ordered!(order, $w, fetch_sub(p, v)),
                        Rmw::And => call_ordered!(order, $w, fetch_and(p, v)),
                        Rmw::Or => call_ordered!(order, $w, fetch_or(p, v)),
                        Rmw::Xor => call_ordered!(order, $w, fetch_xor(p, v)),
                        Rmw::AndNot => call_ordered!(order, $w, fetch_andnot(p, v)),
                    }
                }
            }

            #[inline(always)]
            unsafe fn rmw_one(p: *mut Self::V, op: Rmw) {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe {
                    match op {
                        Rmw::Add => paste!([<rust_helper_lkmm_ $w _inc>](p)),
                        Rmw::Sub => paste!([<rust_helper_lkmm_ $w _dec>](p)),
                        _ => Self::rmw(p, op, 1),
                    }
                }
            }

            #[inline(always)]
            unsafe fn fetch_rmw_one(p: *mut Self::V, op: Rmw, order: Order) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe {
                    match op {
                        Rmw::Add => call_ordered!(order, $w, fetch_inc(p)),
                        Rmw::Sub => call_ordered!(order, $w, fetch_dec(p)),
                        _ => Self::fetch_rmw(p, op, 1, order),
                    }
                }
            }

            #[inline(always)]
            unsafe fn rmw_return(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe {
                    match op {
                        Rmw::Add => call_ordered!(order, $w, add_return(p, v)),
                        Rmw::Sub => call_ordered!(order, $w, sub_return(p, v)),
                        // C has no `_return` of the bitwise operations: the generic way.
                        _ => Self::V::apply(op, Self::fetch_rmw(p, op, v, order), v),
                    }
                }
            }

            #[inline(always)]
            unsafe fn rmw_return_one(p: *mut Self::V, op: Rmw, order: Order) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe {
                    match op {
                        Rmw::Add => call_ordered!(order, $w, inc_return(p)),
                        Rmw::Sub => call_ordered!(order, $w, dec_return(p)),
                        _ => Self::rmw_return(p, op, 1, order),
                    }
                }
            }

            #[inline(always)]
            unsafe fn inc(p: *mut Self::V) {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { paste!([<rust_helper_lkmm_ $w _inc>](p)) }
            }

            #[inline(always)]
            unsafe fn dec(p: *mut Self::V) {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { paste!([<rust_helper_lkmm_ $w _dec>](p)) }
            }

            #[inline(always)]
            unsafe fn sub_and_test(p: *mut Self::V, v: Self::V) -> bool {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { paste!([<rust_helper_lkmm_ $w _sub_and_test>](p, v)) }
            }

            #[inline(always)]
            unsafe fn dec_and_test(p: *mut Self::V) -> bool {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { paste!([<rust_helper_lkmm_ $w _dec_and_test>](p)) }
            }

            #[inline(always)]
            unsafe fn inc_and_test(p: *mut Self::V) -> bool {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { paste!([<rust_helper_lkmm_ $w _inc_and_test>](p)) }
            }

            #[inline(always)]
            unsafe fn dec_if_positive(p: *mut Self::V) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { paste!([<rust_helper_lkmm_ $w _dec_if_positive>](p)) }
            }

            #[inline(always)]
            unsafe fn add_negative(p: *mut Self::V, v: Self::V, order: Order) -> bool {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { call_ordered!(order, $w, add_negative(p, v)) }
            }

            #[inline(always)]
            unsafe fn fetch_add_unless(p: *mut Self::V, a: Self::V, u: Self::V) -> Self::V {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { paste!([<rust_helper_lkmm_ $w _fetch_add_unless>](p, a, u)) }
            }

            #[inline(always)]
            unsafe fn inc_not_zero(p: *mut Self::V) -> bool {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { paste!([<rust_helper_lkmm_ $w _inc_not_zero>](p)) }
            }

            #[inline(always)]
            unsafe fn inc_unless_negative(p: *mut Self::V) -> bool {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { paste!([<rust_helper_lkmm_ $w _inc_unless_negative>](p)) }
            }

            #[inline(always)]
            unsafe fn dec_unless_positive(p: *mut Self::V) -> bool {
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe { paste!([<rust_helper_lkmm_ $w _dec_unless_positive>](p)) }
            }
        }
    )+};
}

impl_atomic! {
    I32: i32, i32;
    I64: i64, i64;
}
