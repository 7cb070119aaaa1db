# SPDX-License-Identifier: GPL-2.0
"""The Python modules the host scripts share: reading machine code (objdump.py), its ordering
signature (ordering.py), the weakening mutants (mutants.py), herd7 (herd.py), and whether a
mutation-test boot gave a weakening a fair chance to show (evidence.py)."""
