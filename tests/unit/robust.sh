#!/bin/sh
# The command line against hostile input and a hostile world (issue 9,
# points 8 and 10): OVD units named by a map, or not; options honoured on
# a file already stored; readers that never wait for a writer; stores
# that are read-only, missing or corrupt; FIFOs; a full disk; names that
# would drive the terminal; ATTACH; huge blobs; SIGINT in profview sql.
: "${PROFVIEW:?PROFVIEW must name the built binary}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvrobust.XXXXXX") || exit 1
cleanup() {
	touch "$tmp/release"
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
db="$tmp/t.db"
pv() { "$PROFVIEW" --db "$db" "$@"; }
. "${top_srcdir:-.}/tests/tap.sh"
py() { python3 -c "$@"; }
# Everything into the store file itself, none left in its -wal.
checkpoint() { py 'import sqlite3, sys
sqlite3.connect(sys.argv[1]).execute("PRAGMA wal_checkpoint(TRUNCATE)")' \
    "$1"; }
plan 56

# OVD files: version 1, units at 0040h (48 bytes), 0044h, 0048h, one load
# event at ticks $2 of 0040h into a buffer 3000h..3008h.
mkovd() {
	py '
import struct, sys
w = lambda *v: struct.pack("<%dH" % len(v), *v)
b = w(1, 0x1a2b)
for seg, size in ((0x40, 48), (0x44, 64), (0x48, 32)):
    b += w(seg) + struct.pack("<I", 0x200) + w(size, 16, 1)
b += w(0) + struct.pack("<I", int(sys.argv[2]))
b += w(0xffff, 0x3000, 0x3008, 0x40, 5, 0x40, 0x3000, 0)
open(sys.argv[1], "wb").write(b)' "$1" "$2"
}
# A Turbo Pascal map naming 0040h UNITA and 0044h UNITB, not 0048h;
# with "publics", their main blocks too.
mktpmap() {
	{
		printf '\n Start  Stop   Length Name               Class\n\n'
		printf ' 00000H 003FFH 00400H MAIN               CODE\n'
		printf ' 00400H 0042FH 00030H UNITA              CODE\n'
		printf ' 00440H 0047FH 00040H UNITB              CODE\n'
		printf ' 00490H 004AFH 00020H DATA               DATA\n'
		printf ' 004B0H 004B0H 00000H HEAP               HEAP\n'
		if [ "$2" = publics ]; then
			printf '\n  Address         Publics by Value\n\n'
			printf ' 0040:0000       @\n 0044:0000       @\n'
		fi
		printf '\nProgram entry point at 0000:0000\n'
	} >"$1"
}
units() { pv sql --csv "SELECT group_concat(printf('%X=%s', stat_seg,
    coalesce(name, 'NULL')), ' ') AS u FROM (SELECT * FROM ovr_unit
    WHERE session = $1 ORDER BY stat_seg)" | sed 1d; }

mkovd "$tmp/A.OVD" 100
mktpmap "$tmp/A.MAP" publics
mkovd "$tmp/B.OVD" 200
pv ingest "$tmp/A.OVD" "$tmp/B.OVD" >"$tmp/out" 2>"$tmp/err"
check "two OVD files, the first with a map: both load" \
    test "$(cut -f1 "$tmp/out" | tr '\n' ' ')" = "1 2 "
check "a unit the map does not name stays unnamed" \
    test "$(units 1)" = "40=UNITA 44=UNITB 48=NULL"
check "the file without a map has no names (not the other file's)" \
    test "$(units 2)" = "40=NULL 44=NULL 48=NULL"
check "... and the missing name is a warning" \
    grep -q 'A.MAP names no unit at static segment 0048h' "$tmp/err"
pv --map "$tmp/A.MAP" ingest "$tmp/B.OVD" >/dev/null 2>&1
check "B.OVD again with --map: the same session, its units named" \
    test "$(units 2)" = "40=UNITA 44=UNITB 48=NULL"

mkovd "$tmp/GS.OVD" 300
mktpmap "$tmp/GS.MAP" segments
pv ingest "$tmp/GS.OVD" >/dev/null 2>&1
check "a TP map of segments only (TPC /GS) names the units" \
    test "$(units 3)" = "40=UNITA 44=UNITB 48=NULL"

# FOO.PRF: PSP 1000h, 8 buckets of a paragraph (from report_cli.sh).
printf '\215\326\010\000\001\000\000\020\010\020\160\000\002\000\007\000\001\000\012\000\000\000\005\000\000\000\000\000\024\000\000\000\003\000' \
    >"$tmp/FOO.PRF"
mklink() {
	printf '\n  Address         Publics by Value\n\n 0000:0000       %s\n 0000:0010       %s2\n' \
	    "$2" "$2" >"$1"
}
mklink "$tmp/one.map" alpha
mklink "$tmp/two.map" beta
syms() { pv sql --csv "SELECT group_concat(printf('%s@%X', name, addr), ' ') AS s
    FROM (SELECT * FROM symbol WHERE session = $1 ORDER BY addr, name)" |
    sed 1d; }
id=$(pv --map "$tmp/one.map" ingest "$tmp/FOO.PRF" 2>/dev/null | cut -f1)
pv --map "$tmp/two.map" ingest "$tmp/FOO.PRF" >"$tmp/out" 2>/dev/null
check "ingest again with another --map: the same session" \
    test "$(cut -f1 "$tmp/out")" = "$id"
check "... with the new map's symbols only" \
    test "$(syms "$id")" = "beta@10100 beta2@10110"
pv --map "$tmp/two.map" --load com ingest "$tmp/FOO.PRF" >/dev/null 2>&1
check "ingest again with --load com: symbols relocated (PSP:0000)" \
    test "$(syms "$id")" = "beta@10000 beta2@10010"
check "... and the file's rows are there once" test "$(pv sql --csv \
    "SELECT count(*) FROM bucket WHERE session = $id" | sed 1d)" = 8
pv ingest "$tmp/FOO.PRF" >/dev/null 2>&1
check "ingest again without options keeps what is there" \
    test "$(syms "$id")" = "beta@10000 beta2@10010"

# A store edited by hand to hold what no PRF can: said, not wrapped round.
py 'import sqlite3, sys
c = sqlite3.connect(sys.argv[2])
sqlite3.connect(sys.argv[1]).backup(c)
c.execute("UPDATE bucket SET hits = 1 << 32 WHERE idx = 3")
c.commit()' "$db" "$tmp/edited.db"
"$PROFVIEW" --db "$tmp/edited.db" export "$id" >/dev/null 2>"$tmp/err"
check "a bucket's hits past 2^32 - 1 in the store: an error naming it" \
    sh -c '[ $1 -ne 0 ] &&
    grep -q "bucket 3: .*hits 4294967296: not what a PRF holds" "$2"' \
    sh $? "$tmp/err"

pv sessions >"$tmp/out"
check "sessions prints a header" \
    grep -q '^id  *kind  *ingested  *source  *summary  *warnings$' "$tmp/out"
pv sessions --csv >"$tmp/out"
check "sessions --csv: a header and a row a session" sh -c \
    'head -1 "$1" | grep -qx "id,kind,ingested,source,summary,warnings" &&
    test "$(wc -l <"$1")" -eq 5' sh "$tmp/out"
pv sessions --json >"$tmp/out"
check "sessions --json: an array of objects" py '
import json, sys
v = json.load(open(sys.argv[1]))
sys.exit(not (len(v) == 4 and v[3]["kind"] == "prf" and
    v[0]["summary"].startswith("3 overlaid units")))' "$tmp/out"

cp "$tmp/FOO.PRF" "$tmp/BAR.PRF"
printf 'x' >>"$tmp/BAR.PRF"
nsessions() { pv sql --csv 'SELECT count(*) FROM session' | sed 1d; }
n0=$(nsessions)
pv export -o "$tmp/nowhere/r.txt" "$tmp/BAR.PRF" 2>"$tmp/err"
check "export -o to a path that cannot be written fails" test $? -eq 1
check "... before ingesting anything" test "$(nsessions)" = "$n0"

# Readers while another process holds the write lock (as an ingest does
# all along): none waits.
cat >"$tmp/hold.py" <<'EOF'
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
c.execute("BEGIN IMMEDIATE")
c.execute("INSERT INTO warning(session, offset, message) VALUES (1, 0, 'x')")
open(sys.argv[2], "w").close()
while not os.path.exists(sys.argv[3]):
    time.sleep(0.02)
c.execute("ROLLBACK")
EOF
hold() {
	rm -f "$tmp/held" "$tmp/release"
	python3 "$tmp/hold.py" "$db" "$tmp/held" "$tmp/release" &
	holder=$!
	i=0
	while [ ! -e "$tmp/held" ] && [ $i -lt 500 ]; do
		sleep 0.02
		i=$((i + 1))
	done
}
release() { touch "$tmp/release"; wait $holder; }
hold
pv sessions >/dev/null 2>"$tmp/err"
check "sessions while a writer holds the store" test $? -eq 0
pv sql 'SELECT count(*) FROM bucket' >/dev/null 2>>"$tmp/err"
check "sql while a writer holds the store" test $? -eq 0
pv export "$id" >/dev/null 2>>"$tmp/err"
check "export of a stored session while a writer holds the store" \
    test $? -eq 0
check "... none of them waited for the lock" sh -c \
    '! grep -q "locked" "$1"' sh "$tmp/err"
# Two ingests of one new file, both waiting behind the writer.
py 'import sys; open(sys.argv[1], "wb").write(open(sys.argv[2], "rb").read()
    + b"\0" * 2)' "$tmp/TWIN.PRF" "$tmp/FOO.PRF"
pv ingest "$tmp/TWIN.PRF" >"$tmp/twin1" 2>"$tmp/twinerr1" &
p1=$!
pv ingest "$tmp/TWIN.PRF" >"$tmp/twin2" 2>"$tmp/twinerr2" &
p2=$!
sleep 1
release
wait $p1
s1=$?
wait $p2
s2=$?
check "two concurrent ingests of one file both succeed" \
    test "$s1$s2" = 00
check "... and both print the one session" sh -c \
    'test -s "$1" && test "$(cut -f1 "$1")" = "$(cut -f1 "$2")" &&
    test "$3" = 1' sh "$tmp/twin1" "$tmp/twin2" "$(pv sql --csv \
    "SELECT count(*) FROM session WHERE source LIKE '%TWIN.PRF'" | sed 1d)"

# A store nobody may write: a read-only folder (no -shm can be made
# there), and a read-only file in a folder one may write.  As root,
# permissions do not hold: the reads run as nobody.
asuser=""
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null 2>&1; then
		asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
	fi
fi
if [ "$(id -u)" != 0 ] || [ -n "$asuser" ]; then
	mkdir "$tmp/rodir" "$tmp/rofile"
	chmod 755 "$tmp"
	checkpoint "$db"
	cp "$db" "$tmp/rodir/s.db"
	cp "$db" "$tmp/rofile/s.db"
	chmod 444 "$tmp/rodir/s.db" "$tmp/rofile/s.db"
	if [ -n "$asuser" ]; then
		chown 65534 "$tmp/rofile"
	fi
	chmod 555 "$tmp/rodir"
	# A copy nobody can run: the build tree may be in a 0700 home.
	pvro=$PROFVIEW
	if [ -n "$asuser" ]; then
		cp "$PROFVIEW" "$tmp/profview"
		chmod 755 "$tmp/profview"
		pvro=$tmp/profview
	fi
	$asuser "$pvro" --db "$tmp/rodir/s.db" sessions >"$tmp/out" \
	    2>"$tmp/err"
	check "sessions in a read-only folder" test $? -eq 0
	$asuser "$pvro" --db "$tmp/rodir/s.db" sql --csv \
	    'SELECT count(*) AS n FROM session' >"$tmp/out" 2>>"$tmp/err"
	check "sql in a read-only folder" \
	    test "$(sed 1d "$tmp/out")" = "$(nsessions)"
	$asuser "$pvro" --db "$tmp/rofile/s.db" export "$id" >"$tmp/out" \
	    2>>"$tmp/err"
	check "export from a read-only store file" test $? -eq 0
	chmod 755 "$tmp/rodir"
else
	for d in "sessions in a read-only folder" "sql in a read-only folder" \
	    "export from a read-only store file"; do
		skip "$d" "root without setpriv"
	done
fi

pv_none() { "$PROFVIEW" --db "$tmp/none/s.db" "$@"; }
pv_none sessions >/dev/null 2>"$tmp/err"
check "sessions on a store that does not exist fails" test $? -eq 1
pv_none sql 'SELECT 1' >/dev/null 2>>"$tmp/err"
check "sql on a store that does not exist fails" test $? -eq 1
check "... and neither made one" sh -c '! test -e "$1"' sh "$tmp/none"

# FIFOs fail at once instead of waiting for a writer or a reader.
mkfifo "$tmp/fifo"
timeout 20 "$PROFVIEW" --db "$db" ingest "$tmp/fifo" 2>/dev/null
check "a FIFO as the data file is refused, not waited on" test $? -eq 1
timeout 20 "$PROFVIEW" --db "$db" --map "$tmp/fifo" ingest "$tmp/BAR.PRF" \
    >/dev/null 2>&1
check "a FIFO as --map is refused, not waited on" test $? -eq 1
timeout 20 "$PROFVIEW" --db "$db" export -o "$tmp/fifo" "$id" 2>/dev/null
check "export -o to a FIFO nobody reads fails, not waits" test $? -eq 1

# A store whose session table is garbage: SQLite's error, not "no session".
cp "$db" "$tmp/bad.db"
checkpoint "$tmp/bad.db"
py '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
root, = c.execute("SELECT rootpage FROM sqlite_schema WHERE name = ?",
    ("session",)).fetchone()
size, = c.execute("PRAGMA page_size").fetchone()
c.close()
f = open(sys.argv[1], "r+b")
f.seek((root - 1) * size)
f.write(b"\xa5" * size)' "$tmp/bad.db"
"$PROFVIEW" --db "$tmp/bad.db" export 1 >/dev/null 2>"$tmp/err"
check "a corrupt store: export fails with SQLite's error" sh -c \
    'grep -q "malformed" "$1" && ! grep -q "no session" "$1"' sh "$tmp/err"

# Standard output on a full disk: every command says so and fails.
full() {
	"$@" >/dev/full 2>"$tmp/err" </dev/null
	[ $? -ne 0 ] && grep -q "No space left" "$tmp/err"
}
check "ingest > /dev/full fails" full pv ingest "$tmp/FOO.PRF"
check "sessions > /dev/full fails" full pv sessions
check "sql > /dev/full fails" full pv sql 'SELECT 1'
check "export > /dev/full fails" full pv export "$id"
check "a file, not on a terminal, > /dev/full fails" full pv "$tmp/FOO.PRF"
check "--version > /dev/full fails" full pv --version
check "--help > /dev/full fails" full pv --help

# A file name that would retitle the terminal, and names that would turn
# the text around: escaped wherever the CLI writes them for people.
esc=$(printf 'E\033]0;owned\007.PRF')
cp "$tmp/BAR.PRF" "$tmp/$esc"
printf 'yy' >>"$tmp/$esc"
noesc() { ! grep -q "$(printf '\033')" "$1"; }
pv ingest "$tmp/$esc" >"$tmp/out" 2>"$tmp/err"
check "ingest: the file name is escaped on stdout and stderr" sh -c \
    'grep -qF "E\\x1B]0;owned\\x07.PRF" "$1" && ! grep -q "$(printf "\\033")" "$1" &&
    ! grep -q "$(printf "\\033")" "$2"' sh "$tmp/out" "$tmp/err"
pv sessions >"$tmp/out"
check "sessions: escaped" noesc "$tmp/out"
pv export "$(pv sql --csv "SELECT max(id) FROM session" | sed 1d)" \
    >"$tmp/out"
check "export (text): the title's file name escaped" noesc "$tmp/out"
pv sql 'SELECT source FROM session' >"$tmp/out"
check "sql (text): escaped" noesc "$tmp/out"
pv sql --csv 'SELECT source FROM session' >"$tmp/out"
check "sql --csv to a file: the data as it is" sh -c \
    'grep -q "$(printf "\\033")" "$1"' sh "$tmp/out"
py '
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
out = b""
while True:
    try:
        b = os.read(fd, 4096)
    except OSError:
        break
    if not b:
        break
    out += b
os.waitpid(pid, 0)
open(sys.argv[1], "wb").write(out)' "$tmp/pty" "$PROFVIEW" --db "$db" sql \
    --csv 'SELECT source FROM session'
check "sql --csv on a terminal: escaped" sh -c \
    'grep -q "owned" "$1" && ! grep -q "$(printf "\\033")" "$1"' sh \
    "$tmp/pty"
pv --writable sql "UPDATE symbol SET name = 'a' || char(8238) || 'txt.exe'
    WHERE session = $id AND name = 'beta'" >/dev/null
pv export -f html "$id" >"$tmp/out.html"
pv export "$id" >"$tmp/out.txt"
check "bidi overrides (U+202E) never reach html or text" sh -c \
    '! grep -q "$(printf "\\342\\200\\256")" "$1" &&
    ! grep -q "$(printf "\\342\\200\\256")" "$2" && grep -q "u202E" "$2"' \
    sh "$tmp/out.html" "$tmp/out.txt"

pv sql "ATTACH '$tmp/made.db' AS m" 2>"$tmp/err"
check "ATTACH without --writable: refused" test $? -eq 1
check "... and no file made" sh -c '! test -e "$1"' sh "$tmp/made.db"
pv sql "ATTACH '$db' AS again; SELECT count(*) FROM again.session" \
    >"$tmp/out" 2>&1
check "ATTACH of a store that exists is fine" \
    grep -qE "^ *$(nsessions)\$" "$tmp/out"

pv sql 'SELECT zeroblob(20000000) AS b' >"$tmp/out"
check "a huge blob is shown by its size" \
    grep -q '^\[blob of 20000000 bytes\]$' "$tmp/out"
pv sql --csv 'SELECT zeroblob(20000000) AS b' >"$tmp/out" 2>"$tmp/err"
check "... and is an error in csv, not a lost value" sh -c \
    'grep -q "20000000 bytes" "$1" && test "$(wc -l <"$2")" -eq 1' sh \
    "$tmp/err" "$tmp/out"

# SIGINT stops an aggregate that would run for ever, and profview sql
# ends as a shell expects: what it wrote is flushed, it says why, and it
# dies of the signal.
# (A background job starts with SIGINT ignored: put back the default a
# command typed at a terminal has.)
python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$PROFVIEW" --db "$db" sql \
    "SELECT 'first' AS a; WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL
    SELECT x + 1 FROM c) SELECT count(*) FROM c" >"$tmp/out" 2>"$tmp/err" &
pid=$!
# Until profview (not the wrapper) has run a tenth of a second of CPU:
# inside the aggregate by then.
i=0
t0=""
while [ $i -lt 500 ]; do
	t=$(awk '{ print $14 }' "/proc/$pid/stat" 2>/dev/null)
	if [ -z "$t0" ]; then
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = profview ] &&
		    t0=$t
	elif [ $((t - t0)) -ge 10 ]; then
		break
	fi
	sleep 0.02
	i=$((i + 1))
done
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 500 ]; do
	sleep 0.02
	i=$((i + 1))
done
kill -KILL $pid 2>/dev/null
wait $pid
st=$?
check "sql: SIGINT stops a query that returns no row" test $st -eq 130
check "... having written the rows before it, and saying so" sh -c \
    'grep -q "^first$" "$1" && grep -q "interrupted" "$2"' sh "$tmp/out" \
    "$tmp/err"

# A file with a warning per line: the first 20 on stderr, then one line
# counting the rest; every one kept in the store.  25 functions that no
# path names, added to a good .mon.
awk '/^\[functions\]/ { print "[functions] 30"; next }
    /^# *calls  *self_ns/ && !done { print; for (i = 0; i < 25; i++)
	printf "1 1000 1000 1000 1000 1 1 jump prog 0x%x 4 extra%d\n",
	    12288 + 16 * i, i; done = 1; next } { print }' \
    "${top_srcdir:-.}/tests/data/calls3.mon" >"$tmp/many.mon"
"$PROFVIEW" --db "$tmp/w.db" ingest "$tmp/many.mon" >/dev/null 2>"$tmp/err"
check "25 warnings: 20 shown, then one line counting the other 5" \
    test "$(grep -c ': offset [0-9]*: function extra' "$tmp/err")" = 20 -a \
    "$(grep -c 'many.mon: 5 more warnings (25 in all), kept with session 1' \
    "$tmp/err")" = 1
check "... and all 25 are in the store" test "$("$PROFVIEW" --db "$tmp/w.db" \
    sql --csv "SELECT count(*) FROM warning WHERE session = 1" | sed 1d)" = 25
exit 0
