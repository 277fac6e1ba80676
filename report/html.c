/*
 * HTML reports: one self-contained file (inline CSS, no scripts, no
 * links out), every string escaped, a bar beside each row of a table
 * that names a percentage column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "vis.h"
#include "report/report.h"

static const char html_style[] =
"body{font:14px/1.4 sans-serif;margin:1.5em;color:#222;background:#fff}\n"
"h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.5em}\n"
"table{border-collapse:collapse}\n"
"th,td{padding:.1em .6em;text-align:left;vertical-align:top}\n"
"thead th{border-bottom:1px solid #888}\n"
"tbody tr:nth-child(even){background:#f3f3f3}\n"
"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
"td.null{color:#999;font-style:italic}\n"
"td.bar{width:12em}\n"
"td.bar span{display:block;height:.8em;background:#4a7ab8}\n"
"table.kv th{font-weight:normal;color:#555}\n"
"p.empty{color:#777;font-style:italic}\n"
"code,td{font-family:ui-monospace,monospace}\n";

struct html_data {
	int	open;		/* the current table's opening is written */
};

/* Text for an HTML element or attribute: escaped, valid UTF-8. */
static void
html_text(FILE *f, const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, adv;
	int			 cp;

	while (i < len) {
		cp = report_utf8(p + i, len - i, &adv);
		switch (cp) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* Controls, bad bytes and bidi overrides (vis.c). */
			if (vis_unsafe(cp) && cp != '\t' && cp != '\n' &&
			    cp != '\r')
				fputs("\xef\xbf\xbd", f);
			else
				fwrite(p + i, 1, adv, f);
			break;
		}
		i += adv;
	}
}

static void
html_str(FILE *f, const char *s)
{
	html_text(f, s, strlen(s));
}

static void
html_cell(FILE *f, const char *tag, const struct report_col *col,
    const struct report_cell *c)
{
	char	*s;

	switch (c->type) {
	case REPORT_INT:
	case REPORT_REAL:
		s = report_number(col, c, 1);
		fprintf(f, "<%s class=\"num\">%s</%s>", tag, s, tag);
		free(s);
		break;
	case REPORT_STR:
		fprintf(f, "<%s>", tag);
		html_text(f, c->s, c->len);
		fprintf(f, "</%s>", tag);
		break;
	case REPORT_BLOB:
		s = report_blob_show(c);
		fprintf(f, "<%s>%s</%s>", tag, s, tag);
		free(s);
		break;
	default:
		fprintf(f, "<%s class=\"null\">", tag);
		html_str(f, report_none(col));
		fprintf(f, "</%s>", tag);
		break;
	}
}

static void
html_begin(struct report_out *o)
{
	const char	*title = o->doc->title != NULL ? o->doc->title :
			    "profview";

	o->data = xcalloc(1, sizeof (struct html_data));
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>", o->f);
	html_str(o->f, title);
	fprintf(o->f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>",
	    html_style);
	html_str(o->f, title);
	fputs("</h1>\n", o->f);
}

/* The table's heading and opening tags, once it has something to show. */
static void
html_open(struct report_out *o)
{
	const struct report_table	*t = o->table;
	struct html_data		*d = o->data;
	size_t				 k;

	if (d->open)
		return;
	d->open = 1;
	if (t->shape == REPORT_LIST) {
		fputs("<ul>\n", o->f);
		return;
	}
	if (t->shape == REPORT_OBJECT) {
		fputs("<table class=\"kv\">\n<tbody>\n", o->f);
		return;
	}
	fputs("<table>\n", o->f);
	if (!(t->flags & REPORT_NOHEAD)) {
		fputs("<thead><tr>", o->f);
		for (k = 0; k < t->ncols; k++) {
			if (!report_visible(o, &t->cols[k]))
				continue;
			fputs("<th>", o->f);
			html_str(o->f, t->cols[k].title);
			fputs("</th>", o->f);
		}
		if (t->bar >= 0)
			fputs("<th></th>", o->f);
		fputs("</tr></thead>\n", o->f);
	}
	fputs("<tbody>\n", o->f);
}

static void
html_table_begin(struct report_out *o)
{
	const struct report_table	*t = o->table;
	struct html_data		*d = o->data;

	d->open = 0;
	if (t->flags & REPORT_MACHINE)
		return;
	if (t->title != NULL) {
		fputs("<h2>", o->f);
		html_str(o->f, t->title);
		fputs("</h2>\n", o->f);
	}
}

static void
html_row(struct report_out *o, const struct report_cell *cells)
{
	const struct report_table	*t = o->table;
	const struct report_cell	*b;
	double				 pct;
	size_t				 k;
	int				 n = 0;

	if (t->flags & REPORT_MACHINE)
		return;
	html_open(o);
	if (t->shape == REPORT_LIST) {
		for (k = 0; k < t->ncols; k++) {
			if (report_visible(o, &t->cols[k])) {
				html_cell(o->f, "li", &t->cols[k], &cells[k]);
				break;
			}
		}
		fputc('\n', o->f);
		return;
	}
	fputs("<tr>", o->f);
	for (k = 0; k < t->ncols; k++) {
		if (!report_visible(o, &t->cols[k]))
			continue;
		html_cell(o->f, t->shape == REPORT_OBJECT && n++ == 0 ? "th" :
		    "td", &t->cols[k], &cells[k]);
	}
	if (t->bar >= 0 && (size_t)t->bar < t->ncols) {
		b = &cells[t->bar];
		pct = b->type == REPORT_REAL ? b->r : b->type == REPORT_INT ?
		    (double)b->i : 0;
		if (!(pct >= 0))
			pct = 0;
		if (pct > 100)
			pct = 100;
		fprintf(o->f, "<td class=\"bar\"><span style=\"width:%.2f%%\">"
		    "</span></td>", pct);
	}
	fputs("</tr>\n", o->f);
}

static void
html_table_end(struct report_out *o)
{
	const struct report_table	*t = o->table;
	struct html_data		*d = o->data;

	if (t->flags & REPORT_MACHINE)
		return;
	if (!d->open && t->empty != NULL) {
		fputs("<p class=\"empty\">", o->f);
		html_str(o->f, t->empty);
		fputs("</p>\n", o->f);
		return;
	}
	html_open(o);
	fputs(t->shape == REPORT_LIST ? "</ul>\n" : "</tbody>\n</table>\n",
	    o->f);
}

static void
html_end(struct report_out *o)
{
	fputs("</body>\n</html>\n", o->f);
	free(o->data);
	o->data = NULL;
}

const struct report_ops report_html_ops = {
	html_begin,
	html_table_begin,
	html_row,
	html_table_end,
	html_end,
};
