/*
 * Two snapshots of one run compared: which blocks were born since the
 * older one and which were freed.  A block is the same block in both when
 * it has the same address and the same allocation number: an address
 * freed and given out again between the two is a block freed and one
 * born, which the seed's Remain could not tell ("if an area on the heap
 * is freed and allocated before a new update ... not detected").  Both
 * snapshots list their blocks by address, so one merge pass does it, in
 * time proportional to the blocks of both.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"

#define HD_NONE	ANALYZE_HEAPVIEW_NONE

void
analyze_heapdiff_free(struct analyze_heapdiff *d)
{
	free(d->was);
	free(d->freed);
	memset(d, 0, sizeof *d);
}

/* The first of addr[]'s n blocks not after the one before it; 0: none. */
static size_t
hd_unordered(const uint64_t *addr, size_t n)
{
	size_t	i;

	for (i = 1; i < n; i++) {
		if (addr[i] <= addr[i - 1])
			return (i);
	}
	return (0);
}

/*
 * Compare old (the earlier snapshot) with new: d->was[j] is new block j's
 * index in old, or ANALYZE_HEAPVIEW_NONE when it was born since; d->freed
 * the old blocks that are gone, by address.  Without allocation numbers
 * on either side (a snapshot made by hand), a block is the same when its
 * address and usable size are.  -1 and a cause when either side is not
 * in address order (the merge would pair the wrong blocks).
 */
int
analyze_heapdiff_make(struct analyze_heapdiff *d,
    const struct analyze_heapdiff_side *old,
    const struct analyze_heapdiff_side *new, char **cause)
{
	size_t	i = 0, j = 0, k;
	int	byseq = old->seq != NULL && new->seq != NULL;

	memset(d, 0, sizeof *d);
	if (old->n >= HD_NONE || new->n >= HD_NONE) {
		*cause = xasprintf("heap diff: too many blocks");
		return (-1);
	}
	if ((k = hd_unordered(old->addr, old->n)) != 0 ||
	    (k = hd_unordered(new->addr, new->n)) != 0) {
		*cause = xasprintf("heap diff: block %zu of the %s snapshot is"
		    " not after the one before it", k, hd_unordered(old->addr,
		    old->n) != 0 ? "older" : "newer");
		return (-1);
	}
	d->was = xreallocarray(NULL, new->n + 1, sizeof *d->was);
	d->freed = xreallocarray(NULL, old->n + 1, sizeof *d->freed);
	while (i < old->n || j < new->n) {
		if (j == new->n || (i < old->n &&
		    old->addr[i] < new->addr[j])) {
			d->freed[d->nfreed++] = (uint32_t)i;
			d->freed_bytes += old->usable[i];
			i++;
		} else if (i == old->n || new->addr[j] < old->addr[i]) {
			d->was[j] = HD_NONE;
			d->nborn++;
			d->born_bytes += new->usable[j];
			j++;
		} else {
			if (byseq ? old->seq[i] == new->seq[j] :
			    old->usable[i] == new->usable[j])
				d->was[j] = (uint32_t)i;
			else {
				d->freed[d->nfreed++] = (uint32_t)i;
				d->freed_bytes += old->usable[i];
				d->was[j] = HD_NONE;
				d->nborn++;
				d->born_bytes += new->usable[j];
			}
			i++;
			j++;
		}
	}
	return (0);
}
