// SPDX-License-Identifier: GPL-2.0

//! Compiles `rust/atomic.rs` as Kbuild does for an SMP x86 kernel.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(CONFIG_X86, CONFIG_ARM64, CONFIG_SMP, CONFIG_ARM64_LSE_ATOMICS)");
    println!("cargo::rustc-check-cfg=cfg(rust_atomic_mutant, values(any()))");
    println!("cargo::rustc-cfg=CONFIG_X86");
    println!("cargo::rustc-cfg=CONFIG_SMP");
}
