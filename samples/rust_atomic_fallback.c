// SPDX-License-Identifier: GPL-2.0
/*
 * The C helpers of kernel::sync::atomic's generic fallback (rust/atomic/fallback.c), as a
 * module of their own for out-of-tree builds: a kernel has them in rust/helpers/ only when the
 * library is grafted in with them (scripts/kernel/graft-kernel --fallback). Load it before a module
 * built with the fallback (make RUST_ATOMIC_FALLBACK=1, or an architecture without an asm
 * file); scripts/boot/boot-test --fallback does.
 */

#include <linux/export.h>
#include <linux/module.h>

#define RUST_ATOMIC_FALLBACK_EXPORT(name) EXPORT_SYMBOL_GPL(name)
#include "../rust/atomic/fallback.c"

MODULE_DESCRIPTION("C helpers of kernel::sync::atomic's generic fallback");
MODULE_LICENSE("GPL");
