/*
 * The heap snapshot report: the snapshot, a leak summary as memcheck
 * prints it (definitely, indirectly, possibly lost, still reachable),
 * and heaptrack's view of the allocation sites that hold the most live
 * bytes, with what of it is collectable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "report/report.h"
#include "report/heap.h"
#include "store/heap.h"

static const struct report_table heap_t_header = {
	"heap", "Snapshot", REPORT_OBJECT, REPORT_NOHEAD, report_kv_cols,
	REPORT_KV_COLS, NULL, -1, 0
};

static const struct report_col heap_leak_cols[] = {
	{ "kind", "", REPORT_MACHINE, 0, 0 },
	{ "what", "", REPORT_HUMAN, 0, 0 },
	{ "bytes", "bytes", 0, 0, 0 },
	{ "blocks", "blocks", 0, 0, 0 },
	{ "state", "state", 0, 0, 0 },
};
#define HEAP_LEAK_COLS	(sizeof heap_leak_cols / sizeof heap_leak_cols[0])

static const struct report_table heap_t_leaks = {
	"leak_summary", "Leak summary (memcheck's rules)", REPORT_ROWS, 0,
	heap_leak_cols, HEAP_LEAK_COLS, NULL, -1, 0
};

static const struct report_col heap_site_cols[] = {
	{ "site", "site", 0, 0, 0 },
	{ "function", "function", 0, 0, 32 },
	{ "module", "module", 0, 0, 20 },
	{ "source", "source", 0, 0, 24 },
	{ "live_blocks", "live", 0, 0, 0 },
	{ "live_bytes", "live bytes", 0, 0, 0 },
	{ "collectable_blocks", "", REPORT_MACHINE, 0, 0 },
	{ "collectable_bytes", "collectable", 0, 0, 0 },
	{ "peak_bytes", "peak", 0, 0, 0 },
	{ "allocs", "allocs", 0, 0, 0 },
	{ "frees", "frees", 0, 0, 0 },
	{ "bytes", "allocated", 0, 0, 0 },
	{ "stack", "", REPORT_MACHINE, 0, 0 },
};
#define HEAP_SITE_COLS	(sizeof heap_site_cols / sizeof heap_site_cols[0])

static const struct report_table heap_t_sites = {
	"sites", "Top allocation sites by live bytes", REPORT_ROWS, 0,
	heap_site_cols, HEAP_SITE_COLS, "no live blocks", -1, 0
};

/*
 * Loss records and the trees over them: depth and function for machines,
 * the row indented by its depth for people; a record's whole stack.
 */
const struct report_col report_heap_leak_cols[REPORT_HEAP_LEAK_COLS] = {
	{ "depth", "", REPORT_MACHINE, 0, 0 },
	{ "state", "state", 0, 0, 0 },
	{ "collectable", "", REPORT_MACHINE, 0, 0 },
	{ "blocks", "blocks", 0, 0, 0 },
	{ "bytes", "bytes", 0, 0, 0 },
	{ "function", "", REPORT_MACHINE, 0, 0 },
	{ "where", "allocated at", REPORT_HUMAN, 0, 0 },
	{ "stack", "", REPORT_MACHINE, 0, 0 },
};

/* The first max rows of l (0: all). */
void
report_heap_leak_rows(struct report_out *out,
    const struct analyze_heapleaks *l, const struct analyze_heapview *v,
    size_t max)
{
	const struct analyze_heapleak_row	*r;
	struct report_cell			 c[REPORT_HEAP_LEAK_COLS];
	char					*label, *where, *fn, *stack;
	size_t					 i;

	for (i = 0; i < l->nrows && (max == 0 || i < max); i++) {
		r = &l->rows[i];
		label = analyze_heapleaks_label(l, v, i, REPORT_HEAP_STACK_MAX);
		where = xasprintf("%*s%s", (int)r->depth * 2, "", label);
		stack = NULL;
		if (r->rec != ANALYZE_HEAPVIEW_NONE) {
			stack = label;
			fn = r->frame != ANALYZE_HEAPVIEW_NONE ?
			    xstrdup(v->frames[r->frame].function) :
			    xstrdup("(not known)");
		} else
			fn = label;
		c[0] = report_int(r->depth);
		/* A tree's row over records of several states has none. */
		if (r->state < ANALYZE_HEAP_NSTATES) {
			c[1] = report_str(analyze_heapleaks_state(r->state));
			c[2] = report_int(analyze_heapleaks_collectable(
			    r->state));
		} else
			c[1] = c[2] = report_null();
		c[3] = report_int((int64_t)r->blocks);
		c[4] = report_int((int64_t)r->bytes);
		c[5] = report_str(fn);
		c[6] = report_str(where);
		c[7] = stack != NULL ? report_str(stack) : report_null();
		report_row(out, c);
		if (fn != label)
			free(fn);
		free(label);
		free(where);
	}
}

static const struct report_table heap_t_lossrec = {
	"leaks", "Leaks by allocation stack (memcheck's loss records)",
	REPORT_ROWS, 0, report_heap_leak_cols, REPORT_HEAP_LEAK_COLS,
	"no leaks: nothing is lost", -1, 0
};

static void
heap_header(struct report_out *out, const struct store_heap *h)
{
	char	shown[64];

	report_table(out, &heap_t_header);
	report_kv_int(out, "pid", h->pid, "%lld", "the process");
	report_kv(out, "taken", report_str(h->taken), h->taken,
	    "what took the snapshot");
	report_kv_int(out, "serial", h->serial, "%lld",
	    "its number in the process (0 at exit)");
	report_kv_int(out, "time_ns", h->time_ns, "%lld",
	    "when, nanoseconds since 1970");
	snprintf(shown, sizeof shown, "%.1f ms", (double)h->stop_ns / 1e6);
	report_kv(out, "stop_ns", report_int(h->stop_ns), shown,
	    "how long the threads were stopped");
	report_kv_int(out, "allocations", h->seq, "%lld",
	    "allocations made up to the snapshot");
	report_kv_int(out, "blocks", h->blocks, "%lld", "live blocks");
	report_kv_int(out, "bytes", h->bytes, "%lld", "their bytes");
	report_kv_int(out, "pointers", h->refs, "%lld",
	    "between blocks");
	report_kv_int(out, "roots", h->roots, "%lld",
	    "pointers from globals, stacks and registers");
	report_table_end(out);
}

static void
heap_leak_row(struct report_out *out, const char *kind, const char *what,
    int64_t bytes, int64_t blocks, const char *state)
{
	struct report_cell	c[HEAP_LEAK_COLS];

	c[0] = report_str(kind);
	c[1] = report_str(what);
	c[2] = report_int(bytes);
	c[3] = report_int(blocks);
	c[4] = report_str(state);
	report_row(out, c);
}

static void
heap_leaks(struct report_out *out, const struct store_heap *h)
{
	report_table(out, &heap_t_leaks);
	heap_leak_row(out, "definite", "definitely lost", h->definite_bytes,
	    h->definite_blocks, "collectable");
	heap_leak_row(out, "indirect", "indirectly lost", h->indirect_bytes,
	    h->indirect_blocks, "collectable");
	heap_leak_row(out, "possible", "possibly lost", h->possible_bytes,
	    h->possible_blocks, "possible");
	heap_leak_row(out, "reachable", "still reachable", h->reachable_bytes,
	    h->reachable_blocks, "reachable");
	report_table_end(out);
}

static void
heap_sites(struct report_out *out, const struct analyze_heap_summary *m)
{
	const struct store_heap_site	*s;
	struct report_cell		 c[HEAP_SITE_COLS];
	const char			*mod;
	char				*src;
	size_t				 i;

	report_table(out, &heap_t_sites);
	for (i = 0; i < m->nsites; i++) {
		s = &m->sites[i];
		if (s->live_blocks == 0)
			continue;
		mod = s->module_path;
		if (mod != NULL && strrchr(mod, '/') != NULL)
			mod = strrchr(mod, '/') + 1;
		c[0] = report_int(s->idx);
		c[1] = s->function != NULL ? report_str(s->function) :
		    report_null();
		c[2] = mod != NULL ? report_str(mod) : report_null();
		/* The allocating line, from the module's DWARF. */
		src = s->file != NULL ? xasprintf("%s:%lld", s->file,
		    (long long)s->line) : NULL;
		c[3] = src != NULL ? report_str(src) : report_null();
		c[4] = report_int((int64_t)s->live_blocks);
		c[5] = report_int((int64_t)s->live_bytes);
		c[6] = report_int((int64_t)s->collectable_blocks);
		c[7] = report_int((int64_t)s->collectable_bytes);
		c[8] = report_int((int64_t)s->peak_bytes);
		c[9] = report_int((int64_t)s->allocs);
		c[10] = report_int((int64_t)s->frees);
		c[11] = report_int((int64_t)s->bytes);
		c[12] = s->stack != NULL ? report_str(s->stack) :
		    report_null();
		report_row(out, c);
		free(src);
	}
	report_table_end(out);
}

static void
heap_legend(struct report_out *out)
{
	static const char *const lines[] = {
		"Leak summary: memcheck's rules and heuristics; collectable"
		" is definitely + indirectly lost.",
		"Leaks: the lost blocks merged by allocation stack and state"
		" (memcheck's loss records,",
		"  --leak-resolution=high), most bytes first; a stack"
		" innermost first.",
		"Sites: a distinct allocation stack (its first function"
		" shown); live and collectable at the",
		"  snapshot; peak: the most live bytes at once; allocs,"
		" frees, allocated: since the start.",
	};

	report_lines(out, &report_tab_legend, lines, sizeof lines /
	    sizeof lines[0]);
	report_table_end(out);
}

/* The whole report of a heap session, from its model. */
int
report_heap(struct store *st, const struct store_session *ss,
    const void *model, int format, FILE *f, char **cause)
{
	const struct analyze_heap_summary	*m = model;
	const struct report_table	*tables[] = { &report_tab_session,
		&heap_t_header, &heap_t_leaks, &heap_t_lossrec, &heap_t_sites,
		&report_tab_warnings, &report_tab_legend };
	struct report_session		 rs;

	/* The formats of its own (kind.c) come from the store, not m. */
	if (format == REPORT_HEAPSNAPSHOT)
		return (report_heap_snapshot(st, ss, f, cause));
	if (format == REPORT_COLLAPSED)
		return (report_heap_collapsed(st, ss, f, cause));
	if (format == REPORT_PPROF)
		return (report_heap_pprof(st, ss, &m->h, f, cause));
	if (!report_tabular(format)) {
		*cause = xasprintf("no %s report of a heap snapshot",
		    report_format_name(format));
		return (-1);
	}
	if (report_session_begin(&rs, st, ss, f, format, tables,
	    sizeof tables / sizeof tables[0], cause) != 0)
		return (-1);
	heap_header(&rs.out, &m->h);
	heap_leaks(&rs.out, &m->h);
	report_table(&rs.out, &heap_t_lossrec);
	report_heap_leak_rows(&rs.out, &m->leaks, m->view, 0);
	report_table_end(&rs.out);
	heap_sites(&rs.out, m);
	report_session_warnings(&rs);
	heap_legend(&rs.out);
	return (report_session_end(&rs, cause));
}
