#!/bin/sh
# Screen test: the calls view of a pvtrace profile, its callers and
# callees, and the call tree.  The profile is tests/data/calls.mon (main
# calls work twice, which calls leaf 1000 times; two static helpers);
# expected values come from the store, never from the screen.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 16
src=${top_srcdir:-.}
cp "$src/tests/data/calls.mon" "$dir/calls.mon"
"$PROFVIEW" --db "$dir/db" ingest "$dir/calls.mon" >/dev/null || exit 1
nf=$(sql "SELECT count(*) FROM func")
nc=$(sql "SELECT sum(calls) FROM func")

start -- "$dir/calls.mon"
wait_for "profview: prog: $nf functions, $nc calls, by self (real time)"
ok $? "profview FILE.mon opens the calls view"
top=$(sql "SELECT key FROM func ORDER BY self_ns DESC, key LIMIT 1")
ms=$(sql "SELECT printf('%.3f', self_ns / 1e6) FROM func WHERE key = '$top'")
screen | sed -n 3p | grep -qE " $ms .* $top\$"
ok $? "the first row is the most self time: $top, $ms ms"

keys s
wait_for "by self+children (real time)"
top=$(sql "SELECT key FROM func ORDER BY total_ns DESC, key LIMIT 1")
screen | sed -n 3p | grep -qE " $top\$"
ok $? "s sorts by self+children: $top first"

keys c
cpu=$(sql "SELECT printf('%.3f', total_cpu_ns / 1e6) FROM func WHERE key =
    '$top'")
wait_for "by self+children (CPU time)" && screen | sed -n 3p |
    grep -qE " $cpu .* $top\$"
ok $? "c shows CPU time ($top: $cpu ms)"
keys c
wait_for "(real time)"
ok $? "c again: real time"

ncaller=$(sql "SELECT count(*) FROM call WHERE callee = '$top'")
ncallee=$(sql "SELECT count(*) FROM call WHERE caller = '$top'")
keys g Enter
wait_for "profview: $top: $ncaller callers, $ncallee callees"
ok $? "Enter: $top's $ncaller callers and $ncallee callees"
callee=$(sql "SELECT callee FROM call WHERE caller = '$top' ORDER BY
    total_ns DESC, caller, callee LIMIT 1")
ncalls=$(sql "SELECT calls FROM call WHERE caller = '$top' AND callee =
    '$callee'")
screen | grep -qE "^callee +$ncalls .* $callee\$"
ok $? "its callee $callee, $ncalls calls"
# The callee's row in the calls view, sorted by self+children.
pos=$(sql "SELECT count(*) + 1 FROM func WHERE total_ns > (SELECT total_ns
    FROM func WHERE key = '$callee') OR (total_ns = (SELECT total_ns FROM
    func WHERE key = '$callee') AND key < '$callee')")
keys j Enter
wait_for "profview: prog: $nf functions" &&
    wait_for "[calls] session 1 | $pos/$nf"
ok $? "Enter on the callee: back to the calls view, on $callee ($pos/$nf)"

keys t
np=$(sql "SELECT count(*) FROM callpath")
wait_for "profview: call tree: $np paths, $np shown (real time)"
ok $? "t: the call tree, two levels open ($np paths)"
keys g h
shown=$(sql "SELECT count(*) FROM callpath WHERE parent IS NULL")
wait_for "$np paths, $shown shown"
ok $? "h on the first path closes it: $shown shown"
keys l
wait_for "$np paths, $np shown"
ok $? "l opens it again"

keys / helper Enter
wait_for "[tree]" && screen | grep -qE "helper@prog\\+0x12"
ok $? "/ finds the helpers in the tree"
keys q q q
wait_file "$dir/status"
ok $? "q closes the views and quits"

# Values wider than their columns (issue 18, point 21): main's function,
# its path and its call edge with 9e18 calls and 8e18 ns self, 9e18 ns
# self+children.  Each value stays within its column, the name after
# them whole.  cols LINE FROM-TO=NUMBER... FROM-=TEXT: the screen line's
# columns (from 1) hold those numbers (to a 1e-4 part, no blank inside)
# and, from a column on, that text.
python3 - "$src/tests/data/calls.mon" "$dir/wide.mon" <<'PY'
import sys
big = "9000000000000000000 8000000000000000000 9000000000000000000"
out = []
for l in open(sys.argv[1]).read().splitlines():
    t = l.split()
    if t[-5:] == ["jump", "prog", "0x1050", "61", "main"]:
        l = " ".join([big] + t[3:])
    elif t[-2:] == ["-", "main"]:
        l = " ".join(["9000000000000000000"] * 2 + t[2:])
    elif len(t) == 8 and t[-1] == "main":
        l = " ".join([big] + t[3:])
    out.append(l)
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
cols() {
	python3 - "$@" <<'PY'
import sys
line = sys.argv[1]
for spec in sys.argv[2:]:
    cols, want = spec.split("=", 1)
    a, b = cols.split("-")
    if b == "":
        assert line[int(a) - 1:].rstrip() == want, (spec, line)
        continue
    f = line[int(a) - 1:int(b)].strip()
    assert f and " " not in f, (spec, line)
    assert abs(float(f) - float(want)) <= abs(float(want)) * 1e-4, \
        (spec, line)
PY
}
start -- "$dir/wide.mon"
wait_for "profview: prog: $nf functions" &&
    cols "$(screen | sed -n 3p)" 1-10=9e18 12-23=8e12 32-45=9e12 63-=main
ok $? "calls view: values wider than their columns fit them, the name whole"
keys t
wait_for "profview: call tree" &&
    cols "$(screen | sed -n 3p)" 1-14=9e12 16-27=8e12 29-38=9e18 41-="- main"
ok $? "call tree: values wider than their columns fit them, the name whole"
keys q
wait_for "profview: prog: $nf functions" && keys g Enter &&
    wait_for "profview: main: " && cols "$(screen | sed -n 3p)" 9-18=9e18 \
    20-33=9e12 35-="(no traced caller)"
ok $? "callers: values wider than their columns fit them, the name whole"
keys q q q
