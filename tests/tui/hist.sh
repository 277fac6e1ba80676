#!/bin/sh
# Screen test: the histogram view of a PRF session.  It opens on the flat
# profile by hits, as perf report does; t shows the buckets.  Expected
# values come from the store (sqlite3 on the same database).
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 29
mkprf

# pct HITS [OF]: HITS as a percentage of OF (every sample: 2093), as shown.
pct() { awk -v h="$1" -v t="${2:-2093}" 'BEGIN { printf "%.2f%%", 100 * h / t }'; }
# flat NAME: the symbol's hits, each bucket shared by overlap.
flat() {
	sql "SELECT sum(b.hits * (min(b.hi, s.addr + s.size) -
	    max(b.lo, s.addr)) * 1.0 / (b.hi - b.lo)) FROM bucket b, symbol s
	    WHERE s.name = '$1' AND b.lo < s.addr + s.size AND b.hi > s.addr"
}
# bounds NAME: the hits of buckets the symbol has to itself, and of every
# bucket it touches.
bounds() {
	sql "SELECT sum(CASE WHEN b.lo >= s.addr AND b.hi <= s.addr + s.size
	    THEN b.hits ELSE 0 END), sum(b.hits) FROM bucket b, symbol s
	    WHERE s.name = '$1' AND b.lo < s.addr + s.size AND b.hi > s.addr" |
	    tr '|' ' '
}
round() { awk -v x="$1" 'BEGIN { printf "%.0f", x }'; }

start -- browse 1
wait_for "profview: DEMO: flat profile, 3 symbols by hits" &&
    wait_for "DEMO  grain 54925 us  bucket 1 para (16 bytes)  2093 samples"
ok $? "a PRF opens on its flat profile by hits, with its header"
wait_for "program 2042 (97.6%)  I/O 12 (0.6%)  DOS 34 (1.6%)  high 5 (0.2%)"
ok $? "out-of-range counters with percentages"

lf=$(flat loop_fn)
pf=$(flat printf)
mf=$(flat main)
wait_for -E "^ +share +cum +hits +bounds % +seg:off +size +module +symbol$" &&
    [ "$(screen | sed -n '5,7p' | awk '{ print $NF }' | tr '\n' ' ')" = \
    "loop_fn printf main " ]
ok $? "columns share, cum, hits, bounds, seg:off, size, module, symbol; by hits"
cum=$(awk -v a="$lf" -v b="$pf" 'BEGIN { print a + b }')
wait_for -E "^ +~$(pct "$lf") +$(pct "$lf") +$(round "$lf") " &&
    wait_for -E "^ +~$(pct "$pf") +$(pct "$cum") +$(round "$pf") "
ok $? "share, the cumulative share and hits (loop_fn $(round "$lf"))"
set -- $(bounds loop_fn)
lo=$(awk -v h="$1" 'BEGIN { printf "%.2f", 100 * h / 2093 }')
hi=$(awk -v h="$2" 'BEGIN { printf "%.2f", 100 * h / 2093 }')
wait_for -E "^ +~[0-9.]+% +[0-9.]+% +[0-9]+ +$lo-$hi 1000:0050 +200 MAIN +loop_fn$"
ok $? "loop_fn shares a bucket with printf: ~ and its bounds ($lo-$hi)"
set -- $(bounds main)
[ "$1" = "$2" ] &&
    wait_for -E "^ +$(pct "$mf") +[0-9.]+% +$(round "$mf") +1000:0000 +80 MAIN +main$" &&
    wait_for "~ estimated"
ok $? "main has its buckets to itself: exact, no bounds; the header says what ~ is"

keys %
all=$(awk -v a="$lf" -v b="$pf" -v c="$mf" 'BEGIN { print a + b + c }')
wait_for "percentages of the $(round "$all") hits listed" &&
    wait_for "3 symbols by hits, % of those listed" &&
    wait_for -E "^ +~$(pct "$lf" "$all") " &&
    wait_for -E "^ +$(pct "$mf" "$all") +100\.00% "
ok $? "% makes the shares of the rows listed: the last cum is 100.00%"
keys %
wait_for "percentages of all 2093 samples" &&
    wait_for -E "^ +~$(pct "$lf") "
ok $? "% again: of every sample"

keys t
wait_for "profview: DEMO: 64 buckets x1 by hits" &&
    screen | sed -n 5p | grep -qE "^1000:00A0 100A0-100AF loop_fn +500  23\.89%  23\.89% #+$"
ok $? "t: the buckets by hits, the 500-hit one first with its bar"
keys s
c10=$(sql "SELECT sum(hits) FROM bucket WHERE session = 1 AND idx <= 10")
wait_for "sorted by address" && screen | sed -n 5p | grep -q "^1000:0000 " &&
    wait_for -E "^1000:00A0 100A0-100AF loop_fn +500  23\.89% +$(pct "$c10") #+$"
ok $? "s sorts by address: the cumulative share runs in that order"

zero=$(sql "SELECT count(*) FROM bucket WHERE session = 1 AND hits = 0")
keys z
wait_for "rows without hits hidden" &&
    wait_for "$((64 - zero)) of 64 buckets x1 by address" &&
    ! screen | grep -qE "^1000:0000 " && wait_for -E "^1000:0010 "
ok $? "z hides the $zero buckets without hits"
keys z
wait_for "rows without hits shown" && wait_for "64 buckets x1 by address" &&
    wait_for -E "^1000:0000 "
ok $? "z again shows them"

keys +
wait_for "zoom x2: 32 rows" && wait_for -E "^1000:0000 10000-1001F main +7 "
ok $? "+ merges pairs of buckets"
keys -
wait_for "zoom x1: 64 rows" && wait_for -E "^1000:0010 10010-1001F main +7 "
ok $? "- splits them again"

count=$(sql "SELECT count(*) FROM bucket b, symbol s WHERE s.name = 'printf'
    AND b.lo < s.addr + s.size AND b.hi > s.addr")
keys g / p r i n t f Enter
wait_for "/printf: 1/$count"
ok $? "/ searches symbol names and counts the matches (1/$count)"
keys n
wait_for "/printf: 2/$count" && wait_for "| 19/64 |"
ok $? "n goes to the next match"

keys Enter
wait_for -E "bucket 10120-1012F, 26 hits" && wait_for -E "^printf +LIB "
ok $? "Enter lists the symbols inside the bucket"
keys : "export csv $dir/bsyms.csv" Enter
wait_for "wrote $dir/bsyms.csv" &&
    test "$(grep -c '^[0-9]' "$dir/bsyms.csv")" = 64
ok $? ":export there writes the histogram's rows (it read the wrong view's)"
keys q
wait_for -E "\[histogram\] session 1 \| 19/64"
ok $? "q goes back to the histogram, cursor kept"

# A click on screen row 8 selects the bucket shown there.
lin=$(screen | sed -n 8p | cut -c11-15)
keys -l "$(printf '\033[<0;5;8M\033[<0;5;8m')"
wait_for -E "\| $(((0x$lin - 0x10000) / 16 + 1))/64( \||$)"
ok $? "a mouse click moves the cursor to the row clicked ($lin)"

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

# The view is the session's: it opens again as it was left.  Here: the
# flat profile by address (s above), zoom x2.
keys t z %
wait_for "percentages of the"
keys Q
restored
ok $? "buckets by address, zero rows hidden, % of those listed; Q quits"
grep -q "^$(sql "SELECT sha256 FROM session WHERE id = 1") view=buckets sort=address zero=hide pct=listed zoom=1$" \
    "$dir/state/profview/views"
ok $? "kept in \$XDG_STATE_HOME/profview/views by the file's SHA-256"
z2=$(sql "SELECT count(*) FROM (SELECT sum(hits) AS h FROM bucket WHERE
    session = 1 GROUP BY idx / 2) WHERE h > 0")
start -- browse 1
wait_for "profview: DEMO: $z2 of 32 buckets x2 by address, % of those listed"
ok $? "browse 1 again: as left, $z2 of 32 buckets at x2 by address"
keys t s z %
wait_for "percentages of all"
keys q q
restored
start -- browse 1
wait_for "profview: DEMO: flat profile, 3 symbols by hits" &&
    ! screen | sed -n 1p | grep -q "of those"
ok $? "and the flat profile by hits once it is left so"

# Search by address: hex as the linear address, with 0x or h, or seg:off;
# loop_fn is 10050 to 10117.
st=0
for a in 10055 0x10055 10055h 1005:0005 1000h:0055h 0x1000:0x55; do
	keys G "/$a" Enter
	wait_for "| 1/3 | /$a: 1/1" || { st=1; break; }
done
ok $st "/10055, 0x10055, 10055h, 1005:0005, 1000h:0055h: in loop_fn ($a)"
# The buckets keep their zoom, x2, while the flat profile is shown.
keys t
wait_for "32 buckets x2 by hits"
keys G / 0 x 1 0 0 b 5 Enter
wait_for "| 1/32 | /0x100b5: 1/1" && wait_for -E "^1000:00A0 100A0-100BF "
ok $? "in the buckets at x2, /0x100b5 finds 100A0-100BF"
keys G / 1 0 0 a : 1 5 Enter
wait_for "| 1/32 | /100a:15: 1/1"
ok $? "and so does /100a:15"
finish
