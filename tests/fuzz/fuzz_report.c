/*
 * Fuzz every report writer: an input (files.h) ingested as a PRF or OVD
 * session, with hostile names from its map, and with FUZZ_AGAIN its map's
 * bytes as the session's source and program too; then its report in
 * every format the kind has.  What is for people (text, html) must be
 * valid UTF-8 without a control character or bidi override but newline
 * and tab; JSON and Chrome's trace JSON must be valid UTF-8 with no raw
 * control character.  The table formats never fail on a stored session.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind.h"
#include "ingest/ingest.h"
#include "report/report.h"
#include "store/store.h"
#include "tests/fuzz/check.h"
#include "tests/fuzz/files.h"
#include "tests/fuzz/fuzz.h"

/* Set the session's source and program to the bytes of p, as text. */
static void
fuzz_rename(struct store *st, int64_t id, const uint8_t *p, size_t n)
{
	struct store_query	*q;
	struct store_value	 v;
	const char		*sql;
	char			*text, *cause = NULL;
	size_t			 i;

	if (n > 64)
		n = 64;
	text = malloc(2 * n + 128);
	if (text == NULL)
		abort();
	i = (size_t)sprintf(text, "UPDATE session SET source ="
	    " CAST(x'");
	for (; n > 0; n--, p++)
		i += (size_t)sprintf(text + i, "%02x", *p);
	sprintf(text + i, "' AS TEXT), program = source WHERE id = %lld",
	    (long long)id);
	sql = text;
	store_query_writes(st, 1);
	if ((q = store_query_open(st, &sql, &cause)) == NULL)
		abort();
	while (store_query_step(q, &v) == 1)
		;
	store_query_close(q);
	store_query_writes(st, 0);
	free(text);
}

static void
fuzz_format(struct store *st, int64_t id, const struct kind *k, int format)
{
	char	*buf = NULL, *cause = NULL;
	size_t	 len = 0;
	FILE	*f;
	int	 rc;

	if ((f = open_memstream(&buf, &len)) == NULL)
		abort();
	rc = report_session(st, id, format, f, &cause);
	fclose(f);
	if (rc != 0) {
		if (cause == NULL || (report_tabular(format) &&
		    report_exports(k, format)))
			abort();
		free(cause);
		free(buf);
		return;
	}
	switch (format) {
	case REPORT_TEXT:
		fuzz_check(buf, len, "\n\t", 1);
		break;
	case REPORT_HTML:
		fuzz_check(buf, len, "\n\t\r", 1);
		break;
	case REPORT_JSON:
	case REPORT_CHROME:
	case REPORT_HEAPSNAPSHOT:
		fuzz_check(buf, len, "\n", 0);
		break;
	}
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct store		*st = fuzz_store();
	struct fuzz_files	 ff;
	const struct kind	*k;
	char			*cause = NULL;
	int64_t			 id;
	int			 format;

	if (fuzz_files_ingest(&ff, data, size, &id, &k) != 0)
		return (0);
	if (ff.flags & FUZZ_AGAIN)
		fuzz_rename(st, id, data + 3, (size_t)data[1] |
		    (size_t)data[2] << 8);
	for (format = 0; format < REPORT_FORMATS; format++)
		fuzz_format(st, id, k, format);
	if (store_session_delete(st, id, &cause) != 0)
		abort();
	return (0);
}
