/*
 * The scan of every live block: its record, and every aligned word in it
 * that points into a live block (memcheck's rule, as for the roots) an
 * edge.  It runs while the world is stopped.
 */
#include <stdint.h>
#include <string.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"
#include "capture/pvheap/snap.h"

/*
 * Pointers found in blocks are looked up in batches: the index cells of
 * a batch are prefetched, then their spans, so that the cache misses of
 * a random heap overlap instead of coming one after another (a lookup
 * is two of them).  Words are taken in order, so edges stay in order.
 */
#define BATCH	32

struct cand {
	uint64_t	 p;
	uint32_t	 src, word;
	uint32_t	 a, b;		/* the cell's blocks */
	const struct snap_hregion *r;
};

static void
snap_flush(struct snap *s, struct cand *c, size_t n)
{
	const struct snap_hregion	*r;
	size_t			 k, j;
	uint32_t		 i;
	uint8_t			*e, *end;

	if (n == 0 || (e = abuf_grow(&s->edges, n * HEAPFMT_EDGS_SIZE)) ==
	    NULL)
		return;
	end = e + n * HEAPFMT_EDGS_SIZE;
	for (k = 0; k < n; k++) {
		r = c[k].r;
		j = r->pg + ((c[k].p - r->lo) >> SNAP_CELL_SHIFT);
		__builtin_prefetch(&s->pg[j]);
	}
	for (k = 0; k < n; k++) {
		r = c[k].r;
		j = r->pg + ((c[k].p - r->lo) >> SNAP_CELL_SHIFT);
		c[k].a = s->pg[j];
		c[k].b = s->pg[j + 1];
		__builtin_prefetch(&s->span[c[k].a != 0 ? c[k].a - 1 : 0]);
		__builtin_prefetch(&s->span[c[k].a]);
	}
	for (k = 0; k < n; k++) {
		if ((i = snap_cell_pick(s, c[k].r, c[k].p, c[k].a, c[k].b)) ==
		    HEAPFMT_NONE)
			continue;
		snap_put32(e, c[k].src);
		snap_put32(e + 4, c[k].word);
		snap_put32(e + 8, i);
		snap_put32(e + 12, snap_dst_off(s, i, c[k].p));
		e += HEAPFMT_EDGS_SIZE;
	}
	/* Give back what was reserved for words that were no pointers. */
	s->edges.len -= (size_t)(end - e);
}

/* Every block: its record, and every pointer in it. */
void
snap_scan_blocks(struct snap *s)
{
	const struct agent_blk	*b;
	const struct snap_hregion	*rg;
	struct cand		 c[BATCH];
	uint64_t		 w, j, nw, hdr, keep;
	uint32_t		 flags, r = 0;
	uint8_t			*rec, *d;
	size_t			 i, nc = 0;

	if (abuf_grow(&s->blks, s->nblk * HEAPFMT_BLKS_SIZE) == NULL)
		return;
	for (i = 0; i < s->nblk; i++) {
		b = &s->blk[i];
		rec = s->blks.p + i * HEAPFMT_BLKS_SIZE;
		memset(rec, 0, HEAPFMT_BLKS_SIZE);
		while (r < s->nhr && s->hr[r].end <= i)
			r++;
		hdr = *(const uint64_t *)(uintptr_t)(b->addr - 8);
		flags = 0;
		if (hdr & 2)
			flags |= HEAPFMT_BLK_MMAPPED;
		else if (hdr & 4)
			flags |= HEAPFMT_BLK_ARENA;
		snap_put64(rec, b->addr);
		snap_put64(rec + 8, b->size);
		snap_put64(rec + 16, b->seq);
		if (b->size >= 8) {
			w = *(const uint64_t *)(uintptr_t)b->addr;
			snap_put64(rec + 24, w);
			if (snap_vtlike(s, w))
				flags |= HEAPFMT_BLK_VTLIKE;
		}
		if (b->size >= 16)
			snap_put64(rec + 32, *(const uint64_t *)(uintptr_t)
			    (b->addr + 8));
		/* glibc's musable(): the chunk less its header's words. */
		w = (hdr & ~(uint64_t)7) - ((hdr & 2) ? 16 : 8);
		snap_put32(rec + 40, w > b->size ? (uint32_t)(w - b->size) : 0);
		snap_put32(rec + 44, b->site);
		snap_put32(rec + 48, b->tid);
		snap_put32(rec + 52, HEAPFMT_NONE);
		snap_put32(rec + 56, flags);
		snap_put32(rec + 60, r < s->nhr ? r : HEAPFMT_NONE);
		nw = b->size / 8;
		for (j = 0; j < nw; j++) {
			w = *(const uint64_t *)(uintptr_t)(b->addr + 8 * j);
			if ((rg = snap_region_of(s, w)) == NULL)
				continue;
			if (j > UINT32_MAX) {
				s->edges_dropped++;
				continue;
			}
			c[nc].p = w;
			c[nc].src = (uint32_t)i;
			c[nc].word = (uint32_t)j;
			c[nc].r = rg;
			if (++nc == BATCH) {
				snap_flush(s, c, nc);
				nc = 0;
			}
		}
		if (agent_opts.contents != 0) {
			keep = b->size < agent_opts.contents ? b->size :
			    agent_opts.contents;
			if ((d = abuf_grow(&s->data, keep)) != NULL)
				memcpy(d, (const void *)(uintptr_t)b->addr,
				    keep);
		}
	}
	snap_flush(s, c, nc);
}
