// SPDX-License-Identifier: GPL-2.0
/*
 * The C helpers of upstream's atomics (rust/helpers/atomic.c of the kernel tree), compiled as
 * a kernel without CONFIG_RUST_INLINE_HELPERS compiles them (rust/helpers/helpers.c: an empty
 * __rust_helper): out of line. The objects that include this file build with
 * -I$(srctree)/rust/helpers.
 */

#define __rust_helper
#include "atomic.c"
