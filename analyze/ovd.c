/*
 * Overlay sessions: load an OVD session's units, events and residencies,
 * work out the per-unit statistics OVRACT's report programs gave (loads,
 * reprieves, resident share, time between reloads), name call sites, and
 * aggregate time windows per zoom level for the timeline.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"

#define OVR_MAX_CELLS	(1u << 22)	/* per level: windows * units */

double
analyze_ovd_seconds(int64_t ticks)
{
	return ((double)ticks / ANALYZE_OVD_TICKS_PER_S);
}

/* Index of the unit with this static segment, or -1. */
static long
ovr_unit_index(const struct analyze_ovd *o, int seg)
{
	size_t	lo = 0, hi = o->nunits, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (o->units[mid].stat_seg == seg)
			return ((long)mid);
		if (o->units[mid].stat_seg < seg)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (-1);
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

/* The event with this seq (seqs are dense from 0, but do not trust it). */
static const struct analyze_ovd_event *
ovr_event_at(const struct analyze_ovd *o, int64_t seq)
{
	size_t	lo = 0, hi = o->nevents, mid;

	if (seq >= 0 && (uint64_t)seq < o->nevents &&
	    o->events[seq].seq == seq)
		return (&o->events[seq]);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (o->events[mid].seq == seq)
			return (&o->events[mid]);
		if (o->events[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (NULL);
}

static int
ovr_span_less(const struct analyze_ovd_span *a,
    const struct analyze_ovd_span *b)
{
	if (a->first_seq != b->first_seq)
		return (a->first_seq < b->first_seq);
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

static void
ovr_event_row(struct analyze_ovd_loader *ld, const struct store_ovr_event *r)
{
	struct analyze_ovd		*o = ld->o;
	struct analyze_ovd_event	*e;
	struct analyze_ovd_unit		*u;
	long				 k;

	if ((k = ovr_unit_index(o, r->ovr_seg)) < 0)
		return;		/* the reader never lets this in */
	if (o->nevents == ld->cap) {
		ld->cap = ld->cap != 0 ? ld->cap * 2 : 1024;
		o->events = xreallocarray(o->events, ld->cap, sizeof *e);
	}
	e = &o->events[o->nevents++];
	e->seq = r->seq;
	e->ticks = r->ticks;
	e->reprieve = r->reprieve;
	e->unit = (uint32_t)k;
	e->ovr_ofs = r->ovr_ofs;
	e->heap_org = r->heap_org;
	e->heap_end = r->heap_end;
	u = &o->units[k];
	if (e->reprieve)
		u->reprieves++;
	else {
		if (u->loads++ == 0)
			u->first_load = e->ticks;
		u->last_load = e->ticks;
	}
}

static void
ovr_span_row(struct analyze_ovd_loader *ld, const struct store_ovr_loaded *r)
{
	struct analyze_ovd		*o = ld->o;
	struct analyze_ovd_span		 sp, *p;
	const struct analyze_ovd_event	*e;
	long				 k;

	ld->row_at = r->rowid;
	if ((k = ovr_unit_index(o, r->stat_seg)) < 0)
		return;
	sp.unit = (uint32_t)k;
	sp.load_seg = r->load_seg;
	sp.first_seq = r->first_seq;
	sp.last_seq = r->last_seq;
	e = ovr_event_at(o, sp.first_seq);
	sp.start_ticks = e != NULL ? e->ticks : o->t_first;
	/* It ends when the next event's list leaves it out. */
	e = ovr_event_at(o, sp.last_seq + 1);
	sp.end_ticks = e != NULL ? e->ticks : o->t_last;
	if (sp.end_ticks < sp.start_ticks)
		sp.end_ticks = sp.start_ticks;
	o->units[k].resident_ticks += sp.end_ticks - sp.start_ticks;

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
			ovr_event_row(ld, &ev);
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
	for (i = 0; i < o->nlevels; i++)
		free(o->levels[i].cells);
	free(o->units);
	free(o->events);
	free(o->spans);
	analyze_syms_free(o->syms, o->nsyms);
	free(o->levels);
	memset(o, 0, sizeof *o);
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
	size_t				 lo = 0, hi = o->nsyms, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (o->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
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

/* Add [a, b) of unit k's residency to the windows of level l. */
static void
ovr_spread(struct analyze_ovd *o, struct analyze_ovd_level *l, uint32_t k,
    int64_t a, int64_t b)
{
	size_t	w;
	int64_t	lo, hi;

	if (b <= a)
		return;
	w = (size_t)((a - o->t_first) / l->width);
	for (; w < l->n; w++) {
		lo = o->t_first + (int64_t)w * l->width;
		hi = lo + l->width;
		if (lo >= b)
			break;
		l->cells[w * o->nunits + k].resident_ticks +=
		    (b < hi ? b : hi) - (a > lo ? a : lo);
	}
}

/*
 * Zoom levels for the timeline: level 0 has at most max windows (fewer
 * when many units would make it large), each next level halves the
 * windows, the last is one window.  Precomputed so that drawing a frame
 * never rescans the events.
 */
int
analyze_ovd_levels(struct analyze_ovd *o, size_t max)
{
	struct analyze_ovd_level	*l, *p;
	struct analyze_ovd_cell		*c, *a, *b;
	int64_t				 span = o->t_last - o->t_first + 1;
	int64_t				 width;
	size_t				 i, k, n, nlev;

	if (o->nunits == 0 || o->nevents == 0)
		return (0);
	if (max == 0)
		max = 1;
	if (max > OVR_MAX_CELLS / o->nunits)
		max = OVR_MAX_CELLS / o->nunits > 0 ?
		    OVR_MAX_CELLS / o->nunits : 1;
	for (i = 0; i < o->nlevels; i++)
		free(o->levels[i].cells);
	free(o->levels);
	o->levels = NULL;
	o->nlevels = 0;

	width = (span + (int64_t)max - 1) / (int64_t)max;
	if (width < 1)
		width = 1;
	n = (size_t)((span + width - 1) / width);
	for (nlev = 1, k = n; k > 1; k = (k + 1) / 2)
		nlev++;
	o->levels = xcalloc(nlev, sizeof *o->levels);
	l = &o->levels[0];
	l->width = width;
	l->n = n;
	l->cells = xcalloc(l->n * o->nunits, sizeof *l->cells);
	o->nlevels = 1;
	for (i = 0; i < o->nevents; i++) {
		c = &l->cells[(size_t)((o->events[i].ticks - o->t_first) /
		    l->width) * o->nunits + o->events[i].unit];
		if (o->events[i].reprieve)
			c->reprieves++;
		else
			c->loads++;
	}
	for (i = 0; i < o->nspans; i++)
		ovr_spread(o, l, o->spans[i].unit, o->spans[i].start_ticks,
		    o->spans[i].end_ticks);

	while (o->levels[o->nlevels - 1].n > 1 && o->nlevels < nlev) {
		p = &o->levels[o->nlevels - 1];
		l = &o->levels[o->nlevels];
		l->width = p->width * 2;
		l->n = (p->n + 1) / 2;
		l->cells = xcalloc(l->n * o->nunits, sizeof *l->cells);
		for (i = 0; i < l->n; i++) {
			for (k = 0; k < o->nunits; k++) {
				c = &l->cells[i * o->nunits + k];
				a = &p->cells[2 * i * o->nunits + k];
				*c = *a;
				if (2 * i + 1 >= p->n)
					continue;
				b = &p->cells[(2 * i + 1) * o->nunits + k];
				c->loads += b->loads;
				c->reprieves += b->reprieves;
				c->resident_ticks += b->resident_ticks;
			}
		}
		o->nlevels++;
	}
	return (0);
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
