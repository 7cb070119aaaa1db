// SPDX-License-Identifier: GPL-2.0

//! loongarch64 primitives.
//!
//! Implementation choices, with the ordering argument. C's files are under
//! `arch/loongarch/include/asm/`; line numbers are Linux 6.12's, with 7.2's after a `/` where they
//! differ (7.2 moved the AMO operations of `atomic.h` to `atomic-amo.h`, for the 32-bit kernels'
//! LL/SC variant, `atomic-llsc.h`, which a 64-bit kernel never uses: `CONFIG_CPU_HAS_AMO` is
//! `64BIT` there, arch/loongarch/Kconfig:628-630).
//! - Read-modify-write operations are the AM* instructions, as in C: `am<op>.{w,d} $zero` for the
//!   void operations (atomic.h:37-45 / atomic-amo.h:15-23), `am<op>.{w,d}` for the relaxed fetch
//!   and return operations and `am<op>_db.{w,d}` for every other ordering: C defines the
//!   fully ordered and the relaxed forms only, and maps acquire and release to the fully ordered
//!   one (atomic.h:84-101 / atomic-amo.h:63-102, `#define arch_atomic_fetch_add_acquire
//!   arch_atomic_fetch_add`, ...). Subtraction adds the negation (`ATOMIC_OPS(sub, -i, add, +)`);
//!   and-not, which LoongArch's C does not define, is the generic fallback's AND of the
//!   complement (include/linux/atomic/atomic-arch-fallback.h). `_return` is the fetch operation
//!   plus the operand (`return result c_op I`): the trait's default.
//! - Exchange of 32 and 64 bits is `amswap_db.{w,d}` for every ordering (`__arch_xchg()`,
//!   cmpxchg.h:65-86 / 82-110: C defines `arch_xchg()` only, so the generic fallbacks make every
//!   ordering of it the fully ordered one). Compare-and-exchange is C's `ll`/`sc` loop
//!   (`__cmpxchg_asm()`, cmpxchg.h:95-112 / 122-139) for every ordering (C defines
//!   `arch_cmpxchg()` only, too), which compares a 32-bit `old` sign-extended, as `ll.w`
//!   sign-extends what it loads; a failed compare branches to C's `__WEAK_LLSC_MB`,
//!   `dbar 0x700` (barrier.h:54-58), and the loop ends there. The 8- and 16-bit ones are C's
//!   `ll.w`/`sc.w` loops on the aligned 32-bit word around the integer (`__xchg_small()`,
//!   `__cmpxchg_small()`, cmpxchg.h:25-62, 114-160 / 42-79, 141-187): LoongArch64 has no narrower
//!   AM* or LL/SC in the base ISA that Linux uses. The masked exchange has no `dbar` at all, the
//!   masked compare-and-exchange C's `dbar 0x700` on its failure path.
//! - Why these orderings are C's and the LKMM's: a LoongArch `ll` acts as a full barrier before
//!   its load and an `sc` as one after its store, so that a loop that stores is fully ordered;
//!   a loop that fails reads without storing and orders the later accesses after that read only
//!   through the `dbar 0x700` ("read after read from the same address", barrier.h:18), which is
//!   all the LKMM asks of a failed cmpxchg (it is a relaxed load). An `am*_db` instruction is an
//!   AM* with the barrier semantics of a `dbar 0` before and after it (LoongArch Reference
//!   Manual, Volume 1, 2.2.7.1 "AM*"); a plain AM* is atomic and unordered. These are the
//!   facts C's sequences rest on; this file runs the same instructions, so that on every
//!   LoongArch CPU Rust's operations are exactly as strong as C's. Ordering parity
//!   (scripts/machine-code/codegen-parity) checks that per operation, on each kernel.
//! - Barriers (barrier.h:20-52): `smp_mb()` is `dbar 0x10` (ordering, all four directions),
//!   `smp_rmb()` `dbar 0x15`, `smp_wmb()` `dbar 0x1a`; `smp_load_acquire()` is the volatile
//!   load and then `dbar 0x14`, `smp_store_release()` `dbar 0x12` and then the volatile store
//!   (`ldacq_mb()`, `strel_mb()`, barrier.h:88-104 / 91-107), so that KASAN and KCSAN see them
//!   as they see C's. Without `CONFIG_SMP` C's `__WEAK_LLSC_MB` is empty and the `smp_*()`
//!   barriers are `barrier()` (include/asm-generic/barrier.h): so here (`weak_llsc_mb!`,
//!   `arch.rs`).
//! - `smp_mb__before_atomic()` and `smp_mb__after_atomic()` follow each kernel: 6.12 does not
//!   define them, so they are asm-generic's `smp_mb()`, `dbar 0x10`; 7.2 defines them as
//!   `barrier()` (barrier.h:60-61). Rust does what the kernel it is built for does, so a Rust
//!   caller gets what a C caller gets on the same kernel. That 7.2's `barrier()` is enough rests
//!   on the hardware: every AM* instruction, `_db` or not, and every `ll`/`sc` orders the
//!   accesses around it on the CPUs 7.2 runs on; the LKMM only asks that an unordered RMW
//!   operation plus `smp_mb__{before,after}_atomic()` be fully ordered, and the kernel's C
//!   depends on it exactly as this file does. The two kernels are told apart by what 7.2
//!   introduced together with that change: the `CONFIG_CPU_HAS_AMO` symbol (6.12 has neither).
//! - `atomic_fetch_add_unless()` and `atomic_dec_if_positive()` are C's own `ll`/`sc` loops
//!   (atomic.h:131-151, 154-188, 290-310, 313-347 / 47-104, 113-170): the first ends a loop that
//!   does not add at `dbar 0x700`, the second ends both paths there. `atomic_inc_not_zero()` is
//!   C's generic `atomic_add_unless(v, 1, 0)` on that `fetch_add_unless()`;
//!   `inc_unless_negative()` and `dec_unless_positive()` are the generic `try_cmpxchg()` loops
//!   (the trait's defaults), as in C.
//! - Loads and stores are volatile accesses, as C's `READ_ONCE()`/`WRITE_ONCE()` (atomic.h:34-35,
//!   194-195 / 44-45, 110-111): naturally aligned accesses of at most 8 bytes are single-copy
//!   atomic.
//! - The `ll` and the `sc` of a loop sit in one `asm!` block, with nothing but C's few integer
//!   instructions between them, so that the compiler cannot put a spill in between (a store
//!   between them may clear the reservation on every attempt).
//! - AM* instructions require the destination register to differ from both sources (the manual,
//!   2.2.7.1: otherwise the instruction is invalid); their results are `out`, as C's `"=&r"`,
//!   which the compiler gives a register of its own. So are the results of the `ll`/`sc` loops,
//!   written while the inputs are still needed. C's `"Jr"` operands may be `$zero` for a constant
//!   zero; `asm!` has no such class, so such an operand is a register here.
//! - `asm!` options: `nostack` (no block touches the stack); `preserves_flags` (LoongArch has no
//!   flags register; the floating-point condition flags are left alone). No block has `nomem`:
//!   each is also a compiler barrier, like C's `"memory"` clobber.
//!
//! The sequences, with the size suffix (`.w`, `.d`) left out:
//!
//! | sequence | RELAXED | ACQUIRE, RELEASE, fully ordered |
//! |---|---|---|
//! | fetch and return operations | `am<op>` | `am<op>_db` |
//! | exchange (32, 64 bits) | `amswap_db` | `amswap_db` |
//! | exchange (8, 16 bits) | `ll.w; sc.w` | `ll.w; sc.w` |
//! | compare-and-exchange | `ll; sc`, failure: `dbar 0x700` | the same |

use super::super::primitive::{Exchange, Order, Primitive, Rmw};
use super::Contract;
use core::arch::asm;

/// C's `__WEAK_LLSC_MB` (barrier.h:54-58): with `CONFIG_SMP`, `dbar 0x700`, the barrier that
/// orders a failed `ll`/`sc` loop's read before later reads of the same address.
#[cfg(CONFIG_SMP)]
macro_rules! weak_llsc_mb {
    () => {
        "dbar 0x700"
    };
}

/// Without `CONFIG_SMP`, C's `__WEAK_LLSC_MB` is no instruction: the empty text.
#[cfg(not(CONFIG_SMP))]
macro_rules! weak_llsc_mb {
    () => {
        ""
    };
}

/// `dbar $hint` as a compiler barrier too, as C's `DBAR()` with its `"memory"` clobber
/// (barrier.h:20).
macro_rules! dbar {
    ($hint:literal) => {
        // SAFETY: A barrier has no effect but ordering.
        unsafe { asm!(concat!("dbar ", $hint), options(nostack, preserves_flags)) }
    };
}

/// The loongarch64 architecture: the items of [`Contract`].
pub enum Arch {}

// SAFETY: Every primitive is C's AM* instruction or `ll`/`sc` loop for its ordering (see the
// module docs), and each barrier is C's (barrier.h:20-61).
unsafe impl Contract for Arch {
    type I8 = I8;
    type I16 = I16;
    type I32 = I32;
    type I64 = I64;

    /// As C's on this architecture, the acquire loads and release stores are volatile accesses
    /// with a `dbar` (barrier.h:88-104 / 91-107), which the compilers' KASAN instrumentation
    /// checks (rustc's too) and C's KCSAN instrumentation sees.
    const ACQUIRE_RELEASE_VOLATILE: bool = true;

    /// `dbar 0x10`: orders all earlier accesses before all later ones (`__smp_mb()`,
    /// `o_sync()`, barrier.h:50).
    #[inline(always)]
    fn smp_mb() {
        dbar!("0x10");
    }

    /// `dbar 0x15`: orders earlier loads before later loads (`__smp_rmb()`, `o_rsync()`,
    /// barrier.h:51).
    #[inline(always)]
    fn smp_rmb() {
        dbar!("0x15");
    }

    /// `dbar 0x1a`: orders earlier stores before later stores (`__smp_wmb()`, `o_wsync()`,
    /// barrier.h:52).
    #[inline(always)]
    fn smp_wmb() {
        dbar!("0x1a");
    }

    /// 7.2's `barrier()` (barrier.h:60); 6.12's is the default, `smp_mb()`: see the module docs.
    #[cfg(CONFIG_CPU_HAS_AMO)]
    #[inline(always)]
    fn smp_mb__before_atomic() {
        super::barrier();
    }

    /// 7.2's `barrier()` (barrier.h:61); 6.12's is the default, `smp_mb()`: see the module docs.
    #[cfg(CONFIG_CPU_HAS_AMO)]
    #[inline(always)]
    fn smp_mb__after_atomic() {
        super::barrier();
    }

    fn implementation() -> &'static str {
        "LoongArch AM* atomics (am<op>_db.{w,d}) and LL/SC loops"
    }
}

fenced_load_store!("loongarch64",
    // `__smp_load_acquire()`'s `ldacq_mb()` (barrier.h:88-94 / 91-97); `barrier()` without SMP
    // (include/asm-generic/barrier.h).
    acquire: {
        #[cfg(CONFIG_SMP)]
        dbar!("0x14");
        #[cfg(not(CONFIG_SMP))]
        super::barrier();
    },
    // `__smp_store_release()`'s `strel_mb()` (barrier.h:96-101 / 99-104); `barrier()` without
    // SMP (include/asm-generic/barrier.h).
    release: {
        #[cfg(CONFIG_SMP)]
        dbar!("0x12");
        #[cfg(not(CONFIG_SMP))]
        super::barrier();
    };
    I8: i8, I16: i16, I32: i32, I64: i64);

/// The ordering table: the AM* suffix of `$order`, as C's rows (atomic.h:75-80 /
/// atomic-amo.h:53-58): `_db` for every ordering but RELAXED.
macro_rules! db {
    ($order:expr) => {
        !matches!($order, Order::Relaxed)
    };
}

/// The operation table: expands `$m!($($args)*, AM, OPERAND)` with the AM* instruction of `$op`
/// (without its suffixes) and the operand it takes for `$v`, as C's `ATOMIC_OPS()` rows
/// (atomic.h:82-83, 109-111 / atomic-amo.h:60-61, 87-89): subtraction adds the negation;
/// and-not ANDs the complement (the generic fallback, LoongArch's C having no and-not).
macro_rules! by_rmw {
    ($op:expr, $v:expr, $m:ident!($($args:tt)*)) => {
        match $op {
            Rmw::Add => $m!($($args)*, "amadd", $v),
            Rmw::Sub => $m!($($args)*, "amadd", $v.wrapping_neg()),
            Rmw::And => $m!($($args)*, "amand", $v),
            Rmw::Or => $m!($($args)*, "amor", $v),
            Rmw::Xor => $m!($($args)*, "amxor", $v),
            Rmw::AndNot => $m!($($args)*, "amand", !$v),
        }
    };
}

/// The void AM* `$am` of size `$sz` (C's `ATOMIC_OP()`, atomic.h:37-45 / atomic-amo.h:15-23):
/// `*$p = *$p <op> $v`, the old value discarded into `$zero`; unordered.
macro_rules! am_void {
    ($sz:literal, $p:expr, $am:literal, $v:expr) => {
        // The AM* accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!($am, $sz, " $zero, {v}, {p}"),
                p = in(reg) $p,
                v = in(reg) $v,
                options(nostack, preserves_flags),
            )
        }
    };
}

/// The AM* `$am` of size `$sz` on `$v`, with the suffix `$db` (`"_db"` or `""`: C's `mb`
/// column, `ATOMIC_FETCH_OP()`, atomic.h:61-73 / atomic-amo.h:39-51; `__xchg_asm()`,
/// cmpxchg.h:12-23 / 13-24, for `amswap_db`); evaluates to the old value.
macro_rules! am {
    ($t:ty, $sz:literal, $p:expr, $db:literal, $am:literal, $v:expr) => {{
        let old: $t;
        // The AM* accesses exactly the integer at `$p`; its destination is a register of its
        // own (`out`), as the instruction requires.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!($am, $db, $sz, " {old}, {v}, {p}"),
                p = in(reg) $p,
                v = in(reg) $v,
                old = out(reg) old,
                options(nostack, preserves_flags),
            )
        };
        old
    }};
}

/// C's `ll`/`sc` compare-and-exchange of size `$sz` (`__cmpxchg_asm()`, cmpxchg.h:95-112 /
/// 122-139): evaluates to the value found. `$old` must be what `ll` makes of the value,
/// sign-extended for `.w`. On a mismatch it branches to C's `__WEAK_LLSC_MB`.
macro_rules! ll_sc_cmpxchg {
    ($t:ty, $sz:literal, $p:expr, $old:expr, $new:expr) => {{
        let found: $t;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!("1: ll", $sz, " {found}, {p}, 0"),
                "bne {found}, {old}, 2f",
                "move {rc}, {new}",
                concat!("sc", $sz, " {rc}, {p}, 0"),
                "beqz {rc}, 1b",
                "2:",
                weak_llsc_mb!(),
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

/// C's `atomic{,64}_sub_if_positive(1, v)` of size `$sz` (atomic.h:154-170, 313-329 / 70-86,
/// 136-152, the constant form): stores the value minus one unless that is negative, and ends
/// either way at C's `__WEAK_LLSC_MB`; evaluates to the value found minus one, wrapping.
macro_rules! ll_sc_dec_if_positive {
    ($t:ty, $sz:literal, $p:expr) => {{
        let result: $t;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!("1: ll", $sz, " {temp}, {p}, 0"),
                concat!("addi", $sz, " {result}, {temp}, -1"),
                "move {temp}, {result}",
                "bltz {result}, 2f",
                concat!("sc", $sz, " {temp}, {p}, 0"),
                "beqz {temp}, 1b",
                "2:",
                weak_llsc_mb!(),
                p = in(reg) $p,
                result = out(reg) result,
                temp = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        result
    }};
}

/// C's `atomic{,64}_fetch_add_unless()` of size `$sz` (atomic.h:131-151, 290-310 / 47-67,
/// 113-133): adds `$a` unless the value is `$u` (which must be what `ll` makes of it), and then
/// ends at C's `__WEAK_LLSC_MB` without storing; evaluates to the value found.
macro_rules! ll_sc_fetch_add_unless {
    ($t:ty, $sz:literal, $p:expr, $a:expr, $u:expr) => {{
        let prev: $t;
        // The loop accesses exactly the integer at `$p`.
        // SAFETY: The enclosing function's caller guarantees `$p` valid, aligned, atomic.
        unsafe {
            asm!(
                concat!("0: ll", $sz, " {prev}, {p}, 0"),
                "beq {prev}, {u}, 1f",
                concat!("add", $sz, " {rc}, {prev}, {a}"),
                concat!("sc", $sz, " {rc}, {p}, 0"),
                "beqz {rc}, 0b",
                "b 2f",
                "1:",
                weak_llsc_mb!(),
                "2:",
                p = in(reg) $p,
                a = in(reg) $a,
                u = in(reg) $u,
                prev = out(reg) prev,
                rc = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
        prev
    }};
}

/// The aligned 32-bit word holding the 1- or 2-byte `T` at `p`, the position of the `T`'s bits
/// in it and their mask, as C's `__xchg_small()` and `__cmpxchg_small()` compute them
/// (cmpxchg.h:33-49, 122-141 / 50-66, 149-168): the word's bytes are in address order,
/// LoongArch being little-endian.
#[inline(always)]
fn masked_word<T>(p: *mut T) -> (*mut u32, usize, usize) {
    let size = core::mem::size_of::<T>();
    let addr = p as usize;
    let shift = (addr & 3) * 8;
    let mask = ((1 << (size * 8)) - 1) << shift;
    ((addr & !3) as *mut u32, shift, mask)
}

/// Implements [`Exchange`] for marker `$m` of type `$t` with the AM* and `ll`/`sc` of size
/// `$sz`; `$($co)*` converts `old` to what `ll` makes of the value.
macro_rules! impl_exchange {
    ($m:ident: $t:ty, $sz:literal, [$($co:tt)*]) => {
        // SAFETY: Every operation is C's AM* instruction or `ll`/`sc` loop, which C uses for
        // every ordering (see the module docs).
        unsafe impl Exchange for $m {
            #[inline(always)]
            unsafe fn xchg(p: *mut Self::V, new: Self::V, _order: Order) -> Self::V {
                am!($t, $sz, p, "_db", "amswap", new)
            }

            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                old: Self::V,
                new: Self::V,
                _order: Order,
            ) -> Self::V {
                ll_sc_cmpxchg!($t, $sz, p, $($co)*(old), new)
            }
        }
    };
}

impl_exchange!(I32: i32, ".w", [i64::from]);
impl_exchange!(I64: i64, ".d", []);

/// Implements [`Exchange`] for marker `$m` of the 1- or 2-byte type `$t`, with C's masked loops
/// on the aligned word around it, the same for every ordering. The values enter the word
/// zero-extended (`as $u`), so that a negative one does not spill into the neighbouring bytes
/// (C's `val &= mask`, cmpxchg.h:34 / 51, and `old &= mask; new &= mask`, 123-124 / 150-151).
macro_rules! impl_exchange_masked {
    ($m:ident: $t:ty as $u:ty) => {
        // SAFETY: Every operation is C's masked `ll.w`/`sc.w` loop, which C uses for every
        // ordering (see the module docs).
        unsafe impl Exchange for $m {
            #[inline(always)]
            unsafe fn xchg(p: *mut Self::V, new: Self::V, _order: Order) -> Self::V {
                let (p32, shift, mask) = masked_word(p);
                let newx = usize::from(new as $u) << shift;
                let old32: usize;
                // The loop accesses the aligned word at `p32`, which holds the integer and is
                // mapped with it; it stores back the other bytes as it found them, and only if
                // no other access wrote the word since the `ll.w`, as C's loop
                // (`__xchg_small()`, cmpxchg.h:51-59 / 68-76).
                // SAFETY: The caller guarantees the integer valid, aligned, atomic.
                unsafe {
                    asm!(
                        "1: ll.w {old32}, {p}, 0",
                        "andn {temp}, {old32}, {mask}",
                        "or {temp}, {temp}, {newx}",
                        "sc.w {temp}, {p}, 0",
                        "beqz {temp}, 1b",
                        p = in(reg) p32,
                        mask = in(reg) mask,
                        newx = in(reg) newx,
                        old32 = out(reg) old32,
                        temp = out(reg) _,
                        options(nostack, preserves_flags),
                    )
                };
                ((old32 & mask) >> shift) as $u as $t
            }

            #[inline(always)]
            unsafe fn cmpxchg(
                p: *mut Self::V,
                old: Self::V,
                new: Self::V,
                _order: Order,
            ) -> Self::V {
                let (p32, shift, mask) = masked_word(p);
                let oldx = usize::from(old as $u) << shift;
                let newx = usize::from(new as $u) << shift;
                let old32: usize;
                // As in `xchg` (`__cmpxchg_small()`, cmpxchg.h:143-157 / 170-184); a mismatch
                // branches to C's `__WEAK_LLSC_MB`.
                // SAFETY: The caller guarantees the integer valid, aligned, atomic.
                unsafe {
                    asm!(
                        "1: ll.w {old32}, {p}, 0",
                        "and {temp}, {old32}, {mask}",
                        "bne {temp}, {oldx}, 2f",
                        "andn {temp}, {old32}, {mask}",
                        "or {temp}, {temp}, {newx}",
                        "sc.w {temp}, {p}, 0",
                        "beqz {temp}, 1b",
                        "b 3f",
                        "2:",
                        weak_llsc_mb!(),
                        "3:",
                        p = in(reg) p32,
                        mask = in(reg) mask,
                        oldx = in(reg) oldx,
                        newx = in(reg) newx,
                        old32 = out(reg) old32,
                        temp = out(reg) _,
                        options(nostack, preserves_flags),
                    )
                };
                ((old32 & mask) >> shift) as $u as $t
            }
        }
    };
}

impl_exchange_masked!(I8: i8 as u8);
impl_exchange_masked!(I16: i16 as u16);

/// Implements [`Primitive`] for marker `$m` of type `$t` with the AM* and `ll`/`sc` of size
/// `$sz`; `$($co)*` converts a value to compare with what `ll` loads, as in [`impl_exchange!`].
macro_rules! impl_primitive {
    ($m:ident: $t:ty, $sz:literal, [$($co:tt)*]) => {
        // SAFETY: Every operation is C's AM* instruction or `ll`/`sc` loop for its ordering (see
        // the module docs).
        unsafe impl Primitive for $m {
            #[inline(always)]
            unsafe fn rmw(p: *mut Self::V, op: Rmw, v: Self::V) {
                by_rmw!(op, v, am_void!($sz, p))
            }

            #[inline(always)]
            unsafe fn fetch_rmw(p: *mut Self::V, op: Rmw, v: Self::V, order: Order) -> Self::V {
                if db!(order) {
                    by_rmw!(op, v, am!($t, $sz, p, "_db"))
                } else {
                    by_rmw!(op, v, am!($t, $sz, p, ""))
                }
            }

            /// C's LoongArch `atomic{,64}_dec_if_positive()`, its own `ll`/`sc` loop (see the
            /// module docs): fully ordered when it stores; returns the value minus one either
            /// way.
            #[inline(always)]
            unsafe fn dec_if_positive(p: *mut Self::V) -> Self::V {
                ll_sc_dec_if_positive!($t, $sz, p)
            }

            /// C's LoongArch `atomic{,64}_fetch_add_unless()`, its own `ll`/`sc` loop: fully
            /// ordered when it adds, a relaxed load when it does not.
            #[inline(always)]
            unsafe fn fetch_add_unless(p: *mut Self::V, a: Self::V, u: Self::V) -> Self::V {
                ll_sc_fetch_add_unless!($t, $sz, p, a, $($co)*(u))
            }

            /// C's generic `atomic_inc_not_zero()`, `atomic_add_unless(v, 1, 0)`, on LoongArch's
            /// own `fetch_add_unless()` loop.
            #[inline(always)]
            unsafe fn inc_not_zero(p: *mut Self::V) -> bool {
                // SAFETY: The caller upholds the trait's contract.
                unsafe { Self::fetch_add_unless(p, 1, 0) != 0 }
            }
        }
    };
}

impl_primitive!(I32: i32, ".w", [i64::from]);
impl_primitive!(I64: i64, ".d", []);
