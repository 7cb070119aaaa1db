# SPDX-License-Identifier: GPL-2.0
"""The atomic_*() operations of the LKMM C dialect, read from scripts/atomic/atomics.tbl (as
scripts/atomic/gen-atomics reads it): each C name with its library method and C argument order."""

import os
import sys
from dataclasses import dataclass

TABLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'atomic',
                     'atomics.tbl')
# Ordering suffixes: an upper-case meta letter of the table has all four, a lower-case one
# only the fully ordered form (as in the kernel's scripts/atomic/).
ORDERINGS = ('', '_acquire', '_release', '_relaxed')
# Table operations that C also has for plain scalars (xchg(), cmpxchg() on an `int *`).
SCALAR_FAMILIES = ('xchg', 'cmpxchg')


@dataclass
class AtomicOp:
    """One operation of the table in one ordering: its Rust method and C arguments."""
    method: str
    args: list      # 'v' (the atomic), 'i' (a value) or 'p' (a pointer to a value), C order
    result: str     # 'void', 'int' or 'bool'


def op_variants(name, meta):
    """(method, result) of every variant of one table line, from its meta letters."""
    out = []
    for ch in meta:
        orders = ORDERINGS if ch.isupper() else ORDERINGS[:1]
        if ch == 'l':
            out += [('read', 'int'), ('read_acquire', 'int')]
        elif ch == 's':
            out += [('set', 'void'), ('set_release', 'void')]
        elif ch == 'v':
            out.append((name, 'void'))
        elif ch == 'R':
            out += [(f'{name}_return{o}', 'int') for o in orders]
        elif ch in 'Ff' and name == 'add_unless':
            out.append(('fetch_add_unless', 'int'))
        elif ch in 'Ff':
            out += [(f'fetch_{name}{o}', 'int') for o in orders]
        elif ch in 'Ii':
            out += [(f'{name}{o}', 'int') for o in orders]
        elif ch in 'Bb':
            out += [(f'{name}{o}', 'bool') for o in orders]
        else:
            raise ValueError(f'unknown meta letter {ch!r}')
    return out


def read_table(path=TABLE):
    """The table's operations: (atomic_*() C name -> AtomicOp, scalar C name -> AtomicOp)."""
    atomic_ops, scalar_ops = {}, {}
    with open(path, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            name, meta, *args = line.split()
            args = [a.partition(':')[0] for a in args if a != 'signed']
            if not set(args) <= {'v', 'i', 'p'} or args.count('v') != 1:
                sys.exit(f'{path}:{lineno}: unknown arguments {args} for {name}')
            try:
                variants = op_variants(name, meta)
            except ValueError as e:
                sys.exit(f'{path}:{lineno}: {e} for {name}')
            for method, result in variants:
                atomic_ops[f'atomic_{method}'] = AtomicOp(method, args, result)
                if name in SCALAR_FAMILIES:
                    scalar_ops[method] = AtomicOp(method, args, result)
    return atomic_ops, scalar_ops
