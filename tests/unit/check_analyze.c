/*
 * Bucket histograms through the whole path: a PRF and a map are ingested,
 * analyze_hist_load shares each bucket's hits among the symbols it
 * overlaps, and the zoom levels merge buckets.
 */
#include <math.h>

#include "analyze/analyze.h"
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
	struct ingest_opts	 o = { NULL, INGEST_LOAD_AUTO, 0 };
	struct store		*st = tu_store();
	uint8_t			*buf;
	size_t			 len;
	char			*cause;

	memset(&f, 0, sizeof f);
	f.w[0] = 55; f.w[1] = 32; f.w[2] = 1; f.w[3] = 0x1000;
	f.w[4] = 0x1020; f.w[5] = 0x800; f.w[6] = 1; f.w[7] = 2; f.w[8] = 3;
	f.h16 = h16;
	buf = tu_prf_bytes(&f, &len);
	o.map = tu_tmpfile(".map", map, maplen);
	ck_assert_msg(tu_ingest(st, "/nonexistent/t.prf", buf, len, &o, id,
	    &cause) == 0, "%s", cause);
	unlink(o.map);
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
	int64_t			 id;
	char			*cause = NULL, *names;

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

	/* 32 rows, then 16, 8, 4, 2, 1. */
	ck_assert_int_eq(h.nlevels, 6);
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

static Suite *
analyze_suite(void)
{
	Suite	*s = suite_create("analyze");
	TCase	*tc = tcase_create("hist");

	tcase_add_test(tc, test_flat_profile);
	tcase_add_test(tc, test_aliases_not_doubled);
	tcase_add_test(tc, test_not_prf);
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
