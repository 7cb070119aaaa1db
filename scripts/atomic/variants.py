# SPDX-License-Identifier: GPL-2.0
"""Which methods one line of atomics.tbl gives, as the kernel's scripts/atomic/atomic-tbl.sh
reads its meta letters: each letter is a form (`fetch_` prefix for F/f, `_return` suffix for R)
with a return (the value, a bool or nothing), and upper case means every ordering of
orderings.tbl, lower case only the fully ordered one; `l`, `s` and `v` are implicitly relaxed
(a load has an acquire method besides, a store a release one)."""

from dataclasses import dataclass

from . import tables


@dataclass(frozen=True)
class Variant:
    """One method of one table line in one ordering."""
    op: tables.Op
    meta: str                   # the meta letter it comes from
    pfx: str                    # 'fetch_' or ''
    sfx: str                    # '_return' or ''
    ordering: tables.Ordering
    order: str                  # the ordering's suffix in this name ('' where implicit)

    @property
    def form(self):
        """The name without the ordering: `fetch_add`, `add_return`, `read`."""
        return f'{self.pfx}{self.op.name}{self.sfx}'

    @property
    def name(self):
        """The C name without the type's prefix: `fetch_add_relaxed`, `read_acquire`."""
        return f'{self.form}{self.order}'

    @property
    def returns(self):
        """'value', 'bool' or None."""
        return 'bool' if self.meta in 'Bb' else None if self.meta in 'sv' else 'value'


def prefix_suffix(meta):
    """The form of meta letter `meta`: (prefix, suffix) of the operation's name."""
    return ('fetch_', '') if meta in 'Ff' else ('', '_return') if meta == 'R' else ('', '')


def orderings_of(meta):
    """(ordering, suffix in the name) of every method of meta letter `meta`, in order."""
    relaxed = tables.ordering('Relaxed')
    if meta == 'l':
        acquire = tables.ordering('Acquire')
        return [(relaxed, ''), (acquire, acquire.suffix)]
    if meta == 's':
        release = tables.ordering('Release')
        return [(relaxed, ''), (release, release.suffix)]
    if meta == 'v':
        return [(relaxed, '')]
    if meta.isupper():
        return [(o, o.suffix) for o in tables.orderings()]
    return [(tables.ordering('Full'), '')]


def variants(op, meta):
    """The methods of meta letter `meta` of table line `op`, one per ordering."""
    pfx, sfx = prefix_suffix(meta)
    return [Variant(op, meta, pfx, sfx, o, order) for o, order in orderings_of(meta)]
