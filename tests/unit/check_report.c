/*
 * Reports: a PRF session with known counts and symbols, written in every
 * format and checked against numbers worked out by hand; an OVD session
 * through the same model, in the same shape; its timeline; query results
 * with every SQLite type; the browser's current-view export; errors.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "xmalloc.h"
#include "kind.h"
#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "analyze/ovd.h"
#include "ingest/ingest.h"
#include "report/report.h"
#include "report/prf.h"
#include "store/store.h"

/*
 * FOO.PRF: PSP at 1000h, 8 buckets of one paragraph, counts 10 0 5 0 0
 * 20 0 3, and 2 I/O, 7 DOS, 1 high hits: 48 samples in all.
 */
static const uint16_t	foo_prf[] = {
	54925, 8, 1, 0x1000, 0x1008, 0x0070, 2, 7, 1,
	10, 0, 5, 0, 0, 20, 0, 3
};

/* Symbols: start covers buckets 0-1, the odd names 2-4 and 5. */
#define NAME_QUOTE	"lo\"op, x"
#define NAME_HTML	"<script>&\"x'"

static char		 tmpdir[64];
static struct store	*st;
static int64_t		 sid;

static void
write_file(const char *path, const void *buf, size_t len)
{
	FILE	*f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static void
setup(void)
{
	uint8_t			 buf[sizeof foo_prf];
	char			 path[128], *cause = NULL;
	const char		*kind;
	size_t			 i;
	int			 reused;

	for (i = 0; i < sizeof foo_prf / 2; i++) {
		buf[2 * i] = foo_prf[i] & 0xff;
		buf[2 * i + 1] = foo_prf[i] >> 8;
	}
	snprintf(tmpdir, sizeof tmpdir, "/tmp/pvreportXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(path, sizeof path, "%s/FOO.PRF", tmpdir);
	write_file(path, buf, sizeof buf);

	st = store_open(":memory:", 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_msg(ingest_file(st, path, NULL, &sid, &kind, &reused,
	    &cause) == 0, "%s", cause);
	ck_assert_int_eq(store_begin(st, &cause), 0);
	ck_assert_int_eq(store_symbol_add(st, sid, "MAIN", "start", 0x10000,
	    32), 0);
	ck_assert_int_eq(store_symbol_add(st, sid, "MAIN", NAME_QUOTE,
	    0x10020, 48), 0);
	ck_assert_int_eq(store_symbol_add(st, sid, NULL, NAME_HTML, 0x10050,
	    16), 0);
	ck_assert_int_eq(store_commit(st, &cause), 0);
	unlink(path);
}

static void
teardown(void)
{
	store_close(st);
	rmdir(tmpdir);
}

/* The report of session id in format f, as one string. */
static char *
session_report(int64_t id, int f)
{
	FILE	*mf;
	char	*buf = NULL, *cause = NULL;
	size_t	 len = 0;
	int	 rc;

	mf = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(mf);
	rc = report_session(st, id, f, mf, &cause);
	fclose(mf);
	ck_assert_msg(rc == 0, "%s", cause);
	return (buf);
}

/* Run sql and write its rows in format f; *rc gets report_query's. */
static char *
stmt_report(const char *sql, int f, int *rc, char **cause)
{
	struct store_query	*q;
	FILE			*mf;
	char			*buf = NULL;
	size_t			 len = 0;

	q = store_query_open(st, &sql, cause);
	ck_assert_msg(q != NULL, "%s", *cause);
	mf = open_memstream(&buf, &len);
	*cause = NULL;
	*rc = report_query(q, f, mf, cause);
	fclose(mf);
	store_query_close(q);
	return (buf);
}

/* The line of text that contains needle, copied; NULL if none. */
static char *
line_with(const char *text, const char *needle)
{
	const char	*p = strstr(text, needle), *b, *e;

	if (p == NULL)
		return (NULL);
	for (b = p; b > text && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	return (strndup(b, e != NULL ? (size_t)(e - b) : strlen(b)));
}

/* The line after the one starting with heading. */
static const char *
section(const char *text, const char *heading)
{
	const char	*p = strstr(text, heading);

	ck_assert_msg(p != NULL, "no section %s", heading);
	return (strchr(p, '\n') + 1);
}

START_TEST(test_text_header_and_flat_profile)
{
	char		*r = session_report(sid, REPORT_TEXT), *l;
	const char	*flat, *p, *q, *s;
	size_t		 n;

	ck_assert_ptr_nonnull(strstr(r, "profview report: session"));
	l = line_with(r, "clock_grain");
	ck_assert_ptr_nonnull(strstr(l, "54925"));
	free(l);
	l = line_with(r, "prog_low_pa");
	ck_assert_ptr_nonnull(strstr(l, "1000h"));
	free(l);
	/* 2 of 48 samples in the I/O system. */
	l = line_with(r, "I/O system (below");
	ck_assert_ptr_nonnull(strstr(l, " 2 "));
	ck_assert_ptr_nonnull(strstr(l, "4.17"));
	free(l);
	l = line_with(r, "all samples");
	ck_assert_ptr_nonnull(strstr(l, "48"));
	ck_assert_ptr_nonnull(strstr(l, "100.00"));
	free(l);

	/* Flat profile in hits order: <script> 20, start 10, lo"op 5. */
	flat = section(r, "Flat profile (3 symbols");
	p = strstr(flat, NAME_HTML);
	q = strstr(flat, "start");
	s = strstr(flat, NAME_QUOTE);
	ck_assert(p != NULL && q != NULL && s != NULL);
	ck_assert(p < q && q < s);
	l = line_with(flat, NAME_HTML);
	/* Every share here is exact: no mark, no bounds. */
	/* The address as seg:off from the PSP, the linear one beside it. */
	ck_assert_msg(strncmp(l, "    41.67            41.67  20.0  1000:0050"
	    "   10050    16  ", 59) == 0, "%s", l);
	free(l);
	l = line_with(flat, "start");
	ck_assert_msg(strstr(l, "20.83            62.50  10.0  1000:0000"
	    "   10000    32  MAIN    start") != NULL, "%s", l);
	ck_assert_ptr_nonnull(strstr(l, "10000"));
	free(l);
	l = line_with(flat, NAME_QUOTE);
	ck_assert_msg(strstr(l, "10.42            72.92   5.0  1000:0020"
	    "   10020    48  MAIN    " NAME_QUOTE) != NULL, "%s", l);
	free(l);

	/* Only the 4 buckets with hits; the rest are counted. */
	p = section(r, "Buckets (4 of 8 have hits");
	ck_assert_ptr_nonnull(strstr(p, "10050-1005F  1000:0050    20  41.67"));
	ck_assert_ptr_null(strstr(p, "10010-1001F"));
	for (n = 0, q = strchr(p, '\n') + 1; *q != '\n'; q = strchr(q, '\n') +
	    1)
		n++;
	ck_assert_uint_eq(n, 4);

	/* Every line fits 100 columns. */
	for (p = r; *p != '\0'; p = q + 1) {
		q = strchr(p, '\n');
		ck_assert_ptr_nonnull(q);
		ck_assert_msg(q - p <= 100, "%.*s", (int)(q - p), p);
	}
	free(r);
}
END_TEST

/*
 * A small RFC 4180 reader: the fields of each record, and a check that
 * every record has as many fields as the header.
 */
struct csv {
	char	***rec;
	size_t	  *nf;
	size_t	   n;
};

static void
csv_parse(const char *s, struct csv *c)
{
	char	 field[4096];
	size_t	 fl = 0;
	int	 quoted = 0, eor;

	memset(c, 0, sizeof *c);
	while (*s != '\0') {
		c->rec = realloc(c->rec, (c->n + 1) * sizeof *c->rec);
		c->nf = realloc(c->nf, (c->n + 1) * sizeof *c->nf);
		c->rec[c->n] = NULL;
		c->nf[c->n] = 0;
		for (eor = 0; !eor;) {
			fl = 0;
			quoted = (*s == '"');
			if (quoted) {
				for (s++;; s++) {
					ck_assert_msg(*s != '\0', "open quote");
					if (*s == '"' && s[1] == '"')
						field[fl++] = *s++;
					else if (*s == '"')
						break;
					else
						field[fl++] = *s;
				}
				s++;
				ck_assert(*s == ',' || *s == '\n');
			} else {
				while (*s != ',' && *s != '\n' && *s != '\0') {
					ck_assert(*s != '"');
					field[fl++] = *s++;
				}
			}
			field[fl] = '\0';
			c->rec[c->n] = realloc(c->rec[c->n], (c->nf[c->n] + 1) *
			    sizeof **c->rec);
			c->rec[c->n][c->nf[c->n]++] = strdup(field);
			eor = (*s != ',');
			if (*s != '\0')
				s++;
		}
		c->n++;
	}
}

static void
csv_free(struct csv *c)
{
	size_t	i, k;

	for (i = 0; i < c->n; i++) {
		for (k = 0; k < c->nf[i]; k++)
			free(c->rec[i][k]);
		free(c->rec[i]);
	}
	free(c->rec);
	free(c->nf);
}

static int
csv_col(const struct csv *c, const char *name)
{
	size_t	k;

	for (k = 0; k < c->nf[0]; k++) {
		if (strcmp(c->rec[0][k], name) == 0)
			return ((int)k);
	}
	ck_abort_msg("no column %s", name);
	return (-1);
}

START_TEST(test_csv_parses)
{
	char		*r = session_report(sid, REPORT_CSV);
	struct csv	 c;
	size_t		 i, buckets = 0, symbols = 0;
	int		 name, hits, pct, cum;

	csv_parse(r, &c);
	ck_assert_uint_gt(c.n, 10);
	ck_assert_str_eq(c.rec[0][0], "section");
	for (i = 1; i < c.n; i++)
		ck_assert_uint_eq(c.nf[i], c.nf[0]);
	name = csv_col(&c, "name");
	hits = csv_col(&c, "hits");
	pct = csv_col(&c, "percent");
	cum = csv_col(&c, "cumulative");
	for (i = 1; i < c.n; i++) {
		if (strcmp(c.rec[i][0], "buckets") == 0)
			buckets++;
		if (strcmp(c.rec[i][0], "symbols") != 0)
			continue;
		symbols++;
		if (strcmp(c.rec[i][name], NAME_QUOTE) == 0) {
			ck_assert_str_eq(c.rec[i][hits], "5");
			ck_assert_str_eq(c.rec[i][pct], "10.4167");
			ck_assert_str_eq(c.rec[i][cum], "72.9167");
		}
	}
	/* Zero-hit buckets are in the CSV. */
	ck_assert_uint_eq(buckets, 8);
	ck_assert_uint_eq(symbols, 3);
	/* The quoting itself. */
	ck_assert_ptr_nonnull(strstr(r, ",\"lo\"\"op, x\","));
	csv_free(&c);
	free(r);
}
END_TEST

/*
 * A JSON (RFC 8259) validator: returns the end of the value at s or NULL.
 * Strings must be valid UTF-8 without raw control characters.
 */
static const char *json_value(const char *);

static const char *
json_ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return (s);
}

static const char *
json_string(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 adv;
	int			 i;

	if (*p++ != '"')
		return (NULL);
	while (*p != '"') {
		if (*p < 0x20)
			return (NULL);
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (i = 1; i <= 4; i++) {
					if (strchr("0123456789abcdefABCDEF",
					    p[i]) == NULL || p[i] == '\0')
						return (NULL);
				}
				p += 5;
			} else if (*p != '\0' && strchr("\"\\/bfnrt", *p) !=
			    NULL)
				p++;
			else
				return (NULL);
			continue;
		}
		if (report_utf8(p, strlen((const char *)p), &adv) < 0)
			return (NULL);
		p += adv;
	}
	return ((const char *)p + 1);
}

static const char *
json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return (NULL);
	if (*s == '.') {
		if (*++s < '0' || *s > '9')
			return (NULL);
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return (NULL);
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return (s);
}

static const char *
json_value(const char *s)
{
	int	obj;

	s = json_ws(s);
	if (*s == '{' || *s == '[') {
		obj = (*s++ == '{');
		s = json_ws(s);
		if (*s == (obj ? '}' : ']'))
			return (s + 1);
		for (;;) {
			if (obj) {
				if ((s = json_string(json_ws(s))) == NULL)
					return (NULL);
				s = json_ws(s);
				if (*s++ != ':')
					return (NULL);
			}
			if ((s = json_value(s)) == NULL)
				return (NULL);
			s = json_ws(s);
			if (*s == ',') {
				s++;
				continue;
			}
			if (*s != (obj ? '}' : ']'))
				return (NULL);
			return (s + 1);
		}
	}
	if (*s == '"')
		return (json_string(s));
	if (strncmp(s, "true", 4) == 0 || strncmp(s, "null", 4) == 0)
		return (s + 4);
	if (strncmp(s, "false", 5) == 0)
		return (s + 5);
	return (json_number(s));
}

static int
json_valid(const char *s)
{
	const char	*e = json_value(s);

	return (e != NULL && *json_ws(e) == '\0');
}

START_TEST(test_json_valid_and_numbers_match)
{
	char		*r = session_report(sid, REPORT_JSON);
	const char	*p;
	size_t		 n = 0;

	ck_assert_msg(json_valid(r), "%s", r);
	/* The validator itself rejects what it must. */
	ck_assert(!json_valid("{\"a\": 1,}"));
	ck_assert(!json_valid("[\"\x01\"]"));
	ck_assert(!json_valid("[\"\xff\"]"));

	ck_assert_ptr_nonnull(strstr(r, "\"clock_grain\": 54925"));
	ck_assert_ptr_nonnull(strstr(r,
	    "\"hit_io\": {\"hits\": 2, \"percent\": 4.1667}"));
	ck_assert_ptr_nonnull(strstr(r,
	    "\"total\": {\"hits\": 48, \"percent\": 100}"));
	ck_assert_ptr_nonnull(strstr(r, "\"name\": \"lo\\\"op, x\""));
	ck_assert_ptr_nonnull(strstr(r, "\"warnings\": []"));
	/* Every bucket, zero hits too. */
	p = strstr(r, "\"buckets\": [");
	ck_assert_ptr_nonnull(p);
	for (; (p = strstr(p, "{\"idx\": ")) != NULL; p++)
		n++;
	ck_assert_uint_eq(n, 8);
	ck_assert_ptr_nonnull(strstr(r, "{\"idx\": 1, \"lo\": 65552, \"hi\":"
	    " 65568, \"seg_off\": \"1000:0010\", \"hits\": 0, \"percent\": 0,"
	    " \"symbols\": \"start\"}"));
	free(r);
}
END_TEST

START_TEST(test_html_escapes)
{
	char	*r = session_report(sid, REPORT_HTML);

	ck_assert_ptr_nonnull(strstr(r, "<!DOCTYPE html>"));
	ck_assert_ptr_nonnull(strstr(r, "&lt;script&gt;&amp;&quot;x&#39;"));
	ck_assert_ptr_null(strstr(r, "<script"));
	ck_assert_ptr_null(strstr(r, "href="));
	ck_assert_ptr_null(strstr(r, "src="));
	ck_assert_ptr_nonnull(strstr(r, "<style>"));
	/* A bar per row, as wide as its share. */
	ck_assert_ptr_nonnull(strstr(r, "<td class=\"bar\"><span style=\""
	    "width:41.67%\">"));
	ck_assert_ptr_nonnull(strstr(r, "</html>\n"));
	free(r);
}
END_TEST

START_TEST(test_hostile_names_stay_valid)
{
	char	*cause = NULL, *r;

	ck_assert_int_eq(store_begin(st, &cause), 0);
	ck_assert_int_eq(store_symbol_add(st, sid, "M\x1b[2J",
	    "bad\xff\xc0\x80name\n", 0x10070, 16), 0);
	ck_assert_int_eq(store_commit(st, &cause), 0);

	r = session_report(sid, REPORT_TEXT);
	ck_assert_ptr_null(strchr(r, '\x1b'));
	ck_assert_ptr_null(strstr(r, "\xff"));
	ck_assert_ptr_nonnull(strstr(r, "bad\\xFF\\xC0\\x80name\\n"));
	free(r);
	r = session_report(sid, REPORT_JSON);
	ck_assert_msg(json_valid(r), "%s", r);
	ck_assert_ptr_nonnull(strstr(r, "\"M\\u001b[2J\""));
	ck_assert_ptr_nonnull(strstr(r, "bad\\ufffd\\ufffd\\ufffdname\\n"));
	free(r);
	r = session_report(sid, REPORT_HTML);
	ck_assert_ptr_null(strchr(r, '\x1b'));
	ck_assert_ptr_null(strstr(r, "\xff"));
	free(r);
}
END_TEST

#define TYPES_SQL \
	"SELECT 1 AS i, 2.5 AS r, NULL AS n, x'00ff' AS b, 'a,\"b' AS t," \
	" 1.0 AS r" \
	" UNION ALL SELECT -7, 1e300, 'NULL', x'', '', 3"

START_TEST(test_stmt_types)
{
	char	*r, *cause;
	int	 rc;

	r = stmt_report(TYPES_SQL, REPORT_TEXT, &rc, &cause);
	ck_assert_msg(rc == 0, "%s", cause);
	/* NULL as the :sql view shows it; the string 'NULL' aligns left. */
	ck_assert_str_eq(r,
	    " i       r  n     b        t       r\n"
	    "--  ------  ----  -------  ----  ---\n"
	    " 1     2.5  NULL  x'00ff'  a,\"b  1.0\n"
	    "-7  1e+300  NULL  x''              3\n");
	free(r);

	r = stmt_report(TYPES_SQL, REPORT_CSV, &rc, &cause);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(r,
	    "i,r,n,b,t,r_2\n"
	    "1,2.5,,00ff,\"a,\"\"b\",1.0\n"
	    "-7,1.0000000000000001e+300,NULL,\"\",\"\",3\n");
	free(r);

	r = stmt_report(TYPES_SQL, REPORT_JSON, &rc, &cause);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(json_valid(r), "%s", r);
	ck_assert_str_eq(r, "[\n"
	    "  {\"i\": 1, \"r\": 2.5, \"n\": null, \"b\": \"00ff\","
	    " \"t\": \"a,\\\"b\", \"r_2\": 1.0},\n"
	    "  {\"i\": -7, \"r\": 1.0000000000000001e+300, \"n\": \"NULL\","
	    " \"b\": \"\", \"t\": \"\", \"r_2\": 3}\n"
	    "]\n");
	free(r);

	r = stmt_report(TYPES_SQL, REPORT_HTML, &rc, &cause);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(r, "<thead><tr><th>i</th><th>r</th>"
	    "<th>n</th><th>b</th><th>t</th><th>r</th></tr></thead>"));
	ck_assert_ptr_nonnull(strstr(r, "<td class=\"null\">NULL</td>"
	    "<td>x'00ff'</td>"));
	ck_assert_ptr_nonnull(strstr(r, "<td>a,&quot;b</td>"));
	free(r);

	/* Valid UTF-8 passes through and counts one column a character. */
	r = stmt_report("SELECT 'd\xc3\xa9j\xc3\xa0' AS w, 1 AS n",
	    REPORT_JSON, &rc, &cause);
	ck_assert_str_eq(r, "[\n  {\"w\": \"d\xc3\xa9j\xc3\xa0\", \"n\": 1}\n]\n");
	free(r);
	r = stmt_report("SELECT 'd\xc3\xa9j\xc3\xa0' AS w, 1 AS n",
	    REPORT_TEXT, &rc, &cause);
	ck_assert_str_eq(r, "w     n\n----  -\nd\xc3\xa9j\xc3\xa0  1\n");
	free(r);

	/* No rows: the header still tells the columns; json is []. */
	r = stmt_report("SELECT 1 AS one WHERE 0", REPORT_JSON, &rc, &cause);
	ck_assert_str_eq(r, "[]\n");
	free(r);
	r = stmt_report("SELECT 1 AS one WHERE 0", REPORT_CSV, &rc, &cause);
	ck_assert_str_eq(r, "one\n");
	free(r);
}
END_TEST

START_TEST(test_stmt_errors_and_big_results)
{
	char		*r, *cause, *l;
	const char	*p;
	size_t		 lines = 0;
	int		 rc;

	/* An error only step finds. */
	r = stmt_report("SELECT abs(-9223372036854775807 - 1)", REPORT_JSON,
	    &rc, &cause);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_nonnull(strstr(cause, "integer overflow"));
	free(cause);
	free(r);

	/* Small results align; past the cap they are tab-separated. */
	r = stmt_report("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT"
	    " x + 1 FROM c WHERE x < 100) SELECT x, 'v' || x AS v FROM c",
	    REPORT_TEXT, &rc, &cause);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_null(strchr(r, '\t'));
	l = line_with(r, "v100");
	ck_assert_str_eq(l, "100  v100");
	free(l);
	free(r);
	r = stmt_report("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT"
	    " x + 1 FROM c WHERE x < 25000) SELECT x, 'v' || x AS v FROM c",
	    REPORT_TEXT, &rc, &cause);
	ck_assert_int_eq(rc, 0);
	ck_assert(strncmp(r, "x\tv\n1\tv1\n", 9) == 0);
	for (p = r; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	ck_assert_uint_eq(lines, 25001);
	ck_assert_ptr_nonnull(strstr(r, "\n25000\tv25000\n"));
	free(r);
}
END_TEST

START_TEST(test_session_errors)
{
	FILE			*mf;
	char			*buf = NULL, *cause = NULL;
	const char		*sql;
	size_t			 len = 0;
	struct store_query	*q;
	int64_t			 prfd;

	mf = open_memstream(&buf, &len);
	ck_assert_int_eq(report_session(st, 99, REPORT_TEXT, mf, &cause), -1);
	ck_assert_str_eq(cause, "no session 99");
	free(cause);

	/* A session without its kind's rows says so (every kind the
	 * session table allows has a writer now). */
	ck_assert_int_eq(store_begin(st, &cause), 0);
	prfd = store_session_add(st, "prfd", "x.dmp", "00", 1, "X", NULL,
	    &cause);
	ck_assert_int_gt(prfd, 0);
	ck_assert_int_eq(store_commit(st, &cause), 0);
	ck_assert_int_eq(report_session(st, prfd, REPORT_JSON, mf, &cause),
	    -1);
	ck_assert_msg(strstr(cause, "has no Dos32Profile dump") != NULL, "%s",
	    cause);
	free(cause);

	/* A timeline format is refused for a histogram, before any output,
	 * naming what the kind does export. */
	ck_assert_int_eq(report_session(st, 1, REPORT_CHROME, mf, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "no chrome report for kind prf"));
	ck_assert_msg(strstr(cause, "text, csv, json, html") != NULL, "%s",
	    cause);
	free(cause);
	fclose(mf);
	ck_assert_uint_eq(len, 0);
	free(buf);

	/* A statement without result columns just runs. */
	sql = "DELETE FROM warning";
	q = store_query_open(st, &sql, &cause);
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(report_query(q, REPORT_JSON, stdout, &cause), 0);
	store_query_close(q);
}
END_TEST

/*
 * A bucket two symbols share: their shares are estimates, marked in the
 * text with their bounds, and said to be in csv and json.
 */
START_TEST(test_estimates_marked)
{
	static const uint16_t	 prf[] = {
		54925, 2, 1, 0x1000, 0x1002, 0x0070, 0, 0, 0, 12, 4
	};
	uint8_t			 bytes[sizeof prf];
	struct store		*s2, *keep = st;
	struct csv		 c;
	char			*cause = NULL, *r, *l;
	const char		*kind;
	int64_t			 id;
	size_t			 i;
	int			 reused;

	for (i = 0; i < sizeof prf / 2; i++) {
		bytes[2 * i] = prf[i] & 0xff;
		bytes[2 * i + 1] = prf[i] >> 8;
	}
	s2 = store_open(":memory:", 0, kind_store(), &cause);
	ck_assert_msg(s2 != NULL, "%s", cause);
	ck_assert_int_eq(ingest_bytes(s2, "/nonexistent/E.PRF", bytes,
	    sizeof bytes, NULL, &id, &kind, &reused, &cause), 0);
	/* a: bucket 0's first 8 bytes; b: its last 8 and all of bucket 1. */
	ck_assert_int_eq(store_begin(s2, &cause), 0);
	ck_assert_int_eq(store_symbol_add(s2, id, NULL, "a", 0x10000, 8), 0);
	ck_assert_int_eq(store_symbol_add(s2, id, NULL, "b", 0x10008, 24),
	    0);
	ck_assert_int_eq(store_commit(s2, &cause), 0);
	st = s2;

	/* b: 6 of bucket 0 and all 4 of 1; between 4 and 16 of 16. */
	r = session_report(id, REPORT_TEXT);
	l = line_with(section(r, "Flat profile (2 symbols"), "  b\n");
	ck_assert_msg(strstr(l, " ~62.50  (25.00\u2013100.00)   62.50  10.0")
	    != NULL, "%s", l);
	free(l);
	l = line_with(section(r, "Flat profile (2 symbols"), "  a\n");
	ck_assert_msg(strstr(l, " ~37.50  (0.00\u201375.00)") != NULL, "%s",
	    l);
	free(l);
	ck_assert_ptr_nonnull(strstr(r, "split         bytes"));
	free(r);

	r = session_report(id, REPORT_CSV);
	csv_parse(r, &c);
	for (i = 0; i < c.n; i++) {
		if (strcmp(c.rec[i][0], "symbols") != 0 ||
		    strcmp(c.rec[i][csv_col(&c, "name")], "b") != 0)
			continue;
		ck_assert_str_eq(c.rec[i][csv_col(&c, "exact")], "0");
		ck_assert_str_eq(c.rec[i][csv_col(&c, "percent_lo")], "25");
		ck_assert_str_eq(c.rec[i][csv_col(&c, "percent_hi")], "100");
		ck_assert_str_eq(c.rec[i][csv_col(&c, "hits_lo")], "4");
		ck_assert_str_eq(c.rec[i][csv_col(&c, "hits_hi")], "16");
	}
	csv_free(&c);
	free(r);

	r = session_report(id, REPORT_JSON);
	ck_assert(json_valid(r));
	ck_assert_ptr_nonnull(strstr(r, "{\"percent\": 62.5, \"percent_lo\":"
	    " 25, \"percent_hi\": 100, \"exact\": 0, \"cumulative\": 62.5,"
	    " \"hits\": 10, \"hits_lo\": 4, \"hits_hi\": 16,"));
	ck_assert_ptr_nonnull(strstr(r, "\"hit_table\": 0"));
	free(r);
	store_close(s2);
	st = keep;
}
END_TEST

START_TEST(test_hist_current_view)
{
	struct analyze_hist	 h;
	FILE			*mf;
	char			*buf = NULL, *cause = NULL;
	size_t			 len = 0;
	struct csv		 c;

	ck_assert_msg(analyze_hist_load(st, sid, &h, &cause) == 0, "%s",
	    cause);
	/* Zoom level 1: pairs of buckets, those with hits only. */
	mf = open_memstream(&buf, &len);
	ck_assert_int_eq(report_hist(&h, 1, REPORT_HIST_NONZERO, REPORT_CSV,
	    mf, &cause), 0);
	fclose(mf);
	csv_parse(buf, &c);
	ck_assert_uint_eq(c.n, 1 + 4);	/* 10+0, 5+0, 0+20, 0+3 */
	ck_assert_str_eq(c.rec[1][csv_col(&c, "hits")], "10");
	ck_assert_str_eq(c.rec[2][csv_col(&c, "lo")], "65568");
	ck_assert_str_eq(c.rec[3][csv_col(&c, "hits")], "20");
	ck_assert_str_eq(c.rec[4][csv_col(&c, "hits")], "3");
	ck_assert_str_eq(c.rec[4][csv_col(&c, "hi")], "65664");
	csv_free(&c);
	free(buf);

	/* The flat profile view. */
	buf = NULL;
	mf = open_memstream(&buf, &len);
	ck_assert_int_eq(report_hist(&h, 0, REPORT_HIST_FLAT, REPORT_JSON, mf,
	    &cause), 0);
	fclose(mf);
	ck_assert(json_valid(buf));
	ck_assert(buf[0] == '[');
	ck_assert_ptr_nonnull(strstr(buf, "{\"percent\": 41.6667,"
	    " \"percent_lo\": 41.6667, \"percent_hi\": 41.6667, \"exact\": 1,"
	    " \"cumulative\": 41.6667, \"hits\": 20, \"hits_lo\": 20,"
	    " \"hits_hi\": 20, \"seg_off\": \"1000:0050\", \"addr\": 65616,"
	    " \"size\": 16,"
	    " \"module\": \"\", \"name\": \"<script>&\\\"x'\"}"));
	free(buf);

	buf = NULL;
	mf = open_memstream(&buf, &len);
	ck_assert_int_eq(report_hist(&h, 99, 0, REPORT_TEXT, mf, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "no zoom level 99"));
	free(cause);
	fclose(mf);
	free(buf);
	analyze_hist_free(&h);
}
END_TEST


/*
 * BAR.OVD: units OVLA at 0040h (48 bytes) and OVLB at 0044h (64); OVLA
 * loads into a buffer at 3000h..3008h, OVLB beside it, OVLA is
 * reprieved, then the buffer moves to 5000h..5010h and OVLA loads alone:
 * four events, three stays.
 */
static int64_t	oid;

static void
ob16(uint8_t *b, size_t *n, unsigned v)
{
	b[(*n)++] = v & 0xff;
	b[(*n)++] = (v >> 8) & 0xff;
}

static void
ob32(uint8_t *b, size_t *n, uint32_t v)
{
	ob16(b, n, v & 0xffff);
	ob16(b, n, v >> 16);
}

/* Event: ticks, a new buffer if org != 0, unit and offset, load list. */
static void
ob_event(uint8_t *b, size_t *n, uint32_t t, unsigned org, unsigned end,
    unsigned seg, unsigned ofs, const unsigned *pairs)
{
	ob32(b, n, t);
	if (org != 0) {
		ob16(b, n, 0xffff);
		ob16(b, n, org);
		ob16(b, n, end);
	}
	ob16(b, n, seg);
	ob16(b, n, ofs);
	for (; pairs != NULL && pairs[0] != 0; pairs += 2) {
		ob16(b, n, pairs[0]);
		ob16(b, n, pairs[1]);
	}
	ob16(b, n, 0);
}

/* Name the unit at stat_seg seg: any bytes, as a hostile map could. */
static void
unit_name(unsigned seg, const char *name)
{
	sqlite3_stmt	*s;

	ck_assert_int_eq(sqlite3_prepare_v2(store_db(st), "UPDATE ovr_unit"
	    " SET name = ?1 WHERE session = ?2 AND stat_seg = ?3", -1, &s,
	    NULL), SQLITE_OK);
	sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, oid);
	sqlite3_bind_int(s, 3, (int)seg);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
}

static int64_t
count(const char *sql)
{
	sqlite3_stmt	*s;
	int64_t		 n = -1;

	ck_assert_int_eq(sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL),
	    SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return (n);
}

static void
setup_ovd(void)
{
	static const unsigned	 l0[] = { 0x40, 0x3000, 0 };
	static const unsigned	 l1[] = { 0x40, 0x3000, 0x44, 0x3003, 0 };
	static const unsigned	 l3[] = { 0x40, 0x5000, 0 };
	uint8_t			 b[256];
	char			 path[128], *cause = NULL;
	const char		*kind;
	size_t			 n = 0;
	int			 reused;

	setup();
	ob16(b, &n, 1);
	ob16(b, &n, 0x1a2b);
	ob16(b, &n, 0x40); ob32(b, &n, 0x200); ob16(b, &n, 48);
	ob16(b, &n, 16); ob16(b, &n, 2);
	ob16(b, &n, 0x44); ob32(b, &n, 0x300); ob16(b, &n, 64);
	ob16(b, &n, 16); ob16(b, &n, 1);
	ob16(b, &n, 0);
	ob_event(b, &n, 100, 0x3000, 0x3008, 0x40, 0x05, l0);
	ob_event(b, &n, 110, 0, 0, 0x44, 0x00, l1);
	ob_event(b, &n, 115, 0, 0, 0x40, 0x05, NULL);
	ob_event(b, &n, 130, 0x5000, 0x5010, 0x40, 0x00, l3);
	snprintf(path, sizeof path, "%s/BAR.OVD", tmpdir);
	write_file(path, b, n);
	ck_assert_msg(ingest_file(st, path, NULL, &oid, &kind, &reused,
	    &cause) == 0, "%s", cause);
	ck_assert_str_eq(kind, "ovd");
	unlink(path);
	unit_name(0x40, "OVLA");
	unit_name(0x44, "OVLB");
}

/* Number of times needle occurs in s. */
static size_t
occurs(const char *s, const char *needle)
{
	size_t	n = 0;

	for (; (s = strstr(s, needle)) != NULL; s++)
		n++;
	return (n);
}

START_TEST(test_ovd_text)
{
	char	*r = session_report(oid, REPORT_TEXT), *l;

	ck_assert_ptr_nonnull(strstr(r, "profview report: session"));
	ck_assert_ptr_nonnull(strstr(r, "\nOVD header\n"));
	l = line_with(r, "prefix_seg");
	ck_assert_ptr_nonnull(strstr(l, "1A2Bh"));
	free(l);
	/* The per-unit summary: OVLA loaded twice and reprieved once. */
	l = line_with(section(r, "Units (2 overlaid)"), "OVLA");
	ck_assert_msg(strstr(l, "0040    48      2          1") != NULL,
	    "%s", l);
	free(l);
	/* Both buffers, with their sizes. */
	l = line_with(section(r, "Overlay buffer"), "5000h..5010h");
	ck_assert_msg(strstr(l, "256") != NULL, "%s", l);
	free(l);
	/* The listing: the buffer where it changes, the load lists. */
	l = line_with(section(r, "Events (4: 3 loads, 1 reprieves)"),
	    "OVLA@3000h OVLB@3003h");
	ck_assert_msg(strstr(l, " load ") != NULL &&
	    strstr(l, "..") == NULL, "%s", l);
	free(l);
	l = line_with(r, "reprieve  OVLA");
	ck_assert_msg(strchr(l, '@') == NULL, "%s", l);
	free(l);
	l = line_with(r, "OVLA@5000h");
	ck_assert_msg(strstr(l, "5000h..5010h") != NULL, "%s", l);
	free(l);
	free(r);
}
END_TEST

START_TEST(test_ovd_html)
{
	char	*r = session_report(oid, REPORT_HTML);

	ck_assert_ptr_nonnull(strstr(r, "<!DOCTYPE html>"));
	ck_assert_ptr_nonnull(strstr(r, "<h2>Units (2 overlaid)</h2>"));
	ck_assert_ptr_nonnull(strstr(r, "<td>OVLA@3000h OVLB@3003h</td>"));
	ck_assert_ptr_nonnull(strstr(r, "<td class=\"bar\">"));
	ck_assert_ptr_nonnull(strstr(r, "</html>\n"));
	free(r);
}
END_TEST

START_TEST(test_same_name_same_json)
{
	char	*cause = NULL, *prf, *ovd;

	ck_assert_int_eq(store_begin(st, &cause), 0);
	ck_assert_int_eq(store_symbol_add(st, sid, "MAIN", "Gr\xc3\xbcn",
	    0x10070, 16), 0);
	ck_assert_int_eq(store_commit(st, &cause), 0);
	unit_name(0x40, "Gr\xc3\xbcn");

	prf = session_report(sid, REPORT_JSON);
	ovd = session_report(oid, REPORT_JSON);
	ck_assert_ptr_nonnull(strstr(prf, "\"name\": \"Gr\xc3\xbcn\""));
	ck_assert_ptr_nonnull(strstr(ovd, "\"name\": \"Gr\xc3\xbcn\""));
	ck_assert_ptr_nonnull(strstr(ovd, "\"unit\": \"Gr\xc3\xbcn\""));
	ck_assert_ptr_null(strstr(ovd, "\\u00"));
	free(prf);
	free(ovd);
}
END_TEST

/* The member names of the JSON object at s, in order; their number. */
static size_t
json_keys(const char *s, char keys[][32], size_t max)
{
	const char	*e;
	size_t		 n = 0;

	s = json_ws(s);
	ck_assert(*s++ == '{');
	for (;;) {
		s = json_ws(s);
		if (*s == '}')
			break;
		e = json_string(s);
		ck_assert_ptr_nonnull(e);
		ck_assert(n < max && e - s - 2 < 32);
		memcpy(keys[n], s + 1, (size_t)(e - s - 2));
		keys[n++][e - s - 2] = '\0';
		s = json_ws(e);
		ck_assert(*s++ == ':');
		s = json_ws(json_value(s));
		if (*s == ',')
			s++;
	}
	return (n);
}

static int
has_key(char keys[][32], size_t n, const char *k)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (strcmp(keys[i], k) == 0)
			return (1);
	}
	return (0);
}

/*
 * Every kind's JSON is an object of the same tables: the session (with
 * the same members), the kind's header named after it, the warnings;
 * its CSV is one table whose first column names those same tables.
 */
static void
same_shape(int64_t id, const char *kind, char session[][32], size_t *nsess)
{
	char		*r, keys[16][32], sk[16][32];
	struct csv	 c;
	size_t		 n, ns, i;

	r = session_report(id, REPORT_JSON);
	ck_assert_msg(json_valid(r), "%s", r);
	n = json_keys(r, keys, 16);
	ck_assert_uint_ge(n, 3);
	ck_assert_str_eq(keys[0], "session");
	ck_assert_str_eq(keys[1], kind);
	ck_assert(has_key(keys, n, "warnings"));
	ns = json_keys(strstr(r, "\"session\": ") + 11, sk, 16);
	if (*nsess == 0) {
		memcpy(session, sk, sizeof sk);
		*nsess = ns;
	}
	ck_assert_uint_eq(ns, *nsess);
	for (i = 0; i < ns; i++)
		ck_assert_str_eq(sk[i], session[i]);
	free(r);

	r = session_report(id, REPORT_CSV);
	csv_parse(r, &c);
	ck_assert_str_eq(c.rec[0][0], "section");
	ck_assert_str_eq(c.rec[1][0], "session");
	for (i = 1; i < c.n; i++) {
		ck_assert_uint_eq(c.nf[i], c.nf[0]);
		ck_assert_msg(has_key(keys, n, c.rec[i][0]), "%s",
		    c.rec[i][0]);
	}
	csv_free(&c);
	free(r);
}

START_TEST(test_kinds_same_shape)
{
	char	session[16][32];
	size_t	nsess = 0;

	same_shape(sid, "prf", session, &nsess);
	same_shape(oid, "ovd", session, &nsess);
	ck_assert_uint_eq(nsess, 9);
}
END_TEST

START_TEST(test_ovd_percent)
{
	struct analyze_ovd	 o;
	struct csv		 c;
	char			*r, *cause = NULL, *hr;
	double			 v;
	size_t			 i, k, n = 0;
	int			 pct;

	ck_assert_msg(analyze_ovd_load(st, oid, &o, &cause) == 0, "%s",
	    cause);
	r = session_report(oid, REPORT_CSV);
	csv_parse(r, &c);
	for (k = 0; k < c.nf[0]; k++)
		ck_assert_str_ne(c.rec[0][k], "resident_share");
	pct = csv_col(&c, "resident_percent");
	for (i = 1; i < c.n; i++) {
		if (strcmp(c.rec[i][0], "units") != 0)
			continue;
		v = strtod(c.rec[i][pct], NULL);
		ck_assert(v >= 0 && v <= 100);
		ck_assert_msg(v - 100 * o.units[n].resident_share < 1e-4 &&
		    100 * o.units[n].resident_share - v < 1e-4, "%f", v);
		n++;
	}
	ck_assert_uint_eq(n, 2);
	/* OVLA stays all 30 ticks of the run, OVLB the last 20. */
	ck_assert(o.units[0].resident_share == 1);
	ck_assert(o.units[1].resident_share > 0.66 &&
	    o.units[1].resident_share < 0.67);
	csv_free(&c);
	free(r);

	/* The html bar is as wide as the percentage. */
	hr = session_report(oid, REPORT_HTML);
	r = xasprintf("<span style=\"width:%.2f%%\">",
	    100 * o.units[1].resident_share);
	ck_assert_msg(strstr(hr, r) != NULL, "%s", r);
	free(r);
	free(hr);
	analyze_ovd_free(&o);
}
END_TEST

START_TEST(test_ovd_chrome)
{
	char	*r = session_report(oid, REPORT_CHROME), *sql;
	double	 ts;

	ck_assert_msg(json_valid(r), "%s", r);
	ck_assert_uint_eq(occurs(r, "\"ph\":\"M\""), 1 + 2 * 2);
	sql = xasprintf("SELECT count(*) FROM ovr_loaded WHERE session = %lld",
	    (long long)oid);
	ck_assert_uint_eq(occurs(r, "\"ph\":\"X\""), (size_t)count(sql));
	ck_assert_uint_eq(occurs(r, "\"ph\":\"X\""), 3);
	free(sql);
	sql = xasprintf("SELECT count(*) FROM ovr_event WHERE session = %lld",
	    (long long)oid);
	ck_assert_uint_eq(occurs(r, "\"ph\":\"i\""), (size_t)count(sql));
	free(sql);
	/* OVLB stays through events 1 and 2: from 110 ticks to 130. */
	ts = analyze_ovd_seconds(110) * 1e6;
	sql = xasprintf("{\"name\":\"OVLB\",\"cat\":\"resident\","
	    "\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":%.3f,\"dur\":%.3f,"
	    "\"args\":{\"load_seg\":\"3003h\",\"first_seq\":1,"
	    "\"last_seq\":2}}", ts, analyze_ovd_seconds(130) * 1e6 - ts);
	ck_assert_msg(strstr(r, sql) != NULL, "%s", sql);
	ck_assert_ptr_nonnull(strstr(r, "\"ts\":6041798.2"));
	free(sql);
	ck_assert_ptr_nonnull(strstr(r, "{\"name\":\"reprieve\",\"cat\":"
	    "\"overlay\",\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":1,"));
	free(r);
}
END_TEST

START_TEST(test_ovd_hostile_names)
{
	static const char	*quote = "q\"u,o\nte";
	struct csv		 c;
	char			*r;
	size_t			 i, hits = 0;
	int			 name;

	unit_name(0x40, quote);
	unit_name(0x44, "\x1b[2Jbad\xff\xc0\x80");

	r = session_report(oid, REPORT_CSV);
	csv_parse(r, &c);
	name = csv_col(&c, "name");
	for (i = 1; i < c.n; i++) {
		ck_assert_uint_eq(c.nf[i], c.nf[0]);
		hits += strcmp(c.rec[i][name], quote) == 0;
	}
	ck_assert_uint_eq(hits, 1);
	csv_free(&c);
	free(r);

	r = session_report(oid, REPORT_JSON);
	ck_assert_msg(json_valid(r), "%s", r);
	ck_assert_ptr_nonnull(strstr(r, "\"q\\\"u,o\\nte\""));
	ck_assert_ptr_nonnull(strstr(r,
	    "\"\\u001b[2Jbad\\ufffd\\ufffd\\ufffd\""));
	free(r);
	r = session_report(oid, REPORT_CHROME);
	ck_assert_msg(json_valid(r), "%s", r);
	ck_assert_ptr_nonnull(strstr(r, "\"q\\\"u,o\\nte\""));
	free(r);

	r = session_report(oid, REPORT_HTML);
	ck_assert_ptr_null(strchr(r, '\x1b'));
	ck_assert_ptr_null(strstr(r, "\xff"));
	ck_assert_ptr_null(strstr(r, "q\"u"));
	ck_assert_ptr_nonnull(strstr(r, "q&quot;u,o\nte"));
	free(r);
	r = session_report(oid, REPORT_TEXT);
	ck_assert_ptr_null(strchr(r, '\x1b'));
	ck_assert_ptr_null(strstr(r, "\xff"));
	ck_assert_ptr_nonnull(strstr(r, "q\"u,o\\nte@3000h"));
	free(r);
}
END_TEST

/* A view exports the model it already has: the same report. */
START_TEST(test_report_write_model)
{
	const struct kind	*k = kind_find("ovd");
	struct store_session	 ss;
	FILE			*mf;
	void			*m;
	char			*buf = NULL, *cause = NULL, *want;
	size_t			 len = 0;

	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(store_session_get(st, oid, &ss), 0);
	m = k->model_load(st, oid, &cause);
	ck_assert_msg(m != NULL, "%s", cause);
	mf = open_memstream(&buf, &len);
	ck_assert_int_eq(report_write(st, &ss, m, REPORT_JSON, mf, &cause),
	    0);
	fclose(mf);
	want = session_report(oid, REPORT_JSON);
	ck_assert_str_eq(buf, want);
	free(want);
	free(buf);
	k->model_free(m);
	store_session_free(&ss);
}
END_TEST

/* The :sql view shows cells as the text export writes them. */
START_TEST(test_cell_show)
{
	struct report_cell	 c;
	char			*s;

	c = report_null();
	s = report_cell_show(&c);
	ck_assert_str_eq(s, "NULL");
	free(s);
	c.type = REPORT_BLOB;
	c.s = "\x00\xff";
	c.len = 2;
	s = report_cell_show(&c);
	ck_assert_str_eq(s, "x'00ff'");
	free(s);
	c = report_real(1);
	s = report_cell_show(&c);
	ck_assert_str_eq(s, "1.0");
	free(s);
	c = report_int(-7);
	s = report_cell_show(&c);
	ck_assert_str_eq(s, "-7");
	free(s);
	c = report_str("a\x1b" "b\n");
	s = report_cell_show(&c);
	ck_assert_str_eq(s, "a\\x1Bb\\n");
	free(s);
}
END_TEST

static Suite *
report_suite(void)
{
	Suite	*s = suite_create("report");
	TCase	*tc = tcase_create("prf");
	TCase	*to = tcase_create("ovd");
	TCase	*tq = tcase_create("stmt");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_text_header_and_flat_profile);
	tcase_add_test(tc, test_csv_parses);
	tcase_add_test(tc, test_json_valid_and_numbers_match);
	tcase_add_test(tc, test_html_escapes);
	tcase_add_test(tc, test_hostile_names_stay_valid);
	tcase_add_test(tc, test_session_errors);
	tcase_add_test(tc, test_hist_current_view);
	tcase_add_test(tc, test_estimates_marked);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(to, setup_ovd, teardown);
	tcase_add_test(to, test_ovd_text);
	tcase_add_test(to, test_ovd_html);
	tcase_add_test(to, test_same_name_same_json);
	tcase_add_test(to, test_kinds_same_shape);
	tcase_add_test(to, test_ovd_percent);
	tcase_add_test(to, test_ovd_chrome);
	tcase_add_test(to, test_ovd_hostile_names);
	tcase_add_test(to, test_report_write_model);
	suite_add_tcase(s, to);
	tcase_add_checked_fixture(tq, setup, teardown);
	tcase_add_test(tq, test_cell_show);
	tcase_add_test(tq, test_stmt_types);
	tcase_add_test(tq, test_stmt_errors_and_big_results);
	suite_add_tcase(s, tq);
	return (s);
}

int
main(void)
{
	SRunner	*sr = srunner_create(report_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
