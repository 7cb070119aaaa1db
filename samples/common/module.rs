// SPDX-License-Identifier: GPL-2.0

//! `sample_module!`: the kernel's `module!` for every crate of this tree, in the syntax of the
//! kernel it is built against. Linux 6.12's `module!` takes `author: "..."`, 7.2's
//! `authors: ["..."]` (rust/macros/module.rs); Kbuild passes `--cfg kernel_7` when it builds
//! against Linux 7 or later (Kbuild.include).

/// `module!` with `type`, `name` and `description`, and this project's author and license.
macro_rules! sample_module {
    (type: $type:ident, name: $name:tt, description: $description:tt $(,)?) => {
        #[cfg(not(kernel_7))]
        kernel::prelude::module! {
            type: $type,
            name: $name,
            author: "Rust LKMM atomics authors",
            description: $description,
            license: "GPL",
        }
        #[cfg(kernel_7)]
        kernel::prelude::module! {
            type: $type,
            name: $name,
            authors: ["Rust LKMM atomics authors"],
            description: $description,
            license: "GPL",
        }
    };
}
