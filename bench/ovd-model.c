/*
 * ovd-model DB SESSION: the memory the timeline holds for an overlay
 * session, the model (analyze_ovd_load) and its index
 * (analyze_ovd_index_build) apart, in bytes per event, as malloc counts
 * them (mallinfo2: the heap and its mmap'd chunks), and the time each
 * takes.  bench/ovd-memory runs it on a 10M-event session.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/ovd.h"
#include "kind.h"
#include "store/store.h"

static size_t
ovd_model_heap(void)
{
	struct mallinfo2	mi = mallinfo2();

	return (mi.uordblks + mi.hblkhd);
}

static double
ovd_model_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

int
main(int argc, char **argv)
{
	struct store			*st;
	struct analyze_ovd		 o;
	struct analyze_ovd_index	*ix;
	char				*cause = NULL;
	size_t				 h0, h1, h2;
	double				 t0, t1, t2, n;

	if (argc != 3) {
		fprintf(stderr, "usage: ovd-model DB SESSION\n");
		return (2);
	}
	if ((st = store_open(argv[1], STORE_READONLY, kind_store(),
	    &cause)) == NULL) {
		fprintf(stderr, "ovd-model: %s\n", cause);
		return (1);
	}
	h0 = ovd_model_heap();
	t0 = ovd_model_now();
	if (analyze_ovd_load(st, strtoll(argv[2], NULL, 10), &o, &cause) != 0) {
		fprintf(stderr, "ovd-model: %s\n", cause);
		return (1);
	}
	h1 = ovd_model_heap();
	t1 = ovd_model_now();
	if ((ix = analyze_ovd_index_build(&o, &cause)) == NULL) {
		fprintf(stderr, "ovd-model: %s\n", cause);
		return (1);
	}
	h2 = ovd_model_heap();
	t2 = ovd_model_now();
	n = o.nevents != 0 ? (double)o.nevents : 1;
	printf("events %zu, stays %zu, buffer changes %zu, units %zu\n",
	    o.nevents, o.nspans, o.nbuffers, o.nunits);
	printf("model  %10.1f MB  %6.1f bytes/event  load  %6.0f ms\n",
	    (double)(h1 - h0) / 1e6, (double)(h1 - h0) / n, (t1 - t0) * 1e3);
	printf("index  %10.1f MB  %6.1f bytes/event  build %6.0f ms\n",
	    (double)(h2 - h1) / 1e6, (double)(h2 - h1) / n, (t2 - t1) * 1e3);
	printf("total  %10.1f MB  %6.1f bytes/event\n",
	    (double)(h2 - h0) / 1e6, (double)(h2 - h0) / n);
	analyze_ovd_index_free(ix);
	analyze_ovd_free(&o);
	store_close(st);
	return (0);
}
