// SPDX-License-Identifier: GPL-2.0
/*
 * The C helpers of upstream's atomics, out of line, as a kernel without
 * CONFIG_RUST_INLINE_HELPERS has them (bench/kernel/common/upstream_helpers.c): what each operation
 * of codegen_upstream_call.rs calls.
 */

#include <linux/module.h>

#include "../../bench/kernel/common/upstream_helpers.c"

MODULE_DESCRIPTION("Upstream's atomics without inline helpers, for inspection only");
MODULE_LICENSE("GPL");
