#!/bin/sh
# Screen test: the : prompt, :sql tables and errors, :export, history;
# a query that never returns a row stops on Ctrl-C, q and SIGTERM; rows
# sort by a column; a huge result is cut at the cap; ATTACH makes no
# file; names from the store reach the screen escaped.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 26
mkprf

start -- browse
wait_for "[sessions]"
ok $? "no ids opens the sessions view"

keys : "sql SELECT idx, hits, NULL AS nothing_here, 'text' AS t FROM bucket WHERE idx IN (9, 10) ORDER BY idx" Enter
wait_for -E "^idx +hits +nothing_here +t *$"
ok $? ":sql shows the column names"
wait_for -E "^ +10 +500 NULL +text *$"
ok $? "numbers right-aligned, NULL shown"
wait_for "profview: sql: 2 rows:"
ok $? "the title counts the rows"

keys : "sql SELEC 1" Enter
wait_for 'error: near "SELEC": syntax error'
ok $? "a bad query's error is in the status line"

keys : "sql DELETE FROM bucket" Enter
wait_for "error: the store is read-only here"
ok $? "a writing statement is refused without --writable"
[ "$(sql 'SELECT count(*) FROM bucket')" = 64 ]
ok $? "and nothing was deleted"

keys : "export csv $dir/out.csv" Enter
wait_for -E "wrote .*out.csv|error: export"
grep -qx '"*idx"*,"*hits"*,.*' "$dir/out.csv" 2>/dev/null &&
    grep -q '^"*10"*,"*500"*,' "$dir/out.csv"
ok $? ":export csv writes the query result"

# Tab completes a command; the history survives a restart.
keys : s e s Tab x
wait_for ":sessions x"
ok $? "Tab completes a command name and adds a space"
keys Escape Q
restored
start -- browse
wait_for "[sessions]"
keys : Up
wait_for ":export csv $dir/out.csv"
ok $? "Up recalls the last command of the previous run"
keys C-u "SELECT 7 AS seven" C-a "sql " C-e " junk" C-w Enter
wait_for -E "^seven *$" && wait_for -E "^ +7 *$"
ok $? "line editing: C-u, C-a, C-e, C-w"
# Blobs, NULL and reals look as the text export writes them.
q="SELECT x'00ff10' AS b, NULL AS n, 1.0 AS r, 'a' || char(27) || 'b' AS e"
want=$("$PROFVIEW" --db "$dir/db" sql "$q" | sed -n 3p | tr -s ' ')
keys : "sql $q" Enter
wait_for -E "^b +n +r +e *$" &&
    [ "$(screen | grep -E "^x'00ff10' " | tr -s ' ' | sed 's/ $//')" = "$want" ]
ok $? ":sql shows cells as profview sql prints them ($want)"

# An aggregate that returns no row for ever: Ctrl-C stops it, and the
# browser stays (one step of SQLite never gives the loop a turn).
endless="sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
    SELECT count(*) AS n FROM c"
keys : "$endless" Enter
wait_for "sql: 0 rows, fetching"
keys C-c
wait_for "interrupted (0 rows)" && wait_for "0 rows, interrupted"
ok $? "Ctrl-C stops an aggregate that never returns a row"
keys j
wait_for "[sql] 0/0"
ok $? "... and the browser goes on"
keys q : "$endless" Enter
wait_for "sql: 0 rows, fetching"
keys q
wait_for "profview: sql: 1 row: SELECT x'00ff10'"
ok $? "q stops it too and closes the table"

# Sorting: > picks the next column (and sorts by it), s turns it round.
keys : "sql SELECT idx, hits FROM bucket WHERE idx BETWEEN 8 AND 12 ORDER
    BY idx" Enter
wait_for -E "^ +8 +6 *$"
keys ">"
wait_for "sorted by hits, ascending" && wait_for -E "^idx +hits\^ *$" &&
    [ "$(screen | sed -n 7p | tr -s ' ')" = " 10 500" ]
ok $? "> sorts by the next column, ascending"
keys s
wait_for "sorted by hits, descending" &&
    [ "$(screen | sed -n 3p | tr -s ' ')" = " 10 500" ]
ok $? "s turns the sort round"
keys s
wait_for "rows as fetched" &&
    [ "$(screen | sed -n 5p | tr -s ' ')" = " 10 500" ]
ok $? "s again: as fetched"
keys "<" s
wait_for "sorted by idx, descending" &&
    [ "$(screen | sed -n 3p | tr -s ' ')" = " 12 34" ]
ok $? "< sorts by the column to the left"

# :export to a FIFO nobody reads fails at once; a failed export to a
# device leaves the device (as root: a private one of /dev/full's kind).
mkfifo "$dir/fifo"
keys : "export csv $dir/fifo" Enter
wait_for "error: $dir/fifo: a FIFO that no process reads"
ok $? ":export to a FIFO nobody reads: an error, no hang"
if [ "$(id -u)" = 0 ] && mknod "$dir/full" c 1 7 2>/dev/null; then
	keys : "export csv $dir/full" Enter
	wait_for "error: export:" && test -c "$dir/full"
	ok $? ":export that fails on a device leaves the device"
else
	skip ":export that fails on a device leaves the device" "not root"
fi

# ATTACH would make the file it names: not without --writable.
keys q : "sql ATTACH '$dir/made.db' AS m" Enter
wait_for "error: ATTACH makes the file it names" && ! test -e "$dir/made.db"
ok $? "ATTACH of a file that does not exist is refused, no file made"

# Over the cap: the first million rows, and the status line says so.
keys : "sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c
    LIMIT 1000100) SELECT x FROM c" Enter
i=0
until screen | grep -q "1000000 rows, cut at the cap" || [ $i -ge 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
wait_for "kept the first 1000000 rows"
ok $? "a result over the cap keeps 1000000 rows and says so"
keys Q
restored
ok $? "quit: terminal restored"

# SIGTERM while an aggregate runs: the browser ends, terminal restored.
start -- browse
wait_for "[sessions]"
keys : "$endless" Enter
wait_for "sql: 0 rows, fetching"
kill -TERM "$(cat "$dir/pid")"
restored && [ "$(cat "$dir/status")" = 143 ]
ok $? "SIGTERM stops a running aggregate and ends profview (143)"

# A file name with ESC and a bidi override in the title and the list.
sql "UPDATE session SET source = '/x/E' || char(27) || ']0;owned' ||
    char(7) || 'a' || char(8238) || 'b.PRF' WHERE id = 1"
start -- browse
wait_for "[sessions]"
screen | grep -q 'a\\u202Eb\.PRF' &&
    ! screen | grep -q "$(printf '\342\200\256')"
ok $? "sessions view: the name escaped, no bidi override on screen"
finish
