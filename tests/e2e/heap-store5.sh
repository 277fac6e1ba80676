#!/bin/sh
# The heap tables' version 5 keeps blocks and pointers packed, a
# heap_blockrun blob per 4096 blocks (kept contents in heap_content) and a
# heap_refrun blob per 4096 source blocks, with heap_block and heap_ref
# views of them a row each.  A store of version 4 (a row per block and
# per pointer, made from this one's by heap_store_v4, each session's rows
# last first) is migrated when opened: the views give every block and
# pointer as the rows had them, and what is read from them (the
# heapsnapshot export, the graph's walks, trace's lookups of one word)
# answers as before the migration.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_store_test heap-store5 10
refs() { sql "SELECT session, src, src_off, dst, dst_off FROM heap_ref
    ORDER BY session, src, src_off"; }
blocks() { sql "SELECT session, idx, addr, size, usable, seq, site, type,
    tid, state, leak, region, hex(contents) FROM heap_block
    ORDER BY session, idx"; }
# answers ID: what the pointers decide, as text.
answers()
{
	"$PV" --db "$db" export -f heapsnapshot "$1"
	"$PV" --db "$db" heap --csv "$1" anchored-by typed:head
	"$PV" --db "$db" heap --csv "$1" trace typed:head
	"$PV" --db "$db" heap --csv "$1" reached-from typed:head
}

pvheap list -- "$HEAPBIN/list"
pvheap interior --contents 16 -- "$HEAPBIN/interior"
pvheap typed -- "$HEAPBIN/typed"
for prog in list interior typed; do
	"$PV" --db "$db" ingest "$W/$prog.heap" > /dev/null
done
refs > "$W/refs.new"
blocks > "$W/blocks.new"
answers 3 > "$W/answers.new" 2>&1
heap_store_v4 "$db"
nrows=$(sqlite3 "$db" "SELECT count(*) FROM heap_ref")
check "a version 4 store: $nrows heap_ref rows, the last pointer first" sh -c \
    "test '$nrows' = '$(wc -l < "$W/refs.new")' && test \"\$(sqlite3 '$db' \
    \"SELECT version FROM kind_schema WHERE kind = 'heap'\")\" = 4 &&
    test \"\$(sqlite3 '$db' 'SELECT src > 0 FROM heap_ref ORDER BY rowid
    LIMIT 1')\" = 1"
nblocks=$(sqlite3 "$db" "SELECT count(*) FROM heap_block")
check "... and $nblocks heap_block rows, 16 bytes of contents kept" sh -c \
    "test '$nblocks' = '$(wc -l < "$W/blocks.new")' && test \"\$(sqlite3 \
    '$db' 'SELECT max(length(contents)) FROM heap_block')\" = 16"
# A copy whose one pointer of session 2 is made far and interior.
cp "$db" "$W/far.db"
sqlite3 "$W/far.db" "UPDATE heap_ref SET src_off = 4096,
    dst_off = 2147483647 WHERE session = 2"
refs > "$W/refs.old"
blocks > "$W/blocks.old"
check "opened, it is version 8 (5's runs, vtable sizes, blocks in blobs, pointers' forms): heap_block and heap_ref views of runs" test \
    "$(sql "SELECT (SELECT version FROM kind_schema WHERE kind = 'heap') ||
    (SELECT group_concat(type, ' ') FROM sqlite_master WHERE name IN
    ('heap_block', 'heap_ref')) || (SELECT count(*) > 0 FROM heap_refrun)
    || (SELECT count(*) > 0 FROM heap_blockrun) AS v")" = "8view view11"
check "heap_block has every block as the rows had it, contents too" \
    cmp "$W/blocks.new" "$W/blocks.old"
check "heap_ref has every pointer as the rows had it" \
    cmp "$W/refs.new" "$W/refs.old"
check "an interior pointer at byte 4096 is read back as it was" test \
    "$(sql "SELECT src_off || ' ' || dst_off AS v FROM heap_ref
    WHERE session = 2" "$W/far.db")" = "4096 2147483647"
answers 3 > "$W/answers.old" 2>&1
check "the export, the walks and trace answer as before" \
    cmp "$W/answers.new" "$W/answers.old"
check "each session's header counts its pointers" test "$(sql "SELECT
    count(*) AS v FROM heap h WHERE coalesce(ref_last - ref_first + 1, 0) <>
    (SELECT count(*) FROM heap_ref r WHERE r.session = h.session)")" = 0
pvheap list2 -- "$HEAPBIN/list"
"$PV" --db "$db" ingest "$W/list2.heap" > /dev/null
check "a session ingested after: its pointers as the first one's" test \
    "$(sql "SELECT group_concat(src || ',' || src_off || ',' || dst) AS v
    FROM heap_ref WHERE session = 4")" = "$(sql "SELECT group_concat(src
    || ',' || src_off || ',' || dst) AS v FROM heap_ref WHERE session = 1")"
"$PV" --db "$db" delete 1 2 > /dev/null
check "delete takes a migrated session's runs along" test "$(sql "SELECT
    group_concat(session, ' ') AS v FROM (SELECT DISTINCT session
    FROM heap_refrun UNION ALL SELECT DISTINCT session FROM heap_blockrun
    UNION ALL SELECT DISTINCT session FROM heap_content ORDER BY
    session)")" = "3 3 4 4"
