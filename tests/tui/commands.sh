#!/bin/sh
# Screen test: the : commands run from their table.  The formats :export
# takes are the session kind's (kind.h), as the man page's generated
# COMMANDS section lists them: the expectations are read from there.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 12
src=${top_srcdir:-.}
mkprf
python3 "$src/tests/ovdsim/ovdsim.py" ovrdemo "$dir/OVRDEMO" &&
    "$PROFVIEW" --db "$dir/db" ingest "$dir/OVRDEMO.OVD" >/dev/null || exit 1

# formats KIND: "text, csv, ..." as profview.1 lists them for KIND.
formats() {
	sed -n '/^\.\\" BEGIN KEYS/,/^\.\\" END KEYS/p' "$src/man/profview.1" |
	    sed -n "/^\.It $1\$/{n;p;}"
}
prf=$(formats prf)
ovd=$(formats ovd)
[ -n "$prf" ] && [ -n "$ovd" ]
ok $? "profview.1 lists the formats of prf ($prf) and ovd ($ovd)"
# The one format of KIND that starts with c (csv, not chrome), if one.
one_c() { echo "$1" | tr -d , | tr ' ' '\n' | grep '^c'; }

start -- browse 1
wait_for "[histogram] session 1"
keys : "frob 1 2" Enter
wait_for "error: unknown command :frob (Tab completes"
ok $? "an unknown command says so"
keys : "qui" Enter
wait_for "error: unknown command :qui " && [ ! -s "$dir/status" ]
ok $? "a command is its whole name: :qui is not :quit"

keys : "export foo $dir/x" Enter
wait_for "error: unknown format foo ($prf)" && [ ! -e "$dir/x" ]
ok $? "an unknown format names the histogram's kind's formats"
c=$(one_c "$prf")
# The space Tab adds shows in the next line (tmux trims the screen's).
keys : "export c" Tab
wait_for -E "^:export $c\$"
ok $? "Tab after :export c completes the prf format $c"
keys "$dir/t.csv" Enter
wait_for "wrote $dir/t.csv ($c)"
ok $? "and the line it made runs"
# As profview export writes: the file 0600 (a profile is the program's
# data), a symlink planted at the name replaced, never written through.
[ "$(stat -c %a "$dir/t.csv")" = 600 ]
ok $? ":export's file is 0600 ($(stat -c %a "$dir/t.csv"))"
: > "$dir/victim"
ln -s "$dir/victim" "$dir/l.csv"
keys : "export $c $dir/l.csv" Enter
wait_for "wrote $dir/l.csv ($c)" && [ ! -s "$dir/victim" ] &&
    [ ! -L "$dir/l.csv" ] && [ -s "$dir/l.csv" ]
ok $? ":export to a planted symlink replaces it, the file it named untouched"

keys : "open 2" Enter
wait_for "[timeline] session 2" && wait_for "loaded "
keys : "export foo $dir/x" Enter
wait_for "error: unknown format foo ($ovd)"
ok $? "in the timeline, the ovd kind's formats"
keys : "export j" Tab
wait_for -E "^:export json\$"
ok $? "Tab completes an ovd format (json)"
# C-g closes the prompt (a lone Escape would wait to see what follows).
keys C-g
wait_for "[timeline] session 2"

keys : q Enter
restored && [ "$(cat "$dir/status")" = 0 ]
ok $? ":q quits, the terminal restored, status 0"
start -- browse 1
wait_for "[histogram] session 1"
keys : quit Enter
restored && [ "$(cat "$dir/status")" = 0 ]
ok $? ":quit quits too"
finish
