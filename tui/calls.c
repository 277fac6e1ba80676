/*
 * The calls view of a pvtrace profile (mon sessions): Rokicki's foo.mon as
 * a sortable table, one row per function: calls, self with its sampling
 * error, self+children, average, share; from the samples (or, on p, as
 * the probes measured them), real or CPU time, whichever says where the
 * program's time went.  Enter shows the function's callers and callees (Enter on a
 * caller walks up to its own, on a callee comes back to it here); t the
 * call tree, whose paths open and close (uftrace's graph, perf's
 * children), hottest path, threshold and folded recursion included; a
 * the function's code in prf's annotate view (analyze_mon_code's model).
 * The two views it opens draw from its model and come back through its
 * jump op, so none knows another's insides.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "analyze/mon.h"
#include "tui/tui.h"
#include "tui/hist.h"
#include "store/mon.h"

/* The actions of its keys (tui.h: numbered from TUI_ACT_VIEW). */
enum calls_action {
	CALLS_ACT_SORT = TUI_ACT_VIEW,
	CALLS_ACT_CPU,
	CALLS_ACT_SAMP,
	CALLS_ACT_OPEN,
	CALLS_ACT_TREE,
	CALLS_ACT_ANNOTATE,
	CALLERS_ACT_OPEN,
	CALLERS_ACT_BACK,
	TREE_ACT_TOGGLE,
	TREE_ACT_OPEN,
	TREE_ACT_CLOSE,
	TREE_ACT_HOT,
	TREE_ACT_THRESHOLD,
	TREE_ACT_FOLD,
	TREE_ACT_CPU,
	TREE_ACT_SAMP
};

static const struct tui_key calls_bind[] = {
	TUI_KEY(CALLS_ACT_SORT, "s",
	    "cycle the sort (self, self+children, calls, per call, name)"),
	TUI_KEY(CALLS_ACT_CPU, "c", "real time or CPU time"),
	TUI_KEY(CALLS_ACT_SAMP, "p",
	    "times from the samples, or as the probes measured them"),
	TUI_KEY(CALLS_ACT_OPEN, "Enter", "the function's callers and callees"),
	TUI_KEY(CALLS_ACT_TREE, "t", "the call tree"),
	TUI_KEY(CALLS_ACT_ANNOTATE, "a",
	    "the function's code, its calls followed by Enter"),
};
static const struct tui_keys calls_keys = TUI_KEYS("calls",
    "In the calls view", calls_bind);

static const struct tui_key callers_bind[] = {
	TUI_KEY(CALLERS_ACT_OPEN, "Enter",
	    "a caller's own callers and callees; a callee: back to the"
	    " functions, on it"),
	TUI_KEY(CALLERS_ACT_BACK, "Backspace <",
	    "back to the function whose caller that was"),
};
static const struct tui_keys callers_keys = TUI_KEYS("callers",
    "In a function's callers and callees", callers_bind);

static const struct tui_key tree_bind[] = {
	TUI_KEY(TREE_ACT_TOGGLE, "Enter", "open or close the path"),
	TUI_KEY(TREE_ACT_OPEN, "l Right +", "open the path"),
	TUI_KEY(TREE_ACT_CLOSE, "h Left -",
	    "close the path, or go to its caller"),
	TUI_KEY(TREE_ACT_HOT, "H",
	    "open the hottest path from here all the way down"),
	TUI_KEY(TREE_ACT_THRESHOLD, "%",
	    "hide paths under 0.5, 0.1, 0 or 2% of the time"),
	TUI_KEY(TREE_ACT_FOLD, "r", "fold or unfold recursion"),
	TUI_KEY(TREE_ACT_CPU, "c", "real time or CPU time"),
	TUI_KEY(TREE_ACT_SAMP, "p",
	    "times from the samples, or as the probes measured them"),
};
static const struct tui_keys tree_keys = TUI_KEYS("tree",
    "In the call tree", tree_bind);

enum calls_sort {
	CALLS_SELF,
	CALLS_TOTAL,
	CALLS_CALLS,
	CALLS_AVERAGE,
	CALLS_NAME,
	CALLS_NSORT
};

static const char *calls_sort_name[CALLS_NSORT] = {
	"self", "self+children", "calls", "self per call", "name"
};

/* Which of the model's times the views show. */
struct calls_when {
	int	samp;		/* from the samples, else the probes' */
	int	cpu;		/* CPU time, else real */
};

struct calls {
	struct analyze_mon	*m;
	char			*program;
	size_t			*order;
	int			 sort;
	struct calls_when	 w;
	double			 all;		/* the program's time */
	int			 busy;		/* on CPU, % of the real time */
};

/*
 * Which time the views open on: CPU time when the program mostly ran,
 * real time when it mostly waited.  Mostly is half: above it most of
 * the real time was spent running, and CPU time then says where without
 * the noise of the machine's other load (time preempted counts as real);
 * below it most of the time went to waits, which only real time shows.
 * The measure is the program's sampled CPU time over its sampled real
 * time, or without samples the top paths' CPU total over their real one.
 */
#define CALLS_RAN_PCT	50

/*
 * The probe's share of the sampled CPU time from which opening the view
 * warns that the program's own code ran slower than untraced: code that
 * waits on memory most (on SQLite, 4 to 5 times its untraced time with
 * the probe at 87 %; on xz, at 30 %, the five hottest are perf's in its
 * order).  pvtrace(1), CAVEATS, has the measures.
 */
#define CALLS_PROBE_WARN_PCT	75

static int
calls_busy(const struct analyze_mon *m)
{
	int64_t	cpu = 0, real = 0;
	size_t	i;

	if (m->sampled) {
		if (m->prog_ns[ANALYZE_MON_REAL] <= 0)
			return (-1);
		return ((int)(100.0 * m->prog_ns[ANALYZE_MON_CPU] /
		    m->prog_ns[ANALYZE_MON_REAL] + 0.5));
	}
	for (i = 0; i < m->npaths; i++) {
		if (m->paths[i].parent >= 0)
			continue;
		cpu += m->paths[i].total_cpu_ns;
		real += m->paths[i].total_ns;
	}
	if (!m->cpu || real <= 0)
		return (-1);
	return ((int)(100.0 * cpu / real + 0.5));
}

/*
 * The time a row shows: from the samples or as the probes measured it,
 * real or CPU, self or self+children; for a function, a call path and a
 * call edge, by their index in the model.  Every column, share and
 * threshold derives from these, so which of the model's times the views
 * show is chosen here alone.
 */
static int
calls_c(const struct calls_when *w)
{
	return (w->cpu ? ANALYZE_MON_CPU : ANALYZE_MON_REAL);
}

static int64_t
calls_time(const struct analyze_mon *m, const struct calls_when *w,
    size_t i, int total)
{
	const struct store_func	*f = &m->fn[i];

	if (w->samp)
		return (total ? m->fsamp[i].total_ns[calls_c(w)] :
		    m->fsamp[i].self_ns[calls_c(w)]);
	if (total)
		return (w->cpu ? f->total_cpu_ns : f->total_ns);
	return (w->cpu ? f->self_cpu_ns : f->self_ns);
}

/* Its uncertainty: the 95 % interval at the samples, or the probes'. */
static int64_t
calls_err(const struct analyze_mon *m, const struct calls_when *w, size_t i)
{
	if (w->samp)
		return (llround(m->fsamp[i].self_err_ns[calls_c(w)]));
	return (m->fn[i].self_err_ns);
}

static int64_t
calls_path_time(const struct analyze_mon *m, const struct calls_when *w,
    size_t i, int total)
{
	const struct store_callpath	*p = &m->paths[i];

	if (w->samp)
		return (total ? m->psamp[i].total_ns[calls_c(w)] :
		    m->psamp[i].self_ns[calls_c(w)]);
	if (total)
		return (w->cpu ? p->total_cpu_ns : p->total_ns);
	return (w->cpu ? p->self_cpu_ns : p->self_ns);
}

static int64_t
calls_edge_time(const struct analyze_mon *m, const struct calls_when *w,
    size_t i)
{
	if (w->samp)
		return (m->esamp[i].total_ns[calls_c(w)]);
	return (w->cpu ? m->calls_[i].total_cpu_ns : m->calls_[i].total_ns);
}

/* Whether the time shown is there: the probes' CPU times may not be. */
static int
calls_known(const struct analyze_mon *m, const struct calls_when *w)
{
	return (w->samp || !w->cpu || m->cpu);
}

/*
 * The program's time, which shares are of: with samples every sample's
 * (the probe's excluded, shown apart in the title); else the sum of the
 * rows' own (each function's self, or the top paths' totals).
 */
static double
calls_program(const struct analyze_mon *m, const struct calls_when *w,
    double rows)
{
	return (w->samp ? (double)m->prog_ns[calls_c(w)] : rows);
}

/* Switch between real and CPU time, or between samples and probes. */
static void
calls_switch(const struct analyze_mon *m, struct calls_when *w, int samp)
{
	if (!samp) {
		w->cpu = !w->cpu;
		if (!calls_known(m, w))
			tui_message("no CPU time in this profile: %s",
			    m->hdr.cpu);
		return;
	}
	if (!m->sampled) {
		tui_message("no samples in this profile (pvtrace --rate 0,"
		    " or a .mon from before the sampler)");
		return;
	}
	w->samp = !w->samp;
	tui_message(w->samp ? "times from the samples" :
	    "times as the probes measured them (calibration subtracted)");
}

static int64_t
calls_self(const struct calls *cs, size_t i)
{
	return (calls_time(cs->m, &cs->w, i, 0));
}

static int64_t
calls_total(const struct calls *cs, size_t i)
{
	return (calls_time(cs->m, &cs->w, i, 1));
}

static int
calls_cmp(const void *a, const void *b, void *arg)
{
	const struct calls	*cs = arg;
	size_t			 i = *(const size_t *)a, j = *(const size_t *)b;
	const struct store_func	*x = &cs->m->fn[i];
	const struct store_func	*y = &cs->m->fn[j];
	double			 ax, ay;

	switch (cs->sort) {
	case CALLS_SELF:
		if (calls_self(cs, i) != calls_self(cs, j))
			return (calls_self(cs, i) > calls_self(cs, j) ? -1 : 1);
		break;
	case CALLS_TOTAL:
		if (calls_total(cs, i) != calls_total(cs, j))
			return (calls_total(cs, i) > calls_total(cs, j) ?
			    -1 : 1);
		break;
	case CALLS_CALLS:
		if (x->calls != y->calls)
			return (x->calls > y->calls ? -1 : 1);
		break;
	case CALLS_AVERAGE:
		ax = x->calls ? (double)calls_self(cs, i) / x->calls : 0;
		ay = y->calls ? (double)calls_self(cs, j) / y->calls : 0;
		if (ax != ay)
			return (ax > ay ? -1 : 1);
		break;
	}
	return (strcmp(x->key, y->key));
}

static void
calls_sort(struct calls *cs)
{
	size_t	i;

	cs->all = 0;
	for (i = 0; i < cs->m->nfn; i++) {
		cs->order[i] = i;
		cs->all += (double)calls_self(cs, i);
	}
	cs->all = calls_program(cs->m, &cs->w, cs->all);
	qsort_r(cs->order, cs->m->nfn, sizeof *cs->order, calls_cmp, cs);
}

/* The function whose key is key, or -1. */
static long
calls_find(const struct analyze_mon *m, const char *key)
{
	size_t	i;

	for (i = 0; key != NULL && i < m->nfn; i++) {
		if (strcmp(m->fn[i].key, key) == 0)
			return ((long)i);
	}
	return (-1);
}

/* A time in ms, for a column of width w ("-" when not measured). */
static void
calls_ms(char *buf, size_t len, int w, const struct calls *cs, int64_t ns)
{
	if (!calls_known(cs->m, &cs->w))
		snprintf(buf, len, "-");
	else
		tui_num_fit(buf, len, w, ns / 1e6, 3);
}

/* The probe's share of the looks' time, %: apart from the program's. */
static double
calls_probe_share(const struct analyze_mon *m, const struct calls_when *w)
{
	double	probe, prog;

	probe = (double)m->hdr.probe[w->cpu ? STORE_SA_CPU_NS :
	    STORE_SA_REAL_NS];
	prog = (double)m->prog_ns[calls_c(w)];
	return (prog + probe > 0 ? 100 * probe / (prog + probe) : 0);
}

/* How the times were had, for a title. */
static char *
calls_how(const struct analyze_mon *m, const struct calls_when *w)
{
	if (!w->samp)
		return (xasprintf("%s, probes", w->cpu ? "CPU" : "real"));
	return (xasprintf("%s, %lld samples, probe %.0f%%",
	    w->cpu ? "CPU" : "real", (long long)m->prog_n[calls_c(w)],
	    calls_probe_share(m, w)));
}

static char *
calls_title(struct tui_view *tv)
{
	struct calls	*cs = tv->data;
	char		 why[64] = "", *how, *s;

	if (cs->busy >= 0)
		snprintf(why, sizeof why, ", %d%% on CPU", cs->busy);
	how = calls_how(cs->m, &cs->w);
	s = xasprintf("profview: %s: %zu functions, %llu calls, by %s (%s)%s",
	    cs->program, cs->m->nfn, (unsigned long long)cs->m->calls,
	    calls_sort_name[cs->sort], how, why);
	free(how);
	return (s);
}

static void
calls_draw(struct tui_view *tv, int y, int h, int w)
{
	struct calls		*cs = tv->data;
	const struct store_func	*f;
	char			 self[32], total[32], avg[32], calls[32];
	char			 pct[32], err[32];
	double			 share;
	size_t			 i, k;
	int64_t			 n;
	int			 row, attr, yy, used, untimed;

	tui_putf(y, 0, w, tui_attr(TUI_C_HEADER), "%10s %10s %8s %6s %12s"
	    " %10s %s", "calls", "self ms", "+/- ms", "self%",
	    "total ms", "us/call", "function");
	tv->list.y = y + 1;
	tui_list_fit(&tv->list, h - 1);
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= tv->list.n)
			break;
		k = cs->order[i];
		f = &cs->m->fn[k];
		yy = y + 1 + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		/* Each value in its column's width, the name after them. */
		tui_count_fit(calls, sizeof calls, 10, f->calls);
		calls_ms(self, sizeof self, 10, cs, calls_self(cs, k));
		calls_ms(err, sizeof err, 8, cs, calls_err(cs->m, &cs->w, k));
		calls_ms(total, sizeof total, 12, cs, calls_total(cs, k));
		/*
		 * Too few samples for a time to mean much: their number,
		 * not a precise-looking figure.
		 */
		n = cs->w.samp ? cs->m->fsamp[k].self_n[calls_c(&cs->w)] :
		    ANALYZE_MON_FEW;
		if (n < ANALYZE_MON_FEW) {
			snprintf(self, sizeof self, "%lld sample%s",
			    (long long)n, n == 1 ? "" : "s");
			snprintf(err, sizeof err, "few");
		}
		/* A leaf's probe measures no time: its trap times are 0. */
		untimed = !cs->w.samp && f->how == STORE_HOW_LEAF;
		if (untimed) {
			snprintf(self, sizeof self, "-");
			snprintf(err, sizeof err, "-");
			snprintf(total, sizeof total, "-");
		}
		if (!calls_known(cs->m, &cs->w) || n < ANALYZE_MON_FEW ||
		    untimed)
			snprintf(avg, sizeof avg, "-");
		else
			tui_num_fit(avg, sizeof avg, 10, f->calls ?
			    calls_self(cs, k) / 1e3 / (double)f->calls : 0, 3);
		share = cs->all > 0 ? 100.0 * calls_self(cs, k) / cs->all : 0;
		tui_num_fit(pct, sizeof pct, 5, share, 1);
		if (strlen(pct) + 1 < sizeof pct)
			strcat(pct, "%");
		if (untimed)
			snprintf(pct, sizeof pct, "-");
		tui_putf(yy, 0, w, attr, "%10s %10s %8s %6s %12s %10s",
		    calls, self, err, pct, total, avg);
		used = tui_put_marks(yy, 62, w - 62, attr, f->key,
		    tui_search_marks(tv));
		/*
		 * How the entry was caught, the report's how column, after
		 * the name where it is not a patched jump: a column of its
		 * own would take the width of every name.
		 */
		if (f->how != STORE_HOW_JUMP && 62 + used < w)
			tui_putf(yy, 62 + used, w - 62 - used, attr, " [%s]",
			    store_func_how[f->how]);
	}
}

static struct tui_view	*tui_callers_new(struct tui_view *, size_t);
static struct tui_view	*tui_tree_new(struct tui_view *);

/* Put the cursor on function k's row. */
static int
calls_jump(struct tui_view *tv, size_t k)
{
	struct calls	*cs = tv->data;
	size_t		 i;

	for (i = 0; i < tv->list.n; i++) {
		if (cs->order[i] == k) {
			tui_list_goto(&tv->list, i);
			return (0);
		}
	}
	return (-1);
}

/*
 * Push function fn's code in the annotate view (prf's, tui/annotate.c),
 * over a model of the module's functions the view owns.
 */
static int
calls_annotate(struct tui_view *tv, struct calls *cs, size_t fn)
{
	struct analyze_hist	*h = xcalloc(1, sizeof *h);
	char			*cause = NULL;

	if (analyze_mon_code(tui_store(), tv->session, cs->m, fn, h,
	    &cause) != 0) {
		free(h);
		tui_message("%s", cause);
		free(cause);
		return (TUI_R_DRAW);
	}
	return (tui_annotate_own(tv, h, cs->m->fn[fn].addr));
}

static int
calls_key(struct tui_view *tv, int a)
{
	struct calls	*cs = tv->data;
	size_t		 fn;

	switch (a) {
	case CALLS_ACT_SORT:
	case CALLS_ACT_CPU:
	case CALLS_ACT_SAMP:
		fn = tv->list.n != 0 ? cs->order[tv->list.cur] : 0;
		if (a == CALLS_ACT_SORT)
			cs->sort = (cs->sort + 1) % CALLS_NSORT;
		else
			calls_switch(cs->m, &cs->w, a == CALLS_ACT_SAMP);
		calls_sort(cs);
		tv->search.stale = 1;
		calls_jump(tv, fn);
		if (a == CALLS_ACT_SORT)
			tui_message("sorted by %s", calls_sort_name[cs->sort]);
		return (TUI_R_DRAW);
	case CALLS_ACT_OPEN:
		if (tv->list.n == 0)
			return (TUI_R_NONE);
		tui_push(tui_callers_new(tv, cs->order[tv->list.cur]));
		return (TUI_R_DRAW);
	case CALLS_ACT_ANNOTATE:
		if (tv->list.n == 0)
			return (TUI_R_NONE);
		return (calls_annotate(tv, cs, cs->order[tv->list.cur]));
	case CALLS_ACT_TREE:
		if (cs->m->npaths == 0) {
			tui_message("no call paths");
			return (TUI_R_DRAW);
		}
		tui_push(tui_tree_new(tv));
		return (TUI_R_DRAW);
	default:
		return (TUI_R_UNUSED);
	}
}

static int
calls_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct calls	*cs = tv->data;

	return (tui_strcasestr(cs->m->fn[cs->order[row]].key, pattern));
}

static int
calls_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	struct calls	*cs = tv->data;

	return (tui_export_model(tv, cs->m, format, f, cause));
}

static const void *
calls_model(struct tui_view *tv)
{
	return (((struct calls *)tv->data)->m);
}

static void
calls_free(struct tui_view *tv)
{
	struct calls	*cs = tv->data;

	analyze_mon_model_free(cs->m);
	free(cs->order);
	free(cs->program);
	free(cs);
}

static const struct tui_view_ops calls_ops = {
	.name = "calls",
	.keys = &calls_keys,
	.help = "a pvtrace profile's functions: calls, self and"
	    " self+children time",
	.draw = calls_draw,
	.key = calls_key,
	.title = calls_title,
	.match = calls_match,
	.export = calls_export,
	.model = calls_model,
	.jump = calls_jump,
	.free = calls_free,
};

static struct tui_view *
calls_open(int64_t id, char **cause)
{
	struct calls		*cs = xcalloc(1, sizeof *cs);
	struct calls_when	 looks = { .samp = 1, .cpu = 1 };
	struct tui_view		*tv;
	double			 probe;

	if ((cs->m = analyze_mon_model(tui_store(), id, cause)) == NULL) {
		free(cs);
		return (NULL);
	}
	cs->program = tui_session_name(id);
	cs->order = xcalloc(cs->m->nfn + 1, sizeof *cs->order);
	cs->busy = calls_busy(cs->m);
	cs->w.samp = cs->m->sampled;
	cs->w.cpu = cs->busy >= CALLS_RAN_PCT;
	calls_sort(cs);
	if (analyze_mon_looked(cs->m) && (probe = calls_probe_share(cs->m,
	    &looks)) >= CALLS_PROBE_WARN_PCT)
		tui_message("probe %.0f%%: code waiting on memory ran slower"
		    " than untraced (man pvtrace)", probe);
	tv = tui_view_new(&calls_ops, cs);
	tv->session = id;
	tv->list.n = cs->m->nfn;
	return (tv);
}

/*
 * A function's callers and callees: the call edges into it, then those
 * out of it, each with its calls and self+children time.  Enter on a
 * caller walks up to it, as KCachegrind does, the functions walked from
 * kept on a stack for the way back.
 */
struct callers {
	const struct analyze_mon *m;
	size_t			 fn;
	size_t			*edge;		/* rows: indexes into calls_ */
	size_t			 ncallers;	/* the first rows */
	struct calls_when	 w;
	size_t			*back;		/* the functions walked from */
	size_t			 nback;
};

/* Fill the rows with function fn's edges, the cursor on the first. */
static void
callers_fill(struct callers *cr, struct tui_view *tv, size_t fn)
{
	const char	*key = cr->m->fn[fn].key;
	size_t		 i, n = 0;

	cr->fn = fn;
	for (i = 0; i < cr->m->ncalls; i++) {
		if (strcmp(cr->m->calls_[i].callee, key) == 0)
			cr->edge[n++] = i;
	}
	cr->ncallers = n;
	for (i = 0; i < cr->m->ncalls; i++) {
		if (cr->m->calls_[i].caller != NULL &&
		    strcmp(cr->m->calls_[i].caller, key) == 0)
			cr->edge[n++] = i;
	}
	tv->list.n = n;
	tui_list_goto(&tv->list, 0);
	tv->search.stale = 1;
}

static char *
callers_title(struct tui_view *tv)
{
	struct callers	*cr = tv->data;

	return (xasprintf("profview: %s: %zu callers, %zu callees",
	    cr->m->fn[cr->fn].key, cr->ncallers, tv->list.n - cr->ncallers));
}

static void
callers_draw(struct tui_view *tv, int y, int h, int w)
{
	struct callers		*cr = tv->data;
	const struct store_call	*e;
	const char		*who;
	char			 calls[32], ms[32], err[32];
	size_t			 i;
	int			 row, attr, yy;
	int64_t			 t;

	tui_putf(y, 0, w, tui_attr(TUI_C_HEADER), "%-7s %10s %14s %8s %s",
	    "", "calls", cr->w.cpu ? "CPU ms" : "self+child ms", "+/- ms",
	    "function");
	tv->list.y = y + 1;
	tui_list_fit(&tv->list, h - 1);
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= tv->list.n)
			break;
		e = &cr->m->calls_[cr->edge[i]];
		yy = y + 1 + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		who = i < cr->ncallers ? (e->caller != NULL ? e->caller :
		    "(no traced caller)") : e->callee;
		t = calls_edge_time(cr->m, &cr->w, cr->edge[i]);
		tui_count_fit(calls, sizeof calls, 10, e->calls);
		tui_num_fit(ms, sizeof ms, 14, t / 1e6, 3);
		tui_num_fit(err, sizeof err, 8, (cr->w.samp ?
		    cr->m->esamp[cr->edge[i]].total_err_ns[calls_c(&cr->w)] :
		    (double)e->total_err_ns) / 1e6, 3);
		tui_putf(yy, 0, w, attr, "%-7s %10s %14s %8s ", i <
		    cr->ncallers ? "caller" : "callee", calls, ms, err);
		tui_put_marks(yy, 43, w - 43, attr, who,
		    tui_search_marks(tv));
	}
}

static int
callers_key(struct tui_view *tv, int a)
{
	struct callers		*cr = tv->data;
	const struct store_call	*e;
	struct tui_view		*parent = tv->parent;
	const char		*from;
	size_t			 i;
	long			 k;

	if (a == CALLERS_ACT_BACK) {
		if (cr->nback == 0) {
			tui_message("no function before this one");
			return (TUI_R_DRAW);
		}
		from = cr->m->fn[cr->fn].key;
		callers_fill(cr, tv, cr->back[--cr->nback]);
		/* On the caller it walked up to. */
		for (i = 0; i < cr->ncallers; i++) {
			e = &cr->m->calls_[cr->edge[i]];
			if (e->caller != NULL && strcmp(e->caller, from) == 0)
				tui_list_goto(&tv->list, i);
		}
		tui_message("back to %s", cr->m->fn[cr->fn].key);
		return (TUI_R_DRAW);
	}
	if (a != CALLERS_ACT_OPEN)
		return (TUI_R_UNUSED);
	if (tv->list.n == 0) {
		tui_pop();
		return (TUI_R_DRAW);
	}
	e = &cr->m->calls_[cr->edge[tv->list.cur]];
	k = calls_find(cr->m, tv->list.cur < cr->ncallers ? e->caller :
	    e->callee);
	if (k < 0) {
		tui_message("no traced caller");
		return (TUI_R_DRAW);
	}
	if (tv->list.cur < cr->ncallers) {
		cr->back = xreallocarray(cr->back, cr->nback + 1,
		    sizeof *cr->back);
		cr->back[cr->nback++] = cr->fn;
		callers_fill(cr, tv, (size_t)k);
		tui_message("%s's callers (Backspace: back)",
		    cr->m->fn[k].key);
		return (TUI_R_DRAW);
	}
	parent->ops->jump(parent, (size_t)k);
	tui_message("%s", cr->m->fn[k].key);
	tui_pop();		/* frees tv and cr */
	return (TUI_R_DRAW);
}

static int
callers_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct callers		*cr = tv->data;
	const struct store_call	*e = &cr->m->calls_[cr->edge[row]];

	return (tui_strcasestr(row < cr->ncallers ? e->caller : e->callee,
	    pattern));
}

static int
callers_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	return (tui_export_model(tv, ((struct callers *)tv->data)->m, format,
	    f, cause));
}

static void
callers_free(struct tui_view *tv)
{
	struct callers	*cr = tv->data;

	free(cr->edge);
	free(cr->back);
	free(cr);
}

static const struct tui_view_ops callers_ops = {
	.name = "callers",
	.keys = &callers_keys,
	.help = "a function's callers and callees",
	.draw = callers_draw,
	.key = callers_key,
	.title = callers_title,
	.match = callers_match,
	.export = callers_export,
	.free = callers_free,
};

static struct tui_view *
tui_callers_new(struct tui_view *parent, size_t fn)
{
	struct callers		*cr = xcalloc(1, sizeof *cr);
	struct tui_view		*tv;

	cr->m = parent->ops->model(parent);
	cr->w = ((struct calls *)parent->data)->w;
	if (!calls_known(cr->m, &cr->w))
		cr->w.cpu = 0;
	cr->edge = xcalloc(cr->m->ncalls + 1, sizeof *cr->edge);
	tv = tui_view_new(&callers_ops, cr);
	tv->parent = parent;
	tv->session = parent->session;
	tv->kind = parent->kind;
	callers_fill(cr, tv, fn);
	return (tv);
}

/*
 * The call tree: the profile's call paths, depth first as the file has
 * them (a path's callees by self+children), each opening and closing.
 * The rows are the paths whose every ancestor is open and whose share of
 * the program's time (the top paths' total) reaches the threshold, or
 * that a search found.  A path that calls its own function again is
 * folded with the calls under it into one row, which says how deep the
 * recursion went; its callees are those of the whole recursion.
 */
static const double tree_thresholds[] = { 0.5, 0.1, 0, 2 };
#define TREE_NTHRESHOLDS \
	(sizeof tree_thresholds / sizeof tree_thresholds[0])

struct tree {
	const struct analyze_mon *m;
	unsigned char		*open;		/* by path */
	unsigned char		*found;		/* by path: shown whatever
						   the threshold */
	unsigned char		*kids;		/* by path: has callee rows */
	size_t			*head;		/* by path: the row standing
						   for it */
	int64_t			*self;		/* by head: the recursion's */
	int64_t			*rdepth;	/* by head: its depth */
	int64_t			*vdepth;	/* by head: its indent */
	size_t			*row;		/* rows: path indexes */
	double			 all;		/* the program's time */
	struct calls_when	 w;
	int			 fold;		/* fold recursion */
	size_t			 threshold;	/* into tree_thresholds */
};

static int64_t
tree_total(const struct tree *t, size_t i)
{
	return (calls_path_time(t->m, &t->w, i, 1));
}

/* A time's share of the program's, in %. */
static double
tree_share(const struct tree *t, int64_t ns)
{
	return (t->all > 0 ? 100.0 * ns / t->all : 0);
}

/* Whether path i is folded into its caller's row (i calls itself). */
static int
tree_folded(const struct tree *t, size_t i)
{
	int64_t	parent = t->m->paths[i].parent;

	return (t->fold && parent >= 0 && strcmp(t->m->paths[i].func,
	    t->m->paths[parent].func) == 0);
}

/* The row of the caller of head path i, or -1 at the top. */
static int64_t
tree_up(const struct tree *t, size_t i)
{
	int64_t	parent = t->m->paths[i].parent;

	return (parent < 0 ? -1 : (int64_t)t->head[parent]);
}

/* Whether head path i reaches the threshold, or a search found it. */
static int
tree_kept(const struct tree *t, size_t i)
{
	double	min = tree_thresholds[t->threshold];

	return (t->found[i] || min == 0 || t->all <= 0 ||
	    tree_share(t, tree_total(t, i)) >= min);
}

/* The row showing path i (its head's), or the list's end. */
static size_t
tree_find(const struct tree *t, struct tui_view *tv, size_t i)
{
	size_t	k;

	for (k = 0; k < tv->list.n; k++) {
		if (t->row[k] == t->head[i])
			break;
	}
	return (k);
}

/*
 * Make the rows again, the cursor staying on its path when shown, else on
 * the nearest caller shown.
 */
static void
tree_rows(struct tree *t, struct tui_view *tv)
{
	const struct analyze_mon	*m = t->m;
	unsigned char			*shown;
	size_t				 i, h, k, n = 0, at;
	int64_t				 up;

	at = tv->list.n != 0 ? t->row[tv->list.cur] : 0;
	t->all = 0;
	for (i = 0; i < m->npaths; i++) {
		if (m->paths[i].parent < 0)
			t->all += tree_total(t, i);
	}
	t->all = calls_program(m, &t->w, t->all);
	shown = xcalloc(m->npaths + 1, 1);
	memset(t->kids, 0, m->npaths + 1);
	/* Parents come before their callees: one pass does. */
	for (i = 0; i < m->npaths; i++) {
		if (tree_folded(t, i)) {
			h = t->head[i] = t->head[m->paths[i].parent];
			t->self[h] += calls_path_time(m, &t->w, i, 0);
			if (m->paths[i].depth - m->paths[h].depth + 1 >
			    t->rdepth[h])
				t->rdepth[h] = m->paths[i].depth -
				    m->paths[h].depth + 1;
			continue;
		}
		t->head[i] = i;
		t->self[i] = calls_path_time(m, &t->w, i, 0);
		t->rdepth[i] = 1;
		up = tree_up(t, i);
		t->vdepth[i] = up < 0 ? 1 : t->vdepth[up] + 1;
		if (!tree_kept(t, i))
			continue;
		if (up >= 0)
			t->kids[up] = 1;
		if (up < 0 || (shown[up] && t->open[up])) {
			shown[i] = 1;
			t->row[n++] = i;
		}
	}
	free(shown);
	tv->list.n = n;
	/* A cursor whose path went out of sight goes to its caller's. */
	while ((k = tree_find(t, tv, at)) == n && tree_up(t, at) >= 0)
		at = (size_t)tree_up(t, at);
	if (n > 0)
		tui_list_goto(&tv->list, k < n ? k : 0);
	tv->search.stale = 1;
}

/* Whether head path i has callees to show. */
static int
tree_has_kids(const struct tree *t, size_t i)
{
	return (t->kids[i]);
}

static char *
tree_title(struct tui_view *tv)
{
	struct tree	*t = tv->data;
	char		*how, *s;

	how = calls_how(t->m, &t->w);
	s = xasprintf("profview: call tree: %zu paths, %zu shown (%s), from"
	    " %g%%%s", t->m->npaths, tv->list.n, how,
	    tree_thresholds[t->threshold], t->fold ? "" :
	    ", recursion unfolded");
	free(how);
	return (s);
}

static void
tree_draw(struct tui_view *tv, int y, int h, int w)
{
	struct tree			*t = tv->data;
	const struct store_callpath	*p;
	char				*name, tms[32], sms[32], calls[32];
	char				 tpct[32], spct[32], deep[48] = "";
	size_t				 i, k;
	int				 row, attr, yy, ind;
	int64_t				 total;

	tui_putf(y, 0, w, tui_attr(TUI_C_HEADER), "%14s %6s %12s %6s %10s"
	    "  %s", "self+child ms", "%", "self ms", "%", "calls",
	    "call tree");
	tv->list.y = y + 1;
	tui_list_fit(&tv->list, h - 1);
	for (row = 0; row < tv->list.height; row++) {
		if ((k = tv->list.top + (size_t)row) >= tv->list.n)
			break;
		i = t->row[k];
		p = &t->m->paths[i];
		yy = y + 1 + row;
		attr = k == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		total = tree_total(t, i);
		/* Each value in its column's width, the name after them. */
		tui_num_fit(tms, sizeof tms, 14, total / 1e6, 3);
		tui_num_fit(tpct, sizeof tpct, 5, tree_share(t, total), 1);
		tui_num_fit(sms, sizeof sms, 12, t->self[i] / 1e6, 3);
		tui_num_fit(spct, sizeof spct, 5, tree_share(t, t->self[i]),
		    1);
		tui_count_fit(calls, sizeof calls, 10, p->calls);
		tui_putf(yy, 0, w, attr, "%14s %5s%% %12s %5s%% %10s", tms,
		    tpct, sms, spct, calls);
		if (t->rdepth[i] > 1)
			snprintf(deep, sizeof deep, " (recursion %lld deep)",
			    (long long)t->rdepth[i]);
		else
			deep[0] = '\0';
		ind = (int)(t->vdepth[i] > 40 ? 40 : t->vdepth[i] - 1) * 2;
		name = xasprintf("%*s%s %s%s", ind, "", !tree_has_kids(t, i) ?
		    " " : t->open[i] ? "-" : "+", p->func, deep);
		tui_put_marks(yy, 54, w - 54, attr, name,
		    tui_search_marks(tv));
		free(name);
	}
}

/*
 * Open head path i and its hottest callee, and that one's, down to a
 * path that calls nothing shown; the last one's.
 */
static size_t
tree_open_hot(struct tree *t, size_t i)
{
	const struct analyze_mon	*m = t->m;
	size_t				 j, best;
	int				 found;

	for (;;) {
		found = 0;
		best = i;
		for (j = i + 1; j < m->npaths && m->paths[j].depth >
		    m->paths[i].depth; j++) {
			if (t->head[j] != j || tree_up(t, j) != (int64_t)i ||
			    !tree_kept(t, j))
				continue;
			if (!found || tree_total(t, j) > tree_total(t, best))
				best = j;
			found = 1;
		}
		if (!found)
			return (i);
		t->open[i] = 1;
		i = best;
	}
}

static int
tree_key(struct tui_view *tv, int a)
{
	struct tree	*t = tv->data;
	size_t		 i, k;
	int64_t		 parent;

	if (a == TREE_ACT_THRESHOLD) {
		t->threshold = (t->threshold + 1) % TREE_NTHRESHOLDS;
		tree_rows(t, tv);
		tui_message("paths from %g%% of the time",
		    tree_thresholds[t->threshold]);
		return (TUI_R_DRAW);
	}
	if (tv->list.n == 0)
		return (TUI_R_UNUSED);
	i = t->row[tv->list.cur];
	switch (a) {
	case TREE_ACT_TOGGLE:
	case TREE_ACT_OPEN:
		if (!tree_has_kids(t, i))
			return (TUI_R_NONE);
		t->open[i] = a == TREE_ACT_OPEN ? 1 : !t->open[i];
		tree_rows(t, tv);
		return (TUI_R_DRAW);
	case TREE_ACT_HOT:
		k = tree_open_hot(t, i);
		tree_rows(t, tv);
		tui_list_goto(&tv->list, tree_find(t, tv, k));
		tui_message("the hottest path: %s", t->m->paths[k].func);
		return (TUI_R_DRAW);
	case TREE_ACT_CLOSE:
		if (tree_has_kids(t, i) && t->open[i]) {
			t->open[i] = 0;
			tree_rows(t, tv);
			return (TUI_R_DRAW);
		}
		/* A closed or leaf path: go to its caller's row. */
		if ((parent = tree_up(t, i)) < 0)
			return (TUI_R_NONE);
		tui_list_goto(&tv->list, tree_find(t, tv, (size_t)parent));
		return (TUI_R_DRAW);
	case TREE_ACT_FOLD:
		t->fold = !t->fold;
		tree_rows(t, tv);
		tui_message(t->fold ? "recursion folded" :
		    "recursion unfolded");
		return (TUI_R_DRAW);
	case TREE_ACT_CPU:
	case TREE_ACT_SAMP:
		calls_switch(t->m, &t->w, a == TREE_ACT_SAMP);
		if (!calls_known(t->m, &t->w))
			t->w.cpu = 0;
		tree_rows(t, tv);
		return (TUI_R_DRAW);
	default:
		return (TUI_R_UNUSED);
	}
}

static int
tree_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct tree	*t = tv->data;

	return (tui_strcasestr(t->m->paths[t->row[row]].func, pattern));
}

/*
 * Before a search: every path whose function matches is shown, its
 * callers opened and kept whatever the threshold, so that / finds what
 * closed paths hide.
 */
static void
tree_reveal(struct tui_view *tv, const char *pattern)
{
	struct tree	*t = tv->data;
	size_t		 i;
	int64_t		 up;

	for (i = 0; i < t->m->npaths; i++) {
		if (!tui_strcasestr(t->m->paths[i].func, pattern))
			continue;
		t->found[t->head[i]] = 1;
		for (up = tree_up(t, t->head[i]); up >= 0;
		    up = tree_up(t, (size_t)up)) {
			t->open[up] = 1;
			t->found[up] = 1;
		}
	}
	tree_rows(t, tv);
}

static int
tree_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	return (tui_export_model(tv, ((struct tree *)tv->data)->m, format, f,
	    cause));
}

static void
tree_free(struct tui_view *tv)
{
	struct tree	*t = tv->data;

	free(t->open);
	free(t->found);
	free(t->kids);
	free(t->head);
	free(t->self);
	free(t->rdepth);
	free(t->vdepth);
	free(t->row);
	free(t);
}

static const struct tui_view_ops tree_ops = {
	.name = "tree",
	.keys = &tree_keys,
	.help = "a pvtrace profile's call paths, as a tree that opens and"
	    " closes",
	.draw = tree_draw,
	.key = tree_key,
	.title = tree_title,
	.match = tree_match,
	.reveal = tree_reveal,
	.export = tree_export,
	.free = tree_free,
};

/* The tree opens two levels deep: a thread's start and what it calls. */
static struct tui_view *
tui_tree_new(struct tui_view *parent)
{
	struct tree	*t = xcalloc(1, sizeof *t);
	struct tui_view	*tv;
	size_t		 i, n;

	t->m = parent->ops->model(parent);
	t->w = ((struct calls *)parent->data)->w;
	if (!calls_known(t->m, &t->w))
		t->w.cpu = 0;
	t->fold = 1;
	n = t->m->npaths + 1;
	t->open = xcalloc(n, 1);
	t->found = xcalloc(n, 1);
	t->kids = xcalloc(n, 1);
	t->head = xcalloc(n, sizeof *t->head);
	t->self = xcalloc(n, sizeof *t->self);
	t->rdepth = xcalloc(n, sizeof *t->rdepth);
	t->vdepth = xcalloc(n, sizeof *t->vdepth);
	t->row = xcalloc(n, sizeof *t->row);
	for (i = 0; i < t->m->npaths; i++)
		t->open[i] = t->m->paths[i].depth <= 2;
	tv = tui_view_new(&tree_ops, t);
	tv->parent = parent;
	tv->session = parent->session;
	tv->kind = parent->kind;
	tree_rows(t, tv);
	return (tv);
}

static const struct tui_keys *const calls_groups[] = {
	&calls_keys, &callers_keys, &tree_keys, NULL
};

const struct tui_mode tui_mode_calls = {
	.open = calls_open,
	.keys = calls_groups,
	.what = "the calls view",
};
