/*
 * The heap map's model against what it means, on random heaps: every cell
 * of a frame at every zoom by adding up the bytes of every block in it,
 * the block under a cell, a block's cell, the counts in view by looking
 * at every block, and HeapInspector's moves and zooms by where they must leave
 * the map.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/heap.h"

#define NM	ANALYZE_HEAPMAP_NMARKS
#define NONE	ANALYZE_HEAPMAP_NONE

struct heap {
	struct analyze_heapmap_region	 reg[8];
	size_t				 nreg;
	uint64_t			*addr;
	uint64_t			*size;
	size_t				 n;
	struct analyze_heapmap		 m;
};

static uint64_t	seed;

static uint64_t
rnd(uint64_t n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (n == 0 ? 0 : (seed >> 33) % n);
}

static char	*names[] = { "main heap", "arena 2", "mmap", "mmap", "mmap",
		    "arena 3", "mmap", "mmap" };

/*
 * A random heap: up to 5 regions far apart (some starting off a granule),
 * blocks 16-aligned with glibc's usable sizes (16k + 8), odd ones, empty
 * ones and big ones, gaps of every size; random marks, some not drawn.
 */
static void
heap_make(struct heap *h, size_t maxblocks)
{
	uint64_t	base = 0x555555550000ULL + rnd(64) * 0x10000, a, s, hi;
	size_t		r, cap = maxblocks + 1;
	char		*cause = NULL;

	memset(h, 0, sizeof *h);
	h->addr = calloc(cap, sizeof *h->addr);
	h->size = calloc(cap, sizeof *h->size);
	h->nreg = 1 + rnd(5);
	for (r = 0; r < h->nreg; r++) {
		h->reg[r].lo = base + (rnd(4) == 0 ? 8 : 0);
		h->reg[r].hi = h->reg[r].lo + 256 + rnd(rnd(3) == 0 ? 65536 :
		    4096);
		h->reg[r].name = names[r];
		base = (h->reg[r].hi + 0x10000 + rnd(0x100000)) & ~15ULL;
	}
	for (r = 0; r < h->nreg; r++) {
		a = (h->reg[r].lo + 15) & ~15ULL;
		hi = h->reg[r].hi;
		while (h->n < maxblocks) {
			switch (rnd(8)) {
			case 0:
				s = 0;
				break;
			case 1:
				s = 1 + rnd(40);
				break;
			case 2:
				s = 100 + rnd(3000);
				break;
			default:
				s = 16 * (1 + rnd(6)) + 8;
				break;
			}
			if (rnd(3) == 0)
				a += 16 * rnd(rnd(4) == 0 ? 200 : 4);
			if (a + (s ? s : 1) > hi)
				break;
			h->addr[h->n] = a;
			h->size[h->n++] = s;
			a = (a + (s ? s : 1) + 15) & ~15ULL;
		}
	}
	ck_assert_int_eq(analyze_heapmap_build(&h->m, h->reg, h->nreg, h->addr,
	    h->size, h->n, &cause), 0);
}

static void
heap_marks(struct heap *h)
{
	size_t	i;
	int	k = (int)rnd(4);

	for (i = 0; i < h->n; i++) {
		switch (rnd(k == 0 ? 2 : 6)) {
		case 0:
			h->m.mark[i] = ANALYZE_HEAPMAP_PLAIN;
			break;
		case 1:
			h->m.mark[i] = (uint8_t)rnd(NM);
			break;
		case 2:
			h->m.mark[i] = NONE;
			break;
		default:
			h->m.mark[i] = (uint8_t)(1 + rnd(3));
			break;
		}
	}
	analyze_heapmap_marks_changed(&h->m);
}

static void
heap_free(struct heap *h)
{
	analyze_heapmap_free(&h->m);
	free(h->addr);
	free(h->size);
}

static uint64_t
bf_bytes(int z)
{
	return (z >= 0 ? 16ULL << z : 16ULL >> -z);
}

/* The brute force layout: row -> region and first virtual cell. */
struct bf_row {
	size_t		r;
	uint64_t	j;
};

static struct bf_row *
bf_rows(const struct heap *h, const struct analyze_heapmap_view *v,
    uint64_t *nrows)
{
	struct bf_row	*rows = NULL;
	uint64_t	 B = bf_bytes(v->zoom), n = 0, c, k, o;
	size_t		 r;

	for (r = 0; r < h->nreg; r++) {
		o = h->m.regions[r].lo & ~((B < 16 ? B : 16) - 1);
		c = (h->m.regions[r].hi - o + B - 1) / B;
		/* Rows padding a region to align are cells of none. */
		for (k = 0; k * v->cols < c + v->phase || (v->align > 1 &&
		    k % v->align != 0); k++) {
			rows = realloc(rows, (n + 1) * sizeof *rows);
			rows[n].r = r;
			rows[n++].j = k;
		}
	}
	*nrows = n;
	return (rows);
}

/* Sorted regions of the test heap, as the model keeps them. */
static const struct analyze_heapmap_region *
bf_reg(const struct heap *h, size_t r)
{
	return (&h->m.regions[r]);
}

/* Cell y, x of view v by adding up every block; *first: its block. */
static struct analyze_heapmap_cell
bf_cell(const struct heap *h, const struct analyze_heapmap_view *v,
    const struct bf_row *rows, uint64_t nrows, uint32_t y, uint32_t x,
    size_t *first, uint64_t *clo, uint64_t *chi)
{
	struct analyze_heapmap_cell	 c = { NONE, ANALYZE_HEAPMAP_OUT };
	uint64_t			 B = bf_bytes(v->zoom), by[NM];
	uint64_t			 live = 0;
	uint64_t			 lo, hi, o, e, s, t;
	int64_t				 vc;
	size_t				 i, r;
	int				 k, start = 0;

	*first = SIZE_MAX;
	if (v->top + y >= nrows)
		return (c);
	r = rows[v->top + y].r;
	vc = (int64_t)(rows[v->top + y].j * v->cols + x) - (int64_t)v->phase;
	o = bf_reg(h, r)->lo & ~((B < 16 ? B : 16) - 1);
	if (vc < 0 || o + (uint64_t)vc * B >= bf_reg(h, r)->hi)
		return (c);
	lo = o + (uint64_t)vc * B;
	hi = lo + B;
	/* Bytes past the region's end are not the cell's. */
	if (hi > bf_reg(h, r)->hi)
		hi = bf_reg(h, r)->hi;
	*clo = lo > bf_reg(h, r)->lo ? lo : bf_reg(h, r)->lo;
	*chi = hi;
	memset(by, 0, sizeof by);
	c.mark = NONE;
	c.flags = 0;
	for (i = 0; i < h->n; i++) {
		if (h->m.mark[i] >= NM)
			continue;
		e = h->addr[i] + (h->size[i] ? h->size[i] : 1);
		s = h->addr[i] > lo ? h->addr[i] : lo;
		t = e < hi ? e : hi;
		if (t <= s)
			continue;
		by[h->m.mark[i]] += t - s;
		live += t - s;
		if (h->addr[i] >= lo)
			start = 1;
	}
	for (k = 0; k < NM; k++) {
		if (by[k] != 0)
			c.mark = (uint8_t)k;
	}
	if (c.mark == NONE)
		return (c);
	c.flags = (start ? ANALYZE_HEAPMAP_START : 0) |
	    (live * 2 < B ? ANALYZE_HEAPMAP_SPARSE : 0);
	for (i = 0; i < h->n; i++) {
		e = h->addr[i] + (h->size[i] ? h->size[i] : 1);
		if (h->m.mark[i] == c.mark && h->addr[i] < hi && e > lo) {
			*first = i;
			break;
		}
	}
	return (c);
}

/* Every cell, the block under it, its range; the counts in view. */
static void
check_view(struct heap *h, const struct analyze_heapmap_view *v)
{
	struct analyze_heapmap_cell	*cells, want;
	struct analyze_heapmap_count	 got[NM], cnt[NM];
	struct bf_row			*rows;
	uint64_t			 nrows, lo, hi, clo, chi, blo, bhi;
	uint64_t			 e, s, t, a, row;
	size_t				 first, i, at;
	uint32_t			 x, y, col;
	int				 k, r;

	rows = bf_rows(h, v, &nrows);
	ck_assert_uint_eq(analyze_heapmap_nrows(&h->m, v), nrows);
	cells = calloc((size_t)v->rows * v->cols, sizeof *cells);
	analyze_heapmap_frame(&h->m, v, cells);
	for (y = 0; y < v->rows; y++) {
		for (x = 0; x < v->cols; x++) {
			clo = chi = 0;
			want = bf_cell(h, v, rows, nrows, y, x, &first, &clo,
			    &chi);
			ck_assert_msg(cells[y * v->cols + x].mark ==
			    want.mark &&
			    cells[y * v->cols + x].flags == want.flags,
			    "zoom %d cols %u phase %u top %llu: cell %u,%u is"
			    " %d/%d, want %d/%d", v->zoom, v->cols, v->phase,
			    (unsigned long long)v->top, y, x,
			    cells[y * v->cols + x].mark,
			    cells[y * v->cols + x].flags, want.mark,
			    want.flags);
			at = analyze_heapmap_block_at(&h->m, v, v->top + y, x);
			ck_assert_msg(at == first, "zoom %d cell %u,%u: block"
			    " %zu, want %zu", v->zoom, y, x, at, first);
			r = analyze_heapmap_cell_range(&h->m, v, v->top + y, x,
			    &lo, &hi);
			ck_assert_int_eq(r, want.flags & ANALYZE_HEAPMAP_OUT ?
			    -1 : 0);
			if (r == 0)
				ck_assert(lo == clo && hi == chi);
		}
	}
	/* The counts in view: every block with a byte in the span. */
	analyze_heapmap_counts(&h->m, v, got);
	memset(cnt, 0, sizeof cnt);
	if (v->top < nrows) {
		ck_assert_int_eq(analyze_heapmap_span(&h->m, v, &blo, &bhi), 0);
		/* The span: the top row's first cell to the last's end. */
		for (y = 0, x = 0; x < v->cols; x++) {
			clo = chi = 0;
			bf_cell(h, v, rows, nrows, y, x, &first, &clo, &chi);
			if (clo != chi)
				break;
		}
		/* A row that pads a region: the span from its end. */
		if (clo == chi)
			clo = bf_reg(h, rows[v->top].r)->hi;
		ck_assert_uint_eq(blo, clo);
		y = v->top + v->rows <= nrows ? v->rows - 1 :
		    (uint32_t)(nrows - 1 - v->top);
		for (x = v->cols; x-- > 0;) {
			clo = chi = 0;
			bf_cell(h, v, rows, nrows, y, x, &first, &clo, &chi);
			if (clo != chi)
				break;
		}
		if (clo == chi)
			chi = bf_reg(h, rows[v->top + y].r)->hi;
		ck_assert_uint_eq(bhi, chi);
		for (i = 0; i < h->n; i++) {
			if (h->m.mark[i] >= NM)
				continue;
			e = h->addr[i] + (h->size[i] ? h->size[i] : 1);
			if (e <= blo || h->addr[i] >= bhi)
				continue;
			s = h->addr[i] > blo ? h->addr[i] : blo;
			t = h->addr[i] + h->size[i] < bhi ? h->addr[i] +
			    h->size[i] : bhi;
			cnt[h->m.mark[i]].blocks++;
			cnt[h->m.mark[i]].bytes += t > s ? t - s : 0;
		}
	}
	for (k = 0; k < NM; k++)
		ck_assert_msg(got[k].blocks == cnt[k].blocks &&
		    got[k].bytes == cnt[k].bytes, "mark %d in view: %llu/%llu,"
		    " want %llu/%llu", k, (unsigned long long)got[k].blocks,
		    (unsigned long long)got[k].bytes,
		    (unsigned long long)cnt[k].blocks,
		    (unsigned long long)cnt[k].bytes);
	/* A block's cell holds its first byte. */
	for (i = 0; i < h->n; i += 1 + rnd(5)) {
		ck_assert_int_eq(analyze_heapmap_locate(&h->m, v, h->addr[i],
		    &row, &col), 0);
		ck_assert_int_eq(analyze_heapmap_cell_range(&h->m, v, row, col,
		    &lo, &hi), 0);
		ck_assert(lo <= h->addr[i] && h->addr[i] < hi);
		ck_assert_uint_eq(analyze_heapmap_find(&h->m, h->addr[i]), i);
		a = h->addr[i] + (h->size[i] > 1 ? h->size[i] - 1 : 0);
		ck_assert_uint_eq(analyze_heapmap_find(&h->m, a), i);
	}
	free(cells);
	free(rows);
}

/* Totals: every drawn block by its mark. */
static void
check_total(const struct heap *h)
{
	uint64_t	c[NM], b[NM];
	size_t		i;
	int		k;

	memset(c, 0, sizeof c);
	memset(b, 0, sizeof b);
	for (i = 0; i < h->n; i++) {
		if (h->m.mark[i] < NM) {
			c[h->m.mark[i]]++;
			b[h->m.mark[i]] += h->size[i];
		}
	}
	for (k = 0; k < NM; k++)
		ck_assert(h->m.total[k].blocks == c[k] &&
		    h->m.total[k].bytes == b[k]);
}

START_TEST(test_random_frames)
{
	struct heap			h;
	struct analyze_heapmap_view	v;
	uint64_t			n;
	int				z, pass;

	seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(_i + 1);
	/* One in four big enough for cells of hundreds of blocks, which the
	   sweep adds up from the checkpoints. */
	heap_make(&h, _i % 4 == 0 ? 500 + rnd(3000) : 20 + rnd(300));
	for (pass = 0; pass < 2; pass++) {
		heap_marks(&h);
		check_total(&h);
		for (z = ANALYZE_HEAPMAP_ZMIN; z <= 14; z++) {
			memset(&v, 0, sizeof v);
			v.cols = 1 + (uint32_t)rnd(40);
			v.rows = 1 + (uint32_t)rnd(12);
			v.zoom = z;
			v.phase = rnd(3) == 0 ? (uint32_t)rnd(v.cols) : 0;
			v.align = (uint32_t)rnd(3);
			n = analyze_heapmap_nrows(&h.m, &v);
			v.top = rnd(n + 2);
			check_view(&h, &v);
		}
	}
	heap_free(&h);
}
END_TEST

/*
 * A cell of hundreds of blocks, whose bytes the sweep takes from the
 * checkpoints: 300 blocks of no size (a byte each, as drawn) outweigh a
 * block of 200 bytes, and a block straddling the cell's end counts only
 * its bytes inside.  Every zoom against the brute force too.
 */
START_TEST(test_whole_cells)
{
	struct heap			h;
	struct analyze_heapmap_view	v;
	struct analyze_heapmap_cell	cell[4];	/* a row of v.cols */
	char				*cause = NULL;
	size_t				i;
	int				z;

	memset(&h, 0, sizeof h);
	h.addr = calloc(400, sizeof *h.addr);
	h.size = calloc(400, sizeof *h.size);
	h.nreg = 1;
	h.reg[0].lo = 0x10000;
	h.reg[0].hi = 0x30000;
	h.reg[0].name = names[0];
	for (i = 0; i < 300; i++) {
		h.addr[h.n] = 0x10000 + 16 * i;
		h.size[h.n++] = 0;
	}
	h.addr[h.n] = 0x10000 + 16 * 300;
	h.size[h.n++] = 200;
	/* From 0x1ff00 into the next 64 KiB cell: 256 bytes in the first. */
	h.addr[h.n] = 0x1ff00;
	h.size[h.n++] = 0x1000;
	ck_assert_int_eq(analyze_heapmap_build(&h.m, h.reg, h.nreg, h.addr,
	    h.size, h.n, &cause), 0);
	for (i = 0; i < h.n; i++)
		h.m.mark[i] = i < 300 ? 1 : 2;
	analyze_heapmap_marks_changed(&h.m);
	memset(&v, 0, sizeof v);
	v.cols = 4;
	v.rows = 1;
	/* 64 KiB a cell: the first holds all but the last block's tail. */
	v.zoom = 12;
	analyze_heapmap_frame(&h.m, &v, cell);
	ck_assert_int_eq(cell[0].mark, 2);
	ck_assert_int_eq(cell[0].flags, ANALYZE_HEAPMAP_START |
	    ANALYZE_HEAPMAP_SPARSE);
	ck_assert_int_eq(cell[1].mark, 2);
	/*
	 * One block of no size, a byte of the 756 drawn, in a stretch the
	 * checkpoints add up: the highest mark, the cell's.
	 */
	h.m.mark[150] = 3;
	analyze_heapmap_marks_changed(&h.m);
	analyze_heapmap_frame(&h.m, &v, cell);
	ck_assert_int_eq(cell[0].mark, 3);
	ck_assert_int_eq(cell[1].mark, 2);
	for (z = ANALYZE_HEAPMAP_ZMIN; z <= 14; z++) {
		memset(&v, 0, sizeof v);
		v.cols = 8;
		v.rows = 6;
		v.zoom = z;
		check_view(&h, &v);
	}
	heap_free(&h);
}
END_TEST

/* The map's first cell: address and linear order as the moves see it. */
static uint64_t
top_addr(struct heap *h, const struct analyze_heapmap_view *v)
{
	uint64_t	a = 0;

	ck_assert_int_ge(analyze_heapmap_row_addr(&h->m, v, v->top, &a), 0);
	return (a);
}

/* Linear index of the cell holding address a, regions end to end. */
static uint64_t
lin(struct heap *h, int z, uint64_t a)
{
	uint64_t	B = bf_bytes(z), L = 0, o;
	size_t		r;

	for (r = 0; r < h->nreg; r++) {
		o = h->m.regions[r].lo & ~((B < 16 ? B : 16) - 1);
		if (a < h->m.regions[r].hi)
			return (L + (a - o) / B);
		L += (h->m.regions[r].hi - o + B - 1) / B;
	}
	return (L);
}

START_TEST(test_moves)
{
	struct heap			h;
	struct analyze_heapmap_view	v, w;
	uint64_t			n, maxtop, row, L, mid, lo, hi, a;
	uint64_t			base, last, B;
	size_t				r;
	uint32_t			col;
	int				i, d, moved, fit, rel;
	char				*cause = NULL, buf[64];

	seed = 0x51ed270b27aa3d5bULL * (uint64_t)(_i + 1);
	heap_make(&h, 50 + rnd(400));
	memset(&v, 0, sizeof v);
	v.cols = 4 + (uint32_t)rnd(30);
	v.rows = 2 + (uint32_t)rnd(10);
	v.zoom = (int)rnd(6) - 3;
	v.align = (uint32_t)rnd(3);
	analyze_heapmap_clamp(&h.m, &v);
	for (i = 0; i < 60; i++) {
		w = v;
		n = analyze_heapmap_nrows(&h.m, &v);
		maxtop = n > v.rows ? n - v.rows : 0;
		switch (rnd(8)) {
		case 0:
			/* Rows: by n, stopping at the ends. */
			d = (int)rnd(2 * v.rows + 1) - (int)v.rows;
			base = w.top < maxtop ? w.top : maxtop;
			moved = analyze_heapmap_move(&h.m, &v,
			    ANALYZE_HEAPMAP_ROWS, d);
			if (d < 0)
				ck_assert_uint_eq(v.top, (uint64_t)-d > base ?
				    0 : base + d);
			else
				ck_assert_uint_eq(v.top, base + d > maxtop ?
				    maxtop : base + d);
			ck_assert_int_eq(moved, v.top != base);
			break;
		case 1:
			/* Cells: the first cell moves by d in linear order. */
			d = (int)rnd(2 * v.cols + 1) - (int)v.cols;
			analyze_heapmap_clamp(&h.m, &v);
			/* (From a row that pads a region: from the next.) */
			if (analyze_heapmap_row_addr(&h.m, &v, v.top, &a) < 0)
				break;
			L = lin(&h, v.zoom, top_addr(&h, &v));
			last = lin(&h, v.zoom, UINT64_MAX) - 1;
			analyze_heapmap_move(&h.m, &v, ANALYZE_HEAPMAP_CELLS,
			    d);
			n = analyze_heapmap_nrows(&h.m, &v);
			/* Unless the end stopped it. */
			if (v.top == (n > v.rows ? n - v.rows : 0))
				break;
			ck_assert_uint_eq(lin(&h, v.zoom, top_addr(&h, &v)),
			    d < 0 && (uint64_t)-d > L ? 0 : (L + d > last ?
			    last : L + d));
			break;
		case 2:
			analyze_heapmap_move(&h.m, &v, ANALYZE_HEAPMAP_HOME, 0);
			ck_assert(v.top == 0 && v.phase == 0);
			ck_assert_uint_eq(top_addr(&h, &v), h.m.regions[0].lo);
			break;
		case 3:
			analyze_heapmap_move(&h.m, &v, ANALYZE_HEAPMAP_END, 0);
			n = analyze_heapmap_nrows(&h.m, &v);
			ck_assert_uint_eq(v.top, n > v.rows ? n - v.rows : 0);
			break;
		case 4:
			/* Zoom: the middle stays in the middle row. */
			d = rnd(2) ? 1 : -1;
			fit = analyze_heapmap_fit(&h.m, &v);
			n = analyze_heapmap_nrows(&h.m, &v);
			row = v.top + v.rows / 2 < n ? v.top + v.rows / 2 :
			    n - 1;
			/* (A cell cut by its region's ends has its own.) */
			a = analyze_heapmap_cell_range(&h.m, &v, row, v.cols /
			    2, &lo, &hi) == 0 && hi - lo == bf_bytes(v.zoom) ?
			    lo + (hi - lo) / 2 : 0;
			moved = analyze_heapmap_zoom(&h.m, &v, d);
			n = analyze_heapmap_nrows(&h.m, &v);
			maxtop = n > v.rows ? n - v.rows : 0;
			if (a != 0 && moved != 0 && v.top != 0 &&
			    v.top != maxtop) {
				analyze_heapmap_locate(&h.m, &v, a, &row, &col);
				ck_assert_uint_eq(row, v.top + v.rows / 2);
			}
			if (d > 0 && w.zoom >= fit)
				ck_assert_int_eq(moved, 0);
			else if (d < 0 && w.zoom == ANALYZE_HEAPMAP_ZMIN)
				ck_assert_int_eq(moved, 0);
			else
				ck_assert_int_eq(moved, d);
			ck_assert_int_le(v.zoom, fit > w.zoom ? fit : w.zoom);
			break;
		case 5:
			/* Center on a block: its row in the middle. */
			a = h.addr[rnd(h.n)];
			analyze_heapmap_center(&h.m, &v, a);
			analyze_heapmap_locate(&h.m, &v, a, &row, &col);
			n = analyze_heapmap_nrows(&h.m, &v);
			maxtop = n > v.rows ? n - v.rows : 0;
			ck_assert(v.top == (row > v.rows / 2 ? row -
			    v.rows / 2 : 0) || v.top == maxtop);
			ck_assert(row >= v.top && row < v.top + v.rows);
			break;
		case 6:
			/* Start at a block: its cell top left. */
			a = h.addr[rnd(h.n)];
			analyze_heapmap_start_at(&h.m, &v, a);
			analyze_heapmap_locate(&h.m, &v, a, &row, &col);
			ck_assert_uint_eq(row, v.top);
			analyze_heapmap_cell_range(&h.m, &v, row, col, &lo,
			    &hi);
			ck_assert_uint_eq(lo, top_addr(&h, &v));
			n = analyze_heapmap_nrows(&h.m, &v);
			ck_assert(n - v.top >= v.rows ||
			    v.zoom == ANALYZE_HEAPMAP_ZMIN);
			break;
		case 7:
			/* Zoom into two blocks' bytes: the finest zoom. */
			lo = h.addr[rnd(h.n)];
			hi = h.addr[rnd(h.n)] + 1;
			if (hi <= lo) {
				a = lo;
				lo = hi - 1;
				hi = a + 1;
			}
			analyze_heapmap_zoom_to(&h.m, &v, lo, hi);
			analyze_heapmap_locate(&h.m, &v, lo, &row, &col);
			ck_assert(row >= v.top && row < v.top + v.rows);
			/* Unless they span more regions than there are rows. */
			for (r = 0; h.m.regions[r].hi <= lo; r++)
				/* nothing */;
			for (n = r; h.m.regions[n].hi < hi; n++)
				/* nothing */;
			if ((n - r) * (v.align > 1 ? v.align : 1) + 1 >
			    v.rows)
				break;
			analyze_heapmap_locate(&h.m, &v, hi - 1, &row, &col);
			ck_assert(row >= v.top && row < v.top + v.rows);
			if (v.zoom > ANALYZE_HEAPMAP_ZMIN) {
				/* One finer, lo top left, would not show hi. */
				w = v;
				w.zoom--;
				B = bf_bytes(w.zoom);
				for (r = 0; h.m.regions[r].hi <= lo; r++)
					/* nothing */;
				a = (lo - (h.m.regions[r].lo & ~((B < 16 ?
				    B : 16) - 1))) / B;
				w.phase = (uint32_t)((w.cols - a % w.cols) %
				    w.cols);
				analyze_heapmap_locate(&h.m, &w, lo, &mid,
				    &col);
				ck_assert_uint_eq(col, 0);
				analyze_heapmap_locate(&h.m, &w, hi - 1, &row,
				    &col);
				ck_assert_uint_gt(row - mid + 1, v.rows);
			}
			break;
		}
		check_view(&h, &v);
	}
	/* Zoom out until it stops: then the heap is all in view. */
	while (analyze_heapmap_zoom(&h.m, &v, 1) != 0)
		/* nothing */;
	/* (A phase Left and Right left may cost a row more.) */
	v.phase = 0;
	n = analyze_heapmap_nrows(&h.m, &v);
	ck_assert(n <= v.rows || n <= h.nreg * (v.align > 1 ? v.align : 1));
	while (analyze_heapmap_zoom(&h.m, &v, -1) != 0)
		/* nothing */;
	ck_assert_int_eq(v.zoom, ANALYZE_HEAPMAP_ZMIN);

	/* Addresses: relative below the heap's size, else absolute. */
	snprintf(buf, sizeof buf, "%llx", (unsigned long long)h.addr[0]);
	ck_assert_int_eq(analyze_heapmap_addr(&h.m, buf, &a, &rel, &cause), 0);
	ck_assert(a == h.addr[0] && rel == 0);
	snprintf(buf, sizeof buf, "%llxh", (unsigned long long)h.addr[0]);
	ck_assert_int_eq(analyze_heapmap_addr(&h.m, buf, &a, &rel, &cause), 0);
	ck_assert(a == h.addr[0] && rel == 0);
	snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)h.addr[0]);
	ck_assert_int_eq(analyze_heapmap_addr(&h.m, buf, &a, &rel, &cause), 0);
	ck_assert_int_eq(analyze_heapmap_addr(&h.m, "10", &a, &rel, &cause), 0);
	ck_assert(a == h.m.regions[0].lo + 16 && rel == 1);
	lo = h.m.regions[0].hi - h.m.regions[0].lo;
	if (h.nreg > 1) {
		snprintf(buf, sizeof buf, "+%llx", (unsigned long long)lo + 3);
		ck_assert_int_eq(analyze_heapmap_addr(&h.m, buf, &a, &rel,
		    &cause), 0);
		ck_assert(a == h.m.regions[1].lo + 3 && rel == 1);
	}
	snprintf(buf, sizeof buf, "+%llx", (unsigned long long)h.m.heap_bytes);
	ck_assert_int_eq(analyze_heapmap_addr(&h.m, buf, &a, &rel, &cause), -1);
	free(cause);
	ck_assert_int_eq(analyze_heapmap_addr(&h.m, "top", &a, &rel, &cause),
	    -1);
	free(cause);
	ck_assert_int_eq(analyze_heapmap_addr(&h.m, "7fffffffffff", &a, &rel,
	    &cause), -1);
	free(cause);
	if (h.m.heap_bytes / 2 < lo)
		ck_assert_uint_eq(analyze_heapmap_middle(&h.m),
		    h.m.regions[0].lo + h.m.heap_bytes / 2);
	heap_free(&h);
}
END_TEST

/* A gigabyte region of one block, one of a million cells of free space. */
START_TEST(test_big_region)
{
	struct analyze_heapmap_region	reg[2] = {
		{ 0x10000000, 0x10000000 + (1ULL << 30), "mmap" },
		{ 0x60000000, 0x60000000 + (1ULL << 24), "main heap" },
	};
	uint64_t			addr[3] = { 0x10000010, 0x60000000,
					    0x60fffff0 };
	uint64_t			size[3] = { (1ULL << 30) - 16, 24, 16 };
	struct analyze_heapmap		m;
	struct analyze_heapmap_view	v = { 64, 4, 0, 0, 0, 0 };
	struct analyze_heapmap_cell	c[256];
	struct analyze_heapmap_count	cnt[NM];
	char				*cause = NULL;
	uint64_t			n;

	ck_assert_int_eq(analyze_heapmap_build(&m, reg, 2, addr, size, 3,
	    &cause), 0);
	/* Regions are sorted, each from a new row. */
	ck_assert_str_eq(m.regions[0].name, "mmap");
	n = analyze_heapmap_nrows(&m, &v);
	ck_assert_uint_eq(n, (1ULL << 26) / 64 + (1ULL << 20) / 64);
	v.zoom = 20;
	analyze_heapmap_frame(&m, &v, c);
	/* 16 MiB a cell: the mmap'd block fills its 64 cells... */
	ck_assert(c[0].mark == ANALYZE_HEAPMAP_PLAIN && c[0].flags ==
	    ANALYZE_HEAPMAP_START);
	ck_assert(c[63].mark == ANALYZE_HEAPMAP_PLAIN && c[63].flags == 0);
	/* ... the main heap is one sparse cell with both its blocks. */
	ck_assert(c[64].mark == ANALYZE_HEAPMAP_PLAIN && c[64].flags ==
	    (ANALYZE_HEAPMAP_START | ANALYZE_HEAPMAP_SPARSE));
	ck_assert(c[65].flags == ANALYZE_HEAPMAP_OUT);
	analyze_heapmap_counts(&m, &v, cnt);
	ck_assert(cnt[0].blocks == 3 && cnt[0].bytes == (1ULL << 30) + 24);
	ck_assert_int_eq(analyze_heapmap_fit(&m, &v), 19);
	analyze_heapmap_free(&m);

	/*
	 * Bad data: overlapping regions, a block outside, overlapping;
	 * analyze_heapmap_check refuses each as the map does, in its words.
	 */
	ck_assert_int_eq(analyze_heapmap_check(reg, 2, addr, size, 3,
	    &cause), 0);
	reg[1].lo = 0x10000000 + (1ULL << 30) - 8;
	ck_assert_int_eq(analyze_heapmap_build(&m, reg, 2, addr, size, 1,
	    &cause), -1);
	ck_assert(strstr(cause, "overlap at") != NULL);
	free(cause);
	ck_assert_int_eq(analyze_heapmap_check(reg, 2, addr, size, 1,
	    &cause), -1);
	ck_assert(strstr(cause, "overlap at") != NULL);
	free(cause);
	reg[1].lo = 0x60000000;
	addr[1] = 0x5ffffff0;
	ck_assert_int_eq(analyze_heapmap_build(&m, reg, 2, addr, size, 3,
	    &cause), -1);
	ck_assert(strstr(cause, "block 1") != NULL);
	free(cause);
	ck_assert_int_eq(analyze_heapmap_check(reg, 2, addr, size, 3,
	    &cause), -1);
	ck_assert(strstr(cause, "block 1 at 0x5ffffff0") != NULL);
	free(cause);
	addr[1] = 0x10000020;
	ck_assert_int_eq(analyze_heapmap_build(&m, reg, 2, addr, size, 2,
	    &cause), -1);
	ck_assert(strstr(cause, "overlaps") != NULL);
	free(cause);
	ck_assert_int_eq(analyze_heapmap_check(reg, 2, addr, size, 2,
	    &cause), -1);
	ck_assert(strstr(cause, "block 1 at 0x10000020 overlaps") != NULL);
	free(cause);
	/* No region at all: a map of nothing. */
	ck_assert_int_eq(analyze_heapmap_build(&m, reg, 0, addr, size, 0,
	    &cause), 0);
	v.zoom = 0;
	ck_assert_uint_eq(analyze_heapmap_nrows(&m, &v), 0);
	analyze_heapmap_frame(&m, &v, c);
	ck_assert(c[0].mark == NONE && c[0].flags == ANALYZE_HEAPMAP_OUT);
	ck_assert_int_eq(analyze_heapmap_move(&m, &v, ANALYZE_HEAPMAP_ROWS,
	    3), 0);
	ck_assert_int_eq(analyze_heapmap_zoom(&m, &v, 1), 0);
	analyze_heapmap_free(&m);
}
END_TEST

/* A snapshot: 3 modules (app imports libfoo, libfoo imports libc). */
static struct analyze_heapview *
snap_make(void)
{
	struct analyze_heapview	*s = calloc(1, sizeof *s);
	static const char	*mods[] = { "app", "libfoo.so.1", "libc.so.6" };
	static const char	*types[] = { "Node", "NodeList", "foo_ctx",
				    "main (app.c:1)" };
	static const uint32_t	 tmod[] = { 0, 0, 1, ANALYZE_HEAPVIEW_NONE };
	size_t			 i;

	s->program = strdup("app");
	s->nregions = 1;
	s->regions = calloc(1, sizeof *s->regions);
	s->regions[0].lo = 0x10000;
	s->regions[0].hi = 0x20000;
	s->regions[0].name = strdup("main heap");
	s->nmodules = 3;
	s->modules = calloc(3, sizeof *s->modules);
	for (i = 0; i < 3; i++) {
		s->modules[i].name = strdup(mods[i]);
		if (i < 2) {
			s->modules[i].imports = calloc(1, sizeof(uint32_t));
			s->modules[i].imports[0] = (uint32_t)i + 1;
			s->modules[i].nimports = 1;
		}
	}
	s->ntypes = 4;
	s->types = calloc(4, sizeof *s->types);
	for (i = 0; i < 4; i++) {
		s->types[i].name = strdup(types[i]);
		s->types[i].module = tmod[i];
	}
	/* 40 blocks: type i % 4, sizes 24 << (i % 5). */
	s->nblocks = 40;
	s->addr = calloc(40, sizeof *s->addr);
	s->size = calloc(40, sizeof *s->size);
	s->usable = calloc(40, sizeof *s->usable);
	s->type = calloc(40, sizeof *s->type);
	s->site = calloc(40, sizeof *s->site);
	s->data_off = calloc(41, sizeof *s->data_off);
	s->data = calloc(40, 8);
	for (i = 0; i < 40; i++) {
		s->addr[i] = 0x10010 + 0x400 * i;
		s->usable[i] = 24 << (i % 5);
		s->size[i] = s->usable[i] - (i % 3);
		s->type[i] = (uint32_t)(i % 4);
		s->site[i] = ANALYZE_HEAPVIEW_NONE;
		memcpy(s->data + 8 * i, i % 2 ? "odd....." : "even....", 8);
		s->data_off[i + 1] = 8 * (i + 1);
	}
	/* Roots: app:head -> 0 -> 1 .. -> 9; libfoo:ctx -> 10 -> 11; a
	   thread -> 12, which also points to 5. */
	s->nroots = 3;
	s->roots = calloc(3, sizeof *s->roots);
	s->roots[0].name = strdup("app:head");
	s->roots[0].module = 0;
	s->roots[1].name = strdup("libfoo.so.1:ctx");
	s->roots[1].module = 1;
	s->roots[2].name = strdup("thread 1");
	s->roots[2].module = ANALYZE_HEAPVIEW_NONE;
	s->edges = calloc(16, sizeof *s->edges);
	s->edges[s->nedges++] = (struct analyze_heap_edge){ 0, 0,
	    ANALYZE_HEAP_E_ROOT };
	for (i = 0; i < 9; i++)
		s->edges[s->nedges++] = (struct analyze_heap_edge){ (uint32_t)i,
		    (uint32_t)i + 1, 0 };
	s->edges[s->nedges++] = (struct analyze_heap_edge){ 1, 10,
	    ANALYZE_HEAP_E_ROOT };
	s->edges[s->nedges++] = (struct analyze_heap_edge){ 10, 11, 0 };
	s->edges[s->nedges++] = (struct analyze_heap_edge){ 2, 12,
	    ANALYZE_HEAP_E_ROOT };
	s->edges[s->nedges++] = (struct analyze_heap_edge){ 12, 5, 0 };
	return (s);
}

/*
 * Roots by name: module:variable, the variable alone, a C++ variable as
 * its symbol, and its last name when no variable has that whole name
 * and only one root has it as its last.
 */
START_TEST(test_root_names)
{
	struct analyze_heapview_root	 r[] = {
		{ (char *)"app:current", (char *)"_ZL7current", 0 },
		{ (char *)"app:app::current", (char *)"_ZN3app7currentE", 0 },
		{ (char *)"lib:ns::current", (char *)"_ZN2ns7currentE", 1 },
		{ (char *)"app:main::cache", (char *)"_ZZ4mainE5cache", 0 },
		{ (char *)"lib:cache", NULL, 1 },
	};
	struct analyze_heapview		 s;
	int				 many;

	memset(&s, 0, sizeof s);
	s.roots = r;
	s.nroots = 5;
	ck_assert_uint_eq(analyze_heapview_root(&s, "current", &many), 0);
	ck_assert_uint_eq(analyze_heapview_root(&s, "_ZL7current", NULL), 0);
	ck_assert_uint_eq(analyze_heapview_root(&s, "app:_ZL7current",
	    NULL), 0);
	ck_assert_uint_eq(analyze_heapview_root(&s, "app::current", NULL), 1);
	ck_assert_uint_eq(analyze_heapview_root(&s, "_ZN3app7currentE",
	    NULL), 1);
	ck_assert_uint_eq(analyze_heapview_root(&s, "lib:ns::current", NULL),
	    2);
	ck_assert_uint_eq(analyze_heapview_root(&s, "cache", NULL), 4);
	ck_assert_uint_eq(analyze_heapview_root(&s, "main::cache", NULL), 3);
	ck_assert_str_eq(analyze_heapview_root_var(r[1].name), "app::current");
	/* Without the static: two roots' last name, neither chosen. */
	s.roots = r + 1;
	s.nroots = 4;
	ck_assert_uint_eq(analyze_heapview_root(&s, "current", &many),
	    ANALYZE_HEAPVIEW_NONE);
	ck_assert_int_eq(many, 1);
	ck_assert_uint_eq(analyze_heapview_root(&s, "nothing", &many),
	    ANALYZE_HEAPVIEW_NONE);
	ck_assert_int_eq(many, 0);
}
END_TEST

START_TEST(test_snapshot)
{
	struct analyze_heapview		*s = snap_make();
	struct analyze_heapview_sum	*t;
	uint8_t				 m[4], sel[40], drop[3], un[3];
	uint8_t				 lost[64];
	uint64_t			 c[66], by[66], us[66];
	char				*cause = NULL;
	size_t				 n, i, k;
	uint32_t			 key;

	ck_assert_int_eq(analyze_heapview_init(s, &cause), 0);
	ck_assert_uint_eq(s->graph.state[3], ANALYZE_HEAP_REACHABLE);
	ck_assert_uint_eq(s->graph.state[20], ANALYZE_HEAP_DEFINITE);
	/* Type specs: a type, its derived ones, a module, Module.Type. */
	ck_assert_uint_eq(analyze_heapview_types(s, "Node", m), 1);
	ck_assert(m[0] && !m[1]);
	/* No derivation known: * is the type alone, never a prefix. */
	ck_assert_uint_eq(analyze_heapview_types(s, "Node*", m), 1);
	ck_assert(m[0] && !m[1] && !m[2]);
	/* Base (no object of its own) <- Node <- NodeList; foo_ctx apart. */
	s->nclasses = 4;
	s->classes = calloc(4, sizeof *s->classes);
	s->classes[0] = strdup("Base");
	s->classes[1] = strdup("Node");
	s->classes[2] = strdup("NodeList");
	s->classes[3] = strdup("foo_ctx");
	s->class_base_off = calloc(5, sizeof *s->class_base_off);
	s->class_base = calloc(2, sizeof *s->class_base);
	s->class_base_off[2] = 1;	/* Node: Base */
	s->class_base_off[3] = s->class_base_off[4] = 2;
	s->class_base[0] = 0;
	s->class_base[1] = 1;		/* NodeList: Node */
	s->type_class = calloc(4, sizeof *s->type_class);
	s->type_class[0] = 1;
	s->type_class[1] = 2;
	s->type_class[2] = 3;
	s->type_class[3] = ANALYZE_HEAPVIEW_NONE;
	ck_assert_uint_eq(analyze_heapview_types(s, "Node*", m), 2);
	ck_assert(m[0] && m[1] && !m[2]);
	ck_assert_uint_eq(analyze_heapview_types(s, "Base*", m), 2);
	ck_assert(m[0] && m[1] && !m[2] && !m[3]);
	ck_assert_uint_eq(analyze_heapview_types(s, "NodeList*", m), 1);
	ck_assert(!m[0] && m[1]);
	ck_assert_uint_eq(analyze_heapview_types(s, "libfoo*", m), 1);
	ck_assert(m[2]);
	ck_assert_uint_eq(analyze_heapview_types(s, "app", m), 2);
	ck_assert_uint_eq(analyze_heapview_types(s, "libfoo", m), 1);
	ck_assert(m[2]);
	ck_assert_uint_eq(analyze_heapview_types(s, "libfoo.so.1.foo_ctx",
	    m), 1);
	ck_assert_uint_eq(analyze_heapview_types(s, "app.NodeList", m), 1);
	ck_assert(m[1]);
	ck_assert_uint_eq(analyze_heapview_types(s, "libc.Node", m), 0);
	/* A * is no prefix: "main (app.c:1)" is not main's. */
	ck_assert_uint_eq(analyze_heapview_types(s, "main*", m), 0);
	ck_assert_uint_eq(analyze_heapview_types(s, "main (app.c:1)*", m), 1);
	ck_assert(m[3]);
	/* ObjectsByType, ByModule, ObjectSizes against adding up. */
	for (k = 0; k < 3; k++) {
		memset(c, 0, sizeof c);
		memset(by, 0, sizeof by);
		memset(us, 0, sizeof us);
		for (i = 0; i < 40; i++) {
			if (k == ANALYZE_HEAPVIEW_BY_SIZE) {
				for (key = 0; key < 64 && (s->size[i] >> key) !=
				    0; key++)
					/* nothing */;
			} else {
				key = s->type[i];
				if (k == ANALYZE_HEAPVIEW_BY_MODULE)
					key = s->types[key].module;
				if (key == ANALYZE_HEAPVIEW_NONE)
					key = 65;
			}
			c[key]++;
			by[key] += s->size[i];
			us[key] += s->usable[i];
		}
		n = analyze_heapview_sums(s, (int)k, &t);
		for (i = 0; i < n; i++) {
			key = t[i].key == ANALYZE_HEAPVIEW_NONE ? 65 : t[i].key;
			ck_assert(i == 0 || t[i].key > t[i - 1].key);
			ck_assert(c[key] == t[i].blocks && by[key] ==
			    t[i].bytes && us[key] == t[i].usable);
			c[key] = 0;
		}
		for (i = 0; i < 66; i++)
			ck_assert_uint_eq(c[i], 0);
		free(t);
	}
	/* Select Object: by the kept bytes at a position. */
	ck_assert_uint_eq(analyze_heapview_find(s, "odd", 3, 0, sel), 20);
	ck_assert(sel[1] && !sel[0]);
	ck_assert_uint_eq(analyze_heapview_find(s, "en", 2, 2, sel), 20);
	ck_assert(sel[0]);
	ck_assert_uint_eq(analyze_heapview_find(s, "....x", 5, 4, sel), 0);
	/* Unload libfoo: app imports it, so both lose their roots. */
	memset(drop, 0, sizeof drop);
	drop[1] = 1;
	n = analyze_heapview_unload(s, drop, un, lost);
	ck_assert(un[0] && un[1] && !un[2]);
	/* 0..9 and 10, 11 were reached; 5 and on stay via the thread. */
	ck_assert_uint_eq(n, 7);
	ck_assert(lost[4 + 0] && !lost[4 + 5] && lost[4 + 11]);
	ck_assert_uint_eq(analyze_heapview_module(s, "libc"), 2);
	ck_assert_uint_eq(analyze_heapview_root(s, "thread 1", NULL), 2);
	analyze_heapview_free(s);
	free(s);

	s = snap_make();
	s->type[7] = 9;
	ck_assert_int_eq(analyze_heapview_init(s, &cause), -1);
	ck_assert(strstr(cause, "block 7") != NULL);
	free(cause);
	analyze_heapview_free(s);
	free(s);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("heapmap");
	TCase	*tc = tcase_create("model");
	SRunner	*sr;
	int	 failed;

	tcase_add_loop_test(tc, test_random_frames, 0, 150);
	tcase_add_loop_test(tc, test_moves, 0, 100);
	tcase_add_test(tc, test_whole_cells);
	tcase_add_test(tc, test_big_region);
	tcase_add_test(tc, test_snapshot);
	tcase_add_test(tc, test_root_names);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed != 0);
}
