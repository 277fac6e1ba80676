#!/bin/sh
# A heap session's exports for other tools: Chrome DevTools' heap snapshot
# (its layout holds together, sizes add up, the list anchored by a global
# is a chain of retainers) and collapsed stacks (outermost frame first,
# live bytes adding up to the session's); chrome is refused by name.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 not found"
	exit 0
fi
heap_setup heap-export
echo "1..9"
pv="$build/profview --db $W/pv.db"
pvheap list -- "$HEAPBIN/list"
check "list: ran under pvheap ($pv_rc)" test "$pv_rc" = 7
$pv ingest "$W/list.heap" > /dev/null 2>&1
bytes=$($pv sql --csv "SELECT bytes FROM heap" | tail -1)

$pv export -f heapsnapshot -o "$W/list.heapsnapshot" 1 2> "$W/hs.err"
check "export -f heapsnapshot -o writes the file" test -s "$W/list.heapsnapshot"
cat > "$W/hs.py" <<'EOPY'
import json, sys
d = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
meta = d["snapshot"]["meta"]
nf = meta["node_fields"]
ef = meta["edge_fields"]
assert nf == ["type", "name", "id", "self_size", "edge_count",
    "trace_node_id", "detachedness"], nf
assert ef == ["type", "name_or_index", "to_node"], ef
ntypes, etypes = meta["node_types"][0], meta["edge_types"][0]
nodes, edges, strings = d["nodes"], d["edges"], d["strings"]
N, E = d["snapshot"]["node_count"], d["snapshot"]["edge_count"]
assert N * len(nf) == len(nodes), (N, len(nodes))
assert E * len(ef) == len(edges), (E, len(edges))
assert len(set(strings)) == len(strings), "strings repeat"
for k in ("trace_function_info", "trace_tree", "samples", "locations"):
    assert d[k] == [], k
name = lambda i: strings[nodes[i * 7 + 1]]
ids, out, rets = set(), [], [[] for _ in range(N)]
e = 0
size = 0
for i in range(N):
    t, s, nid, self, ec = nodes[i * 7: i * 7 + 5]
    assert 0 <= t < len(ntypes) and 0 <= s < len(strings), i
    assert nid not in ids, "id %d twice" % nid
    ids.add(nid)
    if ntypes[t] == "object" and i > 1:
        size += self
    mine = []
    for j in range(e, e + ec):
        et, en, to = edges[j * 3: j * 3 + 3]
        assert 0 <= et < len(etypes), j
        assert to % len(nf) == 0 and 0 <= to < len(nodes), (j, to)
        if etypes[et] in ("element", "hidden"):
            assert isinstance(en, int), j
        else:
            assert 0 <= en < len(strings), (j, en)
        mine.append(to // 7)
        rets[to // 7].append(i)
    out.append(mine)
    e += ec
assert e == E, (e, E)
assert ntypes[nodes[0]] == "synthetic" and name(1) == "(GC roots)"
# Blocks are every object past the roots: their sizes are the heap's.
roots = [i for i in out[0] if i != 1]
blocks = [i for i in range(2, N) if i not in roots]
assert sum(nodes[i * 7 + 3] for i in blocks) == want, (size, want)
# The anchored list: the global retains its head, each node the next.
g = [i for i in roots if name(i).endswith("anchored")]
assert len(g) == 1, [name(i) for i in roots]
chain, x = [], g[0]
while out[x]:
    assert len(out[x]) == 1, (x, out[x])
    nxt = out[x][0]
    assert rets[nxt] == [x], (nxt, rets[nxt])
    chain.append(nxt)
    x = nxt
assert len(chain) == 20, len(chain)
# Typed from the program's DWARF: the global is a struct node *.
assert all(name(i) == "struct node" and nodes[i * 7 + 3] == 16
    for i in chain)
# The leaked list: ten blocks no typed pointer reaches, so named by their
# allocation site, build, and nothing roots them.
lost = [i for i in blocks if name(i) == "build" and i not in chain]
assert len(lost) == 10 and sum(1 for i in lost if not rets[i]) == 1, lost
print("ok")
EOPY
check "the heap snapshot holds together, its sizes and retainers right" \
    sh -c "python3 '$W/hs.py' '$W/list.heapsnapshot' '$bytes' >&2"

$pv export -f collapsed 1 > "$W/list.collapsed" 2> "$W/cs.err"
cat > "$W/cs.py" <<'EOPY'
import re, sys
want = int(sys.argv[2])
total = 0
lines = open(sys.argv[1]).read().splitlines()
for l in lines:
    m = re.fullmatch(r"([^;\n]+(?:;[^;\n]+)*) ([0-9]+)", l)
    assert m, l
    assert int(m.group(2)) > 0, l
    total += int(m.group(2))
assert total == want, (total, want)
print("ok")
EOPY
check "collapsed stacks: well formed, adding up to the live bytes ($bytes)" \
    sh -c "python3 '$W/cs.py' '$W/list.collapsed' '$bytes' >&2"
check "collapsed stacks: outermost frame first, the allocating one last" \
    grep -q ';main (list\.c:[0-9]*);build (list\.c:[0-9]*) 320$' \
    "$W/list.collapsed"
check "collapsed stacks: the leaked list's site, through leak()" \
    grep -q ';main (list\.c:[0-9]*);leak (list\.c:[0-9]*);build (list\.c:[0-9]*) 160$' \
    "$W/list.collapsed"

# A frame that would retitle the terminal, with a carriage return, a tab
# and a ';' (issue 18, point 17): the export, which may go to a
# terminal, has no control byte but its line ends, the frame escaped as
# vis.c escapes, its ';' a ','.
# (The allocating frame of the first site with live bytes, in the table
# of frames each stored once: heap_site is a view over it.)
$pv --writable sql "UPDATE heap_frame SET text = 'bad' || char(27) ||
    ']0;owned' || char(7) || char(13) || char(9) || 'x'
    WHERE session = 1 AND idx = (SELECT k.frame FROM heap_stack k
    JOIN heap_allocsite s ON k.session = s.session AND
    k.idx = s.first_frame WHERE s.session = 1 AND s.idx = (SELECT
    min(idx) FROM heap_allocsite WHERE session = 1 AND live_bytes > 0))" \
    > "$W/upd.out" 2>&1 || sed 's/^/# /' "$W/upd.out"
$pv export -f collapsed 1 > "$W/bad.collapsed" 2> "$W/cs.err"
check "collapsed stacks: a hostile frame leaves no control byte" \
    sh -c "python3 '$W/cs.py' '$W/bad.collapsed' '$bytes' >&2 &&
    ! LC_ALL=C grep -q '[[:cntrl:]]' '$W/bad.collapsed'"
check "... and is there, escaped" grep -qF \
    ';bad\x1B]0,owned\x07\r\tx ' "$W/bad.collapsed"

$pv export -f chrome -o "$W/list.json" 1 > /dev/null 2> "$W/chrome.err"
rc=$?
check "export -f chrome of a heap session fails, naming heap's formats" \
    sh -c "test $rc != 0 && ! test -e '$W/list.json' &&
    grep -q 'no chrome report for kind heap' '$W/chrome.err' &&
    grep -q 'heapsnapshot' '$W/chrome.err' &&
    grep -q 'collapsed' '$W/chrome.err'"
