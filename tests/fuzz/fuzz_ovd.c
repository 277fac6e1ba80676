/*
 * libFuzzer harness for the OVD reader: any bytes, ingested into a
 * store in memory, must either load or fail with a cause, and leave the
 * store consistent; what loaded must also survive the statistics and the
 * zoom levels.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "tests/fuzz/fuzz.h"
#include "ingest/ingest.h"
#include "store/store.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store	*st;
	static char		 path[64];
	struct ingest_opts	 opts;
	struct analyze_ovd	 a;
	const char		*kind;
	char			*cause = NULL;
	int64_t			 id;
	int			 reused, fd;
	FILE			*f;

	if (st == NULL) {
		if ((st = store_open(":memory:", 0, &cause)) == NULL)
			abort();
		snprintf(path, sizeof path, "/tmp/fuzzovdXXXXXX.OVD");
		if ((fd = mkstemps(path, 4)) == -1)
			abort();
		close(fd);
	}
	if ((f = fopen(path, "wb")) == NULL)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	memset(&opts, 0, sizeof opts);
	if (ingest_file(st, path, &opts, &id, &kind, &reused, &cause) != 0) {
		if (cause == NULL)
			abort();
		free(cause);
		return (0);
	}
	if (analyze_ovd_load(st, id, &a, &cause) == 0) {
		analyze_ovd_levels(&a, 64);
		analyze_ovd_free(&a);
	} else
		free(cause);
	if (store_session_delete(st, id, &cause) != 0)
		free(cause);
	return (0);
}
