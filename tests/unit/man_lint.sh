#!/bin/sh
# The manual pages: clean under groff's warnings; profview.1 names every
# option, command and export format that "profview --help" prints; both
# pages name every table and column a new store is created with.
: "${PROFVIEW:?PROFVIEW must name the built binary}"
: "${top_srcdir:?}"
. "$top_srcdir/tests/tap.sh"
page1="$top_srcdir/man/profview.1"
page5="$top_srcdir/man/profview-formats.5"
help=$("$PROFVIEW" --help)
opts=$(echo "$help" | grep -o -- '--[a-z][a-z-]*' | sort -u)
cmds="ingest sessions delete sql export browse"
fmts=$(echo "$help" | sed -n 's/.*export \[-f \([a-z|]*\)\].*/\1/p' | tr '|' ' ')
# The schema as the binary creates it: "table column" lines.
cols=$(PROFVIEW_DB=:memory: "$PROFVIEW" --db :memory: sql --csv \
    "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p
     WHERE m.type = 'table' ORDER BY m.name, p.cid" | sed 1d | tr ',' ' ')
tables=$(echo "$cols" | cut -d' ' -f1 | sort -u)
ncols=$(echo "$cols" | grep -c .)
ntables=$(echo "$tables" | grep -c .)
nfmts=$(echo "$fmts" | wc -w)
plan $((2 + $(echo "$opts" | wc -l) + 6 + 1 + nfmts + 2 + 1 + ntables + ncols))

for p in "$page1" "$page5"; do
	if ! command -v groff >/dev/null 2>&1; then
		skip "$(basename "$p") lints" "no groff"
		continue
	fi
	out=$(groff -mdoc -ww -z "$p" 2>&1)
	if [ -z "$out" ]; then ok 0 "$(basename "$p") lints"
	else ok 1 "$(basename "$p") lints: $out"; fi
done
# mdoc writes "--db" as "Fl \-db".
for o in $opts; do
	if grep -q -- "Fl \\\\-${o#--}\\>" "$page1"; then ok 0 "profview.1 has $o"
	else ok 1 "profview.1 has $o"; fi
done
for c in $cmds; do
	if grep -q "^\.It Cm $c\\>" "$page1"; then ok 0 "profview.1 has $c"
	else ok 1 "profview.1 has $c"; fi
done
# The export formats: each described under -f.
if [ "$nfmts" -gt 1 ]; then ok 0 "--help lists $nfmts export formats"
else ok 1 "--help lists the export formats (found: $fmts)"; fi
for f in $fmts; do
	if sed -n '/^\.It Fl f , Fl \\-format/,/^\.It Fl o/p' "$page1" |
	    grep -q "^\.Cm $f\\>"; then
		ok 0 "profview.1 has export format $f"
	else ok 1 "profview.1 has export format $f"; fi
done

# A newcomer's reading: the synopsis names the export's -f once (it had
# three lines of formats, collapsed in two), and the DESCRIPTION names
# every capture tool whose files profview reads.
synopsis=$(sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /p' "$page1" | grep '^\.Op Fl f ')
if [ "$synopsis" = ".Op Fl f Ar format" ]; then
	ok 0 "profview.1: one -f in the synopsis"
else ok 1 "profview.1: -f in the synopsis: $synopsis"; fi
desc=$(sed -n '/^\.Sh DESCRIPTION/,/^\.\\" BEGIN KINDS/p' "$page1")
missing=
for t in pvheap pvtrace pvprf; do
	echo "$desc" | grep -q "^\.Xr $t 1" || missing="$missing $t"
done
if [ -z "$missing" ] &&
    [ "$(echo "$desc" | grep -c "beside them")" -le 1 ]; then
	ok 0 "profview.1: the DESCRIPTION names pvheap, pvtrace and pvprf"
else ok 1 "profview.1: the DESCRIPTION lacks:$missing"; fi

# Every table in both pages; every column in profview-formats.5 under its
# table's .Ss, and in profview.1's ".It Sy table Ns Pq Va ..." line.
if [ "$ntables" -gt 5 ]; then ok 0 "the store has $ntables tables"
else ok 1 "the store has tables (found: $tables)"; fi
for t in $tables; do
	if grep -q "^\.Ss $t\$" "$page5" &&
	    grep -q "^\.It Sy $t Ns Pq Va " "$page1"; then
		ok 0 "both pages have table $t"
	else ok 1 "both pages have table $t"; fi
done
echo "$cols" | while read -r t c; do
	in5=$(sed -n "/^\\.Ss $t\$/,/^\\.S[sh] /p" "$page5" |
	    grep -c "^\\.It Va $c\$")
	line1=$(grep "^\.It Sy $t Ns Pq Va " "$page1")
	if [ "$in5" -eq 1 ] &&
	    echo "$line1" | grep -q "[ ,] *$c\\( ,\\|\$\\)"; then
		ok 0 "both pages have $t.$c"
	else ok 1 "both pages have $t.$c (formats.5: $in5 entries;\
 profview.1: ${line1:-no line})"; fi
done
