/*
 * The :sql table view.  Rows are fetched by background work in slices of
 * a few milliseconds, so a million-row result scrolls while it loads; each
 * row is packed into one growing arena (type byte, text, NUL per cell) so
 * the per-row cost is one offset.
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "report/report.h"
#include "tui/tui.h"

#define TABLE_MAXW	40	/* widest column, in columns */
#define TABLE_CHECK	64	/* rows between clock checks */
#define TABLE_BLOB	16	/* blob bytes shown */

struct table {
	struct store_query *q;		/* NULL once fetched */
	struct store_value *vals;
	char		*sql;
	int		 ncols;
	char		**names;
	int		*width;
	uint64_t	*row;		/* arena offset of each row */
	size_t		 nrows;
	size_t		 rowcap;
	char		*arena;
	size_t		 alen;
	size_t		 acap;
	char		*error;
	int		 cancelled;
	int		 changes;	/* rows changed, for writing statements */
	size_t		 hcol;		/* first column on screen */
};

static int
table_width(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] >= 0x80)
			return (tui_strwidth(s));
	}
	return ((int)len);
}

static void
table_append(struct table *t, const char *s, size_t len)
{
	if (t->alen + len > t->acap) {
		t->acap = (t->alen + len) * 2 + 4096;
		t->arena = xreallocarray(t->arena, t->acap, 1);
	}
	memcpy(t->arena + t->alen, s, len);
	t->alen += len;
}

/*
 * A cell as the text export writes it (report_cell_show): NULL, x'00ff',
 * every digit of a real, text made safe for the terminal.  A long blob
 * shows its first bytes and its size, so a huge one costs no memory.
 */
static char *
table_show(const struct store_value *v)
{
	struct report_cell	 c = report_value_cell(v);
	char			*s, *t;

	if (c.type != REPORT_BLOB || c.len <= TABLE_BLOB)
		return (report_cell_show(&c));
	c.len = TABLE_BLOB;
	s = report_cell_show(&c);
	t = xasprintf("%.*s...' (%zu bytes)", (int)strlen(s) - 1, s, v->len);
	free(s);
	return (t);
}

/* v in decimal at the end of buf[32]; returns where it starts. */
static char *
table_itoa(int64_t v, char *buf, size_t *len)
{
	char		*p = buf + 31;
	uint64_t	 u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	*p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	*len = (size_t)(buf + 31 - p);
	return (p);
}

/* Whether text shows as it is: printable ASCII only (the common case). */
static int
table_plain(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return (0);
	}
	return (1);
}

static void
table_fetch_row(struct table *t)
{
	const struct store_value *v;
	char			*s, *own, type, num[32];
	size_t			 len;
	int			 c, w;

	if (t->nrows == t->rowcap) {
		t->rowcap = t->rowcap != 0 ? t->rowcap * 2 : 1024;
		t->row = xreallocarray(t->row, t->rowcap, sizeof *t->row);
	}
	t->row[t->nrows++] = t->alen;
	for (c = 0; c < t->ncols; c++) {
		v = &t->vals[c];
		type = (char)v->type;
		own = NULL;
		/* Integers and plain text need no copy: a million rows load
		 * without an allocation per cell. */
		if (v->type == STORE_INT)
			s = table_itoa(v->i, num, &len);
		else if (v->type == STORE_NULL) {
			s = (char *)"NULL";
			len = 4;
		} else if (v->type == STORE_TEXT && table_plain(v->s, v->len)) {
			s = (char *)v->s;
			len = v->len;
		} else {
			s = own = table_show(v);
			len = strlen(s);
		}
		table_append(t, &type, 1);
		table_append(t, s, len);
		table_append(t, "", 1);
		if (t->width[c] < TABLE_MAXW) {
			w = table_width(s, len);
			if (w > t->width[c])
				t->width[c] = w < TABLE_MAXW ? w : TABLE_MAXW;
		}
		free(own);
	}
}

static void
table_finish(struct table *t)
{
	store_query_close(t->q);
	t->q = NULL;
}

static int
table_work(struct tui_view *tv, uint64_t deadline)
{
	struct table	*t = tv->data;
	size_t		 n = 0;
	int		 rc;

	if (t->q == NULL)
		return (0);
	if (deadline == 0) {
		t->cancelled = 1;
		table_finish(t);
		return (0);
	}
	for (;;) {
		rc = store_query_step(t->q, t->vals);
		if (rc == 1) {
			table_fetch_row(t);
			if (++n % TABLE_CHECK == 0 && tui_now_ns() >= deadline)
				break;
			continue;
		}
		if (rc == 0) {
			t->changes = (int)store_query_changes(t->q);
			if (t->ncols == 0)
				tui_message("%d row%s changed", t->changes,
				    t->changes == 1 ? "" : "s");
			else
				tui_message("%zu row%s", t->nrows,
				    t->nrows == 1 ? "" : "s");
		} else {
			t->error = xasprintf("error: %s",
			    store_query_error(t->q));
			tui_message("%s", t->error);
		}
		table_finish(t);
		break;
	}
	tv->list.n = t->nrows;
	if (n != 0)
		tv->search.stale = 1;
	return (t->q != NULL);
}

static char *
table_title(struct tui_view *tv)
{
	struct table	*t = tv->data;
	const char	*state = "";

	if (t->q != NULL)
		state = ", fetching";
	else if (t->cancelled)
		state = ", interrupted";
	else if (t->error != NULL)
		state = ", failed";
	return (xasprintf("profview: sql: %zu row%s%s: %s", t->nrows,
	    t->nrows == 1 ? "" : "s", state, t->sql));
}

/* The cell after cell p (each is type, text, NUL). */
static const char *
table_next(const char *p)
{
	return (p + 1 + strlen(p + 1) + 1);
}

static void
table_draw(struct tui_view *tv, int y, int h, int w)
{
	struct table	*t = tv->data;
	const char	*p;
	size_t		 i;
	int		 row, c, x, cw, attr, cattr, yy, tw;

	if (t->ncols == 0) {
		tui_put(y, 0, w, TUI_PLAIN, t->q != NULL ? "running..." :
		    t->error != NULL ? t->error : "The statement returns no"
		    " rows.");
		tui_list_fit(&tv->list, 0);
		return;
	}
	if (t->hcol >= (size_t)t->ncols)
		t->hcol = (size_t)t->ncols - 1;
	x = 0;
	for (c = (int)t->hcol; c < t->ncols && x < w; c++) {
		cw = t->width[c];
		tui_put(y, x, cw, tui_attr(TUI_C_HEADER), t->names[c]);
		x += cw + 1;
	}
	tv->list.y = y + 1;
	tui_list_fit(&tv->list, h - 1);
	if (t->nrows == 0) {
		tui_put(y + 1, 0, w, t->error != NULL ?
		    tui_attr(TUI_C_ERROR) : TUI_PLAIN, t->error != NULL ?
		    t->error : t->q != NULL ? "running..." : "No rows.");
		return;
	}
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= t->nrows)
			break;
		yy = y + 1 + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		p = t->arena + t->row[i];
		for (c = 0; c < (int)t->hcol; c++)
			p = table_next(p);
		x = 0;
		for (; c < t->ncols && x < w; c++, p = table_next(p)) {
			cw = t->width[c];
			cattr = attr;
			if (p[0] == STORE_NULL && attr == TUI_PLAIN)
				cattr = tui_attr(TUI_C_NULL);
			if (p[0] == STORE_INT || p[0] == STORE_REAL) {
				tw = tui_strwidth(p + 1);
				tui_put(yy, x + (tw < cw ? cw - tw : 0), cw,
				    cattr, p + 1);
			} else
				tui_put(yy, x, cw, cattr, p + 1);
			x += cw + 1;
		}
	}
}

static int
table_key(struct tui_view *tv, enum tui_action a)
{
	struct table	*t = tv->data;

	switch (a) {
	case TUI_ACT_LEFT:
		if (t->hcol > 0)
			t->hcol--;
		return (TUI_R_DRAW);
	case TUI_ACT_RIGHT:
		if (t->hcol + 1 < (size_t)t->ncols)
			t->hcol++;
		return (TUI_R_DRAW);
	default:
		return (TUI_R_UNUSED);
	}
}

static int
table_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct table	*t = tv->data;
	const char	*p = t->arena + t->row[row];
	int		 c;

	for (c = 0; c < t->ncols; c++, p = table_next(p)) {
		if (p[0] != STORE_NULL && tui_strcasestr(p + 1, pattern))
			return (1);
	}
	return (0);
}

/* Run the query again, straight into the report. */
static int
table_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	struct table		*t = tv->data;
	struct store_query	*q;
	const char		*sql = t->sql;
	int			 rc;

	if ((q = store_query_open(tui_store(), &sql, cause)) == NULL) {
		if (*cause == NULL)
			*cause = xstrdup("no statement");
		return (-1);
	}
	if (!store_query_readonly(q)) {
		store_query_close(q);
		*cause = xstrdup("only a query that changes nothing can be"
		    " exported (it runs again)");
		return (-1);
	}
	rc = report_query(q, format, f, cause);
	store_query_close(q);
	return (rc);
}

static void
table_free(struct tui_view *tv)
{
	struct table	*t = tv->data;
	int		 c;

	table_finish(t);
	for (c = 0; c < t->ncols; c++)
		free(t->names[c]);
	free(t->names);
	free(t->width);
	free(t->row);
	free(t->arena);
	free(t->error);
	free(t->sql);
	free(t->vals);
	free(t);
}

static const struct tui_view_ops table_ops = {
	.name = "sql",
	.help = "the result of a :sql query",
	.draw = table_draw,
	.key = table_key,
	.title = table_title,
	.match = table_match,
	.export = table_export,
	.work = table_work,
	.free = table_free,
};

/* Prepare sql; the rows come later, from table_work. */
struct tui_view *
tui_table_new(const char *sql, char **cause)
{
	struct store_query	*q;
	struct table		*t;
	struct tui_view		*tv;
	const char		*tail = sql, *name;
	int			 c;

	if ((q = store_query_open(tui_store(), &tail, cause)) == NULL) {
		if (*cause == NULL)
			*cause = xstrdup("no statement");
		return (NULL);
	}
	if (tail[strspn(tail, " \t\n;")] != '\0') {
		store_query_close(q);
		*cause = xstrdup(":sql runs one statement at a time");
		return (NULL);
	}
	if (!tui_writable() && !store_query_readonly(q)) {
		store_query_close(q);
		*cause = xstrdup("the store is read-only here (start profview"
		    " with --writable to change it)");
		return (NULL);
	}
	t = xcalloc(1, sizeof *t);
	t->q = q;
	t->sql = xstrdup(sql);
	t->ncols = store_query_ncols(q);
	t->vals = xcalloc(t->ncols + 1, sizeof *t->vals);
	t->names = xcalloc(t->ncols + 1, sizeof *t->names);
	t->width = xcalloc(t->ncols + 1, sizeof *t->width);
	for (c = 0; c < t->ncols; c++) {
		name = store_query_name(q, c);
		t->names[c] = xstrdup(name);
		t->width[c] = tui_strwidth(name);
		if (t->width[c] > TABLE_MAXW)
			t->width[c] = TABLE_MAXW;
		if (t->width[c] < 4)
			t->width[c] = 4;	/* room for NULL */
	}
	tv = tui_view_new(&table_ops, t);
	tv->busy = 1;
	return (tv);
}
