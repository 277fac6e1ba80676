/*
 * Fuzz the PRF reader: ingest the bytes into a :memory: store as a .prf
 * (so detection never turns them away), attribute what loaded (a hit
 * table the reader kept must add up with the buckets), then drop the
 * session so the next input is not a duplicate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "ingest/ingest.h"
#include "kind.h"
#include "store/store.h"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store	*st;
	struct ingest_opts	 opts = { 0 };
	struct analyze_hist	 h;
	const char		*kind;
	char			*cause = NULL;
	int64_t			 id;
	int			 reused;
	double			 sum;
	size_t			 i;

	if (st == NULL && (st = store_open(":memory:", 0, kind_store(),
	    &cause)) == NULL) {
		fprintf(stderr, "fuzz_prf: %s\n", cause);
		abort();
	}
	if (ingest_bytes(st, "/nonexistent/fuzz.prf", data, size, &opts, &id,
	    &kind, &reused, &cause) == 0) {
		if (analyze_hist_load(st, id, &h, &cause) != 0)
			abort();
		/* Without symbols everything is outside: all of it. */
		sum = h.unattributed;
		for (i = 0; i < h.nsyms; i++)
			sum += h.syms[i].hits;
		if (fabs(sum - (double)h.in_program) > 1e-6 *
		    ((double)h.in_program + 1))
			abort();
		analyze_hist_free(&h);
		if (store_session_delete(st, id, &cause) != 0)
			abort();
	} else if (cause == NULL)
		abort();	/* every failure must say why */
	free(cause);
	return (0);
}
