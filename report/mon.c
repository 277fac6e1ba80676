/*
 * The mon session report: a pvtrace profile as Rokicki's foo.mon showed
 * it, one line per function by self time, with CPU time beside real time
 * and each time's uncertainty; then the call edges and the call tree.
 * Everything comes from the model (analyze_mon).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsearch.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/mon.h"
#include "report/report.h"
#include "report/mon.h"
#include "store/mon.h"

static const struct report_table mon_t_header = {
	"mon", "Profile", REPORT_OBJECT, REPORT_NOHEAD, report_kv_cols,
	REPORT_KV_COLS, NULL, -1, 0
};

static const struct report_col mon_fn_cols[] = {
	{ "calls", "calls", 0, 0, 0 },
	{ "self_ns", "", REPORT_MACHINE, 0, 0 },
	{ "self_ms", "self ms", REPORT_HUMAN, 3, 0 },
	{ "self_percent", "self %", 0, 1, 0 },
	{ "total_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_ms", "self+children ms", REPORT_HUMAN, 3, 0 },
	{ "self_cpu_ns", "", REPORT_MACHINE, 0, 0 },
	{ "self_cpu_ms", "self CPU ms", REPORT_HUMAN, 3, 0 },
	{ "total_cpu_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_cpu_ms", "s+c CPU ms", REPORT_HUMAN, 3, 0 },
	{ "self_err_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_err_ns", "", REPORT_MACHINE, 0, 0 },
	{ "err_ms", "+/- ms", REPORT_HUMAN, 3, 0 },
	{ "us_per_call", "us/call", 0, 3, 0 },
	{ "how", "how", 0, 0, 0 },
	{ "module", "", REPORT_MACHINE, 0, 0 },
	{ "addr", "addr", REPORT_HEX, 0, 0 },
	{ "function", "function", 0, 0, 48 },
};
#define MON_FN_COLS	(sizeof mon_fn_cols / sizeof mon_fn_cols[0])
#define MON_FN_PCT	3

static const struct report_table mon_t_functions = {
	"functions", "Functions (by self time)", REPORT_ROWS, 0, mon_fn_cols,
	MON_FN_COLS, "no function was called", MON_FN_PCT, 0
};

/*
 * The sampler's times (a profile of .mon version 3): where the time went,
 * self and self+children with the 95 % interval at the sample count, as
 * shares of the program's time (the probe's excluded, in the header);
 * the trap-measured CPU time beside, for comparison.
 */
static const struct report_col mon_samp_cols[] = {
	{ "self_cpu_samples", "samples", 0, 0, 0 },
	{ "self_cpu_ns", "", REPORT_MACHINE, 0, 0 },
	{ "self_cpu_ms", "self CPU ms", REPORT_HUMAN, 3, 0 },
	{ "self_cpu_err_ns", "", REPORT_MACHINE, 0, 0 },
	{ "self_cpu_err_ms", "+/- ms", REPORT_HUMAN, 3, 0 },
	{ "self_percent", "self %", 0, 1, 0 },
	{ "total_cpu_samples", "", REPORT_MACHINE, 0, 0 },
	{ "total_cpu_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_cpu_ms", "s+c CPU ms", REPORT_HUMAN, 3, 0 },
	{ "total_cpu_err_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_cpu_err_ms", "+/- ms", REPORT_HUMAN, 3, 0 },
	{ "total_percent", "s+c %", 0, 1, 0 },
	{ "self_real_ns", "", REPORT_MACHINE, 0, 0 },
	{ "self_real_ms", "self real ms", REPORT_HUMAN, 3, 0 },
	{ "total_real_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_real_ms", "s+c real ms", REPORT_HUMAN, 3, 0 },
	{ "few", "note", 0, 0, 0 },
	{ "trap_self_cpu_ns", "", REPORT_MACHINE, 0, 0 },
	{ "trap_self_cpu_ms", "trap self CPU ms", REPORT_HUMAN, 3, 0 },
	{ "function", "function", 0, 0, 48 },
};
#define MON_SAMP_COLS	(sizeof mon_samp_cols / sizeof mon_samp_cols[0])
#define MON_SAMP_PCT	5

static const struct report_table mon_t_samples = {
	/*
	 * The +/- is the samples' chance error only: a function of a few
	 * ns runs in the probe's shadow and is found less often than its
	 * cost alone, which the title says where it is read.
	 */
	"samples", "Functions by CPU time from samples (+/-: sampling error"
	" only; a function of a few ns a call may be off by a few points,"
	" pvtrace(1) CAVEATS)", REPORT_ROWS, 0,
	mon_samp_cols, MON_SAMP_COLS, "no samples", MON_SAMP_PCT, 0
};

static const struct report_col mon_call_cols[] = {
	/* No caller: called from outside what was traced. */
	{ "caller", "caller", REPORT_ROOTNULL, 0, 40 },
	{ "callee", "callee", 0, 0, 40 },
	{ "calls", "calls", 0, 0, 0 },
	{ "total_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_ms", "self+children ms", REPORT_HUMAN, 3, 0 },
	{ "total_cpu_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_cpu_ms", "CPU ms", REPORT_HUMAN, 3, 0 },
	{ "total_err_ns", "", REPORT_MACHINE, 0, 0 },
	{ "err_ms", "+/- ms", REPORT_HUMAN, 3, 0 },
};
#define MON_CALL_COLS	(sizeof mon_call_cols / sizeof mon_call_cols[0])

static const struct report_table mon_t_calls = {
	"calls", "Call edges (caller -> callee)", REPORT_ROWS, 0,
	mon_call_cols, MON_CALL_COLS, "no calls", -1, 0
};

static const struct report_col mon_path_cols[] = {
	{ "id", "", REPORT_MACHINE, 0, 0 },
	{ "parent", "", REPORT_MACHINE, 0, 0 },
	{ "depth", "", REPORT_MACHINE, 0, 0 },
	{ "function", "", REPORT_MACHINE, 0, 0 },
	{ "tree", "call tree", REPORT_HUMAN, 0, 72 },
	{ "calls", "calls", 0, 0, 0 },
	{ "self_ns", "", REPORT_MACHINE, 0, 0 },
	{ "self_ms", "self ms", REPORT_HUMAN, 3, 0 },
	{ "total_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_ms", "self+children ms", REPORT_HUMAN, 3, 0 },
	{ "self_cpu_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_cpu_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_cpu_ms", "s+c CPU ms", REPORT_HUMAN, 3, 0 },
	{ "self_err_ns", "", REPORT_MACHINE, 0, 0 },
	{ "total_err_ns", "", REPORT_MACHINE, 0, 0 },
};
#define MON_PATH_COLS	(sizeof mon_path_cols / sizeof mon_path_cols[0])

static const struct report_table mon_t_paths = {
	"paths", "Call paths", REPORT_ROWS, 0, mon_path_cols, MON_PATH_COLS,
	"no call paths", -1, 0
};

static struct report_cell
mon_ms(int64_t ns)
{
	return (report_real(ns / 1e6));
}

static struct report_cell
mon_cpu(const struct analyze_mon *m, int64_t v, int ms)
{
	if (!m->cpu)
		return (report_null());
	return (ms ? mon_ms(v) : report_int(v));
}

/* The sampler's lines of the header: its rate, the program's, the probe. */
static void
mon_header_samples(struct report_out *out, const struct analyze_mon *m)
{
	const struct store_mon	*h = &m->hdr;
	int64_t			 all;
	char			*shown;

	report_kv_int(out, "sample_rate", h->sample_rate, "%lld Hz",
	    h->sample_rate > 0 ? "looks per second at each thread" :
	    "the sampler was off (--rate 0)");
	shown = xasprintf("%.3f s CPU in %lld samples, %.3f s real",
	    m->prog_ns[ANALYZE_MON_CPU] / 1e9,
	    (long long)m->prog_n[ANALYZE_MON_CPU],
	    m->prog_ns[ANALYZE_MON_REAL] / 1e9);
	report_kv(out, "program_cpu_ns", report_int(m->prog_ns[
	    ANALYZE_MON_CPU]), shown, "the shares below are of this");
	free(shown);
	all = m->prog_ns[ANALYZE_MON_CPU] + h->probe[STORE_SA_CPU_NS];
	shown = xasprintf("%.3f s CPU (%.1f %% of all), %.3f s real",
	    h->probe[STORE_SA_CPU_NS] / 1e9, all > 0 ? 100.0 *
	    h->probe[STORE_SA_CPU_NS] / all : 0.0,
	    h->probe[STORE_SA_REAL_NS] / 1e9);
	report_kv(out, "probe_cpu_ns", report_int(h->probe[STORE_SA_CPU_NS]),
	    shown, "inside pvtrace's probes: excluded from the shares");
	free(shown);
}

static void
mon_header(struct report_out *out, const struct analyze_mon *m)
{
	const struct store_mon	*h = &m->hdr;
	char			*shown;
	int			 i;

	report_table(out, &mon_t_header);
	report_kv(out, "command", report_str(h->command), h->command, NULL);
	report_kv_int(out, "runs", h->runs, "%lld", "runs added up here");
	shown = xasprintf("%.3f s", h->real_ns / 1e9);
	report_kv(out, "real_ns", report_int(h->real_ns), shown,
	    "the runs' wall time");
	free(shown);
	report_kv(out, "status", report_str(h->status), h->status,
	    "how the last run ended");
	shown = xasprintf("%s, %lld Hz", h->clock, (long long)h->clock_hz);
	report_kv(out, "clock", report_str(h->clock), shown, NULL);
	free(shown);
	report_kv(out, "cpu", report_str(h->cpu), h->cpu,
	    m->cpu ? "CPU time kept beside real time" : "no CPU time");
	for (i = 0; i < 2; i++) {
		shown = xasprintf("%.1f + %.1f ns a call (%.1f-%.1f)",
		    h->over_ps[i][0] / 1e3, h->over_ps[i][1] / 1e3,
		    h->over_ps[i][2] / 1e3, h->over_ps[i][3] / 1e3);
		report_kv(out, i == 0 ? "overhead_jump_ns" : "overhead_trap_ns",
		    report_real((h->over_ps[i][0] + h->over_ps[i][1]) / 1e3),
		    shown, i == 0 ? "subtracted: in the function + in the"
		    " caller (10th-90th percentile of the sum)" : "the same,"
		    " for entries by int3");
		free(shown);
	}
	report_kv_int(out, "functions", (int64_t)m->nfn, "%lld", NULL);
	report_kv_int(out, "calls", (int64_t)m->calls, "%lld", NULL);
	report_kv_int(out, "paths", (int64_t)m->npaths, "%lld",
	    "distinct call stacks");
	if (m->sampled)
		mon_header_samples(out, m);
	if (h->error != NULL)
		report_kv(out, "error", report_str(h->error), h->error, NULL);
	report_table_end(out);
}

static void
mon_functions(struct report_out *out, const struct analyze_mon *m)
{
	const struct store_func	*f;
	struct report_cell	 c[MON_FN_COLS];
	size_t			 i, k;

	report_table(out, &mon_t_functions);
	for (i = 0; i < m->nfn; i++) {
		f = &m->fn[i];
		c[0] = report_int((int64_t)f->calls);
		c[1] = report_int(f->self_ns);
		c[2] = mon_ms(f->self_ns);
		c[3] = m->self_ns > 0 ? report_real(100.0 * f->self_ns /
		    m->self_ns) : report_null();
		c[4] = report_int(f->total_ns);
		c[5] = mon_ms(f->total_ns);
		c[6] = mon_cpu(m, f->self_cpu_ns, 0);
		c[7] = mon_cpu(m, f->self_cpu_ns, 1);
		c[8] = mon_cpu(m, f->total_cpu_ns, 0);
		c[9] = mon_cpu(m, f->total_cpu_ns, 1);
		c[10] = report_int(f->self_err_ns);
		c[11] = report_int(f->total_err_ns);
		c[12] = mon_ms(f->total_err_ns);
		c[13] = f->calls > 0 ? report_real(f->self_ns / 1e3 /
		    (double)f->calls) : report_null();
		if (f->how == STORE_HOW_LEAF) {
			/* A leaf's probe measures no time (its caller has). */
			for (k = 1; k <= 13; k++)
				c[k] = report_null();
		}
		c[14] = report_str(store_func_how[f->how]);
		c[15] = report_str(f->module);
		c[16] = report_int((int64_t)f->addr);
		c[17] = report_str(f->key);
		report_row(out, c);
	}
	report_table_end(out);
}

static int
mon_cmp_samp(const void *a, const void *b, void *arg)
{
	const struct analyze_mon	*m = arg;
	const struct analyze_mon_samp	*x = &m->fsamp[*(const size_t *)a];
	const struct analyze_mon_samp	*y = &m->fsamp[*(const size_t *)b];

	if (x->self_ns[ANALYZE_MON_CPU] != y->self_ns[ANALYZE_MON_CPU])
		return (x->self_ns[ANALYZE_MON_CPU] >
		    y->self_ns[ANALYZE_MON_CPU] ? -1 : 1);
	if (x->total_ns[ANALYZE_MON_CPU] != y->total_ns[ANALYZE_MON_CPU])
		return (x->total_ns[ANALYZE_MON_CPU] >
		    y->total_ns[ANALYZE_MON_CPU] ? -1 : 1);
	return (strcmp(m->fn[*(const size_t *)a].key,
	    m->fn[*(const size_t *)b].key));
}

static struct report_cell
mon_pct(const struct analyze_mon *m, int64_t ns)
{
	if (m->prog_ns[ANALYZE_MON_CPU] <= 0)
		return (report_null());
	return (report_real(100.0 * ns / m->prog_ns[ANALYZE_MON_CPU]));
}

/* Functions with samples, most self CPU time first. */
static void
mon_samples(struct report_out *out, const struct analyze_mon *m)
{
	const struct analyze_mon_samp	*a;
	struct report_cell		 c[MON_SAMP_COLS];
	size_t				*by, i, n = 0;
	const int			 C = ANALYZE_MON_CPU, R = ANALYZE_MON_REAL;

	by = xcalloc(m->nfn + 1, sizeof *by);
	for (i = 0; i < m->nfn; i++) {
		a = &m->fsamp[i];
		if (a->total_n[C] != 0 || a->total_n[R] != 0)
			by[n++] = i;
	}
	qsort_r(by, n, sizeof *by, mon_cmp_samp, (void *)m);
	report_table(out, &mon_t_samples);
	for (i = 0; i < n; i++) {
		a = &m->fsamp[by[i]];
		c[0] = report_int(a->self_n[C]);
		c[1] = report_int(a->self_ns[C]);
		c[2] = mon_ms(a->self_ns[C]);
		c[3] = report_int(llround(a->self_err_ns[C]));
		c[4] = mon_ms(llround(a->self_err_ns[C]));
		c[5] = mon_pct(m, a->self_ns[C]);
		c[6] = report_int(a->total_n[C]);
		c[7] = report_int(a->total_ns[C]);
		c[8] = mon_ms(a->total_ns[C]);
		c[9] = report_int(llround(a->total_err_ns[C]));
		c[10] = mon_ms(llround(a->total_err_ns[C]));
		c[11] = mon_pct(m, a->total_ns[C]);
		c[12] = report_int(a->self_ns[R]);
		c[13] = mon_ms(a->self_ns[R]);
		c[14] = report_int(a->total_ns[R]);
		c[15] = mon_ms(a->total_ns[R]);
		c[16] = a->few[C] ? report_str("few samples") :
		    report_str("");
		c[17] = mon_cpu(m, m->fn[by[i]].self_cpu_ns, 0);
		c[18] = mon_cpu(m, m->fn[by[i]].self_cpu_ns, 1);
		c[19] = report_str(m->fn[by[i]].key);
		report_row(out, c);
	}
	report_table_end(out);
	free(by);
}

static void
mon_calls(struct report_out *out, const struct analyze_mon *m)
{
	const struct store_call	*e;
	struct report_cell	 c[MON_CALL_COLS];
	size_t			 i;

	report_table(out, &mon_t_calls);
	for (i = 0; i < m->ncalls; i++) {
		e = &m->calls_[i];
		c[0] = e->caller != NULL ? report_str(e->caller) :
		    report_null();
		c[1] = report_str(e->callee);
		c[2] = report_int((int64_t)e->calls);
		c[3] = report_int(e->total_ns);
		c[4] = mon_ms(e->total_ns);
		c[5] = mon_cpu(m, e->total_cpu_ns, 0);
		c[6] = mon_cpu(m, e->total_cpu_ns, 1);
		c[7] = report_int(e->total_err_ns);
		c[8] = mon_ms(e->total_err_ns);
		report_row(out, c);
	}
	report_table_end(out);
}

static void
mon_paths(struct report_out *out, const struct analyze_mon *m)
{
	const struct store_callpath	*p;
	struct report_cell		 c[MON_PATH_COLS];
	char				*tree;
	size_t				 i;
	int64_t				 d;

	report_table(out, &mon_t_paths);
	for (i = 0; i < m->npaths; i++) {
		p = &m->paths[i];
		d = p->depth > 32 ? 32 : p->depth;
		tree = xasprintf("%*s%s%s", (int)(2 * (d - 1)), "",
		    p->depth > 32 ? "... " : "", p->func);
		c[0] = report_int(p->id);
		c[1] = p->parent >= 0 ? report_int(p->parent) : report_null();
		c[2] = report_int(p->depth);
		c[3] = report_str(p->func);
		c[4] = report_str(tree);
		c[5] = report_int((int64_t)p->calls);
		c[6] = report_int(p->self_ns);
		c[7] = mon_ms(p->self_ns);
		c[8] = report_int(p->total_ns);
		c[9] = mon_ms(p->total_ns);
		c[10] = mon_cpu(m, p->self_cpu_ns, 0);
		c[11] = mon_cpu(m, p->total_cpu_ns, 0);
		c[12] = mon_cpu(m, p->total_cpu_ns, 1);
		c[13] = report_int(p->self_err_ns);
		c[14] = report_int(p->total_err_ns);
		report_row(out, c);
		free(tree);
	}
	report_table_end(out);
}

int
report_mon(struct store *st, const struct store_session *ss,
    const void *model, int format, FILE *f, char **cause)
{
	const struct analyze_mon	*m = model;
	const struct report_table	*tables[] = { &report_tab_session,
		&mon_t_header, &mon_t_functions, &report_tab_warnings,
		&mon_t_calls, &mon_t_paths, NULL }, *sampled[] = {
		&report_tab_session, &mon_t_header, &mon_t_samples,
		&mon_t_functions, &report_tab_warnings, &mon_t_calls,
		&mon_t_paths };
	struct report_session		 rs;

	/* A profile without samples reads as it always did. */
	if (report_session_begin(&rs, st, ss, f, format, m->sampled ?
	    sampled : tables, m->sampled ? sizeof sampled / sizeof sampled[0] :
	    sizeof tables / sizeof tables[0] - 1, cause) != 0)
		return (-1);
	mon_header(&rs.out, m);
	if (m->sampled)
		mon_samples(&rs.out, m);
	mon_functions(&rs.out, m);
	report_session_warnings(&rs);
	mon_calls(&rs.out, m);
	mon_paths(&rs.out, m);
	return (report_session_end(&rs, cause));
}

/*
 * Call profiles.  Each is written from the call paths (ns): with samples,
 * the sampler's CPU time, the times the calls view and the report show
 * (the probe's excluded, and the samples in no traced function a frame
 * of their own); without, the real time the traps measured, a time below
 * zero (a function that did less than the overhead's uncertainty)
 * written as 0, since these formats take no negative cost.
 */
#define MON_OUTSIDE	"[outside traced functions]"

static uint64_t
mon_cost(int64_t ns)
{
	return (ns > 0 ? (uint64_t)ns : 0);
}

/* Path i's self time, function i's, call edge i's self+children. */
static uint64_t
mon_path_cost(const struct analyze_mon *m, size_t i)
{
	return (mon_cost(analyze_mon_looked(m) ?
	    m->psamp[i].self_ns[ANALYZE_MON_CPU] : m->paths[i].self_ns));
}

static uint64_t
mon_fn_cost(const struct analyze_mon *m, size_t i)
{
	return (mon_cost(analyze_mon_looked(m) ?
	    m->fsamp[i].self_ns[ANALYZE_MON_CPU] : m->fn[i].self_ns));
}

static uint64_t
mon_edge_cost(const struct analyze_mon *m, size_t i)
{
	return (mon_cost(analyze_mon_looked(m) ?
	    m->esamp[i].total_ns[ANALYZE_MON_CPU] : m->calls_[i].total_ns));
}

/* The samples in no traced function: 0 without samples. */
static uint64_t
mon_outside_cost(const struct analyze_mon *m)
{
	return (analyze_mon_looked(m) ?
	    mon_cost(m->outside.self_ns[ANALYZE_MON_CPU]) : 0);
}

/* A name for a format that splits on ';' (and, for folded stacks, ' '). */
static void
mon_put_frame(FILE *f, const char *s)
{
	report_put_name(f, s, strlen(s), ':');
}

/* A header's or a module's text on a line of callgrind's: made safe. */
static void
mon_put_text(FILE *f, const char *key, const char *s)
{
	fputs(key, f);
	if (s != NULL)
		report_put_name(f, s, strlen(s), 0);
	fputc('\n', f);
}

/* Each path's stack, as function indexes in the model, outermost first. */
static size_t
mon_stack(const struct analyze_mon *m, const long *fnof, size_t i,
    long *stack, size_t cap)
{
	size_t	n = 0, j;
	int64_t	p;
	long	t;

	for (p = (int64_t)i; p >= 0 && n < cap; p = m->paths[p].parent)
		stack[n++] = fnof[p];
	for (j = 0; j < n / 2; j++) {
		t = stack[j];
		stack[j] = stack[n - 1 - j];
		stack[n - 1 - j] = t;
	}
	return (n);
}

static int
mon_cmp_key(const void *a, const void *b, void *arg)
{
	const struct analyze_mon	*m = arg;

	return (strcmp(m->fn[*(const long *)a].key,
	    m->fn[*(const long *)b].key));
}

/* Function index of key (keys are unique) through the index by, or -1. */
static long
mon_fn_of(const struct analyze_mon *m, const long *by, const char *key)
{
	size_t	i;

	BSEARCH_FIRST(i, 0, m->nfn, strcmp(m->fn[by[i]].key, key) < 0);
	if (i < m->nfn && strcmp(m->fn[by[i]].key, key) == 0)
		return (by[i]);
	return (-1);
}

/*
 * callgrind's format, which KCachegrind and callgrind_annotate read: a
 * function's self time as its cost, and a call line per edge carrying
 * the callee's self+children time from that caller.
 */
static void
mon_callgrind(const struct store_session *ss, const struct analyze_mon *m,
    const long *by, FILE *f)
{
	const struct store_func	*fn;
	const struct store_call	*e;
	uint64_t		 sum;
	size_t			 i, j, *first, *edge;
	long			*caller;

	/*
	 * The edges grouped by caller (a counting sort on the caller's
	 * function), so that each function finds its own: a search of all
	 * edges per function was quadratic, minutes on a large program.
	 */
	first = xcalloc(m->nfn + 2, sizeof *first);
	edge = xcalloc(m->ncalls + 1, sizeof *edge);
	caller = xcalloc(m->ncalls + 1, sizeof *caller);
	for (j = 0; j < m->ncalls; j++) {
		caller[j] = m->calls_[j].caller == NULL ? -1 :
		    mon_fn_of(m, by, m->calls_[j].caller);
		if (caller[j] >= 0)
			first[caller[j] + 2]++;
	}
	for (i = 2; i < m->nfn + 2; i++)
		first[i] += first[i - 1];
	for (j = 0; j < m->ncalls; j++) {
		if (caller[j] >= 0)
			edge[first[caller[j] + 1]++] = j;
	}
	free(caller);

	sum = mon_outside_cost(m);
	for (i = 0; i < m->nfn; i++)
		sum += mon_fn_cost(m, i);
	fputs("# callgrind format\nversion: 1\ncreator: profview (a pvtrace"
	    " profile)\n", f);
	mon_put_text(f, "cmd: ", m->hdr.command);
	fprintf(f, "desc: Session %lld: ", (long long)ss->id);
	mon_put_text(f, "", ss->source);
	fputs("positions: line\n", f);
	if (analyze_mon_looked(m))
		fputs("event: ns : CPU time from samples\n", f);
	fputs("events: ns\n", f);
	fprintf(f, "summary: %llu\n\n", (unsigned long long)sum);
	if (mon_outside_cost(m) != 0)
		fprintf(f, "fn=%s\n0 %llu\n\n", MON_OUTSIDE,
		    (unsigned long long)mon_outside_cost(m));
	for (i = 0; i < m->nfn; i++) {
		fn = &m->fn[i];
		/* No source files: the module stands for one. */
		mon_put_text(f, "ob=", fn->module);
		mon_put_text(f, "fl=", fn->module);
		fputs("fn=", f);
		mon_put_frame(f, fn->key);
		fprintf(f, "\n0 %llu\n", (unsigned long long)
		    mon_fn_cost(m, i));
		for (j = first[i]; j < first[i + 1]; j++) {
			e = &m->calls_[edge[j]];
			fputs("cfn=", f);
			mon_put_frame(f, e->callee);
			fprintf(f, "\ncalls=%llu 0\n0 %llu\n",
			    (unsigned long long)e->calls,
			    (unsigned long long)mon_edge_cost(m, edge[j]));
		}
		fputc('\n', f);
	}
	free(edge);
	free(first);
}

/* Folded stacks, as flamegraph.pl and speedscope take them. */
static void
mon_collapsed(const struct analyze_mon *m, const long *fnof, long *stack,
    size_t cap, FILE *f)
{
	size_t	i, n, j;

	for (i = 0; i < m->npaths; i++) {
		if (mon_path_cost(m, i) == 0)
			continue;
		n = mon_stack(m, fnof, i, stack, cap);
		for (j = 0; j < n; j++) {
			if (j > 0)
				fputc(';', f);
			mon_put_frame(f, stack[j] >= 0 ?
			    m->fn[stack[j]].key : "?");
		}
		fprintf(f, " %llu\n", (unsigned long long)
		    mon_path_cost(m, i));
	}
	if (mon_outside_cost(m) != 0)
		fprintf(f, "%s %llu\n", MON_OUTSIDE,
		    (unsigned long long)mon_outside_cost(m));
}

/* speedscope's file format: one sampled profile, a stack per path. */
static void
mon_speedscope(const struct store_session *ss, const struct analyze_mon *m,
    const long *fnof, long *stack, size_t cap, FILE *f)
{
	const char	*name = ss->program != NULL ? ss->program : "profile";
	uint64_t	 end;
	size_t		 i, n, j;

	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema"
	    ".json\",\"exporter\":\"profview\",\"name\":", f);
	report_json_string(f, name, strlen(name));
	fputs(",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", f);
	for (i = 0; i < m->nfn; i++) {
		fputs(i > 0 ? ",{\"name\":" : "{\"name\":", f);
		report_json_string(f, m->fn[i].key, strlen(m->fn[i].key));
		fputc('}', f);
	}
	/* The samples in no traced function: a last frame, a last stack. */
	if (mon_outside_cost(m) != 0)
		fprintf(f, "%s{\"name\":\"%s\"}", m->nfn > 0 ? "," : "",
		    MON_OUTSIDE);
	end = mon_outside_cost(m);
	for (i = 0; i < m->npaths; i++)
		end += mon_path_cost(m, i);
	fputs("]},\"profiles\":[{\"type\":\"sampled\",\"name\":", f);
	report_json_string(f, name, strlen(name));
	fprintf(f, ",\"unit\":\"nanoseconds\",\"startValue\":0,"
	    "\"endValue\":%llu,\"samples\":[", (unsigned long long)end);
	for (i = 0; i < m->npaths; i++) {
		n = mon_stack(m, fnof, i, stack, cap);
		fputs(i > 0 ? ",[" : "[", f);
		for (j = 0; j < n; j++)
			fprintf(f, "%s%ld", j > 0 ? "," : "", stack[j] >= 0 ?
			    stack[j] : 0);
		fputc(']', f);
	}
	if (mon_outside_cost(m) != 0)
		fprintf(f, "%s[%zu]", m->npaths > 0 ? "," : "", m->nfn);
	fputs("],\"weights\":[", f);
	for (i = 0; i < m->npaths; i++)
		fprintf(f, "%s%llu", i > 0 ? "," : "", (unsigned long long)
		    mon_path_cost(m, i));
	if (mon_outside_cost(m) != 0)
		fprintf(f, "%s%llu", m->npaths > 0 ? "," : "",
		    (unsigned long long)mon_outside_cost(m));
	fputs("]}]}\n", f);
}

/*
 * pprof's profile: a sample per call path, its stack from the function
 * up, with the path's self values, so that pprof's flat column is each
 * function's and its cum column the value with children (a recursion
 * counted once, as profview counts it).  A profile with samples leads
 * with the sampler's counts and times, as profview's report does, and
 * the samples in no traced function are a frame of their own; without,
 * the times the traps measured, the overhead subtracted: a path that
 * did less than the overhead's uncertainty may be below zero, which
 * pprof keeps.  Calls are counted either way.
 */
static int
mon_pprof(const struct analyze_mon *m, const long *fnof, long *stack,
    size_t cap, FILE *f, char **cause)
{
	struct report_pprof		*p = report_pprof_new();
	const struct store_func		*fn;
	const struct analyze_mon_samp	*sa;
	uint64_t			*loc, *mapof, *stk, lo, hi;
	int64_t				 v[4];
	size_t				 i, j, k, n, nv;
	int				 sampled = analyze_mon_looked(m);

	if (sampled) {
		report_pprof_type(p, "samples", "count");
		report_pprof_type(p, "cpu", "nanoseconds");
		report_pprof_type(p, "wall", "nanoseconds");
		report_pprof_default(p, "cpu");
		if (m->hdr.sample_rate > 0)
			report_pprof_period(p, "cpu", "nanoseconds",
			    1000000000 / m->hdr.sample_rate);
		report_pprof_comment(p, "profview: pvtrace call profile, times"
		    " from samples (the probes' excluded), every call"
		    " counted");
	} else {
		if (m->cpu)
			report_pprof_type(p, "cpu", "nanoseconds");
		report_pprof_type(p, "wall", "nanoseconds");
		report_pprof_default(p, m->cpu ? "cpu" : "wall");
		/* Traced, not sampled: every call is timed. */
		report_pprof_period(p, "calls", "count", 1);
		report_pprof_comment(p, "profview: pvtrace call profile, every"
		    " call traced; times with the traps' overhead"
		    " subtracted");
	}
	report_pprof_type(p, "calls", "count");
	report_pprof_time(p, 0, m->hdr.real_ns);
	if (m->hdr.command != NULL)
		report_pprof_comment(p, m->hdr.command);
	/* A mapping per module, over its functions' addresses. */
	mapof = xcalloc(m->nfn + 1, sizeof *mapof);
	loc = xcalloc(m->nfn + 1, sizeof *loc);
	for (i = 0; i < m->nfn; i++) {
		if (mapof[i] != 0)
			continue;
		lo = UINT64_MAX;
		hi = 0;
		for (j = i; j < m->nfn; j++) {
			fn = &m->fn[j];
			if (strcmp(fn->module, m->fn[i].module) != 0)
				continue;
			if (fn->addr < lo)
				lo = fn->addr;
			if (fn->addr + fn->size > hi)
				hi = fn->addr + fn->size;
		}
		mapof[i] = report_pprof_mapping(p, m->fn[i].module, lo, hi, 0);
		for (j = i + 1; j < m->nfn; j++) {
			if (strcmp(m->fn[j].module, m->fn[i].module) == 0)
				mapof[j] = mapof[i];
		}
	}
	for (i = 0; i < m->nfn; i++) {
		fn = &m->fn[i];
		loc[i] = report_pprof_location(p, mapof[i], fn->addr, fn->key,
		    NULL, 0);
	}
	stk = xcalloc(cap + 1, sizeof *stk);
	for (i = 0; i < m->npaths; i++) {
		n = mon_stack(m, fnof, i, stack, cap);
		/* pprof's stacks are leaf first. */
		for (j = 0, k = 0; j < n; j++) {
			if (stack[n - 1 - j] >= 0)
				stk[k++] = loc[stack[n - 1 - j]];
		}
		nv = 0;
		if (sampled) {
			sa = &m->psamp[i];
			v[nv++] = sa->self_n[ANALYZE_MON_CPU];
			v[nv++] = sa->self_ns[ANALYZE_MON_CPU];
			v[nv++] = sa->self_ns[ANALYZE_MON_REAL];
		} else {
			if (m->cpu)
				v[nv++] = m->paths[i].self_cpu_ns;
			v[nv++] = m->paths[i].self_ns;
		}
		v[nv++] = (int64_t)m->paths[i].calls;
		report_pprof_sample(p, stk, k, v);
	}
	sa = &m->outside;
	if (sampled && (sa->self_n[ANALYZE_MON_CPU] != 0 ||
	    sa->self_ns[ANALYZE_MON_REAL] != 0)) {
		stk[0] = report_pprof_location(p, 0, 0, MON_OUTSIDE, NULL, 0);
		v[0] = sa->self_n[ANALYZE_MON_CPU];
		v[1] = sa->self_ns[ANALYZE_MON_CPU];
		v[2] = sa->self_ns[ANALYZE_MON_REAL];
		v[3] = 0;
		report_pprof_sample(p, stk, 1, v);
	}
	free(stk);
	free(loc);
	free(mapof);
	return (report_pprof_write(p, f, cause));
}

int
report_mon_profile(const struct store_session *ss, const void *model,
    int format, FILE *f, char **cause)
{
	const struct analyze_mon	*m = model;
	long				*by, *fnof, *stack;
	size_t				 i, depth = 1;
	int				 rc;

	by = xcalloc(m->nfn + 1, sizeof *by);
	fnof = xcalloc(m->npaths + 1, sizeof *fnof);
	for (i = 0; i < m->nfn; i++)
		by[i] = (long)i;
	qsort_r(by, m->nfn, sizeof *by, mon_cmp_key, (void *)m);
	for (i = 0; i < m->npaths; i++) {
		fnof[i] = mon_fn_of(m, by, m->paths[i].func);
		if (m->paths[i].depth > (int64_t)depth)
			depth = (size_t)m->paths[i].depth;
	}
	stack = xcalloc(depth + 1, sizeof *stack);
	if (format == REPORT_PPROF) {
		rc = mon_pprof(m, fnof, stack, depth + 1, f, cause);
		free(by);
		free(fnof);
		free(stack);
		return (rc);
	}
	switch (format) {
	case REPORT_CALLGRIND:
		mon_callgrind(ss, m, by, f);
		break;
	case REPORT_COLLAPSED:
		mon_collapsed(m, fnof, stack, depth + 1, f);
		break;
	default:
		mon_speedscope(ss, m, fnof, stack, depth + 1, f);
	}
	free(by);
	free(fnof);
	free(stack);
	if (fflush(f) != 0 || ferror(f)) {
		*cause = xasprintf("writing the report: %s", strerror(errno));
		return (-1);
	}
	return (0);
}
