#!/bin/sh
# Screen test: colours as tui/draw.c's table gives them, read back cell by
# cell from the terminal (tmux capture-pane -e) on a 256-colour terminal:
# the title, column names, the cursor row (its text, not only the gaps),
# heat, errors and NULL; the timeline's cursor as a column through every
# lane and the buffer band, and the legend of its glyphs.  On vt100 the
# same things in reverse and bold.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 16
mkprf && mkovd ovrdemo OVRDEMO || exit 1

# attrs ROW [FROM TO] [all]: the "FG BG FLAGS" the cells of ROW (columns
# FROM to TO) have, each once, ";" after each; blanks only with "all".
attrs() {
	cells | awk -v r="$1" -v a="${2:-1}" -v b="${3:-999}" -v all="${4:-}" \
	    '$1 == r && $2 >= a && $2 <= b && ($6 != "" || all != "") {
	    print $3, $4, $5 }' | sort -u | tr '\n' ';'
}
# row REGEX: the number of the first screen row matching REGEX.
row() { screen | grep -nE -- "$1" | head -1 | cut -d: -f1; }

start -- browse 1
wait_for "[histogram] session 1"
[ "$(attrs 1 1 999 all)" = "black cyan bold;" ]
ok $? "the title: black on cyan, bold, text and gaps alike"
[ "$(attrs 4)" = "yellow default bold;" ]
ok $? "the column names: bold yellow"
[ "$(attrs 5 1 80 all)" = "black green -;" ] && screen | sed -n 5p |
    grep -q "loop_fn$"
ok $? "the cursor row: black on green, its text too"
a=$(attrs 6 1 8)
[ -n "$a" ] && [ "$a" != "default default -;" ] && [ "$(attrs 6 9 80)" = "default default -;" ]
ok $? "a row off the cursor: its share in a heat colour ($a), the rest plain"
keys t g
wait_for "| 1/64"
[ "$(attrs 5 1 80 all)" = "black green -;" ] &&
    attrs 6 70 80 | grep -qE "^(blue|cyan|green|yellow|red) default"
ok $? "buckets: the cursor row black on green, heat bars coloured"
c=$(screen | sed -n 3p | awk '{ print index($0, "I/O") }')
[ "$(attrs 3 "$c" $((c + 13)))" = "red default bold;" ]
ok $? "I/O hits, a warning sign, in bold red"
keys : f r o b Enter
wait_for "error: unknown command :frob"
c=$(screen | sed -n 24p | awk '{ print index($0, "error:") }')
[ "$(attrs 24 "$c" 80)" = "red default bold;" ]
ok $? "an error in the status line: bold red"

keys : "sql SELECT 1 AS one, 'x' AS n UNION ALL SELECT 2, NULL" Enter
wait_for -E "^one +n *$" && wait_for "NULL"
[ "$(attrs 2)" = "yellow default bold;" ] &&
    [ "$(attrs 3 1 80 all)" = "black green -;" ] &&
    [ "$(attrs 4 5 8)" = "magenta default -;" ]
ok $? ":sql: column names bold yellow, the cursor row black on green, NULL magenta"
keys q

# The timeline: the cursor's cell, and its column in every lane and row
# of the buffer band.
keys : "open 2" Enter
wait_for "loaded 40 events"
# curcol: the column of the cursor's own cell (bold white on black).
curcol() { cells | awk '$4 == "black" && $1 > 3 { print $2; exit }'; }
# column COL: the distinct attributes of column COL in lanes and band.
column() {
	cells | awk -v c="$1" -v a="$2" -v b="$3" '$2 == c && $1 >= a &&
	    $1 <= b { print $3, $4, $5 }' | sort -u | tr '\n' ';'
}
band0=$(row "^[0-9A-F]{4}h ")
band1=$(screen | grep -nE "^[0-9A-F]{4}h " | tail -1 | cut -d: -f1)
check_column() {
	x=$(curcol)
	[ -n "$x" ] && [ "$(column "$x" 4 5)" = "black white -;white black bold;" ] &&
	    [ "$(column "$x" "$band0" "$band1")" = "black white -;" ]
}
check_column
ok $? "the cursor: white on black in its lane, black on white in the other lane and the $((band1 - band0 + 1)) band rows"
x0=$(curcol)
keys j j j
wait_for "| 4/40"
check_column && [ "$(curcol)" != "$x0" ] && [ "$(cells | awk -v r=5 -v x="$(curcol)" '$1 == r && $2 == x { print $3, $4 }')" = "white black" ]
ok $? "j moves it to UNIT2's lane, column $x0 to $(curcol)"
wait_for "L load  r reprieve  = resident  - resident in part  . free  | cursor"
ok $? "the legend of the glyphs, above the detail pane"
r=$(row "^L load  r reprieve")
c=$(screen | sed -n "${r}p" | awk '{ print index($0, "| cursor") }')
[ "$(attrs "$r" "$c" "$c")" = "black white -;" ]
ok $? "its cursor glyph is drawn as the cursor's column is"

# vt100: no colours; the same things in reverse video and bold.
start vt100 -- browse 2
wait_for "loaded 40 events"
[ "$(attrs 1 1 80 all)" = "default default reverse;" ]
ok $? "vt100: the title in reverse video"
x=$(cells | awk '$1 > 3 && $5 == "bold,underline" { print $2; exit }')
[ -n "$x" ] && [ "$(column "$x" 5 5)" = "default default reverse;" ] &&
    [ "$(column "$x" "$band0" "$band1")" = "default default reverse;" ] &&
    [ "$(screen | sed -n 5p | cut -c"$x")" = "|" ]
ok $? "vt100: the cursor column in reverse through lane and band, | where blank"
keys Escape
wait_for "[sessions]"
[ "$(attrs 3 1 80 all)" = "default default reverse;" ]
ok $? "vt100: the cursor row of the sessions view in reverse"
keys Enter
wait_for "[histogram] session 1"
keys z
wait_for "rows without hits"
[ "$(attrs 4)" = "default default bold;" ] && [ "$(attrs 5 1 80 all)" = "default default reverse;" ]
ok $? "vt100: column names bold, the histogram's cursor row in reverse"
finish
