/*
 * libFuzzer harness for the OVD reader: any bytes, ingested into a
 * store in memory, must either load or fail with a cause, and leave the
 * store consistent; what loaded must also survive the statistics and the
 * timeline's index, whose windows must add up to the units' totals.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/ovd.h"
#include "kind.h"
#include "tests/fuzz/fuzz.h"
#include "ingest/ingest.h"
#include "store/store.h"

/* Index a and look at it the way the timeline does; abort if it lies. */
static void
fuzz_index(const struct analyze_ovd *a)
{
	struct analyze_ovd_index	*ix;
	struct analyze_ovd_cell		*c, whole;
	struct analyze_ovd_slot		*list;
	uint32_t			 band[8];
	uint64_t			 loads;
	int64_t				 width, res;
	char				*cause = NULL;
	size_t				 i, x;
	uint32_t			 k;

	if ((ix = analyze_ovd_index_begin(a, &cause)) == NULL) {
		free(cause);
		return;
	}
	while (analyze_ovd_index_step(ix, 5) > 0)
		/* nothing */;
	c = calloc(4 * a->nunits + 1, sizeof *c);
	list = calloc(a->nunits + 1, sizeof *list);
	if (c == NULL || list == NULL)
		abort();
	for (k = 0; k < a->nunits; k++) {
		analyze_ovd_window(ix, k, a->t_first, a->t_last + 1, &whole);
		if (whole.loads != a->units[k].loads ||
		    whole.reprieves != a->units[k].reprieves ||
		    whole.resident_ticks != a->units[k].resident_ticks)
			abort();
	}
	/* Four windows cover the run and add up to the same. */
	width = (a->t_last - a->t_first + 4) / 4;
	analyze_ovd_windows(ix, a->t_first, width, 4, c);
	for (k = 0; k < a->nunits; k++) {
		loads = 0;
		res = 0;
		for (x = 0; x < 4; x++) {
			loads += c[x * a->nunits + k].loads;
			res += c[x * a->nunits + k].resident_ticks;
		}
		if (loads != a->units[k].loads ||
		    res != a->units[k].resident_ticks)
			abort();
	}
	/* The finest zoom, and the band, at the start and the end. */
	analyze_ovd_windows(ix, a->t_first, 1, 4, c);
	analyze_ovd_windows(ix, a->t_last - 2, 1, 4, c);
	for (x = 0; x < 4; x++) {
		analyze_ovd_band(ix, a->t_first + (int64_t)x * width,
		    a->t_first + (int64_t)(x + 1) * width, band, 8);
		analyze_ovd_band(ix, a->t_last - 2 + (int64_t)x,
		    a->t_last - 1 + (int64_t)x, band, 8);
	}
	for (i = 0; i < a->nevents; i++) {
		if (analyze_ovd_load_list(ix, i, list) > a->nunits ||
		    analyze_ovd_lane_pos(ix, i) >=
		    ix->lanes[a->events[i].unit].nev)
			abort();
	}
	free(c);
	free(list);
	analyze_ovd_index_free(ix);
}

static char	fuzz_path[64];

/* The input's file goes when the run ends. */
static void
fuzz_cleanup(void)
{
	unlink(fuzz_path);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store	*st;
	char			*path = fuzz_path;
	struct ingest_opts	 opts;
	struct analyze_ovd	 a;
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
		    "/tmp/fuzzovdXXXXXX.OVD");
		if ((fd = mkstemps(fuzz_path, 4)) == -1)
			abort();
		close(fd);
		atexit(fuzz_cleanup);
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
		fuzz_index(&a);
		analyze_ovd_free(&a);
	} else
		free(cause);
	if (store_session_delete(st, id, &cause) != 0)
		free(cause);
	return (0);
}
