/*
 * A query's result as a report: the rows of a statement a user typed
 * (profview sql, :export from the :sql view), in any table format.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "report/report.h"

/* One store value as a cell; text and blobs point into the query. */
struct report_cell
report_value_cell(const struct store_value *v)
{
	struct report_cell	c = { .type = REPORT_NULL };

	switch (v->type) {
	case STORE_INT:
		c.type = REPORT_INT;
		c.i = v->i;
		break;
	case STORE_REAL:
		c.type = REPORT_REAL;
		c.r = v->r;
		break;
	case STORE_TEXT:
		c.type = REPORT_STR;
		c.s = v->s;
		c.len = v->len;
		break;
	case STORE_BLOB:
		c.type = REPORT_BLOB;
		c.s = v->s;
		c.len = v->len;
		break;
	}
	return (c);
}

/*
 * Column names made unique ("a", "a_2"), so a JSON object never has the
 * same key twice.
 */
static char **
query_names(struct store_query *q, int n)
{
	char		**v = xcalloc((size_t)n, sizeof *v);
	const char	 *name;
	int		  i, k, dup, suffix;

	for (i = 0; i < n; i++) {
		name = store_query_name(q, i);
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

/* Step a query and write every row it returns. */
int
report_query(struct store_query *q, int format, FILE *f, char **cause)
{
	struct report_out	 o;
	struct report_table	 t;
	struct report_doc	 doc;
	const struct report_table *tables[1];
	struct report_col	*cols;
	struct report_cell	*cells;
	struct store_value	*vals;
	char			**names, *big;
	int			 n, i, rc;

	if (!report_tabular(format)) {
		*cause = xasprintf("query results have no %s form",
		    report_format_name(format));
		return (-1);
	}
	if ((n = store_query_ncols(q)) == 0) {
		/* No result columns (an INSERT, say): just run it. */
		vals = NULL;
		while ((rc = store_query_step(q, vals)) == 1)
			;
		if (rc != 0) {
			*cause = xstrdup(store_query_error(q));
			return (-1);
		}
		return (0);
	}
	names = query_names(q, n);
	cols = xcalloc((size_t)n, sizeof *cols);
	cells = xcalloc((size_t)n, sizeof *cells);
	vals = xcalloc((size_t)n, sizeof *vals);
	for (i = 0; i < n; i++) {
		cols[i].name = names[i];
		cols[i].title = store_query_name(q, i);
		cols[i].prec = -1;
		cols[i].flags = REPORT_SQLNULL;
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
	big = NULL;
	while (big == NULL && (rc = store_query_step(q, vals)) == 1) {
		for (i = 0; i < n; i++) {
			cells[i] = report_value_cell(&vals[i]);
			/* Humans see its size; machines would lose it. */
			if (cells[i].type == REPORT_BLOB &&
			    cells[i].s == NULL && !o.human)
				big = xasprintf("row %zu, column %s: a blob"
				    " of %zu bytes is more than the %u MiB"
				    " profview copies out (select substr()"
				    " of it)", o.nrows + 1, names[i],
				    cells[i].len, STORE_BLOB_MAX >> 20);
		}
		if (big == NULL)
			report_row(&o, cells);
	}
	report_table_end(&o);
	if (rc != 0 || big != NULL) {
		/* Finish the document so the driver frees its state. */
		*cause = NULL;
		report_end(&o, cause);
		free(*cause);
		*cause = big != NULL ? big : xstrdup(store_query_error(q));
		rc = -1;
	} else
		rc = report_end(&o, cause);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(cols);
	free(cells);
	free(vals);
	return (rc);
}
