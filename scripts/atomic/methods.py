# SPDX-License-Identifier: GPL-2.0
"""The C-named methods of one line of atomics.tbl, for any type: name, parameters, return and
body, the body from the line's template in templates/fallbacks/.

Parameters, return and body are in a notation for every type at once: `V` is the value type,
`P` the primitives (`P::fetch_rmw(...)`) and their integer (`i as P`, `... as V`); `OLD` in a
body is the pointer to `*old` of a `try_cmpxchg`."""

from dataclasses import dataclass

from . import templates, variants


@dataclass
class Method:
    variant: variants.Variant
    params: list        # (name, 'V' or '&mut V')
    ret: str            # 'V', 'bool' or None
    body: str

    @property
    def name(self):
        """Also the C name without the type's prefix."""
        return self.variant.name


def params_of(op):
    """The value parameters of table line `op`: (name, type)."""
    params = []
    for a in op.args:
        kind, _, pname = a.partition(':')
        if kind == 'i':
            params.append((pname or 'i', 'V'))
        elif kind == 'p':
            params.append((pname or 'old', '&mut V'))
    return params


def methods_for(op):
    """The methods of table line `op`, in the order of its meta letters and of the orderings."""
    out = []
    for meta in op.meta:
        for v in variants.variants(op, meta):
            ret = {'value': 'V', 'bool': 'bool', None: None}[v.returns]
            body = templates.render('fallbacks', v, order=v.ordering.name)
            out.append(Method(v, params_of(op), ret, body))
    return out
