#!/bin/sh
# What pvheap writes beside other users: a snapshot 0600 (umask 022
# notwithstanding), not through a symlink planted at the old temporary
# name NAME.tmp (with O_TMPFILE and without: tests/data/heap/notmpfile.so
# makes it fail), into a FIFO named as the output in place, with no
# temporary file left; the agent's lines on the standard error pvheap
# was started with, not in a file the program opened as fd 2, nor in one
# it opened at the number of the agent's copy; --socket refuses a file
# that is not a socket (pvheap, and the agent alone), takes the place of
# a socket an earlier run left and removes its own at exit.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-files
echo "1..19"
prog=$HEAPBIN/exits
AGENT=${PVHEAP_LIB:-$build/capture/pvheap/libpvheap.so}
umask 022

echo victim > "$W/victim"
ln -s "$W/victim" "$W/s.heap.tmp"
pvheap s -- "$prog"
check "the snapshot reads" sh -c "'$HEAPSUM' '$W/s.heap' > /dev/null"
check "it is 0600 ($(stat -c %a "$W/s.heap"))" \
    test "$(stat -c %a "$W/s.heap")" = 600
check "not written through a symlink at s.heap.tmp" \
    test "$(cat "$W/victim")" = victim
check "no temporary file left" \
    test -z "$(ls -A "$W" | grep '^\.s\.heap\.')"
# A file system without O_TMPFILE: the named temporary file's path.
echo victim > "$W/victim2"
ln -s "$W/victim2" "$W/t.heap.tmp"
# (pvheap too gets the preload: in the sanitizer build ASan would refuse
# to run with a library loaded before its runtime, hence the option.)
LD_PRELOAD=$HEAPBIN/notmpfile.so
ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
export LD_PRELOAD ASAN_OPTIONS
pvheap t -- "$prog"
unset LD_PRELOAD
check "without O_TMPFILE: not written through the symlink either" \
    test "$(cat "$W/victim2")" = victim
check "... the snapshot reads and is 0600 ($(stat -c %a "$W/t.heap"))" \
    sh -c "'$HEAPSUM' '$W/t.heap' > /dev/null && test \
    \"\$(stat -c %a '$W/t.heap')\" = 600 -a ! -h '$W/t.heap'"
check "... and no temporary file is left" \
    test -z "$(ls -A "$W" | grep '^\.t\.heap\.')"

mkfifo "$W/f.heap"
timeout 20 cat "$W/f.heap" > "$W/f.got" &
reader=$!
pvheap f -- "$prog"
wait $reader
check "a FIFO named as the output: the snapshot went through it" \
    sh -c "'$HEAPSUM' '$W/f.got' > /dev/null"
check "... and it is still a FIFO" test -p "$W/f.heap"

# Not -q: the agent's line is what is looked for.
(cd "$W" && "$PVHEAP" -o "$W/e.heap" -- "$prog" stderr "$W/e.data") \
    > /dev/null 2> "$W/e.err"
check "fd 2 reopened by the program: its file has only its own line" \
    test "$(cat "$W/e.data")" = data
check "... and the agent's line went to pvheap's standard error" \
    grep -q "pvheap: $W/e.heap: " "$W/e.err"
(cd "$W" && "$PVHEAP" -o "$W/c.heap" -- "$prog" closeall "$W/c.data") \
    > /dev/null 2> "$W/c.err"
check "every descriptor closed and reused: the agent writes into none" \
    test "$(cat "$W/c.data")" = data -a -f "$W/c.heap"

echo mine > "$W/sock"
pvheap k --socket "$W/sock" -- "$prog"
check "--socket on a file that is not a socket: refused, status $pv_rc" \
    sh -c '[ $1 = 2 ] && grep -q "exists and is not a socket" "$2"' sh \
    $pv_rc "$W/k.err"
(cd "$W" && LD_PRELOAD=$AGENT PVHEAP_OUT=$W/k2.heap PVHEAP_OPTS="exit;" \
    PVHEAP_SOCKET=$W/sock "$prog") > /dev/null 2> "$W/k2.err"
check "... and by the agent alone, which says so" \
    grep -q "cannot listen on $W/sock: it exists and is not a socket" \
    "$W/k2.err"
check "the file is untouched" test "$(cat "$W/sock")" = mine
python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$W/old.sock"
pvheap o --at-exit --socket "$W/old.sock" -- "$prog"
check "a socket an earlier run left is replaced (status $pv_rc)" \
    test "$pv_rc" = 0 -a -f "$W/o.heap"
check "the socket is removed at exit" test ! -e "$W/old.sock"

# The socket is its owner's alone, whatever the program's umask (a
# snapshot holds the program's memory), and a client must send its
# request within 2 s in all, not 2 s a byte.
(umask 022; cd "$W" && exec "$PVHEAP" -q -o "$W/m.heap" --socket \
    "$W/m.sock" -- sleep 30) > /dev/null 2>&1 &
mpid=$!
i=0
while [ ! -S "$W/m.sock" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
check "the socket is 0600 under umask 022 ($(stat -c %a "$W/m.sock"))" \
    test "$(stat -c %a "$W/m.sock")" = 600
slow_client() {
	python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
t = time.monotonic()
s.settimeout(10)
try:
    for c in b"snapshot\n":
        s.send(bytes([c]))
        time.sleep(0.5)
except OSError:
    pass
s.recv(100)
sys.exit(time.monotonic() - t > 3.5)' "$1"
}
check "a client dribbling its request is answered or dropped within 2 s" \
    slow_client "$W/m.sock"
kill "$mpid" 2>/dev/null
# (It dies of the SIGTERM it passes on: not this script's status.)
wait "$mpid" 2>/dev/null || :
