#!/bin/sh
# Screen test: the sessions view.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 8
mkprf
python3 - "$dir/TWO.PRF" <<'PY'
import struct, sys
hdr = struct.pack('<9H', 1000, 4, 2, 0x2000, 0x2008, 0x0800, 0, 0, 0)
open(sys.argv[1], 'wb').write(hdr + struct.pack('<4H', 1, 2, 3, 4))
PY
"$PROFVIEW" --db "$dir/db" ingest "$dir/TWO.PRF" >/dev/null

start -- browse 1 2
wait_for "profview: 2 sessions in $dir/db"
ok $? "several ids open the sessions view"
wait_for -E "^ +1 prf +20[0-9-]+ [0-9:]+ +<.*/DEMO.PRF +64 buckets of 1 para" &&
    wait_for -E "^ +2 prf +20[0-9-]+ [0-9:]+ +<.*/TWO.PRF +4 buckets of 2 para"
ok $? "one line per session: id, kind, when, source, summary"
keys j Enter
wait_for "profview: TWO: 4 buckets x1 by hits"
ok $? "Enter opens the session's histogram: without symbols, its buckets by hits"
keys q
wait_for "[sessions] 2/2"
ok $? "q comes back to the sessions view"
keys d
wait_for "delete session 2 ($dir/TWO.PRF)? y/n"
ok $? "d asks before deleting"
keys n
wait_for "cancelled" && [ "$(sql 'SELECT count(*) FROM session')" = 2 ]
ok $? "n keeps the session"
keys d y
wait_for "deleted session 2" && wait_for "profview: 1 session in" &&
    [ "$(sql 'SELECT count(*) FROM session')" = 1 ]
ok $? "y deletes it and the list reloads"
keys / d e m o Enter
wait_for "/demo: 1/1"
ok $? "/ searches the sources"
finish
