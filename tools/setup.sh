#!/bin/sh
# Install what profview needs (Debian; as root, or nothing may be missing),
# build it, and then open the demo ("demo") or run every test ("check").
# Idempotent: installed packages are not touched, the package lists are
# updated only when something is missing, a configured tree is reused.
#
#	tools/setup.sh deps		install the packages only
#	tools/setup.sh build [ARGS]	and configure (with ARGS) and build
#	tools/setup.sh install		and install (make install; says where)
#	tools/setup.sh demo		and browse the examples (examples/demo.sh)
#	tools/setup.sh check		and run tools/check.sh (what CI runs)
set -eu
cd "$(dirname "$0")/.."

# clang and its runtime (libFuzzer, sanitizers) are for tests/fuzz; the
# runtime's package carries clang's major version.  capstone decodes DOS
# programs' instructions (16-bit x86) for the flat profile's split.
# libunwind unwinds pvheap's allocation stacks; valgrind is the heap
# tests' oracle and heaptrack bench/heap's peer.  capstone also decodes
# x86-64 for pvtrace's planner, which reads ELF with libelf; pvtrace's
# tests check call counts against valgrind's callgrind and bench/trace
# measures uftrace beside it.  libdw reads heap snapshots' modules'
# DWARF (block types, allocation file:line); bench/heap times ingest
# with GNU time (CPU seconds beside wall).  perf (linux-perf) is pvprf's
# oracle in tests/prfd and its peer in bench/prfd.  strace slows
# profview's polls for tools/slowtui.sh (screen tests on a slow machine).
# man-db: the README says "man profview", which a minimal system lacks.
# build-essential's g++ brings libstdc++, whose __cxa_demangle profview
# links to show C++ names demangled (libiberty's would be a package more).
# The pprof export encodes with protobuf-c's runtime and gzips with zlib;
# protoc-c (protobuf-c-compiler) checks the C kept in the tree against
# report/pprof.proto, and golang-go's "go tool pprof" reads the exports
# in tests/e2e/pprof.sh (some 465 MB installed: the largest test tool).
# liblzma-dev: Debian's static xz library, linked into a program
# pvtrace traces (tests/e2e/trace-top.sh), as libsqlite3-dev's is.
PKGS="build-essential autoconf automake pkg-config libncurses-dev
libtermkey-dev libsqlite3-dev libcapstone-dev libunwind-dev libelf-dev libdw-dev sqlite3
check nasm dosbox tmux clang uftrace
libclang-rt-${CLANG_MAJOR:-14}-dev valgrind heaptrack python3 groff-base time
linux-perf strace man-db libprotobuf-c-dev zlib1g-dev protobuf-c-compiler
liblzma-dev
golang-go"

say() { echo "setup: $*" >&2; }
die() { say "$*"; exit 1; }

missing_pkgs() {
	for p in $PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		    grep -q 'install ok installed' || printf ' %s' "$p"
	done
}

install_deps() {
	command -v dpkg-query >/dev/null 2>&1 ||
	    die "not a Debian system (no dpkg-query): install by hand:" $PKGS
	missing=$(missing_pkgs)
	if [ -z "$missing" ]; then
		say "packages: all installed"
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		die "need root to install:$missing" \
		    "(run: sudo apt-get install$missing)"
	fi
	say "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || die "apt-get update failed"
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing </dev/null ||
	    die "apt-get install failed for:$missing"
	missing=$(missing_pkgs)
	[ -z "$missing" ] || die "still not installed:$missing"
}

build() {
	if [ ! -x configure ]; then
		say "autoreconf"
		autoreconf -fi || die "autoreconf failed"
	fi
	if [ ! -f Makefile ]; then
		say "configure $*"
		./configure "$@" || die "configure failed (see config.log)"
	fi
	say "make"
	make -j2 || die "build failed"
}

what=${1:-check}
[ $# -gt 0 ] && shift
case "$what" in
deps|build|install|demo|check) ;;
*)	echo "usage: tools/setup.sh [deps|build [CONFIGURE-ARGS]|install|demo|check]" >&2
	exit 2 ;;
esac
install_deps
case "$what" in
build)	build "$@" ;;
install) build
	make install >/dev/null || die "make install failed"
	# The Makefile's own words, ${prefix} and ${exec_prefix} put in.
	prefix=$(sed -n 's/^prefix = //p' Makefile)
	eprefix=$(sed -n 's/^exec_prefix = //p' Makefile |
	    sed "s|\${prefix}|$prefix|")
	bindir=$(sed -n 's/^bindir = //p' Makefile |
	    sed "s|\${exec_prefix}|$eprefix|")
	say "installed profview pvheap pvtrace pvprf pvprfd in $bindir"
	say "and their manual pages: man profview, man pvheap, ..."
	case ":$PATH:" in
	*":$bindir:"*) ;;
	*)	say "$bindir is not on your PATH: add it" ;;
	esac ;;
demo)	build
	# A store of its own, so the demo leaves the user's store alone:
	# every example ingested, then the sessions list.
	exec env PROFVIEW=./profview sh examples/demo.sh ;;
check)	# Warnings fail the plain build too, as in the sanitizer build.
	build --enable-werror
	exec sh tools/check.sh ;;
esac
