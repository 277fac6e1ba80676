/*
 * The top-level helpers every folder shares: bsearch.h's one binary
 * search against a linear scan (lower and upper bounds, the last at or
 * below, ranges that start past 0, empty ranges, duplicates, a condition
 * true everywhere or nowhere) with its probes counted, and hex.h's one
 * hex decoder (digits of both cases, where it stops, 64 bits and one
 * digit more).
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bsearch.h"
#include "hex.h"

static uint64_t	seed;

static uint64_t
rnd(uint64_t n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (n == 0 ? 0 : (seed >> 33) % n);
}

/* The first i in [lo, hi) with v[i] >= key (le: > key), by looking. */
static size_t
scan(const uint64_t *v, size_t lo, size_t hi, uint64_t key, int le)
{
	while (lo < hi && (le ? v[lo] <= key : v[lo] < key))
		lo++;
	return (lo);
}

START_TEST(bsearch_random)
{
	uint64_t	*v, key;
	size_t		 n, i, k, lo, hi, probes, most;

	seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(_i + 1);
	n = rnd(_i < 4 ? (size_t)_i : 300);
	v = calloc(n + 1, sizeof *v);
	for (i = 0; i < n; i++)		/* rising, with runs of equal keys */
		v[i] = (i == 0 ? 0 : v[i - 1]) + rnd(3);
	for (k = 0; k < 200; k++) {
		key = rnd(n + 4);
		lo = rnd(n + 1);
		hi = lo + rnd(n - lo + 1);
		for (most = 1; ((size_t)1 << most) <= hi - lo; most++)
			/* nothing */;
		probes = 0;
		BSEARCH_FIRST(i, lo, hi, (probes++, v[i] < key));
		ck_assert_uint_eq(i, scan(v, lo, hi, key, 0));
		ck_assert_uint_le(probes, most);
		BSEARCH_FIRST(i, lo, hi, v[i] <= key);
		ck_assert_uint_eq(i, scan(v, lo, hi, key, 1));
		/* The last at or below key: one before the upper bound. */
		if (i > lo)
			ck_assert_uint_le(v[i - 1], key);
		if (i < hi)
			ck_assert_uint_gt(v[i], key);
	}
	free(v);
}
END_TEST

START_TEST(bsearch_edges)
{
	static const uint64_t	v[] = { 1, 3, 3, 3, 7 };
	uint32_t		i32;
	size_t			i, evals = 0;

	/* Empty ranges: lo, the condition never looked at. */
	BSEARCH_FIRST(i, 0, 0, (evals++, 1));
	ck_assert_uint_eq(i, 0);
	BSEARCH_FIRST(i, 4, 4, (evals++, 1));
	ck_assert_uint_eq(i, 4);
	ck_assert_uint_eq(evals, 0);
	/* True everywhere: hi; nowhere: lo. */
	BSEARCH_FIRST(i, 0, 5, v[i] < 100);
	ck_assert_uint_eq(i, 5);
	BSEARCH_FIRST(i, 0, 5, v[i] < 1);
	ck_assert_uint_eq(i, 0);
	/* Duplicates: the lower bound is the run's first, upper past it. */
	BSEARCH_FIRST(i, 0, 5, v[i] < 3);
	ck_assert_uint_eq(i, 1);
	BSEARCH_FIRST(i, 0, 5, v[i] <= 3);
	ck_assert_uint_eq(i, 4);
	/* Within a range that starts past 0. */
	BSEARCH_FIRST(i, 2, 4, v[i] < 3);
	ck_assert_uint_eq(i, 2);
	/* lo and hi once each, whatever they are. */
	evals = 0;
	BSEARCH_FIRST(i, (evals++, 0), (evals++, 5), v[i] < 7);
	ck_assert_uint_eq(i, 4);
	ck_assert_uint_eq(evals, 2);
	/* An index of another type takes the answer as well. */
	BSEARCH_FIRST(i32, 0, 5, v[i32] < 4);
	ck_assert_uint_eq(i32, 4);
}
END_TEST

START_TEST(hex_digits)
{
	static const char	digits[] = "0123456789abcdef";
	int			c;

	for (c = 0; c < 256; c++) {
		if (c != 0 && strchr(digits, c) != NULL)
			ck_assert_int_eq(hex_digit(c), strchr(digits, c) -
			    digits);
		else if (c >= 'A' && c <= 'F')
			ck_assert_int_eq(hex_digit(c), c - 'A' + 10);
		else
			ck_assert_int_eq(hex_digit(c), -1);
	}
}
END_TEST

START_TEST(hex_scans)
{
	uint64_t	v;

	ck_assert_uint_eq(hex_scan("1f", SIZE_MAX, &v), 2);
	ck_assert_uint_eq(v, 0x1f);
	ck_assert_uint_eq(hex_scan("DeadBeefh", SIZE_MAX, &v), 8);
	ck_assert_uint_eq(v, 0xdeadbeef);
	/* It stops at len, and at what is not a digit. */
	ck_assert_uint_eq(hex_scan("12345", 3, &v), 3);
	ck_assert_uint_eq(v, 0x123);
	ck_assert_uint_eq(hex_scan("12:34", SIZE_MAX, &v), 2);
	ck_assert_uint_eq(v, 0x12);
	ck_assert_uint_eq(hex_scan("0x10", SIZE_MAX, &v), 1);
	ck_assert_uint_eq(v, 0);
	/* None: 0 digits, 0. */
	v = 7;
	ck_assert_uint_eq(hex_scan("g", SIZE_MAX, &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_uint_eq(hex_scan("", SIZE_MAX, &v), 0);
	ck_assert_uint_eq(hex_scan("1", 0, &v), 0);
	/* 64 bits fit; a seventeenth digit does not, unless zeros lead. */
	ck_assert_uint_eq(hex_scan("ffffffffffffffff", SIZE_MAX, &v), 16);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_uint_eq(hex_scan("10000000000000000", SIZE_MAX, &v),
	    HEX_TOO_BIG);
	ck_assert_uint_eq(hex_scan("0000ffffffffffffffff", SIZE_MAX, &v), 20);
	ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("helpers");
	TCase	*tb = tcase_create("bsearch");
	TCase	*th = tcase_create("hex");
	SRunner	*sr;
	int	 failed;

	tcase_add_loop_test(tb, bsearch_random, 0, 40);
	tcase_add_test(tb, bsearch_edges);
	suite_add_tcase(s, tb);
	tcase_add_test(th, hex_digits);
	tcase_add_test(th, hex_scans);
	suite_add_tcase(s, th);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
