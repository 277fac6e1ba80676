#!/bin/sh
# Build the fuzz harnesses with clang -fsanitize=fuzzer,address,undefined
# and run each for SECONDS (default 60) on a scratch copy of its corpus.
# With FUZZ_MERGE=1, new inputs that add coverage are merged back into
# tests/fuzz/corpus/ (keep each under 200 files).  Crashes are left as
# crash-* files in $FUZZ_OUT and fail the script.  SECONDS "build" only
# builds (compile and link) every harness, one TAP point each: make
# check does that (tests/fuzz/build.sh), so a harness that no longer
# links fails the suite rather than the next person who fuzzes.
#
# The core's sources and libraries come from the Makefile ("make fuzz"
# sets FUZZ_CORE, FUZZ_CPPFLAGS and FUZZ_LIBS from libprofview.a's own
# lists), so the harnesses link what the library links and cannot drift.
#
# usage: make fuzz [FUZZ_SECONDS=N]
#        tests/fuzz/run.sh [SECONDS|build] [NAME ...]   (tests/fuzz/fuzz_NAME.c)
set -eu
secs=${1:-60}
[ $# -gt 0 ] && shift
top=$(cd "$(dirname "$0")/../.." && pwd)
# Every harness by default: a kind's is tests/fuzz/fuzz_KIND.c, found here
# rather than listed, so a new kind's harness needs no line in this file.
targets=${*:-$(cd "$top/tests/fuzz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')}
out=${FUZZ_OUT:-$top/tests/fuzz/build}
cc=${CLANG:-clang}
if [ -z "${FUZZ_CORE:-}" ] || [ -z "${FUZZ_LIBS:-}" ]; then
	echo "fuzz: FUZZ_CORE and FUZZ_LIBS unset: run it as make fuzz" >&2
	exit 2
fi
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "fuzz: no $cc (tools/setup.sh deps installs it)" >&2
	exit 2
fi
mkdir -p "$out/core"

# The core library's sources, instrumented like the harness, compiled
# once into an archive every harness links.
flags="-g -O1 -std=gnu11 -I$top ${FUZZ_CPPFLAGS:-} -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
objs= pids= bad=0 i=0
for src in $FUZZ_CORE tests/fuzz/files.c tests/fuzz/check.c; do
	o="$out/core/$(echo "$src" | tr / _).o"
	objs="$objs $o"
	# shellcheck disable=SC2086
	(cd "$top" && $cc $flags -c -o "$o" "$src") &
	pids="$pids $!"
	i=$((i + 1))
	if [ $((i % ${FUZZ_JOBS:-2})) -eq 0 ]; then
		for p in $pids; do wait "$p" || bad=1; done
		pids=
	fi
done
for p in $pids; do wait "$p" || bad=1; done
if [ $bad != 0 ]; then
	echo "fuzz: the core did not compile" >&2
	[ "$secs" != build ] || echo "Bail out! the core did not compile"
	exit 1
fi
rm -f "$out/core.a"
# shellcheck disable=SC2086
ar rcs "$out/core.a" $objs

status=0
for t in $targets; do
	bin="$out/fuzz_$t"
	n=$((${n:-0} + 1))
	# shellcheck disable=SC2086
	if ! (cd "$top" && $cc $flags -fsanitize=fuzzer -o "$bin" \
	    tests/fuzz/fuzz_$t.c "$out/core.a" $FUZZ_LIBS -lm); then
		status=1
		[ "$secs" = build ] && echo "not ok $n - fuzz_$t builds"
		continue
	fi
	if [ "$secs" = build ]; then
		echo "ok $n - fuzz_$t builds"
		continue
	fi
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
[ "$secs" != build ] || echo "1..${n:-0}"
exit $status
