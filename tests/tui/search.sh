#!/bin/sh
# Screen test: search and completion that help.  A search marks what it
# matched in every row it shows (black on yellow), until Escape; / finds
# addresses as well as names, and in the timeline the call sites as well
# as the units; Tab lists its candidates above the prompt when several
# fit, and completes the store's tables and columns in :sql.  Expected
# values come from the store (sqlite3 on the same database).
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 24
mkprf && mkovd retry RETRY --seed 7 || exit 1

# marks: every row's text in the match colour (bold, underlined, black on
# yellow), "ROW:TEXT" a line.
marks() {
	cells | awk '$3 == "black" && $4 == "yellow" && $5 == "bold,underline" {
	    t[$1] = t[$1] ($6 == "" ? " " : $6) }
	    END { for (r in t) print r ":" t[r] }' | sort -n
}

start -- browse 1
wait_for "flat profile, 3 symbols by hits"
keys / L O O P Enter
wait_for "/LOOP: 1/1" && [ "$(marks)" = "5:loop" ]
ok $? "/LOOP marks loop in loop_fn, whatever the case, and nothing else"
keys Escape
wait_for "/LOOP: marks off (n finds it again)" && [ -z "$(marks)" ] &&
    wait_for "[histogram] session 1"
ok $? "Escape takes the marks off and leaves the view open"
keys n
wait_for "/LOOP: 1/1" && [ "$(marks)" = "5:loop" ]
ok $? "n puts them back"
keys / 1 0 1 2 0 Enter
wait_for "/10120: 1/1" && [ "$(marks)" = "6:1000:0118" ]
ok $? "/10120 finds printf by address (10118, 300 bytes) and marks its address"
keys g / M A I N Enter
wait_for "/MAIN: 1/2" && [ "$(marks)" = "$(printf '5:MAIN\n7:MAINmain')" ]
ok $? "/MAIN finds module MAIN's two symbols and marks module and name"

keys t s g / p r i n t f Enter
cnt=$(sql "SELECT count(*) FROM bucket b, symbol s WHERE s.name = 'printf' AND
    b.lo < s.addr + s.size AND b.hi > s.addr")
wait_for "/printf: 1/$cnt" && on=$(marks | grep -c ':printf$') &&
    [ "$on" -gt 1 ] &&
    [ "$(marks | grep -vc ':printf$')" = 0 ]
ok $? "the buckets: /printf marks printf in each of the $on rows on screen"
keys / 1 0 0 a : 0 0 0 5 Enter
wait_for "/100a:0005: 1/1" && [ "$(marks)" = "$(screen | grep -n '^1000:00A0 ' |
    cut -c1-2 | tr -d :):1000:00A0 100A0-100AF" ]
ok $? "/100a:0005 marks the bucket's address range"
keys / 1 0 1 1 0 Enter Enter
wait_for "[bucket] session 1"
keys / 0 x 1 0 1 2 0 Enter
wait_for "/0x10120: 1/1" &&
    cur=$(screen | sed -n 's/^\[bucket\] session 1 | \([0-9]\)\/2 .*/\1/p') &&
    screen | sed -n "$((cur + 2))p" | grep -q "^printf "
ok $? "a bucket's symbols: /0x10120 finds printf by address"
keys q

# The timeline: units, call sites by name and by address.
keys : "open 2" Enter
wait_for "[timeline] session 2" && wait_for "loaded "
cnt=$(sql "SELECT count(*) FROM ovr_event e JOIN ovr_unit u ON
    u.session = e.session AND u.stat_seg = e.ovr_seg WHERE e.session = 2
    AND u.name LIKE '%UNIT3%'")
keys / u n i t 3 Enter
r=$(screen | grep -nE "^C UNIT3" | cut -d: -f1)
wait_for "/unit3: 1/$cnt" && marks | grep -qx "$r:UNIT3" &&
    screen | grep -qE "^event [0-9]+: [a-z]+ of UNIT3 " &&
    marks | grep -qx "$(screen | grep -n '^event ' | cut -d: -f1):UNIT3"
ok $? "/unit3 finds UNIT3's $cnt events; its name marked in the gutter and the detail"
cnt=$(sql "SELECT count(*) FROM ovr_event e JOIN ovr_unit u ON
    u.session = e.session AND u.stat_seg = e.ovr_seg JOIN symbol s ON
    s.session = e.session AND s.module = u.name AND
    s.addr = e.ovr_seg * 16 + e.ovr_ofs WHERE e.session = 2 AND
    s.name = 'PROC3'")
keys / p r o c 3 Enter
wait_for "/proc3: 1/$cnt" && wait_for -E "^event [0-9]+: [a-z]+ of UNIT4 .*, called from PROC3 \(004Ch:000Fh\)" &&
    marks | grep -qx "$(screen | grep -n '^event ' | cut -d: -f1):PROC3"
ok $? "/proc3 finds the $cnt events called from PROC3 and marks the site"
cnt=$(sql "SELECT count(*) FROM ovr_event WHERE session = 2 AND ovr_seg = 72
    AND ovr_ofs = 10")
st=0
for a in 0048h:000Ah 48:a 0x48a; do
	keys g "/$a" Enter
	wait_for "/$a: 1/$cnt" && wait_for "(0048h:000Ah)" &&
	    marks | grep -qx "$(screen | grep -n '^event ' | cut -d: -f1):0048h:000Ah" ||
	    { st=1; break; }
done
ok $st "/0048h:000Ah, /48:a and /0x48a find the $cnt events called from there ($a)"
keys Escape
wait_for "marks off" && [ -z "$(marks)" ] && wait_for "[timeline] session 2"
ok $? "Escape in the timeline: the marks go, the view stays"
keys u
wait_for "[units] session 2"
keys / 4 8 h Enter
wait_for "/48h: 1/1" && marks | grep -qx "$(screen | grep -n '^UNIT3 ' |
    cut -d: -f1):0048h"
ok $? "the unit table: /48h finds UNIT3 by its static segment, marked"
keys q q

# Tab: candidates above the prompt, and :sql's names.
keys : s Tab
wait_for -E "^:s$" && wait_line 23 "sessions  sql" &&
    [ "$(cells | awk '$1 == 23 && $6 != "" { print $3, $4 }' | sort -u)" = "black cyan" ]
ok $? ": s Tab lists sessions and sql above the prompt"
keys q Tab
wait_for -E "^:sql$" && ! screen | grep -q "^sessions  sql"
ok $? "q Tab completes :sql (and a space), and the list goes"
# (A prefix few enough columns share that the list fits on the line.)
keys "SELECT idx, hit_t" Tab
wait_for -E "^:sql SELECT idx, hit_table$" &&
    wait_line 23 "$(sql "SELECT group_concat(name, '  ') FROM
    (SELECT DISTINCT p.name FROM sqlite_master m, pragma_table_info(m.name) p
    WHERE m.type = 'table' AND p.name LIKE 'hit_t%' ORDER BY p.name)")"
ok $? "the store's columns that start with hit_t, listed, the common part completed"
keys BSpace BSpace BSpace BSpace BSpace BSpace s Tab
wait_for -E "^:sql SELECT idx, hits$"
ok $? "hits completes"
keys "FROM BUC" Tab
wait_for -E "^:sql SELECT idx, hits FROM bucket$" &&
    wait_line 23 "$(sql "SELECT group_concat(name, '  ') FROM
    (SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'buc%'
    UNION SELECT p.name FROM sqlite_master m, pragma_table_info(m.name) p
    WHERE m.type = 'table' AND p.name LIKE 'buc%' ORDER BY 1)")"
ok $? "BUC completes to bucket, as the store spells it, and lists the names"
keys " WHERE session = 1 AND zzz" Tab
wait_for -E "^:sql SELECT idx, hits FROM bucket WHERE session = 1 AND zzz$" &&
    wait_line 23 "no completion"
ok $? "a word nothing starts with: no completion"
keys C-w C-w C-h Enter
wait_for -E "^idx +hits *$" && wait_for -E "^ +10 +500 *$"
ok $? "the completed query runs"
keys ?
wait_for "profview: help for the sql view"
keys / "QUERY here" Enter
wait_for "/QUERY here: 1/1" &&
    screen | grep -qE "^ +QUERY here: addr .* bucket .*\.\.\.$" &&
    [ "$(screen | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 80 ]
ok $? "the help names what Tab completes in :sql, in 80 columns"
keys q

# Escape closes the prompt, not profview.
# (Each Escape once the prompt is seen: termkey takes an Escape that
# comes with the keys after it for Alt and one of them.)
keys : s q l
wait_for -E "^:sql$" && keys Escape && wait_gone -E "^:sql$" &&
    wait_for "[sql] " && [ ! -s "$dir/status" ]
ok $? "Escape closes the prompt"
keys / x
wait_for -E "^/x$" && keys Escape && wait_gone -E "^/x$" &&
    wait_for "[sql] " && [ ! -s "$dir/status" ]
ok $? "and the search prompt"
keys Q
restored
ok $? "Q quits; the terminal restored"
finish
