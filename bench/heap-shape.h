/*
 * One heap shape for bench/heapgraph and the program memcheck checks
 * beside it (bench/heap-prog.c): HS_BLOCKS blocks of HS_SIZE bytes, each
 * with HS_SLOTS pointer slots, and HS_ROOTS global anchors.  Slot j of
 * block i points near i (lists and trees live together), a fifth of them
 * inside their target rather than at it; one block in HS_LEAK_EVERY is
 * never anchored or pointed to by an older block, so leaks exist.
 */
#ifndef HEAP_SHAPE_H
#define HEAP_SHAPE_H

#include <stdint.h>

#ifndef HS_BLOCKS		/* tests/unit/heap-memcheck.sh builds a small one */
#define HS_BLOCKS	1000000u
#endif
#define HS_SLOTS	4u
#define HS_SIZE		48u
#define HS_ROOTS	1000u
#define HS_LEAK_EVERY	64u

static inline uint64_t
hs_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (*s);
}

/* Whether nothing older points to block i (nor an anchor). */
static inline int
hs_leaked(uint32_t i)
{
	return (i % HS_LEAK_EVERY == HS_LEAK_EVERY - 1);
}

/*
 * Slot j of block i: its target block and whether it points inside; the
 * target is a later block (so leaked blocks stay leaked) within 4096,
 * or none (UINT32_MAX) past the end or onto a leaked block.
 */
static inline uint32_t
hs_slot(uint32_t i, uint32_t j, int *interior)
{
	uint64_t	s = ((uint64_t)i << 3 | j) * 0x9e3779b97f4a7c15ULL | 1;
	uint32_t	t;

	hs_next(&s);
	t = i + 1 + (uint32_t)(hs_next(&s) % 4096);
	*interior = hs_next(&s) % 5 == 0;
	if (t >= HS_BLOCKS || hs_leaked(t))
		return (UINT32_MAX);
	return (t);
}

/* Anchor r's block: spread over the heap, never a leaked one. */
static inline uint32_t
hs_anchor(uint32_t r)
{
	uint32_t	t = (uint32_t)((uint64_t)r * HS_BLOCKS / HS_ROOTS);

	return (hs_leaked(t) ? t - 1 : t);
}

/*
 * The shape as the heap graph's input (analyze_heap_build): e holds
 * HS_BLOCKS * HS_SLOTS + HS_ROOTS edges; the count made.
 */
/*
 * The shape as the heap graph's input (analyze_heap_build): e holds
 * HS_BLOCKS * HS_SLOTS + HS_ROOTS edges; the count made.
 */
#ifdef ANALYZE_H
static inline size_t
hs_edges(struct analyze_heap_edge *e)
{
	size_t		ne = 0;
	uint32_t	i, j, t;
	int		in;

	for (i = 0; i < HS_BLOCKS; i++) {
		for (j = 0; j < HS_SLOTS; j++) {
			if ((t = hs_slot(i, j, &in)) == UINT32_MAX)
				continue;
			e[ne].src = i;
			e[ne].dst = t;
			e[ne++].flags = in ? ANALYZE_HEAP_E_INTERIOR : 0;
		}
	}
	for (i = 0; i < HS_ROOTS; i++) {
		e[ne].src = i;
		e[ne].dst = hs_anchor(i);
		e[ne++].flags = ANALYZE_HEAP_E_ROOT;
	}
	return (ne);
}
#endif

#endif
