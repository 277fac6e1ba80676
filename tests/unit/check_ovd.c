/*
 * The OVD reader on hand-made files: good ones, each field's bad values,
 * truncation at every length, lying segments, reprieve-only runs, buffer
 * changes, the midnight wrap; and the statistics and zoom levels built
 * from what it stored.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kind.h"
#include "analyze/analyze.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "tests/unit/testutil.h"

struct ob {
	uint8_t	b[4096];
	size_t	n;
};

static void
w16(struct ob *o, unsigned v)
{
	o->b[o->n++] = v & 0xff;
	o->b[o->n++] = (v >> 8) & 0xff;
}

static void
w32(struct ob *o, uint32_t v)
{
	w16(o, v & 0xffff);
	w16(o, v >> 16);
}

/* Header and a code list of units at 0040h (48 bytes), 0044h, 0048h. */
static void
head(struct ob *o, unsigned version)
{
	o->n = 0;
	w16(o, version);
	w16(o, 0x1a2b);
	w16(o, 0x40); w32(o, 0x200); w16(o, 48); w16(o, 16); w16(o, 2);
	w16(o, 0x44); w32(o, 0x300); w16(o, 64); w16(o, 16); w16(o, 1);
	w16(o, 0x48); w32(o, 0x400); w16(o, 32); w16(o, 0); w16(o, 1);
	w16(o, 0);
}

#define HEAD_BYTES	(4 + 3 * 12 + 2)

/* A load event of seg with list pairs (stat, load), 0-terminated. */
static void
ev(struct ob *o, uint32_t t, int change, unsigned org, unsigned end,
    unsigned seg, unsigned ofs, const unsigned *pairs)
{
	w32(o, t);
	if (change) {
		w16(o, 0xffff);
		w16(o, org);
		w16(o, end);
	}
	w16(o, seg);
	w16(o, ofs);
	for (; pairs != NULL && pairs[0] != 0; pairs += 2) {
		w16(o, pairs[0]);
		w16(o, pairs[1]);
	}
	w16(o, 0);
}

/* A good file: loads, a reprieve, a buffer change; ends[] event ends. */
static size_t	ends[8];

static void
good(struct ob *o)
{
	static const unsigned l0[] = { 0x40, 0x3000, 0 };
	static const unsigned l1[] = { 0x40, 0x3000, 0x44, 0x3003, 0 };
	static const unsigned l3[] = { 0x44, 0x3003, 0x48, 0x3000, 0 };
	static const unsigned l4[] = { 0x40, 0x5000, 0 };

	head(o, 1);
	ev(o, 100, 1, 0x3000, 0x3008, 0x40, 0x05, l0); ends[0] = o->n;
	ev(o, 110, 0, 0, 0, 0x44, 0x00, l1); ends[1] = o->n;
	ev(o, 115, 0, 0, 0, 0x40, 0x05, NULL); ends[2] = o->n;
	ev(o, 130, 0, 0, 0, 0x48, 0x00, l3); ends[3] = o->n;
	ev(o, 150, 1, 0x5000, 0x5010, 0x40, 0x00, l4); ends[4] = o->n;
}

static char	 tmp[64];
static struct store *st;

static void
setup(void)
{
	char	*cause = NULL;

	st = store_open(":memory:", 0, &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	snprintf(tmp, sizeof tmp, "/tmp/pvovdXXXXXX.OVD");
	close(mkstemps(tmp, 4));
}

static void
teardown(void)
{
	store_close(st);
	unlink(tmp);
}

/* Ingest the bytes under name (in /tmp); 0 or -1 with *cause. */
static int
ingest(const struct ob *o, size_t len, int64_t *id, char **cause)
{
	struct ingest_opts	 opts;
	const char		*kind;
	FILE			*f;
	int			 reused;

	f = fopen(tmp, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(o->b, 1, len, f), len);
	fclose(f);
	memset(&opts, 0, sizeof opts);
	*cause = NULL;
	return (ingest_file(st, tmp, &opts, id, &kind, &reused, cause));
}

static void
bad(const struct ob *o, const char *field, const char *detail)
{
	char	*cause;
	int64_t	 id;

	ck_assert_int_ne(ingest(o, o->n, &id, &cause), 0);
	ck_assert_msg(strstr(cause, field) != NULL, "%s lacks %s", cause,
	    field);
	ck_assert_msg(strstr(cause, detail) != NULL, "%s lacks %s", cause,
	    detail);
	ck_assert_msg(strstr(cause, "offset ") != NULL, "%s", cause);
	free(cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM session"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_event"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_loaded"), 0);
}

START_TEST(test_good)
{
	struct ob	o;
	char		*cause;
	int64_t		 id;

	good(&o);
	ck_assert_ptr_eq(ingest_detect(o.b, o.n, "x.bin")->reader,
	    &ingest_ovd_reader);
	ck_assert_ptr_eq(ingest_detect(o.b, 2, "X.OVD")->reader,
	    &ingest_ovd_reader);
	ck_assert_int_eq(ingest(&o, o.n, &id, &cause), 0);
	ck_assert_int_eq(tu_count(st, "SELECT version * 100000 + prefix_seg FROM ovd"),
	    100000 + 0x1a2b);
	ck_assert_int_eq(tu_count(st, "SELECT truncated FROM ovd"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_unit"), 3);
	ck_assert_int_eq(tu_count(st, "SELECT code_size FROM ovr_unit WHERE stat_seg ="
	    " 68"), 64);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_event"), 5);
	ck_assert_int_eq(tu_count(st, "SELECT seq FROM ovr_event WHERE kind ="
	    " 'reprieve'"), 2);
	ck_assert_int_eq(tu_count(st, "SELECT heap_end FROM ovr_event WHERE seq = 3"),
	    0x3008);
	ck_assert_int_eq(tu_count(st, "SELECT heap_org FROM ovr_event WHERE seq = 4"),
	    0x5000);
	ck_assert_int_eq(tu_count(st, "SELECT sum(ticks) FROM ovr_event"), 605);
	/* Residencies: 40@3000 0..2, 44@3003 1..3, 48@3000 3..3, 40@5000 4. */
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_loaded"), 4);
	ck_assert_int_eq(tu_count(st, "SELECT last_seq FROM ovr_loaded WHERE stat_seg ="
	    " 64 AND first_seq = 0"), 2);
	ck_assert_int_eq(tu_count(st, "SELECT last_seq FROM ovr_loaded WHERE stat_seg ="
	    " 68"), 3);
	ck_assert_int_eq(tu_count(st, "SELECT load_seg FROM ovr_loaded WHERE"
	    " first_seq = 4"), 0x5000);
	ck_assert_int_eq(tu_count(st, "SELECT value FROM counter WHERE name ="
	    " 'events'"), 5);
}
END_TEST

/* The load list of every load event comes back from the residencies. */
START_TEST(test_lists_roundtrip)
{
	struct ob	o;
	char		*cause;
	int64_t		 id;

	good(&o);
	ck_assert_int_eq(ingest(&o, o.n, &id, &cause), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM (SELECT count(l.rowid)"
	    " AS n FROM ovr_event e LEFT JOIN ovr_loaded l ON l.session ="
	    " e.session AND e.seq BETWEEN l.first_seq AND l.last_seq"
	    " WHERE e.kind = 'load' GROUP BY e.seq HAVING n != CASE e.seq"
	    " WHEN 0 THEN 1 WHEN 1 THEN 2 WHEN 3 THEN 2 ELSE 1 END)"), 0);
}
END_TEST

START_TEST(test_stats)
{
	struct ob		 o;
	struct analyze_ovd	 a;
	char			*cause, *site;
	int64_t			 id;
	size_t			 l, w, k;
	int64_t			 res;
	uint64_t		 loads;

	good(&o);
	ck_assert_int_eq(ingest(&o, o.n, &id, &cause), 0);
	ck_assert_int_eq(analyze_ovd_load(st, id, &a, &cause), 0);
	ck_assert_uint_eq(a.nunits, 3);
	ck_assert_uint_eq(a.nevents, 5);
	ck_assert_int_eq(a.t_first, 100);
	ck_assert_int_eq(a.t_last, 150);
	/* 40h: 100..130 at 3000h, 150..150 at 5000h. */
	ck_assert_uint_eq(a.units[0].loads, 2);
	ck_assert_uint_eq(a.units[0].reprieves, 1);
	ck_assert_int_eq(a.units[0].resident_ticks, 30);
	ck_assert_double_eq_tol(a.units[0].resident_share, 0.6, 1e-9);
	ck_assert_double_eq_tol(a.units[0].mean_reload_ticks, 50, 1e-9);
	/* 44h: 110..150; 48h: 130..150, loaded once. */
	ck_assert_int_eq(a.units[1].resident_ticks, 40);
	ck_assert_int_eq(a.units[2].resident_ticks, 20);
	ck_assert_double_lt(a.units[2].mean_reload_ticks, 0);
	site = analyze_ovd_site(&a, 0, 5);
	ck_assert_str_eq(site, "0040h:0005h");
	free(site);

	ck_assert_int_eq(analyze_ovd_levels(&a, 8), 0);
	ck_assert_uint_ge(a.nlevels, 2);
	ck_assert_uint_eq(a.levels[a.nlevels - 1].n, 1);
	ck_assert_uint_le(a.levels[0].n, 8);
	/* Every level adds up to the same totals. */
	for (l = 0; l < a.nlevels; l++) {
		for (k = 0; k < a.nunits; k++) {
			res = 0;
			loads = 0;
			for (w = 0; w < a.levels[l].n; w++) {
				res += a.levels[l].cells[w * a.nunits + k].
				    resident_ticks;
				loads += a.levels[l].cells[w * a.nunits + k].
				    loads;
			}
			ck_assert_int_eq(res, a.units[k].resident_ticks);
			ck_assert_uint_eq(loads, a.units[k].loads);
		}
	}
	analyze_ovd_free(&a);
}
END_TEST

START_TEST(test_empty_event_list)
{
	struct ob		 o;
	struct analyze_ovd	 a;
	char			*cause;
	int64_t			 id;

	head(&o, 1);
	ck_assert_int_eq(ingest(&o, o.n, &id, &cause), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_event"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT truncated FROM ovd"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning"), 0);
	ck_assert_int_eq(analyze_ovd_load(st, id, &a, &cause), 0);
	ck_assert_int_eq(analyze_ovd_levels(&a, 100), 0);
	ck_assert_uint_eq(a.nlevels, 0);
	analyze_ovd_free(&a);
}
END_TEST

/*
 * Every prefix of the good file: inside the header or code list it is an
 * error that leaves nothing; after it, the complete events are kept, and
 * the session is marked truncated unless the cut falls between events.
 */
START_TEST(test_truncation_every_length)
{
	struct ob	 o;
	char		*cause;
	int64_t		 id, complete;
	size_t		 len, k;
	int		 boundary, rc;
	char		 sql[128];

	good(&o);
	for (len = 0; len < o.n; len++) {
		store_close(st);
		st = store_open(":memory:", 0, &cause);
		rc = ingest(&o, len, &id, &cause);
		if (len < HEAD_BYTES) {
			ck_assert_msg(rc != 0, "length %zu accepted", len);
			free(cause);
			ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM session"), 0);
			continue;
		}
		ck_assert_msg(rc == 0, "length %zu: %s", len, cause);
		complete = 0;
		boundary = (len == HEAD_BYTES);
		for (k = 0; k < 5; k++) {
			if (ends[k] <= len)
				complete++;
			if (ends[k] == len)
				boundary = 1;
		}
		ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_event"), complete);
		ck_assert_int_eq(tu_count(st, "SELECT truncated FROM ovd"), !boundary);
		ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE message"
		    " LIKE '%ends inside event%'"), !boundary);
		snprintf(sql, sizeof sql, "SELECT count(*) FROM ovr_loaded"
		    " WHERE last_seq >= %lld", (long long)complete);
		ck_assert_int_eq(tu_count(st, sql), 0);
	}
}
END_TEST

START_TEST(test_bad_version)
{
	struct ob	o;

	good(&o);
	o.b[0] = 2;
	bad(&o, "FileFormatVersion", "unsupported");
}
END_TEST

START_TEST(test_no_buffer_record)
{
	static const unsigned l0[] = { 0x40, 0x3000, 0 };
	struct ob	o;

	head(&o, 1);
	ev(&o, 100, 0, 0, 0, 0x40, 0, l0);
	bad(&o, "OvrHeapMark", "first event");
}
END_TEST

START_TEST(test_lying_segments)
{
	static const unsigned l0[] = { 0x40, 0x3000, 0 };
	static const unsigned lx[] = { 0x41, 0x3000, 0 };
	static const unsigned lo[] = { 0x40, 0x2fff, 0 };
	static const unsigned le[] = { 0x40, 0x3008, 0 };
	static const unsigned ld[] = { 0x40, 0x3000, 0x40, 0x3004, 0 };
	struct ob	o;

	head(&o, 1);
	ev(&o, 100, 1, 0x3000, 0x3008, 0x42, 0, l0);
	bad(&o, "OvrSeg", "0042h is not a unit");
	head(&o, 1);
	ev(&o, 100, 1, 0x3000, 0x3008, 0xffff, 0, l0);
	bad(&o, "OvrSeg", "FFFFh is not a unit");
	head(&o, 1);
	ev(&o, 100, 1, 0x3000, 0x3008, 0x40, 0, lx);
	bad(&o, "StaticSegment", "0041h is not a unit");
	head(&o, 1);
	ev(&o, 100, 1, 0x3000, 0x3008, 0x40, 0, lo);
	bad(&o, "LoadSegment", "outside the buffer");
	head(&o, 1);
	ev(&o, 100, 1, 0x3000, 0x3008, 0x40, 0, le);
	bad(&o, "LoadSegment", "outside the buffer");
	head(&o, 1);
	ev(&o, 100, 1, 0x3000, 0x3008, 0x40, 0, ld);
	bad(&o, "StaticSegment", "twice");
	head(&o, 1);
	ev(&o, 100, 1, 0x3008, 0x3000, 0x40, 0, l0);
	bad(&o, "OvrHeapOrg", "empty");
}
END_TEST

START_TEST(test_bad_code_list)
{
	struct ob	o;

	head(&o, 1);
	o.b[4] = 0xff;
	o.b[5] = 0xff;
	bad(&o, "StatSeg", "buffer-change mark");
	head(&o, 1);
	o.b[16] = 0x40;		/* the second unit claims 0040h too */
	bad(&o, "StatSeg", "twice");
	head(&o, 1);
	o.n -= 2;		/* no end mark */
	bad(&o, "code list", "zero end mark");
}
END_TEST

START_TEST(test_time)
{
	static const unsigned l0[] = { 0x40, 0x3000, 0 };
	struct ob	 o;
	char		*cause;
	int64_t		 id;

	head(&o, 1);
	ev(&o, 100, 1, 0x3000, 0x3008, 0x40, 0, l0);
	ev(&o, 90, 0, 0, 0, 0x40, 0, NULL);
	bad(&o, "Time", "before event 0");
	/* 23:59:59 to 00:00:01 is the midnight wrap, not a step back. */
	head(&o, 1);
	ev(&o, 0x1800b0 - 18, 1, 0x3000, 0x3008, 0x40, 0, l0);
	ev(&o, 18, 0, 0, 0, 0x40, 0, NULL);
	ck_assert_int_eq(ingest(&o, o.n, &id, &cause), 0);
	ck_assert_int_eq(tu_count(st, "SELECT max(ticks) - min(ticks) FROM ovr_event"),
	    36);
	ck_assert_int_eq(tu_count(st, "SELECT wraps FROM ovd"), 1);
}
END_TEST

/* Reprieves only (after the one load that fills the buffer). */
START_TEST(test_reprieve_runs)
{
	static const unsigned l0[] = { 0x40, 0x3000, 0 };
	struct ob	 o;
	char		*cause;
	int64_t		 id;
	int		 i;

	head(&o, 1);
	ev(&o, 1, 1, 0x3000, 0x3008, 0x40, 0, l0);
	for (i = 0; i < 20; i++)
		ev(&o, 2 + i, 0, 0, 0, 0x40, 5, NULL);
	ck_assert_int_eq(ingest(&o, o.n, &id, &cause), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_event WHERE kind ="
	    " 'reprieve'"), 20);
	ck_assert_int_eq(tu_count(st, "SELECT last_seq FROM ovr_loaded"), 20);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning"), 0);

	/* A reprieve of a unit not in the buffer is odd but readable. */
	store_close(st);
	st = store_open(":memory:", 0, &cause);
	head(&o, 1);
	ev(&o, 1, 1, 0x3000, 0x3008, 0x44, 0, NULL);
	ck_assert_int_eq(ingest(&o, o.n, &id, &cause), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE message LIKE"
	    " '%not in the buffer%'"), 1);

	/* Many of them: the first ten are told, the rest counted. */
	store_close(st);
	st = store_open(":memory:", 0, &cause);
	head(&o, 1);
	ev(&o, 1, 1, 0x3000, 0x3008, 0x40, 0, l0);
	for (i = 0; i < 25; i++)
		ev(&o, 2 + i, 0, 0, 0, 0x44, 5, NULL);
	ck_assert_int_eq(ingest(&o, o.n, &id, &cause), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_event"), 26);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE message LIKE"
	    " 'event % reprieves unit 0044h, which is not in the buffer'"),
	    10);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE message ="
	    " '15 more reprieves of units not in the buffer than the 10"
	    " above'"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning"), 11);
}
END_TEST

static Suite *
ovd_suite(void)
{
	Suite	*s = suite_create("ovd");
	TCase	*tc = tcase_create("reader");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_good);
	tcase_add_test(tc, test_lists_roundtrip);
	tcase_add_test(tc, test_stats);
	tcase_add_test(tc, test_empty_event_list);
	tcase_add_test(tc, test_truncation_every_length);
	tcase_add_test(tc, test_bad_version);
	tcase_add_test(tc, test_no_buffer_record);
	tcase_add_test(tc, test_lying_segments);
	tcase_add_test(tc, test_bad_code_list);
	tcase_add_test(tc, test_time);
	tcase_add_test(tc, test_reprieve_runs);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner	*sr = srunner_create(ovd_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
