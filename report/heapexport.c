/*
 * The heap kind's formats of its own, for tools others open:
 *
 * - heapsnapshot: Chrome DevTools' heap snapshot (the Memory tab's
 *   "Load"), the heap graph of analyze/heapgraph.c as V8 writes its own:
 *   flat arrays of node and edge fields and one table of strings.
 * - collapsed: collapsed stacks, one line per allocation site with live
 *   bytes, "outermost;...;innermost BYTES", as flamegraph.pl and
 *   speedscope read them.
 * - pprof: a sample per allocation site with what it allocated, holds
 *   and holds that is collectable (report/pprof.c writes the profile).
 *
 * The first two are streamed: nothing beyond the graph and the string
 * table is held, so a snapshot of a million blocks costs its graph and
 * no more; pprof's message is whole before it is packed, a sample per
 * site (sites, not blocks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "intern.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "report/report.h"
#include "report/heap.h"
#include "store/heap.h"

/*
 * The layout, as V8 describes it in each snapshot's meta.  Node and edge
 * types are indices into the first list of node_types and edge_types.
 */
#define HS_NODE_FIELDS	7	/* type name id self_size edge_count
				   trace_node_id detachedness */
#define HS_N_OBJECT	3
#define HS_N_NATIVE	8
#define HS_N_SYNTHETIC	9
#define HS_E_ELEMENT	1
#define HS_E_PROPERTY	2
#define HS_INTERIOR	0x80000000u	/* heapgraph.c's HG_WEAK */

static const char hs_meta[] =
    "{\"snapshot\":{\"meta\":{"
    "\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\","
    "\"trace_node_id\",\"detachedness\"],\n"
    "\"node_types\":[[\"hidden\",\"array\",\"string\",\"object\",\"code\","
    "\"closure\",\"regexp\",\"number\",\"native\",\"synthetic\","
    "\"concatenated string\",\"sliced string\",\"symbol\",\"bigint\","
    "\"object shape\"],\"string\",\"number\",\"number\",\"number\","
    "\"number\",\"number\"],\n"
    "\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],\n"
    "\"edge_types\":[[\"context\",\"element\",\"property\",\"internal\","
    "\"hidden\",\"shortcut\",\"weak\"],\"string_or_number\",\"node\"],\n"
    "\"trace_function_info_fields\":[\"function_id\",\"name\","
    "\"script_name\",\"script_id\",\"line\",\"column\"],\n"
    "\"trace_node_fields\":[\"id\",\"function_info_index\",\"count\","
    "\"size\",\"children\"],\n"
    "\"sample_fields\":[\"timestamp_us\",\"last_assigned_id\"],\n"
    "\"location_fields\":[\"object_index\",\"script_id\",\"line\","
    "\"column\"]},\n";

/* The snapshot's strings, each once, in the order first asked for. */
struct hs_strings {
	struct intern	  in;		/* string -> its index */
	char		**v;		/* in index order */
	uint32_t	  n;
	uint32_t	  vcap;
};

static uint32_t
hs_string(struct hs_strings *t, const char *s)
{
	uint32_t	i;
	int		made;

	i = intern(&t->in, s, t->n, &made);
	if (!made)
		return (i);
	if (t->n >= t->vcap) {
		t->vcap = t->vcap != 0 ? t->vcap * 2 : 256;
		t->v = xreallocarray(t->v, t->vcap, sizeof *t->v);
	}
	t->v[t->n++] = xstrdup(s);
	return (i);
}

static void
hs_strings_free(struct hs_strings *t)
{
	uint32_t	i;

	for (i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	intern_free(&t->in);
}

/*
 * Each allocation site's function as a string of t, by site index (-1
 * where none), in *names, and their count in *nnames.
 */
static int
hs_sites(struct store *st, int64_t session, struct hs_strings *t,
    int64_t **names, size_t *nnames, char **cause)
{
	struct store_cursor	*c;
	struct store_heap_site	 s;
	int64_t			*v = NULL;
	size_t			 n = 0, i;
	char			*fn;
	int			 rc;

	if ((c = store_heap_sites(st, session, -1, 0)) == NULL) {
		*cause = xasprintf("session %lld: cannot read its sites",
		    (long long)session);
		return (-1);
	}
	while ((rc = store_heap_site_next(c, &s)) == 1) {
		if (s.idx < 0 || s.idx >= INT32_MAX)
			continue;
		if ((size_t)s.idx >= n) {
			v = xreallocarray(v, (size_t)s.idx + 1, sizeof *v);
			for (i = n; i <= (size_t)s.idx; i++)
				v[i] = -1;
			n = (size_t)s.idx + 1;
		}
		if (s.function != NULL && *s.function != '\0')
			v[s.idx] = hs_string(t, s.function);
		else {
			fn = xasprintf("(site %lld)", (long long)s.idx);
			v[s.idx] = hs_string(t, fn);
			free(fn);
		}
	}
	store_cursor_close(c);
	if (rc < 0) {
		free(v);
		*cause = xasprintf("session %lld: cannot read its sites",
		    (long long)session);
		return (-1);
	}
	*names = v;
	*nnames = n;
	return (0);
}

/*
 * Chrome DevTools' heap snapshot of heap session ss.  Node 0 is the
 * snapshot's root, node 1 "(GC roots)" (DevTools looks for it), then the
 * graph's roots (profview's node r is the snapshot's r + 1) as the user
 * roots V8 makes of its global objects, reached from node 0 by a
 * property edge named for the variable or thread; then every block, an
 * object named for its type (a C++ class) or else its allocation site's
 * function.  Pointers are element edges; an interior pointer memcheck
 * does not excuse is a property edge named "(interior)".
 */
int
report_heap_snapshot(struct store *st, const struct store_session *ss,
    FILE *f, char **cause)
{
	struct analyze_heap_snap	 m;
	const struct analyze_heap	*g = &m.g;
	struct hs_strings		 t;
	int64_t				*site = NULL;
	size_t				 nsite = 0, e;
	uint32_t			*root_str = NULL, *type_str = NULL;
	uint32_t			 s_empty, s_gc, s_interior, s_nosite;
	uint32_t			 i, r, b, name, dst, type, k;
	int				 rc;

	if (analyze_heap_snap_load(st, ss->id, &m, cause) != 0)
		return (-1);
	memset(&t, 0, sizeof t);
	s_empty = hs_string(&t, "");
	s_gc = hs_string(&t, "(GC roots)");
	s_interior = hs_string(&t, "(interior)");
	s_nosite = hs_string(&t, "(no site)");
	if (hs_sites(st, ss->id, &t, &site, &nsite, cause) != 0) {
		hs_strings_free(&t);
		analyze_heap_snap_free(&m);
		return (-1);
	}
	root_str = xcalloc((size_t)m.nroots + 1, sizeof *root_str);
	for (r = 0; r < m.nroots; r++)
		root_str[r] = hs_string(&t, m.root_name[r]);
	type_str = xcalloc((size_t)m.ntypes + 1, sizeof *type_str);
	for (k = 0; k < m.ntypes; k++)
		type_str[k] = hs_string(&t, m.type_name[k]);

	fputs(hs_meta, f);
	fprintf(f, "\"node_count\":%lu,\"edge_count\":%lu,"
	    "\"trace_function_count\":0},\n\"nodes\":[",
	    (unsigned long)g->nnodes + 1, (unsigned long)g->nedges + 1);

	/* Nodes: type, name, id, self_size, edge_count, 0, 0. */
	fprintf(f, "%d,%u,1,0,%lu,0,0,\n%d,%u,3,0,0,0,0", HS_N_SYNTHETIC,
	    s_empty, (unsigned long)g->nroots + 1, HS_N_SYNTHETIC, s_gc);
	for (i = 1; i < g->nnodes; i++) {
		if (i <= g->nroots) {
			r = i - 1;
			type = m.root_module[r] >= 0 ? HS_N_OBJECT :
			    HS_N_NATIVE;
			name = root_str[r];
		} else {
			b = i - 1 - g->nroots;
			type = HS_N_OBJECT;
			if (m.type[b] >= 0)
				name = type_str[m.type[b]];
			else if (m.site[b] >= 0 && (size_t)m.site[b] < nsite &&
			    site[m.site[b]] >= 0)
				name = (uint32_t)site[m.site[b]];
			else
				name = s_nosite;
		}
		fprintf(f, ",\n%u,%u,%llu,%llu,%lu,0,0", type, name,
		    2 * (unsigned long long)(i + 1) + 1,
		    (unsigned long long)g->size[i],
		    (unsigned long)(g->out_off[i + 1] - g->out_off[i]));
	}

	/* Edges, a node's together, in node order: type, name, to_node. */
	fprintf(f, "],\n\"edges\":[%d,0,%d", HS_E_ELEMENT, HS_NODE_FIELDS);
	for (e = g->out_off[0]; e < g->out_off[1]; e++) {
		dst = g->out[e] & ~HS_INTERIOR;
		fprintf(f, ",\n%d,%u,%lu", HS_E_PROPERTY, root_str[dst - 1],
		    (unsigned long)(dst + 1) * HS_NODE_FIELDS);
	}
	for (i = 1; i < g->nnodes; i++) {
		for (e = g->out_off[i]; e < g->out_off[i + 1]; e++) {
			dst = g->out[e] & ~HS_INTERIOR;
			if (g->out[e] & HS_INTERIOR)
				fprintf(f, ",\n%d,%u", HS_E_PROPERTY,
				    s_interior);
			else
				fprintf(f, ",\n%d,%lu", HS_E_ELEMENT,
				    (unsigned long)(e - g->out_off[i]));
			fprintf(f, ",%lu",
			    (unsigned long)(dst + 1) * HS_NODE_FIELDS);
		}
	}
	fputs("],\n\"trace_function_info\":[],\"trace_tree\":[],"
	    "\"samples\":[],\"locations\":[],\n\"strings\":[", f);
	for (k = 0; k < t.n; k++) {
		if (k != 0)
			fputs(",\n", f);
		report_json_string(f, t.v[k], strlen(t.v[k]));
	}
	fputs("]}\n", f);

	free(root_str);
	free(type_str);
	free(site);
	hs_strings_free(&t);
	analyze_heap_snap_free(&m);
	rc = 0;
	if (fflush(f) != 0 || ferror(f)) {
		*cause = xasprintf("writing the heap snapshot failed");
		rc = -1;
	}
	return (rc);
}

/*
 * A frame for a collapsed stack: no semicolons, and no control
 * character (report_put_name: no line end, no escape sequence).
 */
static void
hs_frame(FILE *f, const char *s, size_t n)
{
	report_put_name(f, s, n, ',');
}

/*
 * Collapsed stacks of heap session ss: a line per allocation site that
 * holds live bytes, its stack (stored innermost first, a frame a line)
 * from the outermost frame, and the bytes.
 */
int
report_heap_collapsed(struct store *st, const struct store_session *ss,
    FILE *f, char **cause)
{
	struct store_cursor	*c;
	struct store_heap_site	 s;
	const char		*p, *q, *end;
	int			 rc, n;

	if ((c = store_heap_sites(st, ss->id, -1, 1)) == NULL) {
		*cause = xasprintf("session %lld: cannot read its sites",
		    (long long)ss->id);
		return (-1);
	}
	while ((rc = store_heap_site_next(c, &s)) == 1) {
		if (s.live_bytes == 0)
			continue;
		p = s.stack != NULL ? s.stack : "";
		end = p + strlen(p);
		while (end > p && end[-1] == '\n')
			end--;
		if (end == p) {
			/* No stack kept: the site's function alone. */
			p = s.function != NULL && *s.function != '\0' ?
			    s.function : "(unknown)";
			end = p + strlen(p);
		}
		/* Frames from the last line (outermost) back to the first. */
		n = 0;
		while (end > p) {
			for (q = end; q > p && q[-1] != '\n'; q--)
				;
			if (n++ != 0)
				fputc(';', f);
			hs_frame(f, q, (size_t)(end - q));
			end = q > p ? q - 1 : p;
		}
		fprintf(f, " %llu\n", (unsigned long long)s.live_bytes);
	}
	store_cursor_close(c);
	if (rc < 0) {
		*cause = xasprintf("session %lld: cannot read its sites",
		    (long long)ss->id);
		return (-1);
	}
	if (fflush(f) != 0 || ferror(f)) {
		*cause = xasprintf("writing the collapsed stacks failed");
		return (-1);
	}
	return (0);
}

/*
 * A stack line, "function (file:line)" or "function (module)", as pprof
 * wants it: a location in the module's mapping (made once, mapof), or
 * at a line of a source file.
 */
static uint64_t
hs_pprof_frame(struct report_pprof *p, struct intern *mods, uint64_t **mapof,
    size_t *nmaps, const char *s, size_t n)
{
	const char	*paren = NULL, *colon = NULL, *q;
	char		*fn, *in, *end;
	uint64_t	 loc, map = 0;
	uint32_t	 i;
	int64_t		 line = 0;
	int		 made;

	if (n > 0 && s[n - 1] == ')') {
		for (q = s + n - 1; q > s; q--) {
			if (q[0] == '(' && q[-1] == ' ') {
				paren = q;
				break;
			}
		}
	}
	if (paren == NULL) {
		fn = xasprintf("%.*s", (int)n, s);
		loc = report_pprof_location(p, 0, 0, fn, NULL, 0);
		free(fn);
		return (loc);
	}
	fn = xasprintf("%.*s", (int)(paren - 1 - s), s);
	in = xasprintf("%.*s", (int)(s + n - 2 - paren), paren + 1);
	if ((colon = strrchr(in, ':')) != NULL && colon[1] != '\0' &&
	    (line = strtoll(colon + 1, &end, 10)) > 0 && *end == '\0') {
		in[colon - in] = '\0';
		loc = report_pprof_location(p, 0, 0, fn, in, line);
	} else {
		i = intern(mods, in, (uint32_t)*nmaps, &made);
		if (made) {
			*mapof = xreallocarray(*mapof, *nmaps + 1,
			    sizeof **mapof);
			(*mapof)[(*nmaps)++] = report_pprof_mapping(p, in, 0, 0,
			    0);
		}
		map = (*mapof)[i];
		loc = report_pprof_location(p, map, 0, fn, NULL, 0);
	}
	free(fn);
	free(in);
	return (loc);
}

/*
 * pprof's heap profile of session ss (its header h): a sample per
 * allocation site, its stack innermost first as stored, with what it
 * allocated since the start, what is live and what of that is
 * collectable (definitely or indirectly lost) at the snapshot.
 */
int
report_heap_pprof(struct store *st, const struct store_session *ss,
    const struct store_heap *h, FILE *f, char **cause)
{
	struct report_pprof	*p = report_pprof_new();
	struct store_cursor	*c;
	struct store_heap_site	 s;
	struct intern		 mods;
	uint64_t		*mapof = NULL, *stk = NULL;
	size_t			 nmaps = 0, nstk, stkcap = 0;
	const char		*q, *e, *end;
	int64_t			 v[6];
	int			 rc;

	memset(&mods, 0, sizeof mods);
	report_pprof_type(p, "alloc_objects", "count");
	report_pprof_type(p, "alloc_space", "bytes");
	report_pprof_type(p, "inuse_objects", "count");
	report_pprof_type(p, "inuse_space", "bytes");
	report_pprof_type(p, "collectable_objects", "count");
	report_pprof_type(p, "collectable_space", "bytes");
	report_pprof_default(p, "inuse_space");
	/* Every allocation is seen: none is sampled. */
	report_pprof_period(p, "space", "bytes", 1);
	report_pprof_time(p, h->time_ns, h->started_ns != 0 &&
	    h->time_ns > h->started_ns ? h->time_ns - h->started_ns : 0);
	report_pprof_comment(p, "profview: pvheap snapshot, every allocation"
	    " seen; collectable: definitely or indirectly lost"
	    " (memcheck's rules)");
	if (h->cmdline != NULL)
		report_pprof_comment(p, h->cmdline);
	/* pprof names a profile after its first mapping: the program's. */
	if (ss->program != NULL) {
		intern(&mods, ss->program, 0, &rc);
		mapof = xreallocarray(NULL, 1, sizeof *mapof);
		mapof[nmaps++] = report_pprof_mapping(p, ss->program, 0, 0, 0);
	}
	if ((c = store_heap_sites(st, ss->id, -1, 1)) == NULL) {
		free(mapof);
		intern_free(&mods);
		report_pprof_free(p);
		*cause = xasprintf("session %lld: cannot read its sites",
		    (long long)ss->id);
		return (-1);
	}
	while ((rc = store_heap_site_next(c, &s)) == 1) {
		q = s.stack != NULL ? s.stack : "";
		end = q + strlen(q);
		nstk = 0;
		while (q < end) {
			if ((e = memchr(q, '\n', (size_t)(end - q))) == NULL)
				e = end;
			if (e > q) {
				if (nstk >= stkcap) {
					stkcap = stkcap != 0 ? stkcap * 2 : 64;
					stk = xreallocarray(stk, stkcap,
					    sizeof *stk);
				}
				stk[nstk++] = hs_pprof_frame(p, &mods, &mapof,
				    &nmaps, q, (size_t)(e - q));
			}
			q = e + 1;
		}
		if (nstk == 0) {
			/* No stack kept: the site's function alone. */
			stk = xreallocarray(stk, 1, sizeof *stk);
			stkcap = 1;
			stk[nstk++] = report_pprof_location(p, 0, 0,
			    s.function != NULL && *s.function != '\0' ?
			    s.function : "(unknown)", s.file, s.line);
		}
		v[0] = (int64_t)s.allocs;
		v[1] = (int64_t)s.bytes;
		v[2] = (int64_t)s.live_blocks;
		v[3] = (int64_t)s.live_bytes;
		v[4] = (int64_t)s.collectable_blocks;
		v[5] = (int64_t)s.collectable_bytes;
		report_pprof_sample(p, stk, nstk, v);
	}
	store_cursor_close(c);
	free(stk);
	free(mapof);
	intern_free(&mods);
	if (rc < 0) {
		report_pprof_free(p);
		*cause = xasprintf("session %lld: cannot read its sites",
		    (long long)ss->id);
		return (-1);
	}
	return (report_pprof_write(p, f, cause));
}
