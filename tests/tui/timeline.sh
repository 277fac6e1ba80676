#!/bin/sh
# Screen test: the OVD timeline and its unit table.  Expected values come
# from the store (sqlite3 on the same database), never from the screen.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 39
src=${top_srcdir:-.}
# Turbo Pascal's OVRDEMO as the simulator plays it (two units taking
# turns in a buffer that holds one), and a run with reprieves.
python3 "$src/tests/ovdsim/ovdsim.py" ovrdemo "$dir/OVRDEMO" &&
    python3 "$src/tests/ovdsim/ovdsim.py" retry "$dir/RETRY" --seed 7 ||
    exit 1
"$PROFVIEW" --db "$dir/db" ingest "$dir/OVRDEMO.OVD" "$dir/RETRY.OVD" \
    >/dev/null || exit 1

# secs TICKS: seconds as the view prints them.
secs() { awk -v t="$1" 'BEGIN { printf "%.3f", t / 18.2065 }'; }
# title_ticks: the ticks per column the title shows.
title_ticks() {
	screen | sed -n '1s/.*timeline, \([0-9]*\) ticks*\/column.*/\1/p'
}
# ev SEQ: "event SEQ: KIND of UNIT at SECS s" from the store (session 1).
ev() {
	set -- $(sql "SELECT e.seq, e.kind, u.name, e.ticks FROM ovr_event e
	    JOIN ovr_unit u ON u.session = e.session AND u.stat_seg = e.ovr_seg
	    WHERE e.session = ${2:-1} AND e.seq = $1" | tr '|' ' ')
	echo "event $1: $2 of $3 at $(secs "$4") s"
}

# The file itself on the command line: ingested (already) and opened.
start -- "$dir/OVRDEMO.OVD"
wait_for "profview: OVRDEMO: overlay timeline"
ok $? "profview FILE.OVD opens the timeline"
nev=$(sql "SELECT count(*) FROM ovr_event WHERE session = 1")
l=$(sql "SELECT count(*) FROM ovr_event WHERE session = 1 AND kind = 'load'")
wait_for "2 units, $nev events ($l loads, $((nev - l)) reprieves)" &&
    wait_for -E "^A UNIT1 +L" && wait_for -E "^B UNIT2 "
ok $? "header counts ($nev events, $l loads) and a lane per unit"

org=$(sql "SELECT printf('%04Xh', heap_org) FROM ovr_event WHERE session = 1
    AND seq = 0")
end=$(sql "SELECT printf('%04Xh', heap_end) FROM ovr_event WHERE session = 1
    AND seq = 0")
list=$(sql "SELECT group_concat(name || '@' || seg, ' ') FROM (SELECT u.name,
    printf('%04Xh', l.load_seg) AS seg FROM ovr_loaded l JOIN ovr_unit u ON
    u.session = l.session AND u.stat_seg = l.stat_seg WHERE l.session = 1
    AND 0 BETWEEN l.first_seq AND l.last_seq ORDER BY l.load_seg)")
site=$(sql "SELECT s.name FROM ovr_event e JOIN symbol s ON s.session = 1
    AND s.addr = e.ovr_seg * 16 + e.ovr_ofs WHERE e.session = 1 AND
    e.seq = 0")
wait_for "$(ev 0) (tick " && wait_for ", called from $site (" &&
    wait_for "buffer OvrHeapOrg $org..OvrHeapEnd $end" &&
    wait_for "loaded: $list" && wait_for "[timeline] session 1 | 1/$nev"
ok $? "detail pane: time, unit, call site ($site), limits, load list"
wait_for "buffer $org..$end, " && screen | grep -qE "^$org +[AB.]+"
ok $? "the buffer band from OvrHeapOrg, cells by unit letter"

keys j
wait_for "$(ev 1)" && wait_for "| 2/$nev"
ok $? "j moves the cursor to the next event"
seg=$(sql "SELECT ovr_seg FROM ovr_event WHERE session = 1 AND seq = 1")
next=$(sql "SELECT min(seq) FROM ovr_event WHERE session = 1 AND seq > 1 AND
    ovr_seg = $seg")
keys ]
wait_for "$(ev "$next")"
ok $? "] jumps to the unit's next event ($next)"
keys [
wait_for "$(ev 1)"
ok $? "[ jumps back to its previous event"
keys [
wait_for "no earlier event of UNIT2"
ok $? "[ on the unit's first event says so"
keys Enter
wait_for "overlay units by thrash" && r=$(screen |
    sed -n 's/.*\[units\] session 1 | \([0-9]*\)\/2.*/\1/p') &&
    screen | sed -n "$((r + 2))p" | grep -q "^UNIT2 " && keys q &&
    wait_for "[timeline] session 1 | 2/$nev"
ok $? "Enter opens the unit table on the cursor's unit; q comes back"

z=$(title_ticks)
keys +
wait_for "is the coarsest"
ok $? "the whole run fits at the start: + says it is the coarsest ($z)"
keys -
wait_for "zoom $((z / 2)) tick" && [ "$(title_ticks)" = $((z / 2)) ]
ok $? "- zooms in: $((z / 2)) ticks/column"
keys +
wait_for -E "zoom $z ticks?/column" && [ "$(title_ticks)" = "$z" ]
ok $? "+ zooms out again"

while [ "$(title_ticks)" != 1 ] && [ -n "$(title_ticks)" ]; do
	t=$(title_ticks)
	keys -
	i=0
	while [ "$(title_ticks)" = "$t" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
done
keys Home
wait_for "| 1/$nev"
axis=$(screen | sed -n 3p)
keys PageDown
wait_for -E "\| ([2-9]|[1-9][0-9]+)/$nev" && [ "$(screen | sed -n 3p)" != "$axis" ]
ok $? "PageDown at 1 tick/column pans; the cursor comes along"
keys End
wait_for "$(ev $((nev - 1)))" && wait_for "| $nev/$nev"
ok $? "End goes to the last event"
keys Home
wait_for "$(ev 0)" && [ "$(screen | sed -n 3p)" = "$axis" ]
ok $? "Home goes to the first event and back to the start"

cnt=$(sql "SELECT count(*) FROM ovr_event e JOIN ovr_unit u ON u.session = 1
    AND u.stat_seg = e.ovr_seg WHERE e.session = 1 AND u.name = 'UNIT2'")
first=$(sql "SELECT min(e.seq) FROM ovr_event e JOIN ovr_unit u ON
    u.session = 1 AND u.stat_seg = e.ovr_seg WHERE e.session = 1 AND
    u.name = 'UNIT2'")
keys / U N I T 2 Enter
wait_for "/UNIT2: 1/$cnt" && wait_for "$(ev "$first")"
ok $? "/ finds the events of a unit by name (1/$cnt)"
keys n
wait_for "/UNIT2: 2/$cnt"
ok $? "n goes to its next event"
keys Home

# A click on an L in lane B: the cursor goes to that UNIT2 load.
x=$(screen | sed -n 5p | awk '{ print index(substr($0, 9), "L") + 8 }')
keys -l "$(printf '\033[<0;%d;5M\033[<0;%d;5m' "$x" "$x")"
wait_for -E "event [0-9]+: load of UNIT2" &&
    ! screen | grep -qF "| 1/$nev"
ok $? "a click on lane B column $x puts the cursor on that UNIT2 load"
axis=$(screen | sed -n 3p)
keys -l "$(printf '\033[<65;40;8M')"
i=0
while [ "$(screen | sed -n 3p)" = "$axis" ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
[ "$(screen | sed -n 3p)" != "$axis" ]
ok $? "the wheel pans"

keys : e x p o r t Space c h r o m e Space "$dir/ovr.json" Enter
wait_for "wrote $dir/ovr.json (chrome)" && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
sys.exit(0 if any(e.get("ph") == "X" for e in ev) else 1)' "$dir/ovr.json"
ok $? ":export chrome FILE writes trace events"

$T resize-window -x 20 -y 6
# (Lane A, at the top of the 80x24 screen, is not among the lines tmux
# keeps of it: it shows the redraw.)
wait_for -E "^A UNI" && wait_for "[timeline]" &&
    [ "$(screen | wc -l)" -le 6 ]
ok $? "resized to 20x6: a lane and the status line"
$T resize-window -x 80 -y 24
wait_for "buffer $org..$end, " && wait_for -E "^B UNIT2 " &&
    wait_for "loaded: "
ok $? "back to 80x24: lanes, band and detail redrawn"
# Colour: band cells carry a background colour (SGR 4x).
$T capture-pane -p -e | sed -n '7,12p' | grep -q "$(printf '\033')\[[0-9;]*4[0-7]m"
ok $? "on a colour terminal units have background colours"
keys q
wait_for "[sessions] 1/2"
ok $? "q goes back to the sessions view"
keys j Enter
wait_for "profview: RETRY: overlay timeline" && wait_for "[timeline] session 2"
ok $? "Enter in the sessions view opens an OVD session's timeline"
keys Q
restored
ok $? "Q quits; the terminal restored"

# The unit table of the retry run, most thrashed first; Enter jumps.
want=$(sql "SELECT group_concat(name, ' ') FROM (SELECT u.name FROM ovr_unit u
    WHERE u.session = 2 ORDER BY (SELECT count(*) FROM ovr_event e WHERE
    e.session = 2 AND e.ovr_seg = u.stat_seg AND e.kind = 'load') DESC,
    (SELECT count(*) FROM ovr_event e WHERE e.session = 2 AND
    e.ovr_seg = u.stat_seg AND e.kind = 'reprieve') DESC,
    (SELECT (max(ticks) - min(ticks)) * 1.0 / (count(*) - 1) FROM ovr_event
    e WHERE e.session = 2 AND e.ovr_seg = u.stat_seg AND e.kind = 'load'),
    u.stat_seg)")
start vt100 -- browse 2
wait_for "profview: RETRY: overlay timeline"
ok $? "on vt100 the timeline opens"
wait_for -E "^3000h +[A-F.]*[A-F]" &&
    ! $T capture-pane -p -e | grep -q "$(printf '\033')\[[0-9;]*4[0-7]m"
ok $? "on vt100 no colours: the band shows units by letter"
keys u
wait_for "overlay units by thrash"
got=$(screen | sed -n '3,8p' | awk '{ printf "%s%s", sep, $1; sep = " " }')
[ "$got" = "$want" ]
ok $? "u: the unit table by thrash ($want)"
keys s
wait_for "sorted by resident share"
ok $? "s sorts it by resident share"
keys g
wait_for "| 1/6"
second=$(screen | sed -n 4p | awk '{ print $1 }')
keys j Enter
first=$(sql "SELECT min(e.seq) FROM ovr_event e JOIN ovr_unit u ON
    u.session = 2 AND u.stat_seg = e.ovr_seg WHERE e.session = 2 AND
    u.name = '$second'")
wait_for "$(ev "$first" 2)" && wait_for "[timeline] session 2 | $((first + 1))/"
ok $? "Enter on $second jumps the timeline to its first event ($first)"
# A session big enough to load in many steps of work() (300000 events):
# the view opens at once with a loading status, q and ^C during the load,
# SIGTERM during the load.  PROFVIEW_WORK_SLOW makes the load one step
# every 20 ms (some seconds), so that q and ^C come during it on a fast
# machine too: by the clock alone a fast machine loads it before q is read.
python3 "$src/tests/ovdsim/ovdsim.py" random "$dir/BIG" --events 300000 \
    --seed 3 && "$PROFVIEW" --db "$dir/db" ingest "$dir/BIG.OVD" >/dev/null ||
    exit 1
big=$(sql "SELECT id FROM session WHERE source LIKE '%BIG.OVD'")
bnev=$(sql "SELECT count(*) FROM ovr_event WHERE session = $big")
bsp=$(sql "SELECT count(*) FROM ovr_loaded WHERE session = $big")
export PROFVIEW_TRACE="$dir/trace" PROFVIEW_WORK_SLOW=20
start -- browse
wait_for "[sessions]"
# Enter and q in one go: q is read before the load can finish.
keys G Enter q
wait_grep "^key timeline-loading q " "$dir/trace" && wait_for "[sessions]" &&
    [ ! -s "$dir/status" ]
ok $? "q while the timeline loads closes it: back to the sessions view"
keys Enter
wait_for -E "loading [0-9]+% \((events|stays|sorting stays|indexing)\)" &&
    wait_for "overlay timeline, loading"
ok $? "Enter on a $bnev-event session shows the loading status at once"
wait_long "[timeline] session $big | 1/$bnev | loaded $bnev events, $bsp stays"
ok $? "the load completes: $bnev events, $bsp stays"
wait_for "12 units, $bnev events (" && wait_for -E "^A [A-Z0-9]+ +L"
ok $? "and the timeline is drawn"
keys q
wait_for "[sessions]"
# ^C from the tty would take the wrapper shell down too: signal profview.
keys Enter
wait_for -E "loading [0-9]+% " && kill -INT "$(cat "$dir/pid")"
wait_for "loading session $big was interrupted" &&
    wait_for "overlay timeline, interrupted" && [ ! -s "$dir/status" ]
ok $? "^C during the load stops it and keeps profview running"
keys j l +
keys q
wait_for "[sessions]"
ok $? "keys are ignored in the interrupted view; q closes it"
keys Enter
wait_for -E "loading [0-9]+% " || wait_for "loaded $bnev events"
kill -TERM "$(cat "$dir/pid")"
restored
ok $? "SIGTERM right after opening the big session: terminal restored"
[ "$(cat "$dir/status")" = 143 ]
ok $? "SIGTERM: exit status 143"
unset PROFVIEW_TRACE PROFVIEW_WORK_SLOW
finish
