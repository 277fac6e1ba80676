/*
 * Two snapshots compared (analyze/heapdiff.c): a program's heap run
 * forward at random (blocks freed, born, addresses given out again with
 * new allocation numbers), each answer against a search of the other
 * side block by block; the edges (empty sides, one side empty, every
 * block the same, every block new at the same addresses); the sides out
 * of order refused.
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
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
