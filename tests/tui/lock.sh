#!/bin/sh
# Screen test: a browser started on a file while another process holds
# the store's write lock (another ingest) says what it waits for, and
# who holds the lock, before the wait, and opens the file once the lock
# is free (issue 18, point 21: its screen was blank meanwhile).
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 3
mkprf || exit 1
# A second file, one count changed: a new session, not the first again.
python3 - "$dir/DEMO.PRF" "$dir/TWO.PRF" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[-1] ^= 1
open(sys.argv[2], "wb").write(b)
PY
# The lock: a write transaction held until the test's word (a file).
python3 - "$dir/db" "$dir/locked" "$dir/release" <<'PY' &
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
c.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").write("1")
i = 0
while not os.path.exists(sys.argv[3]) and i < 1200:
	time.sleep(0.05)
	i += 1
c.execute("ROLLBACK")
PY
lock_pid=$!
trap 'touch "$dir/release"; wait $lock_pid; cleanup' EXIT
wait_file "$dir/locked"

start -- "$dir/TWO.PRF"
# The message may wrap at 80 columns: read the screen as one line.
said() { screen | tr -d '\n' | grep -qF "$1"; }
wait_until said "profview: $dir/db: waiting for process $lock_pid, which is"
ok $? "waiting for the lock: the store and the holder's pid ($lock_pid) said"
[ "$(sql "SELECT count(*) FROM session")" = 1 ]
ok $? "... and nothing stored meanwhile"
touch "$dir/release"
wait "$lock_pid"
wait_for "profview: TWO: 64 buckets" &&
    [ "$(sql "SELECT count(*) FROM session")" = 2 ]
ok $? "the lock freed: the file stored and browsed"
keys q q q
finish
