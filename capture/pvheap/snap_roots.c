/*
 * The roots are what memcheck scans: every readable and writable mapping
 * except glibc's heaps, the agent's own memory, device mappings, and the
 * part of each stopped thread's stack below its stack pointer (less the
 * 128-byte red zone the x86-64 ABI lets a function use), and every
 * thread's registers.  Within roots every aligned word that points into
 * a live block is a pointer, with memcheck's rule for what "into" means:
 * addr <= p < addr + size, or p == addr for a 0-byte block.
 */
#include <stdint.h>
#include <string.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"
#include "capture/pvheap/snap.h"

#define RED_ZONE	128

/* The general registers by name, in gregset_t order. */
const char *const snap_reg_names[SNAP_NREGS] = {
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rdi", "rsi",
	"rbp", "rbx", "rdx", "rax", "rcx", "rsp", "rip"
};

uint8_t *
snap_region_add(struct snap *s, uint64_t lo, uint64_t hi, uint32_t kind,
    uint32_t module, uint32_t thread, uint32_t prot)
{
	uint8_t	*r;

	if ((r = snap_grow(&s->regions, HEAPFMT_REGN_SIZE)) == NULL)
		return (NULL);
	snap_put64(r, lo);
	snap_put64(r + 8, hi);
	snap_put32(r + 16, kind);
	snap_put32(r + 24, module);
	snap_put32(r + 28, thread);
	snap_put32(r + 32, prot);
	return (r);
}

uint32_t
snap_nregions(const struct snap *s)
{
	return ((uint32_t)(s->regions.len / HEAPFMT_REGN_SIZE));
}

static void
snap_root_add(struct snap *s, uint64_t addr, uint32_t region, uint64_t v)
{
	uint32_t	 dst;
	uint8_t		*r;

	if ((dst = snap_lookup(s, v)) == HEAPFMT_NONE)
		return;
	if ((r = snap_grow(&s->roots, HEAPFMT_ROOT_SIZE)) == NULL)
		return;
	snap_put64(r, addr);
	snap_put32(r + 8, region);
	snap_put32(r + 12, dst);
	snap_put32(r + 16, snap_dst_off(s, dst, v));
}

static void
snap_scan_root(struct snap *s, uint64_t lo, uint64_t hi, uint32_t kind,
    uint32_t module, uint32_t thread, uint32_t prot)
{
	uint32_t	reg = snap_nregions(s);
	uint64_t	a;

	lo = (lo + 7) & ~(uint64_t)7;
	hi &= ~(uint64_t)7;
	if (lo >= hi || snap_region_add(s, lo, hi, kind, module, thread,
	    prot) == NULL)
		return;
	for (a = lo; a < hi; a += 8)
		snap_root_add(s, a, reg, *(const uint64_t *)(uintptr_t)a);
}

/* A range the root scan leaves out. */
static void
snap_excl_add(struct snap *s, uint64_t lo, uint64_t hi)
{
	uint64_t	*e;

	if (lo < hi && (e = abuf_grow(&s->excl, 2 * sizeof *e)) != NULL) {
		e[0] = lo;
		e[1] = hi;
	}
}

/* Insertion sort: qsort may call malloc, not while threads are stopped. */
static void
snap_excl_sort(uint64_t *e, size_t n)
{
	uint64_t	lo, hi;
	size_t		i, j;

	for (i = 1; i < n; i++) {
		lo = e[2 * i];
		hi = e[2 * i + 1];
		for (j = i; j > 0 && e[2 * (j - 1)] > lo; j--) {
			e[2 * j] = e[2 * (j - 1)];
			e[2 * j + 1] = e[2 * (j - 1) + 1];
		}
		e[2 * j] = lo;
		e[2 * j + 1] = hi;
	}
}

/*
 * The agent's own mappings, taken when the maps are read: a buffer that
 * grows later may move, and its old place must not be read.
 */
void
snap_excl_agent(struct snap *s)
{
	uint64_t	v[2 * 1024];
	size_t		i, n = agent_ranges(v, 1024);

	for (i = 0; i < n; i++)
		snap_excl_add(s, v[2 * i], v[2 * i + 1]);
}

/* Which thread's stack (the index of its THRS record) holds a, or NONE. */
static uint32_t
snap_stack_of(struct snap *s, const struct snap_map *m)
{
	const uint8_t	*t = s->threads.p;
	size_t		 i, n = s->threads.len / HEAPFMT_THRS_SIZE;
	uint64_t	 sp;

	for (i = 0; i < n; i++) {
		sp = snap_get64(t + i * HEAPFMT_THRS_SIZE + 8);
		if ((snap_get32(t + i * HEAPFMT_THRS_SIZE + 4) &
		    (HEAPFMT_THR_STOPPED | HEAPFMT_THR_SNAPPER)) &&
		    sp >= m->lo && sp < m->hi)
			return ((uint32_t)i);
	}
	return (HEAPFMT_NONE);
}

/* Scan [lo, hi) of mapping m, which no exclusion touches, as roots. */
static void
snap_scan_piece(struct snap *s, const struct snap_map *m, uint64_t lo,
    uint64_t hi, uint32_t thread)
{
	const struct elf_mod	*md;
	uint64_t		 a, b;
	size_t			 k;
	int			 j;

	if (thread != HEAPFMT_NONE) {
		snap_scan_root(s, lo, hi, HEAPFMT_RGN_STACK, HEAPFMT_NONE,
		    thread, m->prot);
		return;
	}
	/* Pieces inside a module's writable segments are its data. */
	while (lo < hi) {
		b = hi;
		for (k = 0; k < s->nmods; k++) {
			md = &s->mods[k];
			if (md->flags & HEAPFMT_MOD_UNLOADED)
				continue;
			for (j = 0; j < md->nrw; j++) {
				a = md->rw_lo[j] & ~(uint64_t)4095;
				/* .bss runs on in the next anonymous pages. */
				if (lo >= a && lo < ((md->rw_hi[j] + 4095) &
				    ~(uint64_t)4095)) {
					b = (md->rw_hi[j] + 4095) &
					    ~(uint64_t)4095;
					b = b < hi ? b : hi;
					snap_scan_root(s, lo, b,
					    HEAPFMT_RGN_DATA, (uint32_t)k,
					    HEAPFMT_NONE, m->prot);
					lo = b;
					goto next;
				}
				if (a > lo && a < b)
					b = a;
			}
		}
		snap_scan_root(s, lo, b, m->file ? HEAPFMT_RGN_FILE :
		    HEAPFMT_RGN_ANON, HEAPFMT_NONE, HEAPFMT_NONE, m->prot);
		lo = b;
next:		;
	}
}

/*
 * glibc's main_arena sits in libc's data and points at free chunks, whose
 * headers overlap the last word of the live block before them: roots
 * that memcheck (which replaces malloc) never sees.  It has no exported
 * symbol, so find it by its "top" field: the one word of libc's data
 * that points at the chunk ending where the brk heap ends.  The layout
 * is glibc's since 2.27: top 96 bytes in, 2200 bytes in all.
 */
#define ARENA_TOP_OFF	96
#define ARENA_SIZE	2200

static void
snap_excl_main_arena(struct snap *s)
{
	const struct snap_map	*brk = NULL;
	const struct elf_mod	*libc = NULL;
	uint64_t		 a, w, lo, hi, me;
	size_t			 i;
	int			 j;

	for (i = 0; i < s->nmaps; i++) {
		if (strcmp(s->maps[i].path, "[heap]") == 0)
			brk = &s->maps[i];
	}
	/* __libc_malloc's module, found by an address in libc: ours isn't. */
	me = (uint64_t)(uintptr_t)agent_libc_addr();
	for (i = 0; i < s->nmods; i++) {
		if (me >= s->mods[i].lo && me < s->mods[i].hi)
			libc = &s->mods[i];
	}
	if (brk == NULL || libc == NULL)
		return;
	for (j = 0; j < libc->nrw; j++) {
		lo = (libc->rw_lo[j] + 7) & ~(uint64_t)7;
		hi = libc->rw_hi[j] & ~(uint64_t)7;
		for (a = lo; a + 8 <= hi; a += 8) {
			if (snap_map_find(s->maps, s->nmaps, a) == NULL)
				continue;
			w = *(const uint64_t *)(uintptr_t)a;
			if (w < brk->lo || w + 16 > brk->hi || (w & 15) != 0)
				continue;
			if (w + (*(const uint64_t *)(uintptr_t)(w + 8) &
			    ~(uint64_t)7) == brk->hi && a >= lo +
			    ARENA_TOP_OFF) {
				snap_excl_add(s, a - ARENA_TOP_OFF, a -
				    ARENA_TOP_OFF + ARENA_SIZE);
				return;
			}
		}
	}
}

void
snap_scan_roots(struct snap *s)
{
	const struct snap_map	*m;
	const uint8_t		*t;
	uint64_t		*e, lo, sp, alo, ahi;
	size_t			 i, k, ne;
	uint32_t		 th;
	int			 j;

	/* Out: the heaps, the agent's memory, data and thread stack. */
	for (i = 0; i < s->nhr; i++)
		snap_excl_add(s, s->hr[i].lo, s->hr[i].hi);
	for (i = 0; i < s->nmods; i++) {
		if (!(s->mods[i].flags & HEAPFMT_MOD_AGENT))
			continue;
		for (j = 0; j < s->mods[i].nrw; j++)
			snap_excl_add(s, s->mods[i].rw_lo[j] & ~(uint64_t)4095,
			    (s->mods[i].rw_hi[j] + 4095) & ~(uint64_t)4095);
	}
	agent_thread_stack(&alo, &ahi);
	if (alo < ahi && (m = snap_map_find(s->maps, s->nmaps, alo)) != NULL)
		snap_excl_add(s, m->lo, m->hi);
	snap_excl_main_arena(s);
	e = (uint64_t *)s->excl.p;
	ne = s->excl.len / (2 * sizeof *e);
	snap_excl_sort(e, ne);
	t = s->threads.p;
	for (i = 0; i < s->nmaps; i++) {
		m = &s->maps[i];
		if ((m->prot & 3) != 3 || m->device)
			continue;
		lo = m->lo;
		th = snap_stack_of(s, m);
		if (th != HEAPFMT_NONE) {
			sp = snap_get64(t + th * HEAPFMT_THRS_SIZE + 8);
			/* The snapshotter's own frames are below its sp. */
			if (snap_get32(t + th * HEAPFMT_THRS_SIZE + 4) &
			    HEAPFMT_THR_STOPPED)
				sp -= RED_ZONE;
			lo = sp > m->lo ? sp : m->lo;
		}
		for (k = 0; k < ne && lo < m->hi; k++) {
			if (e[2 * k + 1] <= lo || e[2 * k] >= m->hi)
				continue;
			if (e[2 * k] > lo)
				snap_scan_piece(s, m, lo, e[2 * k], th);
			if (e[2 * k + 1] > lo)
				lo = e[2 * k + 1];
		}
		if (lo < m->hi)
			snap_scan_piece(s, m, lo, m->hi, th);
	}
}

void
snap_scan_registers(struct snap *s, uint32_t thread, const uint64_t *gregs)
{
	uint32_t	reg = snap_nregions(s);
	size_t		i;

	if (snap_region_add(s, 0, 0, HEAPFMT_RGN_REGS, HEAPFMT_NONE, thread,
	    0) == NULL)
		return;
	snap_put32(s->threads.p + thread * HEAPFMT_THRS_SIZE + 36, reg);
	for (i = 0; i < SNAP_NREGS; i++)
		snap_root_add(s, i, reg, gregs[i]);
}
