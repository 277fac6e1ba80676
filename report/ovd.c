/*
 * The OVD session report: what OVRACT's OVRACTR/OVRACTM showed, a
 * per-unit summary and an event listing with the buffer's changes and
 * load lists, as tables of the document model; and the buffer over time
 * as a timeline, a track per unit, for the timeline formats.  Everything
 * comes from the model the timeline view draws (analyze_ovd).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/ovd.h"
#include "report/report.h"
#include "report/ovd.h"

static const struct report_table ovd_t_header = {
	"ovd", "OVD header", REPORT_OBJECT, REPORT_NOHEAD, report_kv_cols,
	REPORT_KV_COLS, NULL, -1, 0
};

static const struct report_col ovd_unit_cols[] = {
	{ "name", "unit", 0, 0, 24 },
	{ "stat_seg", "StatSeg", REPORT_HEX, 4, 0 },
	{ "file_ofs", "", REPORT_MACHINE, 0, 0 },
	{ "code_size", "code", 0, 0, 0 },
	{ "fixup_size", "", REPORT_MACHINE, 0, 0 },
	{ "entry_pts", "", REPORT_MACHINE, 0, 0 },
	{ "loads", "loads", 0, 0, 0 },
	{ "reprieves", "reprieves", 0, 0, 0 },
	{ "resident_ticks", "", REPORT_MACHINE, 0, 0 },
	{ "resident_percent", "resident %", 0, 2, 0 },
	{ "mean_reload_ticks", "", REPORT_MACHINE, 4, 0 },
	{ "mean_reload_s", "reload s", 0, 3, 0 },
};
#define OVD_UNIT_COLS	(sizeof ovd_unit_cols / sizeof ovd_unit_cols[0])
#define OVD_UNIT_PCT	9

static const struct report_table ovd_t_units = {
	"units", "Units", REPORT_ROWS, 0, ovd_unit_cols, OVD_UNIT_COLS,
	"no overlaid units", OVD_UNIT_PCT, 0
};

static const struct report_col ovd_buffer_cols[] = {
	{ "seq", "from seq", 0, 0, 0 },
	{ "ticks", "", REPORT_MACHINE, 0, 0 },
	{ "time_s", "time s", 0, 3, 0 },
	{ "heap_org", "", REPORT_MACHINE, 0, 0 },
	{ "heap_end", "", REPORT_MACHINE, 0, 0 },
	{ "range", "buffer", REPORT_HUMAN, 0, 0 },
	{ "bytes", "bytes", 0, 0, 0 },
};
#define OVD_BUFFER_COLS	(sizeof ovd_buffer_cols / sizeof ovd_buffer_cols[0])

static const struct report_table ovd_t_buffers = {
	"buffers", "Overlay buffer", REPORT_ROWS, 0, ovd_buffer_cols,
	OVD_BUFFER_COLS, "no events", -1, 0
};

static const struct report_col ovd_event_cols[] = {
	{ "seq", "seq", 0, 0, 0 },
	{ "ticks", "", REPORT_MACHINE, 0, 0 },
	{ "time_s", "time s", 0, 3, 0 },
	{ "kind", "kind", 0, 0, 0 },
	{ "ovr_seg", "", REPORT_MACHINE, 0, 0 },
	{ "unit", "unit", 0, 0, 24 },
	{ "ovr_ofs", "", REPORT_MACHINE, 0, 0 },
	{ "call_site", "call site", 0, 0, 40 },
	{ "heap_org", "", REPORT_MACHINE, 0, 0 },
	{ "heap_end", "", REPORT_MACHINE, 0, 0 },
	{ "buffer", "buffer", REPORT_HUMAN, 0, 0 },
	{ "load_list", "", REPORT_MACHINE, 0, 0 },
	{ "loaded", "load list", REPORT_HUMAN, 0, 0 },
};
#define OVD_EVENT_COLS	(sizeof ovd_event_cols / sizeof ovd_event_cols[0])

static const struct report_table ovd_t_events = {
	"events", "Events", REPORT_ROWS, 0, ovd_event_cols, OVD_EVENT_COLS,
	"no events", -1, 0
};

/* Walks the events in order, keeping the residency of every unit. */
struct ovd_walk {
	const struct analyze_ovd	*o;
	size_t				 next;	 /* first span not yet open */
	size_t				*active; /* per unit: span + 1, or 0 */
	size_t				*list;	 /* scratch, nunits */
};

static void
ovd_walk_init(struct ovd_walk *w, const struct analyze_ovd *o)
{
	w->o = o;
	w->next = 0;
	w->active = xcalloc(o->nunits + 1, sizeof *w->active);
	w->list = xcalloc(o->nunits + 1, sizeof *w->list);
}

static void
ovd_walk_free(struct ovd_walk *w)
{
	free(w->active);
	free(w->list);
}

static int
ovd_walk_cmp(const void *a, const void *b, void *arg)
{
	const struct analyze_ovd	*o = arg;
	const struct analyze_ovd_span	*x = &o->spans[*(const size_t *)a];
	const struct analyze_ovd_span	*y = &o->spans[*(const size_t *)b];

	if (x->load_seg != y->load_seg)
		return (x->load_seg < y->load_seg ? -1 : 1);
	return (x->unit < y->unit ? -1 : x->unit > y->unit);
}

/* The load list in effect at seq (spans, by load segment); its length. */
static size_t
ovd_walk_at(struct ovd_walk *w, int64_t seq)
{
	const struct analyze_ovd	*o = w->o;
	const struct analyze_ovd_span	*p;
	size_t				 k, n = 0;

	while (w->next < o->nspans && o->spans[w->next].first <= seq) {
		p = &o->spans[w->next];
		w->active[p->unit] = ++w->next;
	}
	for (k = 0; k < o->nunits; k++) {
		if (w->active[k] == 0)
			continue;
		p = &o->spans[w->active[k] - 1];
		if (p->last < seq)
			w->active[k] = 0;
		else
			w->list[n++] = w->active[k] - 1;
	}
	qsort_r(w->list, n, sizeof *w->list, ovd_walk_cmp, (void *)o);
	return (n);
}

/*
 * The load list of the walk's last step, for machines as SSSS:LLLL hex
 * pairs of static and load segment, for people as unit@LLLLh.
 */
static char *
ovd_list(const struct ovd_walk *w, size_t n, int human)
{
	const struct analyze_ovd	*o = w->o;
	const struct analyze_ovd_span	*p;
	char				*s = xstrdup(""), *t;
	size_t				 k;

	for (k = 0; k < n; k++) {
		p = &o->spans[w->list[k]];
		if (human)
			t = xasprintf("%s%s%s@%04Xh", s, k != 0 ? " " : "",
			    o->units[p->unit].name, p->load_seg);
		else
			t = xasprintf("%s%s%04X:%04X", s, k != 0 ? " " : "",
			    o->units[p->unit].stat_seg, p->load_seg);
		free(s);
		s = t;
	}
	return (s);
}

static const char *
ovd_kind(const struct analyze_ovd_event *e)
{
	return (e->reprieve ? "reprieve" : "load");
}

static uint64_t
ovd_reprieves(const struct analyze_ovd *o)
{
	uint64_t	n = 0;
	size_t		i;

	for (i = 0; i < o->nevents; i++)
		n += o->events[i].reprieve;
	return (n);
}

/* A clock reading, with its time in seconds for people. */
static void
ovd_kv_ticks(struct report_out *o, const char *key, int64_t ticks,
    const char *what)
{
	char	*note = xasprintf("%s, %.2f s", what,
		    analyze_ovd_seconds(ticks));

	report_kv_int(o, key, ticks, "%lld", note);
	free(note);
}

static void
ovd_header_table(struct report_out *out, const struct analyze_ovd *o)
{
	uint64_t	reprieves = ovd_reprieves(o);
	char		shown[32];

	report_table(out, &ovd_t_header);
	report_kv_int(out, "version", o->version, "%lld",
	    "of the OVD file format");
	report_kv_int(out, "prefix_seg", o->prefix_seg, "%04llXh",
	    "PrefixSeg: the program's PSP");
	report_kv(out, "truncated", report_int(o->truncated),
	    o->truncated ? "yes" : "no", o->truncated ?
	    "the file ends inside an event, which is left out" : NULL);
	report_kv_int(out, "wraps", o->wraps, "%lld",
	    "times the clock passed midnight");
	snprintf(shown, sizeof shown, "%.4f", ANALYZE_OVD_TICKS_PER_S);
	report_kv(out, "ticks_per_second", report_real(
	    ANALYZE_OVD_TICKS_PER_S), shown,
	    "the PC's clock, 1193182 / 65536 Hz");
	ovd_kv_ticks(out, "first_ticks", o->t_first, "the first event");
	ovd_kv_ticks(out, "last_ticks", o->t_last, "the last event");
	report_kv_int(out, "units", (int64_t)o->nunits, "%lld",
	    "overlaid units");
	report_kv_int(out, "events", (int64_t)o->nevents, "%lld", NULL);
	report_kv_int(out, "loads", (int64_t)(o->nevents - reprieves), "%lld",
	    NULL);
	report_kv_int(out, "reprieves", (int64_t)reprieves, "%lld", NULL);
	report_table_end(out);
}

static void
ovd_units_table(struct report_out *out, const struct report_table *t,
    const struct analyze_ovd *o)
{
	const struct analyze_ovd_unit	*u;
	struct report_cell		 c[OVD_UNIT_COLS];
	size_t				 i;

	report_table(out, t);
	for (i = 0; i < o->nunits; i++) {
		u = &o->units[i];
		c[0] = report_str(u->name);
		c[1] = report_int(u->stat_seg);
		c[2] = report_int(u->file_ofs);
		c[3] = report_int(u->code_size);
		c[4] = report_int(u->fixup_size);
		c[5] = report_int(u->entry_pts);
		c[6] = report_int((int64_t)u->loads);
		c[7] = report_int((int64_t)u->reprieves);
		c[8] = report_int(u->resident_ticks);
		c[9] = report_real(100 * u->resident_share);
		if (u->mean_reload_ticks < 0) {
			c[10] = report_null();
			c[11] = report_null();
		} else {
			c[10] = report_real(u->mean_reload_ticks);
			c[11] = report_real(u->mean_reload_ticks /
			    ANALYZE_OVD_TICKS_PER_S);
		}
		report_row(out, c);
	}
	report_table_end(out);
}

/* "2000h..203Ch": the buffer's limits, in paragraphs. */
static char *
ovd_range(const struct analyze_ovd_buffer *bf)
{
	return (xasprintf("%04Xh..%04Xh", bf->heap_org, bf->heap_end));
}

/* Whether event i puts the buffer where no event before it had it. */
static int
ovd_moved(const struct analyze_ovd *o, size_t i)
{
	return (i == 0 || o->events[i].buffer != o->events[i - 1].buffer);
}

static void
ovd_buffers_table(struct report_out *out, const struct analyze_ovd *o)
{
	const struct analyze_ovd_event	*e;
	const struct analyze_ovd_buffer	*bf;
	struct report_cell		 c[OVD_BUFFER_COLS];
	char				*range;
	size_t				 i;

	report_table(out, &ovd_t_buffers);
	for (i = 0; i < o->nevents; i++) {
		if (!ovd_moved(o, i))
			continue;
		e = &o->events[i];
		bf = analyze_ovd_buffer_of(o, e);
		range = ovd_range(bf);
		c[0] = report_int((int64_t)i);
		c[1] = report_int(e->ticks);
		c[2] = report_real(analyze_ovd_seconds(e->ticks));
		c[3] = report_int(bf->heap_org);
		c[4] = report_int(bf->heap_end);
		c[5] = report_str(range);
		c[6] = report_int(((int64_t)bf->heap_end - bf->heap_org) * 16);
		report_row(out, c);
		free(range);
	}
	report_table_end(out);
}

static void
ovd_events_table(struct report_out *out, const struct report_table *t,
    const struct analyze_ovd *o)
{
	const struct analyze_ovd_event	*e;
	const struct analyze_ovd_buffer	*bf;
	struct report_cell		 c[OVD_EVENT_COLS];
	struct ovd_walk			 w;
	char				*site, *range, *list, *loaded;
	size_t				 i, n;

	report_table(out, t);
	ovd_walk_init(&w, o);
	for (i = 0; i < o->nevents; i++) {
		e = &o->events[i];
		bf = analyze_ovd_buffer_of(o, e);
		n = ovd_walk_at(&w, (int64_t)i);
		site = analyze_ovd_site(o, e->unit, e->ovr_ofs);
		range = ovd_moved(o, i) ? ovd_range(bf) : NULL;
		list = loaded = NULL;
		if (!e->reprieve) {
			list = ovd_list(&w, n, 0);
			loaded = ovd_list(&w, n, 1);
		}
		c[0] = report_int((int64_t)i);
		c[1] = report_int(e->ticks);
		c[2] = report_real(analyze_ovd_seconds(e->ticks));
		c[3] = report_str(ovd_kind(e));
		c[4] = report_int(o->units[e->unit].stat_seg);
		c[5] = report_str(o->units[e->unit].name);
		c[6] = report_int(e->ovr_ofs);
		c[7] = report_str(site);
		c[8] = report_int(bf->heap_org);
		c[9] = report_int(bf->heap_end);
		c[10] = report_str(range != NULL ? range : "");
		c[11] = report_str(list);	/* NULL for a reprieve */
		c[12] = report_str(loaded != NULL ? loaded : "");
		report_row(out, c);
		free(site);
		free(range);
		free(list);
		free(loaded);
	}
	ovd_walk_free(&w);
	report_table_end(out);
}

static void
ovd_legend(struct report_out *out)
{
	static const char *const lines[] = {
		"time s: clock ticks divided by 18.2065, the ticks a second"
		" of the PC's clock.",
		"resident %: the share of the time from the first to the"
		" last event a unit spent",
		"  in the buffer; reload s: the mean time between two of its"
		" loads (-: fewer).",
		"buffer: the buffer's limits heap_org..heap_end (segments),"
		" where they change;",
		"  load list: after a load, the units in the buffer as"
		" unit@segment, by segment.",
	};
	report_lines(out, &report_tab_legend, lines, sizeof lines /
	    sizeof lines[0]);
	report_table_end(out);
}

/* The whole report of an OVD session, from its model. */
int
report_ovd(struct store *st, const struct store_session *ss,
    const void *model, int format, FILE *f, char **cause)
{
	const struct analyze_ovd	*o = model;
	struct report_table		 tunits = ovd_t_units;
	struct report_table		 tevents = ovd_t_events;
	const struct report_table	*tables[] = { &report_tab_session,
		&ovd_t_header, &tunits, &ovd_t_buffers, &report_tab_warnings,
		&tevents, &report_tab_legend };
	struct report_session		 rs;
	uint64_t			 reprieves = ovd_reprieves(o);
	int				 rc = -1;

	tunits.title = xasprintf("Units (%zu overlaid)", o->nunits);
	tevents.title = xasprintf("Events (%zu: %llu loads, %llu reprieves)",
	    o->nevents, (unsigned long long)(o->nevents - reprieves),
	    (unsigned long long)reprieves);
	if (report_session_begin(&rs, st, ss, f, format, tables,
	    sizeof tables / sizeof tables[0], cause) == 0) {
		ovd_header_table(&rs.out, o);
		ovd_units_table(&rs.out, &tunits, o);
		ovd_buffers_table(&rs.out, o);
		report_session_warnings(&rs);
		ovd_events_table(&rs.out, &tevents, o);
		ovd_legend(&rs.out);
		rc = report_session_end(&rs, cause);
	}
	free((char *)tunits.title);
	free((char *)tevents.title);
	return (rc);
}

static double
ovd_us(int64_t ticks)
{
	return (analyze_ovd_seconds(ticks) * 1e6);
}

/*
 * The buffer over time: a track per unit, in stat_seg order, with each
 * stay in the buffer a span and each load or reprieve an instant.  A
 * unit's stays never overlap, so its spans are in order and disjoint.
 */
int
report_ovd_trace(const struct store_session *ss, const void *model,
    struct report_trace *tr)
{
	const struct analyze_ovd	*o = model;
	const struct analyze_ovd_span	*p;
	const struct analyze_ovd_event	*e;
	struct report_span		 sp;
	struct report_instant		 in;
	struct report_arg		 args[3];
	char				*site, *title, seg[16];
	size_t				 i;

	title = xasprintf("%s overlay buffer",
	    ss->program != NULL ? ss->program : "OVD");
	report_trace_name(tr, title);
	free(title);
	for (i = 0; i < o->nunits; i++)
		report_trace_track(tr, (unsigned)i + 1, o->units[i].name);

	memset(&sp, 0, sizeof sp);
	sp.cat = "resident";
	sp.args = args;
	sp.nargs = 3;
	args[0].name = "load_seg";
	args[1].name = "first_seq";
	args[2].name = "last_seq";
	for (i = 0; i < o->nspans; i++) {
		p = &o->spans[i];
		snprintf(seg, sizeof seg, "%04Xh", p->load_seg);
		sp.track = p->unit + 1;
		sp.name = o->units[p->unit].name;
		sp.start_us = ovd_us(analyze_ovd_span_start(o, p));
		sp.dur_us = ovd_us(analyze_ovd_span_end(o, p)) - sp.start_us;
		args[0].v = report_str(seg);
		args[1].v = report_int(p->first);
		args[2].v = report_int(p->last);
		report_trace_span(tr, &sp);
	}

	memset(&in, 0, sizeof in);
	in.cat = "overlay";
	in.args = args;
	in.nargs = 2;
	args[0].name = "seq";
	args[1].name = "call_site";
	for (i = 0; i < o->nevents; i++) {
		e = &o->events[i];
		site = analyze_ovd_site(o, e->unit, e->ovr_ofs);
		in.track = e->unit + 1;
		in.name = ovd_kind(e);
		in.ts_us = ovd_us(e->ticks);
		args[0].v = report_int((int64_t)i);
		args[1].v = report_str(site);
		report_trace_instant(tr, &in);
		free(site);
	}
	return (0);
}
