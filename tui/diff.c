/*
 * The diff view: two sessions of one kind compared (analyze/diff.h), as
 * perf diff shows them: a row per name with a measure's baseline, new,
 * delta and delta % (the change of its share of each run's total),
 * those that moved most first, rows of one side only marked.  :compare
 * ID in a session's view opens it, ID the baseline.  Enter opens the
 * row's session (the new one, else the baseline; b the baseline) and
 * shows the row's item there (tui_find), once that view has loaded.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "analyze/diff.h"
#include "report/report.h"
#include "tui/tui.h"

enum diff_action {
	DIFF_ACT_SORT = TUI_ACT_VIEW,
	DIFF_ACT_MEASURE,
	DIFF_ACT_TABLE,
	DIFF_ACT_OPEN,
	DIFF_ACT_OPEN_BASE
};

static const struct tui_key diff_bind[] = {
	TUI_KEY(DIFF_ACT_SORT, "s",
	    "cycle the sort (|delta %|, |delta|, delta %, base, new, name)"),
	TUI_KEY(DIFF_ACT_MEASURE, "m", "show the next measure"),
	TUI_KEY(DIFF_ACT_TABLE, "Tab",
	    "the next table (mon: functions, call paths)"),
	TUI_KEY(DIFF_ACT_OPEN, "Enter",
	    "open the row in the new session (else the baseline)"),
	TUI_KEY(DIFF_ACT_OPEN_BASE, "b", "open the row in the baseline"),
};
const struct tui_keys tui_keys_diff = TUI_KEYS("diff",
    "In the diff view", diff_bind);

enum diff_sort {
	DIFF_BY_DELTA_PCT,	/* |delta %|, as the report */
	DIFF_BY_DELTA,		/* |delta| */
	DIFF_BY_RISE,		/* delta %, the largest gain first */
	DIFF_BY_BASE,
	DIFF_BY_NEW,
	DIFF_BY_NAME,
	DIFF_NSORT
};

static const char *diff_sort_name[DIFF_NSORT] = {
	"|delta %|", "|delta|", "delta %", "base", "new", "name"
};

struct diffview {
	struct analyze_diff	 d;
	size_t			 table;
	size_t			 measure;
	int			 sort;
	size_t			*order;
	char			*name[2];	/* the two sessions' */
};

static const struct analyze_diff_table *
diff_table(const struct diffview *dv)
{
	return (dv->d.tables[dv->table]);
}

/* Whether the measure shown is one of the change only (heap's new). */
static int
diff_change(const struct diffview *dv)
{
	return ((diff_table(dv)->m[dv->measure].flags &
	    ANALYZE_DIFF_CHANGE) != 0);
}

static double
diff_key(const struct diffview *dv, const struct analyze_diff_row *r)
{
	const struct analyze_diff_table	*t = diff_table(dv);
	size_t				 m = dv->measure;

	switch (dv->sort) {
	case DIFF_BY_DELTA_PCT:
		return (diff_change(dv) ? r->v[m * 2 + ANALYZE_DIFF_NEW] :
		    fabs(analyze_diff_delta_pct(t, r, m)));
	case DIFF_BY_DELTA:
		return (diff_change(dv) ? r->v[m * 2 + ANALYZE_DIFF_NEW] :
		    fabs(analyze_diff_delta(r, m)));
	case DIFF_BY_RISE:
		return (diff_change(dv) ? r->v[m * 2 + ANALYZE_DIFF_NEW] :
		    analyze_diff_delta_pct(t, r, m));
	case DIFF_BY_BASE:
		return (r->v[m * 2 + ANALYZE_DIFF_BASE]);
	case DIFF_BY_NEW:
		return (r->v[m * 2 + ANALYZE_DIFF_NEW]);
	}
	return (0);
}

static int
diff_cmp(const void *a, const void *b, void *arg)
{
	const struct diffview		*dv = arg;
	const struct analyze_diff_table	*t = diff_table(dv);
	const struct analyze_diff_row	*x = &t->rows[*(const size_t *)a];
	const struct analyze_diff_row	*y = &t->rows[*(const size_t *)b];
	double				 kx, ky;

	if (dv->sort != DIFF_BY_NAME) {
		kx = diff_key(dv, x);
		ky = diff_key(dv, y);
		if (kx != ky)
			return (kx > ky ? -1 : 1);
	}
	return (strcmp(x->name, y->name));
}

static void
diff_order(struct diffview *dv)
{
	const struct analyze_diff_table	*t = diff_table(dv);
	size_t				 i;

	free(dv->order);
	dv->order = xcalloc(t->nrows + 1, sizeof *dv->order);
	for (i = 0; i < t->nrows; i++)
		dv->order[i] = i;
	qsort_r(dv->order, t->nrows, sizeof *dv->order, diff_cmp, dv);
}

static char *
diff_title(struct tui_view *tv)
{
	struct diffview			*dv = tv->data;
	const struct analyze_diff_table	*t = diff_table(dv);

	return (xasprintf("profview: diff: %s, %s by %s; %lld %s -> %lld %s",
	    t->title, t->m[dv->measure].title, diff_sort_name[dv->sort],
	    (long long)dv->d.session[0], dv->name[0],
	    (long long)dv->d.session[1], dv->name[1]));
}

/* A value as the report shows it to people: ms for ns, else a count. */
static void
diff_num(char *buf, size_t len, int w, double v, int ns)
{
	if (ns)
		tui_num_fit(buf, len, w, v / 1e6, 3);
	else if (v == floor(v) && fabs(v) < 1e18)
		tui_num_fit(buf, len, w, v, 0);
	else
		tui_num_fit(buf, len, w, v, 2);
}

#define DIFF_NUMW	12

static void
diff_draw(struct tui_view *tv, int y, int h, int w)
{
	struct diffview			*dv = tv->data;
	const struct analyze_diff_table	*t = diff_table(dv);
	const struct analyze_diff_row	*r;
	size_t				 i, m = dv->measure;
	int				 row, attr, yy, namew, ns, one;
	char				 b[4][32];
	const char			*unit;

	ns = (t->m[m].flags & ANALYZE_DIFF_NS) != 0;
	one = diff_change(dv);
	unit = ns ? " ms" : "";
	namew = w - 5 - (one ? 1 : 4) * (DIFF_NUMW + 1);
	if (namew < 10)
		namew = 10;
	if (one)
		tui_putf(y, 0, w, tui_attr(TUI_C_HEADER), "%-*s %-4s %*s",
		    namew, t->key, "only", DIFF_NUMW, t->m[m].title);
	else {
		snprintf(b[0], sizeof b[0], "base%s", unit);
		snprintf(b[1], sizeof b[1], "new%s", unit);
		snprintf(b[2], sizeof b[2], "delta%s", unit);
		tui_putf(y, 0, w, tui_attr(TUI_C_HEADER),
		    "%-*s %-4s %*s %*s %*s %*s", namew, t->key, "only",
		    DIFF_NUMW, b[0], DIFF_NUMW, b[1], DIFF_NUMW, b[2],
		    DIFF_NUMW, "delta %");
	}
	tv->list.y = y + 1;
	tui_list_fit(&tv->list, h - 1);
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= tv->list.n)
			break;
		r = &t->rows[dv->order[i]];
		yy = y + 1 + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		tui_put_marks(yy, 0, namew, attr, r->name,
		    tui_search_marks(tv));
		tui_putf(yy, namew + 1, 4, attr, "%s",
		    analyze_diff_side_mark(r->sides));
		if (one) {
			diff_num(b[0], sizeof b[0], DIFF_NUMW,
			    r->v[m * 2 + ANALYZE_DIFF_NEW], 0);
			tui_putf(yy, namew + 6, w - namew - 6, attr, "%*s",
			    DIFF_NUMW, b[0]);
			continue;
		}
		diff_num(b[0], sizeof b[0], DIFF_NUMW,
		    r->v[m * 2 + ANALYZE_DIFF_BASE], ns);
		diff_num(b[1], sizeof b[1], DIFF_NUMW,
		    r->v[m * 2 + ANALYZE_DIFF_NEW], ns);
		diff_num(b[2], sizeof b[2], DIFF_NUMW,
		    analyze_diff_delta(r, m), ns);
		tui_num_fit(b[3], sizeof b[3], DIFF_NUMW,
		    analyze_diff_delta_pct(t, r, m), 2);
		tui_putf(yy, namew + 6, w - namew - 6, attr,
		    "%*s %*s %*s %*s", DIFF_NUMW, b[0], DIFF_NUMW, b[1],
		    DIFF_NUMW, b[2], DIFF_NUMW, b[3]);
	}
}

/* The cursor's row, kept on its name across a new order. */
static void
diff_reorder(struct tui_view *tv, const char *keep)
{
	struct diffview			*dv = tv->data;
	const struct analyze_diff_table	*t = diff_table(dv);
	size_t				 i;

	diff_order(dv);
	tv->list.n = t->nrows;
	tv->search.stale = 1;
	tui_list_goto(&tv->list, 0);
	for (i = 0; keep != NULL && i < t->nrows; i++) {
		if (strcmp(t->rows[dv->order[i]].name, keep) == 0)
			tui_list_goto(&tv->list, i);
	}
}

static int
diff_open(struct tui_view *tv, int base)
{
	struct diffview			*dv = tv->data;
	const struct analyze_diff_table	*t = diff_table(dv);
	const struct analyze_diff_row	*r;
	struct tui_view			*v;
	int				 side;

	if (tv->list.n == 0)
		return (TUI_R_DRAW);
	r = &t->rows[dv->order[tv->list.cur]];
	side = base || !(r->sides & ANALYZE_DIFF_ONLY_NEW) ?
	    ANALYZE_DIFF_BASE : ANALYZE_DIFF_NEW;
	if (!(r->sides & (1 << side))) {
		tui_message("%s is not in the baseline", r->name);
		return (TUI_R_DRAW);
	}
	if (tui_open_session(dv->d.session[side], 1) != 0)
		return (TUI_R_DRAW);
	v = tui_top();
	tui_message("opened session %lld", (long long)dv->d.session[side]);
	tui_find(v, r->name);
	if (v->find != NULL)
		tui_message("opened session %lld: %s is shown once it has"
		    " loaded", (long long)dv->d.session[side], r->name);
	return (TUI_R_DRAW);
}

static int
diff_key_action(struct tui_view *tv, int a)
{
	struct diffview			*dv = tv->data;
	const struct analyze_diff_table	*t = diff_table(dv);
	char				*keep = NULL;
	int				 r = TUI_R_DRAW;

	if (tv->list.n != 0)
		keep = xstrdup(t->rows[dv->order[tv->list.cur]].name);
	switch (a) {
	case DIFF_ACT_SORT:
		dv->sort = (dv->sort + 1) % DIFF_NSORT;
		diff_reorder(tv, keep);
		tui_message("sorted by %s", diff_sort_name[dv->sort]);
		break;
	case DIFF_ACT_MEASURE:
		dv->measure = (dv->measure + 1) % t->nm;
		diff_reorder(tv, keep);
		tui_message("showing %s", t->m[dv->measure].title);
		break;
	case DIFF_ACT_TABLE:
		if (dv->d.ntables < 2) {
			tui_message("a %s diff has one table", dv->d.kind);
			break;
		}
		dv->table = (dv->table + 1) % dv->d.ntables;
		dv->measure = 0;
		diff_reorder(tv, NULL);
		tui_message("%s", diff_table(dv)->title);
		break;
	case DIFF_ACT_OPEN:
	case DIFF_ACT_OPEN_BASE:
		r = diff_open(tv, a == DIFF_ACT_OPEN_BASE);
		break;
	default:
		r = TUI_R_UNUSED;
	}
	free(keep);
	return (r);
}

static int
diff_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct diffview	*dv = tv->data;

	return (tui_strcasestr(diff_table(dv)->rows[dv->order[row]].name,
	    pattern));
}

static int
diff_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	struct diffview	*dv = tv->data;

	return (report_diff_write(&dv->d, format, f, cause));
}

static void
diff_free(struct tui_view *tv)
{
	struct diffview	*dv = tv->data;

	analyze_diff_free(&dv->d);
	free(dv->order);
	free(dv->name[0]);
	free(dv->name[1]);
	free(dv);
}

static const struct tui_view_ops diff_ops = {
	.name = "diff",
	.keys = &tui_keys_diff,
	.help = "two sessions of one kind compared, as perf diff: the rows"
	    " whose share moved most first",
	.draw = diff_draw,
	.key = diff_key_action,
	.title = diff_title,
	.match = diff_match,
	.export = diff_export,
	.free = diff_free,
};

/* Session base compared with session id: the diff view, or NULL. */
struct tui_view *
tui_diff_new(int64_t base, int64_t id, char **cause)
{
	struct diffview	*dv = xcalloc(1, sizeof *dv);
	struct tui_view	*tv;

	if (analyze_diff_sessions(tui_store(), base, id, &dv->d, cause) != 0) {
		free(dv);
		return (NULL);
	}
	if (dv->d.ntables == 0) {
		*cause = xstrdup("nothing to compare");
		analyze_diff_free(&dv->d);
		free(dv);
		return (NULL);
	}
	dv->name[0] = tui_session_name(base);
	dv->name[1] = tui_session_name(id);
	diff_order(dv);
	tv = tui_view_new(&diff_ops, dv);
	tv->list.n = diff_table(dv)->nrows;
	return (tv);
}
