#!/bin/sh
# The heap tables' version 7 keeps a run's blocks a blob of varints
# (heap_blockrun.blocks), read by heap_block_unpack, where version 5 and
# 6 kept JSON text read by json_each.  A store of version 6 (made from
# this one's by heap_store_v6) is migrated when opened: heap_block gives
# every block as the text had it, contents too, and what is read from
# the blocks (the heapsnapshot export, the leaks, the map's loader
# through trace) answers as before.  The sqlite3 shell, without
# profview's functions, cannot read the new view.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_store_test heap-store7 7
blocks() { sql "SELECT session, idx, addr, size, usable, seq, site, type,
    tid, state, leak, region, hex(contents) FROM heap_block
    ORDER BY session, idx"; }
# answers ID: what the blocks decide, as text.
answers()
{
	"$PV" --db "$db" export -f heapsnapshot "$1"
	"$PV" --db "$db" heap --csv "$1" leaks
	"$PV" --db "$db" heap --csv "$1" by-type
	"$PV" --db "$db" heap --csv "$1" trace typed:head
}

pvheap list -- "$HEAPBIN/list"
pvheap interior --contents 16 -- "$HEAPBIN/interior"
pvheap typed -- "$HEAPBIN/typed"
pvheap tree -- "$HEAPBIN/tree"
for prog in list interior typed tree; do
	"$PV" --db "$db" ingest "$W/$prog.heap" > /dev/null
done
blocks > "$W/blocks.new"
answers 3 > "$W/answers.new" 2>&1
check "a version 7 store: the blocks are blobs the sqlite3 shell cannot read" \
    sh -c "test \"\$('$PV' --db '$db' sql --csv \"SELECT
    group_concat(DISTINCT typeof(blocks)) FROM heap_blockrun\" | sed 1d)\" \
    = blob && ! sqlite3 '$db' 'SELECT count(*) FROM heap_block' \
    2> '$W/shell.err' && grep -q heap_block_unpack '$W/shell.err'"
heap_store_v6 "$db"
check "a version 6 store: every block in JSON text, heap_block read by the sqlite3 shell" \
    test "$(sqlite3 "$db" "SELECT (SELECT version FROM kind_schema WHERE
    kind = 'heap') || ' ' || (SELECT group_concat(DISTINCT typeof(blocks))
    FROM heap_blockrun) || ' ' || (SELECT count(*) FROM heap_block) ||
    ' ' || (SELECT max(length(contents)) FROM heap_block)")" = \
    "6 text $(wc -l < "$W/blocks.new") 16"
blocks > "$W/blocks.old"
check "opened, it is version 8: each run a blob, heap_block a view" test \
    "$(sql "SELECT (SELECT version FROM kind_schema WHERE kind = 'heap') ||
    ' ' || (SELECT group_concat(DISTINCT typeof(blocks)) FROM heap_blockrun)
    || ' ' || (SELECT type FROM sqlite_master WHERE name = 'heap_block')
    AS v")" = "8 blob view"
check "heap_block has every block as the text had it, contents too" \
    cmp "$W/blocks.new" "$W/blocks.old"
answers 3 > "$W/answers.old" 2>&1
check "the export, the leaks, the types and trace answer as before" \
    cmp "$W/answers.new" "$W/answers.old"
pvheap list2 -- "$HEAPBIN/list"
"$PV" --db "$db" ingest "$W/list2.heap" > /dev/null
check "a session ingested after: its blocks as the first one's" test \
    "$(sql "SELECT group_concat(size || ',' || state || ',' ||
    coalesce(leak, '-')) AS v FROM heap_block WHERE session = 5")" = \
    "$(sql "SELECT group_concat(size || ',' || state || ',' ||
    coalesce(leak, '-')) AS v FROM heap_block WHERE session = 1")"
"$PV" --db "$db" delete 1 2 > /dev/null
check "delete takes a migrated session's runs along" test "$(sql "SELECT
    group_concat(session, ' ') AS v FROM (SELECT DISTINCT session
    FROM heap_blockrun UNION ALL SELECT DISTINCT session FROM heap_content
    ORDER BY session)")" = "3 4 5"
