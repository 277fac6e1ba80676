/*
 * CSV reports (RFC 4180 quoting, LF line ends).  A CSV file is one
 * table, so a report of several tables is written as one: the header is
 * "section" followed by the union of every table's column names, and each
 * row fills the columns of its own table and leaves the rest empty.  A
 * spreadsheet filters on the first column.  A single-table document (a
 * query result) has no section column.  NULL is an empty field, the empty
 * string is "".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"
#include "vis.h"
#include "report/report.h"

struct csv_data {
	const char	**names;	/* the union of column names */
	size_t		  nnames;
	int		 *map;		/* union column -> table column */
	/*
	 * The report goes to a terminal: fields are made safe there (vis.c),
	 * as no byte of a name may reach a terminal raw; in a file or a
	 * pipe they are the data as it is.
	 */
	int		  tty;
};

static void
csv_field(FILE *f, int tty, const char *s, size_t len)
{
	char	*safe = NULL;
	size_t	 i;

	if (tty && vis_needed(s, len)) {
		s = safe = vis_str(s, len);
		len = strlen(safe);
	}
	if (len != 0 && strcspn(s, ",\"\r\n") >= len &&
	    memchr(s, '\0', len) == NULL) {
		fwrite(s, 1, len, f);
		free(safe);
		return;
	}
	fputc('"', f);
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', f);
		fputc(s[i], f);
	}
	fputc('"', f);
	free(safe);
}

static void
csv_begin(struct report_out *o)
{
	const struct report_doc	*doc = o->doc;
	const struct report_col	*c;
	struct csv_data		*d;
	size_t			 i, k, j, max = 0;

	d = xcalloc(1, sizeof *d);
	o->data = d;
	d->tty = isatty(fileno(o->f));
	for (i = 0; i < doc->ntables; i++)
		max += doc->tables[i]->ncols;
	d->names = xreallocarray(NULL, max + 1, sizeof *d->names);
	d->map = xreallocarray(NULL, max + 1, sizeof *d->map);
	for (i = 0; i < doc->ntables; i++) {
		if (doc->tables[i]->flags & REPORT_HUMAN)
			continue;
		for (k = 0; k < doc->tables[i]->ncols; k++) {
			c = &doc->tables[i]->cols[k];
			if (!report_visible(o, c))
				continue;
			for (j = 0; j < d->nnames; j++) {
				if (strcmp(d->names[j], c->name) == 0)
					break;
			}
			if (j == d->nnames)
				d->names[d->nnames++] = c->name;
		}
	}
	if (!doc->bare)
		fputs("section", o->f);
	for (j = 0; j < d->nnames; j++) {
		if (j != 0 || !doc->bare)
			fputc(',', o->f);
		csv_field(o->f, d->tty, d->names[j], strlen(d->names[j]));
	}
	fputc('\n', o->f);
}

static void
csv_table_begin(struct report_out *o)
{
	const struct report_table	*t = o->table;
	struct csv_data			*d = o->data;
	size_t				 j, k;

	for (j = 0; j < d->nnames; j++) {
		d->map[j] = -1;
		for (k = 0; k < t->ncols; k++) {
			if (report_visible(o, &t->cols[k]) &&
			    strcmp(t->cols[k].name, d->names[j]) == 0) {
				d->map[j] = (int)k;
				break;
			}
		}
	}
}

static void
csv_row(struct report_out *o, const struct report_cell *cells)
{
	const struct report_table	*t = o->table;
	struct csv_data			*d = o->data;
	const struct report_cell	*c;
	char				*s;
	size_t				 j;

	if (t->flags & REPORT_HUMAN)
		return;
	if (!o->doc->bare)
		csv_field(o->f, d->tty, t->name, strlen(t->name));
	for (j = 0; j < d->nnames; j++) {
		if (j != 0 || !o->doc->bare)
			fputc(',', o->f);
		if (d->map[j] < 0)
			continue;
		c = &cells[d->map[j]];
		switch (c->type) {
		case REPORT_INT:
		case REPORT_REAL:
			s = report_number(&t->cols[d->map[j]], c, 0);
			fputs(s, o->f);
			free(s);
			break;
		case REPORT_STR:
			if (c->len == 0)
				fputs("\"\"", o->f);
			else
				csv_field(o->f, d->tty, c->s, c->len);
			break;
		case REPORT_BLOB:
			s = report_hex(c->s, c->len);
			fputs(c->len != 0 ? s : "\"\"", o->f);
			free(s);
			break;
		}
	}
	fputc('\n', o->f);
}

static void
csv_table_end(struct report_out *o)
{
}

static void
csv_end(struct report_out *o)
{
	struct csv_data	*d = o->data;

	free(d->names);
	free(d->map);
	free(d);
	o->data = NULL;
}

const struct report_ops report_csv_ops = {
	csv_begin,
	csv_table_begin,
	csv_row,
	csv_table_end,
	csv_end,
};
