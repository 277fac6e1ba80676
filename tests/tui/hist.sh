#!/bin/sh
# Screen test: the histogram view of a PRF session.
. "${top_srcdir:-.}/tests/tui/lib.sh"
echo 1..16
mkprf

start -- browse 1
wait_for "DEMO  grain 54925 us  bucket 1 para (16 bytes)  2093 samples"
ok $? "one PRF id opens the histogram with its header"
wait_for "program 2042 (97.6%)  I/O 12 (0.6%)  DOS 34 (1.6%)  high 5 (0.2%)"
ok $? "out-of-range counters with percentages"
wait_for -E "^100A:0000 100A0-100AF loop_fn +500  23\.89% #+$"
ok $? "bucket rows: seg:off, linear range, symbol, hits, share, bar"

keys s
wait_for "sorted by hits" && screen | sed -n 5p | grep -q "^100A:0000 .* 500 "
ok $? "s sorts by hits: the 500-hit bucket comes first"
keys s
wait_for "sorted by address" && screen | sed -n 5p | grep -q "^1000:0000 "
ok $? "s again sorts by address"

keys t
# loop_fn's share: every bucket it overlaps, in proportion.
want=$(sql "SELECT CAST(round(sum(b.hits * (min(b.hi, s.addr + s.size) -
    max(b.lo, s.addr)) * 1.0 / (b.hi - b.lo))) AS INTEGER) FROM bucket b,
    symbol s WHERE s.name = 'loop_fn' AND b.lo < s.addr + s.size AND
    b.hi > s.addr")
# It shares its last bucket with printf: an estimate, marked ~; main has
# its buckets to itself: exact.
wait_for -E "^loop_fn +MAIN +10050 +200 +$want~" &&
    wait_for -E "^main +MAIN +10000 +80 +[0-9]+ "
ok $? "t shows the flat profile (loop_fn $want hits, ~ an estimate)"
keys t
wait_for "buckets" && wait_for -E "^1000:0000 "
ok $? "t again shows the buckets"

keys +
wait_for "zoom x2: 32 rows" && wait_for -E "^1000:0000 10000-1001F main +7 "
ok $? "+ merges pairs of buckets"
keys -
wait_for "zoom x1: 64 rows" && wait_for -E "^1001:0000 10010-1001F main +7 "
ok $? "- splits them again"

count=$(sql "SELECT count(*) FROM bucket b, symbol s WHERE s.name = 'printf'
    AND b.lo < s.addr + s.size AND b.hi > s.addr")
keys / p r i n t f Enter
wait_for "/printf: 1/$count"
ok $? "/ searches symbol names and counts the matches (1/$count)"
keys n
wait_for "/printf: 2/$count" && wait_for "| 19/64 |"
ok $? "n goes to the next match"

keys Enter
wait_for -E "bucket 10120-1012F, 26 hits" && wait_for -E "^printf +LIB "
ok $? "Enter lists the symbols inside the bucket"
keys q
wait_for -E "\[histogram\] session 1 \| 19/64"
ok $? "q goes back to the histogram, cursor kept"

# A click on screen row 8 selects the bucket shown there.
seg=$(screen | sed -n 8p | cut -c1-4)
keys -l "$(printf '\033[<0;5;8M\033[<0;5;8m')"
wait_for -E "\| $((0x$seg - 0x1000 + 1))/64( \||$)"
ok $? "a mouse click moves the cursor to the row clicked ($seg)"

# :export writes the rows the view shows: the zoomed buckets, then the
# flat profile.
keys +
wait_for "zoom x2: 32 rows"
keys : "export csv $dir/zoom.csv" Enter
wait_for "wrote $dir/zoom.csv"
test "$(grep -c '^[0-9]' "$dir/zoom.csv")" = 32
ok $? ":export csv at zoom x2 writes its 32 rows"
keys t
wait_for "flat profile"
keys : "export json $dir/flat.json" Enter
wait_for "wrote $dir/flat.json" &&
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not any(r.get("name") == "loop_fn" for r in d))' "$dir/flat.json"
ok $? ":export json of the flat profile is valid and names loop_fn"
finish
