#!/bin/sh
# bench/trace: pvtrace's cost per call beside its peers', from one run.
#
# The workload (bench/trace-work.c) makes 3 calls an iteration.  Each
# tool runs it at N and 3N iterations and its cost per call is the
# difference over the 6N extra calls, so start-up (planning, the
# agent's calibration, writing the profile, uftrace's recording setup,
# valgrind's start) is not in it.  Costs are given in wall time and in
# CPU time (user + system of the tool and the program): on a machine
# shared with other work the wall clock also counts waiting for a CPU,
# so the budget is checked on CPU time.  pvtrace traces the plain build;
# uftrace (issue 12's peer) records a -pg build of the same source;
# callgrind's figure is its slowdown over the plain build.  Then p1's
# time on a generated program of 10000 functions.
#
# Budgets (issue 12): pvtrace's overhead a call at most half uftrace's;
# the plan of a 10000-function program in under 1 s.
# BENCH_TRACE_N (default 1000000) changes N.
set -eu
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
N=${BENCH_TRACE_N:-1000000}
PV=$(cd "$top_builddir" && pwd)/capture/pvtrace/pvtrace
W=$(mktemp -d "${TMPDIR:-/tmp}/bench-trace.XXXXXX")
trap 'rm -rf "$W"' EXIT
cc=${CC:-cc}
fail=0

now() { date +%s%N; }
# run N CMD...: "wall cpu" in ns of CMD N (its processes' user + system
# time: on a shared machine the wall clock also counts waiting for a CPU).
run() {
	python3 -c 'import os, resource, subprocess, sys, time
t = time.monotonic_ns()
subprocess.run(sys.argv[2:] + [sys.argv[1]], stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL)
w = time.monotonic_ns() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(w, int((r.ru_utime + r.ru_stime) * 1e9))' "$@"
}
# per MULT CMD...: "wall cpu", picoseconds a call of CMD, over the
# (MULT - 1) * 3N calls more of a run at MULT * N iterations than at N.
per() {
	m=$1
	shift
	a=$(run "$N" "$@")
	b=$(run "$((m * N))" "$@")
	echo "$a $b" | awk -v c="$((3 * (m - 1) * N))" \
	    '{ printf "%d %d\n", ($3 - $1) * 1000 / c, ($4 - $2) * 1000 / c }'
}
# ns with one decimal, from ps.
ns() { awk -v p="$1" 'BEGIN { printf "%.1f", p / 1000 }'; }

$cc -O2 -o "$W/work" "$top_srcdir/bench/trace-work.c"
$cc -O2 -pg -o "$W/work-pg" "$top_srcdir/bench/trace-work.c"
(cd "$W" && "$PV" plan ./work >/dev/null)

set -- $(per 41 "$W/work")
pw=$1 pc=$2
echo "bench/trace: calls of bench/trace-work.c (mid -> leaf x2), ns a call," \
    "wall and CPU:"
echo "  plain build:               $(ns "$pw") wall, $(ns "$pc") CPU"
set -- $(cd "$W" && per 3 "$PV" -o p.mon -- ./work)
vw=$(($1 - pw)) vc=$(($2 - pc))
clock=$(awk '$1 == "clock" { print $2 }' "$W/p.mon")
echo "  pvtrace, plain build:      +$(ns "$vw") wall, +$(ns "$vc") CPU" \
    "(clock $clock)"
set -- $(cd "$W" && PVTRACE_CLOCK=tsc per 3 "$PV" -o t.mon -- ./work)
echo "  pvtrace, clock tsc:        +$(ns $(($1 - pw))) wall," \
    "+$(ns $(($2 - pc))) CPU"
cal=$(awk '$1 == "overhead" && $2 == "jump" { print $3 + $4 }' "$W/p.mon")
echo "  pvtrace's calibration (subtracted from its times): $cal ns"
calls=$(awk '/^\[functions\]/ { s = 1 } s && $12 == "leaf" { print $1 }' \
    "$W/p.mon")
echo "  pvtrace counted leaf $calls times (want $((6 * N)))"
[ "$calls" = $((6 * N)) ] || fail=1
if command -v uftrace >/dev/null 2>&1; then
	set -- $(cd "$W" && per 3 uftrace record -d uf ./work-pg)
	uw=$(($1 - pw)) uc=$(($2 - pc))
	echo "  uftrace $(uftrace --version 2>/dev/null | head -1 |
	    awk '{ print $2 }'), -pg build: +$(ns "$uw") wall, +$(ns "$uc") CPU"
	r=$(awk -v a="$vc" -v b="$uc" 'BEGIN { printf "%.2f", a / b }')
	if [ $((2 * vc)) -le "$uc" ]; then
		echo "  pvtrace / uftrace (CPU): $r (budget <= 0.5): ok"
	else
		echo "  pvtrace / uftrace (CPU): $r (budget <= 0.5): MISSED"
		fail=1
	fi
	echo "  pvtrace / uftrace (wall): $(awk -v a="$vw" -v b="$uw" \
	    'BEGIN { printf "%.2f", a / b }')"
else
	echo "  uftrace: not installed (Debian package uftrace): no peer figure"
fi
if command -v valgrind >/dev/null 2>&1; then
	set -- $(per 3 valgrind --tool=callgrind \
	    --callgrind-out-file=/dev/null "$W/work")
	echo "  callgrind:                 $(ns "$1") wall, $(ns "$2") CPU:" \
	    "$(awk -v a="$2" -v b="$pc" 'BEGIN { printf "%.0f", a / b }')x" \
	    "the plain build's CPU"
else
	echo "  callgrind: valgrind not installed: no peer figure"
fi

python3 "$top_srcdir/bench/trace-gen.py" 12500 >"$W/big.c"
$cc -O1 -o "$W/big" "$W/big.c"
t0=$(now)
out=$("$PV" plan -o "$W/big.pdt" "$W/big" | tail -1)
t1=$(now)
ms=$(( (t1 - t0) / 1000000 ))
nf=$(grep -c '^fn ' "$W/big.pdt")
echo "plan: $nf functions in $ms ms (budget < 1000 ms for 10000): $out"
[ "$nf" -ge 10000 ] || { echo "plan: fewer than 10000 functions"; fail=1; }
[ "$ms" -lt 1000 ] || { echo "plan: budget MISSED"; fail=1; }
exit $fail
