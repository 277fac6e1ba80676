/*
 * libFuzzer harness for the heap snapshot reader: any bytes must parse
 * or fail with a cause naming an offset, never read outside them; what
 * parses must survive memcheck's rules (every block gets a state), a
 * walk over every string, index and kept byte the parse vouched for,
 * and an ingest into a store in memory, and leave it when deleted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/pvheap/heapfmt.h"
#include "kind.h"
#include "tests/fuzz/fuzz.h"
#include "ingest/ingest.h"
#include "ingest/heap.h"
#include "store/store.h"

/*
 * Touch what the parse promised is there; abort if a promise breaks.
 * Not const: the states mark the pointers for their search, and unmark.
 */
static void
fuzz_walk(struct ingest_heap *h)
{
	uint64_t	 i, n, sum = 0, size;
	uint32_t	 first, k;
	uint8_t		*st;
	size_t		 len = 0;

	for (i = 0; i < h->mods.count; i++)
		len += strlen(ingest_heap_str(h, ingest_heap_u32(&h->mods, i,
		    HF_MODS_PATH)));
	for (i = 0; i < h->site.count; i++) {
		first = ingest_heap_u32(&h->site, i, HF_SITE_FIRST_FRAME);
		n = ingest_heap_u32(&h->site, i, HF_SITE_NFRAMES);
		for (k = 0; k < n; k++) {
			uint32_t loc = ingest_heap_u32(&h->frms, first + k,
			    HF_FRMS_LOC);

			len += strlen(ingest_heap_str(h, ingest_heap_u32(
			    &h->locs, loc, HF_LOCS_FUNCTION)));
		}
	}
	for (i = 0; i < h->b.count; i++) {
		size = h->b.size[i];
		if (h->contents != 0)
			sum += size < h->contents ? size : h->contents;
	}
	if (h->contents != 0 && sum != h->data.count)
		abort();
	if ((st = malloc(h->b.count + 1)) == NULL)
		abort();
	ingest_heap_states(h, st);
	for (i = 0; i < h->b.count; i++) {
		if (st[i] < INGEST_HEAP_REACHABLE ||
		    st[i] > INGEST_HEAP_INDIRECT)
			abort();
	}
	free(st);
	(void)len;
}

/* What parses must also ingest, and go again on delete. */
static void
fuzz_ingest(const uint8_t *data, size_t size)
{
	static struct store	*st;
	struct ingest_opts	 opts;
	const char		*kind;
	char			*cause = NULL;
	int64_t			 id;
	int			 reused;

	if (st == NULL && (st = store_open(":memory:", 0, kind_store(),
	    &cause)) == NULL)
		abort();
	memset(&opts, 0, sizeof opts);
	if (ingest_bytes(st, "fuzz.heap", data, size, &opts, &id, &kind,
	    &reused, &cause) != 0) {
		/* The parse passed: only the store may refuse it. */
		if (cause == NULL || strstr(cause, "store") == NULL)
			abort();
		free(cause);
		return;
	}
	if (store_session_delete(st, id, &cause) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ingest_ctx	ctx;
	struct ingest_heap	h;

	memset(&ctx, 0, sizeof ctx);
	ctx.path = "fuzz.heap";
	ctx.buf = data;
	ctx.len = size;
	if (ingest_heap_parse(&ctx, &h) != 0) {
		if (ctx.cause == NULL || strstr(ctx.cause, ": offset ") == NULL)
			abort();
		free(ctx.cause);
		ingest_heap_free(&h);
		return (0);
	}
	if (ctx.cause != NULL)
		abort();
	fuzz_walk(&h);
	ingest_heap_free(&h);
	fuzz_ingest(data, size);
	return (0);
}
