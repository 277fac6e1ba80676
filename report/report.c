/*
 * Report dispatch: find the session's kind (kind.h), load its model and
 * hand it to the kind's writer with the driver for the format; the
 * tables every kind shares; the helpers every driver shares.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "xmalloc.h"
#include "kind.h"
#include "vis.h"
#include "report/report.h"

static const char *report_names[REPORT_FORMATS] = {
	"text", "csv", "json", "html", "chrome", "heapsnapshot", "collapsed",
	"callgrind", "speedscope", "pprof"
};

/*
 * A format is a table format or a timeline format (one driver each), a
 * call-profile format, which a kind with call paths writes itself, or a
 * kind's own, which its report writer writes (kind.h's formats).
 */
static const struct report_ops *report_drivers[REPORT_FORMATS] = {
	&report_text_ops, &report_csv_ops, &report_json_ops, &report_html_ops,
	NULL, NULL, NULL, NULL, NULL, NULL
};
static const struct report_trace_ops *report_trace_drivers[REPORT_FORMATS] = {
	NULL, NULL, NULL, NULL, &report_chrome_ops, NULL, NULL, NULL, NULL,
	NULL
};

/* Whether format is a call-profile format (written by a kind's profile). */
int
report_profiled(int format)
{
	return (format == REPORT_CALLGRIND || format == REPORT_COLLAPSED ||
	    format == REPORT_SPEEDSCOPE || format == REPORT_PPROF);
}

/* Whether format is a timeline format (written from a kind's trace). */
int
report_traced(int format)
{
	return (format >= 0 && format < REPORT_FORMATS &&
	    report_trace_drivers[format] != NULL);
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

/* Whether kind k can be exported in format: tables always, others if listed. */
int
report_exports(const struct kind *k, int format)
{
	if (report_tabular(format))
		return (1);
	if (format < 0 || format >= REPORT_FORMATS ||
	    !(k->formats & KIND_F(format)))
		return (0);
	/* A timeline format needs the trace writer that feeds it. */
	return (!report_traced(format) || k->trace != NULL);
}

/* The formats kind k exports (every format if k is NULL), joined by sep. */
char *
report_formats(const struct kind *k, const char *sep)
{
	char	*s = xstrdup(""), *t;
	size_t	 i;
	int	 f, any;

	for (f = 0; f < REPORT_FORMATS; f++) {
		any = 0;
		if (k != NULL)
			any = report_exports(k, f);
		for (i = 0; k == NULL && i < kind_count; i++)
			any |= report_exports(&kind_table[i], f);
		if (!any)
			continue;
		t = xasprintf("%s%s%s", s, *s != '\0' ? sep : "",
		    report_format_name(f));
		free(s);
		s = t;
	}
	return (s);
}

/*
 * The kind of session ss if it has a report in format, else NULL and a
 * cause naming the session, the kind and what it does export.
 */
static const struct kind *
report_kind(const struct store_session *ss, int format, char **cause)
{
	const struct kind	*k;
	char			*fmts;

	if (format < 0 || format >= REPORT_FORMATS) {
		*cause = xasprintf("unknown report format %d", format);
		return (NULL);
	}
	if ((k = kind_find(ss->kind)) == NULL) {
		*cause = xasprintf("session %lld: no report for kind %s yet",
		    (long long)ss->id, ss->kind);
		return (NULL);
	}
	if (!report_exports(k, format)) {
		fmts = report_formats(k, ", ");
		*cause = xasprintf("session %lld: no %s report for kind %s"
		    " (it exports %s)", (long long)ss->id,
		    report_names[format], k->name, fmts);
		free(fmts);
		return (NULL);
	}
	return (k);
}

/*
 * Write the report of session ss from its kind's model, already loaded:
 * the browser's views export the model they draw through this.
 */
int
report_write(struct store *st, const struct store_session *ss,
    const void *model, int format, FILE *out, char **cause)
{
	const struct kind	*k;
	struct report_trace	 tr;

	if ((k = report_kind(ss, format, cause)) == NULL)
		return (-1);
	/* A call profile by its kind's writer, if it has one... */
	if (report_profiled(format) && k->profile != NULL)
		return (k->profile(ss, model, format, out, cause));
	/* ... tables and a kind's own formats by its report writer. */
	if (!report_traced(format))
		return (k->report(st, ss, model, format, out, cause));
	report_trace_begin(&tr, out, format);
	if (k->trace(ss, model, &tr) != 0) {
		/* Finish the driver so it frees its state; keep the cause. */
		report_trace_end(&tr, NULL);
		return (-1);
	}
	return (report_trace_end(&tr, cause));
}

/* Write the whole report of session id. */
int
report_session(struct store *st, int64_t id, int format, FILE *out,
    char **cause)
{
	struct store_session	 ss;
	const struct kind	*k;
	void			*model;
	int			 rc;

	if ((rc = store_session_get(st, id, &ss)) != 0) {
		if (rc > 0)
			*cause = xasprintf("no session %lld", (long long)id);
		else
			*cause = xasprintf("%s: %s", store_path(st),
			    store_error(st));
		return (-1);
	}
	/* Refuse a format before the load, which can take a while. */
	if ((k = report_kind(&ss, format, cause)) == NULL) {
		store_session_free(&ss);
		return (-1);
	}
	if ((model = k->model_load(st, id, cause)) == NULL) {
		store_session_free(&ss);
		return (-1);
	}
	rc = report_write(st, &ss, model, format, out, cause);
	k->model_free(model);
	store_session_free(&ss);
	return (rc);
}

/* profview sessions: one row a session, oldest first. */
static const struct report_col report_sessions_cols[] = {
	{ "id", "id", 0, -1, 0 },
	{ "kind", "kind", 0, -1, 0 },
	{ "ingested", "ingested", 0, -1, 0 },
	{ "source", "source", 0, -1, 0 },
	{ "summary", "summary", 0, -1, 0 },
	{ "warnings", "warnings", 0, -1, 0 },
};

/* Every session of the store as a table, in any table format. */
int
report_sessions(struct store *st, int format, FILE *f, char **cause)
{
	static const struct report_table t = {
		"sessions", NULL, REPORT_ROWS, 0, report_sessions_cols,
		sizeof report_sessions_cols / sizeof report_sessions_cols[0],
		NULL, -1, 0
	};
	const struct report_table	*tables[1] = { &t };
	const struct report_doc		 doc = { "profview sessions", 1,
					    tables, 1 };
	struct report_out		 o;
	struct report_cell		 c[6];
	struct store_session		*v;
	size_t				 n, i;

	if (!report_tabular(format)) {
		*cause = xasprintf("the list of sessions has no %s form",
		    report_names[format]);
		return (-1);
	}
	if (store_sessions(st, &v, &n) != 0) {
		*cause = xasprintf("%s: %s", store_path(st), store_error(st));
		return (-1);
	}
	report_begin(&o, f, format, &doc);
	report_table(&o, &t);
	for (i = 0; i < n; i++) {
		c[0] = report_int(v[i].id);
		c[1] = report_str(v[i].kind);
		c[2] = report_str(v[i].ingested);
		c[3] = report_str(v[i].source);
		c[4] = report_str(v[i].summary);
		c[5] = report_int(v[i].warnings);
		report_row(&o, c);
	}
	report_table_end(&o);
	store_sessions_free(v, n);
	return (report_end(&o, cause));
}

/* The parts of every kind's report. */
const struct report_col report_kv_cols[REPORT_KV_COLS] = {
	{ "key", "", 0, 0, 0 },
	{ "value", "", REPORT_MACHINE, 4, 0 },
	{ "shown", "", REPORT_HUMAN, 0, 0 },
	{ "note", "", REPORT_HUMAN, 0, 0 },
};

const struct report_table report_tab_session = {
	"session", "Session", REPORT_OBJECT, REPORT_NOHEAD, report_kv_cols,
	REPORT_KV_COLS, NULL, -1, 0
};

static const struct report_col report_warning_cols[] = {
	{ "message", "warning", 0, 0, 0 },
};

const struct report_table report_tab_warnings = {
	"warnings", "Warnings", REPORT_LIST, REPORT_NOHEAD,
	report_warning_cols, 1, "none", -1, 0
};

static const struct report_col report_legend_cols[] = {
	{ "line", "", 0, 0, 0 },
};

/* What a kind's columns and marks mean: for people only. */
const struct report_table report_tab_legend = {
	"legend", "Legend", REPORT_LIST, REPORT_HUMAN | REPORT_NOHEAD,
	report_legend_cols, 1, NULL, -1, 0
};

/* The document title of a session's report. */
static char *
report_title(const struct store_session *ss)
{
	return (xasprintf("profview report: session %lld (%s) %s",
	    (long long)ss->id, ss->kind, ss->source));
}

/* A row of a key, value table: the value for machines, shown for humans. */
void
report_kv(struct report_out *o, const char *key, struct report_cell value,
    const char *shown, const char *note)
{
	struct report_cell	c[REPORT_KV_COLS];

	c[0] = report_str(key);
	c[1] = value;
	c[2] = report_str(shown);
	c[3] = report_str(note != NULL ? note : "");
	report_row(o, c);
}

/* An integer row, shown to humans through the printf format fmt. */
void
report_kv_int(struct report_out *o, const char *key, int64_t v,
    const char *fmt, const char *note)
{
	char	*shown = xasprintf(fmt, (long long)v);

	report_kv(o, key, report_int(v), shown, note);
	free(shown);
}

/* The session table, whatever the kind. */
static void
report_session_rows(struct report_out *o, const struct store_session *ss,
    size_t nwarn)
{
	report_table(o, &report_tab_session);
	report_kv_int(o, "id", ss->id, "%lld", NULL);
	report_kv(o, "kind", report_str(ss->kind), ss->kind, NULL);
	report_kv(o, "source", report_str(ss->source), ss->source, NULL);
	report_kv(o, "program", report_str(ss->program),
	    ss->program != NULL ? ss->program : "", NULL);
	report_kv_int(o, "bytes", ss->bytes, "%lld", NULL);
	report_kv(o, "sha256", report_str(ss->sha256), ss->sha256, NULL);
	report_kv(o, "captured", report_str(ss->captured),
	    ss->captured != NULL ? ss->captured : "", "file time, UTC");
	report_kv(o, "ingested", report_str(ss->ingested),
	    ss->ingested != NULL ? ss->ingested : "", NULL);
	report_kv_int(o, "warnings", (int64_t)nwarn, "%lld", NULL);
	report_table_end(o);
}

/* What the reader tolerated in session ss. */
static int
report_warnings_get(struct store *st, const struct store_session *ss,
    char ***warn, size_t *nwarn, char **cause)
{
	*warn = NULL;
	*nwarn = 0;
	if (store_warnings(st, ss->id, warn, nwarn) != 0) {
		*cause = xasprintf("session %lld: reading warnings: %s",
		    (long long)ss->id, store_error(st));
		return (-1);
	}
	return (0);
}

/* Each string a row of the one-column list t, which is left open. */
void
report_lines(struct report_out *o, const struct report_table *t,
    const char *const *lines, size_t n)
{
	struct report_cell	c;
	size_t			i;

	report_table(o, t);
	for (i = 0; i < n; i++) {
		c = report_str(lines[i]);
		report_row(o, &c);
	}
}

static void
report_warnings_rows(struct report_out *o, char **warn, size_t nwarn)
{
	report_lines(o, &report_tab_warnings, (const char *const *)warn,
	    nwarn);
	report_table_end(o);
}

static void
report_warnings_free(char **warn, size_t nwarn)
{
	size_t	i;

	for (i = 0; i < nwarn; i++)
		free(warn[i]);
	free(warn);
}

/*
 * A session's report in the shape every kind's has: the session's table
 * first (written here), then the kind's tables, tables[] in order, the
 * warnings among them where the kind calls report_session_warnings.
 * tables[] must outlive the report.  -1 and a cause before anything is
 * written if the warnings cannot be read.
 */
int
report_session_begin(struct report_session *rs, struct store *st,
    const struct store_session *ss, FILE *f, int format,
    const struct report_table **tables, size_t ntables, char **cause)
{
	memset(rs, 0, sizeof *rs);
	if (report_warnings_get(st, ss, &rs->warn, &rs->nwarn, cause) != 0)
		return (-1);
	rs->title = report_title(ss);
	rs->doc.title = rs->title;
	rs->doc.bare = 0;
	rs->doc.tables = tables;
	rs->doc.ntables = ntables;
	report_begin(&rs->out, f, format, &rs->doc);
	report_session_rows(&rs->out, ss, rs->nwarn);
	return (0);
}

/* The warnings' table, in its place among the kind's. */
void
report_session_warnings(struct report_session *rs)
{
	report_warnings_rows(&rs->out, rs->warn, rs->nwarn);
}

/* The report's end: 0, or -1 and a cause if it could not be written. */
int
report_session_end(struct report_session *rs, char **cause)
{
	int	rc = report_end(&rs->out, cause);

	report_warnings_free(rs->warn, rs->nwarn);
	free(rs->title);
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

/* -1 and a cause (if cause is not NULL) if a report missed its file. */
static int
report_flush(FILE *f, int format, char **cause)
{
	if (fflush(f) != 0 || ferror(f)) {
		if (cause != NULL)
			*cause = xasprintf("writing the %s report: %s",
			    report_names[format], strerror(errno != 0 ?
			    errno : EIO));
		return (-1);
	}
	return (0);
}

/* Finish the document; -1 if anything failed to reach the file. */
int
report_end(struct report_out *o, char **cause)
{
	o->ops->end(o);
	return (report_flush(o->f, o->format, cause));
}

void
report_trace_begin(struct report_trace *tr, FILE *f, int format)
{
	memset(tr, 0, sizeof *tr);
	tr->ops = report_trace_drivers[format];
	tr->f = f;
	tr->format = format;
	tr->ops->begin(tr);
}

/* Name the whole timeline (Chrome: the process). */
void
report_trace_name(struct report_trace *tr, const char *name)
{
	tr->ops->name(tr, name);
}

void
report_trace_track(struct report_trace *tr, unsigned track, const char *name)
{
	tr->ops->track(tr, track, name);
}

void
report_trace_span(struct report_trace *tr, const struct report_span *sp)
{
	struct report_span	s = *sp;

	/* Rounding must not make a span end before it starts. */
	if (!(s.dur_us >= 0))
		s.dur_us = 0;
	tr->ops->span(tr, &s);
}

void
report_trace_instant(struct report_trace *tr, const struct report_instant *in)
{
	tr->ops->instant(tr, in);
}

/* Finish the timeline; -1 if anything failed to reach the file. */
int
report_trace_end(struct report_trace *tr, char **cause)
{
	tr->ops->end(tr);
	return (report_flush(tr->f, tr->format, cause));
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
 * An integer or real cell as text.  A hex column's integers are unsigned
 * 64-bit values SQLite keeps as signed: an address of 2^63 or more (the
 * kernel's) is negative there and is made unsigned again for machines
 * too.  Reals of a column with no precision
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
		if (col->flags & REPORT_HEX)
			return (xasprintf("%llu", (unsigned long long)c->i));
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

/*
 * What a NULL cell says to a person: a dash in a session's report (a
 * literal NULL read as a name there), the column's own word where it has
 * one, and NULL in a query's results, as SQL says it.
 */
const char *
report_none(const struct report_col *col)
{
	if (col->flags & REPORT_SQLNULL)
		return ("NULL");
	if (col->flags & REPORT_ROOTNULL)
		return ("<spontaneous>");
	return ("-");
}

/*
 * A blob for humans: x'00ff', or only its size when it is too big to be
 * copied out of the query (STORE_BLOB_MAX).
 */
char *
report_blob_show(const struct report_cell *c)
{
	char	*hex, *s;

	if (c->s == NULL)
		return (xasprintf("[blob of %zu bytes]", c->len));
	hex = report_hex(c->s, c->len);
	s = xasprintf("x'%s'", hex);
	free(hex);
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
 * Decode one UTF-8 character (vis.c).  Names come from hostile files;
 * every output format must stay valid whatever they hold.
 */
int
report_utf8(const unsigned char *s, size_t len, size_t *adv)
{
	return (vis_utf8(s, len, adv));
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

/*
 * A name in a format of lines (collapsed stacks, callgrind), len bytes
 * of s: made safe as vis.c makes it, whether the export goes to a
 * terminal or a file.  A control character is no name's part in these
 * formats: a line end in it would split its line, an escape sequence
 * would drive the terminal it is read on.  Each ';', which separates
 * frames, is written as semi (0: as it is).
 */
void
report_put_name(FILE *f, const char *s, size_t len, int semi)
{
	char	*safe = NULL;
	size_t	 i;

	if (vis_needed(s, len)) {
		s = safe = vis_str(s, len);
		len = strlen(safe);
	}
	for (i = 0; i < len; i++)
		fputc(s[i] == ';' && semi != 0 ? semi : s[i], f);
	free(safe);
}

/*
 * Where an export writes, from the command line or the browser: a FIFO
 * or a device as it is (a FIFO no process reads fails at once rather
 * than hang), else through outfile.c, as the capture tools write: a file
 * 0600 (a profile is the program's data), named only once whole and
 * renamed over path, so that a failed export leaves path as it was and
 * a symlink planted at path is replaced, never written through.
 */
int
report_file_open(struct report_file *o, const char *path, char **cause)
{
	struct stat	 sb;
	int		 fd, fl;

	memset(o, 0, sizeof *o);
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) &&
	    !S_ISDIR(sb.st_mode)) {
		o->direct = 1;
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd == -1 && errno == ENXIO) {
			*cause = xasprintf("%s: a FIFO that no process reads",
			    path);
			return (-1);
		}
		if (fd != -1 && (fl = fcntl(fd, F_GETFL)) != -1)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
		if (fd == -1 || (o->f = fdopen(fd, "w")) == NULL) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			if (fd != -1)
				close(fd);
			return (-1);
		}
		return (0);
	}
	if ((o->f = outfile_fopen(&o->of, path, "w")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	return (0);
}

/*
 * Finish the output: put it in place if rc is 0, else drop it.  -1 if
 * rc was not 0 (*cause untouched) or the file could not be finished
 * (*cause says why).
 */
int
report_file_close(struct report_file *o, const char *path, int rc,
    char **cause)
{
	if (o->direct) {
		if (fclose(o->f) != 0 && rc == 0) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			rc = -1;
		}
		return (rc);
	}
	if (rc != 0) {
		outfile_fabort(&o->of, o->f);
		return (rc);
	}
	if (outfile_fclose(&o->of, o->f) != 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	return (0);
}
