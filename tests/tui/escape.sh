#!/bin/sh
# Screen test: Escape backs out of what was begun last (the prompt, a y/n
# question, a search's marks, a view over another) and never quits
# profview; q on the last view does.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 14
mkprf && mkovd ovrdemo OVRDEMO || exit 1

# esc TEXT: Escape alone (termkey waits to see it is not a sequence),
# then TEXT on the screen and profview still running.
esc() {
	keys Escape
	wait_for "$1" && [ ! -s "$dir/status" ]
}

start -- browse 1
wait_for "[histogram] session 1"
esc "[sessions] 1/2"
ok $? "Escape closes the histogram: the sessions view under it"
esc "Escape never quits: q or Q does"
ok $? "Escape on the last view says so, and does not quit"
# The same message each time: move between the Escapes so that each one
# is seen to be read before the next key goes (an Enter sent while termkey
# still waits after an Escape would be read as Alt-Enter).
quiet() { ! screen | grep -qF "Escape never quits"; }
keys j
wait_for "[sessions] 2/2" && quiet && esc "Escape never quits: q or Q does" &&
	keys k && wait_for "[sessions] 1/2" && quiet &&
	esc "Escape never quits: q or Q does"
ok $? "nor does it twice more"

keys Enter
wait_for "[histogram] session 1"
keys ?
wait_for "profview: help for the histogram view"
keys Escape
wait_gone "profview: help for" && wait_for "[histogram] session 1" &&
	[ ! -s "$dir/status" ]
ok $? "Escape closes the help"
keys t g Enter
wait_for "[bucket] session 1"
esc "[histogram] session 1"
ok $? "and the symbols of a bucket"
keys / l o o p Enter
wait_for "/loop: 1/"
esc "/loop: marks off (n finds it again)" && wait_for "[histogram] session 1"
ok $? "a search first: its marks go, the view stays"
keys :
wait_for -E "^:$"
keys Escape
wait_gone -E "^:$" && wait_for "[histogram] session 1" && [ ! -s "$dir/status" ]
ok $? "Escape closes the : prompt"
keys /
wait_for -E "^/$"
keys Escape
wait_gone -E "^/$" && wait_for "[histogram] session 1" && [ ! -s "$dir/status" ]
ok $? "and the / prompt"

keys : "sql SELECT 1 AS one" Enter
wait_for "[sql] 1/1"
esc "[histogram] session 1"
ok $? "Escape closes a :sql table"

keys : "open 2" Enter
wait_for "[timeline] session 2" && wait_for "loaded "
keys u
wait_for "[units] session 2"
esc "[timeline] session 2"
ok $? "Escape closes the unit table: the timeline under it"
esc "[histogram] session 1"
ok $? "and then the timeline"
esc "[sessions] 1/2"
keys d
wait_for "delete session 1"
esc "cancelled" && [ "$(sql 'SELECT count(*) FROM session')" = 2 ]
ok $? "Escape at a y/n question: no"
keys q
restored && [ "$(cat "$dir/status")" = 0 ]
ok $? "q on the last view quits, status 0"

start -- browse 1
wait_for "[histogram] session 1"
keys q q
restored && [ "$(cat "$dir/status")" = 0 ]
ok $? "q q from a session quits"
finish
