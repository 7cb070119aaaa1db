// SPDX-License-Identifier: GPL-2.0

/*
 * The C side of the in-guest benchmark (module rust_atomic_bench, Rust side
 * bench/kernel/rust_atomic_bench_rs.rs):
 *
 * - rust_atomic_bench_c_loop() runs a whole timed loop with the kernel's inline atomic_*()
 *   operations: the baseline every other variant is compared with ("c_inline").
 * - rust_atomic_bench_c_<op>() are one operation each, out of line, which the Rust side calls
 *   once per operation ("c_call"): the cost of the upstream approach, where Rust reaches the C
 *   atomics through rust/helpers/atomic.c, one call per operation.
 *
 * The Rust side declares these functions `extern "C"`; they are not exported, both sides are
 * linked into the one module.
 */

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/module.h>

/* Operation numbers, the same as `Op` in bench/kernel/rust_atomic_bench_rs.rs. */
#define BENCH_FETCH_ADD_RELAXED	0
#define BENCH_FETCH_ADD		1
#define BENCH_CMPXCHG		2

int rust_atomic_bench_c_read(atomic_t *v);
int rust_atomic_bench_c_fetch_add_relaxed(atomic_t *v, int i);
int rust_atomic_bench_c_fetch_add(atomic_t *v, int i);
int rust_atomic_bench_c_cmpxchg(atomic_t *v, int old, int new);
void rust_atomic_bench_c_loop(int op, atomic_t *v, int iterations);

/* One operation per call, as the upstream helpers (rust_helper_atomic_*()) are. */
noinline int rust_atomic_bench_c_read(atomic_t *v)
{
	return atomic_read(v);
}

noinline int rust_atomic_bench_c_fetch_add_relaxed(atomic_t *v, int i)
{
	return atomic_fetch_add_relaxed(i, v);
}

noinline int rust_atomic_bench_c_fetch_add(atomic_t *v, int i)
{
	return atomic_fetch_add(i, v);
}

noinline int rust_atomic_bench_c_cmpxchg(atomic_t *v, int old, int new)
{
	return atomic_cmpxchg(v, old, new);
}

/*
 * Adds 1 to *@v @iterations times with operation @op, inline: the same loops as the Rust
 * side's (an increment by cmpxchg retries with the value cmpxchg returned).
 */
void rust_atomic_bench_c_loop(int op, atomic_t *v, int iterations)
{
	int k;

	switch (op) {
	case BENCH_FETCH_ADD_RELAXED:
		for (k = 0; k < iterations; k++)
			atomic_fetch_add_relaxed(1, v);
		break;
	case BENCH_FETCH_ADD:
		for (k = 0; k < iterations; k++)
			atomic_fetch_add(1, v);
		break;
	case BENCH_CMPXCHG:
		for (k = 0; k < iterations; k++) {
			int old = atomic_read(v);
			int cur;

			while ((cur = atomic_cmpxchg(v, old, old + 1)) != old)
				old = cur;
		}
		break;
	}
}
