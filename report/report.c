/*
 * Report dispatch: pick the writer for a session kind and the driver for
 * a format, and the helpers every driver shares.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xmalloc.h"
#include "report/report.h"

static const char *report_names[REPORT_FORMATS] = {
	"text", "csv", "json", "html", "chrome"
};

/* Chrome trace-event JSON is a timeline format: only kinds with a
 * timeline (ovd) write it, themselves, so it has no table driver. */
static const struct report_ops *report_drivers[REPORT_FORMATS] = {
	&report_text_ops, &report_csv_ops, &report_json_ops, &report_html_ops,
	NULL
};

/* The OVD writer predates the document model and takes an id. */
static int
report_ovd_session(struct store *st, const struct store_session *ss,
    int format, FILE *out, char **cause)
{
	return (report_ovd_id(st, ss->id, format, out, cause));
}

/*
 * One writer per session kind.  A kind not listed here (ovd, prfd, mon,
 * heap until their writers exist) gets a clear error, not an empty report.
 */
static const struct {
	const char	*kind;
	int		(*write)(struct store *, const struct store_session *,
			    int, FILE *, char **);
} report_kinds[] = {
	{ "prf", report_prf_session },
	{ "ovd", report_ovd_session },
};

/* Whether format is a timeline format (written from a kind's trace). */
int
report_traced(int format)
{
	return (format == REPORT_CHROME);
}

/* Whether format is one of the table drivers (not a timeline format). */
int
report_tabular(int format)
{
	return (format >= 0 && format < REPORT_FORMATS &&
	    report_drivers[format] != NULL);
}

int
report_format_parse(const char *s)
{
	int	i;

	for (i = 0; i < REPORT_FORMATS; i++) {
		if (strcasecmp(s, report_names[i]) == 0)
			return (i);
	}
	return (-1);
}

const char *
report_format_name(int f)
{
	return (f >= 0 && f < REPORT_FORMATS ? report_names[f] : "?");
}

/* Write the whole report of session id. */
int
report_session(struct store *st, int64_t id, int format, FILE *out,
    char **cause)
{
	struct store_session	ss;
	size_t			i;
	int			rc;

	if (format < 0 || format >= REPORT_FORMATS) {
		*cause = xasprintf("unknown report format %d", format);
		return (-1);
	}
	if (store_session_get(st, id, &ss) != 0) {
		*cause = xasprintf("no session %lld", (long long)id);
		return (-1);
	}
	for (i = 0; i < sizeof report_kinds / sizeof report_kinds[0]; i++) {
		if (strcmp(report_kinds[i].kind, ss.kind) == 0)
			break;
	}
	if (i == sizeof report_kinds / sizeof report_kinds[0]) {
		*cause = xasprintf("session %lld: no report for kind %s yet",
		    (long long)id, ss.kind);
		store_session_free(&ss);
		return (-1);
	}
	if (report_drivers[format] == NULL && strcmp(ss.kind, "ovd") != 0) {
		*cause = xasprintf("session %lld: no %s report for kind %s",
		    (long long)id, report_names[format], ss.kind);
		store_session_free(&ss);
		return (-1);
	}
	rc = report_kinds[i].write(st, &ss, format, out, cause);
	store_session_free(&ss);
	return (rc);
}

void
report_begin(struct report_out *o, FILE *f, int format,
    const struct report_doc *doc)
{
	memset(o, 0, sizeof *o);
	o->ops = report_drivers[format];
	o->f = f;
	o->format = format;
	o->human = (format == REPORT_TEXT || format == REPORT_HTML);
	o->doc = doc;
	o->ops->begin(o);
}

/* Start the next table; tables come in the document's order. */
void
report_table(struct report_out *o, const struct report_table *t)
{
	size_t	i;

	for (i = 0; i < o->doc->ntables; i++) {
		if (o->doc->tables[i] == t)
			break;
	}
	if (i == o->doc->ntables)
		fatal("report: table %s is not in the document", t->name);
	o->table = t;
	o->ntable = i;
	o->nrows = 0;
	o->ops->table_begin(o);
}

void
report_row(struct report_out *o, const struct report_cell *cells)
{
	o->ops->row(o, cells);
	o->nrows++;
}

void
report_table_end(struct report_out *o)
{
	o->ops->table_end(o);
	o->table = NULL;
}

/* Finish the document; -1 if anything failed to reach the file. */
int
report_end(struct report_out *o, char **cause)
{
	o->ops->end(o);
	if (fflush(o->f) != 0 || ferror(o->f)) {
		*cause = xasprintf("writing the %s report: %s",
		    report_names[o->format], strerror(errno != 0 ? errno :
		    EIO));
		return (-1);
	}
	return (0);
}

/* Whether this format shows column c. */
int
report_visible(const struct report_out *o, const struct report_col *c)
{
	if (c->flags & REPORT_HUMAN)
		return (o->human);
	if (c->flags & REPORT_MACHINE)
		return (!o->human);
	return (1);
}

struct report_cell
report_int(int64_t v)
{
	struct report_cell	c = { .type = REPORT_INT, .i = v };

	return (c);
}

struct report_cell
report_real(double v)
{
	struct report_cell	c = { .type = REPORT_REAL, .r = v };

	return (c);
}

struct report_cell
report_str(const char *s)
{
	struct report_cell	c = { .type = REPORT_NULL };

	if (s != NULL) {
		c.type = REPORT_STR;
		c.s = s;
		c.len = strlen(s);
	}
	return (c);
}

struct report_cell
report_null(void)
{
	struct report_cell	c = { .type = REPORT_NULL };

	return (c);
}

/* Drop trailing zeros after the point: machines need no padding. */
static void
report_trim(char *s)
{
	char	*p;

	if (strchr(s, '.') == NULL || strchr(s, 'e') != NULL)
		return;
	p = s + strlen(s) - 1;
	while (*p == '0')
		*p-- = '\0';
	if (*p == '.')
		*p = '\0';
}

/*
 * An integer or real cell as text.  Reals of a column with no precision
 * (query results) keep every digit and always show a point or exponent,
 * so 1.0 stays distinguishable from 1.
 */
char *
report_number(const struct report_col *col, const struct report_cell *c,
    int human)
{
	char	*s;

	if (c->type == REPORT_INT) {
		if (human && (col->flags & REPORT_HEX))
			return (xasprintf("%0*llX", col->prec,
			    (unsigned long long)c->i));
		return (xasprintf("%lld", (long long)c->i));
	}
	if (isnan(c->r))
		return (xstrdup("nan"));
	if (isinf(c->r))
		return (xstrdup(c->r > 0 ? "inf" : "-inf"));
	if (col->prec >= 0) {
		if (human)
			return (xasprintf("%.*f", col->prec, c->r));
		s = xasprintf("%.*f", col->prec + 2, c->r);
		report_trim(s);
		if (strcmp(s, "-0") == 0)
			memmove(s, s + 1, 2);
		return (s);
	}
	s = xasprintf(human ? "%.15g" : "%.17g", c->r);
	if (strpbrk(s, ".e") == NULL) {
		char	*t = xasprintf("%s.0", s);

		free(s);
		s = t;
	}
	return (s);
}

/* Bytes as lower-case hex. */
char *
report_hex(const void *p, size_t len)
{
	static const char	 digits[] = "0123456789abcdef";
	const unsigned char	*b = p;
	char			*s;
	size_t			 i;

	s = xreallocarray(NULL, len + 1, 2);
	for (i = 0; i < len; i++) {
		s[2 * i] = digits[b[i] >> 4];
		s[2 * i + 1] = digits[b[i] & 15];
	}
	s[2 * len] = '\0';
	return (s);
}

/*
 * Decode one UTF-8 character of s (len > 0 bytes): its code point and
 * length, or -1 and length 1 for a byte that does not start a valid one
 * (overlong forms and surrogates included).  Names come from hostile
 * files; every output format must stay valid whatever they hold.
 */
int
report_utf8(const unsigned char *s, size_t len, size_t *adv)
{
	int	cp, need, i, min;

	*adv = 1;
	if (s[0] < 0x80)
		return (s[0]);
	if ((s[0] & 0xe0) == 0xc0) {
		need = 1;
		cp = s[0] & 0x1f;
		min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		need = 2;
		cp = s[0] & 0x0f;
		min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		need = 3;
		cp = s[0] & 0x07;
		min = 0x10000;
	} else
		return (-1);
	if (len < (size_t)need + 1)
		return (-1);
	for (i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return (-1);
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return (-1);
	*adv = (size_t)need + 1;
	return (cp);
}

/* Columns a valid UTF-8 string takes: one per character. */
size_t
report_width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	}
	return (n);
}

/* One sqlite value as a cell; text and blobs point into the statement. */
static struct report_cell
report_stmt_cell(sqlite3_stmt *s, int i)
{
	struct report_cell	c = { .type = REPORT_NULL };

	switch (sqlite3_column_type(s, i)) {
	case SQLITE_INTEGER:
		c.type = REPORT_INT;
		c.i = sqlite3_column_int64(s, i);
		break;
	case SQLITE_FLOAT:
		c.type = REPORT_REAL;
		c.r = sqlite3_column_double(s, i);
		break;
	case SQLITE_TEXT:
		c.type = REPORT_STR;
		c.s = (const char *)sqlite3_column_text(s, i);
		c.len = (size_t)sqlite3_column_bytes(s, i);
		if (c.s == NULL)	/* out of memory */
			c.type = REPORT_NULL;
		break;
	case SQLITE_BLOB:
		c.type = REPORT_BLOB;
		c.s = sqlite3_column_blob(s, i);
		c.len = (size_t)sqlite3_column_bytes(s, i);
		if (c.s == NULL)
			c.s = "";
		break;
	}
	return (c);
}

/*
 * Column names made unique ("a", "a_2"), so a JSON object never has the
 * same key twice.
 */
static char **
report_stmt_names(sqlite3_stmt *s, int n)
{
	char		**v = xcalloc((size_t)n, sizeof *v);
	const char	 *name;
	int		  i, k, dup, suffix;

	for (i = 0; i < n; i++) {
		if ((name = sqlite3_column_name(s, i)) == NULL)
			name = "?";
		v[i] = xstrdup(name);
		for (suffix = 2;; suffix++) {
			dup = 0;
			for (k = 0; k < i && !dup; k++)
				dup = (strcmp(v[k], v[i]) == 0);
			if (!dup)
				break;
			free(v[i]);
			v[i] = xasprintf("%s_%d", name, suffix);
		}
	}
	return (v);
}

/* Step a prepared statement and write every row it returns. */
int
report_stmt(sqlite3_stmt *s, int format, FILE *f, char **cause)
{
	struct report_out	 o;
	struct report_table	 t;
	struct report_doc	 doc;
	const struct report_table *tables[1];
	struct report_col	*cols;
	struct report_cell	*cells;
	char			**names;
	int			 n, i, rc;

	if (!report_tabular(format)) {
		*cause = xasprintf("query results have no %s form",
		    report_format_name(format));
		return (-1);
	}
	if ((n = sqlite3_column_count(s)) == 0) {
		/* No result columns (an INSERT, say): just run it. */
		while ((rc = sqlite3_step(s)) == SQLITE_ROW)
			;
		if (rc != SQLITE_DONE) {
			*cause = xstrdup(sqlite3_errmsg(sqlite3_db_handle(s)));
			return (-1);
		}
		return (0);
	}
	names = report_stmt_names(s, n);
	cols = xcalloc((size_t)n, sizeof *cols);
	cells = xcalloc((size_t)n, sizeof *cells);
	for (i = 0; i < n; i++) {
		cols[i].name = names[i];
		if ((cols[i].title = sqlite3_column_name(s, i)) == NULL)
			cols[i].title = names[i];
		cols[i].prec = -1;
	}
	memset(&t, 0, sizeof t);
	t.name = "rows";
	t.shape = REPORT_ROWS;
	t.cols = cols;
	t.ncols = (size_t)n;
	t.bar = -1;
	t.max_rows = REPORT_TEXT_MAX_ROWS;
	tables[0] = &t;
	doc.title = "profview sql";
	doc.bare = 1;
	doc.tables = tables;
	doc.ntables = 1;

	report_begin(&o, f, format, &doc);
	report_table(&o, &t);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		for (i = 0; i < n; i++)
			cells[i] = report_stmt_cell(s, i);
		report_row(&o, cells);
	}
	report_table_end(&o);
	if (rc != SQLITE_DONE) {
		/* Finish the document so the driver frees its state. */
		*cause = NULL;
		report_end(&o, cause);
		free(*cause);
		*cause = xstrdup(sqlite3_errmsg(sqlite3_db_handle(s)));
		rc = -1;
	} else
		rc = report_end(&o, cause);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(cols);
	free(cells);
	return (rc);
}
