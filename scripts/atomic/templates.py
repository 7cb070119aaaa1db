# SPDX-License-Identifier: GPL-2.0
"""Finds and fills the templates under scripts/atomic/templates/ (its README says what each
directory holds and which `$names` a template may use).

A template is found by name as the kernel's find_template() (scripts/atomic/atomic-tbl.sh) finds
one: the most specific first, `<pfx><name><sfx><order>` (`read_acquire`), then
`<pfx><name><sfx>` (`fetch_add`, the form: every ordering of it). The kernel's last resort,
`<name>` for every form of an operation, is left out: here every form has its own template, and
the void form of `add` is named `add`, so a missing `fetch_add` would silently take its text. A
missing template, or one that uses a `$name` the generator does not define, stops the generator
with a message."""

import os
import string
import sys
from functools import cache

from .paths import TEMPLATES, relative


def find_template(kind, pfx, name, sfx, order):
    """The path of the template of directory `kind` (`fallbacks`, `kerneldoc`...) for operation
    `name` with prefix `pfx`, suffix `sfx` and ordering suffix `order`."""
    tried = []
    for base in (f'{pfx}{name}{sfx}{order}', f'{pfx}{name}{sfx}'):
        path = os.path.join(TEMPLATES, kind, base)
        if os.path.isfile(path):
            return path
        if path not in tried:
            tried.append(path)
    return sys.exit(f'error: no {kind} template for {pfx}{name}{sfx}{order}: tried '
                    + ', '.join(relative(p) for p in tried))


@cache
def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read().rstrip('\n')


def fill(path, values):
    """The text of template `path` with its `$names` replaced by `values`."""
    try:
        return string.Template(read(path)).substitute(values)
    except KeyError as e:
        return sys.exit(f'error: {relative(path)} uses ${e.args[0]}, which the generator does not '
                        f'define here (it defines: {", ".join(sorted(values)) or "nothing"})')
    except ValueError as e:
        return sys.exit(f'error: {relative(path)}: {e} (write $$ for a dollar sign)')


def render(kind, variant, **values):
    """The template of `kind` for `variant` (a variants.Variant), filled with `values`."""
    path = find_template(kind, variant.pfx, variant.op.name, variant.sfx, variant.order)
    return fill(path, values)


def paragraphs(text):
    """The paragraphs of a doc template: separated by blank lines, each joined into one line
    (the generator wraps them to the width of the output)."""
    return [' '.join(line.strip() for line in para.splitlines())
            for para in text.split('\n\n') if para.strip()]
