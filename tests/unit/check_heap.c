/*
 * The heap snapshot reader on hand-made files: a good one with every
 * section, each bad field (the error names its offset and field), a cut
 * at every length, unknown sections and longer records of a later minor
 * version; the same file in version 2 (its blocks and pointers packed
 * into BLKV) read back to the same records, each bad field and every
 * cut of that; then memcheck's leak rules on small graphs, one rule
 * each.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/pvheap/heapfmt.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "ingest/ingest.h"
#include "ingest/heap.h"
#include "kind.h"
#include "xmalloc.h"

#define MAXSEC	20

/* A snapshot being built: sections of records, then bytes. */
struct hsec {
	char		 tag[5];
	uint32_t	 rs;
	uint8_t		*p;
	size_t		 n;		/* records */
	uint64_t	 off;		/* in the file, once built */
};

struct hb {
	struct hsec	 s[MAXSEC];
	int		 ns;
	uint8_t		*buf;
	size_t		 len;
};

static void
p32(uint8_t *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

static void
p64(uint8_t *p, uint64_t v)
{
	p32(p, (uint32_t)v);
	p32(p + 4, (uint32_t)(v >> 32));
}

static struct hsec *
sec(struct hb *b, const char *tag)
{
	int	i;

	for (i = 0; i < b->ns; i++) {
		if (strcmp(b->s[i].tag, tag) == 0)
			return (&b->s[i]);
	}
	ck_abort_msg("no section %s", tag);
	return (NULL);
}

static void
sec_new(struct hb *b, const char *tag, uint32_t rs)
{
	struct hsec	*s = &b->s[b->ns++];

	ck_assert_int_le(b->ns, MAXSEC);
	memset(s, 0, sizeof *s);
	memcpy(s->tag, tag, 4);
	s->rs = rs;
}

/* A new zeroed record of section tag. */
static uint8_t *
rec(struct hb *b, const char *tag)
{
	struct hsec	*s = sec(b, tag);

	s->p = realloc(s->p, (s->n + 1) * s->rs);
	ck_assert_ptr_nonnull(s->p);
	memset(s->p + s->n * s->rs, 0, s->rs);
	return (s->p + s->rs * s->n++);
}

/* Append a string to STRS; its offset. */
static uint32_t
str(struct hb *b, const char *text)
{
	struct hsec	*s = sec(b, HEAPFMT_STRS);
	size_t		 n = strlen(text) + 1, off = s->n;

	s->p = realloc(s->p, s->n + n);
	memcpy(s->p + s->n, text, n);
	s->n += n;
	return ((uint32_t)off);
}

static void
build(struct hb *b)
{
	size_t	 off, i;
	uint8_t	*e;

	free(b->buf);
	off = HEAPFMT_HEADER + (size_t)b->ns * HEAPFMT_SECTION;
	for (i = 0; i < (size_t)b->ns; i++) {
		off = (off + 7) & ~(size_t)7;
		b->s[i].off = off;
		off += b->s[i].n * b->s[i].rs;
	}
	b->len = off;
	b->buf = calloc(1, b->len + 1);
	memcpy(b->buf, HEAPFMT_MAGIC, HEAPFMT_MAGIC_LEN);
	/* Version 2 (BLKV) when packed, else the version 1 pvheap wrote. */
	b->buf[8] = 1;
	for (i = 0; i < (size_t)b->ns; i++) {
		if (strcmp(b->s[i].tag, HEAPFMT_BLKV) == 0)
			b->buf[8] = 2;
	}
	b->buf[10] = HEAPFMT_MINOR;
	p32(b->buf + 12, (uint32_t)b->ns);
	p64(b->buf + 16, b->len);
	p32(b->buf + 24, HEAPFMT_HEADER);
	for (i = 0; i < (size_t)b->ns; i++) {
		e = b->buf + HEAPFMT_HEADER + i * HEAPFMT_SECTION;
		memcpy(e, b->s[i].tag, 4);
		p32(e + 4, b->s[i].rs);
		p64(e + 8, b->s[i].off);
		p64(e + 16, b->s[i].n);
		if (b->s[i].n != 0)
			memcpy(b->buf + b->s[i].off, b->s[i].p,
			    b->s[i].n * b->s[i].rs);
	}
}

/* Where field off of record i of section tag is in the built file. */
static size_t
at(struct hb *b, const char *tag, size_t i, size_t off)
{
	struct hsec	*s = sec(b, tag);

	return ((size_t)s->off + i * s->rs + off);
}

/* Where section tag's table entry is. */
static size_t
entry(struct hb *b, const char *tag)
{
	return (HEAPFMT_HEADER + (size_t)(sec(b, tag) - b->s) *
	    HEAPFMT_SECTION);
}

static void
hb_free(struct hb *b)
{
	int	i;

	for (i = 0; i < b->ns; i++)
		free(b->s[i].p);
	free(b->buf);
	memset(b, 0, sizeof *b);
}

/*
 * The good file: two modules (the program imports libc), a thread, four
 * regions, two sites, two types, six blocks, four edges (a pointer to
 * the start, one 8 bytes in, a cycle of two), two roots, and the first
 * 16 bytes of each block.
 */
static void
good(struct hb *b)
{
	static const struct { uint64_t addr, size; } blk[] = {
		{ 0x1010, 32 }, { 0x1040, 16 }, { 0x1060, 0 },
		{ 0x1080, 40 }, { 0x10c0, 24 }, { 0x1100, 24 },
	};
	uint8_t		*r;
	size_t		 i;
	uint64_t	 kept = 0;

	memset(b, 0, sizeof *b);
	sec_new(b, HEAPFMT_INFO, HEAPFMT_INFO_SIZE);
	sec_new(b, HEAPFMT_CNTR, HEAPFMT_CNTR_SIZE);
	sec_new(b, HEAPFMT_MODS, HEAPFMT_MODS_SIZE);
	sec_new(b, HEAPFMT_IMPS, HEAPFMT_IMPS_SIZE);
	sec_new(b, HEAPFMT_THRS, HEAPFMT_THRS_SIZE);
	sec_new(b, HEAPFMT_REGN, HEAPFMT_REGN_SIZE);
	sec_new(b, HEAPFMT_LOCS, HEAPFMT_LOCS_SIZE);
	sec_new(b, HEAPFMT_FRMS, HEAPFMT_FRMS_SIZE);
	sec_new(b, HEAPFMT_SITE, HEAPFMT_SITE_SIZE);
	sec_new(b, HEAPFMT_TYPE, HEAPFMT_TYPE_SIZE);
	sec_new(b, HEAPFMT_BLKS, HEAPFMT_BLKS_SIZE);
	sec_new(b, HEAPFMT_EDGS, HEAPFMT_EDGS_SIZE);
	sec_new(b, HEAPFMT_ROOT, HEAPFMT_ROOT_SIZE);
	sec_new(b, HEAPFMT_DATA, 1);
	sec_new(b, HEAPFMT_STRS, 1);
	str(b, "");

	r = rec(b, HEAPFMT_INFO);
	p32(r + HF_INFO_PID, 42);
	p32(r + HF_INFO_TRIGGER, HEAPFMT_AT_EXIT);
	p64(r + HF_INFO_CONTENTS, 16);
	p32(r + HF_INFO_PROGRAM, str(b, "/bin/prog"));
	p32(r + HF_INFO_CMDLINE, str(b, "prog -x"));
	p32(r + HF_INFO_DEPTH, 16);
	r = rec(b, HEAPFMT_CNTR);
	p32(r + HF_CNTR_NAME, str(b, "frees_unknown"));
	p64(r + HF_CNTR_VALUE, 3);

	r = rec(b, HEAPFMT_MODS);
	p32(r + HF_MODS_PATH, str(b, "/bin/prog"));
	p32(r + HF_MODS_FLAGS, HEAPFMT_MOD_MAIN);
	p32(r + HF_MODS_NIMPORTS, 1);
	r = rec(b, HEAPFMT_MODS);
	p32(r + HF_MODS_PATH, str(b, "/lib/libc.so.6"));
	p32(r + HF_MODS_SONAME, str(b, "libc.so.6"));
	p32(r + HF_MODS_FIRST_IMPORT, 1);
	r = rec(b, HEAPFMT_IMPS);
	p32(r + HF_IMPS_NAME, str(b, "libc.so.6"));
	p32(r + HF_IMPS_TARGET, 1);

	r = rec(b, HEAPFMT_THRS);
	p32(r + HF_THRS_TID, 42);
	p32(r + HF_THRS_FLAGS, HEAPFMT_THR_STOPPED | HEAPFMT_THR_MAIN);
	p32(r + HF_THRS_NAME, str(b, "prog"));
	p32(r + HF_THRS_REGS, 3);

	r = rec(b, HEAPFMT_REGN);
	p64(r + HF_REGN_LO, 0x1000);
	p64(r + HF_REGN_HI, 0x9000);
	p32(r + HF_REGN_KIND, HEAPFMT_RGN_HEAP);
	p32(r + HF_REGN_MODULE, HEAPFMT_NONE);
	p32(r + HF_REGN_THREAD, HEAPFMT_NONE);
	r = rec(b, HEAPFMT_REGN);
	p64(r + HF_REGN_LO, 0x40000);
	p64(r + HF_REGN_HI, 0x41000);
	p32(r + HF_REGN_KIND, HEAPFMT_RGN_DATA);
	p32(r + HF_REGN_THREAD, HEAPFMT_NONE);
	r = rec(b, HEAPFMT_REGN);
	p64(r + HF_REGN_LO, 0x7f000);
	p64(r + HF_REGN_HI, 0x80000);
	p32(r + HF_REGN_KIND, HEAPFMT_RGN_STACK);
	p32(r + HF_REGN_MODULE, HEAPFMT_NONE);
	r = rec(b, HEAPFMT_REGN);
	p32(r + HF_REGN_KIND, HEAPFMT_RGN_REGS);
	p32(r + HF_REGN_MODULE, HEAPFMT_NONE);

	for (i = 0; i < 2; i++) {
		r = rec(b, HEAPFMT_LOCS);
		p64(r + HF_LOCS_PC, 0x400100 + i * 16);
		p32(r + HF_LOCS_FUNCTION, str(b, i ? "main" : "make"));
	}
	for (i = 0; i < 3; i++)
		p32(rec(b, HEAPFMT_FRMS), (uint32_t)(i % 2));
	r = rec(b, HEAPFMT_SITE);
	p32(r + HF_SITE_NFRAMES, 2);
	p64(r + HF_SITE_ALLOCS, 5);
	p32(r + HF_SITE_TYPE, 1);
	r = rec(b, HEAPFMT_SITE);
	p32(r + HF_SITE_FIRST_FRAME, 2);
	p32(r + HF_SITE_NFRAMES, 1);
	p64(r + HF_SITE_ALLOCS, 1);
	p32(r + HF_SITE_TYPE, HEAPFMT_NONE);
	r = rec(b, HEAPFMT_TYPE);
	p32(r + HF_TYPE_NAME, str(b, "Circle"));
	p32(r + HF_TYPE_KIND, HEAPFMT_TYPE_VTABLE);
	p32(r + HF_TYPE_SITE, HEAPFMT_NONE);
	r = rec(b, HEAPFMT_TYPE);
	p32(r + HF_TYPE_NAME, str(b, "make"));
	p32(r + HF_TYPE_KIND, HEAPFMT_TYPE_SITE);
	p32(r + HF_TYPE_MODULE, HEAPFMT_NONE);

	for (i = 0; i < sizeof blk / sizeof blk[0]; i++) {
		r = rec(b, HEAPFMT_BLKS);
		p64(r + HF_BLKS_ADDR, blk[i].addr);
		p64(r + HF_BLKS_SIZE, blk[i].size);
		p64(r + HF_BLKS_SEQ, i);
		p32(r + HF_BLKS_SITE, i == 0 ? 1 : 0);
		p32(r + HF_BLKS_TYPE, i == 0 ? 0 : 1);
		p32(r + HF_BLKS_REGION, 0);
		kept += blk[i].size < 16 ? blk[i].size : 16;
	}
	/* 0 -> 1 (start), 0 -> 3 (8 in), 4 <-> 5. */
	r = rec(b, HEAPFMT_EDGS);
	p32(r + HF_EDGS_DST, 1);
	r = rec(b, HEAPFMT_EDGS);
	p32(r + HF_EDGS_SRC_WORD, 1);
	p32(r + HF_EDGS_DST, 3);
	p32(r + HF_EDGS_DST_OFF, 8);
	r = rec(b, HEAPFMT_EDGS);
	p32(r + HF_EDGS_SRC, 4);
	p32(r + HF_EDGS_DST, 5);
	r = rec(b, HEAPFMT_EDGS);
	p32(r + HF_EDGS_SRC, 5);
	p32(r + HF_EDGS_SRC_WORD, 2);
	p32(r + HF_EDGS_DST, 4);
	/* A global at the start of block 0; rax at the 0-byte block. */
	r = rec(b, HEAPFMT_ROOT);
	p64(r + HF_ROOT_ADDR, 0x40010);
	p32(r + HF_ROOT_REGION, 1);
	p32(r + HF_ROOT_SYMBOL, str(b, "head"));
	r = rec(b, HEAPFMT_ROOT);
	p64(r + HF_ROOT_ADDR, 13);
	p32(r + HF_ROOT_REGION, 3);
	p32(r + HF_ROOT_DST, 2);
	p32(r + HF_ROOT_SYMBOL, str(b, "rax"));
	for (i = 0; i < kept; i++)
		*rec(b, HEAPFMT_DATA) = (uint8_t)i;
	build(b);
}

/* Parse b's bytes (len of them); 0 or -1 with *cause. */
static int
parse(const uint8_t *buf, size_t len, struct ingest_heap *h, char **cause)
{
	struct ingest_ctx	ctx;
	int			rc;

	memset(&ctx, 0, sizeof ctx);
	ctx.path = "t.heap";
	ctx.buf = buf;
	ctx.len = len;
	rc = ingest_heap_parse(&ctx, h);
	*cause = ctx.cause;
	if (rc == 0)
		ck_assert_ptr_null(ctx.cause);
	else
		ck_assert_ptr_nonnull(ctx.cause);
	return (rc);
}

/* b with the width-byte value at off set to v must fail, saying want. */
static void
bad_at(struct hb *b, size_t off, int width, uint64_t v, const char *want)
{
	struct ingest_heap	 h;
	uint8_t			*copy = malloc(b->len);
	char			*cause;

	memcpy(copy, b->buf, b->len);
	if (width == 4)
		p32(copy + off, (uint32_t)v);
	else
		p64(copy + off, v);
	ck_assert_int_ne(parse(copy, b->len, &h, &cause), 0);
	ck_assert_msg(strstr(cause, want) != NULL, "\"%s\" lacks \"%s\"",
	    cause, want);
	free(cause);
	free(copy);
}

/* ... failing at off itself, in field. */
static void
bad_field(struct hb *b, size_t off, int width, uint64_t v, const char *field)
{
	char	want[64];

	snprintf(want, sizeof want, "offset %zu: %s", off, field);
	bad_at(b, off, width, v, want);
}

#define bad32(b, off, v, field)		bad_field(b, off, 4, v, field)
#define bad64(b, off, v, field)		bad_field(b, off, 8, v, field)
#define bad32_msg(b, off, v, text)	bad_at(b, off, 4, v, text)

START_TEST(test_good)
{
	struct hb		 b;
	struct ingest_heap	 h;
	char			*cause;

	good(&b);
	ck_assert_int_eq(parse(b.buf, b.len, &h, &cause), 0);
	ck_assert_int_eq(h.major, 1);
	ck_assert_uint_eq(h.b.count, 6);
	ck_assert_uint_eq(h.e.count, 4);
	ck_assert_uint_eq(h.root.count, 2);
	ck_assert_uint_eq(h.mods.count, 2);
	ck_assert_uint_eq(h.contents, 16);
	ck_assert_uint_eq(h.data.count, 80);
	ck_assert_str_eq(ingest_heap_str(&h, ingest_heap_u32(&h.info, 0,
	    HF_INFO_PROGRAM)), "/bin/prog");
	ck_assert_str_eq(ingest_heap_str(&h, ingest_heap_u32(&h.type, 0,
	    HF_TYPE_NAME)), "Circle");
	ck_assert_uint_eq(h.b.addr[3], 0x1080);
	ck_assert_uint_eq(h.e.dst_off[1], 8);
	/* By source block: 0's two, then 4's and 5's. */
	ck_assert_uint_eq(h.e.first[0], 0);
	ck_assert_uint_eq(h.e.first[1], 2);
	ck_assert_uint_eq(h.e.first[4], 2);
	ck_assert_uint_eq(h.e.first[5], 3);
	ck_assert_uint_eq(h.e.first[6], 4);
	ck_assert_uint_eq(h.e.word[1], 1);
	ck_assert_uint_eq(h.e.dst[1], 3);
	ck_assert_uint_eq(ingest_heap_data_at(&h, 3), 32);
	ck_assert_uint_eq(h.data.p[ingest_heap_data_at(&h, 3)], 32);
	ingest_heap_free(&h);
	hb_free(&b);
}
END_TEST

/* A file cut anywhere is refused, with an offset, and never read past. */
START_TEST(test_truncated)
{
	struct hb		 b;
	struct ingest_heap	 h;
	uint8_t			*copy;
	char			*cause;
	size_t			 n;

	good(&b);
	for (n = 0; n < b.len; n++) {
		/* Exactly n bytes: a sanitizer build sees any overrun. */
		copy = malloc(n != 0 ? n : 1);
		memcpy(copy, b.buf, n);
		ck_assert_int_ne(parse(copy, n, &h, &cause), 0);
		ck_assert_msg(strstr(cause, "t.heap: offset ") == cause, "%s",
		    cause);
		free(cause);
		free(copy);
	}
	hb_free(&b);
}
END_TEST

START_TEST(test_bad_header)
{
	struct hb	b;

	good(&b);
	bad32(&b, 0, 0x41424344, "magic");
	bad32(&b, 8, 3, "major");
	bad32(&b, 8, 0, "major");
	bad64(&b, 16, b.len + 8, "file_size");
	bad64(&b, 16, b.len - 8, "file_size");
	bad32(&b, 24, 12, "header_size");
	bad32(&b, 24, 33, "header_size");
	bad32(&b, 12, 100000, "nsections");
	hb_free(&b);
}
END_TEST

START_TEST(test_bad_sections)
{
	struct hb	b;
	size_t		e;

	good(&b);
	e = entry(&b, HEAPFMT_BLKS);
	bad32(&b, e + 4, 0, "BLKS.record_size");
	bad32(&b, e + 4, HEAPFMT_BLKS_SIZE - 8, "BLKS.record_size");
	bad64(&b, e + 8, sec(&b, HEAPFMT_BLKS)->off + 4, "BLKS.offset");
	bad64(&b, e + 8, 8, "BLKS.offset");
	bad64(&b, e + 8, b.len + 8, "BLKS.offset");
	bad64(&b, e + 16, 1000, "BLKS.count");
	bad64(&b, e + 16, UINT64_MAX / 2, "BLKS.count");
	/* EDGS moved onto BLKS: the later of the two is named. */
	bad64(&b, entry(&b, HEAPFMT_EDGS) + 8, sec(&b, HEAPFMT_BLKS)->off,
	    "EDGS.offset");
	/* A second SITE: BLKS renamed (it comes after SITE). */
	bad32(&b, e, 0x45544953, "SITE");
	/* No BLKS, no INFO: their tags renamed to unknown ones. */
	bad32_msg(&b, e, 0x5a5a5a5a, "offset 32: sections: no BLKS");
	bad32_msg(&b, entry(&b, HEAPFMT_INFO), 0x5a5a5a5a,
	    "sections: no INFO");
	bad64(&b, entry(&b, HEAPFMT_INFO) + 16, 0, "INFO.count");
	/* The string table must end with NUL. */
	bad32_msg(&b, (size_t)sec(&b, HEAPFMT_STRS)->off +
	    sec(&b, HEAPFMT_STRS)->n - 4, 0x41414141, ": STRS: ");
	hb_free(&b);
}
END_TEST

/* Every index and string field, one bad value each. */
START_TEST(test_bad_fields)
{
	static const struct {
		const char	*tag;
		size_t		 i;
		size_t		 off;
		uint32_t	 v;
		const char	*field;
	} f[] = {
		{ HEAPFMT_INFO, 0, HF_INFO_PROGRAM, 1 << 20,
		    "INFO[0].program" },
		{ HEAPFMT_INFO, 0, HF_INFO_CMDLINE, 1 << 20,
		    "INFO[0].cmdline" },
		{ HEAPFMT_CNTR, 0, HF_CNTR_NAME, 1 << 20, "CNTR[0].name" },
		{ HEAPFMT_MODS, 1, HF_MODS_PATH, 1 << 20, "MODS[1].path" },
		{ HEAPFMT_MODS, 0, HF_MODS_BUILD_ID, 1 << 20,
		    "MODS[0].build_id" },
		{ HEAPFMT_MODS, 0, HF_MODS_NIMPORTS, 2, "MODS[0].nimports" },
		{ HEAPFMT_MODS, 1, HF_MODS_FIRST_IMPORT, 0xffffffff,
		    "MODS[1].first_import" },
		{ HEAPFMT_SITE, 1, HF_SITE_FIRST_FRAME, 4,
		    "SITE[1].first_frame" },
		{ HEAPFMT_IMPS, 0, HF_IMPS_MODULE, 2, "IMPS[0].module" },
		{ HEAPFMT_IMPS, 0, HF_IMPS_TARGET, 7, "IMPS[0].target" },
		{ HEAPFMT_THRS, 0, HF_THRS_REGS, 4, "THRS[0].regs" },
		{ HEAPFMT_THRS, 0, HF_THRS_NAME, 1 << 20, "THRS[0].name" },
		{ HEAPFMT_REGN, 1, HF_REGN_MODULE, 2, "REGN[1].module" },
		{ HEAPFMT_REGN, 2, HF_REGN_THREAD, 1, "REGN[2].thread" },
		{ HEAPFMT_LOCS, 1, HF_LOCS_MODULE, 5, "LOCS[1].module" },
		{ HEAPFMT_LOCS, 0, HF_LOCS_FUNCTION, 1 << 20,
		    "LOCS[0].function" },
		{ HEAPFMT_FRMS, 2, HF_FRMS_LOC, 2, "FRMS[2].loc" },
		{ HEAPFMT_SITE, 1, HF_SITE_NFRAMES, 2, "SITE[1].nframes" },
		{ HEAPFMT_SITE, 0, HF_SITE_TYPE, 2, "SITE[0].type" },
		{ HEAPFMT_TYPE, 1, HF_TYPE_SITE, 2, "TYPE[1].site" },
		{ HEAPFMT_TYPE, 0, HF_TYPE_MODULE, 2, "TYPE[0].module" },
		{ HEAPFMT_BLKS, 2, HF_BLKS_SITE, 2, "BLKS[2].site" },
		{ HEAPFMT_BLKS, 3, HF_BLKS_TYPE, 9, "BLKS[3].type" },
		{ HEAPFMT_BLKS, 5, HF_BLKS_REGION, 4, "BLKS[5].region" },
		{ HEAPFMT_EDGS, 0, HF_EDGS_SRC, 6, "EDGS[0].src" },
		{ HEAPFMT_EDGS, 1, HF_EDGS_DST, 6, "EDGS[1].dst" },
		{ HEAPFMT_EDGS, 2, HF_EDGS_SRC, 0, "EDGS[2].src" },
		{ HEAPFMT_EDGS, 1, HF_EDGS_SRC_WORD, 4, "EDGS[1].src_word" },
		{ HEAPFMT_EDGS, 3, HF_EDGS_SRC_WORD, 3, "EDGS[3].src_word" },
		{ HEAPFMT_EDGS, 1, HF_EDGS_DST_OFF, 40, "EDGS[1].dst_off" },
		{ HEAPFMT_ROOT, 0, HF_ROOT_REGION, 4, "ROOT[0].region" },
		{ HEAPFMT_ROOT, 1, HF_ROOT_DST, 6, "ROOT[1].dst" },
		{ HEAPFMT_ROOT, 1, HF_ROOT_DST_OFF, 1, "ROOT[1].dst_off" },
		{ HEAPFMT_ROOT, 0, HF_ROOT_SYMBOL, 1 << 20,
		    "ROOT[0].symbol" },
		/* Usable bytes into the next block: the map draws them. */
		{ HEAPFMT_BLKS, 0, HF_BLKS_SLACK, 17, "BLKS[0].slack" },
	};
	struct hb	b;
	size_t		i;

	good(&b);
	for (i = 0; i < sizeof f / sizeof f[0]; i++)
		bad32(&b, at(&b, f[i].tag, f[i].i, f[i].off), f[i].v,
		    f[i].field);
	/* Blocks out of order, a block running into the next, a region
	 * ending before it starts, the kept bytes not adding up. */
	/* A word twice: the order is named at the edge's src. */
	bad32_msg(&b, at(&b, HEAPFMT_EDGS, 1, HF_EDGS_SRC_WORD), 0,
	    "EDGS[1].src: edges go by source block and word");
	bad64(&b, at(&b, HEAPFMT_BLKS, 3, HF_BLKS_ADDR), 0x1060,
	    "BLKS[3].addr");
	bad64(&b, at(&b, HEAPFMT_BLKS, 1, HF_BLKS_SIZE), 33, "BLKS[1].size");
	bad64(&b, at(&b, HEAPFMT_BLKS, 5, HF_BLKS_SIZE), UINT64_MAX - 8,
	    "BLKS[5].size");
	bad64(&b, at(&b, HEAPFMT_REGN, 0, HF_REGN_HI), 0x10, "REGN[0].hi");
	bad32_msg(&b, at(&b, HEAPFMT_INFO, 0, HF_INFO_CONTENTS), 8,
	    "DATA.count: the blocks' first 8 bytes make 40 bytes, DATA has 80");
	hb_free(&b);
}
END_TEST

/*
 * Every 64-bit value the store keeps, at 2^63: SQLite's integers are
 * signed, and it came back negative.  The block's end and usable size
 * past 2^63 - 1 too, which would make the sums of sizes overflow.
 */
START_TEST(test_past_2_63)
{
	static const struct {
		const char	*tag;
		size_t		 i;
		size_t		 off;
		const char	*field;
	} f[] = {
		{ HEAPFMT_INFO, 0, HF_INFO_TIME_NS, "INFO[0].time_ns" },
		{ HEAPFMT_INFO, 0, HF_INFO_STOP_NS, "INFO[0].stop_ns" },
		{ HEAPFMT_INFO, 0, HF_INFO_SEQ, "INFO[0].seq" },
		{ HEAPFMT_INFO, 0, HF_INFO_STARTED_NS, "INFO[0].started_ns" },
		{ HEAPFMT_INFO, 0, HF_INFO_CONTENTS, "INFO[0].contents" },
		{ HEAPFMT_CNTR, 0, HF_CNTR_VALUE, "CNTR[0].value" },
		{ HEAPFMT_MODS, 1, HF_MODS_BASE, "MODS[1].base" },
		{ HEAPFMT_MODS, 0, HF_MODS_LO, "MODS[0].lo" },
		{ HEAPFMT_MODS, 0, HF_MODS_HI, "MODS[0].hi" },
		{ HEAPFMT_MODS, 1, HF_MODS_CODE, "MODS[1].code" },
		{ HEAPFMT_MODS, 1, HF_MODS_DATA, "MODS[1].data" },
		{ HEAPFMT_REGN, 0, HF_REGN_LO, "REGN[0].lo" },
		{ HEAPFMT_REGN, 2, HF_REGN_HI, "REGN[2].hi" },
		{ HEAPFMT_LOCS, 1, HF_LOCS_PC, "LOCS[1].pc" },
		{ HEAPFMT_SITE, 0, HF_SITE_ALLOCS, "SITE[0].allocs" },
		{ HEAPFMT_SITE, 1, HF_SITE_FREES, "SITE[1].frees" },
		{ HEAPFMT_SITE, 0, HF_SITE_BYTES, "SITE[0].bytes" },
		{ HEAPFMT_SITE, 0, HF_SITE_PEAK, "SITE[0].peak" },
		{ HEAPFMT_SITE, 1, HF_SITE_LIVE_BYTES, "SITE[1].live_bytes" },
		{ HEAPFMT_SITE, 1, HF_SITE_LIVE_BLOCKS,
		    "SITE[1].live_blocks" },
		{ HEAPFMT_TYPE, 0, HF_TYPE_VTABLE, "TYPE[0].vtable" },
		{ HEAPFMT_BLKS, 5, HF_BLKS_ADDR, "BLKS[5].addr" },
		{ HEAPFMT_BLKS, 2, HF_BLKS_SEQ, "BLKS[2].seq" },
		{ HEAPFMT_ROOT, 1, HF_ROOT_ADDR, "ROOT[1].addr" },
	};
	struct hb		 b;
	struct ingest_heap	 h;
	char			*cause, want[64];
	size_t			 i;

	good(&b);
	for (i = 0; i < sizeof f / sizeof f[0]; i++) {
		bad64(&b, at(&b, f[i].tag, f[i].i, f[i].off),
		    (uint64_t)1 << 63, f[i].field);
		/* INFO.contents' all ones is HEAPFMT_CONTENTS_ALL. */
		if (strcmp(f[i].field, "INFO[0].contents") != 0)
			bad64(&b, at(&b, f[i].tag, f[i].i, f[i].off),
			    UINT64_MAX, f[i].field);
	}
	/* A block below 2^63 that ends there. */
	snprintf(want, sizeof want, "offset %zu: BLKS[5].size", at(&b,
	    HEAPFMT_BLKS, 5, HF_BLKS_SIZE));
	bad_at(&b, at(&b, HEAPFMT_BLKS, 5, HF_BLKS_ADDR), 8, INT64_MAX - 8,
	    want);
	bad64(&b, at(&b, HEAPFMT_BLKS, 5, HF_BLKS_SIZE),
	    INT64_MAX - 0x1100 + 1, "BLKS[5].size");
	/* 2^63 - 1 itself is kept; a usable size past it is not. */
	p64(b.buf + at(&b, HEAPFMT_SITE, 0, HF_SITE_ALLOCS), INT64_MAX);
	p64(b.buf + at(&b, HEAPFMT_BLKS, 5, HF_BLKS_SIZE), INT64_MAX - 0x1100);
	ck_assert_msg(parse(b.buf, b.len, &h, &cause) == 0, "%s", cause);
	ingest_heap_free(&h);
	bad32(&b, at(&b, HEAPFMT_BLKS, 5, HF_BLKS_SLACK), 0xffffffff,
	    "BLKS[5].slack");
	hb_free(&b);
}
END_TEST

/* A later minor version: longer records, an unknown section. */
START_TEST(test_later_minor)
{
	struct hb		 b;
	struct ingest_heap	 h;
	struct hsec		*s;
	uint8_t			*p;
	char			*cause;
	size_t			 i;

	good(&b);
	s = sec(&b, HEAPFMT_BLKS);
	p = calloc(s->n, s->rs + 8);
	for (i = 0; i < s->n; i++)
		memcpy(p + i * (s->rs + 8), s->p + i * s->rs, s->rs);
	free(s->p);
	s->p = p;
	s->rs += 8;
	sec_new(&b, "ZZZZ", 12);
	rec(&b, "ZZZZ");
	b.buf[10] = 7;
	build(&b);
	b.buf[10] = 7;
	ck_assert_int_eq(parse(b.buf, b.len, &h, &cause), 0);
	ck_assert_uint_eq(h.minor, 7);
	ck_assert_uint_eq(h.blks.size, HEAPFMT_BLKS_SIZE + 8);
	ck_assert_uint_eq(h.b.addr[5], 0x1100);
	ingest_heap_free(&h);
	hb_free(&b);
}
END_TEST

/* ---- version 2: BLKV ----------------------------------------------- */

static uint32_t
g32(const uint8_t *p)
{
	return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24);
}

static uint64_t
g64(const uint8_t *p)
{
	return ((uint64_t)g32(p) | (uint64_t)g32(p + 4) << 32);
}

/*
 * This test's packer (heapfmt.h has the layout), apart from pvheap's:
 * the first field named bad of block blk (UINT64_MAX: of the section)
 * is written as the bytes raw instead, and at is where they went in
 * BLKV.
 */
struct pk {
	uint8_t		*p;
	size_t		 n;
	const char	*bad;
	uint64_t	 blk, cur;
	const uint8_t	*raw;
	size_t		 nraw, at;
};

static void
pk_bytes(struct pk *k, const uint8_t *p, size_t n)
{
	k->p = realloc(k->p, k->n + n + 1);
	ck_assert_ptr_nonnull(k->p);
	memcpy(k->p + k->n, p, n);
	k->n += n;
}

static void
pk_put(struct pk *k, const char *field, uint64_t v)
{
	uint8_t	b[10];
	size_t	n = 0;

	if (k->bad != NULL && k->blk == k->cur && strcmp(k->bad, field) == 0) {
		k->at = k->n;
		pk_bytes(k, k->raw, k->nraw);
		k->bad = NULL;		/* the first of the block's only */
		return;
	}
	do {
		b[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v != 0);
	pk_bytes(k, b, n);
}

static void
pk_zz(struct pk *k, const char *field, uint64_t v, uint64_t from)
{
	uint64_t	d = v - from;

	pk_put(k, field, (d << 1) ^ (uint64_t)((int64_t)d >> 63));
}

/*
 * b's BLKS and EDGS as one BLKV (k, when not NULL, says what to spoil);
 * words 0 and 1 that are their pointers' are left to them.
 */
static void
pack(struct hb *b, struct pk *k)
{
	struct pk	 none;
	struct hsec	*bs = sec(b, HEAPFMT_BLKS), *es = sec(b, HEAPFMT_EDGS);
	const uint8_t	*r, *e;
	uint64_t	 i, j = 0, n, x, head, w, addr, paddr = 0, pseq = 0;
	uint64_t	 ptid = 0, pword, pdst;
	int		 t, m;

	if (k == NULL) {
		memset(&none, 0, sizeof none);
		k = &none;
	}
	k->cur = UINT64_MAX;
	pk_put(k, "nblocks", bs->n);
	pk_put(k, "nedges", es->n);
	for (i = 0; i < bs->n; i++) {
		k->cur = i;
		r = bs->p + i * bs->rs;
		for (n = 0; j + n < es->n &&
		    g32(es->p + (j + n) * es->rs + HF_EDGS_SRC) == i; n++)
			;
		addr = g64(r + HF_BLKS_ADDR);
		head = (uint64_t)g32(r + HF_BLKS_FLAGS) << HEAPFMT_V_FLAGS_SHIFT;
		for (t = 0; t < 2; t++) {
			w = g64(r + HF_BLKS_WORD0 + 8 * t);
			for (m = 0, x = 0; x < n; x++) {
				e = es->p + (j + x) * es->rs;
				if (g32(e + HF_EDGS_SRC_WORD) == (uint32_t)t &&
				    w == g64(bs->p + g32(e + HF_EDGS_DST) *
				    bs->rs + HF_BLKS_ADDR) + g32(e +
				    HF_EDGS_DST_OFF))
					m = 1;
			}
			if (m)
				head |= (uint64_t)HEAPFMT_V_W0_EDGE << t;
			else if (w != 0)
				head |= (uint64_t)HEAPFMT_V_W0 << t;
		}
		pk_put(k, "head", head);
		pk_put(k, "addr", addr - paddr);
		pk_put(k, "size", g64(r + HF_BLKS_SIZE));
		pk_zz(k, "seq", g64(r + HF_BLKS_SEQ), pseq);
		if (head & HEAPFMT_V_W0)
			pk_zz(k, "word0", g64(r + HF_BLKS_WORD0), addr);
		if (head & HEAPFMT_V_W1)
			pk_zz(k, "word1", g64(r + HF_BLKS_WORD1), addr);
		pk_put(k, "slack", g32(r + HF_BLKS_SLACK));
		pk_put(k, "site", (uint32_t)(g32(r + HF_BLKS_SITE) + 1));
		pk_zz(k, "tid", g32(r + HF_BLKS_TID), ptid);
		pk_put(k, "type", (uint32_t)(g32(r + HF_BLKS_TYPE) + 1));
		pk_put(k, "region", (uint32_t)(g32(r + HF_BLKS_REGION) + 1));
		pk_put(k, "npointers", n);
		pword = 0;
		pdst = i;
		for (x = 0; x < n; x++, j++) {
			e = es->p + j * es->rs;
			pk_put(k, "word", g32(e + HF_EDGS_SRC_WORD) - pword);
			pk_zz(k, "dst", g32(e + HF_EDGS_DST), pdst);
			w = g32(e + HF_EDGS_DST_OFF);
			pk_put(k, "dst_off", (w & HEAPFMT_OFF_MASK) << 1 | w >> 31);
			pword = g32(e + HF_EDGS_SRC_WORD);
			pdst = g32(e + HF_EDGS_DST);
		}
		paddr = addr;
		pseq = g64(r + HF_BLKS_SEQ);
		ptid = g32(r + HF_BLKS_TID);
	}
	/* BLKV where BLKS was; EDGS gone. */
	free(bs->p);
	memset(bs, 0, sizeof *bs);
	memcpy(bs->tag, HEAPFMT_BLKV, 4);
	bs->rs = 1;
	bs->p = k->p;
	bs->n = k->n;
	k->p = NULL;
	free(es->p);
	memmove(es, es + 1, (size_t)(b->s + b->ns - es - 1) * sizeof *es);
	b->ns--;
	build(b);
}

/* Where BLKV's byte i is in the built file. */
static size_t
blkv_at(struct hb *b, size_t i)
{
	return ((size_t)sec(b, HEAPFMT_BLKV)->off + i);
}

/*
 * good() with words 0 and 1 set: block 0's are its two pointers' (the
 * second 8 bytes into block 3), block 4's word 0 a number its pointer
 * at word 0 is not, block 5's word 1 below its address.
 */
static void
good_words(struct hb *b)
{
	struct hsec	*s;

	good(b);
	s = sec(b, HEAPFMT_BLKS);
	p64(s->p + HF_BLKS_WORD0, 0x1040);
	p64(s->p + HF_BLKS_WORD1, 0x1088);
	p64(s->p + 4 * s->rs + HF_BLKS_WORD0, 0x1234567);
	p64(s->p + 5 * s->rs + HF_BLKS_WORD1, 5);
	build(b);
}

/* Whether two parses' arrays hold the same blocks and pointers. */
static void
same_arrays(const struct ingest_heap *x, const struct ingest_heap *y)
{
	const struct ingest_heap_blocks	*a = &x->b, *b = &y->b;
	size_t				 n = (size_t)a->count;
	size_t				 ne = (size_t)x->e.count, i;
	unsigned			 w;

	ck_assert_uint_eq(a->count, b->count);
	ck_assert_uint_eq(x->e.count, y->e.count);
#define SAME(f, k)	ck_assert_msg(memcmp(a->f, b->f, (k) * sizeof *a->f) \
			    == 0, #f " differ")
	SAME(addr, n);
	SAME(size, n);
	SAME(seq, n);
	SAME(slack, n);
	SAME(site, n);
	SAME(type, n);
	SAME(region, n);
	SAME(tid, n);
	SAME(flags, n);
#undef SAME
	/* Words that are their pointers' are made from them. */
	for (i = 0; i < n; i++) {
		for (w = 0; w < 2; w++)
			ck_assert_msg(ingest_heap_word(x, i, w) ==
			    ingest_heap_word(y, i, w), "block %zu word %u", i,
			    w);
	}
#define SAME(f, k)	ck_assert_msg(memcmp(x->e.f, y->e.f, \
			    (k) * sizeof *x->e.f) == 0, #f " differ")
	SAME(first, n + 1);
	SAME(dst, ne);
	SAME(word, ne);
	SAME(dst_off, ne);
#undef SAME
}

/* Version 2 reads back to the blocks and pointers version 1 holds. */
START_TEST(test_v2_same)
{
	struct hb		 b;
	struct ingest_heap	 h, h1;
	char			*cause;

	good_words(&b);
	ck_assert_int_eq(parse(b.buf, b.len, &h1, &cause), 0);
	ck_assert_int_eq(h1.major, 1);
	pack(&b, NULL);
	ck_assert_msg(parse(b.buf, b.len, &h, &cause) == 0, "%s", cause);
	ck_assert_int_eq(h.major, 2);
	ck_assert_uint_eq(h.b.count, 6);
	ck_assert_uint_eq(h.e.count, 4);
	same_arrays(&h1, &h);
	ck_assert_uint_eq(h.b.wptr[0], HEAPFMT_V_W0_EDGE | HEAPFMT_V_W1_EDGE);
	ck_assert_uint_eq(ingest_heap_word(&h, 0, 0), 0x1040);
	ck_assert_uint_eq(ingest_heap_word(&h, 0, 1), 0x1088);
	ck_assert_uint_eq(h.b.wptr[4], 0);
	ck_assert_uint_eq(ingest_heap_word(&h, 4, 0), 0x1234567);
	ck_assert_uint_eq(ingest_heap_word(&h, 5, 1), 5);
	ck_assert_uint_eq(ingest_heap_data_at(&h, 3), 32);
	/* 17 bytes of BLKV the six blocks, 3 each pointer: 96 each. */
	ck_assert_uint_lt(sec(&b, HEAPFMT_BLKV)->n, 6 * 20 + 4 * 4 + 2);
	ingest_heap_free(&h);
	ingest_heap_free(&h1);
	hb_free(&b);

	/* Blocks with no words and no pointers: 10 bytes each, no more. */
	good(&b);
	sec(&b, HEAPFMT_EDGS)->n = 0;
	pack(&b, NULL);
	ck_assert_uint_eq(sec(&b, HEAPFMT_BLKV)->n, 2 + 6 * 10 + 1);
	ck_assert_msg(parse(b.buf, b.len, &h, &cause) == 0, "%s", cause);
	ck_assert_uint_eq(h.b.count, 6);
	ck_assert_uint_eq(h.e.first[6], 0);
	ingest_heap_free(&h);
	hb_free(&b);
}
END_TEST

/* A version 2 file cut anywhere is refused, with an offset. */
START_TEST(test_v2_truncated)
{
	struct hb		 b;
	struct ingest_heap	 h;
	uint8_t			*copy;
	char			*cause;
	size_t			 n;

	good_words(&b);
	pack(&b, NULL);
	for (n = 0; n < b.len; n++) {
		copy = malloc(n != 0 ? n : 1);
		memcpy(copy, b.buf, n);
		ck_assert_int_ne(parse(copy, n, &h, &cause), 0);
		ck_assert_msg(strstr(cause, "t.heap: offset ") == cause, "%s",
		    cause);
		ingest_heap_free(&h);
		free(cause);
		free(copy);
	}
	hb_free(&b);
}
END_TEST

/*
 * good_words() packed with field of block blk (UINT64_MAX: the
 * section's) written as raw must fail saying want, and at the field's
 * offset when want names a field of BLKV.
 */
static void
v2_bad(const char *field, uint64_t blk, const char *raw, size_t nraw,
    const char *want)
{
	struct hb		 b;
	struct ingest_heap	 h;
	struct pk		 k;
	char			*cause, full[96];

	memset(&k, 0, sizeof k);
	k.bad = field;
	k.blk = blk;
	k.raw = (const uint8_t *)raw;
	k.nraw = nraw;
	good_words(&b);
	pack(&b, &k);
	if (strncmp(want, "BLKV", 4) == 0)
		snprintf(full, sizeof full, "offset %zu: %s", blkv_at(&b,
		    k.at), want);
	else
		snprintf(full, sizeof full, "%s", want);
	ck_assert_int_ne(parse(b.buf, b.len, &h, &cause), 0);
	ck_assert_msg(strstr(cause, full) != NULL, "\"%s\" lacks \"%s\"",
	    cause, full);
	ingest_heap_free(&h);
	free(cause);
	hb_free(&b);
}

#define V2_BAD(f, i, raw, want)	v2_bad(f, i, raw, sizeof raw - 1, want)

/* Each of BLKV's fields, bad. */
START_TEST(test_v2_bad_fields)
{
	struct hb		 b;
	struct ingest_heap	 h;
	char			*cause, want[96];
	size_t			 e;

	/* Varints: past 64 bits (in 10 bytes, or more), cut by the end. */
	V2_BAD("size", 2, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x02",
	    "BLKV[2].size: a varint of more than 64 bits");
	V2_BAD("size", 2, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x81\x01",
	    "BLKV[2].size: a varint of more than 64 bits");
	V2_BAD("nblocks", UINT64_MAX, "\x80\x80\x01",
	    "BLKV.nblocks: 16384 blocks");
	V2_BAD("nedges", UINT64_MAX, "\x05", ": BLKV.nedges: 4 pointers of 5");
	V2_BAD("nedges", UINT64_MAX, "\x03", ": BLKV[5].npointers: 1 is more"
	    " than 0");
	V2_BAD("head", 1, "\x05", "BLKV[1].head: 0x5");
	/* Block 1 has no pointer: its word 0 cannot be one's. */
	V2_BAD("head", 1, "\x04", "BLKV[1].head: word 0 is its pointer's");
	V2_BAD("head", 3, "\x80\x80\x80\x80\x80\x02",
	    "BLKV[3].head: 0x1000000000: flags past 32 bits");
	V2_BAD("addr", 1, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
	    "BLKV[1].addr: 18446744073709551615 past 0x1010");
	V2_BAD("slack", 0, "\x80\x80\x80\x80\x10", "BLKV[0].slack");
	V2_BAD("site", 0, "\x80\x80\x80\x80\x10", "BLKV[0].site");
	V2_BAD("tid", 0, "\x01", "BLKV[0].tid: -1 from 0 is outside 32 bits");
	V2_BAD("type", 0, "\x80\x80\x80\x80\x10", "BLKV[0].type");
	V2_BAD("region", 0, "\x80\x80\x80\x80\x10", "BLKV[0].region");
	V2_BAD("word", 0, "\x80\x80\x80\x80\x10", "BLKV[0].word");
	V2_BAD("dst", 0, "\x01", "BLKV[0].dst: -1 from 0 is outside 32");
	V2_BAD("dst_off", 0, "\x80\x80\x80\x80\x10", "BLKV[0].dst_off");
	/* A byte after the last block. */
	V2_BAD("dst_off", 5, "\x00\x00", ": BLKV.nedges: 4 pointers of 4, and"
	    " 1 bytes after");
	/*
	 * Checked as version 1's records, named so, at the block's bytes:
	 * a site past SITE, a pointer past its block's end, a pointer to a
	 * block that is not there, two blocks at one address.
	 */
	V2_BAD("site", 4, "\x03", ": BLKS[4].site: 2 is not a record of SITE");
	V2_BAD("word", 4, "\x07", ": EDGS[2].src_word: word 7 is past the 24"
	    " bytes of block 4");
	V2_BAD("dst", 4, "\x0e", ": EDGS[2].dst: 11 is not a record of BLKS");
	V2_BAD("addr", 1, "\x00", ": BLKS[0].size: 32 bytes at 0x1010 run into"
	    " the next block");

	/* BLKS in version 2; no BLKV. */
	good_words(&b);
	pack(&b, NULL);
	sec_new(&b, HEAPFMT_EDGS, HEAPFMT_EDGS_SIZE);
	rec(&b, HEAPFMT_EDGS);
	build(&b);
	ck_assert_int_ne(parse(b.buf, b.len, &h, &cause), 0);
	snprintf(want, sizeof want, "offset %zu: sections: a EDGS section in"
	    " version 2", entry(&b, HEAPFMT_EDGS));
	ck_assert_msg(strstr(cause, want) != NULL, "%s", cause);
	free(cause);
	free(b.s[--b.ns].p);
	build(&b);
	e = entry(&b, HEAPFMT_BLKV);
	memcpy(b.buf + e, "ZZZZ", 4);
	ck_assert_int_ne(parse(b.buf, b.len, &h, &cause), 0);
	ck_assert_msg(strstr(cause, "sections: no BLKV section") != NULL,
	    "%s", cause);
	free(cause);
	b.buf[8] = 3;
	ck_assert_int_ne(parse(b.buf, b.len, &h, &cause), 0);
	ck_assert_msg(strstr(cause, "offset 8: major: version 3.0 is"
	    " unsupported (profview reads 1.x to 2.x)") != NULL, "%s", cause);
	free(cause);
	hb_free(&b);
}
END_TEST

/* ---- into the store ------------------------------------------------- */

/*
 * Stacks sharing long frames: one name of namelen bytes, nlocs code
 * addresses in that function, nframes FRMS records going round them,
 * nsites sites each with the first depth of those frames and a block of
 * its own in one heap region.
 */
static void
shared(struct hb *b, size_t namelen, size_t nlocs, size_t nframes,
    size_t depth, size_t nsites)
{
	struct hsec	*strs;
	uint8_t		*r;
	uint32_t	 name;
	size_t		 i;

	memset(b, 0, sizeof *b);
	sec_new(b, HEAPFMT_INFO, HEAPFMT_INFO_SIZE);
	sec_new(b, HEAPFMT_REGN, HEAPFMT_REGN_SIZE);
	sec_new(b, HEAPFMT_LOCS, HEAPFMT_LOCS_SIZE);
	sec_new(b, HEAPFMT_FRMS, HEAPFMT_FRMS_SIZE);
	sec_new(b, HEAPFMT_SITE, HEAPFMT_SITE_SIZE);
	sec_new(b, HEAPFMT_BLKS, HEAPFMT_BLKS_SIZE);
	sec_new(b, HEAPFMT_STRS, 1);
	str(b, "");
	strs = sec(b, HEAPFMT_STRS);
	name = (uint32_t)strs->n;
	strs->p = realloc(strs->p, strs->n + namelen + 1);
	memset(strs->p + strs->n, 'f', namelen);
	strs->p[strs->n + namelen] = '\0';
	strs->n += namelen + 1;
	r = rec(b, HEAPFMT_INFO);
	p32(r + HF_INFO_PID, 42);
	p32(r + HF_INFO_DEPTH, (uint32_t)depth);
	r = rec(b, HEAPFMT_REGN);
	p64(r + HF_REGN_LO, 0x1000);
	p64(r + HF_REGN_HI, 0x1000 + 0x20 * nsites);
	p32(r + HF_REGN_KIND, HEAPFMT_RGN_HEAP);
	p32(r + HF_REGN_MODULE, HEAPFMT_NONE);
	p32(r + HF_REGN_THREAD, HEAPFMT_NONE);
	for (i = 0; i < nlocs; i++) {
		r = rec(b, HEAPFMT_LOCS);
		p64(r + HF_LOCS_PC, 0x400000 + 16 * i);
		p32(r + HF_LOCS_MODULE, HEAPFMT_NONE);
		p32(r + HF_LOCS_FUNCTION, name);
	}
	for (i = 0; i < nframes; i++)
		p32(rec(b, HEAPFMT_FRMS), (uint32_t)(i % nlocs));
	for (i = 0; i < nsites; i++) {
		r = rec(b, HEAPFMT_SITE);
		p32(r + HF_SITE_NFRAMES, (uint32_t)depth);
		p64(r + HF_SITE_ALLOCS, 1);
		p32(r + HF_SITE_TYPE, HEAPFMT_NONE);
		r = rec(b, HEAPFMT_BLKS);
		p64(r + HF_BLKS_ADDR, 0x1000 + 0x20 * i);
		p64(r + HF_BLKS_SIZE, 16);
		p32(r + HF_BLKS_SITE, (uint32_t)i);
		p32(r + HF_BLKS_TYPE, HEAPFMT_NONE);
		p32(r + HF_BLKS_REGION, 0);
	}
	build(b);
}

/* A store in memory holding at most max bytes, and b ingested into it. */
static struct store *
stored(struct hb *b, int64_t max, int64_t *id, char **cause)
{
	struct store	*st;
	const char	*kind;
	char		 sql[64];
	int		 reused;

	st = store_open(":memory:", 0, kind_store(), cause);
	ck_assert_msg(st != NULL, "%s", *cause);
	snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld",
	    (long long)(max / store_int_query(st, "PRAGMA page_size", 0, 0)));
	ck_assert_int_eq(store_exec(st, sql, cause), 0);
	*cause = NULL;
	if (ingest_bytes(st, "t.heap", b->buf, b->len, NULL, id, &kind,
	    &reused, cause) != 0)
		*id = -1;
	return (st);
}

/* The store's bytes now. */
static int64_t
store_bytes(struct store *st)
{
	return (store_int_query(st, "PRAGMA page_count", 0, 0) *
	    store_int_query(st, "PRAGMA page_size", 0, 0));
}

/*
 * The file: a 1 MiB name, 64 frames of it, 40 sites.  Each site
 * kept its stack as text, 64 MiB a site, and the ingest wrote gigabytes;
 * frames are stored once, so the store is about the file's size (and a
 * store that may not grow past three times the file holds it).  The
 * heap map shares them too: one frame, 40 runs of 64.
 */
START_TEST(test_frames_once)
{
	struct analyze_heapview	 v;
	struct hb		 b;
	struct store		*st;
	char			*cause = NULL, *stack;
	int64_t			 id, bytes;

	shared(&b, ((size_t)1 << 20) - 4096, 1, 64, 64, 40);
	st = stored(&b, 3 * (int64_t)b.len, &id, &cause);
	ck_assert_msg(id > 0, "%s", cause);
	bytes = store_bytes(st);
	fprintf(stderr, "# a %zu-byte file made a store of %lld bytes\n",
	    b.len, (long long)bytes);
	ck_assert_int_le(bytes, 3 * (int64_t)b.len);
	ck_assert_int_eq(store_int_query(st, "SELECT count(*) FROM heap_frame"
	    " WHERE session = ?1", id, -1), 1);
	ck_assert_int_eq(store_int_query(st, "SELECT count(*) FROM heap_stack"
	    " WHERE session = ?1", id, -1), 64);
	ck_assert_int_eq(store_int_query(st, "SELECT sum(nframes) FROM"
	    " heap_allocsite WHERE session = ?1", id, -1), 64 * 40);
	ck_assert_int_eq(analyze_heapview_load(st, id, &v, &cause), 0);
	ck_assert_uint_eq(v.nframes, 1);
	ck_assert_uint_eq(v.nsite_frames, 64 * 40);
	ck_assert_uint_eq(v.site_first[39], 64 * 39);
	/* The inspector's line: what its pane shows, not 64 MiB. */
	stack = analyze_heapview_stack(&v, 39, 80 * 24);
	ck_assert_uint_eq(strlen(stack), 80 * 24);
	free(stack);
	ck_assert_int_eq(analyze_heapview_map(&v, &cause), 0);
	analyze_heapview_free(&v);
	store_close(st);
	hb_free(&b);
}
END_TEST

/*
 * Many small records naming one long string: 2000 code addresses in a
 * function of a 64 KiB name would store 2000 frames of it (250 MB from
 * a 120 KB file).  The text the records name is bounded by the file's
 * size: refused at the record that passes it, before anything is
 * stored; 200 types of that name too.  Twenty of them are taken; a name
 * with line ends is not.
 */
START_TEST(test_text_bound)
{
	struct hb		 b;
	struct ingest_heap	 h;
	struct store		*st;
	uint8_t			*r;
	char			*cause;
	int64_t			 id;
	size_t			 i;

	shared(&b, (size_t)64 << 10, 2000, 2000, 64, 1);
	ck_assert_int_ne(parse(b.buf, b.len, &h, &cause), 0);
	ck_assert_msg(strstr(cause, ": LOCS[") != NULL && strstr(cause,
	    "the strings the records name come to more than") != NULL, "%s",
	    cause);
	free(cause);
	hb_free(&b);
	/* Any record that names a string: 200 types of that name. */
	shared(&b, (size_t)64 << 10, 1, 1, 1, 1);
	sec_new(&b, HEAPFMT_TYPE, HEAPFMT_TYPE_SIZE);
	for (i = 0; i < 200; i++) {
		r = rec(&b, HEAPFMT_TYPE);
		p32(r + HF_TYPE_NAME, 1);
		p32(r + HF_TYPE_MODULE, HEAPFMT_NONE);
		p32(r + HF_TYPE_SITE, HEAPFMT_NONE);
	}
	build(&b);
	ck_assert_int_ne(parse(b.buf, b.len, &h, &cause), 0);
	ck_assert_msg(strstr(cause, ": TYPE[") != NULL && strstr(cause,
	    "].name: the strings the records name come to more than") !=
	    NULL, "%s", cause);
	free(cause);
	hb_free(&b);
	shared(&b, (size_t)64 << 10, 20, 64, 64, 1);
	st = stored(&b, (int64_t)16 << 20, &id, &cause);
	ck_assert_msg(id > 0, "%s", cause);
	store_close(st);
	/* A name of line ends would be that many frames in the heap map. */
	memset(b.buf + sec(&b, HEAPFMT_STRS)->off + 1, '\n', 100);
	ck_assert_int_ne(parse(b.buf, b.len, &h, &cause), 0);
	ck_assert_msg(strstr(cause, "LOCS[0].function: a name with a line"
	    " end") != NULL, "%s", cause);
	free(cause);
	hb_free(&b);
}
END_TEST

/*
 * heap_site keeps its shape over the frames: the stack's text, the first
 * frame's function and pc, as when each site had its own.
 */
START_TEST(test_site_view)
{
	struct analyze_heapview	 v;
	struct hb		 b;
	struct store		*st;
	struct store_cursor	*c;
	char			*cause = NULL, *stack;
	int64_t			 id;

	good(&b);
	st = stored(&b, (int64_t)16 << 20, &id, &cause);
	ck_assert_msg(id > 0, "%s", cause);
	c = store_cursor_open(st, "SELECT idx, stack, function, pc,"
	    " coalesce(file, '-') FROM heap_site WHERE session = ?1"
	    " ORDER BY idx", id);
	ck_assert_int_eq(store_cursor_step(c), 1);
	ck_assert_str_eq(store_cursor_text(c, 1), "make (prog)\nmain (prog)");
	ck_assert_str_eq(store_cursor_text(c, 2), "make");
	ck_assert_int_eq(store_cursor_int(c, 3), 0x400100);
	ck_assert_str_eq(store_cursor_text(c, 4), "-");
	ck_assert_int_eq(store_cursor_step(c), 1);
	ck_assert_str_eq(store_cursor_text(c, 1), "make (prog)");
	ck_assert_int_eq(store_cursor_step(c), 0);
	store_cursor_close(c);
	/* The heap map's stacks: site 1's one frame is site 0's first. */
	ck_assert_int_eq(analyze_heapview_load(st, id, &v, &cause), 0);
	ck_assert_uint_eq(v.nsites, 2);
	ck_assert_uint_eq(v.nframes, 2);
	ck_assert_uint_eq(v.site_first[1], 2);
	ck_assert_uint_eq(v.site_first[2], 3);
	ck_assert_str_eq(v.frames[v.site_frame[0]].function, "make (prog)");
	ck_assert_str_eq(v.frames[v.site_frame[1]].function, "main (prog)");
	ck_assert_uint_eq(v.site_frame[2], v.site_frame[0]);
	stack = analyze_heapview_stack(&v, 0, 1000);
	ck_assert_str_eq(stack, "make (prog) < main (prog)");
	free(stack);
	stack = analyze_heapview_stack(&v, 0, 8);
	ck_assert_str_eq(stack, "make (pr");
	free(stack);
	ck_assert_int_eq(analyze_heapview_map(&v, &cause), 0);
	analyze_heapview_free(&v);
	/* Deleted, the session leaves no frame, stack or site behind. */
	ck_assert_int_eq(store_session_delete(st, id, &cause), 0);
	ck_assert_int_eq(store_int_query(st, "SELECT (SELECT count(*) FROM"
	    " heap_frame) + (SELECT count(*) FROM heap_stack) +"
	    " (SELECT count(*) FROM heap_allocsite)", 0, -1), 0);
	store_close(st);
	hb_free(&b);
}
END_TEST

/*
 * A snapshot of blocks (addr, size, slack, region) in regions (lo, hi):
 * what the heap map must open.
 */
struct mapcase {
	uint64_t	 rg[4][2];
	size_t		 nrg;
	struct { uint64_t addr, size; uint32_t slack, region; } b[8];
	size_t		 nb;
};

static void
mapfile(struct hb *b, const struct mapcase *mc)
{
	uint8_t	*r;
	size_t	 i;

	memset(b, 0, sizeof *b);
	sec_new(b, HEAPFMT_INFO, HEAPFMT_INFO_SIZE);
	sec_new(b, HEAPFMT_REGN, HEAPFMT_REGN_SIZE);
	sec_new(b, HEAPFMT_BLKS, HEAPFMT_BLKS_SIZE);
	sec_new(b, HEAPFMT_STRS, 1);
	str(b, "");
	rec(b, HEAPFMT_INFO);
	for (i = 0; i < mc->nrg; i++) {
		r = rec(b, HEAPFMT_REGN);
		p64(r + HF_REGN_LO, mc->rg[i][0]);
		p64(r + HF_REGN_HI, mc->rg[i][1]);
		p32(r + HF_REGN_KIND, i == 0 ? HEAPFMT_RGN_HEAP :
		    HEAPFMT_RGN_MMAP);
		p32(r + HF_REGN_MODULE, HEAPFMT_NONE);
		p32(r + HF_REGN_THREAD, HEAPFMT_NONE);
	}
	for (i = 0; i < mc->nb; i++) {
		r = rec(b, HEAPFMT_BLKS);
		p64(r + HF_BLKS_ADDR, mc->b[i].addr);
		p64(r + HF_BLKS_SIZE, mc->b[i].size);
		p32(r + HF_BLKS_SLACK, mc->b[i].slack);
		p32(r + HF_BLKS_SITE, HEAPFMT_NONE);
		p32(r + HF_BLKS_TYPE, HEAPFMT_NONE);
		p32(r + HF_BLKS_REGION, mc->b[i].region);
	}
	build(b);
}

/* mc ingests and the heap map opens on it; the map's regions. */
static size_t
mapopens(const struct mapcase *mc)
{
	struct analyze_heapview		 v;
	struct analyze_heapmap_view	 view;
	struct analyze_heapmap_cell	*cells;
	struct hb			 b;
	struct store			*st;
	char				*cause = NULL;
	int64_t				 id;
	size_t				 n, i;

	mapfile(&b, mc);
	st = stored(&b, (int64_t)16 << 20, &id, &cause);
	ck_assert_msg(id > 0, "%s", cause);
	ck_assert_int_eq(analyze_heapview_load(st, id, &v, &cause), 0);
	ck_assert_msg(analyze_heapview_map(&v, &cause) == 0, "%s", cause);
	n = v.map.nregions;
	/* Drawn whole at every zoom; each block found at its address. */
	memset(&view, 0, sizeof view);
	view.cols = 64;
	view.rows = 24;
	cells = calloc((size_t)view.cols * view.rows, sizeof *cells);
	for (view.zoom = ANALYZE_HEAPMAP_ZMIN; view.zoom <=
	    ANALYZE_HEAPMAP_ZMAX; view.zoom++) {
		analyze_heapmap_frame(&v.map, &view, cells);
		analyze_heapmap_level_build(&v.map, view.zoom);
	}
	view.zoom = analyze_heapmap_fit(&v.map, &view);
	analyze_heapmap_frame(&v.map, &view, cells);
	for (i = 0; i < mc->nb; i++)
		ck_assert_uint_eq(analyze_heapmap_find(&v.map, mc->b[i].addr),
		    i);
	free(cells);
	analyze_heapview_free(&v);
	store_close(st);
	hb_free(&b);
	return (n);
}

/*
 * A report's stacks: a frame past 4096 characters is cut, "..." after
 * it (two frames of an 8 KiB name: a site's 1 MiB frames shared by 64
 * frames of 40 sites made a report of gigabytes from a 1 MB file).
 */
START_TEST(test_report_cut)
{
	struct analyze_heap_summary	 m;
	struct hb			 b;
	struct store			*st;
	char				*cause = NULL, *want;
	int64_t				 id;

	shared(&b, 8192, 1, 2, 2, 1);
	st = stored(&b, (int64_t)16 << 20, &id, &cause);
	ck_assert_msg(id > 0, "%s", cause);
	ck_assert_int_eq(analyze_heap_summary_load(st, id, 20, &m, &cause),
	    0);
	ck_assert_uint_eq(m.nsites, 1);
	want = malloc(2 * 4100);
	memset(want, 'f', 4096);
	memcpy(want + 4096, "...\n", 4);
	memset(want + 4100, 'f', 4096);
	memcpy(want + 8196, "...", 4);
	ck_assert_msg(strcmp(m.sites[0].stack, want) == 0, "a stack of %zu"
	    " bytes, not %zu", strlen(m.sites[0].stack), strlen(want));
	free(want);
	ck_assert_uint_eq(strlen(m.sites[0].function), 8192);
	analyze_heap_summary_free(&m);
	store_close(st);
	hb_free(&b);
}
END_TEST

/*
 * Three snapshots that ingested cleanly and that the heap map refused;
 * it opens them now.  Blocks of no size (malloc(0)) outside the regions,
 * two in a granule: each got a region of its own, [addr & ~15, addr + 1),
 * and those overlapped.
 */
START_TEST(test_map_zero_sizes)
{
	struct mapcase	mc = { .nb = 3, .b = { { 0x1010, 0, 0, HEAPFMT_NONE },
	    { 0x1011, 0, 0, HEAPFMT_NONE }, { 0x1018, 0, 0, HEAPFMT_NONE } } };

	ck_assert_uint_eq(mapopens(&mc), 1);
}
END_TEST

/*
 * Blocks outside every region: one just past a region's end, in its last
 * granule (the regions shared it), one that starts inside a region and
 * runs out of it (it straddled), two 8 bytes apart (their regions shared
 * a granule).  A region just after another in its granule too.
 */
START_TEST(test_map_outside)
{
	struct mapcase	mc = { .nrg = 3, .rg = { { 0x1000, 0x1008 },
	    { 0x2000, 0x2108 }, { 0x2108, 0x3000 } }, .nb = 6,
	    .b = { { 0x1000, 8, 0, 0 }, { 0x1008, 4, 0, HEAPFMT_NONE },
	    { 0x20f0, 0x20, 0, 1 }, { 0x2f00, 0x100, 0, 2 },
	    { 0x5000, 4, 0, HEAPFMT_NONE }, { 0x5008, 4, 0, HEAPFMT_NONE } } };

	ck_assert_uint_eq(mapopens(&mc), 3);
}
END_TEST

/*
 * Regions far apart: one low, one at 2^60 (and a block past 2^52 outside
 * them).  The map took no region ending past 2^52, though what it can
 * lay out is 2^52 bytes in all, wherever they are.
 */
START_TEST(test_map_far_apart)
{
	struct mapcase	mc = { .nrg = 2, .rg = { { 0x1000, 0x2000 },
	    { (uint64_t)1 << 60, ((uint64_t)1 << 60) + 0x1000 } }, .nb = 3,
	    .b = { { 0x1010, 16, 0, 0 }, { ((uint64_t)1 << 53) + 16, 16, 0,
	    HEAPFMT_NONE }, { ((uint64_t)1 << 60) + 16, 16, 0, 1 } } };

	ck_assert_uint_eq(mapopens(&mc), 3);
}
END_TEST

/*
 * What the map cannot lay out, more than 2^52 bytes of regions, is
 * refused at ingest in the map's words (it ingested, and the map refused
 * it); 2^52 itself opens.
 */
START_TEST(test_map_too_big)
{
	struct mapcase	 mc = { .nrg = 1, .rg = { { 0x1000,
	    0x1000 + ((uint64_t)1 << 52) + 16 } }, .nb = 1,
	    .b = { { 0x1010, 16, 0, 0 } } };
	struct hb	 b;
	struct store	*st;
	char		*cause = NULL, want[64];
	int64_t		 id;

	mapfile(&b, &mc);
	st = stored(&b, (int64_t)16 << 20, &id, &cause);
	ck_assert_int_lt(id, 0);
	snprintf(want, sizeof want, "offset %zu: REGN: heap map: ",
	    entry(&b, HEAPFMT_REGN));
	ck_assert_msg(strstr(cause, want) != NULL && strstr(cause,
	    "more than the 4503599627370496 bytes it lays out") != NULL, "%s",
	    cause);
	free(cause);
	store_close(st);
	hb_free(&b);
	mc.rg[0][1] = 0x1000 + ((uint64_t)1 << 52);
	ck_assert_uint_eq(mapopens(&mc), 1);
}
END_TEST

/* ---- memcheck's rules ---------------------------------------------- */

/*
 * A graph of n blocks of the given sizes (at 0x1000 + 0x100 * i) and
 * the edges "src.word->dst+off" in e[], roots "->dst+off" in r[]; as
 * version 2 writes it with v2, words 0 and 1 their pointers' when equal.
 */
struct g {
	int		 v2;
	size_t		 n;
	uint64_t	 size[16];
	uint64_t	 w0[16], w1[16];
	uint32_t	 flags[16];
	struct { uint32_t src, word, dst, off; } e[32];
	size_t		 ne;
	struct { uint32_t dst, off; } r[8];
	size_t		 nr;
};

static void
states(const struct g *g, uint8_t *st)
{
	struct hb		 b;
	struct ingest_heap	 h;
	uint8_t			*r;
	char			*cause;
	size_t			 i;

	memset(&b, 0, sizeof b);
	sec_new(&b, HEAPFMT_INFO, HEAPFMT_INFO_SIZE);
	sec_new(&b, HEAPFMT_REGN, HEAPFMT_REGN_SIZE);
	sec_new(&b, HEAPFMT_BLKS, HEAPFMT_BLKS_SIZE);
	sec_new(&b, HEAPFMT_EDGS, HEAPFMT_EDGS_SIZE);
	sec_new(&b, HEAPFMT_ROOT, HEAPFMT_ROOT_SIZE);
	sec_new(&b, HEAPFMT_STRS, 1);
	str(&b, "");
	rec(&b, HEAPFMT_INFO);
	r = rec(&b, HEAPFMT_REGN);
	p32(r + HF_REGN_KIND, HEAPFMT_RGN_DATA);
	p32(r + HF_REGN_MODULE, HEAPFMT_NONE);
	p32(r + HF_REGN_THREAD, HEAPFMT_NONE);
	for (i = 0; i < g->n; i++) {
		r = rec(&b, HEAPFMT_BLKS);
		p64(r + HF_BLKS_ADDR, 0x1000 + 0x100 * i);
		p64(r + HF_BLKS_SIZE, g->size[i]);
		p64(r + HF_BLKS_WORD0, g->w0[i]);
		p64(r + HF_BLKS_WORD1, g->w1[i]);
		p32(r + HF_BLKS_FLAGS, g->flags[i]);
		p32(r + HF_BLKS_SITE, HEAPFMT_NONE);
		p32(r + HF_BLKS_TYPE, HEAPFMT_NONE);
		p32(r + HF_BLKS_REGION, HEAPFMT_NONE);
	}
	for (i = 0; i < g->ne; i++) {
		r = rec(&b, HEAPFMT_EDGS);
		p32(r + HF_EDGS_SRC, g->e[i].src);
		p32(r + HF_EDGS_SRC_WORD, g->e[i].word);
		p32(r + HF_EDGS_DST, g->e[i].dst);
		p32(r + HF_EDGS_DST_OFF, g->e[i].off);
	}
	for (i = 0; i < g->nr; i++) {
		r = rec(&b, HEAPFMT_ROOT);
		p64(r + HF_ROOT_ADDR, 0x40000 + 8 * i);
		p32(r + HF_ROOT_DST, g->r[i].dst);
		p32(r + HF_ROOT_DST_OFF, g->r[i].off);
	}
	build(&b);
	if (g->v2)
		pack(&b, NULL);
	ck_assert_msg(parse(b.buf, b.len, &h, &cause) == 0, "%s", cause);
	ingest_heap_states(&h, st);
	ingest_heap_free(&h);
	hb_free(&b);
}

#define R	INGEST_HEAP_REACHABLE
#define P	INGEST_HEAP_POSSIBLE
#define D	INGEST_HEAP_DEFINITE
#define I	INGEST_HEAP_INDIRECT

static void
expect(const struct g *g, const uint8_t *want)
{
	uint8_t	st[16];
	size_t	i;

	states(g, st);
	for (i = 0; i < g->n; i++)
		ck_assert_msg(st[i] == want[i], "block %zu: state %d, want %d",
		    i, st[i], want[i]);
}

/*
 * root->0 (start) ->1 (start) ->2 (interior): 2 possible, and what 2
 * reaches too even by its start (3); 4 lost leads 5; 6 and 7 a lost
 * cycle (6, first by address, leads); 8 is reached only from lost 9.
 */
START_TEST(test_rules)
{
	struct g	g = { .n = 10,
	    .size = { 32, 32, 32, 32, 16, 16, 16, 16, 16, 16 } };
	static const uint8_t want[] = { R, R, P, P, D, I, D, I, I, D };

	g.e[g.ne++] = (typeof(g.e[0])){ 0, 0, 1, 0 };
	g.e[g.ne++] = (typeof(g.e[0])){ 1, 1, 2, 4 };
	g.e[g.ne++] = (typeof(g.e[0])){ 2, 0, 3, 0 };
	g.e[g.ne++] = (typeof(g.e[0])){ 4, 0, 5, 0 };
	g.e[g.ne++] = (typeof(g.e[0])){ 6, 0, 7, 0 };
	g.e[g.ne++] = (typeof(g.e[0])){ 7, 0, 6, 0 };
	g.e[g.ne++] = (typeof(g.e[0])){ 9, 1, 8, 8 };
	g.r[g.nr++] = (typeof(g.r[0])){ 0, 0 };
	expect(&g, want);
}
END_TEST

/* A possible block later reached by its start from a definite place is
 * reachable, and so, then, is what it reaches by start pointers. */
START_TEST(test_upgrade)
{
	struct g	g = { .n = 4, .size = { 32, 32, 32, 32 } };
	static const uint8_t want[] = { R, R, R, P };

	g.e[g.ne++] = (typeof(g.e[0])){ 0, 2, 1, 0 };
	g.e[g.ne++] = (typeof(g.e[0])){ 1, 0, 2, 0 };
	g.e[g.ne++] = (typeof(g.e[0])){ 1, 1, 3, 16 };
	g.r[g.nr++] = (typeof(g.r[0])){ 1, 8 };
	g.r[g.nr++] = (typeof(g.r[0])){ 0, 0 };
	expect(&g, want);
}
END_TEST

/* memcheck's heuristics make interior pointers count as start ones. */
START_TEST(test_heuristics)
{
	struct g	g = { .n = 8,
	    .size = { 72, 56, 56, 40, 40, 32, 32, 0 } };
	static const uint8_t want[] = { R, R, P, R, P, R, P, R };

	/* length64: 8 in, word 0 = size - 8. */
	g.w0[0] = 64;
	g.r[g.nr++] = (typeof(g.r[0])){ 0, 8 };
	/* newarray: 8 in, a count dividing the rest (3 * 16). */
	g.w0[1] = 3;
	g.r[g.nr++] = (typeof(g.r[0])){ 1, 8 };
	/* ... and not when it does not divide. */
	g.w0[2] = 5;
	g.r[g.nr++] = (typeof(g.r[0])){ 2, 8 };
	/* stdstring: 24 in, capacity 15 = size - 25, length <= it. */
	g.w0[3] = 10;
	g.w1[3] = 15;
	g.r[g.nr++] = (typeof(g.r[0])){ 3, 24 };
	/* ... not with a length past the capacity. */
	g.w0[4] = 16;
	g.w1[4] = 15;
	g.r[g.nr++] = (typeof(g.r[0])){ 4, 24 };
	/* multipleinheritance: vtable pointers at word 0 and at p. */
	g.flags[5] = HEAPFMT_BLK_VTLIKE;
	g.r[g.nr++] = (typeof(g.r[0])){ 5, 16 | HEAPFMT_OFF_VTLIKE };
	g.flags[6] = HEAPFMT_BLK_VTLIKE;
	g.r[g.nr++] = (typeof(g.r[0])){ 6, 16 };
	/* A 0-byte block pointed at exactly. */
	g.r[g.nr++] = (typeof(g.r[0])){ 7, 0 };
	expect(&g, want);
}
END_TEST

/*
 * A heuristic reads its block's word 0, in version 2 a pointer's, that
 * is itself weak (1 into 0 at 16): the states decide every pointer
 * before marking one weak, or 2's pointer into 1 at 8 read 1's marked
 * word past the blocks.
 */
START_TEST(test_heuristic_reads_a_pointer)
{
	struct g	g = { .v2 = 1, .n = 3, .size = { 32, 32, 32 },
	    .w0 = { 0, 0x1000 + 16, 0x1100 + 8 } };
	static const uint8_t want[] = { P, P, R };

	g.e[g.ne++] = (typeof(g.e[0])){ 1, 0, 0, 16 };
	g.e[g.ne++] = (typeof(g.e[0])){ 2, 0, 1, 8 };
	g.r[g.nr++] = (typeof(g.r[0])){ 2, 0 };
	expect(&g, want);
}
END_TEST

/*
 * ingest_dtype_pointer_at on a hand-made layout: a pointer only exactly
 * at a pointer member, through nested structs and arrays, not past an
 * array's count nor into a union; a declared struct by its definition.
 */
START_TEST(test_dwarf_layout)
{
#define T(k, sz, tg, n, f, nf)	{ NULL, NULL, k, 0, 0, 0, 0, sz, tg, n, f, nf, 0, 0, 0 }
	struct ingest_dtype	types[] = {
		/* 0 struct node { int value; struct node *next; } */
		T(INGEST_DT_STRUCT, 16, INGEST_DT_NONE, 0, 0, 2),
		T(INGEST_DT_BASE, 4, INGEST_DT_NONE, 0, 0, 0),	/* 1 int */
		T(INGEST_DT_POINTER, 8, 0, 0, 0, 0),	/* 2 struct node * */
		T(INGEST_DT_ARRAY, 32, 2, 4, 0, 0),	/* 3 [4] of 2 */
		/* 4 struct outer { long; struct node in; 3 arr; 6 u; } */
		T(INGEST_DT_STRUCT, 64, INGEST_DT_NONE, 0, 2, 4),
		T(INGEST_DT_BASE, 8, INGEST_DT_NONE, 0, 0, 0),	/* 5 long */
		T(INGEST_DT_POINTER, 8, 7, 0, 0, 0),	/* 6 union u * */
		T(INGEST_DT_UNION, 8, INGEST_DT_NONE, 0, 6, 1),	/* 7 */
		/* 8 struct node, only declared; 9 a pointer to it */
		T(INGEST_DT_STRUCT, 0, INGEST_DT_NONE, 0, 0, 0),
		T(INGEST_DT_POINTER, 8, 8, 0, 0, 0),
		/* 10 struct list { struct node *(arr[2])[2]; } */
		T(INGEST_DT_ARRAY, 16, 2, 2, 0, 0),
		T(INGEST_DT_ARRAY, 32, 10, 2, 0, 0),
		T(INGEST_DT_STRUCT, 32, INGEST_DT_NONE, 0, 7, 1),
	};
#undef T
	struct ingest_dfield	fields[] = {
		{ 0, "value", 0, 1, 0 }, { 0, "next", 8, 2, 0 },
		{ 4, "tag", 0, 5, 0 }, { 4, "in", 8, 0, 0 },
		{ 4, "arr", 24, 3, 0 }, { 4, "u", 56, 6, 0 },
		{ 7, "n", 0, 2, 0 },
		{ 12, "m", 0, 11, 0 },
	};
	struct ingest_heap_dwarf d;
	size_t			 i;

	memset(&d, 0, sizeof d);
	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		types[i].def = (uint32_t)i;
	types[8].def = 0;
	d.types = types;
	d.ntypes = sizeof types / sizeof types[0];
	d.fields = fields;
	d.nfields = sizeof fields / sizeof fields[0];
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 0, 8), 2);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 0, 0), INGEST_DT_NONE);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 0, 12), INGEST_DT_NONE);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 4, 16), 2);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 4, 24 + 16), 2);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 4, 24 + 17),
	    INGEST_DT_NONE);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 3, 32), INGEST_DT_NONE);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 4, 56), 6);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 7, 0), INGEST_DT_NONE);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 8, 8), 2);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 9, 0), 9);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 12, 24), 2);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, 12, 32), INGEST_DT_NONE);
	ck_assert_uint_eq(ingest_dtype_pointer_at(&d, INGEST_DT_NONE, 0),
	    INGEST_DT_NONE);
}
END_TEST

/*
 * Blocks packed as heap_blockrun keeps them: the extremes of each field
 * (addresses and sizes at 0 and 2^64 - 1, a usable size below the size,
 * seq and tid falling by the most there is, no site, type or region)
 * come back as they went in, and a bench-like block (the next 64 bytes
 * on, one seq on, site, type, thread and region as the block before's)
 * takes five bytes.
 */
static const struct store_heap_block pack_blocks[] = {
	{ .addr = 0, .size = 0, .usable = 0, .seq = 0, .site = -1,
	    .type = -1, .region = -1, .tid = 0, .state = "reachable" },
	{ .addr = UINT64_MAX, .size = UINT64_MAX, .usable = UINT64_MAX,
	    .seq = UINT64_MAX, .site = INT64_MAX, .type = 0,
	    .region = INT64_MAX, .tid = INT64_MAX, .state = "collectable",
	    .leak = "definite" },
	{ .addr = 1, .size = UINT64_MAX, .usable = 0, .seq = 0, .site = 0,
	    .type = INT64_MAX, .region = 0, .tid = INT64_MIN,
	    .state = "possible", .leak = "indirect" },
	{ .addr = 0x7f0000001000, .size = 48, .usable = 56, .seq = 7,
	    .site = 3, .type = -1, .region = 2, .tid = -5,
	    .state = "collectable", .leak = "indirect" },
	{ .addr = 0x7f0000001040, .size = 48, .usable = 56, .seq = 8,
	    .site = 3, .type = -1, .region = 2, .tid = -5,
	    .state = "reachable" },
	{ .addr = 0x7f0000001080, .size = 48, .usable = 56, .seq = 6,
	    .site = 3, .type = 1, .region = 2, .tid = -4,
	    .state = "possible", .leak = "definite" },
};
#define NPACK	(sizeof pack_blocks / sizeof pack_blocks[0])

/* pack_blocks packed; ends[i] the blob's length after block i. */
static void
pack_all(struct store_heap_pack *p, size_t *ends)
{
	size_t	i;

	memset(p, 0, sizeof *p);
	for (i = 0; i < NPACK; i++) {
		store_heap_pack_block(p, &pack_blocks[i]);
		ends[i] = p->len;
	}
}

static void
same_block(const struct store_heap_block *a, const struct store_heap_block *b,
    int64_t idx)
{
	ck_assert_int_eq(b->idx, idx);
	ck_assert_uint_eq(b->addr, a->addr);
	ck_assert_uint_eq(b->size, a->size);
	ck_assert_uint_eq(b->usable, a->usable);
	ck_assert_uint_eq(b->seq, a->seq);
	ck_assert_int_eq(b->site, a->site);
	ck_assert_int_eq(b->type, a->type);
	ck_assert_int_eq(b->region, a->region);
	ck_assert_int_eq(b->tid, a->tid);
	ck_assert_str_eq(b->state, a->state);
	ck_assert_ptr_eq(b->contents, NULL);
	if (a->leak == NULL)
		ck_assert_ptr_eq(b->leak, NULL);
	else
		ck_assert_str_eq(b->leak, a->leak);
}

START_TEST(test_block_pack)
{
	struct store_heap_pack		 p;
	struct store_heap_unpack	 u;
	struct store_heap_block		 b;
	size_t				 ends[NPACK], i;

	pack_all(&p, ends);
	ck_assert_uint_eq(p.addr, 0);
	ck_assert_uint_eq(ends[NPACK - 2] - ends[NPACK - 3], 5);
	store_heap_unpack_init(&u, p.buf, p.len);
	u.addr = p.addr;
	u.idx = 3 << STORE_HEAP_RUN_SHIFT;
	for (i = 0; i < NPACK; i++) {
		ck_assert_int_eq(store_heap_unpack_block(&u, &b), 1);
		same_block(&pack_blocks[i], &b,
		    (int64_t)((3 << STORE_HEAP_RUN_SHIFT) + i));
	}
	ck_assert_int_eq(store_heap_unpack_block(&u, &b), 0);
	ck_assert_int_eq(store_heap_unpack_block(&u, &b), 0);
	free(p.buf);
}
END_TEST

/*
 * Every cut of the blob, each a buffer of its own length (so that
 * ASan sees a byte read past it): the blocks before the cut, then -1,
 * or 0 where the cut falls between blocks.  A state past 8, and a
 * varint longer than 64 bits, are -1 too.
 */
START_TEST(test_block_truncated)
{
	static const uint8_t		 bad_state[] = { 0, 1, 0, 0, 0x9f };
	static const uint8_t		 long_varint[] = { 0xff, 0xff, 0xff,
					    0xff, 0xff, 0xff, 0xff, 0xff,
					    0xff, 0xff, 0x01, 0, 0, 0, 0, 0,
					    0, 0, 0 };
	struct store_heap_pack		 p;
	struct store_heap_unpack	 u;
	struct store_heap_block		 b;
	size_t				 ends[NPACK], cut, i, whole;
	uint8_t				*copy;
	int				 rc, want;

	pack_all(&p, ends);
	for (cut = 1; cut < p.len; cut++) {
		copy = xmalloc(cut);
		memcpy(copy, p.buf, cut);
		store_heap_unpack_init(&u, copy, cut);
		u.addr = p.addr;
		for (whole = 0; whole < NPACK && ends[whole] <= cut; whole++)
			;
		for (i = 0; i < whole; i++) {
			ck_assert_int_eq(store_heap_unpack_block(&u, &b), 1);
			same_block(&pack_blocks[i], &b, (int64_t)i);
		}
		want = whole > 0 && ends[whole - 1] == cut ? 0 : -1;
		rc = store_heap_unpack_block(&u, &b);
		ck_assert_msg(rc == want, "cut at %zu of %zu: %d", cut, p.len,
		    rc);
		free(copy);
	}
	store_heap_unpack_init(&u, bad_state, sizeof bad_state);
	ck_assert_int_eq(store_heap_unpack_block(&u, &b), -1);
	store_heap_unpack_init(&u, long_varint, sizeof long_varint);
	ck_assert_int_eq(store_heap_unpack_block(&u, &b), -1);
	free(p.buf);
}
END_TEST

/* p's blob as SQL's hex digits, for x'...'. */
static char *
pack_hex(const struct store_heap_pack *p)
{
	char	*hex = xcalloc(2 * p->len + 1, 1);
	size_t	 i;

	for (i = 0; i < p->len; i++)
		snprintf(hex + 2 * i, 3, "%02x", p->buf[i]);
	return (hex);
}

/*
 * heap_block_unpack, the heap_block view's function, in SQL: the
 * extremes as SQLite's integers (2^64 - 1 as -1, as the columns
 * always kept them) with NULL for no site, type, leak or region; a
 * blob cut short an error, never a row made up or a crash.
 */
START_TEST(test_block_unpack_sql)
{
	struct store_heap_pack	 p;
	struct store		*st;
	struct store_cursor	*c;
	char			*cause = NULL, *hex, *sql;
	size_t			 ends[NPACK];

	pack_all(&p, ends);
	hex = pack_hex(&p);
	st = store_open(":memory:", 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	sql = xasprintf("SELECT idx, addr, size, usable, seq,"
	    " coalesce(site, 'none'), coalesce(type, 'none'), tid, state,"
	    " coalesce(leak, 'none'), coalesce(region, 'none')"
	    " FROM heap_block_unpack(x'%s', 0, 2)", hex);
	c = store_cursor_open(st, sql, 0);
	ck_assert_int_eq(store_cursor_step(c), 1);
	ck_assert_int_eq(store_cursor_int(c, 0), 2 << STORE_HEAP_RUN_SHIFT);
	ck_assert_int_eq(store_cursor_int(c, 1), 0);
	ck_assert_str_eq(store_cursor_text(c, 5), "none");
	ck_assert_str_eq(store_cursor_text(c, 6), "none");
	ck_assert_str_eq(store_cursor_text(c, 8), "reachable");
	ck_assert_str_eq(store_cursor_text(c, 9), "none");
	ck_assert_str_eq(store_cursor_text(c, 10), "none");
	ck_assert_int_eq(store_cursor_step(c), 1);
	ck_assert_int_eq(store_cursor_int(c, 1), -1);
	ck_assert_int_eq(store_cursor_int(c, 2), -1);
	ck_assert_int_eq(store_cursor_int(c, 3), -1);
	ck_assert_int_eq(store_cursor_int(c, 4), -1);
	ck_assert_int_eq(store_cursor_int(c, 5), INT64_MAX);
	ck_assert_int_eq(store_cursor_int(c, 6), 0);
	ck_assert_int_eq(store_cursor_int(c, 7), INT64_MAX);
	ck_assert_str_eq(store_cursor_text(c, 8), "collectable");
	ck_assert_str_eq(store_cursor_text(c, 9), "definite");
	ck_assert_int_eq(store_cursor_int(c, 10), INT64_MAX);
	ck_assert_int_eq(store_cursor_step(c), 1);
	ck_assert_int_eq(store_cursor_int(c, 3), 0);
	ck_assert_int_eq(store_cursor_int(c, 7), INT64_MIN);
	ck_assert_str_eq(store_cursor_text(c, 9), "indirect");
	ck_assert_int_eq(store_cursor_step(c), 1);
	ck_assert_int_eq(store_cursor_int(c, 7), -5);
	ck_assert_int_eq(store_cursor_step(c), 1);
	ck_assert_int_eq(store_cursor_int(c, 0),
	    (2 << STORE_HEAP_RUN_SHIFT) + 4);
	ck_assert_int_eq(store_cursor_int(c, 1), 0x7f0000001040);
	ck_assert_str_eq(store_cursor_text(c, 6), "none");
	ck_assert_int_eq(store_cursor_step(c), 1);
	ck_assert_int_eq(store_cursor_int(c, 4), 6);
	ck_assert_int_eq(store_cursor_int(c, 6), 1);
	ck_assert_int_eq(store_cursor_int(c, 7), -4);
	ck_assert_str_eq(store_cursor_text(c, 9), "definite");
	ck_assert_int_eq(store_cursor_step(c), 0);
	store_cursor_close(c);
	free(sql);
	/* The last block's last byte gone. */
	hex[2 * p.len - 2] = '\0';
	sql = xasprintf("SELECT count(*) FROM heap_block_unpack(x'%s', 0, 0)",
	    hex);
	c = store_cursor_open(st, sql, 0);
	ck_assert_int_eq(store_cursor_step(c), -1);
	store_cursor_close(c);
	free(sql);
	store_close(st);
	free(hex);
	free(p.buf);
}
END_TEST

/*
 * Pointers in order, as a run's: the same source (offset differences
 * small, one not a multiple of 8, one far), a target near the one
 * before's and one nearer its source, an interior target, the
 * extremes (differences wrap at 64 bits).
 */
static const struct store_heap_ref pack_refs[] = {
	{ .src = 5, .src_off = 0, .dst = 900000, .dst_off = 0 },
	{ .src = 5, .src_off = 8, .dst = 900001, .dst_off = 0 },
	{ .src = 5, .src_off = 13, .dst = 6, .dst_off = 16 },
	{ .src = 5, .src_off = 4096, .dst = 7, .dst_off = 2147483647 },
	{ .src = 9, .src_off = 240, .dst = 0, .dst_off = 0 },
	{ .src = 9, .src_off = 248, .dst = INT64_MAX, .dst_off = 0 },
	{ .src = INT64_MAX, .src_off = INT64_MAX, .dst = 0, .dst_off = 1 },
};
#define NREFS	(sizeof pack_refs / sizeof pack_refs[0])

/* pack_refs packed in form (1 or 2); ends[i] the length after ref i. */
static void
pack_refs_all(struct store_heap_pack *p, int form, size_t *ends)
{
	size_t	i;

	memset(p, 0, sizeof *p);
	for (i = 0; i < NREFS; i++) {
		if (form == 2)
			store_heap_pack_ref2(p, &pack_refs[i]);
		else
			store_heap_pack_ref(p, &pack_refs[i]);
		ends[i] = p->len;
	}
}

static void
same_ref(const struct store_heap_ref *a, const struct store_heap_ref *b)
{
	ck_assert_int_eq(b->src, a->src);
	ck_assert_int_eq(b->src_off, a->src_off);
	ck_assert_int_eq(b->dst, a->dst);
	ck_assert_int_eq(b->dst_off, a->dst_off);
}

/*
 * Both forms round-trip; form 2 takes two bytes for a pointer of the
 * same source to the block after the target before's, and every cut of
 * either, each in a buffer of its own length (ASan sees a read past
 * it), gives the pointers before the cut and then -1, or 0 between
 * pointers.  Form 2's first pointer cannot say "the same source".
 */
START_TEST(test_ref_pack)
{
	static const uint8_t		 same_first[] = { 0x05, 0x02 };
	struct store_heap_pack		 p;
	struct store_heap_unpack	 u;
	struct store_heap_ref		 r;
	size_t				 ends[NREFS], cut, i, whole;
	uint8_t				*copy;
	int				 form, rc, want;

	for (form = 1; form <= 2; form++) {
		pack_refs_all(&p, form, ends);
		if (form == 2)
			ck_assert_uint_eq(ends[1] - ends[0], 2);
		for (cut = 1; cut <= p.len; cut++) {
			copy = xmalloc(cut);
			memcpy(copy, p.buf, cut);
			store_heap_unpack_init(&u, copy, cut);
			u.form = form;
			for (whole = 0; whole < NREFS && ends[whole] <= cut;
			    whole++)
				;
			for (i = 0; i < whole; i++) {
				ck_assert_int_eq(store_heap_unpack_next(&u,
				    &r), 1);
				same_ref(&pack_refs[i], &r);
			}
			want = whole > 0 && ends[whole - 1] == cut ? 0 : -1;
			rc = store_heap_unpack_next(&u, &r);
			ck_assert_msg(rc == want, "form %d, cut at %zu of %zu:"
			    " %d", form, cut, p.len, rc);
			free(copy);
		}
		free(p.buf);
	}
	store_heap_unpack_init(&u, same_first, sizeof same_first);
	u.form = 2;
	ck_assert_int_eq(store_heap_unpack_next(&u, &r), -1);
}
END_TEST

/*
 * heap_ref_unpack in SQL: the form its second argument, 1 without it;
 * the same rows from either form's blob.
 */
START_TEST(test_ref_unpack_sql)
{
	struct store_heap_pack	 p;
	struct store		*st;
	struct store_cursor	*c;
	char			*cause = NULL, *hex, *sql;
	size_t			 ends[NREFS], i;
	int			 form, call;

	st = store_open(":memory:", 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	for (form = 1; form <= 2; form++) {
		pack_refs_all(&p, form, ends);
		hex = pack_hex(&p);
		for (call = 0; call < (form == 1 ? 2 : 1); call++) {
			sql = call == 1 ? xasprintf("SELECT src, src_off, dst,"
			    " dst_off FROM heap_ref_unpack(x'%s')", hex) :
			    xasprintf("SELECT src, src_off, dst, dst_off"
			    " FROM heap_ref_unpack(x'%s', %d)", hex, form);
			c = store_cursor_open(st, sql, 0);
			for (i = 0; i < NREFS; i++) {
				ck_assert_int_eq(store_cursor_step(c), 1);
				ck_assert_int_eq(store_cursor_int(c, 0),
				    pack_refs[i].src);
				ck_assert_int_eq(store_cursor_int(c, 1),
				    pack_refs[i].src_off);
				ck_assert_int_eq(store_cursor_int(c, 2),
				    pack_refs[i].dst);
				ck_assert_int_eq(store_cursor_int(c, 3),
				    pack_refs[i].dst_off);
			}
			ck_assert_int_eq(store_cursor_step(c), 0);
			store_cursor_close(c);
			free(sql);
		}
		free(hex);
		free(p.buf);
	}
	store_close(st);
}
END_TEST

static Suite *
heap_suite(void)
{
	Suite	*s = suite_create("heap");
	TCase	*tc = tcase_create("reader");

	tcase_add_test(tc, test_good);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_bad_header);
	tcase_add_test(tc, test_bad_sections);
	tcase_add_test(tc, test_bad_fields);
	tcase_add_test(tc, test_past_2_63);
	tcase_add_test(tc, test_later_minor);
	tcase_add_test(tc, test_v2_same);
	tcase_add_test(tc, test_v2_truncated);
	tcase_add_test(tc, test_v2_bad_fields);
	suite_add_tcase(s, tc);
	tc = tcase_create("store");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_frames_once);
	tcase_add_test(tc, test_text_bound);
	tcase_add_test(tc, test_site_view);
	tcase_add_test(tc, test_report_cut);
	tcase_add_test(tc, test_map_zero_sizes);
	tcase_add_test(tc, test_map_outside);
	tcase_add_test(tc, test_map_far_apart);
	tcase_add_test(tc, test_map_too_big);
	tcase_add_test(tc, test_block_pack);
	tcase_add_test(tc, test_block_truncated);
	tcase_add_test(tc, test_block_unpack_sql);
	tcase_add_test(tc, test_ref_pack);
	tcase_add_test(tc, test_ref_unpack_sql);
	suite_add_tcase(s, tc);
	tc = tcase_create("states");
	tcase_add_test(tc, test_rules);
	tcase_add_test(tc, test_upgrade);
	tcase_add_test(tc, test_heuristics);
	tcase_add_test(tc, test_heuristic_reads_a_pointer);
	suite_add_tcase(s, tc);
	tc = tcase_create("dwarf");
	tcase_add_test(tc, test_dwarf_layout);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner	*sr = srunner_create(heap_suite());
	int	 failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed != 0);
}
