/*
 * The leak kinds analyze_heap_states finds in bench/heap-shape.h's heap
 * (built small here), one line per kind as memcheck's LEAK SUMMARY
 * counts them, for tests/unit/heap-memcheck.sh to set beside memcheck's
 * own on the same heap built for real.
 */
#include <stdio.h>
#include <stdlib.h>

#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "bench/heap-shape.h"

int
main(void)
{
	static const struct {
		const char	*name;
		int		 state;
	} k[] = {
		{ "definitely lost", ANALYZE_HEAP_DEFINITE },
		{ "indirectly lost", ANALYZE_HEAP_INDIRECT },
		{ "possibly lost", ANALYZE_HEAP_POSSIBLE },
		{ "still reachable", ANALYZE_HEAP_REACHABLE },
	};
	struct analyze_heap_edge	*e;
	struct analyze_heap		 h;
	uint64_t			*sizes;
	size_t				 ne, i;
	char				*cause = NULL;

	e = calloc((size_t)HS_BLOCKS * HS_SLOTS + HS_ROOTS, sizeof *e);
	sizes = calloc(HS_BLOCKS, sizeof *sizes);
	if (e == NULL || sizes == NULL)
		return (1);
	for (i = 0; i < HS_BLOCKS; i++)
		sizes[i] = HS_SIZE;
	ne = hs_edges(e);
	if (analyze_heap_build(&h, HS_ROOTS, HS_BLOCKS, sizes, e, ne,
	    &cause) != 0) {
		fprintf(stderr, "heapshape: %s\n", cause);
		return (1);
	}
	analyze_heap_states(&h);
	for (i = 0; i < sizeof k / sizeof k[0]; i++)
		printf("%s: %llu bytes in %llu blocks\n", k[i].name,
		    (unsigned long long)h.bytes[k[i].state],
		    (unsigned long long)h.counts[k[i].state]);
	analyze_heap_free(&h);
	free(e);
	free(sizes);
	return (0);
}
