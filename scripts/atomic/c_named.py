# SPDX-License-Identifier: GPL-2.0
"""rust/atomic/generated.rs: the C-named types of kernel::sync::atomic (types.tbl), each with
one method per operation of atomics.tbl and ordering of orderings.tbl that the type has, the
method's doc from its templates/kerneldoc/ template and its body from methods.py."""

import re
import textwrap

from . import instrument, templates
from .casts import cast
from .examples import example
from .methods import methods_for
from .paths import GENERATED_BY
from .rustfmt import rustfmt

# The C names of the loads and stores of the types that are not atomic_t's (marked accesses).
LOAD_STORE_C = {'read': 'READ_ONCE()', 'read_acquire': 'smp_load_acquire()',
                'set': 'WRITE_ONCE()', 'set_release': 'smp_store_release()'}
SAFETY = '// SAFETY: `p` is valid and aligned, and all its concurrent accesses are atomic.'


def doc_lines(text, indent='    '):
    """`text` as `///` lines of at most 100 columns (the kernel's width)."""
    return [f'{indent}/// {line}' for line in
            textwrap.wrap(text, width=100 - len(indent) - 4, break_long_words=False,
                          break_on_hyphens=False)]


def c_name_of(t, m):
    """How the doc of method `m` of type `t` names its C twin."""
    if m.name in LOAD_STORE_C and t.ops != 'all':
        return f'`{LOAD_STORE_C[m.name]}`'
    if t.ops == 'exchange':
        return f'`{m.name}()` on a `{t.c_type}`'
    return f'`{t.c_prefix}_{m.name}()`'


def doc_of(t, m):
    """The doc of method `m` of type `t`, from its template, as `///` lines."""
    v = m.variant
    text = templates.render('kerneldoc', v, c_name=c_name_of(t, m), ordering=v.ordering.meaning)
    lines = []
    for para in templates.paragraphs(text):
        lines += (['    ///'] if lines else []) + doc_lines(para)
    return lines


def render_method(t, m):
    """Method `m` (methods.py) of type `t`: its doc, example, and body in `t`'s types, after
    the sanitizer hooks of its C twin."""
    value, marker, raw = t.value, t.backend, t.repr
    lines = [''] + doc_of(t, m)
    init, stmts, seed = example(t, m.variant.form, m.name)
    lines += ['    ///', '    /// # Examples', '    ///', '    /// ```',
              f'    /// use kernel::sync::atomic::{t.rust};', '    ///',
              f'    /// let v = {t.rust}::new({init});']
    lines += [f'    /// {x}' if x else '    ///' for x in stmts + seed]
    lines += ['    /// ```', '    #[inline(always)]']
    params = ''.join(f', {n}: {ty.replace("V", value)}' for n, ty in m.params)
    ret = f' -> {m.ret.replace("V", value)}' if m.ret else ''
    same = value == raw
    back = ' != 0' if value == 'bool' else f' as {value}'
    body = m.body.replace(' as V', '' if same else back)
    body = re.sub(r'(\*?\w+) as P', lambda x: cast(x.group(1), value, raw), body)
    body = body.replace('P::', f'{marker}::').replace('<P>', f'<{marker}>')
    pointer = 'self.0.get()' if same else f'self.0.get().cast::<{raw}>()'
    lines += [f'    pub fn {m.name}(&self{params}){ret} {{', f'        let p = {pointer};']
    old = 'core::ptr::from_ref(old)' if m.name.startswith('try_cmpxchg') else None
    scalar = 'true' if t.ops == 'exchange' else 'false'
    lines += [f'        {x}' for x in instrument.rust_lines(m.name, m.ret is not None, old=old,
                                                           scalar=scalar)]
    if 'OLD' in body:
        if same:
            lines += [f'        {SAFETY}', f'        unsafe {{ {body.replace("OLD", "old")} }}']
        else:
            lines += [f'        let mut found = {cast("*old", value, raw)};', f'        {SAFETY}',
                      f'        let stored = unsafe {{ {body.replace("OLD", "&mut found")} }};',
                      f'        *old = found{back};', '        stored']
    else:
        lines += [f'        {SAFETY}', f'        unsafe {{ {body} }}']
    lines.append('    }')
    return lines


def render_type(t, ops):
    """Type `t` (a line of types.tbl): its struct, constructors and views, and the methods of
    every operation of `ops` that it has."""
    rust, value, raw, c_type = t.rust, t.value, t.repr, t.c_type
    if t.ops == 'all':
        what = f'with the layout of C\'s `{c_type}`'
        if not t.signed:
            what += ' (an unsigned view of it: arithmetic wraps)'
    elif t.ops == 'exchange':
        what = (f'with the layout of C\'s `{c_type}`, with the operations C has on it: loads, '
                'stores, `xchg()` and the `cmpxchg()` family')
    else:
        what = (f'with the layout of C\'s `{c_type}`, accessed only by loads and stores (C has no '
                f'read-modify-write operations on it)')
    zero, one, two = ('false', 'true', 'false') if value == 'bool' else ('0', '1', '2')
    out = [''] + doc_lines(f'An atomic `{value}` {what}.', '') + ['///',
           '/// Every operation has the semantics of the LKMM operation of the same C name; the',
           '/// ordering is part of the name.', '///', '/// # Invariants', '///',
           '/// The value is accessed only through the atomic operations below while it can be',
           '/// shared, so concurrent accesses through `&Self` are never data races.',
           '#[repr(transparent)]', f'pub struct {rust}(UnsafeCell<{value}>);', '',
           '// SAFETY: By the type invariant every access that may run concurrently is atomic.',
           f'unsafe impl Sync for {rust} {{}}', '',
           f'const _: () = assert!(core::mem::size_of::<{rust}>() == core::mem::size_of::<{raw}>());',
           f'const _: () = assert!(core::mem::align_of::<{rust}>() == core::mem::align_of::<{raw}>());',
           '', f'impl {rust} {{',
           '    /// Creates an atomic value.',
           '    ///', '    /// # Examples', '    ///', '    /// ```',
           f'    /// use kernel::sync::atomic::{rust};', '    ///',
           f'    /// static COUNTER: {rust} = {rust}::new({zero});',
           f'    /// COUNTER.set({one});',
           f'    /// assert_eq!(COUNTER.read(), {one});', '    /// ```',
           '    #[inline(always)]', f'    pub const fn new(v: {value}) -> Self {{',
           '        Self(UnsafeCell::new(v))', '    }', '']
    out += [
           f'    /// Views a `{value}` that other code (C, say) also accesses atomically as this type, so',
           '    /// that both share one variable under one memory model.', '    ///',
           '    /// # Safety', '    ///',
           f'    /// `ptr` must be valid and aligned for reads and writes of a `{value}` for `\'a`, and every',
           '    /// access to it during `\'a` that may run concurrently must be atomic (C\'s atomic',
           '    /// operations or this type\'s).', '    ///', '    /// # Examples', '    ///',
           '    /// ```', f'    /// use kernel::sync::atomic::{rust};', '    ///',
           f'    /// let mut shared: {value} = {one};',
           '    /// // SAFETY: `shared` is valid, aligned, and only accessed through `v` below.',
           f'    /// let v = unsafe {{ {rust}::from_ptr(&raw mut shared) }};',
           f'    /// v.set({two});', f'    /// assert_eq!(v.read(), {two});', '    /// ```',
           '    #[inline(always)]',
           f'    pub unsafe fn from_ptr<\'a>(ptr: *mut {value}) -> &\'a Self {{',
           '        // `Self` is transparent over the value.',
           '        // SAFETY: The caller guarantees `ptr` valid for `\'a` and accessed atomically.',
           '        unsafe { &*ptr.cast::<Self>() }', '    }', '']
    if t.ops == 'all':
        out += [f'    /// Views a C-owned `{c_type}` (`kernel::bindings::{c_type}`, e.g. a field of a C',
                '    /// struct) as this type: C\'s `atomic_*()` and this type\'s operations then share it.',
                '    ///', '    /// # Safety', '    ///',
                '    /// `ptr` must be valid and aligned for reads and writes for `\'a`, and every access',
                '    /// to it during `\'a` that may run concurrently must be atomic.',
                '    #[cfg(CONFIG_RUST)]', '    #[inline(always)]',
                f'    pub unsafe fn from_c<\'a>(ptr: *mut ::kernel::bindings::{c_type}) -> &\'a Self {{',
                '        const {',
                f'            assert!(size_of::<::kernel::bindings::{c_type}>() == size_of::<Self>());',
                f'            assert!(align_of::<::kernel::bindings::{c_type}>() == align_of::<Self>());',
                '        }',
                f'        // `{c_type}` is a struct of one `counter` of this type\'s size and alignment,',
                '        // whose every bit pattern is valid for it (checked above; any integer is).',
                '        // SAFETY: The caller guarantees `ptr` valid for `\'a` and accessed atomically.',
                '        unsafe { &*ptr.cast::<Self>() }', '    }', '']
    out += [
           '    /// Returns a pointer to the value, for C code that takes the atomic variable.',
           '    #[inline(always)]', f'    pub const fn as_ptr(&self) -> *mut {value} {{',
           '        self.0.get()', '    }', '',
           '    /// Returns the value for plain access: `&mut self` proves that no other thread can',
           '    /// access it (the context, not the type, decides whether an access needs care).',
           '    ///', '    /// # Examples', '    ///', '    /// ```',
           f'    /// use kernel::sync::atomic::{rust};', '    ///',
           f'    /// let mut v = {rust}::new({one});', f'    /// *v.get_mut() = {two};',
           f'    /// assert_eq!(v.read(), {two});', '    /// ```',
           '    #[inline(always)]', f'    pub fn get_mut(&mut self) -> &mut {value} {{',
           '        self.0.get_mut()', '    }']
    out += ['',
            f'    /// The same variable in the typed spelling, [`Atomic<{value}>`]: a reference to it',
            '    /// at no cost, for code written against upstream\'s API.', '    ///',
            '    /// # Examples', '    ///', '    /// ```',
            f'    /// use kernel::sync::atomic::{{{rust}, Relaxed}};', '    ///',
            f'    /// let v = {rust}::new({one});', f'    /// v.typed().store({two}, Relaxed);',
            f'    /// assert_eq!(v.read(), {two});', '    /// ```',
            '    #[inline(always)]', f'    pub fn typed(&self) -> &Atomic<{value}> {{',
            f'        // CAST: `Atomic<{value}>` is transparent over its representation, of the size,',
            f'        // alignment and bit validity of `{value}` (`AtomicType`), and so is `Self`.',
            '        // SAFETY: The reference is valid for the lifetime of `&self`, and both spellings',
            '        // access the value only atomically and only with valid values.',
            '        unsafe { &*core::ptr::from_ref(self).cast::<Atomic<' + value + '>>() }', '    }']
    for op in ops:
        if t.has(op):
            for m in methods_for(op):
                out += render_method(t, m)
    out.append('}')
    out += ['', f'impl Atomic<{value}> {{',
            f'    /// The same variable in the C-named spelling, [`{rust}`]: a reference to it at no',
            '    /// cost, for code that uses the C names.', '    ///', '    /// # Examples',
            '    ///', '    /// ```', f'    /// use kernel::sync::atomic::{{Atomic, Relaxed}};',
            '    ///', f'    /// let v = Atomic::new({one} as {value});',
            f'    /// v.c_named().set({two});', f'    /// assert_eq!(v.load(Relaxed), {two});',
            '    /// ```', '    #[inline(always)]', f'    pub fn c_named(&self) -> &{rust} {{',
            f'        // CAST: as for `{rust}::typed()`, the other way round.',
            '        // SAFETY: As for `typed()`.',
            f'        unsafe {{ &*core::ptr::from_ref(self).cast::<{rust}>() }}', '    }', '}']
    return out


def generate(tables):
    # The primitives of the types and the integers they take that are not Rust's (`Long`).
    backend = sorted({t.backend for t in tables.types} | {t.repr for t in tables.types
                                                          if not re.fullmatch(r'[iu]\d+', t.repr)})
    out = ['// SPDX-License-Identifier: GPL-2.0', '',
           f'// {GENERATED_BY}',
           '// Regenerate with `make generate` (the test suite fails if this file is stale).', '',
           '//! The atomic types and their operations, one method per operation and ordering.', '',
           f'use super::backend::{{{", ".join(backend)}}};',
           'use super::instrument::{self, Access};',
           'use super::primitive::{Exchange, LoadStore, Order, Primitive, Rmw};',
           'use super::Atomic;',
           'use core::cell::UnsafeCell;']
    for t in tables.types:
        out += render_type(t, tables.ops)
    return rustfmt('\n'.join(out) + '\n')
