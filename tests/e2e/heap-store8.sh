#!/bin/sh
# The heap tables' version 8 writes a run's pointers in form 2
# (heap_refrun.form, store_heap_pack_ref2: a head byte a pointer, the
# target from the one before's where that is nearer), where version 5
# to 7 wrote form 1 (four varints a pointer).  A store of version 7
# (made from this one's by heap_store_v7) is migrated when opened: its
# runs keep form 1 and are read as they are, heap_ref gives every
# pointer as before, and what is read from the pointers (the leaks, the
# heapsnapshot export, trace) answers as before; a session ingested
# after writes form 2 beside them.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_store_test heap-store8 7
refs() { sql "SELECT session, src, src_off, dst, dst_off FROM heap_ref
    ORDER BY session, src, src_off"; }
# answers ID: what the pointers decide, as text.
answers()
{
	"$PV" --db "$db" export -f heapsnapshot "$1"
	"$PV" --db "$db" heap --csv "$1" leaks
	"$PV" --db "$db" heap --csv "$1" trace typed:head
}

pvheap list -- "$HEAPBIN/list"
pvheap cycles -- "$HEAPBIN/cycles"
pvheap typed -- "$HEAPBIN/typed"
for prog in list cycles typed; do
	"$PV" --db "$db" ingest "$W/$prog.heap" > /dev/null
done
refs > "$W/refs.new"
answers 3 > "$W/answers.new" 2>&1
check "a version 8 store: every pointer run of form 2" test "$(sql "SELECT
    (SELECT version FROM kind_schema WHERE kind = 'heap') || ' ' ||
    group_concat(DISTINCT form) AS v FROM heap_refrun")" = "8 2"
heap_store_v7 "$db"
check "a version 7 store: no form column, the runs packed by heap_ref_pack" \
    test "$(sqlite3 "$db" "SELECT (SELECT version FROM kind_schema WHERE
    kind = 'heap') || ' ' || (SELECT count(*) FROM pragma_table_info(
    'heap_refrun') WHERE name = 'form') || ' ' || (SELECT count(*) > 0
    FROM heap_refrun)")" = "7 0 1"
refs > "$W/refs.old"
check "opened, it is version 8, its runs of form 1" test "$(sql "SELECT
    (SELECT version FROM kind_schema WHERE kind = 'heap') || ' ' ||
    group_concat(DISTINCT form) AS v FROM heap_refrun")" = "8 1"
check "heap_ref has every pointer as before ($(wc -l < "$W/refs.new"))" \
    cmp "$W/refs.new" "$W/refs.old"
answers 3 > "$W/answers.old" 2>&1
check "the export, the leaks and trace answer as before" \
    cmp "$W/answers.new" "$W/answers.old"
pvheap list2 -- "$HEAPBIN/list"
"$PV" --db "$db" ingest "$W/list2.heap" > /dev/null
check "a session ingested after: form 2 beside form 1" test "$(sql "SELECT
    group_concat(form, ' ') AS v FROM (SELECT DISTINCT session, form
    FROM heap_refrun WHERE session IN (1, 4) ORDER BY session)")" = "1 2"
check "its pointers are the first session's" test \
    "$(sql "SELECT group_concat(src || ',' || src_off || ',' || dst || ','
    || dst_off, ' ') AS v FROM heap_ref WHERE session = 4")" = \
    "$(sql "SELECT group_concat(src || ',' || src_off || ',' || dst || ','
    || dst_off, ' ') AS v FROM heap_ref WHERE session = 1")"
