// SPDX-License-Identifier: GPL-2.0

//! The one macro of the kernel's `macros` crate that the library uses, for host builds:
//! `#[kunit_tests(suite)]` on a module of `#[test]` functions (upstream's `rust_atomics` suite
//! in `rust/atomic/predefine.rs`). In the kernel it turns them into a KUnit suite; here the
//! module is left as it is, for the test harness of `rustc --test`.

extern crate proc_macro;

use proc_macro::TokenStream;

/// Leaves the module as it is.
#[proc_macro_attribute]
pub fn kunit_tests(_suite: TokenStream, module: TokenStream) -> TokenStream {
    module
}
