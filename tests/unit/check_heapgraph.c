/*
 * The heap graph's analyses against what they mean: memcheck's nine
 * pointer-chain cases and cycles for the leak kinds, and on random graphs
 * brute force for every answer (reachable and possible sets by their
 * definitions, "only anchored by" by deleting the node and searching
 * again, retained bytes by adding up, unload by searching twice).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/heap.h"

#define R(s, d)		{ (s), (d), ANALYZE_HEAP_E_ROOT }
#define RI(s, d)	{ (s), (d), ANALYZE_HEAP_E_ROOT | ANALYZE_HEAP_E_INTERIOR }
#define B(s, d)		{ (s), (d), 0 }
#define BI(s, d)	{ (s), (d), ANALYZE_HEAP_E_INTERIOR }

static struct analyze_heap
states_of(uint32_t nroots, uint32_t nblocks,
    const struct analyze_heap_edge *e, size_t n)
{
	struct analyze_heap	 h;
	uint64_t		 sizes[16];
	char			*cause = NULL;
	uint32_t		 i;

	for (i = 0; i < nblocks; i++)
		sizes[i] = 16 * (i + 1);
	ck_assert_int_eq(analyze_heap_build(&h, nroots, nblocks, sizes, e, n,
	    &cause), 0);
	analyze_heap_states(&h);
	return (h);
}

/*
 * The valgrind manual's table (4.2.8): RRR a root, AAA and BBB blocks 0
 * and 1, --> a start pointer, -?-> an interior one.  Memcheck reports
 * cases 1-2 reachable, 3 definitely lost, 4 and 9 (BBB) indirectly lost,
 * 5-8 possibly lost (BBB; AAA in 7-8).
 */
START_TEST(test_memcheck_cases)
{
	static const struct {
		struct analyze_heap_edge	e[2];
		size_t				n;
		int				aaa, bbb;
	} c[] = {
		{ { R(0, 1) }, 1, ANALYZE_HEAP_DEFINITE,
		    ANALYZE_HEAP_REACHABLE },				/* 1 */
		{ { R(0, 0), B(0, 1) }, 2, ANALYZE_HEAP_REACHABLE,
		    ANALYZE_HEAP_REACHABLE },				/* 2 */
		{ { { 0 } }, 0, ANALYZE_HEAP_DEFINITE,
		    ANALYZE_HEAP_DEFINITE },				/* 3 */
		{ { B(0, 1) }, 1, ANALYZE_HEAP_DEFINITE,
		    ANALYZE_HEAP_INDIRECT },				/* 4 */
		{ { RI(0, 1) }, 1, ANALYZE_HEAP_DEFINITE,
		    ANALYZE_HEAP_POSSIBLE },				/* 5 */
		{ { R(0, 0), BI(0, 1) }, 2, ANALYZE_HEAP_REACHABLE,
		    ANALYZE_HEAP_POSSIBLE },				/* 6 */
		{ { RI(0, 0), B(0, 1) }, 2, ANALYZE_HEAP_POSSIBLE,
		    ANALYZE_HEAP_POSSIBLE },				/* 7 */
		{ { RI(0, 0), BI(0, 1) }, 2, ANALYZE_HEAP_POSSIBLE,
		    ANALYZE_HEAP_POSSIBLE },				/* 8 */
		{ { BI(0, 1) }, 1, ANALYZE_HEAP_DEFINITE,
		    ANALYZE_HEAP_INDIRECT },				/* 9 */
	};
	struct analyze_heap	h;
	size_t			i;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		h = states_of(1, 2, c[i].e, c[i].n);
		ck_assert_msg(h.state[0] == c[i].aaa && h.state[1] == c[i].bbb,
		    "case %zu: AAA %d BBB %d, want %d %d", i + 1, h.state[0],
		    h.state[1], c[i].aaa, c[i].bbb);
		analyze_heap_free(&h);
	}
}
END_TEST

/* A start pointer from a possible block does not make a block reachable;
 * the block turns reachable when a start pointer from a reachable one
 * comes later, and what it points to follows. */
START_TEST(test_upgrade_rescans)
{
	/* root -?-> 0 -> 1 -> 2; root -> 3 -> 1 (found after 1 is possible) */
	static const struct analyze_heap_edge e[] = {
		RI(0, 0), B(0, 1), B(1, 2), R(1, 3), B(3, 1)
	};
	struct analyze_heap	h = states_of(2, 4, e, 5);

	ck_assert_int_eq(h.state[0], ANALYZE_HEAP_POSSIBLE);
	ck_assert_int_eq(h.state[1], ANALYZE_HEAP_REACHABLE);
	ck_assert_int_eq(h.state[2], ANALYZE_HEAP_REACHABLE);
	ck_assert_int_eq(h.state[3], ANALYZE_HEAP_REACHABLE);
	ck_assert_uint_eq(h.counts[ANALYZE_HEAP_REACHABLE], 3);
	ck_assert_uint_eq(h.bytes[ANALYZE_HEAP_POSSIBLE], 16);
	analyze_heap_free(&h);
}
END_TEST

/*
 * Leaked cycles and chains: the first block of a lost group by address is
 * definitely lost, the rest indirectly; a later block that reaches an
 * earlier leader takes its place, as memcheck's cliques do.
 */
START_TEST(test_lost_groups)
{
	/* 0 <-> 1 (a cycle); 2 -> 3 -> 4; 6 -> 5 (5 an earlier leader) */
	static const struct analyze_heap_edge e[] = {
		B(0, 1), B(1, 0), B(2, 3), B(3, 4), B(6, 5)
	};
	struct analyze_heap	h = states_of(0, 7, e, 5);

	ck_assert_int_eq(h.state[0], ANALYZE_HEAP_DEFINITE);
	ck_assert_int_eq(h.state[1], ANALYZE_HEAP_INDIRECT);
	ck_assert_int_eq(h.state[2], ANALYZE_HEAP_DEFINITE);
	ck_assert_int_eq(h.state[3], ANALYZE_HEAP_INDIRECT);
	ck_assert_int_eq(h.state[4], ANALYZE_HEAP_INDIRECT);
	ck_assert_int_eq(h.state[5], ANALYZE_HEAP_INDIRECT);
	ck_assert_int_eq(h.state[6], ANALYZE_HEAP_DEFINITE);
	ck_assert_uint_eq(h.counts[ANALYZE_HEAP_DEFINITE], 3);
	ck_assert_uint_eq(h.bytes[ANALYZE_HEAP_DEFINITE], 16 + 48 + 112);
	analyze_heap_free(&h);
}
END_TEST

START_TEST(test_bad_edges)
{
	static const struct analyze_heap_edge bad[][1] = {
		{ B(0, 3) }, { B(3, 0) }, { R(2, 0) }
	};
	struct analyze_heap	h;
	uint64_t		sizes[3] = { 1, 2, 3 };
	char			*cause;
	size_t			i;

	for (i = 0; i < 3; i++) {
		cause = NULL;
		ck_assert_int_eq(analyze_heap_build(&h, 2, 3, sizes, bad[i], 1,
		    &cause), -1);
		ck_assert_ptr_nonnull(strstr(cause, "edge 0"));
		free(cause);
	}
}
END_TEST

/*
 * The edges as a snapshot has them, the roots' and then each block's by
 * source: analyze_heap_states_csr finds h's states in them, no graph.
 */
static void
csr_same(const struct analyze_heap *h, const struct analyze_heap_edge *e,
    size_t ne)
{
	uint32_t	 roots[128], first[64], to[128], nr = 0, b, k, w;
	uint8_t		 state[64];
	size_t		 i;
	char		*cause = NULL;

	memset(first, 0, sizeof first);
	for (i = 0; i < ne; i++) {
		w = (e[i].flags & ANALYZE_HEAP_E_INTERIOR) && !(e[i].flags &
		    ANALYZE_HEAP_E_EXCUSED) ? ANALYZE_HEAP_T_WEAK : 0;
		if (e[i].flags & ANALYZE_HEAP_E_ROOT)
			roots[nr++] = e[i].dst | w;
		else
			first[e[i].src + 1]++;
	}
	for (b = 0; b < h->nblocks; b++)
		first[b + 1] += first[b];
	/* Each block's edges in their order: place them a block a pass. */
	for (b = 0; b < h->nblocks; b++) {
		k = first[b];
		for (i = 0; i < ne; i++) {
			if ((e[i].flags & ANALYZE_HEAP_E_ROOT) ||
			    e[i].src != b)
				continue;
			to[k++] = e[i].dst | ((e[i].flags &
			    ANALYZE_HEAP_E_INTERIOR) && !(e[i].flags &
			    ANALYZE_HEAP_E_EXCUSED) ? ANALYZE_HEAP_T_WEAK : 0);
		}
	}
	memset(state, 0xff, sizeof state);
	ck_assert_int_eq(analyze_heap_states_csr(state, roots, nr,
	    h->nblocks, first, to, &cause), 0);
	ck_assert_mem_eq(state, h->state, h->nblocks);
}

/* analyze_heap_states_csr of 1 root and 2 blocks refuses, saying want. */
static void
csr_refused(uint32_t root, const uint32_t *first, uint32_t to,
    const char *want)
{
	uint8_t	 state[2];
	char	*cause = NULL;

	ck_assert_int_eq(analyze_heap_states_csr(state, &root, 1, 2, first,
	    &to, &cause), -1);
	ck_assert_msg(strstr(cause, want) != NULL, "%s", cause);
	free(cause);
}

/* Offsets out of order and targets past the blocks are refused. */
START_TEST(test_bad_csr)
{
	static const uint32_t	 good[3] = { 0, 1, 1 }, late[3] = { 1, 1, 1 },
				 back[3] = { 0, 1, 0 };
	uint32_t		 root = 0, to = 1;
	uint8_t			 state[2];
	char			*cause = NULL;

	csr_refused(0, late, 1, "block 0: its edges start at 1");
	csr_refused(0, back, 1, "block 2: its edges start at 0, before"
	    " block 1");
	csr_refused(0, good, 2, "edge 0: to block 2");
	csr_refused(2, good, 1, "root 0: to block 2");
	/*
	 * The weak bit is no part of the index: the root reaches block 0,
	 * whose interior pointer makes block 1 possibly lost; not interior,
	 * reachable.
	 */
	to = 1 | ANALYZE_HEAP_T_WEAK;
	ck_assert_int_eq(analyze_heap_states_csr(state, &root, 1, 2, good,
	    &to, &cause), 0);
	ck_assert_int_eq(state[0], ANALYZE_HEAP_REACHABLE);
	ck_assert_int_eq(state[1], ANALYZE_HEAP_POSSIBLE);
	to = 1;
	ck_assert_int_eq(analyze_heap_states_csr(state, &root, 1, 2, good,
	    &to, &cause), 0);
	ck_assert_int_eq(state[1], ANALYZE_HEAP_REACHABLE);
}
END_TEST

/* A small xorshift, so a failure is the same on every run. */
static uint32_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return ((uint32_t)(*s >> 11));
}

/* Plain search over an edge list, with one node taken out. */
static void
bf_reach(uint32_t nnodes, uint32_t nroots, const struct analyze_heap_edge *e,
    size_t ne, int strong, const uint8_t *roots_on, uint32_t cut,
    uint8_t *mark)
{
	size_t		i;
	uint32_t	r, s, d;
	int		changed = 1;

	memset(mark, 0, nnodes);
	for (r = 0; r < nroots; r++)
		mark[1 + r] = roots_on == NULL || roots_on[r];
	if (cut < nnodes)
		mark[cut] = 0;
	while (changed) {
		changed = 0;
		for (i = 0; i < ne; i++) {
			s = (e[i].flags & ANALYZE_HEAP_E_ROOT) ? 1 + e[i].src :
			    1 + nroots + e[i].src;
			d = 1 + nroots + e[i].dst;
			if (!mark[s] || mark[d] || d == cut)
				continue;
			if (strong && (e[i].flags & ANALYZE_HEAP_E_INTERIOR))
				continue;
			mark[d] = 1;
			changed = 1;
		}
	}
}

START_TEST(test_random_graphs)
{
	struct analyze_heap_edge	 e[120];
	struct analyze_heap		 h;
	uint64_t			 seed = 0x9e3779b97f4a7c15ULL + _i;
	uint64_t			 sizes[40], bytes;
	uint8_t				 all[64], strong[64], cut[64], mark[64];
	uint8_t				 drop[8], after[64];
	struct analyze_heap_walk	 w;
	const uint32_t			*slice;
	uint32_t			 nroots, nblocks, nn, x, y, b;
	size_t				 ne, i, n, steps;
	char				*cause = NULL;
	int				 st;

	nroots = 1 + rnd(&seed) % 6;
	nblocks = 1 + rnd(&seed) % 40;
	nn = 1 + nroots + nblocks;
	ne = rnd(&seed) % 120;
	for (i = 0; i < nblocks; i++)
		sizes[i] = 1 + rnd(&seed) % 1000;
	for (i = 0; i < ne; i++) {
		e[i].flags = (rnd(&seed) % 4 == 0) ? ANALYZE_HEAP_E_ROOT : 0;
		e[i].src = rnd(&seed) % ((e[i].flags & ANALYZE_HEAP_E_ROOT) ?
		    nroots : nblocks);
		e[i].dst = rnd(&seed) % nblocks;
		if (rnd(&seed) % 3 == 0)
			e[i].flags |= ANALYZE_HEAP_E_INTERIOR;
	}
	ck_assert_int_eq(analyze_heap_build(&h, nroots, nblocks, sizes, e, ne,
	    &cause), 0);

	/* Leak kinds: reachable by start pointers, possible by any. */
	analyze_heap_states(&h);
	bf_reach(nn, nroots, e, ne, 1, NULL, UINT32_MAX, strong);
	bf_reach(nn, nroots, e, ne, 0, NULL, UINT32_MAX, all);
	for (b = 0; b < nblocks; b++) {
		st = h.state[b];
		x = 1 + nroots + b;
		if (strong[x])
			ck_assert_int_eq(st, ANALYZE_HEAP_REACHABLE);
		else if (all[x])
			ck_assert_int_eq(st, ANALYZE_HEAP_POSSIBLE);
		else
			ck_assert(st == ANALYZE_HEAP_DEFINITE ||
			    st == ANALYZE_HEAP_INDIRECT);
	}
	csr_same(&h, e, ne);

	/* Forward and backward reach agree. */
	for (x = 0; x < nn; x += 3) {
		n = analyze_heap_reach(&h, &x, 1, 0, NULL, mark);
		for (y = 0; y < nn; y++) {
			analyze_heap_reach(&h, &y, 1, 1, NULL, cut);
			ck_assert_int_eq(mark[y], cut[x]);
		}
		/* The same search a few pointers a step, as the browser. */
		analyze_heap_walk_begin(&w, &h, &x, 1, 0, NULL, cut);
		steps = 0;
		while (analyze_heap_walk_step(&w, 1 + x % 3))
			steps++;
		ck_assert_ptr_null(w.stack);
		ck_assert_uint_eq(w.count, n);
		ck_assert_mem_eq(cut, mark, nn);
		ck_assert_uint_le(steps, nn);
	}

	/* Only anchored by x: what no longer is reached without x. */
	analyze_heap_dominators(&h);
	for (x = 0; x < nn; x++) {
		n = analyze_heap_anchored(&h, x, &slice);
		if (!all[x] && x != 0) {
			ck_assert_uint_eq(n, 0);
			continue;
		}
		if (x == 0)
			memset(cut, 0, nn);
		else
			bf_reach(nn, nroots, e, ne, 0, NULL, x, cut);
		memset(mark, 0, nn);
		bytes = 0;
		for (i = 0; i < n; i++) {
			mark[slice[i]] = 1;
			bytes += h.size[slice[i]];
		}
		for (y = 1; y < nn; y++)
			ck_assert_msg(mark[y] == (all[y] && !cut[y]),
			    "anchored by %u: node %u %d", x, y, mark[y]);
		ck_assert(mark[x]);
		ck_assert_uint_eq(h.retained[x], bytes);
		/* The same set by one search, without the tree. */
		ck_assert_uint_eq(analyze_heap_anchored_by(&h, x, cut), n);
		for (y = 0; y < nn; y++)
			ck_assert_int_eq(cut[y], mark[y] || (y == 0 && x == 0));
		/* And by that search in steps of one pointer. */
		analyze_heap_anchored_begin(&w, &h, x, cut);
		while (analyze_heap_walk_step(&w, 1))
			continue;
		ck_assert_uint_eq(analyze_heap_anchored_finish(&h, x, cut), n);
		for (y = 0; y < nn; y++)
			ck_assert_int_eq(cut[y], mark[y] || (y == 0 && x == 0));
	}

	/* Unloading: the roots taken away lose what only they reached. */
	for (i = 0; i < nroots; i++)
		drop[i] = rnd(&seed) % 2;
	n = analyze_heap_unload(&h, drop, mark);
	for (i = 0; i < nroots; i++)
		drop[i] = !drop[i];
	bf_reach(nn, nroots, e, ne, 0, drop, UINT32_MAX, after);
	for (y = 1 + nroots; y < nn; y++) {
		ck_assert_int_eq(mark[y], all[y] && !after[y]);
		n -= mark[y];
	}
	ck_assert_uint_eq(n, 0);
	analyze_heap_free(&h);
}
END_TEST

/* A list of a million blocks: no recursion, so no stack to run out of. */
START_TEST(test_long_chain)
{
	struct analyze_heap_edge	*e;
	struct analyze_heap		 h;
	uint64_t			*sizes;
	const uint32_t			*slice;
	uint32_t			 i, n = 1000000;
	char				*cause = NULL;

	e = calloc(n, sizeof *e);
	sizes = calloc(n, sizeof *sizes);
	ck_assert(e != NULL && sizes != NULL);
	e[0] = (struct analyze_heap_edge)R(0, 0);
	for (i = 1; i < n; i++)
		e[i] = (struct analyze_heap_edge)B(i - 1, i);
	for (i = 0; i < n; i++)
		sizes[i] = 32;
	ck_assert_int_eq(analyze_heap_build(&h, 1, n, sizes, e, n, &cause),
	    0);
	analyze_heap_states(&h);
	ck_assert_uint_eq(h.counts[ANALYZE_HEAP_REACHABLE], n);
	analyze_heap_dominators(&h);
	/* Block 10 keeps everything after it. */
	ck_assert_uint_eq(analyze_heap_anchored(&h, 2 + 10, &slice), n - 10);
	ck_assert_uint_eq(h.retained[2 + 10], 32ULL * (n - 10));
	analyze_heap_free(&h);
	free(e);
	free(sizes);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("heapgraph");
	TCase	*tc = tcase_create("heapgraph");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, test_memcheck_cases);
	tcase_add_test(tc, test_upgrade_rescans);
	tcase_add_test(tc, test_lost_groups);
	tcase_add_test(tc, test_bad_edges);
	tcase_add_test(tc, test_bad_csr);
	tcase_add_loop_test(tc, test_random_graphs, 0, 300);
	tcase_add_test(tc, test_long_chain);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}
