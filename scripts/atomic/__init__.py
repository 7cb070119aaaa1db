# SPDX-License-Identifier: GPL-2.0
"""The generator of kernel::sync::atomic (scripts/atomic/gen-atomics), in the shape of the
kernel's scripts/atomic/: the tables (atomics.tbl, types.tbl, orderings.tbl; tables.py reads
them, variants.py says which methods a line gives), one template per derived operation and per
doc comment (templates/, found by templates.py as the kernel's find_template() finds them), and
one module per output (outputs.py lists them)."""
