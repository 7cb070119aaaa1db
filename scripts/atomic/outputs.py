# SPDX-License-Identifier: GPL-2.0
"""The files the generator writes: the one list that both scripts/atomic/gen-atomics and its
usage text are made from."""

import os
import textwrap
from dataclasses import dataclass

from . import c_named, codegen, differential, typed_api
from .paths import ROOT


@dataclass(frozen=True)
class Output:
    path: str           # relative to the project's root
    what: str           # for the usage text
    generate: object    # tables.Tables -> the file's text


OUTPUTS = [
    Output('rust/atomic/generated.rs',
           'the C-named types of kernel::sync::atomic and their operations', c_named.generate),
    Output('rust/atomic/generated_typed.rs',
           "upstream's Atomic<T> API on them (typed_api.py)", typed_api.generate),
    Output('tests/kernel/rust_atomic_c_ops_table.c',
           "the kernel's C operations, as a table, for the differential test",
           differential.generate_c),
    Output('tests/kernel/common/differential_ops.rs', 'the matching Rust operations',
           differential.generate_rust),
    Output('tests/codegen/codegen_ops.rs',
           'one small Rust function per operation, ordering and type, for the codegen-parity '
           'check', codegen.generate_rust),
    Output('tests/codegen/codegen_upstream.rs',
           "the same operations on upstream's own atomics (Linux 7.2)", codegen.generate_upstream),
    Output('tests/codegen/codegen_c.c', "the C twin of each function of those two",
           codegen.generate_c),
]


def full_path(output):
    return os.path.join(ROOT, output.path)


def describe():
    """One line per output, for the usage text."""
    return '\n'.join(textwrap.fill(f'- {o.path}: {o.what};', 96, subsequent_indent='  ')
                     for o in OUTPUTS)
