# SPDX-License-Identifier: GPL-2.0
"""Formats generated Rust with rustfmt as the kernel configures it, so that every generated
file passes `rustfmt --check`."""

import subprocess
import sys


def rustfmt(text):
    try:
        proc = subprocess.run(['rustfmt', '--edition', '2021', '--config', 'newline_style=Unix'],
                              input=text, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        sys.exit('error: rustfmt not found: install it with rustup (rustup component add rustfmt)')
    if proc.returncode != 0:
        sys.exit(f'error: rustfmt rejected the generated code:\n{proc.stderr}')
    return proc.stdout
