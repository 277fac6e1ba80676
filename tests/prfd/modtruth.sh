#!/bin/sh
# pvprf's modules against perf record on the same run (issue 23 point 4):
# samples outside the slots are named by the functions of the module
# they fell in, as perf names them.  perf record runs pvprf record, both
# sampling the program at 4 kHz (4000-odd samples a second each: two
# independent samplings of a 20 % function differ by 0.6 points at one
# standard deviation over 2.5 s, so 2 points is three of them).
#   1. modwork, linked against its own libprfdmod.so (both -g): rounds of
#      5 and 3 ms of CPU in the library's lib_five and lib_three and 2 in
#      the program's own_two.  Each within 2 points of perf's share, and
#      its share of the three's within 3 of the truth (50, 30, 20).
#   2. Debian's sqlite3 shell, dynamically linked against libsqlite3.so,
#      on a heavy query: every function perf or profview gives 2 % of the
#      samples, of the library, libc or the shell, within 2 points of
#      perf's.
# Functions are matched by their start address in the process (perf's
# ip less symoff, profview's row's address): modcmp.py.
. "${top_srcdir:-.}/tests/prfd/prfd.sh"
command -v perf >/dev/null 2>&1 ||
    skip_all "perf is not installed (Debian package linux-perf)"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"
MODWORK=$top_builddir/tests/prfd/modwork
CMP="python3 $top_srcdir/tests/prfd/modcmp.py"
PV="$top_builddir/profview --db $W/pv.db"

# run NAME PROG ARGS...: perf record over pvprf record of PROG, the dump
# ingested alone, the comparison of every function of 1 % or more in
# $W/NAME.cmp (name, module, perf's share, profview's).
run() {
	name=$1
	shift
	perf record -q -e cpu-clock -F 4000 -o "$W/$name.data" -- \
	    "$PVPRF" record -F 4000 -o "$W/$name.prfd" -- "$@" \
	    >/dev/null 2>"$W/$name.err"
	perf script -i "$W/$name.data" -F pid,ip,sym,symoff,dso \
	    >"$W/$name.script" 2>/dev/null
	rm -f "$W/pv.db"
	$PV ingest "$W/$name.prfd" >/dev/null 2>"$W/$name.ingest"
	$PV export -f csv 1 >"$W/$name.csv"
	"$PVPRF" print "$W/$name.prfd" >"$W/$name.txt"
	pid=$(sed -n '1s/.*: pid \([0-9]*\),.*/\1/p' "$W/$name.txt")
	$CMP "$W/$name.script" "$W/$name.csv" "$pid" 1 >"$W/$name.cmp"
	sed 's/^/# /' "$W/$name.cmp"
}
# share NAME FUNCTION COLUMN: perf's (3) or profview's (4) share.
share() { awk -F '\t' -v f="$2" -v c="$3" '$1 == f { print $c }' \
    "$W/$1.cmp"; }
# differ NAME MIN: the functions of MIN % or more whose shares differ by
# more than 2 points, as "name perf/profview".
differ() { awk -F '\t' -v m="$2" '($3 >= m || $4 >= m) &&
    ($3 - $4 > 2 || $4 - $3 > 2) { printf "%s %s/%s ", $1, $3, $4 }' \
    "$W/$1.cmp"; }

# same_near MODULE WANT A B: the module is WANT, A and B within 2 points.
same_near() { [ "$1" = "$2" ] && [ -n "$3" ] && [ -n "$4" ] &&
    near "$3" "$4" 2; }

# 1. A library of the test's own.  The truth is the split of the three
# functions' time: a round's CPU time also holds the interrupts taken
# while it ran, which both samplers put in the kernel (3.7 % of the
# samples on the virtual machine of 2026-11-29, where lib_five had 46.7
# % of all and 49.6 of the three's).
run mod "$MODWORK" 2.5
three=$(awk -F '\t' '$1 == "lib_five" || $1 == "lib_three" ||
    $1 == "own_two" { s += $4 } END { print s + 0 }' "$W/mod.cmp")
for f in lib_five:50:libprfdmod.so lib_three:30:libprfdmod.so \
    own_two:20:modwork; do
	IFS=: read -r fn truth mod <<-EOF2
	$f
	EOF2
	pf=$(share mod "$fn" 3)
	pv=$(share mod "$fn" 4)
	m=$(awk -F '\t' -v f="$fn" '$1 == f { print $2 }' "$W/mod.cmp")
	check "$fn ($m): profview $pv% vs perf $pf%" \
	    same_near "$m" "$mod" "$pv" "$pf"
	of3=$(awk -v v="${pv:-0}" -v s="$three" 'BEGIN {
	    printf "%.2f", (s > 0 ? 100 * v / s : 0) }')
	check "$fn: profview $of3% of the three's vs truth $truth%" \
	    near "$of3" "$truth" 3
done
check "the library named by its .symtab, no module unresolved" \
    sh -c "! grep -q 'has addresses only' '$W/mod.ingest'"
set -- $(awk '$1 == "shared" { s = $3 } $1 == "modules" { m = $2 }
    END { print s + 0, m + 0 }' "$W/mod.txt")
check "shared memory $1 samples, modules $2: the library's are its own" \
    test "$1" = 0 -a "$2" -gt 0
lib=$(awk '$NF ~ /libprfdmod\.so$/ { print $3 }' "$W/mod.txt")
check "pvprf print lists the library's mapping with its $lib samples" \
    test "${lib:-0}" -gt 0

# 2. A real dynamically linked program.
if ! command -v sqlite3 >/dev/null 2>&1 ||
    ! ldd "$(command -v sqlite3)" | grep -q 'libsqlite3\.so'; then
	skip "" "no sqlite3 shell linked against libsqlite3.so"
	skip "" "no sqlite3 shell linked against libsqlite3.so"
	finish
fi
run sq sqlite3 :memory: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL
    SELECT x + 1 FROM c WHERE x < 3000000) SELECT sum(length(printf('%d',
    x))) FROM c;"
top=$(awk -F '\t' '$3 >= 2 || $4 >= 2 { printf "%s ", $1 }' "$W/sq.cmp")
mods=$(awk -F '\t' '$3 >= 1 { print $2 }' "$W/sq.cmp" | sort -u |
    tr '\n' ' ')
# Enough functions compared, of both: counted at 1 %, not 2, where
# libc's _int_free and malloc sit (1.94 to 2.21 % from run to run).
n1=$(awk -F '\t' '$3 >= 1 || $4 >= 1' "$W/sq.cmp" | wc -l)
check "sqlite3: $n1 functions of 1% or more, $(echo $top | wc -w) of 2%\
 ($top), of $mods" sh -c "echo '$mods' | grep -q libsqlite3 &&
    echo '$mods' | grep -q libc && [ $n1 -ge 10 ]"
d=$(differ sq 2)
check "sqlite3: each within 2 points of perf's${d:+ (not: $d)}" test -z "$d"
finish
