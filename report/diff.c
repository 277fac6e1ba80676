/*
 * Two sessions compared (analyze/diff.h) as a report: a header naming
 * both, then a table per table of the diff, its columns perf diff's for
 * each measure: baseline, new, delta and the delta of the shares (each
 * side's of its own total).  A measure of the change only (heap's new
 * and gone) is one column.  Times are ns for machines, ms for people.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/diff.h"
#include "report/report.h"

static const struct report_table diff_t_header = {
	"diff", "Compared", REPORT_OBJECT, REPORT_NOHEAD, report_kv_cols,
	REPORT_KV_COLS, NULL, -1, 0
};

/* A table's columns, made for its measures; names and titles owned. */
struct diff_cols {
	struct report_col	*c;
	size_t			 n;
	struct report_table	 t;
};

static void
diff_col(struct diff_cols *dc, char *name, char *title, int flags, int prec)
{
	struct report_col	*c = &dc->c[dc->n++];

	c->name = name;
	c->title = title;
	c->flags = flags;
	c->prec = prec;
	c->max = 0;
}

/* Each measure's: a pair, or one change column; ns ones twice. */
static void
diff_cols_make(struct diff_cols *dc, const struct analyze_diff_table *t)
{
	static const char *const	 part[] = { "base", "new", "delta",
					    "delta_pct" };
	static const char *const	 ptitle[] = { "base", "new", "delta",
					    "delta %" };
	const struct analyze_diff_measure *m;
	size_t				 i, j;
	int				 ns, one;

	dc->c = xcalloc(2 + t->nm * 8, sizeof *dc->c);
	dc->n = 0;
	diff_col(dc, xstrdup(t->key), xstrdup(t->key), 0, 0);
	diff_col(dc, xstrdup("only"), xstrdup("only"), REPORT_MACHINE, 0);
	diff_col(dc, xstrdup("only"), xstrdup("only"), REPORT_HUMAN, 0);
	for (i = 0; i < t->nm; i++) {
		m = &t->m[i];
		ns = (m->flags & ANALYZE_DIFF_NS) != 0;
		one = t->nm == 1;
		if (m->flags & ANALYZE_DIFF_CHANGE) {
			diff_col(dc, xstrdup(m->name), xstrdup(m->title), 0,
			    0);
			continue;
		}
		for (j = 0; j < 4; j++) {
			if (!ns || j == 3) {
				diff_col(dc, xasprintf("%s_%s", m->name,
				    part[j]), one ? xstrdup(ptitle[j]) :
				    xasprintf("%s %s", m->title, ptitle[j]), 0,
				    j == 3 ? 2 : 0);
				continue;
			}
			/* ns for machines, the same in ms for people. */
			diff_col(dc, xasprintf("%s_%s", m->name, part[j]),
			    xstrdup(""), REPORT_MACHINE, 0);
			diff_col(dc, xasprintf("%s_%s", m->name, part[j]),
			    xasprintf("%s %s ms", m->title, ptitle[j]),
			    REPORT_HUMAN, 3);
		}
	}
	dc->t.name = t->name;
	dc->t.title = t->title;
	dc->t.shape = REPORT_ROWS;
	dc->t.flags = 0;
	dc->t.cols = dc->c;
	dc->t.ncols = dc->n;
	dc->t.empty = "no rows on either side";
	dc->t.bar = -1;
	dc->t.max_rows = 0;
}

static void
diff_cols_free(struct diff_cols *dc)
{
	size_t	i;

	for (i = 0; i < dc->n; i++) {
		free((char *)dc->c[i].name);
		free((char *)dc->c[i].title);
	}
	free(dc->c);
}

static struct report_cell
diff_value(double v, int ns, int human)
{
	if (ns && human)
		return (report_real(v / 1e6));
	if (v == (double)(int64_t)v)
		return (report_int((int64_t)v));
	return (report_real(v));
}

static void
diff_rows(struct report_out *o, const struct analyze_diff_table *t,
    size_t ncols)
{
	const struct analyze_diff_row	*r;
	struct report_cell		*c;
	size_t				 i, m, k;
	int				 ns;

	c = xcalloc(ncols, sizeof *c);
	for (i = 0; i < t->nrows; i++) {
		r = &t->rows[i];
		k = 0;
		c[k++] = report_str(r->name);
		c[k++] = r->sides == ANALYZE_DIFF_BOTH ? report_null() :
		    report_str(r->sides == ANALYZE_DIFF_ONLY_NEW ? "new" :
		    "baseline");
		c[k++] = report_str(analyze_diff_side_mark(r->sides));
		for (m = 0; m < t->nm; m++) {
			ns = (t->m[m].flags & ANALYZE_DIFF_NS) != 0;
			if (t->m[m].flags & ANALYZE_DIFF_CHANGE) {
				c[k++] = diff_value(r->v[m * 2 +
				    ANALYZE_DIFF_NEW], 0, 0);
				continue;
			}
			c[k++] = diff_value(r->v[m * 2], ns, 0);
			if (ns)
				c[k++] = diff_value(r->v[m * 2], ns, 1);
			c[k++] = diff_value(r->v[m * 2 + 1], ns, 0);
			if (ns)
				c[k++] = diff_value(r->v[m * 2 + 1], ns, 1);
			c[k++] = diff_value(analyze_diff_delta(r, m), ns, 0);
			if (ns)
				c[k++] = diff_value(analyze_diff_delta(r, m),
				    ns, 1);
			c[k++] = report_real(analyze_diff_delta_pct(t, r, m));
		}
		report_row(o, c);
	}
	free(c);
}

/* The totals shares are of, a line each side, in the header. */
static void
diff_totals(struct report_out *o, const struct analyze_diff_table *t)
{
	char	*key, *shown;
	size_t	 m;
	int	 side;

	for (m = 0; m < t->nm; m++) {
		if (t->m[m].flags & ANALYZE_DIFF_CHANGE)
			continue;
		for (side = 0; side < 2; side++) {
			key = xasprintf("%s_%s_total_%s", t->name,
			    t->m[m].name, side == 0 ? "base" : "new");
			shown = t->m[m].flags & ANALYZE_DIFF_NS ?
			    xasprintf("%.3f ms", t->total[m * 2 + side] / 1e6) :
			    xasprintf("%.0f", t->total[m * 2 + side]);
			report_kv(o, key, diff_value(t->total[m * 2 + side],
			    0, 0), shown, "what its shares are of");
			free(shown);
			free(key);
		}
	}
}

/* The diff d as a document in format. */
int
report_diff_write(const struct analyze_diff *d, int format, FILE *f,
    char **cause)
{
	struct report_out		  o;
	struct report_doc		  doc;
	struct diff_cols		 *dc;
	const struct report_table	**tables;
	char				 *title, *shown;
	size_t				  i;
	int				  rc;

	if (!report_tabular(format)) {
		*cause = xasprintf("a comparison has no %s form",
		    report_format_name(format));
		return (-1);
	}
	dc = xcalloc(d->ntables + 1, sizeof *dc);
	tables = xcalloc(d->ntables + 1, sizeof *tables);
	tables[0] = &diff_t_header;
	for (i = 0; i < d->ntables; i++) {
		diff_cols_make(&dc[i], d->tables[i]);
		tables[i + 1] = &dc[i].t;
	}
	title = xasprintf("profview diff %lld %lld", (long long)d->session[0],
	    (long long)d->session[1]);
	doc.title = title;
	doc.bare = 0;
	doc.tables = tables;
	doc.ntables = d->ntables + 1;
	report_begin(&o, f, format, &doc);
	report_table(&o, &diff_t_header);
	report_kv(&o, "kind", report_str(d->kind), d->kind, NULL);
	shown = xasprintf("%lld %s", (long long)d->session[0], d->title[0]);
	report_kv(&o, "baseline", report_int(d->session[0]), shown, NULL);
	free(shown);
	shown = xasprintf("%lld %s", (long long)d->session[1], d->title[1]);
	report_kv(&o, "new", report_int(d->session[1]), shown, NULL);
	free(shown);
	for (i = 0; i < d->ntables; i++)
		diff_totals(&o, d->tables[i]);
	if (d->note != NULL)
		report_kv(&o, "note", report_str(d->note), d->note, NULL);
	report_kv(&o, "delta_pct", report_str("points"),
	    "delta %: new's share of its total less the baseline's", NULL);
	report_table_end(&o);
	for (i = 0; i < d->ntables; i++) {
		report_table(&o, &dc[i].t);
		diff_rows(&o, d->tables[i], dc[i].n);
		report_table_end(&o);
	}
	rc = report_end(&o, cause);
	for (i = 0; i < d->ntables; i++)
		diff_cols_free(&dc[i]);
	free(dc);
	free(tables);
	free(title);
	return (rc);
}

/* Sessions a (the baseline) and b compared, written in format to f. */
int
report_diff(struct store *st, int64_t a, int64_t b, int format, FILE *f,
    char **cause)
{
	struct analyze_diff	d;
	int			rc;

	if (!report_tabular(format)) {
		*cause = xasprintf("a comparison has no %s form",
		    report_format_name(format));
		return (-1);
	}
	if (analyze_diff_sessions(st, a, b, &d, cause) != 0)
		return (-1);
	rc = report_diff_write(&d, format, f, cause);
	analyze_diff_free(&d);
	return (rc);
}
