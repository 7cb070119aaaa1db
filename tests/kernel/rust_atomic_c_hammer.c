// SPDX-License-Identifier: GPL-2.0

/*
 * C kthreads that update C-owned atomic variables with the kernel's own atomic_*()
 * operations while Rust kthreads update the same variables through
 * kernel::sync::atomic::AtomicI32::from_ptr() (tests/kernel/rust_atomic_mixed.rs): one variable,
 * one memory model, two languages. Part of the module rust_atomic_c_ops.
 */

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>

#define HAMMER_MAX_THREADS 64

/* The shared variables: owned by C, viewed by Rust. */
atomic_t rust_atomic_c_shared32 = ATOMIC_INIT(0);
EXPORT_SYMBOL_GPL(rust_atomic_c_shared32);
atomic64_t rust_atomic_c_shared64 = ATOMIC64_INIT(0);
EXPORT_SYMBOL_GPL(rust_atomic_c_shared64);

static struct task_struct *hammer_threads[HAMMER_MAX_THREADS];
static int hammer_count;
static int hammer_iterations;
static const atomic_t *hammer_go;
static atomic_t hammer_ran = ATOMIC_INIT(0);

static int hammer_fn(void *unused)
{
	int i;

	/* Start together with the Rust threads: the caller sets *hammer_go once all exist. */
	while (!atomic_read_acquire(hammer_go) && !kthread_should_stop())
		cond_resched();
	for (i = 0; i < hammer_iterations && !kthread_should_stop(); i++) {
		atomic_fetch_add_relaxed(1, &rust_atomic_c_shared32);
		atomic64_fetch_add_relaxed(3, &rust_atomic_c_shared64);
		if (!(i & 1023))
			cond_resched();
	}
	atomic_inc(&hammer_ran);
	/* As kthread_stop() requires: do not exit before being told to. */
	while (!kthread_should_stop())
		schedule_timeout_idle(1);
	return 0;
}

/* Called from Rust (rust_atomic_mixed.rs declares them): no header, so declared here. */
int rust_atomic_c_hammer_start(int threads, int iterations, const atomic_t *go);
int rust_atomic_c_hammer_finished(void);
void rust_atomic_c_hammer_stop(void);

/*
 * Creates @threads C kthreads, one per CPU in turn, that each add 1 to rust_atomic_c_shared32
 * and 3 to rust_atomic_c_shared64, @iterations times, once *@go is non-zero. Returns 0 or
 * -errno (then no thread is left).
 */
int rust_atomic_c_hammer_start(int threads, int iterations, const atomic_t *go)
{
	int i;

	if (threads < 1 || threads > HAMMER_MAX_THREADS || iterations < 1 || hammer_count)
		return -EINVAL;
	hammer_iterations = iterations;
	hammer_go = go;
	atomic_set(&hammer_ran, 0);
	for (i = 0; i < threads; i++) {
		struct task_struct *t = kthread_create_on_cpu(hammer_fn, NULL,
							      i % num_online_cpus(),
							      "c_hammer/%u");

		if (IS_ERR(t)) {
			while (hammer_count)
				kthread_stop(hammer_threads[--hammer_count]);
			return PTR_ERR(t);
		}
		hammer_threads[hammer_count++] = t;
		wake_up_process(t);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(rust_atomic_c_hammer_start);

/* Returns how many C kthreads have finished all their iterations. */
int rust_atomic_c_hammer_finished(void)
{
	return atomic_read(&hammer_ran);
}
EXPORT_SYMBOL_GPL(rust_atomic_c_hammer_finished);

/* Stops the C kthreads (finished or not). */
void rust_atomic_c_hammer_stop(void)
{
	while (hammer_count)
		kthread_stop(hammer_threads[--hammer_count]);
}
EXPORT_SYMBOL_GPL(rust_atomic_c_hammer_stop);

static void __exit rust_atomic_c_ops_exit(void)
{
	rust_atomic_c_hammer_stop();
}
module_exit(rust_atomic_c_ops_exit);
