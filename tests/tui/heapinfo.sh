#!/bin/sh
# Screen test: the heap map's info tables (tui/heapinfo.c).  A snapshot
# written as text for tests/tui/heapmap-demo (five modules, one imported
# twice by the same module, one imported by none; gaps between blocks)
# and a model of it below decide every row, order, mark and count; a
# pvheap snapshot stored as a session is checked against the store.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 44

cat > "$dir/hi.py" <<'PY'
import sys
H, M = 0x555555600000, 0x7ffff7000000
regions = [(H, H + 0x3000, 'main heap'), (M, M + 0x21000, 'mmap')]
modules = [('app', [1, 3], 0x1a40, 0x2b0), ('libfoo.so.1', [2], 0x900, 0x60),
    ('libc.so.6', [], 0x18f000, 0x4c40), ('libbar.so.2', [2, 2], 0x3c0, 0x20),
    ('libplug.so', [], 0x120, 0x10)]
types = [(0, 'Node'), (0, 'Leaf'), (1, 'foo_ctx'), (3, 'bar_buf'),
    (None, 'main (app.c:9)')]
blocks = []		# addr, size, usable, type
a = H + 0x10
for i in range(60):
    s = [24, 40, 72, 136, 24, 264][i % 6]
    if i % 13 == 12:
        a += 0x60
    blocks.append((a, s - 3, s, i % 5))
    a += s + 8
blocks.append((M + 0x10, 0x20000 - 8, 0x20000, 4))
roots = [(0, 'app:head', 0), (1, 'libfoo.so.1:ctx', 2),
    (None, 'thread 1 stack', 7)]
edges = [(i, i + 5) for i in range(0, 55, 5)] + [(5, 1), (2, 7), (7, 12)]

def write(path):
    f = open(path, 'w')
    def w(*x):
        f.write('\t'.join('-' if v is None else str(v) for v in x) + '\n')
    w('program', 'info')
    for i, (n, imp, code, data) in enumerate(modules):
        w('module', n, *imp)
        w('modsize', i, code, data)
    for m, n in types:
        w('type', m, n)
    w('frame', 'main', 'app.c', 9)
    w('site', 0, 1)
    for lo, hi, n in regions:
        w('region', hex(lo), hex(hi), n)
    for b in blocks:
        w('block', hex(b[0]), b[1], b[2], b[3], 0)
    for m, n, d in roots:
        w('root', m, n)
    for r, (m, n, d) in enumerate(roots):
        w('redge', r, d)
    for s, d in edges:
        w('edge', s, d)

def size(n):
    if n < 1024:
        return '%d B' % n
    d, u = float(n), -1
    while d >= 1024 and u < 3:
        d /= 1024
        u += 1
    return '%.1f %s' % (d, ['KiB', 'MiB', 'GiB', 'TiB'][u])

def deps(m):
    return sorted(set(x for x in modules[m][1] if x != m),
        key=modules[m][1].index)

def closure(m):
    seen, todo = set(), [m]
    while todo:
        for x in deps(todo.pop()):
            if x not in seen:
                seen.add(x)
                todo.append(x)
    return seen

def importers(m):
    return [i for i in range(len(modules)) if m in deps(i)]

def level(m):
    return 0 if not deps(m) else 1 + max(level(x) for x in deps(m))

def marks(named):
    # TestUnloadModules: named, their importers, * and #
    unl = set(named)
    while True:
        more = set(i for i in range(len(modules)) if i not in unl and
            any(x in unl for x in deps(i)))
        if not more:
            break
        unl |= more
    need = set()
    for u in unl:
        need |= closure(u)
    freed = set()
    if len(named) == 1 and not importers(named[0]):
        freed = {named[0]}
        while True:
            more = set(i for i in range(len(modules)) if i not in freed
                and importers(i) and all(x in freed for x in importers(i)))
            if not more:
                break
            freed |= more
    out = {}
    for m in range(len(modules)):
        out[m] = '++' if m in named else '+' if m in unl else \
            '*' if m in freed else '#' if m in need else ''
    colour = {}
    for m in range(len(modules)):
        colour[m] = '75' if m in unl else '196' if not importers(m) else \
            '40' if m in need or m in freed else 'default'
    return out, colour

def modblocks(m):
    return [b for b in blocks if b[3] is not None and types[b[3]][0] == m]

def order(rows, key, desc):
    # the table's sort: stable, ties in the table's own order
    idx = list(range(len(rows)))
    if desc:
        idx.sort(key=lambda i: key(rows[i]), reverse=True)
        # reverse=True keeps ties stable in Python too
    else:
        idx.sort(key=lambda i: key(rows[i]))
    return [rows[i] for i in idx]

def show(rows):
    # as the screen's rows with runs of blanks as one: empty cells go
    for r in rows:
        print(' '.join(str(x) for x in r if str(x) != ''))

def names(ms):
    return ', '.join(modules[x][0] for x in ms)

def sums(by):
    keys = {}
    for b in blocks:
        if by == 'type':
            k = b[3]
        elif by == 'module':
            k = types[b[3]][0] if b[3] is not None else None
        else:
            k = 0 if b[1] == 0 else b[1].bit_length()
        keys.setdefault(k, []).append(b)
    out = []
    for k in sorted(keys, key=lambda k: (k is None, k)):
        bs = keys[k]
        out.append((k, len(bs), sum(b[1] for b in bs),
            sum(b[2] for b in bs)))
    return out

def gaps():
    out = []
    for lo, hi, n in regions:
        end = lo
        bs = sorted(b for b in blocks if lo <= b[0] < hi)
        for a in [b[0] for b in bs] + [hi]:
            if a > end and a - end > 16:
                out.append((end, a - end, n))
            for b in bs:
                if b[0] == a:
                    end = max(end, b[0] + b[2])
    return out

def reach(start):
    seen, todo = set(), [start]
    while todo:
        x = todo.pop()
        if x in seen:
            continue
        seen.add(x)
        todo += [d for s, d in edges if s == x]
    return seen

def legend(name, bs):
    u = sum(b[2] for b in bs)
    return '%s %d (%s) of %d (%s)' % (name, len(bs), size(u), len(bs),
        size(u))

cmd, a = sys.argv[1], sys.argv[2:]
n = len(modules)
if cmd == 'write':
    write(a[0])
elif cmd == 'modules':
    # modules SORTCOL DESC [NAMED...]: the Modules table as shown
    mk, _ = marks([int(x) for x in a[2:]])
    rows = []
    for m in range(n):
        bs = modblocks(m)
        rows.append((len(bs), sum(b[1] for b in bs), modules[m][2],
            modules[m][3], sum(1 for t in types if t[0] == m),
            '%d/%d%s' % (len(deps(m)), len(closure(m)), mk[m]),
            '%d/%d' % (len(importers(m)), sum(1 for i in range(n)
            if m in closure(i) and i != m)), modules[m][0]))
    c = int(a[0])
    key = (lambda r: r[c]) if c not in (5, 6) else \
        (lambda r: tuple(int(x) for x in r[c].rstrip('+*#').split('/')))
    show(order(rows, key, a[1] == '1'))
elif cmd == 'hier':
    mk, _ = marks([int(x) for x in a])
    rows = []
    for m in range(n):
        bs = modblocks(m)
        rows.append((level(m), len(bs), sum(b[1] for b in bs),
            mk[m] or ('top' if not importers(m) else ''), modules[m][0],
            names(deps(m))))
    show(order(rows, lambda r: r[0], True))
elif cmd == 'colour':
    # colour NAME [NAMED...]: ModuleHierarchy's colour of the module
    _, col = marks([int(x) for x in a[1:]])
    print(col[[m[0] for m in modules].index(a[0])])
elif cmd == 'imports':
    rows = [(len(deps(m)), len(closure(m)) - len(deps(m)), modules[m][0],
        names(deps(m)), names(sorted(closure(m) - set(deps(m)) - {m})),
        names(importers(m))) for m in range(n)]
    show(order(rows, lambda r: r[2], False))
elif cmd == 'bymodule':
    show(order([(c, b, u, '(no module)' if k is None else modules[k][0])
        for k, c, b, u in sums('module')], lambda r: r[1], True))
elif cmd == 'bytype':
    show(order([(c, b, u, types[k][1], '' if types[k][0] is None else
        modules[types[k][0]][0]) for k, c, b, u in sums('type')],
        lambda r: r[1], True))
elif cmd == 'sizes':
    show([('0' if k == 0 else '%d-%d' % (1 << (k - 1), (1 << k) - 1), c, b,
        u) for k, c, b, u in sums('size')])
elif cmd == 'free':
    show(['%#x' % g[0], g[1], g[2]] for g in gaps())
elif cmd == 'freebyregion':
    show(order([['%#x' % g[0], g[1], g[2]] for g in gaps()],
        lambda r: r[2], a[0] == 'desc'))
elif cmd == 'freesum':
    g = gaps()
    cls = {}
    for x in g:
        k = x[1].bit_length()
        cls[k] = cls.get(k, 0) + 1
    print('%d gaps between objects, %d bytes, largest %d%s' % (len(g),
        sum(x[1] for x in g), max(x[1] for x in g), ''.join(', %d of %d+'
        % (cls[k], 1 << (k - 1)) for k in sorted(cls))))
elif cmd == 'gap':
    print('%#x: %d bytes' % gaps()[int(a[0])][:2])
elif cmd == 'legend':
    # legend module NAME | type NAME | size K | reached ROOT
    if a[0] == 'module':
        m = [x[0] for x in modules].index(a[1])
        print(legend('module ' + a[1], modblocks(m)))
    elif a[0] == 'type':
        t = [x[1] for x in types].index(a[1])
        print(legend('type ' + a[1], [b for b in blocks if b[3] == t]))
    elif a[0] == 'size':
        k = int(a[1])
        print(legend('size %d-%d' % (1 << (k - 1), (1 << k) - 1),
            [b for b in blocks if b[1].bit_length() == k]))
    elif a[0] == 'reached':
        # reached ROOT SEL: the selected object keeps its own mark
        r = [x[1] for x in roots].index(a[1])
        print(legend('reached from ' + a[1], [blocks[i] for i in
            reach(roots[r][2]) if i != int(a[2])]))
    elif a[0] == 'modreached':
        # modreached MODULE SEL: what all the module's roots reach
        m = [x[0] for x in modules].index(a[1])
        got = set()
        for rm, name, d in roots:
            if rm == m:
                got |= set(reach(d))
        print(legend('reached from %s\'s variables' % a[1],
            [blocks[i] for i in sorted(got) if i != int(a[2])]))
elif cmd == 'rootsof':
    # the roots that reach block B: pointers, direct, module, name
    b = int(a[0])
    for m, name, d in roots:
        if b in reach(d):
            print(' '.join(str(x) for x in (1, 'yes' if d == b else 'no',
                '' if m is None else modules[m][0], name)))
elif cmd == 'size':
    print(size(int(a[0])))
PY
hi() { python3 "$dir/hi.py" "$@"; }
hi write "$dir/info.heap" || exit 1

# demo [TERM [LANG]]: the browser on the snapshot in an 80x24 pane.
demo() { heapdemo "$dir/info.heap" "$@"; }
# rows HEAD N: the N lines under the column heads matching HEAD, with
# runs of blanks as one (the model prints them so).
rows() {
	screen | grep -A "$2" -E "$1" | tail -n "$2" |
	    sed 's/^ *//; s/  */ /g; s/ *$//'
}
# same EXPECTED GOT: diff them, shown on failure.
same() { printf '%s\n' "$1" > "$dir/want"; printf '%s\n' "$2" > "$dir/got"
	diff "$dir/want" "$dir/got" >&2; }
# rows_are EXPECTED HEAD N: up to 5 s for rows HEAD N to be EXPECTED, the
# diff shown if they never are (the rows may be drawn after the message
# waited for: a redraw of the whole screen, a resize, runs top down).
rows_match() { [ "$(rows "$2" "$3")" = "$1" ]; }
rows_are() { wait_until rows_match "$@" || same "$1" "$(rows "$2" "$3")"; }
# colour NAME: the foreground of NAME in ModuleHierarchy's module column.
colour() {
	screen > "$dir/scr"
	set -- "$1" $(awk -v t="$1" '/level.? +objects/ { c = index($0,
	    "module") } c && NR > 1 { s = substr($0, c) } c && NR > 1 &&
	    (s == t || substr(s, 1, length(t) + 1) == t " ") { print NR, c;
	    exit }' "$dir/scr")
	cells | awk -v r="$2" -v c="$3" '$1 == r && $2 == c { print $3; exit }'
}
# colour_is NAME WANT: up to 5 s for NAME's colour to be WANT.
colour_is() {
	ci=0
	while [ $ci -lt 50 ]; do
		[ "$(colour "$1")" = "$2" ] && return 0
		ci=$((ci + 1))
		sleep 0.1
	done
	echo "# $1: $(colour "$1"), not $2"
	return 1
}
# inview ADDR: whether the status line's span holds ADDR.
inview() {
	screen | sed -n 's/^\(0x[0-9a-f]*\)-\(0x[0-9a-f]*\) in view.*/\1 \2/p' |
	    python3 -c "import sys; lo, hi = (int(x, 16) for x in
	    sys.stdin.read().split()); sys.exit(not lo <= $1 < hi)"
}
MH='objects.? +bytes.? +code'

demo
wait_for "heap graph made in "
ok $? "the map, then the graph and the info tables"
keys i
wait_for "[heapinfo]" && wait_for "[keys here; i, Escape: the map]" &&
    wait_for "keys to Modules"
ok $? "i: the keys to the info table, Modules; the status line says so"
same "$(hi modules 1 1)" "$(rows "$MH" 5)"
ok $? "Modules: objects, bytes, code, data, types, imports, importers (by bytes)"
keys '<'
wait_for "Modules sorted by objects, descending" &&
    same "$(hi modules 0 1)" "$(rows "$MH" 5)"
ok $? "<: sorted by objects, the most first"
keys '>' '>' '>' '>' '>' '>' '>'
wait_for "Modules sorted by module, ascending" &&
    same "$(hi modules 7 0)" "$(rows "$MH" 5)"
ok $? "> to the module column: by name, A-Z"
keys s
wait_for "Modules sorted by module, descending" &&
    same "$(hi modules 7 1)" "$(rows "$MH" 5)"
ok $? "s: the other way"
keys '<' '<'
wait_for "Modules sorted by imports, descending" &&
    same "$(hi modules 5 1)" "$(rows "$MH" 5)"
ok $? "by imports: direct, then indirect"
keys / l i b f o o Enter
keys Enter
wait_for "$(hi legend module libfoo.so.1)"
ok $? "/libfoo, Enter: its objects marked, in the legend"
keys Enter
wait_for "unmarked" && wait_gone "module libfoo.so.1 "
ok $? "Enter again: unmarked"
keys Enter
wait_for "module libfoo.so.1 " && keys x && wait_gone "module libfoo.so.1 "
ok $? "x: unmarked too"

keys Tab
wait_for "info: ObjectsByModule" &&
    same "$(hi bymodule)" "$(rows 'objects.? +bytes.? +usable.? +module' 4)"
ok $? "Tab: ObjectsByModule, by bytes"
keys Tab
wait_for "info: ObjectsByType" &&
    same "$(hi bytype)" "$(rows 'objects.? +bytes.? +usable.? +type' 5)"
ok $? "Tab: ObjectsByType, by bytes"
keys / b a r _ b u f Enter
keys Enter
wait_for "$(hi legend type bar_buf)"
ok $? "Enter on a type: its objects"
keys Tab
$T resize-window -x 160 -y 24
wait_for "info: Imports" &&
    rows_are "$(hi imports)" 'direct.? +indirect.? +module' 5
r=$?
$T resize-window -x 80 -y 24
[ $r = 0 ]
ok $? "Imports: direct and through them, a name imported twice once, the importers"
keys Tab
wait_for "info: ModuleHierarchy" &&
    same "$(hi hier)" "$(rows 'level.? +objects.? +bytes' 5)"
ok $? "ModuleHierarchy: DT_NEEDED levels, top modules marked"
# (The cursor's row is black on green: the colours off it.)
keys End
wait_for "[heapinfo] 5/5" && colour_is app "$(hi colour app)" &&
    colour_is libfoo.so.1 default && keys Home &&
    wait_for "[heapinfo] 1/5" &&
    colour_is libplug.so "$(hi colour libplug.so)"
ok $? "ModuleHierarchy: not imported in red ($(colour app))"

keys Escape
wait_for "[heapmap]" && wait_for "keys to the map"
ok $? "Escape: the keys back to the map"
keys l
wait_for "[heapmap] 2/61"
ok $? "j moves the map's cursor again"
keys -l ':testunload libfoo'
keys Enter
wait_for "test unload of 2 modules" && keys i &&
    wait_for "[heapinfo]" &&
    same "$(hi hier 1)" "$(rows 'level.? +objects.? +bytes' 5)"
ok $? ":testunload libfoo: ++, + for app, # for what they import"
keys End
wait_for "[heapinfo] 5/5" && colour_is app "$(hi colour app 1)" &&
    colour_is libfoo.so.1 "$(hi colour libfoo.so.1 1)" &&
    colour_is libc.so.6 "$(hi colour libc.so.6 1)" && keys Home &&
    wait_for "[heapinfo] 1/5" &&
    colour_is libplug.so "$(hi colour libplug.so 1)"
ok $? "test-unloaded blue, imported by them green, top still red"
keys -l ':testunload app'
keys Enter
wait_long "test unload of 1 module" && keys i && wait_for "[heapinfo]" &&
    keys Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab &&
    wait_for "info: Modules" &&
    keys '<' '<' '<' '<' '<' '<' '<' '<' &&
    wait_for "Modules sorted by objects" &&
    same "$(hi modules 0 1 0)" "$(rows "$MH" 5)"
ok $? ":testunload app (a top module): * for what only it needs"
keys -l ':testunload'
keys Enter
wait_for "test unload off"

keys i Tab Tab Tab Tab Tab
wait_for "info: ObjectSizes" &&
    same "$(hi sizes)" "$(rows 'size.? +objects +bytes' 6)"
ok $? "ObjectSizes: powers of two"
keys Enter
wait_for "$(hi legend size 5)"
ok $? "Enter on a size class: its objects"
keys x Tab
$T resize-window -x 160 -y 24
wait_for "info: FreeBlocks" && wait_for "$(hi freesum)" &&
    rows_are "$(hi free | head -6)" 'address.? +bytes' 6
ok $? "FreeBlocks: the gaps and their sizes, by address"
# By region, a text most rows share: ties in address order both ways.
# Still 160 wide (the summary's end shows it), so no SIGWINCH's redraw
# can come between a sort's message and its rows.
keys '>' '>' && wait_for "FreeBlocks sorted by region, ascending" &&
    rows_are "$(hi freebyregion asc | head -6)" 'address.? +bytes' 6 &&
    keys s && wait_for "FreeBlocks sorted by region, descending" &&
    rows_are "$(hi freebyregion desc | head -6)" 'address.? +bytes' 6
r=$?
keys '<' '<' s && wait_for "FreeBlocks sorted by address, ascending"
$T resize-window -x 80 -y 24
[ $r = 0 ]
ok $? "FreeBlocks by region: stable, ascending and descending"
keys j j Enter
wait_for "free block $(hi gap 2)" && inview "$(hi gap 2 | cut -d: -f1)"
ok $? "Enter on a free block: the map goes to it"
keys Tab
wait_for "info: ReachedFrom" && wait_for "no object selected"
ok $? "ReachedFrom: nothing selected yet"
keys Escape
wait_for "[heapmap]"
keys / 5 5 5 5 5 5 6 0 0 0 1 0 Enter
wait_for "cursor 0x555555600010" || wait_for "[heapmap] 1/61"
keys Enter i
wait_for "1 roots in 1 modules reach 0x55" &&
    same "$(hi rootsof 0)" "$(rows 'pointers.? +direct +module' 1)"
ok $? "ReachedFrom (Variables): the roots that reach the selected object"
keys Enter
wait_for "$(hi legend reached app:head 0)"
ok $? "Enter on a root: what it reaches (but the selected object)"
# HeapInspector's ReachedFromModules: a row a module, its variables.
keys Tab
wait_for "info: ReachedFromModules" &&
    wait_for "ReachedFromModules [keys here; i, Escape: the map] 1: 1 modules reach 0x5555" &&
    screen | grep -qE '^ *1 +[01] +app +head *$'
ok $? "ReachedFromModules: app, by its variable head"
keys Enter
wait_for "$(hi legend modreached app 0)"
ok $? "Enter on a module: what its variables reach"
keys Tab Tab Tab Tab
wait_for "info: Live" && keys Tab && wait_for "info: Status" &&
    keys Tab && wait_for "info: Tasks" && keys Tab &&
    wait_for "info: ModuleLessObjects" && keys Tab &&
    wait_for "info: Modules"
ok $? "Tab from the last table (ModuleLessObjects): the first one, the keys kept"

# The mouse: a click on a table's row gives it the keys and the cursor.
keys Escape
wait_for "[heapmap]" &&
    l=$(screen | grep -n ' libbar.so.2$' | cut -d: -f1) &&
    h=$(screen | grep -n -E "$MH" | cut -d: -f1) &&
    keys -l "$(printf '\033[<0;5;%dM\033[<0;5;%dm' "$l" "$l")" &&
    wait_for "[heapinfo] $((l - h))/5"
ok $? "a click on a table's row: the keys and the cursor there"
$T resize-window -x 20 -y 6
wait_for "[heapmap]"
ok $? "20x6: the keys back to the map, no pane"
keys i
wait_for "too sma" && wait_for "[heapmap]"
ok $? "20x6: i says the screen is too small, the map keeps the keys"
$T resize-window -x 80 -y 24
keys q q
restored
ok $? "q quits; the terminal as it was"

# Without colours the marks say it: the picked objects' letter, top.
demo vt100
wait_for "heap graph made" && keys i Tab Tab Tab Tab &&
    wait_for "info: ModuleHierarchy" && keys Enter &&
    wait_for "$(hi legend module app)" &&
    screen | grep -qE '^5555556[0-9a-f]+ .*i'
ok $? "vt100: a row's objects as i on the map, the legend's count"
rows 'level.? +objects.? +bytes' 5 | grep -q ' top app '
ok $? "vt100: ModuleHierarchy's mark column tells top modules"
keys q q
demo screen-256color C
wait_for "heap graph made" && keys i && wait_for "[heapinfo]" &&
    same "$(hi modules 1 1)" "$(rows "$MH" 5)"
ok $? "LANG=C: the same table"
keys q q
restored

# A snapshot of 30000 modules (minutes to load under ASan+UBSan: skipped
# there, the plain build runs it).
if asan_build "${top_builddir:-.}/tests/tui/heapmap-demo"; then
	skip "30000 modules in a chain: direct counts only, at once" \
	    "minutes under ASan+UBSan"
	skip "a test unload of its top: one walk, the rest marked *" \
	    "minutes under ASan+UBSan"
else
	# A snapshot of 30000 modules, each importing the next: a walk from each
	# would take minutes, so direct counts only; a test unload of the top
	# one is one walk (all the rest would go with it: *).
	python3 - "$dir/chain.heap" <<'PY'
import sys
n = 30000
f = open(sys.argv[1], 'w')
f.write('program\tchain\n')
for i in range(n):
    f.write('module\tm%05d%s\n' % (i, '\t%d' % (i + 1) if i + 1 < n else ''))
f.write('type\t0\tT\nregion\t0x1000\t0x2000\theap\n')
f.write('block\t0x1010\t16\t24\t0\t-\n')
PY
	heapdemo "$dir/chain.heap"
	wait_long "heap graph made" && keys i &&
	    wait_for "too many modules to walk" && wait_for -E ' 1/\? +0/\? +m00000$'
	ok $? "30000 modules in a chain: direct counts only, at once"
	keys -l ':testunload m00000'
	keys Enter
	wait_long "test unload of 1 module" && keys i '>' '>' '>' '>' '>' '>' s Home &&
	    wait_for -E ' 0/\?\* +1/\? +m29999$'
	ok $? "a test unload of its top: one walk, the rest marked *"
	keys q q
	restored
fi

# A stored session: pvheap's snapshot of tests/data/heap/tree, against
# the store: the modules' code and data, and a module's objects marked.
build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
TREE=$build/tests/data/heap/tree
if [ -x "$PVHEAP" ] && [ -x "$TREE" ] && (cd "$dir" && "$PVHEAP" -o tree.heap \
    -- "$TREE" >/dev/null 2>&1) &&
    "$PROFVIEW" --db "$dir/db" ingest "$dir/tree.heap" >/dev/null; then
	start -- "$dir/tree.heap"
	# Wide enough for the longest module name.
	$T resize-window -x 160 -y 24
	wait_for "loaded " && keys i && wait_for "[heapinfo]" &&
	    keys '>' '>' '>' '>' '>' '>' && wait_for "sorted by module" &&
	    sql "SELECT code_size, data_size, replace(path, rtrim(path,
	    replace(path, '/', '')), '') FROM heap_module WHERE session = 1
	    ORDER BY 3, idx" | tr '|' ' ' > "$dir/mods" &&
	    rows "$MH" "$(wc -l < "$dir/mods")" |
	    awk '{ print $3, $4, $8 }' > "$dir/gotm" &&
	    diff "$dir/mods" "$dir/gotm" >&2
	ok $? "Modules: each module's code and data as heap_module has them"
	# The module with the most objects: the first row by objects.
	set -- $(pvsql "SELECT count(*), sum(b.usable), replace(m.path,
	    rtrim(m.path, replace(m.path, '/', '')), '') FROM heap_block b
	    JOIN heap_type t ON t.session = 1 AND t.idx = b.type JOIN
	    heap_module m ON m.session = 1 AND m.idx = t.module WHERE
	    b.session = 1 GROUP BY m.idx ORDER BY 1 DESC, m.idx LIMIT 1" |
	    tr '|' ' ')
	keys '<' '<' '<' '<' '<' '<' '<' Home Enter
	wait_for "module $3 $1 ($(hi size "$2")) of $1 ($(hi size "$2"))"
	ok $? "Enter on $3: its $1 objects, as heap_block has them"
	keys q q
else
	for i in 1 2; do
		skip "stored session" "pvheap or the test program not built"
	done
fi

# An import cycle (issue 18, point 21): app imports liba, liba libb and
# libc, libb liba again, libc libd.  libd imports nothing (0), libc it
# (1); liba and libb, the cycle, share one level, one more than libc's
# (2), and say they are in a cycle; app one more (3).  The walk that
# stopped where the cycle closed gave libb 0.
printf 'program\tcyc\nmodule\tapp\t1\nmodule\tliba\t2\t3\nmodule\tlibb\t1
module\tlibc\t4\nmodule\tlibd\nregion\t0x1000\t0x2000\theap
type\t0\tNode\nblock\t0x1010\t16\t16\t0\t-\n' > "$dir/cycle.heap"
heapdemo "$dir/cycle.heap"
wait_for "heap graph made in " && keys i && wait_for "keys to Modules" &&
    keys Tab Tab Tab Tab && wait_for "info: ModuleHierarchy" &&
    same "3 1 16 top app liba
2 0 0 cycle liba libb, libc
2 0 0 cycle libb liba
1 0 0 libc libd
0 0 0 libd" "$(rows 'level.? +objects.? +bytes' 5)"
ok $? "ModuleHierarchy: an import cycle's modules share a level, marked cycle"
keys q q
finish
