#!/bin/sh
# A snapshot through profview: ingest makes a heap session whose tables
# agree with the reader's leak summary; sessions, export (every table
# format) and delete work on it; a bad file is refused with its offset
# and field and leaves nothing behind.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-ingest
PV=${PROFVIEW:-$build/profview}
echo "1..13"
pvheap s --contents 16 -- "$HEAPBIN/interior"
db="$W/pv.db"
id=$("$PV" --db "$db" ingest "$W/s.heap" | cut -f1)
check "ingest makes a session ($id)" test -n "$id"
check "its kind is heap" sh -c "'$PV' --db '$db' sessions --csv | grep -q ',heap,'"
# sql QUERY: its one value (a column name may span lines: "AS v").
sql() { "$PV" --db "$db" sql --csv "SELECT ($1) AS v" | sed 1d; }
"$HEAPSUM" "$W/s.heap" > "$W/sum"
want=$(awk '$1 == "blocks" { print $2 }' "$W/sum")
check "heap_block has every block ($want)" \
    test "$(sql "SELECT count(*) FROM heap_block WHERE session = $id")" = "$want"
for k in reachable possible collectable; do
	want=$(awk -v k=$k '$1 == k { print $2 }' "$W/sum")
	check "$k blocks as the reader counts them ($want)" test "$(sql \
	    "SELECT count(*) FROM heap_block WHERE session = $id AND state = '$k'")" = "$want"
done
check "the header's summary adds up" test "$(sql "SELECT definite_blocks +
    indirect_blocks + possible_blocks + reachable_blocks - blocks FROM heap
    WHERE session = $id")" = 0
check "kept contents: 16 bytes of big blocks" test "$(sql "SELECT
    max(length(contents)) FROM heap_block WHERE session = $id")" = 16
# A second session in the same store: each one's pointers are its own run
# of rowids, which is how profview counts them (the report's "pointers").
pvheap s2 -- "$HEAPBIN/tree"
id2=$("$PV" --db "$db" ingest "$W/s2.heap" | cut -f1)
bad=0 badr=0
for sid in $id $id2; do
	cnt=$(sql "SELECT count(*) FROM heap_ref WHERE session = $sid")
	[ "$cnt" -gt 0 ] || bad=1
	[ "$cnt" = "$(sql "SELECT coalesce(ref_last - ref_first + 1, 0) FROM heap
	    WHERE session = $sid")" ] || bad=1
	"$PV" --db "$db" export -f csv "$sid" > "$W/r$sid.csv"
	grep -q "^heap,pointers,$cnt," "$W/r$sid.csv" || badr=1
done
check "the refs' rowids are in the header, each session's own" test "$bad" = 0
check "the report's pointers are each session's rows" test "$badr" = 0
bad=0
for f in text csv json html; do
	"$PV" --db "$db" export -f $f "$id" > "$W/out.$f" 2> "$W/err" || bad=1
done
check "export in every table format" test "$bad" = 0
check "the text report has memcheck's summary" \
    grep -q 'definitely lost' "$W/out.text"
"$PV" --db "$db" delete "$id" "$id2" > /dev/null
check "delete leaves no rows" test "$(sql "SELECT (SELECT count(*) FROM
    heap) + (SELECT count(*) FROM heap_block) + (SELECT count(*) FROM
    heap_ref) + (SELECT count(*) FROM heap_site)")" = 0
