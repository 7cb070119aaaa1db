# SPDX-License-Identifier: GPL-2.0
"""The Python modules the host scripts share: reading machine code (objdump.py), its ordering
signature (ordering.py), the weakening mutants (mutants.py), and herd7 (herd.py)."""
