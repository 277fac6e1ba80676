/*
 * The :sql table view.  Rows are fetched by background work in slices of
 * a few milliseconds, so a million-row result scrolls while it loads; each
 * row is packed into one growing arena (type byte, text, NUL per cell) so
 * the per-row cost is one offset.
 *
 * A statement that runs long inside one step (an aggregate over a huge
 * join returns no row until it is done) is watched: every few ms it asks
 * the loop whether Ctrl-C, q or SIGTERM came (tui_interrupted), so any
 * query stops at once.  What is kept is bounded: TABLE_MAX_ROWS rows,
 * TABLE_MAX_BYTES of cells, TABLE_CELL bytes of a cell, a blob's first
 * bytes only; the status line says when a result was cut.  The rows sort
 * by any column (an order over the fetched rows; the arena stays).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "report/report.h"
#include "tui/tui.h"

/* The actions of its keys (tui.h: numbered from TUI_ACT_VIEW). */
enum table_action {
	TABLE_ACT_LEFT = TUI_ACT_VIEW,
	TABLE_ACT_RIGHT,
	TABLE_ACT_SORT,
	TABLE_ACT_SORT_LEFT,
	TABLE_ACT_SORT_RIGHT
};

static const struct tui_key table_bind[] = {
	TUI_KEY(TABLE_ACT_LEFT, "h Left", "scroll one column left"),
	TUI_KEY(TABLE_ACT_RIGHT, "l Right", "scroll one column right"),
	TUI_KEY(TABLE_ACT_SORT, "s",
	    "sort by the marked column: ascending, descending, as fetched"),
	TUI_KEY(TABLE_ACT_SORT_LEFT, "<", "sort by the column to the left"),
	TUI_KEY(TABLE_ACT_SORT_RIGHT, ">", "sort by the column to the right"),
};
const struct tui_keys tui_keys_sql = TUI_KEYS("sql",
    "In a :sql table", table_bind);

#define TABLE_MAXW	40	/* widest column, in columns */
#define TABLE_CHECK	64	/* rows between clock checks */
#define TABLE_BLOB	16	/* blob bytes shown */
#define TABLE_CELL	1024	/* text bytes kept of a cell */
#define TABLE_MAX_ROWS	1000000
#define TABLE_MAX_BYTES	((size_t)256 << 20)

enum table_sort {
	TABLE_AS_FETCHED,
	TABLE_ASCENDING,
	TABLE_DESCENDING
};

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
	int		 capped;	/* stopped at TABLE_MAX_ROWS or _BYTES */
	int		 changes;	/* rows changed, for writing statements */
	size_t		 hcol;		/* first column on screen */
	size_t		 scol;		/* the column to sort by */
	int		 sort;		/* enum table_sort */
	size_t		*order;		/* shown row -> fetched row, if sorted */
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
 * every digit of a real, text made safe for the terminal.  Long text and
 * a long blob show their first bytes and their size, so a huge one costs
 * no memory (report_cell_brief).
 */
static char *
table_show(const struct store_value *v)
{
	struct report_cell	c = report_value_cell(v);

	return (report_cell_brief(&c, TABLE_CELL, TABLE_BLOB));
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
		} else if (v->type == STORE_TEXT && v->len <= TABLE_CELL &&
		    table_plain(v->s, v->len)) {
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

/* The cell after cell p (each is type, text, NUL). */
static const char *
table_next(const char *p)
{
	return (p + 1 + strlen(p + 1) + 1);
}

/* Fetched row i's cell c. */
static const char *
table_cell(const struct table *t, size_t i, size_t c)
{
	const char	*p = t->arena + t->row[i];

	while (c-- > 0)
		p = table_next(p);
	return (p);
}

/* The fetched row shown at row i. */
static size_t
table_row(const struct table *t, size_t i)
{
	return (t->order != NULL ? t->order[i] : i);
}

/* A cell as the sort sees it: SQLite's order of types, then the value. */
struct table_key {
	int		 rank;		/* 0 NULL, 1 number, 2 text, 3 blob */
	int		 isint;
	int64_t		 i;
	double		 r;
	const char	*s;
	size_t		 row;
};

static int
table_key_cmp(const void *a, const void *b)
{
	const struct table_key	*x = a, *y = b;
	int			 c = 0;

	if (x->rank != y->rank)
		return (x->rank < y->rank ? -1 : 1);
	if (x->rank == 1) {
		if (x->isint && y->isint)
			c = (x->i > y->i) - (x->i < y->i);
		else if (isnan(x->r) || isnan(y->r))
			c = isnan(x->r) - isnan(y->r);
		else
			c = (x->r > y->r) - (x->r < y->r);
	} else if (x->rank >= 2)
		c = strcmp(x->s, y->s);
	if (c == 0)	/* stable: equal cells keep the fetched order */
		c = (x->row > y->row) - (x->row < y->row);
	return (c);
}

/*
 * Sort the fetched rows by column scol (reals and integers by value,
 * from their shown digits), or put them back as fetched.
 */
static void
table_sort(struct tui_view *tv)
{
	struct table		*t = tv->data;
	struct table_key	*k;
	const char		*p;
	size_t			 i, n = t->nrows, cur, at;

	cur = tv->list.n != 0 ? table_row(t, tv->list.cur) : 0;
	free(t->order);
	t->order = NULL;
	tv->search.stale = 1;
	if (t->sort == TABLE_AS_FETCHED || n == 0) {
		tv->list.cur = cur;
		return;
	}
	k = xreallocarray(NULL, n, sizeof *k);
	for (i = 0; i < n; i++) {
		p = table_cell(t, i, t->scol);
		memset(&k[i], 0, sizeof k[i]);
		k[i].row = i;
		k[i].s = p + 1;
		switch (p[0]) {
		case STORE_NULL:
			break;
		case STORE_INT:
			k[i].rank = 1;
			k[i].isint = 1;
			k[i].i = strtoll(p + 1, NULL, 10);
			k[i].r = (double)k[i].i;
			break;
		case STORE_REAL:
			k[i].rank = 1;
			k[i].r = strtod(p + 1, NULL);
			break;
		case STORE_TEXT:
			k[i].rank = 2;
			break;
		default:
			k[i].rank = 3;
			break;
		}
	}
	qsort(k, n, sizeof *k, table_key_cmp);
	t->order = xreallocarray(NULL, n, sizeof *t->order);
	for (i = 0; i < n; i++) {
		at = t->sort == TABLE_ASCENDING ? i : n - 1 - i;
		t->order[at] = k[i].row;
		if (k[i].row == cur)
			tv->list.cur = at;	/* the cursor stays on its row */
	}
	free(k);
}

/* Rows fetched while sorted wait at the end, in order, until the end. */
static void
table_order_grow(struct table *t, size_t from)
{
	size_t	i;

	if (t->order == NULL)
		return;
	t->order = xreallocarray(t->order, t->nrows, sizeof *t->order);
	for (i = from; i < t->nrows; i++)
		t->order[i] = i;
}

/* The statement's watcher: stop when the loop says so. */
static int
table_stop(void *arg)
{
	(void)arg;
	return (tui_interrupted());
}

static int
table_work(struct tui_view *tv, uint64_t deadline)
{
	struct table	*t = tv->data;
	size_t		 n = 0, had = t->nrows;
	int		 rc;

	if (t->q == NULL)
		return (0);
	if (deadline == 0) {
		t->cancelled = 1;
		table_finish(t);
		return (0);
	}
	for (;;) {
		if (t->nrows >= TABLE_MAX_ROWS || t->alen >= TABLE_MAX_BYTES) {
			t->capped = 1;
			tui_message("kept the first %zu rows (%zu MiB): the"
			    " cap; :export writes them all", t->nrows,
			    t->alen >> 20);
			table_finish(t);
			break;
		}
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
		} else if (store_query_stopped(t->q)) {
			t->cancelled = 1;
			tui_message("interrupted (%zu row%s)", t->nrows,
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
	table_order_grow(t, had);
	if (t->q == NULL && t->order != NULL)
		table_sort(tv);
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
	else if (t->capped)
		state = ", cut at the cap";
	else if (t->error != NULL)
		state = ", failed";
	return (xasprintf("profview: sql: %zu row%s%s: %s", t->nrows,
	    t->nrows == 1 ? "" : "s", state, t->sql));
}

static void
table_draw(struct tui_view *tv, int y, int h, int w)
{
	struct table	*t = tv->data;
	const char	*p, *mark;
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
		/* The sort column says which way: name^ or namev. */
		mark = (size_t)c != t->scol || t->sort == TABLE_AS_FETCHED ?
		    "" : t->sort == TABLE_ASCENDING ? "^" : "v";
		tui_put(y, x, cw, tui_attr(TUI_C_HEADER), t->names[c]);
		if (*mark != '\0')
			tui_put(y, x + cw++, 1, tui_attr(TUI_C_HEADER), mark);
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
		p = table_cell(t, table_row(t, i), t->hcol);
		x = 0;
		for (c = (int)t->hcol; c < t->ncols && x < w;
		    c++, p = table_next(p)) {
			cw = t->width[c] + ((size_t)c == t->scol &&
			    t->sort != TABLE_AS_FETCHED);
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

static const char *
table_sort_name(int sort)
{
	return (sort == TABLE_ASCENDING ? "ascending" : "descending");
}

static int
table_key(struct tui_view *tv, int a)
{
	struct table	*t = tv->data;

	switch (a) {
	case TABLE_ACT_LEFT:
		if (t->hcol > 0)
			t->hcol--;
		return (TUI_R_DRAW);
	case TABLE_ACT_RIGHT:
		if (t->hcol + 1 < (size_t)t->ncols)
			t->hcol++;
		return (TUI_R_DRAW);
	case TABLE_ACT_SORT:
		if (t->ncols == 0)
			return (TUI_R_NONE);
		t->sort = (t->sort + 1) % 3;
		table_sort(tv);
		if (t->sort == TABLE_AS_FETCHED)
			tui_message("rows as fetched");
		else
			tui_message("sorted by %s, %s%s", t->names[t->scol],
			    table_sort_name(t->sort), t->q != NULL ?
			    " (again when all are fetched)" : "");
		return (TUI_R_DRAW);
	case TABLE_ACT_SORT_LEFT:
	case TABLE_ACT_SORT_RIGHT:
		if (t->ncols == 0)
			return (TUI_R_NONE);
		if (a == TABLE_ACT_SORT_LEFT && t->scol > 0)
			t->scol--;
		else if (a == TABLE_ACT_SORT_RIGHT &&
		    t->scol + 1 < (size_t)t->ncols)
			t->scol++;
		/* Keep the sort column on screen. */
		if (t->scol < t->hcol)
			t->hcol = t->scol;
		else if (t->scol > t->hcol + 3)
			t->hcol = t->scol - 3;
		if (t->sort == TABLE_AS_FETCHED)
			t->sort = TABLE_ASCENDING;
		table_sort(tv);
		tui_message("sorted by %s, %s", t->names[t->scol],
		    table_sort_name(t->sort));
		return (TUI_R_DRAW);
	default:
		return (TUI_R_UNUSED);
	}
}

static int
table_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct table	*t = tv->data;
	const char	*p = table_cell(t, table_row(t, row), 0);
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
	/* As long as the query takes: Ctrl-C or q stops it too. */
	store_query_watch(q, table_stop, NULL);
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
	free(t->order);
	free(t->arena);
	free(t->error);
	free(t->sql);
	free(t->vals);
	free(t);
}

static const struct tui_view_ops table_ops = {
	.name = "sql",
	.keys = &tui_keys_sql,
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
	store_query_watch(q, table_stop, NULL);
	tv = tui_view_new(&table_ops, t);
	tv->busy = 1;
	return (tv);
}
