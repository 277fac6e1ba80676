/*
 * A heap session loaded once for HeapInspector's questions: its blocks in
 * address order, the heap graph over them (heapgraph.c), the roots
 * grouped by what a person names (a module's variable, a thread's stack
 * or registers), types, modules and imports; and the questions that are
 * not a walk of the graph: objects by type, by module, by size, with a
 * string in them, and which modules an unload takes along.
 */
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "intern.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "store/heap.h"

static uint8_t
snap_state(const char *state, const char *leak)
{
	if (state == NULL)
		return (ANALYZE_HEAP_UNREACHED);
	if (strcmp(state, "reachable") == 0)
		return (ANALYZE_HEAP_REACHABLE);
	if (strcmp(state, "possible") == 0)
		return (ANALYZE_HEAP_POSSIBLE);
	return (leak != NULL && strcmp(leak, "indirect") == 0 ?
	    ANALYZE_HEAP_INDIRECT : ANALYZE_HEAP_DEFINITE);
}

void
analyze_heap_snap_free(struct analyze_heap_snap *m)
{
	uint32_t	i;

	analyze_heap_free(&m->g);
	free(m->addr);
	free(m->size);
	free(m->usable);
	free(m->seq);
	free(m->type);
	free(m->site);
	for (i = 0; i < m->nroots; i++) {
		free(m->root_name[i]);
		free(m->root_symbol[i]);
	}
	free(m->root_name);
	free(m->root_symbol);
	free(m->root_module);
	for (i = 0; i < m->ntypes; i++)
		free(m->type_name[i]);
	free(m->type_name);
	free(m->type_module);
	free(m->type_site);
	for (i = 0; i < m->nmodules; i++)
		free(m->module_name[i]);
	free(m->module_name);
	free(m->imp_off);
	free(m->imp);
	memset(m, 0, sizeof *m);
}

/*
 * A root's group, as people name it: module:variable, or what holds it
 * (a thread's stack or registers).
 */
char *
analyze_heap_snap_root_key(const struct store_heap_root *r)
{
	char	*d, *key;

	if (r->name != NULL && *r->name != '\0') {
		d = demangle(r->name);
		key = r->region_name != NULL ? xasprintf("%s:%s",
		    r->region_name, d != NULL ? d : r->name) :
		    xstrdup(d != NULL ? d : r->name);
		free(d);
		return (key);
	}
	if (r->tid != 0)
		return (xasprintf("%s of thread %lld", r->region_kind != NULL ?
		    r->region_kind : "region", (long long)r->tid));
	return (xasprintf("%s %lld", r->region_kind != NULL ? r->region_kind :
	    "region", (long long)r->region));
}

/* Modules are shown by file name: the path's last part. */
static char *
snap_module_name(const struct store_heap_module *m)
{
	const char	*p = m->path, *s;

	if (p == NULL)
		return (xstrdup("?"));
	s = strrchr(p, '/');
	return (xstrdup(s != NULL && s[1] != '\0' ? s + 1 : p));
}

#define SNAP_GROW(v, n, cap) do {					\
	if ((n) >= (cap)) {						\
		(cap) = (cap) != 0 ? (cap) * 2 : 1024;			\
		(v) = xreallocarray((v), (cap), sizeof *(v));		\
	}								\
} while (0)

/*
 * Every 4096 rows: the count for the watcher, if any, and whether it asks
 * the load to stop.
 */
static int
snap_watch(struct analyze_heap_watch *w, uint64_t *rows)
{
	if (w == NULL || (++*rows & 4095) != 0)
		return (0);
	atomic_store_explicit(&w->rows, *rows, memory_order_relaxed);
	return (atomic_load_explicit(&w->stop, memory_order_relaxed));
}

/*
 * Load heap session into m: 0, or -1 with *cause (not a heap session, a
 * store error, or rows that contradict each other).
 */
int
analyze_heap_snap_load(struct store *st, int64_t session,
    struct analyze_heap_snap *m, char **cause)
{
	return (analyze_heap_snap_load_watched(st, session, m, NULL, cause));
}

int
analyze_heap_snap_load_watched(struct store *st, int64_t session,
    struct analyze_heap_snap *m, struct analyze_heap_watch *w, char **cause)
{
	struct store_heap		 hd;
	struct store_heap_block		 b;
	struct store_heap_ref		 r;
	struct store_heap_root		 o;
	struct store_heap_module	 mod;
	struct store_heap_type		 ty;
	struct store_heap_import	 im;
	struct store_cursor		*c;
	struct store_heap_refs		*refs;
	struct store_heap_blocks	*blocks;
	struct analyze_heap_edge	*e = NULL;
	struct intern			 names;
	uint64_t			*sizes;
	uint32_t			 k, *cnt;
	size_t				 ne = 0, ecap = 0, rcap = 0, i, cap;
	char				*key;
	uint8_t				*state = NULL;
	uint64_t			 rows = 0;
	int				 rc, made;

	memset(m, 0, sizeof *m);
	memset(&names, 0, sizeof names);
	m->session = session;
	if (store_heap_get(st, session, &hd) != 0) {
		*cause = xasprintf("session %lld is not a heap snapshot",
		    (long long)session);
		return (-1);
	}
	if (w != NULL)
		atomic_store(&w->total, (uint64_t)(hd.blocks + hd.refs +
		    hd.roots));

	/* Blocks, in index (address) order. */
	cap = 0;
	if ((blocks = store_heap_blocks(st, session)) == NULL)
		goto store;
	while ((rc = store_heap_block_next(blocks, &b)) == 1) {
		if (snap_watch(w, &rows)) {
			store_heap_blocks_close(blocks);
			goto stopped;
		}
		if (b.idx != m->nblocks) {
			store_heap_blocks_close(blocks);
			*cause = xasprintf("session %lld: heap_block idx %lld"
			    " where %u was due", (long long)session,
			    (long long)b.idx, m->nblocks);
			goto fail;
		}
		if (m->nblocks >= cap) {
			cap = cap != 0 ? cap * 2 : 1024;
			m->addr = xreallocarray(m->addr, cap, sizeof *m->addr);
			m->size = xreallocarray(m->size, cap, sizeof *m->size);
			m->usable = xreallocarray(m->usable, cap,
			    sizeof *m->usable);
			m->seq = xreallocarray(m->seq, cap, sizeof *m->seq);
			m->type = xreallocarray(m->type, cap, sizeof *m->type);
			m->site = xreallocarray(m->site, cap, sizeof *m->site);
			state = xreallocarray(state, cap, 1);
		}
		m->addr[m->nblocks] = b.addr;
		m->size[m->nblocks] = b.size;
		m->usable[m->nblocks] = b.usable;
		m->seq[m->nblocks] = b.seq;
		m->type[m->nblocks] = (int32_t)b.type;
		m->site[m->nblocks] = (int32_t)b.site;
		state[m->nblocks] = snap_state(b.state, b.leak);
		m->nblocks++;
	}
	store_heap_blocks_close(blocks);
	if (rc < 0)
		goto store;

	/* Pointers between blocks. */
	if ((refs = store_heap_refs(st, session)) == NULL)
		goto store;
	while ((rc = store_heap_ref_next(refs, &r)) == 1) {
		if (snap_watch(w, &rows)) {
			store_heap_refs_close(refs);
			goto stopped;
		}
		if (r.src < 0 || r.dst < 0 || r.src >= m->nblocks ||
		    r.dst >= m->nblocks)
			continue;	/* analyze_heap_build would refuse */
		SNAP_GROW(e, ne, ecap);
		e[ne].src = (uint32_t)r.src;
		e[ne].dst = (uint32_t)r.dst;
		e[ne++].flags = r.dst_off != 0 ? ANALYZE_HEAP_E_INTERIOR : 0;
	}
	store_heap_refs_close(refs);
	if (rc < 0)
		goto store;

	/* Roots, grouped: a variable is one root however many words. */
	if ((c = store_heap_roots(st, session)) == NULL)
		goto store;
	while ((rc = store_heap_root_next(c, &o)) == 1) {
		if (snap_watch(w, &rows)) {
			store_cursor_close(c);
			goto stopped;
		}
		key = analyze_heap_snap_root_key(&o);
		k = intern(&names, key, (uint32_t)m->nroots, &made);
		if (made) {
			SNAP_GROW(m->root_name, m->nroots, rcap);
			m->root_module = xreallocarray(m->root_module, rcap,
			    sizeof *m->root_module);
			m->root_symbol = xreallocarray(m->root_symbol, rcap,
			    sizeof *m->root_symbol);
			m->root_name[m->nroots] = key;
			m->root_symbol[m->nroots] = o.name != NULL &&
			    strncmp(o.name, "_Z", 2) == 0 ? xstrdup(o.name) :
			    NULL;
			m->root_module[m->nroots++] = (int32_t)o.module;
		} else
			free(key);
		if (o.dst < 0 || o.dst >= m->nblocks)
			continue;
		SNAP_GROW(e, ne, ecap);
		e[ne].src = k;
		e[ne].dst = (uint32_t)o.dst;
		e[ne++].flags = ANALYZE_HEAP_E_ROOT |
		    (o.dst_off != 0 ? ANALYZE_HEAP_E_INTERIOR : 0);
	}
	store_cursor_close(c);
	intern_free(&names);
	if (rc < 0)
		goto store;

	/* Types and modules, by index. */
	if ((c = store_heap_types(st, session)) == NULL)
		goto store;
	cap = 0;
	while ((rc = store_heap_type_next(c, &ty)) == 1) {
		if (ty.idx != m->ntypes)
			break;
		SNAP_GROW(m->type_name, m->ntypes, cap);
		m->type_module = xreallocarray(m->type_module, cap,
		    sizeof *m->type_module);
		m->type_site = xreallocarray(m->type_site, cap,
		    sizeof *m->type_site);
		m->type_name[m->ntypes] = xstrdup(ty.name != NULL ? ty.name :
		    "?");
		m->type_site[m->ntypes] = ty.site != 0;
		m->type_module[m->ntypes++] = (int32_t)ty.module;
	}
	store_cursor_close(c);
	if (rc < 0)
		goto store;
	if ((c = store_heap_modules(st, session)) == NULL)
		goto store;
	cap = 0;
	while ((rc = store_heap_module_next(c, &mod)) == 1) {
		if (mod.idx != m->nmodules)
			break;
		SNAP_GROW(m->module_name, m->nmodules, cap);
		m->module_name[m->nmodules++] = snap_module_name(&mod);
	}
	store_cursor_close(c);
	if (rc < 0)
		goto store;
	m->imp_off = xcalloc((size_t)m->nmodules + 1, sizeof *m->imp_off);
	cap = 0;
	if ((c = store_heap_imports(st, session)) == NULL)
		goto store;
	cnt = NULL;
	i = 0;
	while ((rc = store_heap_import_next(c, &im)) == 1) {
		if (im.module < 0 || im.target < 0 ||
		    im.module >= m->nmodules || im.target >= m->nmodules)
			continue;
		SNAP_GROW(cnt, i, cap);
		cnt[i++] = (uint32_t)im.target;
		m->imp_off[im.module + 1]++;
	}
	store_cursor_close(c);
	/* Rows come by module: the counts' prefix sums place them. */
	for (k = 0; k < m->nmodules; k++)
		m->imp_off[k + 1] += m->imp_off[k];
	m->imp = cnt != NULL ? cnt : xcalloc(1, sizeof *m->imp);
	if (rc < 0)
		goto store;

	/* Module and type indices point where they may. */
	for (k = 0; k < m->nroots; k++) {
		if (m->root_module[k] >= (int32_t)m->nmodules)
			m->root_module[k] = -1;
	}
	for (k = 0; k < m->ntypes; k++) {
		if (m->type_module[k] >= (int32_t)m->nmodules)
			m->type_module[k] = -1;
	}
	for (k = 0; k < m->nblocks; k++) {
		if (m->type[k] >= (int32_t)m->ntypes)
			m->type[k] = -1;
	}

	sizes = m->size;
	if (analyze_heap_build(&m->g, m->nroots, m->nblocks, sizes, e, ne,
	    cause) != 0)
		goto fail;
	free(e);
	/* The states memcheck's rules gave at ingest, heuristics and all. */
	m->g.state = state;
	state = NULL;
	for (k = 0; k < m->nblocks; k++) {
		m->g.counts[m->g.state[k]]++;
		m->g.bytes[m->g.state[k]] += m->size[k];
	}
	return (0);
stopped:
	*cause = xasprintf("session %lld: loading was interrupted",
	    (long long)session);
	goto fail;
store:
	*cause = xasprintf("session %lld: %s", (long long)session,
	    store_error(st));
fail:
	intern_free(&names);
	free(e);
	free(state);
	analyze_heap_snap_free(m);
	return (-1);
}
