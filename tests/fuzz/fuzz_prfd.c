/*
 * Fuzz the prfd reader (Dos32Profile dumps): ingest the bytes into a
 * :memory: store, load the model (the exact flat profile must hold every
 * sample of the hit table and of the modules), each slot's detail counters as a histogram
 * (its attribution must add up to the counters) and write the report;
 * then drop the session so the next input is not a duplicate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "analyze/prfd.h"
#include "ingest/ingest.h"
#include "kind.h"
#include "report/report.h"
#include "store/store.h"
#include "tests/fuzz/fuzz.h"

/* Slot k's histogram, when it has one: every counter's samples placed. */
static void
fuzz_prfd_slot(struct store *st, struct analyze_prfd *m, size_t k)
{
	struct analyze_hist	 h;
	char			*cause = NULL;
	double			 sum;
	size_t			 i;

	if (analyze_prfd_slot_hist(st, m, k, &h, &cause) != 0) {
		if (cause == NULL)
			abort();
		free(cause);
		return;
	}
	sum = h.unattributed;
	for (i = 0; i < h.nsyms; i++)
		sum += h.syms[i].hits;
	if (fabs(sum - (double)h.in_program) > 1e-6 *
	    ((double)h.in_program + 1))
		abort();
	analyze_hist_free(&h);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store	*st;
	struct ingest_opts	 opts = { 0 };
	struct analyze_prfd	 m;
	const char		*kind;
	char			*cause = NULL;
	uint64_t		 sum;
	int64_t			 id;
	int			 reused;
	size_t			 i;
	FILE			*f;

	if (st == NULL && (st = store_open(":memory:", 0, kind_store(),
	    &cause)) == NULL) {
		fprintf(stderr, "fuzz_prfd: %s\n", cause);
		abort();
	}
	if (ingest_bytes(st, "/nonexistent/fuzz.prfd", data, size, &opts, &id,
	    &kind, &reused, &cause) == 0) {
		/* Without the magic another reader may take the bytes. */
		if (strcmp(kind, "prfd") != 0)
			goto drop;
		if (analyze_prfd_load(st, id, &m, &cause) != 0)
			abort();
		sum = 0;
		for (i = 0; i < m.nflat; i++)
			sum += m.flat[i].hits;
		if (sum != m.flat_total)
			abort();
		sum = m.hit_total;
		for (i = 0; i < m.nmods; i++)
			sum += m.mods[i].samples;
		if (sum != m.flat_total)
			abort();
		for (i = 0; i < m.nslots; i++)
			fuzz_prfd_slot(st, &m, i);
		analyze_prfd_free(&m);
		if ((f = fopen("/dev/null", "w")) == NULL)
			abort();
		if (report_session(st, id, REPORT_TEXT, f, &cause) != 0)
			abort();
		fclose(f);
drop:
		if (store_session_delete(st, id, &cause) != 0)
			abort();
	} else if (cause == NULL)
		abort();	/* every failure must say why */
	free(cause);
	return (0);
}
