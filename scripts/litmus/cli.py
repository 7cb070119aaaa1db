# SPDX-License-Identifier: GPL-2.0
"""The command line of scripts/memory-model/litmus2rust: files and directories in, one Rust file out."""

import argparse
import json
import os
import sys
from dataclasses import dataclass, field

from .emit import describe_test, render, write_output
from .errors import LitmusError
from .parser import Parser
from .rust import rust_ident
from .table import read_table
from .translate import Translator


@dataclass
class Source:
    """One input file: named on the command line (`explicit`) or found in a directory."""
    path: str
    explicit: bool


@dataclass
class Outcome:
    """What became of one file: its translation, or the errors that refused it."""
    source: Source
    translator: Translator = None
    errors: list = field(default_factory=list)     # LitmusError, or (None, message)

    @property
    def path(self):
        return self.source.path

    def messages(self):
        """The errors as FILE:LINE: MESSAGE lines."""
        return [f'{self.path}:{e.line}: {e.message}' if e.line else f'{self.path}: {e.message}'
                for e in self.errors]


def translate_file(source, ops):
    """Parses and translates one file."""
    outcome = Outcome(source)
    try:
        with open(source.path, encoding='utf-8') as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        outcome.errors.append(LitmusError(None, 'cannot read: '
                                          f'{getattr(e, "strerror", None) or e}'))
        return outcome
    parser = Parser(text)
    errors = []
    test = None
    try:
        test = parser.parse()
    except LitmusError as e:
        errors.append(e)
    errors = parser.errors + errors
    if test is not None:
        translator = Translator(test, ops, errors)
        translator.translate()
        if not errors:
            outcome.translator = translator
    outcome.errors = sorted(errors, key=lambda e: e.line or 0)
    return outcome


def expand_paths(paths, problems):
    """The .litmus files named by `paths` (directories: their *.litmus files, sorted)."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(n for n in os.listdir(path) if n.endswith('.litmus'))
            if not found:
                problems.append(f'{path}: no .litmus files in this directory')
            files += [Source(os.path.join(path, n), False) for n in found]
        else:
            files.append(Source(path, True))
    return files


def check_names(outcomes):
    """Test names and the Rust names made from them must be unique: names that differ only in
    case (Z6.0+pooncelock+poonceLock+pombonce and Z6.0+pooncelock+pooncelock+pombonce) split
    their camel case, then get a number. Of two tests with one name (herd7 runs both), the
    second takes its file's name if no other test has that one (paulmckrcu/litmus's
    C-srcu-mb-3.litmus is named C-srcu-mb-2, as C-srcu-mb-2.litmus is), else it is refused.
    Returns a note per renamed test."""
    names, notes = {}, []
    for o in outcomes:
        t = o.translator
        if not t:
            continue
        if t.test.name in names:
            stem = os.path.basename(o.path)
            stem = stem[:-len('.litmus')] if stem.endswith('.litmus') else stem
            # Refused if another test has (or took) that name, this one's included.
            if any(stem == other.translator.test.name for other in outcomes
                   if other.translator and other is not o):
                o.errors.append(LitmusError(t.test.name_line, f'test name {t.test.name!r} is '
                                            f'also that of {names[t.test.name]}'))
                o.translator = None
                continue
            notes.append(f'{o.path}:{t.test.name_line}: note: test name {t.test.name!r} is also '
                         f'that of {names[t.test.name]}; named {stem!r} after its file')
            t.test.name = stem
        names[t.test.name] = o.path
    done = [o for o in outcomes if o.translator]
    clashes = {}
    for o in done:
        key = rust_ident(o.translator.test.name).upper()
        clashes[key] = clashes.get(key, 0) + 1
    idents = set()
    for o in done:
        t = o.translator
        base = rust_ident(t.test.name, split_camel=clashes[rust_ident(t.test.name).upper()] > 1)
        ident, n = base, 1
        # Different names that still make one Rust name (`a+b`, `a-b`) are numbered.
        while ident.upper() in idents or ident.upper() == 'TESTS':
            n += 1
            ident = f'{base}_{n}'
        t.set_ident(ident)
        idents.add(t.static)
    return notes


def summary(outcomes):
    """Translated / refused, and the refusals by reason (the first error of each file)."""
    refused = [o for o in outcomes if not o.translator]
    lines = [f'{o.path}: {"translated" if o.translator else "refused: " + o.errors[0].message}'
             for o in outcomes]
    reasons = {}
    for o in refused:
        reasons[o.errors[0].reason] = reasons.get(o.errors[0].reason, 0) + 1
    lines += ['', f'{len(outcomes) - len(refused)} translated, {len(refused)} refused']
    lines += [f'{n:6d}  {reason}' for reason, n in sorted(reasons.items(), key=lambda i: -i[1])]
    return '\n'.join(lines) + '\n'


def main(argv=None, doc=__doc__):
    ap = argparse.ArgumentParser(description=doc.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog='\n'.join(doc.splitlines()[2:]))
    ap.add_argument('paths', nargs='+', metavar='PATH', help='a .litmus file or a directory')
    ap.add_argument('-o', dest='output', default='-', metavar='OUT.rs',
                    help="the Rust file to write ('-': stdout, the default)")
    ap.add_argument('--json', metavar='FILE',
                    help='also write the tests as data (variables, threads, registers, '
                    'final clause) to FILE, for scripts/memory-model/herd-check')
    ap.add_argument('--list', action='store_true',
                    help='print name, Result and thread count of each test instead')
    ap.add_argument('--summary', action='store_true',
                    help='print translated / refused per file and the refusals by reason '
                    'instead (nothing is written; exit status 0)')
    args = ap.parse_args(argv)

    ops = read_table()
    problems = []
    outcomes = [translate_file(source, ops) for source in expand_paths(args.paths, problems)]
    notes = check_names(outcomes)
    if args.summary:
        sys.stdout.write(summary(outcomes))
        return 0
    for note in notes:
        print(note, file=sys.stderr)
    fatal = problems + [m for o in outcomes if o.source.explicit for m in o.messages()]
    left_out = [o for o in outcomes if not o.source.explicit and not o.translator]
    results = [o for o in outcomes if o.translator]
    for message in fatal:
        print(message, file=sys.stderr)
    if fatal or not results:
        n = len(fatal)
        print(f'litmus2rust: {n} error{"" if n == 1 else "s"}' if n else
              'litmus2rust: no test translated', end='', file=sys.stderr)
        for o in left_out:
            print('\n' + '\n'.join(o.messages()), end='', file=sys.stderr)
        print('; no output written' if not left_out else
              f'\nlitmus2rust: no output written ({len(left_out)} refused in directories)',
              file=sys.stderr)
        return 1
    for o in left_out:
        for message in o.messages():
            print(message, file=sys.stderr)
    if left_out:
        print(f'litmus2rust: {len(left_out)} of {len(outcomes)} tests found in directories '
              'refused and left out (see above); the others are translated', file=sys.stderr)
    if args.list:
        for o in results:
            t = o.translator.test
            print(f'{t.name}\t{t.result[1] if t.result else "-"}\t{len(t.threads)}')
        return 0
    write_output(args.output, render(results))
    if args.json:
        write_output(args.json, json.dumps([describe_test(o.translator, o.path) for o in results],
                                           indent=1) + '\n')
    return 0
