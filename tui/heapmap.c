/*
 * The heap map: HeapInspector's viewer of a heap snapshot.  The heap's
 * regions as rows of cells in address order (analyze/heapmap.c lays them
 * out and says what each cell shows), two rows of cells to a line with
 * half blocks where the terminal can (a UTF-8 locale and 256 colours),
 * a character a cell otherwise; a legend of each mark's colour and its
 * objects and bytes in view and in all; an info pane (the selected
 * object, or one of HeapInspector's Info lists as a table, tui/heapinfo.c's,
 * which gets the keys with i); a status line of what is in view.
 *
 * HeapInspector's vocabulary throughout: its moves (a page, a fifth, the
 * start a few cells on, Home, End), ZoomOut around the middle, its Show
 * bitmaps (here overlays of one map, a block taking the highest mark that
 * picks it) and Select, HeapMarkObjects (:mark) and TestUnloadModules.
 * The mouse: HeapInspector's middle button (select) is the left one here, its
 * right (rows to zoom into) a drag with the left or right one, its left
 * (what reaches the object) the middle one.
 *
 * Marks are made again only when what picks them changes (an overlay, a
 * selection, :mark, :select, :testunload), once over the blocks; every
 * other key only asks the model for the cells in view.
 *
 * This file is the view, its marks, moves, keys, mouse and work; its
 * frame is heapdraw.c's, its : commands heapcmd.c's, a live map's updates
 * and :compare heapupdate.c's, and the state they share tui/heap.h's.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curses.h>

#include "bsearch.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "report/report.h"
#include "tui/tui.h"
#include "tui/heap.h"

static const struct tui_key hm_bind[] = {
	TUI_KEY(HM_ACT_PAGE_DOWN, "PageDown C-f Space",
	    "the map a page on, toward the heap's end"),
	TUI_KEY(HM_ACT_PAGE_UP, "PageUp C-b", "the map a page back"),
	TUI_KEY(HM_ACT_DOWN, "Down", "the map a fifth of its height on"),
	TUI_KEY(HM_ACT_UP, "Up", "the map a fifth of its height back"),
	TUI_KEY(HM_ACT_RIGHT, "Right",
	    "the map's start a sixth of its width in cells on (shifts left)"),
	TUI_KEY(HM_ACT_LEFT, "Left",
	    "the map's start a sixth of its width in cells back"),
	TUI_KEY(HM_ACT_HOME, "Home g", "the heap's start at the top left"),
	TUI_KEY(HM_ACT_END, "End G", "the heap's end at the bottom"),
	TUI_KEY(HM_ACT_ZOOM_IN, "+ =",
	    "zoom in around the middle, to a granule in 8 cells"),
	TUI_KEY(HM_ACT_ZOOM_OUT, "-",
	    "zoom out around the middle, until the whole heap shows"),
	TUI_KEY(HM_ACT_CUR_LEFT, "h", "the cursor to the object before"),
	TUI_KEY(HM_ACT_CUR_RIGHT, "l", "the cursor to the object after"),
	TUI_KEY(HM_ACT_CUR_DOWN, "j C-n", "the cursor a row down"),
	TUI_KEY(HM_ACT_CUR_UP, "k C-p", "the cursor a row up"),
	TUI_KEY(HM_ACT_SELECT, "Enter",
	    "select the object under the cursor and inspect it; with rows "
	    "marked by v, zoom into them"),
	TUI_KEY(HM_ACT_ROWS, "v",
	    "mark rows to zoom into from the cursor's; moves extend, v or "
	    "Enter zooms, Escape cancels"),
	TUI_KEY(HM_ACT_REACHABLE, "r",
	    "Reachable: what the selected object reaches, on or off"),
	TUI_KEY(HM_ACT_REACHED_FROM, "R",
	    "ReachedFrom: what reaches the selected object, on or off"),
	TUI_KEY(HM_ACT_COLLECTABLE, "c",
	    "Collectable: what no root reaches, on or off"),
	TUI_KEY(HM_ACT_INFO, "Tab",
	    "the info pane's next view: the object, Modules, "
	    "ObjectsByModule, ObjectsByType, Imports, ModuleHierarchy, "
	    "ObjectSizes, FreeBlocks, ReachedFrom, Leaks, LeaksBottomUp, "
	    "LeaksTopDown, Live, TypeHierarchy, ModuleReachableTypes,"
	    " Finalizers and Descriptors once their commands made them,"
	    " none"),
	TUI_KEY(HM_ACT_INFO_PREV, "S-Tab", "the info pane's view before"),
	TUI_KEY(HM_ACT_FOCUS, "i",
	    "the keys to the info pane's table (Modules if none shows)"),
	TUI_KEY(HM_ACT_UNPICK, "x",
	    "unmark the objects Enter in an info table marked"),
	TUI_KEY(HM_ACT_UPDATE, "u",
	    "Update: a new snapshot of the live program (--attach)"),
};
static const struct tui_keys hm_keys = TUI_KEYS("heapmap",
    "In the heap map", hm_bind);

static const struct tui_key hi_bind[] = {
	TUI_KEY(HI_ACT_PICK, "Enter",
	    "mark the row's objects on the map (again: unmark); a free "
	    "block: the map to it"),
	TUI_KEY(HI_ACT_UNPICK, "x", "unmark them"),
	TUI_KEY(HI_ACT_SORT, "s", "sort by the marked column the other way"),
	TUI_KEY(HI_ACT_SORT_LEFT, "<",
	    "sort by the column to the left (names A-Z, numbers most first)"),
	TUI_KEY(HI_ACT_SORT_RIGHT, ">", "sort by the column to the right"),
	TUI_KEY(HI_ACT_LEFT, "h Left", "scroll one column left"),
	TUI_KEY(HI_ACT_RIGHT, "l Right", "scroll one column right"),
	TUI_KEY(HI_ACT_NEXT, "Tab", "the next info table"),
	TUI_KEY(HI_ACT_PREV, "S-Tab", "the info table before"),
	TUI_KEY(HI_ACT_MAP, "i Escape", "the keys back to the map"),
};
static const struct tui_keys hi_keys = TUI_KEYS("heapinfo",
    "In the heap map's info table", hi_bind);


uint32_t
hm_node(const struct heapmap *hm, size_t b)
{
	return ((uint32_t)(1 + hm->s->nroots + b));
}

/* Bytes as people read them: exact under a KiB, else one decimal. */
char *
hm_size(uint64_t n)
{
	static const char	*unit[] = { "KiB", "MiB", "GiB", "TiB" };
	double			 d = (double)n;
	int			 u = -1;

	if (n < 1024)
		return (xasprintf("%llu B", (unsigned long long)n));
	while (d >= 1024 && u < 3) {
		d /= 1024;
		u++;
	}
	return (xasprintf("%.1f %s", d, unit[u]));
}

const char *
hm_type_name(const struct heapmap *hm, size_t b)
{
	uint32_t	t = hm->s->type[b];

	return (t == HM_SNONE ? "(no type)" : hm->s->types[t].name);
}

const char *
hm_state_name(int st)
{
	switch (st) {
	case ANALYZE_HEAP_REACHABLE:
		return ("reachable");
	case ANALYZE_HEAP_POSSIBLE:
		return ("possibly lost");
	case ANALYZE_HEAP_DEFINITE:
		return ("collectable (definitely lost)");
	case ANALYZE_HEAP_INDIRECT:
		return ("collectable (indirectly lost)");
	default:
		return ("?");
	}
}

static const char *
hm_walk_name(enum hm_walk k)
{
	return (k == HM_WALK_REACH ? "Reachable" : k == HM_WALK_RFROM ?
	    "ReachedFrom" : "OnlyAnchoredBy");
}

/* Drop the search running, its marks unfinished (nothing shows them). */
void
hm_walk_abort(struct heapmap *hm)
{
	if (hm->walking == HM_WALK_NONE)
		return;
	analyze_heap_walk_end(&hm->walk);
	free(hm->walk_mark);
	hm->walk_mark = NULL;
	free(hm->walk_what);
	hm->walk_what = NULL;
	hm->walking = HM_WALK_NONE;
}

/* Esc or ^C: the search stops, and what asked for it goes off. */
static void
hm_walk_cancel(struct heapmap *hm)
{
	enum hm_walk	k = hm->walking;
	size_t		n = hm->walk.count;

	if (k == HM_WALK_NONE)
		return;
	hm_walk_abort(hm);
	if (k == HM_WALK_REACH)
		hm->reachable = 0;
	else if (k == HM_WALK_RFROM) {
		hm->reachedfrom = 0;
		if (HM_IS_ROOTS(hm->info))
			hm->info = HM_INFO_OBJECT;
	}
	hm->dirty = 1;
	tui_message("%s cancelled after %zu objects", hm_walk_name(k), n);
}

/* A search is done: its marks are the overlay's, or the :select set. */
static void
hm_walk_done(struct heapmap *hm)
{
	uint64_t	ms = (tui_now_ns() - hm->walk_t0) / 1000000;
	uint32_t	base = 1 + hm->s->nroots;
	size_t		b, n = 0;

	switch (hm->walking) {
	case HM_WALK_REACH:
		hm->reach_of = hm->walk_of;
		break;
	case HM_WALK_RFROM:
		hm->rfrom_of = hm->walk_of;
		break;
	case HM_WALK_ANCHORED:
		analyze_heap_anchored_finish(&hm->s->graph, hm->walk_node,
		    hm->walk_mark);
		for (b = 0; b < hm->s->nblocks; b++) {
			hm->selset[b] = hm->walk_mark[base + b];
			n += hm->selset[b];
		}
		free(hm->walk_mark);
		hm->walk_mark = NULL;
		hm->nselset = n;
		free(hm->selwhat);
		hm->selwhat = hm->walk_what;
		hm->walk_what = NULL;
		tui_message("selected %zu objects: %s", n, hm->selwhat);
		break;
	default:
		return;
	}
	/* Only a slow one says so (in objects: roots are not); a quick
	   one just shows. */
	if (hm->walking != HM_WALK_ANCHORED && ms * 1000000 >=
	    HM_WALK_SYNC_NS) {
		for (b = 0; b < hm->s->nblocks; b++)
			n += hm->walk.mark[base + b];
		tui_message("%s %#llx: %zu objects in %llu ms",
		    hm_walk_name(hm->walking), (unsigned long long)
		    hm->s->addr[hm->walk_of], n, (unsigned long long)ms);
	}
	hm->walking = HM_WALK_NONE;
	hm->dirty = 1;
}

/* Go on with the search until the deadline: 0 once it is done. */
static int
hm_walk_run(struct heapmap *hm, uint64_t deadline)
{
	size_t	step = hm->walk_slice != 0 ? hm->walk_slice : HM_WALK_STEP;

	while (analyze_heap_walk_step(&hm->walk, step)) {
		if (hm->walk_slice != 0 || tui_now_ns() >= deadline) {
			tui_message("%s: %zu objects so far, %llu ms (Esc"
			    " cancels)", hm_walk_name(hm->walking),
			    hm->walk.count, (unsigned long long)
			    (tui_now_ns() - hm->walk_t0) / 1000000);
			return (1);
		}
	}
	hm_walk_done(hm);
	return (0);
}

/* A search begun: at once if it is quick, else in the loop's slices. */
void
hm_walk_start(struct heapmap *hm, enum hm_walk k, size_t of)
{
	hm->walking = k;
	hm->walk_of = of;
	hm->walk_t0 = tui_now_ns();
	hm_walk_run(hm, hm->walk_t0 + HM_WALK_SYNC_NS);
}

/* Whether the selected object's ReachedFrom set is wanted. */
static int
hm_want_rfrom(const struct heapmap *hm)
{
	return (hm->reachedfrom || HM_IS_ROOTS(hm->info));
}

/*
 * Make the reach sets the overlays (and the roots pane) need for the
 * selected object, or begin the search that makes them.
 */
void
hm_reach(struct heapmap *hm)
{
	const struct analyze_heap	*g = &hm->s->graph;
	uint32_t			 node;

	if (hm->sel == SIZE_MAX || !hm->s->graph_ready)
		return;
	/* A search no longer wanted, or for an object no longer selected. */
	if ((hm->walking == HM_WALK_REACH && (!hm->reachable ||
	    (!hm->freeze && hm->walk_of != hm->sel))) ||
	    (hm->walking == HM_WALK_RFROM && (!hm_want_rfrom(hm) ||
	    (!hm->freeze && hm->walk_of != hm->sel))))
		hm_walk_abort(hm);
	if (hm->walking != HM_WALK_NONE)
		return;
	node = hm_node(hm, hm->sel);
	/* Frozen: they stay with the object they were made for. */
	if (hm->reachable && (hm->reach_of == SIZE_MAX || (!hm->freeze &&
	    hm->reach_of != hm->sel))) {
		hm->reach_of = SIZE_MAX;
		analyze_heap_walk_begin(&hm->walk, g, &node, 1, 0, NULL,
		    hm->reach);
		hm_walk_start(hm, HM_WALK_REACH, hm->sel);
		if (hm->walking != HM_WALK_NONE)
			return;
	}
	if (hm_want_rfrom(hm) && (hm->rfrom_of == SIZE_MAX || (!hm->freeze &&
	    hm->rfrom_of != hm->sel))) {
		hm->rfrom_of = SIZE_MAX;
		analyze_heap_walk_begin(&hm->walk, g, &node, 1, 1, NULL,
		    hm->rfrom);
		hm_walk_start(hm, HM_WALK_RFROM, hm->sel);
	}
}

/*
 * Every block's mark: its type's :mark colour or unmarked (hidden when
 * the map is off or only marked objects show), then each overlay on, in
 * the order of their priority, the higher taking the block.
 */
/*
 * The C library's functions that allocate for their caller, not for
 * themselves: their blocks are the program's.
 */
static const char *const hm_libc_for_caller[] = {
	"strdup", "__strdup", "strndup", "__strndup", "wcsdup", "asprintf",
	"vasprintf", "__vasprintf_internal", "getline", "getdelim",
	"__getdelim", "realpath", "open_memstream", "open_wmemstream",
	"scandir", "scandir64", "backtrace_symbols", "get_current_dir_name",
	"getcwd", "tempnam", "canonicalize_file_name", NULL
};

/*
 * HeapInspector's default blocks (its system blocks and descriptors) in a
 * C heap: the blocks the C library or the dynamic loader allocated for
 * themselves (stdio buffers, locale data, dlopen's and TLS's), told by
 * their allocation site, the innermost function that called the
 * allocator, being in libc.so or ld.so, and not one of those that
 * allocate for their caller (strdup's string is the program's).  A
 * block of a type (a vtable's or the DWARF's) is the program's.  def[]
 * per block; the count.
 */
size_t
hm_default_blocks(const struct heapmap *hm, uint8_t *def, uint64_t *bytes)
{
	const struct analyze_heapview	*s = hm->s;
	const char			*m, *f;
	uint8_t				*dt;
	size_t				 len, i;
	uint32_t			 t;
	size_t				 b, n = 0;

	dt = xcalloc(s->ntypes + 1, 1);
	for (t = 0; t < s->ntypes; t++) {
		if (!s->types[t].site || s->types[t].module == HM_SNONE)
			continue;
		m = s->modules[s->types[t].module].name;
		dt[t] = strncmp(m, "libc.so", 7) == 0 ||
		    strncmp(m, "ld-linux", 8) == 0 || strncmp(m, "ld.so", 5) ==
		    0;
		/* The site's function: the name after the site prefix. */
		f = strstr(s->types[t].name, "site ");
		f = f != NULL ? f + 5 : s->types[t].name;
		len = strcspn(f, ")");
		for (i = 0; dt[t] && hm_libc_for_caller[i] != NULL; i++) {
			if (strlen(hm_libc_for_caller[i]) == len &&
			    strncmp(f, hm_libc_for_caller[i], len) == 0)
				dt[t] = 0;
		}
	}
	*bytes = 0;
	for (b = 0; b < s->nblocks; b++) {
		t = s->type[b];
		def[b] = t != HM_SNONE && dt[t];
		n += def[b];
		*bytes += def[b] ? s->usable[b] : 0;
	}
	free(dt);
	return (n);
}

void
hm_make_marks(struct heapmap *hm)
{
	const struct analyze_heapview	*s = hm->s;
	const uint8_t			*st = s->graph.state;
	const uint32_t			*type = s->type;
	const uint8_t			*pick;
	const char			*name;
	uint8_t				*mk = hm->m->mark, k, st_mark[8];
	uint8_t				*def;
	uint8_t				 base[HM_MAX_SPECS + 1][8];
	uint32_t			 t, b0 = 1 + (uint32_t)s->nroots;
	size_t				 b, n = s->nblocks;
	int				 j, i;

	hm_reach(hm);
	/*
	 * A block's mark from its type mark and its leak state is a table
	 * made here once, so the pass over a million blocks is a look-up
	 * each; the overlays of single objects follow in passes of their
	 * own, only when on.
	 */
	for (i = 0; i < 8; i++) {
		st_mark[i] = HM_NONE;
		if (hm->notcollectable && (i == ANALYZE_HEAP_REACHABLE ||
		    i == ANALYZE_HEAP_POSSIBLE))
			st_mark[i] = ANALYZE_HEAPMAP_KEPT;
		if (hm->collectable && i == ANALYZE_HEAP_POSSIBLE)
			st_mark[i] = ANALYZE_HEAPMAP_POSSIBLE;
		if (hm->collectable && (i == ANALYZE_HEAP_DEFINITE ||
		    i == ANALYZE_HEAP_INDIRECT))
			st_mark[i] = ANALYZE_HEAPMAP_COLLECTABLE;
	}
	for (j = 0; j <= HM_MAX_SPECS; j++) {
		for (i = 0; i < 8; i++) {
			if (hm->markedonly && j == 0)
				k = HM_NONE;
			else if (st_mark[i] != HM_NONE)
				k = st_mark[i];
			else
				k = j != 0 ? (uint8_t)(ANALYZE_HEAPMAP_TYPE1 +
				    j - 1) : hm->show_map ?
				    ANALYZE_HEAPMAP_PLAIN : HM_NONE;
			base[j][i] = k;
		}
	}
	for (b = 0; b < n; b++) {
		t = type[b];
		/* No states until the graph is made: none picks a mark. */
		mk[b] = base[t != HM_SNONE ? hm->typemark[t] : 0][st != NULL ?
		    st[b] & 7 : ANALYZE_HEAP_UNREACHED];
	}
	/* Overlays over single objects, each on only what it picks. */
	if (hm->nlost != 0) {
		for (b = 0; b < n; b++) {
			if (hm->lost[b0 + b] && !(hm->markedonly &&
			    mk[b] == HM_NONE))
				mk[b] = ANALYZE_HEAPMAP_UNLOAD;
		}
	}
	if (hm->reachable && hm->reach_of != SIZE_MAX) {
		for (b = 0; b < n; b++) {
			if (hm->reach[b0 + b] && !(hm->markedonly &&
			    mk[b] == HM_NONE))
				mk[b] = ANALYZE_HEAPMAP_REACHABLE;
		}
	}
	if (hm->reachedfrom && hm->rfrom_of != SIZE_MAX) {
		for (b = 0; b < n; b++) {
			if (hm->rfrom[b0 + b] && !(hm->markedonly &&
			    mk[b] == HM_NONE))
				mk[b] = ANALYZE_HEAPMAP_REACHED_FROM;
		}
	}
	if ((pick = tui_heapinfo_picked(hm->hi, &name)) != NULL) {
		for (b = 0; b < n; b++) {
			if (pick[b] && !(hm->markedonly && mk[b] == HM_NONE))
				mk[b] = ANALYZE_HEAPMAP_PICKED;
		}
	}
	if (hm->nselset != 0) {
		for (b = 0; b < n; b++) {
			if (hm->selset[b] && !(hm->markedonly && mk[b] ==
			    HM_NONE))
				mk[b] = ANALYZE_HEAPMAP_SELECTED;
		}
	}
	if (hm->colorize_default || hm->hide_default) {
		def = xcalloc_populated(n + 1, 1);
		hm_default_blocks(hm, def, &(uint64_t){ 0 });
		for (b = 0; b < n; b++) {
			if (!def[b])
				continue;
			if (hm->hide_default)
				mk[b] = HM_NONE;
			else if (mk[b] == ANALYZE_HEAPMAP_PLAIN)
				mk[b] = ANALYZE_HEAPMAP_DEFAULT;
		}
		free(def);
	}
	if (hm->sel != SIZE_MAX && !(hm->markedonly && mk[hm->sel] == HM_NONE))
		mk[hm->sel] = ANALYZE_HEAPMAP_SELECTED;
	/* Born since the snapshot compared; with Remain, none born since. */
	analyze_heapdiff_cmp_marks(hm->cmp, hm->remain_base != NULL ?
	    hm->hidden : NULL, mk, n);
	analyze_heapmap_marks_changed(hm->m);
	hm->dirty = 0;
}

/* The first block that ends after address a (nblocks if none). */
static size_t
hm_block_from(const struct heapmap *hm, uint64_t a)
{
	size_t	i;

	BSEARCH_FIRST(i, 0, hm->s->nblocks, hm->s->addr[i] +
	    (hm->s->usable[i] ? hm->s->usable[i] : 1) <= a);
	return (i);
}

static int
hm_row_visible(const struct heapmap *hm, uint64_t row)
{
	return (row >= hm->v.top && row < hm->v.top + hm->v.rows);
}

/* The map row of block b's first byte. */
uint64_t
hm_block_row(struct heapmap *hm, size_t b, uint32_t *col)
{
	uint64_t	row = 0;
	uint32_t	c = 0;

	analyze_heapmap_locate(hm->m, &hm->v, hm->s->addr[b], &row, &c);
	if (col != NULL)
		*col = c;
	return (row);
}

/* A cursor the map left behind comes to the first object in view. */
void
hm_follow(struct heapmap *hm)
{
	uint64_t	lo, hi;
	size_t		b;

	if (hm->cur != SIZE_MAX && hm_row_visible(hm, hm_block_row(hm,
	    hm->cur, NULL)))
		return;
	if (analyze_heapmap_span(hm->m, &hm->v, &lo, &hi) != 0)
		return;
	/* Only as far as the view: past it is no cursor's business. */
	b = hm_block_from(hm, lo);
	while (b < hm->s->nblocks && hm->s->addr[b] < hi &&
	    hm->m->mark[b] == HM_NONE)
		b++;
	if (b < hm->s->nblocks && hm->s->addr[b] < hi)
		hm->cur = b;
}

/* Put the cursor on block b, the map following if b is not in view. */
void
hm_goto(struct heapmap *hm, size_t b)
{
	if (b >= hm->s->nblocks)
		return;
	hm->cur = b;
	if (!hm_row_visible(hm, hm_block_row(hm, b, NULL)))
		analyze_heapmap_center(hm->m, &hm->v, hm->s->addr[b]);
	if (hm->rows_on)
		hm->rows_to = hm_block_row(hm, b, NULL);
}

/* Rows [a, b] as bytes: the first cell's start to the last's end. */
static int
hm_rows_bytes(struct heapmap *hm, uint64_t a, uint64_t b, uint64_t *lo,
    uint64_t *hi)
{
	uint64_t	t, l, h;
	uint32_t	c;

	if (a > b) {
		t = a;
		a = b;
		b = t;
	}
	if (analyze_heapmap_row_addr(hm->m, &hm->v, a, lo) < 0)
		return (-1);
	for (c = hm->v.cols; c-- > 0;) {
		if (analyze_heapmap_cell_range(hm->m, &hm->v, b, c, &l,
		    &h) == 0) {
			*hi = h;
			return (0);
		}
	}
	return (-1);
}

static void
hm_zoom_rows(struct heapmap *hm, uint64_t a, uint64_t b)
{
	uint64_t	lo, hi;
	char		*s;

	hm->rows_on = 0;
	if (hm_rows_bytes(hm, a, b, &lo, &hi) != 0)
		return;
	hm->zrows = 0;
	hm->v.rows = hm->room != 0 ? hm->room : hm->v.rows;
	analyze_heapmap_zoom_to(hm->m, &hm->v, lo, hi);
	s = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
	tui_message("zoomed into %#llx-%#llx: %s a cell",
	    (unsigned long long)lo, (unsigned long long)hi, s);
	free(s);
	hm_follow(hm);
}

/* Select block b: the inspector shows it, the overlays follow it. */
static void
hm_select(struct heapmap *hm, size_t b)
{
	char	*sz;

	if (b >= hm->s->nblocks)
		return;
	hm->sel = b;
	hm->cur = b;
	if (hm->info == HM_INFO_OFF)
		hm->info = HM_INFO_OBJECT;
	hm->dirty = 1;
	sz = hm_size(hm->s->usable[b]);
	tui_message("selected %#llx: %s, %s", (unsigned long long)
	    hm->s->addr[b], hm_type_name(hm, b), sz);
	free(sz);
}


static void	hm_load_stop(struct heapmap *);
static void	hm_graph_ready(struct heapmap *);
static char	*hm_first_what(struct heapmap *);


/* The cursor a row up (dir -1) or down: the object in that cell, or
   the next one after it. */
static void
hm_cursor_row(struct heapmap *hm, int dir)
{
	uint64_t	row, lo, hi, next;
	uint64_t	n = analyze_heapmap_nrows(hm->m, &hm->v);
	uint32_t	col;
	size_t		b;
	long		r;

	if (hm->cur == SIZE_MAX)
		return;
	row = hm_block_row(hm, hm->cur, &col);
	if ((dir < 0 && row == 0) || (dir > 0 && row + 1 >= n)) {
		tui_message("at the %s of the heap", dir < 0 ? "start" :
		    "end");
		return;
	}
	row = dir < 0 ? row - 1 : row + 1;
	b = analyze_heapmap_block_at(hm->m, &hm->v, row, col);
	if (b == SIZE_MAX) {
		/* A free cell: the next object from it, if on that row. */
		if (analyze_heapmap_cell_range(hm->m, &hm->v, row, col, &lo,
		    &hi) != 0 && analyze_heapmap_row_addr(hm->m, &hm->v, row,
		    &lo) < 0)
			return;
		/*
		 * Within the row: it ends where the next row starts, or with
		 * its region.
		 */
		r = analyze_heapmap_row_addr(hm->m, &hm->v, row, &next);
		hi = r >= 0 ? hm->m->regions[r].hi : UINT64_MAX;
		if (analyze_heapmap_row_addr(hm->m, &hm->v, row + 1, &next) >=
		    0 && next < hi)
			hi = next;
		b = hm_block_from(hm, lo);
		while (b < hm->s->nblocks && hm->s->addr[b] < hi &&
		    hm->m->mark[b] == HM_NONE)
			b++;
		if (b >= hm->s->nblocks || hm_block_row(hm, b, NULL) != row) {
			/* None there: keep to the column, say so. */
			tui_message("no object below or above in that column");
			return;
		}
	}
	hm_goto(hm, b);
}

static void
hm_cursor_step(struct heapmap *hm, int dir)
{
	size_t	b = hm->cur;

	if (b == SIZE_MAX)
		return;
	do {
		if ((dir < 0 && b == 0) || (dir > 0 && b + 1 >=
		    hm->s->nblocks)) {
			tui_message("no object %s", dir < 0 ? "before" :
			    "after");
			return;
		}
		b = dir < 0 ? b - 1 : b + 1;
	} while (hm->m->mark[b] == HM_NONE);
	hm_goto(hm, b);
}

/* A HeapInspector Move; the message when the heap's end stopped it. */
void
hm_move(struct heapmap *hm, enum analyze_heapmap_move how, int64_t n)
{
	if (!analyze_heapmap_move(hm->m, &hm->v, how, n) &&
	    (how == ANALYZE_HEAPMAP_ROWS || how == ANALYZE_HEAPMAP_CELLS))
		tui_message("at the %s of the heap", n < 0 ? "start" : "end");
	if (hm->rows_on && hm->cur != SIZE_MAX) {
		hm_follow(hm);
		hm->rows_to = hm_block_row(hm, hm->cur, NULL);
		return;
	}
	hm_follow(hm);
}

void
hm_zoom(struct heapmap *hm, int dz)
{
	char	*b;

	/* A zoom by steps fills the room a percentage's left. */
	hm->zrows = 0;
	hm->v.rows = hm->room != 0 ? hm->room : hm->v.rows;
	if (analyze_heapmap_zoom(hm->m, &hm->v, dz) == 0) {
		tui_message("%s", dz > 0 ? "zoomed out all the way: the whole"
		    " heap is in view" : "zoomed in all the way: a granule of"
		    " 16 bytes in 8 cells");
		return;
	}
	b = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
	tui_message("%s a cell", b);
	free(b);
	hm_follow(hm);
}

/* Whether the heap graph is made; if not, say so for what needs it. */
int
hm_graph(struct heapmap *hm, const char *what)
{
	if (hm->s->graph_ready)
		return (1);
	if (hm->graph_error != NULL)
		tui_message("error: %s needs the heap graph: %s", what,
		    hm->graph_error);
	else
		tui_message("%s needs the heap graph, still being made", what);
	return (0);
}

/* An overlay on or off; r and R need an object selected. */
void
hm_toggle(struct heapmap *hm, int *flag, const char *name, int needsel)
{
	*flag = !*flag;
	if (needsel && *flag && hm->sel == SIZE_MAX)
		tui_message("%s on: select an object (Enter) to see it", name);
	else
		tui_message("%s %s", name, *flag ? "on" : "off");
	/*
	 * An overlay of a search (r, R) turned on: the search begins now.
	 * While it goes on the overlay has nothing to show, so the marks
	 * stay as they are (a pass over every block saved in the key's
	 * frame); hm_walk_done remakes them with its answer.
	 */
	if (needsel && *flag) {
		hm_reach(hm);
		if (hm->walking != HM_WALK_NONE)
			return;
	}
	hm->dirty = 1;
}

static const struct tui_view_ops hm_ops;

/*
 * The keys to the info pane's table (on), or back to the map.  While the
 * table has them its list is the view's, so the loop moves its cursor
 * and the status line counts its rows, and the view's key group is the
 * table's (hi_keys), whose name it then answers to.
 */
void
hm_focus(struct tui_view *tv, int on)
{
	struct heapmap	*hm = tv->data;

	if (hm->focus) {
		*tui_heapinfo_list(hm->hi, HM_TABLE(hm->info)) = tv->list;
		tv->list = hm->maplist;
		tv->keys = &hm_keys;
		tv->search.stale = 1;
		hm->focus = 0;
	}
	if (!on || !HM_IS_TABLE(hm->info))
		return;
	hm->maplist = tv->list;
	tv->list = *tui_heapinfo_list(hm->hi, HM_TABLE(hm->info));
	tv->keys = &hi_keys;
	tv->search.stale = 1;
	hm->focus = 1;
}

static const char *
hm_info_name(enum hm_info i)
{
	if (i == HM_INFO_OBJECT)
		return ("object");
	if (i == HM_INFO_OFF)
		return ("none");
	return (tui_heapinfo_name(HM_TABLE(i)));
}

/* Tab and S-Tab: the info pane's next view; a table keeps the keys. */
static void
hm_info_step(struct tui_view *tv, int dir)
{
	struct heapmap	*hm = tv->data;
	int		 focus = hm->focus;

	hm_focus(tv, 0);
	do
		hm->info = (enum hm_info)((hm->info + HM_NINFO + dir) %
		    HM_NINFO);
	while ((focus && !HM_IS_TABLE(hm->info)) || (HM_IS_TABLE(hm->info) &&
	    !tui_heapinfo_asked(hm->hi, HM_TABLE(hm->info))));
	hm_focus(tv, focus);
	tui_message("info: %s", hm_info_name(hm->info));
}

static void
hm_unpick(struct heapmap *hm)
{
	if (tui_heapinfo_unpick(hm->hi)) {
		hm->dirty = 1;
		tui_message("unmarked");
	} else
		tui_message("nothing marked by an info table (Enter on a row"
		    " marks its objects)");
}

/* A key while the info table has them; list moves are the loop's. */
static int
hm_info_key(struct tui_view *tv, int a)
{
	struct heapmap	*hm = tv->data;
	uint64_t	 addr;
	size_t		 b;
	int		 r;

	switch (a) {
	case HI_ACT_NEXT:
	case HI_ACT_PREV:
		hm_info_step(tv, a == HI_ACT_NEXT ? 1 : -1);
		return (TUI_R_DRAW);
	case HI_ACT_MAP:
		hm_focus(tv, 0);
		tui_message("keys to the map (i: to the table again)");
		return (TUI_R_DRAW);
	case HI_ACT_UNPICK:
		hm_unpick(hm);
		return (TUI_R_DRAW);
	default:
		break;
	}
	r = tui_heapinfo_key(hm->hi, HM_TABLE(hm->info), &tv->list, a);
	if (r & TUI_HI_MARKS)
		hm->dirty = 1;
	if (r & TUI_HI_GOTO) {
		/* The gap in the middle, the cursor on the object after. */
		addr = tui_heapinfo_goto(hm->hi);
		analyze_heapmap_center(hm->m, &hm->v, addr);
		b = hm_block_from(hm, addr);
		hm->cur = b < hm->s->nblocks ? b : hm->s->nblocks - 1;
		hm_follow(hm);
	}
	return (r & ~(TUI_HI_MARKS | TUI_HI_GOTO));
}

static int
hm_key(struct tui_view *tv, int a)
{
	struct heapmap	*hm = tv->data;
	int64_t		 fifth = hm->v.rows / 5 > 0 ? hm->v.rows / 5 : 1;
	int64_t		 sixth = hm->v.cols / 6 > 0 ? hm->v.cols / 6 : 1;
	int64_t		 page = hm->v.rows > 1 ? hm->v.rows : 1;

	if (hm->s->nregions == 0)
		return (TUI_R_UNUSED);
	if (hm->focus)
		return (hm_info_key(tv, a));
	switch (a) {
	case HM_ACT_PAGE_DOWN:
	case TUI_ACT_PAGE_DOWN:
		hm_move(hm, ANALYZE_HEAPMAP_ROWS, page);
		return (TUI_R_DRAW);
	case HM_ACT_PAGE_UP:
	case TUI_ACT_PAGE_UP:
		hm_move(hm, ANALYZE_HEAPMAP_ROWS, -page);
		return (TUI_R_DRAW);
	case HM_ACT_DOWN:
		hm_move(hm, ANALYZE_HEAPMAP_ROWS, fifth);
		return (TUI_R_DRAW);
	case HM_ACT_UP:
		hm_move(hm, ANALYZE_HEAPMAP_ROWS, -fifth);
		return (TUI_R_DRAW);
	case HM_ACT_RIGHT:
		hm_move(hm, ANALYZE_HEAPMAP_CELLS, sixth);
		return (TUI_R_DRAW);
	case HM_ACT_LEFT:
		hm_move(hm, ANALYZE_HEAPMAP_CELLS, -sixth);
		return (TUI_R_DRAW);
	case HM_ACT_HOME:
	case TUI_ACT_FIRST:
		hm_move(hm, ANALYZE_HEAPMAP_HOME, 0);
		return (TUI_R_DRAW);
	case HM_ACT_END:
	case TUI_ACT_LAST:
		hm_move(hm, ANALYZE_HEAPMAP_END, 0);
		return (TUI_R_DRAW);
	case HM_ACT_ZOOM_IN:
		hm_zoom(hm, -1);
		return (TUI_R_DRAW);
	case HM_ACT_ZOOM_OUT:
		hm_zoom(hm, 1);
		return (TUI_R_DRAW);
	case HM_ACT_CUR_LEFT:
		hm_cursor_step(hm, -1);
		return (TUI_R_DRAW);
	case HM_ACT_CUR_RIGHT:
		hm_cursor_step(hm, 1);
		return (TUI_R_DRAW);
	case HM_ACT_CUR_DOWN:
	case TUI_ACT_DOWN:
		hm_cursor_row(hm, 1);
		return (TUI_R_DRAW);
	case HM_ACT_CUR_UP:
	case TUI_ACT_UP:
		hm_cursor_row(hm, -1);
		return (TUI_R_DRAW);
	case HM_ACT_SELECT:
		if (hm->rows_on)
			hm_zoom_rows(hm, hm->rows_from, hm->rows_to);
		else if (hm->cur != SIZE_MAX)
			hm_select(hm, hm->cur);
		return (TUI_R_DRAW);
	case HM_ACT_ROWS:
		if (hm->rows_on) {
			hm_zoom_rows(hm, hm->rows_from, hm->rows_to);
			return (TUI_R_DRAW);
		}
		if (hm->cur == SIZE_MAX)
			return (TUI_R_DRAW);
		hm->rows_on = 1;
		hm->rows_from = hm->rows_to = hm_block_row(hm, hm->cur, NULL);
		return (TUI_R_DRAW);
	case TUI_ACT_ESCAPE:
		if (hm->walking != HM_WALK_NONE) {
			hm_walk_cancel(hm);
			return (TUI_R_DRAW);
		}
		if (hm->comparing != NULL) {
			tui_message("compare with session %lld cancelled",
			    (long long)hm->comparing->id);
			hm_compare_stop(hm);
			return (TUI_R_DRAW);
		}
		if (!hm->rows_on)
			return (TUI_R_UNUSED);
		hm->rows_on = 0;
		tui_message("rows unmarked");
		return (TUI_R_DRAW);
	case HM_ACT_REACHABLE:
		if (hm_graph(hm, "Reachable"))
			hm_toggle(hm, &hm->reachable, "Reachable", 1);
		return (TUI_R_DRAW);
	case HM_ACT_REACHED_FROM:
		if (hm_graph(hm, "ReachedFrom"))
			hm_toggle(hm, &hm->reachedfrom, "ReachedFrom", 1);
		return (TUI_R_DRAW);
	case HM_ACT_COLLECTABLE:
		if (hm_graph(hm, "Collectable"))
			hm_toggle(hm, &hm->collectable, "Collectable", 0);
		return (TUI_R_DRAW);
	case HM_ACT_INFO:
	case HM_ACT_INFO_PREV:
		hm_info_step(tv, a == HM_ACT_INFO ? 1 : -1);
		return (TUI_R_DRAW);
	case HM_ACT_FOCUS:
		if (LINES - 2 < 14) {
			tui_message("too small a screen for the info pane");
			return (TUI_R_DRAW);
		}
		if (!HM_IS_TABLE(hm->info))
			hm->info = (enum hm_info)(1 + TUI_HI_MODULES);
		hm_focus(tv, 1);
		tui_message("keys to %s: j k move, s < > sort, Enter marks"
		    " the row's objects, i or Escape: the map",
		    hm_info_name(hm->info));
		return (TUI_R_DRAW);
	case HM_ACT_UNPICK:
		hm_unpick(hm);
		return (TUI_R_DRAW);
	case HM_ACT_UPDATE:
		return (hm_update(tv));
	default:
		return (TUI_R_UNUSED);
	}
}

/* Screen row and column to a map row and column; -1 off the map. */
static int
hm_map_at(struct heapmap *hm, int y, int x, uint64_t *row, uint32_t *col)
{
	int	per = hm->halves ? 2 : 1;

	if (y < hm->map_y || y >= hm->map_y + hm->map_lines || x < hm->gw ||
	    x >= hm->gw + (int)hm->v.cols)
		return (-1);
	/* A half block's top half: the line's first row. */
	*row = hm->v.top + (uint64_t)(y - hm->map_y) * (uint64_t)per;
	*col = (uint32_t)(x - hm->gw);
	return (0);
}

/*
 * Left button: a click selects the object under it; held and dragged
 * over rows, it marks them and zooms into them when let go (so does the
 * right button); the middle button selects and shows what reaches the
 * object.  The wheel moves the map a fifth.
 */
static int
hm_mouse(struct tui_view *tv, int button, int y, int x)
{
	struct heapmap	*hm = tv->data;
	uint64_t	 row;
	uint32_t	 col;
	size_t		 b;
	int		 btn = button & 0xff, on, iy;

	if (!hm_shown(hm) || hm->s->nregions == 0)
		return (TUI_R_NONE);
	/*
	 * On an info table: a click gives it the keys and its cursor goes
	 * to the row; the wheel moves its cursor.  On the map, a click
	 * gives the keys back.
	 */
	iy = hm->map_y + hm->map_lines + hm->desc_lines + hm->legend_lines;
	if (HM_IS_TABLE(hm->info) && y >= iy && y < iy + hm->info_lines &&
	    !(button & (TUI_MOUSE_DRAG | TUI_MOUSE_RELEASE))) {
		hm_focus(tv, 1);
		if (button == 4 || button == 5)
			return (tui_list_action(&tv->list, button == 4 ?
			    TUI_ACT_UP : TUI_ACT_DOWN));
		if (y >= iy + 2 && tv->list.top + (size_t)(y - iy - 2) <
		    tv->list.n)
			tv->list.cur = tv->list.top + (size_t)(y - iy - 2);
		return (TUI_R_DRAW);
	}
	if (hm->focus && y < iy)
		hm_focus(tv, 0);
	if (button == 4 || button == 5) {
		hm_move(hm, ANALYZE_HEAPMAP_ROWS, (button == 4 ? -1 : 1) *
		    (int64_t)(hm->v.rows / 5 > 0 ? hm->v.rows / 5 : 1));
		return (TUI_R_DRAW);
	}
	on = hm_map_at(hm, y, x, &row, &col) == 0;
	if (button & TUI_MOUSE_DRAG) {
		if (!hm->drag || !on)
			return (TUI_R_NONE);
		hm->rows_on = 1;
		hm->rows_to = row + (hm->halves && row < hm->rows_from ? 0 :
		    (hm->halves ? 1 : 0));
		return (TUI_R_DRAW);
	}
	if (button & TUI_MOUSE_RELEASE) {
		if (!hm->drag)
			return (TUI_R_NONE);
		hm->drag = 0;
		if (hm->rows_on) {
			hm_zoom_rows(hm, hm->rows_from, hm->rows_to);
			return (TUI_R_DRAW);
		}
		return (TUI_R_NONE);
	}
	if (!on)
		return (TUI_R_NONE);
	if (btn == 1 || btn == 3) {
		/* The press: a drag may follow; a click selects now. */
		hm->drag = 1;
		hm->rows_on = 0;
		hm->rows_from = hm->rows_to = row;
		if (btn == 3)
			return (TUI_R_DRAW);
	}
	b = analyze_heapmap_block_at(hm->m, &hm->v, row, col);
	if (b == SIZE_MAX && hm->halves)
		b = analyze_heapmap_block_at(hm->m, &hm->v, row + 1, col);
	if (b == SIZE_MAX) {
		tui_message("no object there");
		return (TUI_R_DRAW);
	}
	hm_select(hm, b);
	if (btn == 2 && !hm->reachedfrom && hm_graph(hm, "ReachedFrom"))
		hm_toggle(hm, &hm->reachedfrom, "ReachedFrom", 1);
	return (TUI_R_DRAW);
}

/* Search: the objects whose type has the pattern, or at an address. */
static int
hm_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct heapmap	*hm = tv->data;

	if (hm->focus)
		return (tui_heapinfo_match(hm->hi, HM_TABLE(hm->info), row,
		    pattern));
	if (!hm_shown(hm) || row >= hm->s->nblocks)
		return (0);
	if (tui_search_in(&tv->search, hm->s->addr[row], hm->s->addr[row] +
	    (hm->s->usable[row] ? hm->s->usable[row] : 1)))
		return (1);
	return (tui_strcasestr(hm_type_name(hm, row), pattern));
}

static void
hm_free(struct tui_view *tv)
{
	struct heapmap	*hm = tv->data;
	size_t		 k;

	/* The loader's thread first: it may be making the info tables. */
	hm_load_stop(hm);
	hm_compare_stop(hm);
	for (k = 0; k < hm->nspecs; k++)
		free(hm->specs[k]);
	tui_heapinfo_free(hm->hi);
	free(hm->cells);
	free(hm->graph_error);
	free(hm->load_error);
	free(hm->typemark);
	free(hm->reach);
	free(hm->rfrom);
	free(hm->selset);
	free(hm->selwhat);
	free(hm->index_path);
	free(hm->lost);
	free(hm->first_what);
	free(hm->unloaded);
	hm_walk_abort(hm);
	tui_heaplive_free(hm->live);
	analyze_heapdiff_cmp_free(hm->cmp);
	analyze_heapdiff_remain_free(hm->remain_base);
	free(hm->hidden);
	hm_desc_off(hm);
	analyze_heapview_free(hm->s);
	free(hm->s);
	free(hm);
}

/* Stop the load (if it runs) and forget it. */
static void
hm_load_stop(struct heapmap *hm)
{
	tui_heapload_stop(hm->loader);
	hm->loader = NULL;
}

/* The loaded snapshot becomes the view's: its map, its first frame. */
static int
hm_loaded(struct tui_view *tv, uint64_t t0)
{
	struct heapmap	*hm = tv->data;
	char		*what;

	free(hm->s->program);
	hm->s->program = tui_session_name(tv->session);
	hm->session = tv->session;
	hm_ready(tv);
	what = hm_first_what(hm);
	tui_message("loaded %zu objects, %zu pointers in %llu ms%s",
	    hm->s->nblocks, hm->s->graph.nedges - hm->s->nroots,
	    (unsigned long long)(tui_now_ns() - t0) / 1000000, what);
	free(what);
	return (0);
}

/*
 * After a stored session's load, on the loader's thread: the info tables'
 * sums and sorts, which the browser does not touch before the load ends.
 */
static void
hm_load_after(void *arg, struct analyze_heapview *s)
{
	if (s->graph_ready)
		tui_heapinfo_make(arg);
}

/*
 * A stored session's load (heapload.c): begun, then waited for a slice
 * at a time; a deadline of 0 (^C, the view closing) stops it.
 */
static int
hm_load_work(struct tui_view *tv, uint64_t deadline)
{
	struct heapmap	*hm = tv->data;

	if (deadline == 0) {
		hm_load_stop(hm);
		hm->loading = 0;
		hm->load_error = xstrdup("loading was interrupted; q closes"
		    " the view, :open loads it again");
		return (0);
	}
	if (hm->loader == NULL) {
		hm->load_t0 = tui_now_ns();
		hm->loader = tui_heapload_start(tv->session, hm->s, 1,
		    hm_load_after, hm->hi);
	}
	if (tui_heapload_wait(hm->loader, deadline))
		return (1);
	hm->loading = 0;
	if (tui_heapload_end(hm->loader, &hm->load_error) != 0) {
		hm->loader = NULL;
		tui_message("error: %s", hm->load_error);
		return (0);
	}
	hm->loader = NULL;
	return (hm_loaded(tv, hm->load_t0));
}

/*
 * After the first frame: the heap graph and its states, which the map
 * does not need but the overlays, :select and the object pane do.  One
 * step (a few hundred milliseconds on a million blocks); a deadline of 0
 * (^C, or the view closing) leaves it unmade.
 */

static int
hm_work_one(struct tui_view *tv, uint64_t deadline)
{
	struct heapmap	*hm = tv->data;
	uint64_t	 t0 = tui_now_ns();
	char		*what;

	if (deadline == 0 && hm->comparing != NULL) {
		tui_message("compare with session %lld cancelled",
		    (long long)hm->comparing->id);
		hm_compare_stop(hm);
	}
	if (hm->walking != HM_WALK_NONE) {
		if (deadline == 0) {
			hm_walk_cancel(hm);
			return (0);
		}
		if (hm_walk_run(hm, deadline))
			return (1);
		/* Done: the next search the overlays want starts drawing. */
		return (hm->comparing != NULL);
	}
	if (hm->comparing != NULL && hm_compare_work(hm, deadline))
		return (1);
	if (hm->loading)
		return (hm_load_work(tv, deadline));
	if (hm->live != NULL && hm_shown(hm))
		return (hm_live_work(tv, deadline));
	if (deadline == 0 || hm->s->graph_ready || hm->graph_error != NULL)
		return (0);
	if (analyze_heapview_graph(hm->s, &hm->graph_error) != 0) {
		tui_message("error: %s", hm->graph_error);
		return (0);
	}
	hm_graph_ready(hm);
	what = hm_first_what(hm);
	tui_message("heap graph made in %llu ms: %zu pointers, %llu"
	    " collectable%s", (unsigned long long)(tui_now_ns() - t0) /
	    1000000, hm->s->graph.nedges - hm->s->nroots, (unsigned long long)
	    (hm->s->graph.counts[ANALYZE_HEAP_DEFINITE] +
	    hm->s->graph.counts[ANALYZE_HEAP_INDIRECT]), what);
	free(what);
	return (0);
}

/*
 * The loop's wake (a live map's look at the program each second) makes
 * the view busy; the work that runs then may be another's, a search's
 * say, which knows nothing of the wake it took.  So whatever work ends,
 * a live map's next look is set again: without it the program's end
 * went unsaid when the wake came during a search.
 */
static int
hm_work(struct tui_view *tv, uint64_t deadline)
{
	struct heapmap	*hm = tv->data;

	if (hm_work_one(tv, deadline))
		return (1);
	if (hm->live != NULL && hm_shown(hm))
		hm_live_arm(tv);
	return (0);
}

/*
 * The first screen, once the graph says what matters (issue 22): with
 * lost blocks, the map marks them (c) over the Leaks list; without, the
 * Live list, the stacks that hold the most bytes.  Once a view: a live
 * map's next snapshot keeps what the user chose since.
 */
static void
hm_first_screen(struct heapmap *hm)
{
	uint64_t	blocks, bytes;

	if (hm->first_done || tui_heapinfo_leaks(hm->hi, &blocks, &bytes) != 0)
		return;
	hm->first_done = 1;
	free(hm->first_what);
	if (blocks != 0) {
		hm->collectable = 1;
		hm->info = (enum hm_info)(1 + TUI_HI_LEAKS);
		hm->first_what = xasprintf("; leaks: %llu lost blocks, %llu"
		    " bytes, marked (c), by stack below", (unsigned long long)
		    blocks, (unsigned long long)bytes);
	} else {
		hm->info = (enum hm_info)(1 + TUI_HI_LIVE);
		hm->first_what = xstrdup("; no leaks: the stacks holding the"
		    " most bytes below");
	}
	hm->dirty = 1;
}

/* The first screen's words for the message that follows it, once. */
static char *
hm_first_what(struct heapmap *hm)
{
	char	*what = hm->first_what;

	hm->first_what = NULL;
	return (what != NULL ? what : xstrdup(""));
}

/* What the overlays keep, once the graph is there; the info lists. */
static void
hm_graph_ready(struct heapmap *hm)
{
	hm->reach = xcalloc_populated(hm->s->graph.nnodes + 1, 1);
	hm->rfrom = xcalloc_populated(hm->s->graph.nnodes + 1, 1);
	hm->lost = xcalloc_populated(hm->s->graph.nnodes + 1, 1);
	hm->dirty = 1;
	/* The info tables too, so their keys only sort and draw. */
	tui_heapinfo_make(hm->hi);
	hm_first_screen(hm);
}

/* The snapshot's map is made: what the view keeps for it. */
void
hm_ready(struct tui_view *tv)
{
	struct heapmap	*hm = tv->data;
	struct analyze_heapview *s = hm->s;

	hm->m = &s->map;
	hm->cur = s->nblocks > 0 ? 0 : SIZE_MAX;
	hm->typemark = xcalloc(s->ntypes + 1, 1);
	hm->selset = xcalloc_populated(s->nblocks + 1, 1);
	hm->unloaded = xcalloc(s->nmodules + 1, 1);
	hm->dirty = 1;
	hm->fit = 1;
	tv->list.n = s->nblocks;
	if (s->graph_ready)
		hm_graph_ready(hm);
}

/* Whether the view has a map to show (a stored one loads first). */
int
hm_shown(const struct heapmap *hm)
{
	return (!hm->loading && hm->load_error == NULL);
}

static int
hm_is_ready(struct tui_view *tv)
{
	return (hm_shown(tv->data));
}

/*
 * The diff view's Enter on a row, an allocation stack: once the graph
 * has made the info tables, the stack's blocks marked on the map and the
 * Live table, with the keys, on its row.
 */
static int
hm_find(struct tui_view *tv, const char *stack)
{
	struct heapmap	*hm = tv->data;
	size_t		 n, row;
	uint64_t	 blocks, bytes;

	if (!hm_shown(hm) || tui_heapinfo_leaks(hm->hi, &blocks, &bytes) != 0)
		return (1);
	hm_focus(tv, 0);
	hm->info = (enum hm_info)(1 + TUI_HI_LIVE);
	hm_focus(tv, 1);
	n = tui_heapinfo_pick_stack(hm->hi, stack, &row);
	if (row != SIZE_MAX)
		tui_list_goto(&tv->list, row);
	hm->dirty = 1;
	if (n == 0)
		tui_message("no live object of stack %s here", stack);
	else
		tui_message("marked %zu objects: stack %s (x unmarks)", n,
		    stack);
	return (0);
}

/* :export: the heap session's report (a snapshot from elsewhere: none). */
static int
hm_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	if (tv->session == 0) {
		*cause = xstrdup("this snapshot is not a stored session");
		return (-1);
	}
	return (report_session(tui_store(), tv->session, format, f, cause));
}

/*
 * The heap kind's live source (--attach): the map of a running program,
 * which updates by u, :update and --every.
 */
static void
hm_live_source(struct tui_view *tv, const struct tui_opts *opts)
{
	struct heapmap	*hm;

	if (tv->ops != &hm_ops)
		return;
	hm = tv->data;
	tui_heaplive_free(hm->live);
	hm->live = tui_heaplive_new(opts->live, opts->every, opts->keep,
	    opts->live_session, opts->live_file);
	hm_live_arm(tv);
}

static const struct tui_view_ops hm_ops = {
	.name = "heapmap",
	.keys = &hm_keys,
	.help = "a heap snapshot as HeapInspector's zoomable bitmap",
	.draw = hm_draw,
	.key = hm_key,
	.title = hm_title,
	.match = hm_match,
	.ready = hm_is_ready,
	.find = hm_find,
	.mouse = hm_mouse,
	.command = hm_command,
	.complete = hm_complete,
	.export = hm_export,
	.work = hm_work,
	.free = hm_free,
};


static struct tui_view *
hm_new(struct analyze_heapview *s)
{
	struct heapmap	*hm = xcalloc(1, sizeof *hm);
	const char	*env;

	hm->s = s;
	hm->m = &s->map;
	hm->fit = 1;
	hm->v.cols = 1;
	hm->v.rows = 1;
	hm->cur = SIZE_MAX;
	hm->sel = SIZE_MAX;
	hm->reach_of = hm->rfrom_of = SIZE_MAX;
	hm->hi = tui_heapinfo_new(s);
	hm->show_map = 1;
	hm->dirty = 1;
	hm->info = HM_INFO_OBJECT;
	if ((env = getenv("PROFVIEW_HEAPMAP_WALK")) != NULL)
		hm->walk_slice = strtoul(env, NULL, 10);
	/* The screen tests of other things start from a plain map. */
	if ((env = getenv("PROFVIEW_HEAPMAP_FIRST")) != NULL &&
	    strcmp(env, "plain") == 0)
		hm->first_done = 1;
	return (tui_view_new(&hm_ops, hm));
}

/*
 * Open the map on a snapshot (taken over: the view frees it): its map
 * made here, its graph after the first frame; NULL and a cause if the
 * snapshot contradicts itself.
 */
struct tui_view *
tui_heapmap_open(struct analyze_heapview *s, char **cause)
{
	struct tui_view	*tv;

	if (analyze_heapview_map(s, cause) != 0) {
		analyze_heapview_free(s);
		free(s);
		return (NULL);
	}
	tv = hm_new(s);
	hm_ready(tv);
	/* The map first; the graph after the first frame (hm_work). */
	tv->busy = 1;
	return (tv);
}

/*
 * A stored heap session: the view opens at once and loads in hm_work,
 * after the first frame, saying so meanwhile.
 */
static struct tui_view *
hm_open(int64_t id, char **cause)
{
	struct tui_view	*tv;
	struct heapmap	*hm;

	(void)cause;
	tv = hm_new(xcalloc(1, sizeof (struct analyze_heapview)));
	hm = tv->data;
	hm->loading = 1;
	tv->session = id;
	tv->busy = 1;
	tui_message("loading the heap snapshot of session %lld", (long long)id);
	return (tv);
}

static const struct tui_keys *const hm_groups[] = {
	&hm_keys, &hi_keys, NULL
};

const struct tui_mode tui_mode_heapmap = {
	.open = hm_open,
	.keys = hm_groups,
	.what = "the heap map",
	.commands = hm_commands,
	.colours = &hm_colours,
	.live = hm_live_source,
	.topics = hm_topics,
};
