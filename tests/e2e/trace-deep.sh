#!/bin/sh
# pvtrace on a recursion 3000 calls deep, a distinct call path a level:
# the .mon writes [paths] as a tree (each path its parent's number and
# one function), so the file grows with the paths, not with the square
# of the depth (version 1 wrote each path in full: 23 MB here, 251 MB
# at 10,000); profview reads every level back; -a still adds a run to a
# version 1 file.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
trace deep "$TD/deep" 3000
check "exit status 0" test "$(cat "$W/deep.rc")" = 0
check "output unchanged" test "$(cat "$W/deep.out")" = 3000
c=$(field deep down 1)
check "down called 3001 times ($c)" test "$c" = 3001
size=$(wc -c <"$W/deep.mon")
check "the .mon is $size bytes, under 1 MB" test "$size" -lt 1048576
np=$(awk '/^\[paths\]/ { print $2 }' "$W/deep.mon")
q=$(pvsql deep "SELECT count(*) || ' ' || max(depth) || ' ' ||
    (SELECT sum(calls) FROM callpath WHERE func = 'down') AS r FROM
    callpath")
check "profview ingests it: $np paths, main and 3001 levels below it ($q)" \
    test "$q" = "$np 3002 3001"
d=$(pvsql deep "SELECT count(*) FROM callpath c JOIN callpath p ON
    p.session = c.session AND p.id = c.parent WHERE c.func = 'down' AND
    c.depth = p.depth + 1 AND p.func IN ('main', 'down')")
check "each level's parent is the level above ($d)" test "$d" = 3001

# -a onto a version 1 file (each path in full, made from a short run's):
# its runs and calls are added, and it is written again as the current
# version (3, since the sampler's counts).
trace short "$TD/deep" 5
awk 'NR == 1 { print "pvtrace-mon 1"; next }
    /^\[/ { s = $1 }
    s == "[paths]" && NF == 9 {
	p[n++] = path = ($8 == "-" ? "" : p[$8] ";") $9
	print $1, $2, $3, $4, $5, $6, $7, path
	next
    }
    { print }' "$W/short.mon" >"$W/v1.mon"
check "a version 1 file made" grep -q '^ *1 .* main;down;down$' "$W/v1.mon"
(cd "$W" && "$PVTRACE" -a -o v1.mon -p short.pdt -- "$TD/deep" 5 \
    >v1.out 2>v1.err)
check "-a onto it: pvtrace succeeds" test $? = 0
check "-a: written as version 3" test "$(sed 1q "$W/v1.mon")" = \
    "pvtrace-mon 3"
check "-a: 2 runs" test "$(header v1 runs)" = 2
c=$(field v1 down 1)
check "-a: down's calls added (12: $c)" test "$c" = 12
check "-a: the same paths as one run" test "$(awk '/^\[paths\]/ {
    print $2 }' "$W/v1.mon")" = "$(awk '/^\[paths\]/ { print $2 }' \
    "$W/short.mon")"
# And onto that version 2 file: each path's calls, not its parent's
# number, are added.
(cd "$W" && "$PVTRACE" -a -o v1.mon -p short.pdt -- "$TD/deep" 5 \
    >v1.out 2>v1.err)
c=$(field v1 down 1)
check "-a onto version 2: 3 runs, down's calls added (18: $c)" \
    test "$(header v1 runs) $c" = "3 18"
check "-a onto version 2: each level of down called thrice" \
    test "$(awk '/^\[/ { s = $1 } s == "[paths]" && $9 == "down" &&
    $1 != 3' "$W/v1.mon")" = ""
# A parent that is not above its path: refused, the file left as it was.
# (The first path with a parent, whichever that is: the top paths' order
# is not the test's to know.)
awk '/^\[/ { s = $1 } s == "[paths]" && $8 ~ /^[0-9]+$/ && !done {
    $8 = 99999; done = 1 } { print }' "$W/v1.mon" >"$W/bad.mon"
cp "$W/bad.mon" "$W/bad.before"
(cd "$W" && "$PVTRACE" -a -o bad.mon -p short.pdt -- "$TD/deep" 5 \
    >bad.out 2>bad.err)
sed 's/^/# /' "$W/bad.err"
check "-a onto a parent out of range: said" grep -q \
    "bad.mon: line [0-9]*: parent 99999 is not a path above it" \
    "$W/bad.err"
check "-a onto a parent out of range: the file left alone" \
    cmp -s "$W/bad.mon" "$W/bad.before"
finish
