#!/bin/sh
# The KEYS and COMMANDS sections of the man page agree with the key and
# command tables in tui/tui.h (keytable prints them from those tables).
echo 1..3
inc="${top_srcdir:-.}/man/profview-keys.inc"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"${top_builddir:-.}/tests/tui/keytable" > "$out"
diff -u "$inc" "$out" >&2
[ $? = 0 ] && echo "ok 1 - man/profview-keys.inc matches the tables" ||
    echo "not ok 1 - man/profview-keys.inc differs: run tests/tui/keytable > man/profview-keys.inc"
# Every action has its entry, and the help screen is built from the same
# table (tui/help.c loops over tui_actions).
n=$(grep -c '^	A(' "${top_srcdir:-.}/tui/tui.h")
m=$(sed -n '/^\.SH KEYS/,/^\.SH COMMANDS/p' "$inc" | grep -c '^\.TP')
[ "$m" = $((n + 1)) ] && echo "ok 2 - $n actions and the mouse in KEYS" ||
    echo "not ok 2 - KEYS has $m entries for $n actions"
n=$(grep -c '^	C(' "${top_srcdir:-.}/tui/tui.h")
m=$(sed -n '/^\.SH COMMANDS/,$p' "$inc" | grep -c '^\.TP')
[ "$m" = "$n" ] && echo "ok 3 - $n commands in COMMANDS" ||
    echo "not ok 3 - COMMANDS has $m entries for $n commands"
