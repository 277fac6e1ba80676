/*
 * Bucket histograms through the whole path: a PRF and a map are ingested,
 * analyze_hist_load shares each bucket's hits among the symbols it
 * overlaps, and the zoom levels merge buckets; and what the views and
 * reports show of them (names, shares, orders) against brute force over
 * random sessions.
 */
#include <math.h>
#include <stdint.h>

#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "tests/unit/testutil.h"

/*
 * A .COM at PSP 1000h, 32 one-paragraph buckets over 10000h..10200h:
 * start at 100h, busy at 118h (bucket 11h holds 8 bytes of each), tail
 * at 140h to the end of the image.
 */
static const char map_text[] =
    "- NASM Map file ---\n\n-- Program origin ---\n\n00000100\n\n"
    "-- Symbols ---\n\n---- Section .text ---\n\n"
    "Real              Virtual           Name\n"
    "             100               100  start\n"
    "             118               118  busy\n"
    "             140               140  tail\n";

static struct store *
load(const char *map, size_t maplen, const uint16_t *h16, int64_t *id)
{
	struct tu_prf		 f;
	struct ingest_opts	 o = { 0 };
	struct store		*st = tu_store();
	uint8_t			*buf;
	size_t			 len;
	char			*cause;

	memset(&f, 0, sizeof f);
	f.w[0] = 55; f.w[1] = 32; f.w[2] = 1; f.w[3] = 0x1000;
	f.w[4] = 0x1020; f.w[5] = 0x800; f.w[6] = 1; f.w[7] = 2; f.w[8] = 3;
	f.h16 = h16;
	buf = tu_prf_bytes(&f, &len);
	ingest_opts_set(&o, "map", tu_tmpfile(".map", map, maplen));
	ck_assert_msg(tu_ingest(st, "/nonexistent/t.prf", buf, len, &o, id,
	    &cause) == 0, "%s", cause);
	unlink(ingest_opts_get(&o, "map"));
	free(buf);
	return (st);
}

static const struct analyze_sym *
sym(const struct analyze_hist *h, const char *name)
{
	size_t	i;

	for (i = 0; i < h->nsyms; i++) {
		if (strcmp(h->syms[i].name, name) == 0)
			return (&h->syms[i]);
	}
	ck_abort_msg("no symbol %s", name);
	return (NULL);
}

START_TEST(test_flat_profile)
{
	uint16_t		 h16[32] = { 0 };
	struct analyze_hist	 h;
	struct store		*st;
	struct analyze_share	*sh;
	int64_t			 id;
	char			*cause = NULL, *names, fit[64];

	h16[0x10] = 6;
	h16[0x11] = 10;
	h16[0x12] = 4;
	h16[0x03] = 2;
	h16[0x1f] = 8;
	st = load(map_text, sizeof map_text - 1, h16, &id);
	ck_assert_msg(analyze_hist_load(st, id, &h, &cause) == 0, "%s", cause);
	ck_assert_int_eq(h.in_program, 30);
	ck_assert_int_eq(h.total, 36);
	ck_assert_int_eq(h.nsyms, 3);
	ck_assert_int_eq(sym(&h, "start")->addr, 0x10100);
	ck_assert_int_eq(sym(&h, "busy")->size, 0x28);
	/* Bucket 11h straddles start and busy: 8 bytes each, 5 hits each. */
	ck_assert_double_eq_tol(sym(&h, "start")->hits, 11, 1e-9);
	ck_assert_double_eq_tol(sym(&h, "busy")->hits, 9, 1e-9);
	ck_assert_double_eq_tol(sym(&h, "tail")->hits, 8, 1e-9);
	/* Bucket 3 is below start (the PSP): nobody's. */
	ck_assert_double_eq_tol(h.unattributed, 2, 1e-9);
	ck_assert_str_eq(h.syms[h.flat[0]].name, "start");
	ck_assert_str_eq(h.syms[h.flat[1]].name, "busy");
	ck_assert_str_eq(h.syms[h.flat[2]].name, "tail");

	names = analyze_bucket_names(&h, &h.levels[0].b[0x11]);
	ck_assert_str_eq(names, "start, busy");
	free(names);
	names = analyze_bucket_names(&h, &h.levels[0].b[0x03]);
	ck_assert_str_eq(names, "");
	free(names);
	/* A view's column: "start, busy" needs 11 bytes. */
	analyze_bucket_names_fit(&h, &h.levels[0].b[0x11], 11, fit,
	    sizeof fit);
	ck_assert_str_eq(fit, "start +1");
	analyze_bucket_names_fit(&h, &h.levels[0].b[0x11], 12, fit,
	    sizeof fit);
	ck_assert_str_eq(fit, "start, busy");
	/* Its hits by symbol: 8 bytes each, 5 hits each. */
	ck_assert_uint_eq(analyze_bucket_shares(&h, &h.levels[0].b[0x11],
	    &sh), 2);
	ck_assert_str_eq(h.syms[sh[0].sym].name, "start");
	ck_assert_uint_eq(sh[0].bytes, 8);
	ck_assert_double_eq_tol(sh[1].hits, 5, 1e-9);
	free(sh);
	/* Bucket 3 is the PSP's: all of it outside symbols. */
	ck_assert_uint_eq(analyze_bucket_shares(&h, &h.levels[0].b[0x03],
	    &sh), 1);
	ck_assert_uint_eq(sh[0].sym, SIZE_MAX);
	ck_assert_double_eq_tol(sh[0].hits, 2, 1e-9);
	free(sh);
	ck_assert_double_eq_tol(analyze_hist_pct(&h, 9), 25, 1e-9);

	/* 32 rows, then 16, 8, 4, 2, 1. */
	ck_assert_int_eq(h.nlevels, 6);
	/* Made when asked for, the lower ones on the way. */
	ck_assert_ptr_null(h.levels[1].b);
	ck_assert_ptr_nonnull(analyze_hist_level(&h, 5));
	ck_assert_ptr_null(analyze_hist_level(&h, 6));
	ck_assert_int_eq(h.levels[1].n, 16);
	ck_assert_int_eq(h.levels[1].b[8].lo, 0x10100);
	ck_assert_int_eq(h.levels[1].b[8].hi, 0x10120);
	ck_assert_int_eq(h.levels[1].b[8].hits, 16);
	ck_assert_int_eq(h.levels[5].n, 1);
	ck_assert_int_eq(h.levels[5].b[0].hits, 30);
	analyze_hist_free(&h);
	store_close(st);
}
END_TEST

/* Two names at one address must not count the same hits twice. */
START_TEST(test_aliases_not_doubled)
{
	static const char	 text[] =
	    "  Address   Publics by Value\n\n"
	    " 0000:0000  first\n 0000:0000  alias\n 0000:0020  next\n";
	uint16_t		 h16[32] = { 0 };
	struct analyze_hist	 h;
	struct store		*st;
	int64_t			 id;
	char			*cause = NULL;
	double			 sum = 0;
	size_t			 i;

	for (i = 0; i < 32; i++)
		h16[i] = (uint16_t)(i + 1);
	st = load(text, sizeof text - 1, h16, &id);
	ck_assert_msg(analyze_hist_load(st, id, &h, &cause) == 0, "%s", cause);
	for (i = 0; i < h.nsyms; i++)
		sum += h.syms[i].hits;
	ck_assert_double_eq_tol(sum + h.unattributed, (double)h.in_program,
	    1e-6);
	/* The later name at an address owns the range (map order). */
	ck_assert_int_eq(sym(&h, "first")->size, 0);
	ck_assert_int_eq(sym(&h, "alias")->size, 0x20);
	/* EXE rule: image at 1010h:0000, buckets 10h and 11h are alias. */
	ck_assert_double_eq_tol(sym(&h, "alias")->hits, 17 + 18, 1e-9);
	analyze_hist_free(&h);
	store_close(st);
}
END_TEST

START_TEST(test_not_prf)
{
	struct analyze_hist	 h;
	struct store		*st = tu_store();
	char			*cause = NULL;

	ck_assert_int_eq(analyze_hist_load(st, 42, &h, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "no PRF data"));
	free(cause);
	store_close(st);
}
END_TEST

/*
 * A random session: n buckets of bsiz paragraphs from 1000:0000, random
 * counts (many zero, some equal), and a NASM map of nsyms publics at
 * random offsets from 100h, some at one address (aliases), several in
 * one bucket.
 */
static struct store *
load_random(unsigned seed, unsigned n, unsigned bsiz, unsigned nsyms,
    int64_t *id)
{
	struct tu_prf		 f;
	struct ingest_opts	 o = { 0 };
	struct store		*st = tu_store();
	uint16_t		*h16;
	uint8_t			*buf;
	char			*map, *p, *cause;
	size_t			 len, cap;
	unsigned		 x = seed * 2654435761u + 7, i, ofs;

#define RND()	(x = x * 1103515245u + 12345u, (x >> 16) & 0x7fff)
	h16 = calloc(n + 1, sizeof *h16);
	ck_assert_ptr_nonnull(h16);
	for (i = 0; i < n; i++)
		h16[i] = RND() % 3 == 0 ? 0 : (uint16_t)(RND() % 40);
	memset(&f, 0, sizeof f);
	f.w[0] = 55; f.w[1] = (uint16_t)n; f.w[2] = (uint16_t)bsiz;
	f.w[3] = 0x1000; f.w[4] = (uint16_t)(0x1000 + n * bsiz);
	f.w[5] = 0x800; f.w[6] = 1; f.w[7] = 2; f.w[8] = 3;
	f.h16 = h16;
	buf = tu_prf_bytes(&f, &len);

	cap = 256 + 64 * (size_t)nsyms;
	p = map = calloc(1, cap);
	ck_assert_ptr_nonnull(map);
	p += sprintf(p, "- NASM Map file ---\n\n-- Program origin ---\n\n"
	    "00000100\n\n-- Symbols ---\n\n---- Section .text ---\n\n"
	    "Real              Virtual           Name\n");
	for (i = 0; i < nsyms; i++) {
		ofs = 0x100 + RND() % (n * bsiz * 16 - 0x100);
		p += sprintf(p, "%16X%18X  sym%u_%X\n", ofs, ofs, i, ofs);
	}
	ingest_opts_set(&o, "map", tu_tmpfile(".map", map, strlen(map)));
	ck_assert_msg(tu_ingest(st, "/nonexistent/r.prf", buf, len, &o, id,
	    &cause) == 0, "%s", cause);
	unlink(ingest_opts_get(&o, "map"));
	free(map);
	free(buf);
	free(h16);
#undef RND
	return (st);
}

/* The symbols that overlap b, from all of them: their indices. */
static size_t
bf_overlapping(const struct analyze_hist *h, const struct analyze_bucket *b,
    size_t *out)
{
	size_t	k, n = 0;

	for (k = 0; k < h->nsyms; k++) {
		if (analyze_overlap(b, &h->syms[k]) != 0)
			out[n++] = k;
	}
	return (n);
}

/*
 * Without a table or an image, a raw bucket's hits split by bytes; a
 * coarser bucket's share is the sum of its raw buckets' (sym SIZE_MAX:
 * the bytes no symbol covers; map symbols do not nest).
 */
static double
bf_share(const struct analyze_hist *h, const struct analyze_bucket *b,
    size_t sym)
{
	const struct analyze_level	*l0 = &h->levels[0];
	const struct analyze_bucket	*r;
	uint64_t			 bytes;
	size_t				 i, k;
	double				 v = 0;

	/* Every raw bucket inside b (the level's search is checked). */
	for (i = analyze_level_at(l0, b->lo); i < l0->n; i++) {
		r = &l0->b[i];
		if (r->lo >= b->hi)
			break;
		if (r->lo < b->lo || r->hi > b->hi || r->hi == r->lo)
			continue;
		if (sym != SIZE_MAX)
			bytes = analyze_overlap(r, &h->syms[sym]);
		else {
			bytes = r->hi - r->lo;
			for (k = 0; k < h->nsyms; k++)
				bytes -= analyze_overlap(r, &h->syms[k]);
		}
		v += (double)r->hits * (double)bytes / (double)(r->hi - r->lo);
	}
	return (v);
}

/* Names, shares and the iterator of every bucket of every level. */
static void
check_buckets(struct analyze_hist *h)
{
	static const size_t		 widths[] = { 0, 5, 12, 40, 600 };
	const struct analyze_level	*lv;
	const struct analyze_bucket	*b;
	struct analyze_share		*sh;
	size_t				*ov, n, m, i, j, k, l, wi, used, more;
	char				*names, want[1024], fit[512];
	uint64_t			 covered, bytes;
	double				 hits, sum;

	ov = calloc(h->nsyms + 1, sizeof *ov);
	ck_assert_ptr_nonnull(ov);
	for (l = 0; l < h->nlevels; l++) {
		lv = analyze_hist_level(h, l);
		for (i = 0; i < lv->n; i++) {
			b = &lv->b[i];
			n = bf_overlapping(h, b, ov);

			/* The iterator finds exactly those. */
			for (j = 0, k = analyze_bucket_sym(h, b, 0); j < n;
			    j++, k = analyze_bucket_sym(h, b, k + 1))
				ck_assert_uint_eq(k, ov[j]);
			ck_assert_uint_eq(k, (size_t)b->sym_first +
			    b->sym_count);

			/* A report's names: the first four, then a count. */
			want[0] = '\0';
			for (j = 0; j < n && j < 4; j++)
				snprintf(want + strlen(want), sizeof want -
				    strlen(want), "%s%s", j ? ", " : "",
				    h->syms[ov[j]].name);
			if (n > 4)
				snprintf(want + strlen(want), sizeof want -
				    strlen(want), " (+%zu)", n - 4);
			names = analyze_bucket_names(h, b);
			ck_assert_str_eq(names, want);
			free(names);

			/* A view's: what fits in the column, then a count. */
			for (wi = 0; wi < sizeof widths / sizeof widths[0];
			    wi++) {
				want[0] = '\0';
				used = more = 0;
				for (j = 0; j < n; j++) {
					m = strlen(h->syms[ov[j]].name) +
					    (used ? 2 : 0);
					if (more || used + m >= widths[wi] ||
					    used + m + 24 >= sizeof fit) {
						more++;
						continue;
					}
					used += (size_t)sprintf(want + used,
					    "%s%s", used ? ", " : "",
					    h->syms[ov[j]].name);
				}
				if (more)
					sprintf(want + used, " +%zu", more);
				m = analyze_bucket_names_fit(h, b, widths[wi],
				    fit, sizeof fit);
				ck_assert_str_eq(fit, want);
				ck_assert_uint_eq(m, strlen(want));
				ck_assert_uint_le(used, widths[wi]);
			}

			/* Shares: by bytes, the rest outside, largest first. */
			m = analyze_bucket_shares(h, b, &sh);
			covered = 0;
			sum = 0;
			for (j = 0; j < n; j++)
				covered += analyze_overlap(b, &h->syms[ov[j]]);
			ck_assert_uint_eq(m, n + (covered < b->hi - b->lo));
			for (j = 0; j < m; j++) {
				if (sh[j].sym == SIZE_MAX) {
					bytes = b->hi - b->lo - covered;
					ck_assert_uint_eq(sh[j].bytes, bytes);
				} else {
					bytes = analyze_overlap(b,
					    &h->syms[sh[j].sym]);
					ck_assert_uint_eq(sh[j].bytes, bytes);
					ck_assert_uint_gt(bytes, 0);
					ck_assert_double_eq(sh[j].hits,
					    analyze_bucket_share(h, b,
					    sh[j].sym));
				}
				hits = bf_share(h, b, sh[j].sym);
				ck_assert_double_eq_tol(sh[j].hits, hits,
				    1e-9);
				ck_assert_double_eq_tol(analyze_bucket_pct(b,
				    sh[j].hits), b->hits ? 100.0 * hits /
				    (double)b->hits : 0, 1e-9);
				sum += sh[j].hits;
				if (j > 0)
					ck_assert(sh[j - 1].hits > sh[j].hits ||
					    (sh[j - 1].hits == sh[j].hits &&
					    sh[j - 1].sym < sh[j].sym));
			}
			/* Map symbols do not nest: the parts add up. */
			ck_assert_double_eq_tol(sum, (double)b->hits, 1e-6);
			free(sh);
		}
	}
	free(ov);
}

/* Rows by hits and the row that holds an address, on every level. */
static void
check_levels(struct analyze_hist *h)
{
	const struct analyze_level	*lv;
	size_t				*o, *seen, i, l, want;
	uint64_t			 a;

	for (l = 0; l < h->nlevels; l++) {
		lv = analyze_hist_level(h, l);
		o = analyze_level_by_hits(lv);
		seen = calloc(lv->n + 1, sizeof *seen);
		ck_assert_ptr_nonnull(seen);
		for (i = 0; i < lv->n; i++) {
			ck_assert_uint_lt(o[i], lv->n);
			ck_assert_uint_eq(seen[o[i]]++, 0);
			if (i > 0)
				ck_assert(lv->b[o[i - 1]].hits >
				    lv->b[o[i]].hits || (lv->b[o[i - 1]].hits
				    == lv->b[o[i]].hits && o[i - 1] < o[i]));
		}
		free(seen);
		free(o);
		if (lv->n == 0)
			continue;
		for (a = lv->b[0].lo - 3; a < lv->b[lv->n - 1].hi + 3; a++) {
			for (want = 0; want < lv->n && lv->b[want].hi <= a;
			    want++)
				/* nothing */;
			if (want == lv->n)
				want = lv->n - 1;
			ck_assert_uint_eq(analyze_level_at(lv, a), want);
		}
	}
}

START_TEST(test_random_buckets)
{
	struct analyze_hist	 h;
	struct store		*st;
	int64_t			 id;
	char			*cause = NULL;
	double			 sum;
	size_t			 i, k;
	unsigned		 seed;

	for (seed = 1; seed <= 12; seed++) {
		st = load_random(seed, 32 + seed * 7, 1 + seed % 3,
		    seed % 4 == 0 ? 0 : seed * 11, &id);
		ck_assert_msg(analyze_hist_load(st, id, &h, &cause) == 0,
		    "%s", cause);
		check_buckets(&h);
		check_levels(&h);
		ck_assert_double_eq(analyze_hist_pct(&h, (double)h.total),
		    100.0);
		ck_assert_double_eq_tol(analyze_hist_pct(&h,
		    (double)h.in_program), 100.0 * (double)h.in_program /
		    (double)h.total, 1e-12);
		/* The flat profile is the sum of the shares. */
		for (k = 0; k < h.nsyms; k++) {
			sum = 0;
			for (i = 0; i < h.levels[0].n; i++)
				sum += analyze_bucket_share(&h,
				    &h.levels[0].b[i], k);
			ck_assert_double_eq_tol(sum, h.syms[k].hits, 1e-6);
		}
		analyze_hist_free(&h);
		store_close(st);
	}
}
END_TEST

/* One bucket, no symbols, no hits: nothing to name, all of it outside. */
START_TEST(test_bucket_edges)
{
	uint16_t		 h16[1] = { 0 };
	struct tu_prf		 f;
	struct ingest_opts	 o = { 0 };
	struct analyze_hist	 h;
	struct analyze_share	*sh;
	struct store		*st = tu_store();
	uint8_t			*buf;
	size_t			 len, *by;
	char			*cause = NULL, fit[8];
	int64_t			 id;

	memset(&f, 0, sizeof f);
	f.w[0] = 55; f.w[1] = 1; f.w[2] = 1; f.w[3] = 0x1000;
	f.w[4] = 0x1001; f.w[5] = 0x800;
	f.h16 = h16;
	buf = tu_prf_bytes(&f, &len);
	ck_assert_msg(tu_ingest(st, "/nonexistent/one.prf", buf, len, &o,
	    &id, &cause) == 0, "%s", cause);
	free(buf);
	ck_assert_msg(analyze_hist_load(st, id, &h, &cause) == 0, "%s",
	    cause);
	ck_assert_uint_eq(h.nlevels, 1);
	ck_assert_double_eq(analyze_hist_pct(&h, 5), 0);
	ck_assert_uint_eq(analyze_bucket_names_fit(&h, &h.levels[0].b[0], 40,
	    fit, sizeof fit), 0);
	ck_assert_str_eq(fit, "");
	ck_assert_uint_eq(analyze_bucket_shares(&h, &h.levels[0].b[0], &sh),
	    1);
	ck_assert_uint_eq(sh[0].sym, SIZE_MAX);
	ck_assert_uint_eq(sh[0].bytes, 16);
	ck_assert_double_eq(sh[0].hits, 0);
	ck_assert_double_eq(analyze_bucket_pct(&h.levels[0].b[0], 0), 0);
	free(sh);
	by = analyze_level_by_hits(&h.levels[0]);
	ck_assert_uint_eq(by[0], 0);
	free(by);
	ck_assert_uint_eq(analyze_level_at(&h.levels[0], 0), 0);
	ck_assert_uint_eq(analyze_level_at(&h.levels[0], UINT64_MAX), 0);
	analyze_hist_free(&h);
	store_close(st);
}
END_TEST

#ifdef HAVE_NASM_ATTR
/*
 * Truth.  attr.asm's listing gives every instruction's offset and, in its
 * comment, how many times it runs; a sample per execution is the
 * instruction-count model.  PRF files are made from those samples (the
 * PSP at 1000h, the code from 1000:0100), with and without a hit table,
 * and the flat profile is held to the model's sums per symbol.
 */
#define ATTR_PSP	0x1000
#define ATTR_HIGH	0x1014		/* 35h bytes of code end in para 13h */
#define ATTR_MAX	64

struct attr_model {
	uint32_t	 addr[ATTR_MAX];	/* linear */
	uint32_t	 runs[ATTR_MAX];
	size_t		 n;
};

static void
attr_model(struct attr_model *m)
{
	FILE		*f;
	char		 line[256], *x;
	unsigned	 off, bytes, runs;

	memset(m, 0, sizeof *m);
	f = fopen(TEST_BUILD_DATA "/attr.lst", "r");
	ck_assert_msg(f != NULL, "%s/attr.lst", TEST_BUILD_DATA);
	while (fgets(line, sizeof line, f) != NULL) {
		/* "    12 00000003 B96400    mov cx, 100   ; x1" */
		if (sscanf(line, "%*u %8x %x", &off, &bytes) != 2 ||
		    (x = strstr(line, "; x")) == NULL)
			continue;
		runs = (unsigned)strtoul(x + 3, NULL, 10);
		ck_assert_uint_lt(m->n, ATTR_MAX);
		m->addr[m->n] = ATTR_PSP * 16 + 0x100 + off;
		m->runs[m->n] = runs;
		m->n++;
	}
	fclose(f);
	/* 26 instructions; the constant has no count: it never runs. */
	ck_assert_uint_eq(m->n, 26);
}

/* The model's samples in [lo, hi). */
static double
attr_truth(const struct attr_model *m, uint64_t lo, uint64_t hi)
{
	double	v = 0;
	size_t	i;

	for (i = 0; i < m->n; i++) {
		if (m->addr[i] >= lo && m->addr[i] < hi)
			v += m->runs[i];
	}
	return (v);
}

/*
 * Ingest attr's samples in buckets of bsiz paragraphs: with a hit table
 * of every nth instruction (0: none; the others missed it), with the
 * program's image or not.
 */
static struct store *
attr_load(const struct attr_model *m, unsigned bsiz, size_t nth,
    int image, int64_t *id)
{
	struct ingest_opts	 o = { .options = {
	    { "map", TEST_BUILD_DATA "/attr.map" } },
	    .noptions = 1 };
	struct tu_prf		 f;
	struct tu_hit		 hit[ATTR_MAX];
	struct store		*st = tu_store();
	uint32_t		 h32[32] = { 0 }, missed = 0;
	uint16_t		 h16[32] = { 0 };
	uint8_t			*buf;
	size_t			 i, n = 0, len, b;
	char			*cause;

	memset(&f, 0, sizeof f);
	f.w[0] = 55;
	f.w[1] = (uint16_t)((ATTR_HIGH - ATTR_PSP + bsiz - 1) / bsiz);
	f.w[2] = (uint16_t)bsiz;
	f.w[3] = ATTR_PSP;
	f.w[4] = ATTR_HIGH;
	f.w[5] = 0x800;
	for (i = 0; i < m->n; i++) {
		b = (m->addr[i] / 16 - ATTR_PSP) / bsiz;
		h32[b] += m->runs[i];
		if (m->runs[i] == 0)
			continue;
		if (nth != 0 && i % nth == 0) {
			hit[n].cs = ATTR_PSP;
			hit[n].ip = (uint16_t)(m->addr[i] - ATTR_PSP * 16);
			hit[n].hits = m->runs[i];
			n++;
		} else
			missed += m->runs[i];
	}
	for (i = 0; i < f.w[1]; i++) {
		h16[i] = h32[i] > 0xffff ? 0xffff : (uint16_t)h32[i];
		f.total += h32[i];
	}
	f.h16 = h16;
	f.pv32 = 1;
	f.version = 1;
	f.h32 = h32;
	if (nth != 0) {
		tu_prf_hits(&f, hit, n, missed);
		f.hits_capacity = (uint16_t)(n + (missed != 0 ? 0 : 5));
	}
	if (image)
		ingest_opts_set(&o, "program", TEST_BUILD_DATA "/attr.com");
	buf = tu_prf_bytes(&f, &len);
	ck_assert_msg(tu_ingest(st, "/nonexistent/attr.prf", buf, len, &o,
	    id, &cause) == 0, "%s", cause);
	free(buf);
	return (st);
}

/*
 * Every symbol's bounds hold the truth and its share lies within them;
 * the flat profile and the part outside every symbol add up to all the
 * program's samples.  Returns the sum of the shares' errors.
 */
static double
attr_check(const struct analyze_hist *h, const struct attr_model *m,
    const char *what)
{
	const struct analyze_sym	*s;
	double				 truth, sum = h->unattributed, err = 0;
	size_t				 i;

	for (i = 0; i < h->nsyms; i++) {
		s = &h->syms[i];
		truth = attr_truth(m, s->addr, s->addr + s->size);
		ck_assert_msg(s->hits_lo <= truth + 1e-9 &&
		    truth <= s->hits_hi + 1e-9, "%s: %s: truth %g outside"
		    " [%g, %g]", what, s->name, truth, s->hits_lo, s->hits_hi);
		ck_assert_msg(s->hits_lo <= s->hits + 1e-9 &&
		    s->hits <= s->hits_hi + 1e-9, "%s: %s: %g outside"
		    " [%g, %g]", what, s->name, s->hits, s->hits_lo,
		    s->hits_hi);
		err += fabs(s->hits - truth);
		sum += s->hits;
	}
	ck_assert_double_eq_tol(sum, (double)h->in_program, 1e-6);
	return (err);
}

/* With every sample in the table: exact, whatever the bucket size. */
START_TEST(test_truth_table)
{
	static const unsigned	 sizes[] = { 1, 2, 3, 8 };
	struct attr_model	 m;
	struct analyze_hist	 h;
	const struct analyze_sym *s;
	struct store		*st;
	int64_t			 id;
	char			*cause = NULL;
	size_t			 i, k;

	attr_model(&m);
	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		st = attr_load(&m, sizes[k], 1, 0, &id);
		ck_assert_msg(analyze_hist_load(st, id, &h, &cause) == 0,
		    "%s", cause);
		ck_assert_int_eq(h.split, ANALYZE_SPLIT_NONE);
		ck_assert_uint_eq(h.nsyms, 10);
		attr_check(&h, &m, "table");
		for (i = 0; i < h.nsyms; i++) {
			s = &h.syms[i];
			ck_assert_double_eq_tol(s->hits, attr_truth(&m,
			    s->addr, s->addr + s->size), 1e-9);
			ck_assert(s->hits_lo == s->hits_hi);
			ck_assert_double_eq_tol(s->hits, s->hits_lo, 1e-9);
		}
		/* Not a sample outside the symbols, not even by bytes. */
		ck_assert_double_eq(h.unattributed, 0);
		/* The bucket view's parts are exact too. */
		for (i = 0; i < h.levels[0].n; i++) {
			struct analyze_share	*sh;
			size_t			 j, n;

			n = analyze_bucket_shares(&h, &h.levels[0].b[i], &sh);
			for (j = 0; j < n; j++) {
				if (sh[j].sym == SIZE_MAX) {
					ck_assert_double_eq(sh[j].hits, 0);
					continue;
				}
				s = &h.syms[sh[j].sym];
				ck_assert_double_eq_tol(sh[j].hits,
				    attr_truth(&m, s->addr >
				    h.levels[0].b[i].lo ? s->addr :
				    h.levels[0].b[i].lo, s->addr + s->size <
				    h.levels[0].b[i].hi ? s->addr + s->size :
				    h.levels[0].b[i].hi), 1e-9);
			}
			free(sh);
		}
		analyze_hist_free(&h);
		store_close(st);
	}
}
END_TEST

/*
 * A full table (a third of the instructions found a free entry): the
 * samples it missed are shared, and the bounds still hold the truth.
 */
START_TEST(test_truth_full_table)
{
	static const unsigned	 sizes[] = { 1, 2, 3, 8 };
	struct attr_model	 m;
	struct analyze_hist	 h;
	struct store		*st;
	int64_t			 id;
	char			*cause = NULL;
	size_t			 k;

	attr_model(&m);
	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		st = attr_load(&m, sizes[k], 3, 1, &id);
		ck_assert_msg(analyze_hist_load(st, id, &h, &cause) == 0,
		    "%s", cause);
		ck_assert_int_eq(h.prf.hit_table_full, 1);
		ck_assert_int_eq(h.split, ANALYZE_SPLIT_STARTS);
		attr_check(&h, &m, "full table");
		analyze_hist_free(&h);
		store_close(st);
	}
}
END_TEST

/*
 * Without a table: the bounds hold the truth, the constant and the
 * routine that never runs have nothing they can be sure of, and the last
 * bucket, clipped at prog_high_pa, gives nothing to the bytes past the
 * code when the image says no instruction starts there.
 */
START_TEST(test_truth_vintage)
{
	static const unsigned	 sizes[] = { 1, 2, 3, 8 };
	struct attr_model	 m;
	struct analyze_hist	 h;
	struct store		*st;
	int64_t			 id;
	char			*cause = NULL;
	size_t			 i, k;
	int			 image;
	double			 err[2];

	attr_model(&m);
	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		for (image = 0; image < 2; image++) {
			st = attr_load(&m, sizes[k], 0, image, &id);
			ck_assert_msg(analyze_hist_load(st, id, &h, &cause) ==
			    0, "%s", cause);
			ck_assert_int_eq(h.split, image ?
			    ANALYZE_SPLIT_STARTS : ANALYZE_SPLIT_BYTES);
			err[image] = attr_check(&h, &m, image ? "starts" :
			    "bytes");
			ck_assert_double_eq(sym(&h, "pi")->hits_lo, 0);
			ck_assert_double_eq(sym(&h, "cold")->hits_lo, 0);
			ck_assert_uint_eq(sym(&h, "tail")->size, 3);
			/* The last bucket ends at prog_high_pa. */
			i = h.levels[0].n - 1;
			ck_assert_uint_eq(h.levels[0].b[i].hi, ATTR_HIGH * 16);
			if (image)
				ck_assert_double_eq(h.unattributed, 0);
			analyze_hist_free(&h);
			store_close(st);
		}
		/*
		 * Neither split knows how often code runs: over all the
		 * symbols the estimates miss by about 16000 to 20000 of the
		 * 11707 samples (a sample misplaced counts twice), starts
		 * and bytes alike.  Only the table is exact; the bounds say
		 * so, and they hold.
		 */
		ck_assert(err[0] > 0 && err[1] > 0);
	}
}
END_TEST
/*
 * The annotate view's analysis of each symbol against the model: with
 * every sample in the table, each instruction's hits are its runs and
 * the listing's lines sit at their instructions; with none, no
 * instruction gets a hit and the buckets' parts are the flat profile's
 * estimate; with a full table, the entries exactly and the rest as an
 * estimate that adds up with the flat profile.
 */
START_TEST(test_annotate_truth)
{
	static const size_t	 nths[3] = { 0, 1, 3 };
	struct attr_model	 m;
	struct analyze_hist	 h;
	struct analyze_annotate	 a;
	const struct analyze_sym *s;
	struct store		*st;
	int64_t			 id;
	char			*cause = NULL;
	size_t			 i, k, r, nth, t;
	uint64_t		 lo, hi;
	double			 parts;

	attr_model(&m);
	for (t = 0; t < 3; t++) {
		nth = nths[t];
		st = attr_load(&m, 2, nth, 1, &id);
		ck_assert_msg(analyze_hist_load(st, id, &h, &cause) == 0,
		    "%s", cause);
		ck_assert_int_gt(tu_count(st, "SELECT count(*) FROM"
		    " prf_source"), 26);
		for (k = 0; k < h.nsyms; k++) {
			s = &h.syms[k];
			ck_assert_msg(analyze_annotate_load(st, &h, s->addr,
			    s->addr + s->size, &a, &cause) == 0, "%s", cause);
			ck_assert_int_eq(a.exact, nth == 1);
			parts = 0;
			for (i = 0; i < a.nbuckets; i++)
				parts += a.buckets[i].part;
			ck_assert_double_eq_tol(parts, s->hits, 1e-6);
			ck_assert_double_eq_tol((double)a.hits + a.estimated,
			    s->hits, 1e-6);
			for (i = 0; i < m.n; i++) {
				if (m.addr[i] < s->addr || m.addr[i] >=
				    s->addr + s->size)
					continue;
				/* Each instruction of the model is a row. */
				r = analyze_annotate_row(&a, m.addr[i]);
				ck_assert_uint_ne(r, SIZE_MAX);
				ck_assert_uint_eq(a.insn[r].addr, m.addr[i]);
				ck_assert_uint_eq(a.insn[r].hits, nth == 0 ||
				    m.runs[i] == 0 || i % nth != 0 ? 0 :
				    m.runs[i]);
				ck_assert_uint_ge(a.insn[r].nsrc, 1);
			}
			ck_assert_uint_eq(a.mid, 0);
			if (strcmp(s->name, "hot") == 0) {
				r = analyze_annotate_row(&a, s->addr);
				ck_assert_str_eq(analyze_src_text(&a,
				    a.insn[r].src), "hot:");
				ck_assert_str_eq(analyze_src_text(&a,
				    a.insn[r].src + 1),
				    "\tmov bx, 50\t\t; x100");
				ck_assert_str_eq(analyze_insn_text(&a, r),
				    "mov bx, 0x32");
				ck_assert_uint_eq(a.nhot, a.insn[r].hits != 0);
			}
			/* Ties by address: dec bx, jnz .inner; ret. */
			if (strcmp(s->name, "hot.inner") == 0 && nth == 1) {
				ck_assert_uint_eq(a.nhot, 3);
				ck_assert_uint_eq(a.insn[a.hot[0]].addr,
				    s->addr);
				ck_assert_uint_eq(a.insn[a.hot[1]].addr,
				    s->addr + 1);
				ck_assert_uint_eq(a.insn[a.hot[0]].hits, 5000);
				/* jnz .inner goes back to dec bx. */
				ck_assert_int_eq(analyze_insn_target(&h, &a,
				    a.hot[1], &lo), 0);
				ck_assert_uint_eq(lo, s->addr);
				ck_assert_int_eq(analyze_insn_target(&h, &a,
				    a.hot[0], &lo), -1);
			}
			analyze_annotate_free(&a);
		}
		analyze_hist_free(&h);
		store_close(st);
	}
	/* A routine is its symbol and the local labels after it. */
	st = attr_load(&m, 1, 1, 1, &id);
	ck_assert_msg(analyze_hist_load(st, id, &h, &cause) == 0, "%s", cause);
	for (k = 0; k < h.nsyms; k++) {
		analyze_annotate_sym_range(&h, k, &lo, &hi);
		s = &h.syms[k];
		ck_assert_uint_eq(lo, s->addr);
		if (strcmp(s->name, "hot") == 0)
			ck_assert_uint_eq(hi, sym(&h, "hot.inner")->addr +
			    sym(&h, "hot.inner")->size);
		else if (strcmp(s->name, "warm") == 0)
			ck_assert_uint_eq(hi, sym(&h, "warm.spin")->addr +
			    sym(&h, "warm.spin")->size);
		else
			ck_assert_uint_eq(hi, s->addr + s->size);
	}
	analyze_hist_free(&h);
	store_close(st);
}
END_TEST
#endif

/*
 * Annotation.  A .COM of five instructions and a byte that is none, at
 * 1000:0100, in one-paragraph buckets to 1000:0120; the hit table holds
 * samples at an instruction's start, inside one, on the bad byte and in
 * two places past the image.
 */
static const uint8_t	ann_com[8] = { 0xb8, 0x00, 0x4c, 0xcd, 0x21, 0xfe,
    0xf8, 0xc3 };

static struct store *
ann_load(int image, int64_t *id)
{
	static const struct tu_hit hit[6] = {
		{ 0x0100, 0x1000, 5 }, { 0x0101, 0x1000, 2 },
		{ 0x0105, 0x1000, 1 }, { 0x0107, 0x1000, 3 },
		{ 0x010a, 0x1000, 4 }, { 0x0110, 0x1000, 6 }
	};
	struct ingest_opts	 o = { 0 };
	struct tu_prf		 f;
	struct store		*st = tu_store();
	uint32_t		 h32[18] = { 0 };
	uint16_t		 h16[18] = { 0 };
	uint8_t			*buf;
	size_t			 len;
	char			*cause;

	memset(&f, 0, sizeof f);
	f.w[0] = 55; f.w[1] = 18; f.w[2] = 1; f.w[3] = 0x1000;
	f.w[4] = 0x1012; f.w[5] = 0x800;
	h32[16] = h16[16] = 15;
	h32[17] = h16[17] = 6;
	f.h16 = h16;
	f.pv32 = 1;
	f.version = 1;
	f.h32 = h32;
	f.total = 21;
	tu_prf_hits(&f, hit, 6, 0);
	if (image)
		ingest_opts_set(&o, "program",
		    tu_tmpfile(".com", ann_com, sizeof ann_com));
	buf = tu_prf_bytes(&f, &len);
	ck_assert_msg(tu_ingest(st, "/nonexistent/ann.prf", buf, len, &o, id,
	    &cause) == 0, "%s", cause);
	free(buf);
	if (image)
		unlink(ingest_opts_get(&o, "program"));
	return (st);
}

/*
 * Every row of the range, hits to the instruction that holds them: one
 * inside an instruction is counted there and marked, one past the image
 * goes to the row that says so; nothing is lost, the hottest come first.
 */
START_TEST(test_annotate_rows)
{
	static const struct {
		uint64_t	 addr;
		uint32_t	 len;
		uint64_t	 hits, mid;
		int		 flags;
		const char	*text;
	} want[6] = {
		{ 0x10100, 3, 7, 2, ANALYZE_INSN_MID, "mov ax, 0x4c00" },
		{ 0x10103, 2, 0, 0, 0, "int 0x21" },
		{ 0x10105, 1, 1, 0, ANALYZE_INSN_BAD, "(bad)" },
		{ 0x10106, 1, 0, 0, 0, "clc" },
		{ 0x10107, 1, 3, 0, 0, "ret" },
		{ 0x10108, 0x18, 10, 0, ANALYZE_INSN_GAP,
		    "(not in the program image)" }
	};
	static const size_t	 hot[4] = { 5, 0, 4, 2 };
	struct analyze_hist	 h;
	struct analyze_annotate	 a;
	struct store		*st;
	uint64_t		 addr;
	int64_t			 id;
	char			*cause = NULL;
	size_t			 i;

	st = ann_load(1, &id);
	ck_assert_msg(analyze_hist_load(st, id, &h, &cause) == 0, "%s", cause);
	ck_assert_msg(analyze_annotate_load(st, &h, 0x10100, 0x10120, &a,
	    &cause) == 0, "%s", cause);
	ck_assert_uint_eq(a.ninsn, 6);
	for (i = 0; i < 6; i++) {
		ck_assert_uint_eq(a.insn[i].addr, want[i].addr);
		ck_assert_uint_eq(a.insn[i].len, want[i].len);
		ck_assert_uint_eq(a.insn[i].hits, want[i].hits);
		ck_assert_uint_eq(a.insn[i].mid, want[i].mid);
		ck_assert_int_eq(a.insn[i].flags, want[i].flags);
		ck_assert_str_eq(analyze_insn_text(&a, i), want[i].text);
		ck_assert_uint_eq(a.insn[i].bucket, want[i].addr < 0x10110 ?
		    0 : 1);
		ck_assert_uint_eq(a.insn[i].nsrc, 0);
	}
	ck_assert_uint_eq(a.hits, 21);
	ck_assert_uint_eq(a.mid, 2);
	ck_assert_int_eq(a.table, 1);
	ck_assert_int_eq(a.exact, 1);
	ck_assert_double_eq(a.estimated, 0);
	ck_assert_uint_eq(a.nhot, 4);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(a.hot[i], hot[i]);
	ck_assert_uint_eq(a.nbuckets, 2);
	ck_assert_uint_eq(a.buckets[0].hits, 15);
	ck_assert_uint_eq(a.buckets[0].exact, 15);
	ck_assert_uint_eq(a.buckets[0].unplaced, 0);
	ck_assert_int_eq(a.buckets[1].whole, 1);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(analyze_insn_target(&h, &a, i, &addr), -1);
	ck_assert_uint_eq(analyze_annotate_row(&a, 0x10102), 0);
	ck_assert_uint_eq(analyze_annotate_row(&a, 0x1011f), 5);
	ck_assert_uint_eq(analyze_annotate_row(&a, 0x10120), SIZE_MAX);
	analyze_annotate_free(&a);

	/* Part of a bucket: only its samples in the range, exactly. */
	ck_assert_msg(analyze_annotate_load(st, &h, 0x10103, 0x10106, &a,
	    &cause) == 0, "%s", cause);
	ck_assert_uint_eq(a.ninsn, 2);
	ck_assert_uint_eq(a.hits, 1);
	ck_assert_uint_eq(a.nbuckets, 1);
	ck_assert_uint_eq(a.buckets[0].exact, 1);
	ck_assert_int_eq(a.buckets[0].whole, 0);
	ck_assert_double_eq(a.buckets[0].part, 1);
	analyze_annotate_free(&a);

	/* Before the image, an empty range, a range over the limit. */
	ck_assert_int_eq(analyze_annotate_load(st, &h, 0x10000, 0x10010, &a,
	    &cause), 0);
	ck_assert_uint_eq(a.ninsn, 1);
	ck_assert_int_eq(a.insn[0].flags, ANALYZE_INSN_GAP);
	analyze_annotate_free(&a);
	ck_assert_int_eq(analyze_annotate_load(st, &h, 0x10104, 0x10104, &a,
	    &cause), 0);
	ck_assert_uint_eq(a.ninsn, 0);
	analyze_annotate_free(&a);
	ck_assert_int_eq(analyze_annotate_load(st, &h, 0x10100, 0x40000, &a,
	    &cause), 0);
	ck_assert_int_eq(a.cut, 1);
	ck_assert_uint_eq(a.hi, 0x10100 + ANALYZE_ANNOTATE_MAX);
	ck_assert_uint_eq(a.hits, 21);
	analyze_annotate_free(&a);
	analyze_hist_free(&h);
	store_close(st);

	/* Without the program: said, and nothing to free. */
	st = ann_load(0, &id);
	ck_assert_msg(analyze_hist_load(st, id, &h, &cause) == 0, "%s", cause);
	ck_assert_int_eq(analyze_annotate_load(st, &h, 0x10100, 0x10120, &a,
	    &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "no program image in session"));
	free(cause);
	analyze_hist_free(&h);
	store_close(st);
}
END_TEST

static Suite *
analyze_suite(void)
{
	Suite	*s = suite_create("analyze");
	TCase	*tc = tcase_create("hist");

	tcase_add_test(tc, test_flat_profile);
	tcase_add_test(tc, test_aliases_not_doubled);
	tcase_add_test(tc, test_not_prf);
	tcase_add_test(tc, test_random_buckets);
	tcase_add_test(tc, test_bucket_edges);
	tcase_add_test(tc, test_annotate_rows);
#ifdef HAVE_NASM_ATTR
	tcase_add_test(tc, test_truth_table);
	tcase_add_test(tc, test_truth_full_table);
	tcase_add_test(tc, test_truth_vintage);
	tcase_add_test(tc, test_annotate_truth);
#endif
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner	*sr = srunner_create(analyze_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
