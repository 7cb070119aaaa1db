// SPDX-License-Identifier: GPL-2.0

//! What KASAN and KCSAN see of `kernel::sync::atomic`: cases that must produce a sanitizer
//! report, and a case that must not.
//!
//! The library's operations are inline assembly, which no sanitizer sees; they call the hooks
//! of C's instrumented layer instead (`rust/atomic/instrument.rs`). On a kernel with
//! `CONFIG_KASAN`, each KASAN case makes one atomic access of a family (read-modify-write,
//! exchange or compare-exchange, load-acquire, store-release, in both spellings) to a `kmalloc`
//! object after `kfree`, or just past its end, and KASAN must report it: its kind, whether it
//! read or wrote how many bytes, and the Rust function. On a kernel with `CONFIG_KCSAN`, a C
//! kthread's plain stores racing with a Rust kthread's atomic operations on one variable must
//! be reported as a data race; C's `atomic_inc()` against Rust's atomic operations must not, nor
//! C's `rcu_assign_pointer()` against Rust's `RcuPointer::dereference()` of the same pointer.
//!
//! The module reads the kernel log itself (C's `kmsg_dump_get_line()`, in the helper module
//! `rust_atomic_sanitizers_c`, loaded first), so each case's KTAP result says whether the report
//! came; it also prints the report's first line (`<case>: report: BUG: ...`), which the boot
//! test's verdict takes as the expected one: any other report fails the boot. A case whose
//! sanitizer the kernel lacks is skipped. A mutation-test build without the instrumentation
//! (`uninstrumented`, `kcsan_plain`: `tests/mutants-kasan`, `tests/mutants-kcsan`) must fail
//! every case that needs a report, and one whose `RcuPointer::dereference()` is a plain load
//! (`rcu_dereference_plain`) the RCU case, which must have none.
//! Everything runs in `init`; KASAN needs `kasan_multi_shot` on the command line to report
//! more than once.

use kernel::bindings;
use kernel::ffi::{c_char, c_int, c_void};
use kernel::prelude::*;

// `pub`, as `kernel::sync::atomic` is: the library is compiled here as it is in the kernel.
// `sample_module!`, before its use.
#[macro_use]
#[path = "../../samples/common/module.rs"]
mod module_macro;
#[path = "../../rust/atomic.rs"]
pub mod atomic;
#[path = "../../samples/common/ktap.rs"]
mod ktap;
// Shared helpers, of which this sample uses a part.
#[allow(dead_code)]
#[path = "../../samples/common/kthread.rs"]
mod kthread;
#[path = "../../samples/common/param.rs"]
mod param;

use atomic::{read_once, Atomic, AtomicI32, AtomicI64, Full, RcuPointer, Relaxed, Release};
use kthread::Thread;

sample_module! {
    type: RustAtomicSanitizers,
    name: "rust_atomic_sanitizers",
    description: "What KASAN and KCSAN see of kernel::sync::atomic",
}

/// The KTAP suite name: the crate's, which is also the module's (a mutant's is its own).
const SUITE: &str = module_path!();

extern "C" {
    fn rust_atomic_san_alloc(size: usize) -> *mut c_void;
    fn rust_atomic_san_free(p: *mut c_void);
    fn rust_atomic_san_c_plain_writer(unused: *mut c_void) -> c_int;
    fn rust_atomic_san_c_atomic_writer(unused: *mut c_void) -> c_int;
    fn rust_atomic_san_c_rcu_publisher(unused: *mut c_void) -> c_int;
    fn rust_atomic_san_log_mark() -> u64;
    fn rust_atomic_san_log_find(
        mark: *mut u64,
        needles: *const *const c_char,
        follows: *const *const c_char,
        found: *mut c_char,
        size: usize,
    ) -> bool;
    static mut rust_atomic_san_plain: c_int;
    static mut rust_atomic_san_atomic: bindings::atomic_t;
    static mut rust_atomic_san_rcu: *mut c_int;
}

/// The size the KASAN cases allocate: a `kmalloc-64` object, whose bytes from here on are out of
/// bounds (and 8-aligned, for the 8-byte accesses).
const OBJECT: usize = 40;
/// Where the use-after-free cases access the freed object: past its first bytes, which hold the
/// allocator's and KASAN's free metadata while it waits in KASAN's quarantine
/// (`mm/kasan/kasan.h`: `struct kasan_free_meta`), so that the write corrupts none of it.
const FREED_AT: usize = 48;
/// How long a KCSAN case runs at most, in milliseconds, and how often it looks for the report.
const KCSAN_MS: u32 = 10_000;
const KCSAN_POLL_MS: u32 = 250;
/// How long the case that must not race runs, in milliseconds.
const KCSAN_QUIET_MS: u32 = 5_000;

/// Where a KASAN case accesses the object.
#[derive(Clone, Copy)]
enum Where {
    AfterFree,
    PastEnd,
}

/// One KASAN case: its access, its C twin, and what KASAN must say of both.
struct KasanCase {
    name: &'static str,
    /// The access; KASAN's report names this function.
    run: unsafe extern "C" fn(*mut u8),
    function: &'static CStr,
    /// The same operation of C's instrumented layer (`rust_atomic_sanitizers_c.c`).
    c_run: unsafe extern "C" fn(*mut u8),
    c_function: &'static CStr,
    at: Where,
    /// The access line of the report, e.g. `Write of size 4`.
    access: &'static CStr,
}

/// Defines the access functions of the KASAN cases and their table: `name / c_twin: where,
/// "access", |p| body;`, where `body` makes one atomic access to `p`, and `c_twin` is the C
/// function of the helper module that makes the same C operation.
macro_rules! kasan_cases {
    ($($name:ident / $c_name:ident: $at:ident, $access:literal, |$p:ident| $body:expr;)+) => {
        extern "C" {
            $(fn $c_name(p: *mut u8);)+
        }

        $(
            /// One access of a KASAN case, to memory KASAN has poisoned on purpose.
            ///
            /// # Safety
            ///
            /// `p` must be mapped, aligned for the access, and hold nothing anyone else reads:
            /// a freed object in KASAN's quarantine, or the slack after a `kmalloc` object.
            #[no_mangle]
            #[inline(never)]
            unsafe extern "C" fn $name($p: *mut u8) {
                // The access is one instruction on memory the slab keeps mapped; its bytes are
                // nobody's (this function's contract). KASAN is to report it.
                let _ = $body;
            }
        )+

        const KASAN_CASES: &[KasanCase] = &[$(KasanCase {
            name: stringify!($name),
            run: $name,
            function: kernel::c_str!(stringify!($name)),
            c_run: $c_name,
            c_function: kernel::c_str!(stringify!($c_name)),
            at: Where::$at,
            access: kernel::c_str!($access),
        }),+];
    };
}

kasan_cases! {
    rust_atomic_san_rmw_after_free / rust_atomic_san_c_rmw_after_free: AfterFree, "Write of size 4",
        // SAFETY: `p` is valid for the access as this function's contract says.
        |p| unsafe { AtomicI32::from_ptr(p.cast()) }.fetch_add_relaxed(1);
    rust_atomic_san_rmw_past_end / rust_atomic_san_c_rmw_past_end: PastEnd, "Write of size 8",
        // SAFETY: As above.
        |p| unsafe { Atomic::<i64>::from_ptr(p.cast()) }.fetch_add(1, Full);
    rust_atomic_san_xchg_after_free / rust_atomic_san_c_xchg_after_free: AfterFree, "Write of size 4",
        // SAFETY: As above.
        |p| unsafe { AtomicI32::from_ptr(p.cast()) }.xchg(1);
    rust_atomic_san_cmpxchg_past_end / rust_atomic_san_c_cmpxchg_past_end: PastEnd, "Write of size 4",
        // SAFETY: As above.
        |p| unsafe { Atomic::<i32>::from_ptr(p.cast()) }.cmpxchg(0, 1, Relaxed);
    rust_atomic_san_load_acquire_after_free / rust_atomic_san_c_load_acquire_after_free: AfterFree, "Read of size 8",
        // SAFETY: As above.
        |p| unsafe { AtomicI64::from_ptr(p.cast()) }.read_acquire();
    rust_atomic_san_load_acquire_past_end / rust_atomic_san_c_load_acquire_past_end: PastEnd, "Read of size 4",
        // SAFETY: As above.
        |p| unsafe { atomic::smp_load_acquire(p.cast::<u32>()) };
    rust_atomic_san_store_release_after_free / rust_atomic_san_c_store_release_after_free: AfterFree, "Write of size 2",
        // SAFETY: As above.
        |p| unsafe { Atomic::<u16>::from_ptr(p.cast()) }.store(1, Release);
    rust_atomic_san_store_release_past_end / rust_atomic_san_c_store_release_past_end: PastEnd, "Write of size 8",
        // SAFETY: As above.
        |p| unsafe { AtomicI64::from_ptr(p.cast()) }.set_release(1);
}

/// The first lines of the reports the log holds from record `mark` on: of each that has a line
/// with every string of `needles`, followed in the same report by lines with every string of
/// `follows`.
fn find_reports(mark: u64, needles: &[&CStr], follows: &[&CStr]) -> KVec<KVec<u8>> {
    let mut reports = KVec::new();
    let list = |strings: &[&CStr]| -> Result<KVec<*const c_char>> {
        let mut list = KVec::with_capacity(strings.len() + 1, GFP_KERNEL)?;
        for s in strings {
            list.push(s.as_char_ptr(), GFP_KERNEL)?;
        }
        list.push(core::ptr::null(), GFP_KERNEL)?;
        Ok(list)
    };
    let (Ok(needles), Ok(follows)) = (list(needles), list(follows)) else {
        return reports;
    };
    let mut mark = mark;
    let mut found = [0u8; 160];
    // At most a few screenfuls: KCSAN rate-limits its reports, KASAN reports each access once.
    while reports.len() < 64 {
        // SAFETY: Both lists are NULL-terminated arrays of C strings and `found` a buffer of
        // the size passed; the C function keeps none of them.
        let hit = unsafe {
            rust_atomic_san_log_find(
                &mut mark,
                needles.as_ptr(),
                follows.as_ptr(),
                found.as_mut_ptr().cast(),
                found.len(),
            )
        };
        if !hit {
            break;
        }
        let len = found.iter().position(|&b| b == 0).unwrap_or(found.len());
        let mut line = KVec::new();
        if line.extend_from_slice(&found[..len], GFP_KERNEL).is_err()
            || reports.push(line, GFP_KERNEL).is_err()
        {
            break;
        }
    }
    reports
}

/// The sequence number of the kernel log's next record.
fn log_mark() -> u64 {
    // SAFETY: No preconditions.
    unsafe { rust_atomic_san_log_mark() }
}

/// Makes the access `run` to a new `kmalloc` object, freed first or not as `at` says, and
/// returns the KASAN reports of kind `kind` that name `function` and `access`.
fn kasan_access(
    run: unsafe extern "C" fn(*mut u8),
    at: Where,
    kind: &CStr,
    function: &CStr,
    access: &CStr,
) -> Option<KVec<KVec<u8>>> {
    // SAFETY: No preconditions; a null result is checked below.
    let object = unsafe { rust_atomic_san_alloc(OBJECT) }.cast::<u8>();
    if object.is_null() {
        return None;
    }
    let offset = match at {
        Where::AfterFree => {
            // SAFETY: `object` came from `kmalloc()` and is freed once.
            unsafe { rust_atomic_san_free(object.cast()) };
            FREED_AT
        }
        Where::PastEnd => OBJECT,
    };
    let mark = log_mark();
    // SAFETY: `object + offset` is in the 64-byte slab object `kmalloc(OBJECT)` returned:
    // freed and in KASAN's quarantine past its metadata, or the slack after the 40 bytes
    // asked for; aligned to 8 (slab objects are); nobody else touches it.
    unsafe { run(object.add(offset)) };
    if let Where::PastEnd = at {
        // SAFETY: As above, freed once.
        unsafe { rust_atomic_san_free(object.cast()) };
    }
    Some(find_reports(mark, &[kind, function], &[access]))
}

/// Runs one KASAN case and reports it: KASAN must report the Rust access, of its kind, access
/// and function, as often as it reports the same access by C's operation (its C twin): C's
/// loads and stores are reported twice on x86, once for the explicit check of the
/// instrumented layer and once for the compiler's instrumentation of `READ_ONCE()`; ours too,
/// rustc instrumenting the volatile access.
fn kasan_case(suite: &mut ktap::Suite, case: &KasanCase) {
    let (kind, label) = match case.at {
        Where::AfterFree => (
            kernel::c_str!("BUG: KASAN: slab-use-after-free in "),
            "slab-use-after-free",
        ),
        Where::PastEnd => (
            kernel::c_str!("BUG: KASAN: slab-out-of-bounds in "),
            "slab-out-of-bounds",
        ),
    };
    let rust = kasan_access(case.run, case.at, kind, case.function, case.access);
    let c = kasan_access(case.c_run, case.at, kind, case.c_function, case.access);
    let (Some(rust), Some(c)) = (rust, c) else {
        suite.diag(format_args!("{}: kmalloc({OBJECT}) failed", case.name));
        suite.case(case.name, false);
        return;
    };
    suite.diag(format_args!(
        "{}: KASAN must report {label} in {} with '{}', as often as for C's in {}",
        case.name,
        case.name,
        case.access.to_str().unwrap_or("?"),
        case.c_function.to_str().unwrap_or("?")
    ));
    print_reports(suite, case.name, &c, true);
    suite.diag(format_args!(
        "{}: {} reports of the Rust access, {} of C's",
        case.name,
        rust.len(),
        c.len()
    ));
    print_reports(suite, case.name, &rust, true);
    suite.case(case.name, !rust.is_empty() && rust.len() == c.len());
}

/// Prints the reports case `name` found: as `report:` lines if it `expected` them, which the
/// boot test's verdict then takes as this case's, or as `unexpected report:`.
fn print_reports(suite: &ktap::Suite, name: &str, found: &[KVec<u8>], expected: bool) {
    for line in found {
        suite.diag(format_args!(
            "{name}: {}report: {}",
            if expected { "" } else { "unexpected " },
            core::str::from_utf8(line).unwrap_or("(not UTF-8)")
        ));
    }
    if found.is_empty() {
        suite.diag(format_args!("{name}: no report"));
    }
}

/// Rust kthread of the racing KCSAN case: atomic operations, in both spellings, on the variable
/// the C kthread writes plainly.
///
/// # Safety
///
/// Called by `kthread_create_on_node()` only.
#[no_mangle]
unsafe extern "C" fn rust_atomic_san_rust_atomic_rmw(_: *mut c_void) -> c_int {
    // The C thread's plain stores race with these on purpose: that is the data race KCSAN must
    // report, and it harms nothing (the value means nothing).
    // SAFETY: The C module's variable is valid and aligned while this module is loaded.
    let v = unsafe { AtomicI32::from_ptr(&raw mut rust_atomic_san_plain) };
    while !kthread::should_stop() {
        v.fetch_add_relaxed(1);
        v.typed().xchg(0, Relaxed);
        kthread::yield_cpu();
    }
    0
}

/// Rust kthread of the KCSAN case that must not race: atomic operations on the `atomic_t` that
/// the C kthread increments with `atomic_inc()`.
///
/// # Safety
///
/// Called by `kthread_create_on_node()` only.
#[no_mangle]
unsafe extern "C" fn rust_atomic_san_rust_atomic_inc(_: *mut c_void) -> c_int {
    // SAFETY: The C module's `atomic_t` is valid while this module is loaded, and only ever
    // accessed atomically.
    let v = unsafe { AtomicI32::from_c(&raw mut rust_atomic_san_atomic) };
    while !kthread::should_stop() {
        v.inc();
        v.typed().fetch_add(1, Full);
        kthread::yield_cpu();
    }
    0
}

/// Rust kthread of the KCSAN case of RCU: dereferences the pointer C publishes with
/// `rcu_assign_pointer()`, and reads the integer it points to.
///
/// # Safety
///
/// Called by `kthread_create_on_node()` only.
#[no_mangle]
unsafe extern "C" fn rust_atomic_san_rust_rcu_reader(_: *mut c_void) -> c_int {
    // SAFETY: C's `int __rcu *` is valid and aligned while this module is loaded, and C only
    // accesses it with `rcu_assign_pointer()`, a marked access.
    let gp = unsafe { RcuPointer::from_ptr(&raw mut rust_atomic_san_rcu) };
    while !kthread::should_stop() {
        let p = gp.dereference();
        if !p.is_null() {
            // SAFETY: `p` points to one of C's two static integers, written with `WRITE_ONCE()`.
            let _ = unsafe { read_once(p) };
        }
        kthread::yield_cpu();
    }
    0
}

/// A KCSAN case: the C and the Rust thread function, and what a report of their race names.
struct KcsanCase {
    name: &'static str,
    c: unsafe extern "C" fn(*mut c_void) -> c_int,
    rust: unsafe extern "C" fn(*mut c_void) -> c_int,
    c_name: &'static CStr,
    rust_name: &'static CStr,
    /// The address of the variable both threads access.
    variable: fn() -> usize,
    /// Whether KCSAN must report the race, or must not.
    races: bool,
}

const KCSAN_CASES: &[KcsanCase] = &[
    KcsanCase {
        name: "kcsan_c_plain_write_vs_rust_atomic",
        c: rust_atomic_san_c_plain_writer,
        rust: rust_atomic_san_rust_atomic_rmw,
        c_name: kernel::c_str!("rust_atomic_san_c_plain_writer"),
        rust_name: kernel::c_str!("rust_atomic_san_rust_atomic_rmw"),
        variable: || (&raw const rust_atomic_san_plain) as usize,
        races: true,
    },
    KcsanCase {
        name: "kcsan_c_atomic_vs_rust_atomic",
        c: rust_atomic_san_c_atomic_writer,
        rust: rust_atomic_san_rust_atomic_inc,
        c_name: kernel::c_str!("rust_atomic_san_c_atomic_writer"),
        rust_name: kernel::c_str!("rust_atomic_san_rust_atomic_inc"),
        variable: || (&raw const rust_atomic_san_atomic) as usize,
        races: false,
    },
    KcsanCase {
        name: "kcsan_c_rcu_assign_vs_rust_rcu_dereference",
        c: rust_atomic_san_c_rcu_publisher,
        rust: rust_atomic_san_rust_rcu_reader,
        c_name: kernel::c_str!("rust_atomic_san_c_rcu_publisher"),
        rust_name: kernel::c_str!("rust_atomic_san_rust_rcu_reader"),
        variable: || (&raw const rust_atomic_san_rcu) as usize,
        races: false,
    },
];

/// Runs one KCSAN case: the C thread on CPU 0, the Rust one on CPU 1, until the report came or
/// the time is up.
fn kcsan_case(suite: &mut ktap::Suite, case: &KcsanCase) {
    let mark = log_mark();
    let data = core::ptr::null_mut();
    // SAFETY: Both functions loop until `kthread_should_stop()`; they take no data.
    let threads = unsafe {
        (
            Thread::create_on_cpu(case.c, data, 0),
            Thread::create_on_cpu(case.rust, data, 1),
        )
    };
    let (c, rust) = match threads {
        (Ok(c), Ok(rust)) => (c, rust),
        (c, rust) => {
            for t in [c, rust].into_iter().flatten() {
                t.stop();
            }
            suite.diag(format_args!("{}: cannot start the kthreads", case.name));
            suite.case(case.name, false);
            return;
        }
    };
    c.wake();
    rust.wake();
    let title = kernel::c_str!("BUG: KCSAN: data-race in ");
    // The report's title names the Rust function (the C side's frame may be KCSAN's own); its
    // body has the Rust access, marked, and the C function.
    let search = || {
        if case.races {
            find_reports(
                mark,
                &[title, case.rust_name],
                &[kernel::c_str!("(marked)"), case.c_name],
            )
        } else {
            about(mark, case)
        }
    };
    let limit = if case.races { KCSAN_MS } else { KCSAN_QUIET_MS };
    let start = kthread::now_ns();
    let mut found = KVec::new();
    while found.is_empty() && kthread::now_ns() - start < i64::from(limit) * 1_000_000 {
        // SAFETY: Sleeping is allowed in `init`.
        unsafe { bindings::msleep(KCSAN_POLL_MS) };
        found = search();
    }
    let waited = (kthread::now_ns() - start) / 1_000_000;
    c.stop();
    rust.stop();
    // Reports printed while the threads stopped count too.
    found = search();
    suite.diag(format_args!(
        "{}: KCSAN must {}report a data race of {} and {} (C plain or atomic, Rust atomic); ran {} ms",
        case.name,
        if case.races { "" } else { "not " },
        case.c_name.to_str().unwrap_or("?"),
        case.rust_name.to_str().unwrap_or("?"),
        waited
    ));
    let passed = found.is_empty() != case.races;
    if case.races {
        // Every report of the race is this case's, also those whose title KCSAN got from its
        // own frames (`print_report`, `_raw_spin_lock_irqsave` under `kcsan_report_known_origin`)
        // or that name one side only ("race at unknown origin": a watchpoint saw the value
        // change), and the verdict takes them as expected. Only a report naming both threads'
        // functions and the Rust access as marked, one of `found`, passes the case.
        for report in about(mark, case) {
            if !found.contains(&report) && found.push(report, GFP_KERNEL).is_err() {
                break;
            }
        }
    }
    print_reports(suite, case.name, &found, case.races);
    suite.case(case.name, passed);
}

/// The KCSAN reports from record `mark` on of an access to the variable of `case`, or that name
/// one of its functions in their title.
fn about(mark: u64, case: &KcsanCase) -> KVec<KVec<u8>> {
    let bug = kernel::c_str!("BUG: KCSAN:");
    let address = (case.variable)();
    // KCSAN prints the address with `%px` (`kernel/kcsan/report.c`), which writes every digit
    // (`lib/vsprintf.c`: `pointer_string()`).
    let mut needle = *b"to 0x0000000000000000 of \0";
    let digits = 2 * core::mem::size_of::<usize>();
    for (i, byte) in needle[5..5 + digits].iter_mut().enumerate() {
        *byte = b"0123456789abcdef"[(address >> (4 * (digits - 1 - i))) & 0xf];
    }
    needle.copy_within(5 + 16.., 5 + digits);
    let mut found = KVec::new();
    if let Ok(needle) = CStr::from_bytes_with_nul(&needle[..5 + digits + 5]) {
        found = find_reports(mark, &[bug], &[needle]);
    }
    for name in [case.c_name, case.rust_name] {
        for report in find_reports(mark, &[bug, name], &[]) {
            if !found.contains(&report) && found.push(report, GFP_KERNEL).is_err() {
                break;
            }
        }
    }
    found
}

struct RustAtomicSanitizers;

impl kernel::Module for RustAtomicSanitizers {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        ktap::check_param()?;
        let kasan = cfg!(any(CONFIG_KASAN_GENERIC, CONFIG_KASAN_SW_TAGS));
        let kcsan = cfg!(CONFIG_KCSAN);
        let mut suite = ktap::Suite::start(SUITE, KASAN_CASES.len() + KCSAN_CASES.len());
        suite.diag(format_args!(
            "sanitizers: {}{}{}",
            if kasan { "KASAN " } else { "" },
            if kcsan { "KCSAN " } else { "" },
            if kasan || kcsan { "" } else { "none" }
        ));
        for case in KASAN_CASES {
            if kasan {
                kasan_case(&mut suite, case);
            } else {
                suite.skip(case.name, format_args!("the kernel has no CONFIG_KASAN"));
            }
        }
        let cpus = kthread::online_cpus();
        for case in KCSAN_CASES {
            if !kcsan {
                suite.skip(case.name, format_args!("the kernel has no CONFIG_KCSAN"));
            } else if cpus < 2 {
                suite.skip(case.name, format_args!("needs 2 CPUs, {cpus} online"));
            } else {
                kcsan_case(&mut suite, case);
            }
        }
        suite.finish();
        Ok(Self)
    }
}
