#!/bin/sh
# bench/heapgraph.sh: the heap graph's analyses (bench/heapgraph) and,
# from the same run, memcheck's leak search over the same heap: the
# program bench/heap-prog builds bench/heap-shape.h's 1M blocks for real
# and exits; memcheck's figure is the time of a run with
# --leak-check=full less that of one with --leak-check=no (the search
# alone).  BENCH_NO_MEMCHECK=1 leaves memcheck out (it takes a minute).
set -eu
top_builddir=${top_builddir:-.}
"$top_builddir/bench/heapgraph"
[ -n "${BENCH_NO_MEMCHECK:-}" ] && exit 0
command -v valgrind >/dev/null ||
    { echo "memcheck: valgrind not found, no peer figure"; exit 0; }
ms() { echo $(($(date +%s%N) / 1000000)); }
t0=$(ms)
valgrind -q --leak-check=no "$top_builddir/bench/heap-prog" >/dev/null 2>&1
t1=$(ms)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
valgrind --leak-check=full --show-leak-kinds=none \
    "$top_builddir/bench/heap-prog" >/dev/null 2>"$log"
t2=$(ms)
echo "memcheck, same heap: leak search $(( (t2 - t1) - (t1 - t0) )) ms" \
    "(run with it $((t2 - t1)) ms, without $((t1 - t0)) ms)"
sed -n 's/^==[0-9]*== *\(definitely lost\|indirectly lost\|possibly lost\):/  memcheck \1:/p' "$log"
