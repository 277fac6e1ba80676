/*
 * The PRF reader: good files with and without the PV32 trailer, each bad
 * header field, truncation at every length, readable-but-odd files that
 * load with a warning, and counts that lie.
 */
#include "tests/unit/testutil.h"

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
	tcase_add_test(tc, test_not_a_profile);
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
