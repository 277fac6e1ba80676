#!/bin/sh
# Programs we did not write, against memcheck: the sqlite3 shell (every
# block and byte at exit, and each kind, must agree), and a driver of
# SQLite that keeps one connection and loses another with thousands of
# blocks.  For the driver the totals must agree exactly; the kinds may
# differ by at most 1 % of the blocks and bytes, and the difference is
# printed: SQLite copies structures whose padding memcheck knows was
# never written, where pvheap sees whatever bytes are there (stale
# pointers it cannot tell from real ones).
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-sqlite valgrind
if ! command -v sqlite3 >/dev/null 2>&1; then
	echo "1..0 # SKIP the sqlite3 shell is not installed"
	exit 0
fi
echo "1..11"
cat > "$W/script.sql" <<'EOSQL'
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
    WHERE i < 2000) INSERT INTO t SELECT i, printf('row %d', i), i * 1.5
    FROM n;
CREATE INDEX tb ON t(b);
SELECT count(*), sum(c) FROM t WHERE b LIKE 'row 1%';
EOSQL
sq=$(command -v sqlite3)
direct sh "$sq" :memory: < "$W/script.sql"
pvheap sh -- "$sq" :memory: < "$W/script.sql"
memcheck sh "$sq" :memory: < "$W/script.sql"
check "sqlite3: output under pvheap as without" cmp -s "$W/sh.direct" \
    "$W/sh.out"
check "sqlite3: exit status as without" test "$pv_rc" = "$direct_rc"
vg_summary "$(ls "$W"/sh.vg.* | head -1)" > "$W/shvg"
pv_summary "$W/sh.heap" > "$W/shpv"
inuse=$(sed -n 's/.*in use at exit: \([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 \2/p' \
    "$(ls "$W"/sh.vg.* | head -1)" | tr -d ,)
total=$("$HEAPSUM" "$W/sh.heap" | awk '$1 == "blocks" { print $3 " " $2 }')
check "sqlite3: bytes and blocks in use at exit ($inuse / $total)" \
    test "$inuse" = "$total"
compare sqlite3 "$W/shpv" "$W/shvg"

prog=$HEAPBIN/sqlite
direct d "$prog"
pvheap d -- "$prog"
memcheck d "$prog"
check "driver: output and status as without" sh -c \
    "cmp -s '$W/d.direct' '$W/d.out' && test $pv_rc = $direct_rc"
log=$(ls "$W"/d.vg.* | head -1)
vg_summary "$log" > "$W/dvg"
pv_summary "$W/d.heap" > "$W/dpv"
inuse=$(sed -n 's/.*in use at exit: \([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 \2/p' \
    "$log" | tr -d ,)
total=$("$HEAPSUM" "$W/d.heap" | awk '$1 == "blocks" { print $3 " " $2 }')
check "driver: bytes and blocks in use at exit ($inuse / $total)" \
    test "$inuse" = "$total"
# near KIND: within 1 % of the total bytes and blocks.
near()
{
	set -- $(grep "^$1 " "$W/dpv" | cut -d' ' -f2-) \
	    $(grep "^$1 " "$W/dvg" | cut -d' ' -f2-) $total
	awk -v pb="$1" -v pn="$2" -v vb="$3" -v vn="$4" -v tb="$5" -v tn="$6" \
	    'function abs(x) { return x < 0 ? -x : x }
	    BEGIN { exit !(abs(pb - vb) * 100 <= tb && abs(pn - vn) * 100 <= tn) }'
}
for k in collectable possible reachable; do
	check "driver: $k within 1 % (memcheck $(grep "^$k " "$W/dvg" |
	    cut -d' ' -f2-), pvheap $(grep "^$k " "$W/dpv" | cut -d' ' -f2-))" \
	    near $k
done
