#!/bin/sh
# Both versions of the snapshot: tests/data/heap-list-v1.heap, pvheap's
# version 1 snapshot of tests/data/heap/list (BLKS and EDGS records),
# still reads and ingests to the leak states (and 28 pointers) it had
# when it was made; pvheap writes version 2 now (BLKV, packed), whose
# snapshot of the same program ingests to the same leaks in fewer bytes.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-v1
PV=${PROFVIEW:-$build/profview}
echo "1..7"
v1=${top_srcdir:-.}/tests/data/heap-list-v1.heap
db="$W/pv.db"
# sql QUERY: its one value.
sql() { "$PV" --db "$db" sql --csv "SELECT ($1) AS v" | sed 1d; }
major() { od -An -tu2 -j8 -N2 "$1" | tr -d ' '; }
# leaks FILE: the reader's definite and indirect counts and bytes.
leaks() { "$HEAPSUM" "$1" | awk '$1 == "definite" || $1 == "indirect" {
    printf "%s %s %s;", $1, $2, $3 }'; }
states() { sql "SELECT version || ' ' || definite_blocks || ' ' ||
    indirect_blocks || ' ' || reachable_blocks || ' ' ||
    coalesce(ref_last - ref_first + 1, 0) FROM heap
    WHERE session = $1"; }

check "the kept file is version 1" test "$(major "$v1")" = 1
check "the reader finds its leaks as when it was made" \
    test "$(leaks "$v1")" = "definite 1 16;indirect 9 144;"
id=$("$PV" --db "$db" ingest "$v1" | cut -f1)
check "it ingests: version 1.0, 1 definite, 9 indirect, 21 reachable" \
    test "$(states "$id")" = "1.0 1 9 21 28"
pvheap s -- "$HEAPBIN/list"
check "pvheap writes version 2" test "$(major "$W/s.heap")" = 2
check "version 2 of the same program: the same leaks" \
    test "$(leaks "$W/s.heap")" = "definite 1 16;indirect 9 144;"
id2=$("$PV" --db "$db" ingest "$W/s.heap" | cut -f1)
check "it ingests: version 2.0, and the program's leaks" \
    test "$(states "$id2" | cut -d' ' -f1-3)" = "2.0 1 9"
n1=$(wc -c < "$v1")
n2=$(wc -c < "$W/s.heap")
check "in fewer bytes than version 1 ($n2 and $n1)" test "$n2" -lt "$n1"
