#!/bin/sh
# The demo: every example here ingested into a store of the demo's own,
# then the browser's sessions list, one session of each kind in it (prf,
# ovd, heap, mon, prfd).  Ingest is idempotent (a file already stored is
# its session: same sha256), so a second demo finds the same sessions.
#	tools/setup.sh demo	or	PROFVIEW=./profview sh examples/demo.sh
# PROFVIEW_DB picks another store (the demo's is in $TMPDIR).
ex=$(dirname "$0")
: "${PROFVIEW:=$ex/../profview}"
db=${PROFVIEW_DB:-${TMPDIR:-/tmp}/profview-demo.db}

# The ids ingest prints are not wanted; its errors and warnings are (a
# .heap or .prfd whose program is not at the path it names loads without
# its symbols or types, and says so).  Each .PRF is read again into its
# session, which naming its map does: a demo store made before the
# examples had their programs beside them holds them without, and
# annotate would refuse them.
for f in "$ex"/*.PRF; do
	"$PROFVIEW" --db "$db" --map "${f%.PRF}.MAP" ingest "$f" \
	    > /dev/null || exit 1
done
"$PROFVIEW" --db "$db" ingest "$ex"/*.OVD "$ex"/*.heap "$ex"/*.mon \
    "$ex"/*.prfd > /dev/null || exit 1
exec "$PROFVIEW" --db "$db" browse
