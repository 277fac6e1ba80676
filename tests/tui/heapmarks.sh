#!/bin/sh
# Screen test: the heap map never hides a marked block.  A cell shows the
# highest mark of the blocks with a byte in it, at every zoom: here a
# 2 MiB heap of 64-byte blocks, a lost pair in every 97, so that at the
# opening zoom (2 KiB, 32 blocks a cell) a lost block has 56 or 112 of a
# cell's 2048 bytes and a rule of the cell's first block or of its most
# bytes would show every cell unmarked.  The cells' colours and letters
# are read from the screen and compared with the heap's own description
# (a Python model below), as the legend's counts of blocks and cells.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 4

cat > "$dir/hmk.py" <<'PY'
import sys
H = 0x555555559000
HI = H + 0x200000
N = (HI - H - 0x10 - 56) // 64 + 1
# Blocks 40 and 41 of every 97 are lost: 40 definitely, 41 (which only
# 40 points to) indirectly; a chain from the root holds the others.
lost = [i % 97 in (40, 41) for i in range(N)]

def addr(i):
    return H + 0x10 + 64 * i

def write(path):
    f = open(path, 'w')
    w = f.write
    w('program\tmarks\nmodule\tmarks\ntype\t0\tNode\n')
    w('frame\tmain\tmarks.c\t1\nsite\t0\t1\n')
    w('region\t%#x\t%#x\tmain heap\n' % (H, HI))
    for i in range(N):
        w('block\t%#x\t48\t56\t0\t0\n' % addr(i))
    w('root\t0\tmarks:head\nredge\t0\t0\n')
    kept = [i for i in range(N) if not lost[i]]
    for a, b in zip(kept, kept[1:]):
        w('edge\t%d\t%d\n' % (a, b))
    for i in range(N):
        if i % 97 == 40:
            w('edge\t%d\t%d\n' % (i, i + 1))
    f.close()

def cellbytes(z):
    return 16 << z if z >= 0 else 16 >> -z

def nrows(cols, z, align):
    B = cellbytes(z)
    c = (HI - H + B - 1) // B
    n = (c + cols - 1) // cols
    return (n + align - 1) // align * align

def fit(cols, rows, align):
    for z in range(-3, 41):
        if nrows(cols, z, align) <= max(rows, align):
            return z

def size(n):
    if n < 1024:
        return '%d B' % n
    d, u = float(n), -1
    while d >= 1024 and u < 3:
        d /= 1024
        u += 1
    return '%.1f %s' % (d, ['KiB', 'MiB', 'GiB', 'TiB'][u])

def cells(z):
    # Each cell's mark: c if a lost block has a byte in it, else # if
    # any block has, else . (free, or past the region's end).
    B = cellbytes(z)
    got = ['.'] * ((HI - H + B - 1) // B)
    for i in range(N):
        for c in range((addr(i) - H) // B, (addr(i) + 55 - H) // B + 1):
            if lost[i]:
                got[c] = 'c'
            elif got[c] != 'c':
                got[c] = '#'
    return got

cmd, a = sys.argv[1], sys.argv[2:]
if cmd == 'write':
    write(a[0])
elif cmd == 'fit':
    print(fit(int(a[0]), int(a[1]), int(a[2])))
elif cmd == 'bytes':
    print(size(cellbytes(int(a[0]))))
elif cmd == 'grid':
    # grid COLS ZOOM [@]: the map's rows of cells; @: the cursor, a
    # colour of its own, on the first block's cell.
    cols, got = int(a[0]), cells(int(a[1]))
    if a[2:] == ['@']:
        got[0] = '@'
    for r in range(0, len(got), cols):
        print(''.join(got[r:r + cols]).ljust(cols, '.'))
elif cmd == 'legend':
    got = cells(int(a[0]))
    nl = sum(lost)
    print('collectable %d (%s) of %d (%s), %d cells' % (nl, size(56 * nl),
        nl, size(56 * nl), got.count('c')))
    print('unmarked %d (%s) of %d (%s), %d cells' % (N - nl,
        size(56 * (N - nl)), N - nl, size(56 * (N - nl)), got.count('#')))
PY
hmk() { python3 "$dir/hmk.py" "$@"; }
hmk write "$dir/marks.heap" || exit 1

# The map at 80x24: a 13-column gutter of addresses, 67 cells a row.
COLS=67
# screen_grid ROWS HALVES: the map's first ROWS rows of cells as the
# model writes them, from the cells' colours (HALVES: two rows a line,
# the top half's the foreground) or from their letters.
screen_grid() {
	cells | awk -v rows="$1" -v halves="$2" -v gw=13 -v cols=$COLS '
	function mark(col) {
		if (col == 160)
			return "c"
		if (col == 245)
			return "#"
		if (col == 201)
			return "@"
		return col == "default" ? "." : "?"
	}
	$1 >= 2 && $2 > gw {
		y = $1 - 2
		x = $2 - gw
		if ($6 == "")
			top[y, x] = bot[y, x] = "."
		else if (halves) {
			top[y, x] = mark($3)
			bot[y, x] = mark($4)
		} else
			top[y, x] = $6 == "=" || $6 == ":" ? "#" : $6
	}
	END {
		for (r = 0; r < rows; r++) {
			line = ""
			for (x = 1; x <= cols; x++) {
				y = halves ? int(r / 2) : r
				c = halves && r % 2 ? bot[y, x] : top[y, x]
				line = line (c == "" ? "." : c)
			}
			print line
		}
	}'
}

# Half blocks: two rows of cells a line.
z=$(hmk fit $COLS 28 2)
heapdemo "$dir/marks.heap"
wait_long "heap graph made in " && wait_for ", $(hmk bytes "$z") a cell"
ok $? "the opening zoom: $(hmk bytes "$z") a cell"
keys c
hmk legend "$z" > "$dir/legend"
wait_for "$(sed -n 1p "$dir/legend")" && wait_for "$(sed -n 2p "$dir/legend")"
ok $? "c: the legend counts each mark's blocks, bytes and cells ($(sed -n 1p "$dir/legend"))"
hmk grid $COLS "$z" @ > "$dir/want"
screen_grid "$(wc -l < "$dir/want")" 1 > "$dir/got"
diff "$dir/want" "$dir/got" >&2
ok $? "c at the opening zoom: every cell holding a lost block red, the others grey"

# Without colours or half blocks (vt100, LANG=C): one row a line, the
# mark's letter in each cell (the cursor a colour, not a letter).
z=$(hmk fit $COLS 14 1)
heapdemo "$dir/marks.heap" vt100 C
wait_long "heap graph made in " && wait_for ", $(hmk bytes "$z") a cell" &&
    keys c && hmk legend "$z" > "$dir/legend" &&
    wait_for "$(sed -n 1p "$dir/legend")" &&
    hmk grid $COLS "$z" > "$dir/want" &&
    screen_grid "$(wc -l < "$dir/want")" 0 > "$dir/got" &&
    diff "$dir/want" "$dir/got" >&2
ok $? "vt100: c at the opening zoom ($(hmk bytes "$z") a cell) where a lost block is"
finish
