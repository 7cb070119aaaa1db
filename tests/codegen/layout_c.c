// SPDX-License-Identifier: GPL-2.0

/*
 * The C side of the types shared with Rust in codegen.rs, for the layout check
 * (scripts/machine-code/pahole-check), which compares both sides' debug info.
 */

#include <linux/atomic.h>

/* `Counters` in codegen.rs. */
struct rust_atomic_counters {
	atomic_t refs;
	u8 state;
	atomic64_t bytes;
	atomic_long_t flags;
	u16 cpu;
};

/* `LayoutDecoy` in codegen.rs, deliberately different: the check must report it. */
struct rust_atomic_layout_decoy {
	u32 a;
	u64 b;
};

struct rust_atomic_counters rust_atomic_counters_c;
struct rust_atomic_layout_decoy rust_atomic_layout_decoy_c;
