#!/bin/sh
# The README's DOSBox recipe, as written: its shell lines from the block
# under "Profiling a DOS program in DOSBox" run from the top of the build
# tree, with /tmp/dos moved to a temporary folder and the make line left
# to the build (the test depends on what it makes).  PROFIL must say the
# program ended normally, and the PRF the recipe ends with must load with
# W10.MAP's names on its hottest symbol.
. "${top_srcdir:-.}/tests/e2e/dos.sh"

if [ "${PROFVIEW_CHECK_PASS:-}" = sanitizer ]; then
	echo "1..0 # SKIP DOSBox only, run in the plain pass"
	exit 0
fi
dos_setup readme
echo "1..3"
src=$(cd "$top_srcdir" && pwd)
PROFVIEW=$(cd "$(dirname "$PROFVIEW")" && pwd)/$(basename "$PROFVIEW")

# The block's lines (4-space indent) from "mkdir" to "cat .../W10.LOG",
# the heredoc kept whole; /tmp/dos becomes DOSDIR, the tests/ path the
# source tree's.
sed -n '/^## Profiling a DOS program in DOSBox/,/^## /p' "$src/README.md" |
    sed -n 's/^    //p' | sed -n '/^mkdir/,/^cat .*W10.LOG/p' |
    sed "s|/tmp/dos|$DOSDIR|g; s|cat tests/e2e/|cat $src/tests/e2e/|;
	s|  *# .*$||" > "$DOSDIR/recipe.sh"
grep -q '^SDL_VIDEODRIVER=dummy dosbox' "$DOSDIR/recipe.sh"
ok=$?
(cd "${top_builddir:-.}" && timeout 150 sh "$DOSDIR/recipe.sh") \
    > "$DOSDIR/recipe.out" 2>&1
if [ $ok = 0 ] && grep -q 'Program terminated normally (code 0)' \
    "$DOSDIR/recipe.out"; then
	echo "ok 1 - the recipe runs W10.EXE under PROFIL in DOSBox"
else
	echo "not ok 1 - the recipe runs W10.EXE under PROFIL in DOSBox"
	sed 's/^/# /' "$DOSDIR/recipe.out"
fi
"$PROFVIEW" --db "$DOSDIR/db" ingest "$DOSDIR/W10.PRF" > /dev/null 2>&1 &&
    echo "ok 2 - W10.PRF loads" || echo "not ok 2 - W10.PRF loads"
top=$("$PROFVIEW" --db "$DOSDIR/db" sql --csv "SELECT name FROM symbol
    WHERE session = 1 ORDER BY (SELECT sum(h.hits) FROM prf_hit h
    WHERE h.session = 1 AND h.addr >= symbol.addr AND
    h.addr < symbol.addr + symbol.size) DESC LIMIT 1" 2>/dev/null | sed 1d)
[ -n "$top" ] && grep -q "$top" "$DOSDIR/W10.MAP" &&
    echo "ok 3 - its hottest symbol ($top) is a name from W10.MAP" ||
    echo "not ok 3 - no hottest symbol from W10.MAP (got '$top')"
