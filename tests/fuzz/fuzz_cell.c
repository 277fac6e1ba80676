/*
 * Fuzz the :sql table's cells and the query writers: the first byte picks
 * a value's type (and the rest is its bytes) for report_cell_show and
 * report_cell_brief, as the table shows cells, which must come out safe
 * for a terminal and, brief, bounded; then a query returning the bytes as
 * text and as a blob, under a column name made of them, written in every
 * table format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "store/store.h"
#include "tests/fuzz/check.h"
#include "tests/fuzz/files.h"
#include "tests/fuzz/fuzz.h"

#define CELL_TEXT	1024	/* as tui/table.c keeps */
#define CELL_BLOB	16

static void
fuzz_cell(const struct store_value *v)
{
	struct report_cell	 c = report_value_cell(v);
	char			*s;

	s = report_cell_show(&c);
	fuzz_check(s, strlen(s), "", 1);
	free(s);
	s = report_cell_brief(&c, CELL_TEXT, CELL_BLOB);
	fuzz_check(s, strlen(s), "", 1);
	if (strlen(s) > 4 * CELL_TEXT + 64)
		abort();
	free(s);
}

/* SELECT the bytes as text and as a blob, named by them, in format. */
static void
fuzz_query(struct store *st, const uint8_t *p, size_t n, int format)
{
	struct store_query	*q;
	const char		*sql;
	char			*text, *buf = NULL, *cause = NULL;
	size_t			 i, k = 0, len = 0, m = n > 32 ? 32 : n;
	FILE			*f;
	int			 rc;

	text = malloc(6 * n + 128);
	if (text == NULL)
		abort();
	k = (size_t)sprintf(text, "SELECT CAST(x'");
	for (i = 0; i < n; i++)
		k += (size_t)sprintf(text + k, "%02x", p[i]);
	k += (size_t)sprintf(text + k, "' AS TEXT) AS \"");
	for (i = 0; i < m; i++) {
		if (p[i] == '\0')
			continue;
		if (p[i] == '"')
			text[k++] = '"';
		text[k++] = (char)p[i];
	}
	k += (size_t)sprintf(text + k, "\", x'");
	for (i = 0; i < n; i++)
		k += (size_t)sprintf(text + k, "%02x", p[i]);
	sprintf(text + k, "' AS b, NULL AS n");
	sql = text;
	if ((q = store_query_open(st, &sql, &cause)) == NULL) {
		free(cause);
		free(text);
		return;
	}
	if ((f = open_memstream(&buf, &len)) == NULL)
		abort();
	rc = report_query(q, format, f, &cause);
	fclose(f);
	store_query_close(q);
	if (rc != 0)
		abort();
	if (format == REPORT_TEXT)
		fuzz_check(buf, len, "\n\t", 1);
	else if (format == REPORT_HTML)
		fuzz_check(buf, len, "\n\t\r", 1);
	else if (format == REPORT_JSON)
		fuzz_check(buf, len, "\n", 0);
	free(buf);
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct store		*st = fuzz_store();
	struct store_value	 v;
	char			*copy;
	int			 format;

	if (size == 0)
		return (0);
	memset(&v, 0, sizeof v);
	/* As SQLite gives them: text NUL-terminated, exactly len bytes. */
	if ((copy = malloc(size)) == NULL)
		abort();
	memcpy(copy, data + 1, size - 1);
	copy[size - 1] = '\0';
	switch (data[0] % 6) {
	case 0:
		v.type = STORE_NULL;
		break;
	case 1:
		v.type = STORE_INT;
		memcpy(&v.i, copy, size - 1 < sizeof v.i ? size - 1 :
		    sizeof v.i);
		break;
	case 2:
		v.type = STORE_REAL;
		memcpy(&v.r, copy, size - 1 < sizeof v.r ? size - 1 :
		    sizeof v.r);
		break;
	case 3:
		v.type = STORE_TEXT;
		v.s = copy;
		v.len = strlen(copy);
		break;
	case 4:
		v.type = STORE_BLOB;
		v.s = copy;
		v.len = size - 1;
		break;
	default:
		/* A blob too big to be copied out: only its size. */
		v.type = STORE_BLOB;
		v.len = STORE_BLOB_MAX + size;
		break;
	}
	fuzz_cell(&v);
	for (format = 0; format < REPORT_FORMATS; format++) {
		if (report_tabular(format))
			fuzz_query(st, data + 1, size - 1, format);
	}
	free(copy);
	return (0);
}
