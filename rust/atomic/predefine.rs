// SPDX-License-Identifier: GPL-2.0

//! Pre-defined atomic types: upstream's (`rust/kernel/sync/atomic/predefine.rs`, Linux 7.2),
//! plus `u8` and `u16` (ours; C has `READ_ONCE()`, `xchg()` and `cmpxchg()` on them), and which
//! integers have the bitwise and sign-testing operations (ours too).

use super::backend::Long;
use super::{AtomicAdd, AtomicBitwise, AtomicInteger, AtomicSigned, AtomicType};
use core::ffi::c_void;

// Ensure size and alignment requirements are checked.
const _: () = assert!(size_of::<bool>() == size_of::<i8>());
const _: () = assert!(align_of::<bool>() == align_of::<i8>());

// SAFETY: `bool` has the same size and alignment as `i8`, and Rust guarantees that `bool` has
// only two valid bit patterns: 0 (false) and 1 (true). Those are valid `i8` values, so `bool` is
// round-trip transmutable to `i8`.
unsafe impl AtomicType for bool {
    type Repr = i8;
}

// SAFETY: `i8` has the same size and alignment with itself, and is round-trip transmutable to
// itself.
unsafe impl AtomicType for i8 {
    type Repr = i8;
}

// SAFETY: `u8` and `i8` have the same size and alignment, and every bit pattern is valid for both.
unsafe impl AtomicType for u8 {
    type Repr = i8;
}

// SAFETY: `i16` has the same size and alignment with itself, and is round-trip transmutable to
// itself.
unsafe impl AtomicType for i16 {
    type Repr = i16;
}

// SAFETY: `u16` and `i16` have the same size and alignment, and every bit pattern is valid for
// both.
unsafe impl AtomicType for u16 {
    type Repr = i16;
}

// SAFETY:
//
// - `*mut T` has the same size and alignment with `*const c_void`, and is round-trip
//   transmutable to `*const c_void`.
// - `*mut T` is safe to transfer between execution contexts. See the safety requirement of
//   [`AtomicType`].
unsafe impl<T: Sized> AtomicType for *mut T {
    type Repr = *const c_void;
}

// SAFETY:
//
// - `*const T` has the same size and alignment with `*const c_void`, and is round-trip
//   transmutable to `*const c_void`.
// - `*const T` is safe to transfer between execution contexts. See the safety requirement of
//   [`AtomicType`].
unsafe impl<T: Sized> AtomicType for *const T {
    type Repr = *const c_void;
}

/// The integer types of C's `atomic_t`, `atomic64_t` and `atomic_long_t`, and the signed and
/// unsigned types stored as each: `AtomicType`, `AtomicAdd`, `AtomicBitwise` and
/// `AtomicInteger` for all, and `AtomicSigned` for the signed ones.
macro_rules! integer_types {
    ($($t:ty => $repr:ty $(, $signed:ident)?;)+) => {$(
        const _: () = assert!(size_of::<$t>() == size_of::<$repr>());
        const _: () = assert!(align_of::<$t>() == align_of::<$repr>());

        // SAFETY: `$t` and `$repr` have the same size and alignment, and every bit pattern is
        // valid for both, so `$t` is round-trip transmutable to `$repr`.
        unsafe impl AtomicType for $t {
            type Repr = $repr;
        }

        // SAFETY: The wrapping add result of two `$repr`s is a valid `$t`.
        unsafe impl AtomicAdd<$t> for $t {
            #[inline(always)]
            fn rhs_into_delta(rhs: $t) -> $repr {
                rhs as $repr
            }
        }

        // SAFETY: Every bit pattern of `$repr` is a valid `$t`.
        unsafe impl AtomicBitwise<$t> for $t {
            #[inline(always)]
            fn rhs_into_bits(rhs: $t) -> $repr {
                rhs as $repr
            }
        }

        // SAFETY: Every bit pattern of `$repr` is a valid `$t`.
        unsafe impl AtomicInteger for $t {}

        $(
            // SAFETY: `$t` is `$repr`'s signed integer of the same width: the same sign.
            unsafe impl $signed for $t {}
        )?
    )+};
}

integer_types! {
    i32 => i32, AtomicSigned;
    i64 => i64, AtomicSigned;
    isize => Long, AtomicSigned;
    u32 => i32;
    u64 => i64;
    usize => Long;
}

// Upstream's KUnit suite `rust_atomics` (rust/kernel/sync/atomic/predefine.rs, Linux 7.2),
// unchanged but for `not(MODULE)`: in a kernel with CONFIG_RUST_ATOMICS_KUNIT_TEST and this
// library grafted in, it tests this implementation; a module's copy of the library (the
// samples') has no `macros` crate and must not register the suite again; on the host,
// scripts/host/host-tests runs it as `#[test]`s.
#[cfg(all(CONFIG_RUST_ATOMICS_KUNIT_TEST, not(MODULE)))]
#[macros::kunit_tests(rust_atomics)]
mod tests {
    use super::super::*;

    // Call $fn($val) with each $type of $val.
    macro_rules! for_each_type {
        ($val:literal in [$($type:ty),*] $fn:expr) => {
            $({
                let v: $type = $val;

                $fn(v);
            })*
        }
    }

    #[test]
    fn atomic_basic_tests() {
        for_each_type!(42 in [i8, i16, i32, i64, u32, u64, isize, usize] |v| {
            let x = Atomic::new(v);

            assert_eq!(v, x.load(Relaxed));
        });

        for_each_type!(42 in [i8, i16, i32, i64, u32, u64, isize, usize] |v| {
            let x = Atomic::new(v);
            let ptr = x.as_ptr();

            // SAFETY: `ptr` is a valid pointer and no concurrent access.
            assert_eq!(v, unsafe { atomic_load(ptr, Relaxed) });
        });
    }

    #[test]
    fn atomic_acquire_release_tests() {
        for_each_type!(42 in [i8, i16, i32, i64, u32, u64, isize, usize] |v| {
            let x = Atomic::new(0);

            x.store(v, Release);
            assert_eq!(v, x.load(Acquire));
        });

        for_each_type!(42 in [i8, i16, i32, i64, u32, u64, isize, usize] |v| {
            let x = Atomic::new(0);
            let ptr = x.as_ptr();

            // SAFETY: `ptr` is a valid pointer and no concurrent access.
            unsafe { atomic_store(ptr, v, Release) };

            // SAFETY: `ptr` is a valid pointer and no concurrent access.
            assert_eq!(v, unsafe { atomic_load(ptr, Acquire) });
        });
    }

    #[test]
    fn atomic_xchg_tests() {
        for_each_type!(42 in [i8, i16, i32, i64, u32, u64, isize, usize] |v| {
            let x = Atomic::new(v);

            let old = v;
            let new = v + 1;

            assert_eq!(old, x.xchg(new, Full));
            assert_eq!(new, x.load(Relaxed));
        });

        for_each_type!(42 in [i8, i16, i32, i64, u32, u64, isize, usize] |v| {
            let x = Atomic::new(v);
            let ptr = x.as_ptr();

            let old = v;
            let new = v + 1;

            // SAFETY: `ptr` is a valid pointer and no concurrent access.
            assert_eq!(old, unsafe { xchg(ptr, new, Full) });
            assert_eq!(new, x.load(Relaxed));
        });
    }

    #[test]
    fn atomic_cmpxchg_tests() {
        for_each_type!(42 in [i8, i16, i32, i64, u32, u64, isize, usize] |v| {
            let x = Atomic::new(v);

            let old = v;
            let new = v + 1;

            assert_eq!(Err(old), x.cmpxchg(new, new, Full));
            assert_eq!(old, x.load(Relaxed));
            assert_eq!(Ok(old), x.cmpxchg(old, new, Relaxed));
            assert_eq!(new, x.load(Relaxed));
        });

        for_each_type!(42 in [i8, i16, i32, i64, u32, u64, isize, usize] |v| {
            let x = Atomic::new(v);
            let ptr = x.as_ptr();

            let old = v;
            let new = v + 1;

            // SAFETY: `ptr` is a valid pointer and no concurrent access.
            assert_eq!(Err(old), unsafe { cmpxchg(ptr, new, new, Full) });
            assert_eq!(old, x.load(Relaxed));
            // SAFETY: `ptr` is a valid pointer and no concurrent access.
            assert_eq!(Ok(old), unsafe { cmpxchg(ptr, old, new, Relaxed) });
            assert_eq!(new, x.load(Relaxed));
        });
    }

    #[test]
    fn atomic_arithmetic_tests() {
        for_each_type!(42 in [i32, i64, u32, u64, isize, usize] |v| {
            let x = Atomic::new(v);

            assert_eq!(v, x.fetch_add(12, Full));
            assert_eq!(v + 12, x.load(Relaxed));

            x.add(13, Relaxed);

            assert_eq!(v + 25, x.load(Relaxed));
        });
    }

    #[test]
    fn atomic_bool_tests() {
        let x = Atomic::new(false);

        assert_eq!(false, x.load(Relaxed));
        x.store(true, Relaxed);
        assert_eq!(true, x.load(Relaxed));

        assert_eq!(true, x.xchg(false, Relaxed));
        assert_eq!(false, x.load(Relaxed));

        assert_eq!(Err(false), x.cmpxchg(true, true, Relaxed));
        assert_eq!(false, x.load(Relaxed));
        assert_eq!(Ok(false), x.cmpxchg(false, true, Full));
    }

    #[test]
    fn atomic_ptr_tests() {
        let mut v = 42;
        let mut u = 43;
        let x = Atomic::new(&raw mut v);

        assert_eq!(x.load(Acquire), &raw mut v);
        assert_eq!(x.cmpxchg(&raw mut u, &raw mut u, Relaxed), Err(&raw mut v));
        assert_eq!(x.cmpxchg(&raw mut v, &raw mut u, Relaxed), Ok(&raw mut v));
        assert_eq!(x.load(Relaxed), &raw mut u);

        let x = Atomic::new(&raw const v);

        assert_eq!(x.load(Acquire), &raw const v);
        assert_eq!(
            x.cmpxchg(&raw const u, &raw const u, Relaxed),
            Err(&raw const v)
        );
        assert_eq!(
            x.cmpxchg(&raw const v, &raw const u, Relaxed),
            Ok(&raw const v)
        );
        assert_eq!(x.load(Relaxed), &raw const u);
    }

    #[test]
    fn atomic_flag_tests() {
        let mut flag = AtomicFlag::new(false);

        assert_eq!(false, flag.load(Relaxed));

        *flag.get_mut() = true;
        assert_eq!(true, flag.load(Relaxed));

        assert_eq!(true, flag.xchg(false, Relaxed));
        assert_eq!(false, flag.load(Relaxed));

        *flag.get_mut() = true;
        assert_eq!(Ok(true), flag.cmpxchg(true, false, Full));
        assert_eq!(false, flag.load(Relaxed));
    }
}
