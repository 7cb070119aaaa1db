# SPDX-License-Identifier: GPL-2.0
"""The command line of scripts/litmus2rust: files and directories in, one Rust file out."""

import argparse
import json
import os
import sys
from dataclasses import dataclass

from .emit import describe_test, render, write_output
from .errors import LitmusError
from .parser import Parser
from .rust import rust_ident
from .table import read_table
from .translate import Translator


@dataclass
class Translated:
    path: str
    translator: Translator


def translate_file(path, ops, errors):
    """Parses and translates one file; appends (path, LitmusError) to `errors`."""
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        errors.append((path, None, f'cannot read: {getattr(e, "strerror", None) or e}'))
        return None
    parser = Parser(text)
    file_errors = []
    test = None
    try:
        test = parser.parse()
    except LitmusError as e:
        file_errors.append(e)
    file_errors = parser.errors + file_errors
    translator = None
    if test is not None:
        translator = Translator(test, ops, file_errors)
        translator.translate()
    for e in sorted(file_errors, key=lambda e: e.line):
        errors.append((path, e.line, e.message))
    return Translated(path, translator) if not file_errors else None


def expand_paths(paths, errors):
    """The .litmus files named by `paths` (directories: their *.litmus files, sorted)."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(n for n in os.listdir(path) if n.endswith('.litmus'))
            if not found:
                errors.append((path, None, 'no .litmus files in this directory'))
            files += [os.path.join(path, n) for n in found]
        else:
            files.append(path)
    return files


def check_names(results, errors):
    """Test names and the Rust names made from them must be unique: names that differ only in
    case (Z6.0+pooncelock+poonceLock+pombonce and Z6.0+pooncelock+pooncelock+pombonce) split
    their camel case; a clash that remains is an error."""
    by_ident = {}
    for r in results:
        by_ident.setdefault(r.translator.static, []).append(r)
    for group in by_ident.values():
        if len(group) > 1:
            for r in group:
                r.translator.set_ident(rust_ident(r.translator.test.name, split_camel=True))
    seen = {}
    for r in results:
        t = r.translator
        for key in (f'test name {t.test.name!r}', f'Rust name {t.static}'):
            if key in seen:
                errors.append((r.path, t.test.name_line, f'{key} is also that of {seen[key]}'))
            seen.setdefault(key, r.path)


def main(argv=None, doc=__doc__):
    ap = argparse.ArgumentParser(description=doc.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog='\n'.join(doc.splitlines()[2:]))
    ap.add_argument('paths', nargs='+', metavar='PATH', help='a .litmus file or a directory')
    ap.add_argument('-o', dest='output', default='-', metavar='OUT.rs',
                    help="the Rust file to write ('-': stdout, the default)")
    ap.add_argument('--json', metavar='FILE',
                    help='also write the tests as data (variables, threads, registers, '
                    'final clause) to FILE, for scripts/herd-check')
    ap.add_argument('--list', action='store_true',
                    help='print name, Result and thread count of each test instead')
    args = ap.parse_args(argv)

    ops = read_table()
    errors = []
    results = []
    for path in expand_paths(args.paths, errors):
        result = translate_file(path, ops, errors)
        if result:
            results.append(result)
    check_names(results, errors)
    if errors:
        for path, line, message in errors:
            print(f'{path}:{line}: {message}' if line else f'{path}: {message}', file=sys.stderr)
        print(f'litmus2rust: {len(errors)} error{"s" if len(errors) > 1 else ""}; no output '
              'written', file=sys.stderr)
        return 1
    if args.list:
        for r in results:
            t = r.translator.test
            print(f'{t.name}\t{t.result[1] if t.result else "-"}\t{len(t.threads)}')
        return 0
    write_output(args.output, render(results))
    if args.json:
        write_output(args.json, json.dumps([describe_test(r.translator, r.path) for r in results],
                                           indent=1) + '\n')
    return 0
