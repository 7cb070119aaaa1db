# SPDX-License-Identifier: GPL-2.0
"""The atomic_*() operations of the LKMM C dialect, read from scripts/atomic/atomics.tbl by the
generator's own reader (scripts/atomic/tables.py, variants.py): each C name with its library
method and C argument order."""

import sys
from dataclasses import dataclass

from atomic import tables, variants  # the generator's reading of the table (scripts/atomic/)

# Table operations that C also has for plain scalars (xchg(), cmpxchg() on an `int *`).
SCALAR_FAMILIES = ('xchg', 'cmpxchg')
# What a method returns, in the dialect's terms.
RESULTS = {'value': 'int', 'bool': 'bool', None: 'void'}


@dataclass
class AtomicOp:
    """One operation of the table in one ordering: its Rust method and C arguments."""
    method: str
    args: list      # 'v' (the atomic), 'i' (a value) or 'p' (a pointer to a value), C order
    result: str     # 'void', 'int' or 'bool'


def read_table():
    """The table's operations: (atomic_*() C name -> AtomicOp, scalar C name -> AtomicOp), each
    method of each line in each ordering as scripts/atomic/variants.py gives them."""
    atomic_ops, scalar_ops = {}, {}
    for op in tables.ops():
        args = [a.partition(':')[0] for a in op.args]
        if args.count('v') != 1:
            sys.exit(f'{op.where}: {op.name} must take the atomic (v) once, not {args}')
        for meta in op.meta:
            for v in variants.variants(op, meta):
                atomic_op = AtomicOp(v.name, args, RESULTS[v.returns])
                atomic_ops[f'atomic_{v.name}'] = atomic_op
                if op.name in SCALAR_FAMILIES:
                    scalar_ops[v.name] = atomic_op
    return atomic_ops, scalar_ops
