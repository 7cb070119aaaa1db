# SPDX-License-Identifier: GPL-2.0
"""Checks the hand-written type lists of the typed API against types.tbl: the `AtomicType`
impls of rust/atomic/predefine.rs (`integer_types!` for the types with every operation, one
impl each for the others) and the representations of rust/atomic/internal.rs
(`impl_integer_ops!`, sealed and `AtomicImpl` each). Pointers, which only the typed API has,
are not in the table and not checked."""

import os
import re

from .paths import ROOT, relative
from .tables import TYPES

PREDEFINE = os.path.join(ROOT, 'rust', 'atomic', 'predefine.rs')
INTERNAL = os.path.join(ROOT, 'rust', 'atomic', 'internal.rs')


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def macro_lines(text, macro):
    """The `;`-terminated entries of the invocation `macro! { ... }` in `text`, with their
    whitespace normalised."""
    m = re.search(rf'^{re.escape(macro)}! \{{\n(.*?)^\}}', text, re.S | re.M)
    if not m:
        return None
    return {' '.join(entry.split()) + ';' for entry in m.group(1).split(';') if entry.strip()}


def compare(where, expected, found):
    """Messages for the entries of `expected` ({entry: the types.tbl lines it comes from}) that
    are not in `found`, and for those of `found` that are not expected."""
    if found is None:
        return [f'{where}: not found']
    out = [f'{where} lacks `{e}` ({"; ".join(expected[e])})' for e in sorted(set(expected) - found)]
    out += [f'{where} has `{e}`, which no line of {relative(TYPES)} gives'
            for e in sorted(found - set(expected))]
    return out


def check(types):
    """Every way the hand-written lists disagree with `types` (tables.types()), as messages."""
    predefine, internal = read(PREDEFINE), read(INTERNAL)
    integers, others, reprs, sealed, impls = {}, {}, {}, {}, {}
    for t in types:
        origin = f'{t.rust}: {t.where}'
        if t.ops == 'all':
            signed = ', AtomicSigned' if t.signed else ''
            integers.setdefault(f'{t.value} => {t.repr}{signed};', []).append(origin)
        else:
            others.setdefault(f'unsafe impl AtomicType for {t.value} {{ type Repr = {t.repr}; }}',
                              []).append(origin)
        # `Long` is C's `long`: i32 or i64 (rust/atomic/arch.rs), each listed on its own.
        if t.repr != 'Long':
            scalar = 'false, AtomicArithmeticOps' if t.ops == 'all' else 'true'
            reprs.setdefault(f'{t.repr} => backend::{t.backend}, {scalar};', []).append(origin)
            sealed.setdefault(f'impl private::Sealed for {t.repr} {{}}', []).append(origin)
            impls.setdefault(f'impl AtomicImpl for {t.repr} {{ ... }}', []).append(origin)
    found_others = {f'unsafe impl AtomicType for {a} {{ type Repr = {b}; }}' for a, b in re.findall(
        r'^unsafe impl AtomicType for (\w+) \{\s*type Repr = (\w+);', predefine, re.M)}
    found_sealed = {f'impl private::Sealed for {a} {{}}' for a in re.findall(
        r'^impl private::Sealed for ([iu]\d+) \{\}', internal, re.M)}
    found_impls = {f'impl AtomicImpl for {a} {{ ... }}' for a in re.findall(
        r'^impl AtomicImpl for ([iu]\d+) \{', internal, re.M)}
    pre, inter = relative(PREDEFINE), relative(INTERNAL)
    return (compare(f'{pre}: integer_types!', integers, macro_lines(predefine, 'integer_types'))
            + compare(pre, others, found_others)
            + compare(f'{inter}: impl_integer_ops!', reprs,
                      macro_lines(internal, 'impl_integer_ops'))
            + compare(inter, sealed, found_sealed)
            + compare(inter, impls, found_impls))
