/*
 * Overlay sessions: load an OVD session's units, events and residencies,
 * work out the per-unit statistics OVRACT's report programs gave (loads,
 * reprieves, resident share, time between reloads), name call sites, and
 * index each unit's events and stays so that what any window of time holds
 * is a few binary searches (the timeline's columns at any zoom).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsearch.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/ovd.h"
#include "store/ovd.h"

#define OVR_STRIDE	32	/* keys per copied-out key (analyze_ovd_key) */

double
analyze_ovd_seconds(int64_t ticks)
{
	return ((double)ticks / ANALYZE_OVD_TICKS_PER_S);
}

/* Index of the unit with this static segment (one at most), or -1. */
static long
ovr_unit_index(const struct analyze_ovd *o, int seg)
{
	size_t	i;

	BSEARCH_FIRST(i, 0, o->nunits, o->units[i].stat_seg < seg);
	return (i < o->nunits && o->units[i].stat_seg == seg ? (long)i : -1);
}

static int
ovr_load_units(struct store *st, struct analyze_ovd *o)
{
	struct store_cursor	*c;
	struct store_ovr_unit	 row;
	struct analyze_ovd_unit	*u;
	size_t			 cap = 0;
	int			 rc;

	if ((c = store_ovr_units(st, o->session)) == NULL)
		return (-1);
	while ((rc = store_ovr_unit_next(c, &row)) == 1) {
		if (o->nunits == cap) {
			cap = cap != 0 ? cap * 2 : 16;
			o->units = xreallocarray(o->units, cap, sizeof *u);
		}
		u = &o->units[o->nunits++];
		memset(u, 0, sizeof *u);
		u->stat_seg = row.stat_seg;
		u->file_ofs = row.file_ofs;
		u->code_size = row.code_size;
		u->fixup_size = row.fixup_size;
		u->entry_pts = row.entry_pts;
		u->name = row.name != NULL ? xstrdup(row.name) :
		    xasprintf("seg %04Xh", u->stat_seg);
		u->first_load = u->last_load = -1;
		u->mean_reload_ticks = -1;
	}
	store_cursor_close(c);
	return (rc);
}

enum ovr_phase {
	OVR_EVENTS,
	OVR_SPANS,
	OVR_SORT,
	OVR_MERGE,
	OVR_DONE
};

/*
 * An OVD session loads in steps so that a caller with a screen to keep
 * alive can stop between them: events in seq order (the primary key's,
 * so SQLite does not sort), then the stays.  ovr_loaded has no index, and
 * asking SQLite to order it would sort every row inside the first step;
 * so the stays come in table order, which is nearly first_seq order (a
 * row is written when the stay ends), the few that break the order are
 * set aside, then sorted and merged back in, both in steps.
 */
struct analyze_ovd_loader {
	struct store		*st;
	struct analyze_ovd	*o;
	enum ovr_phase		 phase;
	struct store_cursor	*c;
	size_t			 cap;
	int64_t			 ev_total;	/* estimates, for progress */
	int64_t			 row_lo;
	int64_t			 row_hi;
	int64_t			 row_at;
	struct analyze_ovd_span	*side;		/* stays out of order */
	size_t			 nside;
	size_t			 cside;
	struct analyze_ovd_span	*tmp;		/* sort: side's other half */
	size_t			 w;		/* sort: run width, */
	size_t			 lo;		/* pair of runs, */
	size_t			 a;		/* next of each, */
	size_t			 b;
	size_t			 out;		/* next out */
	size_t			 mi;		/* merge, from the end: spans, */
	size_t			 si;		/* side, */
	size_t			 mo;		/* and out, each one past */
};

/* Presizing is only a guess from the store: never trust it for more. */
#define OVR_PRESIZE_MAX	((size_t)1 << 24)

static int
ovr_span_less(const struct analyze_ovd_span *a,
    const struct analyze_ovd_span *b)
{
	if (a->first != b->first)
		return (a->first < b->first);
	return (a->unit < b->unit);	/* units are by stat_seg */
}

static size_t
ovr_presize(int64_t n)
{
	if (n <= 0)
		return (0);
	if ((uint64_t)n > OVR_PRESIZE_MAX)
		return (OVR_PRESIZE_MAX);
	return ((size_t)n);
}

/*
 * Start loading OVD session id into o: the header, units and symbols
 * now, the events and stays by analyze_ovd_step.  NULL and cause on
 * error, with o empty.
 */
struct analyze_ovd_loader *
analyze_ovd_begin(struct store *st, int64_t id, struct analyze_ovd *o,
    char **cause)
{
	struct analyze_ovd_loader	*ld;
	struct store_ovd		 hdr;

	memset(o, 0, sizeof *o);
	o->session = id;
	if (store_ovd_get(st, id, &hdr) == 0) {
		o->version = hdr.version;
		o->prefix_seg = hdr.prefix_seg;
		o->truncated = hdr.truncated;
		o->wraps = hdr.wraps;
	} else {
		*cause = xasprintf("session %lld has no OVD data",
		    (long long)id);
		return (NULL);
	}
	if (ovr_load_units(st, o) != 0 ||
	    analyze_syms_load(st, o->session, &o->syms, &o->nsyms) != 0)
		goto fail;

	ld = xcalloc(1, sizeof *ld);
	ld->st = st;
	ld->o = o;
	ld->phase = OVR_EVENTS;
	/* Both are one descent of a b-tree, not a scan. */
	ld->ev_total = store_ovr_event_count(st, id);
	store_ovr_loaded_range(st, id, &ld->row_lo, &ld->row_hi);
	ld->row_at = ld->row_lo;
	if ((ld->cap = ovr_presize(ld->ev_total)) != 0)
		o->events = xreallocarray(NULL, ld->cap, sizeof *o->events);
	if ((ld->c = store_ovr_events(st, id)) == NULL) {
		free(ld);
		goto fail;
	}
	return (ld);
fail:
	*cause = xasprintf("session %lld: %s", (long long)id,
	    store_error(st));
	analyze_ovd_free(o);
	return (NULL);
}

/*
 * One event row.  Seqs must be 0..n-1 of known units, as the reader wrote
 * them: the index is the seq.  -1 when the store says otherwise (it was
 * edited), with cause.
 */
static int
ovr_event_row(struct analyze_ovd_loader *ld, const struct store_ovr_event *r,
    char **cause)
{
	struct analyze_ovd		*o = ld->o;
	struct analyze_ovd_event	*e;
	struct analyze_ovd_buffer	*bf;
	struct analyze_ovd_unit		*u;
	long				 k;

	if ((k = ovr_unit_index(o, r->ovr_seg)) < 0 ||
	    r->seq != (int64_t)o->nevents || o->nevents >= UINT32_MAX) {
		*cause = xasprintf("session %lld: ovr_event seq %lld is not"
		    " the next of a known unit (was the store edited?)",
		    (long long)o->session, (long long)r->seq);
		return (-1);
	}
	if (o->nevents == ld->cap) {
		ld->cap = ld->cap != 0 ? ld->cap * 2 : 1024;
		o->events = xreallocarray(o->events, ld->cap, sizeof *e);
	}
	bf = o->nbuffers != 0 ? &o->buffers[o->nbuffers - 1] : NULL;
	if (bf == NULL || bf->heap_org != r->heap_org ||
	    bf->heap_end != r->heap_end) {
		/* Changes are few: grow by one. */
		o->buffers = xreallocarray(o->buffers, o->nbuffers + 1,
		    sizeof *o->buffers);
		bf = &o->buffers[o->nbuffers++];
		bf->heap_org = r->heap_org;
		bf->heap_end = r->heap_end;
	}
	e = &o->events[o->nevents++];
	e->ticks = r->ticks;
	e->reprieve = r->reprieve != 0;
	e->unit = (uint16_t)k;
	e->ovr_ofs = r->ovr_ofs;
	e->buffer = (uint32_t)(o->nbuffers - 1) & 0x7fffffff;
	u = &o->units[k];
	if (e->reprieve)
		u->reprieves++;
	else {
		if (u->loads++ == 0)
			u->first_load = e->ticks;
		u->last_load = e->ticks;
	}
	return (0);
}

static void
ovr_span_row(struct analyze_ovd_loader *ld, const struct store_ovr_loaded *r)
{
	struct analyze_ovd		*o = ld->o;
	struct analyze_ovd_span		 sp, *p;
	long				 k;

	ld->row_at = r->rowid;
	/* The reader never writes a stay outside the events. */
	if ((k = ovr_unit_index(o, r->stat_seg)) < 0 || r->first_seq < 0 ||
	    r->first_seq > r->last_seq ||
	    (uint64_t)r->first_seq >= o->nevents)
		return;
	sp.unit = (uint16_t)k;
	sp.load_seg = r->load_seg;
	sp.first = (uint32_t)r->first_seq;
	sp.last = (uint64_t)r->last_seq < o->nevents ?
	    (uint32_t)r->last_seq : (uint32_t)(o->nevents - 1);
	o->units[k].resident_ticks += analyze_ovd_span_end(o, &sp) -
	    analyze_ovd_span_start(o, &sp);

	if (o->nspans != 0 && ovr_span_less(&sp, &o->spans[o->nspans - 1])) {
		if (ld->nside == ld->cside) {
			ld->cside = ld->cside != 0 ? ld->cside * 2 : 1024;
			ld->side = xreallocarray(ld->side, ld->cside,
			    sizeof *ld->side);
		}
		ld->side[ld->nside++] = sp;
		return;
	}
	if (o->nspans == ld->cap) {
		ld->cap = ld->cap != 0 ? ld->cap * 2 : 1024;
		o->spans = xreallocarray(o->spans, ld->cap, sizeof *p);
	}
	o->spans[o->nspans++] = sp;
}

static void
ovr_finish(struct analyze_ovd_loader *ld)
{
	struct analyze_ovd	*o = ld->o;
	struct analyze_ovd_unit	*u;
	int64_t			 span = o->t_last - o->t_first;
	size_t			 i;

	for (i = 0; i < o->nunits; i++) {
		u = &o->units[i];
		u->resident_share = span > 0 ?
		    (double)u->resident_ticks / (double)span : 0;
		if (u->loads > 1)
			u->mean_reload_ticks = (double)(u->last_load -
			    u->first_load) / (double)(u->loads - 1);
	}
	ld->phase = OVR_DONE;
}

/* Up to n steps of a bottom-up merge sort of the set-aside stays. */
static void
ovr_sort(struct analyze_ovd_loader *ld, size_t n)
{
	struct analyze_ovd_span	*src = ld->side, *dst = ld->tmp, *t;
	size_t			 nside = ld->nside, mid, hi;

	while (n > 0 && ld->w < nside) {
		mid = ld->lo + ld->w < nside ? ld->lo + ld->w : nside;
		hi = ld->lo + 2 * ld->w < nside ? ld->lo + 2 * ld->w : nside;
		while (n > 0 && ld->out < hi) {
			n--;
			if (ld->a < mid && (ld->b >= hi ||
			    !ovr_span_less(&src[ld->b], &src[ld->a])))
				dst[ld->out++] = src[ld->a++];
			else
				dst[ld->out++] = src[ld->b++];
		}
		if (ld->out < hi)
			break;
		ld->lo = hi;
		if (ld->lo >= nside) {
			t = src;
			src = ld->side = dst;
			dst = ld->tmp = t;
			ld->w *= 2;
			ld->lo = 0;
		}
		ld->a = ld->lo;
		ld->b = ld->lo + ld->w < nside ? ld->lo + ld->w : nside;
		ld->out = ld->lo;
	}
	if (ld->w < nside)
		return;
	free(ld->tmp);
	ld->tmp = NULL;
	/*
	 * Merge into spans itself from the end: no second array of
	 * millions of stays to fault in, and it stops where the smallest
	 * set-aside stay goes.
	 */
	ld->o->spans = xreallocarray(ld->o->spans, ld->o->nspans + nside,
	    sizeof *ld->o->spans);
	ld->mi = ld->o->nspans;
	ld->si = nside;
	ld->mo = ld->o->nspans + nside;
	ld->phase = OVR_MERGE;
}

/* Merge up to n of the set-aside stays back in. */
static void
ovr_merge(struct analyze_ovd_loader *ld, size_t n)
{
	struct analyze_ovd	*o = ld->o;

	while (n-- > 0 && ld->si > 0) {
		if (ld->mi > 0 && ovr_span_less(&ld->side[ld->si - 1],
		    &o->spans[ld->mi - 1]))
			o->spans[--ld->mo] = o->spans[--ld->mi];
		else
			o->spans[--ld->mo] = ld->side[--ld->si];
	}
	if (ld->si > 0)
		return;
	o->nspans += ld->nside;
	free(ld->side);
	ld->side = NULL;
	ld->nside = 0;
	ovr_finish(ld);
}

/*
 * Do up to about n rows of the load.  1: more to do; 0: done, o is
 * complete; -1: error with cause, o is freed.
 */
int
analyze_ovd_step(struct analyze_ovd_loader *ld, size_t n, char **cause)
{
	struct analyze_ovd	*o = ld->o;
	struct store_ovr_event	 ev;
	struct store_ovr_loaded	 stay;
	int			 rc = 0;

	/* A copy is cheaper than a row. */
	if (ld->phase == OVR_SORT) {
		ovr_sort(ld, n * 4);
		return (1);
	}
	if (ld->phase == OVR_MERGE) {
		ovr_merge(ld, n * 4);
		return (ld->phase != OVR_DONE);
	}
	if (ld->phase == OVR_DONE)
		return (0);
	while (n-- > 0) {
		if (ld->phase == OVR_EVENTS) {
			if ((rc = store_ovr_event_next(ld->c, &ev)) != 1)
				break;
			if (ovr_event_row(ld, &ev, cause) != 0) {
				store_cursor_close(ld->c);
				ld->c = NULL;
				analyze_ovd_free(o);
				ld->phase = OVR_DONE;
				return (-1);
			}
		} else {
			if ((rc = store_ovr_loaded_next(ld->c, &stay)) != 1)
				break;
			ovr_span_row(ld, &stay);
		}
	}
	if (rc == 1)
		return (1);
	if (rc < 0) {
		*cause = xasprintf("session %lld: %s", (long long)o->session,
		    store_error(ld->st));
		store_cursor_close(ld->c);
		ld->c = NULL;
		analyze_ovd_free(o);
		ld->phase = OVR_DONE;
		return (-1);
	}
	store_cursor_close(ld->c);
	ld->c = NULL;
	if (ld->phase == OVR_EVENTS) {
		if (o->nevents != 0) {
			o->t_first = o->events[0].ticks;
			o->t_last = o->events[o->nevents - 1].ticks;
		}
		ld->phase = OVR_SPANS;
		ld->cap = ovr_presize(ld->row_hi - ld->row_lo + 1);
		if (ld->cap > o->nevents + o->nunits + 1)
			ld->cap = o->nevents + o->nunits + 1;
		if (ld->cap == 0)
			ld->cap = 1024;
		o->spans = xreallocarray(NULL, ld->cap, sizeof *o->spans);
		if ((ld->c = store_ovr_loaded(ld->st, o->session)) == NULL) {
			*cause = xasprintf("session %lld: %s",
			    (long long)o->session, store_error(ld->st));
			analyze_ovd_free(o);
			ld->phase = OVR_DONE;
			return (-1);
		}
		return (1);
	}
	if (ld->nside == 0) {
		ovr_finish(ld);
		return (0);
	}
	ld->tmp = xreallocarray(NULL, ld->nside, sizeof *ld->tmp);
	ld->w = 1;
	ld->lo = ld->a = ld->out = 0;
	ld->b = 1;
	ld->phase = OVR_SORT;
	return (1);
}

/* How far the load is, in percent; *what names the part under way. */
int
analyze_ovd_progress(const struct analyze_ovd_loader *ld, const char **what)
{
	double	ev = ld->ev_total > 0 ? (double)ld->ev_total : 1;
	double	rows = ld->row_hi >= ld->row_lo ?
		    (double)(ld->row_hi - ld->row_lo + 1) : 1;
	double	done;

	switch (ld->phase) {
	case OVR_EVENTS:
		*what = "events";
		done = (double)ld->o->nevents;
		break;
	case OVR_SPANS:
		*what = "stays";
		done = ev + (double)(ld->row_at - ld->row_lo);
		break;
	case OVR_SORT:
	case OVR_MERGE:
		*what = "sorting stays";
		done = ev + rows;
		break;
	default:
		*what = "done";
		return (100);
	}
	done = 100 * done / (ev + rows);
	return (done < 0 ? 0 : done > 99 ? 99 : (int)done);
}

/* Stop a load: o is kept when it was complete, else freed. */
void
analyze_ovd_end(struct analyze_ovd_loader *ld)
{
	if (ld == NULL)
		return;
	store_cursor_close(ld->c);
	if (ld->phase != OVR_DONE)
		analyze_ovd_free(ld->o);
	free(ld->side);
	free(ld->tmp);
	free(ld);
}

/* Load OVD session id into o, with the per-unit statistics. */
int
analyze_ovd_load(struct store *st, int64_t id, struct analyze_ovd *o,
    char **cause)
{
	struct analyze_ovd_loader	*ld;
	int				 r;

	if ((ld = analyze_ovd_begin(st, id, o, cause)) == NULL)
		return (-1);
	while ((r = analyze_ovd_step(ld, 65536, cause)) > 0)
		/* nothing */;
	analyze_ovd_end(ld);
	return (r);
}

void
analyze_ovd_free(struct analyze_ovd *o)
{
	size_t	i;

	for (i = 0; i < o->nunits; i++)
		free(o->units[i].name);
	free(o->units);
	free(o->events);
	free(o->buffers);
	free(o->spans);
	analyze_syms_free(o->syms, o->nsyms);
	memset(o, 0, sizeof *o);
}

/* When a stay began: at the event that loaded it. */
int64_t
analyze_ovd_span_start(const struct analyze_ovd *o,
    const struct analyze_ovd_span *sp)
{
	return (o->events[sp->first].ticks);
}

/* When it ended: at the next event, whose list leaves it out, or the end. */
int64_t
analyze_ovd_span_end(const struct analyze_ovd *o,
    const struct analyze_ovd_span *sp)
{
	int64_t	end;

	end = (size_t)sp->last + 1 < o->nevents ?
	    o->events[sp->last + 1].ticks : o->t_last;
	return (end < o->events[sp->first].ticks ?
	    o->events[sp->first].ticks : end);
}

/* The buffer's limits at event e. */
const struct analyze_ovd_buffer *
analyze_ovd_buffer_of(const struct analyze_ovd *o,
    const struct analyze_ovd_event *e)
{
	return (&o->buffers[e->buffer]);
}

/*
 * The call site: the nearest public at or below seg:ofs in that unit
 * (by module name when the map gave one), as "Name" or "Name+1Ah"; else
 * "XXXXh:YYYYh".
 */
char *
analyze_ovd_site(const struct analyze_ovd *o, uint32_t unit, uint16_t ofs)
{
	const struct analyze_ovd_unit	*u = &o->units[unit];
	const struct analyze_sym	*y;
	uint64_t			 base = (uint64_t)u->stat_seg * 16;
	uint64_t			 addr = base + ofs;
	size_t				 lo;

	BSEARCH_FIRST(lo, 0, o->nsyms, o->syms[lo].addr <= addr);
	/* lo is the first symbol above addr; walk down within the unit. */
	while (lo > 0) {
		y = &o->syms[--lo];
		if (y->addr < base)
			break;
		if (y->module != NULL && strcmp(y->module, u->name) != 0)
			continue;
		if (y->addr == addr)
			return (xstrdup(y->name));
		return (xasprintf("%s+%llXh", y->name,
		    (unsigned long long)(addr - y->addr)));
	}
	return (xasprintf("%04Xh:%04Xh", u->stat_seg, ofs));
}

/* The ovd kind's model (kind.h): a loaded overlay session, or NULL. */
void *
analyze_ovd_model(struct store *st, int64_t session, char **cause)
{
	struct analyze_ovd	*o = xcalloc(1, sizeof *o);

	if (analyze_ovd_load(st, session, o, cause) != 0) {
		free(o);
		return (NULL);
	}
	return (o);
}

void
analyze_ovd_model_free(void *o)
{
	if (o == NULL)
		return;
	analyze_ovd_free(o);
	free(o);
}

/*
 * The timeline's index.  A frame asks, for every column and unit, what a
 * window of time holds; the events and stays are in seq order, all units
 * together, so each unit gets its own sorted arrays with prefix sums
 * (loads, resident ticks) and a window is two binary searches per array:
 * columns x units x log(events) at every zoom and origin, never a walk
 * over the events.  A stay keeps its start, the prefix sum (its end is the
 * start plus its length, which is the next sum's difference) and the
 * event indices it covers as 32 bits: 26 bytes a stay, where copying
 * analyze_ovd_span's fields would take 42.
 */

enum ovr_ix_phase {
	OVR_IX_COUNT_EVENTS,
	OVR_IX_COUNT_SPANS,
	OVR_IX_ALLOC,
	OVR_IX_EVENTS,
	OVR_IX_SPANS,
	OVR_IX_KEYS,
	OVR_IX_DONE
};

static int64_t
ovr_key_get(const struct analyze_ovd_key *x, size_t i)
{
	const struct analyze_ovd	*o = x->o;
	size_t				 j = x->idx != NULL ? x->idx[i] : i;

	switch (x->what) {
	case ANALYZE_OVD_KEY_START:
		return (o->events[o->spans[j].first].ticks);
	case ANALYZE_OVD_KEY_FIRST:
		return (o->spans[j].first);
	default:
		return (o->events[j].ticks);
	}
}

/*
 * A search runs in the copied-out keys, which stay in cache, then in one
 * stride of the big array: on 5M events a few cache misses a search
 * instead of twenty.
 */
static void
ovr_key_init(struct analyze_ovd_key *x, const struct analyze_ovd *o,
    const uint32_t *idx, int what, size_t n)
{
	size_t	i;

	x->o = o;
	x->idx = idx;
	x->what = what;
	x->n = n;
	x->ns = (n + OVR_STRIDE - 1) / OVR_STRIDE;
	x->s = xcalloc(x->ns + 1, sizeof *x->s);
	for (i = 0; i < x->ns; i++)
		x->s[i] = ovr_key_get(x, i * OVR_STRIDE);
}

/* The first i with key i >= t (n if none). */
static size_t
ovr_key_lb(const struct analyze_ovd_key *x, int64_t t)
{
	size_t	k, i;

	/* Among every stride'th key first, kept in x->s. */
	BSEARCH_FIRST(k, 0, x->ns, x->s[k] < t);
	if (k == 0)
		return (0);
	/* key (k - 1) * stride < t, and key k * stride >= t if there. */
	BSEARCH_FIRST(i, (k - 1) * OVR_STRIDE + 1, k * OVR_STRIDE < x->n ?
	    k * OVR_STRIDE : x->n, ovr_key_get(x, i) < t);
	return (i);
}

/*
 * Start indexing o, which must stay loaded while the index lives; the
 * work is done by analyze_ovd_index_step.  NULL and cause when o has
 * more events than 32-bit indices reach.
 */
struct analyze_ovd_index *
analyze_ovd_index_begin(const struct analyze_ovd *o, char **cause)
{
	struct analyze_ovd_index	*ix;
	size_t				 i;

	if (o->nevents > UINT32_MAX) {
		*cause = xasprintf("session %lld: %zu events is more than the"
		    " timeline holds", (long long)o->session, o->nevents);
		return (NULL);
	}
	ix = xcalloc(1, sizeof *ix);
	ix->o = o;
	ix->lanes = xcalloc(o->nunits + 1, sizeof *ix->lanes);
	/* The band spans every limit the buffer ever had. */
	for (i = 0; i < o->nbuffers; i++) {
		if (i == 0 || o->buffers[i].heap_org < ix->porg)
			ix->porg = o->buffers[i].heap_org;
		if (i == 0 || o->buffers[i].heap_end > ix->pend)
			ix->pend = o->buffers[i].heap_end;
	}
	if (ix->pend < ix->porg)
		ix->pend = ix->porg;
	ix->phase = OVR_IX_COUNT_EVENTS;
	return (ix);
}

/* Allocate lane k's arrays, now that its counts are known. */
static void
ovr_lane_alloc(struct analyze_ovd_index *ix, size_t k)
{
	struct analyze_ovd_lane	*ln = &ix->lanes[k];

	ln->ev = xcalloc(ln->nev + 1, sizeof *ln->ev);
	ln->loads = xcalloc(ln->nev + 1, sizeof *ln->loads);
	ln->sp = xcalloc(ln->nsp + 1, sizeof *ln->sp);
	ln->sp_cum = xcalloc(ln->nsp + 1, sizeof *ln->sp_cum);
	ln->paras = (uint16_t)((ix->o->units[k].code_size + 15u) / 16u);
	/* Counted again as they are filled in. */
	ln->nev = ln->nsp = 0;
}

static void
ovr_lane_event(struct analyze_ovd_index *ix, size_t i)
{
	const struct analyze_ovd_event	*e = &ix->o->events[i];
	struct analyze_ovd_lane		*ln = &ix->lanes[e->unit];

	ln->ev[ln->nev] = (uint32_t)i;
	ln->loads[ln->nev + 1] = ln->loads[ln->nev] + (e->reprieve ? 0 : 1);
	ln->nev++;
}

/* Spans come by first event, so each unit's are in time order. */
static void
ovr_lane_span(struct analyze_ovd_index *ix, size_t i)
{
	const struct analyze_ovd_span	*sp = &ix->o->spans[i];
	struct analyze_ovd_lane		*ln = &ix->lanes[sp->unit];

	ln->sp[ln->nsp] = (uint32_t)i;
	ln->sp_cum[ln->nsp + 1] = ln->sp_cum[ln->nsp] +
	    (analyze_ovd_span_end(ix->o, sp) - analyze_ovd_span_start(ix->o,
	    sp));
	ln->nsp++;
}

/*
 * Do about n items of the index: count each unit's events and stays,
 * allocate a lane a step (zeroing them all at once took 40 ms on 5M
 * events), fill them, then the keys, a lane a step.  Millions of events
 * take most of a second, so a caller with a screen to keep alive does it
 * in slices.  1: more to do; 0: done.
 */
int
analyze_ovd_index_step(struct analyze_ovd_index *ix, size_t n)
{
	const struct analyze_ovd	*o = ix->o;
	struct analyze_ovd_lane		*ln;
	size_t				 i, k, end, total;

	if (n == 0)
		n = 1;
	switch (ix->phase) {
	case OVR_IX_COUNT_EVENTS:
		end = ix->at + n < o->nevents ? ix->at + n : o->nevents;
		for (i = ix->at; i < end; i++) {
			ix->lanes[o->events[i].unit].nev++;
			if (!o->events[i].reprieve)
				ix->nloads++;
		}
		total = o->nevents;
		break;
	case OVR_IX_COUNT_SPANS:
		end = ix->at + n < o->nspans ? ix->at + n : o->nspans;
		for (i = ix->at; i < end; i++)
			ix->lanes[o->spans[i].unit].nsp++;
		total = o->nspans;
		break;
	case OVR_IX_ALLOC:
		if ((end = ix->at + 1) <= o->nunits)
			ovr_lane_alloc(ix, ix->at);
		total = o->nunits;
		break;
	case OVR_IX_EVENTS:
		end = ix->at + n < o->nevents ? ix->at + n : o->nevents;
		for (i = ix->at; i < end; i++)
			ovr_lane_event(ix, i);
		total = o->nevents;
		break;
	case OVR_IX_SPANS:
		end = ix->at + n < o->nspans ? ix->at + n : o->nspans;
		for (i = ix->at; i < end; i++)
			ovr_lane_span(ix, i);
		total = o->nspans;
		break;
	case OVR_IX_KEYS:
		if ((end = ix->at + 1) <= o->nunits) {
			k = ix->at;
			ln = &ix->lanes[k];
			ovr_key_init(&ln->ev_key, o, ln->ev,
			    ANALYZE_OVD_KEY_EVENT, ln->nev);
			ovr_key_init(&ln->start_key, o, ln->sp,
			    ANALYZE_OVD_KEY_START, ln->nsp);
			ovr_key_init(&ln->first_key, o, ln->sp,
			    ANALYZE_OVD_KEY_FIRST, ln->nsp);
		} else
			ovr_key_init(&ix->ev_key, o, NULL,
			    ANALYZE_OVD_KEY_EVENT, o->nevents);
		total = o->nunits + 1;
		break;
	default:
		return (0);
	}
	if ((ix->at = end) < total)
		return (1);
	ix->at = 0;
	return (++ix->phase != OVR_IX_DONE);
}

/* Index o at once; see analyze_ovd_index_begin. */
struct analyze_ovd_index *
analyze_ovd_index_build(const struct analyze_ovd *o, char **cause)
{
	struct analyze_ovd_index	*ix;

	if ((ix = analyze_ovd_index_begin(o, cause)) == NULL)
		return (NULL);
	while (analyze_ovd_index_step(ix, 65536) > 0)
		/* nothing */;
	return (ix);
}

void
analyze_ovd_index_free(struct analyze_ovd_index *ix)
{
	struct analyze_ovd_lane	*ln;
	size_t			 k;

	if (ix == NULL)
		return;
	for (k = 0; k < ix->o->nunits; k++) {
		ln = &ix->lanes[k];
		free(ln->ev);
		free(ln->loads);
		free(ln->sp);
		free(ln->sp_cum);
		free(ln->ev_key.s);
		free(ln->start_key.s);
		free(ln->first_key.s);
	}
	free(ix->lanes);
	free(ix->ev_key.s);
	free(ix);
}

/* The first event at or after t (nevents if none). */
size_t
analyze_ovd_event_at(const struct analyze_ovd_index *ix, int64_t t)
{
	return (ovr_key_lb(&ix->ev_key, t));
}

/* The first of unit k's events at or after t, as a lane position. */
size_t
analyze_ovd_lane_at(const struct analyze_ovd_index *ix, uint32_t k,
    int64_t t)
{
	return (ovr_key_lb(&ix->lanes[k].ev_key, t));
}

/* Where event i is in its unit's lane. */
size_t
analyze_ovd_lane_pos(const struct analyze_ovd_index *ix, size_t i)
{
	const struct analyze_ovd_lane	*ln;
	size_t				 k;

	ln = &ix->lanes[ix->o->events[i].unit];
	BSEARCH_FIRST(k, 0, ln->nev, ln->ev[k] < i);
	return (k);
}

/*
 * Unit k's stay in the load list of event i, as a position in its lane
 * (sp_seg[] has where it sat), or -1 when it was not in the buffer.  A
 * unit's stays do not overlap, so only the last one to start can.
 */
long
analyze_ovd_stay(const struct analyze_ovd_index *ix, uint32_t k, size_t i)
{
	const struct analyze_ovd_lane	*ln = &ix->lanes[k];
	size_t				 s;

	s = ovr_key_lb(&ln->first_key, (int64_t)i + 1);
	if (s == 0 || ix->o->spans[ln->sp[s - 1]].last < i)
		return (-1);
	return ((long)s - 1);
}

/* Ticks unit k was resident before t. */
int64_t
analyze_ovd_resident(const struct analyze_ovd_index *ix, uint32_t k,
    int64_t t)
{
	const struct analyze_ovd_lane	*ln = &ix->lanes[k];
	size_t				 s;
	int64_t				 start, end;

	if ((s = ovr_key_lb(&ln->start_key, t)) == 0)
		return (0);
	start = ovr_key_get(&ln->start_key, s - 1);
	end = start + (ln->sp_cum[s] - ln->sp_cum[s - 1]);
	if (end > t)
		end = t;
	return (ln->sp_cum[s - 1] + end - start);
}

/* What unit k did in [a, b). */
void
analyze_ovd_window(const struct analyze_ovd_index *ix, uint32_t k,
    int64_t a, int64_t b, struct analyze_ovd_cell *c)
{
	const struct analyze_ovd_lane	*ln = &ix->lanes[k];
	size_t				 p0, p1;

	if (b < a)
		b = a;
	p0 = ovr_key_lb(&ln->ev_key, a);
	p1 = ovr_key_lb(&ln->ev_key, b);
	c->loads = ln->loads[p1] - ln->loads[p0];
	c->reprieves = (uint32_t)(p1 - p0) - c->loads;
	c->resident_ticks = analyze_ovd_resident(ix, k, b) -
	    analyze_ovd_resident(ix, k, a);
}

/*
 * n windows of width ticks from t0, one after the other: cells[x *
 * nunits + k] is what unit k did in window x.  A window starts where the
 * last one ended, so that end's searches are not done twice; a lane at a
 * time, so that its searches run in the same part of its arrays.
 */
void
analyze_ovd_windows(const struct analyze_ovd_index *ix, int64_t t0,
    int64_t width, size_t n, struct analyze_ovd_cell *cells)
{
	const struct analyze_ovd_lane	*ln;
	struct analyze_ovd_cell		*c;
	size_t				 nu = ix->o->nunits, x, p0, p1;
	uint32_t			 k;
	int64_t				 r0, r1, t;

	if (width < 1)
		width = 1;
	for (k = 0; k < nu; k++) {
		ln = &ix->lanes[k];
		p0 = ovr_key_lb(&ln->ev_key, t0);
		r0 = analyze_ovd_resident(ix, k, t0);
		for (x = 0, t = t0; x < n; x++) {
			t += width;
			p1 = ovr_key_lb(&ln->ev_key, t);
			r1 = analyze_ovd_resident(ix, k, t);
			c = &cells[x * nu + k];
			c->loads = ln->loads[p1] - ln->loads[p0];
			c->reprieves = (uint32_t)(p1 - p0) - c->loads;
			c->resident_ticks = r1 - r0;
			p0 = p1;
			r0 = r1;
		}
	}
}

/*
 * The overlay buffer in window [a, b): the load list in effect in its
 * middle, as nrows rows, each a run of paragraphs from the lowest
 * OvrHeapOrg up to the highest OvrHeapEnd.  A row is outside the limits
 * of the moment, free, or the first unit (unit + 2) anywhere in its run.
 */
void
analyze_ovd_band(const struct analyze_ovd_index *ix, int64_t a, int64_t b,
    uint32_t *rows, size_t nrows)
{
	const struct analyze_ovd	*o = ix->o;
	const struct analyze_ovd_buffer	*bf;
	uint32_t			 paras = ix->pend - ix->porg, para, run;
	uint32_t			 lo, hi, k;
	size_t				 i, r;
	int64_t				 t;
	long				 s;

	for (r = 0; r < nrows; r++)
		rows[r] = ANALYZE_OVD_BAND_OUT;
	if (nrows == 0 || paras == 0 || o->nevents == 0 || a > o->t_last ||
	    b <= o->t_first)
		return;
	t = a + (b - a) / 2;
	if (t < o->t_first)
		t = o->t_first;
	if (t > o->t_last)
		t = o->t_last;
	if ((i = analyze_ovd_event_at(ix, t + 1)) == 0)
		return;
	bf = analyze_ovd_buffer_of(o, &o->events[--i]);
	run = (paras + (uint32_t)nrows - 1) / (uint32_t)nrows;
	for (r = 0; r < nrows; r++) {
		para = ix->porg + (uint32_t)((uint64_t)paras * r / nrows);
		if (para >= bf->heap_org && para < bf->heap_end)
			rows[r] = ANALYZE_OVD_BAND_FREE;
	}
	/* Units in order, so the first one in a row's run keeps it. */
	for (k = 0; k < o->nunits; k++) {
		if ((s = analyze_ovd_stay(ix, k, i)) < 0)
			continue;
		lo = o->spans[ix->lanes[k].sp[s]].load_seg;
		hi = lo + ix->lanes[k].paras;
		for (r = 0; r < nrows; r++) {
			if (rows[r] > ANALYZE_OVD_BAND_FREE)
				continue;
			para = ix->porg + (uint32_t)((uint64_t)paras * r /
			    nrows);
			if (lo < para + run && hi > para)
				rows[r] = k + 2;
		}
	}
}

/*
 * The load list of event i, by load segment, into out (room for nunits);
 * its length.
 */
size_t
analyze_ovd_load_list(const struct analyze_ovd_index *ix, size_t i,
    struct analyze_ovd_slot *out)
{
	struct analyze_ovd_slot	 v;
	size_t			 n = 0, j;
	uint32_t		 k;
	long			 s;

	for (k = 0; k < ix->o->nunits; k++) {
		if ((s = analyze_ovd_stay(ix, k, i)) < 0)
			continue;
		v.unit = k;
		v.load_seg = ix->o->spans[ix->lanes[k].sp[s]].load_seg;
		/* An insertion sort: the list is short. */
		for (j = n++; j > 0 && out[j - 1].load_seg > v.load_seg; j--)
			out[j] = out[j - 1];
		out[j] = v;
	}
	return (n);
}
