#!/bin/sh
# The prfd kind on a real program: tests/data/prfd/gen.py writes dumps of
# tests/data/prfd/work (built -g), hits inside the functions nm names, and
# nm is the oracle: every function of the executable segment is a symbol
# at nm's address plus the load bias, and the exact flat profile gives
# five, three and two their 500, 300 and 200 hits.  A dump of OS/2's
# width without the extension loads with addresses only; a module whose
# build-id is not the dump's lends no names, nor does a FIFO.
: "${PROFVIEW:?}" "${top_srcdir:?}" "${top_builddir:?}"
prog="$top_builddir/tests/data/prfd/work"
gen="$top_srcdir/tests/data/prfd/gen.py"
. "$top_srcdir/tests/tap.sh"
plan 8
if ! command -v python3 >/dev/null || ! command -v nm >/dev/null ||
    ! command -v objcopy >/dev/null; then
	for i in 1 2 3 4 5 6 7 8; do skip "" "no python3, nm or objcopy"; done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/s.db"
cp "$prog" "$tmp/work"
pv() { "$PROFVIEW" --db "$db" "$@"; }

python3 "$gen" "$tmp/work" "$tmp/w8.prfd" || exit 1
id=$(pv ingest "$tmp/w8.prfd" 2>"$tmp/err" | cut -f1)
if [ -n "$id" ] && [ ! -s "$tmp/err" ]; then ok 0 "width 8 loads, no warning"
else ok 1 "width 8 loads: $(cat "$tmp/err")"; fi

# nm's functions inside the slot, moved by the bias, against the store's:
# the bias is the slot's address less the executable segment's page.
base=$(pv sql --csv "SELECT vaddr FROM prfd_slot WHERE session = $id AND
    idx = 0" | sed 1d)
size=$(pv sql --csv "SELECT size FROM prfd_slot WHERE session = $id AND
    idx = 0" | sed 1d)
seg=$(readelf -lW "$tmp/work" | awk '$1 == "LOAD" && $0 ~ / R E / {
    print $3; exit }')
nm -S --defined-only "$tmp/work" | python3 -c '
import sys
base, size, seg = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3], 16)
bias = base - (seg & ~0xfff)
for line in sys.stdin:
    f = line.split()
    if len(f) == 3:         # no size: nm -S leaves it out
        f = [f[0], "0"] + f[1:]
    if len(f) == 4 and f[2] in "tT" and int(f[0], 16) != 0:
        a = int(f[0], 16) + bias
        if base <= a < base + size:
            print("%s,%d,%d" % (f[3], a, int(f[1], 16)))
' "$base" "$size" "$seg" | sort > "$tmp/nm"
pv sql --csv "SELECT name, addr, size FROM symbol WHERE session = $id" |
    sed 1d | sort > "$tmp/store"
if [ -s "$tmp/nm" ] && diff "$tmp/nm" "$tmp/store" >&2; then
	ok 0 "symbols are nm's at the bias ($(wc -l < "$tmp/nm") functions)"
else ok 1 "symbols differ from nm's"; fi

flat() {
	pv export -f json "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("%s=%d" % (r["symbol"], r["hits"]) for r in d["flat"]))'
}
got=$(flat "$id")
want="five=500 three=300 two=200 (slot 7F1234560000)=50"
if [ "$got" = "$want" ]; then ok 0 "the exact flat profile: $got"
else ok 1 "flat profile: got '$got', want '$want'"; fi

# Each detail counter holds the hit table's samples in its bytes.
got=$(pv sql --csv "SELECT count(*) AS n, sum(hits) AS hits, sum(hits !=
    (SELECT coalesce(sum(h.hits), 0) FROM prfd_hit h WHERE h.session = $id
    AND h.addr >= b.lo AND h.addr < b.hi)) AS bad FROM bucket b WHERE
    session = $id" | sed 1d)
if [ "$got" = "768,1050,0" ]; then
	ok 0 "768 detail counters, 1050 samples, each the hit table's"
else ok 1 "detail counters: $got"; fi

# OS/2's width and no extension: addresses only.
python3 "$gen" "$tmp/work" "$tmp/w4.prfd" --width 4 --no-ext || exit 1
id4=$(pv ingest "$tmp/w4.prfd" 2>"$tmp/err" | cut -f1)
got=$(flat "$id4")
if [ ! -s "$tmp/err" ] && [ "$got" = "(slot 000000011000)=1000 (slot 000007000000)=50" ]; then
	ok 0 "width 4 without extension: $got"
else ok 1 "width 4: '$got' $(cat "$tmp/err")"; fi
if [ "$(pv sql --csv "SELECT count(*) FROM symbol WHERE session = $id4" |
    sed 1d)" = 0 ]; then ok 0 "no symbols without the extension"
else ok 1 "symbols without the extension"; fi

# Another build-id: the names are not lent.
python3 "$gen" "$tmp/work" "$tmp/w8b.prfd" --share five=10 || exit 1
objcopy --remove-section .note.gnu.build-id "$tmp/work"
idb=$(pv ingest "$tmp/w8b.prfd" 2>"$tmp/err" | cut -f1)
if grep -q "build-id (none), the dump's" "$tmp/err" &&
    [ "$(pv sql --csv "SELECT count(*) FROM symbol WHERE session = $idb" |
    sed 1d)" = 0 ]; then ok 0 "another build-id: no symbols, a warning"
else ok 1 "another build-id: $(cat "$tmp/err")"; fi

# A module path that names a FIFO: never opened for reading (it would
# block), a warning.
mkfifo "$tmp/fifo"
python3 "$gen" "$tmp/work" "$tmp/fifo.prfd" --share two=3 --path "$tmp/fifo" ||
    exit 1
if timeout 20 "$PROFVIEW" --db "$db" ingest "$tmp/fifo.prfd" 2>"$tmp/err" \
    >/dev/null && grep -q "fifo: not read (not a regular file)" "$tmp/err"
then ok 0 "a FIFO as the module: a warning, no wait"
else ok 1 "a FIFO as the module: $(cat "$tmp/err")"; fi
