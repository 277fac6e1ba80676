#!/bin/sh
# pvprf record against the truth and against perf record on the same run
# (issue 13 point 5): a workload spending its CPU time 5:3:2 in f5, f3
# and f2 and sleeping a known share of its time; per-function shares
# from the detail counters, the hit table and slots of one function each
# within 3 points of the truth and of perf's; idle within 5 points of the
# time the program did not run, and idle less its waits for a CPU
# (schedstat) within 5 of its sleep share; kernel samples for a loop of system
# calls.  The program's output and exit status pass through pvprf.
. "${top_srcdir:-.}/tests/prfd/prfd.sh"
command -v perf >/dev/null 2>&1 ||
    skip_all "perf is not installed (Debian package linux-perf)"
command -v nm >/dev/null 2>&1 || skip_all "nm (binutils) is needed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"
WORK=$top_builddir/tests/prfd/work
FN="python3 $top_srcdir/tests/prfd/prfdfn.py"
truth() { case $1 in f5) echo 50 ;; f3) echo 30 ;; f2) echo 20 ;; esac; }
get() { awk -v k="$2" -v f="$3" '$1 == k && $2 == f { print $3 }' "$1"; }

# 1. Auto slots (the program's executable mapping), under perf record:
# both sample the same process at 1 kHz.
perf record -q -e cpu-clock -F 1000 -o "$W/perf.data" -- \
    "$PVPRF" record -o "$W/split.prfd" -- "$WORK" split 3 0.4 \
    >"$W/split.out" 2>"$W/split.err"
rc=$?
check "exit status 7 passed on ($rc)" test "$rc" = 7
check "output passed on" grep -qx "work: split done" "$W/split.out"
perf script -i "$W/perf.data" -F pid,ip >"$W/perf.script" 2>/dev/null
$FN "$W/split.prfd" "$WORK" "$W/perf.script" >"$W/split.fn"
sed 's/^/# /' "$W/split.fn"
for f in f5 f3 f2; do
	t=$(truth $f)
	dc=$(get "$W/split.fn" detail $f)
	ht=$(get "$W/split.fn" hit $f)
	pf=$(get "$W/split.fn" perf $f)
	check "$f: detail counters $dc% vs truth $t%" near "$dc" "$t" 3
	check "$f: hit table $ht% vs truth $t%" near "$ht" "$t" 3
	check "$f: perf record $pf% vs truth $t%" near "$pf" "$t" 3
	check "$f: detail counters $dc% vs perf $pf%" near "$dc" "$pf" 3
	check "$f: hit table $ht% vs perf $pf%" near "$ht" "$pf" 3
done

# Idle: the periods in which the program did not run, by its own clocks
# (its sleeps, and its waits for a CPU on a busy machine).
set -- $(cat "$W/split.err")
notrun=$(awk -v c="$2" -v w="$4" 'BEGIN { printf "%.2f", 100 * (1 - c / w) }')
slept=$(awk -v s="$6" -v w="$4" 'BEGIN { printf "%.2f", 100 * s / w }')
"$PVPRF" print "$W/split.prfd" >"$W/split.txt"
idle=$(awk '$1 == "idle" { sub(/%/, "", $3); print $3 }' "$W/split.txt")
check "idle $idle% vs not running $notrun% (slept $slept%)" \
    near "$idle" "$notrun" 5
# Not running is its sleeps and its waits for a CPU: with the waits taken
# out (schedstat), idle less them is the sleep share.
if [ "$8" -ge 0 ]; then
	waited=$(awk -v q="$8" -v w="$4" 'BEGIN { printf "%.2f", 100 * q / w }')
	rest=$(awk -v i="$idle" -v q="$waited" 'BEGIN { printf "%.2f", i - q }')
	check "idle $idle% less waiting for a CPU $waited%: $rest%, slept\
 $slept%" near "$rest" "$slept" 5
else
	skip "" "no /proc/self/schedstat"
fi

# 2. One slot a function: the slots' shares.
set -- $(nm -S --defined-only "$WORK" | awk '$4 == "f5" || $4 == "f3" ||
    $4 == "f2" { printf "0x%s:0x%s\n", $1, $2 }')
slots=$(echo "$@" | tr ' ' ',')
"$PVPRF" record -o "$W/slots.prfd" --slots "$slots" -- "$WORK" split 2 0 \
    >/dev/null 2>&1
$FN "$W/slots.prfd" "$WORK" >"$W/slots.fn"
for f in f5 f3 f2; do
	t=$(truth $f)
	sl=$(get "$W/slots.fn" slot $f)
	check "$f: slot $sl% vs truth $t%" near "$sl" "$t" 3
done

# 3. System calls: the kernel counter, its share of the samples taken
# (idle, the periods with none, aside).
"$PVPRF" record -o "$W/sys.prfd" -- "$WORK" sys 1 >/dev/null 2>&1
"$PVPRF" print "$W/sys.prfd" >"$W/sys.txt"
set -- $(awk '$1 == "idle" { i = $2 } $1 == "kernel" { k = $2 }
    $1 == "total" { t = $2 } END { print k, t - i }' "$W/sys.txt")
k=$(awk -v k="$1" -v t="$2" 'BEGIN { printf "%.2f", t ? 100 * k / t : 0 }')
# Kernel samples present, a good part of them, not a stray few: how much
# of a getppid loop is the kernel's varies by machine (half here, 49.9 %
# once under load), so a fifth is the bar.
check "a loop of system calls: kernel $1 of $2 samples, $k%" \
    awk -v k="$k" 'BEGIN { exit !(k >= 20) }'

# 4. The same dump in profview: the prfd kind's flat profile by symbol
# (ELF symbols it found by build-id) against nm's (prfdfn.py, a reader of
# its own), and its global counters against pvprf print's.
PV="$top_builddir/profview --db $W/pv.db"
$PV ingest "$W/split.prfd" >/dev/null 2>"$W/pv.err"
check "profview ingests pvprf record's dump" test $? = 0
$PV export -f csv 1 >"$W/pv.csv"
hits() { awk -F, -v f="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
    $1 == "flat" && $c["symbol"] == f { print $c["hits"] }' "$W/pv.csv"; }
h5=$(hits f5) h3=$(hits f3) h2=$(hits f2)
for f in f5 f3 f2; do
	eval "h=\$h${f#f}"
	pv=$(awk -v h="$h" -v a="$h5" -v b="$h3" -v c="$h2" \
	    'BEGIN { if (a + b + c) printf "%.2f", 100 * h / (a + b + c) }')
	ht=$(get "$W/split.fn" hit $f)
	check "$f: profview's flat profile $pv% ($h hits) = nm's $ht%" \
	    near "$pv" "$ht" 0.01
done
"$PVPRF" print "$W/split.prfd" >"$W/split.txt"
for g in idle kernel unknown; do
	a=$(awk -v g="$g" '$1 == g { print $2 }' "$W/split.txt")
	b=$(awk -F, -v g="$g" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	    $1 == "global" && $c["counter"] == g { print $c["samples"] }' \
	    "$W/pv.csv")
	check "$g: profview $b = pvprf print $a" test -n "$a" -a "$a" = "$b"
done
finish
