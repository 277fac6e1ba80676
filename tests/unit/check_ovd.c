/*
 * The OVD reader on hand-made files: good ones, each field's bad values,
 * truncation at every length, lying segments, reprieve-only runs, buffer
 * changes, the midnight wrap; the statistics built from what it stored;
 * and the timeline's index against brute force over the loaded model, on
 * random sessions and the edge cases.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kind.h"
#include "analyze/analyze.h"
#include "analyze/ovd.h"
#include "ingest/ingest.h"
#include "ingest/ovd.h"
#include "store/store.h"
#include "tests/unit/testutil.h"

struct ob {
	uint8_t	b[65536];
	size_t	n;
};

static void
w16(struct ob *o, unsigned v)
{
	ck_assert_uint_lt(o->n + 2, sizeof o->b);
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

	st = store_open(":memory:", 0, kind_store(), &cause);
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

/*
 * Brute force over the loaded model, for the timeline's index: each
 * answer from a scan of every event or stay.
 */

/* The first event at or after t. */
static size_t
bf_event_at(const struct analyze_ovd *a, int64_t t)
{
	size_t	i;

	for (i = 0; i < a->nevents && a->events[i].ticks < t; i++)
		/* nothing */;
	return (i);
}

/* What unit k did in [lo, hi). */
static void
bf_cell(const struct analyze_ovd *a, uint32_t k, int64_t lo, int64_t hi,
    struct analyze_ovd_cell *c)
{
	const struct analyze_ovd_span	*p;
	int64_t				 x, y;
	size_t				 i;

	memset(c, 0, sizeof *c);
	for (i = 0; i < a->nevents; i++) {
		if (a->events[i].unit != k || a->events[i].ticks < lo ||
		    a->events[i].ticks >= hi)
			continue;
		if (a->events[i].reprieve)
			c->reprieves++;
		else
			c->loads++;
	}
	for (i = 0; i < a->nspans; i++) {
		p = &a->spans[i];
		if (p->unit != k)
			continue;
		x = analyze_ovd_span_start(a, p);
		y = analyze_ovd_span_end(a, p);
		x = x > lo ? x : lo;
		y = y < hi ? y : hi;
		if (y > x)
			c->resident_ticks += y - x;
	}
}

/* Where unit k sat in the load list of event i, or -1. */
static long
bf_stay_seg(const struct analyze_ovd *a, uint32_t k, size_t i)
{
	size_t	j;

	for (j = 0; j < a->nspans; j++) {
		if (a->spans[j].unit == k &&
		    a->spans[j].first <= i && a->spans[j].last >= i)
			return (a->spans[j].load_seg);
	}
	return (-1);
}

/* The buffer band of window [lo, hi) in nrows rows. */
static void
bf_band(const struct analyze_ovd *a, int64_t lo, int64_t hi,
    uint32_t *rows, size_t nrows)
{
	const struct analyze_ovd_buffer	*bf, *ebf;
	unsigned			 porg = 0xffff, pend = 0, paras, run;
	unsigned			 para, size;
	size_t				 i, r;
	int64_t				 t;
	uint32_t			 k;
	long				*seg;

	for (r = 0; r < nrows; r++)
		rows[r] = ANALYZE_OVD_BAND_OUT;
	for (i = 0; i < a->nevents; i++) {
		bf = analyze_ovd_buffer_of(a, &a->events[i]);
		if (bf->heap_org < porg)
			porg = bf->heap_org;
		if (bf->heap_end > pend)
			pend = bf->heap_end;
	}
	if (a->nevents == 0 || pend <= porg || lo > a->t_last ||
	    hi <= a->t_first)
		return;
	paras = pend - porg;
	run = (paras + (unsigned)nrows - 1) / (unsigned)nrows;
	t = lo + (hi - lo) / 2;
	t = t < a->t_first ? a->t_first : t > a->t_last ? a->t_last : t;
	/* The last event at or before the middle. */
	for (i = a->nevents; i > 0 && a->events[i - 1].ticks > t; i--)
		/* nothing */;
	if (i-- == 0)
		return;
	ebf = analyze_ovd_buffer_of(a, &a->events[i]);
	seg = calloc(a->nunits + 1, sizeof *seg);
	ck_assert_ptr_nonnull(seg);
	for (k = 0; k < a->nunits; k++)
		seg[k] = bf_stay_seg(a, k, i);
	for (r = 0; r < nrows; r++) {
		para = porg + (unsigned)(paras * r / nrows);
		if (para >= ebf->heap_org && para < ebf->heap_end)
			rows[r] = ANALYZE_OVD_BAND_FREE;
		for (k = 0; k < a->nunits; k++) {
			if (seg[k] < 0)
				continue;
			size = (a->units[k].code_size + 15u) / 16u;
			if ((unsigned)seg[k] < para + run &&
			    (unsigned)seg[k] + size > para) {
				rows[r] = k + 2;
				break;
			}
		}
	}
	free(seg);
}

/* Windows of width from t0 against brute force, n of them. */
static void
check_windows(const struct analyze_ovd *a,
    const struct analyze_ovd_index *ix, int64_t t0, int64_t width, size_t n)
{
	static const size_t	 heights[] = { 1, 3, 16 };
	struct analyze_ovd_cell	*c, want, one;
	uint32_t		 band[16], wband[16];
	size_t			 x, h;
	uint32_t		 k;
	int64_t			 lo;

	c = calloc(n * a->nunits + 1, sizeof *c);
	ck_assert_ptr_nonnull(c);
	analyze_ovd_windows(ix, t0, width, n, c);
	for (x = 0; x < n; x++) {
		lo = t0 + (int64_t)x * width;
		for (k = 0; k < a->nunits; k++) {
			bf_cell(a, k, lo, lo + width, &want);
			ck_assert_msg(memcmp(&c[x * a->nunits + k], &want,
			    sizeof want) == 0, "unit %u window %lld+%lld:"
			    " %u/%u/%lld, want %u/%u/%lld", k, (long long)lo,
			    (long long)width, c[x * a->nunits + k].loads,
			    c[x * a->nunits + k].reprieves,
			    (long long)c[x * a->nunits + k].resident_ticks,
			    want.loads, want.reprieves,
			    (long long)want.resident_ticks);
			analyze_ovd_window(ix, k, lo, lo + width, &one);
			ck_assert_int_eq(memcmp(&one, &want, sizeof want), 0);
		}
		for (h = 0; h < sizeof heights / sizeof heights[0]; h++) {
			analyze_ovd_band(ix, lo, lo + width, band,
			    heights[h]);
			bf_band(a, lo, lo + width, wband, heights[h]);
			ck_assert_msg(memcmp(band, wband, heights[h] *
			    sizeof *band) == 0, "band of window %lld+%lld,"
			    " %zu rows", (long long)lo, (long long)width,
			    heights[h]);
		}
	}
	free(c);
}

/*
 * Index a and check every lookup against brute force: event_at and the
 * lanes at every tick (and around the run), the stay and load list of
 * every event, and windows at every zoom from one tick to far more than
 * the run, starting before it, at its ends and past it.
 */
static void
check_index(const struct analyze_ovd *a)
{
	struct analyze_ovd_index	*ix;
	struct analyze_ovd_slot		*list;
	struct analyze_ovd_cell		 want;
	const struct analyze_ovd_lane	*ln;
	char				*cause = NULL;
	int64_t				 t, span, width, t0s[7];
	size_t				 i, j, n, p, m;
	uint32_t			 k;
	uint64_t			 loads = 0;
	long				 s, seg;
	int				 z;

	ix = analyze_ovd_index_begin(a, &cause);
	ck_assert_msg(ix != NULL, "%s", cause);
	/* In small steps, as the timeline does it. */
	while (analyze_ovd_index_step(ix, 7) > 0)
		/* nothing */;
	ck_assert_int_eq(analyze_ovd_index_step(ix, 7), 0);

	for (i = 0; i < a->nevents; i++)
		loads += !a->events[i].reprieve;
	ck_assert_uint_eq(ix->nloads, loads);
	for (k = 0, n = 0; k < a->nunits; k++) {
		ln = &ix->lanes[k];
		n += ln->nev;
		for (p = 0; p < ln->nev; p++) {
			ck_assert_uint_eq(a->events[ln->ev[p]].unit, k);
			ck_assert_uint_eq(analyze_ovd_lane_pos(ix, ln->ev[p]),
			    p);
			if (p > 0)
				ck_assert_uint_lt(ln->ev[p - 1], ln->ev[p]);
		}
	}
	ck_assert_uint_eq(n, a->nevents);

	for (t = a->t_first - 3; t <= a->t_last + 3; t++) {
		ck_assert_uint_eq(analyze_ovd_event_at(ix, t),
		    bf_event_at(a, t));
		for (k = 0; k < a->nunits; k++) {
			ln = &ix->lanes[k];
			p = analyze_ovd_lane_at(ix, k, t);
			ck_assert_uint_le(p, ln->nev);
			ck_assert(p == ln->nev ||
			    a->events[ln->ev[p]].ticks >= t);
			ck_assert(p == 0 ||
			    a->events[ln->ev[p - 1]].ticks < t);
			bf_cell(a, k, INT64_MIN / 2, t, &want);
			ck_assert_int_eq(analyze_ovd_resident(ix, k, t),
			    want.resident_ticks);
		}
	}

	list = calloc(a->nunits + 1, sizeof *list);
	ck_assert_ptr_nonnull(list);
	for (i = 0; i < a->nevents; i++) {
		for (k = 0, m = 0; k < a->nunits; k++) {
			s = analyze_ovd_stay(ix, k, i);
			seg = bf_stay_seg(a, k, i);
			ck_assert_int_eq(s < 0, seg < 0);
			if (s >= 0) {
				ck_assert_int_eq(a->spans[ix->lanes[k].sp[s]].
				    load_seg, seg);
				m++;
			}
		}
		n = analyze_ovd_load_list(ix, i, list);
		ck_assert_uint_eq(n, m);
		for (j = 0; j < n; j++) {
			ck_assert_int_eq(bf_stay_seg(a, list[j].unit, i),
			    list[j].load_seg);
			if (j > 0)
				ck_assert(list[j - 1].load_seg <
				    list[j].load_seg || (list[j - 1].load_seg
				    == list[j].load_seg && list[j - 1].unit <
				    list[j].unit));
		}
	}
	free(list);

	/* Zoom from one tick a window to 2^40, as the timeline's. */
	span = a->t_last - a->t_first + 1;
	for (z = 0; z <= 40; z++) {
		width = (int64_t)1 << z;
		if (z > 12 && z < 40)
			continue;
		t0s[0] = a->t_first - 2 * width;
		t0s[1] = a->t_first - 1;
		t0s[2] = a->t_first;
		t0s[3] = a->t_first + span / 3;
		t0s[4] = a->t_last + 1 - width;
		t0s[5] = a->t_last;
		t0s[6] = a->t_last + 1;
		n = (size_t)(span / width) + 3;
		if (n > 40)
			n = 40;
		for (i = 0; i < 7; i++)
			check_windows(a, ix, t0s[i], width, n);
	}
	analyze_ovd_index_free(ix);
}

/*
 * A random session that the reader takes: nu units of random sizes,
 * ne events of random units, loads placing a unit anywhere in the buffer
 * (evicting what it overlaps, or now and then not), reprieves of loaded
 * units, buffer changes, several events on one tick.
 */
static void
random_session(struct ob *o, unsigned seed, size_t nu, size_t ne)
{
	unsigned	 list[2 * 16 + 1], seg[16], org = 0x3000, end;
	unsigned	 size[16], u, at, x = seed * 2654435761u + 1;
	int		 in[16];
	uint32_t	 t = 1000 + seed % 50;
	size_t		 i, k, n;
	int		 change;

#define RND()	(x = x * 1103515245u + 12345u, (x >> 16) & 0x7fff)
	ck_assert_uint_le(nu, 16);
	o->n = 0;
	w16(o, 1);
	w16(o, 0x1a2b);
	for (k = 0; k < nu; k++) {
		size[k] = 1 + RND() % 6;
		w16(o, 0x40 + 4 * (unsigned)k);
		w32(o, 0x200 + 0x100 * (uint32_t)k);
		w16(o, size[k] * 16 - RND() % 16);
		w16(o, 16);
		w16(o, 1);
		in[k] = 0;
	}
	w16(o, 0);
	end = org + 8 + RND() % 24;
	for (i = 0; i < ne; i++) {
		u = RND() % (unsigned)nu;
		t += RND() % 4;
		if (i != 0 && in[u] && RND() % 3 == 0) {
			ev(o, t, 0, 0, 0, 0x40 + 4 * u, RND() % 64, NULL);
			continue;
		}
		if ((change = (i == 0 || RND() % 16 == 0))) {
			/* A buffer change empties the buffer. */
			org = RND() % 2 ? 0x3000 : 0x5000;
			end = org + 8 + RND() % 24;
			for (k = 0; k < nu; k++)
				in[k] = 0;
		}
		at = org + RND() % (end - org - size[u] + 1);
		for (k = 0; k < nu; k++) {
			if (in[k] && (k == u || (RND() % 4 != 0 &&
			    seg[k] < at + size[u] && seg[k] + size[k] > at)))
				in[k] = 0;
		}
		in[u] = 1;
		seg[u] = at;
		for (k = 0, n = 0; k < nu; k++) {
			if (in[k]) {
				list[n++] = 0x40 + 4 * (unsigned)k;
				list[n++] = seg[k];
			}
		}
		list[n] = 0;
		ev(o, t, change, org, end,
		    0x40 + 4 * u, RND() % 64, list);
	}
#undef RND
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

/* Rows of session id in every table that has a session column. */
static int64_t
orphans(int64_t id)
{
	sqlite3_stmt	*s;
	char		 sql[256];
	int64_t		 n = 0;
	int		 tables = 0;

	ck_assert_int_eq(sqlite3_prepare_v2(store_db(st), "SELECT m.name FROM"
	    " sqlite_master m, pragma_table_info(m.name) c WHERE m.type ="
	    " 'table' AND c.name = 'session'", -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\" WHERE"
		    " session = %lld", sqlite3_column_text(s, 0),
		    (long long)id);
		n += tu_count(st, sql);
		tables++;
	}
	sqlite3_finalize(s);
	ck_assert_int_ge(tables, 9);
	return (n);
}

/*
 * Each session's stays are one run of ovr_loaded rowids, recorded in ovd:
 * the run holds exactly its rows, so reading them is a seek; deleting a
 * session leaves no row of it in any table, and the other's untouched.
 */
START_TEST(test_loaded_ranges)
{
	struct ob		 a, b;
	struct analyze_ovd	 o;
	char			*cause;
	int64_t			 ida, idb;
	char			 sql[256];

	good(&a);
	good(&b);
	b.b[2] ^= 1;	/* another PrefixSeg: another file */
	ck_assert_int_eq(ingest(&a, a.n, &ida, &cause), 0);
	ck_assert_int_eq(ingest(&b, b.n, &idb, &cause), 0);
	ck_assert_int_ne(ida, idb);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM ovr_loaded l, ovd o"
	    " WHERE o.session = %lld AND l.rowid BETWEEN o.loaded_first AND"
	    " o.loaded_last AND l.session = o.session", (long long)idb);
	ck_assert_int_eq(tu_count(st, sql), 4);
	snprintf(sql, sizeof sql, "SELECT loaded_last - loaded_first + 1"
	    " FROM ovd WHERE session = %lld", (long long)idb);
	ck_assert_int_eq(tu_count(st, sql), 4);
	ck_assert_int_eq(analyze_ovd_load(st, idb, &o, &cause), 0);
	ck_assert_uint_eq(o.nspans, 4);
	analyze_ovd_free(&o);

	ck_assert_int_eq(store_session_delete(st, ida, &cause), 0);
	ck_assert_int_eq(tu_count(st, "PRAGMA foreign_keys"), 1);
	ck_assert_int_eq(orphans(ida), 0);
	ck_assert_int_gt(orphans(idb), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_loaded"), 4);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_event"), 5);
	ck_assert_int_eq(store_session_delete(st, ida, &cause), -1);
	ck_assert_str_eq(cause, "no session 1");
	free(cause);
}
END_TEST

START_TEST(test_stats)
{
	struct ob		 o;
	struct analyze_ovd	 a;
	struct analyze_ovd_index *ix;
	struct analyze_ovd_cell	 c[3 * 64];
	char			*cause, *site;
	int64_t			 id, res, width;
	size_t			 w, k, n;
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

	ix = analyze_ovd_index_build(&a, &cause);
	ck_assert_ptr_nonnull(ix);
	ck_assert_uint_eq(ix->nloads, 4);
	ck_assert_uint_eq(ix->porg, 0x3000);
	ck_assert_uint_eq(ix->pend, 0x5010);
	/* The windows of every zoom add up to the same totals. */
	for (width = 1; width <= 64; width *= 2) {
		n = (size_t)((a.t_last - a.t_first + width) / width);
		ck_assert_uint_le(n, 64);
		analyze_ovd_windows(ix, a.t_first, width, n, c);
		for (k = 0; k < a.nunits; k++) {
			res = 0;
			loads = 0;
			for (w = 0; w < n; w++) {
				res += c[w * a.nunits + k].resident_ticks;
				loads += c[w * a.nunits + k].loads;
			}
			ck_assert_int_eq(res, a.units[k].resident_ticks);
			ck_assert_uint_eq(loads, a.units[k].loads);
		}
	}
	/* 44h: loaded at 110 (event 1), in the lists of events 1 to 3. */
	analyze_ovd_window(ix, 1, 105, 135, c);
	ck_assert_uint_eq(c[0].loads, 1);
	ck_assert_uint_eq(c[0].reprieves, 0);
	ck_assert_int_eq(c[0].resident_ticks, 25);
	ck_assert_int_eq(analyze_ovd_stay(ix, 1, 0), -1);
	ck_assert_int_ge(analyze_ovd_stay(ix, 1, 3), 0);
	ck_assert_int_eq(analyze_ovd_stay(ix, 1, 4), -1);
	ck_assert_uint_eq(analyze_ovd_event_at(ix, 111), 2);
	ck_assert_uint_eq(analyze_ovd_event_at(ix, 151), 5);
	analyze_ovd_index_free(ix);
	analyze_ovd_free(&a);
}
END_TEST

/* The timeline's index against brute force on random sessions. */
START_TEST(test_index_random)
{
	static struct ob	 o;
	struct analyze_ovd	 a;
	char			*cause;
	int64_t			 id;
	unsigned		 seed;

	for (seed = 1; seed <= 24; seed++) {
		store_close(st);
		st = store_open(":memory:", 0, kind_store(), &cause);
		random_session(&o, seed, 1 + seed % 8, 10 + seed * 37 % 300);
		ck_assert_msg(ingest(&o, o.n, &id, &cause) == 0, "seed %u: %s",
		    seed, cause);
		ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning"
		    " WHERE message NOT LIKE '%runs past%'"), 0);
		ck_assert_int_eq(analyze_ovd_load(st, id, &a, &cause), 0);
		ck_assert_uint_gt(a.nspans, 0);
		check_index(&a);
		analyze_ovd_free(&a);
	}
}
END_TEST

/* Lanes of many strides of the copied-out keys. */
START_TEST(test_index_long)
{
	static struct ob	 o;
	struct analyze_ovd	 a;
	char			*cause;
	int64_t			 id;

	random_session(&o, 99, 2, 1500);
	ck_assert_msg(ingest(&o, o.n, &id, &cause) == 0, "%s", cause);
	ck_assert_int_eq(analyze_ovd_load(st, id, &a, &cause), 0);
	ck_assert_uint_gt(a.nevents, 1000);
	check_index(&a);
	analyze_ovd_free(&a);
}
END_TEST

/* One event: the run is one tick; a reprieve-only unit has no stay. */
START_TEST(test_index_one_event)
{
	static const unsigned	 l0[] = { 0x44, 0x3000, 0 };
	struct ob		 o;
	struct analyze_ovd	 a;
	struct analyze_ovd_index *ix;
	struct analyze_ovd_cell	 c;
	struct analyze_ovd_slot	 list[3];
	uint32_t		 band[4];
	char			*cause;
	int64_t			 id;

	head(&o, 1);
	ev(&o, 77, 1, 0x3000, 0x3008, 0x44, 0, l0);
	ck_assert_int_eq(ingest(&o, o.n, &id, &cause), 0);
	ck_assert_int_eq(analyze_ovd_load(st, id, &a, &cause), 0);
	ck_assert_uint_eq(a.nevents, 1);
	check_index(&a);

	ix = analyze_ovd_index_build(&a, &cause);
	ck_assert_ptr_nonnull(ix);
	analyze_ovd_window(ix, 1, 77, 78, &c);
	ck_assert_uint_eq(c.loads, 1);
	ck_assert_int_eq(c.resident_ticks, 0);	/* it ends where it starts */
	analyze_ovd_window(ix, 1, 0, INT64_MAX / 2, &c);
	ck_assert_uint_eq(c.loads, 1);
	ck_assert_uint_eq(analyze_ovd_load_list(ix, 0, list), 1);
	ck_assert_uint_eq(list[0].unit, 1);
	ck_assert_uint_eq(list[0].load_seg, 0x3000);
	/* 8 paragraphs in 4 rows: 44h's 4 paragraphs, then free. */
	analyze_ovd_band(ix, 76, 78, band, 4);
	ck_assert_uint_eq(band[0], 3);
	ck_assert_uint_eq(band[1], 3);
	ck_assert_uint_eq(band[2], ANALYZE_OVD_BAND_FREE);
	ck_assert_uint_eq(band[3], ANALYZE_OVD_BAND_FREE);
	analyze_ovd_band(ix, 78, 80, band, 4);
	ck_assert_uint_eq(band[0], ANALYZE_OVD_BAND_OUT);
	analyze_ovd_index_free(ix);
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
	check_index(&a);
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
		st = store_open(":memory:", 0, kind_store(), &cause);
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
	st = store_open(":memory:", 0, kind_store(), &cause);
	head(&o, 1);
	ev(&o, 1, 1, 0x3000, 0x3008, 0x44, 0, NULL);
	ck_assert_int_eq(ingest(&o, o.n, &id, &cause), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE message LIKE"
	    " '%not in the buffer%'"), 1);

	/* Many of them: the first ten are told, the rest counted. */
	store_close(st);
	st = store_open(":memory:", 0, kind_store(), &cause);
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

	/* A guard against hangs, not a speed test: the brute-force checks of
	 * the index take a second alone, more on a loaded machine. */
	tcase_set_timeout(tc, 60);

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_good);
	tcase_add_test(tc, test_lists_roundtrip);
	tcase_add_test(tc, test_loaded_ranges);
	tcase_add_test(tc, test_stats);
	tcase_add_test(tc, test_empty_event_list);
	tcase_add_test(tc, test_index_random);
	tcase_add_test(tc, test_index_long);
	tcase_add_test(tc, test_index_one_event);
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
