#!/bin/sh
# Build the fuzz harnesses with clang -fsanitize=fuzzer,address,undefined
# and run each for SECONDS (default 60) on a scratch copy of its corpus.
# With FUZZ_MERGE=1, new inputs that add coverage are merged back into
# tests/fuzz/corpus/ (keep each under 200 files).  Crashes are left as
# crash-* files in $FUZZ_OUT and fail the script.
#
# usage: tests/fuzz/run.sh [SECONDS] [prf|map|ovd|ingest|report|cell|listing|heap|mon|pvprf|prfd ...]
set -eu
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-prf map ovd ingest report cell listing heap mon pvprf prfd}
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${FUZZ_OUT:-$top/tests/fuzz/build}
cc=${CLANG:-clang}
mkdir -p "$out"

# The core library's sources, instrumented like the harness.
core=$(cd "$top" && ls xmalloc.c kind.c vis.c store/*.c ingest/*.c \
    analyze/*.c report/*.c tests/fuzz/files.c tests/fuzz/check.c)
flags="-g -O1 -std=gnu11 -D_GNU_SOURCE -I$top -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
sqlite=$(pkg-config --cflags --libs sqlite3 capstone libelf)

status=0
for t in $targets; do
	bin="$out/fuzz_$t"
	# shellcheck disable=SC2086
	(cd "$top" && $cc $flags -o "$bin" tests/fuzz/fuzz_$t.c $core $sqlite -lm)
	work="$out/corpus_$t"
	rm -rf "$work"
	mkdir -p "$work"
	cp "$top/tests/fuzz/corpus/$t/"* "$work/" 2>/dev/null || true
	# -close_fd_mask=2: readers' warnings on stderr would slow it down.
	(cd "$out" && "$bin" -max_total_time="$secs" -max_len=4096 \
	    -close_fd_mask=2 -print_final_stats=1 "$work") || status=1
	# Only inputs that add coverage go back, and only when asked.
	if [ "${FUZZ_MERGE:-0}" = 1 ]; then
		"$bin" -merge=1 -close_fd_mask=2 "$top/tests/fuzz/corpus/$t" \
		    "$work" >/dev/null 2>&1 || status=1
	fi
done
exit $status
