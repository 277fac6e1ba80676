/*
 * MS-DOS PROFIL output (NAME.PRF): the seed's struct profdata, nine
 * little-endian 16-bit words, then bucket_num 16-bit counts, then
 * optionally our PV32 trailer with 32-bit counts that do not saturate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest/bytes.h"
#include "ingest/ingest.h"

#define PRF_HEADER	18
#define PRF_PV32_FIXED	24	/* magic, version, flags, four u32 */

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
	if (len > PRF_HEADER + 2 * (size_t)num &&
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
	if (bytes_left(b) != 0)
		ingest_warn(ctx, b->off, "%zu unknown bytes after the PV32"
		    " trailer", bytes_left(b));
	return (1);
}

static int
prf_load(struct ingest_ctx *ctx)
{
	struct bytes	 b;
	struct store_prf p;
	uint16_t	 w[9], *h16 = NULL;
	uint32_t	*counts32 = NULL, i, expect, span;
	uint64_t	 lo, hi, hits;
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
	if (!pv32 && p.saturated)
		ingest_warn(ctx, PRF_HEADER, "a count saturated at 65535 and"
		    " there is no PV32 trailer: shares are understated");

	if (store_prf_add(ctx->st, ctx->session, &p) != 0) {
		ingest_store_fail(ctx, "prf");
		goto out;
	}
	for (i = 0; i < p.bucket_num; i++) {
		lo = ((uint64_t)p.prog_low_pa + (uint64_t)i * p.bucket_siz) * 16;
		hi = lo + (uint64_t)p.bucket_siz * 16;
		hits = pv32 ? counts32[i] : h16[i];
		if (store_bucket_add(ctx->st, ctx->session, i, lo, hi,
		    hits) != 0) {
			ingest_store_fail(ctx, "bucket");
			goto out;
		}
		if ((i & 0xfff) == 0)
			ingest_progress(ctx, PRF_HEADER + 2 * (size_t)i);
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
	rc = ingest_map_attach(ctx, p.prog_low_pa, p.prog_high_pa);
out:
	free(h16);
	free(counts32);
	return (rc);
}

const struct ingest_reader ingest_prf_reader = {
	prf_detect,
	prf_load,
};
