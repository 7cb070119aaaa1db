// SPDX-License-Identifier: GPL-2.0

//! Upstream's own atomics (`codegen_upstream.rs`) as a kernel without
//! `CONFIG_RUST_INLINE_HELPERS` has them: each operation a call of its C helper. Kbuild builds
//! this crate with that option off (`tests/codegen/Kbuild`), and the helpers out of line from the
//! kernel's own `rust/helpers/atomic.c` (`codegen_upstream_helpers.c`), in one module that is
//! inspected, never loaded.

#[path = "codegen_upstream.rs"]
pub mod codegen_upstream;
