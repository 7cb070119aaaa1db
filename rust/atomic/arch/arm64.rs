// SPDX-License-Identifier: GPL-2.0

//! arm64 primitives.
//!
//! Implementation choices, with the ordering argument:
//! - With the LSE atomics (ARMv8.1), read-modify-write operations
//!   are single instructions, those of C's `arch/arm64/include/asm/atomic_lse.h`: `ldadd`,
//!   `ldclr`, `ldset`, `ldeor`, `swp` and `cas` with suffix `a` (acquire), `l` (release) or
//!   `al` (fully ordered), and `stadd`/`stclr`/`stset`/`steor` for the void operations (Arm
//!   ARM, C6.2 "LDADD", "CAS", ...; the `al` forms are fully ordered by themselves). Which
//!   path runs is decided at boot, as in C: see [`system_uses_lse_atomics`].
//! - Otherwise, read-modify-write operations are load-exclusive/store-exclusive (LL/SC) loops, the
//!   sequences of C's `arch/arm64/include/asm/atomic_ll_sc.h` and `cmpxchg.h`. The ordering is
//!   carried by the exclusive instructions and one barrier, per C's choice for each ordering:
//!   RELAXED `ldxr`/`stxr`; ACQUIRE `ldaxr`/`stxr`; RELEASE `ldxr`/`stlxr`; fully ordered
//!   `ldxr`/`stlxr` followed by `dmb ish` (Arm ARM, B2.3.7 "Load-Acquire, Store-Release" and
//!   B2.3.11 "Memory barriers"). A failed cmpxchg branches past the store and the barrier: it
//!   is a relaxed load, as the LKMM allows.
//! - Whether the kernel has the LSE atomics: Linux 6.12 has them with `CONFIG_ARM64_LSE_ATOMICS`
//!   (which needs `CONFIG_AS_HAS_LSE_ATOMICS`); Linux 7 has neither option and always has them
//!   (arch/arm64/include/asm/lse.h). Hence the condition
//!   `any(CONFIG_ARM64_LSE_ATOMICS, not(CONFIG_AS_HAS_LSE_ATOMICS))`: on a 6.12 kernel whose
//!   assembler lacks them both are off and the LSE code is built, but never runs, as the kernel
//!   then never detects the cpucap `ARM64_HAS_LSE_ATOMICS` that selects it.
//! - The load-exclusive and the store-exclusive sit in one `asm!` block: the compiler must not
//!   put a memory access (a spill) between them, which could clear the exclusive monitor on
//!   every iteration and make the loop livelock (Arm ARM, B2.9.5 "Load-Exclusive and
//!   Store-Exclusive instruction usage restrictions").
//! - `prfm pstl1strm` first, as C does, to fetch the line for writing rather than reading.
//! - The constant one of `inc` and `dec` (the `*_one` primitives) is the immediate `#1` of the
//!   LL/SC loop's `add`/`sub`, as C's compiler makes it (constraint `"I"`); the LSE
//!   instructions take registers only, so there it is a `mov`, as in C.
//! - Loads and stores are volatile accesses, as C's `READ_ONCE()`/`WRITE_ONCE()` (aligned
//!   accesses up to 8 bytes are single-copy atomic, Arm ARM B2.2.1); `smp_load_acquire()` is
//!   `ldar`, `smp_store_release()` is `stlr`, as in C's `arch/arm64/include/asm/barrier.h`.
//! - The asm writes no flags (`add`, `sub`, `and`, `orr`, `eor`, `bic`, `cbnz` leave NZCV
//!   alone), so `preserves_flags` holds. No block that accesses memory has `nomem`: each is also
//!   a compiler barrier; the selection branch ([`system_uses_lse_atomics`]) has it, as C's
//!   `asm goto` has no "memory" clobber.
//! - Outputs are `out`, never `lateout`: they are written while the inputs are still needed by
//!   the next iteration, so they must not share a register with an input.

use super::super::primitive::{Exchange, Int, LoadStore, Order, Primitive, Rmw};
use core::arch::asm;

// With LTO, C's `READ_ONCE()` (and so `atomic_read()`) is an RCpc acquire load, `ldapr` or
// `ldar` (arch/arm64/include/asm/rwonce.h:8-69), so that a compiler that sees across
// translation units cannot turn an address dependency into a control dependency. Ours is a
// plain `ldr`: refuse rather than be weaker than C.
#[cfg(CONFIG_LTO)]
compile_error!(
    "kernel::sync::atomic on arm64 does not support CONFIG_LTO: C's READ_ONCE() is then ldapr/ldar \
     (arch/arm64/include/asm/rwonce.h) and this library's is ldr; build without LTO"
);

/// Whether the acquire loads and release stores are volatile accesses: not on arm64, where they
/// are `ldar`/`stlr` in inline assembly, as C's (arch/arm64/include/asm/barrier.h:127-175), of
/// which C tells KASAN explicitly and KCSAN sees nothing; the plain loads and stores are
/// volatile accesses on every architecture (`instrument.rs`).
pub(crate) const ACQUIRE_RELEASE_VOLATILE: bool = false;

/// A compiler barrier, C's `barrier()`: no instruction is emitted.
#[inline(always)]
pub(crate) fn barrier() {
    // SAFETY: An empty `asm!` has no effect but being a compiler barrier.
    unsafe { asm!("", options(nostack, preserves_flags)) };
}

/// Emits `dmb $option`, a data memory barrier over the inner shareable domain.
macro_rules! dmb {
    ($option:literal) => {
        // SAFETY: A barrier instruction has no effect but ordering.
        unsafe { asm!(concat!("dmb ", $option), options(nostack, preserves_flags)) }
    };
}

/// `smp_mb()`: orders all earlier accesses before all later ones.
#[inline(always)]
pub(crate) fn smp_mb() {
    dmb!("ish");
}

/// `smp_rmb()`: orders earlier loads before later loads and stores.
#[inline(always)]
pub(crate) fn smp_rmb() {
    dmb!("ishld");
}

/// `smp_wmb()`: orders earlier stores before later stores.
#[inline(always)]
pub(crate) fn smp_wmb() {
    dmb!("ishst");
}

/// `smp_mb__before_atomic()`: a relaxed read-modify-write orders nothing on arm64, so this is
/// a full barrier (the generic definition C uses on arm64).
#[inline(always)]
// The C name, so that it is found where C uses it.
#[allow(non_snake_case)]
pub(crate) fn smp_mb__before_atomic() {
    smp_mb();
}

/// `smp_mb__after_atomic()`: as [`smp_mb__before_atomic`].
#[inline(always)]
// The C name, so that it is found where C uses it.
#[allow(non_snake_case)]
pub(crate) fn smp_mb__after_atomic() {
    smp_mb();
}

/// `smp_mb__after_spinlock()`: `smp_mb()`, as arm64's C defines it; an acquiring lock is not a
/// full barrier there.
#[inline(always)]
// The C name, so that it is found where C uses it.
#[allow(non_snake_case)]
pub(crate) fn smp_mb__after_spinlock() {
    smp_mb();
}

/// Defines marker `$m` for the primitives on `$t` and implements [`LoadStore`] for it; the
/// acquire/release instructions end in `$sfx` and the registers take template modifier `$w`.
macro_rules! impl_load_store {
    ($($m:ident: $t:ty, $sfx:literal, $w:literal);+) => {$(
        #[doc = concat!("The arm64 primitives on `", stringify!($t), "`.")]
        pub enum $m {}

        // SAFETY: Aligned accesses of at most 8 bytes are single-copy atomic; `ldar`/`stlr`
        // are the acquire/release forms (see the module docs).
        unsafe impl LoadStore for $m {
            type V = $t;

            #[inline(always)]
            unsafe fn read_acquire(p: *const Self::V) -> Self::V {
                let v: Self::V;
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe {
                    asm!(
                        concat!("ldar", $sfx, " {v", $w, "}, [{p}]"),
                        p = in(reg) p,
                        // A load may overwrite its address register, as C's `"=r"` allows.
                        v = lateout(reg) v,
                        options(nostack, preserves_flags),
                    )
                };
                v
            }

            #[inline(always)]
            unsafe fn set_release(p: *mut Self::V, v: Self::V) {
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe {
                    asm!(
                        concat!("stlr", $sfx, " {v", $w, "}, [{p}]"),
                        p = in(reg) p,
                        v = in(reg) v,
                        options(nostack, preserves_flags),
                    )
                };
            }
        }
    )+};
}

impl_load_store!(I8: i8, "b", ":w"; I16: i16, "h", ":w"; I32: i32, "", ":w"; I64: i64, "", "");

/// The `.altinstructions` entry of C's `ALTINSTR_ENTRY()`
/// (arch/arm64/include/asm/alternative-macros.h): the original instructions between local labels
/// 661 and 662, their replacement between 663 and 664 (in `.subsection 1`), and the cpucap of the
/// `asm!` operand `cpucap`; the module loader, and the kernel at boot, apply it.
macro_rules! altinstr_entry {
    () => {
        concat!(
            ".pushsection .altinstructions, \"a\"\n",
            ".word 661b - .\n",
            ".word 663f - .\n",
            ".hword {cpucap}\n",
            ".byte 662b - 661b\n",
            ".byte 664f - 663f\n",
            ".popsection"
        )
    };
}

/// Expands `$m!($($args)*, LDX, STX, MB)` with the exclusives and barrier of `$order`.
macro_rules! by_order {
    ($order:expr, $m:ident!($($args:tt)*)) => {
        match $order {
            Order::Relaxed => $m!($($args)*, "ldxr", "stxr", ""),
            Order::Acquire => $m!($($args)*, "ldaxr", "stxr", ""),
            Order::Release => $m!($($args)*, "ldxr", "stlxr", ""),
            Order::Full => $m!($($args)*, "ldxr", "stlxr", "dmb ish"),
        }
    };
}

/// Expands `$m!($($args)*, INSN)` with the data-processing instruction of `$op`.
macro_rules! by_rmw {
    ($op:expr, $m:ident!($($args:tt)*)) => {
        match $op {
            Rmw::Add => $m!($($args)*, "add"),
            Rmw::Sub => $m!($($args)*, "sub"),
            Rmw::And => $m!($($args)*, "and"),
            Rmw::Or => $m!($($args)*, "orr"),
            Rmw::Xor => $m!($($args)*, "eor"),
            Rmw::AndNot => $m!($($args)*, "bic"),
        }
    };
}

/// The LL/SC loop `old = *p; new = old INSN v; *p = new`, retried until the store-exclusive
/// succeeds; evaluates to `(old, new)`. The operand `v` is `(reg $v)`, a register holding
/// `$v`, or `one`, the immediate `#1` in the instruction: C's LL/SC `add` takes a constant as
/// an immediate (constraint `"I"`), and `asm!` has no immediate-or-register operand.
macro_rules! ll_sc_rmw {
    (
        @asm $t:ty, $w:literal, $p:expr, [$($v_text:literal),+], [$($v_operand:tt)+],
        $insn:literal, $ldx:literal, $stx:literal, $mb:literal
    ) => {{
        let (old, new): ($t, $t);
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                "prfm pstl1strm, [{p}]",
                concat!("1: ", $ldx, " {old", $w, "}, [{p}]"),
                concat!($insn, " {new", $w, "}, {old", $w, "}, ", $($v_text),+),
                concat!($stx, " {tmp:w}, {new", $w, "}, [{p}]"),
                "cbnz {tmp:w}, 1b",
                $mb,
                p = in(reg) $p,
                $($v_operand)+,
                old = out(reg) old,
                new = out(reg) new,
                tmp = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        (old, new)
    }};
    ($t:ty, $w:literal, $p:expr, (reg $v:expr), $($rest:tt)*) => {
        ll_sc_rmw!(@asm $t, $w, $p, ["{v", $w, "}"], [v = in(reg) $v], $($rest)*)
    };
    ($t:ty, $w:literal, $p:expr, one, $($rest:tt)*) => {
        ll_sc_rmw!(@asm $t, $w, $p, ["#{v}"], [v = const 1], $($rest)*)
    };
}

/// The LL/SC exchange loop; evaluates to the old value. (With the LSE atomics in the kernel,
/// `xchg_alt!` has this loop as its original instructions.) `$size` is the size suffix of the
/// exclusives (`b` for bytes).
#[cfg(not(any(CONFIG_ARM64_LSE_ATOMICS, not(CONFIG_AS_HAS_LSE_ATOMICS))))]
macro_rules! ll_sc_xchg {
    (
        $t:ty, $w:literal, $size:literal, $p:expr, $new:expr, $ldx:literal, $stx:literal,
        $mb:literal
    ) => {{
        let old: $t;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                "prfm pstl1strm, [{p}]",
                concat!("1: ", $ldx, $size, " {old", $w, "}, [{p}]"),
                concat!($stx, $size, " {tmp:w}, {new", $w, "}, [{p}]"),
                "cbnz {tmp:w}, 1b",
                $mb,
                p = in(reg) $p,
                new = in(reg) $new,
                old = out(reg) old,
                tmp = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        old
    }};
}

/// Exchange as C's `__XCHG_CASE`: the LL/SC loop, which the kernel's alternatives replace in
/// place by `swp` (padded with `nop`s to the same length) on a system with the LSE atomics;
/// evaluates to the old value. `$ldx`, `$stx`, `$mb` are the LL/SC ordering, `$lse` the
/// `swp` ordering suffix, `$nop` the padding for `$mb`.
#[cfg(any(CONFIG_ARM64_LSE_ATOMICS, not(CONFIG_AS_HAS_LSE_ATOMICS)))]
macro_rules! xchg_alt {
    (
        $t:ty, $w:literal, $size:literal, $p:expr, $new:expr, $ldx:literal, $stx:literal,
        $mb:literal, $lse:literal, $nop:literal
    ) => {{
        let old: $t;
        // The alternatives entry replaces the loop by `swp` of the same ordering, on the
        // same integer, with the same registers; `.org` checks that the lengths are equal.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                "661:",
                "prfm pstl1strm, [{p}]",
                concat!("1: ", $ldx, $size, " {old", $w, "}, [{p}]"),
                concat!($stx, $size, " {tmp:w}, {new", $w, "}, [{p}]"),
                "cbnz {tmp:w}, 1b",
                $mb,
                "662:",
                altinstr_entry!(),
                ".subsection 1",
                "663:",
                ".arch_extension lse",
                concat!("swp", $lse, $size, " {new", $w, "}, {old", $w, "}, [{p}]"),
                "nop",
                "nop",
                "nop",
                $nop,
                "664:",
                ".org . - (664b - 663b) + (662b - 661b)",
                ".org . - (662b - 661b) + (664b - 663b)",
                ".previous",
                cpucap = const ::kernel::bindings::ARM64_HAS_LSE_ATOMICS,
                p = in(reg) $p,
                new = in(reg) $new,
                old = out(reg) old,
                tmp = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        old
    }};
}

/// Without the LSE atomics in the kernel (see the module docs), exchange is the LL/SC loop alone.
#[cfg(not(any(CONFIG_ARM64_LSE_ATOMICS, not(CONFIG_AS_HAS_LSE_ATOMICS))))]
macro_rules! xchg_alt {
    (
        $t:ty, $w:literal, $size:literal, $p:expr, $new:expr, $ldx:literal, $stx:literal,
        $mb:literal, $lse:literal, $nop:literal
    ) => {
        ll_sc_xchg!($t, $w, $size, $p, $new, $ldx, $stx, $mb)
    };
}

/// The LL/SC compare-and-exchange of C's `__CMPXCHG_CASE`; evaluates to the value found.
/// On a mismatch it branches past the store and the barrier. `$size` is the size suffix of the
/// exclusives (`b` for bytes); `$narrow` limits the comparison to the loaded size, since the
/// register holding a narrower `old` may have any upper bits (C casts `old` for the same
/// reason).
macro_rules! ll_sc_cmpxchg {
    (
        $t:ty, $w:literal, $size:literal, $narrow:literal, $p:expr, $old:expr, $new:expr,
        $ldx:literal, $stx:literal, $mb:literal
    ) => {{
        let found: $t;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                "prfm pstl1strm, [{p}]",
                concat!("1: ", $ldx, $size, " {found", $w, "}, [{p}]"),
                concat!("eor {tmp", $w, "}, {found", $w, "}, {old", $w, "}"),
                $narrow,
                concat!("cbnz {tmp", $w, "}, 2f"),
                concat!($stx, $size, " {tmp:w}, {new", $w, "}, [{p}]"),
                "cbnz {tmp:w}, 1b",
                $mb,
                "2:",
                p = in(reg) $p,
                old = in(reg) $old,
                new = in(reg) $new,
                found = out(reg) found,
                tmp = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        found
    }};
}

/// Expands `$m!($($args)*, SFX)` with the LSE ordering suffix of `$order`: none, `a`
/// (acquire), `l` (release) or `al` (both: fully ordered, no extra barrier needed).
macro_rules! by_lse_order {
    ($order:expr, $m:ident!($($args:tt)*)) => {
        match $order {
            Order::Relaxed => $m!($($args)*, ""),
            Order::Acquire => $m!($($args)*, "a"),
            Order::Release => $m!($($args)*, "l"),
            Order::Full => $m!($($args)*, "al"),
        }
    };
}

/// The LSE atomic memory operation `ld$insn` (`$insn`: `add`, `clr`, `set` or `eor`) with
/// ordering suffix `$sfx`: stores `*$p <op> $v` and evaluates to the old value.
macro_rules! lse_ld_op {
    ($t:ty, $w:literal, $size:literal, $p:expr, $v:expr, $insn:literal, $sfx:literal) => {{
        let old: $t;
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                ".arch_extension lse",
                concat!("ld", $insn, $sfx, $size, " {v", $w, "}, {old", $w, "}, [{p}]"),
                p = in(reg) $p,
                v = in(reg) $v,
                old = out(reg) old,
                options(nostack, preserves_flags),
            )
        };
        old
    }};
}

/// The LSE atomic store operation `st$insn` (`$insn`: `add`, `clr`, `set` or `eor`): no result,
/// no ordering, as C's void LSE operations.
macro_rules! lse_st_op {
    ($w:literal, $p:expr, $insn:literal, $v:expr) => {
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                ".arch_extension lse",
                concat!("st", $insn, " {v", $w, "}, [{p}]"),
                p = in(reg) $p,
                v = in(reg) $v,
                options(nostack, preserves_flags),
            )
        }
    };
}

/// LSE compare-and-swap `cas` with ordering suffix `$sfx`; evaluates to the value found.
macro_rules! lse_cas {
    ($t:ty, $w:literal, $size:literal, $p:expr, $old:expr, $new:expr, $sfx:literal) => {{
        let mut found: $t = $old;
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                ".arch_extension lse",
                concat!("cas", $sfx, $size, " {found", $w, "}, {new", $w, "}, [{p}]"),
                p = in(reg) $p,
                new = in(reg) $new,
                found = inout(reg) found,
                options(nostack, preserves_flags),
            )
        };
        found
    }};
}

/// Expands `$m!($($args)*, OP, VALUE)` with the LSE operation (`add`, `clr`, `set`, `eor`: the
/// `ld<op>`/`st<op>` instruction) and the operand it takes for `$op` on `$v`, as C's
/// `atomic_lse.h` does: subtraction adds the negation, AND clears the complement.
macro_rules! by_lse_rmw {
    ($op:expr, $v:expr, $m:ident!($($args:tt)*)) => {
        match $op {
            Rmw::Add => $m!($($args)*, "add", $v),
            Rmw::Sub => $m!($($args)*, "add", $v.wrapping_neg()),
            Rmw::And => $m!($($args)*, "clr", !$v),
            Rmw::Or => $m!($($args)*, "set", $v),
            Rmw::Xor => $m!($($args)*, "eor", $v),
            Rmw::AndNot => $m!($($args)*, "clr", $v),
        }
    };
}

/// Whether the system has the LSE atomics (ARMv8.1): C's
/// `alternative_has_cap_likely(ARM64_HAS_LSE_ATOMICS)`, with the same zero-cost selection.
///
/// The code is a branch to the LL/SC path with an `.altinstructions` entry (the layout of C's
/// `ALTINSTR_ENTRY`: two relative words, the cpucap, the two lengths) that replaces it by a
/// `nop` when every CPU has the capability. The kernel applies the entry at boot, and the
/// module loader when the code is in a module, so no operation tests a variable. The cpucap
/// comes from `kernel::bindings`, a path that resolves in the kernel crate too (it is declared
/// `extern crate self as kernel`).
#[cfg(any(CONFIG_ARM64_LSE_ATOMICS, not(CONFIG_AS_HAS_LSE_ATOMICS)))]
#[inline(always)]
pub(crate) fn system_uses_lse_atomics() -> bool {
    // The alternatives entry only ever replaces the branch by a `nop` of the same size.
    // SAFETY: The branch targets the label block, which returns; nothing else is touched.
    unsafe {
        asm!(
            "661: b {ll_sc}",
            "662:",
            altinstr_entry!(),
            ".subsection 1",
            "663: nop",
            "664:",
            ".previous",
            cpucap = const ::kernel::bindings::ARM64_HAS_LSE_ATOMICS,
            ll_sc = label { return false; },
            // Like C's `asm goto` without a "memory" clobber: a branch orders no access.
            options(nomem, nostack, preserves_flags),
        )
    };
    true
}

/// Without the LSE atomics in the kernel (see the module docs), they are never used.
#[cfg(not(any(CONFIG_ARM64_LSE_ATOMICS, not(CONFIG_AS_HAS_LSE_ATOMICS))))]
#[inline(always)]
pub(crate) fn system_uses_lse_atomics() -> bool {
    false
}

/// Implements [`Exchange`] for marker `$m` of type `$t`, whose registers take template
/// modifier `$w`, whose instructions take size suffix `$size`, and whose LL/SC comparison is
/// narrowed by `$narrow` (see `ll_sc_cmpxchg!`): the LSE instruction when the system has it,
/// the LL/SC loop otherwise.
macro_rules! impl_exchange {
    ($m:ident: $t:ty, $w:literal, $size:literal, $narrow:literal) => {
        // SAFETY: Every operation is C's LSE instruction or C's LL/SC loop with C's exclusives
        // and barriers for its ordering (see the module docs).
        unsafe impl Exchange for $m {
            #[inline(always)]
            unsafe fn xchg(p: *mut Self::V, new: Self::V, order: Order) -> Self::V {
                match order {
                    Order::Relaxed => xchg_alt!($t, $w, $size, p, new, "ldxr", "stxr", "", "", ""),
                    Order::Acquire => {
                        xchg_alt!($t, $w, $size, p, new, "ldaxr", "stxr", "", "a", "")
                    }
                    Order::Release => {
                        xchg_alt!($t, $w, $size, p, new, "ldxr", "stlxr", "", "l", "")
                    }
                    Order::Full => {
                        xchg_alt!($t, $w, $size, p, new, "ldxr", "stlxr", "dmb ish", "al", "nop")
                    }
                }
            }

            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                old: Self::V,
                new: Self::V,
                order: Order,
            ) -> Self::V {
                if system_uses_lse_atomics() {
                    by_lse_order!(order, lse_cas!($t, $w, $size, p, old, new))
                } else {
                    by_order!(order, ll_sc_cmpxchg!($t, $w, $size, $narrow, p, old, new))
                }
            }
        }
    };
}

impl_exchange!(I8: i8, ":w", "b", "uxtb {tmp:w}, {tmp:w}");
impl_exchange!(I16: i16, ":w", "h", "uxth {tmp:w}, {tmp:w}");
impl_exchange!(I32: i32, ":w", "", "");
impl_exchange!(I64: i64, "", "", "");

/// The LSE fetch operation for `$op` on `$v` with the ordering of `$order`; evaluates to the
/// old value.
macro_rules! lse_fetch {
    ($t:ty, $w:literal, $p:expr, $op:expr, $v:expr, $order:expr) => {
        by_lse_rmw!($op, $v, lse_fetch_op!($t, $w, $p, $order))
    };
}

/// `lse_ld_op!` of operation `$insn` on `$v` with the ordering suffix of `$order`.
macro_rules! lse_fetch_op {
    ($t:ty, $w:literal, $p:expr, $order:expr, $insn:literal, $v:expr) => {{
        let v = $v;
        by_lse_order!($order, lse_ld_op!($t, $w, "", $p, v, $insn))
    }};
}

/// The read-modify-write methods of [`Primitive`], named `$rmw`, `$fetch` and `$ret`, on
/// marker type `$t` (template modifier `$w`): the LSE instruction when the system has it, the
/// LL/SC loop otherwise. They take the operand as parameters `$($param)*`; `$v` is its value
/// and `$ll_sc_v` its form in the LL/SC loop (see `ll_sc_rmw!`). The LSE instructions have no
/// immediate form: there the operand is always a register, as in C.
macro_rules! rmw_methods {
    (
        $t:ty, $w:literal, $rmw:ident, $fetch:ident, $ret:ident, [$($param:tt)*], $v:expr,
        $ll_sc_v:tt
    ) => {
        #[inline(always)]
        unsafe fn $rmw(p: *mut Self::V, op: Rmw $($param)*) {
            if system_uses_lse_atomics() {
                by_lse_rmw!(op, $v, lse_st_op!($w, p))
            } else {
                by_rmw!(op, ll_sc_rmw_by_order!($t, $w, p, $ll_sc_v, Order::Relaxed));
            }
        }

        #[inline(always)]
        unsafe fn $fetch(p: *mut Self::V, op: Rmw $($param)*, order: Order) -> Self::V {
            if system_uses_lse_atomics() {
                lse_fetch!($t, $w, p, op, $v, order)
            } else {
                by_rmw!(op, ll_sc_rmw_by_order!($t, $w, p, $ll_sc_v, order)).0
            }
        }

        #[inline(always)]
        unsafe fn $ret(p: *mut Self::V, op: Rmw $($param)*, order: Order) -> Self::V {
            // One selection branch, as C's `__lse_ll_sc_body()`: not `$fetch`, which would add
            // its own.
            if system_uses_lse_atomics() {
                // C's 32-bit `__lse_atomic_sub_return##name()` calls the fully ordered
                // `__lse_atomic_fetch_sub()` whatever `name` is (6.12's
                // arch/arm64/include/asm/atomic_lse.h:88-91; the 64-bit one, 195-198, keeps
                // `name`): `atomic_{sub,dec}_return_{relaxed,acquire,release}()` are `ldaddal`.
                // Stronger than the LKMM asks, and what C gets: the same here.
                let c_sub_return_full = op == Rmw::Sub && core::mem::size_of::<Self::V>() == 4;
                let order = if c_sub_return_full { Order::Full } else { order };
                <Self::V as Int>::apply(op, lse_fetch!($t, $w, p, op, $v, order), $v)
            } else {
                by_rmw!(op, ll_sc_rmw_by_order!($t, $w, p, $ll_sc_v, order)).1
            }
        }
    };
}

/// Implements [`Primitive`] for marker `$m` of type `$t`, whose registers take template
/// modifier `$w`: the read-modify-write methods on a register operand, and their `*_one`
/// forms on the immediate one (`inc`, `dec` and their variants), from one definition.
macro_rules! impl_primitive {
    ($m:ident: $t:ty, $w:literal $(, $extra:item)*) => {
        // SAFETY: Every operation is C's LSE instruction or C's LL/SC loop with C's exclusives
        // and barriers for its ordering (see the module docs).
        unsafe impl Primitive for $m {
            rmw_methods!($t, $w, rmw, fetch_rmw, rmw_return, [, v: Self::V], v, (reg v));
            rmw_methods!(
                $t, $w, rmw_one, fetch_rmw_one, rmw_return_one, [], <Self::V as Int>::ONE, one
            );

            $($extra)*
        }
    };
}

/// `ll_sc_rmw!` with the exclusives of `$order`, for one instruction `$insn` (last argument,
/// as `by_rmw!` appends it).
macro_rules! ll_sc_rmw_by_order {
    ($t:ty, $w:literal, $p:expr, $v:tt, $order:expr, $insn:literal) => {
        by_order!($order, ll_sc_rmw!($t, $w, $p, $v, $insn))
    };
}

impl_primitive!(I32: i32, ":w");
impl_primitive!(
    I64: i64,
    "",
    /// C's arm64 `atomic64_dec_if_positive()`, its own sequences (`atomic_lse.h`,
    /// `atomic_ll_sc.h`): `subs` and `b.lt` see the overflow of `i64::MIN - 1`, so it does not
    /// store when the value is not positive; returns the value minus one either way. Fully
    /// ordered when it stores (`casal`; `stlxr` and `dmb ish`).
    #[inline(always)]
    unsafe fn dec_if_positive(p: *mut Self::V) -> Self::V {
        let ret: i64;
        if system_uses_lse_atomics() {
            // The loop accesses exactly the integer at `p`.
            // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
            unsafe {
                asm!(
                    ".arch_extension lse",
                    "1: ldr {tmp}, [{p}]",
                    "subs {ret}, {tmp}, #1",
                    "b.lt 2f",
                    "casal {tmp}, {ret}, [{p}]",
                    "sub {tmp}, {tmp}, #1",
                    "sub {tmp}, {tmp}, {ret}",
                    "cbnz {tmp}, 1b",
                    "2:",
                    p = in(reg) p,
                    ret = out(reg) ret,
                    tmp = out(reg) _,
                    options(nostack),
                )
            };
        } else {
            // The loop accesses exactly the integer at `p`.
            // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
            unsafe {
                asm!(
                    "prfm pstl1strm, [{p}]",
                    "1: ldxr {ret}, [{p}]",
                    "subs {ret}, {ret}, #1",
                    "b.lt 2f",
                    "stlxr {tmp:w}, {ret}, [{p}]",
                    "cbnz {tmp:w}, 1b",
                    "dmb ish",
                    "2:",
                    p = in(reg) p,
                    ret = out(reg) ret,
                    tmp = out(reg) _,
                    options(nostack),
                )
            };
        }
        ret
    }
);

/// Which implementation the read-modify-write operations run, for reports.
pub(crate) fn implementation() -> &'static str {
    if system_uses_lse_atomics() {
        "arm64 LSE atomics (ARMv8.1), selected at boot by alternatives"
    } else {
        "arm64 LL/SC loops (ldxr/stxr), selected at boot by alternatives"
    }
}
