/*
 * MS-DOS PROFIL output (NAME.PRF): PROFIL's struct profdata, nine
 * little-endian 16-bit words, then bucket_num 16-bit counts, then
 * optionally our PV32 trailer with 32-bit counts that do not saturate,
 * and after it sections (tag, length, body): HITS, the exact CS:IP of
 * the samples, is the one known.
 *
 * A section never rejects a file.  The buckets make a whole profile
 * without it, so a section that cannot be trusted is ignored with a
 * warning that says why, and the session falls back to the buckets: its
 * shares are then estimates with bounds, never wrong exact numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xmalloc.h"
#include "ingest/bytes.h"
#include "ingest/ingest.h"
#include "ingest/prf.h"
#include "store/prf.h"

#define PRF_HEADER	18
#define PRF_PV32_FIXED	24	/* magic, version, flags, four u32 */
#define PRF_SECTION	8	/* a section's tag and length */
#define PRF_HITS_FIXED	12	/* version .. missed, after the length */
#define PRF_HITS_ENTRY	8	/* ip, cs, hits */

static const char *prf_fields[9] = {
	"clock_grain", "bucket_num", "bucket_siz", "prog_low_pa",
	"prog_high_pa", "dos_pa", "hit_io", "hit_dos", "hit_high"
};

static int
prf_has_suffix(const char *name, const char *suffix)
{
	size_t	n = strlen(name), m = strlen(suffix);

	return (n >= m && strcasecmp(name + n - m, suffix) == 0);
}

static int
prf_detect(const uint8_t *buf, size_t len, const char *name)
{
	uint32_t	num;

	/* The format has no magic: the name is the best evidence. */
	if (name != NULL && prf_has_suffix(name, ".prf"))
		return (90);
	if (len < PRF_HEADER)
		return (0);
	num = buf[2] | (buf[3] << 8);
	if ((buf[4] | buf[5]) == 0)
		return (0);
	if (len == PRF_HEADER + 2 * (size_t)num)
		return (40);
	/* The magic's 4 bytes must be there to compare. */
	if (len >= PRF_HEADER + 2 * (size_t)num + 4 &&
	    memcmp(buf + PRF_HEADER + 2 * (size_t)num, "PV32", 4) == 0)
		return (60);
	return (0);
}

/*
 * The PV32 trailer.  Returns 1 when its counts were taken into counts32
 * and *p, 0 when it was ignored with a warning.
 */
static int
prf_trailer(struct ingest_ctx *ctx, struct bytes *b, struct store_prf *p,
    const uint16_t *h16, uint32_t *counts32)
{
	size_t		 start = b->off;
	uint16_t	 version, flags;
	uint32_t	 total, io, dos, high, v = 0, i;
	uint64_t	 sum;

	bytes_skip(b, 4);
	if (bytes_u16(b, &version) != 0 || bytes_u16(b, &flags) != 0 ||
	    bytes_u32(b, &total) != 0 || bytes_u32(b, &io) != 0 ||
	    bytes_u32(b, &dos) != 0 || bytes_u32(b, &high) != 0) {
		ingest_warn(ctx, start, "PV32 trailer cut off after %zu of its"
		    " %d fixed bytes; using the 16-bit counts",
		    bytes_left(b) + (b->off - start), PRF_PV32_FIXED);
		return (0);
	}
	if (version != 1) {
		ingest_warn(ctx, start + 4, "PV32 trailer version %u unknown"
		    " (1 expected); using the 16-bit counts", version);
		return (0);
	}
	if (!bytes_have(b, (uint64_t)p->bucket_num * 4)) {
		ingest_warn(ctx, b->off, "PV32 trailer: bucket_num %u needs"
		    " %llu bytes of 32-bit counts, file has %zu; using the"
		    " 16-bit counts", p->bucket_num,
		    (unsigned long long)p->bucket_num * 4, bytes_left(b));
		return (0);
	}
	sum = (uint64_t)io + dos + high;
	for (i = 0; i < p->bucket_num; i++) {
		bytes_u32(b, &v);
		counts32[i] = v;
		sum += v;
		/* Below saturation both counts must agree. */
		if (h16[i] != 0xffff && h16[i] != v)
			ingest_warn(ctx, b->off - 4, "PV32 bucket %u holds %u"
			    " but the 16-bit bucket holds %u", i, v, h16[i]);
	}
	if (sum != total)
		ingest_warn(ctx, start + 8, "PV32 samples total %u, the counts"
		    " add up to %llu", total, (unsigned long long)sum);
	p->hit_io = io;
	p->hit_dos = dos;
	p->hit_high = high;
	p->pv32 = 1;
	p->saturated = (flags & 1) != 0;
	return (1);
}

static int
prf_hit_cmp(const void *a, const void *b)
{
	const struct store_prf_hit	*x = a, *y = b;

	if (x->cs != y->cs)
		return (x->cs < y->cs ? -1 : 1);
	return (x->ip < y->ip ? -1 : x->ip > y->ip);
}

/*
 * The body of a HITS section, len bytes at b (all present): its entries
 * into *hits and *nhits when every check passes (1); 0 when it was
 * ignored with a warning.  counts32 are the winning bucket counts.
 */
static int
prf_hits(struct ingest_ctx *ctx, struct bytes *b, uint32_t len,
    struct store_prf *p, const uint32_t *counts32,
    struct store_prf_hit **hits, size_t *nhits)
{
	struct store_prf_hit	*v = NULL, *e;
	size_t			 start = b->off, i;
	uint16_t		 version = 0, flags = 0, capacity = 0;
	uint16_t		 count = 0, ip = 0, cs = 0;
	uint32_t		 missed = 0, n, k = 0;
	uint64_t		 lo = (uint64_t)p->prog_low_pa * 16;
	uint64_t		 hi = (uint64_t)p->prog_high_pa * 16;
	uint64_t		 sum, buckets = 0, *per = NULL;
	const char		*why = " the section is ignored and the buckets"
				    " are shared out";

	if (len < PRF_HITS_FIXED) {
		ingest_warn(ctx, start - 4, "HITS length %u is below the %d"
		    " bytes of its fixed fields;%s", len, PRF_HITS_FIXED, why);
		return (0);
	}
	bytes_u16(b, &version);
	bytes_u16(b, &flags);
	bytes_u16(b, &capacity);
	bytes_u16(b, &count);
	bytes_u32(b, &missed);
	if (version != 1) {
		ingest_warn(ctx, start, "HITS version %u unknown (1 expected);"
		    "%s", version, why);
		return (0);
	}
	if (len != PRF_HITS_FIXED + (uint32_t)count * PRF_HITS_ENTRY) {
		ingest_warn(ctx, start - 4, "HITS length %u, but count %u"
		    " entries make %u;%s", len, count, PRF_HITS_FIXED +
		    (uint32_t)count * PRF_HITS_ENTRY, why);
		return (0);
	}
	if (count > capacity) {
		ingest_warn(ctx, start + 6, "HITS count %u is above capacity"
		    " %u;%s", count, capacity, why);
		return (0);
	}
	v = xreallocarray(NULL, (size_t)count + 1, sizeof *v);
	per = xcalloc((size_t)p->bucket_num + 1, sizeof *per);
	sum = missed;
	for (n = 0; n < count; n++) {
		e = &v[n];
		bytes_u16(b, &ip);
		bytes_u16(b, &cs);
		bytes_u32(b, &k);
		e->cs = cs;
		e->ip = ip;
		e->hits = k;
		e->addr = (uint64_t)cs * 16 + ip;
		sum += k;
		/* In the program, and in a bucket the file has. */
		if (e->addr < lo || e->addr >= hi || (e->addr / 16 -
		    p->prog_low_pa) / p->bucket_siz >= p->bucket_num) {
			ingest_warn(ctx, b->off - PRF_HITS_ENTRY, "HITS entry"
			    " %u: %04X:%04X (linear %05llX) is in no bucket"
			    " of the program (%05llX to %05llX);%s", n, cs,
			    ip, (unsigned long long)e->addr,
			    (unsigned long long)lo, (unsigned long long)hi,
			    why);
			goto ignore;
		}
		per[(e->addr / 16 - p->prog_low_pa) / p->bucket_siz] += k;
	}
	for (i = 0; i < p->bucket_num; i++) {
		buckets += counts32[i];
		if (per[i] > counts32[i]) {
			ingest_warn(ctx, start + 12, "HITS entries put %llu"
			    " samples in bucket %zu, which holds %u;%s",
			    (unsigned long long)per[i], i, counts32[i], why);
			goto ignore;
		}
	}
	if (sum != buckets) {
		ingest_warn(ctx, start + 8, "HITS entries and missed add up"
		    " to %llu samples, the buckets to %llu;%s",
		    (unsigned long long)sum, (unsigned long long)buckets,
		    why);
		goto ignore;
	}
	/* The file's order may be any: sort a copy to find a CS:IP twice. */
	qsort(v, count, sizeof *v, prf_hit_cmp);
	for (n = 1; n < count; n++) {
		if (prf_hit_cmp(&v[n - 1], &v[n]) == 0) {
			ingest_warn(ctx, start + 12, "HITS lists %04X:%04X"
			    " twice;%s", v[n].cs, v[n].ip, why);
			goto ignore;
		}
	}
	/* Only the writer's own contradictions: the table still adds up. */
	if (!(flags & 1) && missed != 0)
		ingest_warn(ctx, start + 2, "HITS full flag clear but %u"
		    " samples missed the table", missed);
	if ((flags & 1) && missed == 0)
		ingest_warn(ctx, start + 2, "HITS full flag set but no sample"
		    " missed the table");
	p->hit_table = 1;
	p->hit_table_full = (flags & 1) != 0;
	p->hit_table_capacity = capacity;
	p->hit_missed = missed;
	free(per);
	*hits = v;
	*nhits = count;
	return (1);
ignore:
	free(per);
	free(v);
	return (0);
}

/*
 * The sections after a good PV32 trailer, to the end of the file: HITS
 * is read (the first one), any other tag is skipped by its length.
 */
static void
prf_sections(struct ingest_ctx *ctx, struct bytes *b, struct store_prf *p,
    const uint32_t *counts32, struct store_prf_hit **hits, size_t *nhits)
{
	size_t		 start;
	uint32_t	 len = 0;
	char		 tag[5];
	int		 i, seen = 0;

	while (bytes_left(b) != 0) {
		start = b->off;
		if (bytes_left(b) < PRF_SECTION) {
			ingest_warn(ctx, start, "%zu bytes after the PV32"
			    " trailer, too few for a section's tag and"
			    " length", bytes_left(b));
			return;
		}
		for (i = 0; i < 4; i++) {
			tag[i] = (char)b->p[start + (size_t)i];
			if (tag[i] < 0x21 || tag[i] > 0x7e)
				tag[i] = '?';
		}
		tag[4] = '\0';
		bytes_skip(b, 4);
		bytes_u32(b, &len);
		if (!bytes_have(b, len)) {
			ingest_warn(ctx, start + 4, "%s section cut off: length"
			    " %u, the file has %zu bytes after it; the section"
			    " is ignored", tag, len, bytes_left(b));
			return;
		}
		if (memcmp(b->p + start, "HITS", 4) != 0)
			ingest_warn(ctx, start, "section %s unknown (%u bytes);"
			    " it is ignored", tag, len);
		else if (seen)
			ingest_warn(ctx, start, "a second HITS section (%u"
			    " bytes); it is ignored", len);
		else {
			seen = 1;
			prf_hits(ctx, b, len, p, counts32, hits, nhits);
		}
		/* Wherever the body's reading stopped, the next one is here. */
		b->off = start + PRF_SECTION + len;
	}
}

/*
 * The program's image, stored beside the buckets so that instructions can
 * be decoded from the store alone, and its listing's source lines.
 * Returns -1 only when a program named with --program, or a listing named
 * with --listing, is bad.
 */
static int
prf_image(struct ingest_ctx *ctx, const struct store_prf *p)
{
	struct ingest_image	im;
	uint64_t		end = (uint64_t)p->prog_high_pa * 16;
	int			rc;

	if ((rc = ingest_image_open(ctx, p->prog_low_pa, &im)) <= 0) {
		/* Source lines are placed by the image's bytes. */
		if (rc == 0 && ingest_option(ctx, "listing") != NULL)
			ingest_warn(ctx, 0, "listing ignored: %s: no program"
			    " image to check it against (--program FILE)",
			    ingest_option(ctx, "listing"));
		return (rc);
	}
	if (im.addr + im.len > end)
		ingest_warn(ctx, 8, "%s: its %zu-byte %s image at %05llX runs"
		    " past prog_high_pa %04X: is it the program profiled?",
		    im.path, im.len, im.exe ? "EXE" : "COM",
		    (unsigned long long)im.addr, p->prog_high_pa);
	rc = 0;
	if (store_prf_image_add(ctx->st, ctx->session, im.addr, im.bytes,
	    im.len) != 0)
		rc = ingest_store_fail(ctx, "prf_image");
	else
		rc = ingest_listing_attach(ctx, &im);
	ingest_image_free(&im);
	return (rc);
}

static int
prf_load(struct ingest_ctx *ctx)
{
	struct bytes	 b;
	struct store_prf p;
	struct store_prf_hit *hits = NULL;
	uint16_t	 w[9], *h16 = NULL;
	uint32_t	*counts32 = NULL, i, expect, span;
	uint64_t	 lo, hi, end, hitcount;
	size_t		 nhits = 0, k2;
	int		 k, rc = -1, pv32 = 0;

	bytes_init(&b, ctx->buf, ctx->len);
	for (k = 0; k < 9; k++) {
		if (bytes_u16(&b, &w[k]) != 0)
			return (ingest_fail(ctx, b.off, prf_fields[k],
			    "file ends inside the header (%zu bytes, the"
			    " header needs %d)", ctx->len, PRF_HEADER));
	}
	memset(&p, 0, sizeof p);
	p.clock_grain = w[0];
	p.bucket_num = w[1];
	p.bucket_siz = w[2];
	p.prog_low_pa = w[3];
	p.prog_high_pa = w[4];
	p.dos_pa = w[5];
	p.hit_io = w[6];
	p.hit_dos = w[7];
	p.hit_high = w[8];

	if (p.bucket_siz == 0)
		return (ingest_fail(ctx, 4, "bucket_siz", "0 paragraphs per"
		    " bucket"));
	if (p.prog_low_pa > p.prog_high_pa)
		return (ingest_fail(ctx, 6, "prog_low_pa", "%04x is above"
		    " prog_high_pa %04x", p.prog_low_pa, p.prog_high_pa));
	if (!bytes_have(&b, (uint64_t)p.bucket_num * 2))
		return (ingest_fail(ctx, 2, "bucket_num", "%u needs %u bytes"
		    " after the header, file has %zu", p.bucket_num,
		    p.bucket_num * 2, bytes_left(&b)));

	span = p.prog_high_pa - p.prog_low_pa;
	expect = (span + p.bucket_siz - 1) / p.bucket_siz;
	if (expect != p.bucket_num)
		ingest_warn(ctx, 2, "bucket_num %u, but %u paragraphs from"
		    " prog_low_pa %04x to prog_high_pa %04x in buckets of %u"
		    " make %u", p.bucket_num, span, p.prog_low_pa,
		    p.prog_high_pa, p.bucket_siz, expect);
	if (p.dos_pa > p.prog_low_pa)
		ingest_warn(ctx, 10, "dos_pa %04x is above prog_low_pa %04x",
		    p.dos_pa, p.prog_low_pa);

	/* Sizes are bounded by the bytes present, checked above. */
	if ((h16 = calloc(p.bucket_num + 1, sizeof *h16)) == NULL ||
	    (counts32 = calloc(p.bucket_num + 1, sizeof *counts32)) == NULL) {
		ingest_fail(ctx, PRF_HEADER, "buckets", "out of memory");
		goto out;
	}
	for (i = 0; i < p.bucket_num; i++) {
		bytes_u16(&b, &h16[i]);
		if (h16[i] == 0xffff)
			p.saturated = 1;
	}
	if (w[6] == 0xffff || w[7] == 0xffff || w[8] == 0xffff)
		p.saturated = 1;
	if (bytes_left(&b) != 0) {
		if (bytes_peek_eq(&b, "PV32", 4))
			pv32 = prf_trailer(ctx, &b, &p, h16, counts32);
		else
			ingest_warn(ctx, b.off, "%zu unknown bytes after the"
			    " buckets", bytes_left(&b));
	}
	/* Where the trailer is not good, nothing after it can be placed. */
	if (pv32)
		prf_sections(ctx, &b, &p, counts32, &hits, &nhits);
	if (!pv32 && p.saturated)
		ingest_warn(ctx, PRF_HEADER, "a count saturated at 65535 and"
		    " there is no PV32 trailer: shares are understated");

	if (store_prf_add(ctx->st, ctx->session, &p) != 0) {
		ingest_store_fail(ctx, "prf");
		goto out;
	}
	/*
	 * PROFIL counts a sample at or above prog_high_pa as a high hit, so
	 * the last bucket ends there, not bucket_siz paragraphs on.
	 */
	end = (uint64_t)p.prog_high_pa * 16;
	for (i = 0; i < p.bucket_num; i++) {
		lo = ((uint64_t)p.prog_low_pa + (uint64_t)i * p.bucket_siz) * 16;
		hi = lo + (uint64_t)p.bucket_siz * 16;
		if (hi > end)
			hi = end > lo ? end : lo;
		hitcount = pv32 ? counts32[i] : h16[i];
		if (store_bucket_add(ctx->st, ctx->session, i, lo, hi,
		    hitcount) != 0) {
			ingest_store_fail(ctx, "bucket");
			goto out;
		}
		if ((i & 0xfff) == 0)
			ingest_progress(ctx, PRF_HEADER + 2 * (size_t)i);
	}
	for (k2 = 0; k2 < nhits; k2++) {
		if (store_prf_hit_add(ctx->st, ctx->session, &hits[k2]) != 0) {
			ingest_store_fail(ctx, "prf_hit");
			goto out;
		}
	}
	if (store_counter_add(ctx->st, ctx->session, "hit_io",
	    (int64_t)p.hit_io) != 0 ||
	    store_counter_add(ctx->st, ctx->session, "hit_dos",
	    (int64_t)p.hit_dos) != 0 ||
	    store_counter_add(ctx->st, ctx->session, "hit_high",
	    (int64_t)p.hit_high) != 0) {
		ingest_store_fail(ctx, "counter");
		goto out;
	}
	if (prf_image(ctx, &p) != 0)
		goto out;
	rc = ingest_map_attach(ctx, p.prog_low_pa, p.prog_high_pa);
out:
	free(h16);
	free(counts32);
	free(hits);
	return (rc);
}

const struct ingest_reader ingest_prf_reader = {
	prf_detect,
	prf_load,
};
