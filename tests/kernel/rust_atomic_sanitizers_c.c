// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of rust_atomic_sanitizers (and of its mutation-test build), a module of its own
 * that both load first: the allocations of the KASAN cases, the variables and C kthreads of the
 * KCSAN cases, and a search of the kernel log for the report a case expects, so that the Rust
 * module itself can say whether the sanitizer saw the access.
 */

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/kmsg_dump.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

void *rust_atomic_san_alloc(size_t size);
void rust_atomic_san_free(void *p);
int rust_atomic_san_c_plain_writer(void *unused);
int rust_atomic_san_c_atomic_writer(void *unused);
int rust_atomic_san_c_rcu_publisher(void *unused);
u64 rust_atomic_san_log_mark(void);
void rust_atomic_san_c_rmw_after_free(void *p);
void rust_atomic_san_c_rmw_past_end(void *p);
void rust_atomic_san_c_xchg_after_free(void *p);
void rust_atomic_san_c_cmpxchg_past_end(void *p);
void rust_atomic_san_c_load_acquire_after_free(void *p);
void rust_atomic_san_c_load_acquire_past_end(void *p);
void rust_atomic_san_c_store_release_after_free(void *p);
void rust_atomic_san_c_store_release_past_end(void *p);
bool rust_atomic_san_log_find(u64 *mark, const char *const *needles,
			      const char *const *follows, char *found, size_t size);

/* The variable of the KCSAN case that must race: written plainly here, atomically in Rust. */
int rust_atomic_san_plain;
EXPORT_SYMBOL_GPL(rust_atomic_san_plain);
/* The variable of the KCSAN case that must not: atomic on both sides. */
atomic_t rust_atomic_san_atomic;
EXPORT_SYMBOL_GPL(rust_atomic_san_atomic);
/*
 * The RCU-protected pointer of the KCSAN case of RCU: published here with rcu_assign_pointer(),
 * dereferenced in Rust with RcuPointer::dereference(); it points to one of two integers.
 */
int __rcu *rust_atomic_san_rcu;
EXPORT_SYMBOL_GPL(rust_atomic_san_rcu);
static int rust_atomic_san_rcu_targets[2];

void *rust_atomic_san_alloc(size_t size)
{
	return kmalloc(size, GFP_KERNEL);
}
EXPORT_SYMBOL_GPL(rust_atomic_san_alloc);

void rust_atomic_san_free(void *p)
{
	kfree(p);
}
EXPORT_SYMBOL_GPL(rust_atomic_san_free);

/*
 * Plain stores, which KCSAN watches (CONFIG_KCSAN_ASSUME_PLAIN_WRITES_ATOMIC=n): the data race
 * with a Rust atomic operation on the same variable. barrier() keeps every store in the loop.
 */
int rust_atomic_san_c_plain_writer(void *unused)
{
	int i = 0;

	while (!kthread_should_stop()) {
		rust_atomic_san_plain = i++;
		barrier();
		cond_resched();
	}
	return 0;
}
EXPORT_SYMBOL_GPL(rust_atomic_san_c_plain_writer);

/* C's instrumented atomic_inc(): with a Rust atomic operation, no data race. */
int rust_atomic_san_c_atomic_writer(void *unused)
{
	while (!kthread_should_stop()) {
		atomic_inc(&rust_atomic_san_atomic);
		cond_resched();
	}
	return 0;
}
EXPORT_SYMBOL_GPL(rust_atomic_san_c_atomic_writer);

/*
 * C's RCU publication: each integer initialised, then published with rcu_assign_pointer() (a
 * marked store-release), in turn. With Rust's rcu_dereference(), a marked load, no data race.
 */
int rust_atomic_san_c_rcu_publisher(void *unused)
{
	unsigned int i = 0;

	while (!kthread_should_stop()) {
		int *p = &rust_atomic_san_rcu_targets[i & 1];

		WRITE_ONCE(*p, i++);
		rcu_assign_pointer(rust_atomic_san_rcu, p);
		cond_resched();
	}
	return 0;
}
EXPORT_SYMBOL_GPL(rust_atomic_san_c_rcu_publisher);

/*
 * The C twins of the Rust KASAN cases: the same operation of C's instrumented layer on the
 * same kind of address, so that the module can compare what KASAN reports of each.
 */
#define C_TWIN(name, access)					\
void rust_atomic_san_c_##name(void *p)				\
{								\
	access;							\
}								\
EXPORT_SYMBOL_GPL(rust_atomic_san_c_##name)

C_TWIN(rmw_after_free, atomic_fetch_add_relaxed(1, p));
C_TWIN(rmw_past_end, atomic64_fetch_add(1, p));
C_TWIN(xchg_after_free, atomic_xchg(p, 1));
C_TWIN(cmpxchg_past_end, atomic_cmpxchg_relaxed(p, 0, 1));
C_TWIN(load_acquire_after_free, atomic64_read_acquire(p));
C_TWIN(load_acquire_past_end, smp_load_acquire((u32 *)p));
C_TWIN(store_release_after_free, smp_store_release((u16 *)p, 1));
C_TWIN(store_release_past_end, atomic64_set_release(p, 1));

/* The sequence number of the next record of the kernel log: where a case's search starts. */
u64 rust_atomic_san_log_mark(void)
{
	struct kmsg_dump_iter iter;

	kmsg_dump_rewind(&iter);
	return iter.next_seq;
}
EXPORT_SYMBOL_GPL(rust_atomic_san_log_mark);

static bool has_all(const char *line, const char *const *needles)
{
	for (; *needles; needles++)
		if (!strstr(line, *needles))
			return false;
	return true;
}

/*
 * Searches the kernel log from record *@mark on for a report: a line that contains every string
 * of the NULL-terminated @needles and is followed, within the same report (up to its closing
 * "=====" line), by lines that contain every string of the NULL-terminated @follows. Copies
 * that first line into @found and moves *@mark past it, so that the next search finds the
 * next such report.
 */
bool rust_atomic_san_log_find(u64 *mark, const char *const *needles,
			      const char *const *follows, char *found, size_t size)
{
	static char line[512];
	struct kmsg_dump_iter iter;
	unsigned long seen = 0;
	u64 first = 0;
	size_t len, n;

	for (n = 0; follows[n]; n++)
		;
	if (n > BITS_PER_LONG)
		return false;
	kmsg_dump_rewind(&iter);
	if (iter.cur_seq < *mark)
		iter.cur_seq = *mark;
	for (;;) {
		u64 seq = iter.cur_seq;
		size_t i;

		if (!kmsg_dump_get_line(&iter, false, line, sizeof(line) - 1, &len))
			return false;
		line[len] = '\0';
		if (first && strstr(line, "=====")) {
			/* That report lacked a line: look further, after its first line. */
			iter.cur_seq = first;
			first = 0;
		} else if (first) {
			for (i = 0; i < n; i++)
				if (strstr(line, follows[i]))
					seen |= 1UL << i;
		} else if (has_all(line, needles)) {
			strscpy(found, strim(line), size);
			first = seq + 1;
			seen = 0;
		}
		if (first && seen == (n == BITS_PER_LONG ? ~0UL : (1UL << n) - 1)) {
			*mark = first;
			return true;
		}
	}
}
EXPORT_SYMBOL_GPL(rust_atomic_san_log_find);

MODULE_DESCRIPTION("C side of rust_atomic_sanitizers: allocations, C kthreads, log search");
MODULE_LICENSE("GPL");
