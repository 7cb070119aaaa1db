// SPDX-License-Identifier: GPL-2.0

//! arm64 primitives.
//!
//! Implementation choices, with the ordering argument. C's files are under
//! `arch/arm64/include/asm/`; line numbers are Linux 6.12's.
//! - With the LSE atomics (ARMv8.1), read-modify-write operations are single instructions,
//!   those of C's `atomic_lse.h`: `ldadd`, `ldclr`, `ldset`, `ldeor`, `swp` and `cas` with
//!   suffix `a` (acquire), `l` (release) or `al` (fully ordered), and `stadd`/`stclr`/`stset`/
//!   `steor` for the void operations (Arm ARM, C6.2 "LDADD", "CAS", ...; the `al` forms are fully
//!   ordered by themselves). Which path runs is decided at boot, as in C: see
//!   [`system_uses_lse_atomics`]. Exchange is C's `__XCHG_CASE()` (cmpxchg.h:21-60): the LL/SC
//!   loop, which the kernel's alternatives replace in place by `swp` padded with `nop`s.
//! - Otherwise, read-modify-write operations are load-exclusive/store-exclusive (LL/SC) loops,
//!   the sequences of C's `atomic_ll_sc.h` and `cmpxchg.h`. The ordering is carried by the
//!   exclusive instructions and one barrier, per C's choice for each ordering: RELAXED
//!   `ldxr`/`stxr`; ACQUIRE `ldaxr`/`stxr`; RELEASE `ldxr`/`stlxr`; fully ordered `ldxr`/`stlxr`
//!   followed by `dmb ish` (Arm ARM, B2.3.7 "Load-Acquire, Store-Release" and B2.3.11 "Memory
//!   barriers"). A failed cmpxchg branches past the store and the barrier: it is a relaxed
//!   load, as the LKMM allows.
//! - The orderings are one table, `by_order!`, shared by every sequence (LL/SC, LSE and
//!   exchange's alternative): one row per ordering, whose columns are C's `mb`, `acq` and
//!   `rel` (the barrier after the loop, the `a` of `ldaxr`, the `l` of `stlxr`;
//!   atomic_ll_sc.h:86-93, 278-293), C's LSE `mb`, here `mb_lse` (the instruction's suffix;
//!   atomic_lse.h:54-57, 265-280), and C's `nop_lse` (the `nop` that stands for `dmb ish` in
//!   exchange's LSE alternative; cmpxchg.h:45-60). Each sequence is one macro taking a row's
//!   columns, written once as C's is. The operations are one table too, `by_rmw!`: for each,
//!   the instruction of the LL/SC loop and the LSE operation with its operand
//!   (atomic_ll_sc.h:95-114; atomic_lse.h:24-116). C's `cl` column (`"memory"` on every row
//!   but the relaxed ones) has no counterpart: `asm!` has no memory operand like C's `"+Q"`, so
//!   every block that accesses memory must be a compiler barrier (no `nomem`), the relaxed ones
//!   too, which at most costs the compiler a value it could have kept in a register.
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
//! - With LTO (`CONFIG_LTO`), C's `READ_ONCE()`, and so `atomic_read()` and every relaxed load
//!   of C's atomics, is an RCpc acquire load: `ldar`, which an alternative replaces by `ldapr` on
//!   a system with `ARM64_HAS_LDAPR` (arch/arm64/include/asm/rwonce.h:14-19, 46-69), because a
//!   compiler that sees across translation units may turn an address dependency headed by a
//!   `READ_ONCE()` into a control dependency, which does not order a later load. Our relaxed
//!   loads are the same instructions with the same `.altinstructions` entry (`LoadStore::read`
//!   below): what `rcu_dereference()` (`rcu.rs`) and every reader of a dependency rests on.
//! - The asm writes no flags (`add`, `sub`, `and`, `orr`, `eor`, `bic`, `cbnz` leave NZCV
//!   alone), so `preserves_flags` holds, but in `dec_if_positive`, whose `subs` writes them. No
//!   block that accesses memory has `nomem`: each is also a compiler barrier; the selection
//!   branch ([`system_uses_lse_atomics`]) has it, as C's `asm goto` has no "memory" clobber.
//! - Outputs are `out`, never `lateout`: they are written while the inputs are still needed by
//!   the next iteration, so they must not share a register with an input.
//!
//! The sequences, with `<op>` the LSE operation (`ld<op>` with a result, `st<op>` without) and
//! the size suffixes left out:
//!
//! | sequence | RELAXED | ACQUIRE | RELEASE | fully ordered |
//! |---|---|---|---|---|
//! | LL/SC loop | `ldxr; stxr` | `ldaxr; stxr` | `ldxr; stlxr` | `ldxr; stlxr; dmb ish` |
//! | LSE | `ld<op>`, `cas` | `ld<op>a`, `casa` | `ld<op>l`, `casl` | `ld<op>al`, `casal` |
//! | exchange's alternative | `swp; nop x3` | `swpa; nop x3` | `swpl; nop x3` | `swpal; nop x4` |
//!
//! The LL/SC loops are the fetch and return operations, cmpxchg and exchange; each branches back
//! from `cbnz` after a failed store-exclusive, and cmpxchg's branches forward past the store and
//! the barrier when it does not store. The void operations are the relaxed LL/SC loop (C's
//! `ATOMIC_OP()`) or `st<op>`, unordered. `dec_if_positive` is C's own sequence (64-bit only),
//! fully ordered when it stores: `ldxr; subs; b.lt; stlxr; dmb ish`, or `casal` in an `ldr`
//! loop. The 32-bit LSE `sub_return` is `ldaddal` in every ordering, as C's (`rmw_methods!`).

use super::super::primitive::{Exchange, Int, LoadStore, Order, Primitive, Rmw};
use super::Contract;
use core::arch::asm;

/// Emits `dmb $option`, a data memory barrier over the inner shareable domain.
macro_rules! dmb {
    ($option:literal) => {
        // SAFETY: A barrier instruction has no effect but ordering.
        unsafe { asm!(concat!("dmb ", $option), options(nostack, preserves_flags)) }
    };
}

/// The arm64 architecture: the items of [`Contract`].
pub enum Arch {}

// SAFETY: Every primitive is C's LSE instruction or C's LL/SC loop with C's exclusives and
// barriers for its ordering (see the module docs), and each barrier is C's
// (arch/arm64/include/asm/barrier.h:123-125, spinlock.h:12).
unsafe impl Contract for Arch {
    type I8 = I8;
    type I16 = I16;
    type I32 = I32;
    type I64 = I64;

    /// Not volatile accesses on arm64: the acquire loads and release stores are `ldar`/`stlr`
    /// in inline assembly, as C's (arch/arm64/include/asm/barrier.h:127-175), of which C tells
    /// KASAN explicitly and KCSAN sees nothing.
    const ACQUIRE_RELEASE_VOLATILE: bool = false;

    /// `dmb ish`: orders all earlier accesses before all later ones.
    #[inline(always)]
    fn smp_mb() {
        dmb!("ish");
    }

    /// `dmb ishld`: orders earlier loads before later loads and stores.
    #[inline(always)]
    fn smp_rmb() {
        dmb!("ishld");
    }

    /// `dmb ishst`: orders earlier stores before later stores.
    #[inline(always)]
    fn smp_wmb() {
        dmb!("ishst");
    }

    /// `smp_mb()`, as arm64's C defines it (arch/arm64/include/asm/spinlock.h:12); an acquiring
    /// lock is not a full barrier there. (`smp_mb__before_atomic()` and
    /// `smp_mb__after_atomic()` are the generic `smp_mb()`: a relaxed read-modify-write orders
    /// nothing on arm64.)
    #[inline(always)]
    fn smp_mb__after_spinlock() {
        Self::smp_mb();
    }

    fn implementation() -> &'static str {
        if system_uses_lse_atomics() {
            "arm64 LSE atomics (ARMv8.1), selected at boot by alternatives"
        } else {
            "arm64 LL/SC loops (ldxr/stxr), selected at boot by alternatives"
        }
    }
}

/// The `.altinstructions` entry of C's `ALTINSTR_ENTRY()`
/// (arch/arm64/include/asm/alternative-macros.h): the original instructions between local labels
/// 661 and 662, their replacement between 663 and 664 (in `.subsection 1`), and the cpucap of the
/// `asm!` operand `cpucap`; the module loader, and the kernel at boot, apply it. With the LSE
/// atomics in the kernel (see the module docs), and with LTO (`ldapr`).
#[cfg(any(CONFIG_ARM64_LSE_ATOMICS, not(CONFIG_AS_HAS_LSE_ATOMICS), CONFIG_LTO))]
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

/// Defines marker `$m` for the primitives on `$t` and implements [`LoadStore`] for it; the
/// acquire/release instructions end in `$sfx` and the registers take template modifier `$w`.
macro_rules! impl_load_store {
    ($($m:ident: $t:ty, $sfx:literal, $w:literal);+) => {$(
        #[doc = concat!("The arm64 primitives on `", stringify!($t), "`.")]
        pub enum $m {}

        // SAFETY: Aligned accesses of at most 8 bytes are single-copy atomic; `ldar`/`stlr`
        // are the acquire/release forms, and with LTO the relaxed load is `ldar` or `ldapr`,
        // at least as ordered (see the module docs).
        unsafe impl LoadStore for $m {
            type V = $t;

            /// With LTO: C's `READ_ONCE()` of arch/arm64/include/asm/rwonce.h:14-19 and 46-69,
            /// `ldar`, replaced by `ldapr` (RCpc) through an `.altinstructions` entry on a
            /// system with `ARM64_HAS_LDAPR`; the module loader applies it, as the kernel does.
            #[cfg(CONFIG_LTO)]
            #[inline(always)]
            unsafe fn read(p: *const Self::V) -> Self::V {
                let v: Self::V;
                // `.org` checks that the two instructions have one length.
                // SAFETY: The caller guarantees that `p` is valid and aligned.
                unsafe {
                    asm!(
                        "661:",
                        concat!("ldar", $sfx, " {val", $w, "}, [{p}]"),
                        "662:",
                        altinstr_entry!(),
                        ".subsection 1",
                        "663:",
                        ".arch_extension rcpc",
                        concat!("ldapr", $sfx, " {val", $w, "}, [{p}]"),
                        "664:",
                        ".org . - (664b - 663b) + (662b - 661b)",
                        ".org . - (662b - 661b) + (664b - 663b)",
                        ".previous",
                        cpucap = const ::kernel::bindings::ARM64_HAS_LDAPR,
                        p = in(reg) p,
                        // A load may overwrite its address register, as C's `"=r"` allows.
                        val = lateout(reg) v,
                        options(nostack, preserves_flags),
                    )
                };
                v
            }

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

/// The ordering table: expands `$m!($($args)*, MB, ACQ, REL, MB_LSE, NOP_LSE)` with the
/// columns of `$order`'s row, for every sequence (see the module docs). `MB`, `ACQ` and `REL`
/// are the columns of C's LL/SC rows, in C's order: the barrier after a loop that stored, and
/// the infixes of the load-exclusive `ld<ACQ>xr` and the store-exclusive `st<REL>xr`
/// (atomic_ll_sc.h:86-93 and 182-189, `ATOMIC_OPS()`; 278-293, `__CMPXCHG_CASE()`).
/// `MB_LSE` is the suffix of the LSE instruction, the column C's atomic_lse.h calls `mb`
/// (atomic_lse.h:54-57 and 161-164, `ATOMIC_FETCH_OPS()`; 265-280, `__CMPXCHG_CASE()`).
/// `NOP_LSE` pads `xchg`'s LSE alternative where its LL/SC loop has `MB`: cmpxchg.h:45-60,
/// `__XCHG_CASE()`, whose rows have `MB`, `NOP_LSE`, `ACQ` and `REL` as here, and `MB_LSE`
/// spelt `acq_lse rel`. C's `cl` column has no counterpart (see the module docs).
macro_rules! by_order {
    ($order:expr, $m:ident!($($args:tt)*)) => {
        match $order {
            Order::Relaxed => $m!($($args)*, "", "", "", "", ""),
            Order::Acquire => $m!($($args)*, "", "a", "", "a", ""),
            Order::Release => $m!($($args)*, "", "", "l", "l", ""),
            Order::Full => $m!($($args)*, "dmb ish", "", "l", "al", "nop"),
        }
    };
}

/// The operation table: expands `$m!($($args)*, ASM_OP, OP_LSE, V_LSE)` with the columns of
/// `$op`'s row: the instruction of the LL/SC loop, C's `asm_op` (atomic_ll_sc.h:95-114 and
/// 191-210, `ATOMIC_OPS()`); the LSE operation, the `<op>` of `ld<op>`/`st<op>`, and the
/// operand it takes for `$v`, as C's atomic_lse.h derives them: subtraction adds the negation
/// (29-32, 67-77; 136-139, 174-184), AND clears the complement (101-116; 208-223), the others
/// are instructions of their own (24-27, 59-62; 131-134, 166-169). Further arguments (the
/// ordering columns, when `by_order!` expands this) follow `V_LSE`.
macro_rules! by_rmw {
    ($op:expr, $v:expr, $m:ident!($($args:tt)*) $(, $($rest:tt)*)?) => {
        match $op {
            Rmw::Add => $m!($($args)*, "add", "add", $v $(, $($rest)*)?),
            Rmw::Sub => $m!($($args)*, "sub", "add", $v.wrapping_neg() $(, $($rest)*)?),
            Rmw::And => $m!($($args)*, "and", "clr", !$v $(, $($rest)*)?),
            Rmw::Or => $m!($($args)*, "orr", "set", $v $(, $($rest)*)?),
            Rmw::Xor => $m!($($args)*, "eor", "eor", $v $(, $($rest)*)?),
            Rmw::AndNot => $m!($($args)*, "bic", "clr", $v $(, $($rest)*)?),
        }
    };
}

/// C's LL/SC loop of `ATOMIC_FETCH_OP()` and `ATOMIC_OP_RETURN()` (atomic_ll_sc.h:42-82,
/// 138-178) with the columns of a `by_rmw!` row and of a `by_order!` row: `old = *p; new = old
/// ASM_OP v; *p = new`, retried until the store-exclusive succeeds; evaluates to `(old, new)`.
/// The operand `v` is `(reg $v)`, a register holding `$v`, or `one`, the immediate `#1` in the
/// instruction: C's LL/SC `add` takes a constant as an immediate (constraint `"I"`), and `asm!`
/// has no immediate-or-register operand.
macro_rules! ll_sc_rmw {
    (
        @asm $t:ty, $w:literal, $p:expr, [$($v_text:literal),+], [$($v_operand:tt)+],
        $asm_op:literal, $op_lse:literal, $v_lse:expr,
        $mb:literal, $acq:literal, $rel:literal, $mb_lse:literal, $nop_lse:literal
    ) => {{
        let (old, new): ($t, $t);
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                "prfm pstl1strm, [{p}]",
                concat!("1: ld", $acq, "xr {old", $w, "}, [{p}]"),
                concat!($asm_op, " {new", $w, "}, {old", $w, "}, ", $($v_text),+),
                concat!("st", $rel, "xr {tmp:w}, {new", $w, "}, [{p}]"),
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

/// Exchange as C's `__XCHG_CASE()` (cmpxchg.h:21-43) with the columns of a `by_order!` row:
/// the LL/SC loop, which the kernel's alternatives replace in place by `swp` (padded with
/// `nop`s to the same length) on a system with the LSE atomics; evaluates to the old value.
/// `$size` is the size suffix of the instructions (`b` for bytes).
#[cfg(any(CONFIG_ARM64_LSE_ATOMICS, not(CONFIG_AS_HAS_LSE_ATOMICS)))]
macro_rules! xchg_alt {
    (
        $t:ty, $w:literal, $size:literal, $p:expr, $new:expr,
        $mb:literal, $acq:literal, $rel:literal, $mb_lse:literal, $nop_lse:literal
    ) => {{
        let old: $t;
        // The alternatives entry replaces the loop by `swp` of the same ordering, on the
        // same integer, with the same registers; `.org` checks that the lengths are equal.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                "661:",
                "prfm pstl1strm, [{p}]",
                concat!("1: ld", $acq, "xr", $size, " {old", $w, "}, [{p}]"),
                concat!("st", $rel, "xr", $size, " {tmp:w}, {new", $w, "}, [{p}]"),
                "cbnz {tmp:w}, 1b",
                $mb,
                "662:",
                altinstr_entry!(),
                ".subsection 1",
                "663:",
                ".arch_extension lse",
                concat!("swp", $mb_lse, $size, " {new", $w, "}, {old", $w, "}, [{p}]"),
                "nop",
                "nop",
                "nop",
                $nop_lse,
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

/// Without the LSE atomics in the kernel (see the module docs), exchange is `__XCHG_CASE()`'s
/// LL/SC loop alone, with the columns of a `by_order!` row; evaluates to the old value.
#[cfg(not(any(CONFIG_ARM64_LSE_ATOMICS, not(CONFIG_AS_HAS_LSE_ATOMICS))))]
macro_rules! xchg_alt {
    (
        $t:ty, $w:literal, $size:literal, $p:expr, $new:expr,
        $mb:literal, $acq:literal, $rel:literal, $mb_lse:literal, $nop_lse:literal
    ) => {{
        let old: $t;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                "prfm pstl1strm, [{p}]",
                concat!("1: ld", $acq, "xr", $size, " {old", $w, "}, [{p}]"),
                concat!("st", $rel, "xr", $size, " {tmp:w}, {new", $w, "}, [{p}]"),
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

/// The LL/SC compare-and-exchange of C's `__CMPXCHG_CASE()` (atomic_ll_sc.h:239-271) with the
/// columns of a `by_order!` row; evaluates to the value found. On a mismatch it branches past
/// the store and the barrier. `$size` is the size suffix of the exclusives (`b` for bytes);
/// `$narrow` limits the comparison to the loaded size, since the register holding a narrower
/// `old` may have any upper bits (C casts `old` for the same reason).
macro_rules! ll_sc_cmpxchg {
    (
        $t:ty, $w:literal, $size:literal, $narrow:literal, $p:expr, $old:expr, $new:expr,
        $mb:literal, $acq:literal, $rel:literal, $mb_lse:literal, $nop_lse:literal
    ) => {{
        let found: $t;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                "prfm pstl1strm, [{p}]",
                concat!("1: ld", $acq, "xr", $size, " {found", $w, "}, [{p}]"),
                concat!("eor {tmp", $w, "}, {found", $w, "}, {old", $w, "}"),
                $narrow,
                concat!("cbnz {tmp", $w, "}, 2f"),
                concat!("st", $rel, "xr", $size, " {tmp:w}, {new", $w, "}, [{p}]"),
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

/// The LSE atomic memory operation `ld<OP_LSE>` of C's `ATOMIC_FETCH_OP()`
/// (atomic_lse.h:36-51, 143-158) with the columns of a `by_rmw!` row and of a `by_order!` row:
/// stores `*$p <op> V_LSE` and evaluates to the old value.
macro_rules! lse_ld_op {
    (
        $t:ty, $w:literal, $p:expr, $asm_op:literal, $op_lse:literal, $v_lse:expr,
        $mb:literal, $acq:literal, $rel:literal, $mb_lse:literal, $nop_lse:literal
    ) => {{
        let old: $t;
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                ".arch_extension lse",
                concat!("ld", $op_lse, $mb_lse, " {v", $w, "}, {old", $w, "}, [{p}]"),
                p = in(reg) $p,
                v = in(reg) $v_lse,
                old = out(reg) old,
                options(nostack, preserves_flags),
            )
        };
        old
    }};
}

/// The LSE atomic store operation `st<OP_LSE>` of C's `ATOMIC_OP()` (atomic_lse.h:13-22,
/// 120-129) with the columns of a `by_rmw!` row: no result, no ordering, as C's void LSE
/// operations.
macro_rules! lse_st_op {
    ($w:literal, $p:expr, $asm_op:literal, $op_lse:literal, $v_lse:expr) => {
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                ".arch_extension lse",
                concat!("st", $op_lse, " {v", $w, "}, [{p}]"),
                p = in(reg) $p,
                v = in(reg) $v_lse,
                options(nostack, preserves_flags),
            )
        }
    };
}

/// The LSE compare-and-swap `cas` of C's `__CMPXCHG_CASE()` (atomic_lse.h:248-263) with the
/// columns of a `by_order!` row; evaluates to the value found.
macro_rules! lse_cas {
    (
        $t:ty, $w:literal, $size:literal, $p:expr, $old:expr, $new:expr,
        $mb:literal, $acq:literal, $rel:literal, $mb_lse:literal, $nop_lse:literal
    ) => {{
        let mut found: $t = $old;
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                ".arch_extension lse",
                concat!("cas", $mb_lse, $size, " {found", $w, "}, {new", $w, "}, [{p}]"),
                p = in(reg) $p,
                new = in(reg) $new,
                found = inout(reg) found,
                options(nostack, preserves_flags),
            )
        };
        found
    }};
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
                by_order!(order, xchg_alt!($t, $w, $size, p, new))
            }

            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                old: Self::V,
                new: Self::V,
                order: Order,
            ) -> Self::V {
                if system_uses_lse_atomics() {
                    by_order!(order, lse_cas!($t, $w, $size, p, old, new))
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
            // C's void LL/SC loop (`ATOMIC_OP()`, atomic_ll_sc.h:25-40) is the relaxed row's.
            if system_uses_lse_atomics() {
                by_rmw!(op, $v, lse_st_op!($w, p))
            } else {
                by_order!(Order::Relaxed, by_rmw!(op, $v, ll_sc_rmw!($t, $w, p, $ll_sc_v)));
            }
        }

        #[inline(always)]
        unsafe fn $fetch(p: *mut Self::V, op: Rmw $($param)*, order: Order) -> Self::V {
            if system_uses_lse_atomics() {
                by_order!(order, by_rmw!(op, $v, lse_ld_op!($t, $w, p)))
            } else {
                by_order!(order, by_rmw!(op, $v, ll_sc_rmw!($t, $w, p, $ll_sc_v))).0
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
                let old = by_order!(order, by_rmw!(op, $v, lse_ld_op!($t, $w, p)));
                <Self::V as Int>::apply(op, old, $v)
            } else {
                by_order!(order, by_rmw!(op, $v, ll_sc_rmw!($t, $w, p, $ll_sc_v))).1
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

impl_primitive!(I32: i32, ":w");
impl_primitive!(
    I64: i64,
    "",
    /// C's arm64 `atomic64_dec_if_positive()`, its own sequences, written out as C's are
    /// (atomic_lse.h:227-246, atomic_ll_sc.h:217-237): `subs` and `b.lt` see the overflow of
    /// `i64::MIN - 1`, so it does not store when the value is not positive; returns the value
    /// minus one either way. Fully ordered when it stores (`casal`; `stlxr` and `dmb ish`).
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
