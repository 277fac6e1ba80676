/*
 * A heap snapshot as the heap map shows it: the arrays of its blocks,
 * types, modules, roots and pointers, however they were loaded, and what
 * is made of them once (the heap graph with memcheck's leak states, the
 * map).  Plus HeapInspector's questions that are lists rather than graphs:
 * types by Module.Type* pattern, ObjectsByType / ByModule / ObjectSizes,
 * objects holding a string, and which roots TestUnloadModules drops.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bsearch.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "store/heap.h"

#define HS_NONE	ANALYZE_HEAPVIEW_NONE

static void
hs_descs_free(struct analyze_heapview *s)
{
	size_t	i;

	for (i = 0; i < s->ndescs; i++)
		free(s->descs[i].name);
	free(s->descs);
	s->descs = NULL;
	s->ndescs = 0;
}

void
analyze_heapview_free(struct analyze_heapview *s)
{
	size_t	i;

	for (i = 0; i < s->nregions; i++)
		free(s->regions[i].name);
	for (i = 0; i < s->ntypes; i++)
		free(s->types[i].name);
	for (i = 0; i < s->nmodules; i++) {
		free(s->modules[i].name);
		free(s->modules[i].imports);
	}
	for (i = 0; i < s->nframes; i++) {
		free(s->frames[i].function);
		free(s->frames[i].file);
	}
	for (i = 0; i < s->nroots; i++) {
		free(s->roots[i].name);
		free(s->roots[i].symbol);
	}
	for (i = 0; i < s->nclasses; i++)
		free(s->classes[i]);
	free(s->classes);
	free(s->class_base_off);
	free(s->class_base);
	free(s->type_class);
	free(s->class_size);
	free(s->class_ptrs);
	free(s->class_vptr);
	free(s->class_virt);
	free(s->class_dtor);
	for (i = 0; s->class_dtor_name != NULL && i < s->nclasses; i++)
		free(s->class_dtor_name[i]);
	free(s->class_dtor_name);
	hs_descs_free(s);
	free(s->program);
	free(s->regions);
	free(s->addr);
	free(s->size);
	free(s->usable);
	free(s->seq);
	free(s->type);
	free(s->site);
	free(s->types);
	free(s->modules);
	free(s->site_first);
	free(s->site_frame);
	free(s->frames);
	free(s->roots);
	free(s->threads);
	free(s->edges);
	free(s->data_off);
	free(s->data);
	analyze_heap_free(&s->graph);
	analyze_heapmap_free(&s->map);
	memset(s, 0, sizeof *s);
}

/*
 * Check the indices the arrays hold and make the graph, its states and
 * the map.  -1 and a cause when the arrays contradict themselves.
 */
int
analyze_heapview_init(struct analyze_heapview *s, char **cause)
{
	if (analyze_heapview_map(s, cause) != 0)
		return (-1);
	return (analyze_heapview_graph(s, cause));
}

/*
 * The first half, all a first frame needs: the indices checked and the
 * map made (tens of milliseconds on a million blocks).
 */
int
analyze_heapview_map(struct analyze_heapview *s, char **cause)
{
	size_t	i, j;

	for (i = 0; i < s->nblocks; i++) {
		if ((s->type[i] != HS_NONE && s->type[i] >= s->ntypes) ||
		    (s->site[i] != HS_NONE && s->site[i] >= s->nsites)) {
			*cause = xasprintf("heap snapshot: block %zu: type %u"
			    " or site %u out of range", i, s->type[i],
			    s->site[i]);
			return (-1);
		}
		if (s->data_off != NULL &&
		    s->data_off[i + 1] < s->data_off[i]) {
			*cause = xasprintf("heap snapshot: block %zu: contents"
			    " out of order", i);
			return (-1);
		}
	}
	for (i = 0; i < s->ntypes; i++) {
		if (s->types[i].module != HS_NONE &&
		    s->types[i].module >= s->nmodules) {
			*cause = xasprintf("heap snapshot: type %zu: module %u"
			    " out of range", i, s->types[i].module);
			return (-1);
		}
	}
	for (i = 0; i < s->nmodules; i++) {
		for (j = 0; j < s->modules[i].nimports; j++) {
			if (s->modules[i].imports[j] >= s->nmodules) {
				*cause = xasprintf("heap snapshot: module %zu:"
				    " import %u out of range", i,
				    s->modules[i].imports[j]);
				return (-1);
			}
		}
	}
	for (i = 0; i < s->nroots; i++) {
		if (s->roots[i].module != HS_NONE &&
		    s->roots[i].module >= s->nmodules) {
			*cause = xasprintf("heap snapshot: root %zu: module %u"
			    " out of range", i, s->roots[i].module);
			return (-1);
		}
	}
	for (i = 0; i < s->nsites; i++) {
		if (s->site_first[i + 1] < s->site_first[i] ||
		    s->site_first[i + 1] > (s->site_frame != NULL ?
		    s->nsite_frames : s->nframes)) {
			*cause = xasprintf("heap snapshot: site %zu: frames out"
			    " of range", i);
			return (-1);
		}
	}
	for (i = 0; s->site_frame != NULL && i < s->nsite_frames; i++) {
		if (s->site_frame[i] >= s->nframes) {
			*cause = xasprintf("heap snapshot: a stack's frame %u"
			    " out of range", s->site_frame[i]);
			return (-1);
		}
	}
	return (analyze_heapmap_build(&s->map, s->regions, s->nregions,
	    s->addr, s->usable, s->nblocks, cause));
}

/*
 * The second half: the heap graph and memcheck's states over it (a few
 * hundred milliseconds on a million blocks and four million pointers).
 */
int
analyze_heapview_graph(struct analyze_heapview *s, char **cause)
{
	if (s->nblocks >= UINT32_MAX || s->nroots >= UINT32_MAX) {
		*cause = xasprintf("heap snapshot: too many blocks or roots");
		return (-1);
	}
	if (analyze_heap_build(&s->graph, (uint32_t)s->nroots,
	    (uint32_t)s->nblocks, s->usable, s->edges, s->nedges, cause) != 0)
		return (-1);
	analyze_heap_states(&s->graph);
	s->graph_ready = 1;
	return (0);
}

/*
 * Module by name: its name, or its name up to the first dot ("libc" for
 * "libc.so.6"); HS_NONE if none has it.
 */
uint32_t
analyze_heapview_module(const struct analyze_heapview *s, const char *name)
{
	size_t	i, n = strlen(name);

	for (i = 0; i < s->nmodules; i++) {
		if (strcmp(s->modules[i].name, name) == 0)
			return ((uint32_t)i);
	}
	for (i = 0; i < s->nmodules; i++) {
		if (strncmp(s->modules[i].name, name, n) == 0 &&
		    s->modules[i].name[n] == '.')
			return ((uint32_t)i);
	}
	return (HS_NONE);
}

/* A root's variable: its name past "module:" (a C++ "::" is no colon). */
const char *
analyze_heapview_root_var(const char *name)
{
	const char	*p;

	for (p = name; *p != '\0'; p++) {
		if (p[0] == ':' && p[1] == ':')
			p++;
		else if (*p == ':')
			return (p + 1);
	}
	return (name);
}

/* Whether root r answers to name at level k (analyze_heapview_root). */
static int
hs_root_is(const struct analyze_heapview_root *r, const char *name, int k)
{
	const char	*var = analyze_heapview_root_var(r->name), *last;
	size_t		 n = (size_t)(var - r->name);

	switch (k) {
	case 0:
		return (strcmp(r->name, name) == 0 || (r->symbol != NULL &&
		    n > 0 && strncmp(r->name, name, n) == 0 &&
		    strcmp(name + n, r->symbol) == 0));
	case 1:
		return (strcmp(var, name) == 0 || (r->symbol != NULL &&
		    strcmp(r->symbol, name) == 0));
	default:
		last = strrchr(var, ':');
		return (last != NULL && last > var && last[-1] == ':' &&
		    strcmp(last + 1, name) == 0);
	}
}

/*
 * Root by its name, module:variable, or by the variable's name alone
 * when only one module has it, or by a C++ variable's last name
 * (current for app::current) when only one root has that; a C++
 * variable demangled or as its symbol (_ZN3app7currentE) either way.
 * HS_NONE if none has it, or if more than one does at the first of
 * those that any has (*many set then, when many is not NULL).
 */
uint32_t
analyze_heapview_root(const struct analyze_heapview *s, const char *name,
    int *many)
{
	uint32_t	 found;
	size_t		 i;
	int		 k;

	if (many != NULL)
		*many = 0;
	for (k = 0; k < 3; k++) {
		found = HS_NONE;
		for (i = 0; i < s->nroots; i++) {
			if (!hs_root_is(&s->roots[i], name, k))
				continue;
			if (k == 0)
				return ((uint32_t)i);
			if (found != HS_NONE) {
				if (many != NULL)
					*many = 1;
				return (HS_NONE);
			}
			found = (uint32_t)i;
		}
		if (found != HS_NONE)
			return (found);
	}
	return (HS_NONE);
}

/* Whether type name t matches pattern p (a trailing * takes a prefix). */
static int
hs_type_match(const char *t, const char *p, size_t n, int star)
{
	return (star ? strncmp(t, p, n) == 0 : strlen(t) == n &&
	    strncmp(t, p, n) == 0);
}

/*
 * HeapInspector's TypeSpecification, Module["."Type]["*"], in match[] (a byte
 * per type): a module alone is every type of it; Module.Type its type of
 * that name; a name that is no module's is a type of any module.  The
 * HeapInspector's trailing * takes the types derived from it too: the C++
 * classes that have it as a base, directly or not, in any module (as
 * PopupElems.ElemDesc is Texts.ElemDesc*'s), when analyze_heapview_bases
 * has read the derivation; without it (no C++ DWARF) only the type
 * itself.  "site:FUNCTION[*]" is the blocks of no type that FUNCTION
 * allocated, a function name's prefix with *, which no type spec takes (a
 * function is not a type).  The types matched.
 */
/*
 * A byte per class: class t (n bytes; none if NULL), the classes of the
 * types match[] has, and the classes derived from them, directly or not.
 */
static uint8_t *
hs_derived_classes(const struct analyze_heapview *s, const char *t, size_t n,
    const uint8_t *match)
{
	uint8_t		*c;
	size_t		 i, k;
	int		 more = 1;

	c = xcalloc(s->nclasses, 1);
	for (i = 0; i < s->nclasses; i++)
		c[i] = t != NULL && hs_type_match(s->classes[i], t, n, 0);
	for (i = 0; i < s->ntypes; i++) {
		if (match[i] && s->type_class[i] != HS_NONE)
			c[s->type_class[i]] = 1;
	}
	/* Bases before derived classes or not: passes until none is new. */
	while (more) {
		more = 0;
		for (i = 0; i < s->nclasses; i++) {
			for (k = s->class_base_off[i]; !c[i] &&
			    k < s->class_base_off[i + 1]; k++) {
				if (c[s->class_base[k]])
					c[i] = more = 1;
			}
		}
	}
	return (c);
}

/*
 * The types derived from class t (n bytes), or from those match[] has
 * (a module's, for "Module*"), added to match[]; how many were added.
 */
static size_t
hs_derived(const struct analyze_heapview *s, const char *t, size_t n,
    uint8_t *match)
{
	uint8_t		*c;
	size_t		 i, count = 0;

	if (s->classes == NULL || s->nclasses == 0)
		return (0);
	c = hs_derived_classes(s, t, n, match);
	for (i = 0; i < s->ntypes; i++) {
		if (!match[i] && !s->types[i].site &&
		    s->type_class[i] != HS_NONE && c[s->type_class[i]]) {
			match[i] = 1;
			count++;
		}
	}
	free(c);
	return (count);
}

/* How a site's pseudo-type is named: HS_SITE_PRE, the function, ")". */
#define HS_SITE_PRE	"(no type; site "

size_t
analyze_heapview_types(const struct analyze_heapview *s, const char *spec,
    uint8_t *match)
{
	const char	*t = NULL;
	char		*mod;
	uint32_t	 m = HS_NONE, k;
	size_t		 i, n, count = 0, best = 0, len = strlen(spec);
	int		 star = len > 0 && spec[len - 1] == '*';

	memset(match, 0, s->ntypes);
	if (star)
		len--;
	if (len >= 5 && strncasecmp(spec, "site:", 5) == 0) {
		for (i = 0; i < s->ntypes; i++) {
			if (!s->types[i].site)
				continue;
			/* Its name is HS_SITE_PRE "FUNCTION)". */
			mod = xasprintf("%.*s", (int)(strlen(s->types[i].name) -
			    sizeof HS_SITE_PRE), s->types[i].name +
			    sizeof HS_SITE_PRE - 1);
			match[i] = hs_type_match(mod, spec + 5, len - 5, star);
			free(mod);
			count += match[i];
		}
		return (count);
	}
	/* The longest module name the spec starts with, then a dot. */
	for (k = 0; k < s->nmodules; k++) {
		n = strlen(s->modules[k].name);
		if (n > best && n < len && strncmp(spec, s->modules[k].name,
		    n) == 0 && spec[n] == '.') {
			best = n;
			m = k;
			t = spec + n + 1;
		}
	}
	if (m == HS_NONE) {
		mod = xasprintf("%.*s", (int)len, spec);
		m = analyze_heapview_module(s, mod);
		free(mod);
		if (m != HS_NONE) {
			for (i = 0; i < s->ntypes; i++) {
				match[i] = s->types[i].module == m;
				count += match[i];
			}
			return (count + (star ? hs_derived(s, NULL, 0, match) :
			    0));
		}
		m = HS_NONE;
		t = spec;
	}
	n = len - (size_t)(t - spec);
	for (i = 0; i < s->ntypes; i++) {
		match[i] = !s->types[i].site && (m == HS_NONE ||
		    s->types[i].module == m) && hs_type_match(s->types[i].name,
		    t, n, 0);
		count += match[i];
	}
	if (star)
		count += hs_derived(s, t, n, match);
	return (count);
}

static int
hs_sum_cmp(const void *a, const void *b)
{
	const struct analyze_heapview_sum *x = a, *y = b;

	return (x->key < y->key ? -1 : x->key > y->key);
}

/* The size class ObjectSizes puts n bytes in (see below). */
uint32_t
analyze_heapview_class(uint64_t n)
{
	return (n == 0 ? 0 : 64 - (uint32_t)__builtin_clzll(n));
}

/*
 * ObjectsByType, ObjectsByModule (by the module of the block's type) or
 * ObjectSizes (key: 0 for empty blocks, else k + 1 for sizes in [2^k,
 * 2^(k+1))): one row per key with blocks, ordered by key; HS_NONE keys
 * blocks without a type or module.  Only the blocks marked in only[] (a
 * byte per block), if not NULL.
 */
size_t
analyze_heapview_sums_of(const struct analyze_heapview *s, int by,
    const uint8_t *only, struct analyze_heapview_sum **out)
{
	struct analyze_heapview_sum	*t;
	size_t				 n, i, k, rows = 0;
	uint64_t			 z;
	uint32_t			 key;

	n = by == ANALYZE_HEAPVIEW_BY_TYPE ? s->ntypes :
	    by == ANALYZE_HEAPVIEW_BY_MODULE ? s->nmodules : 65;
	t = xcalloc(n + 1, sizeof *t);
	for (i = 0; i < s->nblocks; i++) {
		if (only != NULL && !only[i])
			continue;
		if (by == ANALYZE_HEAPVIEW_BY_SIZE) {
			z = s->size[i];
			key = analyze_heapview_class(z);
			k = key;
		} else {
			key = s->type[i];
			if (by == ANALYZE_HEAPVIEW_BY_MODULE && key != HS_NONE)
				key = s->types[key].module;
			else if (key != HS_NONE && s->types[key].site)
				key = HS_NONE;
			k = key == HS_NONE ? n : key;
		}
		t[k].key = key;
		t[k].blocks++;
		t[k].bytes += s->size[i];
		t[k].usable += s->usable[i];
	}
	for (k = 0; k <= n; k++) {
		if (t[k].blocks != 0)
			t[rows++] = t[k];
	}
	qsort(t, rows, sizeof *t, hs_sum_cmp);
	*out = t;
	return (rows);
}

size_t
analyze_heapview_sums(const struct analyze_heapview *s, int by,
    struct analyze_heapview_sum **out)
{
	return (analyze_heapview_sums_of(s, by, NULL, out));
}

/*
 * HeapInspector's Select Object: the blocks whose kept contents hold the n
 * bytes of str at offset pos, in sel[] (a byte per block).  The count; 0
 * when the snapshot kept no contents.
 */
size_t
analyze_heapview_find(const struct analyze_heapview *s, const char *str,
    size_t n, uint64_t pos, uint8_t *sel)
{
	size_t		i, count = 0;
	uint64_t	len;

	memset(sel, 0, s->nblocks);
	if (s->data_off == NULL)
		return (0);
	for (i = 0; i < s->nblocks; i++) {
		len = s->data_off[i + 1] - s->data_off[i];
		if (pos > len || n > len - pos)
			continue;
		if (memcmp(s->data + s->data_off[i] + pos, str, n) == 0) {
			sel[i] = 1;
			count++;
		}
	}
	return (count);
}

/*
 * TestUnloadModules: the modules in drop (a byte per module) and every
 * module that imports one of them, directly or not, are unloaded
 * (unloaded[], a byte per module, says which); their roots go, and lost[]
 * (a byte per graph node) marks the blocks no other root reaches then.
 * The blocks lost.
 */
size_t
analyze_heapview_unload(const struct analyze_heapview *s, const uint8_t *drop,
    uint8_t *unloaded, uint8_t *lost)
{
	uint8_t	*roots;
	size_t	 i, n;

	memcpy(unloaded, drop, s->nmodules);
	analyze_heapinfo_importers(s, unloaded);
	roots = xcalloc(s->nroots + 1, 1);
	for (i = 0; i < s->nroots; i++)
		roots[i] = s->roots[i].module != HS_NONE &&
		    unloaded[s->roots[i].module];
	n = analyze_heap_unload(&s->graph, roots, lost);
	free(roots);
	return (n);
}

/*
 * "function (file.c:12)", as ingest writes a frame the module's DWARF
 * gives a line for: the function, the file and the line apart.
 */
static void
hv_frame_line(struct analyze_heapview_frame *f)
{
	char		*open, *colon, *end;
	unsigned long	 line;

	if ((open = strrchr(f->function, '(')) == NULL || open ==
	    f->function || open[-1] != ' ' ||
	    (colon = strrchr(open, ':')) == NULL)
		return;
	line = strtoul(colon + 1, &end, 10);
	if (end == colon + 1 || strcmp(end, ")") != 0 || line == 0 ||
	    line > UINT32_MAX)
		return;
	f->file = xasprintf("%.*s", (int)(colon - open - 1), open + 1);
	f->line = (uint32_t)line;
	open[-1] = '\0';
}

/*
 * A frame's text as the heap kind keeps it ("function (file:line)" or
 * "function (module)", a line each for the functions inlined there) as
 * frames of the view.
 */
static void
hv_text_frames(struct analyze_heapview *v, size_t *cap, const char *text)
{
	const char	*p = text, *nl;

	while (p != NULL && *p != '\0') {
		nl = strchr(p, '\n');
		if (v->nframes == *cap) {
			*cap = *cap != 0 ? *cap * 2 : 256;
			v->frames = xreallocarray(v->frames, *cap,
			    sizeof *v->frames);
		}
		v->frames[v->nframes].function = nl != NULL ?
		    xasprintf("%.*s", (int)(nl - p), p) : xstrdup(p);
		v->frames[v->nframes].file = NULL;
		v->frames[v->nframes].line = 0;
		hv_frame_line(&v->frames[v->nframes++]);
		p = nl != NULL ? nl + 1 : NULL;
	}
}

/* Grow an array of uint32_t to hold index i. */
static uint32_t *
hv_grow32(uint32_t *a, size_t *cap, size_t i)
{
	if (i < *cap)
		return (a);
	while (*cap <= i)
		*cap = *cap != 0 ? *cap * 2 : 256;
	return (xreallocarray(a, *cap, sizeof *a));
}

/*
 * The sites' stacks: each stored frame once in v->frames (its lines),
 * and each site's run of them as indices in v->site_frame.  A frame many
 * sites share is not copied for each: a long one shared by 40 sites
 * made gigabytes when each site had its stack's text.  Rows that name
 * what is not there are passed over.  -1 on a store error.
 */
static int
hv_stacks(struct store *st, int64_t session, struct analyze_heapview *v)
{
	struct store_cursor	*c;
	uint32_t		*ffirst = NULL, *stk = NULL, *sf = NULL, fr;
	size_t			 nf = 0, fcap = 0, vcap = 0, ns = 0, scap = 0;
	size_t			 nsf = 0, sfcap = 0, k;
	int64_t			 idx, first, n, j;
	int			 rc;

	/* Frame f is v->frames[ffirst[f] .. ffirst[f + 1]). */
	if ((c = store_heap_frames(st, session)) == NULL)
		return (-1);
	ffirst = hv_grow32(ffirst, &fcap, 0);
	ffirst[0] = 0;
	while ((rc = store_cursor_step(c)) == 1) {
		idx = store_cursor_int(c, STORE_HEAP_FRAME_IDX);
		if (idx < (int64_t)nf || idx >= (int64_t)UINT32_MAX - 1)
			continue;
		/* Indices not stored are frames without lines. */
		ffirst = hv_grow32(ffirst, &fcap, (size_t)idx + 1);
		for (; nf < (size_t)idx; nf++)
			ffirst[nf + 1] = (uint32_t)v->nframes;
		hv_text_frames(v, &vcap, store_cursor_text(c,
		    STORE_HEAP_FRAME_TEXT));
		ffirst[++nf] = (uint32_t)v->nframes;
	}
	store_cursor_close(c);
	if (rc < 0)
		goto fail;
	/* The stacks' entries: stk[i] is a frame. */
	if ((c = store_heap_stacks(st, session)) == NULL)
		goto fail;
	while ((rc = store_cursor_step(c)) == 1) {
		idx = store_cursor_int(c, STORE_HEAP_STACK_IDX);
		if (idx < (int64_t)ns || idx >= (int64_t)UINT32_MAX)
			continue;
		stk = hv_grow32(stk, &scap, (size_t)idx);
		for (; ns < (size_t)idx; ns++)
			stk[ns] = UINT32_MAX;
		stk[ns++] = (uint32_t)store_cursor_int(c,
		    STORE_HEAP_STACK_FRAME);
	}
	store_cursor_close(c);
	if (rc < 0)
		goto fail;
	/* Each site's run, by index: the lines of its frames in order. */
	if ((c = store_heap_site_runs(st, session)) == NULL)
		goto fail;
	k = 0;
	v->site_first[0] = 0;
	while ((rc = store_cursor_step(c)) == 1) {
		idx = store_cursor_int(c, STORE_HEAP_RUN_IDX);
		first = store_cursor_int(c, STORE_HEAP_RUN_FIRST_FRAME);
		n = store_cursor_int(c, STORE_HEAP_RUN_NFRAMES);
		if (idx < (int64_t)k || (uint64_t)idx >= v->nsites)
			continue;
		for (; k < (size_t)idx; k++)
			v->site_first[k + 1] = (uint32_t)nsf;
		for (j = first; n > 0 && j >= 0 && j < first + n &&
		    (uint64_t)j < ns; j++) {
			if ((fr = stk[j]) >= nf)
				continue;
			sf = hv_grow32(sf, &sfcap, nsf + ffirst[fr + 1] -
			    ffirst[fr]);
			for (idx = ffirst[fr]; idx < ffirst[fr + 1]; idx++)
				sf[nsf++] = (uint32_t)idx;
		}
		v->site_first[++k] = (uint32_t)nsf;
	}
	store_cursor_close(c);
	if (rc < 0)
		goto fail;
	for (; k < v->nsites; k++)
		v->site_first[k + 1] = (uint32_t)nsf;
	v->site_frame = sf != NULL ? sf : xcalloc(1, sizeof *sf);
	v->nsite_frames = nsf;
	free(ffirst);
	free(stk);
	return (0);

fail:
	free(ffirst);
	free(stk);
	free(sf);
	return (-1);
}

/*
 * The allocation stack of site s as one line, "f (file:line) < g
 * (file:line)", cut at max bytes (what a pane shows): sites share
 * frames, and one of a long name made each draw of the inspector copy
 * megabytes.  "(not known)" for no site.
 */
char *
analyze_heapview_stack(const struct analyze_heapview *v, uint32_t site,
    size_t max)
{
	const struct analyze_heapview_frame	*f;
	char					*out = xstrdup(""), *t;
	uint32_t				 i;
	size_t					 len = 0;
	int					 room;

	if (site == ANALYZE_HEAPVIEW_NONE || site >= v->nsites)
		return (xstrdup("(not known)"));
	for (i = v->site_first[site]; i < v->site_first[site + 1] &&
	    len < max; i++) {
		f = &v->frames[v->site_frame != NULL ? v->site_frame[i] : i];
		room = max - len < INT_MAX ? (int)(max - len) : INT_MAX;
		if (f->file != NULL)
			t = xasprintf("%s%s%.*s (%s:%u)", out, *out ? " < " :
			    "", room, f->function, f->file, f->line);
		else
			t = xasprintf("%s%s%.*s", out, *out ? " < " : "", room,
			    f->function);
		free(out);
		out = t;
		len = strlen(out);
	}
	if (len > max)
		out[max] = '\0';
	return (out);
}

static int
hv_region_cmp(const void *a, const void *b)
{
	const struct analyze_heapmap_region *x = a, *y = b;

	if (x->lo != y->lo)
		return (x->lo < y->lo ? -1 : 1);
	return (x->hi < y->hi ? -1 : x->hi > y->hi);
}

/*
 * The regions the heap map lays out for regions rg (any order; empty
 * ones left out) and the blocks (addr, usable size): a block no region
 * holds whole gets a region of its own, "unmapped" (none should), and
 * regions that overlap or share a granule are made one (the map refuses
 * either, and a snapshot of blocks outside its regions, or of regions
 * that touch, ingests cleanly).  Every block is then inside a region.
 * *out is new, with its names; its count.  Ingest lays out the same, so
 * that what it takes the map opens.
 */
size_t
analyze_heapview_regions(const struct analyze_heapmap_region *rg,
    size_t nrg, const uint64_t *addr, const uint64_t *usable,
    size_t nblocks, struct analyze_heapmap_region **out)
{
	struct analyze_heapmap_region	*all, *o;
	size_t				 n = 0, nreal, i, r, k = 0;
	uint64_t			 end;

	all = xreallocarray(NULL, nrg + nblocks + 1, sizeof *all);
	for (r = 0; r < nrg; r++) {
		if (rg[r].hi > rg[r].lo)
			all[n++] = rg[r];
	}
	qsort(all, n, sizeof *all, hv_region_cmp);
	nreal = n;
	for (i = 0, r = 0; i < nblocks; i++) {
		end = addr[i] + (usable[i] != 0 ? usable[i] : 1);
		while (r < nreal && all[r].hi <= addr[i])
			r++;
		if (r < nreal && all[r].lo <= addr[i] && end <= all[r].hi)
			continue;
		all[n].lo = addr[i] & ~(uint64_t)(ANALYZE_HEAPMAP_GRANULE - 1);
		all[n].hi = end;
		all[n++].name = NULL;
	}
	qsort(all, n, sizeof *all, hv_region_cmp);
	o = xcalloc(n + 1, sizeof *o);
	for (i = 0; i < n; i++) {
		if (k > 0 && (all[i].lo &
		    ~(uint64_t)(ANALYZE_HEAPMAP_GRANULE - 1)) < o[k - 1].hi) {
			if (all[i].hi > o[k - 1].hi)
				o[k - 1].hi = all[i].hi;
			if (o[k - 1].name == NULL)
				o[k - 1].name = all[i].name;
			continue;
		}
		o[k++] = all[i];
	}
	for (i = 0; i < k; i++)
		o[i].name = xstrdup(o[i].name != NULL ? o[i].name :
		    "unmapped");
	free(all);
	*out = o;
	return (k);
}

/*
 * A heap session from the store, on the heap kind's loader
 * (analyze_heap_snap_load, its graph and ingest's states taken over),
 * with what the map needs besides: the regions blocks live in, the
 * sites' stacks, the kept contents.  The regions are laid out as
 * analyze_heapview_regions does (a block outside every region gets one
 * of its own, "unmapped", so the map still shows it).  The map is not
 * made: analyze_heapview_map does that.
 */
int
analyze_heapview_load(struct store *st, int64_t session,
    struct analyze_heapview *v, char **cause)
{
	return (analyze_heapview_load_watched(st, session, v, NULL, cause));
}

/* The same, watched (analyze_heap_watch) from another thread. */
int
analyze_heapview_load_watched(struct store *st, int64_t session,
    struct analyze_heapview *v, struct analyze_heap_watch *w, char **cause)
{
	struct analyze_heap_snap	 m;
	struct store_cursor		*c;
	struct store_heap_block		 b;
	struct store_heap_region	 reg;
	struct analyze_heapmap_region	*rg = NULL;
	size_t				 nrg = 0, cap = 0, i, k;
	uint64_t			 kept = 0;
	uint32_t			 j;
	int				 rc;

	memset(v, 0, sizeof *v);
	if (analyze_heap_snap_load_watched(st, session, &m, w, cause) != 0)
		return (-1);
	v->program = xasprintf("session %lld", (long long)session);

	/* The regions, by address, and regions for blocks outside them. */
	if ((c = store_heap_regions(st, session)) == NULL)
		goto store;
	while ((rc = store_heap_region_next(c, &reg)) == 1) {
		if (nrg == cap) {
			cap = cap != 0 ? cap * 2 : 64;
			rg = xreallocarray(rg, cap, sizeof *rg);
		}
		rg[nrg].lo = reg.lo;
		rg[nrg].hi = reg.hi;
		rg[nrg++].name = xstrdup(strcmp(reg.kind, "heap") == 0 ?
		    "main heap" : reg.kind);
	}
	store_cursor_close(c);
	if (rc < 0)
		goto store;
	v->nregions = analyze_heapview_regions(rg, nrg, m.addr, m.usable,
	    m.nblocks, &v->regions);
	for (i = 0; i < nrg; i++)
		free(rg[i].name);
	free(rg);
	rg = NULL;
	nrg = 0;

	/* Blocks: the loader's arrays (its -1 is ANALYZE_HEAPVIEW_NONE). */
	v->nblocks = m.nblocks;
	v->addr = m.addr;
	v->size = m.size;
	v->usable = m.usable;
	v->seq = m.seq;
	v->type = (uint32_t *)m.type;
	v->site = (uint32_t *)m.site;
	m.addr = m.size = m.usable = m.seq = NULL;
	m.type = m.site = NULL;
	v->ntypes = m.ntypes;
	v->types = xcalloc(m.ntypes + 1, sizeof *v->types);
	for (j = 0; j < m.ntypes; j++) {
		v->types[j].module = (uint32_t)m.type_module[j];
		if ((v->types[j].site = m.type_site[j]) != 0)
			v->types[j].name = xasprintf(HS_SITE_PRE "%s)",
			    m.type_name[j]);
		else {
			v->types[j].name = m.type_name[j];
			m.type_name[j] = NULL;
		}
	}
	v->nmodules = m.nmodules;
	v->modules = xcalloc(m.nmodules + 1, sizeof *v->modules);
	for (j = 0; j < m.nmodules; j++) {
		v->modules[j].name = m.module_name[j];
		m.module_name[j] = NULL;
		v->modules[j].nimports = m.imp_off[j + 1] - m.imp_off[j];
		v->modules[j].imports = xreallocarray(NULL,
		    v->modules[j].nimports + 1, sizeof(uint32_t));
		memcpy(v->modules[j].imports, m.imp + m.imp_off[j],
		    v->modules[j].nimports * sizeof(uint32_t));
	}
	/* The Modules list's code and data: the loader keeps only names. */
	{
		struct store_heap_module	mod;

		if ((c = store_heap_modules(st, session)) == NULL)
			goto store;
		while ((rc = store_heap_module_next(c, &mod)) == 1) {
			if (mod.idx < 0 || (size_t)mod.idx >= v->nmodules)
				continue;
			v->modules[mod.idx].code_size = mod.code_size;
			v->modules[mod.idx].data_size = mod.data_size;
		}
		store_cursor_close(c);
		if (rc < 0)
			goto store;
	}
	/* Tasks: the threads' stacks and whether registers were read. */
	{
		struct store_heap_thread	th;
		struct analyze_heapview_thread	*t;

		if ((c = store_heap_threads(st, session)) == NULL)
			goto store;
		while ((rc = store_heap_thread_next(c, &th)) == 1) {
			if (v->nthreads == 0 || v->threads[v->nthreads -
			    1].tid != th.tid) {
				v->threads = xreallocarray(v->threads,
				    v->nthreads + 1, sizeof *v->threads);
				t = &v->threads[v->nthreads++];
				memset(t, 0, sizeof *t);
				t->tid = th.tid;
			}
			t = &v->threads[v->nthreads - 1];
			if (strcmp(th.kind, "registers") == 0)
				t->regs = 1;
			else {
				t->lo = th.lo;
				t->hi = th.hi;
			}
		}
		store_cursor_close(c);
		if (rc < 0)
			goto store;
	}
	v->nroots = m.nroots;
	v->roots = xcalloc(m.nroots + 1, sizeof *v->roots);
	for (j = 0; j < m.nroots; j++) {
		v->roots[j].name = m.root_name[j];
		m.root_name[j] = NULL;
		v->roots[j].symbol = m.root_symbol[j];
		m.root_symbol[j] = NULL;
		v->roots[j].module = (uint32_t)m.root_module[j];
	}
	v->graph = m.g;
	memset(&m.g, 0, sizeof m.g);
	v->graph_ready = 1;

	/* Sites' stacks, by index. */
	for (i = 0; i < v->nblocks; i++) {
		if (v->site[i] != ANALYZE_HEAPVIEW_NONE && v->site[i] + 1 >
		    v->nsites)
			v->nsites = v->site[i] + 1;
	}
	v->site_first = xcalloc(v->nsites + 1, sizeof *v->site_first);
	if (hv_stacks(st, session, v) != 0)
		goto store;

	/* Kept contents, when the snapshot kept any; rows come by index. */
	if ((c = store_heap_contents(st, session)) == NULL)
		goto store;
	cap = 0;
	k = 0;		/* data_off[0 .. k] are set */
	while ((rc = store_heap_contents_next(c, &b)) == 1) {
		if (b.idx < 0 || (size_t)b.idx >= v->nblocks ||
		    (v->data_off != NULL && (size_t)b.idx < k))
			continue;
		if (v->data_off == NULL)
			v->data_off = xcalloc(v->nblocks + 1,
			    sizeof *v->data_off);
		for (; k <= (size_t)b.idx; k++)
			v->data_off[k] = kept;
		if (kept + b.ncontents + 1 > cap) {
			cap = (kept + b.ncontents + 1) * 2;
			v->data = xreallocarray(v->data, cap, 1);
		}
		if (b.ncontents != 0)
			memcpy(v->data + kept, b.contents, b.ncontents);
		kept += b.ncontents;
		v->data_off[k] = kept;
	}
	store_cursor_close(c);
	if (rc < 0)
		goto store;
	for (; v->data_off != NULL && k <= v->nblocks; k++)
		v->data_off[k] = kept;
	analyze_heap_snap_free(&m);
	return (0);

store:
	*cause = xasprintf("session %lld: %s", (long long)session,
	    store_error(st));
	for (i = 0; rg != NULL && i < nrg; i++)
		free(rg[i].name);
	free(rg);
	analyze_heap_snap_free(&m);
	analyze_heapview_free(v);
	return (-1);
}

/* ---- Trace Module.Var.Field[Index] over the snapshot's DWARF --------- */

struct hv_dtype {
	char		*name;
	int		 kind;		/* HV_* */
	uint64_t	 size, count;
	int64_t		 target;
	size_t		 first, nfields;
};

struct hv_dfield {
	char		*name;
	uint64_t	 offset;
	int64_t		 dtype;
	int		 base;
};

struct hv_root {
	uint64_t	 addr;
	int64_t		 dst, dst_off;
};

struct hv_trace {
	struct store			*st;
	int64_t				 session;
	const struct analyze_heapview	*v;
	struct hv_dtype			*t;
	size_t				 nt;
	struct hv_dfield		*f;
	size_t				 nf;
	struct hv_root			*r;
	size_t				 nr;
};

#define HV_OTHER	0
#define HV_STRUCT	1
#define HV_UNION	2
#define HV_POINTER	3
#define HV_ARRAY	4

static int
hv_kind(const char *k)
{
	if (k == NULL)
		return (HV_OTHER);
	if (strcmp(k, "struct") == 0)
		return (HV_STRUCT);
	if (strcmp(k, "union") == 0)
		return (HV_UNION);
	if (strcmp(k, "pointer") == 0)
		return (HV_POINTER);
	if (strcmp(k, "array") == 0)
		return (HV_ARRAY);
	return (HV_OTHER);
}

static int
hv_root_cmp(const void *a, const void *b)
{
	const struct hv_root	*x = a, *y = b;

	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

static void
hv_trace_free(struct hv_trace *tr)
{
	size_t	i;

	for (i = 0; i < tr->nt; i++)
		free(tr->t[i].name);
	for (i = 0; i < tr->nf; i++)
		free(tr->f[i].name);
	free(tr->t);
	free(tr->f);
	free(tr->r);
}

/* Types, members and the root words, from the store. */
static int
hv_trace_load(struct hv_trace *tr)
{
	struct store_cursor	*c;
	struct store_heap_dtype	 t;
	struct store_heap_dfield f;
	struct store_heap_root	 o;
	size_t			 cap = 0, fcap = 0, rcap = 0;
	int			 rc;

	if ((c = store_heap_dtypes(tr->st, tr->session)) == NULL)
		return (-1);
	while ((rc = store_heap_dtype_next(c, &t)) == 1) {
		if (t.idx != (int64_t)tr->nt)
			break;
		if (tr->nt == cap) {
			cap = cap != 0 ? cap * 2 : 256;
			tr->t = xreallocarray(tr->t, cap, sizeof *tr->t);
		}
		memset(&tr->t[tr->nt], 0, sizeof *tr->t);
		tr->t[tr->nt].name = xstrdup(t.name != NULL ? t.name : "?");
		tr->t[tr->nt].kind = hv_kind(t.kind);
		tr->t[tr->nt].size = t.size;
		tr->t[tr->nt].count = t.count;
		tr->t[tr->nt++].target = t.target;
	}
	store_cursor_close(c);
	if (rc < 0 || (c = store_heap_dfields(tr->st, tr->session)) == NULL)
		return (-1);
	while ((rc = store_heap_dfield_next(c, &f)) == 1) {
		if (f.type < 0 || (size_t)f.type >= tr->nt)
			continue;
		if (tr->nf == fcap) {
			fcap = fcap != 0 ? fcap * 2 : 1024;
			tr->f = xreallocarray(tr->f, fcap, sizeof *tr->f);
		}
		/* Rows come by type: each type's members are one run. */
		if (tr->t[f.type].nfields == 0)
			tr->t[f.type].first = tr->nf;
		else if (tr->t[f.type].first + tr->t[f.type].nfields !=
		    tr->nf)
			continue;
		tr->t[f.type].nfields++;
		tr->f[tr->nf].name = xstrdup(f.name != NULL ? f.name : "");
		tr->f[tr->nf].offset = f.offset;
		tr->f[tr->nf].dtype = f.dtype < (int64_t)tr->nt ? f.dtype : -1;
		tr->f[tr->nf++].base = f.base;
	}
	store_cursor_close(c);
	if (rc < 0 || (c = store_heap_roots(tr->st, tr->session)) == NULL)
		return (-1);
	while ((rc = store_heap_root_next(c, &o)) == 1) {
		if (tr->nr == rcap) {
			rcap = rcap != 0 ? rcap * 2 : 1024;
			tr->r = xreallocarray(tr->r, rcap, sizeof *tr->r);
		}
		tr->r[tr->nr].addr = o.addr;
		tr->r[tr->nr].dst = o.dst;
		tr->r[tr->nr++].dst_off = o.dst_off;
	}
	store_cursor_close(c);
	if (rc < 0)
		return (-1);
	if (tr->nr > 0)
		qsort(tr->r, tr->nr, sizeof *tr->r, hv_root_cmp);
	return (0);
}

/*
 * Where the word at address a points: 1 with the block and the offset
 * into it, 0 if at no live block, -1 on a store error.  A word inside a
 * block is one of its pointers; any other is a root word.
 */
static int
hv_word(const struct hv_trace *tr, uint64_t a, int64_t *dst, int64_t *off)
{
	const struct analyze_heapview	*v = tr->v;
	size_t				 b, i;

	if ((b = analyze_heapmap_find(&v->map, a)) != SIZE_MAX) {
		if ((a - v->addr[b]) % 8 != 0)
			return (0);
		return (store_heap_ref_at(tr->st, tr->session, (int64_t)b,
		    (int64_t)(a - v->addr[b]), dst, off));
	}
	BSEARCH_FIRST(i, 0, tr->nr, tr->r[i].addr < a);
	if (i == tr->nr || tr->r[i].addr != a || tr->r[i].dst < 0 ||
	    (uint64_t)tr->r[i].dst >= v->nblocks)
		return (0);
	*dst = tr->r[i].dst;
	*off = tr->r[i].dst_off;
	return (1);
}

/* Member name of type t, looking into base classes and anonymous ones. */
static int
hv_member(const struct hv_trace *tr, int64_t t, const char *name, size_t n,
    uint64_t *off, int64_t *type, int depth)
{
	const struct hv_dtype	*x = &tr->t[t];
	const struct hv_dfield	*f;
	uint64_t		 o;
	size_t			 i;

	if (depth > 32 || (x->kind != HV_STRUCT && x->kind != HV_UNION))
		return (0);
	for (i = 0; i < x->nfields; i++) {
		f = &tr->f[x->first + i];
		if (!f->base && strlen(f->name) == n &&
		    strncmp(f->name, name, n) == 0) {
			*off = f->offset;
			*type = f->dtype;
			return (1);
		}
	}
	for (i = 0; i < x->nfields; i++) {
		f = &tr->f[x->first + i];
		if ((f->base || *f->name == '\0') && f->dtype >= 0 &&
		    hv_member(tr, f->dtype, name, n, &o, type, depth + 1)) {
			*off = f->offset + o;
			return (1);
		}
	}
	return (0);
}

static void
hv_hit(struct analyze_heapview_hit **hits, size_t *n, size_t *cap,
    uint64_t at, int64_t dst, int64_t off)
{
	if (*n == *cap) {
		*cap = *cap != 0 ? *cap * 2 : 16;
		*hits = xreallocarray(*hits, *cap, sizeof **hits);
	}
	(*hits)[*n].at = at;
	(*hits)[*n].block = (uint32_t)dst;
	(*hits)[(*n)++].into = (uint64_t)off;
}

/*
 * HeapInspector's Trace over DWARF: path is [MODULE:]VAR{.FIELD|[INDEX]}, a
 * variable of a module with debug information and then members (a
 * pointer is followed to its target first, as Oberon's Var.Field does)
 * and elements (of an array, or of the blocks a pointer points to, as
 * C's p[i]).  *hits gets the pointer words of the place the path ends
 * at: one for a pointer, each element's for an array, each member's for
 * a struct, with where they point.  0 on success; 1 when no module's
 * DWARF has the variable (the caller says so, or treats the name as a
 * plain root); -1 with *cause when the path is wrong or runs into NIL.
 */
int
analyze_heapview_trace(struct store *st, int64_t session,
    const struct analyze_heapview *v, const char *path,
    struct analyze_heapview_hit **hits, size_t *nhits, char **cause)
{
	struct hv_trace		 tr;
	struct store_cursor	*c;
	struct store_heap_dvar	 dv;
	const char		*p = path, *colon = NULL, *name, *q;
	char			*mod = NULL, *end;
	uint64_t		 a = 0, off, idx, es, w;
	int64_t			 t = -1, dst, dso;
	uint32_t		 m = HS_NONE;
	size_t			 n, found = 0, cap = 0;
	int			 rc = -1;

	*hits = NULL;
	*nhits = 0;
	memset(&tr, 0, sizeof tr);
	tr.st = st;
	tr.session = session;
	tr.v = v;
	/* module:var, where a C++ name's "::" is no module's colon. */
	for (q = path; *q != '\0' && *q != '.' && *q != '['; q++) {
		if (*q == ':' && q[1] == ':')
			q++;
		else if (*q == ':') {
			colon = q;
			break;
		}
	}
	if (colon != NULL) {
		mod = xasprintf("%.*s", (int)(colon - path), path);
		if ((m = analyze_heapview_module(v, mod)) == HS_NONE) {
			*cause = xasprintf("%s: no module %s", path, mod);
			free(mod);
			return (-1);
		}
		free(mod);
		p = colon + 1;
	}
	name = p;
	n = strcspn(p, ".[");
	if (n == 0) {
		*cause = xasprintf("%s: a path is [MODULE:]VARIABLE{.FIELD|"
		    "[INDEX]}", path);
		return (-1);
	}
	if ((c = store_heap_dvars(st, session)) == NULL)
		goto store;
	while ((rc = store_heap_dvar_next(c, &dv)) == 1) {
		if (strlen(dv.name) != n || strncmp(dv.name, name, n) != 0 ||
		    (m != HS_NONE && dv.module != (int64_t)m))
			continue;
		if (found++ == 0) {
			a = dv.addr;
			t = dv.dtype;
		}
	}
	store_cursor_close(c);
	if (rc < 0)
		goto store;
	if (found == 0)
		return (1);
	if (found > 1) {
		*cause = xasprintf("%s: more than one module has %.*s: say"
		    " module:%.*s", path, (int)n, name, (int)n, name);
		return (-1);
	}
	if (hv_trace_load(&tr) != 0)
		goto store;
	rc = -1;
	p += n;
	while (*p != '\0') {
		if (t < 0 || (size_t)t >= tr.nt) {
			*cause = xasprintf("%s: at %s: of no known type", path,
			    p);
			goto out;
		}
		/* p.f and p[i] on a pointer: its target's. */
		if (tr.t[t].kind == HV_POINTER && (*p == '.' ||
		    *p == '[')) {
			if ((rc = hv_word(&tr, a, &dst, &dso)) < 0)
				goto store;
			if (rc == 0 || dst < 0 || (uint64_t)dst >=
			    v->nblocks) {
				rc = -1;
				*cause = xasprintf("%s: %.*s is NIL (points to"
				    " no live block)", path, (int)(p - path),
				    path);
				goto out;
			}
			rc = -1;
			a = v->addr[dst] + (uint64_t)dso;
			es = tr.t[t].target >= 0 && (size_t)tr.t[t].target <
			    tr.nt ? tr.t[tr.t[t].target].size : 0;
			t = tr.t[t].target;
			if (*p == '[') {
				idx = strtoull(p + 1, &end, 0);
				if (end == p + 1 || *end != ']') {
					*cause = xasprintf("%s: an index is"
					    " [NUMBER]", path);
					goto out;
				}
				if (es == 0 || (uint64_t)dso + (idx + 1) * es >
				    v->size[dst]) {
					*cause = xasprintf("%s: [%llu] is past"
					    " the %llu bytes of the block",
					    path, (unsigned long long)idx,
					    (unsigned long long)v->size[dst]);
					goto out;
				}
				a += idx * es;
				p = end + 1;
				continue;
			}
		}
		if (t < 0 || (size_t)t >= tr.nt) {
			*cause = xasprintf("%s: at %s: of no known type", path,
			    p);
			goto out;
		}
		if (*p == '.') {
			n = strcspn(p + 1, ".[");
			if (!hv_member(&tr, t, p + 1, n, &off, &t, 0)) {
				*cause = xasprintf("%s: %s has no member %.*s",
				    path, tr.t[t].name, (int)n, p + 1);
				goto out;
			}
			a += off;
			p += 1 + n;
		} else if (*p == '[') {
			idx = strtoull(p + 1, &end, 0);
			if (end == p + 1 || *end != ']') {
				*cause = xasprintf("%s: an index is [NUMBER]",
				    path);
				goto out;
			}
			if (tr.t[t].kind != HV_ARRAY) {
				*cause = xasprintf("%s: %.*s (%s) is neither an"
				    " array nor a pointer", path,
				    (int)(p - path), path, tr.t[t].name);
				goto out;
			}
			if (tr.t[t].count != 0 && idx >= tr.t[t].count) {
				*cause = xasprintf("%s: [%llu] is past the %llu"
				    " elements", path, (unsigned long long)idx,
				    (unsigned long long)tr.t[t].count);
				goto out;
			}
			t = tr.t[t].target;
			es = t >= 0 && (size_t)t < tr.nt ? tr.t[t].size : 0;
			a += idx * es;
			p = end + 1;
		} else {
			*cause = xasprintf("%s: at %s: a field is .NAME, an"
			    " index [NUMBER]", path, p);
			goto out;
		}
	}
	/* The pointer words of the place: one, or its elements' ... */
	es = t >= 0 && (size_t)t < tr.nt ? tr.t[t].size : 8;
	if (es < 8)
		es = 8;
	if (es > 8 * 65536)
		es = 8 * 65536;		/* a huge array: its first words */
	for (w = 0; w + 8 <= es; w += 8) {
		if ((rc = hv_word(&tr, a + w, &dst, &dso)) < 0)
			goto store;
		if (rc == 1)
			hv_hit(hits, nhits, &cap, w, dst, dso);
	}
	rc = 0;
	goto out;
store:
	*cause = xasprintf("session %lld: %s", (long long)session,
	    store_error(st));
	rc = -1;
out:
	hv_trace_free(&tr);
	if (rc != 0) {
		free(*hits);
		*hits = NULL;
		*nhits = 0;
	}
	return (rc);
}

static int
hv_class_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

static uint32_t
hv_class(const struct analyze_heapview *v, const char *name)
{
	size_t	i;

	BSEARCH_FIRST(i, 0, v->nclasses, strcmp(v->classes[i], name) < 0);
	return (i < v->nclasses && strcmp(v->classes[i], name) == 0 ?
	    (uint32_t)i : HS_NONE);
}

/*
 * Which classes derive from which, from the layouts ingest stored (each
 * inheritance a member marked base): what a trailing * of a type spec
 * takes.  A class is its name, the same in every unit that has it.  0, or
 * -1 on a store error (v then knows no derivation, as before).
 */
int
analyze_heapview_bases(struct store *st, int64_t session,
    struct analyze_heapview *v)
{
	struct hv_trace		 tr;
	const struct hv_dtype	*x;
	const struct hv_dfield	*f;
	uint32_t		(*e)[2] = NULL, *at, c, b, np, nv;
	const char		*m;
	size_t			 i, k, n = 0, ne = 0, cap = 0;
	int			 more;

	if (v->classes != NULL)
		return (0);
	memset(&tr, 0, sizeof tr);
	tr.st = st;
	tr.session = session;
	tr.v = v;
	if (hv_trace_load(&tr) != 0) {
		hv_trace_free(&tr);
		return (-1);
	}
	v->classes = xreallocarray(NULL, tr.nt + 1, sizeof *v->classes);
	for (i = 0; i < tr.nt; i++) {
		if (tr.t[i].kind == HV_STRUCT && *tr.t[i].name != '?')
			v->classes[n++] = tr.t[i].name;
	}
	qsort(v->classes, n, sizeof *v->classes, hv_class_cmp);
	for (i = k = 0; i < n; i++) {
		if (k == 0 || strcmp(v->classes[k - 1], v->classes[i]) != 0)
			v->classes[k++] = xstrdup(v->classes[i]);
	}
	v->nclasses = k;
	v->class_size = xcalloc(k + 1, sizeof *v->class_size);
	v->class_ptrs = xcalloc(k + 1, sizeof *v->class_ptrs);
	v->class_vptr = xcalloc(k + 1, 1);
	v->class_virt = xcalloc(k + 1, sizeof *v->class_virt);
	v->class_dtor = xcalloc(k + 1, 1);
	v->class_dtor_name = xcalloc(k + 1, sizeof *v->class_dtor_name);
	for (i = 0; i < tr.nt; i++) {
		x = &tr.t[i];
		if (x->kind != HV_STRUCT || *x->name == '?')
			continue;
		c = hv_class(v, x->name);
		/* Each unit has its copy, a declaration none: the largest. */
		if (x->size > v->class_size[c])
			v->class_size[c] = x->size;
		for (k = 0, np = 0, nv = 0; k < x->nfields; k++) {
			f = &tr.f[x->first + k];
			/* Methods: ingest's "~C()", "virtual f()" rows. */
			if (strchr(f->name, '(') != NULL) {
				v->class_methods = 1;
				nv += strncmp(f->name, "virtual ", 8) == 0;
				m = strncmp(f->name, "virtual ", 8) == 0 ?
				    f->name + 8 : f->name;
				if (*m == '~' && v->class_dtor_name[c] == NULL) {
					v->class_dtor[c] = 1;
					v->class_dtor_name[c] = xstrdup(m);
				}
			/* GCC's _vptr.C, clang's _vptr$C: the vtable's. */
			} else if (!f->base && strncmp(f->name, "_vptr", 5) == 0)
				v->class_vptr[c] = 1;
			else if (!f->base && f->dtype >= 0 &&
			    tr.t[f->dtype].kind == HV_POINTER)
				np++;
		}
		if (np > v->class_ptrs[c])
			v->class_ptrs[c] = np;
		if (nv > v->class_virt[c])
			v->class_virt[c] = nv;
		for (k = 0; k < x->nfields; k++) {
			f = &tr.f[x->first + k];
			if (!f->base || f->dtype < 0 ||
			    tr.t[f->dtype].kind != HV_STRUCT ||
			    (b = hv_class(v, tr.t[f->dtype].name)) == HS_NONE)
				continue;
			if (ne == cap) {
				cap = cap != 0 ? cap * 2 : 64;
				e = xreallocarray(e, cap, sizeof *e);
			}
			e[ne][0] = c;
			e[ne++][1] = b;
		}
	}
	hv_trace_free(&tr);
	v->class_base_off = xcalloc(v->nclasses + 1, sizeof
	    *v->class_base_off);
	v->class_base = xreallocarray(NULL, ne + 1, sizeof *v->class_base);
	for (i = 0; i < ne; i++)
		v->class_base_off[e[i][0] + 1]++;
	for (i = 0; i < v->nclasses; i++)
		v->class_base_off[i + 1] += v->class_base_off[i];
	/* Counting sort by class: each one's bases a run. */
	at = xreallocarray(NULL, v->nclasses + 1, sizeof *at);
	memcpy(at, v->class_base_off, (v->nclasses + 1) * sizeof *at);
	for (i = 0; i < ne; i++)
		v->class_base[at[e[i][0]]++] = e[i][1];
	free(at);
	free(e);
	/* A base's vtable pointer is the derived class's: down the tree. */
	do {
		more = 0;
		for (c = 0; c < v->nclasses; c++) {
			for (k = v->class_base_off[c]; !v->class_vptr[c] &&
			    k < v->class_base_off[c + 1]; k++) {
				if (v->class_vptr[v->class_base[k]])
					more = v->class_vptr[c] = 1;
			}
			/* A base's destructor makes C's implicit one run. */
			for (k = v->class_base_off[c]; !v->class_dtor[c] &&
			    k < v->class_base_off[c + 1]; k++) {
				if (v->class_dtor[v->class_base[k]]) {
					v->class_dtor[c] = 2;
					more = 1;
				}
			}
		}
	} while (more);
	v->type_class = xreallocarray(NULL, v->ntypes + 1,
	    sizeof *v->type_class);
	for (i = 0; i < v->ntypes; i++)
		v->type_class[i] = v->types[i].site ? HS_NONE :
		    hv_class(v, v->types[i].name);
	return (0);
}

/*
 * The snapshot's descriptors (vtables and modules' data), read from the
 * store once; a vtable's refs are the live objects of its class.
 */
int
analyze_heapview_descs(struct store *st, int64_t session,
    struct analyze_heapview *v)
{
	struct store_cursor		*c;
	struct store_heap_desc		 r;
	struct analyze_heapview_desc	*d;
	size_t				 cap = 0, n = 0, i;
	uint64_t			*count;
	int				 rc;

	if (v->descs != NULL)
		return (0);
	if ((c = store_heap_descs(st, session)) == NULL)
		return (-1);
	while ((rc = store_heap_desc_next(c, &r)) == 1) {
		if (n == cap) {
			cap = cap != 0 ? 2 * cap : 64;
			v->descs = xreallocarray(v->descs, cap,
			    sizeof *v->descs);
		}
		d = &v->descs[n++];
		d->data = r.data;
		d->type = r.type >= 0 && (uint64_t)r.type < v->ntypes ?
		    (uint32_t)r.type : ANALYZE_HEAPVIEW_NONE;
		d->name = xstrdup(r.name != NULL ? r.name : "");
		d->module = r.module >= 0 && (uint64_t)r.module < v->nmodules ?
		    (uint32_t)r.module : ANALYZE_HEAPVIEW_NONE;
		d->addr = r.addr;
		d->size = r.size > 0 ? (uint64_t)r.size : 0;
		d->refs = r.roots;
	}
	store_cursor_close(c);
	v->ndescs = n;
	if (rc != 0) {
		hs_descs_free(v);
		return (-1);
	}
	/* An empty list, read: not NULL. */
	if (v->descs == NULL)
		v->descs = xcalloc(1, sizeof *v->descs);
	count = xcalloc(v->ntypes + 1, sizeof *count);
	for (i = 0; i < v->nblocks; i++) {
		if (v->type[i] < v->ntypes)
			count[v->type[i]]++;
	}
	for (i = 0; i < n; i++) {
		if (!v->descs[i].data)
			v->descs[i].refs = v->descs[i].type ==
			    ANALYZE_HEAPVIEW_NONE ? 0 : count[v->descs[i].type];
	}
	free(count);
	return (0);
}

/*
 * The vtables among the descriptors (analyze_heapview_descs) a type spec
 * names, in sel[] (a byte per descriptor): [Module].[Type][*], as
 * analyze_heapview_types takes it, "Module." every vtable of the module.
 * A vtable a live object used is its type's; one no object uses matches
 * by its class's name (and derivation, for *).  How many matched.
 */
size_t
analyze_heapview_vtables(const struct analyze_heapview *s, const char *spec,
    uint8_t *sel)
{
	const struct analyze_heapview_desc *d;
	const char	*t;
	uint8_t		*tm, *c = NULL;
	char		*q;
	uint32_t	 m = HS_NONE, k;
	size_t		 i, n, len, best = 0, count = 0;
	int		 star, whole = 0;

	if (*spec == '.')
		spec++;
	q = xstrdup(spec);
	len = strlen(q);
	/* "Module.": the module's, all of them. */
	if (len > 0 && q[len - 1] == '.') {
		q[--len] = '\0';
		whole = 1;
	}
	star = !whole && len > 0 && q[len - 1] == '*';
	tm = xcalloc(s->ntypes + 1, 1);
	if (!whole)
		analyze_heapview_types(s, q, tm);
	n = len - (size_t)star;
	t = q;
	for (k = 0; k < s->nmodules; k++) {
		i = strlen(s->modules[k].name);
		if (whole ? i == n && strncmp(q, s->modules[k].name, n) == 0 :
		    i > best && i < n && strncmp(q, s->modules[k].name, i) ==
		    0 && q[i] == '.') {
			best = i;
			m = k;
			t = whole ? NULL : q + i + 1;
		}
	}
	/* A module's name alone: its vtables, as its types. */
	if (!whole && m == HS_NONE) {
		t = xasprintf("%.*s", (int)n, q);
		m = analyze_heapview_module(s, t);
		free((char *)t);
		t = q;
		whole = m != HS_NONE;
	}
	/* "." alone: both sides empty, every vtable. */
	if (len == 0) {
		for (i = 0; i < s->ndescs; i++)
			count += sel[i] = !s->descs[i].data;
		goto done;
	}
	if (whole && m == HS_NONE)
		goto done;
	if (whole)
		t = NULL;
	if (t != NULL)
		n -= (size_t)(t - q);
	if (star && t != NULL && s->classes != NULL && s->nclasses != 0)
		c = hs_derived_classes(s, t, n, tm);
	for (i = 0; i < s->ndescs; i++) {
		d = &s->descs[i];
		if (d->data)
			sel[i] = 0;
		else if (whole)
			sel[i] = d->module == m;
		else if (d->type != HS_NONE)
			sel[i] = tm[d->type];
		else {
			sel[i] = (m == HS_NONE || d->module == m) &&
			    hs_type_match(d->name, t, n, 0);
			for (k = 0; c != NULL && !sel[i] && k < s->nclasses;
			    k++)
				sel[i] = c[k] && strcmp(s->classes[k],
				    d->name) == 0;
		}
		count += sel[i];
	}
done:
	free(c);
	free(tm);
	free(q);
	return (count);
}
