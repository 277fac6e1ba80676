#!/bin/sh
# The store never reaches up (HACKING.md, "The store"): nothing in store/
# includes the kind table's, a reader's, an analysis's, a report's or the
# browser's header, or names their symbols.  check_store_core proves the
# same by linking store/ alone.
echo 1..2
dir="${top_srcdir:-.}/store"
inc=$(grep -nE '#[[:space:]]*include[[:space:]]*"(kind\.h|ingest/|analyze/|report/|tui/)' \
    "$dir"/*.c "$dir"/*.h)
if [ -z "$inc" ]; then
	echo "ok 1 - store/ includes no kind, ingest, analyze, report or tui header"
else
	echo "not ok 1 - store/ includes what it must not:"
	echo "$inc" | sed 's/^/# /'
fi
# kind_schema is the store's own table of the kinds' versions.
sym=$(for f in "$dir"/*.c "$dir"/*.h; do
	sed 's/kind_schema/KIND_SCHEMA/g' "$f" |
	    grep -nE '\<(kind_[a-z_]+|(ingest|analyze|report|tui)_[a-z0-9_]+)[[:space:]]*\(|\<kind_(table|count)\>' |
	    sed "s|^|$f:|"
done)
if [ -z "$sym" ]; then
	echo "ok 2 - store/ names no kind, ingest, analyze, report or tui symbol"
else
	echo "not ok 2 - store/ names what it must not:"
	echo "$sym" | sed 's/^/# /'
fi
