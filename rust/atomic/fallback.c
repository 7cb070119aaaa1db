// SPDX-License-Identifier: GPL-2.0
/*
 * The primitives of kernel::sync::atomic's generic fallback (rust/atomic/arch/generic.rs): for
 * an architecture without an asm file, each primitive is the kernel's own C operation, called
 * through one helper per operation, ordering and type, as upstream's kernel::sync::atomic calls
 * rust/helpers/atomic.c (7.2).
 *
 * The helpers call C's raw_*() operations (include/linux/atomic/atomic-arch-fallback.h) and
 * C's barriers: the instrumentation C's atomic_*() would add (atomic-instrumented.h) is added
 * once, on the Rust side (rust/atomic/instrument.rs), as for the asm primitives; a build of this
 * file must therefore not be instrumented by KASAN or KCSAN itself (KASAN_SANITIZE and
 * KCSAN_SANITIZE of its object := n), nor is it in rust/helpers/ where the sanitizers see the
 * accesses again (twice reported, no wrong verdict).
 *
 * Where it is built:
 * - in a kernel, grafted into rust/helpers/ (scripts/kernel/graft-kernel --fallback), whose
 *   build exports every rust_helper_* function and, with CONFIG_RUST_INLINE_HELPERS, inlines it
 *   into the Rust code that calls it (__rust_helper is then __always_inline);
 * - out of tree, in the module rust_atomic_fallback (samples/rust_atomic_fallback.c), which
 *   defines RUST_ATOMIC_FALLBACK_EXPORT to export each helper.
 *
 * Names: rust_helper_lkmm_<type>_<C operation>, <type> one of i8, i16, i32, i64, and
 * rust_helper_lkmm_<barrier>. The Rust side declares exactly these (generic.rs).
 */

#include <asm/barrier.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>

#ifndef __rust_helper
#define __rust_helper
#endif
#ifndef RUST_ATOMIC_FALLBACK_EXPORT
#define RUST_ATOMIC_FALLBACK_EXPORT(name)
#endif

/* One helper: its return type, name (after rust_helper_lkmm_), parameters and body. */
#define LKMM_HELPER(ret, name, params, body)					\
__rust_helper ret rust_helper_lkmm_##name params				\
{										\
	body;									\
}										\
RUST_ATOMIC_FALLBACK_EXPORT(rust_helper_lkmm_##name);

/* `mac(args..., order)` for each ordering suffix of C's names. */
#define LKMM_ORDERS(mac, ...)							\
	mac(__VA_ARGS__, )							\
	mac(__VA_ARGS__, _acquire)						\
	mac(__VA_ARGS__, _release)						\
	mac(__VA_ARGS__, _relaxed)

/* Exchange and compare-exchange in one ordering, on any scalar: C's xchg() and cmpxchg(). */
#define LKMM_SCALAR_EXCHANGE(w, T, o)						\
	LKMM_HELPER(T, w##_xchg##o, (T *p, T v), return raw_xchg##o(p, v))	\
	LKMM_HELPER(T, w##_cmpxchg##o, (T *p, T old, T new),			\
		    return raw_cmpxchg##o(p, old, new))

/* The primitives on a scalar of type T (bytes, halfwords): loads, stores, exchanges. */
#define LKMM_SCALAR(w, T)							\
	LKMM_HELPER(T, w##_read_acquire, (const T *p), return smp_load_acquire(p))	\
	LKMM_HELPER(void, w##_set_release, (T *p, T v), smp_store_release(p, v))	\
	LKMM_ORDERS(LKMM_SCALAR_EXCHANGE, w, T)

/* The operations of an atomic_t-like type in one ordering. */
#define LKMM_ORDERED_OPS(w, T, A, raw, o)					\
	LKMM_HELPER(T, w##_xchg##o, (T *p, T v), return raw##_xchg##o((A *)p, v))	\
	LKMM_HELPER(T, w##_cmpxchg##o, (T *p, T old, T new),			\
		    return raw##_cmpxchg##o((A *)p, old, new))			\
	LKMM_HELPER(bool, w##_try_cmpxchg##o, (T *p, T *old, T new),		\
		    return raw##_try_cmpxchg##o((A *)p, old, new))		\
	LKMM_HELPER(T, w##_fetch_add##o, (T *p, T v), return raw##_fetch_add##o(v, (A *)p))	\
	LKMM_HELPER(T, w##_fetch_sub##o, (T *p, T v), return raw##_fetch_sub##o(v, (A *)p))	\
	LKMM_HELPER(T, w##_fetch_and##o, (T *p, T v), return raw##_fetch_and##o(v, (A *)p))	\
	LKMM_HELPER(T, w##_fetch_or##o, (T *p, T v), return raw##_fetch_or##o(v, (A *)p))	\
	LKMM_HELPER(T, w##_fetch_xor##o, (T *p, T v), return raw##_fetch_xor##o(v, (A *)p))	\
	LKMM_HELPER(T, w##_fetch_andnot##o, (T *p, T v),			\
		    return raw##_fetch_andnot##o(v, (A *)p))			\
	LKMM_HELPER(T, w##_fetch_inc##o, (T *p), return raw##_fetch_inc##o((A *)p))	\
	LKMM_HELPER(T, w##_fetch_dec##o, (T *p), return raw##_fetch_dec##o((A *)p))	\
	LKMM_HELPER(T, w##_add_return##o, (T *p, T v), return raw##_add_return##o(v, (A *)p))	\
	LKMM_HELPER(T, w##_sub_return##o, (T *p, T v), return raw##_sub_return##o(v, (A *)p))	\
	LKMM_HELPER(T, w##_inc_return##o, (T *p), return raw##_inc_return##o((A *)p))	\
	LKMM_HELPER(T, w##_dec_return##o, (T *p), return raw##_dec_return##o((A *)p))	\
	LKMM_HELPER(bool, w##_add_negative##o, (T *p, T v),			\
		    return raw##_add_negative##o(v, (A *)p))

/*
 * Every operation of an atomic_t-like type A (atomic_t, atomic64_t) on its counter of type T:
 * what rust/atomic/primitive.rs's Primitive has, each as C's raw_atomic*_<op>().
 */
#define LKMM_ATOMIC(w, T, A, raw)						\
	LKMM_HELPER(T, w##_read, (const T *p), return raw##_read((const A *)p))	\
	LKMM_HELPER(void, w##_set, (T *p, T v), raw##_set((A *)p, v))		\
	LKMM_HELPER(T, w##_read_acquire, (const T *p), return raw##_read_acquire((const A *)p))	\
	LKMM_HELPER(void, w##_set_release, (T *p, T v), raw##_set_release((A *)p, v))	\
	LKMM_HELPER(void, w##_add, (T *p, T v), raw##_add(v, (A *)p))		\
	LKMM_HELPER(void, w##_sub, (T *p, T v), raw##_sub(v, (A *)p))		\
	LKMM_HELPER(void, w##_and, (T *p, T v), raw##_and(v, (A *)p))		\
	LKMM_HELPER(void, w##_or, (T *p, T v), raw##_or(v, (A *)p))		\
	LKMM_HELPER(void, w##_xor, (T *p, T v), raw##_xor(v, (A *)p))		\
	LKMM_HELPER(void, w##_andnot, (T *p, T v), raw##_andnot(v, (A *)p))	\
	LKMM_HELPER(void, w##_inc, (T *p), raw##_inc((A *)p))			\
	LKMM_HELPER(void, w##_dec, (T *p), raw##_dec((A *)p))			\
	LKMM_ORDERS(LKMM_ORDERED_OPS, w, T, A, raw)				\
	LKMM_HELPER(bool, w##_sub_and_test, (T *p, T v), return raw##_sub_and_test(v, (A *)p))	\
	LKMM_HELPER(bool, w##_dec_and_test, (T *p), return raw##_dec_and_test((A *)p))	\
	LKMM_HELPER(bool, w##_inc_and_test, (T *p), return raw##_inc_and_test((A *)p))	\
	LKMM_HELPER(T, w##_dec_if_positive, (T *p), return raw##_dec_if_positive((A *)p))	\
	LKMM_HELPER(T, w##_fetch_add_unless, (T *p, T a, T u),			\
		    return raw##_fetch_add_unless((A *)p, a, u))		\
	LKMM_HELPER(bool, w##_inc_not_zero, (T *p), return raw##_inc_not_zero((A *)p))	\
	LKMM_HELPER(bool, w##_inc_unless_negative, (T *p),			\
		    return raw##_inc_unless_negative((A *)p))			\
	LKMM_HELPER(bool, w##_dec_unless_positive, (T *p),			\
		    return raw##_dec_unless_positive((A *)p))

LKMM_SCALAR(i8, s8)
LKMM_SCALAR(i16, s16)
LKMM_ATOMIC(i32, int, atomic_t, raw_atomic)
LKMM_ATOMIC(i64, s64, atomic64_t, raw_atomic64)

/* The barriers of rust/atomic/arch.rs's Contract. */
LKMM_HELPER(void, smp_mb, (void), smp_mb())
LKMM_HELPER(void, smp_rmb, (void), smp_rmb())
LKMM_HELPER(void, smp_wmb, (void), smp_wmb())
LKMM_HELPER(void, smp_mb__before_atomic, (void), smp_mb__before_atomic())
LKMM_HELPER(void, smp_mb__after_atomic, (void), smp_mb__after_atomic())
LKMM_HELPER(void, smp_mb__after_spinlock, (void), smp_mb__after_spinlock())
