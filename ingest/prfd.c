/*
 * Dos32Profile dumps (kind prfd): a 14-byte header (magic PRFD, u16
 * version 1, u8 width, u8 reserved, u32 pid, u16 timval), then records to
 * the end of the file, each a PRFRET request without its pointer (us_cmd
 * u8, us_thrdno u16, us_vaddr and us_bufsz of width bytes) and us_bufsz
 * bytes of what Dos32Profile returned, in Dos32Profile's packed layout with
 * ULONGs of width bytes: PRFRET0 (global counters, of the process or of
 * thread us_thrdno), PRFRET1 (the slots), PRFRET2 (the hit table),
 * PRFRET3 (one slot's detail counters, us_vaddr the slot's).  Record
 * 0xF0 is ours: tagged entries with what OS/2 lacks (each slot's module
 * and build-id, the threads' Linux ids, the sampling period, the
 * command).
 *
 * What is checked, and what the reader does (profview-formats.5 says the
 * same): a header field out of range, a record cut off, a count that
 * needs more bytes than its record has, a second record of the same kind
 * (the same thread's PRFRET0, a slot's PRFRET3) are errors.  Counts that
 * disagree with each other are warnings and the bytes decide: r1_nslots
 * against the PRFVAs present (OS/2 counts slots in a byte), r2_nhits and
 * r0_hitbufcnt against the addresses present, PRFRET3 records against
 * the slots.  An unknown us_cmd is skipped with a warning; an unknown
 * extension tag is skipped silently (it is for a newer reader).  A dump
 * with no extension record is an OS/2 one: addresses only.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "bsearch.h"
#include "xmalloc.h"
#include "ingest/bytes.h"
#include "ingest/ingest.h"
#include "ingest/prfd.h"
#include "store/prfd.h"

#define PRFD_HEADER	14
#define PRFD_EXT	0xf0	/* our extension record's us_cmd */
#define PRFD_MAXTHREAD	65535	/* us_thrdno is a USHORT */

#define PRFD_TAG_MODULE		1
#define PRFD_TAG_THREADS	2
#define PRFD_TAG_PERIOD		3
#define PRFD_TAG_COMMAND	4
#define PRFD_TAG_LIMITS		5
#define PRFD_TAG_MAPPING	6
/* A MAPPING entry's fields before its build-id (profview-formats(5)). */
#define PRFD_MAPPING_FIXED	43
#define PRFD_MAPPING_KERNEL	0x1
#define PRFD_MAPPING_UNREAD	0x2
#define PRFD_MAPPING_REPLACED	0x4

/* A slot as the reader collects it from PRFRET1, PRFRET3 and MODULE. */
struct prfd_slot {
	struct store_prfd_slot	 s;
	size_t			 off;		/* its PRFVA in the file */
	int			 from_r3;	/* made from a PRFRET3 alone */
	size_t			 r3_off;	/* 0: no PRFRET3 */
	uint64_t		 r3_size;
	uint64_t		 ncnts;
	const uint8_t		*cnts;		/* ncnts ULONGs in the file */
	size_t			 mod_off;	/* 0: no MODULE entry */
};

/* A MAPPING entry: the module, its samples (n pairs in the file). */
struct prfd_map {
	struct store_prfd_module m;
	size_t			 off;		/* the entry in the file */
	uint32_t		 flags;
	const uint8_t		*samples;
	uint32_t		 n;
};

struct prfd_read {
	struct ingest_ctx	*ctx;
	unsigned		 w;		/* bytes in a ULONG */
	struct store_prfd	 d;
	int			 have_global;
	struct store_prfd_thread *threads;
	size_t			 nthreads;
	uint8_t			*thread_seen;	/* by us_thrdno */
	struct prfd_slot	*slots;
	size_t			 nslots;
	size_t			*hash;		/* slots by vaddr: index + 1 */
	size_t			 hcap;
	size_t			 r1_off;	/* 0: no PRFRET1 */
	size_t			 r2_off;	/* 0: no PRFRET2 */
	size_t			 r0_off;	/* the process's PRFRET0 */
	const uint8_t		*hits;		/* nhits ULONGs in the file */
	uint64_t		 nhits;
	size_t			 ext_off;	/* 0: no extension */
	uint32_t		*tids;
	uint32_t		 ntids;
	int			 have_tids, have_period, have_command;
	int			 have_limits;
	char			*command;
	char			*argv0;
	struct prfd_map		*maps;
	size_t			 nmaps, mapcap;
	int			 have_kernel;
};

static int
prfd_detect(const uint8_t *buf, size_t len, const char *name)
{
	(void)name;
	if (len >= 4 && memcmp(buf, "PRFD", 4) == 0)
		return (100);
	return (0);
}

/* A ULONG of the dump's width. */
static int
prfd_ulong(const struct prfd_read *r, struct bytes *b, uint64_t *v)
{
	uint32_t	v32;

	if (r->w == 8)
		return (bytes_u64(b, v));
	if (bytes_u32(b, &v32) != 0)
		return (-1);
	*v = v32;
	return (0);
}

/* The ULONG at p (bytes the caller checked are there). */
static uint64_t
prfd_at(const struct prfd_read *r, const uint8_t *p)
{
	uint64_t	v = 0;
	unsigned	i;

	for (i = r->w; i > 0; i--)
		v = (v << 8) | p[i - 1];
	return (v);
}

/* The little-endian u64 at p (bytes the caller checked are there). */
static uint64_t
prfd_le64(const uint8_t *p)
{
	uint64_t	v = 0;
	int		i;

	for (i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return (v);
}

/* The bytes of a PRFRET0 at width w. */
static size_t
prfd_r0_size(unsigned w)
{
	return (2 + 2 + 9 * (size_t)w + 2 + 1 + 2 + 2);
}

/* PRFRET0 of the process (thrdno 0) or of thread thrdno. */
static int
prfd_global(struct prfd_read *r, struct bytes *b, size_t start,
    uint16_t thrdno, uint64_t bufsz)
{
	struct ingest_ctx		*ctx = r->ctx;
	struct store_prfd_thread	 t;
	uint16_t			 flags = 0, shift = 0, timval = 0;
	uint16_t			 n1 = 0, n2 = 0;
	uint64_t			 v[9];
	uint8_t				 errcnt = 0;
	size_t				 need = prfd_r0_size(r->w), i;

	if (bufsz < need)
		return (ingest_fail(ctx, start + 3 + r->w, "us_bufsz", "%llu"
		    " bytes, a PRFRET0 of %u-byte ULONGs has %zu",
		    (unsigned long long)bufsz, r->w, need));
	if (r->thread_seen[thrdno])
		return (ingest_fail(ctx, start + 1, "us_thrdno", "a second"
		    " PRF_RET_GLOBAL record for %s %u", thrdno == 0 ?
		    "the process, thread" : "thread", thrdno));
	r->thread_seen[thrdno] = 1;
	bytes_u16(b, &flags);
	bytes_u16(b, &shift);
	for (i = 0; i < 9; i++)
		prfd_ulong(r, b, &v[i]);
	bytes_u16(b, &timval);
	bytes_u8(b, &errcnt);
	bytes_u16(b, &n1);
	bytes_u16(b, &n2);
	if (bufsz > need)
		ingest_warn(ctx, start, "PRFRET0 of %llu bytes, %zu expected:"
		    " the rest is ignored", (unsigned long long)bufsz, need);
	if (thrdno == 0) {
		if (shift >= 64)
			return (ingest_fail(ctx, start + 3 + 2 * r->w + 2,
			    "r0_shift", "%u: a detail counter of 2^%u bytes",
			    shift, shift));
		r->have_global = 1;
		r->r0_off = start;
		r->d.flags = flags;
		r->d.shift = shift;
		r->d.idle = v[0];
		r->d.vm86 = v[1];
		r->d.kernel = v[2];
		r->d.shrmem = v[3];
		r->d.unknown = v[4];
		r->d.nhitbufs = v[5];
		r->d.hitbufcnt = v[6];
		r->d.r0_timval = timval;
		r->d.errcnt = errcnt;
		return (0);
	}
	memset(&t, 0, sizeof t);
	t.thrdno = thrdno;
	t.tid = -1;
	t.flags = flags;
	t.idle = v[0];
	t.vm86 = v[1];
	t.kernel = v[2];
	t.shrmem = v[3];
	t.unknown = v[4];
	t.hitbufcnt = v[6];
	t.errcnt = errcnt;
	r->threads = xreallocarray(r->threads, r->nthreads + 1,
	    sizeof *r->threads);
	r->threads[r->nthreads++] = t;
	return (0);
}

static size_t
prfd_hash_at(uint64_t v, size_t cap)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return ((size_t)v & (cap - 1));
}

/*
 * The slot at vaddr, or NULL: a hash of the slots, so that a dump of
 * many slots and as many PRFRET3 records is not read in square time.
 */
static struct prfd_slot *
prfd_find(const struct prfd_read *r, uint64_t vaddr)
{
	size_t	h;

	if (r->hcap == 0)
		return (NULL);
	for (h = prfd_hash_at(vaddr, r->hcap); r->hash[h] != 0;
	    h = (h + 1) & (r->hcap - 1)) {
		if (r->slots[r->hash[h] - 1].s.vaddr == vaddr)
			return (&r->slots[r->hash[h] - 1]);
	}
	return (NULL);
}

/* Put the last slot in the hash (its vaddr is not there yet). */
static void
prfd_index(struct prfd_read *r)
{
	size_t	h, i, n = r->nslots;

	if (2 * n > r->hcap) {
		free(r->hash);
		r->hcap = r->hcap != 0 ? 2 * r->hcap : 64;
		while (2 * n > r->hcap)
			r->hcap *= 2;
		r->hash = xcalloc(r->hcap, sizeof *r->hash);
		for (i = 0; i + 1 < n; i++) {
			for (h = prfd_hash_at(r->slots[i].s.vaddr, r->hcap);
			    r->hash[h] != 0; h = (h + 1) & (r->hcap - 1))
				;
			r->hash[h] = i + 1;
		}
	}
	for (h = prfd_hash_at(r->slots[n - 1].s.vaddr, r->hcap);
	    r->hash[h] != 0; h = (h + 1) & (r->hcap - 1))
		;
	r->hash[h] = n;
}

/* PRFRET1: r1_nslots, then the PRFVAs the bytes hold. */
static int
prfd_slots(struct prfd_read *r, struct bytes *b, size_t start,
    uint64_t bufsz)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct prfd_slot	*s;
	uint64_t		 va = 5 * (uint64_t)r->w, n, i, end;
	uint8_t			 nslots = 0;
	size_t			 at = b->off;

	if (r->r1_off != 0)
		return (ingest_fail(ctx, start, "us_cmd", "a second"
		    " PRF_RET_VASLOTS record (the first at offset %zu)",
		    r->r1_off));
	r->r1_off = start;
	if (bufsz < 1)
		return (ingest_fail(ctx, start + 3 + r->w, "us_bufsz", "0"
		    " bytes, a PRFRET1 has at least r1_nslots"));
	bytes_u8(b, &nslots);
	if ((bufsz - 1) % va != 0)
		return (ingest_fail(ctx, start + 3 + r->w, "us_bufsz", "%llu"
		    " bytes: r1_nslots and %llu PRFVAs of %llu bytes leave"
		    " %llu over", (unsigned long long)bufsz,
		    (unsigned long long)((bufsz - 1) / va),
		    (unsigned long long)va,
		    (unsigned long long)((bufsz - 1) % va)));
	n = (bufsz - 1) / va;
	/* OS/2 counts the slots in a byte: the PRFVAs present decide. */
	if (n != nslots)
		ingest_warn(ctx, at, "r1_nslots %u, the record holds %llu"
		    " slots%s; the record's slots are read", nslots,
		    (unsigned long long)n, n % 256 == nslots ? " (a count"
		    " past 255 kept in a byte)" : "");
	for (i = 0; i < n; i++) {
		r->slots = xreallocarray(r->slots, r->nslots + 1,
		    sizeof *r->slots);
		s = &r->slots[r->nslots];
		memset(s, 0, sizeof *s);
		s->off = b->off;
		prfd_ulong(r, b, &s->s.vaddr);
		prfd_ulong(r, b, &s->s.size);
		prfd_ulong(r, b, &s->s.flags);
		prfd_ulong(r, b, &end);		/* va_reserved */
		prfd_ulong(r, b, &s->s.cnt);
		if (s->s.size == 0 || s->s.vaddr + s->s.size < s->s.vaddr)
			return (ingest_fail(ctx, s->off + r->w, "va_size",
			    "slot %llu: %llu bytes at %#llx: %s",
			    (unsigned long long)i,
			    (unsigned long long)s->s.size,
			    (unsigned long long)s->s.vaddr, s->s.size == 0 ?
			    "an empty slot" : "past the end of the address"
			    " space"));
		if (prfd_find(r, s->s.vaddr) != NULL)
			return (ingest_fail(ctx, s->off, "va_vaddr", "a second"
			    " slot at %#llx", (unsigned long long)
			    s->s.vaddr));
		r->nslots++;
		prfd_index(r);
	}
	return (0);
}

/* PRFRET2: r2_nhits, then the raw addresses the bytes hold. */
static int
prfd_hits(struct prfd_read *r, struct bytes *b, size_t start,
    uint64_t bufsz)
{
	struct ingest_ctx	*ctx = r->ctx;
	uint64_t		 nhits, n;

	if (r->r2_off != 0)
		return (ingest_fail(ctx, start, "us_cmd", "a second"
		    " PRF_RET_VAHITS record (the first at offset %zu)",
		    r->r2_off));
	r->r2_off = start;
	if (bufsz < r->w || bufsz % r->w != 0)
		return (ingest_fail(ctx, start + 3 + r->w, "us_bufsz", "%llu"
		    " bytes: a PRFRET2 is r2_nhits and whole %u-byte"
		    " addresses", (unsigned long long)bufsz, r->w));
	prfd_ulong(r, b, &nhits);
	n = bufsz / r->w - 1;
	if (nhits != n)
		ingest_warn(ctx, b->off - r->w, "r2_nhits %llu, the record"
		    " holds %llu addresses; those are read",
		    (unsigned long long)nhits, (unsigned long long)n);
	r->hits = b->p + b->off;
	r->nhits = n;
	bytes_skip(b, n * r->w);
	return (0);
}

/* PRFRET3 of the slot at vaddr: r3_size, r3_ncnts, the counters. */
static int
prfd_detail(struct prfd_read *r, struct bytes *b, size_t start,
    uint64_t vaddr, uint64_t bufsz)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct prfd_slot	*s = NULL;
	uint64_t		 size, ncnts, room;

	if (bufsz < 2 * (uint64_t)r->w)
		return (ingest_fail(ctx, start + 3 + r->w, "us_bufsz", "%llu"
		    " bytes, a PRFRET3 has at least r3_size and r3_ncnts",
		    (unsigned long long)bufsz));
	prfd_ulong(r, b, &size);
	prfd_ulong(r, b, &ncnts);
	room = (bufsz - 2 * (uint64_t)r->w) / r->w;
	if (ncnts > room)
		return (ingest_fail(ctx, b->off - r->w, "r3_ncnts", "%llu"
		    " counters need %llu bytes, the record has %llu",
		    (unsigned long long)ncnts, (unsigned long long)ncnts *
		    r->w, (unsigned long long)(bufsz - 2 * (uint64_t)r->w)));
	if (ncnts < room || (bufsz - 2 * (uint64_t)r->w) % r->w != 0)
		ingest_warn(ctx, start, "PRFRET3 at %#llx: %llu bytes after"
		    " its %llu counters are ignored", (unsigned long long)vaddr,
		    (unsigned long long)(bufsz - 2 * (uint64_t)r->w - ncnts *
		    r->w), (unsigned long long)ncnts);
	if (size == 0 || vaddr + size < vaddr)
		return (ingest_fail(ctx, b->off - 2 * r->w, "r3_size", "%llu"
		    " bytes at %#llx: %s", (unsigned long long)size,
		    (unsigned long long)vaddr, size == 0 ? "an empty slot" :
		    "past the end of the address space"));
	s = prfd_find(r, vaddr);
	if (s != NULL && s->r3_off != 0)
		return (ingest_fail(ctx, start + 3, "us_vaddr", "a second"
		    " PRF_RET_VADETAIL record for the slot at %#llx (the"
		    " first at offset %zu)", (unsigned long long)vaddr,
		    s->r3_off));
	if (s == NULL) {
		/* The records decide: a slot PRFRET1 did not list. */
		ingest_warn(ctx, start, "PRFRET3 at %#llx: no slot of the"
		    " PRFRET1 record starts there; a slot is made from it",
		    (unsigned long long)vaddr);
		r->slots = xreallocarray(r->slots, r->nslots + 1,
		    sizeof *r->slots);
		s = &r->slots[r->nslots++];
		memset(s, 0, sizeof *s);
		s->off = start;
		s->from_r3 = 1;
		s->s.vaddr = vaddr;
		s->s.size = size;
		prfd_index(r);
	}
	s->r3_off = start;
	s->r3_size = size;
	s->ncnts = ncnts;
	s->cnts = b->p + b->off;
	bytes_skip(b, bufsz - 2 * (uint64_t)r->w);
	return (0);
}

static void
prfd_hex(const uint8_t *p, size_t n, char *out)
{
	static const char	digits[] = "0123456789abcdef";
	size_t			i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
}

/* A MODULE entry: ULONG vaddr, ULONG size, build-id, path. */
static int
prfd_module(struct prfd_read *r, struct bytes *e, size_t start)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct prfd_slot	*s = NULL;
	uint64_t		 vaddr, size;
	uint8_t			 idlen;
	size_t			 plen;

	if (prfd_ulong(r, e, &vaddr) != 0 || prfd_ulong(r, e, &size) != 0 ||
	    bytes_u8(e, &idlen) != 0)
		return (ingest_fail(ctx, start + 4, "len", "a MODULE entry of"
		    " %zu bytes; its fixed fields need %u", e->len,
		    2 * r->w + 1));
	if (!bytes_have(e, idlen))
		return (ingest_fail(ctx, start + 8 + 2 * r->w, "build-id"
		    " length", "%u bytes, the entry has %zu after it", idlen,
		    bytes_left(e)));
	s = prfd_find(r, vaddr);
	if (s == NULL) {
		ingest_warn(ctx, start, "MODULE entry at %#llx: no slot starts"
		    " there; it is ignored", (unsigned long long)vaddr);
		return (0);
	}
	if (s->mod_off != 0)
		return (ingest_fail(ctx, start + 8, "vaddr", "a second MODULE"
		    " entry for the slot at %#llx (the first at offset %zu)",
		    (unsigned long long)vaddr, s->mod_off));
	s->mod_off = start;
	if (size != s->s.size)
		ingest_warn(ctx, start + 8 + r->w, "MODULE entry at %#llx:"
		    " size %llu, the slot's %llu", (unsigned long long)vaddr,
		    (unsigned long long)size, (unsigned long long)s->s.size);
	if (idlen != 0) {
		s->s.build_id = xmalloc(2 * (size_t)idlen + 1);
		prfd_hex(e->p + e->off, idlen, s->s.build_id);
	}
	bytes_skip(e, idlen);
	plen = bytes_left(e);
	if (plen != 0) {
		s->s.module = xmalloc(plen + 1);
		memcpy(s->s.module, e->p + e->off, plen);
		s->s.module[plen] = '\0';
		/* A NUL inside would cut the name short: say so. */
		if (strlen(s->s.module) != plen)
			ingest_warn(ctx, start + 8, "MODULE entry at %#llx:"
			    " a NUL inside its path", (unsigned long long)
			    vaddr);
	}
	return (0);
}

/*
 * A MAPPING entry: u64 lo, hi, pgoff, bias; u32 flags, nsamples; u8
 * build-id length; u16 path length; build-id; path; nsamples of { u64
 * address, u64 count }, addresses increasing and in [lo, hi) unless the
 * kernel's.
 */
static int
prfd_mapping(struct prfd_read *r, struct bytes *e, size_t start)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct prfd_map		*mp;
	uint64_t		 v[4] = { 0 }, addr = 0, n = 0, prev = 0;
	uint64_t		 sum = 0;
	uint32_t		 flags = 0, nsamples = 0, i;
	uint16_t		 plen = 0;
	uint8_t			 idlen = 0;
	size_t			 at = start + 8;

	if (e->len < PRFD_MAPPING_FIXED)
		return (ingest_fail(ctx, start + 4, "len", "a MAPPING entry of"
		    " %zu bytes; its fixed fields need %d", e->len,
		    PRFD_MAPPING_FIXED));
	for (i = 0; i < 4; i++)
		bytes_u64(e, &v[i]);
	bytes_u32(e, &flags);
	bytes_u32(e, &nsamples);
	bytes_u8(e, &idlen);
	bytes_u16(e, &plen);
	if (v[1] < v[0])
		return (ingest_fail(ctx, at + 8, "hi", "%#llx, below lo %#llx",
		    (unsigned long long)v[1], (unsigned long long)v[0]));
	if (!bytes_have(e, (size_t)idlen + plen))
		return (ingest_fail(ctx, at + 40, "build-id length", "%u bytes"
		    " and a path of %u, the entry has %zu after them", idlen,
		    plen, bytes_left(e)));
	if (plen == 0)
		return (ingest_fail(ctx, at + 41, "path length", "0: a"
		    " mapping names its module"));
	if ((uint64_t)nsamples * 16 != bytes_left(e) - idlen - plen)
		return (ingest_fail(ctx, at + 36, "nsamples", "%u samples need"
		    " %llu bytes, the entry has %zu", nsamples,
		    (unsigned long long)nsamples * 16, bytes_left(e) - idlen -
		    plen));
	if ((flags & PRFD_MAPPING_KERNEL) && r->have_kernel)
		return (ingest_fail(ctx, at + 32, "flags", "a second MAPPING"
		    " entry of the kernel"));
	if (r->nmaps == r->mapcap) {
		r->mapcap = r->mapcap != 0 ? r->mapcap * 2 : 16;
		r->maps = xreallocarray(r->maps, r->mapcap, sizeof *r->maps);
	}
	mp = &r->maps[r->nmaps];
	memset(mp, 0, sizeof *mp);
	mp->off = start;
	mp->flags = flags;
	mp->m.idx = (int64_t)r->nmaps;
	mp->m.lo = v[0];
	mp->m.hi = v[1];
	mp->m.pgoff = v[2];
	mp->m.bias = v[3];
	mp->m.kernel = (flags & PRFD_MAPPING_KERNEL) != 0;
	if (idlen != 0) {
		mp->m.build_id = xmalloc(2 * (size_t)idlen + 1);
		prfd_hex(e->p + e->off, idlen, mp->m.build_id);
	}
	bytes_skip(e, idlen);
	mp->m.path = xmalloc((size_t)plen + 1);
	memcpy(mp->m.path, e->p + e->off, plen);
	mp->m.path[plen] = '\0';
	r->nmaps++;
	if (strlen(mp->m.path) != plen)
		return (ingest_fail(ctx, at + PRFD_MAPPING_FIXED + idlen,
		    "path", "a NUL inside it"));
	bytes_skip(e, plen);
	mp->samples = e->p + e->off;
	mp->n = nsamples;
	r->have_kernel |= mp->m.kernel;
	for (i = 0; i < nsamples; i++) {
		at = start + 8 + (e->off);
		bytes_u64(e, &addr);
		bytes_u64(e, &n);
		if (i > 0 && addr <= prev)
			return (ingest_fail(ctx, at, "address", "%#llx after"
			    " %#llx: a mapping's addresses increase",
			    (unsigned long long)addr,
			    (unsigned long long)prev));
		if (!mp->m.kernel && (addr < v[0] || addr >= v[1]))
			return (ingest_fail(ctx, at, "address", "%#llx outside"
			    " the mapping's %#llx-%#llx",
			    (unsigned long long)addr, (unsigned long long)v[0],
			    (unsigned long long)v[1]));
		if (n > INT64_MAX - sum)
			return (ingest_fail(ctx, at + 8, "count", "the"
			    " mapping's samples add up past 2^63"));
		sum += n;
		prev = addr;
	}
	mp->m.samples = sum;
	return (0);
}

/*
 * An extension entry that may come once (*seen), of want bytes unless
 * want is 0: 0, or -1 having said which it is not.
 */
static int
prfd_ext_once(struct ingest_ctx *ctx, size_t at, int *seen,
    const char *name, uint32_t len, uint32_t want)
{
	if (*seen)
		return (ingest_fail(ctx, at, "tag", "a second %s entry",
		    name));
	*seen = 1;
	if (want != 0 && len != want)
		return (ingest_fail(ctx, at + 4, "len", "a %s entry of %u"
		    " bytes, %u expected", name, len, want));
	return (0);
}

/* The extension record: entries of tag, flags, len and len bytes. */
static int
prfd_ext(struct prfd_read *r, struct bytes *b, size_t start,
    uint64_t bufsz)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct bytes		 e;
	size_t			 end = b->off + (size_t)bufsz, at;
	uint16_t		 tag = 0, flags = 0;
	uint32_t		 len = 0, i;
	uint64_t		 v[3];
	char			*p;

	if (r->ext_off != 0)
		return (ingest_fail(ctx, start, "us_cmd", "a second extension"
		    " record (the first at offset %zu)", r->ext_off));
	r->ext_off = start;
	while (b->off < end) {
		at = b->off;
		if (end - at < 8)
			return (ingest_fail(ctx, at, "tag", "%zu bytes left in"
			    " the extension record, an entry's head has 8",
			    end - at));
		bytes_u16(b, &tag);
		bytes_u16(b, &flags);
		bytes_u32(b, &len);
		if (len > end - b->off)
			return (ingest_fail(ctx, at + 4, "len", "%u bytes, the"
			    " extension record has %zu after it", len,
			    end - b->off));
		bytes_init(&e, b->p + b->off, len);
		switch (tag) {
		case PRFD_TAG_MODULE:
			if (prfd_module(r, &e, at) != 0)
				return (-1);
			break;
		case PRFD_TAG_MAPPING:
			if (prfd_mapping(r, &e, at) != 0)
				return (-1);
			break;
		case PRFD_TAG_THREADS:
			if (prfd_ext_once(ctx, at, &r->have_tids, "THREADS",
			    len, 0) != 0)
				return (-1);
			if (bytes_u32(&e, &r->ntids) != 0 ||
			    (uint64_t)r->ntids * 4 != len - 4)
				return (ingest_fail(ctx, at + 4, "len", "a"
				    " THREADS entry of %u bytes for %u"
				    " threads", len, len >= 4 ? r->ntids : 0));
			r->tids = xreallocarray(NULL, (size_t)r->ntids + 1,
			    sizeof *r->tids);
			for (i = 0; i < r->ntids; i++)
				bytes_u32(&e, &r->tids[i]);
			break;
		case PRFD_TAG_PERIOD:
			if (prfd_ext_once(ctx, at, &r->have_period, "PERIOD",
			    len, 24) != 0)
				return (-1);
			for (i = 0; i < 3; i++)
				bytes_u64(&e, &v[i]);
			if (v[0] > INT64_MAX || v[1] > INT64_MAX ||
			    v[2] > INT64_MAX)
				return (ingest_fail(ctx, at + 8, "period", "a"
				    " value past 2^63"));
			r->d.period_ns = (int64_t)v[0];
			r->d.samples = (int64_t)v[1];
			r->d.ns = (int64_t)v[2];
			break;
		case PRFD_TAG_COMMAND:
			if (prfd_ext_once(ctx, at, &r->have_command, "COMMAND",
			    len, 0) != 0)
				return (-1);
			if (len == 0 || e.p[len - 1] != '\0')
				return (ingest_fail(ctx, at + 8, "argv", "the"
				    " last argument is not NUL-terminated"));
			r->argv0 = xstrdup((const char *)e.p);
			/* The arguments joined by spaces, for people. */
			r->command = xmalloc(len);
			memcpy(r->command, e.p, len);
			for (p = r->command; p < r->command + len - 1; p++) {
				if (*p == '\0')
					*p = ' ';
			}
			break;
		case PRFD_TAG_LIMITS:
			if (prfd_ext_once(ctx, at, &r->have_limits, "LIMITS",
			    len, 4) != 0)
				return (-1);
			/* The counters' truth: said with every report. */
			if (bytes_u32(&e, &i) == 0 && (i & 1))
				ingest_warn(ctx, at + 8, "user mode only: the"
				    " kernel refused kernel-mode samples"
				    " (perf_event_paranoid), so the kernel"
				    " counter is 0 and time in the kernel"
				    " counts as idle");
			break;
		default:
			/* A newer writer's: skipped by its length. */
			break;
		}
		(void)flags;
		b->off = at + 8 + len;
	}
	return (0);
}

/* The GNU build-id note of elf, hex in out (NULL if it has none). */
static char *
prfd_elf_build_id(Elf *elf)
{
	Elf_Scn		*scn = NULL;
	GElf_Shdr	 sh;
	GElf_Nhdr	 nh;
	Elf_Data	*d;
	size_t		 off, noff, name, desc;
	char		*out;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE)
			continue;
		if ((d = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (off = 0; (noff = gelf_getnote(d, off, &nh, &name,
		    &desc)) > 0; off = noff) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + name, "GNU", 4) != 0)
				continue;
			out = xmalloc(2 * (size_t)nh.n_descsz + 1);
			prfd_hex((const uint8_t *)d->d_buf + desc, nh.n_descsz,
			    out);
			return (out);
		}
	}
	return (NULL);
}

/*
 * elf's functions (of .symtab, or of .dynsym when dyn) that lie in
 * [lo, lo + size) once moved by bias, into the shared symbol table under
 * the module's file name base; *count says how many.
 */
static int
prfd_elf_syms(struct prfd_read *r, Elf *elf, int dyn, const char *base,
    uint64_t lo, uint64_t size, uint64_t bias, int64_t *count)
{
	Elf_Scn		*scn = NULL;
	GElf_Shdr	 sh;
	GElf_Sym	 sym;
	Elf_Data	*d;
	const char	*name;
	uint64_t	 a;
	size_t		 i, n;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type !=
		    (dyn ? SHT_DYNSYM : SHT_SYMTAB) || sh.sh_entsize == 0)
			continue;
		if ((d = elf_getdata(scn, NULL)) == NULL)
			continue;
		/* The data's size, not the header's: it may lie. */
		n = d->d_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			if (gelf_getsym(d, (int)i, &sym) == NULL ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (name == NULL || *name == '\0')
				continue;
			a = sym.st_value + bias;
			if (a < lo || a - lo >= size)
				continue;
			if (store_symbol_add(r->ctx->st, r->ctx->session,
			    base, name, a, sym.st_size) != 0)
				return (ingest_store_fail(r->ctx, "symbol"));
			(*count)++;
		}
	}
	return (0);
}

/* Whether elf has a section of type type. */
static int
prfd_elf_has(Elf *elf, unsigned type)
{
	Elf_Scn		*scn = NULL;
	GElf_Shdr	 sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type == type)
			return (1);
	}
	return (0);
}

/* The kernel's vDSO image in this process: the same in every process. */
static int
prfd_vdso(const uint8_t **p, size_t *len)
{
	const Elf64_Ehdr	*eh;
	unsigned long		 v;

	if ((v = getauxval(AT_SYSINFO_EHDR)) == 0)
		return (-1);
	eh = (const Elf64_Ehdr *)v;
	*len = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	*p = (const uint8_t *)v;
	return (*len > (1u << 20) ? -1 : 0);
}

/*
 * The symbols of a module, as perf finds them: the file at path (or one
 * beside the dump) with the dump's build-id, its .symtab, else that of
 * its debug file (ingest_debug_open), else its .dynsym; its functions
 * in [lo, lo + size) moved by the load bias (have_bias 0: the bias of
 * its executable segment, for a slot) into the shared symbol table.
 * A module that cannot be used is a warning naming what (the slot, the
 * mapping) and *why (to free) says it: the session keeps its addresses.
 */
static int
prfd_symbols(struct prfd_read *r, const char *path, const char *build_id,
    size_t off, const char *what, uint64_t lo, uint64_t size, int have_bias,
    uint64_t bias, int64_t *count, char **why)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct stat		 sb;
	Elf			*elf = NULL, *dbg = NULL;
	const char		*base, *file;
	const uint8_t		*vdso;
	char			*beside = NULL;
	char			*id = NULL, *refused = NULL;
	void			*map = MAP_FAILED;
	size_t			 len = 0;
	int			 fd = -1, dfd = -1, rc = 0;

	*why = NULL;
	elf_version(EV_CURRENT);
	file = path;
	if (strcmp(path, "[vdso]") == 0) {
		if (prfd_vdso(&vdso, &len) == 0)
			elf = elf_memory((char *)vdso, len);
		len = 0;
	} else {
		/* A FIFO named by the dump must not block the open. */
		fd = ingest_module_open(ctx, path, build_id != NULL, &beside);
		/* Messages name the file read: the dump's, or one beside. */
		file = beside != NULL ? beside : path;
		if (fd == -1 || fstat(fd, &sb) != 0 ||
		    !S_ISREG(sb.st_mode) || sb.st_size == 0) {
			*why = xasprintf("%s: not read (%s)", file, fd == -1 ?
			    "cannot open it" : "not a regular file");
			goto out;
		}
		len = (size_t)sb.st_size;
		if ((map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0)) ==
		    MAP_FAILED) {
			*why = xasprintf("%s: not read (cannot map it)", file);
			goto out;
		}
		elf = elf_memory(map, len);
	}
	if (elf == NULL || elf_kind(elf) != ELF_K_ELF) {
		*why = xasprintf("%s: not an ELF file", file);
		goto out;
	}
	id = prfd_elf_build_id(elf);
	if (build_id != NULL && (id == NULL || strcmp(id, build_id) != 0)) {
		*why = xasprintf("%s: build-id %s, the dump's %s: not the file"
		    " profiled", file, id != NULL ? id : "(none)", build_id);
		goto out;
	}
	if (!have_bias && ingest_elf_bias(elf, lo, size, &bias) != 0) {
		*why = xasprintf("%s: no executable segment", file);
		goto out;
	}
	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	if (prfd_elf_has(elf, SHT_SYMTAB))
		rc = prfd_elf_syms(r, elf, 0, base, lo, size, bias, count);
	else {
		if ((dbg = ingest_debug_open(elf, file, id,
		    INGEST_DEBUG_SYMTAB, &dfd, &refused)) != NULL)
			rc = prfd_elf_syms(r, dbg, 0, base, lo, size, bias,
			    count);
		if (refused != NULL)
			ingest_warn(ctx, off, "%s: debug file refused: %s",
			    file, refused);
	}
	if (rc == 0 && *count == 0)
		rc = prfd_elf_syms(r, elf, 1, base, lo, size, bias, count);
out:
	if (*why != NULL)
		ingest_warn(ctx, off, "%s: %s has addresses only", *why, what);
	free(beside);
	free(id);
	free(refused);
	if (dbg != NULL)
		elf_end(dbg);
	if (dfd != -1)
		close(dfd);
	if (elf != NULL)
		elf_end(elf);
	if (map != MAP_FAILED)
		munmap(map, len);
	if (fd != -1)
		close(fd);
	return (rc);
}

struct prfd_ksym {
	uint64_t	 addr;
	char		*name;
	int		 used;
};

static int
prfd_ksym_cmp(const void *a, const void *b)
{
	const struct prfd_ksym	*x = a, *y = b;

	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

/* The running kernel's build-id, hex (NULL: its notes say none). */
static char *
prfd_kernel_build_id(void)
{
	uint8_t		 buf[4096];
	Elf_Data	 d;
	GElf_Nhdr	 nh;
	ssize_t		 n;
	size_t		 off, noff, name, desc;
	char		*out;
	int		 fd;

	if ((fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC)) == -1)
		return (NULL);
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n <= 0)
		return (NULL);
	memset(&d, 0, sizeof d);
	d.d_buf = buf;
	d.d_size = (size_t)n;
	d.d_type = ELF_T_NHDR;
	d.d_version = EV_CURRENT;
	elf_version(EV_CURRENT);
	for (off = 0; (noff = gelf_getnote(&d, off, &nh, &name, &desc)) > 0;
	    off = noff) {
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp(buf + name, "GNU", 4) != 0)
			continue;
		out = xmalloc(2 * (size_t)nh.n_descsz + 1);
		prfd_hex(buf + desc, nh.n_descsz, out);
		return (out);
	}
	return (NULL);
}

/*
 * The kernel's samples named as perf names them: by /proc/kallsyms's
 * text symbols, each up to the next, when the running kernel is the
 * dump's (its build-id) and the file shows addresses (kptr_restrict
 * shows zeros to those it hides them from).  Only the symbols some
 * sample is in are stored: the kernel has a hundred thousand.
 */
static int
prfd_kallsyms(struct prfd_read *r, struct prfd_map *mp, char **why)
{
	struct prfd_ksym	*v = NULL, *k;
	char			 line[512], type, name[256], *id;
	unsigned long long	 addr;
	uint64_t		 a;
	size_t			 n = 0, cap = 0, i, j;
	int			 nonzero = 0, rc = 0;
	FILE			*f;

	*why = NULL;
	id = prfd_kernel_build_id();
	if (mp->m.build_id != NULL && (id == NULL ||
	    strcmp(id, mp->m.build_id) != 0)) {
		*why = xasprintf("the running kernel's build-id %s, the"
		    " dump's %s: not the kernel profiled", id != NULL ? id :
		    "(none)", mp->m.build_id);
		free(id);
		return (0);
	}
	free(id);
	if ((f = fopen("/proc/kallsyms", "re")) == NULL) {
		*why = xstrdup("/proc/kallsyms: cannot open it");
		return (0);
	}
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    strchr("tTwW", type) == NULL)
			continue;
		nonzero |= addr != 0;
		if (n == cap) {
			cap = cap != 0 ? 2 * cap : 4096;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[n].addr = addr;
		v[n].name = xstrdup(name);
		v[n++].used = 0;
	}
	fclose(f);
	if (!nonzero) {
		*why = xstrdup("/proc/kallsyms shows no addresses"
		    " (kernel.kptr_restrict)");
		goto out;
	}
	qsort(v, n, sizeof *v, prfd_ksym_cmp);
	for (i = 0; i < mp->n; i++) {
		a = prfd_le64(mp->samples + 16 * i);
		BSEARCH_FIRST(j, 0, n, v[j].addr <= a);
		if (j > 0)
			v[j - 1].used = 1;
	}
	for (i = 0; i < n; i++) {
		k = &v[i];
		if (!k->used)
			continue;
		if (store_symbol_add(r->ctx->st, r->ctx->session,
		    "[kernel.kallsyms]", k->name, k->addr, i + 1 < n ?
		    v[i + 1].addr - k->addr : 0) != 0) {
			rc = ingest_store_fail(r->ctx, "symbol");
			goto out;
		}
		mp->m.symbols++;
	}
out:
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	return (rc);
}

/* Each module, its samples, and its symbols where they can be found. */
static int
prfd_store_maps(struct prfd_read *r)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct prfd_map		*mp;
	char			*what, *why;
	size_t			 i, j;
	int			 rc;

	for (i = 0; i < r->nmaps; i++) {
		mp = &r->maps[i];
		if (mp->m.kernel) {
			if ((rc = prfd_kallsyms(r, mp, &why)) == 0 &&
			    why != NULL)
				ingest_warn(ctx, mp->off, "%s: the kernel's"
				    " samples stay \"kernel\"", why);
		} else if (mp->flags & PRFD_MAPPING_UNREAD) {
			rc = 0;
			if (mp->flags & PRFD_MAPPING_REPLACED)
				why = xasprintf("%s: the file there is not the"
				    " one the program mapped (replaced while"
				    " it ran), so its symbols would be another"
				    " build's", mp->m.path);
			else
				why = xasprintf("%s: pvprfd could not read it"
				    " when sampled, so its load bias is not"
				    " known", mp->m.path);
			ingest_warn(ctx, mp->off, "%s: the module mapped at"
			    " %#llx has addresses only", why,
			    (unsigned long long)mp->m.lo);
		} else {
			what = xasprintf("the module mapped at %#llx",
			    (unsigned long long)mp->m.lo);
			rc = prfd_symbols(r, mp->m.path, mp->m.build_id,
			    mp->off, what, mp->m.lo, mp->m.hi - mp->m.lo, 1,
			    mp->m.bias, &mp->m.symbols, &why);
			free(what);
		}
		mp->m.unresolved = why;
		if (rc != 0)
			return (-1);
		if (mp->m.lo > INT64_MAX && !mp->m.kernel)
			ingest_warn(ctx, mp->off, "a module mapped at %#llx,"
			    " past 2^63", (unsigned long long)mp->m.lo);
		if (store_prfd_module_add(ctx->st, ctx->session, &mp->m) != 0)
			return (ingest_store_fail(ctx, "prfd_module"));
		for (j = 0; j < mp->n; j++) {
			if (store_prfd_module_hit_add(ctx->st, ctx->session,
			    mp->m.idx, prfd_le64(mp->samples + 16 * j),
			    prfd_le64(mp->samples + 16 * j + 8)) != 0)
				return (ingest_store_fail(ctx,
				    "prfd_module_hit"));
		}
	}
	return (0);
}

static int
prfd_u64_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/*
 * Whether the hit table agrees with the detail counters: a counter holds
 * every sample of its bytes, so the table (which may have missed some)
 * never puts more in one.  v is the table sorted.  A contradiction is a
 * warning; the slot's histogram then shares by the counters alone.
 */
static void
prfd_check_hits(struct prfd_read *r, const uint64_t *v, size_t n)
{
	struct prfd_slot	*s;
	uint64_t		*per, k;
	size_t			 i, j;

	for (i = 0; i < r->nslots; i++) {
		s = &r->slots[i];
		if (s->r3_off == 0 || s->ncnts == 0)
			continue;
		/* Bounded by the bytes present: ncnts ULONGs are there. */
		per = xcalloc((size_t)s->ncnts, sizeof *per);
		/* v is sorted: the slot's addresses are one run of it. */
		BSEARCH_FIRST(j, 0, n, v[j] < s->s.vaddr);
		for (; j < n && v[j] - s->s.vaddr < s->s.size; j++) {
			k = (v[j] - s->s.vaddr) >> r->d.shift;
			if (k < s->ncnts)
				per[k]++;
		}
		for (k = 0; k < s->ncnts; k++) {
			if (per[k] > prfd_at(r, s->cnts + k * r->w)) {
				ingest_warn(r->ctx, r->r2_off, "the hit table"
				    " puts %llu samples in the counter at"
				    " %#llx, which holds %llu: the slot's"
				    " shares come from its counters alone",
				    (unsigned long long)per[k],
				    (unsigned long long)(s->s.vaddr +
				    (k << r->d.shift)), (unsigned long long)
				    prfd_at(r, s->cnts + k * r->w));
				break;
			}
		}
		free(per);
	}
}

/* The hit table by address, each address once with its count. */
static int
prfd_store_hits(struct prfd_read *r)
{
	struct ingest_ctx	*ctx = r->ctx;
	uint64_t		*v;
	size_t			 i, j;

	if (r->nhits == 0)
		return (0);
	/* Bounded by the bytes present: nhits ULONGs are in the file. */
	v = xreallocarray(NULL, (size_t)r->nhits, sizeof *v);
	for (i = 0; i < r->nhits; i++)
		v[i] = prfd_at(r, r->hits + i * r->w);
	qsort(v, (size_t)r->nhits, sizeof *v, prfd_u64_cmp);
	prfd_check_hits(r, v, (size_t)r->nhits);
	for (i = 0; i < r->nhits; i = j) {
		for (j = i; j < r->nhits && v[j] == v[i]; j++)
			;
		if (store_prfd_hit_add(ctx->st, ctx->session, v[i],
		    j - i) != 0) {
			free(v);
			return (ingest_store_fail(ctx, "prfd_hit"));
		}
	}
	free(v);
	return (0);
}

static int
prfd_slot_cmp(const void *a, const void *b)
{
	const struct prfd_slot	*x = *(struct prfd_slot *const *)a;
	const struct prfd_slot	*y = *(struct prfd_slot *const *)b;

	return (x->s.vaddr < y->s.vaddr ? -1 : x->s.vaddr > y->s.vaddr);
}

/* Slots that overlap: said once, a sample can be in only one. */
static void
prfd_check_overlap(struct prfd_read *r)
{
	struct prfd_slot	**v;
	size_t			  i;

	if (r->nslots < 2)
		return;
	v = xreallocarray(NULL, r->nslots, sizeof *v);
	for (i = 0; i < r->nslots; i++)
		v[i] = &r->slots[i];
	qsort(v, r->nslots, sizeof *v, prfd_slot_cmp);
	for (i = 1; i < r->nslots; i++) {
		if (v[i]->s.vaddr - v[i - 1]->s.vaddr < v[i - 1]->s.size) {
			ingest_warn(r->ctx, v[i]->off, "the slots at %#llx and"
			    " %#llx overlap", (unsigned long long)
			    v[i - 1]->s.vaddr, (unsigned long long)
			    v[i]->s.vaddr);
			break;
		}
	}
	free(v);
}

/* Each slot, its detail counters as bucket rows, its module's symbols. */
static int
prfd_store_slots(struct prfd_read *r)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct prfd_slot	*s;
	uint64_t		 span = (uint64_t)1 << r->d.shift, lo, hi, end;
	uint64_t		 expect, sum, c, total;
	uint32_t		 idx = 0;
	size_t			 i, k;
	char			*what, *why;
	int			 rc;

	prfd_check_overlap(r);
	for (i = 0; i < r->nslots; i++) {
		s = &r->slots[i];
		s->s.idx = (int64_t)i;
		s->s.bucket_first = -1;
		end = s->s.vaddr + s->s.size;
		if (s->r3_off != 0) {
			if (s->r3_size != s->s.size)
				ingest_warn(ctx, s->r3_off, "PRFRET3 at %#llx:"
				    " r3_size %llu, the slot's %llu; the"
				    " slot's is used", (unsigned long long)
				    s->s.vaddr, (unsigned long long)s->r3_size,
				    (unsigned long long)s->s.size);
			expect = (s->s.size >> r->d.shift) +
			    ((s->s.size & (span - 1)) != 0);
			if (s->ncnts != expect)
				ingest_warn(ctx, s->r3_off, "PRFRET3 at %#llx:"
				    " %llu counters, %llu bytes in counters of"
				    " 2^%u make %llu", (unsigned long long)
				    s->s.vaddr, (unsigned long long)s->ncnts,
				    (unsigned long long)s->s.size, r->d.shift,
				    (unsigned long long)expect);
			s->s.bucket_first = idx;
			sum = 0;
			for (k = 0; k < s->ncnts; k++) {
				lo = s->s.vaddr + ((uint64_t)k << r->d.shift);
				/* Counters past the slot (the bytes said so). */
				if (lo < s->s.vaddr || lo >= end)
					break;
				hi = lo + span < lo || lo + span > end ? end :
				    lo + span;
				c = prfd_at(r, s->cnts + k * r->w);
				/* Samples are counted: they fit 63 bits. */
				if (c > INT64_MAX - sum)
					return (ingest_fail(ctx, s->r3_off +
					    3 + 4 * (size_t)r->w + k * r->w,
					    "r3_cnts", "the slot's counters add"
					    " up past 2^63"));
				sum += c;
				if (idx == UINT32_MAX)
					return (ingest_fail(ctx, s->r3_off,
					    "r3_ncnts", "more than 2^32 detail"
					    " counters"));
				if (store_bucket_add(ctx->st, ctx->session,
				    idx++, lo, hi, c) != 0)
					return (ingest_store_fail(ctx,
					    "bucket"));
			}
			if (k < s->ncnts)
				ingest_warn(ctx, s->r3_off, "PRFRET3 at %#llx:"
				    " %llu counters lie past the slot's end;"
				    " they are ignored", (unsigned long long)
				    s->s.vaddr, (unsigned long long)(s->ncnts -
				    k));
			s->s.nbuckets = (int64_t)(idx - s->s.bucket_first);
			if (s->from_r3)
				s->s.cnt = sum;
			else if (sum != s->s.cnt)
				ingest_warn(ctx, s->r3_off, "PRFRET3 at %#llx:"
				    " its counters add up to %llu, va_cnt says"
				    " %llu", (unsigned long long)s->s.vaddr,
				    (unsigned long long)sum,
				    (unsigned long long)s->s.cnt);
		}
		if (s->s.module != NULL) {
			what = xasprintf("the slot at %#llx",
			    (unsigned long long)s->s.vaddr);
			rc = prfd_symbols(r, s->s.module, s->s.build_id,
			    s->mod_off, what, s->s.vaddr, s->s.size, 0, 0,
			    &s->s.symbols, &why);
			free(what);
			free(why);
			if (rc != 0)
				return (-1);
		}
		if (s->s.cnt > INT64_MAX || s->s.vaddr > INT64_MAX ||
		    s->s.size > INT64_MAX || s->s.flags > INT64_MAX)
			return (ingest_fail(ctx, s->off, "va_vaddr", "slot %zu:"
			    " a value past 2^63 (SQLite's integers)", i));
		if (store_prfd_slot_add(ctx->st, ctx->session, &s->s) != 0)
			return (ingest_store_fail(ctx, "prfd_slot"));
	}
	/* Every sample is in one counter: together they fit 63 bits. */
	total = 0;
	for (i = 0; i < 5; i++) {
		c = i == 0 ? r->d.idle : i == 1 ? r->d.vm86 : i == 2 ?
		    r->d.kernel : i == 3 ? r->d.shrmem : r->d.unknown;
		if (c > INT64_MAX - total)
			return (ingest_fail(ctx, r->r0_off, "PRFRET0", "the"
			    " global counters add up past 2^63"));
		total += c;
	}
	for (i = 0; i < r->nslots; i++) {
		if (r->slots[i].s.cnt > INT64_MAX - total)
			return (ingest_fail(ctx, r->slots[i].off + 4 *
			    (size_t)r->w, "va_cnt", "the samples add up past"
			    " 2^63"));
		total += r->slots[i].s.cnt;
	}
	/* The modules' samples are among them (the kernel's are its). */
	for (i = 0; i < r->nmaps; i++) {
		if (r->maps[i].m.kernel)
			continue;
		if (r->maps[i].m.samples > INT64_MAX - total)
			return (ingest_fail(ctx, r->maps[i].off + 8 + 36,
			    "nsamples", "the samples add up past 2^63"));
		total += r->maps[i].m.samples;
	}
	return (0);
}

/* Values the store keeps as signed 64-bit integers. */
static int
prfd_check_i64(struct prfd_read *r)
{
	const uint64_t	v[] = { r->d.idle, r->d.vm86, r->d.kernel,
	    r->d.shrmem, r->d.unknown, r->d.nhitbufs, r->d.hitbufcnt };
	size_t		i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		if (v[i] > INT64_MAX)
			return (ingest_fail(r->ctx, r->r0_off + 7 + 2 *
			    (size_t)r->w + i * r->w, "PRFRET0", "a counter"
			    " past 2^63 (SQLite's integers)"));
	}
	for (i = 0; i < r->nthreads; i++) {
		if (r->threads[i].idle > INT64_MAX ||
		    r->threads[i].vm86 > INT64_MAX ||
		    r->threads[i].kernel > INT64_MAX ||
		    r->threads[i].shrmem > INT64_MAX ||
		    r->threads[i].unknown > INT64_MAX ||
		    r->threads[i].hitbufcnt > INT64_MAX)
			return (ingest_fail(r->ctx, PRFD_HEADER, "PRFRET0",
			    "thread %u: a counter past 2^63",
			    r->threads[i].thrdno));
	}
	return (0);
}

static int
prfd_records(struct prfd_read *r, struct bytes *b)
{
	struct ingest_ctx	*ctx = r->ctx;
	size_t			 start;
	uint8_t			 cmd;
	uint16_t		 thrdno;
	uint64_t		 vaddr, bufsz;
	int			 rc;

	while (bytes_left(b) != 0) {
		start = b->off;
		bytes_u8(b, &cmd);
		if (bytes_u16(b, &thrdno) != 0)
			return (ingest_fail(ctx, b->off, "us_thrdno", "file"
			    " ends inside a record's head (%zu bytes of"
			    " %u)", bytes_left(b) + 1, 3 + 2 * r->w));
		if (prfd_ulong(r, b, &vaddr) != 0)
			return (ingest_fail(ctx, b->off, "us_vaddr", "file"
			    " ends inside a record's head (%zu bytes of"
			    " %u)", bytes_left(b) + 3, 3 + 2 * r->w));
		if (prfd_ulong(r, b, &bufsz) != 0)
			return (ingest_fail(ctx, b->off, "us_bufsz", "file"
			    " ends inside a record's head (%zu bytes of"
			    " %u)", bytes_left(b) + 3 + r->w, 3 + 2 * r->w));
		if (!bytes_have(b, bufsz))
			return (ingest_fail(ctx, start + 3 + r->w, "us_bufsz",
			    "%llu bytes, the file has %zu after the record's"
			    " head", (unsigned long long)bufsz,
			    bytes_left(b)));
		rc = 0;
		switch (cmd) {
		case 0:
			rc = prfd_global(r, b, start, thrdno, bufsz);
			break;
		case 1:
			rc = prfd_slots(r, b, start, bufsz);
			break;
		case 2:
			rc = prfd_hits(r, b, start, bufsz);
			break;
		case 3:
			rc = prfd_detail(r, b, start, vaddr, bufsz);
			break;
		case PRFD_EXT:
			rc = prfd_ext(r, b, start, bufsz);
			break;
		default:
			ingest_warn(ctx, start, "us_cmd %u unknown: its %llu"
			    " bytes are skipped", cmd,
			    (unsigned long long)bufsz);
			break;
		}
		if (rc != 0)
			return (-1);
		/* Wherever its reading stopped, the next record is here. */
		b->off = start + 3 + 2 * r->w + (size_t)bufsz;
		ingest_progress(ctx, b->off);
	}
	return (0);
}

static int
prfd_load(struct ingest_ctx *ctx)
{
	struct prfd_read	 r;
	struct bytes		 b;
	uint16_t		 version;
	uint8_t			 width, reserved;
	uint32_t		 pid;
	size_t			 i;
	int			 rc = -1;

	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	bytes_init(&b, ctx->buf, ctx->len);
	if (!bytes_peek_eq(&b, "PRFD", 4))
		return (ingest_fail(ctx, 0, "magic", "not PRFD"));
	bytes_skip(&b, 4);
	if (bytes_u16(&b, &version) != 0)
		return (ingest_fail(ctx, 4, "version", "file ends inside the"
		    " header (%zu bytes of %d)", ctx->len, PRFD_HEADER));
	if (version != 1 && version != 2)
		return (ingest_fail(ctx, 4, "version", "%u unknown (1 or 2"
		    " expected)", version));
	if (bytes_u8(&b, &width) != 0)
		return (ingest_fail(ctx, 6, "width", "file ends inside the"
		    " header (%zu bytes of %d)", ctx->len, PRFD_HEADER));
	if (width != 4 && width != 8)
		return (ingest_fail(ctx, 6, "width", "%u bytes in a ULONG (4"
		    " or 8 expected)", width));
	if (bytes_u8(&b, &reserved) != 0)
		return (ingest_fail(ctx, 7, "reserved", "file ends inside the"
		    " header (%zu bytes of %d)", ctx->len, PRFD_HEADER));
	if (bytes_u32(&b, &pid) != 0)
		return (ingest_fail(ctx, 8, "pid", "file ends inside the"
		    " header (%zu bytes of %d)", ctx->len, PRFD_HEADER));
	if (bytes_u16(&b, &r.d.timval) != 0)
		return (ingest_fail(ctx, 12, "timval", "file ends inside the"
		    " header (%zu bytes of %d)", ctx->len, PRFD_HEADER));
	if (reserved != 0)
		ingest_warn(ctx, 7, "reserved byte %u, 0 expected", reserved);
	r.w = width;
	r.d.width = width;
	r.d.pid = pid;
	r.d.period_ns = r.d.samples = r.d.ns = -1;
	r.thread_seen = xcalloc(PRFD_MAXTHREAD + 1, 1);

	if (prfd_records(&r, &b) != 0)
		goto out;
	if (!r.have_global) {
		ingest_fail(ctx, ctx->len, "us_cmd", "no PRF_RET_GLOBAL record"
		    " of the process (us_thrdno 0)");
		goto out;
	}
	if (prfd_check_i64(&r) != 0)
		goto out;
	if (r.r2_off != 0 && r.d.hitbufcnt != r.nhits)
		ingest_warn(ctx, r.r2_off, "r0_hitbufcnt %llu, the hit table"
		    " holds %llu addresses; those are read",
		    (unsigned long long)r.d.hitbufcnt,
		    (unsigned long long)r.nhits);
	if (r.have_tids && r.ntids != r.nthreads)
		ingest_warn(ctx, r.ext_off, "THREADS lists %u threads, %zu"
		    " PRF_RET_GLOBAL records are of threads", r.ntids,
		    r.nthreads);
	for (i = 0; i < r.nthreads; i++) {
		if (r.have_tids && r.threads[i].thrdno <= r.ntids)
			r.threads[i].tid = r.tids[r.threads[i].thrdno - 1];
	}
	r.d.extension = r.ext_off != 0;
	r.d.hit_table = r.r2_off != 0;
	r.d.command = r.command;
	if (store_prfd_add(ctx->st, ctx->session, &r.d) != 0) {
		ingest_store_fail(ctx, "prfd");
		goto out;
	}
	/* The global counters as every kind's counters are, too. */
	if (store_counter_add(ctx->st, ctx->session, "idle",
	    (int64_t)r.d.idle) != 0 || store_counter_add(ctx->st,
	    ctx->session, "vm86", (int64_t)r.d.vm86) != 0 ||
	    store_counter_add(ctx->st, ctx->session, "kernel",
	    (int64_t)r.d.kernel) != 0 || store_counter_add(ctx->st,
	    ctx->session, "shrmem", (int64_t)r.d.shrmem) != 0 ||
	    store_counter_add(ctx->st, ctx->session, "unknown",
	    (int64_t)r.d.unknown) != 0) {
		ingest_store_fail(ctx, "counter");
		goto out;
	}
	for (i = 0; i < r.nthreads; i++) {
		if (store_prfd_thread_add(ctx->st, ctx->session,
		    &r.threads[i]) != 0) {
			ingest_store_fail(ctx, "prfd_thread");
			goto out;
		}
	}
	if (prfd_store_slots(&r) != 0 || prfd_store_hits(&r) != 0 ||
	    prfd_store_maps(&r) != 0)
		goto out;
	if (r.argv0 != NULL && *r.argv0 != '\0')
		ctx->program = xstrdup(r.argv0);
	rc = 0;
out:
	for (i = 0; i < r.nslots; i++) {
		free(r.slots[i].s.module);
		free(r.slots[i].s.build_id);
	}
	for (i = 0; i < r.nmaps; i++) {
		free(r.maps[i].m.path);
		free(r.maps[i].m.build_id);
		free(r.maps[i].m.unresolved);
	}
	free(r.maps);
	free(r.slots);
	free(r.hash);
	free(r.threads);
	free(r.thread_seen);
	free(r.tids);
	free(r.command);
	free(r.argv0);
	return (rc);
}

const struct ingest_reader ingest_prfd_reader = {
	prfd_detect,
	prfd_load,
};
