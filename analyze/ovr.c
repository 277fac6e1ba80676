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
analyze_ovr_seconds(int64_t ticks)
{
	return ((double)ticks / ANALYZE_OVR_TICKS_PER_S);
}

/* Index of the unit with this static segment, or -1. */
static long
ovr_unit_index(const struct analyze_ovr *o, int seg)
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
ovr_prepare(struct store *st, const char *sql, int64_t id, sqlite3_stmt **s)
{
	if (sqlite3_prepare_v2(store_db(st), sql, -1, s, NULL) != SQLITE_OK)
		return (-1);
	sqlite3_bind_int64(*s, 1, id);
	return (0);
}

static int
ovr_load_units(struct store *st, struct analyze_ovr *o)
{
	sqlite3_stmt		*s;
	struct analyze_ovr_unit	*u;
	const unsigned char	*t;
	size_t			 cap = 0;

	if (ovr_prepare(st, "SELECT stat_seg, file_ofs, code_size, fixup_size,"
	    " entry_pts, name FROM ovr_unit WHERE session = ?1 ORDER BY"
	    " stat_seg", o->session, &s) != 0)
		return (-1);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (o->nunits == cap) {
			cap = cap != 0 ? cap * 2 : 16;
			o->units = xreallocarray(o->units, cap, sizeof *u);
		}
		u = &o->units[o->nunits++];
		memset(u, 0, sizeof *u);
		u->stat_seg = (uint16_t)sqlite3_column_int(s, 0);
		u->file_ofs = (uint32_t)sqlite3_column_int64(s, 1);
		u->code_size = (uint16_t)sqlite3_column_int(s, 2);
		u->fixup_size = (uint16_t)sqlite3_column_int(s, 3);
		u->entry_pts = (uint16_t)sqlite3_column_int(s, 4);
		t = sqlite3_column_text(s, 5);
		u->name = t != NULL ? xstrdup((const char *)t) :
		    xasprintf("seg %04Xh", u->stat_seg);
		u->first_load = u->last_load = -1;
		u->mean_reload_ticks = -1;
	}
	sqlite3_finalize(s);
	return (0);
}

static int
ovr_load_events(struct store *st, struct analyze_ovr *o)
{
	sqlite3_stmt			*s;
	struct analyze_ovr_event	*e;
	struct analyze_ovr_unit		*u;
	size_t				 cap = 0;
	long				 k;

	if (ovr_prepare(st, "SELECT seq, ticks, kind = 'reprieve', ovr_seg,"
	    " ovr_ofs, heap_org, heap_end FROM ovr_event WHERE session = ?1"
	    " ORDER BY seq", o->session, &s) != 0)
		return (-1);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if ((k = ovr_unit_index(o, sqlite3_column_int(s, 3))) < 0)
			continue;	/* the reader never lets this in */
		if (o->nevents == cap) {
			cap = cap != 0 ? cap * 2 : 1024;
			o->events = xreallocarray(o->events, cap, sizeof *e);
		}
		e = &o->events[o->nevents++];
		e->seq = sqlite3_column_int64(s, 0);
		e->ticks = sqlite3_column_int64(s, 1);
		e->reprieve = sqlite3_column_int(s, 2);
		e->unit = (uint32_t)k;
		e->ovr_ofs = (uint16_t)sqlite3_column_int(s, 4);
		e->heap_org = (uint16_t)sqlite3_column_int(s, 5);
		e->heap_end = (uint16_t)sqlite3_column_int(s, 6);
		u = &o->units[k];
		if (e->reprieve)
			u->reprieves++;
		else {
			if (u->loads++ == 0)
				u->first_load = e->ticks;
			u->last_load = e->ticks;
		}
	}
	sqlite3_finalize(s);
	if (o->nevents != 0) {
		o->t_first = o->events[0].ticks;
		o->t_last = o->events[o->nevents - 1].ticks;
	}
	return (0);
}

/* The event with this seq (seqs are dense from 0, but do not trust it). */
static const struct analyze_ovr_event *
ovr_event_at(const struct analyze_ovr *o, int64_t seq)
{
	size_t	lo = 0, hi = o->nevents, mid;

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
ovr_load_spans(struct store *st, struct analyze_ovr *o)
{
	sqlite3_stmt			*s;
	struct analyze_ovr_span		*p;
	const struct analyze_ovr_event	*e;
	size_t				 cap = 0;
	long				 k;

	if (ovr_prepare(st, "SELECT stat_seg, load_seg, first_seq, last_seq"
	    " FROM ovr_loaded WHERE session = ?1 ORDER BY first_seq, stat_seg",
	    o->session, &s) != 0)
		return (-1);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if ((k = ovr_unit_index(o, sqlite3_column_int(s, 0))) < 0)
			continue;
		if (o->nspans == cap) {
			cap = cap != 0 ? cap * 2 : 1024;
			o->spans = xreallocarray(o->spans, cap, sizeof *p);
		}
		p = &o->spans[o->nspans++];
		p->unit = (uint32_t)k;
		p->load_seg = (uint16_t)sqlite3_column_int(s, 1);
		p->first_seq = sqlite3_column_int64(s, 2);
		p->last_seq = sqlite3_column_int64(s, 3);
		e = ovr_event_at(o, p->first_seq);
		p->start_ticks = e != NULL ? e->ticks : o->t_first;
		/* It ends when the next event's list leaves it out. */
		e = ovr_event_at(o, p->last_seq + 1);
		p->end_ticks = e != NULL ? e->ticks : o->t_last;
		if (p->end_ticks < p->start_ticks)
			p->end_ticks = p->start_ticks;
		o->units[k].resident_ticks += p->end_ticks - p->start_ticks;
	}
	sqlite3_finalize(s);
	return (0);
}

static int
ovr_load_syms(struct store *st, struct analyze_ovr *o)
{
	sqlite3_stmt		*s;
	struct analyze_sym	*y;
	const unsigned char	*t;
	size_t			 cap = 0;

	if (ovr_prepare(st, "SELECT module, name, addr, size FROM symbol"
	    " WHERE session = ?1 ORDER BY addr, rowid", o->session, &s) != 0)
		return (-1);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (o->nsyms == cap) {
			cap = cap != 0 ? cap * 2 : 64;
			o->syms = xreallocarray(o->syms, cap, sizeof *y);
		}
		y = &o->syms[o->nsyms++];
		t = sqlite3_column_text(s, 0);
		y->module = t != NULL ? xstrdup((const char *)t) : NULL;
		t = sqlite3_column_text(s, 1);
		y->name = xstrdup(t != NULL ? (const char *)t : "?");
		y->addr = (uint64_t)sqlite3_column_int64(s, 2);
		y->size = (uint64_t)sqlite3_column_int64(s, 3);
		y->hits = 0;
	}
	sqlite3_finalize(s);
	return (0);
}

/* Load OVD session id into o, with the per-unit statistics. */
int
analyze_ovr_load(struct store *st, int64_t id, struct analyze_ovr *o,
    char **cause)
{
	sqlite3_stmt		*s;
	struct analyze_ovr_unit	*u;
	int64_t			 span;
	size_t			 i;
	int			 found = 0;

	memset(o, 0, sizeof *o);
	o->session = id;
	if (ovr_prepare(st, "SELECT version, prefix_seg, truncated, wraps"
	    " FROM ovd WHERE session = ?1", id, &s) != 0)
		goto fail;
	if (sqlite3_step(s) == SQLITE_ROW) {
		o->version = sqlite3_column_int(s, 0);
		o->prefix_seg = (uint16_t)sqlite3_column_int(s, 1);
		o->truncated = sqlite3_column_int(s, 2);
		o->wraps = sqlite3_column_int64(s, 3);
		found = 1;
	}
	sqlite3_finalize(s);
	if (!found) {
		*cause = xasprintf("session %lld has no OVD data",
		    (long long)id);
		return (-1);
	}
	if (ovr_load_units(st, o) != 0 || ovr_load_events(st, o) != 0 ||
	    ovr_load_spans(st, o) != 0 || ovr_load_syms(st, o) != 0)
		goto fail;
	span = o->t_last - o->t_first;
	for (i = 0; i < o->nunits; i++) {
		u = &o->units[i];
		u->resident_share = span > 0 ?
		    (double)u->resident_ticks / (double)span : 0;
		if (u->loads > 1)
			u->mean_reload_ticks = (double)(u->last_load -
			    u->first_load) / (double)(u->loads - 1);
	}
	return (0);
fail:
	*cause = xasprintf("session %lld: %s", (long long)id,
	    sqlite3_errmsg(store_db(st)));
	analyze_ovr_free(o);
	return (-1);
}

void
analyze_ovr_free(struct analyze_ovr *o)
{
	size_t	i;

	for (i = 0; i < o->nunits; i++)
		free(o->units[i].name);
	for (i = 0; i < o->nsyms; i++) {
		free(o->syms[i].module);
		free(o->syms[i].name);
	}
	for (i = 0; i < o->nlevels; i++)
		free(o->levels[i].cells);
	free(o->units);
	free(o->events);
	free(o->spans);
	free(o->syms);
	free(o->levels);
	memset(o, 0, sizeof *o);
}

/*
 * The call site: the nearest public at or below seg:ofs in that unit
 * (by module name when the map gave one), as "Name" or "Name+1Ah"; else
 * "XXXXh:YYYYh".
 */
char *
analyze_ovr_site(const struct analyze_ovr *o, uint32_t unit, uint16_t ofs)
{
	const struct analyze_ovr_unit	*u = &o->units[unit];
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
ovr_spread(struct analyze_ovr *o, struct analyze_ovr_level *l, uint32_t k,
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
analyze_ovr_levels(struct analyze_ovr *o, size_t max)
{
	struct analyze_ovr_level	*l, *p;
	struct analyze_ovr_cell		*c, *a, *b;
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
