/*
 * libFuzzer harness for the mon reader (pvtrace profiles): any bytes,
 * ingested into a store in memory, must either load or fail with a
 * cause, and leave the store consistent; what loaded must give a model
 * and a report in every format it exports.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kind.h"
#include "tests/fuzz/fuzz.h"
#include "ingest/ingest.h"
#include "report/report.h"
#include "store/store.h"

static char	fuzz_path[64];

static void
fuzz_cleanup(void)
{
	unlink(fuzz_path);
}

static void
fuzz_reports(struct store *st, int64_t id)
{
	const struct kind	*k = kind_find("mon");
	struct store_session	 ss;
	void			*model;
	char			*cause = NULL;
	int			 fmt;
	FILE			*f;

	if (k == NULL || store_session_get(st, id, &ss) != 0)
		abort();
	if ((model = k->model_load(st, id, &cause)) == NULL)
		abort();		/* what loaded must be readable */
	for (fmt = 0; fmt < REPORT_FORMATS; fmt++) {
		if (!report_exports(k, fmt))
			continue;
		if ((f = fopen("/dev/null", "w")) == NULL)
			abort();
		if (report_write(st, &ss, model, fmt, f, &cause) != 0)
			free(cause);
		fclose(f);
	}
	k->model_free(model);
	store_session_free(&ss);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store	*st;
	struct ingest_opts	 opts;
	const char		*kind;
	char			*cause = NULL;
	int64_t			 id;
	int			 reused, fd;
	FILE			*f;

	if (st == NULL) {
		if ((st = store_open(":memory:", 0, kind_store(),
	    &cause)) == NULL)
			abort();
		snprintf(fuzz_path, sizeof fuzz_path,
		    "/tmp/fuzzmonXXXXXX.mon");
		if ((fd = mkstemps(fuzz_path, 4)) == -1)
			abort();
		close(fd);
		atexit(fuzz_cleanup);
	}
	if ((f = fopen(fuzz_path, "wb")) == NULL)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	memset(&opts, 0, sizeof opts);
	if (ingest_file(st, fuzz_path, &opts, &id, &kind, &reused,
	    &cause) != 0) {
		if (cause == NULL)
			abort();
		free(cause);
		return (0);
	}
	if (strcmp(kind, "mon") == 0)
		fuzz_reports(st, id);
	if (store_session_delete(st, id, &cause) != 0)
		free(cause);
	return (0);
}
