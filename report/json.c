/*
 * JSON reports (RFC 8259).  A document is one object with a member per
 * table; a single-table document (a query result) is just the array of
 * its rows.  Values keep their types: integers, reals (null when not
 * finite), null, strings; blobs become hex strings.  Bytes that are not
 * UTF-8 become U+FFFD so the output always parses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "report/report.h"

struct json_data {
	size_t	tables;		/* members written so far */
};

/*
 * A JSON string: the one escaper of every JSON report and timeline.
 * Valid UTF-8 passes through as it is; control characters are escaped;
 * bytes that are not UTF-8 become U+FFFD.
 */
void
report_json_string(FILE *f, const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, run = 0, adv;
	int			 cp;

	fputc('"', f);
	while (i < len) {
		/* Plain ASCII goes out in runs, not a byte at a time. */
		if (p[i] >= 0x20 && p[i] < 0x80 && p[i] != '"' &&
		    p[i] != '\\') {
			i++;
			continue;
		}
		cp = report_utf8(p + i, len - i, &adv);
		if (cp >= 0x80) {
			i += adv;
			continue;
		}
		fwrite(p + run, 1, i - run, f);
		if (cp < 0)
			fputs("\\ufffd", f);
		else if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", cp);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (cp == '\r')
			fputs("\\r", f);
		else
			fprintf(f, "\\u%04x", cp);
		i += adv;
		run = i;
	}
	fwrite(p + run, 1, i - run, f);
	fputc('"', f);
}

/* A cell as a JSON value; col: a real's precision, a hex column unsigned. */
void
report_json_value(FILE *f, const struct report_col *col,
    const struct report_cell *c)
{
	char	*s;

	switch (c->type) {
	case REPORT_INT:
		s = report_number(col, c, 0);
		fputs(s, f);
		free(s);
		break;
	case REPORT_REAL:
		if (!isfinite(c->r)) {
			fputs("null", f);
			break;
		}
		s = report_number(col, c, 0);
		fputs(s, f);
		free(s);
		break;
	case REPORT_STR:
		report_json_string(f, c->s, c->len);
		break;
	case REPORT_BLOB:
		s = report_hex(c->s, c->len);
		fprintf(f, "\"%s\"", s);
		free(s);
		break;
	default:
		fputs("null", f);
		break;
	}
}

/* "key": value for the machine columns of a row, from column first. */
static void
json_members(struct report_out *o, const struct report_cell *cells,
    size_t first)
{
	const struct report_table	*t = o->table;
	size_t				 k;
	int				 n = 0;

	for (k = first; k < t->ncols; k++) {
		if (!report_visible(o, &t->cols[k]))
			continue;
		if (n++ != 0)
			fputs(", ", o->f);
		report_json_string(o->f, t->cols[k].name,
		    strlen(t->cols[k].name));
		fputs(": ", o->f);
		report_json_value(o->f, &t->cols[k], &cells[k]);
	}
}

/* The index of the first machine column at or after k. */
static size_t
json_next(struct report_out *o, size_t k)
{
	while (k < o->table->ncols && !report_visible(o, &o->table->cols[k]))
		k++;
	return (k);
}

static void
json_begin(struct report_out *o)
{
	o->data = xcalloc(1, sizeof (struct json_data));
	if (!o->doc->bare)
		fputc('{', o->f);
}

static void
json_table_begin(struct report_out *o)
{
	const struct report_table	*t = o->table;
	struct json_data		*d = o->data;

	if (t->flags & REPORT_HUMAN)
		return;
	if (!o->doc->bare) {
		fputs(d->tables++ != 0 ? ",\n" : "\n", o->f);
		report_json_string(o->f, t->name, strlen(t->name));
		fputs(": ", o->f);
	}
	if (t->shape == REPORT_OBJECT || t->shape == REPORT_KEYED)
		fputc('{', o->f);
	else
		fputc('[', o->f);
}

static void
json_row(struct report_out *o, const struct report_cell *cells)
{
	const struct report_table	*t = o->table;
	size_t				 k, v;

	if (t->flags & REPORT_HUMAN)
		return;
	fputs(o->nrows != 0 ? ",\n  " : "\n  ", o->f);
	k = json_next(o, 0);
	if (k == t->ncols) {
		fputs(t->shape == REPORT_OBJECT || t->shape == REPORT_KEYED ?
		    "\"\": null" : "null", o->f);
		return;
	}
	switch (t->shape) {
	case REPORT_OBJECT:
	case REPORT_KEYED:
		/* Keys are strings whatever their cell type. */
		if (cells[k].type == REPORT_STR)
			report_json_string(o->f, cells[k].s, cells[k].len);
		else {
			fputc('"', o->f);
			report_json_value(o->f, &t->cols[k], &cells[k]);
			fputc('"', o->f);
		}
		fputs(": ", o->f);
		if (t->shape == REPORT_KEYED) {
			fputc('{', o->f);
			json_members(o, cells, k + 1);
			fputc('}', o->f);
		} else if ((v = json_next(o, k + 1)) < t->ncols)
			report_json_value(o->f, &t->cols[v], &cells[v]);
		else
			fputs("null", o->f);
		break;
	case REPORT_LIST:
		report_json_value(o->f, &t->cols[k], &cells[k]);
		break;
	default:
		fputc('{', o->f);
		json_members(o, cells, 0);
		fputc('}', o->f);
		break;
	}
}

static void
json_table_end(struct report_out *o)
{
	const struct report_table	*t = o->table;
	int				 obj;

	if (t->flags & REPORT_HUMAN)
		return;
	obj = (t->shape == REPORT_OBJECT || t->shape == REPORT_KEYED);
	if (o->nrows != 0)
		fputc('\n', o->f);
	fputc(obj ? '}' : ']', o->f);
	if (o->doc->bare)
		fputc('\n', o->f);
}

static void
json_end(struct report_out *o)
{
	if (!o->doc->bare)
		fputs("\n}\n", o->f);
	free(o->data);
	o->data = NULL;
}

const struct report_ops report_json_ops = {
	json_begin,
	json_table_begin,
	json_row,
	json_table_end,
	json_end,
};
