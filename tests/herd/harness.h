/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness of the herd7 check's C twin (scripts/memory-model/herd-check,
 * scripts/lkmm/ctwin.py): each litmus thread compiled as the kernel's C, with the kernel's
 * READ_ONCE(), WRITE_ONCE(), smp_*(), atomic_*(), xchg() and cmpxchg() families, as klitmus7
 * writes them, between the same two marker instructions as tests/herd/harness.rs, so that the
 * check lowers C's machine code exactly as it lowers ours and holds ours to it per test.
 *
 * What is not an atomic operation of the kernel is the Rust harness's, written in C on C's
 * atomics: the spinlock (tests/kernel/litmus/test.rs, `Lock`) and rcu_read_lock() (a compiler
 * barrier). The twin compares the two languages' atomics, not two lock implementations.
 *
 * Built, disassembled, never loaded.
 */
#ifndef RUST_LKMM_HERD_HARNESS_H
#define RUST_LKMM_HERD_HARNESS_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/srcu.h>
#include <linux/types.h>

/* The litmus dialect's NULL and the registers' out array, as for the Rust harness. */
#define HERD_MAX_REGS 8

/*
 * The first marker: the addresses of the shared variables in the registers that
 * tests/herd/harness.rs `variables()` names, in the same order (scripts/lkmm/archtest.py reads
 * that list); the second marker: the thread's registers in the same registers. Both clobber
 * memory, as Rust's `asm!` without `nomem`: every access of the thread stays between them.
 */
#if defined(CONFIG_X86_64)
#define HERD_IN_MARKER "nopl 0x68657201(%%rax)"
#define HERD_OUT_MARKER "nopl 0x68657202(%%rax)"
#define HERD_R0 "rdi"
#define HERD_R1 "rsi"
#define HERD_R2 "rdx"
#define HERD_R3 "rcx"
#define HERD_R4 "r8"
#define HERD_R5 "r9"
#define HERD_R6 "r10"
#define HERD_R7 "r11"
#define HERD_R8 "rax"
#define HERD_R9 "r12"
#define HERD_R10 "r13"
#define HERD_R11 "r14"
#elif defined(CONFIG_ARM64)
#define HERD_IN_MARKER "hint #120"
#define HERD_OUT_MARKER "hint #121"
#define HERD_R0 "x0"
#define HERD_R1 "x1"
#define HERD_R2 "x2"
#define HERD_R3 "x3"
#define HERD_R4 "x4"
#define HERD_R5 "x5"
#define HERD_R6 "x6"
#define HERD_R7 "x7"
#define HERD_R8 "x8"
#define HERD_R9 "x9"
#define HERD_R10 "x10"
#define HERD_R11 "x11"
#elif defined(CONFIG_RISCV)
#define HERD_IN_MARKER "addi zero, zero, 120"
#define HERD_OUT_MARKER "addi zero, zero, 121"
#define HERD_R0 "a0"
#define HERD_R1 "a1"
#define HERD_R2 "a2"
#define HERD_R3 "a3"
#define HERD_R4 "a4"
#define HERD_R5 "a5"
#define HERD_R6 "a6"
#define HERD_R7 "a7"
#define HERD_R8 "t3"
#define HERD_R9 "t4"
#define HERD_R10 "t5"
#define HERD_R11 "t6"
#elif defined(CONFIG_ARM)
#define HERD_IN_MARKER ".arch armv7-a\n\thint #120"
#define HERD_OUT_MARKER ".arch armv7-a\n\thint #121"
#define HERD_R0 "r0"
#define HERD_R1 "r1"
#define HERD_R2 "r2"
#define HERD_R3 "r3"
#define HERD_R4 "r4"
#define HERD_R5 "r5"
#define HERD_R6 "r7"
#define HERD_R7 "r8"
#define HERD_R8 "r9"
#define HERD_R9 "r10"
#define HERD_R10 "r12"
#define HERD_R11 "lr"
#else
#error "the herd7 check has no markers for this architecture"
#endif

/* v[0..7] = the addresses the first marker produced. */
#define HERD_VARIABLES(v)							\
	do {									\
		register unsigned long a0 asm(HERD_R0), a1 asm(HERD_R1);	\
		register unsigned long a2 asm(HERD_R2), a3 asm(HERD_R3);	\
		register unsigned long a4 asm(HERD_R4), a5 asm(HERD_R5);	\
		register unsigned long a6 asm(HERD_R6), a7 asm(HERD_R7);	\
		asm volatile(HERD_IN_MARKER					\
			     : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3),		\
			       "=r"(a4), "=r"(a5), "=r"(a6), "=r"(a7)		\
			     : : "memory");					\
		(v)[0] = (void *)a0; (v)[1] = (void *)a1;			\
		(v)[2] = (void *)a2; (v)[3] = (void *)a3;			\
		(v)[4] = (void *)a4; (v)[5] = (void *)a5;			\
		(v)[6] = (void *)a6; (v)[7] = (void *)a7;			\
	} while (0)

/* A test with more than 8 shared variables: v[0..11] (tests/herd/harness.rs, variables_wide). */
#define HERD_VARIABLES_WIDE(v)							\
	do {									\
		register unsigned long a0 asm(HERD_R0), a1 asm(HERD_R1);	\
		register unsigned long a2 asm(HERD_R2), a3 asm(HERD_R3);	\
		register unsigned long a4 asm(HERD_R4), a5 asm(HERD_R5);	\
		register unsigned long a6 asm(HERD_R6), a7 asm(HERD_R7);	\
		register unsigned long a8 asm(HERD_R8), a9 asm(HERD_R9);	\
		register unsigned long a10 asm(HERD_R10), a11 asm(HERD_R11);	\
		asm volatile(HERD_IN_MARKER					\
			     : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3),		\
			       "=r"(a4), "=r"(a5), "=r"(a6), "=r"(a7),		\
			       "=r"(a8), "=r"(a9), "=r"(a10), "=r"(a11)	\
			     : : "memory");					\
		(v)[0] = (void *)a0; (v)[1] = (void *)a1;			\
		(v)[2] = (void *)a2; (v)[3] = (void *)a3;			\
		(v)[4] = (void *)a4; (v)[5] = (void *)a5;			\
		(v)[6] = (void *)a6; (v)[7] = (void *)a7;			\
		(v)[8] = (void *)a8; (v)[9] = (void *)a9;			\
		(v)[10] = (void *)a10; (v)[11] = (void *)a11;			\
	} while (0)

/* The second marker: out[0..7] in the first marker's registers (32-bit ARM: their low words). */
#define HERD_REGISTERS(out)							\
	do {									\
		register unsigned long a0 asm(HERD_R0) = (out)[0];		\
		register unsigned long a1 asm(HERD_R1) = (out)[1];		\
		register unsigned long a2 asm(HERD_R2) = (out)[2];		\
		register unsigned long a3 asm(HERD_R3) = (out)[3];		\
		register unsigned long a4 asm(HERD_R4) = (out)[4];		\
		register unsigned long a5 asm(HERD_R5) = (out)[5];		\
		register unsigned long a6 asm(HERD_R6) = (out)[6];		\
		register unsigned long a7 asm(HERD_R7) = (out)[7];		\
		asm volatile(HERD_OUT_MARKER					\
			     : : "r"(a0), "r"(a1), "r"(a2), "r"(a3),		\
			       "r"(a4), "r"(a5), "r"(a6), "r"(a7)		\
			     : "memory");					\
	} while (0)

/*
 * spinlock_t of a litmus test: the Rust harness's lock word (tests/kernel/litmus/test.rs,
 * `Lock`), taken from 0 to 1 with cmpxchg_acquire() (cmpxchg() without queued spinlocks, as
 * there), released with a release store.
 */
typedef struct {
	atomic_t val;
} herd_lock_t;

static __always_inline bool herd_lock_acquire(herd_lock_t *l)
{
	if (IS_ENABLED(CONFIG_ARCH_USE_QUEUED_SPINLOCKS))
		return atomic_cmpxchg_acquire(&l->val, 0, 1) == 0;
	return atomic_cmpxchg(&l->val, 0, 1) == 0;
}

static __always_inline void herd_spin_lock(herd_lock_t *l)
{
	while (!herd_lock_acquire(l))
		while (atomic_read(&l->val))
			;
}

#define spin_lock(l) herd_spin_lock(l)
#define spin_trylock(l) herd_lock_acquire(l)
#define spin_unlock(l) atomic_set_release(&(l)->val, 0)
#define spin_is_locked(l) (atomic_read(&(l)->val) != 0)

/* As the Rust harness's: compiler barriers, and the LKMM-only fences do nothing. */
#undef rcu_read_lock
#undef rcu_read_unlock
#define rcu_read_lock() barrier()
#define rcu_read_unlock() barrier()
#ifndef smp_mb__after_unlock_lock
#define smp_mb__after_unlock_lock() do { } while (0)
#endif
#ifndef smp_mb__after_srcu_read_unlock
#define smp_mb__after_srcu_read_unlock() do { } while (0)
#endif

#endif /* RUST_LKMM_HERD_HARNESS_H */
