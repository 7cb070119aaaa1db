// SPDX-License-Identifier: GPL-2.0

//! riscv64 primitives.
//!
//! Implementation choices, with the ordering argument. C's files are under
//! `arch/riscv/include/asm/` unless named otherwise; line numbers are Linux 6.12's, with 7.2's
//! after a `/` where they differ.
//! - Read-modify-write operations are the AMOs of the A extension, as in C's `atomic.h`:
//!   `amo<op>.{w,d} zero` for the void operations (atomic.h:53-77), `amo<op>.{w,d}` for the
//!   relaxed fetch operations and `amo<op>.{w,d}.aqrl` for the fully ordered ones
//!   (atomic.h:87-110). Subtraction adds the negation (atomic.h:74, 138); and-not, which riscv's
//!   C does not define, is the generic fallback's AND of the complement
//!   (include/linux/atomic/atomic-arch-fallback.h:1545-1553, 1593-1607). riscv's C defines no
//!   `_acquire`/`_release` fetch operations, so the generic fallbacks build them
//!   (atomic-arch-fallback.h:691-704 for `fetch_add_acquire`, the same for every operation):
//!   the relaxed AMO followed by `__atomic_acquire_fence()`, `fence r, rw`, or preceded by
//!   `__atomic_release_fence()`, `fence rw, w` (atomic.h:21-25). `_return` is the fetch
//!   operation plus the operand in a register (atomic.h:112-123): the trait's default.
//! - Exchange is `amoswap.{w,d}` with the same orderings (cmpxchg.h:41-90 / 57-111);
//!   compare-and-exchange is C's LR/SC loop (cmpxchg.h:140-194 / 179-286), which compares a
//!   32-bit `old` sign-extended, as `lr.w` sign-extends what it loads (C's `(long)(int)` cast,
//!   cmpxchg.h:172 / 239). The 8- and 16-bit ones are C's LR/SC loops on the aligned 32-bit word
//!   around the integer (`__arch_xchg_masked()`, `__arch_cmpxchg_masked()`, cmpxchg.h:16-39,
//!   110-138 / 19-55, 130-177): the base A extension has no narrower AMO or LR/SC.
//! - The orderings, one table (`by_order!`) for every sequence, as C's rows of
//!   `arch_xchg*()` and `arch_cmpxchg*()`: RELAXED no fence; ACQUIRE `fence r, rw` after;
//!   RELEASE `fence rw, w` before; fully ordered `.aqrl` on an AMO, or `sc.{w,d}.rl` and then
//!   `fence rw, rw` for an LR/SC loop (`lr` never takes a suffix in C). A fence `fence r, rw`
//!   after a load orders it before every later access, `fence rw, w` every earlier access before
//!   a later store, and an AMO with both `aq` and `rl` is ordered with every access before and
//!   after it (RISC-V Unprivileged ISA, "RVWMO Memory Consistency Model", preserved program
//!   order rules 4-7). The LR/SC fully ordered form is Linux's (commit "riscv/atomic: Strengthen
//!   implementations with fences", Linux 4.18), not the ISA manual's mapping table
//!   (`lr.aq`/`sc.aqrl`, Appendix A, "Mappings from Linux memory primitives to RISC-V
//!   primitives"), and the acquire/release fences are likewise Linux's, not the table's `.aq`/`.rl`
//!   AMOs; this file runs what C runs. A failed cmpxchg branches past the store and the trailing
//!   fence: it is a relaxed load, as the LKMM allows (the leading release fence runs either way,
//!   as in C).
//! - Without `CONFIG_SMP` C's `RISCV_{ACQUIRE,RELEASE,FULL}_BARRIER` are empty (fence.h:9-17)
//!   and `smp_load_acquire()`/`smp_store_release()` have `barrier()` for their fence
//!   (include/asm-generic/barrier.h:179-207): so here (`smp_fence!`); `arch.rs` makes the
//!   `smp_*()` barriers `barrier()`. The `.aqrl`/`.rl` suffixes stay, as in C. 6.12 writes the
//!   trailing fence of the fully ordered cmpxchg (cmpxchg.h:194) and of `dec_if_positive`
//!   (atomic.h:297) out, so that a 6.12 kernel without `CONFIG_SMP` keeps it; 7.2 uses
//!   `RISCV_FULL_BARRIER` there (cmpxchg.h:285, atomic.h:297), which this file follows: on one
//!   hart the fence orders nothing another CPU could observe.
//! - The LR and the SC of a loop sit in one `asm!` block, with nothing but the few integer
//!   instructions of C's loop between them: a constrained LR/SC loop (at most 16 integer
//!   instructions, no loads or stores, backward branches only to retry) is guaranteed to
//!   succeed eventually, any other may livelock (RISC-V Unprivileged ISA, "Eventual Success of
//!   Store-Conditional Instructions"). The compiler must not put a spill between them.
//! - `atomic_dec_if_positive()` is C's own LR/SC loop (atomic.h:289-313, 340-350), fully ordered
//!   when it stores. Its test is on the 64-bit difference, so the 32-bit one does not store when
//!   the value is `i32::MIN` (the generic definition would store `i32::MAX`); the 64-bit one
//!   wraps like the generic one. `atomic_fetch_add_unless()`, `atomic_inc_unless_negative()`
//!   and `atomic_dec_unless_positive()` are C's own LR/SC loops too (atomic.h:198-287), in the
//!   same shape (`sc.rl`, then `fence rw, rw`, skipped with the store when they do not add), and
//!   `atomic_inc_not_zero()` is C's generic `atomic_add_unless(v, 1, 0)` on that
//!   `fetch_add_unless()`.
//! - Loads and stores are volatile accesses, as C's `READ_ONCE()`/`WRITE_ONCE()` (naturally
//!   aligned loads and stores are single-copy atomic, RVWMO "Memory Model Primitives").
//!   `smp_load_acquire()` is the volatile load and then `fence r, rw`, `smp_store_release()`
//!   `fence rw, w` and then the volatile store (barrier.h:59-72 / 54-67), so that KASAN and KCSAN
//!   see them as they see C's. Linux 7.2 knows the Zalasr extension (`RISCV_ISA_EXT_ZALASR`,
//!   hwcap.h) but does not use its `lw.aq`/`sw.rl` for these: its barrier.h has the fence forms
//!   only.
//! - Linux 7.2 selects at boot, on CPUs that have them, the Zacas compare-and-swap `amocas` for
//!   cmpxchg and the Zabha byte and halfword AMOs (cmpxchg.h:19-55, 130-211), each behind
//!   `riscv_has_extension_unlikely()` (cpufeature-macros.h): a `nop` that the kernel's
//!   alternatives turn into a jump to the extension's path when every hart has it, at boot for
//!   the kernel and by the module loader for a module (arch/riscv/kernel/module.c,
//!   `module_finalize()`). Here the same (`has_zacas()`, `has_zabha()`): C's `.alternative`
//!   entry (alternative-macros.h: two relative words, vendor 0, the replacement's length, the
//!   extension), only when the kernel has the path (`CONFIG_RISCV_ISA_ZACAS` with
//!   `CONFIG_TOOLCHAIN_HAS_ZACAS`, `CONFIG_RISCV_ISA_ZABHA`). The paths, with C's columns:
//!   32- and 64-bit cmpxchg `amocas.{w,d}` on Zacas (cmpxchg.h:184-195); 8- and 16-bit xchg
//!   `amoswap.{b,h}` on Zabha (cmpxchg.h:22-30); 8- and 16-bit cmpxchg `amocas.{b,h}` on Zabha
//!   and Zacas, tested in that order (cmpxchg.h:135-148); the orderings as the AMOs': RELAXED
//!   none, ACQUIRE `fence r, rw` after, RELEASE `fence rw, w` before, fully ordered `.aqrl` and
//!   no fence (cmpxchg.h:264-286, the `cas_*` columns). An `amocas` compares the whole value
//!   and always writes the value found to its register. Rust's riscv64 target has neither
//!   extension, so each such block enables it with `.option arch` (C's `-march` has them).
//!   Without `CONFIG_RISCV_ALTERNATIVE` (an XIP kernel only) C asks a function; this file then
//!   takes the base sequences, which are correct on every CPU. C's Zicbop `prefetch.w` before
//!   the masked exchange loop (`PREFETCHW_ASM`, cmpxchg.h:42), a `nop` without Zicbop, is left
//!   out: one instruction fewer, no ordering.
//! - `asm!` options: `nostack` (no block touches the stack); `preserves_flags`, which on RISC-V
//!   promises that `fflags` and the vector state are left alone (the Rust Reference, inline
//!   assembly, "flags"): integer instructions and fences do. No block has `nomem`: each is also
//!   a compiler barrier, like C's `"memory"` clobber.
//! - The results of AMOs are `lateout`, as C's `"=r"`; those of LR/SC loops are `out`, as C's
//!   `"=&r"`: they are written while the inputs are still needed by the next iteration. C's
//!   `"rJ"` operands may be the `zero` register for a constant zero; `asm!` has no such class, so
//!   such an operand is a register here.
//!
//! The sequences, with `F(p,s)` for `fence p, s` and the size suffix (`.w`, `.d`) left out:
//!
//! | sequence | RELAXED | ACQUIRE | RELEASE | fully ordered |
//! |---|---|---|---|---|
//! | AMO | `amo` | `amo; F(r,rw)` | `F(rw,w); amo` | `amo.aqrl` |
//! | LR/SC loop | `lr; sc` | `lr; sc; F(r,rw)` | `F(rw,w); lr; sc` | `lr; sc.rl; F(rw,rw)` |
//!
//! The AMOs are the fetch operations and the 32- and 64-bit exchange (`amoswap`); the void
//! operations are `amo<op> zero`, unordered. The LR/SC loops are cmpxchg, the 8- and 16-bit
//! exchange and `dec_if_positive` (fully ordered only); each branches back from `bnez` after a
//! failed `sc`, and cmpxchg's and `dec_if_positive`'s branch forward past the `sc` and the
//! trailing fence when they do not store.

use super::super::primitive::{Exchange, Order, Primitive, Rmw};
use super::Contract;
use core::arch::asm;

/// The text `fence $pred, $succ` of C's SMP-only fences in the atomic sequences and the
/// acquire/release accesses: `RISCV_ACQUIRE_BARRIER` is `smp_fence!(r, rw)`,
/// `RISCV_RELEASE_BARRIER` `smp_fence!(rw, w)` and `RISCV_FULL_BARRIER` `smp_fence!(rw, rw)`
/// (fence.h:9-12).
#[cfg(CONFIG_SMP)]
macro_rules! smp_fence {
    ($pred:ident, $succ:ident) => {
        concat!("fence ", stringify!($pred), ", ", stringify!($succ))
    };
}

/// Without `CONFIG_SMP`, C's SMP-only fences are no instruction (fence.h:13-17;
/// include/asm-generic/barrier.h:179-207): the empty text.
#[cfg(not(CONFIG_SMP))]
macro_rules! smp_fence {
    ($pred:ident, $succ:ident) => {
        ""
    };
}

/// The fence text `$fence` (possibly empty) as a compiler barrier too, as C's `RISCV_FENCE()`
/// with its `"memory"` clobber (fence.h:5-7); with no instruction, it is `barrier()`.
macro_rules! fence {
    ($fence:expr) => {
        // SAFETY: A fence has no effect but ordering.
        unsafe { asm!($fence, options(nostack, preserves_flags)) }
    };
}

/// The riscv64 architecture: the items of [`Contract`].
pub enum Arch {}

// SAFETY: Every primitive is C's AMO or LR/SC loop with C's suffixes and fences for its ordering
// (see the module docs), and each barrier is C's (barrier.h:28-30, 57 / 23-25, 52).
unsafe impl Contract for Arch {
    type I8 = I8;
    type I16 = I16;
    type I32 = I32;
    type I64 = I64;

    /// As C's on this architecture, the acquire loads and release stores are volatile accesses
    /// with a fence (barrier.h:59-72 / 54-67), which the compilers' KASAN instrumentation checks
    /// (rustc's too) and C's KCSAN instrumentation sees.
    const ACQUIRE_RELEASE_VOLATILE: bool = true;

    /// `fence rw, rw`: orders all earlier accesses before all later ones (`__smp_mb()`,
    /// barrier.h:28 / 23).
    #[inline(always)]
    fn smp_mb() {
        fence!("fence rw, rw");
    }

    /// `fence r, r`: orders earlier loads before later loads (`__smp_rmb()`, barrier.h:29 / 24).
    #[inline(always)]
    fn smp_rmb() {
        fence!("fence r, r");
    }

    /// `fence w, w`: orders earlier stores before later stores (`__smp_wmb()`, barrier.h:30 /
    /// 25). (`smp_mb__before_atomic()` and `smp_mb__after_atomic()` are the generic `smp_mb()`:
    /// a relaxed AMO orders nothing.)
    #[inline(always)]
    fn smp_wmb() {
        fence!("fence w, w");
    }

    /// `fence iorw, iorw`, as riscv's C defines it (barrier.h:57 / 52): taking a lock (`lr.aq`,
    /// `sc`) orders only that lock's accesses, and the scheduler, its user, also needs device
    /// writes ordered (the comment there). C keeps it without `CONFIG_SMP` too, and so does
    /// `arch.rs`.
    #[inline(always)]
    fn smp_mb__after_spinlock() {
        fence!("fence iorw, iorw");
    }

    fn implementation() -> &'static str {
        match (has_zacas(), has_zabha()) {
            (false, false) => "riscv64 AMOs (amo<op>.{w,d}) and LR/SC loops (lr/sc)",
            (true, false) => "riscv64 AMOs (amo<op>.{w,d}), Zacas amocas.{w,d}, LR/SC for bytes",
            (false, true) => "riscv64 AMOs (amo<op>.{w,d}), Zabha amoswap.{b,h}, LR/SC cmpxchg",
            (true, true) => "riscv64 AMOs (amo<op>.{w,d}), Zacas amocas, Zabha amo<op>.{b,h}",
        }
    }
}

fenced_load_store!("riscv64",
    // `__smp_load_acquire()` (barrier.h:66-72 / 61-67); `barrier()` without SMP
    // (include/asm-generic/barrier.h:202-207).
    acquire: { fence!(smp_fence!(r, rw)); },
    // `__smp_store_release()` (barrier.h:59-64 / 54-59); `barrier()` without SMP
    // (include/asm-generic/barrier.h:194-199).
    release: { fence!(smp_fence!(rw, w)); };
    I8: i8, I16: i16, I32: i32, I64: i64);

/// The ordering table: expands `$m!($($args)*, SC, AMO, PREPEND, SC_APPEND, AMO_APPEND)` with
/// the columns of `$order`'s row, which are those of C's `_arch_xchg()` rows, in C's order
/// (cmpxchg.h:79-90 / 100-111): the suffix of an LR/SC loop's `sc`, the suffix of an AMO, the
/// fence before either, the fence after an LR/SC loop, the fence after an AMO. C's other
/// sequences have the same rows: `arch_cmpxchg*()` (cmpxchg.h:184-194 / 264-286) takes `SC`,
/// `PREPEND` and `SC_APPEND`; the fetch operations (atomic.h:87-110 and the fallbacks'
/// `__atomic_{acquire,release}_fence()`, atomic.h:21-25) `AMO`, `PREPEND` and `AMO_APPEND`.
macro_rules! by_order {
    ($order:expr, $m:ident!($($args:tt)*)) => {
        match $order {
            Order::Relaxed => $m!($($args)*, "", "", "", "", ""),
            Order::Acquire => $m!($($args)*, "", "", "", smp_fence!(r, rw), smp_fence!(r, rw)),
            Order::Release => $m!($($args)*, "", "", smp_fence!(rw, w), "", ""),
            Order::Full => $m!($($args)*, ".rl", ".aqrl", "", smp_fence!(rw, rw), ""),
        }
    };
}

/// The operation table: expands `$m!($($args)*, AMO, OPERAND, ...)` with the AMO of `$op` and
/// the operand it takes for `$v`, as C's `ATOMIC_OPS()` rows (atomic.h:73-77, 137-138, 173-175):
/// subtraction adds the negation; and-not ANDs the complement (the generic fallback, riscv's C
/// having no and-not). Further arguments (the ordering columns, when `by_order!` expands this)
/// follow the operand.
macro_rules! by_rmw {
    ($op:expr, $v:expr, $m:ident!($($args:tt)*) $(, $($rest:tt)*)?) => {
        match $op {
            Rmw::Add => $m!($($args)*, "amoadd", $v $(, $($rest)*)?),
            Rmw::Sub => $m!($($args)*, "amoadd", $v.wrapping_neg() $(, $($rest)*)?),
            Rmw::And => $m!($($args)*, "amoand", $v $(, $($rest)*)?),
            Rmw::Or => $m!($($args)*, "amoor", $v $(, $($rest)*)?),
            Rmw::Xor => $m!($($args)*, "amoxor", $v $(, $($rest)*)?),
            Rmw::AndNot => $m!($($args)*, "amoand", !$v $(, $($rest)*)?),
        }
    };
}

/// The void AMO `$amo` of size `$sz` (C's `ATOMIC_OP()`, atomic.h:53-62): `*$p = *$p <op> $v`,
/// the old value discarded into `zero`; unordered.
macro_rules! amo_void {
    ($sz:literal, $p:expr, $amo:literal, $v:expr) => {
        // The AMO accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!($amo, $sz, " zero, {v}, ({p})"),
                p = in(reg) $p,
                v = in(reg) $v,
                options(nostack, preserves_flags),
            )
        }
    };
}

/// The AMO `$amo` of size `$sz` on `$v` with the columns of a `by_order!` row (C's
/// `ATOMIC_FETCH_OP()`, atomic.h:87-110, with the fallbacks' fences; `__arch_xchg()`,
/// cmpxchg.h:41-50 / 57-66, for `amoswap`); evaluates to the old value.
macro_rules! amo {
    (
        $t:ty, $sz:literal, $p:expr, $amo:literal, $v:expr,
        $sc:literal, $amo_sfx:literal, $prepend:expr, $sc_append:expr, $amo_append:expr
    ) => {{
        let old: $t;
        // The AMO accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                $prepend,
                concat!($amo, $sz, $amo_sfx, " {old}, {v}, ({p})"),
                $amo_append,
                p = in(reg) $p,
                v = in(reg) $v,
                old = lateout(reg) old,
                options(nostack, preserves_flags),
            )
        };
        old
    }};
}

/// C's LR/SC compare-and-exchange of size `$sz` (`__arch_cmpxchg()`, cmpxchg.h:140-155 /
/// 196-210) with the columns of a `by_order!` row; evaluates to the value found. `$old` must be
/// what `lr` makes of the value, sign-extended for `.w`. On a mismatch it branches past the
/// store and the trailing fence.
macro_rules! lr_sc_cmpxchg {
    (
        $t:ty, $sz:literal, $p:expr, $old:expr, $new:expr,
        $sc:literal, $amo_sfx:literal, $prepend:expr, $sc_append:expr, $amo_append:expr
    ) => {{
        let found: $t;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                $prepend,
                concat!("0: lr", $sz, " {found}, ({p})"),
                "bne {found}, {old}, 1f",
                concat!("sc", $sz, $sc, " {rc}, {new}, ({p})"),
                "bnez {rc}, 0b",
                $sc_append,
                "1:",
                p = in(reg) $p,
                old = in(reg) $old,
                new = in(reg) $new,
                found = out(reg) found,
                rc = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        found
    }};
}

/// [`lr_sc_cmpxchg!`] for a kernel that also has the Zacas path: the value found ends in the
/// register that held `$old` (a `mv` after the loop), where `amocas` leaves it too, so that the
/// two paths meet without a move on the Zacas one; C's compiler makes the same choice (its `mv`
/// is on the LR/SC path, cmpxchg.h:197-209 against 187-195).
#[cfg(all(
    CONFIG_RISCV_ISA_ZACAS,
    CONFIG_TOOLCHAIN_HAS_ZACAS,
    CONFIG_RISCV_ALTERNATIVE
))]
macro_rules! lr_sc_cmpxchg_in_place {
    (
        $t:ty, $sz:literal, $p:expr, $old:expr, $new:expr,
        $sc:literal, $amo_sfx:literal, $prepend:expr, $sc_append:expr, $amo_append:expr
    ) => {{
        let mut r = $old;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                $prepend,
                concat!("0: lr", $sz, " {found}, ({p})"),
                "bne {found}, {r}, 1f",
                concat!("sc", $sz, $sc, " {rc}, {new}, ({p})"),
                "bnez {rc}, 0b",
                $sc_append,
                "1: mv {r}, {found}",
                p = in(reg) $p,
                new = in(reg) $new,
                r = inout(reg) r,
                found = out(reg) _,
                rc = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        r as $t
    }};
}

/// C's `_arch_atomic_dec_if_positive()` of size `$sz` (atomic.h:289-302) with the columns of
/// `by_order!`'s fully ordered row, which are C's (`sc.rl`, then `RISCV_FULL_BARRIER`): stores the
/// value minus one unless that is negative; evaluates to the value found minus one, wrapping.
macro_rules! lr_sc_dec_if_positive {
    (
        $t:ty, $sz:literal, $p:expr,
        $sc:literal, $amo_sfx:literal, $prepend:expr, $sc_append:expr, $amo_append:expr
    ) => {{
        let prev: $t;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                $prepend,
                concat!("0: lr", $sz, " {prev}, ({p})"),
                "addi {rc}, {prev}, -1",
                "bltz {rc}, 1f",
                concat!("sc", $sz, $sc, " {rc}, {rc}, ({p})"),
                "bnez {rc}, 0b",
                $sc_append,
                "1:",
                p = in(reg) $p,
                prev = out(reg) prev,
                rc = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        prev.wrapping_sub(1)
    }};
}

/// C's conditional-add LR/SC loops (`_arch_atomic_fetch_add_unless()`,
/// `_arch_atomic_inc_unless_negative()`, `_arch_atomic_dec_unless_positive()`, atomic.h:198-287)
/// of size `$sz`, with the columns of `by_order!`'s fully ordered row, which are C's (`sc.rl`,
/// then `fence rw, rw`): `$skip` branches past the store and the fence when the value found
/// (`{prev}`) is excluded, `$add` computes the new value into `{rc}`; the operands they name
/// besides those two are `$($operands)*`. Evaluates to the value found.
macro_rules! lr_sc_add_unless {
    (
        $t:ty, $sz:literal, $p:expr, $skip:literal, $add:literal, [$($operands:tt)*],
        $sc:literal, $amo_sfx:literal, $prepend:expr, $sc_append:expr, $amo_append:expr
    ) => {{
        let prev: $t;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                $prepend,
                concat!("0: lr", $sz, " {prev}, ({p})"),
                $skip,
                $add,
                concat!("sc", $sz, $sc, " {rc}, {rc}, ({p})"),
                "bnez {rc}, 0b",
                $sc_append,
                "1:",
                p = in(reg) $p,
                $($operands)*
                prev = out(reg) prev,
                rc = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        prev
    }};
}

/// C's masked exchange loop (`__arch_xchg_masked()`, cmpxchg.h:16-39 / 19-55) on the aligned
/// word at `$p`, with the columns of a `by_order!` row: replaces the bits outside `$not_mask`
/// with `$newx`; evaluates to the word found.
macro_rules! lr_sc_xchg_masked {
    (
        $p:expr, $newx:expr, $not_mask:expr,
        $sc:literal, $amo_sfx:literal, $prepend:expr, $sc_append:expr, $amo_append:expr
    ) => {{
        let retx: usize;
        // The loop accesses the aligned word at `$p`, which holds the integer and is mapped with
        // it; it stores back the other bytes as it found them, and only if no other access
        // wrote the word since the `lr.w` (the reservation), as C's loop.
        // SAFETY: The enclosing function's caller guarantees the integer valid, aligned, atomic.
        unsafe {
            asm!(
                $prepend,
                "0: lr.w {retx}, ({p})",
                "and {rc}, {retx}, {not_mask}",
                "or {rc}, {rc}, {newx}",
                concat!("sc.w", $sc, " {rc}, {rc}, ({p})"),
                "bnez {rc}, 0b",
                $sc_append,
                p = in(reg) $p,
                newx = in(reg) $newx,
                not_mask = in(reg) $not_mask,
                retx = out(reg) retx,
                rc = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        retx
    }};
}

/// C's masked compare-and-exchange loop (`__arch_cmpxchg_masked()`, cmpxchg.h:110-138 /
/// 130-177) on the aligned word at `$p`, with the columns of a `by_order!` row: if the bits
/// under `$mask` are `$oldx`, replaces them with `$newx`; evaluates to the word found. On a
/// mismatch it branches past the store and the trailing fence.
macro_rules! lr_sc_cmpxchg_masked {
    (
        $p:expr, $oldx:expr, $newx:expr, $mask:expr, $not_mask:expr,
        $sc:literal, $amo_sfx:literal, $prepend:expr, $sc_append:expr, $amo_append:expr
    ) => {{
        let retx: usize;
        // As for `lr_sc_xchg_masked!`.
        // SAFETY: The enclosing function's caller guarantees the integer valid, aligned, atomic.
        unsafe {
            asm!(
                $prepend,
                "0: lr.w {retx}, ({p})",
                "and {rc}, {retx}, {mask}",
                "bne {rc}, {oldx}, 1f",
                "and {rc}, {retx}, {not_mask}",
                "or {rc}, {rc}, {newx}",
                concat!("sc.w", $sc, " {rc}, {rc}, ({p})"),
                "bnez {rc}, 0b",
                $sc_append,
                "1:",
                p = in(reg) $p,
                oldx = in(reg) $oldx,
                newx = in(reg) $newx,
                mask = in(reg) $mask,
                not_mask = in(reg) $not_mask,
                retx = out(reg) retx,
                rc = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        retx
    }};
}

/// Defines `$name()`, C's `riscv_has_extension_unlikely($ext)` with `CONFIG_RISCV_ALTERNATIVE`
/// (cpufeature-macros.h, `__riscv_has_extension_unlikely()`): `ALTERNATIVE("nop", "j l_yes", 0,
/// ext, 1)` (alternative-macros.h, `__ALTERNATIVE_CFG()` and `ALT_NEW_CONTENT()`), the `nop` in
/// place, the jump in `.subsection 1`, and the `.alternative` entry that makes the kernel (or the
/// module loader) copy the jump over the `nop` when every hart has the extension; it fixes the
/// copied jump's offset (arch/riscv/kernel/alternative.c, `riscv_alternative_fix_offsets()`).
/// The extension's number comes from `kernel::bindings`, a path that resolves in the kernel
/// crate too. (Defined where a path uses it: 6.12 has none.)
#[cfg(any(
    all(
        CONFIG_RISCV_ISA_ZACAS,
        CONFIG_TOOLCHAIN_HAS_ZACAS,
        CONFIG_RISCV_ALTERNATIVE
    ),
    all(CONFIG_RISCV_ISA_ZABHA, CONFIG_RISCV_ALTERNATIVE)
))]
macro_rules! has_extension {
    ($name:ident, $ext:ident) => {
        #[doc = concat!("Whether every hart has `", stringify!($ext), "`: see `has_extension!`.")]
        #[inline(always)]
        fn $name() -> bool {
            // The alternative only ever replaces the `nop` by a jump to the label block, which
            // returns; nothing else is touched.
            // SAFETY: As above.
            unsafe {
                asm!(
                    "886:",
                    ".option push",
                    ".option norvc",
                    ".option norelax",
                    "nop",
                    ".option pop",
                    "887:",
                    ".pushsection .alternative, \"a\"",
                    ".4byte ((886b) - .)",
                    ".4byte ((888f) - .)",
                    ".2byte 0",
                    ".2byte 889f - 888f",
                    ".4byte {ext}",
                    ".popsection",
                    ".subsection 1",
                    "888:",
                    ".option push",
                    ".option norvc",
                    ".option norelax",
                    "j {yes}",
                    ".option pop",
                    "889:",
                    ".org . - (887b - 886b) + (889b - 888b)",
                    ".org . - (889b - 888b) + (887b - 886b)",
                    ".previous",
                    ext = const ::kernel::bindings::$ext,
                    yes = label { return true; },
                    // Like C's `asm goto` without a "memory" clobber: a branch orders no access.
                    options(nomem, nostack, preserves_flags),
                )
            };
            false
        }
    };
}

#[cfg(all(
    CONFIG_RISCV_ISA_ZACAS,
    CONFIG_TOOLCHAIN_HAS_ZACAS,
    CONFIG_RISCV_ALTERNATIVE
))]
has_extension!(has_zacas, RISCV_ISA_EXT_ZACAS);

/// Without Zacas in the kernel (6.12; 7.2 without `CONFIG_RISCV_ISA_ZACAS`), never.
#[cfg(not(all(
    CONFIG_RISCV_ISA_ZACAS,
    CONFIG_TOOLCHAIN_HAS_ZACAS,
    CONFIG_RISCV_ALTERNATIVE
)))]
#[inline(always)]
fn has_zacas() -> bool {
    false
}

#[cfg(all(CONFIG_RISCV_ISA_ZABHA, CONFIG_RISCV_ALTERNATIVE))]
has_extension!(has_zabha, RISCV_ISA_EXT_ZABHA);

/// Without Zabha in the kernel (6.12; 7.2 without `CONFIG_RISCV_ISA_ZABHA`), never.
#[cfg(not(all(CONFIG_RISCV_ISA_ZABHA, CONFIG_RISCV_ALTERNATIVE)))]
#[inline(always)]
fn has_zabha() -> bool {
    false
}

/// C's `amocas` of size `$sz` (`__arch_cmpxchg()`'s Zacas path, cmpxchg.h:187-195, and
/// `__arch_cmpxchg_masked()`'s, 140-148) with the columns of a `by_order!` row, the extensions
/// `$arch` enabled for the block: `r = old`, then `amocas r, new, (p)`; evaluates to the value
/// found.
macro_rules! amocas {
    (
        $t:ty, $sz:literal, $arch:literal, $p:expr, $old:expr, $new:expr,
        $sc:literal, $amo_sfx:literal, $prepend:expr, $sc_append:expr, $amo_append:expr
    ) => {{
        let mut r: $t = $old;
        // The AMO accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic, and
        // the caller of this macro that the harts have the extensions.
        unsafe {
            asm!(
                $prepend,
                ".option push",
                concat!(".option arch, ", $arch),
                concat!("amocas", $sz, $amo_sfx, " {r}, {new}, ({p})"),
                ".option pop",
                $amo_append,
                p = in(reg) $p,
                new = in(reg) $new,
                r = inout(reg) r,
                options(nostack, preserves_flags),
            )
        };
        r
    }};
}

/// C's Zabha `amoswap` of size `$sz` (`__arch_xchg_masked()`'s Zabha path, cmpxchg.h:24-30) with
/// the columns of a `by_order!` row; evaluates to the value found.
macro_rules! amoswap_zabha {
    (
        $t:ty, $sz:literal, $p:expr, $new:expr,
        $sc:literal, $amo_sfx:literal, $prepend:expr, $sc_append:expr, $amo_append:expr
    ) => {{
        let old: $t;
        // The AMO accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic, and
        // the caller of this macro that the harts have Zabha.
        unsafe {
            asm!(
                $prepend,
                ".option push",
                ".option arch, +zabha",
                concat!("amoswap", $sz, $amo_sfx, " {old}, {new}, ({p})"),
                ".option pop",
                $amo_append,
                p = in(reg) $p,
                new = in(reg) $new,
                old = out(reg) old,
                options(nostack, preserves_flags),
            )
        };
        old
    }};
}

/// The aligned 32-bit word holding the 1- or 2-byte `T` at `p`, the position of the `T`'s bits
/// in it and their mask, as C's masked sequences compute them (cmpxchg.h:18-21 / 32-35): the
/// word's bytes are in address order, riscv64 being little-endian.
#[inline(always)]
fn masked_word<T>(p: *mut T) -> (*mut u32, usize, usize) {
    let size = core::mem::size_of::<T>();
    let addr = p as usize;
    let shift = (addr & (4 - size)) * 8;
    let mask = ((1 << (size * 8)) - 1) << shift;
    ((addr & !3) as *mut u32, shift, mask)
}

/// Implements [`Exchange`] for marker `$m` of type `$t` with the AMO and LR/SC of size `$sz`;
/// `$($co)*` converts `old` to what `lr` makes of the value, as C's `co` (cmpxchg.h:172, 176).
macro_rules! impl_exchange {
    ($m:ident: $t:ty, $sz:literal, [$($co:tt)*], $lr_sc:ident) => {
        // SAFETY: Every operation is C's AMO or LR/SC loop with C's suffixes and fences for its
        // ordering (see the module docs).
        unsafe impl Exchange for $m {
            #[inline(always)]
            unsafe fn xchg(p: *mut Self::V, new: Self::V, order: Order) -> Self::V {
                by_order!(order, amo!($t, $sz, p, "amoswap", new))
            }

            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                old: Self::V,
                new: Self::V,
                order: Order,
            ) -> Self::V {
                #[cfg(all(
                    CONFIG_RISCV_ISA_ZACAS,
                    CONFIG_TOOLCHAIN_HAS_ZACAS,
                    CONFIG_RISCV_ALTERNATIVE
                ))]
                {
                    if has_zacas() {
                        return by_order!(order, amocas!($t, $sz, "+zacas", p, old, new));
                    }
                    by_order!(order, $lr_sc!($t, $sz, p, $($co)*(old), new))
                }
                #[cfg(not(all(
                    CONFIG_RISCV_ISA_ZACAS,
                    CONFIG_TOOLCHAIN_HAS_ZACAS,
                    CONFIG_RISCV_ALTERNATIVE
                )))]
                by_order!(order, lr_sc_cmpxchg!($t, $sz, p, $($co)*(old), new))
            }
        }
    };
}

// With the Zacas path, the 32-bit LR/SC loop leaves the value found where `amocas.w` does (see
// `lr_sc_cmpxchg_in_place!`); the 64-bit one is already as C's.
#[cfg(all(
    CONFIG_RISCV_ISA_ZACAS,
    CONFIG_TOOLCHAIN_HAS_ZACAS,
    CONFIG_RISCV_ALTERNATIVE
))]
impl_exchange!(I32: i32, ".w", [i64::from], lr_sc_cmpxchg_in_place);
#[cfg(not(all(
    CONFIG_RISCV_ISA_ZACAS,
    CONFIG_TOOLCHAIN_HAS_ZACAS,
    CONFIG_RISCV_ALTERNATIVE
)))]
impl_exchange!(I32: i32, ".w", [i64::from], lr_sc_cmpxchg);
impl_exchange!(I64: i64, ".d", [], lr_sc_cmpxchg);

/// Implements [`Exchange`] for marker `$m` of the 1- or 2-byte type `$t`, with C's masked loops
/// on the aligned word around it. The values enter the word zero-extended (`as $u`), so that a
/// negative one does not spill into the neighbouring bytes (C's `(ulong)(n)`, cmpxchg.h:22, 116,
/// does so only for the unsigned types the kernel uses there).
macro_rules! impl_exchange_masked {
    ($m:ident: $t:ty as $u:ty, $sz:literal) => {
        // SAFETY: Every operation is C's masked LR/SC loop with C's suffixes and fences for its
        // ordering (see the module docs).
        unsafe impl Exchange for $m {
            #[inline(always)]
            unsafe fn xchg(p: *mut Self::V, new: Self::V, order: Order) -> Self::V {
                if has_zabha() {
                    return by_order!(order, amoswap_zabha!($t, $sz, p, new));
                }
                let (p32, shift, mask) = masked_word(p);
                let newx = usize::from(new as $u) << shift;
                let retx = by_order!(order, lr_sc_xchg_masked!(p32, newx, !mask));
                ((retx & mask) >> shift) as $u as $t
            }

            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                old: Self::V,
                new: Self::V,
                order: Order,
            ) -> Self::V {
                if has_zabha() && has_zacas() {
                    return by_order!(order, amocas!($t, $sz, "+zacas, +zabha", p, old, new));
                }
                let (p32, shift, mask) = masked_word(p);
                let oldx = usize::from(old as $u) << shift;
                let newx = usize::from(new as $u) << shift;
                let retx = by_order!(order, lr_sc_cmpxchg_masked!(p32, oldx, newx, mask, !mask));
                ((retx & mask) >> shift) as $u as $t
            }
        }
    };
}

impl_exchange_masked!(I8: i8 as u8, ".b");
impl_exchange_masked!(I16: i16 as u16, ".h");

/// Implements [`Primitive`] for marker `$m` of type `$t` with the AMOs and LR/SC of size `$sz`;
/// `$($co)*` converts a value to compare with what `lr` loads, as in [`impl_exchange!`].
macro_rules! impl_primitive {
    ($m:ident: $t:ty, $sz:literal, [$($co:tt)*]) => {
        // SAFETY: Every operation is C's AMO or LR/SC loop with C's suffixes and fences for its
        // ordering (see the module docs).
        unsafe impl Primitive for $m {
            #[inline(always)]
            unsafe fn rmw(p: *mut Self::V, op: Rmw, v: Self::V) {
                by_rmw!(op, v, amo_void!($sz, p))
            }

            #[inline(always)]
            unsafe fn fetch_rmw(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
                by_order!(order, by_rmw!(op, v, amo!($t, $sz, p)))
            }

            /// C's riscv `atomic{,64}_dec_if_positive()`, its own LR/SC loop (see the module
            /// docs): fully ordered when it stores; returns the value minus one either way.
            #[inline(always)]
            unsafe fn dec_if_positive(p: *mut Self::V) -> Self::V {
                by_order!(Order::Full, lr_sc_dec_if_positive!($t, $sz, p))
            }

            /// C's riscv `atomic{,64}_fetch_add_unless()`, its own LR/SC loop (atomic.h:198-236):
            /// fully ordered when it adds, a relaxed load when it does not.
            #[inline(always)]
            unsafe fn fetch_add_unless(p: *mut Self::V, a: Self::V, u: Self::V) -> Self::V {
                by_order!(
                    Order::Full,
                    lr_sc_add_unless!(
                        $t,
                        $sz,
                        p,
                        "beq {prev}, {u}, 1f",
                        "add {rc}, {prev}, {a}",
                        [u = in(reg) $($co)*(u), a = in(reg) a,]
                    )
                )
            }

            /// C's generic `atomic_inc_not_zero()`, `atomic_add_unless(v, 1, 0)`, on riscv's own
            /// `fetch_add_unless()` loop.
            #[inline(always)]
            unsafe fn inc_not_zero(p: *mut Self::V) -> bool {
                // SAFETY: The caller upholds the trait's contract.
                unsafe { Self::fetch_add_unless(p, 1, 0) != 0 }
            }

            /// C's riscv `atomic{,64}_inc_unless_negative()`, its own LR/SC loop
            /// (atomic.h:238-262): fully ordered when it adds, a relaxed load when it does not.
            #[inline(always)]
            unsafe fn inc_unless_negative(p: *mut Self::V) -> bool {
                let prev = by_order!(
                    Order::Full,
                    lr_sc_add_unless!($t, $sz, p, "bltz {prev}, 1f", "addi {rc}, {prev}, 1", [])
                );
                prev >= 0
            }

            /// C's riscv `atomic{,64}_dec_unless_positive()`, its own LR/SC loop
            /// (atomic.h:264-287): fully ordered when it subtracts, a relaxed load when it does
            /// not.
            #[inline(always)]
            unsafe fn dec_unless_positive(p: *mut Self::V) -> bool {
                let prev = by_order!(
                    Order::Full,
                    lr_sc_add_unless!($t, $sz, p, "bgtz {prev}, 1f", "addi {rc}, {prev}, -1", [])
                );
                prev <= 0
            }
        }
    };
}

impl_primitive!(I32: i32, ".w", [i64::from]);
impl_primitive!(I64: i64, ".d", []);
