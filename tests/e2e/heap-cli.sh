#!/bin/sh
# profview heap SESSION QUESTION on a snapshot of tests/data/heap/list at
# exit (20 nodes anchored by the global "anchored", 10 leaked): each
# question against what the program built; the importer closure of
# test-unload (libc takes every module that imports it along); groups
# that add up to the session; CSV and JSON that parse; errors that say
# what is wrong, with exit status 1.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-cli
PV=${PROFVIEW:-$build/profview}
echo "1..16"
pvheap l -- "$HEAPBIN/list"
db="$W/pv.db"
id=$("$PV" --db "$db" ingest "$W/l.heap" | cut -f1)
q() { "$PV" --db "$db" heap --csv "$id" "$@" 2>"$W/err" | sed 1d; }
rows() { q "$@" | wc -l | tr -d ' '; }
sql() { "$PV" --db "$db" sql --csv "SELECT ($1) AS v" | sed 1d; }

check "collectable: the 10 leaked nodes, as memcheck's rules stored them" \
    test "$(rows collectable)" = 10 -a "$(sql "SELECT definite_blocks +
    indirect_blocks FROM heap WHERE session = $id")" = 10
check "... one definitely lost, nine indirectly" test \
    "$(q collectable | cut -d, -f5 | sort | uniq -c | tr -s ' ' | tr '\n' /)" \
    = " 1 definite/ 9 indirect/"
check "anchored-by list:anchored: the 20 nodes it holds" \
    test "$(rows anchored-by list:anchored)" = 20
check "... and by the variable's name alone" \
    test "$(rows anchored-by anchored)" = 20
check "reachable from the variable: the same 20" \
    test "$(rows reachable anchored)" = 20
head=$(q trace anchored | cut -d, -f3)
check "trace anchored: one word, pointing to a block" \
    test "$(rows trace anchored)" = 1 -a -n "$head"
hex=$(printf '%x' "$head")
check "reached-from the head: only the variable" \
    test "$(q reached-from "$hex")" = "root,,,,list:anchored"
tail=$(q anchored-by anchored | cut -d, -f1,2 | sort -n | head -1 | cut -d, -f2)
check "reached-from the last node: the 19 before it and the root" \
    test "$(rows reached-from "$(printf '%x' "$tail")")" = 20
check "anchored-by the head: all 20; by the last node: itself" \
    test "$(rows anchored-by "$hex")" = 20 -a \
    "$(rows anchored-by "$(printf '%x' "$tail")")" = 1
check "test-unload list: what only its globals held (the 20)" \
    test "$(rows test-unload list)" = 20
check "test-unload libc.so.6: its importers go too (the 20 and stdout's buffer)" \
    test "$(rows test-unload libc.so.6)" = 21
total=$(sql "SELECT blocks FROM heap WHERE session = $id"),$(sql \
    "SELECT bytes FROM heap WHERE session = $id")
sum() { q "$1" | awk -F, '{ n += $2; b += $3 } END { print n "," b }'; }
check "by-type adds up to the session's blocks and bytes ($total)" \
    test "$(sum by-type)" = "$total"
check "by-module and sizes add up too" \
    test "$(sum by-module)" = "$total" -a "$(sum sizes)" = "$total"
"$PV" --db "$db" heap --json "$id" by-type > "$W/json"
check "JSON parses: an array of objects" python3 -c 'import json, sys
v = json.load(open(sys.argv[1])); assert isinstance(v, list) and v[0]["objects"] > 0' "$W/json"
"$PV" --db "$db" heap "$id" find abc > /dev/null 2> "$W/err"
check "find without kept contents: an error saying how to keep them" \
    sh -c '[ $1 = 1 ] && grep -q "pvheap --contents" "$2"' sh $? "$W/err"
"$PV" --db "$db" heap "$id" reached-from 1 > /dev/null 2> "$W/err"
st=$?
"$PV" --db "$db" heap "$id" what > /dev/null 2>> "$W/err"
check "a bad address and a bad question: exit 1, each named" sh -c \
    '[ $1 = 1 ] && [ $2 = 1 ] && grep -q "^profview: heap: 1: no live block" "$3" &&
    grep -q "what: not a question" "$3"' sh $st $? "$W/err"
