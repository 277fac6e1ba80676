#!/bin/sh
# The examples are whole (issue 19): every file in examples/ ingests, the
# store then holds sessions of all five kinds, and each DOS profile keeps
# the program and listing that annotate shows (byte for byte the build's
# own).  "make examples"' recipe for the C program (c-examples.sh) makes
# a heap snapshot, a call profile and a Dos32Profile dump that ingest as
# their kinds, and they ingest with the program gone (it lends names and
# types only).  The demo (demo.sh) twice leaves one session per file,
# and gives the DOS sessions of an older demo's store their programs.
: "${PROFVIEW:?PROFVIEW must name the built binary}"
: "${top_srcdir:=.}" "${top_builddir:=.}"
src=$(cd "$top_srcdir" && pwd)
bld=$(cd "$top_builddir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvexamples.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
. "$top_srcdir/tests/tap.sh"
plan 14
pv() { "$PROFVIEW" --db "$tmp/db" "$@"; }
q() { pv --csv sql "$1" | sed 1d; }
# wordfreq: the store's heap session has leaks and its mon session
# lookup's 2000000 calls (wordfreq.c is the same every run).
wordfreq() {
	[ "$(q "SELECT count(*) > 0 FROM session WHERE kind = 'heap' AND
	    summary NOT LIKE '% 0 collectable%'")" = 1 ] &&
	    [ "$(q "SELECT calls FROM func f JOIN session s ON
	    s.id = f.session WHERE s.kind = 'mon' AND
	    f.name = 'lookup'")" = 2000000 ]
}

ls "$src"/examples/*.PRF "$src"/examples/*.OVD "$src"/examples/*.heap \
    "$src"/examples/*.mon "$src"/examples/*.prfd > "$tmp/files" 2> /dev/null
files=$(tr '\n' ' ' < "$tmp/files")
# shellcheck disable=SC2086
pv ingest $files > "$tmp/ids" 2> "$tmp/err"
st=$?
sed 's/^/# /' "$tmp/err"
[ "$(wc -l < "$tmp/ids")" = "$(wc -l < "$tmp/files")" ] || st=1
ok $st "every example ingests ($(wc -l < "$tmp/files") files)"
# The program beside them is the one they saw: no warning of another
# build (make's built-in rule once remade it from wordfreq.c in make dist).
! grep -q "not the file" "$tmp/err"
ok $? "examples/wordfreq is the program the C examples saw (its build-id)"

kinds=$(q "SELECT DISTINCT kind FROM session ORDER BY kind" | tr '\n' ' ')
[ "$kinds" = "heap mon ovd prf prfd " ] && wordfreq
ok $? "a session of each kind: $kinds; wordfreq.c's leaks and calls"

# Annotate needs the program's image and its listing's lines, stored
# with the session at ingest from the files beside the .PRF.
st=0
for f in W3 W10 SHARE; do
	id=$(awk -v f="/$f.PRF" 'index($3, f) { print $1 }' "$tmp/ids")
	[ -n "$id" ] &&
	    [ "$(q "SELECT count(*) FROM prf_image WHERE session = $id")" \
	    = 1 ] &&
	    [ "$(q "SELECT count(*) > 0 FROM prf_source WHERE session = $id")" \
	    = 1 ] || { st=1; echo "# $f.PRF: no program image or listing"; }
done
ok $st "each DOS profile keeps its program and its listing (annotate)"

# The programs beside the .PRF files are the ones the build assembles
# (NASM's output is the same every time), so that they are the ones
# PROFIL ran.
if [ -f "$bld/capture/profil/work/W10.EXE" ]; then
	st=0
	for f in W3.COM W10.EXE SHARE.COM W3.LST W10.LST SHARE.LST W3.MAP \
	    W10.MAP SHARE.MAP; do
		# A map names its source as the build found it (a VPATH
		# build's is another path to the same file).
		grep -v '^Source file:' "$src/examples/$f" > "$tmp/a"
		grep -v '^Source file:' "$bld/capture/profil/work/$f" > "$tmp/b"
		cmp -s "$tmp/a" "$tmp/b" ||
		    { st=1; echo "# examples/$f is not the build's"; }
	done
	ok $st "the DOS programs, listings and maps are the build's"
else
	skip "" "the DOS workloads are not built (nasm not found)"
fi

# The recipe of "make examples-c", into a folder of the test's own, on
# a copy of the program that the test can take away.
mkdir "$tmp/made"
cp "$bld/examples/build/wordfreq" "$tmp/wordfreq" &&
    top_srcdir=$src top_builddir=$bld sh "$src/examples/c-examples.sh" \
    "$tmp/made" "$tmp/wordfreq" 2> "$tmp/err"
st=$?
sed 's/^/# /' "$tmp/err"
ok $st "c-examples.sh runs wordfreq under pvheap, pvtrace and pvprf record"
rm -f "$tmp/db"
pv ingest "$tmp/made/wordfreq.heap" "$tmp/made/wordfreq.mon" \
    "$tmp/made/wordfreq.prfd" 2> "$tmp/err" | cut -f2 | tr '\n' ' ' \
    > "$tmp/kinds"
sed 's/^/# /' "$tmp/err"
[ "$(cat "$tmp/kinds")" = "heap mon prfd " ] && [ ! -s "$tmp/err" ]
ok $? "what it makes ingests as heap, mon and prfd, without a warning"

# What they say of the program: leaks, the functions of wordfreq.c
# with their calls, the program's functions named in the dump (which
# needs the program at the path the dump names, with its build-id).
wordfreq && [ "$(q "SELECT count(*) FROM symbol y JOIN session s ON
    s.id = y.session WHERE s.kind = 'prfd' AND y.name = 'distance'")" = 1 ]
ok $? "leaks in the snapshot, lookup's 2000000 calls, distance named"

# Moved with their program beside them, the path they name gone (the
# shipped examples, in any clone): the program is found by its name and
# build-id, and names and types come back; another file of that name is
# not taken for it.
mkdir "$tmp/moved" "$tmp/other"
cp "$tmp/made"/wordfreq.* "$tmp/moved/" && cp "$tmp/made"/wordfreq.* \
    "$tmp/other/" && mv "$tmp/wordfreq" "$tmp/moved/wordfreq" &&
    cp "$PROFVIEW" "$tmp/other/wordfreq"
rm -f "$tmp/db"
pv ingest "$tmp/moved/wordfreq.heap" "$tmp/moved/wordfreq.prfd" \
    > /dev/null 2> "$tmp/err"
sed 's/^/# /' "$tmp/err"
[ ! -s "$tmp/err" ] && [ "$(q "SELECT count(*) FROM symbol y JOIN session s
    ON s.id = y.session WHERE s.kind = 'prfd' AND y.name = 'distance'")" = 1 ]
ok $? "moved with the program beside: found by name and build-id"
rm -f "$tmp/db"
pv ingest "$tmp/other/wordfreq.heap" "$tmp/other/wordfreq.prfd" \
    > /dev/null 2> "$tmp/err"
sed "s/^/# /" "$tmp/err"
[ "$(grep -c "build-id" "$tmp/err")" = 2 ] &&
    [ "$(q "SELECT count(*) FROM symbol WHERE name = 'distance'")" = 0 ]
ok $? "another file of its name beside them: not used, said so"

# Without the program: the profiles stand alone (no names or types
# from it, which the warnings say).
rm -f "$tmp/db" "$tmp/wordfreq"
pv ingest "$tmp/made"/wordfreq.* > "$tmp/ids" 2> "$tmp/err"
st=$?
[ "$(wc -l < "$tmp/ids")" = 3 ] && grep -q "wordfreq: no longer there" \
    "$tmp/err" || st=1
ok $st "with the program gone they ingest all the same, saying so"
st=0
for id in 1 2 3; do
	pv export "$id" > "$tmp/out" 2> "$tmp/err" && [ -s "$tmp/out" ] ||
	    { st=1; sed 's/^/# /' "$tmp/err"; }
done
ok $st "and each is reported whole"

# The demo: every example, then the browser (which, not on a terminal,
# prints nothing for no session named); again, the same sessions.
rm -f "$tmp/db"
PROFVIEW_DB=$tmp/db sh "$src/examples/demo.sh" > /dev/null 2>&1 &&
    a=$(q "SELECT count(*) FROM session") &&
    PROFVIEW_DB=$tmp/db sh "$src/examples/demo.sh" > /dev/null 2>&1 &&
    [ "$(q "SELECT count(*) FROM session")" = "$a" ] &&
    [ "$a" = "$(wc -l < "$tmp/files")" ]
ok $? "demo.sh twice: one session per example ($a)"

# A demo store from before the programs were there: the PRFs without
# them (the same bytes, so the same sessions).  The demo reads them
# again, into the same sessions, with their programs.
rm -f "$tmp/db"
mkdir "$tmp/old"
cp "$src"/examples/*.PRF "$src"/examples/*.MAP "$tmp/old/"
pv ingest "$tmp/old"/*.PRF > /dev/null 2>&1 &&
    [ "$(q "SELECT count(*) FROM prf_image")" = 0 ] &&
    PROFVIEW_DB=$tmp/db sh "$src/examples/demo.sh" > /dev/null 2>&1 &&
    [ "$(q "SELECT count(*) FROM session")" = "$(wc -l < "$tmp/files")" ] &&
    [ "$(q "SELECT count(*) FROM session WHERE kind = 'prf' AND
    id NOT IN (SELECT session FROM prf_image)")" = 0 ]
ok $? "demo.sh on an older demo's store: its DOS sessions get their programs"
