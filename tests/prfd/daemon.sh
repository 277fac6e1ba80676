#!/bin/sh
# pvprfd among hostile callers: an ended profile costs no CPU (its dead
# events were polled in a loop), a daemon started on demand keeps none
# of its caller's descriptors (a caller's 2>&1 | cat waited for it), a
# caller that sends a byte now and then or holds many connections holds
# no other caller, and out of descriptors the daemon waits, not spins.
. "${top_srcdir:-.}/tests/prfd/prfd.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"
[ -r /proc/self/schedstat ] || skip_all "no /proc/PID/schedstat"
WORK=$top_builddir/tests/prfd/work
CLIENT="python3 $top_srcdir/tests/prfd/client.py $XDG_RUNTIME_DIR/pvprfd.sock"

daemon() { cat "$XDG_RUNTIME_DIR/pvprfd.lock"; }
# The CPU time (ns) process $1 takes in $2 seconds.
cpu_in() {
	a=$(awk '{ print $1 }' "/proc/$1/schedstat")
	sleep "$2"
	b=$(awk '{ print $1 }' "/proc/$1/schedstat")
	echo $((b - a))
}
ms() { echo $(($(date +%s%N) / 1000000)); }
# Wait up to 5 s for file $1.
wait_file() {
	i=0
	while [ ! -e "$1" ] && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
}
stop_daemon() {
	dpid=$(daemon)
	kill "$dpid"
	i=0
	while kill -0 "$dpid" 2>/dev/null && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
}

# Started on demand for a caller whose standard error is a pipe (and
# with a descriptor 7 it left open): the pipe's reader sees its end when
# the caller ends, not when the daemon does (60 s idle, or never).
exec 7>"$W/seven"
( "$PVPRF" exit 1 2>&1 | cat >"$W/out"; echo >"$W/done" ) &
exec 7>&-
t0=$(ms)
wait_file "$W/done"
t=$(($(ms) - t0))
check "2>&1 | cat of a call that started the daemon ends ($t ms)" \
    test -e "$W/done"
dpid=$(daemon)
ls -l "/proc/$dpid/fd" | sed 's/^/# /'
check "the daemon holds no descriptor of its caller's" sh -c \
    "! ls -l /proc/$dpid/fd | grep -q -e '$W/seven' -e pipe: &&
    test \"\$(readlink /proc/$dpid/fd/0 /proc/$dpid/fd/1 /proc/$dpid/fd/2 |
    sort -u)\" = /dev/null"

# A profile whose process has ended and that nobody has EXITed yet.
"$WORK" split 0.3 0 >/dev/null 2>&1 &
pid=$!
"$PVPRF" init "$pid" && "$PVPRF" start "$pid"
wait "$pid"
sleep 0.2
used=$(cpu_in "$dpid" 3)
check "an ended profile: the daemon's CPU over 3 s idle, $used ns" \
    test "$used" -lt 30000000
"$PVPRF" exit "$pid"

# A caller that sends its request a byte every 0.4 s: another caller is
# answered at once, and the slow one is dropped at its deadline (5 s).
$CLIENT slow 0.4 "$W/sent" >"$W/slow" &
py=$!
wait_file "$W/sent"
sleep 0.2
t0=$(ms)
"$PVPRF" exit 1 2>"$W/e"
t=$(($(ms) - t0))
check "a caller beside one sending a byte at a time: answered in $t ms" \
    sh -c "test $t -lt 1000 && grep -q ': 543 ' '$W/e'"
wait "$py"
check "the slow one dropped at its deadline ($(cat "$W/slow") s)" \
    awk '$1 == "closed" && $2 >= 4.5 && $2 <= 6.5 { f = 1 } END { exit !f }' \
    "$W/slow"

# One process holds 64 connections: another caller is answered, and the
# connections past 16 are refused with a reply saying why.
$CLIENT many 64 1 "$W/ready" >"$W/many" &
py=$!
wait_file "$W/ready"
"$PVPRF" exit 1 2>"$W/e"
rc=$?
check "64 connections held by one process: another caller answered ($rc)" \
    sh -c "test $rc = 3 && grep -q ': 543 ' '$W/e'"
wait "$py"
check "and that process told why on 48: $(cat "$W/many")" \
    grep -q "^refused 48 328 .* 16 connections open" "$W/many"

# A daemon with 12 descriptors and 10 callers waiting: it takes what it
# can and waits for a descriptor, without asking again and again.
stop_daemon
prlimit --nofile=12:12 "$PVPRF" exit 1 2>/dev/null
dpid=$(daemon)
rm -f "$W/ready"
$CLIENT many 10 3 "$W/ready" >"$W/many" &
py=$!
wait_file "$W/ready"
sleep 0.3
nfd=$(ls "/proc/$dpid/fd" | wc -l)
used=$(cpu_in "$dpid" 2)
check "out of descriptors ($nfd open): the daemon's CPU over 2 s, $used ns" \
    sh -c "test $nfd = 12 && test $used -lt 50000000"
wait "$py"
"$PVPRF" exit 1 2>"$W/e"
check "and answers again once they are freed" grep -q ': 543 ' "$W/e"
finish
