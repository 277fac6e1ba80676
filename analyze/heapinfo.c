/*
 * The models of the heap map's info tables (tui/heapinfo.c draws them):
 * HeapInspector's Info lists as numbers.  Per module, its objects and bytes,
 * its imports and importers (DT_NEEDED), direct and indirect, its level
 * in ModuleHierarchy (import cycles share one) and TestUnloadModules'
 * marks; and FreeBlocks, the gaps between blocks within regions.  The
 * import graph is built here once, as two CSR arrays, and
 * analyze_heapview_unload's set of importers is a walk over it too.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"

#define HI_NONE		ANALYZE_HEAPVIEW_NONE
#define HI_GAP_MIN	ANALYZE_HEAPMAP_GRANULE
/*
 * Indirect imports need a walk from each module: a snapshot whose
 * modules times (modules + imports) pass this gets direct counts only,
 * so that a file of a million modules cannot hang the view.  A list of
 * names stops at about HI_NAMES bytes.
 */
#define HI_WALK_MAX	((uint64_t)1 << 28)
#define HI_NAMES	256

/* The module of block b's type, or HI_NONE. */
static uint32_t
hi_block_module(const struct analyze_heapview *s, size_t b)
{
	uint32_t	t = s->type[b];

	return (t == HI_NONE ? HI_NONE : s->types[t].module);
}

/*
 * The modules each imports, each once (DT_NEEDED may repeat a name), and
 * the importers of each: two CSR arrays.
 */
static void
hi_deps(struct analyze_heapinfo *hi)
{
	const struct analyze_heapview	*s = hi->s;
	size_t				 n = s->nmodules, m, j, k = 0;
	uint32_t			 x, *fill;

	hi->dep_off = xcalloc(n + 1, sizeof *hi->dep_off);
	hi->rdep_off = xcalloc(n + 2, sizeof *hi->rdep_off);
	for (m = 0; m < n; m++)
		k += s->modules[m].nimports;
	hi->dep = xcalloc(k + 1, sizeof *hi->dep);
	hi->rdep = xcalloc(k + 1, sizeof *hi->rdep);
	memset(hi->seen, 0, n);
	k = 0;
	for (m = 0; m < n; m++) {
		hi->dep_off[m] = (uint32_t)k;
		for (j = 0; j < s->modules[m].nimports; j++) {
			x = s->modules[m].imports[j];
			if (x == m || hi->seen[x])
				continue;
			hi->seen[x] = 1;
			hi->dep[k++] = x;
			hi->rdep_off[x + 2]++;
		}
		for (j = hi->dep_off[m]; j < k; j++)
			hi->seen[hi->dep[j]] = 0;
	}
	hi->dep_off[n] = (uint32_t)k;
	for (m = 0; m < n; m++)
		hi->rdep_off[m + 2] += hi->rdep_off[m + 1];
	fill = hi->rdep_off + 1;
	for (m = 0; m < n; m++) {
		for (j = hi->dep_off[m]; j < hi->dep_off[m + 1]; j++)
			hi->rdep[fill[hi->dep[j]]++] = (uint32_t)m;
	}
}

/*
 * Mark in seen[] what module m imports, directly or not (with from not
 * NULL, what any module marked in from[] does): one walk.  m (or one in
 * from) itself only if a cycle comes back to it.  The count marked.
 */
size_t
analyze_heapinfo_closure(struct analyze_heapinfo *hi, uint32_t m,
    const uint8_t *from)
{
	size_t		n = 0, top = 0, j;
	uint32_t	x;

	memset(hi->seen, 0, hi->s->nmodules);
	if (from == NULL)
		hi->todo[top++] = m;
	for (x = 0; from != NULL && x < hi->s->nmodules; x++) {
		if (from[x])
			hi->todo[top++] = x;
	}
	while (top > 0) {
		x = hi->todo[--top];
		for (j = hi->dep_off[x]; j < hi->dep_off[x + 1]; j++) {
			if (hi->seen[hi->dep[j]])
				continue;
			hi->seen[hi->dep[j]] = 1;
			hi->todo[top++] = hi->dep[j];
			n++;
		}
	}
	return (n);
}

/* "a, b, c": the names of the modules marked in seen[] (or listed). */
static char *
hi_names(struct analyze_heapinfo *hi, const uint32_t *list, size_t n)
{
	const struct analyze_heapview	*s = hi->s;
	char				*out = xstrdup(""), *t;
	size_t				 i;

	for (i = 0; i < (list != NULL ? n : s->nmodules); i++) {
		if (list == NULL && !hi->seen[i])
			continue;
		if (strlen(out) >= HI_NAMES) {
			t = xasprintf("%s, ...", out);
			free(out);
			return (t);
		}
		t = xasprintf("%s%s%s", out, *out != '\0' ? ", " : "",
		    s->modules[list != NULL ? list[i] : i].name);
		free(out);
		out = t;
	}
	return (out);
}

/* Tarjan's walk over the imports (hi_levels), on stacks of its own. */
struct hi_scc {
	uint32_t	*at;		/* per module: its next import */
	uint32_t	*idx;		/* its order in the walk; 0: new */
	uint32_t	*low;
	uint32_t	*stk;		/* components not yet done */
	size_t		 ns;
	size_t		 nc;		/* the walk's path, in hi->todo */
	uint32_t	 next;
};

static void
hi_scc_enter(struct analyze_heapinfo *hi, struct hi_scc *c, uint32_t x)
{
	c->idx[x] = c->low[x] = ++c->next;
	c->at[x] = hi->dep_off[x];
	c->stk[c->ns++] = x;
	hi->seen[x] = 1;
	hi->todo[c->nc++] = x;
}

/*
 * The component stk[first..ns) is done: every component it imports is
 * done before it, so its level is one more than the highest of theirs,
 * and at least 1 for a cycle (each of its modules imports another).
 */
static void
hi_scc_done(struct analyze_heapinfo *hi, struct hi_scc *c, size_t first)
{
	size_t		i;
	uint32_t	y, x, j, lvl = c->ns - first > 1;

	for (i = first; i < c->ns; i++) {
		y = c->stk[i];
		for (j = hi->dep_off[y]; j < hi->dep_off[y + 1]; j++) {
			x = hi->dep[j];
			if (!hi->seen[x] && hi->mod[x].level + 1 > lvl)
				lvl = hi->mod[x].level + 1;
		}
	}
	for (i = first; i < c->ns; i++) {
		hi->mod[c->stk[i]].level = lvl;
		hi->mod[c->stk[i]].cycle = c->ns - first > 1;
		hi->seen[c->stk[i]] = 0;
	}
	c->ns = first;
}

/*
 * Levels as HeapInspector's ModuleHierarchy: 0 for a module that imports
 * nothing, else one more than the highest of its imports.  The modules
 * of an import cycle (a strongly connected component of the imports)
 * share one level and are marked as in a cycle; a walk that stopped
 * where a cycle closed gave the module it entered last level 0, as if
 * it imported nothing.  Tarjan's algorithm, with stacks of its own (a
 * chain of a million modules must not take the C stack).
 */
static void
hi_levels(struct analyze_heapinfo *hi)
{
	struct hi_scc	 c;
	size_t		 n = hi->s->nmodules, r, first;
	uint32_t	 m, x, *up;

	memset(&c, 0, sizeof c);
	c.at = xcalloc(n + 1, sizeof *c.at);
	c.idx = xcalloc(n + 1, sizeof *c.idx);
	c.low = xcalloc(n + 1, sizeof *c.low);
	c.stk = xcalloc(n + 1, sizeof *c.stk);
	memset(hi->seen, 0, n);		/* on stk: its component not done */
	for (r = 0; r < n; r++) {
		if (c.idx[r] == 0)
			hi_scc_enter(hi, &c, (uint32_t)r);
		while (c.nc > 0) {
			m = hi->todo[c.nc - 1];
			if (c.at[m] < hi->dep_off[m + 1]) {
				x = hi->dep[c.at[m]++];
				if (c.idx[x] == 0)
					hi_scc_enter(hi, &c, x);
				else if (hi->seen[x] && c.idx[x] < c.low[m])
					c.low[m] = c.idx[x];
				continue;
			}
			/* m's walk is over: its caller sees as low. */
			if (--c.nc > 0) {
				up = &c.low[hi->todo[c.nc - 1]];
				if (c.low[m] < *up)
					*up = c.low[m];
			}
			/* m is its component's first: the component is done. */
			if (c.low[m] != c.idx[m])
				continue;
			for (first = c.ns; c.stk[first - 1] != m; first--)
				/* nothing */;
			hi_scc_done(hi, &c, first - 1);
		}
	}
	free(c.at);
	free(c.idx);
	free(c.low);
	free(c.stk);
}

static void
hi_make_modules(struct analyze_heapinfo *hi)
{
	const struct analyze_heapview	*s = hi->s;
	size_t				 n = s->nmodules, b, i;
	uint32_t			 m;

	hi->mod = xcalloc(n + 1, sizeof *hi->mod);
	hi->nmod = n;
	hi->seen = xcalloc(n + 1, 1);
	/* A walk from every module at once pushes each twice at most. */
	hi->todo = xcalloc(2 * n + 1, sizeof *hi->todo);
	hi_deps(hi);
	for (b = 0; b < s->nblocks; b++) {
		if ((m = hi_block_module(s, b)) == HI_NONE)
			continue;
		hi->mod[m].objects++;
		hi->mod[m].bytes += s->size[b];
	}
	for (i = 0; i < s->ntypes; i++) {
		if (s->types[i].module != HI_NONE)
			hi->mod[s->types[i].module].types++;
	}
	for (m = 0; m < n; m++) {
		hi->mod[m].imp = hi->dep_off[m + 1] - hi->dep_off[m];
		hi->mod[m].by = hi->rdep_off[m + 1] - hi->rdep_off[m];
		hi->mod[m].imports = hi_names(hi, hi->dep + hi->dep_off[m],
		    hi->mod[m].imp);
		hi->mod[m].importers = hi_names(hi, hi->rdep +
		    hi->rdep_off[m], hi->mod[m].by);
		hi->mod[m].mark = "";
	}
	/* Transitive counts: a walk per module (modules are few). */
	hi->direct_only = (uint64_t)n * (n + hi->dep_off[n]) > HI_WALK_MAX;
	for (m = 0; m < n && !hi->direct_only; m++) {
		hi->mod[m].imp_all = (uint32_t)analyze_heapinfo_closure(hi, m,
		    NULL);
		for (i = 0; i < n; i++) {
			if (hi->seen[i] && i != m)
				hi->mod[i].by_all++;
		}
		for (i = hi->dep_off[m]; i < hi->dep_off[m + 1]; i++)
			hi->seen[hi->dep[i]] = 0;
		hi->seen[m] = 0;
		hi->mod[m].through = hi_names(hi, NULL, 0);
	}
	hi_levels(hi);
	analyze_heapinfo_unload(hi, NULL, NULL);
}

/*
 * FreeBlocks: the gaps between blocks within each region, from its start
 * to its end.  A gap of a granule or less is the allocator's header of
 * the next chunk, not free memory, and is left out.
 */
static void
hi_make_free(struct analyze_heapinfo *hi)
{
	const struct analyze_heapview	*s = hi->s;
	const struct analyze_heapmap	*mp = &s->map;
	uint64_t			 end, a, total = 0, big = 0;
	uint64_t			 count[65];
	size_t				 r, b, n = 0, cap = 0;
	uint32_t			 k;
	char				*sum, *t;

	memset(count, 0, sizeof count);
	for (r = 0; r < mp->nregions; r++) {
		end = mp->regions[r].lo;
		for (b = mp->rfirst[r]; b <= mp->rfirst[r + 1]; b++) {
			a = b < mp->rfirst[r + 1] ? s->addr[b] :
			    mp->regions[r].hi;
			if (a > end && a - end <= HI_GAP_MIN)
				hi->gap_small += a - end;
			else if (a > end) {
				if (n == cap) {
					cap = cap != 0 ? cap * 2 : 1024;
					hi->gap_addr = xreallocarray(
					    hi->gap_addr, cap, 8);
					hi->gap_size = xreallocarray(
					    hi->gap_size, cap, 8);
					hi->gap_region = xreallocarray(
					    hi->gap_region, cap, 4);
				}
				hi->gap_addr[n] = end;
				hi->gap_size[n] = a - end;
				hi->gap_region[n++] = (uint32_t)r;
				total += a - end;
				if (a - end > big)
					big = a - end;
				count[analyze_heapview_class(a -
				    end)]++;
			}
			if (b < mp->rfirst[r + 1] && s->addr[b] +
			    s->usable[b] > end)
				end = s->addr[b] + s->usable[b];
		}
	}
	hi->ngaps = n;
	hi->gap_total = total;
	/* HeapInspector's sizes summary: how many in each power of two. */
	sum = xstrdup("");
	for (k = 0; k < 65; k++) {
		if (count[k] == 0)
			continue;
		t = xasprintf("%s, %llu of %llu+", sum, (unsigned long long)
		    count[k], k == 0 ? 0ULL : 1ULL << (k - 1));
		free(sum);
		sum = t;
	}
	hi->gap_what = xasprintf("%zu gaps between objects, %llu bytes,"
	    " largest %llu%s", n, (unsigned long long)total,
	    (unsigned long long)big, sum);
	free(sum);
}

/*
 * Who anchors each block (hi->owner): the one owner whose roots alone
 * reach it (root_owner[] per root: a module, or HI_SHARED for roots of
 * none, as a thread's stack), else HI_SHARED, or HI_NONE if no root
 * does.  Labels flow along the pointers, interior ones too, as the
 * map's reachability: a node's label changes at most twice (none, one
 * owner, shared), so it is walked at most twice, whatever the order.
 */
static void
hi_owners(struct analyze_heapinfo *hi, const uint32_t *root_owner)
{
	const struct analyze_heap	*g = &hi->s->graph;
	uint32_t			*lab, *stk, v, x, l, base;
	size_t				 i, top = 0, r;

	base = g->nroots + 1;
	lab = xreallocarray(NULL, (size_t)g->nnodes + 1, sizeof *lab);
	for (i = 0; i <= g->nnodes; i++)
		lab[i] = HI_NONE;
	stk = xreallocarray(NULL, 2 * (size_t)g->nnodes + 1, sizeof *stk);
	for (r = 0; r < g->nroots; r++) {
		lab[1 + r] = root_owner[r];
		stk[top++] = (uint32_t)(1 + r);
	}
	while (top > 0) {
		v = stk[--top];
		for (i = g->out_off[v]; i < g->out_off[v + 1]; i++) {
			x = g->out[i] & 0x7fffffffu;
			if (x < base)
				continue;
			l = lab[x] == HI_NONE || lab[x] == lab[v] ? lab[v] :
			    ANALYZE_HEAPINFO_SHARED;
			if (l == lab[x])
				continue;
			lab[x] = l;
			stk[top++] = x;
		}
	}
	free(stk);
	hi->owner = xreallocarray(NULL, hi->s->nblocks + 1,
	    sizeof *hi->owner);
	memcpy(hi->owner, lab + base, hi->s->nblocks * sizeof *hi->owner);
	free(lab);
}

/*
 * The Modules view's references and memory: the pointers from each
 * module's data into blocks, and the blocks only its data reaches (those
 * unloading it alone would free) with their usable bytes.
 */
/*
 * The thread whose stack or registers root r is ("stack of thread N",
 * as the loader names a thread's roots), added if the snapshot's regions
 * did not have it; HI_NONE for a root of no thread.  *regs: of its
 * registers.
 */
static uint32_t
hi_root_thread(struct analyze_heapinfo *hi, size_t r, int *regs)
{
	const char			*name = hi->s->roots[r].name, *p;
	struct analyze_heapinfo_thread	*t;
	long long			 tid;
	char				*end;
	size_t				 i;

	if (hi->s->roots[r].module != HI_NONE || name == NULL ||
	    (p = strstr(name, " of thread ")) == NULL)
		return (HI_NONE);
	tid = strtoll(p + 11, &end, 10);
	if (*end != '\0')
		return (HI_NONE);
	*regs = strncmp(name, "registers ", 10) == 0;
	for (i = 0; i < hi->nthr; i++) {
		if (hi->thr[i].tid == tid)
			return ((uint32_t)i);
	}
	hi->thr = xreallocarray(hi->thr, hi->nthr + 1, sizeof *hi->thr);
	t = &hi->thr[hi->nthr];
	memset(t, 0, sizeof *t);
	t->tid = tid;
	t->regs = -1;
	return ((uint32_t)hi->nthr++);
}

/*
 * The Modules view's references and memory, and the Tasks': the pointers
 * from each module's data and each thread's stack and registers into
 * blocks, and the blocks only those reach (what unloading the module, or
 * the thread's end, alone would free) with their usable bytes.
 */
static void
hi_make_refs(struct analyze_heapinfo *hi)
{
	const struct analyze_heapview	*s = hi->s;
	const struct analyze_heap	*g = &s->graph;
	uint32_t			*own, m, t;
	uint64_t			 n;
	size_t				 r, b, nm = s->nmodules;
	int				 regs;

	hi->thr = xcalloc(s->nthreads + 1, sizeof *hi->thr);
	for (hi->nthr = 0; hi->nthr < s->nthreads; hi->nthr++) {
		hi->thr[hi->nthr].tid = s->threads[hi->nthr].tid;
		hi->thr[hi->nthr].lo = s->threads[hi->nthr].lo;
		hi->thr[hi->nthr].hi = s->threads[hi->nthr].hi;
		hi->thr[hi->nthr].regs = s->threads[hi->nthr].regs;
	}
	if (!s->graph_ready || g->nroots != s->nroots)
		return;
	own = xreallocarray(NULL, s->nroots + 1, sizeof *own);
	for (r = 0; r < s->nroots; r++) {
		m = s->roots[r].module;
		n = g->out_off[2 + r] - g->out_off[1 + r];
		own[r] = ANALYZE_HEAPINFO_SHARED;
		if (m != HI_NONE) {
			own[r] = m;
			hi->mod[m].refs += n;
		} else if ((t = hi_root_thread(hi, r, &regs)) != HI_NONE) {
			own[r] = (uint32_t)(nm + t);
			if (regs) {
				hi->thr[t].regs_refs += n;
				hi->thr[t].regs = 1;
			}
			else
				hi->thr[t].stack_refs += n;
		}
	}
	hi_owners(hi, own);
	free(own);
	for (b = 0; b < s->nblocks; b++) {
		m = hi->owner[b];
		if (m == HI_NONE || m == ANALYZE_HEAPINFO_SHARED)
			continue;
		if (m < nm) {
			hi->mod[m].anchors++;
			hi->mod[m].anchored += s->usable[b];
		} else {
			hi->thr[m - nm].anchors++;
			hi->thr[m - nm].anchored += s->usable[b];
		}
	}
}

/*
 * ModuleLessObjects.  HeapInspector listed the objects whose type's
 * module was unloaded: alive, but held by no module any more.  In C a
 * block's type or site names a module whether or not it is loaded, so
 * the sense kept is "held by no module": the blocks no module's
 * writable data reaches, by any pointer, which only a thread's stack or
 * registers or other memory hold, or nothing (lost).
 */
static void
hi_make_moduleless(struct analyze_heapinfo *hi)
{
	const struct analyze_heapview	*s = hi->s;
	const struct analyze_heap	*g = &s->graph;
	uint32_t			*from, base, nf = 0, na = 0;
	uint8_t				*bymod, *byany;
	size_t				 r, b;

	if (!s->graph_ready || g->nroots != s->nroots)
		return;
	base = g->nroots + 1;
	from = xreallocarray(NULL, s->nroots + 1, sizeof *from);
	bymod = xcalloc_populated((size_t)g->nnodes + 1, 1);
	byany = xcalloc_populated((size_t)g->nnodes + 1, 1);
	for (r = 0; r < s->nroots; r++) {
		if (s->roots[r].module != HI_NONE)
			from[nf++] = (uint32_t)(1 + r);
	}
	analyze_heap_reach(g, from, nf, 0, NULL, bymod);
	for (r = 0; r < s->nroots; r++)
		from[na++] = (uint32_t)(1 + r);
	analyze_heap_reach(g, from, na, 0, NULL, byany);
	free(from);
	hi->mless = xreallocarray(NULL, s->nblocks + 1, sizeof *hi->mless);
	hi->mless_rooted = xcalloc(s->nblocks + 1, 1);
	for (b = 0; b < s->nblocks; b++) {
		if (bymod[base + b])
			continue;
		hi->mless_rooted[hi->nmless] = byany[base + b];
		hi->mless[hi->nmless++] = (uint32_t)b;
		hi->mless_bytes += s->usable[b];
		hi->mless_lost += !byany[base + b];
	}
	free(bymod);
	free(byany);
}

/* Make the module and free-block tables of snapshot s. */
void
analyze_heapinfo_make(struct analyze_heapinfo *hi,
    const struct analyze_heapview *s)
{
	memset(hi, 0, sizeof *hi);
	hi->s = s;
	hi_make_modules(hi);
	hi_make_refs(hi);
	hi_make_moduleless(hi);
	hi_make_free(hi);
}

void
analyze_heapinfo_free(struct analyze_heapinfo *hi)
{
	size_t	i;

	for (i = 0; hi->mod != NULL && i < hi->nmod; i++) {
		free(hi->mod[i].imports);
		free(hi->mod[i].through);
		free(hi->mod[i].importers);
	}
	free(hi->mod);
	free(hi->dep_off);
	free(hi->dep);
	free(hi->rdep_off);
	free(hi->rdep);
	free(hi->seen);
	free(hi->todo);
	free(hi->gap_addr);
	free(hi->gap_size);
	free(hi->gap_region);
	free(hi->gap_what);
	free(hi->owner);
	free(hi->thr);
	free(hi->mless);
	free(hi->mless_rooted);
	memset(hi, 0, sizeof *hi);
}

/*
 * System.Free M*: module one and those that go with it, a module going
 * when its last importer has gone, in freed[] (a byte per module, set,
 * never cleared).
 */
void
analyze_heapinfo_freed(struct analyze_heapinfo *hi, size_t one,
    uint8_t *freed)
{
	size_t		 n = hi->s->nmodules, m, j, top = 0;
	uint32_t	*left, x;

	/* Each import's importers left, counted down as modules go. */
	left = xcalloc(n + 1, sizeof *left);
	for (m = 0; m < n; m++)
		left[m] = hi->mod[m].by;
	freed[one] = 1;
	hi->todo[top++] = (uint32_t)one;
	while (top > 0) {
		x = hi->todo[--top];
		for (j = hi->dep_off[x]; j < hi->dep_off[x + 1]; j++) {
			if (--left[hi->dep[j]] != 0)
				continue;
			freed[hi->dep[j]] = 1;
			hi->todo[top++] = hi->dep[j];
		}
	}
	free(left);
}

/*
 * TestUnloadModules' marks (HeapInspector's Modules list) and ModuleHierarchy's
 * classes, for the modules named (named[], a byte per module) and those
 * unloaded with them (unloaded[]: the named and their importers); NULL:
 * no test unload.  "++" named, "+" unloaded as an importer, "*" what
 * only one named module at the top needed (System.Free M* would free it
 * too; it is not unloaded), "#" imported, directly or not, by an
 * unloaded module.  Hierarchy: unloaded blue over not imported red over
 * needed by the unloaded green.
 */
void
analyze_heapinfo_unload(struct analyze_heapinfo *hi, const uint8_t *named,
    const uint8_t *unloaded)
{
	size_t		 n = hi->s->nmodules, m, nnamed = 0, one = 0;
	uint8_t		*need, *freed;

	if (hi->mod == NULL)
		return;
	for (m = 0; m < n; m++) {
		hi->mod[m].mark = "";
		hi->mod[m].hier = hi->mod[m].by == 0 ? ANALYZE_HEAPINFO_TOP :
		    ANALYZE_HEAPINFO_PLAIN;
	}
	if (named == NULL || unloaded == NULL)
		return;
	need = xcalloc(n + 1, 1);
	freed = xcalloc(n + 1, 1);
	for (m = 0; m < n; m++) {
		if (named[m]) {
			nnamed++;
			one = m;
		}
	}
	analyze_heapinfo_closure(hi, 0, unloaded);
	memcpy(need, hi->seen, n);
	if (nnamed == 1 && hi->mod[one].by == 0)
		analyze_heapinfo_freed(hi, one, freed);
	for (m = 0; m < n; m++) {
		if (named[m])
			hi->mod[m].mark = "++";
		else if (unloaded[m])
			hi->mod[m].mark = "+";
		else if (freed[m])
			hi->mod[m].mark = "*";
		else if (need[m])
			hi->mod[m].mark = "#";
		if (unloaded[m])
			hi->mod[m].hier = ANALYZE_HEAPINFO_UNLOAD;
		else if (hi->mod[m].by != 0 && (need[m] || freed[m]))
			hi->mod[m].hier = ANALYZE_HEAPINFO_NEEDED;
	}
	free(need);
	free(freed);
}

/*
 * Add to set (a byte per module) every module that imports one in it,
 * directly or not: what unloading those takes with it.  One walk over
 * the importers.
 */
void
analyze_heapinfo_importers(const struct analyze_heapview *s, uint8_t *set)
{
	struct analyze_heapinfo	g;
	size_t			n = s->nmodules, top = 0, j;
	uint32_t		m, x;

	memset(&g, 0, sizeof g);
	g.s = s;
	g.seen = xcalloc(n + 1, 1);
	g.todo = xcalloc(n + 1, sizeof *g.todo);
	hi_deps(&g);
	for (m = 0; m < n; m++) {
		if (set[m])
			g.todo[top++] = m;
	}
	while (top > 0) {
		x = g.todo[--top];
		for (j = g.rdep_off[x]; j < g.rdep_off[x + 1]; j++) {
			if (set[g.rdep[j]])
				continue;
			set[g.rdep[j]] = 1;
			g.todo[top++] = g.rdep[j];
		}
	}
	analyze_heapinfo_free(&g);
}
