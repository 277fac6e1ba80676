/*
 * The mon kind's model: a pvtrace profile loaded from the store, the
 * header, functions (most self time first), call edges and call paths
 * (depth first), with its own copies of every string.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
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
	return (0);
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
	free(m);
}
