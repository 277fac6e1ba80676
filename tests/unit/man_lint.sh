#!/bin/sh
# The manual pages: clean under groff's warnings, and profview.1 names
# every option and command that "profview --help" prints.
: "${PROFVIEW:?PROFVIEW must name the built binary}"
: "${top_srcdir:?}"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }
page1="$top_srcdir/man/profview.1"
page5="$top_srcdir/man/profview-formats.5"
help=$("$PROFVIEW" --help)
opts=$(echo "$help" | grep -o -- '--[a-z][a-z-]*' | sort -u)
cmds="ingest sessions delete sql export browse"
echo "1..$((2 + $(echo "$opts" | wc -l) + 6))"

for p in "$page1" "$page5"; do
	if ! command -v groff >/dev/null 2>&1; then
		ok "$(basename "$p") lints # SKIP no groff"
		continue
	fi
	out=$(groff -mdoc -ww -z "$p" 2>&1)
	if [ -z "$out" ]; then ok "$(basename "$p") lints"
	else notok "$(basename "$p") lints: $out"; fi
done
# mdoc writes "--db" as "Fl \-db".
for o in $opts; do
	if grep -q -- "Fl \\\\-${o#--}\\>" "$page1"; then ok "profview.1 has $o"
	else notok "profview.1 has $o"; fi
done
for c in $cmds; do
	if grep -q "^\.It Cm $c\\>" "$page1"; then ok "profview.1 has $c"
	else notok "profview.1 has $c"; fi
done
