#!/bin/sh
# A new user's way to the README's commands: "sh tools/setup.sh install"
# (after build, "profview: command not found" met them, and "man -l" on
# a system without man-db).  The README names the step before its
# commands, setup.sh has it and installs man-db, and what make install
# puts in place (here under a DESTDIR) runs the README's first commands
# by name, with profview's manual page beside it.
: "${top_srcdir:=.}" "${top_builddir:=.}"
src=$(cd "$top_srcdir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvinstall.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
. "$top_srcdir/tests/tap.sh"
plan 5

check "README: setup.sh install comes before the commands" sh -c \
    'sed -n "/^## Using it/,/^    profview /p" "$1" | grep -q "sh tools/setup.sh install"' \
    sh "$src/README.md"
check "setup.sh has install, and man-db among its packages" sh -c \
    'grep -q "^install) build" "$1" && grep -q "man-db" "$1"' sh \
    "$src/tools/setup.sh"

make -s -C "$top_builddir" install DESTDIR="$tmp/d" >"$tmp/log" 2>&1 ||
    sed 's/^/# /' "$tmp/log"
bin=$(dirname "$(find "$tmp/d" -path '*/bin/profview' -type f | head -1)")
have_all() {
	for t in profview pvheap pvtrace pvprf pvprfd; do
		test -x "$bin/$t" || return 1
	done
}
check "make install puts the five tools in one bin" have_all
check "and profview.1 in a man1 folder" sh -c \
    'find "$1" -path "*/man1/profview.1" | grep -q .' sh "$tmp/d"
# The README's first commands by name, from the top of the tree.
readme_runs() {
	(cd "$src" && PATH="$bin:$PATH" &&
	    profview --db "$tmp/s.db" ingest examples/W3.PRF >/dev/null &&
	    profview --db "$tmp/s.db" sessions | grep -q W3)
}
check "profview by name from there: ingest, sessions" readme_runs
