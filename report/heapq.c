/*
 * profview heap SESSION QUESTION [ARGS]: HeapInspector's questions of a
 * heap session, answered from the snapshot loaded once (analyze/heapview.c)
 * as one table in any report format, for scripts:
 *
 *	collectable			memcheck's definitely + indirectly lost
 *	leaks [bottom-up|top-down]	lost blocks by allocation stack
 *	live [bottom-up|top-down]	every live block by allocation stack
 *	reachable ADDR|ROOT		what it reaches (itself included)
 *	reached-from ADDR		the roots and blocks that reach it
 *	anchored-by ROOT|ADDR		what clearing it would free
 *	test-unload MODULE...		what unloading them would free
 *	by-type [MODULE.TYPE*]		objects by type (those the pattern names)
 *	by-module, sizes		objects grouped
 *	find STRING [POS]		blocks whose kept bytes hold STRING
 *	trace PATH			where module:var.field[3].next points
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "report/report.h"
#include "report/heap.h"
#include "store/heap.h"

static const struct report_col heapq_block_cols[] = {
	{ "block", "block", 0, 0, 0 },
	{ "addr", "address", REPORT_HEX, 12, 0 },
	{ "size", "size", 0, 0, 0 },
	{ "usable", "usable", 0, 0, 0 },
	{ "state", "state", 0, 0, 0 },
	{ "type", "type", 0, 0, 40 },
};
#define HEAPQ_BLOCK_COLS	(sizeof heapq_block_cols / sizeof heapq_block_cols[0])

static const struct report_col heapq_node_cols[] = {
	{ "kind", "kind", 0, 0, 0 },
	{ "block", "block", 0, 0, 0 },
	{ "addr", "address", REPORT_HEX, 12, 0 },
	{ "size", "size", 0, 0, 0 },
	{ "name", "type or root", 0, 0, 48 },
};
#define HEAPQ_NODE_COLS	(sizeof heapq_node_cols / sizeof heapq_node_cols[0])

static const struct report_col heapq_group_cols[] = {
	{ "name", "", 0, 0, 48 },
	{ "objects", "objects", 0, 0, 0 },
	{ "bytes", "bytes", 0, 0, 0 },
	{ "usable", "with fragmentation", 0, 0, 0 },
};
#define HEAPQ_GROUP_COLS (sizeof heapq_group_cols / sizeof heapq_group_cols[0])

static const char *const heapq_state[ANALYZE_HEAP_NSTATES] = {
	"unreached", "reachable", "possible", "definite", "indirect"
};

struct heapq {
	struct store			*st;
	int64_t			 session;
	struct analyze_heapview	 v;
	struct report_out		 out;
	struct report_doc		 doc;
	struct report_table		 t;
	const struct report_table	*tables[1];
	char				*title;
	char				*cause;
};

static const char *
heapq_type(const struct analyze_heapview *v, uint32_t b)
{
	return (v->type[b] != ANALYZE_HEAPVIEW_NONE &&
	    !v->types[v->type[b]].site ? v->types[v->type[b]].name : "");
}

static void
heapq_begin(struct heapq *q, FILE *f, int format, const char *name,
    const struct report_col *cols, size_t ncols, const char *empty)
{
	q->t.name = name;
	q->t.title = q->title;
	q->t.shape = REPORT_ROWS;
	q->t.flags = 0;
	q->t.cols = cols;
	q->t.ncols = ncols;
	q->t.empty = empty;
	q->t.bar = -1;
	q->t.max_rows = 0;
	q->tables[0] = &q->t;
	q->doc.title = q->title;
	q->doc.bare = 1;
	q->doc.tables = q->tables;
	q->doc.ntables = 1;
	report_begin(&q->out, f, format, &q->doc);
	report_table(&q->out, &q->t);
}

static void
heapq_block_row(struct heapq *q, uint32_t b)
{
	const struct analyze_heapview	*v = &q->v;
	struct report_cell		 c[HEAPQ_BLOCK_COLS];

	c[0] = report_int(b);
	c[1] = report_int((int64_t)v->addr[b]);
	c[2] = report_int((int64_t)v->size[b]);
	c[3] = report_int((int64_t)v->usable[b]);
	c[4] = report_str(heapq_state[v->graph.state[b]]);
	c[5] = report_str(heapq_type(v, b));
	report_row(&q->out, c);
}

/* Every block marked (node ids, nnodes bytes), in address order. */
static void
heapq_blocks(struct heapq *q, const uint8_t *mark)
{
	uint32_t	b, base = 1 + (uint32_t)q->v.nroots;

	for (b = 0; b < q->v.nblocks; b++) {
		if (mark[base + b])
			heapq_block_row(q, b);
	}
}

/* Parse an address: hexadecimal, 0x before it or not. */
static int
heapq_addr(const char *s, uint64_t *v)
{
	char	*end;

	errno = 0;
	*v = strtoull(s, &end, 16);
	return (errno != 0 || *s == '\0' || *end != '\0' ? -1 : 0);
}

/* The node an argument names: a block by an address in it, or a root. */
static int64_t
heapq_node(struct heapq *q, const char *arg, int roots)
{
	uint64_t	a;
	uint32_t	r;
	size_t		b;
	int		many;

	if (roots && (r = analyze_heapview_root(&q->v, arg, &many)) !=
	    ANALYZE_HEAPVIEW_NONE)
		return (1 + (int64_t)r);
	if (roots && many) {
		q->cause = xasprintf("%s: more than one variable has that"
		    " name: say module:%s, or a C++ one's whole name", arg,
		    arg);
		return (-1);
	}
	if (heapq_addr(arg, &a) == 0) {
		if ((b = analyze_heapmap_find(&q->v.map, a)) != SIZE_MAX)
			return (1 + (int64_t)q->v.nroots + (int64_t)b);
		q->cause = xasprintf("%s: no live block holds this address",
		    arg);
		return (-1);
	}
	q->cause = xasprintf("%s: neither an address (hex) nor %s", arg,
	    roots ? "a root (module:variable)" : "a block");
	return (-1);
}

/* Types and modules by bytes, most first; sizes by size. */
static int
heapq_sum_cmp(const void *a, const void *b)
{
	const struct analyze_heapview_sum	*x = a, *y = b;

	if (x->bytes != y->bytes)
		return (x->bytes < y->bytes ? 1 : -1);
	return (x->key < y->key ? -1 : x->key > y->key);
}

/*
 * ObjectsByType, ObjectsByModule or ObjectSizes (heapview.c's sums); by
 * type, only the types spec matches (analyze_heapview_types) if given.
 */
static void
heapq_groups(struct heapq *q, FILE *f, int format, const char *name,
    const char *what, int by, const char *spec)
{
	const struct analyze_heapview	*v = &q->v;
	struct analyze_heapview_sum	*g;
	struct report_col		 cols[HEAPQ_GROUP_COLS];
	struct report_cell		 c[HEAPQ_GROUP_COLS];
	char				*label;
	uint8_t				*match = NULL;
	size_t				 i, k, ng;

	memcpy(cols, heapq_group_cols, sizeof cols);
	cols[0].title = what;
	ng = analyze_heapview_sums(v, by, &g);
	if (spec != NULL) {
		match = xcalloc(v->ntypes + 1, 1);
		analyze_heapview_types(v, spec, match);
		for (i = k = 0; i < ng; i++) {
			if (g[i].key != ANALYZE_HEAPVIEW_NONE &&
			    match[g[i].key])
				g[k++] = g[i];
		}
		ng = k;
		free(match);
	}
	if (by != ANALYZE_HEAPVIEW_BY_SIZE)
		qsort(g, ng, sizeof *g, heapq_sum_cmp);
	heapq_begin(q, f, format, name, cols, HEAPQ_GROUP_COLS, "no blocks");
	for (i = 0; i < ng; i++) {
		/* A size key k > 0 is [2^(k-1), 2^k). */
		if (by == ANALYZE_HEAPVIEW_BY_SIZE)
			label = g[i].key <= 1 ? xasprintf("%u", g[i].key) :
			    xasprintf("%llu-%llu",
			    (unsigned long long)1 << (g[i].key - 1),
			    ((unsigned long long)1 << (g[i].key - 1)) * 2 - 1);
		else if (g[i].key == ANALYZE_HEAPVIEW_NONE)
			label = xstrdup(by == ANALYZE_HEAPVIEW_BY_TYPE ?
			    "(no type)" : "(no module)");
		else
			label = xstrdup(by == ANALYZE_HEAPVIEW_BY_TYPE ?
			    v->types[g[i].key].name :
			    v->modules[g[i].key].name);
		c[0] = report_str(label);
		c[1] = report_int((int64_t)g[i].blocks);
		c[2] = report_int((int64_t)g[i].bytes);
		c[3] = report_int((int64_t)g[i].usable);
		report_row(&q->out, c);
		free(label);
	}
	free(g);
}

static const struct report_col heapq_trace_cols[] = {
	{ "offset", "word at", 0, 0, 0 },
	{ "block", "points to block", 0, 0, 0 },
	{ "addr", "address", REPORT_HEX, 12, 0 },
	{ "into", "at offset", 0, 0, 0 },
	{ "type", "type", 0, 0, 40 },
};
#define HEAPQ_TRACE_COLS (sizeof heapq_trace_cols / sizeof heapq_trace_cols[0])

/*
 * trace PATH: [MODULE:]VAR{.FIELD|[INDEX]} through the snapshot's DWARF
 * (analyze_heapview_trace), the pointer words where the path ends and
 * the blocks they point to.  A variable no module's DWARF describes is
 * a plain root: ROOT or ROOT[INDEX], its pointer words (word INDEX
 * alone: the INDEX-th pointer-sized word); fields of it are refused,
 * saying why.
 */
static int
heapq_trace(struct heapq *q, FILE *f, int format, const char *path)
{
	struct store_cursor		*cur;
	struct store_heap_root		 o;
	struct report_cell		 c[HEAPQ_TRACE_COLS];
	struct analyze_heapview_hit	*hits;
	char				*name, *br, *end, *key;
	int64_t				 index = -1;
	uint32_t			 r;
	size_t				 nhits, i;
	int				 rc, same, many;

	rc = analyze_heapview_trace(q->st, q->session, &q->v, path, &hits,
	    &nhits, &q->cause);
	if (rc < 0)
		return (-1);
	if (rc == 0) {
		q->title = xasprintf("session %lld: where %s points",
		    (long long)q->session, path);
		heapq_begin(q, f, format, "trace", heapq_trace_cols,
		    HEAPQ_TRACE_COLS, "NIL: it points to no live block");
		for (i = 0; i < nhits; i++) {
			c[0] = report_int((int64_t)hits[i].at);
			c[1] = report_int(hits[i].block);
			c[2] = report_int((int64_t)q->v.addr[hits[i].block]);
			c[3] = report_int((int64_t)hits[i].into);
			c[4] = report_str(heapq_type(&q->v, hits[i].block));
			report_row(&q->out, c);
		}
		free(hits);
		return (0);
	}
	name = xstrdup(path);
	if ((br = strchr(name, '[')) != NULL) {
		errno = 0;
		index = strtoll(br + 1, &end, 0);
		if (errno != 0 || end == br + 1 || strcmp(end, "]") != 0 ||
		    index < 0) {
			q->cause = xasprintf("%s: an index is [NUMBER]", path);
			free(name);
			return (-1);
		}
		*br = '\0';
	}
	if ((r = analyze_heapview_root(&q->v, name, &many)) ==
	    ANALYZE_HEAPVIEW_NONE) {
		q->cause = many ? xasprintf("%s: more than one module has"
		    " it: say module:%s", name, name) : strchr(name, '.') !=
		    NULL ? xasprintf("%s: no variable of that name in the"
		    " DWARF of the snapshot's modules (fields of a variable"
		    " need the program built with -g, unchanged since the"
		    " snapshot)", path) : xasprintf("%s: no such root"
		    " (module:variable)", name);
		free(name);
		return (-1);
	}
	q->title = xasprintf("session %lld: where %s points",
	    (long long)q->session, path);
	heapq_begin(q, f, format, "trace", heapq_trace_cols, HEAPQ_TRACE_COLS,
	    "NIL: it points to no live block");
	if ((cur = store_heap_roots(q->st, q->session)) == NULL) {
		free(name);
		return (0);
	}
	while ((rc = store_heap_root_next(cur, &o)) == 1) {
		key = analyze_heap_snap_root_key(&o);
		same = strcmp(key, q->v.roots[r].name) == 0;
		free(key);
		if (!same || o.dst < 0 || (uint64_t)o.dst >= q->v.nblocks)
			continue;
		if (index >= 0 && o.name_off != index * 8)
			continue;
		c[0] = report_int(o.name_off);
		c[1] = report_int(o.dst);
		c[2] = report_int((int64_t)q->v.addr[o.dst]);
		c[3] = report_int(o.dst_off);
		c[4] = report_str(heapq_type(&q->v, (uint32_t)o.dst));
		report_row(&q->out, c);
	}
	store_cursor_close(cur);
	free(name);
	return (0);
}

/*
 * leaks and live [bottom-up|top-down]: memcheck's loss records (lost
 * blocks, or every live one, merged by allocation stack and state) by
 * bytes, or heaptrack's trees over them.
 */
static int
heapq_leaks(struct heapq *q, FILE *f, int format, const char *what,
    const char *shape)
{
	struct analyze_heapleaks	 l;
	int				 all, sh;

	all = strcasecmp(what, "live") == 0;
	if (shape == NULL)
		sh = ANALYZE_HEAPLEAKS_FLAT;
	else if (strcasecmp(shape, "bottom-up") == 0)
		sh = ANALYZE_HEAPLEAKS_BOTTOM_UP;
	else if (strcasecmp(shape, "top-down") == 0)
		sh = ANALYZE_HEAPLEAKS_TOP_DOWN;
	else {
		q->cause = xasprintf("%s: %s comes flat, bottom-up or"
		    " top-down", shape, what);
		return (-1);
	}
	analyze_heapleaks_make(&l, &q->v, all, sh);
	q->title = xasprintf("session %lld: %s by allocation stack%s"
	    " (%llu blocks, %llu bytes)", (long long)q->session, all ?
	    "live blocks" : "lost blocks", sh == ANALYZE_HEAPLEAKS_BOTTOM_UP ?
	    ", bottom-up" : sh == ANALYZE_HEAPLEAKS_TOP_DOWN ? ", top-down" :
	    "", (unsigned long long)l.blocks, (unsigned long long)l.bytes);
	heapq_begin(q, f, format, all ? "live" : "leaks",
	    report_heap_leak_cols, REPORT_HEAP_LEAK_COLS, all ?
	    "no live blocks" : "no leaks: nothing is lost");
	report_heap_leak_rows(&q->out, &l, &q->v, 0);
	analyze_heapleaks_free(&l);
	return (0);
}

/* A question's rows into q->out; -1 with q->cause when it is wrong. */
static int
heapq_ask(struct heapq *q, FILE *f, int format, char **argv, int argc)
{
	struct analyze_heapview		*v = &q->v;
	struct analyze_heap		*g = &v->graph;
	const char			*what = argv[0];
	uint8_t				*mark, *drop, *unloaded;
	uint32_t			 from, b, r, k, base = 1 + (uint32_t)v->nroots;
	struct report_cell		 c[HEAPQ_NODE_COLS];
	int64_t				 node, pos;
	size_t				 n, i;
	char				*end;

	mark = xcalloc((size_t)g->nnodes + 1, 1);
	if (strcasecmp(what, "collectable") == 0 && argc == 1) {
		q->title = xasprintf("session %lld: collectable blocks"
		    " (definitely + indirectly lost)", (long long)q->session);
		heapq_begin(q, f, format, "collectable", heapq_block_cols,
		    HEAPQ_BLOCK_COLS, "nothing is collectable");
		for (b = 0; b < v->nblocks; b++) {
			if (g->state[b] == ANALYZE_HEAP_DEFINITE ||
			    g->state[b] == ANALYZE_HEAP_INDIRECT)
				heapq_block_row(q, b);
		}
	} else if ((strcasecmp(what, "leaks") == 0 ||
	    strcasecmp(what, "live") == 0) && argc <= 2) {
		if (heapq_leaks(q, f, format, what, argc == 2 ? argv[1] :
		    NULL) != 0)
			goto bad;
	} else if ((strcasecmp(what, "reachable") == 0 ||
	    strcasecmp(what, "anchored-by") == 0) && argc == 2) {
		if ((node = heapq_node(q, argv[1], 1)) < 0)
			goto bad;
		from = (uint32_t)node;
		if (tolower((unsigned char)what[0]) == 'r') {
			analyze_heap_reach(g, &from, 1, 0, NULL, mark);
			q->title = xasprintf("session %lld: blocks reachable"
			    " from %s", (long long)q->session, argv[1]);
		} else {
			analyze_heap_anchored_by(g, from, mark);
			q->title = xasprintf("session %lld: blocks only %s"
			    " anchors (freed if it were cleared)",
			    (long long)q->session, argv[1]);
		}
		heapq_begin(q, f, format, what, heapq_block_cols,
		    HEAPQ_BLOCK_COLS, "none");
		heapq_blocks(q, mark);
	} else if (strcasecmp(what, "reached-from") == 0 && argc == 2) {
		if ((node = heapq_node(q, argv[1], 0)) < 0)
			goto bad;
		from = (uint32_t)node;
		analyze_heap_reach(g, &from, 1, 1, NULL, mark);
		q->title = xasprintf("session %lld: what reaches %s",
		    (long long)q->session, argv[1]);
		heapq_begin(q, f, format, "reached_from", heapq_node_cols,
		    HEAPQ_NODE_COLS, "nothing: it is collectable");
		for (r = 0; r < v->nroots; r++) {
			if (!mark[1 + r])
				continue;
			c[0] = report_str("root");
			c[1] = report_null();
			c[2] = report_null();
			c[3] = report_null();
			c[4] = report_str(v->roots[r].name);
			report_row(&q->out, c);
		}
		for (b = 0; b < v->nblocks; b++) {
			if (!mark[base + b] || base + b == from)
				continue;
			c[0] = report_str("block");
			c[1] = report_int(b);
			c[2] = report_int((int64_t)v->addr[b]);
			c[3] = report_int((int64_t)v->size[b]);
			c[4] = report_str(heapq_type(v, b));
			report_row(&q->out, c);
		}
	} else if (strcasecmp(what, "test-unload") == 0 && argc >= 2) {
		drop = xcalloc(v->nmodules + 1, 1);
		for (i = 1; i < (size_t)argc; i++) {
			if ((k = analyze_heapview_module(v, argv[i])) ==
			    ANALYZE_HEAPVIEW_NONE) {
				q->cause = xasprintf("%s: no such module (the"
				    " file name, as by-module shows it)",
				    argv[i]);
				free(drop);
				goto bad;
			}
			drop[k] = 1;
		}
		unloaded = xcalloc(v->nmodules + 1, 1);
		n = analyze_heapview_unload(v, drop, unloaded, mark);
		q->title = xasprintf("session %lld: blocks freed by unloading"
		    " %zu module%s (%zu blocks)", (long long)q->session,
		    (size_t)argc - 1, argc == 2 ? "" : "s", n);
		/* HeapInspector marks named ones ++, importers +: a column. */
		if (format == REPORT_TEXT || format == REPORT_HTML) {
			for (i = 0; i < v->nmodules; i++) {
				if (unloaded[i])
					fprintf(stderr, "unloaded: %s%s\n",
					    v->modules[i].name, drop[i] ?
					    " ++ (named)" : " + (imports one)");
			}
		}
		heapq_begin(q, f, format, "test_unload", heapq_block_cols,
		    HEAPQ_BLOCK_COLS, "nothing would be freed");
		heapq_blocks(q, mark);
		free(unloaded);
		free(drop);
	} else if (strcasecmp(what, "by-type") == 0 && argc <= 2) {
		q->title = argc == 2 ? xasprintf("session %lld: objects of"
		    " types %s", (long long)q->session, argv[1]) :
		    xasprintf("session %lld: objects by type",
		    (long long)q->session);
		heapq_groups(q, f, format, "by_type", "type",
		    ANALYZE_HEAPVIEW_BY_TYPE, argc == 2 ? argv[1] : NULL);
	} else if (strcasecmp(what, "by-module") == 0 && argc == 1) {
		q->title = xasprintf("session %lld: objects by module (of"
		    " their type)", (long long)q->session);
		heapq_groups(q, f, format, "by_module", "module",
		    ANALYZE_HEAPVIEW_BY_MODULE, NULL);
	} else if (strcasecmp(what, "sizes") == 0 && argc == 1) {
		q->title = xasprintf("session %lld: object sizes in powers of"
		    " two", (long long)q->session);
		heapq_groups(q, f, format, "sizes", "bytes",
		    ANALYZE_HEAPVIEW_BY_SIZE, NULL);
	} else if (strcasecmp(what, "find") == 0 && (argc == 2 || argc == 3)) {
		pos = 0;
		if (argc == 3) {
			errno = 0;
			pos = strtoll(argv[2], &end, 10);
			if (errno != 0 || *end != '\0' || pos < 0) {
				q->cause = xasprintf("%s: not a position",
				    argv[2]);
				goto bad;
			}
		}
		if (v->data_off == NULL) {
			q->cause = xasprintf("session %lld kept no contents:"
			    " snapshot with pvheap --contents",
			    (long long)q->session);
			goto bad;
		}
		/* Block marks fit in mark[] (a byte per node, more). */
		analyze_heapview_find(v, argv[1], strlen(argv[1]),
		    (uint64_t)pos, mark);
		q->title = xasprintf("session %lld: blocks with \"%s\" at %lld",
		    (long long)q->session, argv[1], (long long)pos);
		heapq_begin(q, f, format, "find", heapq_block_cols,
		    HEAPQ_BLOCK_COLS, "none");
		for (b = 0; b < v->nblocks; b++) {
			if (mark[b])
				heapq_block_row(q, b);
		}
	} else if (strcasecmp(what, "trace") == 0 && argc == 2) {
		if (heapq_trace(q, f, format, argv[1]) != 0)
			goto bad;
	} else {
		q->cause = xasprintf("%s: not a question, or not its arguments"
		    " (collectable, leaks [bottom-up|top-down], live"
		    " [bottom-up|top-down], reachable ADDR|ROOT, reached-from ADDR,"
		    " anchored-by ROOT|ADDR, test-unload MODULE..., by-type"
		    " [MODULE.TYPE*], by-module, sizes, find STRING [POS],"
		    " trace [MODULE:]VAR{.FIELD|[INDEX]})",
		    what);
		goto bad;
	}
	free(mark);
	return (0);
bad:
	free(mark);
	return (-1);
}

/* Answer argv (a question and its arguments) about heap session id. */
int
report_heap_question(struct store *st, int64_t id, char **argv, int argc,
    int format, FILE *f, char **cause)
{
	struct heapq	 q;
	int		 rc, i;

	if (!report_tabular(format)) {
		*cause = xasprintf("heap questions come as text, csv, json or"
		    " html, not %s", report_format_name(format));
		return (-1);
	}
	memset(&q, 0, sizeof q);
	q.st = st;
	q.session = id;
	/* The map too: it finds the block at an address. */
	if (analyze_heapview_load(st, id, &q.v, cause) != 0)
		return (-1);
	if (analyze_heapview_map(&q.v, cause) != 0) {
		analyze_heapview_free(&q.v);
		return (-1);
	}
	/* A type spec's trailing * takes derived classes, by the DWARF. */
	for (i = 0; i < argc; i++) {
		if (strchr(argv[i], '*') != NULL &&
		    analyze_heapview_bases(st, id, &q.v) != 0) {
			*cause = xasprintf("%s", store_error(st));
			analyze_heapview_free(&q.v);
			return (-1);
		}
	}
	if (heapq_ask(&q, f, format, argv, argc) != 0) {
		*cause = q.cause;
		rc = -1;
	} else {
		report_table_end(&q.out);
		rc = report_end(&q.out, cause);
	}
	free(q.title);
	analyze_heapview_free(&q.v);
	return (rc);
}
