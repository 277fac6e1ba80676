/*
 * A snapshot: stop every thread, find the roots, scan every live block
 * conservatively, let the threads go, name what was found, write the
 * file (profview-formats(5), HEAP FILES).  This file takes the steps in
 * order; each is a file of its own (snap.h says which).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"
#include "capture/pvheap/snap.h"

static pthread_mutex_t	snap_lock = PTHREAD_MUTEX_INITIALIZER;

void
snap_init(void)
{
}

void
snap_atfork_child(void)
{
	pthread_mutex_init(&snap_lock, NULL);
	snap_world_reset();
}

static void
snap_free(struct snap *s)
{
	struct abuf	*b[] = { &s->text, &s->mapsb, &s->blkb, &s->tmp,
	    &s->counts, &s->pgb, &s->regb, &s->spanb, &s->blks, &s->edges,
	    &s->packed, &s->roots,
	    &s->regions, &s->threads, &s->data, &s->tids, &s->excl };
	size_t		 i;

	for (i = 0; i < sizeof b / sizeof b[0]; i++)
		abuf_free(b[i]);
	elf_mods_free(s->mods, s->nmods);
	abuf_free(&s->modb);
}

/*
 * Take a snapshot and write it; 0 and the file's name in msg, or -1 and
 * why.  One at a time; the caller's own allocations pass untracked.
 */
int
snap_take(int trigger, int signo, char *msg, size_t msglen)
{
	static struct snap	 s;	/* big, and never two at once */
	struct snap_out		 o;
	struct snap_sec		 sec[16];
	uint32_t		*site_type;
	char			 path[PATH_MAX];
	size_t			 nsec = 0, nedges, nroots;
	int			 was;
	volatile int		 rc = -1;	/* getcontext: -Wclobbered */

	pthread_mutex_lock(&snap_lock);
	was = agent_busy_enter();
	memset(&s, 0, sizeof s);
	memset(&o, 0, sizeof o);
	s.trigger = trigger;
	s.signo = signo;
	s.self = agent_gettid();
	s.self_program = !agent_is_agent_thread();
	s.agent = agent_thread_tid();
	s.t0 = snap_now_ns(CLOCK_MONOTONIC);
	getcontext(&s.uc);
	/* The loader's lock may be held by a thread we stop: ask first. */
	s.nmods = elf_modules(&s.modb);
	s.mods = (struct elf_mod *)s.modb.p;
	if (s.self_program && trigger == HEAPFMT_AT_EXIT)
		snap_exit_context(&s);
	snap_str_add(&o.st, "");	/* offset 0 is "" */
	if (o.st.b.len == 0 && abuf_grow(&o.st.b, 1) != NULL)
		o.st.b.p[0] = '\0';

	s.t_wall = snap_now_ns(CLOCK_REALTIME);
	s.t_stop = snap_now_ns(CLOCK_MONOTONIC);
	snap_stop_world(&s);
	s.nmaps = snap_maps_read(&s.text, &s.mapsb);
	s.maps = (struct snap_map *)s.mapsb.p;
	snap_excl_agent(&s);
	s.nblk = agent_blocks(&s.blkb);
	s.blk = (struct agent_blk *)s.blkb.p;
	if (snap_sort_blocks(&s) != 0 || snap_heap_regions(&s) != 0) {
		snap_resume_world();
		snprintf(msg, msglen, "snapshot failed: out of memory or a"
		    " block outside glibc's heap");
		goto out;
	}
	snap_threads(&s);
	snap_scan_blocks(&s);
	snap_scan_roots(&s);
	{
		size_t	i, n = s.threads.len / HEAPFMT_THRS_SIZE;
		uint32_t np = snap_nparked();

		for (i = 0; i < np && i < n; i++)
			snap_scan_registers(&s, (uint32_t)i,
			    snap_parked_regs((uint32_t)i));
		if (s.self_program && i < n)
			snap_scan_registers(&s, (uint32_t)i,
			    (const uint64_t *)s.uc.uc_mcontext.gregs);
	}
	snap_resume_world();
	s.t_resume = snap_now_ns(CLOCK_MONOTONIC);
	/*
	 * The scans' copies, scratch and index go before the names and the
	 * packing: 80 bytes a block of the agent's peak, needed no more.
	 */
	abuf_free(&s.blkb);
	abuf_free(&s.tmp);
	abuf_free(&s.counts);
	abuf_free(&s.pgb);
	abuf_free(&s.spanb);
	s.blk = NULL;
	s.span = NULL;
	s.pg = NULL;

	/* Heap regions first in REGN: the blocks' region is its index. */
	{
		struct abuf	 roots = s.regions;
		size_t		 i;
		uint8_t		*r;
		uint32_t	 nh = (uint32_t)s.nhr;

		memset(&s.regions, 0, sizeof s.regions);
		for (i = 0; i < s.nhr; i++)
			snap_region_add(&s, s.hr[i].lo, s.hr[i].hi,
			    s.hr[i].kind, HEAPFMT_NONE, HEAPFMT_NONE, 3);
		if (roots.len != 0 && (r = abuf_grow(&s.regions,
		    roots.len)) != NULL)
			memcpy(r, roots.p, roots.len);
		abuf_free(&roots);
		for (i = 0; i < s.roots.len / HEAPFMT_ROOT_SIZE; i++) {
			r = s.roots.p + i * HEAPFMT_ROOT_SIZE;
			snap_put32(r + 8, snap_get32(r + 8) + nh);
		}
		for (i = 0; i < s.threads.len / HEAPFMT_THRS_SIZE; i++) {
			r = s.threads.p + i * HEAPFMT_THRS_SIZE;
			if (snap_get32(r + 36) != HEAPFMT_NONE)
				snap_put32(r + 36, snap_get32(r + 36) + nh);
		}
	}
	snap_name_modules(&s, &o);
	snap_name_roots(&s, &o);
	snap_name_threads(&s, &o);
	site_type = snap_name_sites(&s, &o);
	snap_name_types(&s, &o, site_type);
	agent_free(site_type);
	snap_info(&s, &o);
	nedges = s.edges.len / HEAPFMT_EDGS_SIZE;
	nroots = s.roots.len / HEAPFMT_ROOT_SIZE;
	snap_cntr_add(&o, "frees_unknown", __atomic_load_n(&agent_frees_unknown,
	    __ATOMIC_RELAXED));
	snap_cntr_add(&o, "edges_dropped", s.edges_dropped);
	snap_cntr_add(&o, "threads_unstopped", s.unstopped);
	snap_cntr_add(&o, "stop_ns", s.t_resume - s.t_stop);
	if (snap_pack_blocks(&s, &s.packed) != 0) {
		snprintf(msg, msglen, "snapshot failed: out of memory");
		goto out;
	}
	snap_cntr_add(&o, "snapshot_ns", snap_now_ns(CLOCK_MONOTONIC) - s.t0);

#define SEC(t, sz, b)	do {						\
	sec[nsec].tag = (t);						\
	sec[nsec].recsize = (sz);					\
	sec[nsec].p = (b).p;						\
	sec[nsec].len = (b).len;					\
	nsec++;								\
} while (0)
	SEC(HEAPFMT_INFO, HEAPFMT_INFO_SIZE, o.info);
	SEC(HEAPFMT_CNTR, HEAPFMT_CNTR_SIZE, o.cntr);
	SEC(HEAPFMT_MODS, HEAPFMT_MODS_SIZE, o.mods);
	SEC(HEAPFMT_IMPS, HEAPFMT_IMPS_SIZE, o.imps);
	SEC(HEAPFMT_THRS, HEAPFMT_THRS_SIZE, s.threads);
	SEC(HEAPFMT_REGN, HEAPFMT_REGN_SIZE, s.regions);
	SEC(HEAPFMT_LOCS, HEAPFMT_LOCS_SIZE, o.locs);
	SEC(HEAPFMT_FRMS, HEAPFMT_FRMS_SIZE, o.frms);
	SEC(HEAPFMT_SITE, HEAPFMT_SITE_SIZE, o.sites);
	SEC(HEAPFMT_TYPE, HEAPFMT_TYPE_SIZE, o.types);
	SEC(HEAPFMT_BLKV, 1, s.packed);
	SEC(HEAPFMT_ROOT, HEAPFMT_ROOT_SIZE, s.roots);
	if (agent_opts.contents != 0)
		SEC(HEAPFMT_DATA, 1, s.data);
	SEC(HEAPFMT_STRS, 1, o.st.b);
#undef SEC
	agent_out_name(path, sizeof path, snap_get32(o.info.p + 12));
	if (snap_write_file(path, sec, nsec) != 0) {
		snprintf(msg, msglen, "%s: %s", path, strerror(errno));
		goto out;
	}
	snprintf(msg, msglen, "%s", path);
	agent_say("%s: %zu blocks, %zu edges, %zu roots; threads stopped"
	    " %.1f ms", path, s.nblk, nedges, nroots,
	    (double)(s.t_resume - s.t_stop) / 1e6);
	rc = 0;
out:
	snap_free(&s);
	abuf_free(&o.info);
	abuf_free(&o.cntr);
	abuf_free(&o.mods);
	abuf_free(&o.imps);
	abuf_free(&o.locs);
	abuf_free(&o.frms);
	abuf_free(&o.sites);
	abuf_free(&o.types);
	abuf_free(&o.st.b);
	agent_free(o.st.slot);
	agent_busy_leave(was);
	pthread_mutex_unlock(&snap_lock);
	return (rc);
}
