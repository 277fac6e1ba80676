#!/bin/sh
# Screen test: the slots view of a Dos32Profile dump, a slot's detail
# counters in the histogram, and the exact flat profile from the hit
# table.  The dump is tests/data/prfd/gen.py's of work (five, three and
# two take 500, 300 and 200 hits; an anonymous slot 50; idle, kernel,
# shrmem and unknown counters); expected values come from the store,
# never from the screen.  Then the same at 20x6 on a vt100 in the C
# locale.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 15
src=${top_srcdir:-.}
cp "${top_builddir:-.}/tests/data/prfd/work" "$dir/work"
python3 "$src/tests/data/prfd/gen.py" "$dir/work" "$dir/w.prfd" || exit 1
"$PROFVIEW" --db "$dir/db" ingest "$dir/w.prfd" >/dev/null || exit 1
total=$(sql "SELECT idle + vm86 + kernel + shrmem + unknown + (SELECT
    sum(cnt) FROM prfd_slot) FROM prfd")

start -- "$dir/w.prfd"
wait_for "profview: work: 2 slots by count, $total samples"
ok $? "profview FILE.prfd opens the slots view ($total samples)"
idle=$(sql "SELECT printf('idle %d (%.1f%%)  kernel %d (%.1f%%)', idle,
    100.0 * idle / $total, kernel, 100.0 * kernel / $total) FROM prfd")
screen | sed -n 3p | grep -qF "$idle"
ok $? "the global counters with their shares: $idle"
row=$(sql "SELECT printf('%012X %10d %#6x %10d %6.2f%%', vaddr, size,
    flags, cnt, 100.0 * cnt / $total) FROM prfd_slot ORDER BY cnt DESC
    LIMIT 1")
screen | sed -n 5p | grep -qE "^work +$row\$"
ok $? "the first row is the busiest slot: work $row"

keys s
wait_for "2 slots by address"
first=$(sql "SELECT printf('%012X', min(vaddr)) FROM prfd_slot")
screen | sed -n 5p | grep -qF " $first "
ok $? "s sorts by address: $first first"
keys s
wait_for "2 slots by count"

nsym=$(sql "SELECT count(*) FROM symbol")
keys g Enter
wait_for "flat profile, $nsym symbols by hits"
ok $? "Enter: the slot's detail counters, named by its $nsym symbols"
five=$(sql "SELECT printf('%.2f%%', 100.0 * sum(h.hits) / $total) FROM
    prfd_hit h, symbol s WHERE s.name = 'five' AND h.addr >= s.addr AND
    h.addr < s.addr + s.size")
screen | sed -n 5p | grep -qE "^ +$five .* 500 .* work +five\$"
ok $? "its first symbol is five: 500 samples, $five of all"

three=$(sql "SELECT printf('%X', addr) FROM symbol WHERE name = 'three'")
keys / "$three" Enter
wait_for "[histogram] session 1 | 2/$nsym | /$three: 1/1"
ok $? "/ finds the address of three ($three) in the slot"
keys Escape
wait_gone "/$three: 1/1"
keys t z
top=$(sql "SELECT max(hits) FROM bucket")
wait_for "buckets x1 by hits" && screen | sed -n 5p | grep -qE " $top "
ok $? "t: the counters, the busiest holding $top"
# The cursor stayed at three's address.
keys a
wait_for "annotate bucket $(sql "SELECT printf('%012X', b.lo) FROM bucket b,
    symbol s WHERE s.name = 'three' AND b.lo <= s.addr AND b.hi > s.addr")"
ok $? "a: the code of three's bucket, read from work"

keys q q t
wait_for "hit table, 1050 samples in 4 rows by hits"
ok $? "t in the slots view: the hit table's flat profile"
screen | sed -n 3,5p | awk '{ print $3 ":" $NF }' | tr '\n' ' ' |
    grep -qF "500:five 300:three 200:two "
ok $? "five, three and two with their exact 500, 300 and 200"
# z hid the rows without hits, and the histogram keeps that.
nhit=$(sql "SELECT count(*) FROM symbol s WHERE EXISTS (SELECT 1 FROM
    prfd_hit h WHERE h.addr >= s.addr AND h.addr < s.addr + s.size)")
keys j Enter
wait_for "flat profile, $nhit of $nsym symbols" &&
    wait_for "[histogram] session 1 | 2/$nhit"
ok $? "Enter on three: the histogram, on three (2/$nhit)"
keys q q q q
restored
ok $? "q quits; the terminal is restored"

# A tiny vt100 in the C locale: what fits, and every key still works.
pvsize="20 6" pvlocale=C start vt100 -- "$dir/w.prfd"
wait_for "[slots]" && screen | grep -q "^work "
ok $? "20x6, vt100, LANG=C: the slots view draws"
keys Enter t q t Enter q q q q q
restored
ok $? "20x6: the histogram and the hit table open, q quits, restored"
finish
