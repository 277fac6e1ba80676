/*
 * Two snapshots compared (analyze/heapdiff.c): a program's heap run
 * forward at random (blocks freed, born, addresses given out again with
 * new allocation numbers), each answer against a search of the other
 * side block by block; the edges (empty sides, one side empty, every
 * block the same, every block new at the same addresses); the sides out
 * of order refused.  Then the models the heap map draws over it, through
 * analyze/'s API on snapshots made here: the comparison's born and freed
 * (counts, marks, the freed drawn where they were and nowhere a live
 * block is), and Remain after several updates.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/heap.h"

#define NONE	ANALYZE_HEAPVIEW_NONE

struct side {
	uint64_t	*addr, *usable, *seq;
	size_t		 n;
	struct analyze_heapdiff_side s;
};

static uint64_t	seed;

static uint64_t
rnd(uint64_t n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (n == 0 ? 0 : (seed >> 33) % n);
}

static void
side_init(struct side *s, size_t cap)
{
	memset(s, 0, sizeof *s);
	s->addr = calloc(cap + 1, sizeof *s->addr);
	s->usable = calloc(cap + 1, sizeof *s->usable);
	s->seq = calloc(cap + 1, sizeof *s->seq);
}

static void
side_done(struct side *s, int withseq)
{
	s->s.addr = s->addr;
	s->s.usable = s->usable;
	s->s.seq = withseq ? s->seq : NULL;
	s->s.n = s->n;
}

static void
side_free(struct side *s)
{
	free(s->addr);
	free(s->usable);
	free(s->seq);
}

/*
 * A heap of slots 64 bytes apart; the next one: each block freed with
 * probability pf, each empty slot filled with pb, a filled slot's block
 * sometimes freed and allocated again in the same step (same address,
 * new number, maybe a new size).
 */
static void
step(const struct side *a, struct side *b, uint64_t *seq, size_t slots,
    unsigned pf, unsigned pb)
{
	size_t		i, k = 0;
	uint64_t	base = 0x555555559010ULL, at;

	b->n = 0;
	for (i = 0; i < slots; i++) {
		at = base + 64 * i;
		while (k < a->n && a->addr[k] < at)
			k++;
		if (k < a->n && a->addr[k] == at) {
			if (rnd(100) < pf)
				continue;		/* freed */
			b->addr[b->n] = at;
			if (rnd(100) < 5) {		/* freed, born again */
				b->usable[b->n] = 24 + 16 * rnd(3);
				b->seq[b->n] = (*seq)++;
			} else {
				b->usable[b->n] = a->usable[k];
				b->seq[b->n] = a->seq[k];
			}
			b->n++;
		} else if (rnd(100) < pb) {
			b->addr[b->n] = at;
			b->usable[b->n] = 24 + 16 * rnd(3);
			b->seq[b->n++] = (*seq)++;
		}
	}
}

/* The old index of new block j by looking at every old block. */
static uint32_t
brute_was(const struct side *o, const struct side *n, size_t j, int withseq)
{
	size_t	i;

	for (i = 0; i < o->n; i++) {
		if (o->addr[i] == n->addr[j] && (withseq ? o->seq[i] ==
		    n->seq[j] : o->usable[i] == n->usable[j]))
			return ((uint32_t)i);
	}
	return (NONE);
}

static void
check_against_brute(const struct side *o, const struct side *n, int withseq)
{
	struct analyze_heapdiff	 d;
	uint8_t			*kept;
	char			*cause = NULL;
	size_t			 i, j, nborn = 0, nfreed = 0;
	uint64_t		 bb = 0, fb = 0;

	ck_assert_int_eq(analyze_heapdiff_make(&d, &o->s, &n->s, &cause), 0);
	kept = calloc(o->n + 1, 1);
	for (j = 0; j < n->n; j++) {
		ck_assert_uint_eq(d.was[j], brute_was(o, n, j, withseq));
		if (d.was[j] == NONE) {
			nborn++;
			bb += n->usable[j];
		} else
			kept[d.was[j]] = 1;
	}
	ck_assert_uint_eq(d.nborn, nborn);
	ck_assert_uint_eq(d.born_bytes, bb);
	for (i = 0; i < o->n; i++) {
		if (kept[i])
			continue;
		ck_assert_uint_lt(nfreed, d.nfreed);
		/* Every old block not kept, in address order. */
		ck_assert_uint_eq(d.freed[nfreed], i);
		nfreed++;
		fb += o->usable[i];
	}
	ck_assert_uint_eq(d.nfreed, nfreed);
	ck_assert_uint_eq(d.freed_bytes, fb);
	/* What was there, less what went, plus what came, is what is. */
	ck_assert_uint_eq(o->n - d.nfreed + d.nborn, n->n);
	free(kept);
	analyze_heapdiff_free(&d);
}

START_TEST(random_runs)
{
	struct side	a, b, z, *o = &a, *n = &b, *t;
	uint64_t	sq = 1;
	size_t		slots = 50 + rnd(3000), r;
	int		withseq = _i % 4 != 3;

	seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(_i + 1);
	side_init(&a, slots);
	side_init(&b, slots);
	side_init(&z, 0);
	step(&z, o, &sq, slots, 0, 30 + (unsigned)rnd(60));
	side_free(&z);
	for (r = 0; r < 6; r++) {
		step(o, n, &sq, slots, (unsigned)rnd(60), (unsigned)rnd(60));
		side_done(o, withseq);
		side_done(n, withseq);
		check_against_brute(o, n, withseq);
		t = o;
		o = n;
		n = t;
	}
	side_free(&a);
	side_free(&b);
}
END_TEST

START_TEST(edges)
{
	struct side		 a, b;
	struct analyze_heapdiff	 d;
	char			*cause = NULL;
	size_t			 i;

	side_init(&a, 8);
	side_init(&b, 8);
	side_done(&a, 1);
	side_done(&b, 1);
	/* Nothing on either side. */
	ck_assert_int_eq(analyze_heapdiff_make(&d, &a.s, &b.s, &cause), 0);
	ck_assert_uint_eq(d.nborn + d.nfreed, 0);
	analyze_heapdiff_free(&d);
	for (i = 0; i < 8; i++) {
		a.addr[i] = b.addr[i] = 0x1000 + 32 * i;
		a.usable[i] = b.usable[i] = 24;
		a.seq[i] = 10 + i;
		b.seq[i] = 10 + i;
	}
	a.n = 8;
	side_done(&a, 1);
	/* All freed; then all born. */
	ck_assert_int_eq(analyze_heapdiff_make(&d, &a.s, &b.s, &cause), 0);
	ck_assert_uint_eq(d.nfreed, 8);
	ck_assert_uint_eq(d.freed_bytes, 8 * 24);
	ck_assert_uint_eq(d.nborn, 0);
	analyze_heapdiff_free(&d);
	ck_assert_int_eq(analyze_heapdiff_make(&d, &b.s, &a.s, &cause), 0);
	ck_assert_uint_eq(d.nborn, 8);
	ck_assert_uint_eq(d.nfreed, 0);
	analyze_heapdiff_free(&d);
	/* The same blocks: nothing born, nothing freed. */
	b.n = 8;
	side_done(&b, 1);
	ck_assert_int_eq(analyze_heapdiff_make(&d, &a.s, &b.s, &cause), 0);
	ck_assert_uint_eq(d.nborn + d.nfreed, 0);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(d.was[i], i);
	analyze_heapdiff_free(&d);
	/* The same addresses, every one given out again: all new. */
	for (i = 0; i < 8; i++)
		b.seq[i] = 100 + i;
	ck_assert_int_eq(analyze_heapdiff_make(&d, &a.s, &b.s, &cause), 0);
	ck_assert_uint_eq(d.nborn, 8);
	ck_assert_uint_eq(d.nfreed, 8);
	analyze_heapdiff_free(&d);
	/* Without numbers the sizes decide: the same sizes, the same. */
	side_done(&b, 0);
	ck_assert_int_eq(analyze_heapdiff_make(&d, &a.s, &b.s, &cause), 0);
	ck_assert_uint_eq(d.nborn + d.nfreed, 0);
	analyze_heapdiff_free(&d);
	side_free(&a);
	side_free(&b);
}
END_TEST

START_TEST(out_of_order)
{
	struct side		 a, b;
	struct analyze_heapdiff	 d;
	char			*cause = NULL;

	side_init(&a, 4);
	side_init(&b, 4);
	a.addr[0] = 0x2000;
	a.addr[1] = 0x1000;
	a.n = 2;
	b.addr[0] = 0x1000;
	b.n = 1;
	side_done(&a, 1);
	side_done(&b, 1);
	ck_assert_int_eq(analyze_heapdiff_make(&d, &a.s, &b.s, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "block 1 of the older"));
	free(cause);
	cause = NULL;
	/* The newer side out of order. */
	ck_assert_int_eq(analyze_heapdiff_make(&d, &b.s, &a.s, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "newer"));
	free(cause);
	side_free(&a);
	side_free(&b);
}
END_TEST

/* ---- the map's comparison and Remain --------------------------------- */

#define BASE	0x555555559010ULL
#define COLS	64

/* A snapshot of side s as the map holds it: one region over every slot. */
static struct analyze_heapview *
view_make(const struct side *s, size_t slots)
{
	struct analyze_heapview	*v = calloc(1, sizeof *v);
	char			*cause = NULL;
	size_t			 i;

	v->regions = calloc(1, sizeof *v->regions);
	v->regions[0].lo = BASE;
	v->regions[0].hi = BASE + 64 * (slots != 0 ? slots : 1);
	v->nregions = 1;
	v->addr = s->addr;
	v->usable = s->usable;
	v->seq = (uint64_t *)s->s.seq;
	v->nblocks = s->n;
	ck_assert_int_eq(analyze_heapmap_build(&v->map, v->regions, 1, v->addr,
	    v->usable, v->nblocks, &cause), 0);
	for (i = 0; i < v->nblocks; i++)
		v->map.mark[i] = ANALYZE_HEAPMAP_PLAIN;
	analyze_heapmap_marks_changed(&v->map);
	return (v);
}

static void
view_free(struct analyze_heapview *v)
{
	analyze_heapmap_free(&v->map);
	free(v->regions);
	free(v);
}

/*
 * The comparison of o with n against brute force: counts, which blocks
 * are born, their marks, and a frame at a cell for 16 bytes where each
 * freed block shows in the cell it started in unless a live block is
 * drawn there.
 */
static void
check_cmp(const struct side *o, const struct side *n, size_t slots,
    int withseq)
{
	struct analyze_heapview		*ov = view_make(o, slots);
	struct analyze_heapview		*nv = view_make(n, slots);
	struct analyze_heapdiff_cmp	*c;
	struct analyze_heapmap_view	 v;
	struct analyze_heapmap_cell	*cells;
	struct analyze_heapmap_count	 inview[ANALYZE_HEAPMAP_NMARKS];
	struct analyze_heapmap_count	 tot[ANALYZE_HEAPMAP_NMARKS];
	uint8_t				*mark, *live;
	char				*cause = NULL;
	size_t				 i, j, nb, nf, born = 0, nfreed = 0;
	uint64_t			 bb, fb, fbytes = 0, cell;

	c = analyze_heapdiff_cmp_new(ov, 42, nv, &cause);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(analyze_heapdiff_cmp_against(c), 42);
	mark = calloc(n->n + 1, 1);
	for (j = 0; j < n->n; j++) {
		ck_assert_uint_eq(analyze_heapdiff_cmp_was(c, j),
		    brute_was(o, n, j, withseq));
		born += brute_was(o, n, j, withseq) == NONE;
		mark[j] = j % 3 == 0 ? ANALYZE_HEAPMAP_NONE :
		    j % 3 == 1 ? ANALYZE_HEAPMAP_PLAIN : ANALYZE_HEAPMAP_KEPT;
	}
	/* Born over a lower mark; a block not drawn, or marked higher, not. */
	analyze_heapdiff_cmp_marks(c, NULL, mark, n->n);
	for (j = 0; j < n->n; j++) {
		if (j % 3 == 1 && brute_was(o, n, j, withseq) == NONE)
			ck_assert_uint_eq(mark[j], ANALYZE_HEAPMAP_BORN);
		else
			ck_assert_uint_eq(mark[j], j % 3 == 0 ?
			    ANALYZE_HEAPMAP_NONE : j % 3 == 1 ?
			    ANALYZE_HEAPMAP_PLAIN : ANALYZE_HEAPMAP_KEPT);
	}
	/* The old blocks no new block is: freed. */
	live = calloc(slots + 1, 1);
	for (j = 0; j < n->n; j++)
		live[(n->addr[j] - BASE) / 64] = 1;
	for (i = 0; i < o->n; i++) {
		for (j = 0; j < n->n; j++) {
			if (brute_was(o, n, j, withseq) == i)
				break;
		}
		if (j == n->n) {
			nfreed++;
			fbytes += o->usable[i];
		}
	}
	analyze_heapdiff_cmp_counts(c, &nb, &bb, &nf, &fb);
	ck_assert_uint_eq(nb, born);
	ck_assert_uint_eq(nf, nfreed);
	ck_assert_uint_eq(fb, fbytes);
	memset(tot, 0, sizeof tot);
	analyze_heapdiff_cmp_totals(c, tot);
	ck_assert_uint_eq(tot[ANALYZE_HEAPMAP_FREED].blocks, nfreed);
	ck_assert_uint_eq(tot[ANALYZE_HEAPMAP_FREED].bytes, fbytes);

	memset(&v, 0, sizeof v);
	v.cols = COLS;
	v.rows = (uint32_t)(slots * 4 / COLS + 1);
	cells = calloc((size_t)v.rows * v.cols, sizeof *cells);
	memset(inview, 0, sizeof inview);
	analyze_heapmap_frame(&nv->map, &v, cells);
	analyze_heapdiff_cmp_frame(c, &v, cells, inview);
	for (i = 0; i < o->n; i++) {
		cell = (o->addr[i] - BASE) / 16;
		if (live[(o->addr[i] - BASE) / 64])
			ck_assert_uint_ne(cells[cell].mark,
			    ANALYZE_HEAPMAP_FREED);
		else
			ck_assert_uint_eq(cells[cell].mark,
			    ANALYZE_HEAPMAP_FREED);
	}
	for (j = 0; j < n->n; j++) {
		cell = (n->addr[j] - BASE) / 16;
		ck_assert_uint_eq(cells[cell].mark, ANALYZE_HEAPMAP_PLAIN);
	}
	/* Every freed block is in the one region, all of it in view. */
	ck_assert_uint_eq(inview[ANALYZE_HEAPMAP_FREED].blocks, nfreed);
	ck_assert_uint_eq(inview[ANALYZE_HEAPMAP_FREED].bytes, fbytes);
	free(cells);
	free(live);
	free(mark);
	analyze_heapdiff_cmp_free(c);
	view_free(ov);
	view_free(nv);
}

START_TEST(cmp_random_runs)
{
	struct side	a, b, z, *o = &a, *n = &b, *t;
	uint64_t	sq = 1;
	size_t		slots = 50 + rnd(600), r;
	int		withseq = _i % 4 != 3;

	seed = 0x2545f4914f6cdd1dULL * (uint64_t)(_i + 1);
	side_init(&a, slots);
	side_init(&b, slots);
	side_init(&z, 0);
	step(&z, o, &sq, slots, 0, 30 + (unsigned)rnd(60));
	side_free(&z);
	for (r = 0; r < 4; r++) {
		step(o, n, &sq, slots, (unsigned)rnd(60), (unsigned)rnd(60));
		side_done(o, withseq);
		side_done(n, withseq);
		check_cmp(o, n, slots, withseq);
		t = o;
		o = n;
		n = t;
	}
	side_free(&a);
	side_free(&b);
}
END_TEST

START_TEST(cmp_edges)
{
	struct side			 a, b;
	struct analyze_heapview		*av, *bv;
	struct analyze_heapdiff_cmp	*c;
	struct analyze_heapmap_view	 v;
	struct analyze_heapmap_cell	 cells[COLS * 4];
	struct analyze_heapmap_count	 inview[ANALYZE_HEAPMAP_NMARKS];
	uint8_t				 mark[8];
	char				*cause = NULL;
	size_t				 i, nb, nf;
	uint64_t			 bb, fb;

	side_init(&a, 8);
	side_init(&b, 8);
	side_done(&a, 1);
	side_done(&b, 1);
	/* Two empty snapshots: nothing born, nothing freed, nothing drawn. */
	av = view_make(&a, 8);
	bv = view_make(&b, 8);
	c = analyze_heapdiff_cmp_new(av, 1, bv, &cause);
	ck_assert_ptr_nonnull(c);
	analyze_heapdiff_cmp_counts(c, &nb, &bb, &nf, &fb);
	ck_assert_uint_eq(nb + nf + bb + fb, 0);
	memset(&v, 0, sizeof v);
	v.cols = COLS;
	v.rows = 4;
	analyze_heapmap_frame(&bv->map, &v, cells);
	memset(inview, 0, sizeof inview);
	analyze_heapdiff_cmp_frame(c, &v, cells, inview);
	for (i = 0; i < COLS * 4; i++)
		ck_assert_uint_ne(cells[i].mark, ANALYZE_HEAPMAP_FREED);
	ck_assert_uint_eq(inview[ANALYZE_HEAPMAP_FREED].blocks, 0);
	analyze_heapdiff_cmp_free(c);
	view_free(av);
	view_free(bv);

	/* A snapshot with itself: every block was there, none born. */
	for (i = 0; i < 8; i++) {
		a.addr[i] = BASE + 64 * i;
		a.usable[i] = 40;
		a.seq[i] = 1 + i;
	}
	a.n = 8;
	side_done(&a, 1);
	av = view_make(&a, 8);
	c = analyze_heapdiff_cmp_new(av, 1, av, &cause);
	ck_assert_ptr_nonnull(c);
	analyze_heapdiff_cmp_counts(c, &nb, &bb, &nf, &fb);
	ck_assert_uint_eq(nb + nf, 0);
	memset(mark, ANALYZE_HEAPMAP_PLAIN, sizeof mark);
	analyze_heapdiff_cmp_marks(c, NULL, mark, 8);
	for (i = 0; i < 8; i++) {
		ck_assert_uint_eq(analyze_heapdiff_cmp_was(c, i), i);
		ck_assert_uint_eq(mark[i], ANALYZE_HEAPMAP_PLAIN);
	}
	analyze_heapdiff_cmp_free(c);

	/* From nothing: all born; to nothing: all freed, drawn. */
	bv = view_make(&b, 8);
	c = analyze_heapdiff_cmp_new(bv, 1, av, &cause);
	analyze_heapdiff_cmp_counts(c, &nb, &bb, &nf, &fb);
	ck_assert_uint_eq(nb, 8);
	ck_assert_uint_eq(bb, 8 * 40);
	ck_assert_uint_eq(nf, 0);
	analyze_heapdiff_cmp_marks(c, NULL, mark, 8);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(mark[i], ANALYZE_HEAPMAP_BORN);
	analyze_heapdiff_cmp_free(c);
	c = analyze_heapdiff_cmp_new(av, 1, bv, &cause);
	analyze_heapdiff_cmp_counts(c, &nb, &bb, &nf, &fb);
	ck_assert_uint_eq(nf, 8);
	ck_assert_uint_eq(fb, 8 * 40);
	analyze_heapmap_frame(&bv->map, &v, cells);
	memset(inview, 0, sizeof inview);
	analyze_heapdiff_cmp_frame(c, &v, cells, inview);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(cells[4 * i].mark, ANALYZE_HEAPMAP_FREED);
	ck_assert_uint_eq(inview[ANALYZE_HEAPMAP_FREED].blocks, 8);
	analyze_heapdiff_cmp_free(c);
	view_free(bv);

	/* Out of order: no comparison, and why. */
	b.addr[0] = BASE + 64;
	b.addr[1] = BASE;
	b.n = 2;
	side_done(&b, 1);
	bv = calloc(1, sizeof *bv);
	bv->addr = b.addr;
	bv->usable = b.usable;
	bv->seq = b.seq;
	bv->nblocks = 2;
	ck_assert_ptr_null(analyze_heapdiff_cmp_new(av, 1, bv, &cause));
	ck_assert_ptr_nonnull(strstr(cause, "newer"));
	free(cause);
	free(bv);
	view_free(av);
	side_free(&a);
	side_free(&b);
}
END_TEST

/*
 * Remain turned on at one snapshot, then several updates: each hides
 * exactly the blocks not there at the first (by address and number, or
 * address and size without numbers), however many updates came between.
 */
START_TEST(remain_updates)
{
	struct side			 first, a, b, *o = &a, *n = &b, *t;
	struct analyze_heapview		*fv, *nv;
	struct analyze_heapdiff_remain	*rm;
	uint8_t				*hide;
	uint64_t			 sq = 1;
	size_t				 slots = 50 + rnd(800), r, j;
	long				 want;
	int				 withseq = _i % 3 != 2;

	seed = 0x71d67fffeda60000ULL * (uint64_t)(_i + 3);
	side_init(&first, slots);
	side_init(&a, slots);
	side_init(&b, slots);
	step(&a, &first, &sq, slots, 0, 40 + (unsigned)rnd(50));
	side_done(&first, withseq);
	fv = view_make(&first, slots);
	rm = analyze_heapdiff_remain_new(fv);
	view_free(fv);
	hide = calloc(slots + 1, 1);
	/* The snapshot it was turned on at hides nothing. */
	fv = view_make(&first, slots);
	ck_assert_int_eq(analyze_heapdiff_remain_hide(rm, fv, hide), 0);
	view_free(fv);
	memcpy(o->addr, first.addr, first.n * sizeof *o->addr);
	memcpy(o->usable, first.usable, first.n * sizeof *o->usable);
	memcpy(o->seq, first.seq, first.n * sizeof *o->seq);
	o->n = first.n;
	for (r = 0; r < 6; r++) {
		step(o, n, &sq, slots, (unsigned)rnd(40), (unsigned)rnd(40));
		side_done(n, withseq);
		nv = view_make(n, slots);
		memset(hide, 0xaa, slots + 1);
		want = 0;
		for (j = 0; j < n->n; j++)
			want += brute_was(&first, n, j, withseq) == NONE;
		ck_assert_int_eq(analyze_heapdiff_remain_hide(rm, nv, hide),
		    want);
		for (j = 0; j < n->n; j++)
			ck_assert_uint_eq(hide[j],
			    brute_was(&first, n, j, withseq) == NONE);
		view_free(nv);
		t = o;
		o = n;
		n = t;
	}
	/* An update out of order cannot be compared: -1. */
	n->addr[0] = BASE + 64;
	n->addr[1] = BASE;
	n->n = 2;
	side_done(n, withseq);
	nv = calloc(1, sizeof *nv);
	nv->addr = n->addr;
	nv->usable = n->usable;
	nv->seq = n->s.seq != NULL ? n->seq : NULL;
	nv->nblocks = 2;
	ck_assert_int_eq(analyze_heapdiff_remain_hide(rm, nv, hide), -1);
	free(nv);
	analyze_heapdiff_remain_free(rm);
	free(hide);
	side_free(&first);
	side_free(&a);
	side_free(&b);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("heapdiff");
	TCase	*tc = tcase_create("diff");
	SRunner	*sr;
	int	 failed;

	tcase_add_loop_test(tc, random_runs, 0, 40);
	tcase_add_test(tc, edges);
	tcase_add_test(tc, out_of_order);
	tcase_add_loop_test(tc, cmp_random_runs, 0, 12);
	tcase_add_test(tc, cmp_edges);
	tcase_add_loop_test(tc, remain_updates, 0, 6);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
