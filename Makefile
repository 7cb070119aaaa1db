# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of the modules (Kbuild: samples/, tests/kernel/, bench/kernel/): `make`
# builds them against $(KDIR) for $(ARCH) with the toolchain the kernel was built with. Without KDIR, the cached kernel that
# scripts/kernel/build-kernel makes is used (built first if missing).
#
#   make [ARCH=<a file of qemu/targets/>] [KDIR=/path/to/built/kernel]
#   make test        # everything: host checks, boots of every target, mutation tests
#   make boot        # the main job: build and boot every target, print the results table
#   make generate    # regenerate the seven generated files from the tables of scripts/atomic/
#   make check-generated  # fail if one is stale
#   make litmus      # every litmus test >= 10^6 times per target, weakenings, tables
#   make herd        # the herd7 check of every litmus test on both architectures, tables
#   make bench       # benchmarks: results/bench.md and results/bench.svg
#   make rust-analyzer  # rust-project.json: the kernel's crates and every crate here
#
# LITMUS=DIR|FILES chooses the litmus tests the runner (tests/kernel/rust_atomic_litmus.rs) runs;
# default: the kernel's tools/memory-model/litmus-tests and tests/litmus/*.litmus.

ARCH ?= x86_64
KDIR ?= $(shell scripts/kernel/build-kernel $(ARCH))

# CLIPPY=1 lints the Rust code with the clippy of the kernel's rustc (Debian's rust-web-clippy).
CLIPPY ?=
# make in KDIR with the toolchain it was built with (scripts/kernel/kmake: LLVM and the verified
# rustc for the kernels built here, a distribution's own in its root for its kernel).
KMAKE := scripts/kernel/kmake $(ARCH) $(KDIR) CLIPPY=$(CLIPPY) CLIPPY_DRIVER=/usr/bin/clippy-driver

# The kernel's litmus tests, and ours (tests/litmus/: atomic_t RMWs, xchg/cmpxchg locks, ...).
LITMUS_KERNEL := $(firstword $(wildcard $(KDIR)/source/tools/memory-model/litmus-tests \
	$(KDIR)/tools/memory-model/litmus-tests))
LITMUS ?= $(if $(LITMUS_KERNEL),$(LITMUS_KERNEL) $(wildcard $(CURDIR)/tests/litmus/*.litmus))

modules: tests/kernel/litmus/generated.rs
	@scripts/kernel/check-kdir $(ARCH) $(KDIR)
	@+$(KMAKE) M=$(CURDIR) modules
	@scripts/kernel/check-modules $(KDIR)

# The translated litmus tests; rewritten only when the translation changes.
tests/kernel/litmus/generated.rs: FORCE
	@[ -n "$(LITMUS)" ] || { echo "error: no litmus tests: $(KDIR) has no" \
		"tools/memory-model/litmus-tests; give LITMUS=DIR or files" >&2; exit 1; }
	@scripts/memory-model/litmus2rust -o $@.tmp $(LITMUS)
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

clean:
	@+$(KMAKE) M=$(CURDIR) clean

test:
	scripts/test

# Regenerate the seven generated files (scripts/atomic/gen-atomics says which) from
# scripts/atomic/atomics.tbl.
generate:
	scripts/atomic/gen-atomics

# Fails if a generated file is not what the tables give (the host tests run it too).
check-generated:
	scripts/atomic/gen-atomics --check

boot:
	scripts/run-all

litmus:
	scripts/memory-model/litmus-run

herd:
	scripts/memory-model/herd-check --table $(LITMUS)

bench:
	scripts/perf/bench

rust-analyzer:
	scripts/host/rust-analyzer --arch $(ARCH) --kdir $(KDIR)

.PHONY: modules clean test boot generate check-generated litmus herd bench rust-analyzer FORCE
