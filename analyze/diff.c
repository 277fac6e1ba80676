/*
 * Two sessions of one kind compared (diff.h): the rows both sides' kind
 * hook adds, matched by name, with what perf diff shows of each measure:
 * baseline, new, delta, and the delta of the shares, each side's share
 * of its own total, so that a run twice as long compares with a short
 * one.  Rows go by the size of that delta.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "kind.h"
#include "analyze/diff.h"

/* A table of rows named key with measures m[0..nm) (static, borrowed). */
struct analyze_diff_table *
analyze_diff_table(struct analyze_diff *d, const char *name,
    const char *title, const char *key, const struct analyze_diff_measure *m,
    size_t nm)
{
	struct analyze_diff_table	*t;
	size_t				 i;

	d->tables = xreallocarray(d->tables, d->ntables + 1,
	    sizeof *d->tables);
	t = d->tables[d->ntables++] = xcalloc(1, sizeof *t);
	t->name = name;
	t->title = title;
	t->key = key;
	t->m = m;
	t->nm = nm;
	t->total = xcalloc(nm * 2, sizeof *t->total);
	for (i = 0; i < nm * 2; i++)
		t->total[i] = -1;
	return (t);
}

/*
 * Side's values v[0..nm) for the row called name, made when new; a name
 * a side has twice (a symbol in two segments, a unit in two overlays)
 * is one row with their sums.  at is where the hook found it.  The row,
 * valid until the next add.
 */
struct analyze_diff_row *
analyze_diff_add(struct analyze_diff_table *t, int side, const char *name,
    size_t at, const double *v)
{
	struct analyze_diff_row	*r;
	uint32_t		 k;
	size_t			 i;
	int			 made;

	k = intern(&t->names, name, (uint32_t)t->nrows, &made);
	if (made) {
		if (t->nrows == t->cap) {
			t->cap = t->cap != 0 ? t->cap * 2 : 64;
			t->rows = xreallocarray(t->rows, t->cap,
			    sizeof *t->rows);
		}
		r = &t->rows[t->nrows++];
		r->name = xstrdup(name);
		r->sides = 0;
		r->at[0] = r->at[1] = SIZE_MAX;
		r->v = xcalloc(t->nm * 2, sizeof *r->v);
	} else
		r = &t->rows[k];
	if (r->at[side] == SIZE_MAX)
		r->at[side] = at;
	r->sides |= 1 << side;
	for (i = 0; i < t->nm; i++)
		r->v[i * 2 + side] += v[i];
	return (r);
}

/*
 * What side's shares are of, a value a measure; a table not given them
 * has its rows' sums.  A kind whose own report shows shares of a larger
 * whole (every sample, outside symbols too) gives that, so the diff's
 * numbers are its report's.
 */
void
analyze_diff_totals(struct analyze_diff_table *t, int side, const double *v)
{
	size_t	i;

	for (i = 0; i < t->nm; i++)
		t->total[i * 2 + side] = v[i];
}

/* Measure m's share of side's total, in percent. */
double
analyze_diff_pct(const struct analyze_diff_table *t,
    const struct analyze_diff_row *r, size_t m, int side)
{
	double	total = t->total[m * 2 + side];

	return (total > 0 ? 100.0 * r->v[m * 2 + side] / total : 0.0);
}

double
analyze_diff_delta(const struct analyze_diff_row *r, size_t m)
{
	return (r->v[m * 2 + ANALYZE_DIFF_NEW] - r->v[m * 2 +
	    ANALYZE_DIFF_BASE]);
}

/* The change of the share, in points (perf diff's Delta). */
double
analyze_diff_delta_pct(const struct analyze_diff_table *t,
    const struct analyze_diff_row *r, size_t m)
{
	return (analyze_diff_pct(t, r, m, ANALYZE_DIFF_NEW) -
	    analyze_diff_pct(t, r, m, ANALYZE_DIFF_BASE));
}

/* What marks a row one side has only ("" for both). */
const char *
analyze_diff_side_mark(int sides)
{
	switch (sides) {
	case ANALYZE_DIFF_ONLY_BASE:
		return ("gone");
	case ANALYZE_DIFF_ONLY_NEW:
		return ("new");
	}
	return ("");
}

/* qsort has no argument: the table being sorted. */
static const struct analyze_diff_table *diff_sorting;

/*
 * By |delta %| of the first measure, then |delta|, then name: the rows
 * that moved most first, as perf diff -o sorts, and a stable order.
 */
static int
diff_row_cmp(const void *a, const void *b)
{
	const struct analyze_diff_row	*x = a, *y = b;
	const struct analyze_diff_table	*t = diff_sorting;
	double				 dx, dy;

	dx = fabs(analyze_diff_delta_pct(t, x, 0));
	dy = fabs(analyze_diff_delta_pct(t, y, 0));
	if (dx != dy)
		return (dx > dy ? -1 : 1);
	dx = fabs(analyze_diff_delta(x, 0));
	dy = fabs(analyze_diff_delta(y, 0));
	if (dx != dy)
		return (dx > dy ? -1 : 1);
	return (strcmp(x->name, y->name));
}

/* Totals not given are the rows' sums; rows sorted; names dropped. */
void
analyze_diff_finish(struct analyze_diff *d)
{
	struct analyze_diff_table	*t;
	size_t				 i, j, k;

	for (i = 0; i < d->ntables; i++) {
		t = d->tables[i];
		for (k = 0; k < t->nm * 2; k++) {
			if (t->total[k] >= 0)
				continue;
			t->total[k] = 0;
			for (j = 0; j < t->nrows; j++)
				t->total[k] += t->rows[j].v[k];
		}
		diff_sorting = t;
		if (t->nrows > 1)
			qsort(t->rows, t->nrows, sizeof *t->rows,
			    diff_row_cmp);
		intern_free(&t->names);
	}
}

void
analyze_diff_free(struct analyze_diff *d)
{
	struct analyze_diff_table	*t;
	size_t				 i, j;

	for (i = 0; i < d->ntables; i++) {
		t = d->tables[i];
		for (j = 0; j < t->nrows; j++) {
			free(t->rows[j].name);
			free(t->rows[j].v);
		}
		free(t->rows);
		free(t->total);
		intern_free(&t->names);
		free(t);
	}
	free(d->tables);
	free(d->title[0]);
	free(d->title[1]);
	memset(d, 0, sizeof *d);
}

/*
 * Sessions a (the baseline) and b compared by their kind's diff hook:
 * 0, or -1 and *cause (no such session, two kinds, a kind with no diff).
 */
int
analyze_diff_sessions(struct store *st, int64_t a, int64_t b,
    struct analyze_diff *d, char **cause)
{
	struct store_session	 ss[2];
	const struct kind	*k = NULL;
	void			*m[2] = { NULL, NULL };
	int64_t			 id[2] = { a, b };
	int			 i, n = 0, rc = -1;

	memset(d, 0, sizeof *d);
	for (n = 0; n < 2; n++) {
		if ((rc = store_session_get(st, id[n], &ss[n])) != 0) {
			*cause = rc > 0 ? xasprintf("no session %lld",
			    (long long)id[n]) : xasprintf("%s: %s",
			    store_path(st), store_error(st));
			rc = -1;
			goto out;
		}
	}
	rc = -1;
	if (strcmp(ss[0].kind, ss[1].kind) != 0) {
		*cause = xasprintf("session %lld is %s, session %lld %s: only"
		    " two sessions of one kind compare", (long long)a,
		    ss[0].kind, (long long)b, ss[1].kind);
		goto out;
	}
	if ((k = kind_find(ss[0].kind)) == NULL || k->diff == NULL) {
		*cause = xasprintf("%s sessions do not compare", ss[0].kind);
		goto out;
	}
	for (i = 0; i < 2; i++) {
		if ((m[i] = k->model_load(st, id[i], cause)) == NULL)
			goto out;
	}
	d->kind = k->name;
	d->session[0] = a;
	d->session[1] = b;
	d->title[0] = xstrdup(ss[0].source);
	d->title[1] = xstrdup(ss[1].source);
	if ((rc = k->diff(st, m[0], m[1], d, cause)) == 0)
		analyze_diff_finish(d);
	else
		analyze_diff_free(d);
out:
	for (i = 0; i < 2; i++) {
		if (k != NULL && m[i] != NULL)
			k->model_free(m[i]);
	}
	for (i = 0; i < n; i++)
		store_session_free(&ss[i]);
	return (rc);
}
