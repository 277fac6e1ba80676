#!/bin/sh
# Screen test: the annotate view.  attr.asm (tests/data, assembled at
# build time with its map and listing) is profiled on paper: each
# instruction's comment says how often it runs, a sample per run, and one
# sample in seven lands inside "mov bx, 50" rather than at its start.
# Three sessions of it: ATTR.PRF with the hit table, VINT.PRF without
# (16-bit buckets only), NOIMG.PRF with no program beside it.  What the
# view shows is checked against the store (sqlite3 on the same file).
. "${top_srcdir:-.}/tests/tui/lib.sh"
data="${top_builddir:-.}/tests/data"
if [ ! -f "$data/attr.com" ] || [ ! -f "$data/attr.lst" ]; then
	skip_all "tests/data/attr.com not built (nasm not found)"
fi
plan 27

for s in ATTR VINT; do
	cp "$data/attr.com" "$dir/$s.COM" &&
	    cp "$data/attr.lst" "$dir/$s.LST" &&
	    cp "$data/attr.map" "$dir/$s.MAP" || exit 1
done
cp "$data/attr.map" "$dir/NOIMG.MAP" || exit 1
python3 - "$data/attr.lst" "$dir" <<'PY' || exit 1
import re, struct, sys
lst, out = sys.argv[1], sys.argv[2]
PSP, HIGH, SIZ = 0x1000, 0x1014, 1
runs = []
for line in open(lst, encoding="latin-1"):
    m = re.match(r"\s*\d+ ([0-9A-F]{8}) \S+\s+(.*); x(\d+)", line)
    if m:
        runs.append((PSP * 16 + 0x100 + int(m.group(1), 16), int(m.group(3)),
            m.group(2).split()))
hits = {a: n for a, n, _ in runs if n}
mov = [a for a, _, t in runs if t == ["mov", "bx,", "50"]][0]
hits[mov + 1] = 7	# inside mov bx, 50 (3 bytes)
num = (HIGH - PSP + SIZ - 1) // SIZ
counts = [0] * num
for a, n in hits.items():
    counts[(a // 16 - PSP) // SIZ] += n
def header(grain):
    return struct.pack("<9H", grain, num, SIZ, PSP, HIGH, 0x800, 0, 0, 0) + \
        struct.pack("<%dH" % num, *counts)
table = struct.pack("<HHHHI", 1, 0, len(hits) + 8, len(hits), 0)
for a in sorted(hits):
    table += struct.pack("<HHI", a - PSP * 16, PSP, hits[a])
open(out + "/ATTR.PRF", "wb").write(header(55) + b"PV32" +
    struct.pack("<HHIIII", 1, 0, sum(counts), 0, 0, 0) +
    struct.pack("<%dI" % num, *counts) + b"HITS" +
    struct.pack("<I", len(table)) + table)
open(out + "/VINT.PRF", "wb").write(header(55))
open(out + "/NOIMG.PRF", "wb").write(header(56))
PY
"$PROFVIEW" --db "$dir/db" ingest "$dir/ATTR.PRF" "$dir/VINT.PRF" \
    "$dir/NOIMG.PRF" > /dev/null || exit 1

# addr NAME: a symbol's linear address, in hex as the view writes it.
addr() { sql "SELECT printf('%05X', addr) FROM symbol WHERE session = 1 AND
    name = '$1'"; }
# hits ADDR [TO]: the hit table's samples at linear ADDR (hex), or in
# [ADDR, TO).
hits() {
	if [ $# = 2 ]; then hi=$((0x$2)); else hi=$((0x$1 + 1)); fi
	sql "SELECT coalesce(sum(hits), 0) FROM prf_hit WHERE session = 1 AND
	    addr >= $((0x$1)) AND addr < $hi"
}
# row LINEAR: the screen line of the instruction at LINEAR (hex).
row() { screen | grep -E "^.{19}[0-9A-F]{4}:[0-9A-F]{4} $1 "; }
# cursor_on LINEAR: the cursor (black on green) is on that instruction.
cursor_on() {
	c=$(cells | awk '$2 == 1 && $4 == "green" { print $1; exit }')
	l=$(screen | grep -nE "^.{19}[0-9A-F]{4}:[0-9A-F]{4} $1 " | cut -d: -f1)
	[ -n "$c" ] && [ "$c" = "$l" ]
}
# msg: the status line's message.
msg() { screen | tail -1 | sed 's/^[^|]*|[^|]*| //'; }
pct() { awk -v h="$1" -v t="$2" 'BEGIN { printf "%.2f%%", 100 * h / t }'; }

inner=$(addr hot.inner)
dec=$inner
jnz=$(printf '%05X' $((0x$inner + 1)))
ret=$(printf '%05X' $((0x$inner + 3)))
total=$(hits "$inner" "$(printf '%05X' $((0x$inner + 4)))")

start -- browse 1
wait_for "profview: ATTR: flat profile" &&
    screen | sed -n 5p | grep -q " hot.inner$"
keys Enter
all=$(sql "SELECT sum(hits) FROM bucket WHERE session = 1")
wait_for "profview: ATTR: annotate hot.inner, 3 instructions" &&
    wait_for "exact: the hit table places each sample" &&
    wait_for -E "^hot.inner  1000:011E-0121 \(1011E-10121\)  4 bytes  \
$total samples \($(pct "$total" "$all") of all\)$"
ok $? "Enter on the hottest symbol annotates it; exact, $total samples"
st=0
for a in $dec $jnz $ret; do
	h=$(hits "$a")
	row "$a" |
	    grep -qE "^ +$(pct "$h" "$total") +$h +1000:[0-9A-F]{4} $a " ||
	    { st=1; echo "# $a: $h hits, row: $(row "$a")"; }
done
ok $st "each instruction's hits are the hit table's, with % of the symbol"
row "$dec" | grep -qE " $dec 4B +dec bx$" &&
    row "$jnz" | grep -qE " $jnz 75FD +jne 0x11e$" &&
    row "$ret" | grep -qE " $ret C3 +ret$"
ok $? "bytes and the 16-bit disassembly; a jump's target as the offset"
wait_for -E "^ +28 \.inner:$" && wait_for -E "^ +29 +dec bx +; x5000$" &&
    [ "$(screen | grep -nE "^ +29 +dec bx" | cut -d: -f1)" -lt \
    "$(screen | grep -nE " $dec 4B " | cut -d: -f1)" ]
ok $? "the listing's lines above their instruction"
cursor_on "$dec"
ok $? "the cursor starts on the hottest instruction"

# Tab: hottest first, ties by address, as the table says.
order=$(sql "SELECT hits FROM prf_hit WHERE session = 1 AND
    addr >= $((0x$inner)) AND addr < $((0x$inner + 4))
    ORDER BY hits DESC, addr" | tr '\n' ' ')
set -- $order
keys Tab
wait_for "hottest 2/3: $2 samples" && cursor_on "$jnz"
ok $? "Tab: the next hottest ($2, jne)"
keys Tab
wait_for "hottest 3/3: $3 samples" && cursor_on "$ret"
ok $? "Tab: then the third ($3, ret)"
keys Tab
wait_for "hottest 1/3: $1 samples ($(pct "$1" "$total")), wrapped" &&
    cursor_on "$dec"
ok $? "Tab after the last wraps to the hottest"
keys BTab
wait_for "hottest 3/3: $3 samples" && cursor_on "$ret"
ok $? "Shift-Tab goes back"

keys s
wait_for "source lines hidden" && wait_gone -E "^ +29 +dec bx" &&
    row "$dec" > /dev/null
ok $? "s hides the source lines"
keys s
wait_for "source lines shown" && wait_for -E "^ +29 +dec bx"
ok $? "s shows them again"

keys %
wait_for "percentages of all $all samples" &&
    wait_for "annotate hot.inner, 3 instructions, % of all samples" &&
    row "$dec" | grep -qE "^ +$(pct "$(hits "$dec")" "$all") "
ok $? "% makes the percentages of all samples"
keys %

keys : "export csv $dir/ann.csv" Enter
wait_for "wrote $dir/ann.csv"
st=$?
sed 1d "$dir/ann.csv" > "$dir/ann.rows"
[ "$(wc -l < "$dir/ann.rows")" = 3 ] || st=1
while IFS=, read -r p h i so a rest; do
	[ "$h" = "$(hits "$(printf '%05X' "$a")")" ] && [ "$i" = 0 ] ||
	    { st=1; echo "# $so: $h hits, inside $i"; }
done < "$dir/ann.rows"
ok $st ":export csv: a row per instruction, its hits the hit table's"

keys / j n e Enter
wait_for "/jne: 1/1"
ok $? "/ searches the disassembly"
keys Enter
wait_for "at 1000:011E" && [ "$(msg)" = "at 1000:011E" ] && cursor_on "$dec"
ok $? "Enter on the jump goes to its target"
keys q
wait_for "[histogram] session 1"
ok $? "q goes back to the flat profile"

# hot: its local label .inner is part of it; a sample inside mov bx, 50.
mov=$(addr hot)
keys s
wait_for "sorted by address"
keys / h o t Enter
wait_for "/hot: 1/2" && screen | grep -qE "1000:011B +3 .text +hot$"
keys Enter
mid=$(hits "$(printf '%05X' $((0x$mov + 1)))")
wait_for "annotate hot, 4 instructions" &&
    wait_for "; $mid inside an instruction (*)" &&
    row "$mov" | grep -qE "^ +[0-9.]+% +$(($(hits "$mov") + mid))\* \
+1000:011B $mov BB3200 +mov bx, 0x32$" &&
    wait_for -E "^ +1000:011E <hot.inner>:$"
ok $? "hot takes hot.inner; the $mid samples inside mov bx are its, marked *"
keys Escape
wait_for "[histogram] session 1"
ok $? "Escape closes the view too"

# a on a bucket: the code of its symbols, the cursor on its hottest.
keys t
wait_for "buckets x1"
keys / 1 0 1 2 9 Enter
wait_for "/10129: 1/1"
keys a
wait_for "profview: ATTR: annotate bucket 1000:0120" &&
    screen | tail -1 | grep -q "^\[annotate\]"
ok $? "a on a bucket annotates the code in it"
spin=$(addr warm.spin)
row "$spin" | grep -q "dec dx" && cursor_on "$spin"
ok $? "the cursor on the bucket's hottest instruction (dec dx)"
keys ?
wait_for "profview: help for the annotate view" &&
    [ "$(screen | sed -n 2p)" = "In the annotate view" ] &&
    wait_for -E "^  Tab +the next hottest instruction" &&
    wait_for -E "^  S-Tab +the previous hottest one"
ok $? "? lists the view's keys first: Tab, S-Tab"
keys q q q

# Without a hit table: samples per bucket only, never per instruction.
keys : "open 2" Enter
wait_for "profview: VINT: flat profile"
keys / h o t . i n n e r Enter
wait_for "/hot.inner: 1/1"
keys Enter
wait_for "no hit table: samples known per bucket only" &&
    wait_for "annotate hot.inner"
ok $? "a vintage PRF: the header says samples are per bucket only"
b=$(sql "SELECT hits FROM bucket WHERE session = 2 AND lo <= $((0x$inner))
    AND hi > $((0x$inner))")
wait_for -E "bucket 1000:0110-011F: $b samples, ~[0-9.]+ of them here$" &&
    row "$dec" | cut -c1-19 | grep -qE "^ +$" &&
    row "$jnz" | cut -c1-19 | grep -qE "^ +$"
ok $? "its bucket's $b samples on a row of its own (~ here), none per insn"
keys : "export csv $dir/vint.csv" Enter
wait_for "wrote $dir/vint.csv" &&
    [ "$(grep -c '^instructions,,,,1000:' "$dir/vint.csv")" = 3 ] &&
    grep -qE "^buckets,,$b,,1000:0110,(,){5}65808,65824,$b,[0-9.]+,1$" \
    "$dir/vint.csv"
ok $? ":export csv: instructions without hits (NULL), the buckets with them"
keys Tab
wait_for -E "hottest 2/2: [0-9]+ samples" &&
    c=$(cells | awk '$2 == 1 && $4 == "green" { print $1; exit }') &&
    screen | sed -n "${c}p" | grep -q "bucket 1000:0120-012F"
ok $? "Tab goes over the buckets, the hottest first"
keys q

# No program image: said, nothing opens, nothing breaks.
keys : "open 3" Enter
wait_for "profview: NOIMG: flat profile"
keys Enter
wait_for "error: no program image in session 3" &&
    screen | tail -1 | grep -q "^\[histogram\]" &&
    wait_for "profview: NOIMG: flat profile" && [ ! -s "$dir/status" ]
ok $? "a session without its program: a clear message, the view stays"
keys Q
restored && [ "$(cat "$dir/status")" = 0 ]
ok $? "Q quits cleanly"
finish
