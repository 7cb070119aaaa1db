# shellcheck shell=bash
# Shared definitions for the host scripts: where the cache lives, which toolchain to use.
# Sourced, never run. Every path a script needs is derived here, once.

PROJECT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE_DIR=${RUST_LKMM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rust-lkmm-atomics}

# Debian's kernel source package and the toolchain verified to build it (TOOLCHAIN.md).
KERNEL_SOURCE_PKG=linux-source-6.12
KERNEL_TARBALL=/usr/src/linux-source-6.12.tar.xz
LLVM_BIN=/usr/lib/llvm-19/bin
RUSTC_BIN=/usr/bin/rustc
RUSTDOC_BIN=/usr/bin/rustdoc
BINDGEN_VERSION=0.72.1
BINDGEN_BIN=$CACHE_DIR/bindgen-$BINDGEN_VERSION/bin/bindgen
BUSYBOX_ARM64=$CACHE_DIR/busybox-arm64/bin/busybox
BUSYBOX_X86_64=/bin/busybox

export PATH="$LLVM_BIN:$PATH"
export LIBCLANG_PATH=/usr/lib/llvm-19/lib

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Kernel ARCH= name and QEMU target data file for a target architecture.
kernel_arch() {
	case $1 in
	x86_64) echo x86_64 ;;
	arm64) echo arm64 ;;
	*) die "unknown architecture '$1' (expected x86_64 or arm64)" ;;
	esac
}

# make variables that select the verified toolchain; used for kernels and modules alike.
kmake_vars() {
	echo "LLVM=1 ARCH=$(kernel_arch "$1") RUSTC=$RUSTC_BIN RUSTDOC=$RUSTDOC_BIN BINDGEN=$BINDGEN_BIN"
}

# The kernel's KUnit tools (kunit.py) for a kernel build directory: in its source tree, which
# an O= build links as `source`. Prints nothing when the tree has none.
kunit_dir() {
	for d in "$1/source/tools/testing/kunit" "$1/tools/testing/kunit"; do
		[ -f "$d/kunit.py" ] && { echo "$d"; return; }
	done
}

# The kernel's litmus tests (tools/memory-model/litmus-tests) in the source tree that
# scripts/build-kernel unpacks into the cache; prints nothing before it has.
kernel_litmus_dir() {
	local d
	for d in "$CACHE_DIR"/src/linux-*/tools/memory-model/litmus-tests; do
		[ -d "$d" ] && echo "$d"
	done | tail -n 1
}
