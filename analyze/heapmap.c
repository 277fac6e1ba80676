/*
 * The heap map: HeapInspector's zoomable bitmap of the heap, as a model a
 * view asks for what it shows.  The regions of the heap (the main heap,
 * each arena's heaps, each mmap'd chunk) are laid out in address order,
 * each starting a new row at its start address; a cell holds B bytes, a
 * power of two from 2 to 16 << 40 (the zoom); a cell shows the highest
 * mark of the drawn blocks with a byte in it, and a cell with no such
 * byte is free.  The highest, not the one with most bytes: one lost block
 * among a hundred plain ones in a cell is what the map is looked at for,
 * and a majority would hide it until the zoom gave it a cell of its own.
 *
 * A frame must cost what its cells cost, not what the heap does, on a
 * heap of millions of blocks.  Up to 128 bytes a cell, no cell holds more
 * than nine blocks (they are 16-byte aligned), so a row is made from the
 * blocks under it, found by one binary search.  From 256 bytes a cell on,
 * a cell may hold thousands: each such zoom level is made once (and again
 * when the marks change) as runs of equal cells, one sweep over the
 * blocks, and a row is a binary search into the runs.  Both go through
 * one sweep (hm_sweep), so a cell is the same whichever way it was made.
 * The legend's counts in view come from prefix sums every 64 blocks, and
 * so do a coarse cell's bytes by mark: a cell of a million-block heap at
 * the zoom that shows it whole holds thousands of blocks, and a frame
 * after new marks (a key that picks objects) must not visit them all.
 */
#include <stdlib.h>
#include <string.h>

#include "bsearch.h"
#include "hex.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"

#define HM_RUNS_ZOOM	4	/* from here on a level is made as runs */
#define HM_CK		64	/* blocks between count checkpoints */
#define HM_NM		ANALYZE_HEAPMAP_NMARKS
#define HM_NONE		ANALYZE_HEAPMAP_NONE
#define HM_G		ANALYZE_HEAPMAP_GRANULE
#define HM_MAX_BYTES	((uint64_t)1 << 52)	/* laid out, in all */

/* What a cell adds up while the sweep is in it. */
struct hm_acc {
	uint32_t	seen;		/* a bit per mark with a byte here */
	uint64_t	live;
	int		start;
	int		open;
	uint64_t	cell;
};

/* Where a sweep's cells go. */
struct hm_out {
	void		(*emit)(struct hm_out *, uint64_t, uint64_t, uint8_t,
			    uint8_t);
	/* A row of a frame: cell c at column c + shift. */
	struct analyze_heapmap_cell *row;
	int64_t		shift;
	/* A chunk's runs: cell c at c + base in the chunk (mod 2^64). */
	struct analyze_heapmap_chunk *ch;
	uint64_t	base;
};

uint64_t
analyze_heapmap_cell_bytes(int zoom)
{
	if (zoom < ANALYZE_HEAPMAP_ZMIN)
		zoom = ANALYZE_HEAPMAP_ZMIN;
	if (zoom > ANALYZE_HEAPMAP_ZMAX)
		zoom = ANALYZE_HEAPMAP_ZMAX;
	return (zoom >= 0 ? (uint64_t)HM_G << zoom : (uint64_t)HM_G >> -zoom);
}

/*
 * Cells start at the region's start rounded down to a granule, or to a
 * cell when cells are smaller: a region's first cell holds its start, and
 * a block's first byte starts a cell at every zoom.
 */
static uint64_t
hm_origin(const struct analyze_heapmap *m, size_t r, uint64_t B)
{
	return (m->regions[r].lo & ~((B < HM_G ? B : HM_G) - 1));
}

static uint64_t
hm_ncells(const struct analyze_heapmap *m, size_t r, uint64_t B)
{
	return ((m->regions[r].hi - hm_origin(m, r, B) + B - 1) / B);
}

/* A block of size 0 is drawn as one byte, so it can be seen and hit. */
static uint64_t
hm_end(const struct analyze_heapmap *m, size_t i)
{
	return (m->addr[i] + (m->size[i] != 0 ? m->size[i] : 1));
}

/* The first block of [lo, hi) that ends after a (ends ascend). */
static size_t
hm_first_after(const struct analyze_heapmap *m, size_t lo, size_t hi,
    uint64_t a)
{
	size_t	i;

	BSEARCH_FIRST(i, lo, hi, hm_end(m, i) <= a);
	return (i);
}

/* The region holding a, or the one after the gap a is in; nregions
   when a is past the last. */
static size_t
hm_region_of(const struct analyze_heapmap *m, uint64_t a)
{
	size_t	r;

	BSEARCH_FIRST(r, 0, m->nregions, m->regions[r].hi <= a);
	return (r);
}

static int
hm_region_cmp(const void *a, const void *b)
{
	const struct analyze_heapmap_region *x = a, *y = b;

	return (x->lo < y->lo ? -1 : x->lo > y->lo);
}

void
analyze_heapmap_free(struct analyze_heapmap *m)
{
	size_t		i;
	uint64_t	j;

	for (i = 0; i < m->nregions; i++)
		free(m->regions[i].name);
	free(m->regions);
	free(m->rfirst);
	free(m->rbytes);
	free(m->mark);
	free(m->ck_count);
	free(m->ck_bytes);
	free(m->ck_zero);
	for (i = 0; i <= ANALYZE_HEAPMAP_ZMAX; i++) {
		for (j = 0; j < m->levels[i].nchunks; j++) {
			free(m->levels[i].chunks[j].off);
			free(m->levels[i].chunks[j].val);
		}
		free(m->levels[i].chunks);
	}
	free(m->l_row);
	free(m->l_cell);
	memset(m, 0, sizeof *m);
}

/*
 * The map's regions, sorted, and its blocks placed in them: everything
 * analyze_heapmap_build refuses is refused here, before the marks and
 * their counts are made.
 */
static int
hm_place(struct analyze_heapmap *m,
    const struct analyze_heapmap_region *regions, size_t nregions,
    const uint64_t *addr, const uint64_t *size, size_t nblocks, char **cause)
{
	size_t		r, i;
	uint64_t	bytes = 0;

	memset(m, 0, sizeof *m);
	m->regions = xcalloc(nregions + 1, sizeof *m->regions);
	for (r = 0; r < nregions; r++) {
		m->regions[r] = regions[r];
		m->regions[r].name = xstrdup(regions[r].name != NULL ?
		    regions[r].name : "heap");
	}
	m->nregions = nregions;
	qsort(m->regions, nregions, sizeof *m->regions, hm_region_cmp);
	for (r = 0; r < nregions; r++) {
		if (m->regions[r].hi <= m->regions[r].lo ||
		    m->regions[r].hi > (uint64_t)INT64_MAX + 1) {
			*cause = xasprintf("heap map: region %s %#llx..%#llx is"
			    " empty or beyond the address space",
			    m->regions[r].name,
			    (unsigned long long)m->regions[r].lo,
			    (unsigned long long)m->regions[r].hi);
			goto fail;
		}
		/*
		 * What bounds the map is the bytes it lays out, not where
		 * they are (a chunk's runs count cells in 32 bits): regions
		 * far apart are rows apart, however far.
		 */
		bytes += m->regions[r].hi - m->regions[r].lo;
		if (bytes > HM_MAX_BYTES) {
			*cause = xasprintf("heap map: the regions up to %s"
			    " %#llx..%#llx hold more than the %llu bytes it"
			    " lays out", m->regions[r].name,
			    (unsigned long long)m->regions[r].lo,
			    (unsigned long long)m->regions[r].hi,
			    (unsigned long long)HM_MAX_BYTES);
			goto fail;
		}
		if (r > 0 && m->regions[r].lo < m->regions[r - 1].hi) {
			*cause = xasprintf("heap map: regions %s and %s overlap"
			    " at %#llx", m->regions[r - 1].name,
			    m->regions[r].name,
			    (unsigned long long)m->regions[r].lo);
			goto fail;
		}
		/* Two regions must not share a granule's cells either. */
		if (r > 0 && hm_origin(m, r, HM_G) < m->regions[r - 1].hi) {
			*cause = xasprintf("heap map: regions %s and %s share"
			    " the granule at %#llx", m->regions[r - 1].name,
			    m->regions[r].name,
			    (unsigned long long)hm_origin(m, r, HM_G));
			goto fail;
		}
	}
	/* Borrowed: a million blocks are not copied for the map. */
	m->addr = addr;
	m->size = size;
	m->nblocks = nblocks;
	m->rfirst = xcalloc(nregions + 1, sizeof *m->rfirst);
	m->rbytes = xcalloc(nregions + 1, sizeof *m->rbytes);
	r = 0;
	for (i = 0; i < nblocks; i++) {
		if (i > 0 && addr[i] < hm_end(m, i - 1)) {
			*cause = xasprintf("heap map: block %zu at %#llx"
			    " overlaps block %zu at %#llx (%llu bytes)", i,
			    (unsigned long long)addr[i], i - 1,
			    (unsigned long long)addr[i - 1],
			    (unsigned long long)size[i - 1]);
			goto fail;
		}
		while (r < nregions && m->regions[r].hi <= addr[i])
			m->rfirst[++r] = i;
		if (r == nregions || addr[i] < m->regions[r].lo ||
		    hm_end(m, i) > m->regions[r].hi) {
			*cause = xasprintf("heap map: block %zu at %#llx"
			    " (%llu bytes) is not inside a region", i,
			    (unsigned long long)addr[i],
			    (unsigned long long)size[i]);
			goto fail;
		}
	}
	while (r < nregions)
		m->rfirst[++r] = nblocks;
	for (r = 0; r < nregions; r++)
		m->rbytes[r + 1] = m->rbytes[r] + (m->regions[r].hi -
		    m->regions[r].lo);
	m->heap_bytes = m->rbytes[nregions];
	return (0);

fail:
	analyze_heapmap_free(m);
	return (-1);
}

/*
 * A map of the regions (any order, none overlapping) and the blocks, by
 * address, each inside a region and none overlapping another: their
 * start and usable size, arrays the map borrows (they must outlive it).
 * Every mark starts as ANALYZE_HEAPMAP_PLAIN.
 * Data that breaks these rules is the caller's error: -1 and a cause.
 */
int
analyze_heapmap_build(struct analyze_heapmap *m,
    const struct analyze_heapmap_region *regions, size_t nregions,
    const uint64_t *addr, const uint64_t *size, size_t nblocks, char **cause)
{
	if (hm_place(m, regions, nregions, addr, size, nblocks, cause) != 0)
		return (-1);
	m->mark = xcalloc_populated(nblocks + 1, 1);
	m->l_row = xcalloc(nregions + 1, sizeof *m->l_row);
	m->l_cell = xcalloc(nregions + 1, sizeof *m->l_cell);
	m->ck_count = xreallocarray(NULL, (nblocks / HM_CK + 1) * HM_NM,
	    sizeof *m->ck_count);
	m->ck_bytes = xreallocarray(NULL, (nblocks / HM_CK + 1) * HM_NM,
	    sizeof *m->ck_bytes);
	m->ck_zero = xreallocarray(NULL, (nblocks / HM_CK + 1) * HM_NM,
	    sizeof *m->ck_zero);
	m->gen = 0;
	analyze_heapmap_marks_changed(m);
	return (0);
}

/*
 * Whether analyze_heapmap_build would make a map of these, without
 * making it: the ingest's check that a snapshot's map opens, which
 * made the map's marks and counts of a million blocks for nothing.
 */
int
analyze_heapmap_check(const struct analyze_heapmap_region *regions,
    size_t nregions, const uint64_t *addr, const uint64_t *size,
    size_t nblocks, char **cause)
{
	struct analyze_heapmap	m;

	if (hm_place(&m, regions, nregions, addr, size, nblocks, cause) != 0)
		return (-1);
	analyze_heapmap_free(&m);
	return (0);
}

/*
 * The marks changed: count them again; what the zoom levels keep is made
 * again where a frame next shows it.
 */
void
analyze_heapmap_marks_changed(struct analyze_heapmap *m)
{
	uint32_t	cnt[HM_NM], zer[HM_NM], rn, rz;
	uint64_t	byt[HM_NM], s, rs;
	size_t		i, c, k, end;
	uint8_t		mk;

	memset(cnt, 0, sizeof cnt);
	memset(zer, 0, sizeof zer);
	memset(byt, 0, sizeof byt);
	for (c = 0; c <= m->nblocks / HM_CK; c++) {
		k = c * HM_NM;
		memcpy(m->ck_count + k, cnt, sizeof cnt);
		memcpy(m->ck_bytes + k, byt, sizeof byt);
		memcpy(m->ck_zero + k, zer, sizeof zer);
		end = c * HM_CK + HM_CK < m->nblocks ? c * HM_CK + HM_CK :
		    m->nblocks;
		/*
		 * A run of one mark is summed in registers, then added: a
		 * count in memory a block took twice as long (each add
		 * waited for the last block's store).
		 */
		for (i = c * HM_CK; i < end; ) {
			mk = m->mark[i];
			rn = rz = 0;
			rs = 0;
			do {
				s = m->size[i++];
				rn++;
				rs += s;
				rz += s == 0;
			} while (i < end && m->mark[i] == mk);
			if (mk < HM_NM) {
				cnt[mk] += rn;
				byt[mk] += rs;
				zer[mk] += rz;
			}
		}
	}
	for (k = 0; k < HM_NM; k++) {
		m->total[k].blocks = cnt[k];
		m->total[k].bytes = byt[k];
	}
	/* Every chunk made so far is stale. */
	m->gen++;
}

/* Counts and bytes by mark of blocks [0, i). */
static void
hm_cum(const struct analyze_heapmap *m, size_t i, uint64_t *cnt,
    uint64_t *byt)
{
	size_t	j, k;
	uint8_t	mk;

	for (k = 0; k < HM_NM; k++) {
		cnt[k] = m->ck_count[i / HM_CK * HM_NM + k];
		byt[k] = m->ck_bytes[i / HM_CK * HM_NM + k];
	}
	for (j = i / HM_CK * HM_CK; j < i; j++) {
		if ((mk = m->mark[j]) < HM_NM) {
			cnt[mk]++;
			byt[mk] += m->size[j];
		}
	}
}

static void
hm_acc_add(struct hm_acc *a, uint8_t mk, uint64_t n)
{
	a->seen |= 1u << mk;
	a->live += n;
}

/*
 * The blocks between checkpoints k0 and k1, all inside the cell, from the
 * checkpoints: a mark at a time, not a block.
 */
static void
hm_acc_chunks(struct hm_acc *a, const struct analyze_heapmap *m, size_t k0,
    size_t k1)
{
	const uint32_t	*c0 = m->ck_count + k0 * HM_NM;
	const uint32_t	*c1 = m->ck_count + k1 * HM_NM;
	const uint32_t	*z0 = m->ck_zero + k0 * HM_NM;
	const uint32_t	*z1 = m->ck_zero + k1 * HM_NM;
	const uint64_t	*b0 = m->ck_bytes + k0 * HM_NM;
	const uint64_t	*b1 = m->ck_bytes + k1 * HM_NM;
	uint64_t	 n;
	int		 k;

	for (k = 0; k < HM_NM; k++) {
		if (c1[k] == c0[k])
			continue;
		/* What hm_end draws: a block of no size is a byte. */
		n = b1[k] - b0[k] + z1[k] - z0[k];
		a->seen |= 1u << k;
		a->live += n;
	}
	a->start = 1;
}

/* The cell's mark and flags; the accumulator is empty after. */
static void
hm_acc_take(struct hm_acc *a, uint64_t B, uint8_t *mark, uint8_t *flags)
{
	*mark = a->seen != 0 ? (uint8_t)(31 - __builtin_clz(a->seen)) :
	    HM_NONE;
	*flags = (a->start ? ANALYZE_HEAPMAP_START : 0) |
	    (a->live * 2 < B ? ANALYZE_HEAPMAP_SPARSE : 0);
	a->seen = 0;
	a->live = 0;
	a->start = 0;
	a->open = 0;
}

static void
hm_flush(struct hm_acc *a, uint64_t B, struct hm_out *o)
{
	uint8_t	mk, fl;

	hm_acc_take(a, B, &mk, &fl);
	o->emit(o, a->cell, 1, mk, fl);
}

/*
 * Cells [c0, c1) of region r at B bytes a cell, to o in order, runs of
 * equal cells together where they are known to be (a block's inside, a
 * stretch of free space).
 */
static void
hm_sweep(const struct analyze_heapmap *m, size_t r, uint64_t B, uint64_t c0,
    uint64_t c1, struct hm_out *o)
{
	struct hm_acc	 acc;
	uint64_t	 org = hm_origin(m, r, B), a0 = org + c0 * B;
	uint64_t	 a1 = org + c1 * B, bs, be, cb, ce, cur = c0, E;
	size_t		 i, j, rend = m->rfirst[r + 1];
	uint8_t		 mk;
	unsigned	 lb = (unsigned)__builtin_ctzll(B);

	if (c1 <= c0)
		return;
	memset(&acc, 0, sizeof acc);
	i = hm_first_after(m, m->rfirst[r], rend, a0);
	for (; i < rend && m->addr[i] < a1; i++) {
		if ((mk = m->mark[i]) >= HM_NM)
			continue;
		bs = m->addr[i] > a0 ? m->addr[i] : a0;
		be = hm_end(m, i) < a1 ? hm_end(m, i) : a1;
		/* B is a power of two: shifts, not divisions, per block. */
		cb = (bs - org) >> lb;
		ce = (be - 1 - org) >> lb;
		if (acc.open && cb > acc.cell) {
			hm_flush(&acc, B, o);
			cur = acc.cell + 1;
		}
		if (!acc.open) {
			if (cb > cur)
				o->emit(o, cur, cb - cur, HM_NONE, 0);
			acc.open = 1;
			acc.cell = cur = cb;
		}
		/*
		 * At a checkpoint, the stretches of HM_CK blocks wholly in
		 * this cell (a coarse zoom: hundreds of blocks a cell) at once.
		 */
		if (i % HM_CK == 0 && ce == cb && m->addr[i] >= a0) {
			E = org + (cb + 1) * B;
			for (j = i; j + HM_CK <= rend &&
			    hm_end(m, j + HM_CK - 1) <= E; j += HM_CK)
				/* nothing */;
			if (j > i) {
				hm_acc_chunks(&acc, m, i / HM_CK, j / HM_CK);
				i = j - 1;
				continue;
			}
		}
		hm_acc_add(&acc, mk, (be < org + (cb + 1) * B ? be :
		    org + (cb + 1) * B) - bs);
		if (m->addr[i] >= a0)
			acc.start = 1;
		if (ce > cb) {
			hm_flush(&acc, B, o);
			if (ce > cb + 1)
				o->emit(o, cb + 1, ce - cb - 1, mk, 0);
			acc.open = 1;
			acc.cell = cur = ce;
			hm_acc_add(&acc, mk, be - (org + ce * B));
		}
	}
	if (acc.open) {
		hm_flush(&acc, B, o);
		cur = acc.cell + 1;
	}
	if (cur < c1)
		o->emit(o, cur, c1 - cur, HM_NONE, 0);
}

static void
hm_emit_row(struct hm_out *o, uint64_t c, uint64_t n, uint8_t mk, uint8_t fl)
{
	struct analyze_heapmap_cell	*p = o->row + (int64_t)c + o->shift;

	for (; n > 0; n--, p++) {
		p->mark = mk;
		p->flags = fl;
	}
}

static void
hm_emit_run(struct hm_out *o, uint64_t c, uint64_t n, uint8_t mk, uint8_t fl)
{
	struct analyze_heapmap_chunk	*ch = o->ch;
	uint16_t			 v = (uint16_t)(mk | fl << 8);

	if (n == 0 || (ch->n > 0 && ch->val[ch->n - 1] == v))
		return;
	if (ch->n == ch->cap) {
		ch->cap = ch->cap != 0 ? ch->cap * 2 : 64;
		ch->off = xreallocarray(ch->off, ch->cap, sizeof *ch->off);
		ch->val = xreallocarray(ch->val, ch->cap, sizeof *ch->val);
	}
	ch->off[ch->n] = (uint32_t)(c + o->base);
	ch->val[ch->n++] = v;
}

/* The region holding linear cell L (the layout is current). */
static size_t
hm_cell_region(const struct analyze_heapmap *m, uint64_t L)
{
	size_t	r;

	/* The last r with l_cell[r] <= L; the first starts at cell 0. */
	BSEARCH_FIRST(r, 1, m->nregions, m->l_cell[r] <= L);
	return (r - 1);
}

/* Lay zoom level z's chunks out, once (the layout must be z's). */
static struct analyze_heapmap_level *
hm_level(struct analyze_heapmap *m, int z)
{
	struct analyze_heapmap_level	*lv = &m->levels[z];
	uint64_t			 all = m->l_cell[m->nregions];

	if (lv->nchunks == 0 && all != 0) {
		for (lv->shift = 12; (all >> lv->shift) > 65536; lv->shift++)
			/* nothing */;
		lv->nchunks = ((all - 1) >> lv->shift) + 1;
		lv->chunks = xcalloc(lv->nchunks, sizeof *lv->chunks);
	}
	return (lv);
}

/*
 * Chunk k of zoom level z, made now if it is not, from the blocks under
 * its cells.  The layout must be z's.  A level's chunks are 4096 cells
 * or, where that would make more than 65536 of them, more (a sweep costs
 * its blocks, not its cells, so a big chunk of free space is cheap).
 */
static struct analyze_heapmap_chunk *
hm_chunk(struct analyze_heapmap *m, int z, uint64_t k)
{
	struct analyze_heapmap_level	*lv = hm_level(m, z);
	struct analyze_heapmap_chunk	*ch;
	struct hm_out			 o;
	uint64_t			 B = analyze_heapmap_cell_bytes(z);
	uint64_t			 L0, L1, all = m->l_cell[m->nregions];
	size_t				 r;

	ch = &lv->chunks[k];
	if (ch->gen == m->gen)
		return (ch);
	ch->n = 0;
	memset(&o, 0, sizeof o);
	o.emit = hm_emit_run;
	o.ch = ch;
	L0 = k << lv->shift;
	L1 = (k + 1) << lv->shift < all ? (k + 1) << lv->shift : all;
	for (r = hm_cell_region(m, L0); r < m->nregions && m->l_cell[r] < L1;
	    r++) {
		o.base = m->l_cell[r] - L0;
		hm_sweep(m, r, B, (L0 > m->l_cell[r] ? L0 : m->l_cell[r]) -
		    m->l_cell[r], (L1 < m->l_cell[r + 1] ? L1 :
		    m->l_cell[r + 1]) - m->l_cell[r], &o);
	}
	ch->gen = m->gen;
	return (ch);
}

static void	hm_layout(struct analyze_heapmap *,
		    const struct analyze_heapmap_view *);

/*
 * Make every chunk of zoom level z (z >= 4; finer levels keep none) that
 * is not made: what a frame would cost if it had to make them all.  The
 * runs the level holds.
 */
uint64_t
analyze_heapmap_level_build(struct analyze_heapmap *m, int z)
{
	struct analyze_heapmap_view	v;
	uint64_t			k, n = 0;

	if (z < HM_RUNS_ZOOM || z > ANALYZE_HEAPMAP_ZMAX || m->nregions == 0)
		return (0);
	memset(&v, 0, sizeof v);
	v.cols = m->l_ok ? m->l_cols : 1;
	v.phase = m->l_ok ? m->l_phase : 0;
	v.zoom = z;
	hm_layout(m, &v);
	hm_level(m, z);
	for (k = 0; k < m->levels[z].nchunks; k++)
		n += hm_chunk(m, z, k)->n;
	return (n);
}

/* Rows and linear cells of each region for v's cols, zoom and phase. */
static void
hm_layout(struct analyze_heapmap *m, const struct analyze_heapmap_view *v)
{
	uint64_t	B = analyze_heapmap_cell_bytes(v->zoom), W, s, c, n, al;
	size_t		r;

	W = v->cols > 0 ? v->cols : 1;
	s = v->phase % W;
	al = v->align > 1 ? v->align : 1;
	if (m->l_ok && m->l_cols == W && m->l_zoom == v->zoom &&
	    m->l_phase == s && m->l_align == al)
		return;
	for (r = 0; r < m->nregions; r++) {
		c = hm_ncells(m, r, B);
		m->l_cell[r + 1] = m->l_cell[r] + c;
		n = (c + s + W - 1) / W;
		m->l_row[r + 1] = m->l_row[r] + (n + al - 1) / al * al;
	}
	m->l_ok = 1;
	m->l_cols = (uint32_t)W;
	m->l_zoom = v->zoom;
	m->l_phase = (uint32_t)s;
	m->l_align = (uint32_t)al;
}

/* The region of row (< all rows). */
static size_t
hm_row_region(const struct analyze_heapmap *m, uint64_t row)
{
	size_t	r;

	/* The last r with l_row[r] <= row; the first starts at row 0. */
	BSEARCH_FIRST(r, 1, m->nregions, m->l_row[r] <= row);
	return (r - 1);
}

/* Row's region and its cells [*c0, *c1) (the layout is current). */
static size_t
hm_row_cells(const struct analyze_heapmap *m, uint64_t row, uint64_t *c0,
    uint64_t *c1)
{
	size_t		r = hm_row_region(m, row);
	uint64_t	W = m->l_cols, s = m->l_phase, j = row - m->l_row[r];
	uint64_t	n = m->l_cell[r + 1] - m->l_cell[r];

	*c0 = j * W > s ? j * W - s : 0;
	*c1 = (j + 1) * W - s < n ? (j + 1) * W - s : n;
	/* A row that pads the region (align) has no cells. */
	if (*c0 > n)
		*c0 = n;
	return (r);
}

uint64_t
analyze_heapmap_nrows(struct analyze_heapmap *m,
    const struct analyze_heapmap_view *v)
{
	hm_layout(m, v);
	return (m->l_row[m->nregions]);
}

/*
 * The coarsest zoom a map of v's cols, rows and align needs to show the
 * whole heap (or each region in rows of its own, when there are more
 * regions than that).
 */
int
analyze_heapmap_fit(struct analyze_heapmap *m,
    const struct analyze_heapmap_view *v)
{
	struct analyze_heapmap_view	w;
	uint64_t			need, al = v->align > 1 ? v->align : 1;

	need = v->rows > m->nregions * al ? v->rows : m->nregions * al;
	memset(&w, 0, sizeof w);
	w.cols = v->cols;
	w.align = v->align;
	for (w.zoom = ANALYZE_HEAPMAP_ZMIN; w.zoom < ANALYZE_HEAPMAP_ZMAX;
	    w.zoom++) {
		if (analyze_heapmap_nrows(m, &w) <= need)
			break;
	}
	return (w.zoom);
}

/*
 * The cells of v: rows x cols of them, row by row.  Rows past the heap's
 * end and cells outside a region are ANALYZE_HEAPMAP_NONE with
 * ANALYZE_HEAPMAP_OUT.
 */
void
analyze_heapmap_frame(struct analyze_heapmap *m,
    const struct analyze_heapmap_view *v, struct analyze_heapmap_cell *cells)
{
	struct analyze_heapmap_chunk	*ch;
	struct hm_out			 o;
	uint64_t			 B, row, n, c0, c1, L0, L1, E, a, b;
	uint64_t			 W, K;
	size_t				 r, i;
	uint32_t			 k, y;
	unsigned			 sh;

	B = analyze_heapmap_cell_bytes(v->zoom);
	hm_layout(m, v);
	W = m->l_cols;
	n = m->l_row[m->nregions];
	for (i = 0; i < (size_t)v->rows * W; i++) {
		cells[i].mark = HM_NONE;
		cells[i].flags = ANALYZE_HEAPMAP_OUT;
	}
	memset(&o, 0, sizeof o);
	o.emit = hm_emit_row;
	for (y = 0; y < v->rows; y++) {
		row = v->top + y;
		if (row >= n)
			break;
		r = hm_row_cells(m, row, &c0, &c1);
		o.row = cells + (size_t)y * W;
		o.shift = (int64_t)m->l_phase - (int64_t)((row - m->l_row[r]) *
		    W);
		if (v->zoom < HM_RUNS_ZOOM) {
			hm_sweep(m, r, B, c0, c1, &o);
			continue;
		}
		/* Chunk by chunk; in each, the run holding the first cell. */
		L0 = m->l_cell[r] + c0;
		L1 = m->l_cell[r] + c1;
		for (; L0 < L1; L0 = E) {
			sh = hm_level(m, v->zoom)->shift;
			ch = hm_chunk(m, v->zoom, L0 >> sh);
			K = L0 >> sh << sh;
			E = K + ((uint64_t)1 << sh) < L1 ? K + ((uint64_t)1 <<
			    sh) : L1;
			BSEARCH_FIRST(k, 1, ch->n, K + ch->off[k] <= L0);
			for (k = k - 1; k < ch->n && K + ch->off[k] < E; k++) {
				a = K + ch->off[k] > L0 ? K + ch->off[k] : L0;
				b = k + 1 < ch->n && K + ch->off[k + 1] < E ?
				    K + ch->off[k + 1] : E;
				hm_emit_row(&o, a - m->l_cell[r], b - a,
				    (uint8_t)(ch->val[k] & 0xff),
				    (uint8_t)(ch->val[k] >> 8));
			}
		}
	}
}

/*
 * Row's region (-1 past the heap's end or on a row that pads a region)
 * and, in *addr, the address its first cell starts at: the region's own
 * start on its first row.
 */
long
analyze_heapmap_row_addr(struct analyze_heapmap *m,
    const struct analyze_heapmap_view *v, uint64_t row, uint64_t *addr)
{
	uint64_t	B = analyze_heapmap_cell_bytes(v->zoom), c0, c1;
	size_t		r;

	hm_layout(m, v);
	if (row >= m->l_row[m->nregions])
		return (-1);
	r = hm_row_cells(m, row, &c0, &c1);
	if (c0 >= c1)
		return (-1);
	*addr = c0 == 0 ? m->regions[r].lo : hm_origin(m, r, B) + c0 * B;
	return ((long)r);
}

/*
 * The bytes [*lo, *hi) of the region that the cell at row, col (of the
 * whole map, not of the view) holds; -1 outside every region.
 */
int
analyze_heapmap_cell_range(struct analyze_heapmap *m,
    const struct analyze_heapmap_view *v, uint64_t row, uint32_t col,
    uint64_t *lo, uint64_t *hi)
{
	uint64_t	B = analyze_heapmap_cell_bytes(v->zoom), c0, c1, c;
	size_t		r;

	hm_layout(m, v);
	if (row >= m->l_row[m->nregions] || col >= m->l_cols)
		return (-1);
	r = hm_row_cells(m, row, &c0, &c1);
	c = (row - m->l_row[r]) * m->l_cols + col;
	if (c < m->l_phase || (c -= m->l_phase) < c0 || c >= c1)
		return (-1);
	*lo = hm_origin(m, r, B) + c * B;
	*hi = *lo + B;
	if (*lo < m->regions[r].lo)
		*lo = m->regions[r].lo;
	if (*hi > m->regions[r].hi)
		*hi = m->regions[r].hi;
	return (0);
}

/*
 * The block under the cell at row, col: of the blocks with bytes there,
 * the first whose mark the cell shows; SIZE_MAX for a free cell.
 */
size_t
analyze_heapmap_block_at(struct analyze_heapmap *m,
    const struct analyze_heapmap_view *v, uint64_t row, uint32_t col)
{
	struct hm_acc	acc;
	uint64_t	lo, hi, bs, be;
	size_t		r, i, first;
	uint8_t		mk, fl;

	if (analyze_heapmap_cell_range(m, v, row, col, &lo, &hi) != 0)
		return (SIZE_MAX);
	r = hm_region_of(m, lo);
	memset(&acc, 0, sizeof acc);
	first = hm_first_after(m, m->rfirst[r], m->rfirst[r + 1], lo);
	for (i = first; i < m->rfirst[r + 1] && m->addr[i] < hi; i++) {
		if (m->mark[i] >= HM_NM)
			continue;
		bs = m->addr[i] > lo ? m->addr[i] : lo;
		be = hm_end(m, i) < hi ? hm_end(m, i) : hi;
		hm_acc_add(&acc, m->mark[i], be - bs);
	}
	if (acc.seen == 0)
		return (SIZE_MAX);
	hm_acc_take(&acc, analyze_heapmap_cell_bytes(v->zoom), &mk, &fl);
	for (i = first; i < m->rfirst[r + 1] && m->addr[i] < hi; i++) {
		if (m->mark[i] == mk)
			return (i);
	}
	return (SIZE_MAX);
}

/* The block holding address a, or SIZE_MAX. */
size_t
analyze_heapmap_find(const struct analyze_heapmap *m, uint64_t a)
{
	size_t	i = hm_first_after(m, 0, m->nblocks, a);

	if (i < m->nblocks && m->addr[i] <= a)
		return (i);
	return (SIZE_MAX);
}

/*
 * The row and column of the cell holding address a (in a gap between
 * regions: the next region's first cell; past the heap: its last); -1
 * for a heap with no region.
 */
int
analyze_heapmap_locate(struct analyze_heapmap *m,
    const struct analyze_heapmap_view *v, uint64_t a, uint64_t *row,
    uint32_t *col)
{
	uint64_t	B = analyze_heapmap_cell_bytes(v->zoom), c;
	size_t		r;

	if (m->nregions == 0)
		return (-1);
	hm_layout(m, v);
	r = hm_region_of(m, a);
	if (r == m->nregions) {
		r--;
		a = m->regions[r].hi - 1;
	} else if (a < m->regions[r].lo)
		a = m->regions[r].lo;
	c = (a - hm_origin(m, r, B)) / B + m->l_phase;
	*row = m->l_row[r] + c / m->l_cols;
	*col = (uint32_t)(c % m->l_cols);
	return (0);
}

/*
 * The bytes the view spans, [*lo, *hi): from its first cell to the end
 * of its last (gaps between regions included); -1 when it shows none.
 */
int
analyze_heapmap_span(struct analyze_heapmap *m,
    const struct analyze_heapmap_view *v, uint64_t *lo, uint64_t *hi)
{
	uint64_t	B = analyze_heapmap_cell_bytes(v->zoom), n, last;
	uint64_t	c0, c1;
	size_t		r;

	hm_layout(m, v);
	n = m->l_row[m->nregions];
	if (v->top >= n || v->rows == 0)
		return (-1);
	r = hm_row_cells(m, v->top, &c0, &c1);
	*lo = hm_origin(m, r, B) + c0 * B;
	if (*lo < m->regions[r].lo)
		*lo = m->regions[r].lo;
	if (*lo > m->regions[r].hi)
		*lo = m->regions[r].hi;
	last = v->top + v->rows - 1 < n ? v->top + v->rows - 1 : n - 1;
	r = hm_row_cells(m, last, &c0, &c1);
	*hi = hm_origin(m, r, B) + c1 * B;
	if (*hi > m->regions[r].hi)
		*hi = m->regions[r].hi;
	return (0);
}

/*
 * Blocks and bytes by mark in view: a block counts when a byte of it is
 * in view, with the bytes it has there.
 */
void
analyze_heapmap_counts(struct analyze_heapmap *m,
    const struct analyze_heapmap_view *v, struct analyze_heapmap_count *out)
{
	uint64_t	c0[HM_NM], b0[HM_NM], c1[HM_NM], b1[HM_NM];
	uint64_t	lo, hi, s, e, in;
	size_t		i0, i1, k, i;

	memset(out, 0, HM_NM * sizeof *out);
	if (analyze_heapmap_span(m, v, &lo, &hi) != 0)
		return;
	i0 = hm_first_after(m, 0, m->nblocks, lo);
	i1 = hm_first_after(m, i0, m->nblocks, hi);
	/* The first block ending after hi may start before it. */
	if (i1 < m->nblocks && m->addr[i1] < hi)
		i1++;
	hm_cum(m, i0, c0, b0);
	hm_cum(m, i1, c1, b1);
	for (k = 0; k < HM_NM; k++) {
		out[k].blocks = c1[k] - c0[k];
		out[k].bytes = b1[k] - b0[k];
	}
	/* Only the edge blocks may stick out of the view. */
	for (i = i0; i < i1; i = i + 1 < i1 - 1 ? i1 - 1 : i + 1) {
		if (m->mark[i] >= HM_NM)
			continue;
		s = m->addr[i] > lo ? m->addr[i] : lo;
		e = m->addr[i] + m->size[i] < hi ? m->addr[i] + m->size[i] : hi;
		in = e > s ? e - s : 0;
		out[m->mark[i]].bytes -= m->size[i] - in;
	}
}

/* The first row the view may start at and still be full. */
static uint64_t
hm_maxtop(const struct analyze_heapmap *m, const struct analyze_heapmap_view *v)
{
	uint64_t	n = m->l_row[m->nregions];

	return (n > v->rows ? n - v->rows : 0);
}

/* Keep v in range: zoom, phase, and the top (a full map if it can). */
void
analyze_heapmap_clamp(struct analyze_heapmap *m,
    struct analyze_heapmap_view *v)
{
	if (v->cols == 0)
		v->cols = 1;
	if (v->zoom < ANALYZE_HEAPMAP_ZMIN)
		v->zoom = ANALYZE_HEAPMAP_ZMIN;
	if (v->zoom > ANALYZE_HEAPMAP_ZMAX)
		v->zoom = ANALYZE_HEAPMAP_ZMAX;
	v->phase %= v->cols;
	hm_layout(m, v);
	if (v->top > hm_maxtop(m, v))
		v->top = hm_maxtop(m, v);
}

/* The first linear cell of the top row. */
static uint64_t
hm_top_cell(const struct analyze_heapmap *m,
    const struct analyze_heapmap_view *v)
{
	uint64_t	c0, c1;
	size_t		r;

	if (v->top >= m->l_row[m->nregions])
		return (m->l_cell[m->nregions] > 0 ? m->l_cell[m->nregions] -
		    1 : 0);
	r = hm_row_cells(m, v->top, &c0, &c1);
	/* A row padding the last region: its last cell. */
	if (m->l_cell[r] + c0 >= m->l_cell[m->nregions])
		return (m->l_cell[m->nregions] - 1);
	return (m->l_cell[r] + c0);
}

/* Start the map at linear cell L: that cell top left. */
static void
hm_start_cell(struct analyze_heapmap *m, struct analyze_heapmap_view *v,
    uint64_t L)
{
	size_t		r = hm_cell_region(m, L);
	uint64_t	c, W = v->cols;

	c = L - m->l_cell[r];
	v->phase = (uint32_t)((W - c % W) % W);
	hm_layout(m, v);
	v->top = m->l_row[r] + (c + v->phase) / W;
}

/*
 * HeapInspector's moves: n rows down (up when negative), the map's start n
 * cells on or back (Left and Right: "not really a move to the left or
 * right"), the heap's start top left (Home), its end at the bottom (End).
 * Each stops at the heap's ends; 0 when the map did not move.
 */
int
analyze_heapmap_move(struct analyze_heapmap *m, struct analyze_heapmap_view *v,
    enum analyze_heapmap_move how, int64_t n)
{
	struct analyze_heapmap_view	was;
	uint64_t			L, last;

	analyze_heapmap_clamp(m, v);
	was = *v;
	if (m->nregions == 0)
		return (0);
	switch (how) {
	case ANALYZE_HEAPMAP_ROWS:
		if (n < 0)
			v->top = (uint64_t)-n > v->top ? 0 : v->top -
			    (uint64_t)-n;
		else
			v->top += (uint64_t)n;
		break;
	case ANALYZE_HEAPMAP_CELLS:
		L = hm_top_cell(m, v);
		last = m->l_cell[m->nregions] - 1;
		if (n < 0)
			L = (uint64_t)-n > L ? 0 : L - (uint64_t)-n;
		else
			L = (uint64_t)n > last - L ? last : L + (uint64_t)n;
		hm_start_cell(m, v, L);
		break;
	case ANALYZE_HEAPMAP_HOME:
		v->phase = 0;
		v->top = 0;
		break;
	case ANALYZE_HEAPMAP_END:
		hm_layout(m, v);
		v->top = hm_maxtop(m, v);
		break;
	}
	analyze_heapmap_clamp(m, v);
	return (v->top != was.top || v->phase != was.phase);
}

/* The address in the middle of the view's middle row. */
static uint64_t
hm_view_middle(struct analyze_heapmap *m, const struct analyze_heapmap_view *v)
{
	uint64_t	B = analyze_heapmap_cell_bytes(v->zoom), n, row, c;
	uint64_t	c0, c1;
	size_t		r;

	hm_layout(m, v);
	n = m->l_row[m->nregions];
	row = v->top + v->rows / 2;
	if (row >= n)
		row = n - 1;
	r = hm_row_cells(m, row, &c0, &c1);
	c = (row - m->l_row[r]) * m->l_cols + m->l_cols / 2;
	c = c > m->l_phase ? c - m->l_phase : 0;
	if (c < c0)
		c = c0;
	if (c >= c1)
		c = c1 - 1;
	return (hm_origin(m, r, B) + c * B + B / 2);
}

/* Put the row of address a in the middle of the map, as near as can be. */
void
analyze_heapmap_center(struct analyze_heapmap *m,
    struct analyze_heapmap_view *v, uint64_t a)
{
	uint64_t	row;
	uint32_t	col;

	analyze_heapmap_clamp(m, v);
	if (analyze_heapmap_locate(m, v, a, &row, &col) != 0)
		return;
	v->top = row > v->rows / 2 ? row - v->rows / 2 : 0;
	analyze_heapmap_clamp(m, v);
}

/*
 * Zoom in (dz < 0) or out around the middle of the map, which stays in
 * the middle row unless the heap's start or end stops it.  Out stops with
 * the whole heap in view, in at a granule in 8 cells.  Rows start at
 * their regions' starts again.  The zoom levels moved, 0 if none.
 */
int
analyze_heapmap_zoom(struct analyze_heapmap *m, struct analyze_heapmap_view *v,
    int dz)
{
	uint64_t	mid;
	int		z, fit;

	analyze_heapmap_clamp(m, v);
	if (m->nregions == 0 || dz == 0)
		return (0);
	fit = analyze_heapmap_fit(m, v);
	if (dz > 0)
		z = v->zoom >= fit ? v->zoom : (v->zoom + dz < fit ? v->zoom +
		    dz : fit);
	else
		z = v->zoom + dz > ANALYZE_HEAPMAP_ZMIN ? v->zoom + dz :
		    ANALYZE_HEAPMAP_ZMIN;
	if (z == v->zoom)
		return (0);
	mid = hm_view_middle(m, v);
	dz = z - v->zoom;
	v->zoom = z;
	v->phase = 0;
	analyze_heapmap_center(m, v, mid);
	return (dz);
}

/*
 * HeapInspector's ZoomOut N %: the bytes the map spans (its rows of
 * cells) times f, about the middle.  Its blocks were 1, 2, 4 or 8 pixels
 * and its bitmap lower than its maximum height when the span needed no
 * more; here cells hold powers of two of bytes, so the zoom is the finest
 * whose cells show the span in at most avail rows, and v->rows the rows
 * that show it (a multiple of v->align, no more than the heap has): the
 * span then differs from the one asked for by less than a line of cells.
 * 0 when nothing changed.
 */
int
analyze_heapmap_zoom_by(struct analyze_heapmap *m,
    struct analyze_heapmap_view *v, double f, uint32_t avail)
{
	struct analyze_heapmap_view	w;
	uint64_t			mid, al = v->align > 1 ? v->align : 1;
	double				want, line;
	uint64_t			n;
	uint32_t			rows;
	int				z, fit;

	analyze_heapmap_clamp(m, v);
	if (m->nregions == 0 || f <= 0 || avail < al)
		return (0);
	avail -= avail % al;
	want = (double)v->rows * v->cols *
	    (double)analyze_heapmap_cell_bytes(v->zoom) * f;
	w = *v;
	w.rows = avail;
	fit = analyze_heapmap_fit(m, &w);
	for (z = ANALYZE_HEAPMAP_ZMIN; z < fit; z++) {
		if (want <= (double)avail * v->cols *
		    (double)analyze_heapmap_cell_bytes(z))
			break;
	}
	line = (double)al * v->cols * (double)analyze_heapmap_cell_bytes(z);
	n = (uint64_t)(want / line);
	if ((double)n * line < want)
		n++;
	rows = n < avail / al ? (uint32_t)(al * n) : avail;
	w.zoom = z;
	w.phase = 0;
	if (rows > analyze_heapmap_nrows(m, &w))
		rows = (uint32_t)analyze_heapmap_nrows(m, &w);
	rows += (uint32_t)((al - rows % al) % al);
	if (rows < al)
		rows = (uint32_t)al;
	if (rows > avail)
		rows = avail;
	if (z == v->zoom && rows == v->rows)
		return (0);
	mid = hm_view_middle(m, v);
	v->zoom = z;
	v->rows = rows;
	v->phase = 0;
	analyze_heapmap_center(m, v, mid);
	return (1);
}

/*
 * Start the map at address a: its cell top left.  When the heap from
 * there on would not fill the map, zoom in until it does (or cannot).
 */
void
analyze_heapmap_start_at(struct analyze_heapmap *m,
    struct analyze_heapmap_view *v, uint64_t a)
{
	uint64_t	row;
	uint32_t	col;

	analyze_heapmap_clamp(m, v);
	if (m->nregions == 0)
		return;
	for (;;) {
		v->phase = 0;
		analyze_heapmap_locate(m, v, a, &row, &col);
		hm_start_cell(m, v, m->l_cell[hm_row_region(m, row)] + (row -
		    m->l_row[hm_row_region(m, row)]) * v->cols + col);
		if (m->l_row[m->nregions] - v->top >= v->rows ||
		    v->zoom == ANALYZE_HEAPMAP_ZMIN)
			break;
		v->zoom--;
	}
}

/*
 * Zoom into the bytes [lo, hi): the finest zoom that shows them all with
 * lo top left (HeapInspector's zoom into rows chosen with the mouse), or, when
 * they span more regions than the map has rows, each region in a row.
 * The new zoom.
 */
int
analyze_heapmap_zoom_to(struct analyze_heapmap *m,
    struct analyze_heapmap_view *v, uint64_t lo, uint64_t hi)
{
	uint64_t	r0, r1, span;
	uint32_t	col;

	analyze_heapmap_clamp(m, v);
	if (m->nregions == 0)
		return (v->zoom);
	if (hi <= lo)
		hi = lo + 1;
	/* Rows of their own for more regions than the map has: no fit. */
	span = hm_region_of(m, hi - 1) - hm_region_of(m, lo) + 1;
	for (v->zoom = ANALYZE_HEAPMAP_ZMIN; ; v->zoom++) {
		v->phase = 0;
		analyze_heapmap_locate(m, v, lo, &r0, &col);
		hm_start_cell(m, v, m->l_cell[hm_row_region(m, r0)] + (r0 -
		    m->l_row[hm_row_region(m, r0)]) * v->cols + col);
		analyze_heapmap_locate(m, v, hi - 1, &r1, &col);
		if (r1 - v->top < v->rows || r1 - v->top <= (span - 1) *
		    (v->align > 1 ? v->align : 1) ||
		    v->zoom == ANALYZE_HEAPMAP_ZMAX)
			break;
	}
	analyze_heapmap_clamp(m, v);
	return (v->zoom);
}

/* The address off bytes into the heap, its regions end to end. */
static uint64_t
hm_rel(const struct analyze_heapmap *m, uint64_t off)
{
	size_t	r;

	/* The last r with rbytes[r] <= off; the first's is 0. */
	BSEARCH_FIRST(r, 1, m->nregions, m->rbytes[r] <= off);
	r--;
	return (m->regions[r].lo + (off - m->rbytes[r]));
}

/* The heap's middle byte, its regions end to end (SetMapTo Center). */
uint64_t
analyze_heapmap_middle(const struct analyze_heapmap *m)
{
	return (m->nregions == 0 ? 0 : hm_rel(m, m->heap_bytes / 2));
}

/*
 * An address as HeapInspector's commands take one: hexadecimal (0x or a
 * trailing h optional), absolute or relative to the heap's start, the
 * regions end to end.  A number below the heap's size is relative (the
 * HeapInspector: "in this case, relative addresses are taken"), "+N" always.
 * -1 and a cause for text that is no address in the heap.
 */
int
analyze_heapmap_addr(const struct analyze_heapmap *m, const char *text,
    uint64_t *addr, int *relative, char **cause)
{
	const char	*p = text;
	uint64_t	 n;
	size_t		 digits;
	int		 plus = 0;

	while (*p == ' ')
		p++;
	if (*p == '+') {
		plus = 1;
		p++;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if ((digits = hex_scan(p, SIZE_MAX, &n)) == HEX_TOO_BIG) {
		*cause = xasprintf("%s: too large", text);
		return (-1);
	}
	p += digits;
	if (*p == 'h' || *p == 'H')
		p++;
	while (*p == ' ')
		p++;
	if (digits == 0 || *p != '\0') {
		*cause = xasprintf("%s: not a hexadecimal address", text);
		return (-1);
	}
	if (m->nregions == 0) {
		*cause = xasprintf("%s: the heap is empty", text);
		return (-1);
	}
	if (plus || n < m->heap_bytes) {
		if (n >= m->heap_bytes) {
			*cause = xasprintf("%s: past the heap's end (%#llx"
			    " bytes)", text,
			    (unsigned long long)m->heap_bytes);
			return (-1);
		}
		*addr = hm_rel(m, n);
		*relative = 1;
		return (0);
	}
	if (n < m->regions[0].lo || n >= m->regions[m->nregions - 1].hi) {
		*cause = xasprintf("%s: not in the heap (%#llx-%#llx, or"
		    " relative below %#llx)", text,
		    (unsigned long long)m->regions[0].lo,
		    (unsigned long long)m->regions[m->nregions - 1].hi,
		    (unsigned long long)m->heap_bytes);
		return (-1);
	}
	*addr = n;
	*relative = 0;
	return (0);
}
