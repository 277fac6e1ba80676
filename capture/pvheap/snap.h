/*
 * The snapshot's insides, shared by its files (the one header of the
 * snap_ files; agent.h is the agent's): snap.c takes a snapshot in
 * order, snap_stop.c stops the threads and keeps their registers,
 * snap_maps.c reads the address space, snap_index.c sorts the blocks
 * and indexes them by address, snap_roots.c and snap_scan.c find the
 * pointers in the roots and in the blocks, snap_names.c names what was
 * found once the threads run again, snap_write.c writes the file.
 * Nothing here is exported from the library.
 *
 * While the world is stopped the snapshot calls no malloc and takes no
 * lock a stopped thread may hold: raw system calls and the agent's own
 * mmap'd memory only.  Every function below that runs then keeps to it.
 */
#ifndef SNAP_H
#define SNAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <ucontext.h>

#include "bsearch.h"
#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"

/*
 * The block index's cell: 256 bytes hold the starts of at most a few
 * blocks (glibc's smallest chunk is 32 bytes), so a lookup reads one
 * index word and a line or two of the block spans.
 */
#define SNAP_CELL_SHIFT	8

/* The general registers, in gregset_t order (snap_roots.c). */
#define SNAP_NREGS	17
extern const char *const snap_reg_names[SNAP_NREGS] AGENT_HIDDEN;

/* ---- the address space ---------------------------------------------- */

struct snap_map {
	uint64_t	 lo, hi;
	uint32_t	 prot;		/* 1 r, 2 w, 4 x */
	int		 file;		/* backed by a file */
	int		 device;	/* a device other than /dev/zero */
	const char	*path;		/* "" for anonymous */
};

/* ---- the snapshot's working state ----------------------------------- */

struct snap_span {
	uint64_t	 lo, hi;	/* hi = lo + size, or lo + 1 if 0 */
};

struct snap_hregion {
	uint64_t	 lo, hi;
	uint32_t	 kind;
	uint32_t	 first, end;	/* its blocks */
	size_t		 pg;		/* its page index, in s->pg */
};

struct snap {
	int		 trigger, signo;
	uint64_t	 t0, t_wall, t_stop, t_resume;
	struct abuf	 text, mapsb, blkb, tmp, counts, pgb, regb;
	struct abuf	 blks, edges, packed, roots, regions, threads, data;
	struct abuf	 tids, excl;
	struct snap_map	*maps;
	size_t		 nmaps;
	struct agent_blk *blk;
	size_t		 nblk;
	struct abuf	 spanb;
	struct snap_span *span;		/* [lo, hi) of each block, by address */
	struct snap_hregion	*hr;
	size_t		 nhr;
	uint32_t	*pg;
	uint64_t	 lo, hi;	/* of all heap regions */
	size_t		 last;		/* the region of the last lookup */
	struct abuf	 modb;
	struct elf_mod	*mods;
	size_t		 nmods;
	uint64_t	 edges_dropped;
	uint32_t	 unstopped;
	pid_t		 self, agent;
	ucontext_t	 uc;		/* the snapshotting thread */
	int		 self_program;	/* it is one of the program's */
	uint64_t	 vt_key[4096];
	uint8_t		 vt_val[4096];
};

/* ---- the names and the file ----------------------------------------- */

struct snap_strtab {
	struct abuf	 b;
	uint32_t	*slot;		/* offset + 1, by hash */
	size_t		 mask, n;
};

struct snap_out {
	struct snap_strtab	 st;
	struct abuf	 info, cntr, mods, imps, locs, frms, sites, types;
};

struct snap_sec {
	const char	*tag;
	uint32_t	 recsize;
	const uint8_t	*p;
	size_t		 len;
};

/* ---- small helpers that never malloc ------------------------------- */

/* The file is little-endian, and so is the only machine we run on. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pvheap's agent writes little-endian records in native order"
#endif

static inline void
snap_put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof v);
}

static inline void
snap_put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof v);
}

static inline void
snap_put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof v);
}

static inline uint32_t
snap_get32(const uint8_t *p)
{
	uint32_t	v;

	memcpy(&v, p, sizeof v);
	return (v);
}

static inline uint64_t
snap_get64(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, sizeof v);
	return (v);
}

/* snap_stop.c */
uint64_t	 snap_now_ns(clockid_t) AGENT_HIDDEN;
void		 snap_world_reset(void) AGENT_HIDDEN;
void		 snap_stop_world(struct snap *) AGENT_HIDDEN;
void		 snap_resume_world(void) AGENT_HIDDEN;
uint32_t	 snap_nparked(void) AGENT_HIDDEN;
const uint64_t	*snap_parked_regs(uint32_t) AGENT_HIDDEN;
void		 snap_threads(struct snap *) AGENT_HIDDEN;
void		 snap_exit_context(struct snap *) AGENT_HIDDEN;

/* snap_maps.c */
void		*snap_grow(struct abuf *, size_t) AGENT_HIDDEN;
uint64_t	 snap_num(const char **, int) AGENT_HIDDEN;
ssize_t		 snap_slurp(const char *, struct abuf *) AGENT_HIDDEN;
size_t		 snap_maps_read(struct abuf *, struct abuf *) AGENT_HIDDEN;
const struct snap_map *snap_map_find(const struct snap_map *, size_t,
		    uint64_t) AGENT_HIDDEN;

/* snap_index.c */
int		 snap_sort_blocks(struct snap *) AGENT_HIDDEN;
int		 snap_heap_regions(struct snap *) AGENT_HIDDEN;
int		 snap_vtlike(struct snap *, uint64_t) AGENT_HIDDEN;

/* snap_roots.c */
uint8_t		*snap_region_add(struct snap *, uint64_t, uint64_t, uint32_t,
		    uint32_t, uint32_t, uint32_t) AGENT_HIDDEN;
uint32_t	 snap_nregions(const struct snap *) AGENT_HIDDEN;
void		 snap_excl_agent(struct snap *) AGENT_HIDDEN;
void		 snap_scan_roots(struct snap *) AGENT_HIDDEN;
void		 snap_scan_registers(struct snap *, uint32_t,
		    const uint64_t *) AGENT_HIDDEN;

/* snap_scan.c */
void		 snap_scan_blocks(struct snap *) AGENT_HIDDEN;

/* snap_names.c */
uint32_t	 snap_str_add(struct snap_strtab *, const char *) AGENT_HIDDEN;
void		 snap_cntr_add(struct snap_out *, const char *, uint64_t)
		    AGENT_HIDDEN;
void		 snap_name_modules(struct snap *, struct snap_out *)
		    AGENT_HIDDEN;
void		 snap_name_roots(struct snap *, struct snap_out *) AGENT_HIDDEN;
void		 snap_name_threads(struct snap *, struct snap_out *)
		    AGENT_HIDDEN;
uint32_t	*snap_name_sites(struct snap *, struct snap_out *) AGENT_HIDDEN;
void		 snap_name_types(struct snap *, struct snap_out *,
		    const uint32_t *) AGENT_HIDDEN;
void		 snap_info(struct snap *, struct snap_out *) AGENT_HIDDEN;

/* snap_write.c */
int		 snap_write_file(const char *, const struct snap_sec *, size_t)
		    AGENT_HIDDEN;
int		 snap_pack_blocks(const struct snap *, struct abuf *)
		    AGENT_HIDDEN;


/* ---- the block index: the lookups of the scans' inner loops --------- */

static inline const struct snap_hregion *
snap_region_of(struct snap *s, uint64_t p)
{
	size_t	i;

	if (p < s->lo || p >= s->hi)
		return (NULL);
	if (p >= s->hr[s->last].lo && p < s->hr[s->last].hi)
		return (&s->hr[s->last]);
	/* Sorted and disjoint (snap_heap_regions): the first ending after p. */
	BSEARCH_FIRST(i, 0, s->nhr, s->hr[i].hi <= p);
	if (i == s->nhr || s->hr[i].lo > p)
		return (NULL);
	s->last = i;
	return (&s->hr[i]);
}

/*
 * Of the blocks a..b that start in p's cell, the last at or before p, or
 * else the block before the cell: the block p is in, if any.
 */
static inline uint32_t
snap_cell_pick(const struct snap *s, const struct snap_hregion *r, uint64_t p,
    uint32_t a, uint32_t b)
{
	uint32_t	i;

	if (a < b && s->span[a].lo <= p) {
		for (i = a; i + 1 < b && s->span[i + 1].lo <= p; i++)
			;
	} else {
		if (a <= r->first)
			return (HEAPFMT_NONE);
		i = a - 1;
	}
	return (p < s->span[i].hi ? i : HEAPFMT_NONE);
}

/* The block p points into (memcheck's rule), or HEAPFMT_NONE. */
static inline uint32_t
snap_lookup(struct snap *s, uint64_t p)
{
	const struct snap_hregion	*r;
	size_t			 k;

	if ((r = snap_region_of(s, p)) == NULL)
		return (HEAPFMT_NONE);
	k = r->pg + ((p - r->lo) >> SNAP_CELL_SHIFT);
	return (snap_cell_pick(s, r, p, s->pg[k], s->pg[k + 1]));
}

/* The offset field of an edge or root: 31 bits of offset, a flag. */
static inline uint32_t
snap_dst_off(struct snap *s, uint32_t dst, uint64_t p)
{
	const struct snap_span	*t = &s->span[dst];
	uint64_t		 off = p - t->lo;
	uint32_t		 v;

	if (off == 0)
		return (0);
	v = off > HEAPFMT_OFF_MASK ? HEAPFMT_OFF_MASK : (uint32_t)off;
	/* (hi - lo is the size: a 0-byte block has no interior.) */
	if ((off & 7) == 0 && off + 8 <= t->hi - t->lo &&
	    snap_vtlike(s, *(const uint64_t *)(uintptr_t)p))
		v |= HEAPFMT_OFF_VTLIKE;
	return (v);
}

#endif
