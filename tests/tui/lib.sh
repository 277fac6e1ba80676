# Shared by the screen tests: run profview inside a private tmux server of
# a fixed size, send keys, and poll the screen text (never a fixed sleep as
# the assertion: wait_for retries for up to 5 s).
set -u

: "${PROFVIEW:?PROFVIEW must name the built binary}"
: "${TMUX_TMPDIR:=${TMPDIR:-/tmp}}"
export TMUX_TMPDIR
# The heap map opens on the object pane with nothing marked: the tests of
# its first screen (heapleaks.sh) unset this.
PROFVIEW_HEAPMAP_FIRST=plain
export PROFVIEW_HEAPMAP_FIRST
dir=$(mktemp -d "${TMPDIR:-/tmp}/pvtui.XXXXXX")
runs=0
T="tmux -L pvt$$-0 -f /dev/null"
cleanup() {
	$T kill-server 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A failed check shows the screen it saw.
. "${top_srcdir:-.}/tests/tap.sh"
screen_failed() {
	echo "# screen:"
	screen | sed 's/^/#   /'
}
tap_on_fail=screen_failed

screen() {
	$T capture-pane -p 2>/dev/null
}

# cells: the screen cell by cell with its attributes, from tmux's
# capture-pane -e: one line per cell, "ROW COL FG BG FLAGS CHAR" (row and
# column from 1, as sed and the terminal count; colours by name, default,
# or a 256-colour number; FLAGS from bold, dim, underline, reverse, else
# -).  The SGR state carries over from one line to the next, as tmux
# writes it.
cells() {
	$T capture-pane -e -p 2>/dev/null | python3 -c '
import re, signal, sys, unicodedata
signal.signal(signal.SIGPIPE, signal.SIG_DFL)	# a reader may stop early
names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan",
    "white"]
st = {}
def reset():
	st.update(fg="default", bg="default", bold=0, dim=0, underline=0,
	    reverse=0)
def colour(n):
	return names[n] if n < 8 else str(n)
def sgr(params):
	p = [int(x) if x else 0 for x in re.split("[;:]", params)] or [0]
	i = 0
	while i < len(p):
		v = p[i]
		if v == 0: reset()
		elif v == 1: st["bold"] = 1
		elif v == 2: st["dim"] = 1
		elif v == 4: st["underline"] = 1
		elif v == 7: st["reverse"] = 1
		elif v == 22: st["bold"] = st["dim"] = 0
		elif v == 24: st["underline"] = 0
		elif v == 27: st["reverse"] = 0
		elif 30 <= v <= 37: st["fg"] = colour(v - 30)
		elif 40 <= v <= 47: st["bg"] = colour(v - 40)
		elif 90 <= v <= 97: st["fg"] = str(v - 82)
		elif 100 <= v <= 107: st["bg"] = str(v - 92)
		elif v == 39: st["fg"] = "default"
		elif v == 49: st["bg"] = "default"
		elif v in (38, 48) and i + 2 < len(p) and p[i + 1] == 5:
			st["fg" if v == 38 else "bg"] = colour(p[i + 2])
			i += 2
		i += 1
reset()
text = sys.stdin.read()
row, col, i = 1, 1, 0
out = []
while i < len(text):
	c = text[i]
	if c == "\033":
		m = re.match(r"\033\[([0-9;:]*)m", text[i:])
		if m:
			sgr(m.group(1))
			i += m.end()
			continue
		m = re.match(r"\033(\[[0-9;:?]*[A-Za-z]|.)", text[i:])
		i += m.end() if m else 1
		continue
	i += 1
	if c == "\n":
		row, col = row + 1, 1
		continue
	fl = ",".join(k for k in ("bold", "dim", "underline", "reverse")
	    if st[k]) or "-"
	out.append("%d %d %s %s %s %s" % (row, col, st["fg"], st["bg"], fl, c))
	col += 2 if unicodedata.east_asian_width(c) in "WF" else 1
print("\n".join(out))
'
}

# wait_for [-E] TEXT: up to 5 s for TEXT (fixed string, or -E regex).
wait_for() {
	mode=-F
	if [ "$1" = -E ]; then mode=-E; shift; fi
	i=0
	while [ $i -lt 100 ]; do
		screen | grep -q $mode -- "$1" && return 0
		i=$((i + 1))
		sleep 0.05
	done
	return 1
}

# wait_long [-E] TEXT: up to a minute, for what is not a key's answer but
# work on a large input (a 200k-block demo read and its graph made), which
# an ASan+UBSan build (make distcheck) does many times slower.
wait_long() {
	wl=0
	while [ $wl -lt 12 ]; do
		wait_for "$@" && return 0
		wl=$((wl + 1))
	done
	return 1
}

# asan_build BINARY: whether it is an ASan+UBSan build (make distcheck's),
# where screen checks on a large input run so much slower that they skip
# (the plain build runs them).
asan_build() {
	grep -q __asan_init "$1" 2>/dev/null
}

# wait_gone [-E] TEXT: up to 5 s for TEXT to leave the screen.
wait_gone() {
	mode=-F
	if [ "$1" = -E ]; then mode=-E; shift; fi
	i=0
	while [ $i -lt 100 ]; do
		screen | grep -q $mode -- "$1" || return 0
		i=$((i + 1))
		sleep 0.05
	done
	return 1
}

# wait_until COMMAND...: up to 5 s for COMMAND to succeed.
wait_until() {
	i=0
	while [ $i -lt 100 ]; do
		"$@" && return 0
		i=$((i + 1))
		sleep 0.05
	done
	return 1
}

# wait_until_long COMMAND...: up to half a minute, for work on the
# store or a snapshot rather than a key's answer (a loaded machine).
wait_until_long() {
	wul=0
	while [ $wul -lt 6 ]; do
		wait_until "$@" && return 0
		wul=$((wul + 1))
	done
	return 1
}

# wait_line N TEXT: up to 5 s for screen line N to be TEXT exactly.  A
# check of a line after wait_for of another text must wait too: the text
# waited for may be on the screen before the key that changes the line
# is read (typed text in the prompt before the Tab that follows it).
line_is() { [ "$(screen | sed -n "${1}p")" = "$2" ]; }
wait_line() { wait_until line_is "$@"; }

# wait_grep PATTERN FILE: up to 5 s for a line of FILE to match PATTERN
# (profview writes its trace after a key's work and drawing, which may be
# well after the screen shows what a check waited for).
wait_grep() { wait_until grep -q -- "$1" "$2" 2>/dev/null; }

# wait_file FILE: up to 5 s for FILE to exist.
wait_file() { wait_until test -s "$1"; }

keys() {
	$T send-keys "$@"
}

# The demo data: 64 one-paragraph buckets from 1000:0000, hits (7 i) mod
# 50 except bucket 10 with 500, and out-of-range counts 12 / 34 / 5.
mkprf() {
	python3 - "$dir/DEMO.PRF" <<'PY'
import struct, sys
n = 64
counts = [(i * 7) % 50 for i in range(n)]
counts[10] = 500
hdr = struct.pack('<9H', 54925, n, 1, 0x1000, 0x1000 + n, 0x0800, 12, 34, 5)
open(sys.argv[1], 'wb').write(hdr + struct.pack('<%dH' % n, *counts))
PY
	"$PROFVIEW" --db "$dir/db" ingest "$dir/DEMO.PRF" >/dev/null || return 1
	# Until the map reader lands, symbols go in by SQL.
	sqlite3 "$dir/db" "INSERT INTO symbol(session, module, name, addr,
	    size) VALUES (1, 'MAIN', 'main', 65536, 80),
	    (1, 'MAIN', 'loop_fn', 65616, 200), (1, 'LIB', 'printf', 65816,
	    300)"
}

# mkovd SCENARIO NAME [ARGS]: ovdsim's SCENARIO as NAME.OVD (and its map),
# ingested as the next session.
mkovd() {
	ovd_scenario=$1
	ovd_name=$2
	shift 2
	python3 "${top_srcdir:-.}/tests/ovdsim/ovdsim.py" "$ovd_scenario" \
	    "$dir/$ovd_name" "$@" >/dev/null &&
	    "$PROFVIEW" --db "$dir/db" ingest "$dir/$ovd_name.OVD" >/dev/null
}

sql() {
	sqlite3 "$dir/db" "$1"
}

# pvsql QUERY: as sql, through profview sql, for the heap views over
# packed runs (heap_block, heap_ref): their table-valued functions
# (heap_block_unpack, heap_ref_unpack) are profview's, which the sqlite3
# shell has not.  Its rows in sqlite3's list form.
pvsql() {
	"$PROFVIEW" --db "$dir/db" sql --csv "$1" | python3 -c 'import csv, sys
for x in list(csv.reader(sys.stdin))[1:]:
    print("|".join(x))'
}

# start [TERM] -- ARGS: profview ARGS in an 80x24 pane, from a wrapper
# that records stty -g before and after, the exit status, and the pid.
# pvsize="W H" and pvlocale=LOCALE, when set, change the pane's size and
# profview's LC_ALL (C.UTF-8).
start() {
	pvterm=screen-256color
	if [ "$1" != -- ]; then pvterm=$1; shift; fi
	shift
	# A ^C for profview reaches the wrapper too (one process group): a
	# trap (not an ignore, which profview would inherit) keeps it alive.
	cat > "$dir/wrap.sh" <<EOS
trap : INT
stty -g > "$dir/stty.before"
sh -c 'echo \$\$ > "$dir/pid"; exec env TERM=$pvterm LC_ALL=${pvlocale:-C.UTF-8} \
    XDG_STATE_HOME="$dir/state" "$PROFVIEW" --db "$dir/db" "\$@"' profview $*
echo \$? > "$dir/status"
stty -g > "$dir/stty.after"
echo "profview exited"
exec sleep 600
EOS
	rm -f "$dir/status" "$dir/stty.before" "$dir/stty.after" "$dir/pid"
	# A fresh server each time: one that is still exiting would take
	# the new session down with it.
	$T kill-server 2>/dev/null
	runs=$((runs + 1))
	T="tmux -L pvt$$-$runs -f /dev/null"
	set -- ${pvsize:-80 24}
	$T new-session -d -x "$1" -y "$2" "sh $dir/wrap.sh"
	wait_file "$dir/pid"
}

# heapdemo FILE [TERM [LANG]]: tests/tui/heapmap-demo on the snapshot
# that FILE describes (heapmap-demo.c says how) in an 80x24 pane, from a
# wrapper like start's.
heapdemo() {
	hd_term=${2:-screen-256color}
	hd_lang=${3:-C.UTF-8}
	cat > "$dir/wrap.sh" <<EOS
trap : INT
stty -g > "$dir/stty.before"
sh -c 'echo \$\$ > "$dir/pid"; exec env TERM=$hd_term LC_ALL=$hd_lang \
    XDG_STATE_HOME="$dir/state" "${top_builddir:-.}/tests/tui/heapmap-demo" \
    "$1"'
echo \$? > "$dir/status"
stty -g > "$dir/stty.after"
echo "profview exited"
exec sleep 600
EOS
	rm -f "$dir/status" "$dir/stty.before" "$dir/stty.after" "$dir/pid"
	$T kill-server 2>/dev/null
	runs=$((runs + 1))
	T="tmux -L pvt$$-$runs -f /dev/null"
	$T new-session -d -x 80 -y 24 "sh $dir/wrap.sh"
	wait_file "$dir/pid"
}

# After a quit: the wrapper's lines are there and stty is unchanged.
restored() {
	wait_for "profview exited" && wait_file "$dir/stty.after" &&
	    cmp -s "$dir/stty.before" "$dir/stty.after"
}
