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
# herd7, built by scripts/setup from Debian's herdtools7 source package (sid), one directory
# per version: bin/herd7 and its models (share/herdtools7/).
HERD_SOURCE_SUITE=sid
HERD_ROOT=$CACHE_DIR/herdtools7

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

# The herd7 installation of the newest version that scripts/setup built; prints nothing when
# there is none.
herd_dir() {
	local d
	for d in "$HERD_ROOT"/*/; do
		[ -x "$d/bin/herd7" ] && echo "${d%/}"
	done | sort -V | tail -n 1
}

# The first Debian archive address of the machine's own apt configuration (deb822 or
# one-line format), without the security archive: where scripts/setup looks for sources.
debian_archive_uri() {
	{
		cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
			/^$/ { if (types ~ /deb/ && suites !~ /-security/ && uri) print uri; types = suites = uri = "" }
			/^Types:/ { types = $0 } /^Suites:/ { suites = $0 } /^URIs:/ { uri = $2 }
			END { if (types ~ /deb/ && suites !~ /-security/ && uri) print uri }'
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk '$1 == "deb" { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
				if ($(i + 1) !~ /-security/) print $i }'
	} | head -n 1
}
