/*
 * The prfd session report: a Dos32Profile dump as OS/2's profile tools
 * printed it.  The global counters with their shares, the slots with
 * their counts and shares, the modules samples fell in, each thread's
 * counters, and the exact flat profile by function of every module (the
 * hit table and the modules' samples).  Shares are of the run time, as
 * perf shows them, with those of every period of the dump beside
 * (analyze/prfd.c); everything comes from the model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/prfd.h"
#include "report/report.h"
#include "report/prfd.h"
#include "store/prfd.h"

static const struct report_table prfd_t_header = {
	"prfd", "Dump", REPORT_OBJECT, REPORT_NOHEAD, report_kv_cols,
	REPORT_KV_COLS, NULL, -1, 0
};

static const struct report_col prfd_global_cols[] = {
	{ "counter", "counter", 0, 0, 0 },
	{ "samples", "samples", 0, 0, 0 },
	{ "percent", "of run %", 0, 2, 0 },
	{ "of_all_percent", "of all %", 0, 2, 0 },
};
#define PRFD_GLOBAL_COLS	(sizeof prfd_global_cols / sizeof prfd_global_cols[0])

static const struct report_table prfd_t_global = {
	"global", "Global counters (PRFRET0)", REPORT_ROWS, 0,
	prfd_global_cols, PRFD_GLOBAL_COLS, NULL, 2, 0
};

static const struct report_col prfd_slot_cols[] = {
	{ "slot", "slot", 0, 0, 0 },
	{ "module", "module", 0, 0, 32 },
	{ "vaddr", "address", REPORT_HEX, 12, 0 },
	{ "size", "size", 0, 0, 0 },
	{ "flags", "mode", REPORT_HEX, 0, 0 },
	{ "cnt", "count", 0, 0, 0 },
	{ "percent", "of run %", 0, 2, 0 },
	{ "counters", "counters", 0, 0, 0 },
	{ "symbols", "symbols", 0, 0, 0 },
	{ "build_id", "", REPORT_MACHINE, 0, 0 },
	{ "path", "", REPORT_MACHINE, 0, 0 },
};
#define PRFD_SLOT_COLS	(sizeof prfd_slot_cols / sizeof prfd_slot_cols[0])
#define PRFD_SLOT_PCT	6

static const struct report_table prfd_t_slots = {
	"slots", "Slots (PRFRET1)", REPORT_ROWS, 0, prfd_slot_cols,
	PRFD_SLOT_COLS, "no slots", PRFD_SLOT_PCT, 0
};

static const struct report_col prfd_thread_cols[] = {
	{ "thrdno", "thread", 0, 0, 0 },
	{ "tid", "tid", 0, 0, 0 },
	{ "idle", "idle", 0, 0, 0 },
	{ "vm86", "vm86", 0, 0, 0 },
	{ "kernel", "kernel", 0, 0, 0 },
	{ "shrmem", "shrmem", 0, 0, 0 },
	{ "unknown", "unknown", 0, 0, 0 },
	{ "hitbufcnt", "hits", 0, 0, 0 },
	{ "errcnt", "errors", 0, 0, 0 },
};
#define PRFD_THREAD_COLS (sizeof prfd_thread_cols / sizeof prfd_thread_cols[0])

static const struct report_table prfd_t_threads = {
	"threads", "Threads (PRFRET0 per thread)", REPORT_ROWS, 0,
	prfd_thread_cols, PRFD_THREAD_COLS, "no per-thread records", -1, 0
};

static const struct report_col prfd_flat_cols[] = {
	{ "hits", "hits", 0, 0, 0 },
	{ "percent", "of run %", 0, 2, 0 },
	{ "of_all_percent", "of all %", 0, 2, 0 },
	{ "of_hits_percent", "of these %", 0, 2, 0 },
	{ "addr", "address", REPORT_HEX, 12, 0 },
	{ "module", "module", 0, 0, 24 },
	{ "symbol", "symbol", 0, 0, 48 },
};
#define PRFD_FLAT_COLS	(sizeof prfd_flat_cols / sizeof prfd_flat_cols[0])

static const struct report_table prfd_t_flat = {
	"flat", "Flat profile by function (the hit table and the modules'"
	" samples, exact)", REPORT_ROWS, 0, prfd_flat_cols, PRFD_FLAT_COLS,
	"no hit table and no module", 1, 0
};

static const struct report_col prfd_module_cols[] = {
	{ "module", "module", 0, 0, 24 },
	{ "lo", "mapped at", REPORT_HEX, 12, 0 },
	{ "samples", "samples", 0, 0, 0 },
	{ "percent", "of run %", 0, 2, 0 },
	{ "symbols", "symbols", 0, 0, 0 },
	{ "unresolved", "unresolved", 0, 0, 48 },
	{ "bias", "", REPORT_MACHINE | REPORT_HEX, 0, 0 },
	{ "build_id", "", REPORT_MACHINE, 0, 0 },
	{ "path", "", REPORT_MACHINE, 0, 0 },
};
#define PRFD_MODULE_COLS (sizeof prfd_module_cols / sizeof prfd_module_cols[0])

static const struct report_table prfd_t_modules = {
	"modules", "Modules samples fell in outside the slots (the kernel's"
	" are its counter's)", REPORT_ROWS, 0, prfd_module_cols,
	PRFD_MODULE_COLS, "no module", 3, 0
};

/* A share of the run time (the model's all is never set here). */
static struct report_cell
prfd_pct(const struct analyze_prfd *m, uint64_t n)
{
	return (report_real(analyze_prfd_pct(m, (double)n)));
}

static struct report_cell
prfd_pct_all(const struct analyze_prfd *m, uint64_t n)
{
	return (report_real(m->total != 0 ? 100.0 * (double)n /
	    (double)m->total : 0));
}

static void
prfd_header(struct report_out *out, const struct analyze_prfd *m)
{
	const struct store_prfd	*d = &m->d;
	char			*shown;

	report_table(out, &prfd_t_header);
	report_kv_int(out, "pid", d->pid, "%lld", d->pid == 0 ? "the kernel"
	    " (PRF_KERNEL)" : NULL);
	report_kv_int(out, "width", d->width, "%lld", d->width == 4 ?
	    "bytes in a ULONG: OS/2's" : "bytes in a ULONG");
	report_kv_int(out, "timval", d->timval, "%lld us", "the sampling"
	    " period asked for");
	shown = xasprintf("%#x", d->flags);
	report_kv(out, "flags", report_int(d->flags), shown, "r0_flags");
	free(shown);
	shown = xasprintf("2^%u = %llu bytes", d->shift,
	    (unsigned long long)1 << d->shift);
	report_kv(out, "shift", report_int(d->shift), shown, "a detail"
	    " counter covers");
	free(shown);
	report_kv_int(out, "samples", (int64_t)m->total, "%lld", "every"
	    " period: the global counters, the slots' and the modules'"
	    " counts");
	report_kv_int(out, "run", (int64_t)m->run, "%lld", "the samples"
	    " taken while the process ran (all but idle): the shares' base");
	report_kv_int(out, "nhitbufs", (int64_t)d->nhitbufs, "%lld", NULL);
	report_kv_int(out, "hitbufcnt", (int64_t)d->hitbufcnt, "%lld",
	    "entries in the hit table");
	report_kv_int(out, "errcnt", d->errcnt, "%lld", NULL);
	if (d->period_ns >= 0)
		report_kv_int(out, "period_ns", d->period_ns, "%lld ns",
		    "between samples");
	if (d->samples >= 0)
		report_kv_int(out, "samples_taken", d->samples, "%lld", NULL);
	if (d->ns >= 0) {
		shown = xasprintf("%.3f s", d->ns / 1e9);
		report_kv(out, "ns", report_int(d->ns), shown, "profiled");
		free(shown);
	}
	if (d->command != NULL)
		report_kv(out, "command", report_str(d->command), d->command,
		    NULL);
	if (!d->extension)
		report_kv(out, "extension", report_int(0), "none", "an OS/2"
		    " dump: addresses only");
	report_table_end(out);
}

static void
prfd_global(struct report_out *out, const struct analyze_prfd *m)
{
	const char		*name[] = { "idle", "vm86", "kernel", "shrmem",
	    "unknown", "slots", "modules" };
	const uint64_t		 v[] = { m->d.idle, m->d.vm86, m->d.kernel,
	    m->d.shrmem, m->d.unknown, m->slots_total, m->mods_total };
	struct report_cell	 c[PRFD_GLOBAL_COLS];
	size_t			 i;

	report_table(out, &prfd_t_global);
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		c[0] = report_str(name[i]);
		c[1] = report_int((int64_t)v[i]);
		/* Idle is no part of the run. */
		c[2] = i == 0 ? report_null() : prfd_pct(m, v[i]);
		c[3] = prfd_pct_all(m, v[i]);
		report_row(out, c);
	}
	report_table_end(out);
}

static void
prfd_slots(struct report_out *out, const struct analyze_prfd *m)
{
	const struct store_prfd_slot	*s;
	struct report_cell		 c[PRFD_SLOT_COLS];
	const char			*mod;
	size_t				 i;

	report_table(out, &prfd_t_slots);
	for (i = 0; i < m->nslots; i++) {
		s = &m->slots[i];
		mod = analyze_prfd_module(m, i);
		c[0] = report_int((int64_t)i);
		c[1] = mod != NULL ? report_str(mod) : report_null();
		c[2] = report_int((int64_t)s->vaddr);
		c[3] = report_int((int64_t)s->size);
		c[4] = report_int((int64_t)s->flags);
		c[5] = report_int((int64_t)s->cnt);
		c[6] = prfd_pct(m, s->cnt);
		c[7] = report_int(s->nbuckets);
		c[8] = report_int(s->symbols);
		c[9] = s->build_id != NULL ? report_str(s->build_id) :
		    report_null();
		c[10] = s->module != NULL ? report_str(s->module) :
		    report_null();
		report_row(out, c);
	}
	report_table_end(out);
}

static void
prfd_modules(struct report_out *out, const struct analyze_prfd *m)
{
	const struct store_prfd_module	*md;
	struct report_cell		 c[PRFD_MODULE_COLS];
	size_t				 i;

	report_table(out, &prfd_t_modules);
	for (i = 0; i < m->nmods; i++) {
		md = &m->mods[i];
		c[0] = report_str(analyze_prfd_basename(md->path));
		c[1] = report_int((int64_t)md->lo);
		c[2] = report_int((int64_t)md->samples);
		c[3] = prfd_pct(m, md->samples);
		c[4] = report_int(md->symbols);
		c[5] = md->unresolved != NULL ? report_str(md->unresolved) :
		    report_null();
		c[6] = report_int((int64_t)md->bias);
		c[7] = md->build_id != NULL ? report_str(md->build_id) :
		    report_null();
		c[8] = report_str(md->path);
		report_row(out, c);
	}
	report_table_end(out);
}

static void
prfd_threads(struct report_out *out, const struct analyze_prfd *m)
{
	const struct store_prfd_thread	*t;
	struct report_cell		 c[PRFD_THREAD_COLS];
	size_t				 i;

	report_table(out, &prfd_t_threads);
	for (i = 0; i < m->nthreads; i++) {
		t = &m->threads[i];
		c[0] = report_int(t->thrdno);
		c[1] = t->tid >= 0 ? report_int(t->tid) : report_null();
		c[2] = report_int((int64_t)t->idle);
		c[3] = report_int((int64_t)t->vm86);
		c[4] = report_int((int64_t)t->kernel);
		c[5] = report_int((int64_t)t->shrmem);
		c[6] = report_int((int64_t)t->unknown);
		c[7] = report_int((int64_t)t->hitbufcnt);
		c[8] = report_int(t->errcnt);
		report_row(out, c);
	}
	report_table_end(out);
}

static void
prfd_flat(struct report_out *out, const struct analyze_prfd *m)
{
	const struct analyze_prfd_flat	*f;
	struct report_cell		 c[PRFD_FLAT_COLS];
	const char			*mod;
	char				*name;
	size_t				 i;

	report_table(out, &prfd_t_flat);
	for (i = 0; i < m->nflat; i++) {
		f = &m->flat[i];
		name = analyze_prfd_flat_name(m, f);
		mod = analyze_prfd_flat_module(m, f);
		c[0] = report_int((int64_t)f->hits);
		c[1] = prfd_pct(m, f->hits);
		c[2] = prfd_pct_all(m, f->hits);
		c[3] = report_real(m->flat_total != 0 ? 100.0 *
		    (double)f->hits / (double)m->flat_total : 0);
		c[4] = f->slot != SIZE_MAX || f->sym != SIZE_MAX ||
		    f->mod != SIZE_MAX ? report_int((int64_t)f->addr) :
		    report_null();
		c[5] = mod != NULL ? report_str(mod) : report_null();
		c[6] = report_str(name);
		report_row(out, c);
		free(name);
	}
	report_table_end(out);
}

/* One pprof sample of n samples at a location in no mapping. */
static void
prfd_pprof_other(struct report_pprof *p, const struct analyze_prfd *m,
    const char *name, uint64_t n)
{
	uint64_t	loc;
	int64_t		v[2];

	if (n == 0)
		return;
	loc = report_pprof_location(p, 0, 0, name, NULL, 0);
	v[0] = (int64_t)n;
	v[1] = (int64_t)n * m->d.period_ns;
	report_pprof_sample(p, &loc, 1, v);
}

/*
 * pprof's profile: a sample per row of the flat profile (the hit
 * table's, exact), in a mapping per slot's module, and the global
 * counters as frames of their own, so that pprof's total is every
 * sample of the dump, as the report's shares are.
 */
static int
prfd_pprof(const struct analyze_prfd *m, FILE *f, char **cause)
{
	struct report_pprof		*p = report_pprof_new();
	const struct analyze_prfd_flat	*fl;
	const struct store_prfd_slot	*s;
	uint64_t			*mapof, loc, unplaced = 0;
	int64_t				 v[2];
	char				*name;
	size_t				 i;

	report_pprof_type(p, "samples", "count");
	report_pprof_type(p, "cpu", "nanoseconds");
	report_pprof_default(p, "samples");
	report_pprof_period(p, "cpu", "nanoseconds", m->d.period_ns);
	report_pprof_time(p, 0, m->d.ns);
	report_pprof_comment(p, "profview: Dos32Profile dump, samples by"
	    " symbol from the hit table (exact)");
	if (m->d.command != NULL)
		report_pprof_comment(p, m->d.command);
	mapof = xcalloc(m->nslots + 1, sizeof *mapof);
	for (i = 0; i < m->nslots; i++) {
		s = &m->slots[i];
		mapof[i] = report_pprof_mapping(p, s->module, s->vaddr,
		    s->vaddr + s->size, 0);
	}
	for (i = 0; i < m->nflat; i++) {
		fl = &m->flat[i];
		name = analyze_prfd_flat_name(m, fl);
		loc = report_pprof_location(p, fl->slot != SIZE_MAX ?
		    mapof[fl->slot] : 0, fl->addr, name, NULL, 0);
		free(name);
		v[0] = (int64_t)fl->hits;
		v[1] = (int64_t)fl->hits * m->d.period_ns;
		report_pprof_sample(p, &loc, 1, v);
	}
	/* Without a hit table, or beyond it, the slots' counts alone. */
	for (i = 0; i < m->nslots; i++)
		unplaced += m->slots[i].cnt;
	unplaced = unplaced > m->hit_total ? unplaced - m->hit_total : 0;
	prfd_pprof_other(p, m, "[slots, not in the hit table]", unplaced);
	prfd_pprof_other(p, m, "[idle]", m->d.idle);
	prfd_pprof_other(p, m, "[vm86]", m->d.vm86);
	prfd_pprof_other(p, m, "[kernel]", m->d.kernel);
	prfd_pprof_other(p, m, "[shrmem]", m->d.shrmem);
	prfd_pprof_other(p, m, "[unknown]", m->d.unknown);
	free(mapof);
	return (report_pprof_write(p, f, cause));
}

int
report_prfd(struct store *st, const struct store_session *ss,
    const void *model, int format, FILE *f, char **cause)
{
	const struct analyze_prfd	*m = model;
	const struct report_table	*tables[] = { &report_tab_session,
		&prfd_t_header, &prfd_t_global, &prfd_t_slots, &prfd_t_flat,
		&prfd_t_modules, &report_tab_warnings, &prfd_t_threads };
	struct report_session		 rs;

	if (format == REPORT_PPROF)
		return (prfd_pprof(m, f, cause));
	if (report_session_begin(&rs, st, ss, f, format, tables,
	    sizeof tables / sizeof tables[0], cause) != 0)
		return (-1);
	prfd_header(&rs.out, m);
	prfd_global(&rs.out, m);
	prfd_slots(&rs.out, m);
	prfd_flat(&rs.out, m);
	prfd_modules(&rs.out, m);
	report_session_warnings(&rs);
	prfd_threads(&rs.out, m);
	return (report_session_end(&rs, cause));
}
