// SPDX-License-Identifier: GPL-2.0

//! Compiles `rust/atomic.rs` as Kbuild does for an SMP x86_64 kernel.

fn main() {
    println!(
        "cargo::rustc-check-cfg=cfg(CONFIG_X86, CONFIG_X86_64, CONFIG_64BIT, CONFIG_ARM64, \
         CONFIG_SMP, CONFIG_ARM64_LSE_ATOMICS, CONFIG_LTO, CONFIG_RUST, CONFIG_KASAN, \
         CONFIG_KASAN_GENERIC, CONFIG_KASAN_SW_TAGS, CONFIG_KCSAN, CONFIG_KCSAN_IGNORE_ATOMICS, \
         CONFIG_KCSAN_WEAK_MEMORY, CONFIG_RUST_ATOMICS_KUNIT_TEST, MODULE)"
    );
    println!("cargo::rustc-check-cfg=cfg(rust_atomic_mutant, values(any()))");
    for cfg in ["CONFIG_X86", "CONFIG_X86_64", "CONFIG_64BIT", "CONFIG_SMP"] {
        println!("cargo::rustc-cfg={cfg}");
    }
}
