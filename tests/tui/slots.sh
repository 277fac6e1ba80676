#!/bin/sh
# Screen test: the slots view of a Dos32Profile dump, a slot's detail
# counters in the histogram, and the exact flat profile from the hit
# table.  The dump is tests/data/prfd/gen.py's of work (five, three and
# two take 500, 300 and 200 hits; an anonymous slot 50; idle, kernel,
# shrmem and unknown counters); expected values come from the store,
# never from the screen.  Then the same at 20x6 on a vt100 in the C
# locale.  A version 2 dump (tests/fuzz/corpus/prfd/w8-mapping.prfd, a
# library's and the kernel's samples kept, neither's functions to be
# had) opens on the functions of every module.  Shares are of the run time (all but idle), % makes them of
# every period.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 19
src=${top_srcdir:-.}
cp "${top_builddir:-.}/tests/data/prfd/work" "$dir/work"
python3 "$src/tests/data/prfd/gen.py" "$dir/work" "$dir/w.prfd" || exit 1
"$PROFVIEW" --db "$dir/db" ingest "$dir/w.prfd" >/dev/null || exit 1
total=$(sql "SELECT idle + vm86 + kernel + shrmem + unknown + (SELECT
    sum(cnt) FROM prfd_slot) FROM prfd")

start -- "$dir/w.prfd"
wait_for "profview: work: 2 slots by count, $total samples"
ok $? "profview FILE.prfd opens the slots view ($total samples)"
run=$(sql "SELECT $total - idle FROM prfd")
idle=$(sql "SELECT printf('run %d  idle %d (%.1f%% of all)  kernel %d'
    || ' (%.1f%%)', $run, idle, 100.0 * idle / $total, kernel,
    100.0 * kernel / $run) FROM prfd")
idle="shares of run time: $idle"
screen | sed -n 3p | grep -qF "$idle"
ok $? "the global counters with their shares of run time: $idle"
row=$(sql "SELECT printf('%012X %10d %#6x %10d %6.2f%%', vaddr, size,
    flags, cnt, 100.0 * cnt / $run) FROM prfd_slot ORDER BY cnt DESC
    LIMIT 1")
screen | sed -n 5p | grep -qE "^work +$row\$"
ok $? "the first row is the busiest slot: work $row"
keys %
all=$(sql "SELECT printf('%6.2f%%', 100.0 * cnt / $total) FROM prfd_slot
    ORDER BY cnt DESC LIMIT 1")
wait_for "shares of every period: run $run" &&
    screen | sed -n 5p | grep -qE " $all\$"
ok $? "%: shares of every period, the busiest slot's $all"
keys %
wait_for "shares of run time: run $run"

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
five=$(sql "SELECT printf('%.2f%%', 100.0 * sum(h.hits) / $run) FROM
    prfd_hit h, symbol s WHERE s.name = 'five' AND h.addr >= s.addr AND
    h.addr < s.addr + s.size")
screen | sed -n 5p | grep -qE "^ +$five .* 500 .* work +five\$"
ok $? "its first symbol is five: 500 samples, $five of the run"

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
wait_for "functions, 1050 samples in 4 rows by hits"
ok $? "t in the slots view: the flat profile by function"
screen | sed -n 5,7p | awk '{ print $3 ":" $NF }' | tr '\n' ' ' |
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

# A dump with modules: its functions first, module beside each.
pvsize="130 24" start -- "$src/tests/fuzz/corpus/prfd/w8-mapping.prfd"
wait_for "profview: work: functions, 28 samples in 4 rows by hits" &&
    wait_for "modules unresolved (see warnings)"
ok $? "a dump with modules opens on its functions, some said unresolved"
s2=$(sql "SELECT max(id) FROM session")
r2=$(sql "SELECT vm86 + kernel + shrmem + unknown + (SELECT sum(cnt) FROM
    prfd_slot WHERE session = $s2) + (SELECT sum(samples) FROM prfd_module
    WHERE session = $s2 AND NOT kernel) FROM prfd WHERE session = $s2")
lib=$(sql "SELECT printf('%.2f%%', 100.0 * 12 / $r2)")
screen | grep -qE "^ *$lib +[0-9.]+% +12 7F0000100000 libm\.so +\(libm\.so,\
 outside symbols\)\$"
ok $? "the library's 12 samples, $lib of the run $r2, libm.so beside them"
keys v
wait_for "slots by count"
ok $? "v: the slots under them"
keys q q q
restored

# A tiny vt100 in the C locale: what fits, and every key still works.
pvsize="20 6" pvlocale=C start vt100 -- "$dir/w.prfd"
wait_for "[slots]" && screen | grep -q "^work "
ok $? "20x6, vt100, LANG=C: the slots view draws"
keys Enter t q t Enter q q q q q
restored
ok $? "20x6: the histogram and the hit table open, q quits, restored"
finish
