# SPDX-License-Identifier: GPL-2.0
"""Conversions between Rust integer types in generated code: lossless `T::from()` where
clippy wants it, `as` casts otherwise, and to and from the `i64` the differential test passes."""

# Widths of Rust's fixed-width integers.
BITS = {'i8': 8, 'u8': 8, 'i16': 16, 'u16': 16, 'i32': 32, 'u32': 32, 'i64': 64, 'u64': 64}


def cast(expr, src, dst):
    """`expr` of type `src` as a `dst`: `dst::from()` where that is lossless (clippy's
    `cast_lossless`, which Linux 7's kernel warns about), an `as` cast otherwise."""
    if src == dst:
        return expr
    if src == 'bool' and dst in BITS:
        lossless = True
    elif src in BITS and dst in BITS:
        # Wider, and signed if the source is (a wider signed type holds every unsigned value).
        lossless = BITS[dst] > BITS[src] and (src[0] == dst[0] or dst[0] == 'i')
    else:
        lossless = False
    return f'{dst}::from({expr})' if lossless else f'{expr} as {dst}'


def to_i64(expr, value, raw):
    """`expr` of type `value` as C returns it: sign-extended from the C type `raw` (`Long`, C's
    `long`, is as wide as `isize`)."""
    if raw == 'Long':
        raw = 'isize'
    if value == 'i64':
        return expr
    if value == raw or raw == 'i64':
        return cast(expr, value, 'i64')
    return cast(cast(expr, value, raw), raw, 'i64')


def from_i64(slot, value):
    """Argument `slot` (an i64) converted to `value`."""
    return slot if value == 'i64' else f'{slot} as {value}'
