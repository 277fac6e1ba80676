/*
 * heapsum FILE.heap [-v|-c]: read a pvheap snapshot with the reader and
 * print memcheck's leak summary of it, one "KIND blocks bytes" line per
 * kind, for the end-to-end tests to compare with valgrind.  -v also
 * lists every block (state, address, size, type, first frame), every
 * root pointer and the types, for people; -c the agent's counters.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/pvheap/heapfmt.h"
#include "ingest/ingest.h"
#include "ingest/heap.h"

static const char *state_name[] = { "?", "reachable", "possible",
    "definite", "indirect" };

static const char *
site_func(const struct ingest_heap *h, uint32_t site)
{
	uint32_t	first, n, loc;

	if (site >= h->site.count)
		return ("?");
	first = ingest_heap_u32(&h->site, site, HF_SITE_FIRST_FRAME);
	n = ingest_heap_u32(&h->site, site, HF_SITE_NFRAMES);
	if (n == 0)
		return ("?");
	loc = ingest_heap_u32(&h->frms, first, HF_FRMS_LOC);
	return (ingest_heap_str(h, ingest_heap_u32(&h->locs, loc,
	    HF_LOCS_FUNCTION)));
}

int
main(int argc, char **argv)
{
	struct ingest_ctx	 ctx;
	struct ingest_heap	 h;
	struct stat		 sb;
	uint64_t		 n[5] = { 0 }, bytes[5] = { 0 }, i, size;
	uint8_t			*state;
	uint32_t		 t, r;
	void			*p;
	int			 fd, verbose, counters;

	if (argc < 2) {
		fprintf(stderr, "usage: heapsum FILE.heap [-v]\n");
		return (2);
	}
	verbose = argc > 2 && strcmp(argv[2], "-v") == 0;
	counters = argc > 2 && strcmp(argv[2], "-c") == 0;
	if ((fd = open(argv[1], O_RDONLY)) == -1 || fstat(fd, &sb) != 0) {
		perror(argv[1]);
		return (1);
	}
	p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror(argv[1]);
		return (1);
	}
	memset(&ctx, 0, sizeof ctx);
	ctx.path = argv[1];
	ctx.buf = p;
	ctx.len = (size_t)sb.st_size;
	if (ingest_heap_parse(&ctx, &h) != 0) {
		fprintf(stderr, "%s\n", ctx.cause);
		ingest_heap_free(&h);
		return (1);
	}
	for (i = 0; counters && i < h.cntr.count; i++)
		printf("counter %s %llu\n", ingest_heap_str(&h,
		    ingest_heap_u32(&h.cntr, i, HF_CNTR_NAME)),
		    (unsigned long long)ingest_heap_u64(&h.cntr, i,
		    HF_CNTR_VALUE));
	state = malloc(h.b.count + 1);
	ingest_heap_states(&h, state);
	for (i = 0; i < h.b.count; i++) {
		size = h.b.size[i];
		n[state[i]]++;
		bytes[state[i]] += size;
		n[0]++;
		bytes[0] += size;
		if (!verbose)
			continue;
		t = h.b.type[i];
		printf("block %llu %s %#llx %llu type=%s site=%s\n",
		    (unsigned long long)i, state_name[state[i]],
		    (unsigned long long)h.b.addr[i], (unsigned long long)size,
		    t < h.type.count ? ingest_heap_str(&h,
		    ingest_heap_u32(&h.type, t, HF_TYPE_NAME)) : "?",
		    site_func(&h, h.b.site[i]));
	}
	for (i = 0; verbose && i < h.root.count; i++) {
		r = ingest_heap_u32(&h.root, i, HF_ROOT_REGION);
		printf("root %s:%s+%u -> %u+%u\n", ingest_heap_str(&h,
		    ingest_heap_u32(&h.regn, r, HF_REGN_NAME)),
		    ingest_heap_str(&h, ingest_heap_u32(&h.root, i,
		    HF_ROOT_SYMBOL)), ingest_heap_u32(&h.root, i,
		    HF_ROOT_SYM_OFF), ingest_heap_u32(&h.root, i, HF_ROOT_DST),
		    ingest_heap_u32(&h.root, i, HF_ROOT_DST_OFF) &
		    HEAPFMT_OFF_MASK);
	}
	for (i = 0; verbose && i < h.type.count; i++)
		printf("type %llu %s kind=%u\n", (unsigned long long)i,
		    ingest_heap_str(&h, ingest_heap_u32(&h.type, i,
		    HF_TYPE_NAME)), ingest_heap_u32(&h.type, i, HF_TYPE_KIND));
	printf("blocks %llu %llu\n", (unsigned long long)n[0],
	    (unsigned long long)bytes[0]);
	for (i = 1; i < 5; i++)
		printf("%s %llu %llu\n", state_name[i],
		    (unsigned long long)n[i], (unsigned long long)bytes[i]);
	printf("collectable %llu %llu\n", (unsigned long long)(n[3] + n[4]),
	    (unsigned long long)(bytes[3] + bytes[4]));
	free(state);
	ingest_heap_free(&h);
	return (0);
}
