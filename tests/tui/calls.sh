#!/bin/sh
# Screen test: the calls view of a pvtrace profile, its callers and
# callees, and the call tree.  The profile is tests/data/calls.mon (main
# calls work twice, which calls leaf 1000 times; two static helpers);
# expected values come from the store, never from the screen.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 46
src=${top_srcdir:-.}
cp "$src/tests/data/calls.mon" "$dir/calls.mon"
"$PROFVIEW" --db "$dir/db" ingest "$dir/calls.mon" >/dev/null || exit 1
nf=$(sql "SELECT count(*) FROM func")
nc=$(sql "SELECT sum(calls) FROM func")

# The program was on CPU most of its real time (the top paths' CPU
# total over their real total): the view opens on CPU time and says so.
busy=$(sql "SELECT CAST(round(100.0 * sum(total_cpu_ns) / sum(total_ns))
    AS INTEGER) FROM callpath WHERE parent IS NULL")
start -- "$dir/calls.mon"
wait_for "profview: prog: $nf functions, $nc calls, by self (CPU, probes), $busy% on CPU"
ok $? "profview FILE.mon opens the calls view on CPU time: on CPU $busy%"
top=$(sql "SELECT key FROM func ORDER BY self_cpu_ns DESC, key LIMIT 1")
ms=$(sql "SELECT printf('%.3f', self_cpu_ns / 1e6) FROM func WHERE key =
    '$top'")
screen | sed -n 3p | grep -qE " $ms .* $top\$"
ok $? "the first row is the most self CPU time: $top, $ms ms"
keys c
wait_for "by self (real, probes)"
top=$(sql "SELECT key FROM func ORDER BY self_ns DESC, key LIMIT 1")
ms=$(sql "SELECT printf('%.3f', self_ns / 1e6) FROM func WHERE key = '$top'")
screen | sed -n 3p | grep -qE " $ms .* $top\$"
ok $? "c: real time, the first row the most self time: $top, $ms ms"

keys s
wait_for "by self+children (real, probes)"
top=$(sql "SELECT key FROM func ORDER BY total_ns DESC, key LIMIT 1")
screen | sed -n 3p | grep -qE " $top\$"
ok $? "s sorts by self+children: $top first"

keys c
cpu=$(sql "SELECT printf('%.3f', total_cpu_ns / 1e6) FROM func WHERE key =
    '$top'")
wait_for "by self+children (CPU, probes)" && screen | sed -n 3p |
    grep -qE " $cpu .* $top\$"
ok $? "c shows CPU time ($top: $cpu ms)"
keys c
wait_for "(real, probes)"
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

# Enter on a caller walks up to its callers (KCachegrind's way), and
# Backspace or < walks back.
nin() { sql "SELECT count(*) FROM call WHERE callee = '$1'"; }
nout() { sql "SELECT count(*) FROM call WHERE caller = '$1'"; }
keys Enter
wait_for "profview: $callee: $(nin $callee) callers, $(nout $callee) callees"
ok $? "Enter: $callee's callers and callees"
up=$(sql "SELECT caller FROM call WHERE callee = '$callee' ORDER BY caller
    LIMIT 1")
keys g Enter
wait_for "profview: $up: $(nin $up) callers, $(nout $up) callees"
ok $? "Enter on its caller $up: $up's callers and callees"
keys g Enter
wait_for "no traced caller"
ok $? "Enter on a call from no traced function says so"
keys BSpace
wait_for "profview: $callee: $(nin $callee) callers" &&
    wait_for "back to $callee"
ok $? "Backspace: back to $callee"
keys '<'
wait_for "no function before this one" &&
    wait_for "profview: $callee: $(nin $callee) callers"
ok $? "< with nothing before stays on $callee"
keys q
wait_for "profview: prog: $nf functions"
ok $? "q: back to the calls view"

# The tree shows the paths from 0.5 % of the program's time (the top
# paths' total) on: kept counts them.
keys t
np=$(sql "SELECT count(*) FROM callpath")
all=$(sql "SELECT sum(total_ns) FROM callpath WHERE parent IS NULL")
kept() { sql "SELECT count(*) FROM callpath WHERE 100.0 * total_ns >= $1 *
    $all ${2-}"; }
k=$(kept 0.5)
wait_for "profview: call tree: $np paths, $k shown (real, probes), from 0.5%"
ok $? "t: the call tree, two levels open, $k of $np paths from 0.5%"
keys g h
shown=$(kept 0.5 "AND parent IS NULL")
wait_for "$np paths, $shown shown"
ok $? "h on the first path closes it: $shown shown"
keys l
wait_for "$np paths, $k shown"
ok $? "l opens it again"

row=$(sql "SELECT printf('%.3f +%.1f%% +%.3f +%.1f%% +%d', total_ns / 1e6,
    100.0 * total_ns / $all, self_ns / 1e6, 100.0 * self_ns / $all, calls)
    FROM callpath WHERE func = 'work'")
screen | grep -qE "^ +$row +- work\$"
ok $? "each time has its share of the program's beside it: $row"

keys %
wait_for "$np paths, $(kept 0.1) shown (real, probes), from 0.1%"
ok $? "% shows the paths from 0.1%: $(kept 0.1)"
keys %
wait_for "$np paths, $np shown (real, probes), from 0%"
ok $? "% again: every path"
keys %
wait_for "$np paths, $(kept 2) shown (real, probes), from 2%"
ok $? "% again: the paths from 2%: $(kept 2)"
keys %
wait_for "$np paths, $k shown (real, probes), from 0.5%"
ok $? "% again: from 0.5% again"

# H opens the hottest path to its end: main's hottest callee, then its.
hot1=$(sql "SELECT func FROM callpath WHERE parent = (SELECT id FROM
    callpath WHERE func = 'main') ORDER BY total_ns DESC LIMIT 1")
hot2=$(sql "SELECT func FROM callpath WHERE parent = (SELECT id FROM
    callpath WHERE func = '$hot1') ORDER BY total_ns DESC LIMIT 1")
keys g h
wait_for "$np paths, $shown shown"
keys H
wait_for "the hottest path: $hot2" && wait_for "[tree] session 1 | 3/$k" &&
    screen | grep -qE "^ .*   - $hot1\$"
ok $? "H on main opens main, $hot1 and $hot2 and goes to $hot2"

# / opens the way to a function under closed paths.
keys g h
wait_for "$np paths, $shown shown"
keys / leaf Enter
wait_for "$np paths, $k shown" && wait_for "[tree] session 1 | 3/$k" &&
    screen | grep -qE "^ .*     leaf *\$"
ok $? "/ finds leaf under the closed main and opens the way to it"

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
    cols "$(screen | sed -n 3p)" 1-10=9e18 12-21=8e12 39-50=9e12 63-=main
ok $? "calls view: values wider than their columns fit them, the name whole"
# Every path (% twice: from 0 %), as main's callees are a speck of it.
keys t % %
wait_for "profview: call tree: $np paths, $np shown" &&
    cols "$(screen | sed -n 3p)" 1-14=9e12 23-34=8e12 43-52=9e18 55-="- main"
ok $? "call tree: values wider than their columns fit them, the name whole"
keys q
wait_for "profview: prog: $nf functions" && keys g Enter &&
    wait_for "profview: main: " && cols "$(screen | sed -n 3p)" 9-18=9e18 \
    20-33=9e12 44-="(no traced caller)"
ok $? "callers: values wider than their columns fit them, the name whole"
keys q q q

# Recursion folded: calls.mon with main calling itself where it called
# work (its paths only), so main;main is one row, 2 deep; r unfolds it.
# It opens on CPU time, as calls.mon does.
python3 - "$src/tests/data/calls.mon" "$dir/rec.mon" <<'PY'
import sys
out, paths = [], False
for l in open(sys.argv[1]).read().splitlines():
    if l.startswith("["):
        paths = l.startswith("[paths]")
    elif paths and not l.startswith("#"):
        t = l.split()
        if t:
            t[-1] = t[-1].replace("main;work", "main;main")
            l = " ".join(t)
    out.append(l)
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
start -- "$dir/rec.mon"
wait_for "profview: prog: $nf functions" && keys t
self=$(sql "SELECT printf('%.3f', sum(self_cpu_ns) / 1e6) FROM callpath
    WHERE session = 1 AND func IN ('main', 'work') AND parent IS NOT NULL
    OR session = 1 AND parent IS NULL AND func = 'main'")
wait_for "profview: call tree: $np paths, $((k - 1)) shown (CPU, probes)" &&
    screen | grep -qE " $self .* - main \(recursion 2 deep\)\$"
ok $? "main calling itself: one row, recursion 2 deep, self $self ms"
wait_for -E "^ .*   leaf\$"
ok $? "the recursion's callees under it"
keys r
# (The title's end is past the 80th column.)
wait_for "$np paths, $k shown (CPU, probes), from 0.5%, recursion u" &&
    screen | grep -qE "^ .*   - main\$"
ok $? "r unfolds it: main under main"
keys r
wait_for "(recursion 2 deep)"
ok $? "r again folds it"
keys q q q

# A program that mostly waited (its top paths' CPU time a tenth of what
# calls.mon has) opens on real time, and says how little it ran.
python3 - "$src/tests/data/calls.mon" "$dir/wait.mon" <<'PY'
import sys
out, paths = [], False
for l in open(sys.argv[1]).read().splitlines():
    if l.startswith("["):
        paths = l.startswith("[paths]")
    elif paths and not l.startswith("#") and l.split()[-1:] == ["main"]:
        t = l.split()
        t[4] = str(int(t[4]) // 10)
        l = " ".join(t)
    out.append(l)
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
busy=$(sql "SELECT CAST(round(100.0 * sum(CASE func WHEN 'main' THEN
    total_cpu_ns / 10 ELSE total_cpu_ns END) / sum(total_ns)) AS INTEGER)
    FROM callpath WHERE session = 1 AND parent IS NULL")
start -- "$dir/wait.mon"
wait_for "profview: prog: $nf functions, $nc calls, by self (real, probes), $busy% on CPU"
ok $? "a program on CPU $busy% of its time opens on real time"
keys q q q

# Times from the sampler (a version 3 profile): the view opens on them,
# says how many samples and the probe's share (apart from the program's),
# and gives each self time its 95 % binomial interval; a function with
# too few samples shows their number; p switches to the probes' times.
# The samples put work first where the probes put leaf.
cp "$src/tests/data/calls3.mon" "$dir/calls3.mon"
start -- "$dir/calls3.mon"
wait_for "profview: prog: $nf functions"
s=$(sql "SELECT max(id) FROM session")
read sn ns pns <<EOF_
$(sql "SELECT sum(cpu_samples), sum(cpu_ns), (SELECT probe_cpu_ns FROM mon
    WHERE session = $s) FROM callpath_sample WHERE session = $s" | tr '|' ' ')
EOF_
pp=$(awk -v p="$pns" -v a="$ns" 'BEGIN { printf "%.0f", 100 * p / (p + a) }')
wait_for "by self (CPU, $sn samples, probe $pp%)"
ok $? "a sampled profile opens on its samples: $sn, the probe's $pp% apart"
! screen | tail -1 | grep -q "probe $pp%:"
ok $? "the probe at $pp% of the run: no word on the program's slower code"
read sk kns <<EOF_
$(sql "SELECT s.cpu_samples, s.cpu_ns FROM callpath_sample s JOIN callpath p
    ON p.session = s.session AND p.id = s.id WHERE s.session = $s AND
    p.func = 'work'" | tr '|' ' ')
EOF_
row=$(awk -v k="$sk" -v kns="$kns" -v n="$sn" -v ns="$ns" 'BEGIN {
    printf "%.3f +%.3f +%.1f%%", kns / 1e6,
    1.96 * sqrt(k * (1 - k / n)) * ns / n / 1e6, 100 * kns / ns }')
screen | sed -n 3p | grep -qE " $row .* work\$"
ok $? "the first row is the most sampled self time, +/- and share: work $row"
screen | grep -qE "4 samples +few .* helper@prog\+0x1200\$"
ok $? "too few samples: their number, not a time"
keys p
wait_for "by self (CPU, probes)" && screen | sed -n 3p |
    grep -qE " leaf\$"
ok $? "p: the probes' times, leaf first"
keys p
wait_for "by self (CPU, $sn samples" && keys g Enter
tot=$(sql "SELECT sum(s.cpu_ns) FROM callpath_sample s JOIN callpath p ON
    p.session = s.session AND p.id = s.id WHERE s.session = $s AND
    p.func IN ('work', 'leaf')")
tot=$(awk -v t="$tot" 'BEGIN { printf "%.3f", t / 1e6 }')
wait_for "profview: work: " && screen | grep -qE "^caller +2 +$tot .* main\$"
ok $? "work's caller main: the sampled time through the call, $tot ms"
keys q t
tot=$(sql "SELECT sum(cpu_ns) FROM callpath_sample WHERE session = $s AND
    id IN (SELECT id FROM callpath WHERE session = $s AND func <>
    'helper@prog+0x1210')")
row=$(awk -v t="$tot" -v a="$ns" 'BEGIN {
    printf "%.3f +%.1f%%", t / 1e6, 100 * t / a }')
wait_for "call tree: 5 paths" && wait_for "(CPU, $sn samples" &&
    screen | grep -qE "^ +$row .* - main\$"
ok $? "the tree's times from the samples too: main $row of the program's"
keys q q q

# How an entry was caught, after the name where not a patched jump: a
# library function at its GOT slot (helper@prog+0x1210 made one here)
# [plt], a trapped one [trap], main nothing.  A wider pane: at 80
# columns the qualified names fill the name's width.
sed 's/ jump prog 0x1210 / plt prog 0x1210 /' "$src/tests/data/calls.mon" \
    >"$dir/plt.mon"
pvsize="100 24" start -- "$dir/plt.mon"
wait_for "profview: prog: $nf functions" &&
    screen | grep -qE " helper@prog\+0x1210 \[plt\]\$" &&
    screen | grep -qE " helper@prog\+0x1200 \[trap\]\$" &&
    screen | grep -qE "[0-9] main\$"
ok $? "the calls view marks helper@prog+0x1210 [plt] and the trap [trap]"
keys q

# A leaf given pvtrace's light probe: its probes' times were not
# measured, so p shows "-" for them, where the samples give its time.
sed 's/ jump prog 0x1190 5 leaf$/ leaf prog 0x1190 5 leaf/' \
    "$src/tests/data/calls3.mon" >"$dir/leaf.mon"
pvsize="100 24" start -- "$dir/leaf.mon"
wait_for "by self (CPU, $sn samples" &&
    screen | grep -qE "^ +1000 +[0-9.]+ .* leaf \[leaf\]\$"
ok $? "a leaf's row: its sampled time, marked [leaf]"
keys p
wait_for "by self (CPU, probes)" &&
    screen | grep -qE "^ +1000 +- +- +- +- +- leaf \[leaf\]\$"
ok $? "p: a leaf's probe times are -, not 0"
keys q

# A run the probe took most of: opening says the program's own code ran
# slower than untraced, where it waits on memory most (pvtrace(1)).
sed 's/^samples probe 1000 900000000 1000 950000000$/samples probe 1000'\
' 9000000000 1000 9500000000/' "$src/tests/data/calls3.mon" \
    >"$dir/probe.mon"
pvsize="100 24" start -- "$dir/probe.mon"
# Its session is in the store once the view has opened on it.
wait_for "code waiting on memory ran slower than untraced"
s=$(sql "SELECT max(id) FROM session")
pp=$(sql "SELECT CAST(round(100.0 * probe_cpu_ns / (probe_cpu_ns +
    (SELECT sum(cpu_ns) FROM callpath_sample WHERE session = $s))) AS
    INTEGER) FROM mon WHERE session = $s")
wait_for "probe $pp%: code waiting on memory ran slower than untraced (man"
ok $? "the probe at $pp% of the run: opening says the code ran slower"
keys q
