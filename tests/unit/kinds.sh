#!/bin/sh
# The session kinds and their export formats in profview.1 agree with
# kind_table: kindtable prints them from it, and the page must hold exactly
# that between its BEGIN/END KINDS comments; --help lists the same kinds.
echo 1..3
man="${top_srcdir:-.}/man/profview.1"
out=$(mktemp)
have=$(mktemp)
trap 'rm -f "$out" "$have"' EXIT
"${top_builddir:-.}/tests/unit/kindtable" > "$out"
sed -n '/^\.\\" BEGIN KINDS/,/^\.\\" END KINDS/p' "$man" > "$have"
if diff -u "$have" "$out" >&2; then
	echo "ok 1 - profview.1 lists the kinds of kind_table"
else
	echo "not ok 1 - profview.1 KINDS differ: run make update-man-kinds"
fi
kinds=$(sed -n 's/^\.It Cm //p' "$out")
help=$("${PROFVIEW:?}" --help)
missing=
for k in $kinds; do
	echo "$help" | grep -q "^  $k  " || missing="$missing $k"
done
if [ -n "$kinds" ] && [ -z "$missing" ]; then
	echo "ok 2 - --help lists every kind:" $kinds
else
	echo "not ok 2 - --help misses:$missing (kinds: $kinds)"
fi
# An unknown file names the kinds it would have taken.
f=$(mktemp)
printf 'not a profile' > "$f"
err=$("$PROFVIEW" --db :memory: ingest "$f" 2>&1)
missing=
for k in $kinds; do
	echo "$err" | grep -q "formats:.*\<$k\>" || missing="$missing $k"
done
rm -f "$f"
if [ -z "$missing" ]; then
	echo "ok 3 - an unknown file's error lists every kind"
else
	echo "not ok 3 - the error misses:$missing: $err"
fi
