// SPDX-License-Identifier: GPL-2.0

//! s390x primitives.
//!
//! Implementation choices, with the ordering argument. C's files are under
//! `arch/s390/include/asm/`; line numbers are Linux 7.2's (6.12 has no Rust on s390). This file
//! is C's z196 code (`MARCH_HAS_Z196_FEATURES`, atomic_ops.h:61-110, the kernel's default
//! `-march`, arch/s390/Kconfig:362-364): `arch.rs` takes it with
//! `CONFIG_HAVE_MARCH_Z196_FEATURES` only, and a z10 kernel (C's `cs` loops for everything) gets
//! the generic fallback.
//! - Read-modify-write operations are the interlocked-access instructions, as in C:
//!   `la<op>[g] %old,%val,0(%p)` (`laa`, `lan`, `lao`, `lax`; `g` for 64 bits) for the void
//!   operations (`__ATOMIC_OP()`, atomic_ops.h:63-88; atomic.h:42-46, 82-103), and the same
//!   followed by `bcr 14,0` for every fetch and return operation, whatever its ordering: C
//!   defines only the fully ordered names (atomic.h, cmpxchg.h have no `_relaxed`, `_acquire`
//!   or `_release`), and the generic fallbacks map every ordering to them
//!   (include/linux/atomic/atomic-arch-fallback.h:588-650, 744). Subtraction adds the negation
//!   (atomic.h:78-80); and-not ANDs the complement (the generic fallback, s390 having none).
//!   `_return` is the fetch operation plus the operand (atomic.h:30-34): the trait's default.
//! - `atomic_inc()` and `atomic_dec()` are `asi`/`agsi` of ±1 (`__atomic_add_const()`,
//!   atomic_ops.h:93-107; atomic.h:48-58): a storage-immediate add, no register.
//!   `atomic_{inc,dec}_and_test()` are `alsi`/`algsi` of ±1 with `bcr 14,0`, and
//!   `atomic_sub_and_test()` is `laal`/`laalg` of the negation with `bcr 14,0`, each tested on
//!   the condition code: zero result is condition code 0 or 2 (`__ATOMIC_CONST_TEST_OP()`,
//!   `__ATOMIC_TEST_OP()`, atomic_ops.h:175-219; atomic.h:60-76). C reads it with flag outputs
//!   (`"=@cc"`), which `asm!` lacks: the block ends with `ipm`, which puts it in a register,
//!   as C's compiler does to make a `bool` of it. `try_cmpxchg()` reads `cs`'s the same way.
//! - Exchange of 32 and 64 bits is C's `READ_ONCE()` and a loop around `cs`/`csg` (`__arch_xchg4()`,
//!   `__arch_xchg8()`, cmpxchg.h:213-226), compare-and-exchange a single `cs`/`csg` (cmpxchg.h:18-36),
//!   for every ordering (C defines `arch_xchg()` and `arch_cmpxchg()` only). The 8- and 16-bit
//!   ones are C's loops with `cs` on the aligned 32-bit word around the integer
//!   (`__arch_cmpxchg1()`, `__arch_cmpxchg2()`, `__arch_xchg1()`, `__arch_xchg2()`,
//!   cmpxchg.h:38-82, 176-204), on a big-endian machine: the integer at byte offset `o` of the word
//!   is at bits `8 * (4 - size - o)` and up (C: `shift = (3 ^ (ptr & 3)) << 3` for a byte,
//!   `(2 ^ (ptr & 2)) << 3` for a halfword). s390's `cs` is one instruction, not a reservation, so
//!   C writes those loops in C around it, and so does this file, in Rust around its `cs`.
//! - Why these orderings are C's and the LKMM's: the machine performs each CPU's accesses in
//!   program order as other CPUs see them, except that a load may be performed before an earlier
//!   store to another address (z/Architecture Principles of Operation, chapter 5, "Storage-Operand
//!   Consistency"); an interlocked-update instruction (`laa`, `asi`, ...) is atomic but does not
//!   close that gap, and `bcr 14,0` (fast-BCR-serialization, facility 45) does: so `la<op>` plus
//!   `bcr 14,0` is fully ordered. `cs` performs serialization before and after it (the
//!   Principles, "Serialization"), which is why C puts no `bcr` after any `cs`-based operation; a
//!   failed `cs` is the same instruction, stronger than the relaxed load the LKMM asks of a
//!   failed cmpxchg. This file runs C's instructions, so on every s390 CPU Rust's operations are
//!   exactly as strong as C's; ordering parity (scripts/machine-code/codegen-parity) checks that
//!   per operation.
//! - Barriers (barrier.h:20-52): `smp_mb()` is C's `bcr_serialize()`,
//!   `ALTERNATIVE("bcr 15,0", "bcr 14,0", ALT_FACILITY(45))`: the same entry in
//!   `.altinstructions`, which the module loader applies (arch/s390/kernel/module.c:518-520), so
//!   the instruction that runs is C's; `smp_rmb()`, `smp_wmb()`, `smp_mb__before_atomic()` and
//!   `smp_mb__after_atomic()` are `barrier()`, as C's are (the machine orders loads with loads
//!   and stores with stores, and every atomic operation that returns nothing is also an
//!   interlocked update, which C makes enough for `smp_mb__{before,after}_atomic()`).
//!   `smp_load_acquire()` is the volatile load and then `barrier()`, `smp_store_release()`
//!   `barrier()` and then the volatile store (barrier.h:36-49), so that KASAN and KCSAN see them
//!   as they see C's.
//! - `atomic_fetch_add_unless()`, `atomic_dec_if_positive()`, `atomic_inc_not_zero()`,
//!   `atomic_inc_unless_negative()`, `atomic_dec_unless_positive()` and `atomic_add_negative()`
//!   are the generic fallbacks, as in C (s390 defines none of them): the trait's defaults.
//! - Loads and stores are volatile accesses, as C's (`l`/`lg`, `st`/`stg`, atomic_ops.h:15-59):
//!   naturally aligned accesses of at most 8 bytes are block-concurrent, single accesses.
//! - Operands: a base register is `reg_addr` (`%r1` to `%r15` but not `%r0`, which as a base
//!   means "no register"), C's `"Q"`/`"S"` memory operands having no `asm!` form; values are
//!   `reg`, C's `"d"`; the interlocked instructions' old value is an output of its own
//!   (`out`, C's `"=d"`).
//! - `asm!` options: `nostack`; no block that sets the condition code has `preserves_flags`
//!   (C clobbers `"cc"`); no block has `nomem`: each is also a compiler barrier, like C's
//!   `"memory"` clobber.
//!
//! The sequences (`g` forms for 64 bits):
//!
//! | sequence | every ordering |
//! |---|---|
//! | void operations | `la<op>` (inc, dec: `asi ±1`) |
//! | fetch and return operations | `la<op>; bcr 14,0` |
//! | inc/dec_and_test, sub_and_test | `alsi ±1; bcr 14,0` / `laal; bcr 14,0`, then `ipm; xilf` |
//! | exchange (32, 64 bits) | `l; 0: cs; jl 0b` |
//! | exchange, compare-and-exchange (8, 16 bits) | `l` and a loop around `cs` on the word |
//! | compare-and-exchange (32, 64 bits) | `cs` |

use super::super::primitive::{Exchange, Order, Primitive, Rmw};
use super::Contract;
use core::arch::asm;

/// The s390x architecture: the items of [`Contract`].
pub enum Arch {}

// SAFETY: Every primitive is C's interlocked-access instruction or `cs` sequence for its ordering
// (see the module docs), and each barrier is C's (barrier.h:20-52).
unsafe impl Contract for Arch {
    type I8 = I8;
    type I16 = I16;
    type I32 = I32;
    type I64 = I64;

    /// As C's on this architecture, the acquire loads and release stores are volatile accesses
    /// with a compiler barrier (barrier.h:36-49), which the compilers' KASAN instrumentation
    /// checks (rustc's too) and C's KCSAN instrumentation sees.
    const ACQUIRE_RELEASE_VOLATILE: bool = true;

    /// C's `bcr_serialize()` (barrier.h:20-25): `bcr 15,0`, which the `.altinstructions` entry
    /// of C's `ALTERNATIVE()` (alternative.h:113-138) replaces by `bcr 14,0` on a CPU with
    /// facility 45, every CPU a z196 kernel boots on (arch/s390/boot/als.c). Both serialize.
    #[inline(always)]
    fn smp_mb() {
        // The entry replaces the two bytes between 661 and 662 by the two between 6641 and
        // 6651; its fields are C's `struct alt_instr` (alternative.h:60-72), the feature
        // `ALT_FACILITY(45)` (alternative.h:30-44: context EARLY in bits 28-31, type FACILITY,
        // facility 45), and the `.org` lines C's: they fail the assembly unless both are the same
        // even length.
        // SAFETY: A serializing instruction has no effect but ordering; the replacement is one
        // of the same length.
        unsafe {
            asm!(
                ".pushsection .altinstr_replacement, \"ax\"",
                "6641: bcr 14,0",
                "6651:",
                ".popsection",
                "661: bcr 15,0",
                "662:",
                ".pushsection .altinstructions, \"a\"",
                ".long 661b - .",
                ".long 6641b - .",
                ".long 0x1000002d",
                ".byte 662b - 661b",
                ".org . - (662b - 661b) & 1",
                ".org . - (662b - 661b) + (6651b - 6641b)",
                ".org . - (6651b - 6641b) + (662b - 661b)",
                ".popsection",
                options(nostack, preserves_flags),
            )
        };
    }

    /// `barrier()`: C's `__smp_rmb()` (barrier.h:33, `__rmb()`, 28).
    #[inline(always)]
    fn smp_rmb() {
        super::barrier();
    }

    /// `barrier()`: C's `__smp_wmb()` (barrier.h:34, `__wmb()`, 29).
    #[inline(always)]
    fn smp_wmb() {
        super::barrier();
    }

    /// `barrier()`, as C's (barrier.h:51).
    #[inline(always)]
    fn smp_mb__before_atomic() {
        super::barrier();
    }

    /// `barrier()`, as C's (barrier.h:52).
    #[inline(always)]
    fn smp_mb__after_atomic() {
        super::barrier();
    }

    fn implementation() -> &'static str {
        "s390x interlocked-access (la<op>[g] + bcr 14,0) and compare-and-swap (cs, csg)"
    }
}

fenced_load_store!("s390x",
    // `__smp_load_acquire()` (barrier.h:43-49): the machine keeps loads in order.
    acquire: { super::barrier(); },
    // `__smp_store_release()` (barrier.h:36-41): the machine keeps stores in order.
    release: { super::barrier(); };
    I8: i8, I16: i16, I32: i32, I64: i64);

/// The operation table: expands `$m!($($args)*, INSN, OPERAND)` with the interlocked-access
/// instruction of `$op` for the size suffix `$g` (`""` or `"g"`) and the operand it takes for
/// `$v`, as C's rows (atomic.h:78-103, 203-228): subtraction adds the negation; and-not ANDs the
/// complement (the generic fallback).
macro_rules! by_rmw {
    ($op:expr, $v:expr, $g:literal, $m:ident!($($args:tt)*)) => {
        match $op {
            Rmw::Add => $m!($($args)*, concat!("laa", $g), $v),
            Rmw::Sub => $m!($($args)*, concat!("laa", $g), $v.wrapping_neg()),
            Rmw::And => $m!($($args)*, concat!("lan", $g), $v),
            Rmw::Or => $m!($($args)*, concat!("lao", $g), $v),
            Rmw::Xor => $m!($($args)*, concat!("lax", $g), $v),
            Rmw::AndNot => $m!($($args)*, concat!("lan", $g), !$v),
        }
    };
}

/// The interlocked-access instruction `$insn` on `$v` at `$p`, followed by `$barrier` (`""` or
/// `"bcr 14,0"`: C's `__ATOMIC_OP()` and its `_barrier` variant, atomic_ops.h:63-78); evaluates
/// to the old value.
macro_rules! la {
    ($t:ty, $p:expr, $barrier:literal, $insn:expr, $v:expr) => {{
        let old: $t;
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!($insn, " {old}, {v}, 0({p})"),
                $barrier,
                p = in(reg_addr) $p,
                v = in(reg) $v,
                // `lateout`, as C's `"=d"`: the old value may take an input's register.
                old = lateout(reg) old,
                options(nostack),
            )
        };
        old
    }};
}

/// C's `__ATOMIC_CONST_OP()` (atomic_ops.h:93-107): the storage-immediate add `$insn` (`asi`,
/// `agsi`) of the constant `$imm` at `$p`, unordered.
macro_rules! add_const {
    ($insn:literal, $p:expr, $imm:literal) => {
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!($insn, " 0({p}), ", $imm),
                p = in(reg_addr) $p,
                options(nostack),
            )
        }
    };
}

/// The instructions that put in `cc` (a register of its own) the condition code, in bits 28-29
/// (`ipm`), inverted (`xilf`): [`cc_to_bool()`] then takes bit 28, set if the condition code was
/// 0 or 2 (of an add logical, `alsi`, `laal`: a zero result; of `cs`, which sets 0 or 1:
/// swapped). C reads the condition code with flag outputs (`"=@cc"`) and returns
/// `cc == 0 || cc == 2` (atomic_ops.h:187), which its compiler makes `ipm`, `xilf` and a
/// `risbgz` of that bit; `asm!` has no flag outputs, so the block ends with the first two, and
/// the compiler makes the third of [`cc_to_bool()`].
macro_rules! cc_zero_or_two {
    () => {
        "ipm {cc}\nxilf {cc}, 0xffffffff"
    };
}

/// Whether the condition code that [`cc_zero_or_two!`] put in `cc` was 0 or 2.
#[inline(always)]
// `bit != 0`, which clippy proposes, is the test and second `ipm` this function exists to avoid.
#[allow(clippy::transmute_int_to_bool)]
fn cc_to_bool(cc: u64) -> bool {
    // A shift and a mask, which the compiler makes one `risbgz`, and no comparison, which it
    // would make a test and another `ipm`.
    let bit = ((cc >> 28) & 1) as u8;
    // SAFETY: `bit` is 0 or 1, the two valid representations of `bool`, which has the size of
    // `u8`.
    unsafe { core::mem::transmute::<u8, bool>(bit) }
}

/// C's `__ATOMIC_CONST_TEST_OP()` with its barrier (atomic_ops.h:200-216): the logical
/// storage-immediate add `$insn` (`alsi`, `algsi`) of `$imm` at `$p` and `bcr 14,0`; evaluates to
/// whether the result is zero.
macro_rules! add_const_and_test {
    ($insn:literal, $p:expr, $imm:literal) => {{
        let cc: u64;
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!($insn, " 0({p}), ", $imm, "\nbcr 14,0"),
                cc_zero_or_two!(),
                p = in(reg_addr) $p,
                cc = lateout(reg) cc,
                options(nostack),
            )
        };
        cc_to_bool(cc)
    }};
}

/// C's `__ATOMIC_TEST_OP()` with its barrier (atomic_ops.h:175-192): the interlocked add logical
/// `$insn` (`laal`, `laalg`) of `$v` at `$p` and `bcr 14,0`; evaluates to whether the result is
/// zero.
macro_rules! add_and_test {
    ($t:ty, $insn:expr, $p:expr, $v:expr) => {{
        let cc: u64;
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!($insn, " {tmp}, {v}, 0({p})\nbcr 14,0"),
                cc_zero_or_two!(),
                p = in(reg_addr) $p,
                v = in(reg) $v,
                tmp = lateout(reg) _,
                cc = lateout(reg) cc,
                options(nostack),
            )
        };
        cc_to_bool(cc)
    }};
}

/// C's `__cs_asm()`/`__csg_asm()` (cmpxchg.h:18-36): `$cs` (`cs`, `csg`) of `$old` by `$new` at
/// `$p`; evaluates to the value found.
macro_rules! cs {
    ($t:ty, $cs:literal, $p:expr, $old:expr, $new:expr) => {{
        let mut found: $t = $old;
        // The instruction accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!($cs, " {found}, {new}, 0({p})"),
                p = in(reg_addr) $p,
                new = in(reg) $new,
                found = inout(reg) found,
                options(nostack),
            )
        };
        found
    }};
}

/// Implements [`Exchange`] for marker `$m` of type `$t` with the load `$l` (`l`, `lg`) and the
/// compare-and-swap `$cs` (`cs`, `csg`).
macro_rules! impl_exchange {
    ($m:ident: $t:ty, $l:literal, $cs:literal) => {
        // SAFETY: Every operation is C's `cs` sequence, which C uses for every ordering (see the
        // module docs).
        unsafe impl Exchange for $m {
            /// C's `__arch_xchg4()`/`__arch_xchg8()` (cmpxchg.h:213-226): `READ_ONCE()` and a
            /// `try_cmpxchg()` loop, which the compiler makes `cs; jl` (condition code 1: not
            /// swapped, the register now holds the value found).
            #[inline(always)]
            unsafe fn xchg(p: *mut Self::V, new: Self::V, _order: Order) -> Self::V {
                let old: $t;
                // The loop accesses exactly the integer at `$p`.
                // SAFETY: The caller guarantees `p` valid, aligned, atomic.
                unsafe {
                    asm!(
                        concat!($l, " {old}, 0({p})"),
                        concat!("0: ", $cs, " {old}, {new}, 0({p})"),
                        "jl 0b",
                        p = in(reg_addr) p,
                        new = in(reg) new,
                        old = out(reg) old,
                        options(nostack),
                    )
                };
                old
            }

            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                old: Self::V,
                new: Self::V,
                _order: Order,
            ) -> Self::V {
                cs!($t, $cs, p, old, new)
            }

            /// C's `arch_try_cmpxchg()` (cmpxchg.h:110-151): one `cs`/`csg`, whose condition
            /// code (0: swapped) is the result; `*old` gets the value found (on success, the
            /// same value).
            #[inline(always)]
            unsafe fn try_cmpxchg(
                p: *mut Self::V,
                old: &mut Self::V,
                new: Self::V,
                _order: Order,
            ) -> bool {
                let cc: u64;
                // The instruction accesses exactly the integer at `p`.
                // SAFETY: The caller guarantees `p` valid, aligned, atomic.
                unsafe {
                    asm!(
                        concat!($cs, " {found}, {new}, 0({p})"),
                        cc_zero_or_two!(),
                        p = in(reg_addr) p,
                        new = in(reg) new,
                        found = inout(reg) *old,
                        cc = out(reg) cc,
                        options(nostack),
                    )
                };
                cc_to_bool(cc)
            }
        }
    };
}

impl_exchange!(I32: i32, "l", "cs");
impl_exchange!(I64: i64, "lg", "csg");

/// The aligned 32-bit word holding the 1- or 2-byte `T` at `p`, and the position of the `T`'s
/// bits in it, as C's `__arch_xchg1()`/`__arch_xchg2()` compute it (cmpxchg.h:178-186, 192-200):
/// big endian, the byte at the word's address is its most significant one.
#[inline(always)]
fn word_and_shift<T>(p: *mut T) -> (*mut u32, u32) {
    let size = core::mem::size_of::<T>();
    let addr = p as usize;
    let shift = (4 - size - (addr & 3)) * 8;
    ((addr & !3) as *mut u32, shift as u32)
}

/// Implements [`Exchange`] for marker `$m` of the 1- or 2-byte type `$t`, with C's loops around
/// `cs` on the aligned word that holds it, the same for every ordering. The values enter the word
/// zero-extended (`as $u`), so that a negative one does not spill into the neighbouring bytes
/// (C masks them: cmpxchg.h:84-94, 206-230).
macro_rules! impl_exchange_word {
    ($m:ident: $t:ty as $u:ty) => {
        // SAFETY: Every operation is C's `cs` loop on the containing word, which C uses for every
        // ordering (see the module docs); each `cs` stores the other bytes as it found them.
        unsafe impl Exchange for $m {
            /// C's `__arch_xchg1()`/`__arch_xchg2()` (cmpxchg.h:176-204).
            #[inline(always)]
            unsafe fn xchg(p: *mut Self::V, new: Self::V, _order: Order) -> Self::V {
                let (word, shift) = word_and_shift(p);
                let mask = !(u32::from(<$u>::MAX) << shift);
                let newx = u32::from(new as $u) << shift;
                // SAFETY: The aligned word holding the integer is mapped with it, and the
                // caller guarantees the integer valid, aligned, atomic.
                let mut old = unsafe { word.read_volatile() };
                loop {
                    let found = cs!(u32, "cs", word, old, (old & mask) | newx);
                    if found == old {
                        break;
                    }
                    old = found;
                }
                (old >> shift) as $u as $t
            }

            /// C's `__arch_cmpxchg1()`/`__arch_cmpxchg2()` (cmpxchg.h:38-82): returns without
            /// storing when the integer differs from `old`.
            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                old: Self::V,
                new: Self::V,
                _order: Order,
            ) -> Self::V {
                let (word, shift) = word_and_shift(p);
                let lane = u32::from(<$u>::MAX) << shift;
                let oldx = u32::from(old as $u) << shift;
                let newx = u32::from(new as $u) << shift;
                // SAFETY: As in `xchg`.
                let mut prev = unsafe { word.read_volatile() };
                loop {
                    let old32 = prev;
                    if old32 & lane != oldx {
                        return ((old32 & lane) >> shift) as $u as $t;
                    }
                    prev = cs!(u32, "cs", word, old32, (old32 & !lane) | newx);
                    if prev == old32 {
                        return old;
                    }
                }
            }
        }
    };
}

impl_exchange_word!(I8: i8 as u8);
impl_exchange_word!(I16: i16 as u16);

/// C's generic `try_cmpxchg()` loops (include/linux/atomic/atomic-arch-fallback.h: the
/// `*_unless*`, `inc_not_zero` and `dec_if_positive` fallbacks, which s390 does not define) as
/// its compiler makes them of s390's `arch_try_cmpxchg()`: `$l` (`l`, `lg`) of the value into
/// `c`, then the lines `$body`, which leave the loop at `1:` or compute the new value into `n`,
/// then `$cs` (`cs`, `csg`) of `c` by `n`, retried while it does not swap (condition code 1, `c`
/// then holds the value found). `asm!` cannot branch on a condition code that a Rust loop around
/// [`Exchange::try_cmpxchg`] would have to read out of the block (C's flag outputs; see
/// [`cc_zero_or_two!`]): so the loop is in the block, with nothing in it but C's instructions.
/// Evaluates to `(c, n)`: the last value read, and the last value computed.
macro_rules! cs_loop {
    ($t:ty, $l:literal, $cs:literal, $p:expr, [$($body:expr),+] $(, $name:ident = in(reg) $v:expr)*) => {{
        let (c, n): ($t, $t);
        // The loop accesses exactly the integer at `$p`; `c` and `n` are written while the
        // inputs are still needed (`out`, not `lateout`).
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!($l, " {c}, 0({p})"),
                "0:",
                $($body,)+
                concat!($cs, " {c}, {n}, 0({p})"),
                "jl 0b",
                "1:",
                p = in(reg_addr) $p,
                $($name = in(reg) $v,)*
                c = out(reg) c,
                n = out(reg) n,
                options(nostack),
            )
        };
        (c, n)
    }};
}

/// Implements [`Primitive`] for marker `$m` of type `$t` with the interlocked-access instructions
/// of suffix `$g` (`""`, `"g"`) and C's constant forms `$asi` (`asi`, `agsi`) and `$alsi`
/// (`alsi`, `algsi`).
macro_rules! impl_primitive {
    ($m:ident: $t:ty, $g:literal, $asi:literal, $alsi:literal, $l:literal, $cs:literal,
     $cr:literal, $ark:literal, $cij:literal, $ahik:literal) => {
        // SAFETY: Every operation is C's interlocked-access instruction, with `bcr 14,0` where
        // C has it (see the module docs).
        unsafe impl Primitive for $m {
            #[inline(always)]
            unsafe fn rmw(p: *mut Self::V, op: Rmw, v: Self::V) {
                let _ = by_rmw!(op, v, $g, la!($t, p, ""));
            }

            #[inline(always)]
            unsafe fn fetch_rmw(p: *mut Self::V, op: Rmw, v: Self::V, _order: Order) -> Self::V {
                by_rmw!(op, v, $g, la!($t, p, "bcr 14,0"))
            }

            /// C's `atomic_inc()` and `atomic_dec()`: the storage-immediate add of ±1.
            #[inline(always)]
            unsafe fn rmw_one(p: *mut Self::V, op: Rmw) {
                match op {
                    Rmw::Add => add_const!($asi, p, "1"),
                    Rmw::Sub => add_const!($asi, p, "-1"),
                    // SAFETY: The caller upholds the trait's contract.
                    _ => unsafe { Self::rmw(p, op, 1) },
                }
            }

            /// C's `atomic_sub_and_test()`: `laal` of the negation and `bcr 14,0`, whose
            /// condition code says whether the result is zero (0 or 2).
            #[inline(always)]
            unsafe fn sub_and_test(p: *mut Self::V, v: Self::V) -> bool {
                add_and_test!($t, concat!("laal", $g), p, v.wrapping_neg())
            }

            /// C's `atomic_dec_and_test()`: `alsi -1; bcr 14,0`, tested on the condition code.
            #[inline(always)]
            unsafe fn dec_and_test(p: *mut Self::V) -> bool {
                add_const_and_test!($alsi, p, "-1")
            }

            /// C's `atomic_inc_and_test()`: `alsi 1; bcr 14,0`, tested on the condition code.
            #[inline(always)]
            unsafe fn inc_and_test(p: *mut Self::V) -> bool {
                add_const_and_test!($alsi, p, "1")
            }

            /// C's generic `atomic_fetch_add_unless()`: adds `a` unless the value is `u`.
            #[inline(always)]
            unsafe fn fetch_add_unless(p: *mut Self::V, a: Self::V, u: Self::V) -> Self::V {
                let (c, _) = cs_loop!($t, $l, $cs, p, [
                    concat!($cr, " {c}, {u}"),
                    "je 1f",
                    concat!($ark, " {n}, {c}, {a}")
                ], a = in(reg) a, u = in(reg) u);
                c
            }

            /// C's generic `atomic_inc_not_zero()`, `atomic_add_unless(v, 1, 0)`, with the
            /// constants as C's compiler has them (immediates).
            #[inline(always)]
            unsafe fn inc_not_zero(p: *mut Self::V) -> bool {
                let (c, _) = cs_loop!($t, $l, $cs, p, [
                    concat!($cij, "e {c}, 0, 1f"),
                    concat!($ahik, " {n}, {c}, 1")
                ]);
                c != 0
            }

            /// C's generic `atomic_inc_unless_negative()`.
            #[inline(always)]
            unsafe fn inc_unless_negative(p: *mut Self::V) -> bool {
                let (c, _) = cs_loop!($t, $l, $cs, p, [
                    concat!($cij, "l {c}, 0, 1f"),
                    concat!($ahik, " {n}, {c}, 1")
                ]);
                c >= 0
            }

            /// C's generic `atomic_dec_unless_positive()`.
            #[inline(always)]
            unsafe fn dec_unless_positive(p: *mut Self::V) -> bool {
                let (c, _) = cs_loop!($t, $l, $cs, p, [
                    concat!($cij, "h {c}, 0, 1f"),
                    concat!($ahik, " {n}, {c}, -1")
                ]);
                c <= 0
            }

            /// C's generic `atomic_dec_if_positive()`: the value minus one, wrapping (`ahik`
            /// sets condition code 1, "low", for a negative result, and 3 for an overflow, which
            /// C's wrapped `dec < 0` does not count as negative either).
            #[inline(always)]
            unsafe fn dec_if_positive(p: *mut Self::V) -> Self::V {
                let (_, n) = cs_loop!($t, $l, $cs, p, [
                    concat!($ahik, " {n}, {c}, -1"),
                    "jl 1f"
                ]);
                n
            }
        }
    };
}

impl_primitive!(I32: i32, "", "asi", "alsi", "l", "cs", "cr", "ark", "cij", "ahik");
impl_primitive!(I64: i64, "g", "agsi", "algsi", "lg", "csg", "cgr", "agrk", "cgij", "aghik");
