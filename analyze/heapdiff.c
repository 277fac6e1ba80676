/*
 * Two snapshots of one run compared: which blocks were born since the
 * older one and which were freed.  A block is the same block in both when
 * it has the same address and the same allocation number: an address
 * freed and given out again between the two is a block freed and one
 * born, which HeapInspector's Remain could not tell ("if an area on the heap
 * is freed and allocated before a new update ... not detected").  Both
 * snapshots list their blocks by address, so one merge pass does it, in
 * time proportional to the blocks of both.
 *
 * Also here, over that diff, the two models the heap map draws: a
 * comparison as the map shows it (born blocks a mark of their own;
 * freed ones where they were, in the cells now free, from a map of their
 * own laid out like the new one's), and HeapInspector's Remain (only the
 * objects there when it was turned on are shown).
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "analyze/diff.h"

#define HD_NONE	ANALYZE_HEAPVIEW_NONE
#define HD_NM	ANALYZE_HEAPMAP_NMARKS

void
analyze_heapdiff_free(struct analyze_heapdiff *d)
{
	free(d->was);
	free(d->freed);
	memset(d, 0, sizeof *d);
}

/* The first of addr[]'s n blocks not after the one before it; 0: none. */
static size_t
hd_unordered(const uint64_t *addr, size_t n)
{
	size_t	i;

	for (i = 1; i < n; i++) {
		if (addr[i] <= addr[i - 1])
			return (i);
	}
	return (0);
}

/*
 * Compare old (the earlier snapshot) with new: d->was[j] is new block j's
 * index in old, or ANALYZE_HEAPVIEW_NONE when it was born since; d->freed
 * the old blocks that are gone, by address.  Without allocation numbers
 * on either side (a snapshot made by hand), a block is the same when its
 * address and usable size are.  -1 and a cause when either side is not
 * in address order (the merge would pair the wrong blocks).
 */
int
analyze_heapdiff_make(struct analyze_heapdiff *d,
    const struct analyze_heapdiff_side *old,
    const struct analyze_heapdiff_side *new, char **cause)
{
	size_t	i = 0, j = 0, k;
	int	byseq = old->seq != NULL && new->seq != NULL;

	memset(d, 0, sizeof *d);
	if (old->n >= HD_NONE || new->n >= HD_NONE) {
		*cause = xasprintf("heap diff: too many blocks");
		return (-1);
	}
	if ((k = hd_unordered(old->addr, old->n)) != 0 ||
	    (k = hd_unordered(new->addr, new->n)) != 0) {
		*cause = xasprintf("heap diff: block %zu of the %s snapshot is"
		    " not after the one before it", k, hd_unordered(old->addr,
		    old->n) != 0 ? "older" : "newer");
		return (-1);
	}
	d->was = xreallocarray(NULL, new->n + 1, sizeof *d->was);
	d->freed = xreallocarray(NULL, old->n + 1, sizeof *d->freed);
	while (i < old->n || j < new->n) {
		if (j == new->n || (i < old->n &&
		    old->addr[i] < new->addr[j])) {
			d->freed[d->nfreed++] = (uint32_t)i;
			d->freed_bytes += old->usable[i];
			i++;
		} else if (i == old->n || new->addr[j] < old->addr[i]) {
			d->was[j] = HD_NONE;
			d->nborn++;
			d->born_bytes += new->usable[j];
			j++;
		} else {
			if (byseq ? old->seq[i] == new->seq[j] :
			    old->usable[i] == new->usable[j])
				d->was[j] = (uint32_t)i;
			else {
				d->freed[d->nfreed++] = (uint32_t)i;
				d->freed_bytes += old->usable[i];
				d->was[j] = HD_NONE;
				d->nborn++;
				d->born_bytes += new->usable[j];
			}
			i++;
			j++;
		}
	}
	return (0);
}

/* ---- the comparison the map shows ---------------------------------- */

struct analyze_heapdiff_cmp {
	int64_t			 against;	/* the older session */
	struct analyze_heapdiff	 d;
	uint8_t			*born;		/* per new block */
	/* The freed blocks in the new snapshot's regions, as a map. */
	uint64_t		*gaddr;
	uint64_t		*gusable;
	size_t			 nghost;
	struct analyze_heapmap	 ghost;
	int			 ghost_ok;
	struct analyze_heapmap_cell *gcells;
	size_t			 ngcells;
};

static void
hd_side(const struct analyze_heapview *s, struct analyze_heapdiff_side *d)
{
	d->addr = s->addr;
	d->usable = s->usable;
	d->seq = s->seq;
	d->n = s->nblocks;
}

/*
 * Compare old (session against) with new, whose map is made: born and
 * freed, the freed laid out on new's regions.  NULL and a cause if the
 * snapshots cannot be compared.
 */
struct analyze_heapdiff_cmp *
analyze_heapdiff_cmp_new(const struct analyze_heapview *old, int64_t against,
    const struct analyze_heapview *new, char **cause)
{
	struct analyze_heapdiff_cmp		*c = xcalloc(1, sizeof *c);
	struct analyze_heapdiff_side	 a, b;
	const struct analyze_heapmap	*m = &new->map;
	size_t				 i, r = 0;
	uint32_t			 k;
	uint64_t			 lo, hi;

	hd_side(old, &a);
	hd_side(new, &b);
	if (analyze_heapdiff_make(&c->d, &a, &b, cause) != 0) {
		free(c);
		return (NULL);
	}
	c->against = against;
	c->born = xcalloc(new->nblocks + 1, 1);
	for (i = 0; i < new->nblocks; i++)
		c->born[i] = c->d.was[i] == HD_NONE;
	/* Freed blocks wholly inside a region of the new map, by address. */
	c->gaddr = xreallocarray(NULL, c->d.nfreed + 1, sizeof *c->gaddr);
	c->gusable = xreallocarray(NULL, c->d.nfreed + 1,
	    sizeof *c->gusable);
	for (i = 0; i < c->d.nfreed; i++) {
		k = c->d.freed[i];
		lo = old->addr[k];
		hi = lo + (old->usable[k] != 0 ? old->usable[k] : 1);
		while (r < m->nregions && m->regions[r].hi <= lo)
			r++;
		if (r == m->nregions)
			break;
		if (lo < m->regions[r].lo || hi > m->regions[r].hi)
			continue;
		c->gaddr[c->nghost] = lo;
		c->gusable[c->nghost++] = old->usable[k];
	}
	if (analyze_heapmap_build(&c->ghost, m->regions, m->nregions,
	    c->gaddr, c->gusable, c->nghost, cause) != 0) {
		analyze_heapdiff_cmp_free(c);
		return (NULL);
	}
	c->ghost_ok = 1;
	memset(c->ghost.mark, ANALYZE_HEAPMAP_FREED, c->nghost);
	analyze_heapmap_marks_changed(&c->ghost);
	return (c);
}

void
analyze_heapdiff_cmp_free(struct analyze_heapdiff_cmp *c)
{
	if (c == NULL)
		return;
	analyze_heapdiff_free(&c->d);
	if (c->ghost_ok)
		analyze_heapmap_free(&c->ghost);
	free(c->born);
	free(c->gaddr);
	free(c->gusable);
	free(c->gcells);
	free(c);
}

int64_t
analyze_heapdiff_cmp_against(const struct analyze_heapdiff_cmp *c)
{
	return (c->against);
}

/* Born and freed: counts and usable bytes. */
void
analyze_heapdiff_cmp_counts(const struct analyze_heapdiff_cmp *c, size_t *born,
    uint64_t *born_bytes, size_t *freed, uint64_t *freed_bytes)
{
	*born = c->d.nborn;
	*born_bytes = c->d.born_bytes;
	*freed = c->d.nfreed;
	*freed_bytes = c->d.freed_bytes;
}

/* The new snapshot's block b: its old index, or NONE when born. */
uint32_t
analyze_heapdiff_cmp_was(const struct analyze_heapdiff_cmp *c, size_t b)
{
	return (c->d.was[b]);
}

/*
 * The marks: a born block nothing higher picks is born; with Remain, a
 * block born since it was turned on is not shown (remain: a byte per
 * block, 1 hides it; NULL when off).
 */
void
analyze_heapdiff_cmp_marks(const struct analyze_heapdiff_cmp *c,
    const uint8_t *remain, uint8_t *mark, size_t n)
{
	size_t	b;

	for (b = 0; c != NULL && b < n; b++) {
		if (c->born[b] && mark[b] != ANALYZE_HEAPMAP_NONE &&
		    mark[b] < ANALYZE_HEAPMAP_BORN)
			mark[b] = ANALYZE_HEAPMAP_BORN;
	}
	for (b = 0; remain != NULL && b < n; b++) {
		if (remain[b])
			mark[b] = ANALYZE_HEAPMAP_NONE;
	}
}

/*
 * The freed blocks into a frame: a cell nothing live is drawn in shows
 * them where they were.  inview gets their counts in view; the legend's
 * total is every freed block, drawn or not (an mmap'd block's region
 * went with it).
 */
void
analyze_heapdiff_cmp_frame(struct analyze_heapdiff_cmp *c,
    const struct analyze_heapmap_view *v, struct analyze_heapmap_cell *cells,
    struct analyze_heapmap_count *inview)
{
	struct analyze_heapmap_count	cnt[HD_NM];
	size_t				i, n = (size_t)v->rows * v->cols;

	if (c == NULL || c->nghost == 0)
		return;
	if (n > c->ngcells) {
		c->gcells = xreallocarray(c->gcells, n, sizeof *c->gcells);
		c->ngcells = n;
	}
	analyze_heapmap_frame(&c->ghost, v, c->gcells);
	for (i = 0; i < n; i++) {
		if (cells[i].mark == ANALYZE_HEAPMAP_NONE &&
		    c->gcells[i].mark == ANALYZE_HEAPMAP_FREED)
			cells[i] = c->gcells[i];
	}
	analyze_heapmap_counts(&c->ghost, v, cnt);
	inview[ANALYZE_HEAPMAP_FREED] = cnt[ANALYZE_HEAPMAP_FREED];
}

/* The legend's totals: the freed blocks, all of them. */
void
analyze_heapdiff_cmp_totals(const struct analyze_heapdiff_cmp *c,
    struct analyze_heapmap_count *tot)
{
	if (c == NULL)
		return;
	tot[ANALYZE_HEAPMAP_FREED].blocks = c->d.nfreed;
	tot[ANALYZE_HEAPMAP_FREED].bytes = c->d.freed_bytes;
}

/* ---- Remain --------------------------------------------------------- */

struct analyze_heapdiff_remain {
	uint64_t	*addr, *usable, *seq;
	size_t		 n;
};

/* Remain on: the objects of s are the ones shown from now on. */
struct analyze_heapdiff_remain *
analyze_heapdiff_remain_new(const struct analyze_heapview *s)
{
	struct analyze_heapdiff_remain	*r = xcalloc(1, sizeof *r);

	r->n = s->nblocks;
	r->addr = xreallocarray(NULL, r->n + 1, sizeof *r->addr);
	r->usable = xreallocarray(NULL, r->n + 1, sizeof *r->usable);
	memcpy(r->addr, s->addr, r->n * sizeof *r->addr);
	memcpy(r->usable, s->usable, r->n * sizeof *r->usable);
	if (s->seq != NULL) {
		r->seq = xreallocarray(NULL, r->n + 1, sizeof *r->seq);
		memcpy(r->seq, s->seq, r->n * sizeof *r->seq);
	}
	return (r);
}

void
analyze_heapdiff_remain_free(struct analyze_heapdiff_remain *r)
{
	if (r == NULL)
		return;
	free(r->addr);
	free(r->usable);
	free(r->seq);
	free(r);
}

/*
 * The blocks of s that were not there when Remain was turned on, a byte
 * each in hide (1: not shown); how many.  -1 if they cannot be compared.
 */
long
analyze_heapdiff_remain_hide(const struct analyze_heapdiff_remain *r,
    const struct analyze_heapview *s, uint8_t *hide)
{
	struct analyze_heapdiff_side	a, b;
	struct analyze_heapdiff		d;
	char				*cause = NULL;
	size_t				i;
	long				n = 0;

	a.addr = r->addr;
	a.usable = r->usable;
	a.seq = r->seq;
	a.n = r->n;
	hd_side(s, &b);
	if (analyze_heapdiff_make(&d, &a, &b, &cause) != 0) {
		free(cause);
		return (-1);
	}
	for (i = 0; i < s->nblocks; i++) {
		hide[i] = d.was[i] == HD_NONE;
		n += hide[i];
	}
	analyze_heapdiff_free(&d);
	return (n);
}

/*
 * The heap kind's diff hook (kind.h, analyze/diff.h): two snapshots by
 * allocation stack, the sites' frames by name (two builds' sites have
 * other numbers and addresses).  Live and collectable (definitely or
 * indirectly lost) blocks and their bytes asked for, each side's; new
 * and gone are the comparison above, blocks born since the baseline and
 * blocks of it freed, by address and allocation number: exact for two
 * snapshots of one run, where a block keeps both, and every block of
 * either side for two runs.
 */
static const struct analyze_diff_measure hd_diff_m[] = {
	{ "live_bytes", "live bytes", 0 },
	{ "live_blocks", "live blocks", 0 },
	{ "collectable_bytes", "collectable bytes", 0 },
	{ "collectable_blocks", "collectable blocks", 0 },
	{ "new_bytes", "new bytes", ANALYZE_DIFF_CHANGE },
	{ "new_blocks", "new blocks", ANALYZE_DIFF_CHANGE },
	{ "gone_bytes", "gone bytes", ANALYZE_DIFF_CHANGE },
	{ "gone_blocks", "gone blocks", ANALYZE_DIFF_CHANGE },
};
#define HD_DIFF_M	(sizeof hd_diff_m / sizeof hd_diff_m[0])
#define HD_DIFF_NEW	4	/* new bytes, blocks; gone's after them */
#define HD_DIFF_GONE	6

/*
 * Site s's frames' functions, innermost first: not their lines, which an
 * edit of the source moves.
 */
static char *
hd_diff_stack(const struct analyze_heapview *v, size_t s)
{
	const struct analyze_heapview_frame	*f;
	char					*out, *t;
	uint32_t				 i;

	if (s >= v->nsites || v->site_first[s] == v->site_first[s + 1])
		return (xstrdup("(not known)"));
	out = NULL;
	for (i = v->site_first[s]; i < v->site_first[s + 1]; i++) {
		f = &v->frames[v->site_frame != NULL ? v->site_frame[i] : i];
		t = out == NULL ? xstrdup(f->function) : xasprintf("%s < %s",
		    out, f->function);
		free(out);
		out = t;
	}
	return (out);
}

/*
 * Side's blocks into the table by site; changed[] marks the blocks of
 * the change: born (the new side's) or freed (the baseline's).  The
 * change's counts are kept as the new side's values (ANALYZE_DIFF_CHANGE).
 */
static void
hd_diff_side(struct analyze_diff_table *t, int side,
    const struct analyze_heapview *v, const uint8_t *changed)
{
	struct analyze_diff_row	*r;
	double			 x[HD_DIFF_M], ch[2], *sum;
	char			*name;
	size_t			 i, s, ns = v->nsites + 1, c;
	uint32_t		 site;

	/* Per site, the last for blocks of no known site. */
	sum = xcalloc(ns * HD_DIFF_M, sizeof *sum);
	c = side == ANALYZE_DIFF_NEW ? HD_DIFF_NEW : HD_DIFF_GONE;
	for (i = 0; i < v->nblocks; i++) {
		site = v->site[i];
		s = (site < v->nsites ? site : v->nsites) * HD_DIFF_M;
		sum[s] += (double)v->size[i];
		sum[s + 1]++;
		if (v->graph_ready && i < v->graph.nblocks &&
		    analyze_heapleaks_collectable(v->graph.state[i])) {
			sum[s + 2] += (double)v->size[i];
			sum[s + 3]++;
		}
		if (changed[i]) {
			sum[s + c] += (double)v->size[i];
			sum[s + c + 1]++;
		}
	}
	for (s = 0; s < ns; s++) {
		if (sum[s * HD_DIFF_M + 1] == 0)
			continue;
		name = hd_diff_stack(v, s);
		memcpy(x, &sum[s * HD_DIFF_M], sizeof x);
		ch[0] = x[c];
		ch[1] = x[c + 1];
		x[c] = x[c + 1] = 0;
		r = analyze_diff_add(t, side, name, s, x);
		r->v[c * 2 + ANALYZE_DIFF_NEW] += ch[0];
		r->v[(c + 1) * 2 + ANALYZE_DIFF_NEW] += ch[1];
		free(name);
	}
	free(sum);
}

int
analyze_heap_diff(struct store *st, void *a, void *b, struct analyze_diff *d,
    char **cause)
{
	const struct analyze_heap_summary	*m[2] = { a, b };
	struct analyze_diff_table		*t;
	struct analyze_heapdiff			 hd;
	struct analyze_heapdiff_side		 sd[2];
	uint8_t					*changed[2];
	size_t					 i;
	int					 side;

	(void)st;
	hd_side(m[0]->view, &sd[0]);
	hd_side(m[1]->view, &sd[1]);
	if (analyze_heapdiff_make(&hd, &sd[0], &sd[1], cause) != 0)
		return (-1);
	changed[0] = xcalloc(sd[0].n + 1, 1);
	changed[1] = xcalloc(sd[1].n + 1, 1);
	for (i = 0; i < hd.nfreed; i++)
		changed[0][hd.freed[i]] = 1;
	for (i = 0; i < sd[1].n; i++)
		changed[1][i] = hd.was[i] == HD_NONE;
	analyze_heapdiff_free(&hd);
	t = analyze_diff_table(d, "stacks", "Allocation stacks", "stack",
	    hd_diff_m, HD_DIFF_M);
	d->note = "Bytes asked for, by allocation stack; new: born since"
	    " the baseline, gone: its blocks freed since (by address and"
	    " allocation number).";
	for (side = 0; side < 2; side++) {
		hd_diff_side(t, side, m[side]->view, changed[side]);
		free(changed[side]);
	}
	return (0);
}
