/*
 * bench/heapgraph: the heap graph's analyses on the shape of
 * bench/heap-shape.h (1M blocks, about 3.9M pointers, 1000 anchors), each
 * timed as the median of BENCH_RUNS runs (default 5), against issue 10's
 * budgets: the leak kinds (collectable) < 300 ms, ReachedFrom and
 * OnlyAnchoredBy < 200 ms.  The graph's build (the CSR arrays, made once
 * per session) is shown apart.  Exit status 1 when a budget is missed.
 * memcheck's figure for the same heap comes from bench/heapgraph.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "heap-shape.h"

static double
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6);
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return (v[n / 2]);
}

int
main(void)
{
	struct analyze_heap_edge	*e;
	struct analyze_heap		 h;
	uint64_t			*sizes;
	uint8_t				*mark;
	const uint32_t			*slice;
	uint32_t			 i, x;
	size_t				 ne = 0, n = 0;
	double				 tb[32], ts[32], tr[32], tf[32], td[32];
	double				 ta[32], t0;
	char				*cause = NULL, *env;
	int				 runs, k, miss = 0;

	runs = (env = getenv("BENCH_RUNS")) != NULL ? atoi(env) : 5;
	if (runs < 1 || runs > 32)
		runs = 5;
	e = malloc(((size_t)HS_BLOCKS * HS_SLOTS + HS_ROOTS) * sizeof *e);
	sizes = malloc(HS_BLOCKS * sizeof *sizes);
	mark = malloc(1 + HS_ROOTS + HS_BLOCKS);
	if (e == NULL || sizes == NULL || mark == NULL)
		return (1);
	for (i = 0; i < HS_BLOCKS; i++)
		sizes[i] = HS_SIZE;
	ne = hs_edges(e);
	/* An object in the middle: its ancestry and what it anchors. */
	x = 1 + HS_ROOTS + HS_BLOCKS / 2;
	for (k = 0; k < runs; k++) {
		t0 = now_ms();
		if (analyze_heap_build(&h, HS_ROOTS, HS_BLOCKS, sizes, e, ne,
		    &cause) != 0) {
			fprintf(stderr, "bench/heapgraph: %s\n", cause);
			return (1);
		}
		tb[k] = now_ms() - t0;
		t0 = now_ms();
		analyze_heap_states(&h);
		ts[k] = now_ms() - t0;
		t0 = now_ms();
		analyze_heap_reach(&h, &x, 1, 0, NULL, mark);
		tr[k] = now_ms() - t0;
		t0 = now_ms();
		n = analyze_heap_reach(&h, &x, 1, 1, NULL, mark);
		tf[k] = now_ms() - t0;
		t0 = now_ms();
		analyze_heap_dominators(&h);
		td[k] = now_ms() - t0;
		t0 = now_ms();
		analyze_heap_anchored_by(&h, x, mark);
		ta[k] = now_ms() - t0;
		analyze_heap_anchored(&h, x, &slice);
		if (k + 1 < runs)
			analyze_heap_free(&h);
	}
	printf("heap graph: %u blocks, %zu pointers, %u anchors; median of"
	    " %d runs\n", HS_BLOCKS, ne - HS_ROOTS, HS_ROOTS, runs);
	printf("  build (CSR both ways, once a session)  %8.1f ms\n",
	    median(tb, runs));
	printf("  collectable (memcheck's leak kinds)    %8.1f ms  budget 300"
	    "  (%llu definitely + %llu indirectly lost, %llu possible)\n",
	    median(ts, runs),
	    (unsigned long long)h.counts[ANALYZE_HEAP_DEFINITE],
	    (unsigned long long)h.counts[ANALYZE_HEAP_INDIRECT],
	    (unsigned long long)h.counts[ANALYZE_HEAP_POSSIBLE]);
	printf("  reachable from one object              %8.1f ms\n",
	    median(tr, runs));
	printf("  reached-from one object                %8.1f ms  budget 200"
	    "  (%zu nodes reach it)\n", median(tf, runs), n);
	printf("  only-anchored-by one object            %8.1f ms  budget 200"
	    "  (retains %llu bytes)\n", median(ta, runs),
	    (unsigned long long)h.retained[x]);
	printf("  dominator tree (every node's retained) %8.1f ms\n",
	    median(td, runs));
	miss |= median(ts, runs) >= 300;
	miss |= median(tf, runs) >= 200;
	miss |= median(ta, runs) >= 200;
	analyze_heap_free(&h);
	free(e);
	free(sizes);
	free(mark);
	return (miss);
}
