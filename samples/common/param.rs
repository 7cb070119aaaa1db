// SPDX-License-Identifier: GPL-2.0

//! `int` and string module parameters for Rust modules (the 6.12 `module!` macro has none).
//!
//! [`module_param_i32!`] emits what C's `module_param(name, int, 0444)` and `MODULE_PARM_DESC`
//! emit: a `struct kernel_param` in the `__param` section and `parm`/`parmtype` strings in
//! `.modinfo`. The kernel parses `insmod m.ko name=value` into the storage with its own
//! `param_set_int()` before the module's init runs, so an unparsable value fails the load with
//! `-EINVAL` as for a C module; the module's init checks the range ([`ParamI32::value_in`]).
//! [`module_param_string!`] is C's `module_param_string(name, buf, len, 0444)`: the kernel's
//! `param_set_copystring()` copies the value, and refuses one that does not fit.

use core::cell::UnsafeCell;
use core::ops::RangeInclusive;
use kernel::bindings;
use kernel::error::{code::EINVAL, Result};
use kernel::ffi::{c_char, c_int};

/// Storage of one `int` parameter.
///
/// # Invariants
///
/// `value` and `given` are written only by [`set_i32`], which the kernel calls while it parses
/// the module's arguments, before the module's init runs; the parameter is read-only in sysfs
/// (`0444`), so they are never written afterwards.
#[repr(C)]
pub(crate) struct ParamI32 {
    /// First field: `param_set_int()` writes the parsed value through `kernel_param::arg`.
    value: UnsafeCell<c_int>,
    given: UnsafeCell<bool>,
    /// The parameter's name, for messages.
    name: &'static str,
}

// SAFETY: By the type invariant, all writes happen before init runs, i.e. before the module can
// share the storage with any thread; afterwards it is only read.
unsafe impl Sync for ParamI32 {}

impl ParamI32 {
    /// Storage of parameter `name`, holding `default` until the user gives a value.
    pub(crate) const fn new(name: &'static str, default: i32) -> Self {
        Self {
            value: UnsafeCell::new(default),
            given: UnsafeCell::new(false),
            name,
        }
    }

    /// Pointer the kernel's `struct kernel_param` carries as its `arg`.
    pub(crate) const fn as_arg(&self) -> *mut kernel::ffi::c_void {
        self.value.get().cast()
    }

    /// The value given at load time, or `default` when the user gave none, if it lies in
    /// `range`; otherwise `EINVAL`, with a message that names the parameter and its range.
    #[allow(dead_code)] // Not every sample has an `int` parameter besides `ktap_number`.
    pub(crate) fn value_in(&self, default: i32, range: RangeInclusive<i32>) -> Result<i32> {
        let value = self.given().unwrap_or(default);
        if range.contains(&value) {
            return Ok(value);
        }
        kernel::pr_err!(
            "{}={value} is invalid: it must be between {} and {}\n",
            self.name,
            range.start(),
            range.end()
        );
        Err(EINVAL)
    }

    /// The value given at load time, or `None` when the user gave none.
    pub(crate) fn given(&self) -> Option<i32> {
        // SAFETY: By the type invariant nothing writes the storage any more.
        if unsafe { *self.given.get() } {
            // SAFETY: As above.
            Some(unsafe { *self.value.get() })
        } else {
            None
        }
    }
}

/// `kernel_param_ops::set` for [`ParamI32`]: parses with the kernel's `param_set_int()` and
/// records that the parameter was given.
///
/// # Safety
///
/// Called by the kernel's argument parser only, with a `kp` whose `arg` is the `value` field of
/// a [`ParamI32`] (as [`module_param_i32!`] sets it up).
unsafe extern "C" fn set_i32(val: *const c_char, kp: *const bindings::kernel_param) -> c_int {
    // SAFETY: The kernel passes a valid `kp` whose `arg` points at an `int`.
    let ret = unsafe { bindings::param_set_int(val, kp) };
    if ret == 0 {
        // The parser runs before init, so nothing else accesses the parameter concurrently.
        // SAFETY: Per this function's contract `arg` is the address of a `ParamI32`.
        unsafe {
            let param = (*kp).__bindgen_anon_1.arg.cast::<ParamI32>();
            *(*param).given.get() = true;
        }
    }
    ret
}

/// The `kernel_param_ops` of every [`ParamI32`].
pub(crate) static OPS_I32: bindings::kernel_param_ops = bindings::kernel_param_ops {
    flags: 0,
    set: Some(set_i32),
    get: Some(bindings::param_get_int),
    free: None,
};

/// A `struct kernel_param` placed in the `__param` section.
#[repr(transparent)]
pub(crate) struct KernelParam(pub(crate) bindings::kernel_param);

// SAFETY: The kernel only reads these entries; the pointers they hold are to `'static` data.
unsafe impl Sync for KernelParam {}

/// Copies a string into a byte array of exactly its length, for `.modinfo` entries.
pub(crate) const fn modinfo<const N: usize>(s: &str) -> [u8; N] {
    let bytes = s.as_bytes();
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = bytes[i];
        i += 1;
    }
    out
}

/// `kernel_param!("name", "type", "description", ops, field: value)`: what C's
/// `module_param_cb()` and `MODULE_PARM_DESC()` emit for a read-only (`0444`) parameter: a
/// `struct kernel_param` in the `__param` section, whose union member `field` is `value`, and
/// its `parm`/`parmtype` strings in `.modinfo`. The one place both kinds of parameter share.
macro_rules! kernel_param {
    ($name:literal, $type:literal, $desc:literal, $ops:expr, $field:ident: $value:expr) => {
        const _: () = {
            #[link_section = "__param"]
            #[used(compiler)]
            static PARAM: $crate::param::KernelParam =
                $crate::param::KernelParam(kernel::bindings::kernel_param {
                    name: concat!($name, "\0").as_ptr().cast(),
                    mod_: &raw mut kernel::bindings::__this_module,
                    ops: $ops,
                    perm: 0o444,
                    level: -1,
                    flags: 0,
                    __bindgen_anon_1: kernel::bindings::kernel_param__bindgen_ty_1 {
                        $field: $value,
                    },
                });

            const PARM: &str = concat!("parm=", $name, ":", $desc, "\0");
            #[link_section = ".modinfo"]
            #[used(compiler)]
            static PARM_INFO: [u8; PARM.len()] = $crate::param::modinfo(PARM);

            const PARMTYPE: &str = concat!("parmtype=", $name, ":", $type, "\0");
            #[link_section = ".modinfo"]
            #[used(compiler)]
            static PARMTYPE_INFO: [u8; PARMTYPE.len()] = $crate::param::modinfo(PARMTYPE);
        };
    };
}
pub(crate) use kernel_param;

/// `module_param_i32!(STORAGE, "name", default, "description")`: declares `static STORAGE:
/// ParamI32` and registers it as the module parameter `name` (type `int`, mode `0444`).
macro_rules! module_param_i32 {
    ($storage:ident, $name:literal, $default:expr, $desc:literal) => {
        static $storage: $crate::param::ParamI32 = $crate::param::ParamI32::new($name, $default);

        $crate::param::kernel_param!(
            $name,
            "int",
            $desc,
            &$crate::param::OPS_I32,
            arg: $storage.as_arg()
        );
    };
}
pub(crate) use module_param_i32;

/// Storage of one string parameter of at most `N - 1` bytes.
///
/// # Invariants
///
/// `buf` is written only by the kernel's argument parser, before the module's init runs (the
/// parameter is read-only in sysfs), and always holds a NUL-terminated string.
#[repr(transparent)]
#[allow(dead_code)] // Not every sample has a string parameter.
pub(crate) struct ParamStr<const N: usize> {
    buf: UnsafeCell<[u8; N]>,
}

// SAFETY: By the type invariant, all writes happen before init runs; afterwards it is only read.
unsafe impl<const N: usize> Sync for ParamStr<N> {}

#[allow(dead_code)]
impl<const N: usize> ParamStr<N> {
    /// Empty storage.
    pub(crate) const fn new() -> Self {
        Self {
            buf: UnsafeCell::new([0; N]),
        }
    }

    /// The buffer the kernel's `struct kparam_string` points to.
    pub(crate) const fn as_buf(&self) -> *mut c_char {
        self.buf.get().cast()
    }

    /// The value, or `None` when it is empty (not given) or not UTF-8.
    pub(crate) fn given(&self) -> Option<&str> {
        // SAFETY: By the type invariant nothing writes the storage any more.
        let buf = unsafe { &*self.buf.get() };
        let len = buf.iter().position(|&b| b == 0).unwrap_or(N);
        core::str::from_utf8(&buf[..len])
            .ok()
            .filter(|s| !s.is_empty())
    }
}

/// A `struct kparam_string`, which the kernel only reads.
#[repr(transparent)]
#[allow(dead_code)]
pub(crate) struct KernelParamString(pub(crate) bindings::kparam_string);

// SAFETY: The kernel reads the entry and writes only the buffer, before init (see `ParamStr`).
unsafe impl Sync for KernelParamString {}

/// `module_param_string!(STORAGE, "name", LEN, "description")`: declares `static STORAGE:
/// ParamStr<LEN>` and registers it as the string module parameter `name` (mode `0444`).
#[allow(unused_macros)]
macro_rules! module_param_string {
    ($storage:ident, $name:literal, $len:expr, $desc:literal) => {
        static $storage: $crate::param::ParamStr<{ $len }> = $crate::param::ParamStr::new();

        const _: () = {
            static STRING: $crate::param::KernelParamString =
                $crate::param::KernelParamString(kernel::bindings::kparam_string {
                    maxlen: $len as u32,
                    string: $storage.as_buf(),
                });

            $crate::param::kernel_param!(
                $name,
                "string",
                $desc,
                &raw const kernel::bindings::param_ops_string,
                str_: &STRING.0
            );
        };
    };
}
#[allow(unused_imports)]
pub(crate) use module_param_string;
