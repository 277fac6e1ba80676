#!/bin/sh
# Screen test: the : prompt, :sql tables and errors, :export, history.
. "${top_srcdir:-.}/tests/tui/lib.sh"
echo 1..12
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
finish
