# SPDX-License-Identifier: GPL-2.0
"""The emitters: the Rust file of the translated tests (rustfmt-formatted, written whole or not
at all), and the tests as data for scripts/memory-model/herd-check."""

import os
import subprocess
import sys
import tempfile
import textwrap

from .dialect import HARNESS, VAR_KIND
from .rust import rust_str, rust_str_wrapped
from .syntax import Atom


def render_test(t, path):
    """The Rust items of one translated test: its thread functions, its clause and its `Test`."""
    test, lines = t.test, []
    result = test.result
    note = f'Result: {result[1]} {result[2]}'.rstrip() if result else 'no Result'
    lines += ['', f'// {os.path.basename(path)}: {note}']
    allow = '#[allow(unused_mut, unused_assignments, unused_variables, clippy::all)]'
    # The test's names are kept as they are (`int X;`, `DYNTICKS`).
    names = '#[allow(non_snake_case)]'
    # `inline(always)`: the herd7 check's entry points (tests/herd/) must contain the
    # thread's every instruction, not a call; the runner calls threads through pointers.
    for n, (body, regs) in enumerate(t.thread_fns):
        lines += [allow, names, '#[inline(always)]',
                  f'pub(crate) fn {t.thread_fn(n)}(m: &{HARNESS}::Instance<\'_>, '
                  'out: &mut [i64]) {'] + body + ['}', '']
    lines += [allow, f'fn {t.fn_prefix}_holds(s: &[i64]) -> bool {{', t.holds, '}',
              '']
    if t.filter is not None:
        lines += [allow, f'fn {t.fn_prefix}_filter(s: &[i64]) -> bool {{', t.filter, '}', '']
    expect = f'Some({HARNESS}::Expect::{t.expectation()})' if t.expectation() else 'None'
    threads = ', '.join(t.thread_fn(n) for n in range(len(t.thread_fns)))
    regs = ', '.join(str(len(r)) for _, r in t.thread_fns)
    fields = [f'name: {rust_str(test.name)},', f'expect: {expect},',
              f'quantifier: {HARNESS}::Quantifier::{test.quantifier},',
              f'clause: {rust_str_wrapped(test.clause_text)},', 'vars: &[']
    fields += [render_var(v) for v in t.vars.values()]
    fields += ['],', f'threads: &[{threads}],', f'regs: &[{regs}],', 'slots: &[']
    fields += [render_slot(s) for s in t.slots]
    fields += ['],', f'holds: {t.fn_prefix}_holds,']
    fields += [f'filter: Some({t.fn_prefix}_filter),' if t.filter is not None else
               'filter: None,', f'grace_periods: {"true" if t.grace_periods else "false"},']
    return lines + [f'pub(crate) static {t.static}: {HARNESS}::Test = {HARNESS}::Test {{'] \
        + ['    ' + f for f in fields] + ['};']


def describe_test(t, path):
    """The test as data, for tools that check the translation (scripts/memory-model/herd-check):
    variables in `Instance` order, each thread's Rust function and the `out` index of
    each of its registers, and the final clause as a tree."""
    test = t.test

    def loc(l):
        return {'thread': l.thread, 'name': l.name}

    def prop(p):
        if isinstance(p, Atom):
            what, value = p.value
            return {'atom': loc(p.loc), 'value': [what, loc(value) if what == 'loc' else value]}
        if p.op == 'const':
            return {'op': 'const', 'value': bool(p.args[0])}
        return {'op': p.op, 'args': [prop(a) for a in p.args]}
    variables = []
    for var in t.vars.values():
        what, value = var.init
        init = {'int': value} if what == 'int' else \
            {'addr': list(t.vars.values())[value].name}
        variables.append({'name': var.name, 'kind': var.kind, 'init': init})
    return {
        'name': test.name, 'path': os.path.abspath(path),
        'result': test.result[1] if test.result else None,
        'vars': variables,
        'threads': [{'fn': t.thread_fn(n),
                     'regs': {r.name: {'index': r.index, 'kind': r.kind,
                                       'init': register_init(t, n, r)}
                              for r in regs.values()}}
                    for n, (_, regs) in enumerate(t.thread_fns)],
        'quantifier': test.quantifier, 'clause': prop(test.clause),
        'clause_text': test.clause_text,
        'filter': prop(test.filter) if test.filter is not None else None,
        'filter_text': test.filter_text,
        'locations': [loc(l) for l in test.locations],
    }

def register_init(t, thread, reg):
    """A register's initial value from the init section: {'int': n}, {'addr': variable}."""
    item = t.reg_inits.get(thread, {}).get(reg.name)
    if item is None or item.value is None:
        return {'int': 0}
    what, value = item.value
    return {'int': value} if what == 'int' else {'addr': value}


def render_var(var):
    what, value = var.init
    init = f'Int({value})' if what == 'int' else f'Addr({value})'
    return (f'    {HARNESS}::Var {{ name: {rust_str(var.name)}, kind: {HARNESS}::VarKind::'
            f'{VAR_KIND[var.kind]}, init: {HARNESS}::Init::{init} }},')

def render_slot(slot):
    kind = 'Int' if slot.kind == 'int' else 'Ptr'
    return (f'    {HARNESS}::Slot {{ name: {rust_str(slot.name)}, kind: {HARNESS}::'
            f'SlotKind::{kind}, source: {slot.source} }},')


def render(results):
    names = ', '.join(os.path.basename(r.path) for r in results)
    header = textwrap.wrap(f'Generated by scripts/memory-model/litmus2rust from {names}. Do not edit.',
                           width=96, break_on_hyphens=False, break_long_words=False)
    lines = ['// SPDX-License-Identifier: GPL-2.0', ''] + [f'// {h}' for h in header]
    for r in results:
        lines += render_test(r.translator, r.path)
    tests = ', '.join(f'&{r.translator.static}' for r in results)
    lines += ['', '/// Every test above, in the order of the input files.',
              f'pub(crate) static TESTS: &[&{HARNESS}::Test] = &[{tests}];']
    return rustfmt('\n'.join(lines) + '\n')


def rustfmt(text):
    """Formats the output as the kernel does (`rustfmt --edition 2021`)."""
    try:
        proc = subprocess.run(['rustfmt', '--edition', '2021', '--config', 'newline_style=Unix',
                               '--emit', 'stdout'],
                              input=text, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        sys.exit('error: rustfmt not found: install it with rustup '
                 '(rustup component add rustfmt)')
    if proc.returncode != 0:
        sys.exit(f'error: rustfmt rejected the generated code (a bug of litmus2rust):\n'
                 f'{proc.stderr}')
    return proc.stdout


def write_output(path, text):
    """Writes `text` to `path` whole or not at all ('-': stdout)."""
    if path == '-':
        sys.stdout.write(text)
        return
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix='.litmus2rust-', suffix='.tmp')
    try:
        with os.fdopen(fd, 'w', encoding='utf-8') as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
