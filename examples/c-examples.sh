#!/bin/sh
# Remake the C examples: wordfreq.heap, wordfreq.mon and wordfreq.prfd,
# made by the project's own capture tools (pvheap, pvtrace, pvprf record)
# from one run each of examples/wordfreq, which the build makes with -g
# (examples/build/wordfreq, copied to OUTDIR to be run from there).
#	make examples-c		or
#	top_builddir=BUILD sh examples/c-examples.sh [OUTDIR [PROGRAM]]
# OUTDIR (examples/ of the source tree by default) takes the files, made
# from PROGRAM (by default the build's, put in OUTDIR as wordfreq); the
# tests make them in a folder of their own, from a copy of their own.
# Each file names the program by its absolute path: profview reads its
# symbols and DWARF from there at ingest, else from a file of its name
# beside the profile with its build-id (the shipped examples/wordfreq),
# and does without otherwise.
: "${top_srcdir:=$(dirname "$0")/..}" "${top_builddir:=.}"
b=$(cd "$top_builddir" && pwd) || exit 1
out=$(cd "${1:-$top_srcdir/examples}" && pwd) || exit 1
prog=${2:-}
if [ -z "$prog" ]; then
	prog=$out/wordfreq
	cp "$b/examples/build/wordfreq" "$prog" && chmod 755 "$prog" ||
	    exit 1
fi
for f in "$prog" "$b/capture/pvheap/pvheap" "$b/capture/pvtrace/pvtrace" \
    "$b/capture/pvprf/pvprf" "$b/capture/pvprf/pvprfd"; do
	if [ ! -x "$f" ]; then
		echo "c-examples.sh: $f: not built (make examples-c)" >&2
		exit 1
	fi
done

# pvprf record's daemon is one of our own, in a runtime folder of our
# own, ended by the pid in its lock: the user's daemon (and the user's
# profiles in it) are left alone.
run=$(mktemp -d "${TMPDIR:-/tmp}/pvexamples.XXXXXX") || exit 1
cleanup() {
	if [ -s "$run/pvprfd.lock" ]; then
		kill "$(cat "$run/pvprfd.lock")" 2>/dev/null
	fi
	rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
chmod 700 "$run"

# The plan pvtrace writes (wordfreq.pdt) goes to the scratch folder:
# only the profile is an example.
"$b/capture/pvheap/pvheap" -q -o "$out/wordfreq.heap" -- "$prog" \
    > /dev/null &&
    (cd "$run" && "$b/capture/pvtrace/pvtrace" -o "$out/wordfreq.mon" \
    -- "$prog" > /dev/null) &&
    XDG_RUNTIME_DIR=$run PVPRFD=$b/capture/pvprf/pvprfd \
    "$b/capture/pvprf/pvprf" record -o "$out/wordfreq.prfd" -- "$prog" \
    > /dev/null || exit 1
# Made 0600, as every output of the tools is; these are for everyone.
chmod 644 "$out/wordfreq.heap" "$out/wordfreq.mon" "$out/wordfreq.prfd"
