# shellcheck shell=bash
# Shared definitions for the host scripts: where the cache lives, which toolchain to use.
# Sourced, never run. Every path a script needs is derived here, once.

PROJECT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE_DIR=${RUST_LKMM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rust-lkmm-atomics}

# The kernels the samples are built and booted against (TOOLCHAIN.md): Debian 12's
# linux-source-6.12 (an installed package) and linux-source-7.2 from trixie-backports, which
# scripts/setup fetches into the cache (the package is architecture-independent).
KERNELS="6.12 7.2"
DEFAULT_KERNEL=6.12
KERNEL_72_SUITE=trixie-backports
KERNEL_72_DIR=$CACHE_DIR/linux-source-7.2
# The LLVM of the default kernel's toolchain; 7.2 is built with clang-22, whose LLVM is the one
# rustc-web 1.96 is built on (CONFIG_RUST_INLINE_HELPERS needs them to match).
LLVM_BIN=/usr/lib/llvm-19/bin
RUSTC_BIN=/usr/bin/rustc
RUSTDOC_BIN=/usr/bin/rustdoc
BINDGEN_VERSION=0.72.1
BINDGEN_BIN=$CACHE_DIR/bindgen-$BINDGEN_VERSION/bin/bindgen
# herd7, built by scripts/setup from Debian's herdtools7 source package (sid), one directory
# per version: bin/herd7 and its models (share/herdtools7/).
HERD_SOURCE_SUITE=sid
HERD_ROOT=$CACHE_DIR/herdtools7

export PATH="$LLVM_BIN:$PATH"
export LIBCLANG_PATH=/usr/lib/llvm-19/lib

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The architectures: one descriptor each, qemu/targets/<arch> (key=value lines), which holds
# every fact about it that a script needs; no script names an architecture.
TARGETS_DIR=$PROJECT_ROOT/qemu/targets

# Every architecture that has a descriptor, space-separated.
known_archs() {
	descriptor_names "$TARGETS_DIR"
}

# The descriptors (files) of a directory, by name, space-separated.
descriptor_names() {
	local f names=""
	for f in "$1"/*; do
		[ -f "$f" ] && names="$names ${f##*/}"
	done
	echo "${names# }"
}

# The value of KEY in a key=value FILE (the last line of the key wins; empty if absent).
file_var() {
	sed -n "s/^$2=//p" "$1" | tail -n 1
}

# Fails unless ARCH has a descriptor, with a message that lists those there are.
check_arch() {
	[ -f "$TARGETS_DIR/$1" ] ||
		die "unknown architecture '$1' (known: $(known_archs); each is a file in qemu/targets/)"
}

# The value of KEY in ARCH's descriptor (empty if the key is absent).
arch_var() {
	check_arch "$1"
	file_var "$TARGETS_DIR/$1" "$2"
}

# Kernel ARCH= name of a target architecture.
kernel_arch() {
	arch_var "$1" karch
}

# The kernel version a script uses on ARCH when none is given, on which scripts/test also runs
# the mutation tests and the herd7 check: the descriptor's default_kernel= (UML: 7.2, as 6.12's
# UML has one CPU), else the default kernel where ARCH has Rust on it, otherwise the oldest that
# has (32-bit ARM: 7.2).
arch_default_kernel() {
	local kernels own
	own=$(arch_var "$1" default_kernel)
	[ -z "$own" ] || { echo "$own"; return; }
	kernels=$(arch_var "$1" kernels)
	case " $kernels " in
	*" $DEFAULT_KERNEL "*) echo "$DEFAULT_KERNEL" ;;
	*) echo "${kernels%% *}" ;;
	esac
}

# Fails unless Linux KERNEL has Rust on ARCH (the descriptor's kernels=).
check_arch_kernel() {
	check_arch "$1"
	check_kernel "$2"
	case " $(arch_var "$1" kernels) " in
	*" $2 "*) ;;
	*) die "Linux $2 has no Rust on $1 (its descriptor qemu/targets/$1 lists: $(arch_var "$1" kernels))" ;;
	esac
}

# The static busybox of ARCH's guests (the descriptor's busybox=): the host's, or Debian's
# busybox-static of another architecture that scripts/setup fetches into the cache.
busybox_bin() {
	local spec
	spec=$(arch_var "$1" busybox)
	case $spec in
	host) echo /bin/busybox ;;
	"debian "*) set -- $spec; echo "$CACHE_DIR/busybox-$2/bin/busybox" ;;
	*) die "qemu/targets/$1: busybox=$spec is neither 'host' nor 'debian <arch> <suite>'" ;;
	esac
}

# The kernel version of a KERNELS name, or an error for another name.
check_kernel() {
	case " $KERNELS " in
	*" $1 "*) ;;
	*) die "unknown kernel '$1' (expected one of: $KERNELS)" ;;
	esac
}

# The source tarball of a kernel.
kernel_tarball() {
	case $1 in
	6.12) echo /usr/src/linux-source-6.12.tar.xz ;;
	7.2) echo "$KERNEL_72_DIR/usr/src/linux-source-7.2.tar.xz" ;;
	*) check_kernel "$1" ;;
	esac
}

# The Debian version of a kernel's source package (part of every cache key).
kernel_package_version() {
	case $1 in
	6.12) dpkg-query -W -f='${Version}' linux-source-6.12 ;;
	7.2) cat "$KERNEL_72_DIR/VERSION" ;;
	*) check_kernel "$1" ;;
	esac
}

# The LLVM binaries a kernel is built with.
kernel_llvm_bin() {
	case $1 in
	6.12) echo /usr/lib/llvm-19/bin ;;
	7.2) echo /usr/lib/llvm-22/bin ;;
	*) check_kernel "$1" ;;
	esac
}

# The kernel (a KERNELS name) a built tree is: from the VERSION and PATCHLEVEL of its Makefile.
kdir_kernel() {
	local src=$1 v
	[ -f "$src/source/Makefile" ] && src=$src/source
	v=$(awk '$1 == "VERSION" { v = $3 } $1 == "PATCHLEVEL" { p = $3 } END { print v "." p }' \
		"$src/Makefile" 2>/dev/null)
	case " $KERNELS " in
	*" $v "*) echo "$v" ;;
	*) die "$1 is Linux '$v', not one of the kernels this project builds ($KERNELS)" ;;
	esac
}

# make variables that select the verified toolchain for ARCH and a kernel (default: the
# default kernel's); used for kernels and modules alike.
kmake_vars_for() {
	echo "LLVM=$(kernel_llvm_bin "${2:-$DEFAULT_KERNEL}")/ ARCH=$(kernel_arch "$1" ) RUSTC=$RUSTC_BIN" \
		"RUSTDOC=$RUSTDOC_BIN BINDGEN=$BINDGEN_BIN"
}

# The same for a built tree KDIR (default: the default kernel), whose version it reads.
kmake_vars() {
	if [ -n "${2:-}" ]; then
		kmake_vars_for "$1" "$(kdir_kernel "$2")"
	else
		kmake_vars_for "$1"
	fi
}

# Fails unless every setting of the config fragments survived in CONFIG (after olddefconfig):
# one that did not means a dependency is missing, and the kernel would silently lack it. Of
# a symbol that several fragments set, the last setting counts (as merge_config.sh merges).
check_fragments() {
	local config=$1 bad
	shift
	bad=$(grep -h '^CONFIG_' "$@" |
		awk -F= '{ if (!($1 in v)) order[n++] = $1; v[$1] = $0 }
			END { for (i = 0; i < n; i++) print v[order[i]] }' |
		while read -r line; do
			case $line in
			*=n) grep -q "^${line%=n}=" "$config" && echo "$line" ;;
			*) grep -qx "$line" "$config" || echo "$line" ;;
			esac
		done || true)
	[ -z "$bad" ] || die "kernel config lost these fragment settings (unmet dependencies?): $bad"
}

# The kernel's KUnit tools (kunit.py) for a kernel build directory: in its source tree, which
# an O= build links as `source`. Prints nothing when the tree has none.
kunit_dir() {
	for d in "$1/source/tools/testing/kunit" "$1/tools/testing/kunit"; do
		[ -f "$d/kunit.py" ] && { echo "$d"; return; }
	done
}

# The source tree of a kernel (default: the default kernel) that scripts/kernel/build-kernel unpacks
# into the cache; prints nothing before it has.
kernel_source_dir() {
	local d
	d=$CACHE_DIR/src/linux-$(kernel_package_version "${1:-$DEFAULT_KERNEL}" 2>/dev/null)
	[ -f "$d/.unpacked" ] && echo "$d"
	true
}

# The kernel's litmus tests (tools/memory-model/litmus-tests) in the default kernel's source
# tree; prints nothing before scripts/kernel/build-kernel has unpacked it.
kernel_litmus_dir() {
	local d
	d=$(kernel_source_dir)
	[ -n "$d" ] && [ -d "$d/tools/memory-model/litmus-tests" ] && echo "$d/tools/memory-model/litmus-tests"
	true
}

# The herd7 installation of the newest version that scripts/setup built; prints nothing when
# there is none.
herd_dir() {
	local d
	for d in "$HERD_ROOT"/*/; do
		[ -x "$d/bin/herd7" ] && echo "${d%/}"
	done | sort -V | tail -n 1
}

# Where scripts/setup unpacks ARCH's QEMU when its descriptor takes it from a Debian suite
# (qemu_debian=<suite> <packages...>); empty when QEMU is the machine's (packages=).
qemu_root() {
	local spec
	spec=$(arch_var "$1" qemu_debian)
	[ -n "$spec" ] || return 0
	echo "$CACHE_DIR/qemu-$1-${spec%% *}"
}

# ARCH's QEMU binary: the unpacked one (qemu_root), or the machine's.
qemu_bin() {
	local root
	root=$(qemu_root "$1")
	echo "${root:+$root/usr/bin/}$(arch_var "$1" qemu)"
}

# Downloads the .deb of PACKAGE from SUITE of the machine's own Debian archive into DIR, for
# Debian architecture DEBARCH ('' for the machine's), with a private apt configuration (its
# lists in DIR/lists): neither the machine's apt state nor dpkg's architectures change. Prints
# the .deb's path.
apt_fetch_deb() {
	local suite=$1 debarch=$2 package=$3 dir=$4 uri o
	uri=$(debian_archive_uri)
	[ -n "$uri" ] || die "no Debian archive in /etc/apt/sources.list*: add one to fetch $package"
	say "fetching $package${debarch:+:$debarch} from $uri $suite"
	mkdir -p "$dir/lists/partial"
	echo "deb $uri $suite main" > "$dir/sources.list"
	o="-oDir::Etc::SourceList=$dir/sources.list -oDir::Etc::SourceParts=/dev/null"
	o="$o -oDir::State::Lists=$dir/lists -oAPT::Get::List-Cleanup=0"
	[ -z "$debarch" ] || o="$o -oAPT::Architecture=$debarch -oAPT::Architectures=$debarch"
	# shellcheck disable=SC2086
	apt-get $o update -q >&2 || die "apt-get update for $suite failed"
	# shellcheck disable=SC2086
	(cd "$dir" && apt-get $o download "$package" >&2) || die "apt-get download $package failed"
	ls "$dir/${package}_"*.deb
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

# What a target's or result's name adds for a kernel: nothing for the default kernel, else
# "-<version>" (x86_64-max, x86_64-max-7.2).
kernel_suffix() {
	[ "$1" = "$DEFAULT_KERNEL" ] || echo "-$1"
}

# parse_kernel_options USAGE [--fallback-ok|--toolchain-ok] ARGS...: the options of the scripts
# that build a kernel (build-kernel, graft-kernel): sets kver (--kernel, default empty: the
# caller takes arch_default_kernel), variants (--config NAME, repeatable), with --fallback-ok fallback
# (--fallback), with --toolchain-ok toolchain (--toolchain DISTRO); anything else is an error
# that prints USAGE.
parse_kernel_options() {
	local usage=$1 fallback_ok="" toolchain_ok=""
	shift
	[ "${1:-}" != --fallback-ok ] || { fallback_ok=1; shift; }
	[ "${1:-}" != --toolchain-ok ] || { toolchain_ok=1; shift; }
	kver="" variants=() fallback="" toolchain=""
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel) [ $# -ge 2 ] || die "$usage"; kver=$2; shift 2 ;;
		--config) [ $# -ge 2 ] || die "$usage"; variants+=("$2"); shift 2 ;;
		--fallback) [ -n "$fallback_ok" ] || die "$usage"; fallback=1; shift ;;
		--toolchain) [ -n "$toolchain_ok" ] && [ $# -ge 2 ] || die "$usage"; toolchain=$2; shift 2 ;;
		*) die "$usage" ;;
		esac
	done
}

# Exports LIBCLANG_PATH for a kernel version: bindgen loads libclang at run time, and it must be
# that of the kernel's clang.
use_kernel_libclang() {
	local llvm
	llvm=$(kernel_llvm_bin "$1")
	export LIBCLANG_PATH=${llvm%/bin}/lib
}

# make_logged WHAT LOG MAKE-ARGS...: runs make with its output in LOG; on failure prints the
# log's last 40 lines and fails saying WHAT failed; says how long it took.
make_logged() {
	local what=$1 log=$2
	shift 2
	run_logged "$what" "$log" make "$@"
}

# run_logged WHAT LOG COMMAND...: make_logged for any command (make in a root: in_root).
run_logged() {
	local what=$1 log=$2 start
	shift 2
	start=$(date +%s)
	if ! "$@" > "$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "$what failed; full log in $log"
	fi
	say "$what took $(( $(date +%s) - start )) s"
}

# prune_older_builds PREFIX KEEP: removes the cache directories PREFIX-<key> other than KEEP
# (earlier keys of the same build are never used again), leaving PREFIX-<variant>-<key> alone.
prune_older_builds() {
	local old
	for old in "$1"-*; do
		case ${old#"$1"-} in
		*-*) ;; # another variant's name
		*) [ "$old" = "$2" ] || rm -rf "$old" ;;
		esac
	done
}

# counts_of LINE: "P F S" of a result line 'NAME: P passed, F failed[, S skipped]' (0 for what
# it lacks).
counts_of() {
	local p f s
	p=$(echo "$1" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$1" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	s=$(echo "$1" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
	echo "${p:-0} ${f:-0} ${s:-0}"
}

# mutant_modules TABLE...: the module of each line of a mutants table (tests/mutants*), one per
# line: <module>_mutant_<mutant> (Kbuild.include builds them, boot-test loads them).
mutant_modules() {
	sed -n 's/^\([a-z0-9_]*\) \([a-z0-9_]*\) .*/\1_mutant_\2/p' "$@" | sort -u
}

# The built .ko of a module of the out-of-tree build (the top-level Kbuild's directories), or
# samples/<module>.ko if there is none yet.
module_ko() {
	local d
	for d in tests/kernel bench/kernel samples; do
		[ ! -f "$PROJECT_ROOT/$d/$1.ko" ] || { echo "$PROJECT_ROOT/$d/$1.ko"; return; }
	done
	echo "$PROJECT_ROOT/samples/$1.ko"
}

# The distributions' own kernels: one descriptor each, qemu/distros/<name> (key=value lines),
# read by scripts/kernel/distro-kernel.
DISTROS_DIR=$PROJECT_ROOT/qemu/distros

known_distros() {
	descriptor_names "$DISTROS_DIR"
}

# The value of KEY in DISTRO's descriptor (empty if the key is absent).
distro_var() {
	[ -f "$DISTROS_DIR/$1" ] ||
		die "unknown distribution kernel '$1' (known: $(known_distros); each is a file in qemu/distros/)"
	file_var "$DISTROS_DIR/$1" "$2"
}

# in_root ROOT DIR... -- COMMAND...: runs COMMAND chrooted in ROOT with each DIR bind-mounted at
# the same path inside, and /proc and /dev, in a mount namespace of its own (nothing stays
# mounted afterwards, also after a failure).
in_root() {
	local root=$1 binds=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do binds+=("$1"); shift; done
	[ $# -gt 1 ] || die "in_root: no command"
	shift
	unshare --mount --propagation private bash -c '
		set -e; root=$1 n=$2; shift 2
		for ((i = 0; i < n; i++)); do mkdir -p "$root$1"; mount --bind "$1" "$root$1"; shift; done
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"
	' _ "$root" "${#binds[@]}" "${binds[@]}" "$@"
}

# The value of KEY of a distribution kernel's tree (scripts/kernel/distro-kernel writes
# KDIR/.distro-kernel); empty for any other tree.
distro_tree_var() {
	[ -f "$1/.distro-kernel" ] || return 0
	file_var "$1/.distro-kernel" "$2"
}

# What results of kernel tree KDIR are named by besides the architecture: '-<distro>' for a
# distribution's kernel, else its version unless it is the default one (kernel_suffix).
kdir_suffix() {
	local distro
	distro=$(distro_tree_var "$1" distro)
	if [ -n "$distro" ]; then
		echo "-$distro"
	elif [ -n "$(distro_tree_var "$1" toolchain)" ]; then
		# Our kernel built with a distribution's toolchain (scripts/kernel/build-kernel
		# --toolchain): named by its rustc, x86_64-max-rustc-1.85.1 (6.12, the default kernel).
		echo "$(kernel_suffix "$(kdir_kernel "$1")")-rustc-$(sed -n 's/^CONFIG_RUSTC_VERSION_TEXT="rustc \([^ ]*\).*/\1/p' "$1/.config")"
	else
		# A variant's name too (build-kernel --config NAME: .variants), but the sanitizers',
		# which scripts/boot/boot-test adds itself.
		echo "$(kernel_suffix "$(kdir_kernel "$1")")$(grep -vx 'kasan\|kcsan\|' "$1/.variants" 2>/dev/null |
			sed 's/^/-/' | tr -d '\n')"
	fi
}

# stop_after_plan PID LOG: waits for the guest PID (its `timeout` process) to exit, and stops
# it if it has not exited PLAN_EXIT_GRACE seconds after qemu/init logged its plan done: every
# result is in LOG by then. (Session 15: s390x's `reboot -f` under load left QEMU idle for 8
# minutes, where the guest takes a few seconds alone.)
stop_after_plan() {
	local pid=$1 log=$2 done_at=""
	while kill -0 "$pid" 2>/dev/null; do
		if [ -z "$done_at" ] && grep -q '# boot-test: plan done' "$log" 2>/dev/null; then
			done_at=$(date +%s)
		fi
		if [ -n "$done_at" ] && [ $(( $(date +%s) - done_at )) -ge "${PLAN_EXIT_GRACE:-60}" ]; then
			say "the guest has not exited ${PLAN_EXIT_GRACE:-60} s after its plan: stopping it"
			kill "$pid" 2>/dev/null || true   # timeout(1) passes the signal on
			break
		fi
		sleep 2
	done
}
