// SPDX-License-Identifier: GPL-2.0

//! The harness of the herd7 check (`scripts/memory-model/herd-check`): each litmus thread, as
//! `scripts/memory-model/litmus2rust` translates it for the in-kernel runner, compiled on its own into an
//! entry point whose machine code the check turns into an AArch64, ARM, X86_64 or RISCV litmus
//! test.
//!
//! An entry point (`entry!`) is the thread's body between two marker instructions. The first
//! marker's `asm!` hands the thread the addresses of the shared variables in fixed registers
//! ([`variables`]): the check initialises those registers with the test's locations. The second
//! takes the thread's registers (`out`) in the same fixed registers: the check's final
//! condition reads them there. Between the markers is exactly what the compiler made of the
//! translated thread on `kernel::sync::atomic`, inlined; the check refuses anything it cannot
//! model (a call, a stack access, an unknown instruction) by name.
//!
//! The entry points are never run: the module is built and disassembled, never loaded.

use core::arch::asm;
use core::marker::PhantomData;

use crate::atomic::{AtomicI32, AtomicUsize};

#[path = "../../tests/kernel/litmus/test.rs"]
mod test;
pub(crate) use test::*;

/// Most shared variables of one test, as for the in-kernel runner; the first marker passes the
/// addresses of the first [`MARKED_VARS`] (the check skips a test with more).
pub(crate) const MAX_VARS: usize = 16;
/// The variables whose addresses the first marker passes in registers.
pub(crate) const MARKED_VARS: usize = 12;
/// Most registers of one thread, as for the in-kernel runner.
pub(crate) const MAX_REGS: usize = 8;

/// One instance of a test's shared variables: the addresses the first marker produced.
///
/// # Invariants
///
/// Each `vars[v]` is the address the check gives shared variable `v` in its litmus test: an
/// aligned location of the variable's kind. The check never runs the code.
#[derive(Clone, Copy)]
pub(crate) struct Instance<'a> {
    vars: [*mut u8; MAX_VARS],
    _variables: PhantomData<&'a ()>,
}

impl<'a> Instance<'a> {
    /// `int` (or `atomic_t`) variable number `v`.
    #[inline(always)]
    pub(crate) fn int(&self, v: usize) -> &'a AtomicI32 {
        // SAFETY: By the type invariant, `vars[v]` is an aligned `int` location.
        unsafe { AtomicI32::from_ptr(self.vars[v].cast::<i32>()) }
    }

    /// `int *` variable number `v`: it holds an address (0 is NULL).
    #[inline(always)]
    pub(crate) fn ptr(&self, v: usize) -> &'a AtomicUsize {
        // SAFETY: By the type invariant, `vars[v]` is an aligned pointer location.
        unsafe { AtomicUsize::from_ptr(self.vars[v].cast::<usize>()) }
    }

    /// `spinlock_t` variable number `v`.
    #[inline(always)]
    pub(crate) fn lock(&self, v: usize) -> &'a Lock {
        // SAFETY: By the type invariant, `vars[v]` is an aligned lock word; `Lock` is a
        // transparent `AtomicI32`.
        unsafe { &*self.vars[v].cast::<Lock>() }
    }

    /// The address of `int` variable number `v` (C: `x` where the parameter is `int *x`).
    #[inline(always)]
    pub(crate) fn addr(&self, v: usize) -> usize {
        self.vars[v] as usize
    }

    /// The address of `int *` variable number `v`.
    #[inline(always)]
    pub(crate) fn ptr_addr(&self, v: usize) -> usize {
        self.vars[v] as usize
    }

    /// The `int *` at address `addr`: as [`Self::deref`].
    #[inline(always)]
    pub(crate) fn deref_ptr(&self, addr: usize) -> &'a AtomicUsize {
        // SAFETY: As for `deref`.
        unsafe { AtomicUsize::from_ptr(addr as *mut usize) }
    }

    /// `spin_lock()`'s wait (see `Lock::lock`): spins while `held()`. Never gives up: herd7
    /// has no execution in which a thread waits forever (it cuts the loop, `-unroll 0`).
    #[inline(always)]
    pub(crate) fn wait_while(&self, held: impl Fn() -> bool) -> bool {
        while held() {
            core::hint::spin_loop();
        }
        true
    }

    /// `struct srcu_struct` variable number `v`: the kernel's SRCU, calls, which the check
    /// reports as what it cannot model.
    #[inline(always)]
    pub(crate) fn srcu(&self, v: usize) -> &'a Srcu {
        // SAFETY: By the type invariant, `vars[v]` is a location of the variable's kind; the
        // code is never run.
        unsafe { &*self.vars[v].cast::<Srcu>() }
    }

    /// The `int` at address `addr` (C: `*r0`). Unlike the runner's, no range check: in the
    /// litmus test an address is a location, and herd7 itself checks every dereference.
    #[inline(always)]
    pub(crate) fn deref(&self, addr: usize) -> &'a AtomicI32 {
        // SAFETY: In the check's model every address a thread computes is a location of the
        // test (herd7 rejects any other); the code is never run.
        unsafe { AtomicI32::from_ptr(addr as *mut i32) }
    }
}

/// `rcu_read_lock()`: as for the in-kernel runner (`tests/kernel/litmus/harness.rs`), a compiler
/// barrier, C's `preempt_disable()` without `CONFIG_PREEMPT_COUNT`.
#[inline(always)]
pub(crate) fn rcu_read_lock() {
    crate::atomic::barrier();
}

/// `rcu_read_unlock()`: as [`rcu_read_lock`].
#[inline(always)]
pub(crate) fn rcu_read_unlock() {
    crate::atomic::barrier();
}

/// `synchronize_rcu()`: the kernel's, a call, which the check reports as one it cannot model.
pub(crate) fn synchronize_rcu() {
    // SAFETY: Never run (see the module docs); in the kernel, a kthread may sleep here.
    unsafe { kernel::bindings::synchronize_rcu() };
}

/// `synchronize_rcu_expedited()`: as [`synchronize_rcu`].
pub(crate) fn synchronize_rcu_expedited() {
    // SAFETY: As for `synchronize_rcu`.
    unsafe { kernel::bindings::synchronize_rcu_expedited() };
}

/// `smp_mb__after_unlock_lock()`: nothing, as for the runner (`tests/kernel/litmus/harness.rs`);
/// the check holds the code to the LKMM's full barrier.
#[allow(non_snake_case)]
#[inline(always)]
pub(crate) fn smp_mb__after_unlock_lock() {}

/// `smp_mb__after_srcu_read_unlock()`: nothing, as for the runner.
#[allow(non_snake_case)]
#[inline(always)]
pub(crate) fn smp_mb__after_srcu_read_unlock() {}

/// An SRCU domain: the kernel's, as for the runner; every operation is a call.
#[repr(transparent)]
pub(crate) struct Srcu(kernel::types::Opaque<kernel::bindings::srcu_struct>);

impl Srcu {
    /// `srcu_read_lock()`.
    pub(crate) fn read_lock(&self) -> i32 {
        // SAFETY: Never run (see the module docs).
        unsafe { kernel::bindings::__srcu_read_lock(self.0.get()) }
    }

    /// `srcu_read_unlock()`.
    pub(crate) fn read_unlock(&self, idx: i32) {
        // SAFETY: Never run (see the module docs).
        unsafe { kernel::bindings::__srcu_read_unlock(self.0.get(), idx & 1) }
    }

    /// `srcu_down_read()`.
    pub(crate) fn down_read(&self) -> i32 {
        self.read_lock()
    }

    /// `srcu_up_read()`.
    pub(crate) fn up_read(&self, idx: i32) {
        self.read_unlock(idx)
    }

    /// `synchronize_srcu()`.
    pub(crate) fn synchronize(&self) {
        // SAFETY: Never run (see the module docs).
        unsafe { kernel::bindings::synchronize_srcu(self.0.get()) }
    }

    /// `synchronize_srcu_expedited()`.
    pub(crate) fn synchronize_expedited(&self) {
        // SAFETY: Never run (see the module docs).
        unsafe { kernel::bindings::synchronize_srcu_expedited(self.0.get()) }
    }
}

/// The first marker: the addresses of the shared variables, in `x0`..`x7` (arm64), `r0`..`r5`,
/// `r7`, `r8` (arm), `a0`..`a7` (riscv64) or `rdi`, `rsi`, `rdx`, `rcx`, `r8`..`r11` (x86_64),
/// in `Instance` order; `scripts/memory-model/herd-check` reads the same list
/// (`scripts/lkmm/archtest.py`).
#[inline(always)]
pub(crate) fn variables<'a>() -> Instance<'a> {
    let v: [*mut u8; 8];
    // The marker is a `hint` that the architecture defines as a no-op (Arm ARM C6.2 "HINT").
    #[cfg(CONFIG_ARM64)]
    // SAFETY: A no-op; the registers it "writes" are outputs, so the compiler keeps nothing
    // in them across it.
    unsafe {
        let (a, b, c, d, e, f, g, h);
        asm!("hint #120", out("x0") a, out("x1") b, out("x2") c, out("x3") d, out("x4") e,
             out("x5") f, out("x6") g, out("x7") h, options(nostack, preserves_flags));
        v = [a, b, c, d, e, f, g, h];
    }
    // The marker is a multi-byte `nop` (Intel SDM Vol. 2, NOP) with a displacement that
    // names it.
    #[cfg(CONFIG_X86_64)]
    // SAFETY: A no-op, as above.
    unsafe {
        let (a, b, c, d, e, f, g, h);
        asm!("nopl 0x68657201(%rax)", out("rdi") a, out("rsi") b, out("rdx") c, out("rcx") d,
             out("r8") e, out("r9") f, out("r10") g, out("r11") h,
             options(att_syntax, nostack, preserves_flags));
        v = [a, b, c, d, e, f, g, h];
    }
    // The marker is an `addi` to `zero` with an immediate that names it (llvm-objdump: `li
    // zero, 0x78`): a HINT, which the architecture defines as a no-op (RISC-V Unprivileged
    // ISA, "HINT Instructions": ADDI with rd=x0, reserved for future standard use).
    #[cfg(CONFIG_RISCV)]
    // SAFETY: A no-op, as above.
    unsafe {
        let (a, b, c, d, e, f, g, h);
        asm!("addi zero, zero, 120", out("a0") a, out("a1") b, out("a2") c, out("a3") d,
             out("a4") e, out("a5") f, out("a6") g, out("a7") h,
             options(nostack, preserves_flags));
        v = [a, b, c, d, e, f, g, h];
    }
    // The marker is an unallocated `hint`, which ARMv7 executes as a NOP (Arm ARM (ARMv7-A/R),
    // "NOP-compatible hints": an unallocated hint executes as a NOP), in registers `asm!` may
    // name in ARM state (not `r6`, LLVM's base pointer, nor `r11`, the frame pointer).
    #[cfg(CONFIG_ARM)]
    // SAFETY: A no-op, as above.
    unsafe {
        let (a, b, c, d, e, f, g, h);
        asm!(".arch armv7-a", "hint #120", out("r0") a, out("r1") b, out("r2") c, out("r3") d,
             out("r4") e, out("r5") f, out("r7") g, out("r8") h,
             options(nostack, preserves_flags));
        v = [a, b, c, d, e, f, g, h];
    }
    instance(&v)
}

/// The first marker of a test with more than 8 shared variables: [`variables`] and 4 more
/// registers, `x8`..`x11` (arm64), `t3`..`t6` (riscv64: caller-saved, so the prologue saves
/// none of them, and neither an argument register nor `t0`, the ISA's alternate link
/// register) or `rax`, `r12`..`r14` (x86_64). Only for such tests: the registers it takes are
/// not free for the compiler's code (or the x86_64 lowering's).
#[inline(always)]
pub(crate) fn variables_wide<'a>() -> Instance<'a> {
    let v: [*mut u8; MARKED_VARS];
    #[cfg(CONFIG_ARM64)]
    // SAFETY: As for `variables`.
    unsafe {
        let (a, b, c, d, e, f, g, h, i, j, k, l);
        asm!("hint #120", out("x0") a, out("x1") b, out("x2") c, out("x3") d, out("x4") e,
             out("x5") f, out("x6") g, out("x7") h, out("x8") i, out("x9") j, out("x10") k,
             out("x11") l, options(nostack, preserves_flags));
        v = [a, b, c, d, e, f, g, h, i, j, k, l];
    }
    #[cfg(CONFIG_X86_64)]
    // SAFETY: As for `variables`.
    unsafe {
        let (a, b, c, d, e, f, g, h, i, j, k, l);
        asm!("nopl 0x68657201(%rax)", out("rdi") a, out("rsi") b, out("rdx") c, out("rcx") d,
             out("r8") e, out("r9") f, out("r10") g, out("r11") h, out("rax") i,
             out("r12") j, out("r13") k, out("r14") l,
             options(att_syntax, nostack, preserves_flags));
        v = [a, b, c, d, e, f, g, h, i, j, k, l];
    }
    #[cfg(CONFIG_RISCV)]
    // SAFETY: As for `variables`.
    unsafe {
        let (a, b, c, d, e, f, g, h, i, j, k, l);
        asm!("addi zero, zero, 120", out("a0") a, out("a1") b, out("a2") c, out("a3") d,
             out("a4") e, out("a5") f, out("a6") g, out("a7") h, out("t3") i, out("t4") j,
             out("t5") k, out("t6") l, options(nostack, preserves_flags));
        v = [a, b, c, d, e, f, g, h, i, j, k, l];
    }
    // 32-bit ARM: `r9`, `r10`, `r12` and `lr` after those of `variables`.
    #[cfg(CONFIG_ARM)]
    // SAFETY: As for `variables`.
    unsafe {
        let (a, b, c, d, e, f, g, h, i, j, k, l);
        asm!(".arch armv7-a", "hint #120", out("r0") a, out("r1") b, out("r2") c, out("r3") d,
             out("r4") e, out("r5") f, out("r7") g, out("r8") h, out("r9") i, out("r10") j,
             out("r12") k, out("lr") l, options(nostack, preserves_flags));
        v = [a, b, c, d, e, f, g, h, i, j, k, l];
    }
    instance(&v)
}

/// The instance whose first variables are at the addresses a marker produced.
#[inline(always)]
fn instance<'a>(marked: &[*mut u8]) -> Instance<'a> {
    let mut vars = [core::ptr::null_mut(); MAX_VARS];
    vars[..marked.len()].copy_from_slice(marked);
    // INVARIANT: The check initialises the marker's registers with the test's locations
    // (and skips a test with more than `MARKED_VARS` variables).
    Instance {
        vars,
        _variables: PhantomData,
    }
}

/// The second marker: the thread's registers, `out` in the registers of [`variables`]. Not
/// `nomem`: every memory access of the thread stays before it.
#[inline(always)]
pub(crate) fn registers(out: &[i64; MAX_REGS]) {
    let [a, b, c, d, e, f, g, h] = *out;
    #[cfg(CONFIG_ARM64)]
    // SAFETY: A no-op (see `variables`) that only reads registers.
    unsafe {
        asm!("hint #121", in("x0") a, in("x1") b, in("x2") c, in("x3") d, in("x4") e,
             in("x5") f, in("x6") g, in("x7") h, options(nostack, preserves_flags));
    }
    #[cfg(CONFIG_X86_64)]
    // SAFETY: As above.
    unsafe {
        asm!("nopl 0x68657202(%rax)", in("rdi") a, in("rsi") b, in("rdx") c, in("rcx") d,
             in("r8") e, in("r9") f, in("r10") g, in("r11") h,
             options(att_syntax, nostack, preserves_flags));
    }
    #[cfg(CONFIG_RISCV)]
    // SAFETY: As above.
    unsafe {
        asm!("addi zero, zero, 121", in("a0") a, in("a1") b, in("a2") c, in("a3") d,
             in("a4") e, in("a5") f, in("a6") g, in("a7") h, options(nostack, preserves_flags));
    }
    // 32-bit ARM: the registers' low words (a litmus register holds an `int` or an address,
    // both 32 bits here).
    #[cfg(CONFIG_ARM)]
    // SAFETY: As above.
    unsafe {
        asm!(".arch armv7-a", "hint #121", in("r0") a as u32, in("r1") b as u32,
             in("r2") c as u32, in("r3") d as u32, in("r4") e as u32, in("r5") f as u32,
             in("r7") g as u32, in("r8") h as u32, options(nostack, preserves_flags));
    }
}

/// Defines entry point `$name`: litmus thread `$thread` between the two markers.
/// With `wide`, for a test with more than 8 shared variables ([`variables_wide`]).
macro_rules! entry {
    ($name:ident, $thread:path) => {
        $crate::harness::entry!($name, $thread, variables);
    };
    ($name:ident, $thread:path, wide) => {
        $crate::harness::entry!($name, $thread, variables_wide);
    };
    ($name:ident, $thread:path, $marker:ident) => {
        #[doc = concat!("`", stringify!($thread), "` for the herd7 check (`harness.rs`).")]
        #[no_mangle]
        pub extern "C" fn $name() {
            let m = $crate::harness::$marker();
            let mut out = [0i64; $crate::harness::MAX_REGS];
            $thread(&m, &mut out);
            $crate::harness::registers(&out);
        }
    };
}
pub(crate) use entry;
