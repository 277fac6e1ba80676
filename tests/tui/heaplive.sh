#!/bin/sh
# Screen test: the heap map on a running program.  tests/tui/heaplive-prog
# runs under pvheap --socket and changes its heap on cue (a file the test
# writes); profview --attach takes snapshots of it.  What the map says of
# objects born and freed is checked against the two stored sessions
# (matched by address and allocation number in SQL), never constants.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 37
build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
PROG=$build/tests/tui/heaplive-prog

if [ ! -x "$PVHEAP" ] || [ ! -x "$PROG" ]; then
	i=0
	while [ $i -lt 34 ]; do
		skip "heaplive" "pvheap or heaplive-prog not built"
		i=$((i + 1))
	done
	finish
fi

# Bytes as the map writes them.
size() {
	python3 -c '
import sys
n = int(sys.argv[1])
if n < 1024:
    print("%d B" % n)
else:
    d, u = float(n), -1
    while d >= 1024 and u < 3:
        d /= 1024
        u += 1
    print("%.1f %s" % (d, ["KiB", "MiB", "GiB", "TiB"][u]))' "$1"
}

# Blocks of session $1 not in session $2 (same address and number):
# "count bytes".
only_in() {
	pvsql "SELECT count(*), coalesce(sum(usable), 0) FROM heap_block n
	    WHERE n.session = $1 AND NOT EXISTS (SELECT 1 FROM heap_block o
	    WHERE o.session = $2 AND o.addr = n.addr AND o.seq = n.seq)" |
	    tr '|' ' '
}

# The program under pvheap, in the background, until it is told to end.
prog_start() {
	rm -f "$dir"/go.* "$dir"/ready.* "$dir/sock"
	(cd "$dir" && exec "$PVHEAP" -q --socket "$dir/sock" -- "$PROG" \
	    "$dir" >"$dir/prog.out" 2>&1) &
	prog_pid=$!
	wait_file "$dir/ready.1" || return 1
	i=0
	while [ $i -lt 100 ] && [ ! -S "$dir/sock" ]; do
		i=$((i + 1))
		sleep 0.05
	done
	[ -S "$dir/sock" ]
}
prog_end() {
	touch "$dir/go.2" "$dir/go.3" "$dir/go.4"
	wait "$prog_pid" 2>/dev/null
}
trap 'prog_end; cleanup' EXIT

# A socket that is not there: one message, status 1, the terminal as it was.
start -- --attach "$dir/nosock"
wait_for "profview exited" && [ "$(cat "$dir/status")" = 1 ] &&
    wait_for "no such socket (is pvheap --socket"
ok $? "--attach to no socket: one error, exit status 1"
restored
ok $? "--attach to no socket: the terminal restored"
# A file that is no socket.
: > "$dir/plain"
start -- --attach "$dir/plain"
wait_for "profview exited" && [ "$(cat "$dir/status")" = 1 ] &&
    wait_for "nothing listens there" && restored
ok $? "--attach to a plain file: nothing listens, exit status 1"
# A socket that answers, but not as pvheap's agent does.
python3 - "$dir/wrong" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(1)
c, _ = s.accept()
c.recv(64)
c.sendall(b"HTTP/1.0 400 Bad Request\r\n")
c.close()
PY
i=0
while [ $i -lt 100 ] && [ ! -S "$dir/wrong" ]; do
	i=$((i + 1))
	sleep 0.05
done
start -- --attach "$dir/wrong"
wait_for "profview exited" && [ "$(cat "$dir/status")" = 1 ] &&
    wait_for "not pvheap's answer: \"HTTP/1.0 400" && restored
ok $? "--attach to another server's socket: not pvheap's, exit status 1"

prog_start
ok $? "the program runs under pvheap --socket"
start -- --attach "$dir/sock"
wait_for "live (pid"
set -- $(pvsql "SELECT count(*), sum(usable) FROM heap_block WHERE
    session = 1" | tr '|' ' ')
wait_for "heaplive-prog: heap map, $1 objects" &&
    wait_for "unmarked $1 ($(size "$2")) of $1 ($(size "$2"))"
ok $? "attached: the map of session 1, its legend from the store ($1)"
[ "$(sql "SELECT taken, pid FROM heap WHERE session = 1")" = \
    "socket|$(sql "SELECT pid FROM heap WHERE session = 1")" ] &&
    [ "$(sql "SELECT count(*) FROM heap WHERE started_ns IS NOT NULL")" = 1 ]
ok $? "session 1 was taken over the socket and names its run"

# Select a make_a node that phase 2 keeps (an odd one by allocation order).
keep=$(pvsql "SELECT printf('0x%x', b.addr) FROM heap_block b JOIN heap_type t
    ON t.session = 1 AND t.idx = b.type WHERE b.session = 1 AND t.name LIKE
    'make_a%' ORDER BY b.seq LIMIT 1 OFFSET 1")
keys :
keys -l "setmapto $keep"
keys Enter Enter
wait_for "selected $keep"
ok $? "an object selected ($keep)"
keys :
keys -l "mark site:make_a*"
keys Enter
na=$(pvsql "SELECT count(*) FROM heap_block b JOIN heap_type t ON t.session = 1
    AND t.idx = b.type WHERE b.session = 1 AND t.name LIKE 'make_a%'")
wait_for -E "make_a\* [0-9]+ \(.*\) of $((na - 1)) "
ok $? ":mark site:make_a*: its $((na - 1)) objects (and the selected one)"
cell=$(screen | sed -n '1s/.*objects, \(.*\) a cell.*/\1/p')
top=$(screen | sed -n 2p | cut -c1-13)

touch "$dir/go.2"
wait_file "$dir/ready.2"
keys u
wait_for "since session 1: " && wait_for "heaplive-prog: heap map" &&
    [ "$(sql "SELECT count(*) FROM heap")" = 2 ]
ok $? "u: a new snapshot, session 2"
set -- $(only_in 2 1)
b=$1 bb=$2
set -- $(only_in 1 2)
f=$1 fb=$2
wait_for "since session 1: $b born ($(size "$bb")), $f freed ($(size "$fb"))"
ok $? "born $b and freed $f since session 1, as the store's sessions say"
wait_for -E "born [0-9]+ \([^)]*\) of $b \($(size "$bb")\)" &&
    wait_for "freed $f ($(size "$fb")) of $f ($(size "$fb"))"
ok $? "the legend: born and freed, their counts and bytes (all freed drawn)"
[ "$(sql "SELECT count(DISTINCT pid || '/' || started_ns) FROM heap")" = 1 ] &&
    [ "$(sql "SELECT count(*) FROM heap")" = 2 ]
ok $? "both sessions are of one run (pid, started_ns)"
wait_for "selected $keep"
ok $? "the selected object still selected after the update"
na=$(pvsql "SELECT count(*) FROM heap_block b JOIN heap_type t ON t.session = 2
    AND t.idx = b.type WHERE b.session = 2 AND t.name LIKE 'make_a%'")
wait_for -E "make_a\* [0-9]+ \(.*\) of $((na - 1)) "
ok $? "the marks kept: site:make_a* is session 2's $((na - 1)) (and the selected)"
[ -n "$cell" ] && [ "$(screen | sed -n '1s/.*objects, \(.*\) a cell.*/\1/p')" = \
    "$cell" ] && [ "$(screen | sed -n 2p | cut -c1-13)" = "$top" ]
ok $? "the same zoom ($cell a cell) and the same top row ($top)"
# UpdateModules: session 2's loaded modules, the same as session 1's.
nm=$(sql "SELECT count(*) FROM heap_module WHERE session = 2 AND unloaded = 0")
keys :
keys -l "updatemodules"
keys Enter
wait_for "$nm modules loaded in session 2, as in session 1"
ok $? ":updatemodules: $nm modules, none loaded or unloaded since session 1"

# Remain: after the next update only session 2's objects show.
keys :
keys -l "mark"
keys Enter
keys :
keys -l "remain on"
keys Enter
wait_for "remain on: only the"
touch "$dir/go.3"
wait_file "$dir/ready.3"
keys u
wait_for "since session 2: "
set -- $(pvsql "SELECT count(*), coalesce(sum(usable), 0) FROM heap_block n
    WHERE n.session = 3 AND EXISTS (SELECT 1 FROM heap_block o WHERE
    o.session = 2 AND o.addr = n.addr AND o.seq = n.seq)" | tr '|' ' ')
kept=$1
set -- $(only_in 3 2)
wait_for -E "unmarked [0-9]+ \(.*\) of $((kept - 1)) " &&
    ! screen | grep -qE "born [0-9]+ \(.*\) of "
ok $? ":remain on: only the $((kept - 1)) objects of before (and the selected)"
keys :
keys -l "remain off"
keys Enter
wait_for -E "born [0-9]+ \([^)]*\) of $1 \($(size "$2")\)"
ok $? ":remain off: the $1 born since session 2 show again"
keys :
keys -l "compare 1"
keys Enter
set -- $(only_in 3 1)
wait_for "since session 1: $1 born ($(size "$2"))"
ok $? ":compare 1: born since session 1, from the store ($1)"
keys :
keys -l "compare 99"
keys Enter
wait_for "error: session 99 is not a heap snapshot" &&
    wait_for -E "born $1 \([^)]*\) of"
ok $? ":compare 99: no such snapshot, said; the comparison shown stays"
keys :
keys -l "compare x"
keys Enter
wait_for "error: usage: :compare [ID|off]"
ok $? ":compare x: its usage"

# The program ends while attached: said at once, the map stays.
touch "$dir/go.4"
wait "$prog_pid" 2>/dev/null
wait_for "the program (pid" && wait_for "has ended: session 3, its last"
ok $? "the program ended: said, session 3 stays"
keys u
wait_for "the program has ended" && keys Down && wait_for "heap map"
ok $? "u after the end: it says so, the map still browses"
keys q q
restored
ok $? "quit: the terminal restored"

# --every: updates by themselves, each a session of the new run.
sessions() {
	sql "SELECT count(*) FROM heap"
}
prog_start
n0=$(sessions)
start -- --attach "$dir/sock" --every 0.3
i=0
# The first and two by themselves; a loaded machine gets 15 s.
while [ $i -lt 300 ] && [ "$(sessions)" -lt $((n0 + 3)) ]; do
	i=$((i + 1))
	sleep 0.05
done
[ "$(sessions)" -ge $((n0 + 3)) ] && [ "$(sql "SELECT count(DISTINCT
    started_ns) FROM heap WHERE session > $n0")" = 1 ] &&
    wait_for -E "since session [0-9]+: 0 born \(0 B\), 0 freed \(0 B\)"
ok $? "--every 0.3: snapshots by themselves, of one run, nothing changed"
keys :
keys -l "update off"
keys Enter
wait_for "updates only when asked"
# An update under way when it was said goes on; none starts after it.
wait_gone "updating:"
n1=$(sessions)
sleep 1
[ "$(sessions)" = "$n1" ]
ok $? ":update off: no more"
keys q q
prog_end

# The program ends while a search runs, one pointer every 50 ms: the
# second's look at the program comes during the search and finds it
# ended; said once the search is done (that look used to be lost with
# the search's work, and the end never said).
prog_start
PROFVIEW_HEAPMAP_WALK=1 PROFVIEW_WORK_SLOW=50
export PROFVIEW_HEAPMAP_WALK PROFVIEW_WORK_SLOW
start -- --attach "$dir/sock"
unset PROFVIEW_HEAPMAP_WALK PROFVIEW_WORK_SLOW
wait_long "heap graph made"
# The last of make_a's list: ReachedFrom walks back the whole list.
last=$(pvsql "SELECT printf('0x%x', b.addr) FROM heap_block b JOIN heap_type t
    ON t.session = b.session AND t.idx = b.type WHERE b.session = (SELECT
    max(session) FROM heap) AND t.name LIKE 'make_a%' ORDER BY b.seq DESC
    LIMIT 1")
keys :
keys -l "setmapto $last"
keys Enter Enter
wait_for "selected $last" && keys R &&
    wait_for -E "ReachedFrom: [0-9]+ objects so far" && prog_end &&
    wait_long -E \
    "the program \(pid [0-9]+\) has ended: session [0-9]+, its last" &&
    ! screen | grep -q "so far" && wait_for -E "reached from [0-9]+ "
ok $? "the program ends during a search: said when the search is done"
keys q q
restored
ok $? "quit: the terminal restored"
# An update's ingest when profview is ended (issue 18, point 20): the
# store's write lock held by another process keeps the ingest waiting;
# SIGTERM (the views' work cancelled) or SIGKILL (the kernel's parent-
# death signal) to profview ends it too, and once the lock is free no
# session comes of it.
gone() {	# gone PID: no such process, or only its zombie
	! [ -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat"
}
lock_store() {
	rm -f "$dir/locked" "$dir/release"
	python3 - "$dir/db" "$dir/locked" "$dir/release" <<'PY' &
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
c.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").write("1")
while not os.path.exists(sys.argv[3]):
    time.sleep(0.05)
c.execute("ROLLBACK")
PY
	lock_pid=$!
	wait_file "$dir/locked"
}
prog_start
for sig in TERM KILL; do
	start -- --attach "$dir/sock"
	wait_long "live (pid"
	n0=$(sql "SELECT max(id) FROM session")
	lock_store
	keys u
	wait_for "storing the snapshot: waiting for process $lock_pid,"
	ok $? "the update says it waits for the lock's holder ($lock_pid)"
	pv=$(cat "$dir/pid")
	child=$(cat /proc/"$pv"/task/*/children 2>/dev/null | tr -d ' ')
	# (The wrapper's status file: a killed profview leaves the
	# terminal as it was, where the wrapper's last line may wrap.)
	[ -n "$child" ] && kill -"$sig" "$pv" && wait_file "$dir/status" &&
	    wait_until gone "$child"
	ok $? "SIG$sig to profview during an update: its ingest ends too"
	touch "$dir/release"
	wait "$lock_pid"
	[ -z "$child" ] || wait_until gone "$child"
	[ "$(sql "SELECT max(id) FROM session")" = "$n0" ]
	ok $? "... and stores no session after profview has gone"
done
prog_end

# --keep 2: an attach keeps its newest two sessions, and their snapshot
# files, whatever --every makes.
rm -f "$dir"/*.heap
prog_start
n0=$(sql "SELECT coalesce(max(id), 0) FROM session")
start -- --attach "$dir/sock" --every 0.3 --keep 2
i=0
# Three sessions (one more than are kept), up to two minutes: each is a
# snapshot and its ingest, slow when the machine is busy (in one CI run
# only three came in a minute).
while [ $i -lt 2400 ] && [ "$(sql "SELECT max(id) FROM session")" -lt \
    $((n0 + 3)) ]; do
	i=$((i + 1))
	sleep 0.05
done
keys :
keys -l "update off"
keys Enter
# Until an update under way when it was said is over (the frame with
# the message has the title of then).
wait_for "updates only when asked" && wait_gone "updating:"
last=$(sql "SELECT max(id) FROM session")
kept() { sql "SELECT group_concat(id, ' ') FROM (SELECT id FROM session
    WHERE id > $n0 ORDER BY id)"; }
kept_is() { [ "$(kept)" = "$1" ]; }
[ "$last" -ge $((n0 + 3)) ] &&
    wait_until_long kept_is "$((last - 1)) $last" &&
    wait_for -E "(\[heapmap\] |now )session $last( |\$)"
ok $? "--keep 2: of $((last - n0)) sessions, the newest two stay ($(kept))"
files() {
	ls "$dir"/*.heap 2>/dev/null | sort | tr '\n' ' '
}
files_are() { [ "$(files)" = "$1" ]; }
want=$(sql "SELECT source FROM session WHERE id > $n0 ORDER BY source" |
    tr '\n' ' ')
[ "$(echo $want | wc -w)" = 2 ] && wait_until_long files_are "$want"
ok $? "--keep 2: their snapshot files stay, the others' are gone ($(files))"
keys q q
prog_end

[ -n "${HLDEBUG:-}" ] && sql "SELECT session, pid, taken, serial, time_ns / 1000000 % 100000 FROM heap" >&2
finish
