/*
 * Text reports: aligned columns for a terminal or a pager.  Rows are
 * buffered per table to size the columns; a table that may be huge (a
 * query result) sets max_rows, past which (or past
 * REPORT_TEXT_MAX_BYTES of cells) the rest goes out as tab-separated lines
 * instead of ballooning in memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "vis.h"
#include "report/report.h"


struct text_data {
	size_t	*vis;		/* the columns text shows */
	size_t	 nvis;
	char	**cells;	/* buffered rows, nvis cells each */
	size_t	 nbuf;
	size_t	 cap;
	size_t	*width;
	int	*right;		/* numbers only: align right */
	char	**titles;	/* the headings, made safe */
	int	 tsv;		/* past max_rows */
	size_t	 bytes;		/* of the buffered cells */
	int	 indent;
};

/*
 * A string made safe for a terminal (vis.c: a hostile name must not move
 * the cursor or turn the line around), and anything wider than max
 * columns ending in "~".
 */
static char *
text_clean(const char *s, size_t len, int max)
{
	char	*out;
	size_t	 o, cols = 0;

	out = vis_str(s, len);
	if (max <= 0 || report_width(out) <= (size_t)max)
		return (out);
	for (o = 0; out[o] != '\0'; o++) {
		if (((unsigned char)out[o] & 0xc0) != 0x80 &&
		    cols++ == (size_t)max - 1)
			break;
	}
	out[o] = '~';
	out[o + 1] = '\0';
	return (out);
}

static char *
text_cell(const struct report_col *col, const struct report_cell *c)
{
	switch (c->type) {
	case REPORT_INT:
	case REPORT_REAL:
		return (report_number(col, c, 1));
	case REPORT_STR:
		return (text_clean(c->s, c->len, col->max));
	case REPORT_BLOB:
		return (report_blob_show(c));
	}
	return (xstrdup(report_none(col)));
}

/*
 * A cell as the text report writes it, for a display that is not a
 * report (the browser's :sql table): NULL, blobs as x'00ff', reals with
 * every digit, strings safe for a terminal.
 */
char *
report_cell_show(const struct report_cell *c)
{
	static const struct report_col	col = { "", "", REPORT_SQLNULL, -1,
	    0 };

	return (text_cell(&col, c));
}

/*
 * A cell as a table on screen shows it (the browser's :sql table): as
 * report_cell_show, but text cut after maxtext bytes and a blob after
 * maxblob, each saying its size, so that a huge value costs no memory.
 */
char *
report_cell_brief(const struct report_cell *c, size_t maxtext,
    size_t maxblob)
{
	struct report_cell	 cut = *c;
	char			*s, *t;

	if (c->type == REPORT_STR && c->len > maxtext)
		cut.len = maxtext;
	else if (c->type == REPORT_BLOB && c->s != NULL && c->len > maxblob)
		cut.len = maxblob;
	else
		return (report_cell_show(c));
	/* Text: not past a character's first byte. */
	while (c->type == REPORT_STR && cut.len > 0 &&
	    ((unsigned char)c->s[cut.len] & 0xc0) == 0x80)
		cut.len--;
	s = report_cell_show(&cut);
	if (c->type == REPORT_STR)
		t = xasprintf("%s... (%zu bytes)", s, c->len);
	else	/* x'0011' less its quote, then the rest and the size */
		t = xasprintf("%.*s...' (%zu bytes)", (int)strlen(s) - 1, s,
		    c->len);
	free(s);
	return (t);
}

static void
text_begin(struct report_out *o)
{
	o->data = xcalloc(1, sizeof (struct text_data));
	/* A session's title holds its file name: made safe (vis.c). */
	if (!o->doc->bare && o->doc->title != NULL) {
		vis_fputs(o->doc->title, o->f);
		fputc('\n', o->f);
	}
}

static void
text_table_begin(struct report_out *o)
{
	const struct report_table	*t = o->table;
	struct text_data		*d = o->data;
	size_t				 i;

	d->vis = xreallocarray(NULL, t->ncols + 1, sizeof *d->vis);
	d->nvis = 0;
	for (i = 0; i < t->ncols; i++) {
		if (report_visible(o, &t->cols[i]))
			d->vis[d->nvis++] = i;
	}
	d->width = xcalloc(d->nvis + 1, sizeof *d->width);
	d->right = xcalloc(d->nvis + 1, sizeof *d->right);
	/* A query's column names are the user's: as unsafe as any name. */
	d->titles = xcalloc(d->nvis + 1, sizeof *d->titles);
	for (i = 0; i < d->nvis; i++)
		d->titles[i] = vis(t->cols[d->vis[i]].title);
	for (i = 0; i < d->nvis; i++)
		d->right[i] = 1;
	d->nbuf = d->cap = 0;
	d->bytes = 0;
	d->cells = NULL;
	d->tsv = 0;
	d->indent = o->doc->bare ? 0 : 2;
	if (!o->doc->bare) {
		fputc('\n', o->f);
		if (t->title != NULL) {
			vis_fputs(t->title, o->f);
			fputc('\n', o->f);
		}
	}
}

static void
text_tsv_line(struct report_out *o, char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (i != 0)
			fputc('\t', o->f);
		fputs(v[i], o->f);
	}
	fputc('\n', o->f);
}

static void
text_free_rows(struct text_data *d)
{
	size_t	i;

	for (i = 0; i < d->nbuf * d->nvis; i++)
		free(d->cells[i]);
	free(d->cells);
	d->cells = NULL;
	d->nbuf = d->cap = 0;
}

/* Too many rows to align: say the rest as tab-separated lines. */
static void
text_to_tsv(struct report_out *o)
{
	struct text_data	*d = o->data;
	size_t			 i;

	text_tsv_line(o, d->titles, d->nvis);
	for (i = 0; i < d->nbuf; i++)
		text_tsv_line(o, d->cells + i * d->nvis, d->nvis);
	text_free_rows(d);
	d->tsv = 1;
}

static void
text_row(struct report_out *o, const struct report_cell *cells)
{
	const struct report_table	*t = o->table;
	struct text_data		*d = o->data;
	const struct report_cell	*c;
	char				**row, *tmp[64];
	size_t				 i, w;

	if (d->tsv) {
		row = d->nvis <= 64 ? tmp : xreallocarray(NULL, d->nvis,
		    sizeof *row);
		for (i = 0; i < d->nvis; i++)
			row[i] = text_cell(&t->cols[d->vis[i]],
			    &cells[d->vis[i]]);
		text_tsv_line(o, row, d->nvis);
		for (i = 0; i < d->nvis; i++)
			free(row[i]);
		if (row != tmp)
			free(row);
		return;
	}
	if (d->nbuf == d->cap) {
		d->cap = d->cap != 0 ? d->cap * 2 : 64;
		d->cells = xreallocarray(d->cells, d->cap * d->nvis + 1,
		    sizeof *d->cells);
	}
	row = d->cells + d->nbuf * d->nvis;
	for (i = 0; i < d->nvis; i++) {
		c = &cells[d->vis[i]];
		row[i] = text_cell(&t->cols[d->vis[i]], c);
		if (c->type == REPORT_STR || c->type == REPORT_BLOB)
			d->right[i] = 0;
		if ((w = report_width(row[i])) > d->width[i])
			d->width[i] = w;
	}
	d->nbuf++;
	for (i = 0; i < d->nvis; i++)
		d->bytes += strlen(row[i]) + 1;
	/* Rows of huge cells weigh more than their count says. */
	if (t->max_rows != 0 && (d->nbuf > t->max_rows ||
	    d->bytes > REPORT_TEXT_MAX_BYTES))
		text_to_tsv(o);
}

static void
text_line(struct report_out *o, char **v)
{
	struct text_data	*d = o->data;
	size_t			 i, w, pad, last = d->nvis;

	/* Empty cells at the end would only leave trailing blanks. */
	while (last > 1 && *v[last - 1] == '\0')
		last--;
	fprintf(o->f, "%*s", d->indent, "");
	for (i = 0; i < last; i++) {
		w = report_width(v[i]);
		pad = d->width[i] > w ? d->width[i] - w : 0;
		if (i != 0)
			fputs("  ", o->f);
		if (d->right[i])
			fprintf(o->f, "%*s%s", (int)pad, "", v[i]);
		else if (i + 1 < last)
			fprintf(o->f, "%s%*s", v[i], (int)pad, "");
		else
			fputs(v[i], o->f);
	}
	fputc('\n', o->f);
}

static void
text_table_end(struct report_out *o)
{
	const struct report_table	*t = o->table;
	struct text_data		*d = o->data;
	char				*head[64], **v;
	size_t				 i, w;

	if (!d->tsv) {
		v = d->nvis <= 64 ? head : xreallocarray(NULL, d->nvis,
		    sizeof *v);
		for (i = 0; i < d->nvis; i++) {
			v[i] = d->titles[i];
			if ((w = report_width(v[i])) > d->width[i])
				d->width[i] = w;
		}
		if (!(t->flags & REPORT_NOHEAD) && d->nvis != 0 &&
		    (d->nbuf != 0 || t->empty == NULL))
			text_line(o, v);
		/* A query's header needs telling apart from its rows. */
		if (o->doc->bare && !(t->flags & REPORT_NOHEAD)) {
			for (i = 0; i < d->nvis; i++) {
				v[i] = xmalloc(d->width[i] + 1);
				memset(v[i], '-', d->width[i]);
				v[i][d->width[i]] = '\0';
			}
			text_line(o, v);
			for (i = 0; i < d->nvis; i++)
				free(v[i]);
		}
		if (v != head)
			free(v);
		for (i = 0; i < d->nbuf; i++)
			text_line(o, d->cells + i * d->nvis);
		if (d->nbuf == 0 && t->empty != NULL)
			fprintf(o->f, "%*s%s\n", d->indent, "", t->empty);
	}
	text_free_rows(d);
	for (i = 0; i < d->nvis; i++)
		free(d->titles[i]);
	free(d->titles);
	d->titles = NULL;
	free(d->vis);
	free(d->width);
	free(d->right);
	d->vis = NULL;
	d->width = NULL;
	d->right = NULL;
}

static void
text_end(struct report_out *o)
{
	free(o->data);
	o->data = NULL;
}

const struct report_ops report_text_ops = {
	text_begin,
	text_table_begin,
	text_row,
	text_table_end,
	text_end,
};
