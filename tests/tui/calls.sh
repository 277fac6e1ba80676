#!/bin/sh
# Screen test: the calls view of a pvtrace profile, its callers and
# callees, and the call tree.  The profile is tests/data/calls.mon (main
# calls work twice, which calls leaf 1000 times; two static helpers);
# expected values come from the store, never from the screen.
. "${top_srcdir:-.}/tests/tui/lib.sh"
echo 1..13
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
