# Shared by the heap end-to-end tests: run a test program directly, under
# pvheap and under valgrind memcheck, and read what each said.  Sourced.

: "${top_srcdir:=.}" "${top_builddir:=.}"
# Absolute: the programs run in a scratch folder.
build=$(cd "$top_builddir" && pwd)
PVHEAP=${PVHEAP:-$build/capture/pvheap/pvheap}
HEAPSUM=${HEAPSUM:-$build/tests/e2e/heapsum}
HEAPBIN=$build/tests/data/heap

. "$top_srcdir/tests/tap.sh"

# heap_setup NAME [valgrind]: a scratch folder W; skip without valgrind
# when the test needs it.
heap_setup()
{
	if [ "${2:-}" = valgrind ] && ! command -v valgrind >/dev/null 2>&1
	then
		skip_all "valgrind not found"
	fi
	W=$(mktemp -d "${TMPDIR:-/tmp}/profview-$1.XXXXXX")
	trap 'rm -rf "$W"' EXIT
	trap 'exit 1' HUP INT TERM
}

# heap_store_test NAME N: a store migration test's start: heap_setup,
# PV, db (W/pv.db), sql QUERY [DB] (its rows, no header; a value's
# column is "v") and the plan of N checks; all skipped without the
# sqlite3 shell, which makes the older stores.
heap_store_test()
{
	heap_setup "$1"
	PV=${PROFVIEW:-$build/profview}
	if ! command -v sqlite3 >/dev/null 2>&1; then
		echo "1..0 # SKIP the sqlite3 shell is not installed"
		exit 0
	fi
	echo "1..$2"
	db="$W/pv.db"
	sql() { "$PV" --db "${2:-$db}" sql --csv "$1" | sed 1d; }
}

# heap_store_v4 DB: turn DB's blocks and pointers back into what the heap
# tables' version 4 had, a heap_block row a block and a heap_ref row a
# pointer (each session's last first, so that a migration must sort
# them) with the pointers' rowids in the header, no vtables (version
# 6's), and say the tables are version 4; the rest stays.  Needs the sqlite3 shell.
heap_store_v4()
{
	"${PROFVIEW:-$build/profview}" --db "$1" sql --csv "SELECT session,
	    src, src_off, dst, dst_off FROM heap_ref ORDER BY session,
	    src DESC, src_off DESC" | sed 1d > "$1.refs" &&
	{
		echo "BEGIN;"
		"${PROFVIEW:-$build/profview}" --db "$1" sql --csv "SELECT
		    'INSERT INTO heap_block VALUES (' || quote(session) || ','
		    || quote(idx) || ',' || quote(addr) || ',' || quote(size)
		    || ',' || quote(usable) || ',' || quote(seq) || ',' ||
		    quote(site) || ',' || quote(type) || ',' || quote(tid) ||
		    ',' || quote(state) || ',' || quote(leak) || ',' ||
		    quote(region) || ',' || quote(contents) || ');' AS v FROM
		    heap_block ORDER BY session, idx DESC" | sed '1d; s/^"//;
		    s/"$//'
		echo "COMMIT;"
	} > "$1.blocks" &&
	sqlite3 "$1" "DROP VIEW heap_ref; DROP TABLE heap_refrun;
	    CREATE TABLE heap_ref (session INTEGER NOT NULL
	    REFERENCES session(id) ON DELETE CASCADE, src INTEGER NOT NULL,
	    src_off INTEGER NOT NULL, dst INTEGER NOT NULL,
	    dst_off INTEGER NOT NULL); DROP VIEW heap_block;
	    DROP TABLE heap_blockrun; DROP TABLE heap_content;
	    CREATE TABLE heap_block (session INTEGER NOT NULL
	    REFERENCES session(id) ON DELETE CASCADE, idx INTEGER NOT NULL,
	    addr INTEGER NOT NULL, size INTEGER NOT NULL,
	    usable INTEGER NOT NULL, seq INTEGER NOT NULL, site INTEGER,
	    type INTEGER, tid INTEGER NOT NULL, state TEXT NOT NULL
	    CHECK (state IN ('reachable', 'possible', 'collectable')),
	    leak TEXT CHECK (leak IN ('definite', 'indirect')),
	    region INTEGER, contents BLOB, PRIMARY KEY (session, idx))
	    WITHOUT ROWID" &&
	sqlite3 "$1" < "$1.blocks" &&
	sqlite3 -csv "$1" ".import '$1.refs' heap_ref" &&
	sqlite3 "$1" "UPDATE heap SET ref_first = (SELECT min(rowid)
	    FROM heap_ref r WHERE r.session = heap.session), ref_last =
	    (SELECT max(rowid) FROM heap_ref r WHERE r.session =
	    heap.session); ALTER TABLE heap_type DROP COLUMN vtable_size;
	    DROP TABLE heap_vtable;
	    UPDATE kind_schema SET version = 4 WHERE kind = 'heap'"
}

# heap_store_v7 DB: turn DB's pointer runs back into what the heap
# tables' version 7 had, every run's blob of form 1 (four varints a
# pointer, as heap_ref_pack packs them) and no form column, and say the
# tables are version 7; the rest stays.  Needs the sqlite3 shell.
heap_store_v7()
{
	{
		echo "BEGIN; CREATE TABLE r7 (session INTEGER NOT NULL"
		echo "    REFERENCES session(id) ON DELETE CASCADE,"
		echo "    run INTEGER NOT NULL, count INTEGER NOT NULL,"
		echo "    refs BLOB NOT NULL, PRIMARY KEY (session, run));"
		"${PROFVIEW:-$build/profview}" --db "$1" sql --csv "SELECT
		    'INSERT INTO r7 VALUES (' || session || ',' || (src >> 12)
		    || ',' || count(*) || ',' || quote(heap_ref_pack(src,
		    src_off, dst, dst_off)) || ');' AS v FROM heap_ref
		    GROUP BY session, src >> 12" | sed '1d; s/^"//; s/"$//'
		echo "DROP VIEW heap_ref; DROP TABLE heap_refrun;"
		# The rename must not check the views: the shell lacks
		# heap_block_unpack.
		echo "PRAGMA legacy_alter_table = ON;"
		echo "ALTER TABLE r7 RENAME TO heap_refrun;"
		echo "CREATE VIEW heap_ref AS SELECT r.session AS session,"
		echo "    u.src AS src, u.src_off AS src_off, u.dst AS dst,"
		echo "    u.dst_off AS dst_off FROM heap_refrun r,"
		echo "    heap_ref_unpack(r.refs) u;"
		echo "UPDATE kind_schema SET version = 7 WHERE kind = 'heap';"
		echo "COMMIT;"
	} > "$1.refs7" &&
	sqlite3 "$1" < "$1.refs7"
}

# heap_store_v6 DB: turn DB's block runs back into what the heap tables'
# version 6 had (its pointers as version 7 had them, heap_store_v7), each run's blocks JSON text (an array of arrays: addr
# less the run's first, size, usable less size, seq, site, type, tid,
# state * 3 + leak, region) under a heap_block view by json_each, and
# say the tables are version 6; the rest stays.  Needs the sqlite3 shell.
heap_store_v6()
{
	{
		echo "BEGIN; CREATE TABLE b6 (session, idx, addr, size,"
		echo "    usable, seq, site, type, tid, state, leak, region,"
		echo "    PRIMARY KEY (session, idx));"
		"${PROFVIEW:-$build/profview}" --db "$1" sql --csv "SELECT
		    'INSERT INTO b6 VALUES (' || quote(session) || ',' ||
		    quote(idx) || ',' || quote(addr) || ',' || quote(size) ||
		    ',' || quote(usable) || ',' || quote(seq) || ',' ||
		    quote(site) || ',' || quote(type) || ',' || quote(tid) ||
		    ',' || quote(state) || ',' || quote(leak) || ',' ||
		    quote(region) || ');' AS v FROM heap_block
		    ORDER BY session, idx" | sed '1d; s/^"//; s/"$//'
		echo "COMMIT;"
	} > "$1.blocks6" &&
	heap_store_v7 "$1" &&
	sqlite3 "$1" < "$1.blocks6" &&
	sqlite3 "$1" "DROP VIEW heap_block; DROP TABLE heap_blockrun;
	    CREATE TABLE heap_blockrun (session INTEGER NOT NULL
	    REFERENCES session(id) ON DELETE CASCADE, run INTEGER NOT NULL,
	    count INTEGER NOT NULL, addr INTEGER NOT NULL,
	    blocks TEXT NOT NULL, PRIMARY KEY (session, run));
	    INSERT INTO heap_blockrun SELECT g.session, g.run, g.n,
	    (SELECT addr FROM b6 WHERE b6.session = g.session AND
	    b6.idx = g.first), g.blocks FROM (SELECT session, idx >> 12 AS run,
	    count(*) AS n, min(idx) AS first, json_group_array(json_array(
	    addr - (SELECT addr FROM b6 f WHERE f.session = o.session AND
	    f.idx = (o.idx >> 12) << 12), size, usable - size, seq, site, type,
	    tid, CASE state WHEN 'reachable' THEN 0 WHEN 'possible' THEN 3
	    ELSE 6 END + CASE leak WHEN 'definite' THEN 1 WHEN 'indirect'
	    THEN 2 ELSE 0 END, region)) AS blocks FROM (SELECT * FROM b6
	    ORDER BY session, idx) o GROUP BY session, idx >> 12) g;
	    DROP TABLE b6;
	    CREATE VIEW heap_block AS SELECT r.session AS session,
	    (r.run << 12) + j.key AS idx,
	    r.addr + json_extract(j.value, '\$[0]') AS addr,
	    json_extract(j.value, '\$[1]') AS size,
	    json_extract(j.value, '\$[1]') + json_extract(j.value, '\$[2]')
	    AS usable, json_extract(j.value, '\$[3]') AS seq,
	    json_extract(j.value, '\$[4]') AS site,
	    json_extract(j.value, '\$[5]') AS type,
	    json_extract(j.value, '\$[6]') AS tid,
	    CASE json_extract(j.value, '\$[7]') / 3 WHEN 0 THEN 'reachable'
	    WHEN 1 THEN 'possible' ELSE 'collectable' END AS state,
	    CASE json_extract(j.value, '\$[7]') % 3 WHEN 1 THEN 'definite'
	    WHEN 2 THEN 'indirect' END AS leak,
	    json_extract(j.value, '\$[8]') AS region, c.contents AS contents
	    FROM heap_blockrun r, json_each(r.blocks) j
	    LEFT JOIN heap_content c ON c.session = r.session
	    AND c.idx = (r.run << 12) + j.key;
	    UPDATE kind_schema SET version = 6 WHERE kind = 'heap'"
}

# direct NAME PROG [ARGS]: run it as it is; W/NAME.direct, $direct_rc.
direct()
{
	name=$1
	shift
	"$@" > "$W/$name.direct" 2>&1
	direct_rc=$?
}

# pvheap NAME [OPTIONS --] PROG [ARGS]: run under pvheap -q, writing
# W/NAME.heap; W/NAME.out and $pv_rc.
pvheap()
{
	name=$1
	shift
	(cd "$W" && "$PVHEAP" -q -o "$W/$name.heap" "$@") > "$W/$name.out" \
	    2> "$W/$name.err"
	pv_rc=$?
}

# memcheck NAME PROG [ARGS]: valgrind's log in W/NAME.vg.PID (libc's and
# libstdc++'s exit-time frees off: the heap at exit is the program's).
memcheck()
{
	name=$1
	shift
	valgrind --leak-check=full --show-leak-kinds=all \
	    --run-libc-freeres=no --run-cxx-freeres=no \
	    --log-file="$W/$name.vg.%p" "$@" > "$W/$name.vgout" 2>&1
	vg_rc=$?
}

# vg_summary LOG [N]: the N-th (default first) leak summary of a valgrind
# log as "reachable B N / possible B N / definite B N / indirect B N"
# lines (bytes first, as memcheck prints them).
vg_summary()
{
	awk -v want="${2:-1}" '
	function num(s) { gsub(/,/, "", s); return s + 0 }
	/LEAK SUMMARY:/ { k++; next }
	/All heap blocks were freed/ { k++; if (k == want) { none = 1 } }
	k == want && /definitely lost:/ { d = num($4) " " num($7) }
	k == want && /indirectly lost:/ { i = num($4) " " num($7) }
	k == want && /possibly lost:/ { p = num($4) " " num($7) }
	k == want && /still reachable:/ { r = num($4) " " num($7) }
	END {
		if (none) { d = i = p = r = "0 0" }
		print "reachable " r; print "possible " p
		print "definite " d; print "indirect " i
		split(d, a, " "); split(i, b, " ")
		print "collectable " a[1] + b[1] " " a[2] + b[2]
	}' "$1"
}

# pv_summary FILE.heap: the same lines from the snapshot.
pv_summary()
{
	"$HEAPSUM" "$1" | awk '$1 != "blocks" { print $1 " " $3 " " $2 }'
}

# same_kind KIND A B: A's and B's KIND lines agree (a line per summary).
same_kind()
{
	[ -n "$(grep "^$1 " "$2")" ] &&
	    [ "$(grep "^$1 " "$2")" = "$(grep "^$1 " "$3")" ]
}

# compare DESC PV VG: collectable, possible and reachable agree.
compare()
{
	for k in collectable possible reachable; do
		check "$1: $k bytes and blocks as memcheck's ($(grep "^$k " \
		    "$3" | cut -d' ' -f2-) / pvheap $(grep "^$k " "$2" |
		    cut -d' ' -f2-))" same_kind $k "$2" "$3"
	done
}
