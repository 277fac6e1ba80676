/*
 * Leaks by allocation stack (tui/heapinfo.c's Leaks and Live lists, the
 * CLI's leaks and live questions, the reports): memcheck's loss records,
 * the blocks merged by their allocation stack and leak state.  A site is
 * a distinct stack of return addresses (pvheap's), so merging by site is
 * memcheck's --leak-resolution=high.  Over the records, heaptrack's two
 * trees: bottom-up (the allocating function, the stacks under it) and
 * top-down (from the outermost frame in, merged by frame).  Every row
 * keeps its records, so a row's blocks are those whose record it holds.
 */
#include <stdlib.h>
#include <string.h>

#include "intern.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"

#define HL_NONE		ANALYZE_HEAPVIEW_NONE

static const char *const hl_state_names[ANALYZE_HEAP_NSTATES] = {
	"unreached", "still reachable", "possibly lost", "definitely lost",
	"indirectly lost"
};

/* memcheck's name of a state, "" for a row of records of several. */
const char *
analyze_heapleaks_state(unsigned state)
{
	return (state < ANALYZE_HEAP_NSTATES ? hl_state_names[state] : "");
}

/* Whether a state is collectable: definitely or indirectly lost. */
int
analyze_heapleaks_collectable(unsigned state)
{
	return (state == ANALYZE_HEAP_DEFINITE ||
	    state == ANALYZE_HEAP_INDIRECT);
}

/* Most bytes first, then most blocks; then by state and site, stably. */
static int
hl_rec_cmp(const void *a, const void *b)
{
	const struct analyze_heapleak_rec	*x = a, *y = b;

	if (x->bytes != y->bytes)
		return (x->bytes < y->bytes ? 1 : -1);
	if (x->blocks != y->blocks)
		return (x->blocks < y->blocks ? 1 : -1);
	if (x->state != y->state)
		return (x->state < y->state ? 1 : -1);
	return (x->site < y->site ? -1 : x->site > y->site);
}

/* Frame i (innermost first) of site s, as an index into v->frames. */
static uint32_t
hl_frame(const struct analyze_heapview *v, uint32_t site, uint32_t i)
{
	uint32_t	k;

	if (site == HL_NONE || site >= v->nsites ||
	    i >= v->site_first[site + 1] - v->site_first[site])
		return (HL_NONE);
	k = v->site_first[site] + i;
	/* Without site_frame the runs index frames[] itself. */
	return (v->site_frame != NULL ? v->site_frame[k] : k);
}

struct hl_build {
	struct analyze_heapleaks	*l;
	const struct analyze_heapview	*v;
	size_t				 rcap;
	size_t				 ccap;
};

/* A row over recs[0 .. n) (record indices), its sums and state. */
static struct analyze_heapleak_row *
hl_row(struct hl_build *b, uint32_t depth, uint32_t rec, uint32_t frame,
    const uint32_t *recs, size_t n)
{
	struct analyze_heapleaks	*l = b->l;
	struct analyze_heapleak_row	*r;
	size_t				 i;

	if (l->nrows == b->rcap) {
		b->rcap = b->rcap != 0 ? b->rcap * 2 : 64;
		l->rows = xreallocarray(l->rows, b->rcap, sizeof *l->rows);
	}
	while (l->nrow_recs + n > b->ccap) {
		b->ccap = b->ccap != 0 ? b->ccap * 2 : 64;
		l->row_recs = xreallocarray(l->row_recs, b->ccap,
		    sizeof *l->row_recs);
	}
	r = &l->rows[l->nrows++];
	memset(r, 0, sizeof *r);
	r->depth = depth;
	r->rec = rec;
	r->frame = frame;
	r->first = (uint32_t)l->nrow_recs;
	r->n = (uint32_t)n;
	r->state = n != 0 ? l->recs[recs[0]].state : ANALYZE_HEAP_NSTATES;
	for (i = 0; i < n; i++) {
		l->row_recs[l->nrow_recs++] = recs[i];
		r->blocks += l->recs[recs[i]].blocks;
		r->bytes += l->recs[recs[i]].bytes;
		if (l->recs[recs[i]].state != r->state)
			r->state = ANALYZE_HEAP_NSTATES;
	}
	return (r);
}

/* A group of records under one key: a frame, or a function's name. */
struct hl_group {
	uint32_t	 key;
	uint32_t	 rec;
};

static int
hl_group_cmp(const void *a, const void *b)
{
	const struct hl_group	*x = a, *y = b;

	if (x->key != y->key)
		return (x->key < y->key ? -1 : 1);
	return (x->rec < y->rec ? -1 : x->rec > y->rec);
}

/*
 * Each group's key made the first of its frames with the same function's
 * name (a function's lines are frames of their own), by a hash of names.
 */
static void
hl_by_name(const struct analyze_heapview *v, struct hl_group *g, size_t n)
{
	struct intern	names;
	size_t		i;
	int		made;

	memset(&names, 0, sizeof names);
	for (i = 0; i < n; i++) {
		if (g[i].key != HL_NONE)
			g[i].key = intern(&names, v->frames[g[i].key].function,
			    g[i].key, &made);
	}
	intern_free(&names);
}

/* Runs of equal keys in g[0 .. n), as [start, end) pairs by bytes. */
struct hl_run {
	size_t		 a, z;
	uint64_t	 bytes;
	uint64_t	 blocks;
};

static int
hl_run_cmp(const void *a, const void *b)
{
	const struct hl_run	*x = a, *y = b;

	if (x->bytes != y->bytes)
		return (x->bytes < y->bytes ? 1 : -1);
	if (x->blocks != y->blocks)
		return (x->blocks < y->blocks ? 1 : -1);
	return (x->a < y->a ? -1 : 1);
}

static struct hl_run *
hl_runs(const struct analyze_heapleaks *l,
    const struct hl_group *g, size_t n, size_t *nruns)
{
	struct hl_run	*runs;
	size_t		 i, k = 0;

	runs = xcalloc(n + 1, sizeof *runs);
	for (i = 0; i < n; i++) {
		if (i == 0 || g[i].key != g[i - 1].key) {
			runs[k].a = i;
			k++;
		}
		runs[k - 1].z = i + 1;
		runs[k - 1].bytes += l->recs[g[i].rec].bytes;
		runs[k - 1].blocks += l->recs[g[i].rec].blocks;
	}
	qsort(runs, k, sizeof *runs, hl_run_cmp);
	*nruns = k;
	return (runs);
}

/*
 * Top-down: the records recs[0 .. n) share their outermost depth frames;
 * a row for each frame next in (by bytes), and the records under it.
 * A record whose stack ends here is counted in its parent only.
 */
static void
hl_top_down(struct hl_build *b, const uint32_t *recs, size_t n,
    uint32_t depth)
{
	const struct analyze_heapview	*v = b->v;
	struct analyze_heapleaks	*l = b->l;
	struct hl_group			*g;
	struct hl_run			*runs;
	uint32_t			*sub, nf, site;
	size_t				 i, j, k, m = 0, nruns;

	g = xcalloc(n + 1, sizeof *g);
	for (i = 0; i < n; i++) {
		site = l->recs[recs[i]].site;
		nf = site != HL_NONE && site < v->nsites ?
		    v->site_first[site + 1] - v->site_first[site] : 0;
		if (depth >= nf) {
			/* An unknown stack is a row of its own, at the top. */
			if (depth != 0)
				continue;
			g[m].key = HL_NONE;
		} else
			g[m].key = hl_frame(v, site, nf - 1 - depth);
		g[m++].rec = recs[i];
	}
	qsort(g, m, sizeof *g, hl_group_cmp);
	runs = hl_runs(l, g, m, &nruns);
	sub = xcalloc(m + 1, sizeof *sub);
	for (i = 0; i < nruns; i++) {
		for (j = runs[i].a, k = 0; j < runs[i].z; j++)
			sub[k++] = g[j].rec;
		hl_row(b, depth, HL_NONE, g[runs[i].a].key, sub, k);
		if (g[runs[i].a].key != HL_NONE)
			hl_top_down(b, sub, k, depth + 1);
	}
	free(sub);
	free(runs);
	free(g);
}

/* Bottom-up: the allocating functions by bytes, each with its records. */
static void
hl_bottom_up(struct hl_build *b)
{
	const struct analyze_heapview	*v = b->v;
	struct analyze_heapleaks	*l = b->l;
	struct hl_group			*g;
	struct hl_run			*runs;
	uint32_t			*sub;
	size_t				 i, j, k, nruns;

	g = xcalloc(l->nrecs + 1, sizeof *g);
	for (i = 0; i < l->nrecs; i++) {
		g[i].key = hl_frame(v, l->recs[i].site, 0);
		g[i].rec = (uint32_t)i;
	}
	hl_by_name(v, g, l->nrecs);
	qsort(g, l->nrecs, sizeof *g, hl_group_cmp);
	runs = hl_runs(l, g, l->nrecs, &nruns);
	sub = xcalloc(l->nrecs + 1, sizeof *sub);
	for (i = 0; i < nruns; i++) {
		/* Records are by bytes: their indices in order are too. */
		for (j = runs[i].a, k = 0; j < runs[i].z; j++)
			sub[k++] = g[j].rec;
		hl_row(b, 0, HL_NONE, g[runs[i].a].key, sub, k);
		for (j = 0; j < k; j++)
			hl_row(b, 1, sub[j], g[runs[i].a].key, &sub[j], 1);
	}
	free(sub);
	free(runs);
	free(g);
}

/*
 * The records of a snapshot's lost blocks (possibly, definitely and
 * indirectly lost), or of every live block with all set, and the rows of
 * the shape asked for.  The view's graph must be ready.
 */
void
analyze_heapleaks_make(struct analyze_heapleaks *l,
    const struct analyze_heapview *v, int all, int shape)
{
	struct hl_build		 b;
	uint32_t		*slot, *idx, site, key;
	uint8_t			 st;
	size_t			 i, nkeys, cap = 0;

	memset(l, 0, sizeof *l);
	l->all = all;
	l->shape = shape;
	l->block_rec = xcalloc(v->nblocks + 1, sizeof *l->block_rec);
	/* A record per (site, state): slot[site * NSTATES + state]. */
	nkeys = (v->nsites + 1) * ANALYZE_HEAP_NSTATES;
	slot = xcalloc(nkeys, sizeof *slot);
	for (i = 0; i < v->nblocks; i++) {
		st = v->graph.state[i];
		if (st == ANALYZE_HEAP_UNREACHED || st >= ANALYZE_HEAP_NSTATES ||
		    (!all && st == ANALYZE_HEAP_REACHABLE)) {
			l->block_rec[i] = HL_NONE;
			continue;
		}
		site = v->site[i] < v->nsites ? v->site[i] : HL_NONE;
		key = (site == HL_NONE ? (uint32_t)v->nsites : site) *
		    ANALYZE_HEAP_NSTATES + st;
		if (slot[key] == 0) {
			if (l->nrecs == cap) {
				cap = cap != 0 ? cap * 2 : 64;
				l->recs = xreallocarray(l->recs, cap,
				    sizeof *l->recs);
			}
			memset(&l->recs[l->nrecs], 0, sizeof *l->recs);
			l->recs[l->nrecs].site = site;
			l->recs[l->nrecs].state = st;
			slot[key] = (uint32_t)++l->nrecs;
		}
		l->block_rec[i] = slot[key] - 1;
		l->recs[slot[key] - 1].blocks++;
		l->recs[slot[key] - 1].bytes += v->size[i];
		l->blocks++;
		l->bytes += v->size[i];
	}
	free(slot);
	/* Sorted by bytes, then each block's record renumbered. */
	for (i = 0; i < l->nrecs; i++)
		l->recs[i].id = (uint32_t)i;
	if (l->nrecs > 0)	/* recs is NULL then, which qsort must not get */
		qsort(l->recs, l->nrecs, sizeof *l->recs, hl_rec_cmp);
	idx = xcalloc(l->nrecs + 1, sizeof *idx);
	for (i = 0; i < l->nrecs; i++)
		idx[l->recs[i].id] = (uint32_t)i;
	for (i = 0; i < v->nblocks; i++) {
		if (l->block_rec[i] != HL_NONE)
			l->block_rec[i] = idx[l->block_rec[i]];
	}
	for (i = 0; i < l->nrecs; i++)
		l->recs[i].id = idx[i] = (uint32_t)i;
	memset(&b, 0, sizeof b);
	b.l = l;
	b.v = v;
	if (shape == ANALYZE_HEAPLEAKS_BOTTOM_UP)
		hl_bottom_up(&b);
	else if (shape == ANALYZE_HEAPLEAKS_TOP_DOWN)
		hl_top_down(&b, idx, l->nrecs, 0);
	else {
		for (i = 0; i < l->nrecs; i++)
			hl_row(&b, 0, (uint32_t)i, hl_frame(v, l->recs[i].site,
			    0), &idx[i], 1);
	}
	free(idx);
}

void
analyze_heapleaks_free(struct analyze_heapleaks *l)
{
	free(l->recs);
	free(l->block_rec);
	free(l->rows);
	free(l->row_recs);
	memset(l, 0, sizeof *l);
}

/*
 * Row r's blocks as a byte each in sel[] (per block; the rest cleared):
 * its records'.  Their count.
 */
size_t
analyze_heapleaks_mark(const struct analyze_heapleaks *l,
    const struct analyze_heapview *v, size_t r, uint8_t *sel)
{
	const struct analyze_heapleak_row	*row = &l->rows[r];
	uint8_t					*in;
	size_t					 i, n = 0;

	memset(sel, 0, v->nblocks);
	in = xcalloc(l->nrecs + 1, 1);
	for (i = 0; i < row->n; i++)
		in[l->row_recs[row->first + i]] = 1;
	for (i = 0; i < v->nblocks; i++) {
		if (l->block_rec[i] != HL_NONE && in[l->block_rec[i]]) {
			sel[i] = 1;
			n++;
		}
	}
	free(in);
	return (n);
}

/*
 * What row r names, at most max bytes: a record's stack ("f (file:line)
 * < g ..."), a top-down row's frame, a bottom-up row's function.
 */
char *
analyze_heapleaks_label(const struct analyze_heapleaks *l,
    const struct analyze_heapview *v, size_t r, size_t max)
{
	const struct analyze_heapleak_row	*row = &l->rows[r];
	const struct analyze_heapview_frame	*f;

	if (row->rec != HL_NONE)
		return (analyze_heapview_stack(v, l->recs[row->rec].site, max));
	if (row->frame == HL_NONE)
		return (xstrdup("(stack not known)"));
	f = &v->frames[row->frame];
	if (l->shape == ANALYZE_HEAPLEAKS_TOP_DOWN && f->file != NULL)
		return (xasprintf("%.*s (%s:%u)", (int)(max < 4096 ? max :
		    4096), f->function, f->file, f->line));
	return (xasprintf("%.*s", (int)(max < 4096 ? max : 4096),
	    f->function));
}
