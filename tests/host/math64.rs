// SPDX-License-Identifier: GPL-2.0

//! Host test of `samples/common/math64.rs` as a 64-bit kernel builds it: its decimal printing
//! (`Dec`, which 32-bit kernels need: core's `{}` of an `i64` oopses there) prints what core
//! prints, width and fill included, for values whose nine-digit pieces have leading zeros
//! (what a piece printed without its padding would get wrong), the extremes and zero; and the
//! divisions agree with Rust's, a zero divisor counting as one.

#[path = "../../samples/common/math64.rs"]
mod math64;

use math64::{dec_i64, dec_u64, div_s64, div_u64, rem_u64};

const SIGNED: &[i64] = &[
    0,
    1,
    -1,
    9,
    10,
    -10,
    999_999_999,
    1_000_000_000,
    1_000_000_001,
    -1_000_000_001,
    1_000_000_000_000_000_007,
    123_000_000_456_000_000,
    i64::MAX,
    i64::MIN,
    i64::MIN + 1,
];

#[test]
fn dec_prints_as_core_prints() {
    for &v in SIGNED {
        assert_eq!(format!("{}", dec_i64(v)), format!("{v}"));
        assert_eq!(format!("{:<24}|", dec_i64(v)), format!("{v:<24}|"));
        assert_eq!(format!("{:>24}|", dec_i64(v)), format!("{v:>24}|"));
        assert_eq!(format!("{:024}", dec_i64(v)), format!("{v:024}"));
        let u = v as u64;
        assert_eq!(format!("{}", dec_u64(u)), format!("{u}"));
        assert_eq!(format!("{:<8}", dec_u64(u)), format!("{u:<8}"));
    }
    assert_eq!(format!("{}", dec_u64(u64::MAX)), "18446744073709551615");
}

#[test]
fn divisions_agree_with_rust() {
    for &a in SIGNED {
        for &b in SIGNED {
            let divisor = if b == 0 { 1 } else { b };
            assert_eq!(div_s64(a, b), a.wrapping_div(divisor));
            let (ua, ub) = (a as u64, b as u64);
            assert_eq!(div_u64(ua, ub), ua / ub.max(1));
            assert_eq!(rem_u64(ua, ub), ua % ub.max(1));
        }
    }
}
