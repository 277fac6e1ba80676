/*
 * The mon kind's diff hook (kind.h, analyze/diff.h): two pvtrace
 * profiles by function and by call path, names only (a function's key
 * carries its address when two share a name; the address moves between
 * builds, so those are one row).  Self shares are of every function's
 * self time, self-plus-children ones of the top paths' total time.
 * When both profiles have samples, a table of the sampler's times by
 * function comes first: those are the times the calls view and the
 * report show (issue 21), the trap-measured ones a second opinion.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "intern.h"
#include "analyze/diff.h"
#include "analyze/mon.h"

/*
 * Self time first, as perf diff's samples: the rows are sorted by it.
 * The clock's times and the calls, then, when both profiles kept them,
 * the CPU's: a run slowed by other work on the machine moves the clock's
 * shares, not the CPU's.
 */
static const struct analyze_diff_measure mon_diff_m[] = {
	{ "self_ns", "self", ANALYZE_DIFF_NS },
	{ "total_ns", "self+children", ANALYZE_DIFF_NS },
	{ "calls", "calls", 0 },
	{ "self_cpu_ns", "self CPU", ANALYZE_DIFF_NS },
	{ "total_cpu_ns", "self+children CPU", ANALYZE_DIFF_NS },
};
#define MON_DIFF_M	(sizeof mon_diff_m / sizeof mon_diff_m[0])
#define MON_DIFF_REAL	3	/* the measures without the CPU's */

/*
 * The sampler's, named as the report's samples section names them; CPU
 * time first (the rows sorted by its self), whose shares a busy machine
 * does not move, then the looks it rests on, then real time.  Shares
 * are of the program's time, the probe's excluded, as the report's.
 */
static const struct analyze_diff_measure mon_diff_sm[] = {
	{ "self_cpu_ns", "self CPU", ANALYZE_DIFF_NS },
	{ "total_cpu_ns", "self+children CPU", ANALYZE_DIFF_NS },
	{ "self_cpu_samples", "self CPU samples", 0 },
	{ "self_real_ns", "self real", ANALYZE_DIFF_NS },
	{ "total_real_ns", "self+children real", ANALYZE_DIFF_NS },
};
#define MON_DIFF_SM	(sizeof mon_diff_sm / sizeof mon_diff_sm[0])

static void
mon_diff_samples(struct analyze_diff_table *t, int side,
    const struct analyze_mon *m)
{
	const struct analyze_mon_samp	*a;
	double				 v[MON_DIFF_SM];
	size_t				 i;

	for (i = 0; i < m->nfn; i++) {
		a = &m->fsamp[i];
		if (a->total_n[ANALYZE_MON_CPU] == 0 &&
		    a->total_n[ANALYZE_MON_REAL] == 0)
			continue;	/* never seen: not the report's row */
		v[0] = (double)a->self_ns[ANALYZE_MON_CPU];
		v[1] = (double)a->total_ns[ANALYZE_MON_CPU];
		v[2] = (double)a->self_n[ANALYZE_MON_CPU];
		v[3] = (double)a->self_ns[ANALYZE_MON_REAL];
		v[4] = (double)a->total_ns[ANALYZE_MON_REAL];
		analyze_diff_add(t, side, m->fn[i].name, i, v);
	}
	v[0] = v[1] = (double)m->prog_ns[ANALYZE_MON_CPU];
	v[2] = (double)m->prog_n[ANALYZE_MON_CPU];
	v[3] = v[4] = (double)m->prog_ns[ANALYZE_MON_REAL];
	analyze_diff_totals(t, side, v);
}

static void
mon_diff_side(struct analyze_diff_table *ft, struct analyze_diff_table *pt,
    int side, const struct analyze_mon *m)
{
	struct intern	 keys = { NULL, NULL, 0, 0 };
	char		**path;
	const char	*name;
	double		 v[MON_DIFF_M], self_cpu = 0, top_cpu = 0;
	size_t		 i;
	uint32_t	 f;
	int		 made;

	for (i = 0; i < m->nfn; i++) {
		intern(&keys, m->fn[i].key, (uint32_t)i, &made);
		v[0] = (double)m->fn[i].self_ns;
		v[1] = (double)m->fn[i].total_ns;
		v[2] = (double)m->fn[i].calls;
		v[3] = (double)m->fn[i].self_cpu_ns;
		v[4] = (double)m->fn[i].total_cpu_ns;
		analyze_diff_add(ft, side, m->fn[i].name, i, v);
	}
	/* Parents come before their children (analyze/mon.h). */
	path = xcalloc(m->npaths + 1, sizeof *path);
	for (i = 0; i < m->npaths; i++) {
		f = intern(&keys, m->paths[i].func, UINT32_MAX, &made);
		name = f != UINT32_MAX ? m->fn[f].name : m->paths[i].func;
		if (m->paths[i].parent >= 0 &&
		    (size_t)m->paths[i].parent < i)
			path[i] = xasprintf("%s;%s", path[m->paths[i].parent],
			    name);
		else
			path[i] = xstrdup(name);
		v[0] = (double)m->paths[i].self_ns;
		v[1] = (double)m->paths[i].total_ns;
		v[2] = (double)m->paths[i].calls;
		v[3] = (double)m->paths[i].self_cpu_ns;
		v[4] = (double)m->paths[i].total_cpu_ns;
		analyze_diff_add(pt, side, path[i], i, v);
		if (m->paths[i].parent < 0)
			top_cpu += (double)m->paths[i].total_cpu_ns;
		self_cpu += (double)m->paths[i].self_cpu_ns;
	}
	for (i = 0; i < m->npaths; i++)
		free(path[i]);
	free(path);
	intern_free(&keys);
	v[0] = (double)m->self_ns;
	v[1] = (double)m->real_ns;
	v[2] = (double)m->calls;
	v[3] = self_cpu;
	v[4] = top_cpu;
	analyze_diff_totals(ft, side, v);
	analyze_diff_totals(pt, side, v);
}

int
analyze_mon_diff(struct store *st, void *a, void *b, struct analyze_diff *d,
    char **cause)
{
	const struct analyze_mon	*m[2] = { a, b };
	struct analyze_diff_table	*ft, *pt, *sp = NULL;
	size_t				 nm;

	(void)st;
	(void)cause;
	if (analyze_mon_looked(m[0]) && analyze_mon_looked(m[1]))
		sp = analyze_diff_table(d, "samples", "Functions by samples",
		    "function", mon_diff_sm, MON_DIFF_SM);
	nm = m[0]->cpu && m[1]->cpu ? MON_DIFF_M : MON_DIFF_REAL;
	ft = analyze_diff_table(d, "functions", "Functions, times at the"
	    " traps", "function", mon_diff_m, nm);
	pt = analyze_diff_table(d, "paths", "Call paths, times at the traps",
	    "path", mon_diff_m, nm);
	d->note = sp != NULL ? "Samples first: the sampler's times by"
	    " function, shares of the program's time (the probe's"
	    " excluded); then times measured at the traps, the clock's,"
	    " then the CPU's when both profiles kept them; a call path is"
	    " its functions' names from the top, joined by ';'." :
	    "Times measured at the traps, the clock's, then the CPU's when"
	    " both profiles kept them; a call path is its functions' names"
	    " from the top, joined by ';'.";
	if (sp != NULL) {
		mon_diff_samples(sp, ANALYZE_DIFF_BASE, a);
		mon_diff_samples(sp, ANALYZE_DIFF_NEW, b);
	}
	mon_diff_side(ft, pt, ANALYZE_DIFF_BASE, a);
	mon_diff_side(ft, pt, ANALYZE_DIFF_NEW, b);
	return (0);
}
