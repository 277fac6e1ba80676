/*
 * The heap kind's model for its report: the snapshot's header with
 * memcheck's leak summary, the allocation sites with the most live
 * bytes, and the loss records (the snapshot loaded as the map holds it,
 * for its graph's states and the sites' stacks).
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "store/heap.h"

static char *
heap_dup(const char *s)
{
	return (s != NULL ? xstrdup(s) : NULL);
}

/* Load the summary of heap session: 0, or -1 with *cause. */
int
analyze_heap_summary_load(struct store *st, int64_t session, size_t top,
    struct analyze_heap_summary *m, char **cause)
{
	struct store_cursor	*c;
	struct store_heap_site	 s;
	int			 rc;

	memset(m, 0, sizeof *m);
	if (store_heap_get(st, session, &m->h) != 0) {
		*cause = xasprintf("session %lld is not a heap snapshot",
		    (long long)session);
		return (-1);
	}
	m->sites = xcalloc(top + 1, sizeof *m->sites);
	if ((c = store_heap_sites(st, session, (int64_t)top, 1)) == NULL) {
		*cause = xasprintf("session %lld: cannot read its sites",
		    (long long)session);
		free(m->sites);
		return (-1);
	}
	while (m->nsites < top && (rc = store_heap_site_next(c, &s)) == 1) {
		s.function = heap_dup(s.function);
		s.module_path = heap_dup(s.module_path);
		s.stack = heap_dup(s.stack);
		s.file = heap_dup(s.file);
		m->sites[m->nsites++] = s;
	}
	store_cursor_close(c);
	return (0);
}

void
analyze_heap_summary_free(struct analyze_heap_summary *m)
{
	size_t	i;

	for (i = 0; i < m->nsites; i++) {
		free((char *)m->sites[i].function);
		free((char *)m->sites[i].module_path);
		free((char *)m->sites[i].stack);
		free((char *)m->sites[i].file);
	}
	free(m->sites);
}

/* The heap kind's model (kind.h), or NULL. */
void *
analyze_heap_model(struct store *st, int64_t session, char **cause)
{
	struct analyze_heap_summary	*m = xcalloc(1, sizeof *m);

	if (analyze_heap_summary_load(st, session, ANALYZE_HEAP_TOP, m, cause) != 0) {
		free(m);
		return (NULL);
	}
	m->view = xcalloc(1, sizeof *m->view);
	if (analyze_heapview_load(st, session, m->view, cause) != 0) {
		free(m->view);
		m->view = NULL;
		analyze_heap_model_free(m);
		return (NULL);
	}
	analyze_heapleaks_make(&m->leaks, m->view, 0,
	    ANALYZE_HEAPLEAKS_FLAT);
	return (m);
}

void
analyze_heap_model_free(void *p)
{
	struct analyze_heap_summary	*m = p;

	if (m == NULL)
		return;
	if (m->view != NULL) {
		analyze_heapleaks_free(&m->leaks);
		analyze_heapview_free(m->view);
		free(m->view);
	}
	analyze_heap_summary_free(m);
	free(m);
}
