#!/bin/sh
# Screen test: the heap map.  tests/tui/heapmap-demo opens the browser on
# a snapshot written as text, so that the test decides every block; a
# pvheap snapshot stored as a session is checked at the end, against the
# store.  Expected values come from the snapshot's own description (a
# Python model of it below: who points where, what memcheck's rules make
# of that, how HeapInspector's map lays rows out), never from the screen.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 65
DEMO=${top_builddir:-.}/tests/tui/heapmap-demo

cat > "$dir/hm.py" <<'PY'
import sys
H, A, M = 0x555555559000, 0x7ffff0000000, 0x7ffff7a00000
regions = [(H, H + 0x21000, 'main heap'), (A, A + 0x4000, 'arena 2'),
    (M, M + 0x41000, 'mmap')]
modules = [('demo', [1]), ('libfoo.so.1', [2]), ('libc.so.6', [])]
types = [(0, 'Node'), (0, 'NodeList'), (1, 'foo_ctx'), (None, 'main (demo.c:12)')]
blocks = []		# addr, size, usable, type, site
a = H + 0x10
for i in range(300):
    s = [24, 40, 56, 24, 104][i % 5]
    t = 0 if i < 100 else (1 if i < 150 else (2 if i < 160 else 3))
    blocks.append((a, s - 4, s, t, 0 if t < 2 else 1))
    a += s + 8
    if i % 50 == 49:
        a += 0x400
a = A + 0x8b0
for i in range(40):
    blocks.append((a, 60, 72, 2, 1))
    a += 80
blocks.append((M + 0x10, 0x40000 - 8, 0x40000, 3, 1))
roots = [(0, 'demo:head'), (1, 'libfoo.so.1:ctx'), (None, 'thread 1 stack')]
edges = [(i, i + 1, 0) for i in range(99)] + \
    [(i, i + 1, 0) for i in range(150, 159)] + \
    [(i, i + 1, 0) for i in range(200, 219)] + [(219, 200, 0)] + \
    [(160, i, 0) for i in range(300, 341)]
redges = [(0, 0, 0), (1, 150, 0), (2, 160, 0), (2, 230, 1)]

def write(path):
    f = open(path, 'w')
    def w(*x):
        f.write('\t'.join('-' if v is None else str(v) for v in x) + '\n')
    w('program', 'demo')
    for n, imp in modules:
        w('module', n, *imp)
    for m, n in types:
        w('type', m, n)
    for fr in [('make_node', 'demo.c', 40), ('main', 'demo.c', 80),
        ('foo_init', 'foo.c', 10), ('main', 'demo.c', 70)]:
        w('frame', *fr)
    w('site', 0, 2)
    w('site', 2, 2)
    for lo, hi, n in regions:
        w('region', hex(lo), hex(hi), n)
    for b in blocks:
        w('block', hex(b[0]), b[1], b[2], b[3], b[4],
            'deadbeef4e6f6465' if b[3] == 0 else '68656c6c6f00')
    for m, n in roots:
        w('root', m, n)
    for s, d, i in redges:
        w('redge', s, d, *(['i'] if i else []))
    for s, d, i in edges:
        w('edge', s, d, *(['i'] if i else []))

def size(n):
    if n < 1024:
        return '%d B' % n
    d, u = float(n), -1
    while d >= 1024 and u < 3:
        d /= 1024
        u += 1
    return '%.1f %s' % (d, ['KiB', 'MiB', 'GiB', 'TiB'][u])

def out(b):
    return [d for s, d, i in edges if s == b]

def closure(start, fwd=True):
    seen, todo = set(), list(start)
    while todo:
        x = todo.pop()
        if x in seen:
            continue
        seen.add(x)
        todo += out(x) if fwd else [s for s, d, i in edges if d == x]
    return seen

def states(dropped=()):
    # memcheck: start pointers from roots reach; interior ones only
    # make blocks possible (here: block 230, pointed into by a root).
    start = [d for r, d, i in redges if not i and r not in dropped]
    reach = closure(start)
    poss = set(d for r, d, i in redges if i and r not in dropped) - reach
    return reach, poss

def legend(name, bs):
    return '%s %d (%s) of %d (%s)' % (name, len(bs),
        size(sum(blocks[b][2] for b in bs)), len(bs),
        size(sum(blocks[b][2] for b in bs)))

def cellbytes(z):
    return 16 << z if z >= 0 else 16 >> -z

def layout(cols, z, phase=0, align=2):
    # Two rows a line: a region's rows padded to an even count (None).
    B, rows = cellbytes(z), []
    for lo, hi, n in regions:
        o = lo & ~((B if B < 16 else 16) - 1)
        c = (hi - o + B - 1) // B
        j = 0
        while j * cols < c + phase:
            c0 = max(0, j * cols - phase)
            rows.append(lo if c0 == 0 else o + c0 * B)
            j += 1
        if j % align:
            rows.append(None)
    return rows

def fit(cols, nrows):
    for z in range(-3, 41):
        if len(layout(cols, z)) <= max(nrows, 2 * len(regions)):
            return z

cmd = sys.argv[1]
a = sys.argv[2:]
if cmd == 'write':
    write(a[0])
elif cmd == 'legend':
    reach, poss = states()
    n = len(blocks)
    sets = {'all': range(n),
        'collectable': [b for b in range(n) if b not in reach and
            b not in poss],
        'possible': sorted(poss),
        'reach0': sorted(closure([0]) - {0}),
        'from50': sorted(closure([50], False) - {50}),
        'rest': [b for b in range(n) if b in reach and b != 0 and
            b not in closure([0])]}
    print(legend(a[1], sets[a[0]]))
elif cmd == 'zoomby':
    # zoomby COLS ROOM ROWS ZOOM F: HeapInspector's ZoomOut by a
    # percentage, the span times F: the finest zoom that shows it in ROOM
    # rows, and the rows (whole lines of two) that do; "zoom rows ratio"
    cols, room, rows, z, f = int(a[0]), int(a[1]), int(a[2]), int(a[3]), \
        float(a[4])
    want = rows * cols * cellbytes(z) * f
    top = fit(cols, room)
    nz = next((y for y in range(-3, top) if want <= room * cols *
        cellbytes(y)), top)
    line = 2 * cols * cellbytes(nz)
    n = -(-want // line)
    r = min(int(2 * n), room, len(layout(cols, nz)))
    r = min(max(r + r % 2, 2), room)
    print(nz, r, '%.3g' % (r * cellbytes(nz) / (rows * cellbytes(z))))
elif cmd == 'fit':
    print(fit(int(a[0]), int(a[1])))
elif cmd == 'size':
    print(size(int(a[0])))
elif cmd == 'cellsize':
    print(cellbytes(int(a[0])))
elif cmd == 'bytes':
    print(size(cellbytes(int(a[0]))))
elif cmd == 'label':
    # label COLS ZOOM ROW: a row's first address, as the map prints it
    print('%x' % layout(int(a[0]), int(a[1]))[int(a[2])])
elif cmd == 'rows':
    print(len(layout(int(a[0]), int(a[1]))))
elif cmd == 'index':
    # index COLS ZOOM LABEL: which row of the layout has that label
    print(['%x' % r for r in layout(int(a[0]), int(a[1]))].index(a[2]))
elif cmd == 'types':
    # ObjectsByType's rows by bytes: objects, bytes, usable, type, module
    rows = []
    for t, (m, n) in enumerate(types):
        bs = [b for b in blocks if b[3] == t]
        rows.append((-sum(b[1] for b in bs), t, len(bs),
            sum(b[1] for b in bs), sum(b[2] for b in bs), n,
            '' if m is None else modules[m][0]))
    for r in sorted(rows):
        print(('%d %d %d %s %s' % r[2:]).strip())
elif cmd == 'count':
    what = a[0]
    if what == 'NodeList':
        print(sum(1 for b in blocks if b[3] == 1))
    elif what == 'hello':
        print(sum(1 for b in blocks if b[3] != 0))
    elif what == 'unload':
        # demo and libfoo go (demo imports libfoo): roots 0 and 1.
        reach, poss = states()
        r2, p2 = states(dropped=(0, 1))
        print(len((reach | poss) - (r2 | p2)))
    elif what == 'anchored':
        print(len(closure([0])))
    elif what == 'pointers':
        print(len(edges) + len(redges))
    elif what == 'collectable':
        reach, poss = states()
        print(len(blocks) - len(reach) - len(poss))
elif cmd == 'block':
    # block ADDR: the index of the block holding ADDR
    x = int(a[0], 16)
    print([i for i, b in enumerate(blocks) if b[0] <= x < b[0] + b[2]][0])
elif cmd == 'addr':
    print('%#x' % blocks[int(a[0])][0])
PY
hm() { python3 "$dir/hm.py" "$@"; }
hm write "$dir/demo.heap" || exit 1

# demo [TERM [LANG]]: the browser on the snapshot in an 80x24 pane.
demo() {
	dterm=${1:-screen-256color}
	dlang=${2:-C.UTF-8}
	cat > "$dir/wrap.sh" <<EOS
trap : INT
stty -g > "$dir/stty.before"
sh -c 'echo \$\$ > "$dir/pid"; exec env TERM=$dterm LC_ALL=$dlang \
    XDG_STATE_HOME="$dir/state" "$DEMO" "$dir/demo.heap"'
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
# line N: screen line N (from 1); label N: its address label.
line() { screen | sed -n "${1}p"; }
label() { line "$1" | awk '{ print $1 }'; }
# cell ROW COL: "FG BG FLAGS CHAR" of a screen cell (from 1).
cell() { cells | awk -v r="$1" -v c="$2" '$1 == r && $2 == c {
    print $3, $4, $5, $6; exit }'; }
title_bytes() { line 1 | sed -n 's/.*objects, \(.*\) a cell.*/\1/p'; }
# maplines: the map's lines now, down to the legend's first swatch.
maplines() { screen | awk 'NR > 1 && /^▀▀ / { print NR - 2; exit }'; }
# Lines of the map at 80x24 with the object pane and a one-line legend:
# 22 for the view, less the status line, 6 for the pane, 1 legend (a
# longer legend takes more: maplines counts them).
COLS=67
LINES_MAP=14

demo
z=$(hm fit $COLS $((2 * LINES_MAP)))
wait_for "profview: demo: heap map, 341 objects, $(hm bytes "$z") a cell"
ok $? "the whole heap at the start: $(hm bytes "$z") a cell (zoom $z)"
wait_for "$(hm legend all unmarked)"
ok $? "legend: every object unmarked, in view and in all"
# The graph comes after the first frame; its message says what it made.
wait_for "heap graph made in " && wait_for ": $(hm count pointers) pointers, $(hm count collectable) collectable"
ok $? "after the first frame, the heap graph: pointers, collectable"
[ "$(label 2)" = "$(hm label $COLS "$z" 0)" ] &&
    [ "$(label 3)" = "$(hm label $COLS "$z" 2)" ] &&
    line 2 | grep -q '^555555559000 '
ok $? "rows from the main heap's start, two rows of cells a line"
nrows=$(hm rows $COLS "$z")
screen | grep -q "^7ffff0000000 " && screen | grep -q "^7ffff7a00000 "
ok $? "each region starts a row at its start address ($nrows rows)"
c=$(cell 2 14)
[ "${c%% *}" = 201 ] && [ "${c##* }" = "▀" ]
ok $? "half blocks: the cursor's cell, its top half pink ($c)"
l=$(screen | grep -n '^7ffff7a00000 ' | cut -d: -f1)
c=$(cell $((l + 1)) 20)
[ "$c" = "245 245 - ▀" ]
ok $? "the mmap'd block: both halves grey, unmarked ($c)"
wait_for "cursor 0x555555559010: Node (demo), 20 bytes asked, 24 usable, reachable" &&
    wait_for "allocated at make_node (demo.c:40) < main (demo.c:80)" &&
    wait_for "contents (8 of 8 bytes kept): de ad be ef 4e 6f 64 65 |....Node|"
ok $? "the object pane: address, type, module, sizes, state, stack, bytes"
wait_for "0x555555559000-0x7ffff7a41000 in view (408.0 KiB of heap, from main heap)"
ok $? "status line: the span in view and the heap's bytes in it"

# HeapInspector's Store: the map in view as a PPM, 4 pixels a cell, and
# the legend's numbers as JSON; never through a link planted at a name.
ln -s "$dir/planted" "$dir/map.json"
keys :
keys -l "store $dir/map"
keys Enter
rows=$((2 * $(maplines)))
wait_for "stored $dir/map.ppm ($COLS x $rows cells) and "
ok $? ":store: says what it wrote ($COLS x $rows cells)"
cells_seen=$(screen | sed -n 's/.*unmarked 341 .*, \([0-9]*\) cells.*/\1/p')
python3 - "$dir/map" $COLS $rows "$cells_seen" "$(hm legend all unmarked)" <<'PY'
import json, os, stat, sys
base, cols, rows, cells, legend = sys.argv[1], int(sys.argv[2]), \
    int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
ppm = open(base + '.ppm', 'rb').read()
head = b'P6\n%d %d\n255\n' % (cols * 4, rows * 4)
assert ppm.startswith(head), ppm[:20]
assert len(ppm) == len(head) + cols * 4 * rows * 4 * 3, len(ppm)
# The heap's first cell holds objects, unmarked: xterm's grey 245.
assert ppm[len(head):len(head) + 3] == bytes([138, 138, 138])
j = json.load(open(base + '.json'))
m = j['marks']
assert len(m) == 1 and m[0]['mark'] == 'unmarked', m
assert m[0]['objects'] == m[0]['objects_in_view'] == 341, m
assert m[0]['cells'] == cells, (m, cells)
assert j['rows'] == rows and j['cols'] == cols and j['objects'] == 341
for f in ('.ppm', '.json'):
    st = os.lstat(base + f)
    assert stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600
assert not os.path.exists(os.path.dirname(base) + '/planted')
PY
ok $? ":store: map.ppm of $COLS x $rows cells, map.json the legend's numbers ($cells_seen cells), 0600, the link replaced"

keys c
wait_for "$(hm legend collectable collectable)" &&
    wait_for "$(hm legend possible 'possibly lost')"
ok $? "c: Collectable, memcheck's lost kinds apart from possibly lost"
keys c
wait_gone "collectable "
ok $? "c again: off"

keys Enter
wait_for "selected 0x555555559010: Node (demo)" &&
    wait_for "selected 0x555555559010: Node, 24 B"
ok $? "Enter selects the cursor's object: the pane says so"
keys r
wait_for "$(hm legend reach0 reachable)"
ok $? "r: what the selected object reaches"
keys r
keys Tab Tab Tab
wait_for "info: ObjectsByType" && hm types > "$dir/types" &&
    screen | grep -A4 "usable  *type  *module" | tail -4 |
    sed 's/^ *//; s/  */ /g; s/ *$//' > "$dir/got" &&
    diff "$dir/types" "$dir/got" >&2
ok $? "Tab: ObjectsByType, by bytes"
keys Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab
wait_for "info: object"
ok $? "Tab cycles back to the object pane"

keys : m a r k Space N o d e Space f o o _ c t x Enter
wait_for "marked Node (1 type) foo_ctx (1 type)" &&
    wait_for "foo_ctx 50 (" && wait_for "Node 99 ("
ok $? ":mark Node foo_ctx: a colour each, in the legend"
c=$(cells | awk '$1 == 2 && $2 > 14 && $3 == 33 { print; exit }')
[ -n "$c" ]
ok $? "Node's colour (33) on the map ($c)"
keys : m a r k Enter
wait_for "marks off"
ok $? ":mark alone: marks off"
# HeapInspector's HeapMap: anew, the whole heap in at most 8 rows, the
# specs its marks; alone, the screen's rows and no marks.
keys -l ':heapmap nosplash 8 Node'
keys Enter
z8=$(hm fit $COLS 8)
wait_for "marked Node (1 type)" && wait_for "Node 99 (" &&
    wait_for "profview: demo: heap map, 341 objects, $(hm bytes $z8) a cell" &&
    [ "$(maplines)" = 4 ]
ok $? ":heapmap nosplash 8 Node: the whole heap in 8 rows (zoom $z8), Node marked"
keys -l ':heapmap'
keys Enter
wait_for "marks off" && ml=$(maplines) && [ "$ml" -gt 4 ] &&
    wait_for "profview: demo: heap map, 341 objects, $(hm bytes $(hm fit $COLS $((2 * ml)))) a cell"
ok $? ":heapmap alone: the screen's rows again ($ml lines), no marks"

keys -l ':select instances typedescriptor demo.NodeList'
keys Enter
wait_for "selected $(hm count NodeList) objects: type demo.NodeList"
ok $? ":select instances typedescriptor demo.NodeList"
keys -l ':select object "hello" 0'
keys Enter
wait_for "selected $(hm count hello) objects: \"hello\" at 0"
ok $? ":select object \"hello\": by the kept contents"
keys -l ':select onlyanchoredby demo:head'
keys Enter
wait_for "selected $(hm count anchored) objects: only anchored by demo:head"
ok $? ":select onlyanchoredby demo:head"
keys -l ':select off'
keys Enter
keys -l ':testunload libfoo'
keys Enter
wait_for "test unload of 2 modules (importers too): $(hm count unload) objects freed"
ok $? ":testunload libfoo: libfoo and demo, which imports it"
keys -l ':testunload'
keys Enter
wait_for "test unload off"
# TestUnloadModules M*: as System.Free M*, demo and what only it needs
# (libfoo, which only demo imports, then libc): the same roots go.
keys -l ':testunload demo*'
keys Enter
wait_for "test unload of 3 modules (importers too): $(hm count unload) objects freed"
ok $? ":testunload demo*: demo, libfoo and libc, as System.Free demo*"
keys -l ':testunload'
keys Enter
wait_for "test unload off"
keys -l ':show defaultblocks'
keys Enter
wait_for "DefaultBlocks off: " && keys -l ':show defaultblocks' &&
    keys Enter && wait_for "DefaultBlocks on: "
ok $? ":show defaultblocks: the seed's toggle, off and on"
keys -l ':select showcommands'
keys Enter
wait_for ":select = off | showcommands | trace [MODULE:]VAR"
ok $? ":select showcommands: the grammar of :select"
# Show FreezeMap: Reachable stays the first object's while another is
# selected.
keys -l ':setmapto 555555559010'
keys Enter Enter r
wait_for "$(hm legend reach0 reachable)"
keys -l ':show freezemap'
keys Enter
wait_for "FreezeMap on"
keys l Enter
wait_for "selected 0x555555559030: " &&
    wait_for "$(hm legend reach0 reachable)"
ok $? ":show freezemap: Reachable kept while another object is selected"
keys -l ':show freezemap'
keys Enter
wait_for "FreezeMap off"
keys r
keys -l ':select off'
keys Enter

# Moves, against the layout: PageDown a map's rows, Right a sixth.
# HeapInspector's ZoomOut N %: the span in view times 1 + N %, in the
# finest cells that show it, the map as many lines as that takes.
room=$((2 * $(maplines)))
set -- $(hm zoomby $COLS $room $room $z 0.12)
keys : z o o m o u t Space - 8 8 % Enter
wait_for "zoomed in 88%: $(hm bytes $1) a cell, $2 rows, the span $3 times" &&
    wait_for "profview: demo: heap map, 341 objects, $(hm bytes $1) a cell" &&
    [ "$(maplines)" = $(($2 / 2)) ]
ok $? ":zoomout -88%: $(hm bytes $1) a cell, $2 rows of $room, span x$3"
set -- $(hm zoomby $COLS $room $2 $1 1.5)
keys : z o o m o u t Space 5 0 Enter
wait_for "zoomed out 50%: $(hm bytes $1) a cell, $2 rows, the span $3 times" &&
    [ "$(maplines)" = $(($2 / 2)) ]
ok $? ":zoomout 50: the span x$3 ($2 rows, $(hm bytes $1) a cell)"
# A step zoom fills the map again: three in from the whole heap.
keys : z o o m o u t Enter
wait_for "the whole heap: "
keys + + +
z2=$((z - 3))
wait_for "profview: demo: heap map, 341 objects, $(hm bytes $z2) a cell"
ok $? "+ from the whole heap after :zoomout N%: the map full, zoom $z2"
keys Home
wait_for -E "^555555559000 "
[ "$(label 2)" = 555555559000 ]
ok $? "Home: the heap's start top left"
ml=$(maplines)
keys PageDown
wait_for -E "^$(hm label $COLS $z2 $((2 * ml)))( |\$)" &&
    [ "$(label 2)" = "$(hm label $COLS $z2 $((2 * ml)))" ]
ok $? "PageDown: a page of rows on, $((2 * ml)) ($(label 2))"
keys Down
t=$((2 * ml + 2 * ml / 5))
wait_for -E "^$(hm label $COLS $z2 $t)( |\$)" &&
    [ "$(label 2)" = "$(hm label $COLS $z2 $t)" ]
ok $? "Down: a fifth of the map's rows on"
keys Up PageUp
wait_for -E "^555555559000 "
[ "$(label 2)" = 555555559000 ]
ok $? "Up, PageUp: back to the start"
keys Right
b=$(python3 -c "print('%x' % (0x555555559000 + $COLS // 6 * $(hm cellsize $z2)))")
wait_for -E "^$b( |\$)"; [ "$(label 2)" = "$b" ]
ok $? "Right: the map's start $((COLS / 6)) cells on ($b)"
keys Left
wait_for -E "^555555559000 "; [ "$(label 2)" = 555555559000 ]
ok $? "Left: back"
keys End
last=$(hm label $COLS $z2 $(($(hm rows $COLS $z2) - 2)))
wait_for -E "^$last( |\$)" && [ "$(label $((ml + 1)))" = "$last" ]
ok $? "End: the heap's end at the bottom ($last)"
# HeapInspector's heap grew upward: SetMapTo Bottom is its start, Top its
# end.
keys : s e t m a p t o Space b o t t o m Enter
wait_for -E "^555555559000 "; [ "$(label 2)" = 555555559000 ]
ok $? ":setmapto bottom: the heap's start"
keys : s e t m a p t o Space t o p Enter
wait_for -E "^$last( |\$)" && [ "$(label $((ml + 1)))" = "$last" ]
ok $? ":setmapto top: the heap's end ($last)"
keys : s e t m a p t o Space b o t t o m Enter
wait_for -E "^555555559000 "
keys :
keys -l 'startmapat 7ffff0000900'
keys Enter
wait_for -E "^7ffff0000900 "; [ "$(label 2)" = 7ffff0000900 ]
ok $? ":startmapat 7ffff0000900: that cell top left"
keys :
keys -l 'setmapto +20'
keys Enter
wait_for "+20: relative to the heap's start, 0x555555559020"
ok $? ":setmapto +20: relative to the heap's start"
keys -
wait_for "profview: demo: heap map, 341 objects, $(hm bytes $((z2 + 1))) a cell"
ok $? "- zooms out"
keys + +
wait_for "profview: demo: heap map, 341 objects, $(hm bytes $((z2 - 1))) a cell"
ok $? "+ zooms in"
keys : z o o m o u t Enter
wait_for "the whole heap: $(hm bytes "$z") a cell"
ok $? ":zoomout: the whole heap again"
keys -
wait_for "zoomed out all the way"
ok $? "- past the whole heap says so"

# The mouse: a click selects, a drag zooms into the rows it covered.
keys :
keys -l 'startmapat 555555559000'
keys Enter
wait_for -E "^555555559000 "
keys + + + + + + + + + + +
wait_for "zoomed in all the way"
keys Home
wait_for -E "^555555559000 "
# At 2 bytes a cell, column 55 is cell 41: 82 bytes in.
keys -l "$(printf '\033[<0;%d;2M\033[<0;%d;2m' 55 55)"
want=$(hm block 555555559052)
wait_for "selected $(hm addr "$want"): "
ok $? "a click selects the object under it (block $want)"
keys :
keys -l 'zoomout'
keys Enter
wait_for "the whole heap"
keys -l "$(printf '\033[<0;20;2M\033[<32;20;4M\033[<0;20;4m')"
wait_for "zoomed into 0x555555559000-"
ok $? "a drag over three lines zooms into their rows"
keys v j j v
wait_for "zoomed into 0x"
ok $? "v, moves, v: zoom into the rows marked"

keys :
keys -l 'select trace nothing'
keys Enter
wait_for "error: nothing: no root of that name"
ok $? ":select trace of no root says so"
keys :
keys -l 'ZoomOut'
keys Enter
wait_for "the whole heap"
ok $? "commands in any case (:ZoomOut)"

$T resize-window -x 20 -y 6
wait_for "[heapmap]"
ok $? "20x6: still drawing"
$T resize-window -x 80 -y 24
keys q q
restored
ok $? "q quits; the terminal as it was"

# Without half blocks: a character a cell, the letter of each mark.
demo screen-256color C
wait_for "unmarked 341" && line 2 | grep -qE '^555555559000 [#=:]'
ok $? "LANG=C: '#' where a block starts, '=' on, ':' where sparse"
keys c
wait_for "collectable 188" && screen | grep -qE '^5555555[0-9a-f]+ .*c'
ok $? "LANG=C: collectable objects as c"
keys q q
demo vt100
wait_for "unmarked 341" && line 2 | grep -qE '^555555559000 [#=:]'
ok $? "vt100: a character a cell"
keys q q
restored

# A stored session: pvheap's snapshot of tests/data/heap/tree, ingested;
# what the map says against what the store holds.
build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
TREE=$build/tests/data/heap/tree
if [ -x "$PVHEAP" ] && [ -x "$TREE" ] && (cd "$dir" && "$PVHEAP" -o tree.heap \
    -- "$TREE" >/dev/null 2>&1) &&
    "$PROFVIEW" --db "$dir/db" ingest "$dir/tree.heap" >/dev/null; then
	nb=$(pvsql "SELECT count(*) FROM heap_block WHERE session = 1")
	start -- "$dir/tree.heap"
	wait_for "profview: tree: heap map, $nb objects" &&
	    wait_for "loaded $nb objects"
	ok $? "a stored session opens in the map: its $nb objects"
	set -- $(pvsql "SELECT count(*), sum(usable) FROM heap_block WHERE
	    session = 1" | tr '|' ' ')
	wait_for "unmarked $1 ($(hm size "$2")) of $1 ($(hm size "$2"))"
	ok $? "its legend: every object and its usable bytes, from the store"
	set -- $(pvsql "SELECT count(*), coalesce(sum(usable), 0) FROM heap_block
	    WHERE session = 1 AND state = 'collectable'" | tr '|' ' ')
	keys c
	wait_for "collectable $1 ($(hm size "$2")) of $1 ($(hm size "$2"))"
	ok $? "c: the ingest's collectable objects ($1)"
	a=$(pvsql "SELECT printf('0x%x', addr) FROM heap_block WHERE session = 1
	    AND idx = 0")
	b=$(pvsql "SELECT coalesce(t.name, '(no type)') || ' (' ||
	    replace(m.path, rtrim(m.path, replace(m.path, '/', '')), '') ||
	    '), ' || b.size || ' bytes asked, ' || b.usable || ' usable, ' ||
	    b.state FROM heap_block b LEFT JOIN heap_type t ON t.session = 1
	    AND t.idx = b.type LEFT JOIN heap_module m ON m.session = 1 AND
	    m.idx = t.module WHERE b.session = 1 AND b.idx = 0")
	wait_for "cursor $a: $b"
	ok $? "the object pane: the first block as the store has it"
	keys :
	keys -l "export text $dir/tree.txt"
	keys Enter
	wait_for "wrote $dir/tree.txt (text)" && [ -s "$dir/tree.txt" ]
	ok $? ":export text: the session's report"
	# A path through the program's DWARF: the static's left child.
	keys :
	keys -l "select trace tree:kept.left"
	keys Enter
	wait_for "selected 1 objects: trace tree:kept.left"
	ok $? ":select trace tree:kept.left: a field, by DWARF"
	keys :
	keys -l "select trace tree:kept.nope"
	keys Enter
	wait_for "error: tree:kept.nope: struct tree has no member nope"
	ok $? ":select trace of a member the type has not says so"
	keys q q
else
	for i in 1 2 3 4 5 6 7; do
		skip "stored session" "pvheap or the test program not built"
	done
fi
finish
