#!/bin/sh
# Screen test: annotate on Linux x86-64 code (issue 23 point 3).  hot
# (tests/prfd/hot.c, -O1 -g) is profiled by pvprf record under perf
# record, the same run: the annotate view of hot opens with the hit
# table's exact counts, which add up to the function's samples in the
# store, its hottest instruction perf annotate's (or the one beside it,
# skid), DWARF lines with their source, Tab and Enter on a call.  The
# kept code makes the session stand alone once the file is gone; a copy
# without debug info (strip -g) annotates without source lines; a
# program rebuilt after it was profiled is refused, not decoded; and a
# pvtrace profile's function shows its code and its calls.
. "${top_srcdir:-.}/tests/tui/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"
B=${top_builddir:-.}
B=$(cd "$B" && pwd)
PVPRF=$B/capture/pvprf/pvprf
PVPRFD=$B/capture/pvprf/pvprfd
export PVPRFD
mkdir -m 700 "$dir/run"
XDG_RUNTIME_DIR=$dir/run
export XDG_RUNTIME_DIR
# pvprf's daemon is this test's own: ended by the pid in its lock.
cleanup() {
	if [ -s "$dir/run/pvprfd.lock" ]; then
		kill "$(cat "$dir/run/pvprfd.lock")" 2>/dev/null
	fi
	$T kill-server 2>/dev/null
	rm -rf "$dir"
}
plan 21
PV="$PROFVIEW --db $dir/db"

# csvsum FILE: the instruction rows' hits summed, their count, the
# hottest row's index and address, and how many rows have a source line.
csvsum() {
	python3 - "$1" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
hits = [int(r["hits"] or 0) for r in rows]
top = max(range(len(rows)), key=lambda i: hits[i])
print(sum(hits), len(rows), top, rows[top]["addr"],
    sum(1 for r in rows if r["source"]))
EOF
}
# csvrow FILE ADDR: the index of the row at address ADDR (decimal).
csvrow() {
	python3 - "$1" "$2" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(next((i for i, r in enumerate(rows) if int(r["addr"]) ==
    int(sys.argv[2])), -1))
EOF
}
# fnhits NAME SESSION: the hit table's samples in function NAME.
fnhits() {
	sql "SELECT sum(h.hits) FROM prfd_hit h, symbol s WHERE s.name = '$1'
	    AND s.session = $2 AND h.session = $2 AND h.addr >= s.addr AND
	    h.addr < s.addr + s.size"
}
# annotate_hot FILE: open FILE's session, the slot, then annotate hot.
annotate_hot() {
	start -- "$1"
	wait_for "slots by count"
	keys Enter
	wait_for "flat profile" && screen | sed -n 5p | grep -q " hot\$" &&
	    keys a
}

cp "$B/tests/prfd/hot" "$dir/hot"
if command -v perf >/dev/null 2>&1 &&
    perf record -q -e cpu-clock -F 1000 -o "$dir/perf.data" -- \
    "$PVPRF" record -o "$dir/hot.prfd" -- "$dir/hot" 1.5 >/dev/null 2>&1
then
	perf annotate --stdio -i "$dir/perf.data" -s hot 2>/dev/null |
	    awk '$2 == ":" && $3 ~ /^[0-9a-f]+:$/ { sub(/:$/, "", $3);
	    if ($1 + 0 > best) { best = $1 + 0; at = $3 } }
	    END { print at }' > "$dir/perf.top"
else
	"$PVPRF" record -o "$dir/hot.prfd" -- "$dir/hot" 1.5 >/dev/null 2>&1
	: > "$dir/perf.top"
fi
$PV ingest "$dir/hot.prfd" >/dev/null || exit 1
nh=$(fnhits hot 1)

annotate_hot "$dir/hot.prfd"
wait_for "annotate hot, " && screen | sed -n 2p |
    grep -qE "^hot  [0-9A-F]{12}-[0-9A-F]{12}  [0-9]+ bytes  $nh samples "
ok $? "a on hot: its x86-64 code, $nh samples (the hit table's in hot)"
screen | sed -n 3p | grep -q "^exact: the hit table places each sample"
ok $? "the counts are exact"
screen | grep -qE "div +(rsi|rcx|rdi|r[0-9]+)\$" &&
    screen | grep -qE " hot\\.c: +s = s / d \\+ i;\$"
ok $? "decoded by capstone, with hot.c's DWARF line and its text"

keys : "export csv $dir/ann.csv" Enter
wait_for "wrote $dir/ann.csv"
set -- $(csvsum "$dir/ann.csv")
ok $(test "$1" = "$nh"; echo $?) \
    "the instructions' counts add up to hot's $nh samples ($1, $2 rows)"
ours=$3 ouraddr=$4
rel=$(sql "SELECT count(*) FROM code_line WHERE file NOT LIKE '/%' OR
    text IS NULL")
ok $(test "$5" -gt 0 -a "$rel" = 0; echo $?) \
    "$5 instructions have a source line, its file's path absolute"
lo=$(sql "SELECT addr FROM symbol WHERE session = 1 AND name = 'hot'")
if [ -s "$dir/perf.top" ]; then
	# perf gives the file's address: the offset in hot is the same.
	flo=$(nm "$dir/hot" | awk '$3 == "hot" { print $1 }')
	paddr=$((lo + 0x$(cat "$dir/perf.top") - 0x$flo))
	theirs=$(csvrow "$dir/ann.csv" "$paddr")
	d=$((ours - theirs))
	[ "$theirs" -ge 0 ] && [ "$d" -ge -1 ] && [ "$d" -le 1 ]
	ok $? "the hottest instruction (row $ours) is perf annotate's (row\
 $theirs, at +0x$(printf %x $((paddr - lo)))) or beside it"
else
	skip "perf annotate's hottest" "perf is not installed or cannot record"
fi

keys Tab
wait_for "hottest 2/"
ok $? "Tab: the next hottest instruction"
keys / "<mix>" Enter
wait_for "/<mix>: 1/1" && keys Escape && wait_gone "/<mix>: 1/1"
keys Enter
wait_for "annotate mix, " && wait_for "in mix (q comes back)"
ok $? "Enter on the call to mix: mix annotated"

# A counter holding mix's end and hot's start: both, the two kept runs
# kept again as one, no line twice.
keys q q t
wait_for "buckets x1"
at=$(sql "SELECT printf('%X', addr - 1) FROM symbol WHERE session = 1 AND
    name = 'hot'")
keys / "$at" Enter
wait_for "/$at: 1/1" && keys Escape && wait_gone "/$at: 1/1"
keys a
wait_for "annotate bucket " && screen | grep -q " <mix>:\$" &&
    screen | grep -q " <hot>:\$"
ok $? "a on the counter where mix ends and hot starts: both"
runs=$(sql "SELECT count(*) FROM code WHERE session = 1")
both=$(sql "SELECT count(*) FROM code c, symbol s WHERE c.session = 1 AND
    s.session = 1 AND s.name IN ('hot', 'mix') AND s.addr >= c.addr AND
    s.addr + s.size <= c.addr + length(c.bytes)")
twice=$(sql "SELECT count(*) - (SELECT count(*) FROM (SELECT DISTINCT
    addr, file, line FROM code_line WHERE session = 1)) FROM code_line
    WHERE session = 1")
ok $(test "$runs/$both/$twice" = 1/2/0; echo $?) \
    "kept as one run holding both, no line twice ($runs/$both/$twice)"
# The histogram is kept as it was left: the flat profile again.
keys q t
wait_for "flat profile"
keys q q q
restored
ok $? "q quits; the terminal is restored"

# The code is kept: with the program gone, the same view and counts.
rm "$dir/hot"
annotate_hot "$dir/hot.prfd"
wait_for "annotate hot, " && screen | sed -n 2p | grep -qF " $nh samples "
ok $? "the program gone, hot annotates from the store ($nh samples)"
nrow=$(sql "SELECT count(*) FROM code WHERE session = 1")
ok $(test "$nrow" = 1; echo $?) "nothing kept again ($nrow run)"
keys q q q q
restored

# Without debug info: the code and exact counts, no source lines.
strip -g -o "$dir/hot-g" "$B/tests/prfd/hot"
"$PVPRF" record -o "$dir/hot-g.prfd" -- "$dir/hot-g" 0.5 >/dev/null 2>&1
$PV ingest "$dir/hot-g.prfd" >/dev/null || exit 1
s=$(sql "SELECT max(id) FROM session")
nh=$(fnhits hot "$s")
annotate_hot "$dir/hot-g.prfd"
wait_for "annotate hot, " && screen | sed -n 2p | grep -qF " $nh samples "
ok $? "strip -g: hot annotates, $nh samples"
screen | sed -n 3p | grep -q "; no source lines (no DWARF)$" &&
    ! screen | grep -q " hot\\.c:"
ok $? "strip -g: no source lines, said so"
keys q q q q
restored

# Rebuilt after it was profiled: another build-id, refused.
cp "$B/tests/prfd/hot" "$dir/hot-m"
"$PVPRF" record -o "$dir/hot-m.prfd" -- "$dir/hot-m" 0.3 >/dev/null 2>&1
$PV ingest "$dir/hot-m.prfd" >/dev/null || exit 1
cp "$B/tests/prfd/hot-rebuilt" "$dir/hot-m"
annotate_hot "$dir/hot-m.prfd"
wait_for "changed since the profile (build-id"
ok $? "the program rebuilt: annotate refuses it, saying why"
! screen | sed -n 1p | grep -q "annotate hot"
ok $? "no view of the rebuilt code"
keys q q q
restored

# A function of a shared library outside the slots (a version 2 dump's
# module): Enter in the flat profile annotates it, its samples the
# module's by address, exact.
cp "$B/tests/prfd/libprfdmod.so" "$B/tests/prfd/modwork" "$dir/"
"$PVPRF" record -o "$dir/mod.prfd" -- "$B/tests/prfd/modwork" 0.6 \
    >/dev/null 2>&1
$PV ingest "$dir/mod.prfd" >/dev/null || exit 1
s=$(sql "SELECT max(id) FROM session")
nh=$(sql "SELECT sum(h.hits) FROM prfd_module_hit h, prfd_module m,
    symbol y WHERE h.session = $s AND m.session = $s AND y.session = $s AND
    m.idx = h.module AND m.path LIKE '%/libprfdmod.so' AND
    y.name = 'lib_five' AND h.addr >= y.addr AND h.addr < y.addr + y.size")
start -- "$dir/mod.prfd"
wait_for "functions, " && keys / lib_five Enter
wait_for "/lib_five: 1/1" && keys Escape && wait_gone "/lib_five: 1/1"
keys Enter
wait_for "annotate lib_five, " && screen | sed -n 2p |
    grep -qE "^lib_five  [0-9A-F]{12}-[0-9A-F]{12}  [0-9]+ bytes  $nh samples "
ok $? "Enter on libprfdmod.so's lib_five: its code, $nh samples (the module's)"
keys : "export csv $dir/mod.csv" Enter
wait_for "wrote $dir/mod.csv"
set -- $(csvsum "$dir/mod.csv")
ok $(test "$1" = "$nh" -a "$nh" -gt 0; echo $?) \
    "lib_five's instructions' counts add up to its $nh samples ($1)"
keys q q q
restored

# A pvtrace profile: main's code, its call to hot followed by Enter.
cp "$B/tests/prfd/hot" "$dir/hot"
if (cd "$dir" && "$B/capture/pvtrace/pvtrace" -o hot.mon -- ./hot 0.2) \
    >/dev/null 2>&1; then
	$PV ingest "$dir/hot.mon" >/dev/null || exit 1
	start -- "$dir/hot.mon"
	wait_for "[calls]" && keys / main Enter
	wait_for "/main: 1/1" && keys Escape && wait_gone "/main: 1/1"
	keys a
	wait_for "annotate main, " && wait_for "a call profile: no samples" &&
	    screen | grep -qE "call +0x[0-9a-f]+ <hot>\$"
	ok $? "a in the calls view: main's code, its call to hot named"
	keys / "<hot>" Enter
	wait_for "/<hot>: 1/1" && keys Escape && wait_gone "/<hot>: 1/1"
	keys Enter
	wait_for "annotate hot, " && screen | grep -qE "div +[a-z0-9]+\$"
	ok $? "Enter on it: hot's code"
	keys q q q q
	restored
else
	skip "pvtrace: main's code" "pvtrace cannot run here"
	skip "pvtrace: Enter on a call" "pvtrace cannot run here"
fi
finish
