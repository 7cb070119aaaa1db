// SPDX-License-Identifier: GPL-2.0

//! 64-bit division that builds on every architecture. On a 32-bit one Rust's `/` and `%` on
//! `u64` and `i64` call `__aeabi_uldivmod`/`__aeabi_ldivmod` (or `__udivdi3`), which the kernel
//! does not export (its `rust/compiler_builtins.rs` makes them panic): C divides with
//! `div64_u64()` and `div64_s64()` there (include/linux/math64.h, lib/math/div64.c), and so do
//! these. A 64-bit architecture divides with its instruction, as C's inline versions do.

#[cfg(not(CONFIG_64BIT))]
use kernel::bindings;

/// `dividend / divisor`, rounded towards zero; a zero divisor counts as one, so that no division
/// by zero (and no panic path) exists.
#[allow(dead_code)] // Not every module divides unsigned values.
#[inline]
pub(crate) fn div_u64(dividend: u64, divisor: u64) -> u64 {
    let divisor = divisor.max(1);
    #[cfg(CONFIG_64BIT)]
    return dividend / divisor;
    #[cfg(not(CONFIG_64BIT))]
    // SAFETY: `div64_u64()` only computes; `divisor` is not zero.
    return unsafe { bindings::div64_u64(dividend, divisor) };
}

/// `dividend % divisor`, for a divisor that is not zero (as in [`div_u64`], zero counts as one).
#[allow(dead_code)] // Not every module divides unsigned values.
#[inline]
pub(crate) fn rem_u64(dividend: u64, divisor: u64) -> u64 {
    dividend - div_u64(dividend, divisor) * divisor.max(1)
}

/// `dividend / divisor`, rounded towards zero; a zero divisor counts as one (as in [`div_u64`]).
#[allow(dead_code)] // Not every module divides signed values.
#[inline]
pub(crate) fn div_s64(dividend: i64, divisor: i64) -> i64 {
    let divisor = if divisor == 0 { 1 } else { divisor };
    #[cfg(CONFIG_64BIT)]
    return dividend.wrapping_div(divisor);
    #[cfg(not(CONFIG_64BIT))]
    // SAFETY: `div64_s64()` only computes; `divisor` is not zero.
    return unsafe { bindings::div64_s64(dividend, divisor) };
}

/// A 64-bit integer to print with `{}`, as [`dec_i64`] or [`dec_u64`] make it. Core's formatting
/// of `i64` and `u64` divides 64-bit values, which on a 32-bit architecture calls
/// `__aeabi_uldivmod`, the kernel's panicking stub (rust/compiler_builtins.rs): printing one
/// there stops the kernel with "Oops - undefined instruction" (Linux 7.2 on ARMv7). This prints
/// the decimal digits through [`div_u64`], in pieces of at most nine digits, which are `u32`s.
/// Width, fill and alignment apply as to an integer.
#[derive(Clone, Copy)]
pub(crate) struct Dec {
    negative: bool,
    magnitude: u64,
}

/// `v` for `{}` (see [`Dec`]).
#[allow(dead_code)] // Not every module prints signed values.
#[inline]
pub(crate) fn dec_i64(v: i64) -> Dec {
    Dec {
        negative: v < 0,
        magnitude: v.unsigned_abs(),
    }
}

/// `v` for `{}` (see [`Dec`]).
#[allow(dead_code)] // Not every module prints unsigned values.
#[inline]
pub(crate) fn dec_u64(v: u64) -> Dec {
    Dec {
        negative: false,
        magnitude: v,
    }
}

impl core::fmt::Display for Dec {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        const E9: u64 = 1_000_000_000;
        // The digits, last first, nine from each `u32` piece but the first.
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        let mut rest = self.magnitude;
        loop {
            let quotient = div_u64(rest, E9);
            let mut piece = (rest - quotient * E9) as u32;
            rest = quotient;
            for _ in 0..9 {
                start -= 1;
                digits[start] = b'0' + (piece % 10) as u8;
                piece /= 10;
                if rest == 0 && piece == 0 {
                    break;
                }
            }
            if rest == 0 {
                break;
            }
        }
        // SAFETY: `digits[start..]` holds ASCII digits only.
        let text = unsafe { core::str::from_utf8_unchecked(&digits[start..]) };
        f.pad_integral(!self.negative, "", text)
    }
}
