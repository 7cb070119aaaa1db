// SPDX-License-Identifier: GPL-2.0

//! x86 primitives.
//!
//! Implementation choices, with the ordering argument:
//! - Read-modify-write operations are `lock`-prefixed instructions: `add`/`sub`/`and`/`or`/
//!   `xor`/`inc`/`dec` when no value is returned, `xadd` for fetch-add and fetch-sub, a
//!   `cmpxchg` loop for fetch-and/or/xor/andnot, `lock sub; sete` and the like for the
//!   `*_and_test` and `add_negative` operations. `xchg` with a memory operand is locked
//!   implicitly. A locked instruction is a full barrier on x86 (Intel SDM Vol. 3A, 9.2.2
//!   "Memory Ordering in P6 and More Recent Processor Families": "Locked instructions have a
//!   total order" and "reads or writes cannot be reordered with ... locked instructions"), so
//!   every ordering variant is the same instruction, as in C's `arch/x86/include/asm/atomic.h`.
//! - The `lock` prefix is recorded in `.smp_locks`, exactly as C's `LOCK_PREFIX` does, so that
//!   the kernel can patch it out when it runs on a single CPU; without `CONFIG_SMP` there is no
//!   prefix at all.
//! - Loads and stores are volatile accesses, as C's `READ_ONCE()`/`WRITE_ONCE()`: x86 (TSO)
//!   performs aligned loads and stores of up to 8 bytes atomically (SDM 9.1.1), and a load is
//!   not reordered with later accesses, nor a store with earlier ones (SDM 9.2.2), so
//!   `smp_load_acquire()`/`smp_store_release()` need only a compiler barrier, as in C's
//!   `arch/x86/include/asm/barrier.h`.
//! - No read-modify-write `asm!` has `preserves_flags`: these instructions write the
//!   arithmetic flags. None has `nomem`: like C's `"memory"` clobber, each is also a compiler
//!   barrier.
//!
//! User-mode Linux on x86_64 (`CONFIG_UML` with `CONFIG_X86_64`, not `CONFIG_X86`) runs the
//! same instructions, from the same `arch/x86/include/asm/atomic*.h` and `cmpxchg*.h` (UML has
//! none of its own: arch/um/include/asm/Kbuild), but its barriers are UML's own
//! (arch/x86/um/asm/barrier.h:21-23 on 6.12 and 7.2: `mb()`, `rmb()` and `wmb()` are `mfence`,
//! `lfence` and `sfence`) under asm-generic's (include/asm-generic/barrier.h: 85-124, 131-210
//! on both): with `CONFIG_SMP` (7.2), `smp_mb()`, `smp_mb__{before,after}_atomic()` and the
//! fence of `smp_load_acquire()` (after the load) and `smp_store_release()` (before the store)
//! are `mfence`, `smp_rmb()` `lfence`, `smp_wmb()` `sfence`; without (6.12's UML has no SMP),
//! all are `barrier()` and `LOCK_PREFIX` is empty (arch/x86/include/asm/alternative.h, 6.12:
//! 43-56), as here. These are stronger than x86's own choices, never weaker, and are what C's
//! code on UML runs, so the two agree instruction for instruction.

use super::super::primitive::{Exchange, Int, LoadStore, Order, Primitive, Rmw};
use super::Contract;
use core::arch::asm;

/// Emits `$insn` with the `lock` prefix that C's `LOCK_PREFIX` emits.
#[cfg(CONFIG_SMP)]
macro_rules! lock_prefixed {
    ($($insn:expr),+) => {
        concat!(
            ".pushsection .smp_locks,\"a\"\n",
            ".balign 4\n",
            ".long 671f - .\n",
            ".popsection\n",
            "671:\n",
            "\tlock ",
            $($insn),+
        )
    };
}

/// Emits `$insn` unprefixed: a kernel built without `CONFIG_SMP` has no other CPU to exclude.
#[cfg(not(CONFIG_SMP))]
macro_rules! lock_prefixed {
    ($($insn:expr),+) => {
        concat!($($insn),+)
    };
}

/// The x86_64 architecture: the items of [`Contract`].
pub enum Arch {}

// SAFETY: Every primitive is C's instruction for the operation (see the module docs), and each
// barrier is C's: x86's (arch/x86/include/asm/barrier.h:53-76), or UML's
// (arch/x86/um/asm/barrier.h:21-23 under include/asm-generic/barrier.h), at least as strong.
unsafe impl Contract for Arch {
    type I8 = I8;
    type I16 = I16;
    type I32 = I32;
    type I64 = I64;

    /// As C's, the acquire loads and release stores are volatile accesses, with the fence of
    /// [`fences::acquire_release`], which the compilers' KASAN instrumentation checks (rustc's
    /// too) and C's KCSAN instrumentation sees.
    const ACQUIRE_RELEASE_VOLATILE: bool = true;

    #[inline(always)]
    fn smp_mb() {
        fences::smp_mb();
    }

    #[inline(always)]
    fn smp_rmb() {
        fences::smp_rmb();
    }

    #[inline(always)]
    fn smp_wmb() {
        fences::smp_wmb();
    }

    #[inline(always)]
    fn smp_mb__before_atomic() {
        fences::smp_mb__before_atomic();
    }

    #[inline(always)]
    fn smp_mb__after_atomic() {
        fences::smp_mb__after_atomic();
    }

    fn implementation() -> &'static str {
        fences::IMPLEMENTATION
    }
}

/// x86's barriers (arch/x86/include/asm/barrier.h).
#[cfg(not(CONFIG_UML))]
mod fences {
    use super::super::barrier;
    use core::arch::asm;

    /// What the samples report.
    pub(super) const IMPLEMENTATION: &str = "x86 lock-prefixed instructions";

    /// A full barrier, the locked no-op C's `__smp_mb()` uses (cheaper than `mfence`;
    /// arch/x86/include/asm/barrier.h:53). Its `lock` is written out, not `LOCK_PREFIX`: C never
    /// patches it away, not even on a single CPU, since `smp_mb()` also orders against devices'
    /// DMA there (`virt_mb()`).
    #[inline(always)]
    pub(super) fn smp_mb() {
        // The kernel has no red zone (`-mno-red-zone`): the word below the stack pointer
        // belongs to nobody, and adding zero to it changes nothing, so the instruction neither
        // pushes nor touches data of the compiler's, which is what `nostack` promises; without
        // it, rustc realigns the stack around the block (`push %rax` ... `pop %rax`), which C
        // does not.
        // SAFETY: The locked add of zero has no effect but ordering.
        unsafe { asm!("lock; addl $0, -4(%rsp)", options(att_syntax, nostack)) };
    }

    /// Loads are not reordered with loads on x86, so a compiler barrier (C's `dma_rmb()`, which
    /// is `barrier()` on x86_64).
    #[inline(always)]
    pub(super) fn smp_rmb() {
        barrier();
    }

    /// Stores are not reordered with stores on x86, so a compiler barrier.
    #[inline(always)]
    pub(super) fn smp_wmb() {
        barrier();
    }

    /// Every atomic read-modify-write is already a full barrier on x86 and a compiler barrier
    /// in this library; C emits nothing either (arch/x86/include/asm/barrier.h:75).
    #[inline(always)]
    // The C name, so that it is found where C uses it.
    #[allow(non_snake_case)]
    pub(super) fn smp_mb__before_atomic() {}

    /// As [`smp_mb__before_atomic`] (arch/x86/include/asm/barrier.h:76).
    #[inline(always)]
    // The C name, so that it is found where C uses it.
    #[allow(non_snake_case)]
    pub(super) fn smp_mb__after_atomic() {}

    /// The fence of `smp_load_acquire()` (after the load) and `smp_store_release()` (before the
    /// store): a compiler barrier, as x86's loads and stores are ordered so
    /// (arch/x86/include/asm/barrier.h:59-72).
    #[inline(always)]
    pub(super) fn acquire_release() {
        barrier();
    }
}

/// UML's barriers: `mb()`, `rmb()` and `wmb()` of arch/x86/um/asm/barrier.h:21-23 under
/// include/asm-generic/barrier.h's `smp_*()` (6.12 and 7.2: 85-93, 131-155).
#[cfg(CONFIG_UML)]
mod fences {
    use core::arch::asm;

    /// What the samples report.
    pub(super) const IMPLEMENTATION: &str = "UML on x86_64: x86 instructions, UML's fences";

    /// UML's `mb()`, `mfence` (arch/x86/um/asm/barrier.h:21), which asm-generic's `__smp_mb()`
    /// is.
    #[inline(always)]
    pub(super) fn smp_mb() {
        // SAFETY: A fence has no effect but ordering, and writes no flags.
        unsafe { asm!("mfence", options(nostack, preserves_flags)) };
    }

    /// UML's `rmb()`, `lfence` (arch/x86/um/asm/barrier.h:22), which asm-generic's
    /// `__smp_rmb()` is.
    #[inline(always)]
    pub(super) fn smp_rmb() {
        // SAFETY: A fence has no effect but ordering, and writes no flags.
        unsafe { asm!("lfence", options(nostack, preserves_flags)) };
    }

    /// UML's `wmb()`, `sfence` (arch/x86/um/asm/barrier.h:23), which asm-generic's
    /// `__smp_wmb()` is.
    #[inline(always)]
    pub(super) fn smp_wmb() {
        // SAFETY: A fence has no effect but ordering, and writes no flags.
        unsafe { asm!("sfence", options(nostack, preserves_flags)) };
    }

    /// asm-generic's `__smp_mb__before_atomic()`: `__smp_mb()` (barrier.h:131).
    #[inline(always)]
    // The C name, so that it is found where C uses it.
    #[allow(non_snake_case)]
    pub(super) fn smp_mb__before_atomic() {
        smp_mb();
    }

    /// asm-generic's `__smp_mb__after_atomic()`: `__smp_mb()` (barrier.h:135).
    #[inline(always)]
    // The C name, so that it is found where C uses it.
    #[allow(non_snake_case)]
    pub(super) fn smp_mb__after_atomic() {
        smp_mb();
    }

    /// The fence of `smp_load_acquire()` (after the load) and `smp_store_release()` (before the
    /// store): asm-generic's `__smp_mb()` with `CONFIG_SMP`, `barrier()` without
    /// (include/asm-generic/barrier.h: 139-155, 194-208), which is what
    /// [`smp_mb()`](super::super::smp_mb) is.
    #[inline(always)]
    pub(super) fn acquire_release() {
        super::super::smp_mb();
    }
}

fenced_load_store!("x86",
    // x86's compiler barrier, or UML's fence (see the module docs and `fences`).
    acquire: { fences::acquire_release(); },
    release: { fences::acquire_release(); };
    I8: i8, I16: i16, I32: i32, I64: i64);

/// A locked read-modify-write without result on `*$p`: `$insn`, with operand `$v` if given.
macro_rules! locked_rmw {
    ($p:expr, $insn:expr) => {
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                lock_prefixed!($insn, " ({p})"),
                p = in(reg) $p,
                options(att_syntax, nostack),
            )
        }
    };
    ($p:expr, $v:expr, $insn:expr, $w:literal) => {
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                lock_prefixed!($insn, " {v", $w, "}, ({p})"),
                p = in(reg) $p,
                v = in(reg) $v,
                options(att_syntax, nostack),
            )
        }
    };
}

/// The result of a `set<cc>` instruction, 0 or 1, as a `bool` without testing it again
/// (`cc != 0` costs a `test` and a `setne`, which C's flag outputs, `CC_SET()`, avoid).
///
/// # Safety
///
/// `cc` must be 0 or 1, as `set<cc>` writes it.
#[inline(always)]
// `cc != 0`, which clippy proposes, is the very `test`/`setne` this function exists to avoid.
#[allow(clippy::transmute_int_to_bool)]
unsafe fn byte_to_bool(cc: u8) -> bool {
    // The caller guarantees 0 or 1, the two valid representations of `bool`.
    // SAFETY: `bool` has the size of `u8`, and `cc` is a valid `bool`.
    unsafe { core::mem::transmute::<u8, bool>(cc) }
}

/// A locked instruction on `*$p` (operand `$v` if given) followed by `set$cc`: whether the
/// condition held on the result.
macro_rules! locked_rmw_cc {
    ($p:expr, $insn:expr, $cc:literal) => {{
        let cc: u8;
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                lock_prefixed!($insn, " ({p})"),
                concat!("set", $cc, " {cc}"),
                p = in(reg) $p,
                cc = out(reg_byte) cc,
                options(att_syntax, nostack),
            )
        };
        // SAFETY: `set<cc>` writes 0 or 1.
        unsafe { byte_to_bool(cc) }
    }};
    ($p:expr, $v:expr, $insn:expr, $w:literal, $cc:literal) => {{
        let cc: u8;
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                lock_prefixed!($insn, " {v", $w, "}, ({p})"),
                concat!("set", $cc, " {cc}"),
                p = in(reg) $p,
                v = in(reg) $v,
                cc = out(reg_byte) cc,
                options(att_syntax, nostack),
            )
        };
        // SAFETY: `set<cc>` writes 0 or 1.
        unsafe { byte_to_bool(cc) }
    }};
}

/// Implements [`Exchange`] for marker `$m`, whose instructions take suffix `$s` and whose
/// register operands are of class `$class` with template modifier `$w`; `$acc` is the
/// register `cmpxchg` compares.
macro_rules! impl_exchange {
    ($m:ident, $s:literal, $w:literal, $class:ident, $acc:tt) => {
        // SAFETY: `xchg` and locked `cmpxchg` are atomic full barriers (see the module docs).
        unsafe impl Exchange for $m {
            #[inline(always)]
            unsafe fn xchg(p: *mut Self::V, mut new: Self::V, _order: Order) -> Self::V {
                // `xchg` with a memory operand asserts the bus lock itself (SDM Vol. 2, XCHG):
                // no prefix, as in C's `arch_xchg()`.
                // `xchg` accesses exactly the integer at `p`.
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe {
                    asm!(
                        concat!("xchg", $s, " {v", $w, "}, ({p})"),
                        p = in(reg) p,
                        v = inout($class) new,
                        options(att_syntax, nostack),
                    )
                };
                new
            }

            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                mut old: Self::V,
                new: Self::V,
                _order: Order,
            ) -> Self::V {
                // `cmpxchg` accesses exactly the integer at `p`.
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe {
                    asm!(
                        lock_prefixed!("cmpxchg", $s, " {new", $w, "}, ({p})"),
                        p = in(reg) p,
                        new = in($class) new,
                        inout($acc) old,
                        options(att_syntax, nostack),
                    )
                };
                old
            }

            #[inline(always)]
            unsafe fn try_cmpxchg(
                p: *mut Self::V,
                old: &mut Self::V,
                new: Self::V,
                _order: Order,
            ) -> bool {
                let mut found = *old;
                let stored: u8;
                // Like C's `arch_try_cmpxchg()`, the result is the flag `cmpxchg` sets, not a
                // comparison of the values.
                // `cmpxchg` accesses exactly the integer at `p`.
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe {
                    asm!(
                        lock_prefixed!("cmpxchg", $s, " {new", $w, "}, ({p})"),
                        "sete {stored}",
                        p = in(reg) p,
                        new = in($class) new,
                        stored = out(reg_byte) stored,
                        inout($acc) found,
                        options(att_syntax, nostack),
                    )
                };
                // On success `found` is `*old` already: storing it unconditionally spares a
                // branch.
                *old = found;
                // SAFETY: `sete` writes 0 or 1.
                unsafe { byte_to_bool(stored) }
            }
        }
    };
}

impl_exchange!(I8, "b", "", reg_byte, "al");
impl_exchange!(I16, "w", ":x", reg, "ax");
impl_exchange!(I32, "l", ":e", reg, "eax");
impl_exchange!(I64, "q", "", reg, "rax");

/// Implements [`Primitive`] for marker `$m`, whose instructions take suffix `$s` and whose
/// register operands take template modifier `$w`; `$acc` is the register `cmpxchg` compares.
macro_rules! impl_primitive {
    ($m:ident, $s:literal, $w:literal, $acc:tt) => {
        // SAFETY: Every operation is one locked instruction, or a loop around a locked
        // `cmpxchg`, and locked instructions are atomic full barriers (see the module docs).
        unsafe impl Primitive for $m {
            #[inline(always)]
            unsafe fn rmw(p: *mut Self::V, op: Rmw, v: Self::V) {
                match op {
                    Rmw::Add => locked_rmw!(p, v, concat!("add", $s), $w),
                    Rmw::Sub => locked_rmw!(p, v, concat!("sub", $s), $w),
                    Rmw::And => locked_rmw!(p, v, concat!("and", $s), $w),
                    Rmw::Or => locked_rmw!(p, v, concat!("or", $s), $w),
                    Rmw::Xor => locked_rmw!(p, v, concat!("xor", $s), $w),
                    Rmw::AndNot => locked_rmw!(p, !v, concat!("and", $s), $w),
                }
            }

            #[inline(always)]
            unsafe fn fetch_rmw(p: *mut Self::V, op: Rmw, v: Self::V, _order: Order) -> Self::V {
                let mut v = match op {
                    Rmw::Add => v,
                    Rmw::Sub => v.wrapping_neg(),
                    _ => {
                        // No single instruction returns the old value: loop on cmpxchg, as C.
                        // SAFETY: The caller upholds the contract of `Primitive`.
                        let mut old = unsafe { Self::read(p) };
                        loop {
                            let new = Self::V::apply(op, old, v);
                            // SAFETY: As above.
                            if unsafe { Self::try_cmpxchg(p, &mut old, new, Order::Full) } {
                                return old;
                            }
                        }
                    }
                };
                // `xadd` accesses exactly the integer at `p`.
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe {
                    asm!(
                        lock_prefixed!("xadd", $s, " {v", $w, "}, ({p})"),
                        p = in(reg) p,
                        v = inout(reg) v,
                        options(att_syntax, nostack),
                    )
                };
                v
            }

            #[inline(always)]
            unsafe fn inc(p: *mut Self::V) {
                locked_rmw!(p, concat!("inc", $s))
            }

            #[inline(always)]
            unsafe fn dec(p: *mut Self::V) {
                locked_rmw!(p, concat!("dec", $s))
            }

            #[inline(always)]
            unsafe fn sub_and_test(p: *mut Self::V, v: Self::V) -> bool {
                locked_rmw_cc!(p, v, concat!("sub", $s), $w, "e")
            }

            #[inline(always)]
            unsafe fn dec_and_test(p: *mut Self::V) -> bool {
                locked_rmw_cc!(p, concat!("dec", $s), "e")
            }

            #[inline(always)]
            unsafe fn inc_and_test(p: *mut Self::V) -> bool {
                locked_rmw_cc!(p, concat!("inc", $s), "e")
            }

            #[inline(always)]
            unsafe fn add_negative(p: *mut Self::V, v: Self::V, _order: Order) -> bool {
                locked_rmw_cc!(p, v, concat!("add", $s), $w, "s")
            }

            #[inline(always)]
            unsafe fn dec_if_positive(p: *mut Self::V) -> Self::V {
                let dec: Self::V;
                // C's generic `atomic_dec_if_positive()` loop, in one block so that its
                // branches test the flags `dec` and `cmpxchg` set, as C's flag outputs let C
                // do: the value minus one, returned whether or not it is stored.
                // The loop accesses exactly the integer at `p`.
                // SAFETY: The caller guarantees that `p` is valid, aligned and atomic.
                unsafe {
                    asm!(
                        concat!("mov", $s, " ({p}), %", $acc),
                        "672:",
                        concat!("mov", $s, " %", $acc, ", {dec", $w, "}"),
                        concat!("dec", $s, " {dec", $w, "}"),
                        "js 673f",
                        lock_prefixed!("cmpxchg", $s, " {dec", $w, "}, ({p})"),
                        "jne 672b",
                        "673:",
                        p = in(reg) p,
                        dec = out(reg) dec,
                        out($acc) _,
                        options(att_syntax, nostack),
                    )
                };
                dec
            }
        }
    };
}

impl_primitive!(I32, "l", ":e", "eax");
impl_primitive!(I64, "q", "", "rax");
