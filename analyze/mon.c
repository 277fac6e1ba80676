/*
 * The mon kind's model: a pvtrace profile loaded from the store, the
 * header, functions (most self time first), call edges and call paths
 * (depth first), with its own copies of every string; and the times from
 * the sampler, where the profile has them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bsearch.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "analyze/mon.h"
#include "store/mon.h"

static char *
mon_dup(const char *s)
{
	return (s != NULL ? xstrdup(s) : NULL);
}

static int
mon_fail(struct store *st, int64_t session, const char *what, char **cause)
{
	*cause = xasprintf("session %lld: reading %s: %s", (long long)session,
	    what, store_error(st));
	return (-1);
}

/* Function indexes sorted by key, to find a path's function. */
static int
mon_cmp_key(const void *a, const void *b, void *arg)
{
	const struct analyze_mon	*m = arg;

	return (strcmp(m->fn[*(const size_t *)a].key,
	    m->fn[*(const size_t *)b].key));
}

static long
mon_fn_of(const struct analyze_mon *m, const size_t *by, const char *key)
{
	size_t	i;

	BSEARCH_FIRST(i, 0, m->nfn, strcmp(m->fn[by[i]].key, key) < 0);
	return (i < m->nfn && strcmp(m->fn[by[i]].key, key) == 0 ?
	    (long)by[i] : -1);
}

/* Edge k's order against (callee, caller), as mon_cmp_edge's. */
static int
mon_edge_cmp(const struct analyze_mon *m, size_t k, const char *callee,
    const char *caller)
{
	const struct store_call	*e = &m->calls_[k];
	int			 c;

	if ((c = strcmp(e->callee, callee)) != 0)
		return (c);
	return (strcmp(e->caller != NULL ? e->caller : "", caller));
}

/* Call edges sorted by callee then caller, to find a path's edge. */
static int
mon_cmp_edge(const void *a, const void *b, void *arg)
{
	const struct analyze_mon	*m = arg;
	const struct store_call		*y = &m->calls_[*(const size_t *)b];

	return (mon_edge_cmp(m, *(const size_t *)a, y->callee,
	    y->caller != NULL ? y->caller : ""));
}

/* The edge of path i (its caller's function to its own), or -1. */
static long
mon_edge_of(const struct analyze_mon *m, const size_t *by, size_t i)
{
	const char	*caller = "", *callee = m->paths[i].func;
	int64_t		 q = m->paths[i].parent;
	size_t		 k;

	if (q >= 0 && q < (int64_t)m->npaths)
		caller = m->paths[q].func;
	BSEARCH_FIRST(k, 0, m->ncalls, mon_edge_cmp(m, by[k], callee,
	    caller) < 0);
	return (k < m->ncalls && mon_edge_cmp(m, by[k], callee, caller) == 0 ?
	    (long)by[k] : -1);
}

/*
 * The interval and the mark of too few: k of the program's n samples is
 * a binomial share, its 95 % half-width 1.96 sqrt(k (1 - k/n)) samples,
 * each worth the program's time over n.
 */
static void
mon_samp_err(const struct analyze_mon *m, struct analyze_mon_samp *a)
{
	double	n, per, k;
	int	c;

	for (c = 0; c < 2; c++) {
		n = (double)m->prog_n[c];
		per = n > 0 ? (double)m->prog_ns[c] / n : 0;
		k = (double)a->self_n[c];
		a->self_err_ns[c] = n > 0 ? 1.96 * sqrt(k * (1 - k / n)) *
		    per : 0;
		k = (double)a->total_n[c];
		a->total_err_ns[c] = n > 0 ? 1.96 * sqrt(k * (1 - k / n)) *
		    per : 0;
		a->few[c] = a->total_n[c] < ANALYZE_MON_FEW;
	}
}

static void
mon_samp_add(struct analyze_mon_samp *to, const struct analyze_mon_samp *a,
    int self)
{
	int	c;

	for (c = 0; c < 2; c++) {
		if (self) {
			to->self_n[c] += a->self_n[c];
			to->self_ns[c] += a->self_ns[c];
		}
		to->total_n[c] += a->self_n[c];
		to->total_ns[c] += a->self_ns[c];
	}
}

/*
 * The sampler's times: each path's own samples are its self; a path's
 * self+children is its subtree's; a function's self is its paths', its
 * self+children every sample on a path through it, once however deep it
 * recurses there (as the trap times count it); a call edge's, every
 * sample on a path through it, once likewise (the callers view's time).
 */
static int
mon_samples(struct store *st, int64_t session, struct analyze_mon *m,
    char **cause)
{
	struct store_cursor		*c;
	struct store_callpath_sample	 p;
	struct analyze_mon_samp		*a;
	size_t				*by, *eby, i;
	long				*pfn, *ped, f, e;
	uint64_t			*mark, *emark;
	int64_t				 q;
	int				 rc, k;

	if (m->hdr.sample_rate < 0)
		return (0);	/* a profile from before the sampler */
	m->sampled = 1;
	m->psamp = xcalloc(m->npaths + 1, sizeof *m->psamp);
	m->fsamp = xcalloc(m->nfn + 1, sizeof *m->fsamp);
	c = store_callpath_samples(st, session);
	while ((rc = store_callpath_sample_next(c, &p)) == 1) {
		if (p.id >= (int64_t)m->npaths || p.id < -1 ||
		    (p.id >= 0 && m->paths[p.id].id != p.id))
			continue;
		a = p.id < 0 ? &m->outside : &m->psamp[p.id];
		a->self_n[ANALYZE_MON_CPU] = p.v[STORE_SA_CPU_N];
		a->self_ns[ANALYZE_MON_CPU] = p.v[STORE_SA_CPU_NS];
		a->self_n[ANALYZE_MON_REAL] = p.v[STORE_SA_REAL_N];
		a->self_ns[ANALYZE_MON_REAL] = p.v[STORE_SA_REAL_NS];
		for (k = 0; k < 2; k++) {
			m->prog_n[k] += a->self_n[k];
			m->prog_ns[k] += a->self_ns[k];
		}
	}
	store_cursor_close(c);
	if (rc < 0)
		return (mon_fail(st, session, "callpath_sample", cause));
	mon_samp_add(&m->outside, &m->outside, 0);

	by = xcalloc(m->nfn + 1, sizeof *by);
	for (i = 0; i < m->nfn; i++)
		by[i] = i;
	qsort_r(by, m->nfn, sizeof *by, mon_cmp_key, m);
	eby = xcalloc(m->ncalls + 1, sizeof *eby);
	for (i = 0; i < m->ncalls; i++)
		eby[i] = i;
	qsort_r(eby, m->ncalls, sizeof *eby, mon_cmp_edge, m);
	pfn = xcalloc(m->npaths + 1, sizeof *pfn);
	ped = xcalloc(m->npaths + 1, sizeof *ped);
	for (i = 0; i < m->npaths; i++) {
		pfn[i] = mon_fn_of(m, by, m->paths[i].func);
		ped[i] = mon_edge_of(m, eby, i);
	}
	m->esamp = xcalloc(m->ncalls + 1, sizeof *m->esamp);
	emark = xcalloc(m->ncalls + 1, sizeof *emark);
	/* Subtrees, children before parents: the reverse of depth first. */
	for (i = m->npaths; i-- > 0;) {
		a = &m->psamp[i];
		mon_samp_add(a, a, 0);
		if ((q = m->paths[i].parent) >= 0 && q < (int64_t)i)
			mon_samp_add(&m->psamp[q], &(struct analyze_mon_samp){
			    .self_n = { a->total_n[0], a->total_n[1] },
			    .self_ns = { a->total_ns[0], a->total_ns[1] } },
			    0);
	}
	/* Functions: a mark per function, the path's number + 1 when seen. */
	mark = xcalloc(m->nfn + 1, sizeof *mark);
	for (i = 0; i < m->npaths; i++) {
		a = &m->psamp[i];
		if (a->self_n[0] == 0 && a->self_n[1] == 0 &&
		    a->self_ns[1] == 0)
			continue;
		if (pfn[i] >= 0) {
			for (k = 0; k < 2; k++) {
				m->fsamp[pfn[i]].self_n[k] += a->self_n[k];
				m->fsamp[pfn[i]].self_ns[k] += a->self_ns[k];
			}
		}
		for (q = (int64_t)i; q >= 0 && q <= (int64_t)i;
		    q = m->paths[q].parent) {
			if ((e = ped[q]) >= 0 && emark[e] != i + 1) {
				emark[e] = i + 1;
				mon_samp_add(&m->esamp[e], a, 0);
			}
			if ((f = pfn[q]) >= 0 && mark[f] != i + 1) {
				mark[f] = i + 1;
				for (k = 0; k < 2; k++) {
					m->fsamp[f].total_n[k] += a->self_n[k];
					m->fsamp[f].total_ns[k] +=
					    a->self_ns[k];
				}
			}
			if (m->paths[q].parent >= q)
				break;
		}
	}
	for (i = 0; i < m->npaths; i++)
		mon_samp_err(m, &m->psamp[i]);
	for (i = 0; i < m->nfn; i++)
		mon_samp_err(m, &m->fsamp[i]);
	for (i = 0; i < m->ncalls; i++)
		mon_samp_err(m, &m->esamp[i]);
	mon_samp_err(m, &m->outside);
	free(emark);
	free(mark);
	free(ped);
	free(pfn);
	free(eby);
	free(by);
	return (0);
}

static int
mon_load(struct store *st, int64_t session, struct analyze_mon *m,
    char **cause)
{
	struct store_cursor	*c;
	struct store_func	 f;
	struct store_call	 e;
	struct store_callpath	 p;
	size_t			 cap;
	int			 rc;

	c = store_mon_get(st, session);
	if ((rc = store_mon_next(c, &m->hdr)) == 1) {
		m->hdr.build_id = mon_dup(m->hdr.build_id);
		m->hdr.command = mon_dup(m->hdr.command);
		m->hdr.first_run = mon_dup(m->hdr.first_run);
		m->hdr.last_run = mon_dup(m->hdr.last_run);
		m->hdr.status = mon_dup(m->hdr.status);
		m->hdr.clock = mon_dup(m->hdr.clock);
		m->hdr.cpu = mon_dup(m->hdr.cpu);
		m->hdr.error = mon_dup(m->hdr.error);
	}
	store_cursor_close(c);
	if (rc != 1)
		return (rc < 0 ? mon_fail(st, session, "mon", cause) :
		    (*cause = xasprintf("session %lld: not a pvtrace profile",
		    (long long)session), -1));
	m->cpu = strcmp(m->hdr.cpu, "perf-task-clock") == 0;

	c = store_funcs(st, session);
	for (cap = 0; (rc = store_func_next(c, &f)) == 1; m->nfn++) {
		if (m->nfn == cap)
			m->fn = xreallocarray(m->fn, cap = cap ? cap * 2 : 64,
			    sizeof *m->fn);
		m->fn[m->nfn] = f;
		m->fn[m->nfn].key = xstrdup(f.key);
		m->fn[m->nfn].name = xstrdup(f.name);
		m->fn[m->nfn].module = xstrdup(f.module);
		m->self_ns += f.self_ns;
		m->calls += f.calls;
	}
	store_cursor_close(c);
	if (rc < 0)
		return (mon_fail(st, session, "func", cause));

	c = store_calls(st, session);
	for (cap = 0; (rc = store_call_next(c, &e)) == 1; m->ncalls++) {
		if (m->ncalls == cap)
			m->calls_ = xreallocarray(m->calls_, cap = cap ?
			    cap * 2 : 64, sizeof *m->calls_);
		m->calls_[m->ncalls] = e;
		m->calls_[m->ncalls].caller = mon_dup(e.caller);
		m->calls_[m->ncalls].callee = xstrdup(e.callee);
	}
	store_cursor_close(c);
	if (rc < 0)
		return (mon_fail(st, session, "call", cause));

	c = store_callpaths(st, session);
	for (cap = 0; (rc = store_callpath_next(c, &p)) == 1; m->npaths++) {
		if (m->npaths == cap)
			m->paths = xreallocarray(m->paths, cap = cap ?
			    cap * 2 : 64, sizeof *m->paths);
		m->paths[m->npaths] = p;
		m->paths[m->npaths].func = xstrdup(p.func);
		if (p.parent < 0)
			m->real_ns += p.total_ns;
	}
	store_cursor_close(c);
	if (rc < 0)
		return (mon_fail(st, session, "callpath", cause));
	return (mon_samples(st, session, m, cause));
}

/* The mon kind's model (kind.h): a loaded profile, or NULL. */
void *
analyze_mon_model(struct store *st, int64_t session, char **cause)
{
	struct analyze_mon	*m = xcalloc(1, sizeof *m);

	if (mon_load(st, session, m, cause) != 0) {
		analyze_mon_model_free(m);
		return (NULL);
	}
	return (m);
}

void
analyze_mon_model_free(void *p)
{
	struct analyze_mon	*m = p;
	size_t			 i;

	if (m == NULL)
		return;
	free((char *)m->hdr.build_id);
	free((char *)m->hdr.command);
	free((char *)m->hdr.first_run);
	free((char *)m->hdr.last_run);
	free((char *)m->hdr.status);
	free((char *)m->hdr.clock);
	free((char *)m->hdr.cpu);
	free((char *)m->hdr.error);
	for (i = 0; i < m->nfn; i++) {
		free((char *)m->fn[i].key);
		free((char *)m->fn[i].name);
		free((char *)m->fn[i].module);
	}
	for (i = 0; i < m->ncalls; i++) {
		free((char *)m->calls_[i].caller);
		free((char *)m->calls_[i].callee);
	}
	for (i = 0; i < m->npaths; i++)
		free((char *)m->paths[i].func);
	free(m->fn);
	free(m->calls_);
	free(m->paths);
	free(m->fsamp);
	free(m->psamp);
	free(m->esamp);
	free(m);
}

static int
mon_sym_cmp(const void *a, const void *b)
{
	const struct analyze_sym	*x = a, *y = b;

	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

/*
 * Whether the sampler looked: a profile with samples taken at a rate
 * (one from pvtrace --rate 0 has the section, and nothing in it).
 */
int
analyze_mon_looked(const struct analyze_mon *m)
{
	return (m->sampled && m->hdr.sample_rate > 0);
}

/*
 * The code of function fn as a model the annotate view shows
 * (analyze/annotate.c): a linear histogram of no samples at the module's
 * addresses as linked (bias 0: pvtrace records them so), named by the
 * module's functions of the profile, so that a call to one leads to it.
 * Only the program's build-id is recorded (the header's): a library's
 * file could not be checked, so its code is refused.
 */
int
analyze_mon_code(struct store *st, int64_t session,
    const struct analyze_mon *m, size_t fn, struct analyze_hist *h,
    char **cause)
{
	const struct store_func	*f = &m->fn[fn];
	struct store_session	 sess;
	struct analyze_sym	*y;
	const char		*base;
	char			*path;
	size_t			 i;
	int			 rc, program;

	memset(h, 0, sizeof *h);
	if (f->size == 0) {
		*cause = xasprintf("%s has no code of its own (a library"
		    " function caught at its GOT slot)", f->name);
		return (-1);
	}
	if ((rc = store_mon_module_path(st, session, f->module, &path)) != 1) {
		*cause = rc < 0 ? xasprintf("session %lld: %s", (long long)
		    session, store_error(st)) : xasprintf("module %s of %s is"
		    " not in the profile", f->module, f->name);
		return (-1);
	}
	/*
	 * The session names the program by its file's name; a library of
	 * that name would fail the build-id check, never be decoded.
	 */
	program = 0;
	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	if (store_session_get(st, session, &sess) == 0) {
		program = sess.program != NULL && strcmp(sess.program,
		    base) == 0;
		store_session_free(&sess);
	}
	if (!program || m->hdr.build_id == NULL) {
		*cause = xasprintf("%s is in %s, whose build-id the profile"
		    " does not record: its file cannot be checked", f->name,
		    path);
		free(path);
		return (-1);
	}
	h->session = session;
	h->linear = 1;
	h->nosamples = 1;
	h->module = path;
	h->build_id = xstrdup(m->hdr.build_id);
	h->bias_known = 1;
	h->levels = xcalloc(1, sizeof *h->levels);
	h->nlevels = 1;
	h->levels[0].factor = 1;
	h->levels[0].b = xcalloc(1, sizeof *h->levels[0].b);
	h->hit_addr = xcalloc(1, sizeof *h->hit_addr);
	h->hit_cum = xcalloc(1, sizeof *h->hit_cum);
	h->syms = xreallocarray(NULL, m->nfn + 1, sizeof *h->syms);
	for (i = 0; i < m->nfn; i++) {
		if (m->fn[i].size == 0 || strcmp(m->fn[i].module,
		    f->module) != 0)
			continue;
		y = &h->syms[h->nsyms++];
		memset(y, 0, sizeof *y);
		y->module = xstrdup(m->fn[i].module);
		y->name = xstrdup(m->fn[i].name);
		y->addr = m->fn[i].addr;
		y->size = m->fn[i].size;
	}
	qsort(h->syms, h->nsyms, sizeof *h->syms, mon_sym_cmp);
	return (0);
}
