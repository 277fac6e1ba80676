#!/bin/sh
# profview diff of two PROFIL histograms: by symbol (the examples' W3 and
# W10, whose programs share no symbol, and W3 with itself) and by bucket
# (two hand-made files without a map, a bucket's samples moved to
# another), each row's samples and delta of shares against each
# session's own report, in csv and json.
: "${PROFVIEW:?PROFVIEW must name the built binary}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvdiff.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pv() { "$PROFVIEW" --db "$tmp/t.db" "$@"; }
top=${top_srcdir:-.}
. "$top/tests/tap.sh"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
plan 8
dc="$top/tests/unit/diffcheck.py"
total=counters:total:hits

check "diff ingests both files and compares them" \
    pv -f csv -o "$tmp/d.csv" diff "$top/examples/W3.PRF" \
    "$top/examples/W10.PRF"
pv export -f csv 1 >"$tmp/a.csv" && pv export -f csv 2 >"$tmp/b.csv"
check "by symbol: samples and delta % are the flat profiles'" \
    python3 "$dc" "$tmp/d.csv" symbols symbol samples "$tmp/a.csv" \
    "$tmp/b.csv" symbols name hits $total $total
check "a session with itself: every row both sides', no delta" \
    python3 -c '
import csv, subprocess, sys
out = subprocess.run(sys.argv[1:], capture_output=True, text=True).stdout
r = [x for x in csv.reader(out.splitlines()) if x and x[0] == "symbols"]
h = next(csv.reader(out.splitlines()))
d, o = h.index("samples_delta"), h.index("only")
sys.exit(len(r) != 2 or any(x[d] != "0" or x[o] != "" for x in r))' \
    "$PROFVIEW" --db "$tmp/t.db" diff -f csv 1 1

# FOO.PRF: PSP 1000h, 8 buckets of a paragraph: 10 0 5 0 0 20 0 3, 2 I/O,
# 7 DOS, 1 high; BAR.PRF the same with the first and last swapped.
hdr='\215\326\010\000\001\000\000\020\010\020\160\000\002\000\007\000\001\000'
printf "$hdr"'\012\000\000\000\005\000\000\000\000\000\024\000\000\000\003\000' \
    >"$tmp/FOO.PRF"
printf "$hdr"'\003\000\000\000\005\000\000\000\000\000\024\000\000\000\012\000' \
    >"$tmp/BAR.PRF"
check "no map on either side: by bucket" \
    pv -f csv -o "$tmp/db.csv" diff "$tmp/FOO.PRF" "$tmp/BAR.PRF"
# The buckets as the diff names them, from the reports' rows.
buckets() {
	python3 - "$1" <<'PY'
import csv, sys
print('section,name,hits')
for r in csv.DictReader(open(sys.argv[1])):
    if r['section'] == 'buckets':
        seg = int(r['seg_off'].split(':')[0], 16)
        print('b,%s-%04X:%04X,%s' % (r['seg_off'], seg, int(r['hi']) -
            seg * 16, r['hits']))
PY
}
pv export -f csv 3 >"$tmp/a.csv" && pv export -f csv 4 >"$tmp/b.csv"
buckets "$tmp/a.csv" >"$tmp/ba.csv" && buckets "$tmp/b.csv" >"$tmp/bb.csv"
check "by bucket: samples and delta % are the histograms'" \
    python3 "$dc" "$tmp/db.csv" buckets bucket samples "$tmp/ba.csv" \
    "$tmp/bb.csv" b name hits 48 48
check "the moved buckets first, 7 of 48 samples each way: 14.58 points" \
    python3 -c '
import csv, sys
r = [x for x in csv.DictReader(open(sys.argv[1])) if x["section"] == "buckets"]
sys.exit([(x["bucket"], x["samples_delta"], round(float(
    x["samples_delta_pct"]), 2)) for x in r[:2]] != [
    ("1000:0000-1000:0010", "-7", -14.58), ("1000:0070-1000:0080", "7",
    14.58)])' "$tmp/db.csv"
pv diff -f json 3 4 >"$tmp/d.json"
check "json: the header's totals and a row per bucket with samples" \
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(d["diff"]["buckets_samples_total_base"] != 48 or
    len(d["buckets"]) != 4)' "$tmp/d.json"
err=$(pv diff 1 "$top/examples/OVRDEMO-simulated.OVD" 2>&1)
rc=$?
check "two kinds do not compare: exit 1, saying so" sh -c '[ "$1" = 1 ] &&
    echo "$2" | grep -q "only two sessions of one kind compare"' - "$rc" "$err"
finish
