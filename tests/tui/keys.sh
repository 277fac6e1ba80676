#!/bin/sh
# The KEYS and COMMANDS sections of the man page agree with the key and
# command tables in tui/*.c: keytable prints them from those tables and
# profview.1 must hold exactly that between its BEGIN/END KEYS comments.
echo 1..8
man="${top_srcdir:-.}/man/profview.1"
out=$(mktemp)
have=$(mktemp)
trap 'rm -f "$out" "$have"' EXIT
"${top_builddir:-.}/tests/tui/keytable" > "$out"
sed -n '/^\.\\" BEGIN KEYS/,/^\.\\" END KEYS/p' "$man" > "$have"
diff -u "$have" "$out" >&2
[ $? = 0 ] && echo "ok 1 - profview.1 KEYS and COMMANDS match the tables" ||
    echo "not ok 1 - profview.1 KEYS differ: run make update-man-keys"
# Every action has its entry, in its group's list, and the help screen is
# built from the same tables (tui/help.c loops over tui_keymap_groups).
n=$(cat "${top_srcdir:-.}"/tui/*.c | grep -c '^	TUI_KEY')
m=$(sed -n '/^\.Sh KEYS/,/^\.Sh BROWSER COMMANDS/p' "$have" | grep -c '^\.It ')
[ "$m" = $((n + 1)) ] && echo "ok 2 - $n actions and the mouse in KEYS" ||
    echo "not ok 2 - KEYS has $m entries for $n actions"
n=$(cat "${top_srcdir:-.}"/tui/*.c | grep -c '^	TUI_COMMAND(')
m=$(sed -n '/^\.Sh BROWSER COMMANDS/,$p' "$have" | grep -c '^\.It Ic ')
[ "$m" = "$n" ] && echo "ok 3 - $n commands in BROWSER COMMANDS" ||
    echo "not ok 3 - BROWSER COMMANDS has $m entries for $n commands"
# The page still renders without complaint with the sections in it.
if command -v groff > /dev/null; then
	w=$(groff -mdoc -ww -z "$man" 2>&1)
	[ -z "$w" ] && echo "ok 4 - profview.1 renders cleanly" ||
	    { echo "$w" >&2; echo "not ok 4 - groff warns: $w"; }
else
	echo "ok 4 # SKIP groff not installed"
fi
# The shape the tables keep: a kind's name only in tui/kinds.c (its line
# there), views reach each other through their parent (tui.h names no
# timeline or unit-table function but the constructors), and colour
# pairs are made in draw.c only.
tui="${top_srcdir:-.}/tui"
k=$(grep -ln '"prf"\|"ovd"' "$tui"/*.c "$tui"/*.h | grep -v '/kinds\.c$')
[ -z "$k" ] && echo "ok 5 - kind names only in tui/kinds.c" ||
    echo "not ok 5 - kind names outside tui/kinds.c: $k"
f=$(grep -oE 'tui_(timeline|units)_[a-z_]+' "$tui/tui.h" | grep -v '_new$')
[ -z "$f" ] && echo "ok 6 - tui.h: the timeline and units: constructors" ||
    echo "not ok 6 - tui.h declares" $f
p=$(grep -ln 'init_pair' "$tui"/*.c | grep -v '/draw\.c$')
[ -z "$p" ] && echo "ok 7 - colour pairs are made in draw.c only" ||
    echo "not ok 7 - init_pair outside draw.c: $p"
# A newcomer's page: no section name twice, and the capture tool in SEE
# ALSO.
d=$(grep '^\.Sh ' "$man" | sort | uniq -d)
sed -n '/^\.Sh SEE ALSO/,/^\.Sh /p' "$man" | grep -q '^\.Xr profil 1' &&
    [ -z "$d" ] && echo "ok 8 - one section per name, profil(1) in SEE ALSO" ||
    echo "not ok 8 - sections twice: $d; or no profil(1) in SEE ALSO"
