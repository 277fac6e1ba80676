/*
 * The comparison itself (analyze/diff.c), on rows made here: two sides of
 * random names and values, some names on one side only and some twice
 * on a side; every row of the finished diff against a brute-force count
 * of the same adds (values summed per name and side, the sides a name
 * has, the totals given or summed, delta and delta % of the shares), the
 * order (|delta %| of the first measure, then |delta|, then name), and
 * the edges: no rows, a zero total, a measure of the change only.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/diff.h"

static const struct analyze_diff_measure m2[] = {
	{ "a", "a", 0 },
	{ "b", "b", ANALYZE_DIFF_NS },
};

#define NNAMES	40

static uint64_t	seed;

static uint64_t
rnd(uint64_t n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (n == 0 ? 0 : (seed >> 33) % n);
}

START_TEST(random_sides)
{
	struct analyze_diff		 d;
	struct analyze_diff_table	*t;
	const struct analyze_diff_row	*r;
	double				 want[NNAMES][2][2], sum[2][2], v[2];
	double				 tot[2][2], pa, pb;
	int				 has[NNAMES][2], given, side, k, n, i, m;
	char				 name[16];
	size_t				 j;

	seed = (uint64_t)_i * 7919 + 1;
	memset(&d, 0, sizeof d);
	memset(want, 0, sizeof want);
	memset(has, 0, sizeof has);
	memset(sum, 0, sizeof sum);
	given = _i % 2;
	t = analyze_diff_table(&d, "t", "T", "name", m2, 2);
	for (side = 0; side < 2; side++) {
		n = (int)rnd(60);
		for (i = 0; i < n; i++) {
			k = (int)rnd(NNAMES);
			snprintf(name, sizeof name, "n%02d", k);
			v[0] = (double)rnd(1000);
			v[1] = (double)rnd(5000000);
			analyze_diff_add(t, side, name, (size_t)i, v);
			has[k][side] = 1;
			for (m = 0; m < 2; m++) {
				want[k][side][m] += v[m];
				sum[side][m] += v[m];
			}
		}
		for (m = 0; m < 2; m++)
			tot[side][m] = given ? sum[side][m] * 2 + 1 :
			    sum[side][m];
		if (given) {
			v[0] = tot[side][0];
			v[1] = tot[side][1];
			analyze_diff_totals(t, side, v);
		}
	}
	analyze_diff_finish(&d);
	n = 0;
	for (k = 0; k < NNAMES; k++)
		n += has[k][0] || has[k][1];
	ck_assert_uint_eq(t->nrows, (size_t)n);
	for (j = 0; j < t->nrows; j++) {
		r = &t->rows[j];
		k = atoi(r->name + 1);
		ck_assert_int_eq(r->sides, has[k][0] | has[k][1] << 1);
		for (m = 0; m < 2; m++) {
			ck_assert(r->v[m * 2] == want[k][0][m]);
			ck_assert(r->v[m * 2 + 1] == want[k][1][m]);
			ck_assert(analyze_diff_delta(r, (size_t)m) ==
			    want[k][1][m] - want[k][0][m]);
			pa = tot[0][m] > 0 ? 100 * want[k][0][m] / tot[0][m] :
			    0;
			pb = tot[1][m] > 0 ? 100 * want[k][1][m] / tot[1][m] :
			    0;
			ck_assert(fabs(analyze_diff_delta_pct(t, r,
			    (size_t)m) - (pb - pa)) < 1e-9);
		}
		if (j == 0)
			continue;
		/* Not before the row above: |delta %|, |delta|, name. */
		pa = fabs(analyze_diff_delta_pct(t, r - 1, 0));
		pb = fabs(analyze_diff_delta_pct(t, r, 0));
		ck_assert(pa >= pb);
		if (pa == pb) {
			pa = fabs(analyze_diff_delta(r - 1, 0));
			pb = fabs(analyze_diff_delta(r, 0));
			ck_assert(pa >= pb);
			if (pa == pb)
				ck_assert_int_lt(strcmp(r[-1].name, r->name),
				    0);
		}
	}
	analyze_diff_free(&d);
}
END_TEST

START_TEST(edges)
{
	static const struct analyze_diff_measure mc[] = {
		{ "live", "live", 0 },
		{ "new", "new", ANALYZE_DIFF_CHANGE },
	};
	struct analyze_diff		 d;
	struct analyze_diff_table	*t, *e;
	struct analyze_diff_row		*r;
	double				 v[2] = { 0, 0 };

	memset(&d, 0, sizeof d);
	e = analyze_diff_table(&d, "empty", "E", "name", m2, 2);
	t = analyze_diff_table(&d, "t", "T", "name", mc, 2);
	/* A zero total: shares of nothing are 0, no division. */
	analyze_diff_add(t, ANALYZE_DIFF_BASE, "x", 0, v);
	v[0] = 5;
	r = analyze_diff_add(t, ANALYZE_DIFF_NEW, "x", 3, v);
	r->v[1 * 2 + ANALYZE_DIFF_NEW] += 2;
	analyze_diff_finish(&d);
	ck_assert_ptr_eq(d.tables[0], e);
	ck_assert_uint_eq(e->nrows, 0);
	ck_assert_uint_eq(t->nrows, 1);
	r = &t->rows[0];
	ck_assert_int_eq(r->sides, ANALYZE_DIFF_BOTH);
	ck_assert_uint_eq(r->at[0], 0);
	ck_assert_uint_eq(r->at[1], 3);
	ck_assert(analyze_diff_pct(t, r, 0, ANALYZE_DIFF_BASE) == 0);
	ck_assert(analyze_diff_delta_pct(t, r, 0) == 100);
	ck_assert(r->v[1 * 2 + ANALYZE_DIFF_NEW] == 2);
	ck_assert_str_eq(analyze_diff_side_mark(ANALYZE_DIFF_ONLY_NEW), "new");
	ck_assert_str_eq(analyze_diff_side_mark(ANALYZE_DIFF_ONLY_BASE),
	    "gone");
	ck_assert_str_eq(analyze_diff_side_mark(ANALYZE_DIFF_BOTH), "");
	analyze_diff_free(&d);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("diff");
	TCase	*tc = tcase_create("diff");
	SRunner	*sr;
	int	 failed;

	tcase_add_loop_test(tc, random_sides, 0, 64);
	tcase_add_test(tc, edges);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}
