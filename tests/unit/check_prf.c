/*
 * The PRF reader: good files with and without the PV32 trailer and its
 * HITS section, each bad header field, truncation at every length,
 * readable-but-odd files that load with a warning, and counts that lie.
 */
#include "tests/unit/testutil.h"
#include "store/prf.h"

/* No map lives there, so none is found by name. */
#define NAME	"/nonexistent/t.prf"

static const char *fields[9] = {
	"clock_grain", "bucket_num", "bucket_siz", "prog_low_pa",
	"prog_high_pa", "dos_pa", "hit_io", "hit_dos", "hit_high"
};

/* 4 buckets of 2 paragraphs over 0x1000..0x1008. */
static const uint16_t	h16[4] = { 5, 0xffff, 0, 7 };
static const uint32_t	h32[4] = { 5, 70000, 0, 7 };

static struct tu_prf
good(int pv32)
{
	struct tu_prf	f;

	memset(&f, 0, sizeof f);
	f.w[0] = 55; f.w[1] = 4; f.w[2] = 2; f.w[3] = 0x1000;
	f.w[4] = 0x1008; f.w[5] = 0x0800; f.w[6] = 11; f.w[7] = 22;
	f.w[8] = 33;
	f.h16 = h16;
	if (pv32) {
		f.pv32 = 1;
		f.version = 1;
		f.flags = 1;
		f.io = 111;
		f.dos = 222;
		f.high = 333;
		f.h32 = h32;
		f.total = 111 + 222 + 333 + 5 + 70000 + 7;
	}
	return (f);
}

/* Ingest f; expect failure naming offset and field, and no rows. */
static void
expect_fail(const struct tu_prf *f, size_t cut, size_t offset,
    const char *field)
{
	struct store	*st = tu_store();
	uint8_t		*buf;
	size_t		 len;
	int64_t		 id;
	char		*cause, want[128];

	buf = tu_prf_bytes(f, &len);
	if (cut < len)
		len = cut;
	ck_assert_int_eq(tu_ingest(st, NAME, buf, len, NULL, &id, &cause), -1);
	ck_assert_ptr_nonnull(cause);
	snprintf(want, sizeof want, NAME ": offset %zu: %s: ", offset, field);
	ck_assert_msg(strncmp(cause, want, strlen(want)) == 0,
	    "length %zu: got \"%s\", want \"%s...\"", len, cause, want);
	ck_assert_int_eq(tu_rows(st), 0);
	free(cause);
	free(buf);
	store_close(st);
}

/* Ingest f; expect success with nwarn warnings (-1: at least one). */
static struct store *
expect_load(const struct tu_prf *f, size_t cut, int nwarn, int64_t *id)
{
	struct store	*st = tu_store();
	uint8_t		*buf;
	size_t		 len;
	char		*cause;
	int64_t		 w;

	buf = tu_prf_bytes(f, &len);
	if (cut < len)
		len = cut;
	ck_assert_msg(tu_ingest(st, NAME, buf, len, NULL, id, &cause) == 0,
	    "length %zu: %s", len, cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM session"), 1);
	w = tu_count(st, "SELECT count(*) FROM warning");
	if (nwarn < 0)
		ck_assert_msg(w > 0, "length %zu: no warning", len);
	else
		ck_assert_msg(w == nwarn, "length %zu: %lld warnings, want %d",
		    len, (long long)w, nwarn);
	free(buf);
	return (st);
}

/*
 * A warning the store cannot keep fails the ingest: the file is not
 * stored without the note that says what was odd about it.
 */
START_TEST(test_warning_store_failure)
{
	struct tu_prf	 f = good(0);
	struct store	*st = tu_store();
	uint8_t		*buf;
	size_t		 len;
	char		*cause;
	int64_t		 id;

	ck_assert_int_eq(store_exec(st, "CREATE TRIGGER no_warning BEFORE"
	    " INSERT ON warning BEGIN SELECT RAISE(ABORT, 'full'); END",
	    &cause), 0);
	buf = tu_prf_bytes(&f, &len);
	ck_assert_int_eq(tu_ingest(st, NAME, buf, len, NULL, &id, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "warning"));
	ck_assert_ptr_nonnull(strstr(cause, "full"));
	ck_assert_int_eq(tu_rows(st), 0);
	free(cause);
	free(buf);
	store_close(st);
}
END_TEST

START_TEST(test_good_16bit)
{
	struct tu_prf	 f = good(0);
	struct store	*st;
	struct store_prf p;
	int64_t		 id;

	/* 0xffff saturates: one warning about understated shares. */
	st = expect_load(&f, SIZE_MAX, 1, &id);
	ck_assert_int_eq(store_prf_get(st, id, &p), 0);
	ck_assert_int_eq(p.clock_grain, 55);
	ck_assert_int_eq(p.bucket_num, 4);
	ck_assert_int_eq(p.bucket_siz, 2);
	ck_assert_int_eq(p.prog_low_pa, 0x1000);
	ck_assert_int_eq(p.prog_high_pa, 0x1008);
	ck_assert_int_eq(p.dos_pa, 0x800);
	ck_assert_int_eq(p.hit_io, 11);
	ck_assert_int_eq(p.pv32, 0);
	ck_assert_int_eq(p.saturated, 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM bucket"), 4);
	ck_assert_int_eq(tu_count(st, "SELECT hits FROM bucket WHERE idx = 1"),
	    65535);
	ck_assert_int_eq(tu_count(st, "SELECT lo FROM bucket WHERE idx = 1"),
	    0x10020);
	ck_assert_int_eq(tu_count(st, "SELECT hi FROM bucket WHERE idx = 3"),
	    0x10080);
	ck_assert_int_eq(tu_count(st, "SELECT value FROM counter WHERE"
	    " name = 'hit_high'"), 33);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE '%saturated%'"), 1);
	store_close(st);
}
END_TEST

START_TEST(test_good_unsaturated)
{
	static const uint16_t	 small[4] = { 1, 2, 3, 4 };
	struct tu_prf		 f = good(0);
	struct store		*st;
	int64_t			 id;

	f.h16 = small;
	st = expect_load(&f, SIZE_MAX, 0, &id);
	ck_assert_int_eq(tu_count(st, "SELECT sum(hits) FROM bucket"), 10);
	store_close(st);
}
END_TEST

START_TEST(test_good_pv32)
{
	struct tu_prf	 f = good(1);
	struct store	*st;
	struct store_prf p;
	int64_t		 id;

	st = expect_load(&f, SIZE_MAX, 0, &id);
	ck_assert_int_eq(store_prf_get(st, id, &p), 0);
	ck_assert_int_eq(p.pv32, 1);
	ck_assert_int_eq(p.saturated, 1);
	/* The trailer's counts win over the header's. */
	ck_assert_int_eq(p.hit_io, 111);
	ck_assert_int_eq(p.hit_dos, 222);
	ck_assert_int_eq(p.hit_high, 333);
	ck_assert_int_eq(tu_count(st, "SELECT hits FROM bucket WHERE idx = 1"),
	    70000);
	ck_assert_int_eq(tu_count(st, "SELECT value FROM counter WHERE"
	    " name = 'hit_io'"), 111);
	store_close(st);
}
END_TEST

START_TEST(test_bad_fields)
{
	struct tu_prf	f;

	f = good(0);
	f.w[2] = 0;
	expect_fail(&f, SIZE_MAX, 4, "bucket_siz");
	f = good(0);
	f.w[3] = 0x2000;
	expect_fail(&f, SIZE_MAX, 6, "prog_low_pa");
	f = good(0);
	f.h16 = NULL;
	f.w[1] = 4;
	/* bucket_num says 40000 but only 4 buckets are there. */
	{
		uint8_t		*buf;
		size_t		 len;
		struct store	*st = tu_store();
		int64_t		 id;
		char		*cause;

		buf = tu_prf_bytes(&f, &len);
		buf[2] = 40000 & 0xff;
		buf[3] = 40000 >> 8;
		ck_assert_int_eq(tu_ingest(st, NAME, buf, len, NULL, &id,
		    &cause), -1);
		ck_assert_str_eq(cause, NAME ": offset 2: bucket_num: 40000"
		    " needs 80000 bytes after the header, file has 8");
		ck_assert_int_eq(tu_rows(st), 0);
		free(cause);
		free(buf);
		store_close(st);
	}
}
END_TEST

START_TEST(test_bucket_num_65535_short)
{
	struct tu_prf	f = good(0);

	f.w[1] = 65535;
	f.h16 = NULL;
	/* Only the header and 10 bytes: the count cannot be met. */
	expect_fail(&f, 28, 2, "bucket_num");
}
END_TEST

/*
 * Every prefix of a PV32 file: inside the header the field being read is
 * named; inside the buckets bucket_num is; a whole 16-bit file loads
 * cleanly; inside the trailer it loads with a warning.
 */
START_TEST(test_truncation_every_length)
{
	static const uint16_t	 small[4] = { 1, 2, 3, 4 };
	static const uint32_t	 big[4] = { 1, 2, 3, 4 };
	struct tu_prf		 f = good(1);
	struct store		*st;
	uint8_t			*buf;
	size_t			 full, cut, end16;
	int64_t			 id;

	f.h16 = small;
	f.h32 = big;
	f.flags = 0;
	f.total = 111 + 222 + 333 + 10;
	buf = tu_prf_bytes(&f, &full);
	free(buf);
	end16 = 18 + 2 * 4;
	for (cut = 0; cut <= full; cut++) {
		if (cut < 18)
			expect_fail(&f, cut, cut & ~(size_t)1, fields[cut / 2]);
		else if (cut < end16)
			expect_fail(&f, cut, 2, "bucket_num");
		else {
			st = expect_load(&f, cut, cut == end16 ||
			    cut == full ? 0 : -1, &id);
			ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM"
			    " bucket"), 4);
			ck_assert_int_eq(tu_count(st, "SELECT pv32 FROM prf"),
			    cut == full);
			store_close(st);
		}
	}
}
END_TEST

START_TEST(test_odd_bucket_count)
{
	struct tu_prf	 f = good(1);
	struct store	*st;
	int64_t		 id;

	f.w[4] = 0x1010;	/* 16 paragraphs in buckets of 2 make 8 */
	st = expect_load(&f, SIZE_MAX, 1, &id);
	ck_assert_int_eq(tu_count(st, "SELECT offset FROM warning"), 2);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE 'bucket_num 4, but 16 paragraphs%'"), 1);
	store_close(st);
}
END_TEST

START_TEST(test_odd_trailing_bytes)
{
	static const uint16_t	 small[4] = { 1, 2, 3, 4 };
	struct tu_prf		 f = good(0);
	struct store		*st;
	uint8_t			*buf, *longer;
	size_t			 len;
	int64_t			 id;
	char			*cause;

	f.h16 = small;
	buf = tu_prf_bytes(&f, &len);
	longer = calloc(1, len + 5);
	memcpy(longer, buf, len);
	memcpy(longer + len, "JUNK!", 5);
	st = tu_store();
	ck_assert_int_eq(tu_ingest(st, NAME, longer, len + 5, NULL, &id,
	    &cause), 0);
	ck_assert_int_eq(tu_count(st, "SELECT offset FROM warning"), 26);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message = '5 unknown bytes after the buckets'"), 1);
	store_close(st);
	free(buf);
	free(longer);
}
END_TEST

START_TEST(test_odd_pv32_version)
{
	struct tu_prf	 f = good(1);
	struct store	*st;
	int64_t		 id;

	f.version = 2;
	/* Unknown trailer ignored: 16-bit counts, and they saturated. */
	st = expect_load(&f, SIZE_MAX, 2, &id);
	ck_assert_int_eq(tu_count(st, "SELECT pv32 FROM prf"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT hits FROM bucket WHERE idx = 1"),
	    65535);
	ck_assert_int_eq(tu_count(st, "SELECT hit_io FROM prf"), 11);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE 'PV32 trailer version 2 unknown%'"), 1);
	store_close(st);
}
END_TEST

START_TEST(test_odd_saturated_header_count)
{
	static const uint16_t	 small[4] = { 1, 2, 3, 4 };
	struct tu_prf		 f = good(0);
	struct store		*st;
	int64_t			 id;

	f.h16 = small;
	f.w[7] = 0xffff;
	st = expect_load(&f, SIZE_MAX, 1, &id);
	ck_assert_int_eq(tu_count(st, "SELECT saturated FROM prf"), 1);
	store_close(st);
}
END_TEST

START_TEST(test_lying_counts)
{
	struct tu_prf	 f = good(1);
	struct store	*st;
	uint32_t	 lie[4] = { 6, 70000, 0, 7 };
	int64_t		 id;

	/* The total disagrees with the counts. */
	f.total += 1;
	st = expect_load(&f, SIZE_MAX, 1, &id);
	ck_assert_int_eq(tu_count(st, "SELECT offset FROM warning"), 18 + 8 + 8);
	store_close(st);

	/* An unsaturated 16-bit bucket disagrees with its 32-bit twin. */
	f = good(1);
	f.h32 = lie;
	f.total += 1;
	st = expect_load(&f, SIZE_MAX, 1, &id);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message = 'PV32 bucket 0 holds 6 but the 16-bit bucket holds"
	    " 5'"), 1);
	/* The 32-bit count still wins. */
	ck_assert_int_eq(tu_count(st, "SELECT hits FROM bucket WHERE idx = 0"),
	    6);
	store_close(st);
}
END_TEST

/*
 * The HITS section for good(1): every sample of bucket 0 (5) and 3 (7) at
 * a known CS:IP, bucket 1's 70000 but one, which missed the full table.
 */
static const struct tu_hit	hit5[5] = {
	{ 0x0010, 0x1000, 3 },		/* 10010h, bucket 0 */
	{ 0x0030, 0x1000, 999 },	/* 10030h, bucket 1 */
	{ 0x0000, 0x1002, 69000 },	/* 10020h, bucket 1 */
	{ 0x0005, 0x1006, 7 },		/* 10065h, bucket 3 */
	{ 0x1012, 0x0F00, 2 },		/* 10012h, bucket 0, another CS */
};

static struct tu_prf
good_hits(void)
{
	struct tu_prf	f = good(1);

	tu_prf_hits(&f, hit5, 5, 1);
	return (f);
}

/* The same buckets, every sample in the table: none missed it. */
static const struct tu_hit	hit_all[3] = {
	{ 0x0010, 0x1000, 5 }, { 0x0030, 0x1000, 70000 },
	{ 0x0005, 0x1006, 7 }
};

static struct tu_prf
good_exact(void)
{
	struct tu_prf	f = good(1);

	tu_prf_hits(&f, hit_all, 3, 0);
	return (f);
}

/* Ingest f: one warning at offset with message like pattern, no table. */
static void
expect_ignored(const struct tu_prf *f, size_t offset, const char *pattern)
{
	struct store	*st;
	int64_t		 id;
	char		 sql[256];

	st = expect_load(f, SIZE_MAX, -1, &id);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM warning WHERE"
	    " offset = %zu AND message LIKE '%s'", offset, pattern);
	ck_assert_msg(tu_count(st, sql) == 1, "no warning at %zu like %s",
	    offset, pattern);
	ck_assert_int_eq(tu_count(st, "SELECT hit_table FROM prf"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT hit_table_full IS NULL AND"
	    " hit_table_capacity IS NULL AND hit_missed IS NULL FROM prf"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_hit"), 0);
	/* The buckets still load, from the PV32 counts. */
	ck_assert_int_eq(tu_count(st, "SELECT pv32 FROM prf"), f->pv32 &&
	    f->version == 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM bucket"), 4);
	store_close(st);
}

START_TEST(test_hits_good)
{
	struct tu_prf		 f = good_hits();
	struct store		*st;
	struct store_prf	 p;
	struct store_cursor	*c;
	struct store_prf_hit	 e;
	uint64_t		 prev = 0, sum = 0;
	int64_t			 id;
	int			 n = 0;

	st = expect_load(&f, SIZE_MAX, 0, &id);
	ck_assert_int_eq(store_prf_get(st, id, &p), 0);
	ck_assert_int_eq(p.pv32, 1);
	ck_assert_int_eq(p.hit_table, 1);
	ck_assert_int_eq(p.hit_table_full, 1);
	ck_assert_uint_eq(p.hit_table_capacity, 5);
	ck_assert_uint_eq(p.hit_missed, 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_hit"), 5);
	ck_assert_int_eq(tu_count(st, "SELECT addr FROM prf_hit WHERE"
	    " cs = 4098 AND ip = 0"), 0x10020);
	ck_assert_int_eq(tu_count(st, "SELECT hits FROM prf_hit WHERE"
	    " cs = 3840 AND ip = 4114"), 2);
	/* By address, whatever the file's order. */
	c = store_prf_hits(st, id);
	while (store_prf_hit_next(c, &e) == 1) {
		ck_assert_uint_ge(e.addr, prev);
		ck_assert_uint_eq(e.addr, (uint64_t)e.cs * 16 + e.ip);
		prev = e.addr;
		sum += e.hits;
		n++;
	}
	store_cursor_close(c);
	ck_assert_int_eq(n, 5);
	ck_assert_uint_eq(sum + p.hit_missed, 5 + 70000 + 7);
	store_close(st);

	/* Without the section: a vintage file, no table, NULL columns. */
	f = good(1);
	st = expect_load(&f, SIZE_MAX, 0, &id);
	ck_assert_int_eq(store_prf_get(st, id, &p), 0);
	ck_assert_int_eq(p.hit_table, 0);
	ck_assert_int_eq(tu_count(st, "SELECT hit_missed IS NULL FROM prf"), 1);
	store_close(st);

	/* A table that caught every sample: not full, exact. */
	f = good_exact();
	f.hits_capacity = 100;
	st = expect_load(&f, SIZE_MAX, 0, &id);
	ck_assert_int_eq(store_prf_get(st, id, &p), 0);
	ck_assert_int_eq(p.hit_table_full, 0);
	ck_assert_uint_eq(p.hit_table_capacity, 100);
	ck_assert_uint_eq(p.hit_missed, 0);
	store_close(st);
	/* An empty table: every sample missed it (capacity 0, /H:0 + 1). */
	f = good(1);
	tu_prf_hits(&f, NULL, 0, 5 + 70000 + 7);
	st = expect_load(&f, SIZE_MAX, 0, &id);
	ck_assert_int_eq(tu_count(st, "SELECT hit_table FROM prf"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT hit_missed FROM prf"), 70012);
	store_close(st);
}
END_TEST

/* Each field of the section that cannot be trusted: ignored, said why. */
START_TEST(test_hits_bad_fields)
{
	static const uint8_t	 cut_tail[8] = { 'X' };
	struct tu_hit		 v[5];
	struct tu_prf		 f;
	size_t			 at;

	f = good_hits();
	at = tu_prf_hits_at(&f);
	f.hits_version = 2;
	expect_ignored(&f, at + 8, "HITS version 2 unknown (1 expected);%");

	f = good_hits();
	f.hits_tag = "HITZ";
	expect_ignored(&f, at, "section HITZ unknown (52 bytes); it is"
	    " ignored");
	f.hits_tag = "\001IT\377";
	expect_ignored(&f, at, "section ?IT? unknown (52 bytes)%");

	/* A length that is not 12 + 8 * count, longer or shorter. */
	f = good_hits();
	f.hits_len_set = 1;
	f.hits_len = 12 + 8 * 5 + 8;
	f.tail = cut_tail;
	f.ntail = 8;
	expect_ignored(&f, at + 4, "HITS length 60, but count 5 entries make"
	    " 52;%");
	f = good_hits();
	f.hits_len_set = 1;
	f.hits_len = 12 + 8 * 4;
	expect_ignored(&f, at + 4, "HITS length 44, but count 5 entries make"
	    " 52;%");
	f.hits_len = 8;
	expect_ignored(&f, at + 4, "HITS length 8 is below the 12 bytes of"
	    " its fixed fields;%");
	f.hits_len = 0;
	expect_ignored(&f, at + 4, "HITS length 0 is below%");

	/* The count lies: above capacity, or not the entries present. */
	f = good_hits();
	f.hits_capacity = 4;
	expect_ignored(&f, at + 14, "HITS count 5 is above capacity 4;%");
	f = good_hits();
	f.hits_count = 4;
	expect_ignored(&f, at + 4, "HITS length 52, but count 4 entries make"
	    " 44;%");
	f = good_hits();
	f.hits_count = 6;
	f.hits_capacity = 6;
	expect_ignored(&f, at + 4, "HITS length 52, but count 6 entries make"
	    " 60;%");

	/* Entries outside the program: below, at prog_high_pa, far. */
	memcpy(v, hit5, sizeof v);
	v[3].cs = 0x0fff;
	v[3].ip = 0x000f;
	f = good_hits();
	f.hit = v;
	expect_ignored(&f, at + 20 + 3 * 8, "HITS entry 3: 0FFF:000F (linear"
	    " 0FFFF) is in no bucket of the program (10000 to 10080);%");
	v[3].cs = 0x1008;
	v[3].ip = 0;
	expect_ignored(&f, at + 20 + 3 * 8, "HITS entry 3: 1008:0000%");
	v[3].cs = 0xffff;
	v[3].ip = 0xffff;
	expect_ignored(&f, at + 20 + 3 * 8, "HITS entry 3: FFFF:FFFF (linear"
	    " 10FFEF)%");

	/* One CS:IP twice, in any order. */
	memcpy(v, hit5, sizeof v);
	v[4].cs = 0x1000;
	v[4].ip = 0x0010;
	f = good_hits();
	f.hit = v;
	expect_ignored(&f, at + 20, "HITS lists 1000:0010 twice;%");

	/* Entries that give a bucket more than it holds. */
	memcpy(v, hit5, sizeof v);
	v[0].hits = 4;
	v[3].hits = 6;
	f = good_hits();
	f.hit = v;
	expect_ignored(&f, at + 20, "HITS entries put 6 samples in bucket 0,"
	    " which holds 5;%");

	/* The invariant: entries and missed are the buckets' samples. */
	f = good_hits();
	f.hits_missed = 2;
	expect_ignored(&f, at + 16, "HITS entries and missed add up to 70013"
	    " samples, the buckets to 70012;%");
	memcpy(v, hit5, sizeof v);
	v[2].hits = 68000;
	f = good_hits();
	f.hit = v;
	expect_ignored(&f, at + 16, "HITS entries and missed add up to 69012"
	    " samples, the buckets to 70012;%");

	/* Only after a good PV32 trailer: else its place is unknown. */
	f = good_hits();
	f.version = 2;
	expect_ignored(&f, 30, "PV32 trailer version 2 unknown%");
	f = good_hits();
	f.pv32 = 0;
	expect_ignored(&f, 26, "60 unknown bytes after the buckets");
}
END_TEST

/* Odd but trustworthy: the table is kept, with a warning. */
START_TEST(test_hits_odd)
{
	static const uint8_t	 unknown[11] = { 'N', 'E', 'X', 'T', 3, 0, 0,
	    0, 1, 2, 3 };
	static const uint8_t	 five[5] = { 1, 2, 3, 4, 5 };
	static const uint8_t	 cut[12] = { 'N', 'E', 'X', 'T', 9, 0, 0,
	    0, 1, 2, 3, 4 };
	struct tu_prf		 f;
	struct store		*st;
	uint8_t			 again[52 + 8];
	size_t			 at, len;
	uint8_t			*buf;
	int64_t			 id;

	/* The full flag disagrees with missed, either way. */
	f = good_hits();
	at = tu_prf_hits_at(&f);
	f.hits_flags = 0;
	st = expect_load(&f, SIZE_MAX, 1, &id);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message = 'HITS full flag clear but 1 samples missed the"
	    " table'"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT offset FROM warning"),
	    (int64_t)at + 10);
	ck_assert_int_eq(tu_count(st, "SELECT hit_table FROM prf"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT hit_table_full FROM prf"), 0);
	store_close(st);
	f = good_exact();
	f.hits_flags = 1;
	st = expect_load(&f, SIZE_MAX, 1, &id);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message = 'HITS full flag set but no sample missed the"
	    " table'"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT hit_table_full FROM prf"), 1);
	store_close(st);

	/* A section after it that profview does not know: skipped. */
	f = good_hits();
	f.tail = unknown;
	f.ntail = sizeof unknown;
	st = expect_load(&f, SIZE_MAX, 1, &id);
	ck_assert_int_eq(tu_count(st, "SELECT offset FROM warning WHERE"
	    " message = 'section NEXT unknown (3 bytes); it is ignored'"),
	    (int64_t)at + 52 + 8);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_hit"), 5);
	store_close(st);
	/* ... cut off, or too short for a section at all. */
	f.tail = cut;
	f.ntail = sizeof cut;
	st = expect_load(&f, SIZE_MAX, 1, &id);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message = 'NEXT section cut off: length 9, the file has 4 bytes"
	    " after it; the section is ignored'"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_hit"), 5);
	store_close(st);
	f.tail = five;
	f.ntail = sizeof five;
	st = expect_load(&f, SIZE_MAX, 1, &id);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message = '5 bytes after the PV32 trailer, too few for a"
	    " section''s tag and length'"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT hit_table FROM prf"), 1);
	store_close(st);

	/* A second HITS: the first one counts. */
	f = good_hits();
	buf = tu_prf_bytes(&f, &len);
	memcpy(again, buf + at, sizeof again);
	free(buf);
	f.tail = again;
	f.ntail = sizeof again;
	st = expect_load(&f, SIZE_MAX, 1, &id);
	ck_assert_int_eq(tu_count(st, "SELECT offset FROM warning WHERE"
	    " message = 'a second HITS section (52 bytes); it is ignored'"),
	    (int64_t)at + 60);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_hit"), 5);
	store_close(st);
}
END_TEST

/*
 * Every prefix of a file with a HITS section: inside the PV32 trailer the
 * trailer is ignored (and so the section); inside the section the section
 * is; only the whole file has its table, without a warning.
 */
START_TEST(test_hits_truncation_every_length)
{
	static const uint16_t	 small[4] = { 1, 2, 3, 4 };
	static const uint32_t	 big[4] = { 1, 2, 3, 4 };
	static const struct tu_hit all[4] = {
		{ 0x0000, 0x1000, 1 }, { 0x0020, 0x1000, 2 },
		{ 0x0040, 0x1000, 2 }, { 0x0060, 0x1000, 3 }
	};
	struct tu_prf		 f = good(1);
	struct store		*st;
	uint8_t			*buf;
	size_t			 full, cut, at;
	int64_t			 id;

	f.h16 = small;
	f.h32 = big;
	f.flags = 0;
	f.total = 111 + 222 + 333 + 10;
	tu_prf_hits(&f, all, 4, 2);
	at = tu_prf_hits_at(&f);
	buf = tu_prf_bytes(&f, &full);
	free(buf);
	for (cut = 18 + 2 * 4; cut <= full; cut++) {
		st = expect_load(&f, cut, cut == at || cut == full ||
		    cut == 18 + 2 * 4 ? 0 : -1, &id);
		ck_assert_int_eq(tu_count(st, "SELECT pv32 FROM prf"),
		    cut >= at);
		ck_assert_int_eq(tu_count(st, "SELECT hit_table FROM prf"),
		    cut == full);
		ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_hit"),
		    cut == full ? 4 : 0);
		store_close(st);
	}
}
END_TEST

/*
 * The program beside the PRF.  A scratch folder holds the files; the PRF
 * itself is ingested from memory under a name in it.
 */
static char	progdir[64];

static void
progdir_setup(void)
{
	snprintf(progdir, sizeof progdir, "/tmp/pvprogXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(progdir));
}

static void
progdir_teardown(void)
{
	char	cmd[96];

	snprintf(cmd, sizeof cmd, "rm -rf %s", progdir);
	ck_assert_int_eq(system(cmd), 0);
}

static const char *
progfile(const char *name, const void *bytes, size_t len)
{
	static char	path[4][96];
	static int	next;
	char		*p = path[next++ % 4];
	FILE		*f;

	snprintf(p, 96, "%s/%s", progdir, name);
	ck_assert_ptr_nonnull(f = fopen(p, "wb"));
	ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	return (p);
}

/* good(1) ingested as DIR/t.prf with opts; its result and *st. */
static int
ingest_beside(struct store **st, const struct ingest_opts *o, int64_t *id,
    char **cause)
{
	struct tu_prf	 f = good(1);
	uint8_t		*buf;
	size_t		 len;
	char		 name[96];
	int		 rc;

	*st = tu_store();
	buf = tu_prf_bytes(&f, &len);
	snprintf(name, sizeof name, "%s/t.prf", progdir);
	rc = tu_ingest(*st, name, buf, len, o, id, cause);
	free(buf);
	return (rc);
}

/* An EXE: a 32-byte header, then image bytes; e_cp/e_cblp count both. */
static uint8_t *
exe_bytes(size_t image, size_t *len)
{
	uint8_t	*b, *p;
	size_t	 load = 32 + image, i;

	*len = load;
	p = b = calloc(1, load + 1);
	ck_assert_ptr_nonnull(b);
	*p++ = 'M';
	*p++ = 'Z';
	tu_u16(&p, (uint16_t)(load % 512));		/* e_cblp */
	tu_u16(&p, (uint16_t)((load + 511) / 512));	/* e_cp */
	tu_u16(&p, 1);					/* e_crlc */
	tu_u16(&p, 2);					/* e_cparhdr */
	tu_u16(&p, 0);
	tu_u16(&p, 0xffff);
	tu_u16(&p, 0);
	tu_u16(&p, 0x100);
	tu_u16(&p, 0);
	tu_u16(&p, 0);					/* e_ip */
	tu_u16(&p, 0);					/* e_cs */
	tu_u16(&p, 28);					/* e_lfarlc */
	tu_u16(&p, 0);
	for (i = 0; i < image; i++)
		b[32 + i] = (uint8_t)(i * 7 + 1);
	return (b);
}

/* The stored image of the one session, checked against want. */
static void
expect_image(struct store *st, int64_t id, uint64_t addr,
    const uint8_t *want, size_t len)
{
	uint64_t	 a;
	uint8_t		*bytes;
	size_t		 n;

	ck_assert_int_eq(store_prf_image_get(st, id, &a, &bytes, &n), 1);
	ck_assert_uint_eq(a, addr);
	ck_assert_uint_eq(n, len);
	ck_assert(memcmp(bytes, want, len) == 0);
	free(bytes);
}

START_TEST(test_image_com_beside)
{
	static const uint8_t	 com[5] = { 0xb8, 0x00, 0x4c, 0xcd, 0x21 };
	struct store		*st;
	uint64_t		 a;
	uint8_t			*bytes;
	size_t			 n;
	int64_t			 id;
	char			*cause;

	/* None beside: no row, no warning of it. */
	ck_assert_int_eq(ingest_beside(&st, NULL, &id, &cause), 0);
	ck_assert_int_eq(store_prf_image_get(st, id, &a, &bytes, &n), 0);
	store_close(st);
	/* Any case: t.CoM beside t.prf, at PSP:0100. */
	progfile("t.CoM", com, sizeof com);
	ck_assert_msg(ingest_beside(&st, NULL, &id, &cause) == 0, "%s", cause);
	expect_image(st, id, 0x10100, com, sizeof com);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE 'program ignored%'"), 0);
	store_close(st);
}
END_TEST

START_TEST(test_image_exe_beside)
{
	static const uint8_t	 com[2] = { 0x90, 0xc3 };
	struct store		*st;
	uint8_t			*exe;
	size_t			 len;
	int64_t			 id;
	char			*cause;

	/* By content: an MZ file is an EXE whatever its name. */
	exe = exe_bytes(600, &len);
	progfile("T.EXE", exe, len);
	ck_assert_msg(ingest_beside(&st, NULL, &id, &cause) == 0, "%s", cause);
	expect_image(st, id, 0x10100, exe + 32, 600);
	/* 600 bytes at 10100h run past prog_high_pa 1008h: said. */
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " offset = 8 AND message LIKE '%T.EXE: its 600-byte EXE image at"
	    " 10100 runs past prog_high_pa 1008: is it the program"
	    " profiled?'"), 1);
	store_close(st);
	/* Both: the COM, as DOS runs it first, and a warning. */
	progfile("t.com", com, sizeof com);
	ck_assert_msg(ingest_beside(&st, NULL, &id, &cause) == 0, "%s", cause);
	expect_image(st, id, 0x10100, com, sizeof com);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE '%t.com and an .EXE of the same name%'"), 1);
	store_close(st);
	free(exe);
}
END_TEST

/* A bad program: ignored with a warning when found, an error if named. */
static void
expect_bad_program(const char *name, const void *bytes, size_t len,
    const char *why)
{
	struct ingest_opts	 o = { 0 };
	struct store		*st;
	const char		*path;
	char			*cause, want[256];
	int64_t			 id;

	path = progfile(name, bytes, len);
	ck_assert_msg(ingest_beside(&st, NULL, &id, &cause) == 0, "%s", cause);
	snprintf(want, sizeof want, "SELECT count(*) FROM warning WHERE"
	    " offset = 0 AND message = 'program ignored: %s: %s'", path, why);
	ck_assert_msg(tu_count(st, want) == 1, "%s: no warning %s", name,
	    why);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_image"), 0);
	store_close(st);
	ingest_opts_set(&o, "program", path);
	ck_assert_int_eq(ingest_beside(&st, &o, &id, &cause), -1);
	snprintf(want, sizeof want, "%s: %s", path, why);
	ck_assert_str_eq(cause, want);
	ck_assert_int_eq(tu_rows(st), 0);
	free(cause);
	store_close(st);
	unlink(path);
}

START_TEST(test_image_bad)
{
	static const char	*fields[14] = { "signature", "e_cblp", "e_cp",
	    "e_crlc", "e_cparhdr", "e_minalloc", "e_maxalloc", "e_ss", "e_sp",
	    "e_csum", "e_ip", "e_cs", "e_lfarlc", "e_ovno" };
	uint8_t			*exe, *big;
	size_t			 len, cut;
	char			 why[160];

	/* Every cut inside the fixed header names the field it ends in. */
	exe = exe_bytes(100, &len);
	for (cut = 2; cut < 28; cut++) {
		snprintf(why, sizeof why, "offset %zu: %s: file ends inside"
		    " the EXE header (%zu bytes, it needs 28)", cut & ~1u,
		    fields[cut / 2], cut);
		expect_bad_program("t.exe", exe, cut, why);
	}
	/* e_cp and e_cblp against the bytes present. */
	expect_bad_program("t.exe", exe, len - 1, "offset 4: e_cp: 1 pages"
	    " (e_cblp 132) make 132 bytes, the file has 131");
	exe[2] = 0;
	exe[3] = 2;
	expect_bad_program("t.exe", exe, len, "offset 2: e_cblp: 512 bytes in"
	    " the last page of 512");
	free(exe);
	exe = exe_bytes(100, &len);
	exe[4] = 0;
	expect_bad_program("t.exe", exe, len, "offset 4: e_cp: 0 pages");
	free(exe);
	/* The header's paragraphs: too few, or more than the load. */
	exe = exe_bytes(100, &len);
	exe[8] = 1;
	expect_bad_program("t.exe", exe, len, "offset 8: e_cparhdr: 1"
	    " paragraphs of header in a 132-byte load (at least 28 bytes)");
	exe[8] = 9;
	expect_bad_program("t.exe", exe, len, "offset 8: e_cparhdr: 9"
	    " paragraphs of header in a 132-byte load (at least 28 bytes)");
	free(exe);
	/* Relocations past the end of the file. */
	exe = exe_bytes(100, &len);
	exe[6] = 30;
	expect_bad_program("t.exe", exe, len, "offset 24: e_lfarlc: 30"
	    " relocations at 28 run past the end of the file (132 bytes)");
	free(exe);
	/* A COM too big to load, and an empty one. */
	big = calloc(1, 0xff01);
	ck_assert_ptr_nonnull(big);
	expect_bad_program("t.com", big, 0xff01, "65281 bytes: too big for a"
	    " COM program (at most 65280) and not an EXE (no MZ)");
	free(big);
	expect_bad_program("t.com", "", 0, "an empty program");
}
END_TEST

/* --program names a file that is not there: the ingest fails. */
START_TEST(test_image_given_missing)
{
	struct ingest_opts	 o = { .options = {
	    { "program", "/nonexistent/P.COM" } },
	    .noptions = 1 };
	struct store		*st;
	int64_t			 id;
	char			*cause;

	ck_assert_int_eq(ingest_beside(&st, &o, &id, &cause), -1);
	ck_assert_str_eq(cause, "/nonexistent/P.COM: No such file or"
	    " directory");
	ck_assert_int_eq(tu_rows(st), 0);
	free(cause);
	store_close(st);
}
END_TEST

/*
 * The program's NASM listing.  lst() writes a line as NASM does: the
 * line number, the offset and the bytes (or blanks), the level, and the
 * source from column 40.
 */
static char	lst_text[1 << 18];
static size_t	lst_len;

static void
lst(int n, int off, const char *bytes, int level, const char *text)
{
	char	head[64], lv[8];
	int	w;

	if (off >= 0)
		snprintf(head, sizeof head, "%6d %08X %-19s", n, off, bytes);
	else
		snprintf(head, sizeof head, "%6d %28s", n, "");
	if (level != 0)
		snprintf(lv, sizeof lv, " <%d>", level);
	else
		snprintf(lv, sizeof lv, "    ");
	w = snprintf(lst_text + lst_len, sizeof lst_text - lst_len,
	    "%s%s%s%s\n", head, lv, *text != '\0' ? " " : "", text);
	ck_assert(w > 0 && (size_t)w < sizeof lst_text - lst_len);
	lst_len += (size_t)w;
}

/* mov ax, 4C00h; int 21h; three nops; ret; a word of data. */
static const uint8_t	lst_com[11] = { 0xb8, 0x00, 0x4c, 0xcd, 0x21,
    0x90, 0x90, 0x90, 0xc3, 0x34, 0x12 };

/* The listing of lst_com, as nasm -l writes it. */
static void
lst_good(void)
{
	lst_len = 0;
	lst(1, -1, "", 0, "; a test program");
	lst(2, -1, "", 0, "\torg 100h");
	lst(3, -1, "", 0, "");
	lst(4, -1, "", 0, "; the start");
	lst(5, -1, "", 0, "start:");
	lst(6, 0, "B8004C", 0, "\tmov\tax, 4C00h\t; exit");
	lst(7, 3, "CD21", 0, "\tint\t21h");
	lst(8, -1, "", 1, ".pad:");
	lst(9, 5, "90<rep 3h>", 1, "\ttimes 3 nop");
	lst(10, 8, "C3", 0, "\tret");
	lst(11, -1, "", 0, "section .data");
	lst(12, 0, "0000", 0, "other\tdw 0");
	lst(13, -1, "", 0, "section .text");
	lst(14, 9, "3412", 0, "konst\tdw 1234h");
}

/* The session's source lines as "addr line text|..." (tabs as \t). */
static void
expect_sources(struct store *st, const char *want)
{
	sqlite3_stmt	*s;
	char		 got[2048];
	size_t		 n = 0;
	int		 w;

	got[0] = '\0';
	ck_assert_int_eq(sqlite3_prepare_v2(store_db(st), "SELECT printf("
	    "'%X %d %s|', addr, line, replace(text, char(9), '\\t')) FROM"
	    " prf_source ORDER BY addr, line", -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		w = snprintf(got + n, sizeof got - n, "%s",
		    sqlite3_column_text(s, 0));
		n += w > 0 ? (size_t)w : 0;
		ck_assert_uint_lt(n, sizeof got);
	}
	sqlite3_finalize(s);
	ck_assert_str_eq(got, want);
}

/*
 * Beside the program, in any case: each line with an address at it, the
 * labels and comments just before (not what a blank line or a directive
 * parts from it), .text only.
 */
START_TEST(test_listing_beside)
{
	struct store	*st;
	int64_t		 id;
	char		*cause;

	progfile("t.com", lst_com, sizeof lst_com);
	lst_good();
	progfile("T.lst", lst_text, lst_len);
	ck_assert_msg(ingest_beside(&st, NULL, &id, &cause) == 0, "%s", cause);
	expect_sources(st, "10100 4 ; the start|10100 5 start:|"
	    "10100 6 \\tmov\\tax, 4C00h\\t; exit|10103 7 \\tint\\t21h|"
	    "10105 8 .pad:|10105 9 \\ttimes 3 nop|10108 10 \\tret|"
	    "10109 14 konst\\tdw 1234h|");
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning"), 1);
	store_close(st);
}
END_TEST

/* A listing of another build: ignored, the first difference named. */
START_TEST(test_listing_differs)
{
	static const uint8_t	 other[11] = { 0xb8, 0x00, 0x4c, 0xcd, 0x20,
	    0x90, 0x90, 0x91, 0xc3, 0x34, 0x12 };
	struct ingest_opts	 o = { 0 };
	struct store		*st;
	const char		*path;
	int64_t			 id;
	char			*cause, want[256];

	progfile("t.com", other, sizeof other);
	lst_good();
	path = progfile("elsewhere.txt", lst_text, lst_len);
	ingest_opts_set(&o, "listing", path);
	ck_assert_msg(ingest_beside(&st, &o, &id, &cause) == 0, "%s", cause);
	snprintf(want, sizeof want, "SELECT count(*) FROM warning WHERE"
	    " message = 'listing ignored: %s: line 7 lists 21 at offset 4,"
	    " the program %s/t.com has 20 there (2 of 5 lines with bytes"
	    " differ): is it this program''s listing?'", path, progdir);
	ck_assert_msg(tu_count(st, want) == 1, "no warning");
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_source"), 0);
	store_close(st);
	/* Bytes past the image's end differ too. */
	progfile("t.com", lst_com, 9);
	ck_assert_msg(ingest_beside(&st, &o, &id, &cause) == 0, "%s", cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE 'listing ignored: %line 14 lists 34 at offset 9,"
	    " the program %has nothing there (1 of 5 lines%'"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_source"), 0);
	store_close(st);
}
END_TEST

/*
 * Hostile listings: garbage lines between good ones are skipped (and
 * said), a huge line is cut, offsets and repeats out of any range are
 * differences, not reads past the image; a file with no listing line is
 * ignored; --listing naming nothing fails; every cut of a listing loads.
 */
START_TEST(test_listing_hostile)
{
	struct ingest_opts	 o = { 0 };
	struct store		*st;
	const char		*path;
	char			*big;
	int64_t			 id;
	size_t			 cut, full;
	char			*cause;

	progfile("t.com", lst_com, sizeof lst_com);
	lst_good();
	memcpy(lst_text + lst_len, "garbage\n\001\002\n   12 zz\n", 20);
	lst_len += 20;
	big = calloc(1, 100001);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', 100000);
	lst(15, 8, "C3", 0, big);
	free(big);
	progfile("t.lst", lst_text, lst_len);
	ck_assert_msg(ingest_beside(&st, NULL, &id, &cause) == 0, "%s", cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE '%: 3 of its 18 lines are not in NASM''s listing"
	    " format; they are skipped'"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT max(length(text)) FROM"
	    " prf_source"), 240);
	store_close(st);

	/* Offsets and repeats as big as the fields hold. */
	lst_len = 0;
	lst(1, 0, "B8004C", 0, "\tmov ax, 4C00h");
	lst(2, 0x7fffffff, "90<rep FFFFFFFFh>", 0, "\ttimes 0FFFFFFFFh nop");
	progfile("t.lst", lst_text, lst_len);
	ck_assert_msg(ingest_beside(&st, NULL, &id, &cause) == 0, "%s", cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE 'listing ignored: %line 2 lists 90 at offset"
	    " 7FFFFFFF, %has nothing there%'"), 1);
	store_close(st);
	lst_len = 0;
	lst(1, 5, "90<rep FFFFFFFFh>", 0, "\ttimes 0FFFFFFFFh nop");
	progfile("t.lst", lst_text, lst_len);
	ck_assert_msg(ingest_beside(&st, NULL, &id, &cause) == 0, "%s", cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE 'listing ignored: %line 1 lists 90 at offset 8,"
	    " %has C3 there%'"), 1);
	store_close(st);

	/* Not a listing at all. */
	progfile("t.lst", "hello\nworld\n", 12);
	ck_assert_msg(ingest_beside(&st, NULL, &id, &cause) == 0, "%s", cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE 'listing ignored: %t.lst: no line of its 2 lists"
	    " code at an offset in NASM''s format (nasm -l)'"), 1);
	store_close(st);

	/* Every cut of a good listing loads, with what it has. */
	lst_good();
	full = lst_len;
	for (cut = 0; cut <= full; cut++) {
		progfile("t.lst", lst_text, cut);
		ck_assert_msg(ingest_beside(&st, NULL, &id, &cause) == 0,
		    "%s", cause);
		ck_assert_int_le(tu_count(st, "SELECT count(*) FROM"
		    " prf_source"), 8);
		store_close(st);
	}

	/* --listing naming no file fails the ingest. */
	path = "/nonexistent/T.LST";
	ingest_opts_set(&o, "listing", path);
	ck_assert_int_eq(ingest_beside(&st, &o, &id, &cause), -1);
	ck_assert_str_eq(cause, "/nonexistent/T.LST: No such file or"
	    " directory");
	ck_assert_int_eq(tu_rows(st), 0);
	free(cause);
	store_close(st);
}
END_TEST

/* --listing without a program: nothing to check it against, said. */
START_TEST(test_listing_no_image)
{
	struct ingest_opts	 o = { 0 };
	struct store		*st;
	int64_t			 id;
	char			*cause;

	lst_good();
	ingest_opts_set(&o, "listing", progfile("t.lst", lst_text, lst_len));
	ck_assert_msg(ingest_beside(&st, &o, &id, &cause) == 0, "%s", cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE 'listing ignored: %t.lst: no program image to"
	    " check it against (--program FILE)'"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_source"), 0);
	store_close(st);
}
END_TEST

START_TEST(test_not_a_profile)
{
	struct store	*st = tu_store();
	int64_t		 id;
	char		*cause;

	ck_assert_int_eq(tu_ingest(st, "/nonexistent/t.txt",
	    (const uint8_t *)"hello", 5, NULL, &id, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "not a profile"));
	ck_assert_int_eq(tu_rows(st), 0);
	free(cause);
	store_close(st);
}
END_TEST

static Suite *
prf_suite(void)
{
	Suite	*s = suite_create("prf");
	TCase	*tc = tcase_create("prf");

	tcase_add_test(tc, test_good_16bit);
	tcase_add_test(tc, test_warning_store_failure);
	tcase_add_test(tc, test_good_unsaturated);
	tcase_add_test(tc, test_good_pv32);
	tcase_add_test(tc, test_bad_fields);
	tcase_add_test(tc, test_bucket_num_65535_short);
	tcase_add_test(tc, test_truncation_every_length);
	tcase_add_test(tc, test_odd_bucket_count);
	tcase_add_test(tc, test_odd_trailing_bytes);
	tcase_add_test(tc, test_odd_pv32_version);
	tcase_add_test(tc, test_odd_saturated_header_count);
	tcase_add_test(tc, test_lying_counts);
	tcase_add_test(tc, test_hits_good);
	tcase_add_test(tc, test_hits_bad_fields);
	tcase_add_test(tc, test_hits_odd);
	tcase_add_test(tc, test_hits_truncation_every_length);
	tcase_add_test(tc, test_not_a_profile);
	suite_add_tcase(s, tc);
	tc = tcase_create("image");
	tcase_add_checked_fixture(tc, progdir_setup, progdir_teardown);
	tcase_add_test(tc, test_image_com_beside);
	tcase_add_test(tc, test_image_exe_beside);
	tcase_add_test(tc, test_image_bad);
	tcase_add_test(tc, test_image_given_missing);
	tcase_add_test(tc, test_listing_beside);
	tcase_add_test(tc, test_listing_differs);
	tcase_add_test(tc, test_listing_hostile);
	tcase_add_test(tc, test_listing_no_image);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner	*sr = srunner_create(prf_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
