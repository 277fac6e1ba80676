/*
 * libFuzzer harness for the heap snapshot reader: any bytes must parse
 * or fail with a cause naming an offset, never read outside them; what
 * parses must survive memcheck's rules (every block gets a state) and a
 * walk over every string, index and kept byte the parse vouched for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/oberon/heapfmt.h"
#include "tests/fuzz/fuzz.h"
#include "ingest/ingest.h"

/* Touch what the parse promised is there; abort if a promise breaks. */
static void
fuzz_walk(const struct ingest_heap *h)
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
	for (i = 0; i < h->blks.count; i++) {
		size = ingest_heap_u64(&h->blks, i, HF_BLKS_SIZE);
		if (h->contents != 0)
			sum += size < h->contents ? size : h->contents;
	}
	if (h->contents != 0 && sum != h->data.count)
		abort();
	if ((st = malloc(h->blks.count + 1)) == NULL)
		abort();
	ingest_heap_states(h, st);
	for (i = 0; i < h->blks.count; i++) {
		if (st[i] < INGEST_HEAP_REACHABLE || st[i] > INGEST_HEAP_INDIRECT)
			abort();
	}
	free(st);
	(void)len;
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
		return (0);
	}
	if (ctx.cause != NULL)
		abort();
	fuzz_walk(&h);
	return (0);
}
