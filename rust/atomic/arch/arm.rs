// SPDX-License-Identifier: GPL-2.0

//! 32-bit ARM (ARMv7-A) primitives.
//!
//! Implementation choices, with the ordering argument. C's files are under
//! `arch/arm/include/asm/` unless named otherwise; line numbers are Linux 7.2's (6.12 has no Rust
//! on arm). This file is used where C's `__LINUX_ARM_ARCH__` is 7 (`CONFIG_CPU_32v7` without
//! `CONFIG_CPU_32v6`: arch/arm/Makefile:77-85); a kernel that also runs on ARMv6 has C's ARMv6
//! sequences (`mcr p15` barriers, no byte exclusives) and takes the generic fallback (`arch.rs`).
//! - Every read-modify-write operation is a load-exclusive/store-exclusive loop, C's own:
//!   `ldrex`/`strex` for `atomic_t` (atomic.h:36-94, 106-154), `ldrexd`/`strexd` on a register
//!   pair for `atomic64_t` (atomic.h:311-510), `ldrex{b,h}`/`strex{b,h}` for the 8- and 16-bit
//!   `xchg()`/`cmpxchg()` (cmpxchg.h:29-117, 158-214). The loop's exclusives are relaxed: ARMv7
//!   has no acquire or release forms. Each loop sits in one `asm!` block with nothing but C's
//!   few integer instructions between the load and the store (a spill in between could clear
//!   the exclusive monitor on some implementations and livelock the loop: Arm ARM (ARMv7-A/R),
//!   A3.4.5 "Load-Exclusive and Store-Exclusive usage restrictions").
//! - The orderings are C's generic fallbacks around its `_relaxed` operations, the only ones
//!   arm's C defines (atomic.h:96-104, cmpxchg.h:119-122, 216-221; built by
//!   include/linux/atomic/atomic-arch-fallback.h, e.g. 691-704 for `fetch_add_acquire`, 664-679
//!   for `fetch_add`): ACQUIRE the loop then `__atomic_acquire_fence()`, RELEASE
//!   `__atomic_release_fence()` then the loop, fully ordered both; arm defines none of these
//!   fences, so each is `smp_mb__{after,before}_atomic()`, `dmb ish` (include/linux/atomic.h:42-56,
//!   include/asm-generic/barrier.h:130-136, barrier.h:77). One table, `by_order!`, gives every
//!   sequence its leading and trailing barrier. `dmb ish` orders every access before it before
//!   every access after it, for the inner shareable domain, which holds every CPU of the system
//!   (Arm ARM (ARMv7-A/R), A3.8.3 "Memory barriers"). As in C, a failed cmpxchg is followed by
//!   the trailing barrier too (the fallback's fence is unconditional).
//! - C's loops start with `prefetchw()` (processor.h:119-128): `pldw`, which asks for the line
//!   in a writable state, recorded in `.alt.smp.init` so that the kernel (arch/arm/kernel/head.S,
//!   `__fixup_smp`) or the module loader (arch/arm/kernel/module.c:461-467) can patch in the
//!   uniprocessor alternative `pld` (`__ALT_SMP_ASM()`, processor.h:93-103). Here the same
//!   (`prefetchw!`), and without `CONFIG_SMP`, where C has no `prefetchw()` of its own and uses
//!   the compiler's `__builtin_prefetch(p, 1)` (include/linux/prefetch.h:42-44), `pld`. A
//!   prefetch is a hint with no effect on ordering.
//! - `atomic_fetch_add_unless()` (32 and 64 bits) and `atomic64_dec_if_positive()` are C's own
//!   loops (atomic.h:128-154, 454-510): fully ordered, the leading `dmb ish` always; the trailing
//!   one always for `dec_if_positive` (atomic.h:476), only when it added for `fetch_add_unless`
//!   (atomic.h:149-150, 505-506), which here is the loop's exit branching past it.
//!   `atomic_inc_not_zero()` is C's generic `atomic_add_unless(v, 1, 0)` on that loop
//!   (atomic-arch-fallback.h); the 32-bit `dec_if_positive`, `inc_unless_negative` and
//!   `dec_unless_positive` are C's generic cmpxchg loops (`primitive.rs`'s defaults).
//! - Loads and stores of up to 32 bits are volatile accesses, as C's `READ_ONCE()` and
//!   `WRITE_ONCE()` (atomic.h:25-26; aligned accesses of up to a word are single-copy atomic:
//!   Arm ARM (ARMv7-A/R), A3.5.3 "Atomicity in the ARM architecture"). `smp_load_acquire()` is
//!   the load then `dmb ish`, `smp_store_release()` `dmb ish` then the store (asm-generic's,
//!   include/asm-generic/barrier.h:138-155: arm defines neither). A 64-bit access is single-copy
//!   atomic only as `ldrexd`/`strexd`, or as `ldrd`/`strd` on a CPU with LPAE (A3.5.3): so C's
//!   `atomic64_read()`/`atomic64_set()` are `ldrd`/`strd` with `CONFIG_ARM_LPAE` and otherwise a
//!   lone `ldrexd` and an `ldrexd`/`strexd` loop (atomic.h:259-308), and so here; their acquire
//!   and release forms add the barrier as for the narrower types (atomic-arch-fallback.h:
//!   2597-2612, 2644-2656).
//! - Register pairs: `ldrexd`, `strexd`, `ldrd` and `strd` take an even register and the next
//!   one (Arm ARM (ARMv7-A/R), A8.8.74 "LDREXD": "Rt must be even-numbered and not R14"). `asm!`
//!   has no operand for a pair (an `i64` is not in class `reg` on arm), so these operands are
//!   named registers, chosen so that a function with the C operation's parameters moves as few
//!   registers as C's (codegen parity; the AAPCS passes a pointer and an `i64` in `r0` and
//!   `r2`/`r3`, the next `i64` on the stack, and returns an `i64` in `r0`/`r1`): the value
//!   loaded `r0`/`r1`, the value stored `r2`/`r3`, and where a loop also needs the value loaded
//!   while it stores another (fetch operations, `fetch_add_unless`) the one stored `r4`/`r5`;
//!   cmpxchg loads into `r4`/`r5` and stores from `r8`/`r9` (`try_cmpxchg()` from `r2`/`r3`).
//!   An `i64` operand that is not a pair is two registers.
//! - `asm!` options: `nostack` (no block touches the stack); no block has `preserves_flags`
//!   (`teq`, `adds`, `subs` set the flags, C's `"cc"` clobber) or `nomem`: each is also a compiler
//!   barrier, as C's `"memory"` clobber (C's atomic_t loops have a `"+Qo"` operand instead,
//!   which `asm!` lacks). Rust's `arm-unknown-linux-gnueabi` target, the kernel's
//!   (arch/arm/Makefile:153), is ARMv6, whose assembler rejects `dmb`: every block says
//!   `.arch armv7-a` first (C has `-march=armv7-a`, arch/arm/Makefile:64), and `pldw` also needs
//!   `.arch_extension mp` (as C's, processor.h:123). The directive ends with its block.
//! - C's `"Ir"` operand (a register, or an immediate for a constant) is a register here, where
//!   `asm!` cannot choose; the `*_one` operations (`inc`, `dec` and their ordered forms) take the
//!   immediate `#1` that C's compiler uses for the constant one.
//!
//! The sequences, with `M` for `dmb ish` and `L` for the loop with its `pldw`:
//!
//! | sequence | RELAXED | ACQUIRE | RELEASE | fully ordered |
//! |---|---|---|---|---|
//! | read-modify-write, `xchg`, `cmpxchg` | `L` | `L; M` | `M; L` | `M; L; M` |
//! | load, store | `ldr`, `str` | `ldr; M` | `M; str` | - |

use super::super::primitive::{Exchange, LoadStore, Order, Primitive, Rmw};
use super::Contract;
use core::arch::asm;

/// The first line of every block: the architecture C's code is assembled for
/// (arch/arm/Makefile:64), which Rust's target (ARMv6) is not.
macro_rules! arch {
    () => {
        ".arch armv7-a"
    };
}

/// The text of C's SMP barrier `dmb ish` in the atomic sequences and the acquire/release
/// accesses (`__smp_mb()`, barrier.h:77).
#[cfg(CONFIG_SMP)]
macro_rules! smp_dmb {
    () => {
        "dmb ish"
    };
}

/// Without `CONFIG_SMP` the barriers of the atomic sequences are `barrier()`
/// (include/asm-generic/barrier.h:110-121, 179-207): no instruction.
#[cfg(not(CONFIG_SMP))]
macro_rules! smp_dmb {
    () => {
        ""
    };
}

/// C's `prefetchw(p)` (processor.h:119-128) for operand `{p}`: `pldw` in an ALT_SMP record
/// whose uniprocessor alternative is `pld` (processor.h:93-103).
#[cfg(CONFIG_SMP)]
macro_rules! prefetchw {
    () => {
        concat!(
            ".arch_extension mp\n",
            "9998: pldw [{p}]\n",
            ".pushsection \".alt.smp.init\", \"a\"\n",
            ".align 2\n",
            ".long 9998b - .\n",
            "pld [{p}]\n",
            ".popsection"
        )
    };
}

/// Without `CONFIG_SMP`: the compiler's `__builtin_prefetch(p, 1)` (include/linux/prefetch.h),
/// which for ARMv7 without the multiprocessing extensions is `pld`.
#[cfg(not(CONFIG_SMP))]
macro_rules! prefetchw {
    () => {
        "pld [{p}]"
    };
}

/// A barrier text (possibly empty) as a compiler barrier too, as C's `dmb()` with its `"memory"`
/// clobber (barrier.h:21); with no instruction, it is `barrier()`.
macro_rules! barrier_asm {
    ($text:expr) => {
        // SAFETY: A barrier has no effect but ordering.
        unsafe { asm!(arch!(), $text, options(nostack, preserves_flags)) }
    };
}

/// The 32-bit ARM architecture: the items of [`Contract`].
pub enum Arch {}

// SAFETY: Every primitive is C's exclusive loop with C's barriers for its ordering (see the module
// docs), and each barrier is C's (barrier.h:77-79).
unsafe impl Contract for Arch {
    type I8 = I8;
    type I16 = I16;
    type I32 = I32;
    type I64 = I64;

    /// As C's, the acquire loads and release stores of up to 32 bits are volatile accesses with
    /// a barrier (asm-generic's `smp_load_acquire()`/`smp_store_release()`); the 64-bit ones are
    /// instructions in `asm!`, as C's `atomic64_read()`. (Neither sanitizer exists for Rust on
    /// arm: `HAVE_RUST` needs `!KASAN`, arch/arm/Kconfig:140, and arm has no `HAVE_ARCH_KCSAN`.)
    const ACQUIRE_RELEASE_VOLATILE: bool = true;

    /// `dmb ish` (`__smp_mb()`, barrier.h:77); also `smp_rmb()` (barrier.h:78: ARMv7 has no
    /// load-only barrier) and, by their generic definitions, `smp_mb__{before,after}_atomic()`.
    #[inline(always)]
    fn smp_mb() {
        barrier_asm!("dmb ish");
    }

    /// `dmb ishst`: orders earlier stores before later stores (`__smp_wmb()`, barrier.h:79).
    #[inline(always)]
    fn smp_wmb() {
        barrier_asm!("dmb ishst");
    }

    fn implementation() -> &'static str {
        "ARMv7 exclusive loops (ldrex/strex, ldrexd/strexd)"
    }
}

/// The ordering table: expands `$m!($($args)*, PREPEND, APPEND)` with the barrier before and
/// after the loop of `$order`'s row (the fallbacks' `__atomic_op_{acquire,release,fence}()`,
/// include/linux/atomic.h:58-78, with arm's fences `dmb ish`).
macro_rules! by_order {
    ($order:expr, $m:ident!($($args:tt)*)) => {
        match $order {
            Order::Relaxed => $m!($($args)*, "", ""),
            Order::Acquire => $m!($($args)*, "", smp_dmb!()),
            Order::Release => $m!($($args)*, smp_dmb!(), ""),
            Order::Full => $m!($($args)*, smp_dmb!(), smp_dmb!()),
        }
    };
}

/// The operation table for 32 bits: expands `$m!($($args)*, INSN, ...)` with the instruction
/// of `$op` (C's `ATOMIC_OPS()` rows, atomic.h:227-245: `bic` for and-not). Further arguments
/// (the ordering columns, when `by_order!` expands this) follow.
macro_rules! by_rmw {
    ($op:expr, $m:ident!($($args:tt)*) $(, $($rest:tt)*)?) => {
        match $op {
            Rmw::Add => $m!($($args)*, "add" $(, $($rest)*)?),
            Rmw::Sub => $m!($($args)*, "sub" $(, $($rest)*)?),
            Rmw::And => $m!($($args)*, "and" $(, $($rest)*)?),
            Rmw::Or => $m!($($args)*, "orr" $(, $($rest)*)?),
            Rmw::Xor => $m!($($args)*, "eor" $(, $($rest)*)?),
            Rmw::AndNot => $m!($($args)*, "bic" $(, $($rest)*)?),
        }
    };
}

/// The operation table for 64 bits: the instructions on the low and the high word (C's
/// `ATOMIC64_OPS()` rows, atomic.h:381-399: the carry through `adds`/`adc`, `subs`/`sbc`).
macro_rules! by_rmw64 {
    ($op:expr, $m:ident!($($args:tt)*) $(, $($rest:tt)*)?) => {
        match $op {
            Rmw::Add => $m!($($args)*, "adds", "adc" $(, $($rest)*)?),
            Rmw::Sub => $m!($($args)*, "subs", "sbc" $(, $($rest)*)?),
            Rmw::And => $m!($($args)*, "and", "and" $(, $($rest)*)?),
            Rmw::Or => $m!($($args)*, "orr", "orr" $(, $($rest)*)?),
            Rmw::Xor => $m!($($args)*, "eor", "eor" $(, $($rest)*)?),
            Rmw::AndNot => $m!($($args)*, "bic", "bic" $(, $($rest)*)?),
        }
    };
}

/// C's 32-bit loop that stores what it computes in the register it loaded into (`ATOMIC_OP()`
/// and `ATOMIC_OP_RETURN()`, atomic.h:36-73) with the barriers of a `by_order!` row; evaluates
/// to the new value. `$operand` is the operand's text (`"{v}"` or `"#1"`), `[$($v)*]` its
/// declaration.
macro_rules! op_return {
    ($p:expr, $operand:literal, [$($v:tt)*], $insn:literal, $prepend:expr, $append:expr) => {{
        let result: i32;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                $prepend,
                prefetchw!(),
                "1: ldrex {r}, [{p}]",
                concat!($insn, " {r}, {r}, ", $operand),
                "strex {t}, {r}, [{p}]",
                "teq {t}, #0",
                "bne 1b",
                $append,
                p = in(reg) $p,
                $($v)*
                r = out(reg) result,
                t = out(reg) _,
                options(nostack),
            )
        };
        result
    }};
}

/// C's 32-bit fetch loop (`ATOMIC_FETCH_OP()`, atomic.h:75-94) with the barriers of a
/// `by_order!` row; evaluates to the old value.
macro_rules! fetch_op {
    ($p:expr, $operand:literal, [$($v:tt)*], $insn:literal, $prepend:expr, $append:expr) => {{
        let old: i32;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                $prepend,
                prefetchw!(),
                "1: ldrex {o}, [{p}]",
                concat!($insn, " {n}, {o}, ", $operand),
                "strex {t}, {n}, [{p}]",
                "teq {t}, #0",
                "bne 1b",
                $append,
                p = in(reg) $p,
                $($v)*
                o = out(reg) old,
                n = out(reg) _,
                t = out(reg) _,
                options(nostack),
            )
        };
        old
    }};
}

/// C's exchange loop of size suffix `$sz` (`""`, `"b"`, `"h"`: `__arch_xchg()`,
/// cmpxchg.h:41-76) on the zero-extended `u32` `$new`, with the barriers of a `by_order!` row;
/// evaluates to the value found, zero-extended.
macro_rules! xchg_loop {
    ($sz:literal, $p:expr, $new:expr, $prepend:expr, $append:expr) => {{
        let old: u32;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                $prepend,
                prefetchw!(),
                concat!("1: ldrex", $sz, " {o}, [{p}]"),
                concat!("strex", $sz, " {t}, {n}, [{p}]"),
                "teq {t}, #0",
                "bne 1b",
                $append,
                p = in(reg) $p,
                n = in(reg) $new,
                o = out(reg) old,
                t = out(reg) _,
                options(nostack),
            )
        };
        old
    }};
}

/// C's compare-and-exchange of size suffix `$sz` (`__cmpxchg()`, cmpxchg.h:158-207, and
/// `arch_atomic_cmpxchg_relaxed()`, atomic.h:106-126: the store conditional on the comparison,
/// the loop's test after it) on zero-extended `u32`s, with the barriers of a `by_order!` row;
/// evaluates to the value found.
macro_rules! cmpxchg_loop {
    ($sz:literal, $p:expr, $old:expr, $new:expr, $prepend:expr, $append:expr) => {{
        let found: u32;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                $prepend,
                prefetchw!(),
                concat!("1: ldrex", $sz, " {o}, [{p}]"),
                "mov {t}, #0",
                "teq {o}, {old}",
                concat!("strex", $sz, "eq {t}, {n}, [{p}]"),
                "teq {t}, #0",
                "bne 1b",
                $append,
                p = in(reg) $p,
                old = in(reg) $old,
                n = in(reg) $new,
                o = out(reg) found,
                t = out(reg) _,
                options(nostack),
            )
        };
        found
    }};
}

/// An `i64` as its low and high words, the registers of a pair.
#[inline(always)]
fn split(v: i64) -> (u32, u32) {
    (v as u32, (v >> 32) as u32)
}

/// The `i64` of a pair's low and high words.
#[inline(always)]
fn join(lo: u32, hi: u32) -> i64 {
    ((u64::from(hi) << 32) | u64::from(lo)) as i64
}

/// C's 64-bit loop that stores what it computes in the pair it loaded into (`ATOMIC64_OP()`,
/// `ATOMIC64_OP_RETURN()`, atomic.h:311-351) with the barriers of a `by_order!` row; evaluates
/// to the new value.
macro_rules! op_return64 {
    ($p:expr, $v:expr, $lo:literal, $hi:literal, $prepend:expr, $append:expr) => {{
        let (vlo, vhi) = split($v);
        let (lo, hi): (u32, u32);
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                $prepend,
                prefetchw!(),
                "1: ldrexd r0, r1, [{p}]",
                concat!($lo, " r0, r0, {vlo}"),
                concat!($hi, " r1, r1, {vhi}"),
                "strexd {t}, r0, r1, [{p}]",
                "teq {t}, #0",
                "bne 1b",
                $append,
                p = in(reg) $p,
                vlo = in(reg) vlo,
                vhi = in(reg) vhi,
                out("r0") lo,
                out("r1") hi,
                t = out(reg) _,
                options(nostack),
            )
        };
        join(lo, hi)
    }};
}

/// C's 64-bit fetch loop (`ATOMIC64_FETCH_OP()`, atomic.h:353-374) with the barriers of a
/// `by_order!` row; evaluates to the old value.
macro_rules! fetch_op64 {
    ($p:expr, $v:expr, $lo:literal, $hi:literal, $prepend:expr, $append:expr) => {{
        let (vlo, vhi) = split($v);
        let (lo, hi): (u32, u32);
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                $prepend,
                prefetchw!(),
                "1: ldrexd r0, r1, [{p}]",
                concat!($lo, " r4, r0, {vlo}"),
                concat!($hi, " r5, r1, {vhi}"),
                "strexd {t}, r4, r5, [{p}]",
                "teq {t}, #0",
                "bne 1b",
                $append,
                p = in(reg) $p,
                vlo = in(reg) vlo,
                vhi = in(reg) vhi,
                out("r0") lo,
                out("r1") hi,
                out("r4") _,
                out("r5") _,
                t = out(reg) _,
                options(nostack),
            )
        };
        join(lo, hi)
    }};
}

/// C's 64-bit exchange (`arch_atomic64_xchg_relaxed()`, atomic.h:434-452) with the barriers of
/// a `by_order!` row; evaluates to the old value.
macro_rules! xchg64 {
    ($p:expr, $new:expr, $prepend:expr, $append:expr) => {{
        let (nlo, nhi) = split($new);
        let (lo, hi): (u32, u32);
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                $prepend,
                prefetchw!(),
                "1: ldrexd r0, r1, [{p}]",
                "strexd {t}, r2, r3, [{p}]",
                "teq {t}, #0",
                "bne 1b",
                $append,
                p = in(reg) $p,
                in("r2") nlo,
                in("r3") nhi,
                out("r0") lo,
                out("r1") hi,
                t = out(reg) _,
                options(nostack),
            )
        };
        join(lo, hi)
    }};
}

/// C's 64-bit compare-and-exchange (`arch_atomic64_cmpxchg_relaxed()`, atomic.h:411-432) with
/// the barriers of a `by_order!` row; evaluates to the value found. The value found is loaded
/// into the pair `$flo`/`$fhi`, the new value stored from the pair `$nlo`/`$nhi`: the callers
/// choose them (see `Exchange for I64`).
macro_rules! cmpxchg64 {
    (
        $p:expr, $old:expr, $new:expr, ($flo:tt, $fhi:tt), ($nlo:tt, $nhi:tt),
        $prepend:expr, $append:expr
    ) => {{
        let (olo, ohi) = split($old);
        let (nlo, nhi) = split($new);
        let (lo, hi): (u32, u32);
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                $prepend,
                prefetchw!(),
                concat!("1: ldrexd ", $flo, ", ", $fhi, ", [{p}]"),
                "mov {t}, #0",
                concat!("teq ", $flo, ", {olo}"),
                concat!("teqeq ", $fhi, ", {ohi}"),
                concat!("strexdeq {t}, ", $nlo, ", ", $nhi, ", [{p}]"),
                "teq {t}, #0",
                "bne 1b",
                $append,
                p = in(reg) $p,
                olo = in(reg) olo,
                ohi = in(reg) ohi,
                in($nlo) nlo,
                in($nhi) nhi,
                out($flo) lo,
                out($fhi) hi,
                t = out(reg) _,
                options(nostack),
            )
        };
        join(lo, hi)
    }};
}

/// C's 64-bit `try_cmpxchg()` (`raw_atomic64_try_cmpxchg*()`, atomic-arch-fallback.h: the
/// cmpxchg loop, then `*old` updated when the value found differs) with the barriers of a
/// `by_order!` row; evaluates to whether it stored. `*old` is loaded and updated in the block,
/// as C's compiler does it (`ldrd`, `strdne`), and the result is a `bool` made there (a `u8`
/// that is 0 or 1): in Rust they cost moves into pairs the compiler does not know it has, and
/// C's compiler's five instructions for the result. Pairs: `*old` in `r8`/`r9`, the value found
/// in `r4`/`r5`, the new value in `r2`/`r3` (where the AAPCS passes `try_cmpxchg()`'s `new`).
macro_rules! try_cmpxchg64 {
    ($p:expr, $old:expr, $new:expr, $prepend:expr, $append:expr) => {{
        let (nlo, nhi) = split($new);
        let stored: u8;
        // The loop accesses exactly the integer at `$p`; the block also reads and may write the
        // caller's `*$old`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic;
        // `$old` is a reference, valid and aligned for a doubleword access.
        unsafe {
            asm!(
                arch!(),
                "ldrd r8, r9, [{old}]",
                $prepend,
                prefetchw!(),
                "1: ldrexd r4, r5, [{p}]",
                "mov {t}, #0",
                "teq r4, r8",
                "teqeq r5, r9",
                "strexdeq {t}, r2, r3, [{p}]",
                "teq {t}, #0",
                "bne 1b",
                $append,
                "teq r4, r8",
                "teqeq r5, r9",
                "strdne r4, r5, [{old}]",
                "mov {stored}, #0",
                "moveq {stored}, #1",
                p = in(reg) $p,
                old = in(reg) core::ptr::from_mut($old),
                in("r2") nlo,
                in("r3") nhi,
                out("r4") _,
                out("r5") _,
                out("r8") _,
                out("r9") _,
                t = out(reg) _,
                stored = lateout(reg) stored,
                options(nostack),
            )
        };
        // Not `stored != 0`, which the compiler turns into a comparison and a move: it does not
        // know the block makes 0 or 1.
        #[allow(clippy::transmute_int_to_bool)]
        // SAFETY: The block writes 0 or 1 to `stored`.
        let stored = unsafe { core::mem::transmute::<u8, bool>(stored) };
        stored
    }};
}

// Of at most 32 bits: the 64-bit type's loads and stores are its own (below).
fenced_load_store!("ARMv7",
    // `__smp_load_acquire()` (include/asm-generic/barrier.h:147-155).
    acquire: { barrier_asm!(smp_dmb!()); },
    // `__smp_store_release()` (include/asm-generic/barrier.h:138-145).
    release: { barrier_asm!(smp_dmb!()); };
    I8: i8, I16: i16, I32: i32);

/// Implements [`Exchange`] for marker `$m` of `$t` with the exclusives of size suffix `$sz`,
/// on the value zero-extended through `$u` (`ldrex{b,h}` zero-extends what it loads).
macro_rules! impl_exchange {
    ($($m:ident: $t:ty as $u:ty, $sz:literal);+) => {$(
        // SAFETY: C's exclusive loops with C's barriers for each ordering (see the module docs).
        unsafe impl Exchange for $m {
            #[inline(always)]
            unsafe fn xchg(p: *mut Self::V, new: Self::V, order: Order) -> Self::V {
                let new = u32::from(new as $u);
                by_order!(order, xchg_loop!($sz, p, new)) as $u as $t
            }

            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                old: Self::V,
                new: Self::V,
                order: Order,
            ) -> Self::V {
                let (old, new) = (u32::from(old as $u), u32::from(new as $u));
                by_order!(order, cmpxchg_loop!($sz, p, old, new)) as $u as $t
            }
        }
    )+};
}

impl_exchange!(I8: i8 as u8, "b"; I16: i16 as u16, "h"; I32: i32 as u32, "");

// SAFETY: C's exclusive loops with C's barriers for each ordering (see the module docs).
unsafe impl Primitive for I32 {
    #[inline(always)]
    unsafe fn rmw(p: *mut Self::V, op: Rmw, v: Self::V) {
        by_rmw!(op, op_return!(p, "{v}", [v = in(reg) v,]), "", "");
    }

    #[inline(always)]
    unsafe fn rmw_one(p: *mut Self::V, op: Rmw) {
        by_rmw!(op, op_return!(p, "#1", []), "", "");
    }

    #[inline(always)]
    unsafe fn fetch_rmw(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
        by_order!(order, by_rmw!(op, fetch_op!(p, "{v}", [v = in(reg) v,])))
    }

    #[inline(always)]
    unsafe fn fetch_rmw_one(p: *mut Self::V, op: Rmw, order: Order) -> Self::V {
        by_order!(order, by_rmw!(op, fetch_op!(p, "#1", [])))
    }

    #[inline(always)]
    unsafe fn rmw_return(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
        by_order!(order, by_rmw!(op, op_return!(p, "{v}", [v = in(reg) v,])))
    }

    #[inline(always)]
    unsafe fn rmw_return_one(p: *mut Self::V, op: Rmw, order: Order) -> Self::V {
        by_order!(order, by_rmw!(op, op_return!(p, "#1", [])))
    }

    /// C's own loop (`arch_atomic_fetch_add_unless()`, atomic.h:128-154): `dmb ish`, the loop,
    /// which branches out when the value is `u`, past the trailing `dmb ish` that C runs only
    /// when it added.
    #[inline(always)]
    unsafe fn fetch_add_unless(p: *mut Self::V, a: Self::V, u: Self::V) -> Self::V {
        let old: i32;
        // The loop accesses exactly the integer at `p`.
        // SAFETY: The caller guarantees `p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                smp_dmb!(),
                prefetchw!(),
                "1: ldrex {o}, [{p}]",
                "teq {o}, {u}",
                "beq 2f",
                "add {n}, {o}, {a}",
                "strex {t}, {n}, [{p}]",
                "teq {t}, #0",
                "bne 1b",
                smp_dmb!(),
                "2:",
                p = in(reg) p,
                u = in(reg) u,
                a = in(reg) a,
                o = out(reg) old,
                n = out(reg) _,
                t = out(reg) _,
                options(nostack),
            )
        };
        old
    }

    /// C's generic `atomic_inc_not_zero()`, `atomic_add_unless(v, 1, 0)`
    /// (atomic-arch-fallback.h), on arm's `fetch_add_unless()`.
    #[inline(always)]
    unsafe fn inc_not_zero(p: *mut Self::V) -> bool {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { Self::fetch_add_unless(p, 1, 0) != 0 }
    }
}

/// The ARMv7 primitives on `i64`.
pub enum I64 {}

// SAFETY: `ldrd`/`strd` with LPAE, `ldrexd` and the `ldrexd`/`strexd` loop without it, are single
// accesses (see the module docs), and the barriers give the ordered variants their ordering.
unsafe impl LoadStore for I64 {
    type V = i64;

    /// C's `atomic64_read()`: `ldrd` with LPAE (atomic.h:259-270), here a volatile load, which
    /// the compiler makes one `ldrd` too (codegen parity checks it: `read_once_s64`, whose C is
    /// one `ldrd`) and, unlike a block with the pair in named registers, places in any pair;
    /// otherwise a lone `ldrexd` (atomic.h:282-293).
    #[inline(always)]
    unsafe fn read(p: *const Self::V) -> Self::V {
        #[cfg(CONFIG_ARM_LPAE)]
        // SAFETY: The caller guarantees that `p` is valid for reads and aligned.
        let v = unsafe { p.read_volatile() };
        #[cfg(not(CONFIG_ARM_LPAE))]
        let v = {
            let (lo, hi): (u32, u32);
            // SAFETY: The caller guarantees that `p` is valid for reads and aligned.
            unsafe {
                asm!(
                    arch!(),
                    "ldrexd r0, r1, [{p}]",
                    p = in(reg) p,
                    lateout("r0") lo,
                    lateout("r1") hi,
                    options(nostack, preserves_flags, readonly),
                )
            };
            join(lo, hi)
        };
        v
    }

    #[inline(always)]
    unsafe fn read_acquire(p: *const Self::V) -> Self::V {
        // SAFETY: The caller upholds the contract of `read`.
        let v = unsafe { Self::read(p) };
        // The fallback's `smp_load_acquire()` on `atomic64_read()` (atomic-arch-fallback.h:
        // 2597-2612).
        barrier_asm!(smp_dmb!());
        v
    }

    /// C's `atomic64_set()`: `strd` with LPAE (atomic.h:272-279), here a volatile store, which
    /// the compiler makes one `strd` too (codegen parity: `write_once_s64`); otherwise an
    /// `ldrexd`/`strexd` loop whose status reuses the loaded pair (atomic.h:295-307).
    #[inline(always)]
    unsafe fn set(p: *mut Self::V, v: Self::V) {
        #[cfg(CONFIG_ARM_LPAE)]
        // SAFETY: The caller guarantees that `p` is valid for writes and aligned.
        unsafe {
            p.write_volatile(v)
        };
        #[cfg(not(CONFIG_ARM_LPAE))]
        {
            let (lo, hi) = split(v);
            // SAFETY: The caller guarantees that `p` is valid for writes and aligned.
            unsafe {
                asm!(
                    arch!(),
                    prefetchw!(),
                    "1: ldrexd r0, r1, [{p}]",
                    "strexd r0, r2, r3, [{p}]",
                    "teq r0, #0",
                    "bne 1b",
                    p = in(reg) p,
                    in("r2") lo,
                    in("r3") hi,
                    out("r0") _,
                    out("r1") _,
                    options(nostack),
                )
            };
        }
    }

    #[inline(always)]
    unsafe fn set_release(p: *mut Self::V, v: Self::V) {
        // The fallback's `smp_store_release()` on `atomic64_set()` (atomic-arch-fallback.h:
        // 2644-2656).
        barrier_asm!(smp_dmb!());
        // SAFETY: The caller upholds the contract of `set`.
        unsafe { Self::set(p, v) }
    }
}

// SAFETY: C's exclusive loops with C's barriers for each ordering (see the module docs).
unsafe impl Exchange for I64 {
    #[inline(always)]
    unsafe fn xchg(p: *mut Self::V, new: Self::V, order: Order) -> Self::V {
        by_order!(order, xchg64!(p, new))
    }

    /// The value found in `r4`/`r5` and the new value in `r8`/`r9`: with `cmpxchg()`'s
    /// arguments as the AAPCS passes them (the pointer in `r0`, `old` in `r2`/`r3`, `new` on the
    /// stack), no register is moved but the result, as in C's.
    #[inline(always)]
    unsafe fn cmpxchg(p: *mut Self::V, old: Self::V, new: Self::V, order: Order) -> Self::V {
        by_order!(order, cmpxchg64!(p, old, new, ("r4", "r5"), ("r8", "r9")))
    }

    /// C's (`raw_atomic64_try_cmpxchg*()`, atomic-arch-fallback.h): `*old` written only when
    /// the value found differs.
    #[inline(always)]
    unsafe fn try_cmpxchg(p: *mut Self::V, old: &mut Self::V, new: Self::V, order: Order) -> bool {
        by_order!(order, try_cmpxchg64!(p, old, new))
    }
}

/// C's generic 64-bit `atomic64_{inc_unless_negative,dec_unless_positive}()`
/// (atomic-arch-fallback.h: `raw_atomic64_read()`, then while the value allows it a fully
/// ordered `raw_atomic64_try_cmpxchg()` of the value plus or minus one), in one block, as C's
/// compiler lays it out: the read (`ldrd` with LPAE, otherwise `ldrexd`), the test `$out`
/// branching to `3f` when the value does not allow it, the new value by `$lo`/`$hi`, `dmb ish`,
/// `arch_atomic64_cmpxchg_relaxed()`'s loop, `dmb ish` (whether it stored or not, as C), and
/// back to the test with the value found if it was not the one expected. Evaluates to whether it
/// stored. Written in Rust on [`Exchange::cmpxchg`], the loop costs a move more than C's: the
/// compiler does not know which registers are pairs. Pairs: the value `r2`/`r3`, the new value
/// `r8`/`r9`, the value found `r4`/`r5`; `{t}` is free for `$out`.
macro_rules! add_unless64 {
    ($p:expr, [$($out:literal),+], $lo:literal, $hi:literal) => {{
        let stored: u8;
        // The block accesses exactly the integer at `$p`.
        // SAFETY: The caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                read64_r2!(),
                "mov {stored}, #0",
                "2:",
                $($out,)+
                $lo,
                $hi,
                smp_dmb!(),
                prefetchw!(),
                "1: ldrexd r4, r5, [{p}]",
                "mov {t}, #0",
                "teq r4, r2",
                "teqeq r5, r3",
                "strexdeq {t}, r8, r9, [{p}]",
                "teq {t}, #0",
                "bne 1b",
                smp_dmb!(),
                "teq r4, r2",
                "teqeq r5, r3",
                "movne r2, r4",
                "movne r3, r5",
                "bne 2b",
                "mov {stored}, #1",
                "3:",
                p = in(reg) $p,
                out("r2") _,
                out("r3") _,
                out("r4") _,
                out("r5") _,
                out("r8") _,
                out("r9") _,
                t = out(reg) _,
                stored = out(reg) stored,
                options(nostack),
            )
        };
        // Not `stored != 0`, which the compiler turns into a comparison and a move: it does not
        // know the block makes 0 or 1.
        #[allow(clippy::transmute_int_to_bool)]
        // SAFETY: The block writes 0 or 1 to `stored`.
        let stored = unsafe { core::mem::transmute::<u8, bool>(stored) };
        stored
    }};
}

/// `atomic64_read()` of `{p}` into `r2`/`r3` (see `LoadStore for I64`): `ldrd` with LPAE.
#[cfg(CONFIG_ARM_LPAE)]
macro_rules! read64_r2 {
    () => {
        "ldrd r2, r3, [{p}]"
    };
}

/// Without LPAE: a lone `ldrexd`.
#[cfg(not(CONFIG_ARM_LPAE))]
macro_rules! read64_r2 {
    () => {
        "ldrexd r2, r3, [{p}]"
    };
}

// SAFETY: C's exclusive loops with C's barriers for each ordering (see the module docs).
unsafe impl Primitive for I64 {
    #[inline(always)]
    unsafe fn rmw(p: *mut Self::V, op: Rmw, v: Self::V) {
        by_rmw64!(op, op_return64!(p, v), "", "");
    }

    #[inline(always)]
    unsafe fn fetch_rmw(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
        by_order!(order, by_rmw64!(op, fetch_op64!(p, v)))
    }

    #[inline(always)]
    unsafe fn rmw_return(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
        by_order!(order, by_rmw64!(op, op_return64!(p, v)))
    }

    /// C's own loop (`arch_atomic64_dec_if_positive()`, atomic.h:454-480): `dmb ish`, the loop,
    /// which branches out without storing when the high word of the result is negative, and
    /// `dmb ish` either way; the result, the value minus one, either way.
    #[inline(always)]
    unsafe fn dec_if_positive(p: *mut Self::V) -> Self::V {
        let (lo, hi): (u32, u32);
        // The loop accesses exactly the integer at `p`.
        // SAFETY: The caller guarantees `p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                smp_dmb!(),
                prefetchw!(),
                "1: ldrexd r0, r1, [{p}]",
                "subs r0, r0, #1",
                "sbc r1, r1, #0",
                "teq r1, #0",
                "bmi 2f",
                "strexd {t}, r0, r1, [{p}]",
                "teq {t}, #0",
                "bne 1b",
                "2:",
                smp_dmb!(),
                p = in(reg) p,
                out("r0") lo,
                out("r1") hi,
                t = out(reg) _,
                options(nostack),
            )
        };
        join(lo, hi)
    }

    /// C's own loop (`arch_atomic64_fetch_add_unless()`, atomic.h:482-510): `dmb ish`, the loop,
    /// which branches out when the value is `u`, past the trailing `dmb ish` that C runs only
    /// when it added.
    #[inline(always)]
    unsafe fn fetch_add_unless(p: *mut Self::V, a: Self::V, u: Self::V) -> Self::V {
        let ((alo, ahi), (ulo, uhi)) = (split(a), split(u));
        let (lo, hi): (u32, u32);
        // The loop accesses exactly the integer at `p`.
        // SAFETY: The caller guarantees `p` valid, aligned, atomic.
        unsafe {
            asm!(
                arch!(),
                smp_dmb!(),
                prefetchw!(),
                "1: ldrexd r0, r1, [{p}]",
                "teq r0, {ulo}",
                "teqeq r1, {uhi}",
                "beq 2f",
                "adds r4, r0, {alo}",
                "adc r5, r1, {ahi}",
                "strexd {t}, r4, r5, [{p}]",
                "teq {t}, #0",
                "bne 1b",
                smp_dmb!(),
                "2:",
                p = in(reg) p,
                ulo = in(reg) ulo,
                uhi = in(reg) uhi,
                alo = in(reg) alo,
                ahi = in(reg) ahi,
                out("r0") lo,
                out("r1") hi,
                out("r4") _,
                out("r5") _,
                t = out(reg) _,
                options(nostack),
            )
        };
        join(lo, hi)
    }

    /// C's generic `atomic64_inc_not_zero()`, `atomic64_add_unless(v, 1, 0)`
    /// (atomic-arch-fallback.h), on arm's `fetch_add_unless()`.
    #[inline(always)]
    unsafe fn inc_not_zero(p: *mut Self::V) -> bool {
        // SAFETY: The caller upholds the trait's contract.
        unsafe { Self::fetch_add_unless(p, 1, 0) != 0 }
    }

    /// C's generic loop (`raw_atomic64_inc_unless_negative()`, atomic-arch-fallback.h): see
    /// [`add_unless64!`].
    #[inline(always)]
    unsafe fn inc_unless_negative(p: *mut Self::V) -> bool {
        // Out when the value is negative: its high word is.
        add_unless64!(
            p,
            ["cmp r3, #0", "bmi 3f"],
            "adds r8, r2, #1",
            "adc r9, r3, #0"
        )
    }

    /// C's generic loop (`raw_atomic64_dec_unless_positive()`, atomic-arch-fallback.h): see
    /// [`add_unless64!`].
    #[inline(always)]
    unsafe fn dec_unless_positive(p: *mut Self::V) -> bool {
        // Out when the value is positive: when 0 minus it is negative, signed (`rsbs`/`rscs` set
        // the flags of the 64-bit subtraction, `lt` is N != V).
        add_unless64!(
            p,
            ["rsbs {t}, r2, #0", "rscs {t}, r3, #0", "blt 3f"],
            "subs r8, r2, #1",
            "sbc r9, r3, #0"
        )
    }
}
