# SPDX-License-Identifier: GPL-2.0
"""scripts/memory-model/litmus2rust's translator of LKMM C-dialect litmus tests into Rust, one job per
module: table (atomics.tbl), lexer, syntax (the tree), parser, dialect (what the dialect's
names become), rust (code fragments), translate and thread (checks and Rust of a test and of a
thread), emit (the output files), cli (files, directories, the command line)."""
