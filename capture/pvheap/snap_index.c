/*
 * The blocks in address order, the heap regions that hold them and the
 * index by address that the scans look pointers up in (its lookups are
 * snap.h's, inline in the scans' loops).
 */
#include <stdint.h>
#include <string.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"
#include "capture/pvheap/snap.h"

#define ARENA_HEAP_MAX	(64ull << 20)	/* glibc's HEAP_MAX_SIZE, 64-bit */

/* LSD radix sort on the address's low 48 bits, 16 at a time. */
int
snap_sort_blocks(struct snap *s)
{
	struct agent_blk	*a = s->blk, *b, *t;
	uint64_t		*cnt;
	size_t			 i, n = s->nblk, sum, c;
	int			 pass, sh;

	if (n < 2)
		return (0);
	if (snap_grow(&s->tmp, n * sizeof *b) == NULL ||
	    snap_grow(&s->counts, 65536 * sizeof *cnt) == NULL)
		return (-1);
	b = (struct agent_blk *)s->tmp.p;
	cnt = (uint64_t *)s->counts.p;
	for (pass = 0; pass < 3; pass++) {
		sh = pass * 16;
		memset(cnt, 0, 65536 * sizeof *cnt);
		for (i = 0; i < n; i++)
			cnt[(a[i].addr >> sh) & 0xffff]++;
		for (i = 0, sum = 0; i < 65536; i++) {
			c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[cnt[(a[i].addr >> sh) & 0xffff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	/* Three passes: the sorted copy is in the scratch buffer. */
	memcpy(s->blk, a, n * sizeof *a);
	return (0);
}

/* ---- heap regions and the block index --------------------------------- */

static struct snap_hregion *
snap_hr_add(struct snap *s, uint64_t lo, uint64_t hi, uint32_t kind, uint32_t i)
{
	struct snap_hregion	*r;

	if ((r = snap_grow(&s->regb, sizeof *r)) == NULL)
		return (NULL);
	r->lo = lo;
	r->hi = hi;
	r->kind = kind;
	r->first = r->end = i;
	s->hr = (struct snap_hregion *)s->regb.p;
	s->nhr++;
	return (r);
}

/*
 * Put each block in the region of glibc's heap that holds it, from its
 * chunk header (the size word before it: bit 1 mmap'd, bit 2 another
 * arena): the brk heap, a 64 MiB-aligned heap of another arena, or its
 * own mapping.  The regions are the heap map's layout and what the root
 * scan leaves out; each gets a page index for finding blocks.
 */
int
snap_heap_regions(struct snap *s)
{
	const struct snap_map	*m, *brk = NULL;
	struct snap_hregion		*r = NULL;
	uint64_t		 a, hdr, chunk, prev, lo, hi;
	uint32_t		 kind;
	size_t			 i, k, np;
	uint32_t		*pg;

	for (i = 0; i < s->nmaps; i++) {
		if (strcmp(s->maps[i].path, "[heap]") == 0)
			brk = &s->maps[i];
	}
	for (i = 0; i < s->nblk; i++) {
		a = s->blk[i].addr;
		if (r != NULL && a >= r->lo && a < r->hi) {
			r->end = (uint32_t)i + 1;
			continue;
		}
		hdr = *(const uint64_t *)(uintptr_t)(a - 8);
		if (hdr & 2) {
			chunk = a - 16;
			prev = *(const uint64_t *)(uintptr_t)chunk;
			lo = chunk - prev;
			hi = chunk + (hdr & ~(uint64_t)7);
			kind = HEAPFMT_RGN_MMAP;
		} else if ((hdr & 4) && (m = snap_map_find(s->maps, s->nmaps,
		    a)) != NULL) {
			lo = a & ~(ARENA_HEAP_MAX - 1);
			hi = lo + ARENA_HEAP_MAX;
			lo = lo > m->lo ? lo : m->lo;
			hi = hi < m->hi ? hi : m->hi;
			kind = HEAPFMT_RGN_ARENA;
		} else if (brk != NULL && a >= brk->lo && a < brk->hi) {
			lo = brk->lo;
			hi = brk->hi;
			kind = HEAPFMT_RGN_HEAP;
		} else if ((m = snap_map_find(s->maps, s->nmaps, a)) != NULL) {
			lo = m->lo;
			hi = m->hi;
			kind = HEAPFMT_RGN_HEAP;
		} else {
			lo = a;
			hi = a + s->blk[i].size + 1;
			kind = HEAPFMT_RGN_HEAP;
		}
		/* Blocks are sorted and regions disjoint: never behind r. */
		if (r != NULL && lo < r->hi)
			lo = r->hi;
		if (a < lo || a >= hi) {
			/* Not what glibc's headers promise: its own span. */
			lo = a;
			hi = a + (s->blk[i].size != 0 ? s->blk[i].size : 1);
			kind = HEAPFMT_RGN_HEAP;
		}
		if ((r = snap_hr_add(s, lo, hi, kind, (uint32_t)i)) == NULL)
			return (-1);
		r->end = (uint32_t)i + 1;
	}
	/* pg[k]: the first block at or after the region's k-th cell. */
	for (k = 0, np = 0; k < s->nhr; k++) {
		s->hr[k].pg = np;
		np += ((s->hr[k].hi - s->hr[k].lo +
		    (1 << SNAP_CELL_SHIFT) - 1) >> SNAP_CELL_SHIFT) + 1;
	}
	if (np != 0 && abuf_grow(&s->pgb, np * sizeof *pg) == NULL)
		return (-1);
	s->pg = pg = (uint32_t *)s->pgb.p;
	for (k = 0; k < s->nhr; k++) {
		r = &s->hr[k];
		np = ((r->hi - r->lo + (1 << SNAP_CELL_SHIFT) - 1) >>
		    SNAP_CELL_SHIFT) + 1;
		for (i = 0, a = r->first; i < np; i++) {
			while (a < r->end && s->blk[a].addr < r->lo +
			    (i << SNAP_CELL_SHIFT))
				a++;
			pg[r->pg + i] = (uint32_t)a;
		}
	}
	/* The spans: lookups read these, not the 32-byte records. */
	if (s->nblk != 0 && abuf_grow(&s->spanb, s->nblk *
	    sizeof *s->span) == NULL)
		return (-1);
	s->span = (struct snap_span *)s->spanb.p;
	for (i = 0; i < s->nblk; i++) {
		s->span[i].lo = s->blk[i].addr;
		s->span[i].hi = s->blk[i].addr + (s->blk[i].size != 0 ?
		    s->blk[i].size : 1);
	}
	if (s->nhr != 0) {
		s->lo = s->hr[0].lo;
		s->hi = s->hr[s->nhr - 1].hi;
	}
	return (0);
}

/*
 * memcheck's test for a vtable pointer: it points into a readable file
 * mapping where, among the next 21 words, the first two that are not 0
 * point into executable file mappings (and none before them elsewhere).
 */
int
snap_vtlike(struct snap *s, uint64_t v)
{
	const struct snap_map	*m, *f;
	uint64_t		 a, end, w;
	size_t			 slot = (v >> 3) & 4095;
	int			 n = 0, r = 0;

	if ((v & 7) != 0 || v < 4096)
		return (0);
	if (s->vt_key[slot] == v)
		return (s->vt_val[slot]);
	m = snap_map_find(s->maps, s->nmaps, v);
	if (m != NULL && m->file && (m->prot & 1)) {
		end = v + 20 * 8;
		if (end > m->hi - 8)
			end = m->hi - 8;
		for (a = v; a <= end; a += 8) {
			w = *(const uint64_t *)(uintptr_t)a;
			if (w == 0)
				continue;
			f = snap_map_find(s->maps, s->nmaps, w);
			if (f == NULL || !f->file || !(f->prot & 4))
				break;
			if (++n == 2) {
				r = 1;
				break;
			}
		}
	}
	s->vt_key[slot] = v;
	s->vt_val[slot] = (uint8_t)r;
	return (r);
}
