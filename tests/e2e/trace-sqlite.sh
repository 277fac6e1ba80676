#!/bin/sh
# pvtrace on code nobody here wrote: SQLite.  A driver linked with
# Debian's libsqlite3.a has the library's static functions in its symbol
# table (some 2500 functions traced); Debian's sqlite3 shell is traced
# through its shared library with --lib libsqlite3.  Every function's
# call count equals callgrind's, and the output is unchanged.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
need_valgrind
trace drv "$TD/sqlite-driver"
"$TD/sqlite-driver" >"$W/drv.native"
check "driver: output unchanged" cmp -s "$W/drv.native" "$W/drv.out"
n0=$(grep -c '^fn 0 .* \(jump\|trap\) ' "$W/drv.pdt")
check "driver: over 2000 functions traced ($n0)" test "$n0" -gt 2000
callgrind drv "$TD/sqlite-driver"
compare drv

sq=/usr/bin/sqlite3
if [ -x "$sq" ] && ldd "$sq" 2>/dev/null | grep -q libsqlite3; then
	printf '%s\n' "create table t(a integer primary key, b text);" \
	    "insert into t(b) values ('x'), ('y'), ('z');" \
	    "insert into t(b) select b || a from t;" \
	    "select count(*), max(b) from t;" >"$W/q.sql"
	(cd "$W" && "$PVTRACE" plan --lib libsqlite3 -o sq.pdt "$sq" \
	    >sq.plan && "$PVTRACE" -o sq.mon -p sq.pdt -- "$sq" :memory: \
	    <q.sql >sq.out 2>sq.err)
	"$sq" :memory: <"$W/q.sql" >"$W/sq.native"
	check "sqlite3 shell: output unchanged" cmp -s "$W/sq.native" \
	    "$W/sq.out"
	check "sqlite3 shell: the library was patched" \
	    grep -q '^module libsqlite3[^ ]* patched ' "$W/sq.mon"
	callgrind sq "$sq" :memory: <"$W/q.sql"
	compare sq 1
else
	echo "# $sq with a shared libsqlite3 is not installed: --lib untested"
fi
finish
