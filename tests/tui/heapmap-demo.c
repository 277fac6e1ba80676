/*
 * heapmap-demo FILE: the browser on a heap snapshot described in FILE,
 * for the heap map's screen tests (tests/tui/heapmap.sh), which decide
 * every block that way.  Test-only: built for make check, never
 * installed.  FILE has one record a line, fields separated by tabs:
 *
 *	program	NAME
 *	region	LO	HI	NAME
 *	module	NAME	[IMPORT...]		imports: module numbers
 *	modsize	MODULE	CODE	DATA		a module's segments' bytes
 *	type	MODULE	NAME			MODULE: number or -
 *	frame	FUNCTION	FILE	LINE		FILE: - for none
 *	site	FIRST	COUNT			frames [FIRST, FIRST+COUNT)
 *	block	ADDR	SIZE	USABLE	TYPE	SITE	[HEX]
 *	root	MODULE	NAME
 *	edge	SRC	DST	[i]			block to block (i: inside)
 *	redge	ROOT	DST	[i]			root to block
 *
 * Numbers are read by strtoull base 0 (0x for hex).  HEX is the block's
 * kept contents; a file where no block has it kept none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "kind.h"
#include "store/store.h"
#include "tui/tui.h"
#include "tui/heap.h"

#define DEMO_FIELDS	16

static struct analyze_heapview	*demo_snap;

static uint64_t
demo_num(const char *s)
{
	return (strcmp(s, "-") == 0 ? ANALYZE_HEAPVIEW_NONE :
	    strtoull(s, NULL, 0));
}

/*
 * Room for n + 2 elements of array a, grown by doubling: growing by one
 * copies the whole array each time under ASan's realloc (never in
 * place), and a 32,000-block heap took minutes to read where it takes
 * a second.
 */
static size_t
demo_cap(size_t n)
{
	size_t	c = 4;

	while (c < n + 2)
		c *= 2;
	return (c);
}
#define DEMO_GROW(a, n) do {						\
	if ((n) == 0 || demo_cap(n) != demo_cap((n) - 1))		\
		(a) = xreallocarray((a), demo_cap(n), sizeof *(a));	\
} while (0)

static struct analyze_heapview *
demo_read(const char *path)
{
	struct analyze_heapview	*s = xcalloc(1, sizeof *s);
	FILE			*f;
	char			*line = NULL, *fld[DEMO_FIELDS], *p;
	size_t			 cap = 0, n, i, len, ndata = 0, b;
	ssize_t			 got;
	uint8_t			**data = NULL;
	size_t			*datalen = NULL;
	struct analyze_heap_edge *e;

	if ((f = fopen(path, "r")) == NULL)
		fatal("%s: cannot open", path);
	s->site_first = xcalloc(demo_cap(0), sizeof *s->site_first);
	while ((got = getline(&line, &cap, f)) > 0) {
		if (line[got - 1] == '\n')
			line[got - 1] = '\0';
		for (n = 0, p = line; n < DEMO_FIELDS && p != NULL; n++)
			fld[n] = strsep(&p, "\t");
		if (n == 0 || *fld[0] == '\0' || *fld[0] == '#')
			continue;
		if (strcmp(fld[0], "program") == 0 && n >= 2) {
			free(s->program);
			s->program = xstrdup(fld[1]);
		} else if (strcmp(fld[0], "region") == 0 && n >= 4) {
			DEMO_GROW(s->regions, s->nregions);
			s->regions[s->nregions].lo = demo_num(fld[1]);
			s->regions[s->nregions].hi = demo_num(fld[2]);
			s->regions[s->nregions++].name = xstrdup(fld[3]);
		} else if (strcmp(fld[0], "module") == 0 && n >= 2) {
			DEMO_GROW(s->modules, s->nmodules);
			memset(&s->modules[s->nmodules], 0, sizeof *s->modules);
			s->modules[s->nmodules].name = xstrdup(fld[1]);
			for (i = 2; i < n; i++) {
				DEMO_GROW(s->modules[s->nmodules].imports,
				    s->modules[s->nmodules].nimports);
				s->modules[s->nmodules].imports[s->modules[
				    s->nmodules].nimports++] =
				    (uint32_t)demo_num(fld[i]);
			}
			s->nmodules++;
		} else if (strcmp(fld[0], "modsize") == 0 && n >= 4) {
			i = demo_num(fld[1]);
			if (i >= s->nmodules)
				fatal("%s: modsize: no module %zu", path, i);
			s->modules[i].code_size = demo_num(fld[2]);
			s->modules[i].data_size = demo_num(fld[3]);
		} else if (strcmp(fld[0], "type") == 0 && n >= 3) {
			DEMO_GROW(s->types, s->ntypes);
			s->types[s->ntypes].module = (uint32_t)demo_num(fld[1]);
			s->types[s->ntypes].site = 0;
			s->types[s->ntypes++].name = xstrdup(fld[2]);
		} else if (strcmp(fld[0], "frame") == 0 && n >= 4) {
			DEMO_GROW(s->frames, s->nframes);
			s->frames[s->nframes].function = xstrdup(fld[1]);
			s->frames[s->nframes].file = strcmp(fld[2], "-") == 0 ?
			    NULL : xstrdup(fld[2]);
			s->frames[s->nframes++].line = (uint32_t)demo_num(
			    fld[3]);
		} else if (strcmp(fld[0], "site") == 0 && n >= 3) {
			DEMO_GROW(s->site_first, s->nsites + 1);
			s->site_first[s->nsites] = (uint32_t)demo_num(fld[1]);
			s->site_first[s->nsites + 1] = (uint32_t)(demo_num(
			    fld[1]) + demo_num(fld[2]));
			s->nsites++;
		} else if (strcmp(fld[0], "block") == 0 && n >= 6) {
			b = s->nblocks;
			DEMO_GROW(s->addr, b);
			DEMO_GROW(s->size, b);
			DEMO_GROW(s->usable, b);
			DEMO_GROW(s->type, b);
			DEMO_GROW(s->site, b);
			DEMO_GROW(data, b);
			DEMO_GROW(datalen, b);
			s->addr[b] = demo_num(fld[1]);
			s->size[b] = demo_num(fld[2]);
			s->usable[b] = demo_num(fld[3]);
			s->type[b] = (uint32_t)demo_num(fld[4]);
			s->site[b] = (uint32_t)demo_num(fld[5]);
			data[b] = NULL;
			datalen[b] = 0;
			if (n >= 7) {
				len = strlen(fld[6]) / 2;
				data[b] = xmalloc(len + 1);
				for (i = 0; i < len; i++)
					sscanf(fld[6] + 2 * i, "%2hhx",
					    &data[b][i]);
				datalen[b] = len;
				ndata++;
			}
			s->nblocks++;
		} else if (strcmp(fld[0], "root") == 0 && n >= 3) {
			DEMO_GROW(s->roots, s->nroots);
			s->roots[s->nroots].module = (uint32_t)demo_num(fld[1]);
			s->roots[s->nroots].symbol = NULL;
			s->roots[s->nroots++].name = xstrdup(fld[2]);
		} else if ((strcmp(fld[0], "edge") == 0 ||
		    strcmp(fld[0], "redge") == 0) && n >= 3) {
			DEMO_GROW(s->edges, s->nedges);
			e = &s->edges[s->nedges++];
			e->src = (uint32_t)demo_num(fld[1]);
			e->dst = (uint32_t)demo_num(fld[2]);
			e->flags = (fld[0][0] == 'r' ? ANALYZE_HEAP_E_ROOT :
			    0) | (n >= 4 && strcmp(fld[3], "i") == 0 ?
			    ANALYZE_HEAP_E_INTERIOR : 0);
		} else
			fatal("%s: cannot read: %s", path, fld[0]);
	}
	free(line);
	fclose(f);
	if (s->program == NULL)
		s->program = xstrdup(path);
	if (ndata != 0) {
		s->data_off = xcalloc(s->nblocks + 1, sizeof *s->data_off);
		for (b = 0; b < s->nblocks; b++)
			s->data_off[b + 1] = s->data_off[b] + datalen[b];
		s->data = xmalloc(s->data_off[s->nblocks] + 1);
		for (b = 0; b < s->nblocks; b++) {
			if (datalen[b] != 0)
				memcpy(s->data + s->data_off[b], data[b],
				    datalen[b]);
		}
	}
	for (b = 0; b < s->nblocks; b++)
		free(data[b]);
	free(data);
	free(datalen);
	/* Arrays read empty still need to exist. */
	DEMO_GROW(s->addr, s->nblocks);
	DEMO_GROW(s->size, s->nblocks);
	DEMO_GROW(s->usable, s->nblocks);
	DEMO_GROW(s->type, s->nblocks);
	DEMO_GROW(s->site, s->nblocks);
	return (s);
}

static struct tui_view *
demo_open(void *arg)
{
	struct tui_view	*v;
	char		*cause = NULL;

	if ((v = tui_heapmap_open(demo_snap, &cause)) == NULL)
		fatal("%s: %s", (const char *)arg, cause);
	return (v);
}

int
main(int argc, char **argv)
{
	struct tui_opts	 opts;
	struct store	*st;
	char		*cause = NULL;

	if (argc != 2) {
		fprintf(stderr, "usage: heapmap-demo FILE\n");
		return (2);
	}
	demo_snap = demo_read(argv[1]);
	if ((st = store_open(":memory:", 0, kind_store(), &cause)) == NULL)
		fatal("store: %s", cause);
	memset(&opts, 0, sizeof opts);
	opts.open = demo_open;
	opts.open_arg = argv[1];
	tui_main(st, NULL, 0, &opts);
	store_close(st);
	return (0);
}
