// SPDX-License-Identifier: GPL-2.0

//! KTAP output (`Documentation/dev-tools/ktap.rst`) in the shape KUnit prints it, so that
//! `tools/testing/kunit/kunit.py parse` reads a sample's results like a KUnit suite's.
//!
//! Lines go to the kernel log without a module prefix (as KUnit's do): `kunit.py` strips one
//! fixed-width prefix, the timestamp, from every line.

use core::fmt;
use kernel::bindings;
use kernel::error::{code::EINVAL, Result};

crate::param::module_param_i32!(
    KTAP_NUMBER,
    "ktap_number",
    1,
    "Position of this suite in the KTAP document (omit it when loading by hand)"
);

/// Checks the `ktap_number` parameter: `-EINVAL`, with a message, unless it is at least 1.
pub(crate) fn check_param() -> Result {
    match KTAP_NUMBER.given() {
        Some(n) if n < 1 => {
            kernel::pr_err!("ktap_number={n} is invalid: KTAP test numbers start at 1\n");
            Err(EINVAL)
        }
        _ => Ok(()),
    }
}

/// The address of C string `s`, as C's `const char *`: `CStrExt::as_char_ptr` on Linux 7, whose
/// clippy configuration disallows `CStr::as_ptr`; 6.12 has only the latter for a `c"..."`.
pub(crate) fn c_chars(s: &'static core::ffi::CStr) -> *const kernel::ffi::c_char {
    #[cfg(kernel_7)]
    return kernel::str::CStrExt::as_char_ptr(s);
    #[cfg(not(kernel_7))]
    s.as_ptr().cast()
}

/// Prints one line at `KERN_INFO`, without a module prefix.
pub(crate) fn line(args: fmt::Arguments<'_>) {
    // SAFETY: The format's only conversion, `%pA`, takes a `&fmt::Arguments` that outlives it.
    unsafe {
        bindings::_printk(
            c_chars(c"\x016%pA\n").cast(),
            core::ptr::from_ref(&args).cast::<kernel::ffi::c_void>(),
        )
    };
}

/// `ktap_line!("...", args)`: formats and prints one KTAP line.
macro_rules! ktap_line {
    ($($arg:tt)*) => {
        $crate::ktap::line(format_args!($($arg)*))
    };
}

/// One KTAP suite, printed as a subtest of the log's top-level KTAP document.
///
/// The `ktap_number` parameter is the suite's position in that document. Without it (the
/// module was loaded by hand, not by the boot test), the suite also prints the top-level
/// header and is number 1, so the output is a complete document on its own.
pub(crate) struct Suite {
    name: &'static str,
    number: i32,
    planned: usize,
    next: usize,
    failed: usize,
    skipped: usize,
}

impl Suite {
    /// Prints the suite header and plan.
    pub(crate) fn start(name: &'static str, planned: usize) -> Self {
        let number = KTAP_NUMBER.given().unwrap_or(1);
        if KTAP_NUMBER.given().is_none() {
            ktap_line!("KTAP version 1");
            ktap_line!("1..1");
        }
        ktap_line!("    KTAP version 1");
        ktap_line!("    # Subtest: {name}");
        ktap_line!("    1..{planned}");
        Self {
            name,
            number,
            planned,
            next: 1,
            failed: 0,
            skipped: 0,
        }
    }

    /// Prints a diagnostic line inside the suite.
    pub(crate) fn diag(&self, args: fmt::Arguments<'_>) {
        ktap_line!("    # {args}");
    }

    /// Records and prints the result of the next test case.
    pub(crate) fn case(&mut self, name: &str, ok: bool) {
        ktap_line!(
            "    {}ok {} {name}",
            if ok { "" } else { "not " },
            self.next
        );
        self.failed += usize::from(!ok);
        self.next += 1;
    }

    /// Records and prints the next test case as skipped, with the reason.
    #[allow(dead_code)]
    pub(crate) fn skip(&mut self, name: &str, reason: fmt::Arguments<'_>) {
        ktap_line!("    ok {} {name} # SKIP {reason}", self.next);
        self.skipped += 1;
        self.next += 1;
    }

    /// Prints the totals and the suite's own result line.
    pub(crate) fn finish(self) {
        let run = self.next - 1;
        let passed = run - self.failed - self.skipped;
        let ok = self.failed == 0 && run == self.planned;
        ktap_line!(
            "# {}: pass:{passed} fail:{} skip:{} total:{run}",
            self.name,
            self.failed,
            self.skipped
        );
        ktap_line!(
            "{}ok {} {}",
            if ok { "" } else { "not " },
            self.number,
            self.name
        );
    }
}
