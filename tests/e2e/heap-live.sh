#!/bin/sh
# Snapshots of a running program on request (--socket: the reply names
# the file), and of one that closed a module with dlclose: its stacks
# into the closed module are still named, the module marked unloaded.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-live
echo "1..6"
sock=$W/s.sock
# The program waits for the test's word (a file), not a time: on a loaded
# machine a fixed sleep could end before the request is served.
(cd "$W" && "$PVHEAP" -q --socket "$sock" -o "$W/sl.heap" -- sh -c \
    'i=0; while [ ! -e "$1" ] && [ $i -lt 1200 ]; do sleep 0.05;
    i=$((i + 1)); done' sh "$W/go") &
pid=$!
for i in $(seq 100); do
	[ -S "$sock" ] && break
	sleep 0.05
done
reply=$(python3 - "$sock" <<'EOPY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"snapshot\n")
print(s.makefile().readline().strip())
EOPY
)
check "a request on the socket is answered ($reply)" \
    test "$reply" = "ok $W/sl.1.heap"
check "and the file it names reads" sh -c "'$HEAPSUM' '$W/sl.1.heap' > /dev/null"
touch "$W/go"
wait "$pid"
check "the program ends as it would ($?)" test "$?" = 0

pvheap dl -- "$HEAPBIN/dlopen" "$HEAPBIN/plugin.so"
check "dlopen: ran ($pv_rc)" test "$pv_rc" = 0
"$HEAPSUM" "$W/dl.heap" -v > "$W/dl.sum"
check "the list made in the closed module is reachable, its function named" \
    test "$(grep -c 'reachable .* site=plugin_make' "$W/dl.sum")" = 5
check "the closed module is in the snapshot, marked unloaded" sh -c \
    "'$build/profview' --db '$W/pv.db' ingest '$W/dl.heap' > /dev/null &&
    '$build/profview' --db '$W/pv.db' sql --csv \"SELECT count(*) FROM
    heap_module WHERE unloaded = 1 AND path LIKE '%plugin.so'\" | tail -1 |
    grep -qx 1"
