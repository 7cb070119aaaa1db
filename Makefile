# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of the samples: `make` builds them against $(KDIR) for $(ARCH) with the
# toolchain the kernel was built with. Without KDIR, the cached kernel that
# scripts/build-kernel makes is used (built first if missing).
#
#   make [ARCH=x86_64|arm64] [KDIR=/path/to/built/kernel]
#   make test        # everything: host checks, boots of every target, mutation tests
#   make boot        # the main job: build and boot every target, print the results table
#   make generate    # regenerate the typed API from scripts/atomic/atomics.tbl
#   make bench       # benchmarks: results/bench.md and results/bench.svg

ARCH ?= x86_64
KDIR ?= $(shell scripts/build-kernel $(ARCH))

# CLIPPY=1 lints the Rust code with the clippy of the kernel's rustc (Debian's rust-web-clippy).
CLIPPY ?=
TOOLCHAIN := LLVM=1 RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc \
	CLIPPY=$(CLIPPY) CLIPPY_DRIVER=/usr/bin/clippy-driver \
	BINDGEN=$(shell bash -c '. scripts/lib.sh && echo $$BINDGEN_BIN')

modules:
	@scripts/check-kdir $(ARCH) $(KDIR)
	$(MAKE) -C $(KDIR) M=$(CURDIR) ARCH=$(ARCH) $(TOOLCHAIN) PATH=/usr/lib/llvm-19/bin:$(PATH) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) ARCH=$(ARCH) $(TOOLCHAIN) clean

test:
	scripts/test

# Regenerate rust/atomic/generated.rs from scripts/atomic/atomics.tbl.
generate:
	scripts/gen-atomics

boot:
	scripts/run-all

bench:
	scripts/bench

.PHONY: modules clean test boot generate bench
