/*
 * Reports for OVD sessions: what OVRACT's OVRACTR/OVRACTM showed (an
 * event listing and a per-unit summary) as text, CSV and JSON, and the
 * buffer over time as Chrome trace-event JSON, one track per unit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "report/report.h"

/* Walks the events in order, keeping the residency of every unit. */
struct ovd_walk {
	const struct analyze_ovd	*o;
	size_t				 next;	/* first span not yet open */
	size_t				*active;	/* per unit: span + 1 or 0 */
	size_t				*list;		/* scratch, nunits */
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

	while (w->next < o->nspans && o->spans[w->next].first_seq <= seq) {
		p = &o->spans[w->next];
		w->active[p->unit] = ++w->next;
	}
	for (k = 0; k < o->nunits; k++) {
		if (w->active[k] == 0)
			continue;
		p = &o->spans[w->active[k] - 1];
		if (p->last_seq < seq)
			w->active[k] = 0;
		else
			w->list[n++] = w->active[k] - 1;
	}
	qsort_r(w->list, n, sizeof *w->list, ovd_walk_cmp, (void *)o);
	return (n);
}

static void
ovd_csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void
ovd_json_string(FILE *f, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			/* Map names are DOS bytes: keep the JSON ASCII. */
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static const char *
ovd_kind(const struct analyze_ovd_event *e)
{
	return (e->reprieve ? "reprieve" : "load");
}

static void
ovd_text(const struct analyze_ovd *o, const struct store_session *ss,
    FILE *f)
{
	const struct analyze_ovd_unit	*u;
	const struct analyze_ovd_event	*e;
	const struct analyze_ovd_span	*p;
	struct ovd_walk			 w;
	uint64_t			 reprieves = 0;
	size_t				 i, k, n;
	char				*site, reload[32];
	int				 org = -1, end = -1;

	for (i = 0; i < o->nevents; i++)
		reprieves += o->events[i].reprieve;
	fprintf(f, "OVRACT session %lld: %s, version %d, PrefixSeg %04Xh\n",
	    (long long)o->session, ss->program != NULL ? ss->program : "?",
	    o->version, o->prefix_seg);
	fprintf(f, "%zu overlaid units; %zu events (%llu loads, %llu"
	    " reprieves) from %.2f s to %.2f s%s", o->nunits, o->nevents,
	    (unsigned long long)(o->nevents - reprieves),
	    (unsigned long long)reprieves, analyze_ovd_seconds(o->t_first),
	    analyze_ovd_seconds(o->t_last),
	    o->truncated ? "; the file is truncated" : "");
	if (o->wraps != 0)
		fprintf(f, "; the clock passed midnight %lld time%s",
		    (long long)o->wraps, o->wraps == 1 ? "" : "s");
	fputs("\n\nUnits\n", f);
	fprintf(f, "%-12s %7s %6s %6s %9s %9s %12s\n", "unit", "StatSeg",
	    "code", "loads", "reprieves", "resident", "reload s");
	for (i = 0; i < o->nunits; i++) {
		u = &o->units[i];
		if (u->mean_reload_ticks < 0)
			snprintf(reload, sizeof reload, "-");
		else
			snprintf(reload, sizeof reload, "%.3f",
			    u->mean_reload_ticks / ANALYZE_OVD_TICKS_PER_S);
		fprintf(f, "%-12s   %04Xh %6u %6llu %9llu %8.1f%% %12s\n",
		    u->name, u->stat_seg, u->code_size,
		    (unsigned long long)u->loads,
		    (unsigned long long)u->reprieves,
		    100 * u->resident_share, reload);
	}
	fputs("\nEvents\n", f);
	fprintf(f, "%8s %10s %-8s %-12s %-24s %s\n", "seq", "time s", "kind",
	    "unit", "call site", "load list");
	ovd_walk_init(&w, o);
	for (i = 0; i < o->nevents; i++) {
		e = &o->events[i];
		if (e->heap_org != org || e->heap_end != end) {
			fprintf(f, "%8s %10s buffer %04Xh..%04Xh (%u bytes)\n",
			    "", "", e->heap_org, e->heap_end,
			    ((unsigned)e->heap_end - e->heap_org) * 16);
			org = e->heap_org;
			end = e->heap_end;
		}
		n = ovd_walk_at(&w, e->seq);
		site = analyze_ovd_site(o, e->unit, e->ovr_ofs);
		fprintf(f, "%8lld %10.3f %-8s %-12s %-24s",
		    (long long)e->seq, analyze_ovd_seconds(e->ticks),
		    ovd_kind(e), o->units[e->unit].name, site);
		free(site);
		for (k = 0; !e->reprieve && k < n; k++) {
			p = &o->spans[w.list[k]];
			fprintf(f, " %s@%04Xh", o->units[p->unit].name,
			    p->load_seg);
		}
		fputc('\n', f);
	}
	ovd_walk_free(&w);
}

static void
ovd_csv(const struct analyze_ovd *o, FILE *f)
{
	const struct analyze_ovd_unit	*u;
	const struct analyze_ovd_event	*e;
	const struct analyze_ovd_span	*p;
	struct ovd_walk			 w;
	size_t				 i, k, n;
	char				*site;

	fputs("record,unit,stat_seg,seq,ticks,time_s,kind,call_site,ovr_ofs,"
	    "heap_org,heap_end,load_list,loads,reprieves,resident_ticks,"
	    "resident_share,mean_reload_s\n", f);
	for (i = 0; i < o->nunits; i++) {
		u = &o->units[i];
		fputs("unit,", f);
		ovd_csv_field(f, u->name);
		fprintf(f, ",%u,,,,,,,,,,%llu,%llu,%lld,%.6f,", u->stat_seg,
		    (unsigned long long)u->loads,
		    (unsigned long long)u->reprieves,
		    (long long)u->resident_ticks, u->resident_share);
		if (u->mean_reload_ticks >= 0)
			fprintf(f, "%.6f", u->mean_reload_ticks /
			    ANALYZE_OVD_TICKS_PER_S);
		fputs("\n", f);
	}
	ovd_walk_init(&w, o);
	for (i = 0; i < o->nevents; i++) {
		e = &o->events[i];
		n = ovd_walk_at(&w, e->seq);
		fputs("event,", f);
		ovd_csv_field(f, o->units[e->unit].name);
		fprintf(f, ",%u,%lld,%lld,%.6f,%s,", o->units[e->unit].stat_seg,
		    (long long)e->seq, (long long)e->ticks,
		    analyze_ovd_seconds(e->ticks), ovd_kind(e));
		site = analyze_ovd_site(o, e->unit, e->ovr_ofs);
		ovd_csv_field(f, site);
		free(site);
		fprintf(f, ",%u,%u,%u,", e->ovr_ofs, e->heap_org, e->heap_end);
		for (k = 0; !e->reprieve && k < n; k++) {
			p = &o->spans[w.list[k]];
			fprintf(f, "%s%04X:%04X", k != 0 ? " " : "",
			    o->units[p->unit].stat_seg, p->load_seg);
		}
		fputs(",,,,,\n", f);
	}
	ovd_walk_free(&w);
}

static void
ovd_json(const struct analyze_ovd *o, const struct store_session *ss,
    FILE *f)
{
	const struct analyze_ovd_unit	*u;
	const struct analyze_ovd_event	*e;
	const struct analyze_ovd_span	*p;
	struct ovd_walk			 w;
	size_t				 i, k, n;
	char				*site;

	fprintf(f, "{\"session\":%lld,\"kind\":\"ovd\",\"program\":",
	    (long long)o->session);
	ovd_json_string(f, ss->program != NULL ? ss->program : "");
	fprintf(f, ",\"version\":%d,\"prefix_seg\":%u,\"truncated\":%s,"
	    "\"wraps\":%lld,\"ticks_per_second\":%.4f,\"first_ticks\":%lld,"
	    "\"last_ticks\":%lld,\n\"units\":[", o->version, o->prefix_seg,
	    o->truncated ? "true" : "false", (long long)o->wraps,
	    ANALYZE_OVD_TICKS_PER_S, (long long)o->t_first,
	    (long long)o->t_last);
	for (i = 0; i < o->nunits; i++) {
		u = &o->units[i];
		fprintf(f, "%s\n{\"stat_seg\":%u,\"name\":", i != 0 ? "," : "",
		    u->stat_seg);
		ovd_json_string(f, u->name);
		fprintf(f, ",\"file_ofs\":%u,\"code_size\":%u,\"fixup_size\":%u,"
		    "\"entry_pts\":%u,\"loads\":%llu,\"reprieves\":%llu,"
		    "\"resident_ticks\":%lld,\"resident_share\":%.9f,"
		    "\"mean_reload_ticks\":", u->file_ofs, u->code_size,
		    u->fixup_size, u->entry_pts, (unsigned long long)u->loads,
		    (unsigned long long)u->reprieves,
		    (long long)u->resident_ticks, u->resident_share);
		if (u->mean_reload_ticks < 0)
			fputs("null}", f);
		else
			fprintf(f, "%.6f}", u->mean_reload_ticks);
	}
	fputs("],\n\"events\":[", f);
	ovd_walk_init(&w, o);
	for (i = 0; i < o->nevents; i++) {
		e = &o->events[i];
		n = ovd_walk_at(&w, e->seq);
		fprintf(f, "%s\n{\"seq\":%lld,\"ticks\":%lld,\"time_s\":%.6f,"
		    "\"kind\":\"%s\",\"ovr_seg\":%u,\"unit\":", i != 0 ? "," : "",
		    (long long)e->seq, (long long)e->ticks,
		    analyze_ovd_seconds(e->ticks), ovd_kind(e),
		    o->units[e->unit].stat_seg);
		ovd_json_string(f, o->units[e->unit].name);
		site = analyze_ovd_site(o, e->unit, e->ovr_ofs);
		fprintf(f, ",\"ovr_ofs\":%u,\"call_site\":", e->ovr_ofs);
		ovd_json_string(f, site);
		free(site);
		fprintf(f, ",\"heap_org\":%u,\"heap_end\":%u,\"loaded\":",
		    e->heap_org, e->heap_end);
		if (e->reprieve) {
			fputs("null}", f);
			continue;
		}
		fputc('[', f);
		for (k = 0; k < n; k++) {
			p = &o->spans[w.list[k]];
			fprintf(f, "%s[%u,%u]", k != 0 ? "," : "",
			    o->units[p->unit].stat_seg, p->load_seg);
		}
		fputs("]}", f);
	}
	ovd_walk_free(&w);
	fputs("]}\n", f);
}

static double
ovd_us(int64_t ticks)
{
	return (analyze_ovd_seconds(ticks) * 1e6);
}

/*
 * Chrome trace-event JSON (Perfetto, chrome://tracing): a thread per unit,
 * its residencies as complete events, its loads and reprieves as instants.
 */
static void
ovd_chrome(const struct analyze_ovd *o, const struct store_session *ss,
    FILE *f)
{
	const struct analyze_ovd_span	*p;
	const struct analyze_ovd_event	*e;
	size_t				 i;
	char				*site, *title;

	title = xasprintf("%s overlay buffer",
	    ss->program != NULL ? ss->program : "OVD");
	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", f);
	fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
	    "\"args\":{\"name\":", f);
	ovd_json_string(f, title);
	fputs("}}", f);
	free(title);
	for (i = 0; i < o->nunits; i++) {
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
		    "\"tid\":%zu,\"args\":{\"name\":", i + 1);
		ovd_json_string(f, o->units[i].name);
		fprintf(f, "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\","
		    "\"pid\":1,\"tid\":%zu,\"args\":{\"sort_index\":%zu}}",
		    i + 1, i + 1);
	}
	for (i = 0; i < o->nspans; i++) {
		p = &o->spans[i];
		fputs(",\n{\"name\":", f);
		ovd_json_string(f, o->units[p->unit].name);
		fprintf(f, ",\"cat\":\"resident\",\"ph\":\"X\",\"pid\":1,"
		    "\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f,\"args\":{"
		    "\"load_seg\":\"%04Xh\",\"first_seq\":%lld,"
		    "\"last_seq\":%lld}}", p->unit + 1, ovd_us(p->start_ticks),
		    ovd_us(p->end_ticks) - ovd_us(p->start_ticks),
		    p->load_seg, (long long)p->first_seq,
		    (long long)p->last_seq);
	}
	for (i = 0; i < o->nevents; i++) {
		e = &o->events[i];
		site = analyze_ovd_site(o, e->unit, e->ovr_ofs);
		fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"overlay\",\"ph\":\"i\","
		    "\"s\":\"t\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,\"args\":{"
		    "\"seq\":%lld,\"call_site\":", ovd_kind(e), e->unit + 1,
		    ovd_us(e->ticks), (long long)e->seq);
		ovd_json_string(f, site);
		fputs("}}", f);
		free(site);
	}
	fputs("\n]}\n", f);
}

/* Write OVD session id in format to out. */
int
report_ovd_id(struct store *st, int64_t id, int format, FILE *out,
    char **cause)
{
	struct analyze_ovd	o;
	struct store_session	ss;

	if (store_session_get(st, id, &ss) != 0) {
		*cause = xasprintf("no session %lld", (long long)id);
		return (-1);
	}
	if (analyze_ovd_load(st, id, &o, cause) != 0) {
		store_session_free(&ss);
		return (-1);
	}
	switch (format) {
	case REPORT_TEXT:
		ovd_text(&o, &ss, out);
		break;
	case REPORT_CSV:
		ovd_csv(&o, out);
		break;
	case REPORT_JSON:
		ovd_json(&o, &ss, out);
		break;
	case REPORT_CHROME:
		ovd_chrome(&o, &ss, out);
		break;
	default:
		*cause = xasprintf("session %lld: OVD sessions have no %s"
		    " report (text, csv, json, chrome)", (long long)id,
		    report_format_name(format));
		analyze_ovd_free(&o);
		store_session_free(&ss);
		return (-1);
	}
	analyze_ovd_free(&o);
	store_session_free(&ss);
	if (ferror(out)) {
		*cause = xasprintf("session %lld: write error", (long long)id);
		return (-1);
	}
	return (0);
}

/* Until the OVD report is a document: the old writer. */
int
report_ovd(struct store *st, const struct store_session *ss,
    const void *model, int format, FILE *out, char **cause)
{
	(void)model;
	return (report_ovd_id(st, ss->id, format, out, cause));
}
