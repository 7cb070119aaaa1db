# SPDX-License-Identifier: GPL-2.0
"""Rust code fragments, with enough precedence information to parenthesise only where needed,
and Rust names and literals made from the test's."""

import re
from dataclasses import dataclass

from .errors import LitmusError

ATOM, UNARY, BITAND, BITXOR, BITOR, CMP, AND, OR = 10, 9, 6, 5, 4, 3, 2, 1
BIT_PREC = {'&': BITAND, '^': BITXOR, '|': BITOR}
ARITH = {'+': 'wrapping_add', '-': 'wrapping_sub', '*': 'wrapping_mul'}
DIVISION = {'/': 'checked_div', '%': 'checked_rem'}
SHIFTS = {'<<': 'wrapping_shl', '>>': 'wrapping_shr'}
COMPARISONS = ('==', '!=', '<', '<=', '>', '>=')


@dataclass
class Code:
    text: str
    kind: str           # 'int' (i32), 'bool', 'ptr' (usize) or 'void'
    prec: int = ATOM
    literal: int = None  # the value of an integer literal


def paren(code, min_prec):
    return f'({code.text})' if code.prec < min_prec else code.text


def receiver(code):
    """`code` as the receiver of a method call (a literal needs its type)."""
    if code.literal is not None:
        return f'{code.literal}_i32' if code.literal >= 0 else f'({code.literal}_i32)'
    return paren(code, ATOM)



def rust_ident(name, split_camel=False):
    """A test name as part of Rust identifiers: `SB+foo.bar` -> `SB_foo_bar`. Every run of
    other characters is one `_`, none at either end (`C-LB+R-A` -> `C_LB_R_A`, never `__`,
    which is not snake case). `split_camel` also marks upper case after lower case
    (`poonceLock` -> `poonce_Lock`), for names that differ from another only in case."""
    if split_camel:
        name = re.sub(r'(?<=[a-z])(?=[A-Z])', '_', name)
    ident = re.sub(r'[^A-Za-z0-9]+', '_', name).strip('_') or 'T'
    return 'T_' + ident if ident[:1].isdigit() else ident


def rust_str(text):
    return '"' + text.replace('\\', '\\\\').replace('"', '\\"') + '"'


def rust_str_wrapped(text, width=80, indent=8):
    """A Rust string literal of `text` (single-spaced), broken at spaces into lines of at most
    `width` characters with `\\` continuations, which drop the newline and the indentation:
    rustfmt leaves a struct whose lines do not fit unformatted."""
    lines, line = [], ''
    for word in rust_str(text)[1:-1].split(' '):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line + ' \\')
            line = word
        else:
            line = f'{line} {word}' if line else word
    lines.append(line)
    return '"' + ('\n' + ' ' * indent).join(lines) + '"'


def shorten(text, width=76):
    return text if len(text) <= width else text[:width - 3] + '...'


def int32(value, line):
    if not -2**31 <= value < 2**31:
        raise LitmusError(line, f'integer constant {value} out of range for int')
    return value
