/*
 * pvheap snapshots (NAME.heap, profview-formats(5), HEAP FILES): the
 * reader, and memcheck's leak rules over what it read.
 *
 * The parse checks everything once: the header, the section table, each
 * section's place and size, and then every index and string offset in
 * every record and the order of the blocks and edges.  What it gives
 * back are views into the file's bytes, but for the blocks and their
 * pointers: those are read out once into an array per field and the
 * pointers by source block (ingest/heap.h), from version 2's packed
 * BLKV or version 1's BLKS and EDGS records alike, so each consumer has
 * one path and reads only the fields it needs.  A bad file gets one
 * error that names the file, the byte offset and the field.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "capture/pvheap/heapfmt.h"
#include "ingest/bytes.h"
#include "ingest/ingest.h"
#include "ingest/heap.h"
#include "store/heap.h"

struct heap_known {
	const char	*tag;
	uint32_t	 min;
	size_t		 off;		/* of its struct ingest_heap_sec */
};

#define KNOWN(t, s, f)	{ t, s, offsetof(struct ingest_heap, f) }
static const struct heap_known heap_known[] = {
	KNOWN(HEAPFMT_INFO, HEAPFMT_INFO_SIZE, info),
	KNOWN(HEAPFMT_STRS, 1, strs),
	KNOWN(HEAPFMT_CNTR, HEAPFMT_CNTR_SIZE, cntr),
	KNOWN(HEAPFMT_MODS, HEAPFMT_MODS_SIZE, mods),
	KNOWN(HEAPFMT_IMPS, HEAPFMT_IMPS_SIZE, imps),
	KNOWN(HEAPFMT_THRS, HEAPFMT_THRS_SIZE, thrs),
	KNOWN(HEAPFMT_REGN, HEAPFMT_REGN_SIZE, regn),
	KNOWN(HEAPFMT_LOCS, HEAPFMT_LOCS_SIZE, locs),
	KNOWN(HEAPFMT_FRMS, HEAPFMT_FRMS_SIZE, frms),
	KNOWN(HEAPFMT_SITE, HEAPFMT_SITE_SIZE, site),
	KNOWN(HEAPFMT_TYPE, HEAPFMT_TYPE_SIZE, type),
	KNOWN(HEAPFMT_BLKS, HEAPFMT_BLKS_SIZE, blks),
	KNOWN(HEAPFMT_EDGS, HEAPFMT_EDGS_SIZE, edgs),
	KNOWN(HEAPFMT_ROOT, HEAPFMT_ROOT_SIZE, root),
	KNOWN(HEAPFMT_DATA, 1, data),
	KNOWN(HEAPFMT_BLKV, 1, blkv),
};
#define NKNOWN	(sizeof heap_known / sizeof heap_known[0])

static uint32_t
rd32(const uint8_t *p)
{
	return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24);
}

static uint64_t
rd64(const uint8_t *p)
{
	return ((uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32);
}

static size_t	heap_v_where(const struct ingest_heap_sec *, int, uint64_t);

/*
 * The file offset of field off of record i of section s; of version 2's
 * blocks and pointers, where block or pointer i's packed bytes start.
 */
static size_t
heap_at(const struct ingest_heap_sec *s, uint64_t i, unsigned off)
{
	if (s->packed != NULL)
		return (heap_v_where(s->packed, strcmp(s->tag, HEAPFMT_EDGS) ==
		    0, i));
	return ((size_t)(s->off + i * s->size + off));
}

/*
 * The most bytes of text the records may name, counted each time one
 * names it: a string is stored with each row that names it, so one long
 * string named by thousands of small records made a store thousands of
 * times the file.  pvheap's strings are each named a few times.
 */
#define HEAP_TEXT_TIMES	8
#define HEAP_TEXT_MIN	((uint64_t)4 << 20)

/* String str, named by field at, goes to the store: count it. */
static int
heap_text(struct ingest_ctx *ctx, struct ingest_heap *h, const char *str,
    size_t at, const char *field)
{
	uint64_t	max = (uint64_t)ctx->len * HEAP_TEXT_TIMES +
			    HEAP_TEXT_MIN;

	/* Never more than one byte past max: strnlen bounds the work. */
	h->text += strnlen(str, (size_t)(max - h->text + 1));
	if (h->text <= max)
		return (0);
	return (ingest_fail(ctx, at, field, "the strings the records name come"
	    " to more than %llu bytes (%d times the file's size and %llu"
	    " MiB): a string named again and again", (unsigned long long)max,
	    HEAP_TEXT_TIMES, (unsigned long long)(HEAP_TEXT_MIN >> 20)));
}

/*
 * Refuse the file at field name of record i of section s (tag): every
 * check of a record names it TAG[i].name, at its offset.
 */
static int __attribute__((format(printf, 7, 8)))
heap_bad(struct ingest_ctx *ctx, const struct ingest_heap_sec *s,
    const char *tag, uint64_t i, unsigned off, const char *name,
    const char *fmt, ...)
{
	va_list	 ap;
	char	 field[48], *detail;
	int	 rc;

	snprintf(field, sizeof field, "%s[%llu].%s", tag,
	    (unsigned long long)i, name);
	va_start(ap, fmt);
	detail = xvasprintf(fmt, ap);
	va_end(ap);
	rc = ingest_fail(ctx, heap_at(s, i, off), field, "%s", detail);
	free(detail);
	return (rc);
}

/*
 * A string offset must fall inside STRS, whose last byte is NUL; the
 * string counts towards the text the store gets.
 */
static int
heap_str(struct ingest_ctx *ctx, struct ingest_heap *h,
    const struct ingest_heap_sec *s, const char *tag, uint64_t i,
    unsigned off, const char *name)
{
	uint32_t	v = ingest_heap_u32(s, i, off);
	char		field[48];

	snprintf(field, sizeof field, "%s[%llu].%s", tag,
	    (unsigned long long)i, name);
	if (v < h->strs.count)
		return (heap_text(ctx, h, (const char *)h->strs.p + v,
		    heap_at(s, i, off), field));
	return (heap_bad(ctx, s, tag, i, off, name, "string offset %u is"
	    " past the string table (%llu bytes)", v,
	    (unsigned long long)h->strs.count));
}

static int __attribute__((cold, noinline))
heap_idx_bad(struct ingest_ctx *ctx, const struct ingest_heap_sec *s,
    const char *tag, uint64_t i, unsigned off, const char *name, uint32_t v,
    const char *ttag, uint64_t n)
{
	return (heap_bad(ctx, s, tag, i, off, name, "%u is not a record of"
	    " %s (%llu records)", v, ttag, (unsigned long long)n));
}

/*
 * Index v, field off of record i of s, into section t (n records); none
 * allows HEAPFMT_NONE.  The test inline (gcc would not: a call with ten
 * arguments) and the error apart: it is asked five million times of 1M
 * blocks with 3M pointers, and the calls were 2 % of the ingest.
 */
static inline int __attribute__((always_inline))
heap_idx_is(struct ingest_ctx *ctx, const struct ingest_heap_sec *s,
    const char *tag, uint64_t i, unsigned off, const char *name, uint32_t v,
    const char *ttag, uint64_t n, int none)
{
	if (v < n || (none && v == HEAPFMT_NONE))
		return (0);
	return (heap_idx_bad(ctx, s, tag, i, off, name, v, ttag, n));
}

static int
heap_idx(struct ingest_ctx *ctx, const struct ingest_heap_sec *s,
    const char *tag, uint64_t i, unsigned off, const char *name,
    const char *ttag, uint64_t n, int none)
{
	return (heap_idx_is(ctx, s, tag, i, off, name, ingest_heap_u32(s, i,
	    off), ttag, n, none));
}

/*
 * A 64-bit count, time, size or address the store keeps: SQLite's
 * integers are signed, so 2^63 and more would come back negative.  No
 * process has an address or a count that large; such a field is damage.
 */
static inline int
heap_u63_is(struct ingest_ctx *ctx, const struct ingest_heap_sec *s,
    const char *tag, uint64_t i, unsigned off, const char *name, uint64_t v)
{
	if (v <= INT64_MAX)
		return (0);
	return (heap_bad(ctx, s, tag, i, off, name, "%llu is 2^63 or more,"
	    " past what the store's integers hold", (unsigned long long)v));
}

static int
heap_u63(struct ingest_ctx *ctx, const struct ingest_heap_sec *s,
    const char *tag, uint64_t i, unsigned off, const char *name)
{
	return (heap_u63_is(ctx, s, tag, i, off, name, ingest_heap_u64(s, i,
	    off)));
}

/*
 * A run of records of section t: a first index at off and a count in
 * the next field, both inside t.
 */
static int
heap_run(struct ingest_ctx *ctx, const struct ingest_heap_sec *s,
    const char *tag, uint64_t i, unsigned off, const char *fname,
    const char *nname, const struct ingest_heap_sec *t)
{
	uint64_t	first = ingest_heap_u32(s, i, off);
	uint64_t	n = ingest_heap_u32(s, i, off + 4);
	int		bad_first = first > t->count;

	if (first + n <= t->count)
		return (0);
	return (heap_bad(ctx, s, tag, i, bad_first ? off : off + 4,
	    bad_first ? fname : nname, "records %llu..%llu are past %s (%llu"
	    " records)",
	    (unsigned long long)first, (unsigned long long)(first + n),
	    t->tag != NULL ? t->tag : "its section",
	    (unsigned long long)t->count));
}

static int
heap_sections(struct ingest_ctx *ctx, struct ingest_heap *h,
    uint32_t nsec, uint32_t hsize)
{
	struct ingest_heap_sec	*s, *order[NKNOWN], *t;
	const struct heap_known	*k;
	const uint8_t		*e;
	uint64_t		 off, count, bytes;
	uint32_t		 size, i;
	size_t			 j, n = 0, at, end;
	char			 tag[5], field[32];

	end = hsize + (size_t)nsec * HEAPFMT_SECTION;
	for (i = 0; i < nsec; i++) {
		at = hsize + (size_t)i * HEAPFMT_SECTION;
		e = ctx->buf + at;
		memcpy(tag, e, 4);
		tag[4] = '\0';
		for (j = 0; j < 4; j++) {
			if (tag[j] < 0x20 || tag[j] > 0x7e)
				tag[j] = '?';
		}
		size = rd32(e + 4);
		off = rd64(e + 8);
		count = rd64(e + 16);
		for (j = 0; j < NKNOWN; j++) {
			if (memcmp(e, heap_known[j].tag, 4) == 0)
				break;
		}
		snprintf(field, sizeof field, "%s.record_size", tag);
		if (size == 0)
			return (ingest_fail(ctx, at + 4, field, "0"));
		if (j < NKNOWN && size < heap_known[j].min)
			return (ingest_fail(ctx, at + 4, field, "%u bytes, less"
			    " than the %u of version %u.0", size,
			    heap_known[j].min, h->major));
		snprintf(field, sizeof field, "%s.offset", tag);
		if (off % 8 != 0)
			return (ingest_fail(ctx, at + 8, field, "%llu is not a"
			    " multiple of 8", (unsigned long long)off));
		if (off < end || off > ctx->len)
			return (ingest_fail(ctx, at + 8, field, "%llu is not"
			    " between the section table's end (%zu) and the"
			    " file's (%zu)", (unsigned long long)off, end,
			    ctx->len));
		snprintf(field, sizeof field, "%s.count", tag);
		if (count > (ctx->len - off) / size)
			return (ingest_fail(ctx, at + 16, field, "%llu records"
			    " of %u bytes need more than the %llu bytes from"
			    " offset %llu to the end of the file",
			    (unsigned long long)count, size,
			    (unsigned long long)(ctx->len - off),
			    (unsigned long long)off));
		if (j == NKNOWN)
			continue;	/* a later minor version's: skipped */
		k = &heap_known[j];
		s = (struct ingest_heap_sec *)((char *)h + k->off);
		if (s->p != NULL)
			return (ingest_fail(ctx, at, tag, "a second %s"
			    " section", tag));
		s->p = ctx->buf + off;
		s->off = off;
		s->size = size;
		s->count = count;
		s->at = at;
		s->tag = k->tag;
		/* In order of offset, to find overlaps. */
		for (j = n; j > 0 && order[j - 1]->off > off; j--)
			order[j] = order[j - 1];
		order[j] = s;
		n++;
	}
	for (j = 1; j < n; j++) {
		t = order[j - 1];
		bytes = t->count * t->size;
		if (t->off + bytes > order[j]->off) {
			snprintf(field, sizeof field, "%s.offset",
			    order[j]->tag);
			return (ingest_fail(ctx, order[j]->at + 8, field,
			    "%llu is inside the %s section (%llu..%llu)",
			    (unsigned long long)order[j]->off, t->tag,
			    (unsigned long long)t->off,
			    (unsigned long long)(t->off + bytes)));
		}
	}
	return (0);
}

/* The records of every section: indices, strings, order. */
static int
heap_records(struct ingest_ctx *ctx, struct ingest_heap *h)
{
	const struct ingest_heap_sec *s;
	const struct ingest_heap_blocks *bk = &h->b;
	struct ingest_heap_ptrs *ep = &h->e;
	uint64_t	 i, prev = 0, addr, size, end, off, sum, nimp = 0;
	uint64_t	 nblk = bk->count, src, word, psrc = 0, pword = 0, b;
	uint32_t	 v, dst;
	const char	*fn;
	char		 field[48];

	s = &h->info;
	if (heap_str(ctx, h, s, "INFO", 0, HF_INFO_PROGRAM, "program") ||
	    heap_str(ctx, h, s, "INFO", 0, HF_INFO_CMDLINE, "cmdline") ||
	    heap_str(ctx, h, s, "INFO", 0, HF_INFO_CWD, "cwd") ||
	    heap_u63(ctx, s, "INFO", 0, HF_INFO_TIME_NS, "time_ns") ||
	    heap_u63(ctx, s, "INFO", 0, HF_INFO_STOP_NS, "stop_ns") ||
	    heap_u63(ctx, s, "INFO", 0, HF_INFO_SEQ, "seq") ||
	    heap_u63(ctx, s, "INFO", 0, HF_INFO_STARTED_NS, "started_ns"))
		return (-1);
	/* All of every block is kept as -1; any other value is a count. */
	if (h->contents != HEAPFMT_CONTENTS_ALL &&
	    heap_u63(ctx, s, "INFO", 0, HF_INFO_CONTENTS, "contents"))
		return (-1);
	for (i = 0, s = &h->cntr; i < s->count; i++) {
		if (heap_str(ctx, h, s, "CNTR", i, HF_CNTR_NAME, "name") ||
		    heap_u63(ctx, s, "CNTR", i, HF_CNTR_VALUE, "value"))
			return (-1);
	}
	for (i = 0, s = &h->mods; i < s->count; i++) {
		if (heap_u63(ctx, s, "MODS", i, HF_MODS_BASE, "base") ||
		    heap_u63(ctx, s, "MODS", i, HF_MODS_LO, "lo") ||
		    heap_u63(ctx, s, "MODS", i, HF_MODS_HI, "hi") ||
		    heap_u63(ctx, s, "MODS", i, HF_MODS_CODE, "code") ||
		    heap_u63(ctx, s, "MODS", i, HF_MODS_DATA, "data"))
			return (-1);
		if (heap_str(ctx, h, s, "MODS", i, HF_MODS_PATH, "path") ||
		    heap_str(ctx, h, s, "MODS", i, HF_MODS_BUILD_ID,
		    "build_id") ||
		    heap_str(ctx, h, s, "MODS", i, HF_MODS_SONAME, "soname"))
			return (-1);
		if (heap_run(ctx, s, "MODS", i, HF_MODS_FIRST_IMPORT,
		    "first_import", "nimports", &h->imps))
			return (-1);
		/*
		 * Each module's imports are its own: runs that overlap would
		 * make modules x imports rows of a small file.
		 */
		nimp += ingest_heap_u32(s, i, HF_MODS_NIMPORTS);
		if (nimp > h->imps.count) {
			return (heap_bad(ctx, s, "MODS", i, HF_MODS_NIMPORTS,
			    "nimports", "the modules claim %llu"
			    " imports of %llu records",
			    (unsigned long long)nimp,
			    (unsigned long long)h->imps.count));
		}
	}
	for (i = 0, s = &h->imps; i < s->count; i++) {
		if (heap_idx(ctx, s, "IMPS", i, HF_IMPS_MODULE, "module",
		    "MODS", h->mods.count, 0) ||
		    heap_str(ctx, h, s, "IMPS", i, HF_IMPS_NAME, "name") ||
		    heap_idx(ctx, s, "IMPS", i, HF_IMPS_TARGET, "target",
		    "MODS", h->mods.count, 1))
			return (-1);
	}
	for (i = 0, s = &h->thrs; i < s->count; i++) {
		if (heap_str(ctx, h, s, "THRS", i, HF_THRS_NAME, "name") ||
		    heap_idx(ctx, s, "THRS", i, HF_THRS_REGS, "regs", "REGN",
		    h->regn.count, 1))
			return (-1);
	}
	for (i = 0, s = &h->regn; i < s->count; i++) {
		if (heap_u63(ctx, s, "REGN", i, HF_REGN_LO, "lo") ||
		    heap_u63(ctx, s, "REGN", i, HF_REGN_HI, "hi"))
			return (-1);
		if (ingest_heap_u64(s, i, HF_REGN_LO) >
		    ingest_heap_u64(s, i, HF_REGN_HI)) {
			return (heap_bad(ctx, s, "REGN", i, HF_REGN_HI, "hi",
			    "the region ends before it starts"));
		}
		if (heap_str(ctx, h, s, "REGN", i, HF_REGN_NAME, "name") ||
		    heap_idx(ctx, s, "REGN", i, HF_REGN_MODULE, "module",
		    "MODS", h->mods.count, 1) ||
		    heap_idx(ctx, s, "REGN", i, HF_REGN_THREAD, "thread",
		    "THRS", h->thrs.count, 1))
			return (-1);
	}
	for (i = 0, s = &h->locs; i < s->count; i++) {
		if (heap_u63(ctx, s, "LOCS", i, HF_LOCS_PC, "pc") ||
		    heap_idx(ctx, s, "LOCS", i, HF_LOCS_MODULE, "module",
		    "MODS", h->mods.count, 1) ||
		    heap_str(ctx, h, s, "LOCS", i, HF_LOCS_FUNCTION,
		    "function") ||
		    heap_str(ctx, h, s, "LOCS", i, HF_LOCS_FILE, "file"))
			return (-1);
		/*
		 * Its frame has the function twice (its text too) and the
		 * module's name, or the module's name twice without one.
		 */
		snprintf(field, sizeof field, "LOCS[%llu].function",
		    (unsigned long long)i);
		fn = ingest_heap_str(h, ingest_heap_u32(s, i,
		    HF_LOCS_FUNCTION));
		if (heap_text(ctx, h, fn, heap_at(s, i, HF_LOCS_FUNCTION),
		    field) != 0)
			return (-1);
		/* A stack's text is a line per frame (the heap map's). */
		if (strchr(fn, '\n') != NULL)
			return (ingest_fail(ctx, heap_at(s, i,
			    HF_LOCS_FUNCTION), field, "a name with a line end"));
		v = ingest_heap_u32(s, i, HF_LOCS_MODULE);
		snprintf(field, sizeof field, "LOCS[%llu].module",
		    (unsigned long long)i);
		if (v != HEAPFMT_NONE && (heap_text(ctx, h, ingest_heap_str(h,
		    ingest_heap_u32(&h->mods, v, HF_MODS_PATH)),
		    heap_at(s, i, HF_LOCS_MODULE), field) != 0 ||
		    heap_text(ctx, h, ingest_heap_str(h, ingest_heap_u32(
		    &h->mods, v, HF_MODS_PATH)), heap_at(s, i,
		    HF_LOCS_MODULE), field) != 0))
			return (-1);
	}
	for (i = 0, s = &h->frms; i < s->count; i++) {
		if (heap_idx(ctx, s, "FRMS", i, HF_FRMS_LOC, "loc", "LOCS",
		    h->locs.count, 0))
			return (-1);
	}
	for (i = 0, s = &h->site; i < s->count; i++) {
		if (heap_run(ctx, s, "SITE", i, HF_SITE_FIRST_FRAME,
		    "first_frame", "nframes", &h->frms))
			return (-1);
		/* Frames may be shared between sites, but no deeper. */
		if (ingest_heap_u32(s, i, HF_SITE_NFRAMES) >
		    HEAPFMT_DEPTH_MAX) {
			return (heap_bad(ctx, s, "SITE", i, HF_SITE_NFRAMES,
			    "nframes", "%u frames, more than the"
			    " %d a stack keeps", ingest_heap_u32(s, i,
			    HF_SITE_NFRAMES), HEAPFMT_DEPTH_MAX));
		}
		if (heap_idx(ctx, s, "SITE", i, HF_SITE_TYPE, "type", "TYPE",
		    h->type.count, 1) ||
		    heap_u63(ctx, s, "SITE", i, HF_SITE_ALLOCS, "allocs") ||
		    heap_u63(ctx, s, "SITE", i, HF_SITE_FREES, "frees") ||
		    heap_u63(ctx, s, "SITE", i, HF_SITE_BYTES, "bytes") ||
		    heap_u63(ctx, s, "SITE", i, HF_SITE_PEAK, "peak") ||
		    heap_u63(ctx, s, "SITE", i, HF_SITE_LIVE_BYTES,
		    "live_bytes") ||
		    heap_u63(ctx, s, "SITE", i, HF_SITE_LIVE_BLOCKS,
		    "live_blocks"))
			return (-1);
	}
	for (i = 0, s = &h->type; i < s->count; i++) {
		if (heap_str(ctx, h, s, "TYPE", i, HF_TYPE_NAME, "name") ||
		    heap_idx(ctx, s, "TYPE", i, HF_TYPE_MODULE, "module",
		    "MODS", h->mods.count, 1) ||
		    heap_idx(ctx, s, "TYPE", i, HF_TYPE_SITE, "site", "SITE",
		    h->site.count, 1) ||
		    heap_u63(ctx, s, "TYPE", i, HF_TYPE_VTABLE, "vtable"))
			return (-1);
	}
	sum = 0;
	for (i = 0, s = &h->blks; i < nblk; i++) {
		addr = bk->addr[i];
		size = bk->size[i];
		if (heap_u63_is(ctx, s, "BLKS", i, HF_BLKS_ADDR, "addr", addr) ||
		    heap_u63_is(ctx, s, "BLKS", i, HF_BLKS_SEQ, "seq",
		    bk->seq[i]))
			return (-1);
		if (i != 0 && addr <= prev) {
			return (heap_bad(ctx, s, "BLKS", i, HF_BLKS_ADDR,
			    "addr", "%#llx is not above the block before it"
			    " (%#llx): blocks go by address",
			    (unsigned long long)addr,
			    (unsigned long long)prev));
		}
		if (size > UINT64_MAX - addr || (i + 1 < nblk &&
		    addr + size > bk->addr[i + 1])) {
			return (heap_bad(ctx, s, "BLKS", i, HF_BLKS_SIZE,
			    "size", "%llu bytes at %#llx run into the next"
			    " block", (unsigned long long)size,
			    (unsigned long long)addr));
		}
		/*
		 * Below 2^63 the block's end too, and so the sum of all
		 * the sizes (the blocks do not overlap), and its usable size.
		 */
		if (size > INT64_MAX - addr) {
			return (heap_bad(ctx, s, "BLKS", i, HF_BLKS_SIZE,
			    "size", "%llu bytes at %#llx end at 2^63 or more,"
			    " past what the store's integers hold",
			    (unsigned long long)size,
			    (unsigned long long)addr));
		}
		if (bk->slack[i] > INT64_MAX - size) {
			return (heap_bad(ctx, s, "BLKS", i, HF_BLKS_SLACK,
			    "slack", "%u bytes past the %llu asked for make"
			    " 2^63 or more", bk->slack[i],
			    (unsigned long long)size));
		}
		/* The heap map draws usable sizes: they must not overlap. */
		if (i + 1 < nblk && addr + size + bk->slack[i] >
		    bk->addr[i + 1]) {
			return (heap_bad(ctx, s, "BLKS", i, HF_BLKS_SLACK,
			    "slack",
			    "%llu usable bytes at %#llx run into the next"
			    " block",
			    (unsigned long long)(size + bk->slack[i]),
			    (unsigned long long)addr));
		}
		if (heap_idx_is(ctx, s, "BLKS", i, HF_BLKS_SITE, "site",
		    bk->site[i], "SITE", h->site.count, 1) ||
		    heap_idx_is(ctx, s, "BLKS", i, HF_BLKS_TYPE, "type",
		    bk->type[i], "TYPE", h->type.count, 1) ||
		    heap_idx_is(ctx, s, "BLKS", i, HF_BLKS_REGION, "region",
		    bk->region[i], "REGN", h->regn.count, 1))
			return (-1);
		prev = addr;
		if (h->contents != 0)
			sum += size < h->contents ? size : h->contents;
	}
	/*
	 * Version 2's pointers come by block; version 1's name theirs,
	 * which the CSR's offsets are made of once they are checked.
	 */
	for (i = 0, b = 0, s = &h->edgs; i < ep->count; i++) {
		if (h->esrc != NULL)
			src = h->esrc[i];
		else {
			while (i >= ep->first[b + 1])
				b++;
			src = b;
		}
		word = ep->word[i];
		dst = ep->dst[i];
		if (heap_idx_is(ctx, s, "EDGS", i, HF_EDGS_SRC, "src",
		    (uint32_t)src, "BLKS", nblk, 0) ||
		    heap_idx_is(ctx, s, "EDGS", i, HF_EDGS_DST, "dst", dst,
		    "BLKS", nblk, 0))
			return (-1);
		if (i != 0 && (src < psrc || (src == psrc && word <= pword))) {
			return (heap_bad(ctx, s, "EDGS", i, HF_EDGS_SRC, "src",
			    "edges go by source block and word: %llu"
			    " word %llu follows %llu word %llu",
			    (unsigned long long)src, (unsigned long long)word,
			    (unsigned long long)psrc,
			    (unsigned long long)pword));
		}
		if (word * 8 + 8 > bk->size[src]) {
			return (heap_bad(ctx, s, "EDGS", i, HF_EDGS_SRC_WORD,
			    "src_word", "word %llu is past the"
			    " %llu bytes of block %llu",
			    (unsigned long long)word,
			    (unsigned long long)bk->size[src],
			    (unsigned long long)src));
		}
		psrc = src;
		pword = word;
		off = ep->dst_off[i] & HEAPFMT_OFF_MASK;
		/*
		 * Offset 0 is inside any block (a block of 0 bytes too):
		 * the random read of the target's size, a cache miss a
		 * pointer and most of this loop's time, only for the rest.
		 */
		if (off == 0 || off == HEAPFMT_OFF_MASK)
			continue;
		size = bk->size[dst];
		if (off >= size) {
			return (heap_bad(ctx, s, "EDGS", i, HF_EDGS_DST_OFF,
			    "dst_off", "offset %llu is outside"
			    " the %llu bytes of block %u",
			    (unsigned long long)off, (unsigned long long)size,
			    dst));
		}
	}
	if (h->esrc != NULL) {
		for (i = 0; i < ep->count; i++)
			ep->first[h->esrc[i] + 1]++;
		for (i = 0; i < nblk; i++)
			ep->first[i + 1] += ep->first[i];
		free(h->esrc);
		h->esrc = NULL;
	}
	for (i = 0, s = &h->root; i < s->count; i++) {
		if (heap_idx(ctx, s, "ROOT", i, HF_ROOT_REGION, "region",
		    "REGN", h->regn.count, 0) ||
		    heap_idx(ctx, s, "ROOT", i, HF_ROOT_DST, "dst", "BLKS",
		    nblk, 0) ||
		    heap_str(ctx, h, s, "ROOT", i, HF_ROOT_SYMBOL, "symbol") ||
		    heap_u63(ctx, s, "ROOT", i, HF_ROOT_ADDR, "addr"))
			return (-1);
		dst = ingest_heap_u32(s, i, HF_ROOT_DST);
		off = ingest_heap_u32(s, i, HF_ROOT_DST_OFF) & HEAPFMT_OFF_MASK;
		size = bk->size[dst];
		if (off != HEAPFMT_OFF_MASK && off >= size && !(size == 0 &&
		    off == 0)) {
			return (heap_bad(ctx, s, "ROOT", i, HF_ROOT_DST_OFF,
			    "dst_off", "offset %llu is outside"
			    " the %llu bytes of block %u",
			    (unsigned long long)off, (unsigned long long)size,
			    dst));
		}
	}
	end = h->data.p != NULL ? h->data.count : 0;
	if (h->contents != 0 && sum != end)
		return (ingest_fail(ctx, h->data.p != NULL ? h->data.at + 16 :
		    heap_at(&h->info, 0, HF_INFO_CONTENTS), "DATA.count",
		    "the blocks' first %llu bytes make %llu bytes, DATA has"
		    " %llu", (unsigned long long)h->contents,
		    (unsigned long long)sum, (unsigned long long)end));
	return (0);
}

/* ---- the blocks and pointers: BLKV, or BLKS and EDGS ------------------ */

struct heap_v {
	struct ingest_ctx	*ctx;
	size_t			 at, end;	/* in the file */
	uint64_t		 i;		/* the block */
};

/* Refuse the file at start, in field name of block v->i. */
static int __attribute__((format(printf, 4, 5)))
heap_v_bad(struct heap_v *v, size_t start, const char *name,
    const char *fmt, ...)
{
	va_list	 ap;
	char	 field[48], *detail;
	int	 rc;

	snprintf(field, sizeof field, "BLKV[%llu].%s",
	    (unsigned long long)v->i, name);
	va_start(ap, fmt);
	detail = xvasprintf(fmt, ap);
	va_end(ap);
	rc = ingest_fail(v->ctx, start, field, "%s", detail);
	free(detail);
	return (rc);
}

/*
 * The next varint of BLKV as field name of block v->i; -1 and the
 * error past the section's end or past 64 bits.
 */
static int
heap_v_get_long(struct heap_v *v, const char *name, uint64_t *out)
{
	size_t		 start = v->at;
	uint64_t	 x = 0;
	unsigned	 sh = 0;
	uint8_t		 c;

	do {
		if (v->at >= v->end)
			return (heap_v_bad(v, start, name, "cut short at the"
			    " section's end (%zu)", v->end));
		c = v->ctx->buf[v->at++];
		/* The tenth byte holds bit 63 and ends it. */
		if (sh == 63 && c > 1)
			return (heap_v_bad(v, start, name, "a varint of more"
			    " than 64 bits"));
		x |= (uint64_t)(c & 0x7f) << sh;
		sh += 7;
	} while (c & 0x80);
	*out = x;
	return (0);
}

/*
 * Most of a snapshot's varints are one byte (19M of them in 1M blocks
 * with 3M pointers): those are read here, inline, the rest by the loop.
 */
static inline int
heap_v_get(struct heap_v *v, const char *name, uint64_t *out)
{
	if (v->at < v->end && v->ctx->buf[v->at] < 0x80) {
		*out = v->ctx->buf[v->at++];
		return (0);
	}
	return (heap_v_get_long(v, name, out));
}

/* A varint that must fit 32 bits (max: the most it may be). */
static inline int
heap_v_get32(struct heap_v *v, const char *name, uint64_t max, uint64_t *out)
{
	size_t	start = v->at;

	if (heap_v_get(v, name, out) != 0)
		return (-1);
	if (*out <= max)
		return (0);
	return (heap_v_bad(v, start, name, "%llu is more than %llu",
	    (unsigned long long)*out, (unsigned long long)max));
}

/* A zigzag difference from base, wrapped to 64 bits. */
static inline int
heap_v_delta(struct heap_v *v, const char *name, uint64_t base, uint64_t *out)
{
	uint64_t	z;

	if (heap_v_get(v, name, &z) != 0)
		return (-1);
	*out = base + ((z >> 1) ^ (uint64_t)-(int64_t)(z & 1));
	return (0);
}

/* Index plus one, 0 for none: the index. */
static inline int
heap_v_index(struct heap_v *v, const char *name, uint32_t *out)
{
	uint64_t	x;

	if (heap_v_get32(v, name, UINT32_MAX, &x) != 0)
		return (-1);
	*out = (uint32_t)x - 1;
	return (0);
}

/* A zigzag difference from base that must land in 32 bits. */
static inline int
heap_v_delta32(struct heap_v *v, const char *name, uint32_t base,
    uint32_t *out)
{
	size_t		 start = v->at;
	uint64_t	 x;

	if (heap_v_delta(v, name, base, &x) != 0)
		return (-1);
	if (x <= UINT32_MAX) {
		*out = (uint32_t)x;
		return (0);
	}
	return (heap_v_bad(v, start, name, "%lld from %u is outside 32 bits",
	    (long long)(x - base), base));
}

/* The next varint of a BLKV heap_unpack has read: no checks but its end. */
static uint64_t
heap_v_raw(const uint8_t **p, const uint8_t *end)
{
	uint64_t	x = 0;
	unsigned	sh = 0;

	while (*p < end && sh < 64) {
		x |= (uint64_t)(**p & 0x7f) << sh;
		sh += 7;
		if (!(*(*p)++ & 0x80))
			break;
	}
	return (x);
}

/*
 * Where block i (edges 0) or pointer i (1) starts in the file: read
 * again, for an error only, so that no offset is kept a record (32 MB
 * written for 1M blocks with 3M pointers, to name one of them).
 */
static size_t
heap_v_where(const struct ingest_heap_sec *blkv, int edges, uint64_t i)
{
	const uint8_t	*p = blkv->p, *end = blkv->p + blkv->count;
	uint64_t	 nb, b, head, n, k, e = 0, f;

	nb = heap_v_raw(&p, end);
	(void)heap_v_raw(&p, end);
	for (b = 0; b < nb && p < end; b++) {
		if (!edges && b == i)
			break;
		head = heap_v_raw(&p, end);
		/* addr size seq, the words given, slack site tid type region */
		n = 8 + ((head & HEAPFMT_V_W0) != 0) + ((head & HEAPFMT_V_W1) !=
		    0);
		for (f = 0; f < n; f++)
			(void)heap_v_raw(&p, end);
		n = heap_v_raw(&p, end);
		for (k = 0; k < n && p < end && !(edges && e == i); k++, e++) {
			(void)heap_v_raw(&p, end);
			(void)heap_v_raw(&p, end);
			(void)heap_v_raw(&p, end);
		}
		if (edges && e == i && k < n)
			break;
	}
	return ((size_t)(blkv->off + (uint64_t)(p - blkv->p)));
}

/*
 * The arrays of nb blocks and ne pointers, in one allocation written
 * once, all of it: its pages made in one system call, not a page fault
 * a page.  Words 0 and 1 apart, and left to the page faults: version 2
 * gives few (the bench graph's are all pointers, never written), and 16
 * bytes a block of 101 was that much more made for nothing.  nb and ne
 * are bounded by the bytes of the section they come from (a block takes
 * at least 10 of them, a pointer 3).
 */
static void
heap_arrays(struct ingest_heap *h, uint64_t nb, uint64_t ne)
{
	struct ingest_heap_blocks	*bk = &h->b;
	struct ingest_heap_ptrs		*ep = &h->e;
	uint64_t			*p64;
	uint32_t			*p32;

	h->arrays = xcalloc_big((size_t)(nb * 3 * sizeof *p64 +
	    (nb * 7 + 1 + ne * 3) * sizeof *p32 + nb + 1), 1);
	h->words = xcalloc((size_t)(2 * nb + 1), sizeof *p64);
	bk->word0 = h->words;
	bk->word1 = bk->word0 + nb;
	p64 = h->arrays;
	bk->count = nb;
	bk->addr = p64;
	bk->size = p64 += nb;
	bk->seq = p64 += nb;
	p32 = (uint32_t *)(p64 + nb);
	bk->slack = p32;
	bk->site = p32 += nb;
	bk->type = p32 += nb;
	bk->region = p32 += nb;
	bk->tid = p32 += nb;
	bk->flags = p32 += nb;
	ep->count = ne;
	ep->first = p32 += nb;
	ep->dst = p32 += nb + 1;
	ep->word = p32 += ne;
	ep->dst_off = p32 += ne;
	bk->wptr = (uint8_t *)(p32 + ne);
}

/*
 * Version 2's blocks and pointers as version 1's sections for the
 * checks' errors, which name BLKS[i] and EDGS[i] at where block or
 * pointer i's bytes are in BLKV.
 */
static void
heap_unpacked(const struct ingest_heap *h, struct ingest_heap_sec *s,
    const char *tag, uint64_t n)
{
	s->p = NULL;
	s->count = n;
	s->off = h->blkv.off;
	s->at = h->blkv.at;
	s->tag = tag;
	s->packed = &h->blkv;
}

/*
 * Version 1's BLKS and EDGS records into the arrays: a pointer's source
 * kept apart until the checks have seen the pointers go by source.
 */
static void
heap_v1_read(struct ingest_heap *h)
{
	const struct ingest_heap_sec	*s = &h->blks, *es = &h->edgs;
	struct ingest_heap_blocks	*bk = &h->b;
	struct ingest_heap_ptrs		*ep = &h->e;
	uint64_t			 i;

	heap_arrays(h, s->count, es->count);
	for (i = 0; i < s->count; i++) {
		bk->addr[i] = ingest_heap_u64(s, i, HF_BLKS_ADDR);
		bk->size[i] = ingest_heap_u64(s, i, HF_BLKS_SIZE);
		bk->seq[i] = ingest_heap_u64(s, i, HF_BLKS_SEQ);
		bk->word0[i] = ingest_heap_u64(s, i, HF_BLKS_WORD0);
		bk->word1[i] = ingest_heap_u64(s, i, HF_BLKS_WORD1);
		bk->slack[i] = ingest_heap_u32(s, i, HF_BLKS_SLACK);
		bk->site[i] = ingest_heap_u32(s, i, HF_BLKS_SITE);
		bk->type[i] = ingest_heap_u32(s, i, HF_BLKS_TYPE);
		bk->region[i] = ingest_heap_u32(s, i, HF_BLKS_REGION);
		bk->tid[i] = ingest_heap_u32(s, i, HF_BLKS_TID);
		bk->flags[i] = ingest_heap_u32(s, i, HF_BLKS_FLAGS);
	}
	h->esrc = xreallocarray(NULL, es->count + 1, sizeof *h->esrc);
	for (i = 0; i < es->count; i++) {
		h->esrc[i] = ingest_heap_u32(es, i, HF_EDGS_SRC);
		ep->dst[i] = ingest_heap_u32(es, i, HF_EDGS_DST);
		ep->word[i] = ingest_heap_u32(es, i, HF_EDGS_SRC_WORD);
		ep->dst_off[i] = ingest_heap_u32(es, i, HF_EDGS_DST_OFF);
	}
}

/*
 * Version 2's BLKV into the arrays (heapfmt.h has the layout): what the
 * varints themselves may get wrong is refused here, naming where they
 * are; the checks after read the arrays as they read version 1's.
 */
static int
heap_unpack(struct ingest_ctx *ctx, struct ingest_heap *h)
{
	struct ingest_heap_blocks	*bk = &h->b;
	struct ingest_heap_ptrs		*ep = &h->e;
	struct heap_v			 v;
	uint64_t			 nb, ne, head, x, addr = 0, seq = 0, w;
	uint64_t			 n, k, e = 0, bad = UINT64_MAX;
	uint32_t			 tid = 0, word, dst;
	uint8_t				 pend, badpend = 0;
	size_t				 start;

	v.ctx = ctx;
	v.at = (size_t)h->blkv.off;
	v.end = (size_t)(h->blkv.off + h->blkv.count);
	v.i = 0;
	start = v.at;
	if (heap_v_get(&v, "nblocks", &nb) != 0 ||
	    heap_v_get(&v, "nedges", &ne) != 0)
		return (-1);
	/* A block takes 10 bytes at least (no words), a pointer 3. */
	if (nb > h->blkv.count / 10 ||
	    ne > (h->blkv.count - nb * 10) / 3)
		return (ingest_fail(ctx, start, "BLKV.nblocks", "%llu blocks"
		    " and %llu pointers need more than the section's %llu"
		    " bytes", (unsigned long long)nb, (unsigned long long)ne,
		    (unsigned long long)h->blkv.count));
	if (nb + h->root.count + 1 >= ANALYZE_HEAP_MAX ||
	    ne + h->root.count >= ANALYZE_HEAP_MAX)
		return (ingest_fail(ctx, start, "BLKV.nblocks", "%llu blocks,"
		    " %llu pointers and %llu roots; at most %u nodes or"
		    " pointers", (unsigned long long)nb,
		    (unsigned long long)ne, (unsigned long long)h->root.count,
		    ANALYZE_HEAP_MAX - 1));
	heap_arrays(h, nb, ne);
	for (v.i = 0; v.i < nb; v.i++) {
		start = v.at;
		if (heap_v_get(&v, "head", &head) != 0)
			return (-1);
		if ((head >> HEAPFMT_V_FLAGS_SHIFT) > UINT32_MAX ||
		    ((head & HEAPFMT_V_W0) && (head & HEAPFMT_V_W0_EDGE)) ||
		    ((head & HEAPFMT_V_W1) && (head & HEAPFMT_V_W1_EDGE))) {
			return (heap_v_bad(&v, start, "head", "%#llx: flags"
			    " past 32 bits, or a word both given and a"
			    " pointer's", (unsigned long long)head));
		}
		bk->flags[v.i] = (uint32_t)(head >> HEAPFMT_V_FLAGS_SHIFT);
		pend = (uint8_t)(head & (HEAPFMT_V_W0_EDGE |
		    HEAPFMT_V_W1_EDGE));
		bk->wptr[v.i] = pend;
		start = v.at;
		if (heap_v_get(&v, "addr", &x) != 0)
			return (-1);
		if (x > UINT64_MAX - addr) {
			return (heap_v_bad(&v, start, "addr", "%llu past %#llx"
			    " is past 2^64", (unsigned long long)x,
			    (unsigned long long)addr));
		}
		addr += x;
		bk->addr[v.i] = addr;
		if (heap_v_get(&v, "size", &bk->size[v.i]) != 0 ||
		    heap_v_delta(&v, "seq", seq, &seq) != 0)
			return (-1);
		bk->seq[v.i] = seq;
		if ((head & HEAPFMT_V_W0) &&
		    heap_v_delta(&v, "word0", addr, &bk->word0[v.i]) != 0)
			return (-1);
		if ((head & HEAPFMT_V_W1) &&
		    heap_v_delta(&v, "word1", addr, &bk->word1[v.i]) != 0)
			return (-1);
		if (heap_v_get32(&v, "slack", UINT32_MAX, &x) != 0)
			return (-1);
		bk->slack[v.i] = (uint32_t)x;
		if (heap_v_index(&v, "site", &bk->site[v.i]) != 0 ||
		    heap_v_delta32(&v, "tid", tid, &tid) != 0)
			return (-1);
		bk->tid[v.i] = tid;
		if (heap_v_index(&v, "type", &bk->type[v.i]) != 0 ||
		    heap_v_index(&v, "region", &bk->region[v.i]) != 0 ||
		    heap_v_get32(&v, "npointers", ne - e, &n) != 0)
			return (-1);
		ep->first[v.i] = (uint32_t)e;
		word = 0;
		dst = (uint32_t)v.i;
		for (k = 0; k < n; k++, e++) {
			if (heap_v_get32(&v, "word", UINT32_MAX - word,
			    &x) != 0 ||
			    heap_v_delta32(&v, "dst", dst, &dst) != 0 ||
			    heap_v_get32(&v, "dst_off", UINT32_MAX, &w) != 0)
				return (-1);
			word += (uint32_t)x;
			ep->word[e] = word;
			ep->dst[e] = dst;
			ep->dst_off[e] = (uint32_t)(w >> 1) |
			    (uint32_t)(w & 1) << 31;
			if (word <= 1 && dst < nb)
				pend &= (uint8_t)~(HEAPFMT_V_W0_EDGE << word);
		}
		/* Refused after the count's check, as that comes first. */
		if (pend != 0 && bad == UINT64_MAX) {
			bad = v.i;
			badpend = pend;
		}
	}
	ep->first[nb] = (uint32_t)e;
	if (e != ne || v.at != v.end)
		return (ingest_fail(ctx, v.at, "BLKV.nedges", "%llu pointers of"
		    " %llu, and %zu bytes after the last block",
		    (unsigned long long)e, (unsigned long long)ne,
		    v.end - v.at));
	if (bad != UINT64_MAX) {
		v.i = bad;
		return (heap_v_bad(&v, heap_v_where(&h->blkv, 0, bad), "head",
		    "word %d is its pointer's, and it has no pointer there"
		    " that leads to a block", badpend & HEAPFMT_V_W0_EDGE ?
		    0 : 1));
	}
	heap_unpacked(h, &h->blks, HEAPFMT_BLKS, nb);
	heap_unpacked(h, &h->edgs, HEAPFMT_EDGS, ne);
	return (0);
}

void
ingest_heap_free(struct ingest_heap *h)
{
	xfree_big(h->arrays);
	h->arrays = NULL;
	free(h->words);
	h->words = NULL;
	free(h->esrc);
	h->esrc = NULL;
	memset(&h->b, 0, sizeof h->b);
	memset(&h->e, 0, sizeof h->e);
}

/*
 * Check ctx's bytes as a snapshot and describe it in *h: views into the
 * bytes, and the blocks and pointers as arrays (ingest_heap_free frees
 * them; after a fault there are none).  -1 with ctx->cause on any fault.
 */
int
ingest_heap_parse(struct ingest_ctx *ctx, struct ingest_heap *h)
{
	struct bytes	 b;
	uint64_t	 fsize;
	uint32_t	 nsec, hsize;
	uint16_t	 major, minor;
	size_t		 i;

	memset(h, 0, sizeof *h);
	bytes_init(&b, ctx->buf, ctx->len);
	if (ctx->len < HEAPFMT_HEADER)
		return (ingest_fail(ctx, 0, "header", "the file has %zu bytes,"
		    " the header needs %d", ctx->len, HEAPFMT_HEADER));
	if (!bytes_peek_eq(&b, HEAPFMT_MAGIC, HEAPFMT_MAGIC_LEN))
		return (ingest_fail(ctx, 0, "magic", "not a pvheap snapshot"));
	bytes_skip(&b, HEAPFMT_MAGIC_LEN);
	bytes_u16(&b, &major);
	bytes_u16(&b, &minor);
	if (major < HEAPFMT_MAJOR_MIN || major > HEAPFMT_MAJOR)
		return (ingest_fail(ctx, 8, "major", "version %u.%u is"
		    " unsupported (profview reads %d.x to %d.x)", major, minor,
		    HEAPFMT_MAJOR_MIN, HEAPFMT_MAJOR));
	bytes_u32(&b, &nsec);
	fsize = rd64(ctx->buf + 16);
	hsize = rd32(ctx->buf + 24);
	if (fsize != ctx->len)
		return (ingest_fail(ctx, 16, "file_size", "the header says"
		    " %llu bytes, the file has %zu%s",
		    (unsigned long long)fsize, ctx->len, fsize > ctx->len ?
		    " (cut short)" : ""));
	if (hsize < HEAPFMT_HEADER || hsize % 8 != 0 || hsize > ctx->len)
		return (ingest_fail(ctx, 24, "header_size", "%u: not a"
		    " multiple of 8 from %d to the file's %zu bytes", hsize,
		    HEAPFMT_HEADER, ctx->len));
	if (nsec > (ctx->len - hsize) / HEAPFMT_SECTION)
		return (ingest_fail(ctx, 12, "nsections", "%u sections of %d"
		    " bytes need more than the %zu bytes after the header",
		    nsec, HEAPFMT_SECTION, ctx->len - hsize));
	h->major = major;
	h->minor = minor;
	if (heap_sections(ctx, h, nsec, hsize) != 0)
		return (-1);
	if (major >= 2 && (h->blks.p != NULL || h->edgs.p != NULL))
		return (ingest_fail(ctx, h->blks.p != NULL ? h->blks.at :
		    h->edgs.at, "sections", "a %s section in version %u,"
		    " whose blocks and pointers are in BLKV", h->blks.p !=
		    NULL ? HEAPFMT_BLKS : HEAPFMT_EDGS, major));
	for (i = 0; i < 3; i++) {
		static const char *need[] = { HEAPFMT_INFO, HEAPFMT_STRS,
		    HEAPFMT_BLKS, HEAPFMT_BLKV };
		const struct ingest_heap_sec *s = i == 0 ? &h->info :
		    i == 1 ? &h->strs : major >= 2 ? &h->blkv : &h->blks;

		if (s->p == NULL)
			return (ingest_fail(ctx, hsize, "sections", "no %s"
			    " section", need[i + (i == 2 && major >= 2)]));
	}
	if (h->info.count != 1)
		return (ingest_fail(ctx, h->info.at + 16, "INFO.count", "%llu"
		    " records; a snapshot has one",
		    (unsigned long long)h->info.count));
	if (h->strs.count == 0 || h->strs.p[0] != '\0' ||
	    h->strs.p[h->strs.count - 1] != '\0')
		return (ingest_fail(ctx, h->strs.off, "STRS", "the string"
		    " table must start and end with a NUL byte"));
	if (major >= 2 && heap_unpack(ctx, h) != 0) {
		ingest_heap_free(h);
		return (-1);
	}
	/* What the heap graph (analyze_heap_build) can hold. */
	if (h->blks.count + h->root.count + 1 >= ANALYZE_HEAP_MAX ||
	    h->edgs.count + h->root.count >= ANALYZE_HEAP_MAX) {
		ingest_heap_free(h);
		return (ingest_fail(ctx, h->blks.at + 16, "BLKS.count",
		    "%llu blocks, %llu pointers and %llu roots; at most %u"
		    " nodes or pointers", (unsigned long long)h->blks.count,
		    (unsigned long long)h->edgs.count,
		    (unsigned long long)h->root.count, ANALYZE_HEAP_MAX - 1));
	}
	h->contents = ingest_heap_u64(&h->info, 0, HF_INFO_CONTENTS);
	if (major < 2)
		heap_v1_read(h);
	if (heap_records(ctx, h) != 0) {
		ingest_heap_free(h);
		return (-1);
	}
	h->buf = ctx->buf;
	h->len = ctx->len;
	return (0);
}

/* String s of the table ("" for 0; the parse checked it). */
const char *
ingest_heap_str(const struct ingest_heap *h, uint32_t s)
{
	return ((const char *)h->strs.p + s);
}

/*
 * Where block i's kept bytes start in DATA, from the sizes before it;
 * callers walking every block keep their own running sum instead.
 */
uint64_t
ingest_heap_data_at(const struct ingest_heap *h, uint64_t i)
{
	uint64_t	k, sum = 0;

	for (k = 0; k < i; k++)
		sum += h->b.size[k] < h->contents ? h->b.size[k] : h->contents;
	return (sum);
}

/*
 * Word w (0 or 1) of block b, as memcheck's heuristics read it.  Version
 * 2 keeps a word that is its pointer's as the pointer alone, so it is
 * made here, for the blocks a heuristic asks of: made for every block at
 * the parse, a random read of the target's address each, it was a tenth
 * of the parse of 1M blocks whose first words point at others.
 */
uint64_t
ingest_heap_word(const struct ingest_heap *h, uint64_t b, unsigned w)
{
	const struct ingest_heap_ptrs	*ep = &h->e;
	uint32_t			 e;

	if (!(h->b.wptr[b] & (HEAPFMT_V_W0_EDGE << w)))
		return (w == 0 ? h->b.word0[b] : h->b.word1[b]);
	/* The parse found it, and every pointer leads to a block. */
	for (e = ep->first[b]; ep->word[e] != w; e++)
		;
	return (h->b.addr[ep->dst[e]] + (ep->dst_off[e] & HEAPFMT_OFF_MASK));
}

/* ---- memcheck's leak rules --------------------------------------------- */

/*
 * Whether a pointer at offset off into block b makes it reachable like a
 * pointer to its start: memcheck's heuristics (its default, "all").
 */
static int
heap_heuristic(const struct ingest_heap *h, uint64_t b, uint32_t field)
{
	uint64_t	off = field & HEAPFMT_OFF_MASK, size, w0, w1;

	if (off == 0)
		return (1);
	size = h->b.size[b];
	/* stdstring: length, capacity, refcount, then the characters. */
	if (off == 24 && size >= 16) {
		w0 = ingest_heap_word(h, b, 0);
		w1 = ingest_heap_word(h, b, 1);
		if (w1 <= UINT64_MAX - 25 && 24 + w1 + 1 == size && w0 <= w1)
			return (1);
	}
	if (off == 8 && size >= 8) {
		w0 = ingest_heap_word(h, b, 0);
		/* length64: the remaining size in word 0 (sqlite's malloc). */
		if (w0 > 0 && size - 8 == w0)
			return (1);
		/* newarray: an element count in word 0 (new[], destructors). */
		if (w0 > 0 && (size - 8) % w0 == 0)
			return (1);
	}
	/* multipleinheritance: vtable pointers at the start and at p. */
	if (off % 8 == 0 && (field & HEAPFMT_OFF_VTLIKE) &&
	    (h->b.flags[b] & HEAPFMT_BLK_VTLIKE))
		return (1);
	return (0);
}

_Static_assert(INGEST_HEAP_REACHABLE == ANALYZE_HEAP_REACHABLE &&
    INGEST_HEAP_POSSIBLE == ANALYZE_HEAP_POSSIBLE &&
    INGEST_HEAP_DEFINITE == ANALYZE_HEAP_DEFINITE &&
    INGEST_HEAP_INDIRECT == ANALYZE_HEAP_INDIRECT,
    "ingest's states are the heap graph's");

/* A pointer as the heap graph's target: weak if interior and unexcused. */
static uint32_t
heap_target(const struct ingest_heap *h, uint32_t dst, uint32_t field)
{
	if ((field & HEAPFMT_OFF_MASK) == 0 || heap_heuristic(h, dst, field))
		return (dst);
	return (dst | ANALYZE_HEAP_T_WEAK);
}

/*
 * Each block's state by memcheck's rules (mc_leakcheck.c), as the heap
 * graph computes them (analyze_heap_states, tested against memcheck):
 * here only the heuristics, which need the blocks' first words, are
 * decided, on the targets.  The states come from the pointers' CSR as
 * it stands: the weak bit is set in the targets for the search and
 * taken off after, rather than the 12 bytes a pointer of a copy (a
 * million-block ingest's pages were a fifth of it).  state[] gets
 * INGEST_HEAP_*, which are ANALYZE_HEAP_*'s numbers.
 */
void
ingest_heap_states(struct ingest_heap *h, uint8_t *state)
{
	uint64_t	 n = h->b.count, nr = h->root.count, ne = h->e.count, k;
	uint32_t	*roots, *dst = h->e.dst;
	uint64_t	*weak;
	char		*cause = NULL;

	memset(state, 0, n);
	if (n == 0)
		return;
	roots = xreallocarray(NULL, nr + 1, sizeof *roots);
	for (k = 0; k < nr; k++) {
		roots[k] = heap_target(h, ingest_heap_u32(&h->root, k,
		    HF_ROOT_DST), ingest_heap_u32(&h->root, k,
		    HF_ROOT_DST_OFF));
	}
	/*
	 * Which are weak, all decided before any is marked: a heuristic
	 * reads its block's first words, which may be pointers.
	 */
	weak = xcalloc(ne / 64 + 1, sizeof *weak);
	for (k = 0; k < ne; k++) {
		if ((h->e.dst_off[k] & HEAPFMT_OFF_MASK) != 0 &&
		    heap_target(h, dst[k], h->e.dst_off[k]) != dst[k])
			weak[k / 64] |= (uint64_t)1 << (k % 64);
	}
	for (k = 0; k < ne; k++) {
		if (weak[k / 64] & ((uint64_t)1 << (k % 64)))
			dst[k] |= ANALYZE_HEAP_T_WEAK;
	}
	/* The parse checked every index and the counts the graph holds. */
	if (analyze_heap_states_csr(state, roots, (size_t)nr, (uint32_t)n,
	    h->e.first, dst, &cause) != 0)
		free(cause);
	for (k = 0; k < ne; k++)
		dst[k] &= ~ANALYZE_HEAP_T_WEAK;
	free(weak);
	free(roots);
}

/* ---- into the store ------------------------------------------------ */

static int
heap_detect(const uint8_t *buf, size_t len, const char *name)
{
	(void)name;
	if (len >= HEAPFMT_MAGIC_LEN && memcmp(buf, HEAPFMT_MAGIC,
	    HEAPFMT_MAGIC_LEN) == 0)
		return (100);
	return (0);
}

/* An index of the file as a column: -1 (NULL) for none. */
static int64_t
heap_ix(uint32_t v)
{
	return (v == HEAPFMT_NONE ? -1 : (int64_t)v);
}

static const char *
heap_base(const char *path)
{
	const char	*p = strrchr(path, '/');

	return (p != NULL ? p + 1 : path);
}

static const char *
heap_region_kind(uint32_t k)
{
	switch (k) {
	case HEAPFMT_RGN_HEAP:	return ("heap");
	case HEAPFMT_RGN_ARENA:	return ("arena");
	case HEAPFMT_RGN_MMAP:	return ("mmap");
	case HEAPFMT_RGN_DATA:	return ("data");
	case HEAPFMT_RGN_STACK:	return ("stack");
	case HEAPFMT_RGN_REGS:	return ("registers");
	case HEAPFMT_RGN_ANON:	return ("anon");
	case HEAPFMT_RGN_FILE:	return ("file");
	}
	return ("other");
}

static int
heap_modules(struct ingest_ctx *ctx, const struct ingest_heap *h)
{
	struct store_heap_module	 m;
	const struct ingest_heap_sec	*s = &h->mods;
	uint64_t			 i, k, first, n;
	uint32_t			 flags;

	for (i = 0; i < s->count; i++) {
		memset(&m, 0, sizeof m);
		m.idx = (int64_t)i;
		m.path = ingest_heap_str(h, ingest_heap_u32(s, i,
		    HF_MODS_PATH));
		m.soname = ingest_heap_str(h, ingest_heap_u32(s, i,
		    HF_MODS_SONAME));
		m.build_id = ingest_heap_str(h, ingest_heap_u32(s, i,
		    HF_MODS_BUILD_ID));
		m.base = ingest_heap_u64(s, i, HF_MODS_BASE);
		m.lo = ingest_heap_u64(s, i, HF_MODS_LO);
		m.hi = ingest_heap_u64(s, i, HF_MODS_HI);
		m.code_size = ingest_heap_u64(s, i, HF_MODS_CODE);
		m.data_size = ingest_heap_u64(s, i, HF_MODS_DATA);
		flags = ingest_heap_u32(s, i, HF_MODS_FLAGS);
		m.main = (flags & HEAPFMT_MOD_MAIN) != 0;
		m.unloaded = (flags & HEAPFMT_MOD_UNLOADED) != 0;
		if (store_heap_module_add(ctx->st, ctx->session, &m) != 0)
			return (ingest_store_fail(ctx, "heap_module"));
		first = ingest_heap_u32(s, i, HF_MODS_FIRST_IMPORT);
		n = ingest_heap_u32(s, i, HF_MODS_NIMPORTS);
		for (k = 0; k < n; k++) {
			if (store_heap_import_add(ctx->st, ctx->session,
			    (int64_t)i, (int64_t)k, ingest_heap_str(h,
			    ingest_heap_u32(&h->imps, first + k,
			    HF_IMPS_NAME)), heap_ix(ingest_heap_u32(&h->imps,
			    first + k, HF_IMPS_TARGET))) != 0)
				return (ingest_store_fail(ctx, "heap_import"));
		}
	}
	return (0);
}

static const char *
heap_dkind(int k)
{
	switch (k) {
	case INGEST_DT_STRUCT:	return ("struct");
	case INGEST_DT_UNION:	return ("union");
	case INGEST_DT_POINTER:	return ("pointer");
	case INGEST_DT_ARRAY:	return ("array");
	case INGEST_DT_BASE:	return ("base");
	}
	return ("other");
}

/*
 * The DWARF types blocks have, as heap_type rows of kind dwarf after the
 * file's (one per module and name: a header's struct is one type however
 * many units define it): dwtype[name_id] gets each one's index.  Then
 * the layouts and variables profview heap trace walks.
 */
static int
heap_dwarf_types(struct ingest_ctx *ctx, const struct ingest_heap *h,
    const struct ingest_heap_dwarf *dw, uint32_t *dwtype)
{
	const struct ingest_dtype	*t;
	struct store_heap_dtype		 sd;
	struct store_heap_dfield	 sf;
	struct store_heap_dvar		 sv;
	uint64_t			 i, next = h->type.count;
	uint32_t			 k, u;

	for (i = 0; i < h->b.count && dw->btype != NULL; i++) {
		if ((u = dw->btype[i]) == INGEST_DT_NONE)
			continue;
		t = &dw->types[u];
		if (dwtype[t->name_id] != INGEST_DT_NONE)
			continue;
		dwtype[t->name_id] = (uint32_t)next;
		if (store_heap_type_add(ctx->st, ctx->session, (int64_t)next++,
		    t->name, "dwarf", t->module, -1, 0, 0) != 0)
			return (ingest_store_fail(ctx, "heap_type"));
	}
	for (i = 0; i < dw->ntypes; i++) {
		t = &dw->types[dw->types[i].def];
		sd.idx = (int64_t)i;
		sd.name = dw->types[i].name;
		sd.kind = heap_dkind(t->kind);
		sd.module = dw->types[i].module;
		sd.size = t->size;
		sd.target = t->target == INGEST_DT_NONE ? -1 :
		    (int64_t)t->target;
		sd.count = t->count;
		if (store_heap_dtype_add(ctx->st, ctx->session, &sd) != 0)
			return (ingest_store_fail(ctx, "heap_dtype"));
		/* A declared aggregate's members are its definition's. */
		for (k = 0; k < t->nfields; k++) {
			sf.type = (int64_t)i;
			sf.idx = k;
			sf.name = dw->fields[t->first + k].name;
			sf.offset = dw->fields[t->first + k].offset;
			u = dw->fields[t->first + k].type;
			sf.dtype = u == INGEST_DT_NONE ? -1 : (int64_t)u;
			sf.base = dw->fields[t->first + k].base;
			if (store_heap_dfield_add(ctx->st, ctx->session, &sf) !=
			    0)
				return (ingest_store_fail(ctx, "heap_dfield"));
		}
	}
	for (i = 0; i < dw->nvars; i++) {
		sv.idx = (int64_t)i;
		sv.module = dw->vars[i].module;
		sv.name = dw->vars[i].name;
		sv.addr = dw->vars[i].addr;
		sv.dtype = dw->vars[i].type == INGEST_DT_NONE ? -1 :
		    (int64_t)dw->vars[i].type;
		if (store_heap_dvar_add(ctx->st, ctx->session, &sv) != 0)
			return (ingest_store_fail(ctx, "heap_dvar"));
	}
	return (0);
}

static int
heap_regions_types(struct ingest_ctx *ctx, const struct ingest_heap *h,
    const struct ingest_heap_dwarf *dw, uint32_t *dwtype)
{
	static const char *const kinds[] = { "other", "vtable", "dwarf",
	    "site" };
	const struct ingest_heap_sec	*s = &h->regn;
	uint64_t			 i;
	uint32_t			 t, k;

	for (i = 0; i < s->count; i++) {
		t = ingest_heap_u32(s, i, HF_REGN_THREAD);
		if (store_heap_region_add(ctx->st, ctx->session, (int64_t)i,
		    heap_region_kind(ingest_heap_u32(s, i, HF_REGN_KIND)),
		    ingest_heap_u64(s, i, HF_REGN_LO),
		    ingest_heap_u64(s, i, HF_REGN_HI), ingest_heap_str(h,
		    ingest_heap_u32(s, i, HF_REGN_NAME)),
		    heap_ix(ingest_heap_u32(s, i, HF_REGN_MODULE)),
		    t == HEAPFMT_NONE ? -1 : (int64_t)ingest_heap_u32(&h->thrs,
		    t, HF_THRS_TID)) != 0)
			return (ingest_store_fail(ctx, "heap_region"));
	}
	for (i = 0, s = &h->type; i < s->count; i++) {
		k = ingest_heap_u32(s, i, HF_TYPE_KIND);
		if (store_heap_type_add(ctx->st, ctx->session, (int64_t)i,
		    ingest_heap_str(h, ingest_heap_u32(s, i, HF_TYPE_NAME)),
		    kinds[k < 4 ? k : 0], heap_ix(ingest_heap_u32(s, i,
		    HF_TYPE_MODULE)), heap_ix(ingest_heap_u32(s, i,
		    HF_TYPE_SITE)), ingest_heap_u64(s, i, HF_TYPE_VTABLE),
		    dw->vtsize != NULL ? dw->vtsize[i] : 0) != 0)
			return (ingest_store_fail(ctx, "heap_type"));
	}
	for (i = 0; i < dw->nvt; i++) {
		if (store_heap_vtable_add(ctx->st, ctx->session, (int64_t)i,
		    dw->vt[i].module, dw->vt[i].name, dw->vt[i].addr,
		    dw->vt[i].size) != 0)
			return (ingest_store_fail(ctx, "heap_vtable"));
	}
	return (heap_dwarf_types(ctx, h, dw, dwtype));
}

/*
 * LOCS record loc as a frame of the stacks: its text "function
 * (file.c:12)" where the module's DWARF gives the line (a line before it
 * for each function inlined there), else "function (module)"; its
 * function, module+offset where there is no symbol.  *name gets what
 * the caller frees.
 */
static char *
heap_frame(const struct ingest_heap *h, const struct ingest_heap_dwarf *dw,
    uint64_t loc, struct store_heap_site *f, char **name)
{
	uint32_t	 mod;
	const char	*fn, *path;

	memset(f, 0, sizeof *f);
	*name = NULL;
	f->idx = (int64_t)loc;
	fn = ingest_heap_str(h, ingest_heap_u32(&h->locs, loc,
	    HF_LOCS_FUNCTION));
	mod = ingest_heap_u32(&h->locs, loc, HF_LOCS_MODULE);
	path = mod != HEAPFMT_NONE ? heap_base(ingest_heap_str(h,
	    ingest_heap_u32(&h->mods, mod, HF_MODS_PATH))) : "?";
	f->pc = ingest_heap_u64(&h->locs, loc, HF_LOCS_PC);
	f->module = heap_ix(mod);
	f->file = dw->loc_file[loc];
	f->line = dw->loc_line[loc];
	f->function = fn;
	/* No symbol (a stripped library): module+offset. */
	if (*fn == '\0' && mod != HEAPFMT_NONE) {
		*name = xasprintf("%s+%#llx", path, (unsigned long long)(f->pc -
		    ingest_heap_u64(&h->mods, mod, HF_MODS_BASE)));
		f->function = *name;
	}
	if (dw->loc_text[loc] != NULL)
		return (xstrdup(dw->loc_text[loc]));
	if (*fn != '\0' && dw->loc_file[loc] != NULL)
		return (xasprintf("%s (%s:%u)", fn, dw->loc_file[loc],
		    dw->loc_line[loc]));
	if (*fn != '\0')
		return (xasprintf("%s (%s)", fn, path));
	return (xasprintf("%#llx (%s)", (unsigned long long)f->pc, path));
}

/*
 * The stacks as the file has them: each LOCS record a frame, stored
 * once however many stacks share it, each FRMS record a heap_stack row
 * naming its frame (a site names its run).  Storing each site's stack as
 * text multiplied a long frame by the sites that share it.
 */
static int
heap_frames(struct ingest_ctx *ctx, const struct ingest_heap *h,
    const struct ingest_heap_dwarf *dw)
{
	struct store_heap_site	 f;
	uint64_t		 i;
	char			*text, *name;
	int			 rc;

	for (i = 0; i < h->locs.count; i++) {
		text = heap_frame(h, dw, i, &f, &name);
		f.stack = text;
		rc = store_heap_frame_add(ctx->st, ctx->session, &f);
		free(text);
		free(name);
		if (rc != 0)
			return (ingest_store_fail(ctx, "heap_frame"));
	}
	for (i = 0; i < h->frms.count; i++) {
		if (store_heap_stack_add(ctx->st, ctx->session, (int64_t)i,
		    ingest_heap_u32(&h->frms, i, HF_FRMS_LOC)) != 0)
			return (ingest_store_fail(ctx, "heap_stack"));
	}
	return (0);
}

static int
heap_sites(struct ingest_ctx *ctx, const struct ingest_heap *h,
    const uint64_t *cbytes, const uint64_t *cblocks)
{
	struct store_heap_site		 st;
	const struct ingest_heap_sec	*s = &h->site;
	uint64_t			 i;

	for (i = 0; i < s->count; i++) {
		memset(&st, 0, sizeof st);
		st.idx = (int64_t)i;
		st.type = heap_ix(ingest_heap_u32(s, i, HF_SITE_TYPE));
		st.first_frame = ingest_heap_u32(s, i, HF_SITE_FIRST_FRAME);
		st.nframes = ingest_heap_u32(s, i, HF_SITE_NFRAMES);
		st.allocs = ingest_heap_u64(s, i, HF_SITE_ALLOCS);
		st.frees = ingest_heap_u64(s, i, HF_SITE_FREES);
		st.bytes = ingest_heap_u64(s, i, HF_SITE_BYTES);
		st.peak_bytes = ingest_heap_u64(s, i, HF_SITE_PEAK);
		st.live_bytes = ingest_heap_u64(s, i, HF_SITE_LIVE_BYTES);
		st.live_blocks = ingest_heap_u64(s, i, HF_SITE_LIVE_BLOCKS);
		st.collectable_bytes = cbytes[i];
		st.collectable_blocks = cblocks[i];
		if (store_heap_site_add(ctx->st, ctx->session, &st) != 0)
			return (ingest_store_fail(ctx, "heap_allocsite"));
	}
	return (0);
}

/*
 * How far through the file block i's (ptrs 0) or its pointers' (1)
 * rows are: version 1's records; in version 2's BLKV, where the two are
 * one, the blocks' rows its first half and the pointers' its second.
 */
static size_t
heap_progress(const struct ingest_heap *h, uint64_t i, int ptrs)
{
	const struct ingest_heap_sec	*s = &h->blks;

	if (s->packed != NULL)
		return ((size_t)(h->blkv.off + h->blkv.count * (uint64_t)ptrs /
		    2 + h->blkv.count * i / (2 * h->b.count + 1)));
	if (!ptrs)
		return ((size_t)(s->off + i * s->size));
	/* No EDGS section: past the blocks. */
	if (h->edgs.p == NULL)
		return ((size_t)(s->off + s->count * s->size));
	return ((size_t)(h->edgs.off + h->e.first[i] * h->edgs.size));
}

static int
heap_blocks(struct ingest_ctx *ctx, const struct ingest_heap *h,
    const uint8_t *state, const struct ingest_heap_dwarf *dw,
    const uint32_t *dwtype)
{
	static const char *const states[] = { "reachable", "reachable",
	    "possible", "collectable", "collectable" };
	struct store_heap_block		 b;
	struct store_heap_runw		 w;
	const struct ingest_heap_blocks	*bk = &h->b;
	uint64_t			 i, data = 0;
	uint32_t			 t;

	store_heap_runw_init(&w, ctx->st, ctx->session, 1);
	for (i = 0; i < bk->count; i++) {
		if ((i & 0xffff) == 0)
			ingest_progress(ctx, heap_progress(h, i, 0));
		b.idx = (int64_t)i;
		b.addr = bk->addr[i];
		b.size = bk->size[i];
		b.usable = b.size + bk->slack[i];
		b.seq = bk->seq[i];
		b.site = heap_ix(bk->site[i]);
		/* A vtable's class is exact; a typed pointer beats a site. */
		t = bk->type[i];
		if (dw->btype[i] != INGEST_DT_NONE && (t == HEAPFMT_NONE ||
		    ingest_heap_u32(&h->type, t, HF_TYPE_KIND) !=
		    HEAPFMT_TYPE_VTABLE))
			t = dwtype[dw->types[dw->btype[i]].name_id];
		b.type = heap_ix(t);
		b.region = heap_ix(bk->region[i]);
		b.tid = bk->tid[i];
		b.state = states[state[i] <= 4 ? state[i] : 0];
		b.leak = state[i] == INGEST_HEAP_DEFINITE ? "definite" :
		    state[i] == INGEST_HEAP_INDIRECT ? "indirect" : NULL;
		b.contents = NULL;
		b.ncontents = 0;
		if (h->contents != 0) {
			b.ncontents = (size_t)(b.size < h->contents ? b.size :
			    h->contents);
			b.contents = h->data.p + data;
			data += b.ncontents;
		}
		if (store_heap_blockw_add(&w, &b) != 0) {
			store_heap_runw_end(&w);
			return (ingest_store_fail(ctx, "heap_blockrun"));
		}
	}
	if (store_heap_runw_end(&w) != 0)
		return (ingest_store_fail(ctx, "heap_blockrun"));
	return (0);
}

static int
heap_pointers(struct ingest_ctx *ctx, const struct ingest_heap *h)
{
	struct store_heap_root		 r;
	struct store_heap_runw		 w;
	const struct ingest_heap_ptrs	*ep = &h->e;
	const struct ingest_heap_sec	*s;
	uint64_t			 i, b;

	store_heap_runw_init(&w, ctx->st, ctx->session, 0);
	for (b = 0; b < h->b.count; b++) {
		if ((b & 0xffff) == 0)
			ingest_progress(ctx, heap_progress(h, b, 1));
		for (i = ep->first[b]; i < ep->first[b + 1]; i++) {
			if (store_heap_refw_add(&w, (uint32_t)b,
			    (uint64_t)ep->word[i] * 8, ep->dst[i],
			    ep->dst_off[i] & HEAPFMT_OFF_MASK) != 0) {
				store_heap_runw_end(&w);
				return (ingest_store_fail(ctx, "heap_refrun"));
			}
		}
	}
	if (store_heap_runw_end(&w) != 0)
		return (ingest_store_fail(ctx, "heap_refrun"));
	for (i = 0, s = &h->root; i < s->count; i++) {
		r.idx = (int64_t)i;
		r.region = ingest_heap_u32(s, i, HF_ROOT_REGION);
		r.addr = ingest_heap_u64(s, i, HF_ROOT_ADDR);
		r.name = ingest_heap_str(h, ingest_heap_u32(s, i,
		    HF_ROOT_SYMBOL));
		r.name_off = ingest_heap_u32(s, i, HF_ROOT_SYM_OFF);
		r.dst = ingest_heap_u32(s, i, HF_ROOT_DST);
		r.dst_off = ingest_heap_u32(s, i, HF_ROOT_DST_OFF) &
		    HEAPFMT_OFF_MASK;
		if (store_heap_root_add(ctx->st, ctx->session, &r) != 0)
			return (ingest_store_fail(ctx, "heap_root"));
	}
	return (0);
}

/* What the snapshot says of itself: the program and when. */
static void
heap_about(struct ingest_ctx *ctx, const struct ingest_heap *h)
{
	const char	*prog;
	uint64_t	 ns = ingest_heap_u64(&h->info, 0, HF_INFO_TIME_NS);
	time_t		 t = (time_t)(ns / 1000000000u);
	struct tm	 tm;
	char		 buf[32];

	prog = ingest_heap_str(h, ingest_heap_u32(&h->info, 0,
	    HF_INFO_PROGRAM));
	if (*prog != '\0')
		ctx->program = xstrdup(heap_base(prog));
	if (ns != 0 && gmtime_r(&t, &tm) != NULL &&
	    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm) != 0)
		ctx->captured = xstrdup(buf);
}

/*
 * What the heap map lays out (analyze_heapview_regions over the heap
 * regions and the blocks' usable sizes) must be a map it opens: the
 * file is refused here, with the map's words, rather than stored for a
 * map that refuses it.  Only more than it can lay out is left to fail.
 */
static int
heap_map_check(struct ingest_ctx *ctx, const struct ingest_heap *h)
{
	const struct ingest_heap_sec	*s = &h->regn;
	struct analyze_heapmap_region	*rg, *out;
	uint64_t			*usable, i;
	size_t				 nrg = 0, n;
	uint32_t			 k;
	char				*cause = NULL;
	int				 rc = 0;

	rg = xreallocarray(NULL, s->count + 1, sizeof *rg);
	for (i = 0; i < s->count; i++) {
		k = ingest_heap_u32(s, i, HF_REGN_KIND);
		if (k != HEAPFMT_RGN_HEAP && k != HEAPFMT_RGN_ARENA &&
		    k != HEAPFMT_RGN_MMAP)
			continue;
		rg[nrg].lo = ingest_heap_u64(s, i, HF_REGN_LO);
		rg[nrg].hi = ingest_heap_u64(s, i, HF_REGN_HI);
		rg[nrg++].name = (char *)(k == HEAPFMT_RGN_HEAP ? "main heap" :
		    heap_region_kind(k));
	}
	usable = xcalloc_big(h->b.count + 1, sizeof *usable);
	for (i = 0; i < h->b.count; i++)
		usable[i] = h->b.size[i] + h->b.slack[i];
	n = analyze_heapview_regions(rg, nrg, h->b.addr, usable,
	    (size_t)h->b.count, &out);
	if (analyze_heapmap_check(out, n, h->b.addr, usable,
	    (size_t)h->b.count, &cause) != 0) {
		rc = ingest_fail(ctx, s->p != NULL ? s->at : h->blks.at,
		    s->p != NULL ? "REGN" : "BLKS", "%s", cause);
		free(cause);
	}
	for (i = 0; i < n; i++)
		free(out[i].name);
	free(out);
	free(rg);
	xfree_big(usable);
	return (rc);
}

static int
heap_load(struct ingest_ctx *ctx)
{
	static const char *const taken[] = { "other", "exit", "signal",
	    "every", "socket" };
	struct ingest_heap	 h;
	struct ingest_heap_dwarf dw;
	struct store_heap	 sh;
	uint8_t			*state = NULL;
	uint32_t		*dwtype = NULL;
	uint64_t		*cbytes = NULL, *cblocks = NULL, i, size;
	uint32_t		 site, trig;
	int			 rc = -1;

	if (ingest_heap_parse(ctx, &h) != 0 || heap_map_check(ctx, &h) != 0) {
		ingest_heap_free(&h);
		return (-1);
	}
	state = xmalloc(h.b.count + 1);
	ingest_heap_states(&h, state);
	ingest_heap_dwarf(ctx, &h, &dw);
	if (dw.conflicts != 0)
		ingest_warn(ctx, 0, "%llu typed pointers disagree with the"
		    " nearer one that typed their block first; the nearer"
		    " one's type is kept", (unsigned long long)dw.conflicts);
	dwtype = xreallocarray(NULL, dw.nnames + 1, sizeof *dwtype);
	memset(dwtype, 0xff, (dw.nnames + 1) * sizeof *dwtype);
	memset(&sh, 0, sizeof sh);
	cbytes = xcalloc(h.site.count + 1, sizeof *cbytes);
	cblocks = xcalloc(h.site.count + 1, sizeof *cblocks);
	for (i = 0; i < h.b.count; i++) {
		size = h.b.size[i];
		sh.blocks++;
		sh.bytes += (int64_t)size;
		switch (state[i]) {
		case INGEST_HEAP_REACHABLE:
			sh.reachable_blocks++;
			sh.reachable_bytes += (int64_t)size;
			break;
		case INGEST_HEAP_POSSIBLE:
			sh.possible_blocks++;
			sh.possible_bytes += (int64_t)size;
			break;
		case INGEST_HEAP_DEFINITE:
			sh.definite_blocks++;
			sh.definite_bytes += (int64_t)size;
			break;
		default:
			sh.indirect_blocks++;
			sh.indirect_bytes += (int64_t)size;
			break;
		}
		site = h.b.site[i];
		if (site < h.site.count && state[i] >= INGEST_HEAP_DEFINITE) {
			cbytes[site] += size;
			cblocks[site]++;
		}
	}
	if (heap_modules(ctx, &h) != 0 ||
	    heap_regions_types(ctx, &h, &dw, dwtype) != 0 ||
	    heap_frames(ctx, &h, &dw) != 0 ||
	    heap_sites(ctx, &h, cbytes, cblocks) != 0 ||
	    heap_blocks(ctx, &h, state, &dw, dwtype) != 0 ||
	    heap_pointers(ctx, &h) != 0)
		goto out;
	for (i = 0; i < h.cntr.count; i++) {
		if (store_counter_add(ctx->st, ctx->session, ingest_heap_str(&h,
		    ingest_heap_u32(&h.cntr, i, HF_CNTR_NAME)),
		    (int64_t)ingest_heap_u64(&h.cntr, i, HF_CNTR_VALUE)) != 0) {
			ingest_store_fail(ctx, "counter");
			goto out;
		}
	}
	sh.version = h.major == 1 ? (h.minor == 0 ? "1.0" : "1.x") :
	    h.minor == 0 ? "2.0" : "2.x";
	sh.pid = ingest_heap_u32(&h.info, 0, HF_INFO_PID);
	sh.ppid = ingest_heap_u32(&h.info, 0, HF_INFO_PPID);
	trig = ingest_heap_u32(&h.info, 0, HF_INFO_TRIGGER);
	sh.taken = taken[trig <= 4 ? trig : 0];
	sh.serial = ingest_heap_u32(&h.info, 0, HF_INFO_SERIAL);
	sh.time_ns = (int64_t)ingest_heap_u64(&h.info, 0, HF_INFO_TIME_NS);
	sh.started_ns = (int64_t)ingest_heap_u64(&h.info, 0,
	    HF_INFO_STARTED_NS);
	sh.stop_ns = (int64_t)ingest_heap_u64(&h.info, 0, HF_INFO_STOP_NS);
	sh.seq = (int64_t)ingest_heap_u64(&h.info, 0, HF_INFO_SEQ);
	sh.contents = h.contents == HEAPFMT_CONTENTS_ALL ? -1 :
	    (int64_t)h.contents;
	sh.depth = ingest_heap_u32(&h.info, 0, HF_INFO_DEPTH);
	sh.cmdline = ingest_heap_str(&h, ingest_heap_u32(&h.info, 0,
	    HF_INFO_CMDLINE));
	sh.cwd = ingest_heap_str(&h, ingest_heap_u32(&h.info, 0,
	    HF_INFO_CWD));
	sh.refs = (int64_t)h.e.count;
	if (store_heap_add(ctx->st, ctx->session, &sh) != 0) {
		ingest_store_fail(ctx, "heap");
		goto out;
	}
	heap_about(ctx, &h);
	ingest_progress(ctx, ctx->len);
	rc = 0;
out:
	ingest_heap_free(&h);
	ingest_heap_dwarf_free(&dw, h.locs.count);
	free(dwtype);
	free(state);
	free(cbytes);
	free(cblocks);
	return (rc);
}

const struct ingest_reader ingest_heap_reader = {
	heap_detect,
	heap_load,
};
