/*
 * The heap map: HeapInspector's viewer of a heap snapshot.  The heap's
 * regions as rows of cells in address order (analyze/heapmap.c lays them
 * out and says what each cell shows), two rows of cells to a line with
 * half blocks where the terminal can (a UTF-8 locale and 256 colours),
 * a character a cell otherwise; a legend of each mark's colour and its
 * objects and bytes in view and in all; an info pane (the selected
 * object, or one of the seed's Info lists as a table, tui/heapinfo.c's,
 * which gets the keys with i); a status line of what is in view.
 *
 * The seed's vocabulary throughout: its moves (a page, a fifth, the
 * start a few cells on, Home, End), ZoomOut around the middle, its Show
 * bitmaps (here overlays of one map, a block taking the highest mark that
 * picks it) and Select, HeapMarkObjects (:mark) and TestUnloadModules.
 * The mouse: the seed's middle button (select) is the left one here, its
 * right (rows to zoom into) a drag with the left or right one, its left
 * (what reaches the object) the middle one.
 *
 * Marks are made again only when what picks them changes (an overlay, a
 * selection, :mark, :select, :testunload), once over the blocks; every
 * other key only asks the model for the cells in view.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curses.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "report/report.h"
#include "tui/tui.h"
#include "store/heap.h"

#define HM_NM		ANALYZE_HEAPMAP_NMARKS
#define HM_NONE		ANALYZE_HEAPMAP_NONE
#define HM_SNONE	ANALYZE_HEAPVIEW_NONE
#define HM_INFO_H	6	/* lines of the info pane */
#define HM_LEGEND_MAX	3	/* lines of the legend */
#define HM_MIN_PIXELS	16	/* :resizemap half stops here, as the seed */
#define HM_MAX_SPECS	8	/* :mark's colours */
/*
 * A search over the heap graph (r, R, the roots pane, onlyanchoredby)
 * runs at once for this long, so that the key that asked for it still
 * redraws within a frame (16 ms: the marks and the frame take the rest);
 * one that needs more goes on in the loop's slices with its progress
 * shown and Esc to cancel, its answer due within 200 ms (issue 11).
 */
#define HM_WALK_SYNC_NS	(4 * 1000 * 1000)
#define HM_WALK_STEP	(1 << 13)	/* pointers between clock looks: ~1 ms */

enum hm_walk {
	HM_WALK_NONE,
	HM_WALK_REACH,		/* hm->reach, for walk_of */
	HM_WALK_RFROM,		/* hm->rfrom, for walk_of */
	HM_WALK_ANCHORED	/* walk_mark, into the :select set */
};

/* The info pane: the object, heapinfo.c's tables (TUI_HI_*), none. */
enum hm_info {
	HM_INFO_OBJECT,
	HM_INFO_SIZES = 1 + TUI_HI_SIZES,
	HM_INFO_ROOTS = 1 + TUI_HI_ROOTS,
	HM_INFO_OFF = 1 + TUI_HI_COUNT,
	HM_NINFO
};
#define HM_TABLE(i)	((enum tui_heapinfo_table)((i) - 1))
#define HM_IS_TABLE(i)	((i) != HM_INFO_OBJECT && (i) != HM_INFO_OFF)

/* Each mark's colour, letter (without colours) and name in the legend. */
static const struct {
	enum tui_color	 color;
	char		 glyph;
	const char	*name;
} hm_marks[HM_NM] = {
	[ANALYZE_HEAPMAP_PLAIN] = { TUI_C_BLOCK, '#', "unmarked" },
	[ANALYZE_HEAPMAP_TYPE1] = { TUI_C_TYPE1, '1', NULL },
	[ANALYZE_HEAPMAP_TYPE2] = { TUI_C_TYPE2, '2', NULL },
	[ANALYZE_HEAPMAP_TYPE3] = { TUI_C_TYPE3, '3', NULL },
	[ANALYZE_HEAPMAP_TYPE4] = { TUI_C_TYPE4, '4', NULL },
	[ANALYZE_HEAPMAP_TYPE5] = { TUI_C_TYPE5, '5', NULL },
	[ANALYZE_HEAPMAP_TYPE6] = { TUI_C_TYPE6, '6', NULL },
	[ANALYZE_HEAPMAP_TYPE7] = { TUI_C_TYPE7, '7', NULL },
	[ANALYZE_HEAPMAP_TYPE8] = { TUI_C_TYPE8, '8', NULL },
	[ANALYZE_HEAPMAP_FREED] = { TUI_C_FREED, '-', "freed" },
	[ANALYZE_HEAPMAP_BORN] = { TUI_C_BORN, '+', "born" },
	[ANALYZE_HEAPMAP_KEPT] = { TUI_C_KEPT, 'k', "not collectable" },
	[ANALYZE_HEAPMAP_POSSIBLE] = { TUI_C_POSSIBLE, 'p', "possibly lost" },
	[ANALYZE_HEAPMAP_COLLECTABLE] = { TUI_C_COLLECTABLE, 'c',
	    "collectable" },
	[ANALYZE_HEAPMAP_UNLOAD] = { TUI_C_UNLOAD, 'u', "freed by unload" },
	[ANALYZE_HEAPMAP_REACHABLE] = { TUI_C_REACHABLE, 'r', "reachable" },
	[ANALYZE_HEAPMAP_REACHED_FROM] = { TUI_C_REACHED_FROM, 'f',
	    "reached from" },
	[ANALYZE_HEAPMAP_PICKED] = { TUI_C_PICKED, 'i', NULL },
	[ANALYZE_HEAPMAP_SELECTED] = { TUI_C_SELECTED, '@', "selected" },
};

/*
 * :compare ID loading session ID on the loader's thread (heapload.c), and
 * comparing it there with the snapshot shown, which the browser only
 * reads meanwhile (a live update stops it before it swaps the snapshot).
 */
struct hm_compare {
	struct tui_heapload		*load;
	struct analyze_heapview		*other;		/* ID's, being read */
	const struct analyze_heapview	*shown;
	int64_t				 id;
	struct analyze_heapdiff_cmp	*cmp;		/* made by the thread */
	char				*cause;
	uint64_t			 t0;
};

struct heapmap {
	struct analyze_heapview		*s;
	struct analyze_heapmap		*m;
	struct analyze_heapmap_view	 v;
	int				 halves;
	int				 fit;		/* zoom to fit */
	uint32_t			 maxh;		/* :resizemap's rows */

	/* Where the last frame put things. */
	int				 map_y;
	int				 map_lines;
	int				 legend_lines;
	int				 info_lines;
	int				 status_line;
	int				 gw;
	struct analyze_heapmap_cell	*cells;
	size_t				 ncells;
	struct analyze_heapmap_count	 inview[HM_NM];

	size_t				 cur;		/* block, or SIZE_MAX */
	size_t				 shown;		/* list.cur drawn */
	size_t				 sel;		/* selected object */
	int				 rows_on;	/* v: marking rows */
	uint64_t			 rows_from;
	uint64_t			 rows_to;
	int				 drag;		/* button held */

	/* What picks the marks. */
	int				 dirty;
	int				 show_map;
	int				 collectable;
	int				 notcollectable;
	int				 reachable;
	int				 reachedfrom;
	int				 markedonly;
	int				 freeze;
	int				 remain;
	uint8_t				*typemark;	/* per type: 0, 1..8 */
	char				*specs[HM_MAX_SPECS];
	size_t				 nspecs;
	uint8_t				*reach;		/* per node */
	size_t				 reach_of;
	uint8_t				*rfrom;		/* per node */
	size_t				 rfrom_of;
	uint8_t				*selset;	/* per block, :select */
	size_t				 nselset;
	char				*selwhat;
	uint8_t				*lost;		/* per node, unload */
	uint8_t				*unloaded;	/* per module */
	size_t				 nlost;

	enum hm_info			 info;
	int				 loading;	/* a stored session */
	struct tui_heapload		*loader;	/* its load */
	uint64_t			 load_t0;
	int64_t				 session;	/* it, once loaded */
	char				*load_error;
	char				*graph_error;
	/* The info tables; while one has the keys, the map's list here. */
	struct tui_heapinfo		*hi;
	int				 focus;
	struct tui_list			 maplist;

	/* The search running in steps, if any (one at a time). */
	struct analyze_heap_walk	 walk;
	enum hm_walk			 walking;
	size_t				 walk_of;	/* block */
	uint32_t			 walk_node;	/* anchored: x */
	uint8_t				*walk_mark;	/* anchored's */
	char				*walk_what;	/* anchored's */
	uint64_t			 walk_t0;
	/*
	 * PROFVIEW_HEAPMAP_WALK=N: N pointers a slice and nothing at once,
	 * so a screen test sees a search's progress and cancels it on a
	 * small heap as a user does on a large one.  0: by the clock.
	 */
	size_t				 walk_slice;

	/* Live (heaplive.c): the program, born/freed, Remain's objects. */
	struct tui_heaplive		*live;
	int				 live_ended;	/* said so */
	struct analyze_heapdiff_cmp		*cmp;
	struct hm_compare		*comparing;	/* :compare's load */
	struct analyze_heapdiff_remain		*remain_base;
	uint8_t				*hidden;	/* per block */
	uint64_t			 swapped;	/* an update's end */
};

static uint32_t
hm_node(const struct heapmap *hm, size_t b)
{
	return ((uint32_t)(1 + hm->s->nroots + b));
}

/* Bytes as people read them: exact under a KiB, else one decimal. */
static char *
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

static const char *
hm_type_name(const struct heapmap *hm, size_t b)
{
	uint32_t	t = hm->s->type[b];

	return (t == HM_SNONE ? "(no type)" : hm->s->types[t].name);
}

static const char *
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
static void
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
		if (hm->info == HM_INFO_ROOTS)
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
static void
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
	return (hm->reachedfrom || hm->info == HM_INFO_ROOTS);
}

/*
 * Make the reach sets the overlays (and the roots pane) need for the
 * selected object, or begin the search that makes them.
 */
static void
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
static void
hm_make_marks(struct heapmap *hm)
{
	const struct analyze_heapview	*s = hm->s;
	const uint8_t			*st = s->graph.state;
	const uint32_t			*type = s->type;
	const uint8_t			*pick;
	const char			*name;
	uint8_t				*mk = hm->m->mark, k, st_mark[8];
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
	size_t	lo = 0, hi = hm->s->nblocks, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (hm->s->addr[mid] + (hm->s->usable[mid] ?
		    hm->s->usable[mid] : 1) > a)
			hi = mid;
		else
			lo = mid + 1;
	}
	return (lo);
}

static int
hm_row_visible(const struct heapmap *hm, uint64_t row)
{
	return (row >= hm->v.top && row < hm->v.top + hm->v.rows);
}

/* The map row of block b's first byte. */
static uint64_t
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
static void
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
static void
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

static void	hm_layout(struct heapmap *, int, int);
static void	hm_draw_loading(struct heapmap *, int64_t, int, int);
static void	hm_load_stop(struct heapmap *);
static void	hm_compare_stop(struct heapmap *);
static int	hm_compare_work(struct heapmap *, uint64_t);
static void	hm_focus(struct tui_view *, int);
static void	hm_graph_ready(struct heapmap *);
static void	hm_ready(struct tui_view *);
static int	hm_shown(const struct heapmap *);

/* Where a live map is: what an update does, or the program's state. */
static const char *
hm_live_title(struct heapmap *hm)
{
	static char	buf[128];
	const char	*doing = tui_heaplive_doing(hm->live);

	if (doing != NULL)
		snprintf(buf, sizeof buf, ", updating: %s", doing);
	else if (tui_heaplive_ended(hm->live))
		snprintf(buf, sizeof buf, ", the program has ended");
	else if (tui_heaplive_every_secs(hm->live) != 0)
		snprintf(buf, sizeof buf, ", live (pid %ld, every %gs)",
		    (long)tui_heaplive_pid(hm->live),
		    tui_heaplive_every_secs(hm->live));
	else
		snprintf(buf, sizeof buf, ", live (pid %ld)",
		    (long)tui_heaplive_pid(hm->live));
	return (buf);
}

static char *
hm_title(struct tui_view *tv)
{
	struct heapmap	*hm = tv->data;
	char		*b, *t;

	if (!hm_shown(hm))
		return (xasprintf("profview: %s: heap map, %s",
		    hm->s->program != NULL ? hm->s->program : "session",
		    hm->loading ? "loading" : "failed"));
	if (hm->s->nregions != 0)
		hm_layout(hm, LINES - 2, COLS);
	b = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
	t = xasprintf("profview: %s: heap map, %zu objects, %s a cell%s",
	    hm->s->program, hm->s->nblocks, b, hm->live != NULL ?
	    hm_live_title(hm) : "");
	free(b);
	return (t);
}

/* The legend: each mark with a block, its colour, in view and in all. */
static int
hm_legend(struct heapmap *hm, int y, int lines, int w, int draw)
{
	struct analyze_heapmap_count tot[HM_NM];
	char		*line, *vb, *tb;
	const char	*name;
	int		 x = 0, k, used = 1, n;

	memcpy(tot, hm->m->total, sizeof tot);
	/* Freed objects are no blocks of this snapshot's map. */
	analyze_heapdiff_cmp_totals(hm->cmp, tot);
	for (k = HM_NM - 1; k >= 0; k--) {
		if (tot[k].blocks == 0)
			continue;
		name = hm_marks[k].name;
		if (k >= ANALYZE_HEAPMAP_TYPE1 && k <= ANALYZE_HEAPMAP_TYPE8)
			name = hm->specs[k - ANALYZE_HEAPMAP_TYPE1];
		if (k == ANALYZE_HEAPMAP_PICKED &&
		    tui_heapinfo_picked(hm->hi, &name) == NULL)
			continue;
		/* Measured with the totals, so the lines stay put. */
		tb = hm_size(tot[k].bytes);
		line = xasprintf(" %s %llu (%s) of %llu (%s)", name,
		    (unsigned long long)tot[k].blocks, tb,
		    (unsigned long long)tot[k].blocks, tb);
		n = 2 + tui_strwidth(line) + 2;
		free(line);
		vb = hm_size(hm->inview[k].bytes);
		line = xasprintf(" %s %llu (%s) of %llu (%s)", name,
		    (unsigned long long)hm->inview[k].blocks, vb,
		    (unsigned long long)tot[k].blocks, tb);
		free(vb);
		free(tb);
		if (x > 0 && x + n > w) {
			if (used == lines) {
				free(line);
				break;
			}
			used++;
			x = 0;
		}
		if (draw) {
			if (hm->halves) {
				tui_put_halves(y + used - 1, x,
				    hm_marks[k].color, hm_marks[k].color);
				tui_put_halves(y + used - 1, x + 1,
				    hm_marks[k].color, hm_marks[k].color);
			} else {
				mvaddch(y + used - 1, x, (chtype)(unsigned char)
				    hm_marks[k].glyph |
				    (chtype)tui_attr(hm_marks[k].color));
				mvaddch(y + used - 1, x + 1,
				    (chtype)(unsigned char)hm_marks[k].glyph |
				    (chtype)tui_attr(hm_marks[k].color));
			}
			tui_put(y + used - 1, x + 2, w - x - 2, TUI_PLAIN,
			    line);
		}
		x += n;
		free(line);
	}
	return (used);
}

/* One cell as a character, for terminals without half blocks. */
static chtype
hm_glyph(const struct heapmap *hm, const struct analyze_heapmap_cell *c,
    int cursor)
{
	chtype	ch;
	int	attr;

	if (c->mark >= HM_NM) {
		ch = ' ';
		attr = TUI_PLAIN;
	} else {
		ch = (chtype)(unsigned char)hm_marks[c->mark].glyph;
		/* Unmarked: '#' where a block starts, '=' on, ':' sparse. */
		if (c->mark == ANALYZE_HEAPMAP_PLAIN)
			ch = c->flags & ANALYZE_HEAPMAP_SPARSE ? ':' :
			    c->flags & ANALYZE_HEAPMAP_START ? '#' : '=';
		attr = tui_attr(hm_marks[c->mark].color);
	}
	if (cursor) {
		attr = tui_attr(TUI_C_HEAP_CURSOR);
		if (ch == ' ')
			ch = '_';
	}
	return (ch | (chtype)attr);
}

static enum tui_color
hm_color(const struct analyze_heapmap_cell *c)
{
	return (c->mark < HM_NM ? hm_marks[c->mark].color : TUI_C_NONE);
}

/* The map: a label for each line, then its cells. */
static void
hm_draw_map(struct heapmap *hm, int w)
{
	struct analyze_heapmap_cell	*c0, *c1;
	uint64_t			 row, cur_row = UINT64_MAX, a, lo, hi;
	uint32_t			 cur_col = 0, x;
	long				 r;
	int				 i, per = hm->halves ? 2 : 1, attr, sel;
	enum tui_color			 top, bot;
	char				 label[32];

	if (hm->cur != SIZE_MAX)
		cur_row = hm_block_row(hm, hm->cur, &cur_col);
	lo = hm->rows_from < hm->rows_to ? hm->rows_from : hm->rows_to;
	hi = hm->rows_from < hm->rows_to ? hm->rows_to : hm->rows_from;
	for (i = 0; i < hm->map_lines; i++) {
		row = hm->v.top + (uint64_t)i * (uint64_t)per;
		c0 = hm->cells + (size_t)i * (size_t)per * hm->v.cols;
		c1 = hm->halves ? c0 + hm->v.cols : NULL;
		sel = hm->rows_on && row + (uint64_t)per - 1 >= lo &&
		    row <= hi;
		if (hm->gw > 0 && (r = analyze_heapmap_row_addr(hm->m, &hm->v,
		    row, &a)) >= 0) {
			snprintf(label, sizeof label, "%*llx", hm->gw - 1,
			    (unsigned long long)a);
			/* A region's first row: its start, in bold. */
			attr = sel ? tui_attr(TUI_C_MATCH) :
			    a == hm->m->regions[r].lo ? (int)A_BOLD :
			    TUI_PLAIN;
			tui_put(hm->map_y + i, 0, hm->gw - 1, attr, label);
		}
		for (x = 0; x < hm->v.cols && hm->gw + (int)x < w; x++) {
			if (!hm->halves) {
				mvaddch(hm->map_y + i, hm->gw + (int)x,
				    hm_glyph(hm, &c0[x], row == cur_row &&
				    x == cur_col));
				continue;
			}
			top = row == cur_row && x == cur_col ?
			    TUI_C_HEAP_CURSOR : hm_color(&c0[x]);
			bot = row + 1 == cur_row && x == cur_col ?
			    TUI_C_HEAP_CURSOR : hm_color(&c1[x]);
			tui_put_halves(hm->map_y + i, hm->gw + (int)x, top,
			    bot);
		}
	}
}

/* The inspector: the selected object (or the cursor's). */
static void
hm_draw_object(struct heapmap *hm, int y, int h, int w)
{
	const struct analyze_heapview	*s = hm->s;
	const struct analyze_heap	*g = &s->graph;
	size_t				 b = hm->sel != SIZE_MAX ? hm->sel :
					    hm->cur, i, n;
	uint32_t			 node, t, v, roots = 0;
	uint64_t			 len;
	char				*stack, *hex, *txt, *p, *q;
	const char			*mod = "";
	int				 line = 0;

	if (b == SIZE_MAX) {
		tui_put(y, 0, w, TUI_PLAIN, "no object: the heap is empty");
		return;
	}
	node = hm_node(hm, b);
	t = s->type[b];
	if (t != HM_SNONE && s->types[t].module != HM_SNONE)
		mod = s->modules[s->types[t].module].name;
	tui_putf(y + line++, 0, w, A_BOLD, "%s %#llx: %s%s%s%s, %llu bytes"
	    " asked, %llu usable, %s", hm->sel == b ? "selected" : "cursor",
	    (unsigned long long)s->addr[b], hm_type_name(hm, b), *mod ? " (" :
	    "", mod, *mod ? ")" : "", (unsigned long long)s->size[b],
	    (unsigned long long)s->usable[b], s->graph_ready ?
	    hm_state_name(g->state[b]) : "state not known yet");
	if (line >= h)
		return;
	if (s->graph_ready) {
		for (i = g->in_off[node]; i < g->in_off[node + 1]; i++) {
			v = g->in[i] & 0x7fffffffu;
			if (v >= 1 && v <= s->nroots)
				roots++;
		}
		n = g->in_off[node + 1] - g->in_off[node];
		tui_putf(y + line++, 0, w, TUI_PLAIN, "referrers %zu (%u"
		    " roots), referents %u; block %zu of %zu", n, roots,
		    g->out_off[node + 1] - g->out_off[node], b + 1,
		    s->nblocks);
	} else
		tui_putf(y + line++, 0, w, TUI_PLAIN, "the heap graph is"
		    " being made; block %zu of %zu", b + 1, s->nblocks);
	stack = analyze_heapview_stack(s, s->site[b], (size_t)(h > 0 ? h : 1) *
	    (size_t)(w > 0 ? w : 1));
	p = xasprintf("allocated at %s", stack);
	free(stack);
	/* The stack over the lines left, the contents keeping the last. */
	for (q = p; *q != '\0' && line < h - (s->data_off != NULL ? 1 : 0);
	    line++) {
		n = strlen(q);
		tui_put(y + line, 0, w, TUI_PLAIN, q);
		q += n < (size_t)w ? n : (size_t)w;
	}
	free(p);
	if (s->data_off == NULL || line >= h)
		return;
	len = s->data_off[b + 1] - s->data_off[b];
	hex = xstrdup("");
	txt = xstrdup("");
	for (i = 0; i < len && i < 16; i++) {
		uint8_t	c = s->data[s->data_off[b] + i];

		p = xasprintf("%s%02x ", hex, c);
		free(hex);
		hex = p;
		p = xasprintf("%s%c", txt, isprint(c) ? c : '.');
		free(txt);
		txt = p;
	}
	tui_putf(y + line, 0, w, TUI_PLAIN, "contents (%llu of %llu bytes"
	    " kept): %s|%s|", (unsigned long long)(len < 16 ? len : 16),
	    (unsigned long long)len, hex, txt);
	free(hex);
	free(txt);
}

static void
hm_draw_info(struct tui_view *tv, int y, int h, int w)
{
	struct heapmap	*hm = tv->data;

	struct tui_list	*l;
	size_t		 of = hm->sel;

	if (hm->info == HM_INFO_OBJECT) {
		hm_draw_object(hm, y, h, w);
		return;
	}
	if (!HM_IS_TABLE(hm->info))
		return;
	l = hm->focus ? &tv->list : tui_heapinfo_list(hm->hi,
	    HM_TABLE(hm->info));
	/* The roots table takes R's search, which may still be going on. */
	if (hm->info == HM_INFO_ROOTS && hm->sel != SIZE_MAX &&
	    hm->s->graph_ready) {
		hm_reach(hm);
		if ((of = hm->rfrom_of) == SIZE_MAX) {
			tui_putf(y, 0, w, A_BOLD, "%s: searching for what"
			    " reaches %#llx: %zu objects so far (Esc"
			    " cancels)", tui_heapinfo_name(TUI_HI_ROOTS),
			    (unsigned long long)hm->s->addr[hm->sel],
			    hm->walking == HM_WALK_RFROM ? hm->walk.count :
			    0);
			l->n = 0;
			return;
		}
	}
	tui_heapinfo_draw(hm->hi, HM_TABLE(hm->info), l, of, hm->rfrom_of ==
	    SIZE_MAX ? NULL : hm->rfrom, hm->focus, y, h, w);
}

/* The status line: what is in view, a cell's bytes, the selection. */
static void
hm_draw_status(struct heapmap *hm, int y, int w)
{
	const struct analyze_heapmap_region *rg;
	uint64_t	 lo = 0, hi = 0, row, heap = 0;
	char		*span, *cell, *sz, *sel;
	long		 r = -1;
	size_t		 i;

	if (hm->rows_on) {
		tui_putf(y, 0, w, tui_attr(TUI_C_MATCH), "rows %llu-%llu"
		    " marked: v or Enter zooms into them, Escape cancels",
		    (unsigned long long)(hm->rows_from < hm->rows_to ?
		    hm->rows_from : hm->rows_to) + 1, (unsigned long long)
		    (hm->rows_from < hm->rows_to ? hm->rows_to :
		    hm->rows_from) + 1);
		return;
	}
	if (analyze_heapmap_span(hm->m, &hm->v, &lo, &hi) == 0)
		r = analyze_heapmap_row_addr(hm->m, &hm->v, hm->v.top, &row);
	/* The heap's bytes in the span, not the gaps between regions. */
	for (i = 0; i < hm->m->nregions; i++) {
		rg = &hm->m->regions[i];
		if (rg->hi > lo && rg->lo < hi)
			heap += (rg->hi < hi ? rg->hi : hi) - (rg->lo > lo ?
			    rg->lo : lo);
	}
	span = hm_size(heap);
	cell = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
	if (hm->sel != SIZE_MAX) {
		sz = hm_size(hm->s->usable[hm->sel]);
		sel = xasprintf("selected %#llx %s (%s)", (unsigned long long)
		    hm->s->addr[hm->sel], hm_type_name(hm, hm->sel), sz);
		free(sz);
	} else
		sel = xstrdup("nothing selected");
	tui_putf(y, 0, w, tui_attr(TUI_C_HEADER), "%#llx-%#llx in view (%s"
	    " of heap%s%s), %s a cell | %s", (unsigned long long)lo,
	    (unsigned long long)hi, span, r >= 0 ? ", from " : "", r >= 0 ?
	    hm->m->regions[r].name : "", cell, sel);
	free(span);
	free(cell);
	free(sel);
}

/*
 * Where things go on a screen h lines by w: the map's lines (the legend,
 * the info pane and the status line below it), its gutter, its cells;
 * the zoom that shows it all on the first time.  The title, drawn first,
 * lays out too, so that it says what the frame shows.
 */
static void
hm_layout(struct heapmap *hm, int h, int w)
{
	int		 legend, info, status, lines, per, digits;

	/* The legend's lines depend on the marks there are. */
	if (hm->dirty)
		hm_make_marks(hm);
	hm->halves = tui_halves();
	per = hm->halves ? 2 : 1;
	/* Small screens keep the map and the status line first. */
	status = h >= 2;
	info = hm->info != HM_INFO_OFF && h >= 14 ? HM_INFO_H : 0;
	/* A table with the keys gets half the screen, to show rows. */
	if (info != 0 && hm->focus && h / 2 > info)
		info = h / 2;
	legend = h >= 8 ? hm_legend(hm, 0, HM_LEGEND_MAX, w, 0) : 0;
	lines = h - status - info - legend;
	if (lines < 1)
		lines = 1;
	if (hm->maxh != 0 && (uint32_t)lines * (uint32_t)per > hm->maxh)
		lines = (int)((hm->maxh + (uint32_t)per - 1) / (uint32_t)per);
	hm->map_lines = lines;
	hm->legend_lines = legend;
	hm->info_lines = info;
	hm->status_line = status;
	for (digits = 1; digits < 16 && (hm->m->regions[hm->m->nregions -
	    1].hi >> (4 * digits)) != 0; digits++)
		/* nothing */;
	hm->gw = w >= 2 * (digits + 1) + 8 ? digits + 1 : 0;
	hm->v.cols = (uint32_t)(w - hm->gw > 0 ? w - hm->gw : 1);
	hm->v.rows = (uint32_t)(lines * per);
	/* A region starts a line, so its start address labels it. */
	hm->v.align = (uint32_t)per;
	if (hm->fit) {
		hm->v.zoom = analyze_heapmap_fit(hm->m, &hm->v);
		hm->v.phase = 0;
		hm->v.top = 0;
		hm->fit = 0;
	}
	analyze_heapmap_clamp(hm->m, &hm->v);
}

static void
hm_draw(struct tui_view *tv, int y, int h, int w)
{
	struct heapmap	*hm = tv->data;
	size_t		 n;

	tv->list.y = y;
	tv->list.height = h;
	if (!hm_shown(hm)) {
		if (hm->loading)
			hm_draw_loading(hm, tv->session, y + h / 2, w);
		else
			tui_putf(y + h / 2, 2, w - 2, tui_attr(TUI_C_ERROR),
			    "%s", hm->load_error);
		return;
	}
	if (hm->s->nregions == 0) {
		tui_put(y, 0, w, TUI_PLAIN, "an empty heap: no region, no"
		    " object");
		return;
	}
	hm_layout(hm, h, w);
	hm->map_y = y;
	/* The screen got too small for the pane: the keys to the map. */
	if (hm->focus && hm->info_lines == 0)
		hm_focus(tv, 0);
	/* A search moved the list's cursor: the map's follows. */
	if (!hm->focus && tv->list.cur != hm->shown && tv->list.cur <
	    hm->s->nblocks)
		hm_goto(hm, tv->list.cur);
	if (hm->cur == SIZE_MAX || hm->cur >= hm->s->nblocks)
		hm_follow(hm);
	hm->shown = hm->cur != SIZE_MAX ? hm->cur : 0;
	if (!hm->focus)
		tv->list.cur = hm->shown;
	n = (size_t)hm->v.rows * hm->v.cols;
	if (n > hm->ncells) {
		hm->cells = xreallocarray(hm->cells, n, sizeof *hm->cells);
		hm->ncells = n;
	}
	analyze_heapmap_frame(hm->m, &hm->v, hm->cells);
	analyze_heapmap_counts(hm->m, &hm->v, hm->inview);
	/* Freed objects where they were, in the cells now free. */
	analyze_heapdiff_cmp_frame(hm->cmp, &hm->v, hm->cells, hm->inview);
	hm_draw_map(hm, w);
	if (hm->legend_lines > 0)
		hm_legend(hm, y + hm->map_lines, hm->legend_lines, w, 1);
	if (hm->info_lines > 0)
		hm_draw_info(tv, y + hm->map_lines + hm->legend_lines,
		    hm->info_lines, w);
	if (hm->status_line)
		hm_draw_status(hm, y + h - 1, w);
	/* A search that did not finish at once goes on in the loop's slices. */
	if (hm->walking != HM_WALK_NONE)
		tv->busy = 1;
	if (hm->swapped != 0) {
		tui_trace("update_frame_us %llu", (unsigned long long)
		    (tui_now_ns() - hm->swapped) / 1000);
		hm->swapped = 0;
	}
}

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

/* A seed Move; the message when the heap's end stopped it. */
static void
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

static void
hm_zoom(struct heapmap *hm, int dz)
{
	char	*b;

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
static int
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
static void
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

static const struct tui_view_ops hm_ops, hm_info_ops;

/*
 * The keys to the info pane's table (on), or back to the map.  While the
 * table has them its list is the view's, so the loop moves its cursor
 * and the status line counts its rows, and the view answers to the name
 * "heapinfo", so the key table's heapinfo group applies.
 */
static void
hm_focus(struct tui_view *tv, int on)
{
	struct heapmap	*hm = tv->data;

	if (hm->focus) {
		*tui_heapinfo_list(hm->hi, HM_TABLE(hm->info)) = tv->list;
		tv->list = hm->maplist;
		tv->ops = &hm_ops;
		tv->search.stale = 1;
		hm->focus = 0;
	}
	if (!on || !HM_IS_TABLE(hm->info))
		return;
	hm->maplist = tv->list;
	tv->list = *tui_heapinfo_list(hm->hi, HM_TABLE(hm->info));
	tv->ops = &hm_info_ops;
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
	while (focus && !HM_IS_TABLE(hm->info));
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
hm_info_key(struct tui_view *tv, enum tui_action a)
{
	struct heapmap	*hm = tv->data;
	uint64_t	 addr;
	size_t		 b;
	int		 r;

	switch (a) {
	case TUI_ACT_HI_NEXT:
	case TUI_ACT_HI_PREV:
		hm_info_step(tv, a == TUI_ACT_HI_NEXT ? 1 : -1);
		return (TUI_R_DRAW);
	case TUI_ACT_HI_MAP:
		hm_focus(tv, 0);
		tui_message("keys to the map (i: to the table again)");
		return (TUI_R_DRAW);
	case TUI_ACT_HI_UNPICK:
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
static int	hm_update(struct tui_view *);

static int
hm_key(struct tui_view *tv, enum tui_action a)
{
	struct heapmap	*hm = tv->data;
	int64_t		 fifth = hm->v.rows / 5 > 0 ? hm->v.rows / 5 : 1;
	int64_t		 sixth = hm->v.cols / 6 > 0 ? hm->v.cols / 6 : 1;
	int64_t		 page = hm->v.rows > 1 ? hm->v.rows : 1;

	/* Until a stored session is loaded only the keys that leave. */
	if (!hm_shown(hm)) {
		switch (a) {
		case TUI_ACT_BACK:
		case TUI_ACT_ESCAPE:
		case TUI_ACT_QUIT:
		case TUI_ACT_HELP:
		case TUI_ACT_PROMPT:
		case TUI_ACT_REDRAW:
			return (TUI_R_UNUSED);
		default:
			return (TUI_R_NONE);
		}
	}
	if (hm->s->nregions == 0)
		return (TUI_R_UNUSED);
	if (hm->focus)
		return (hm_info_key(tv, a));
	switch (a) {
	case TUI_ACT_HM_PAGE_DOWN:
	case TUI_ACT_PAGE_DOWN:
		hm_move(hm, ANALYZE_HEAPMAP_ROWS, page);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_PAGE_UP:
	case TUI_ACT_PAGE_UP:
		hm_move(hm, ANALYZE_HEAPMAP_ROWS, -page);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_DOWN:
		hm_move(hm, ANALYZE_HEAPMAP_ROWS, fifth);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_UP:
		hm_move(hm, ANALYZE_HEAPMAP_ROWS, -fifth);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_RIGHT:
		hm_move(hm, ANALYZE_HEAPMAP_CELLS, sixth);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_LEFT:
		hm_move(hm, ANALYZE_HEAPMAP_CELLS, -sixth);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_HOME:
	case TUI_ACT_FIRST:
		hm_move(hm, ANALYZE_HEAPMAP_HOME, 0);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_END:
	case TUI_ACT_LAST:
		hm_move(hm, ANALYZE_HEAPMAP_END, 0);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_ZOOM_IN:
		hm_zoom(hm, -1);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_ZOOM_OUT:
		hm_zoom(hm, 1);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_CUR_LEFT:
		hm_cursor_step(hm, -1);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_CUR_RIGHT:
		hm_cursor_step(hm, 1);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_CUR_DOWN:
	case TUI_ACT_DOWN:
		hm_cursor_row(hm, 1);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_CUR_UP:
	case TUI_ACT_UP:
		hm_cursor_row(hm, -1);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_SELECT:
		if (hm->rows_on)
			hm_zoom_rows(hm, hm->rows_from, hm->rows_to);
		else if (hm->cur != SIZE_MAX)
			hm_select(hm, hm->cur);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_ROWS:
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
	case TUI_ACT_HM_REACHABLE:
		if (hm_graph(hm, "Reachable"))
			hm_toggle(hm, &hm->reachable, "Reachable", 1);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_REACHED_FROM:
		if (hm_graph(hm, "ReachedFrom"))
			hm_toggle(hm, &hm->reachedfrom, "ReachedFrom", 1);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_COLLECTABLE:
		if (hm_graph(hm, "Collectable"))
			hm_toggle(hm, &hm->collectable, "Collectable", 0);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_INFO:
	case TUI_ACT_HM_INFO_PREV:
		hm_info_step(tv, a == TUI_ACT_HM_INFO ? 1 : -1);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_FOCUS:
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
	case TUI_ACT_HM_UNPICK:
		hm_unpick(hm);
		return (TUI_R_DRAW);
	case TUI_ACT_HM_UPDATE:
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
	iy = hm->map_y + hm->map_lines + hm->legend_lines;
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

/* The words of args: "ADDR" or the first word in lower case. */
static int
hm_word(const char **args, char *buf, size_t len)
{
	size_t	n;

	*args += strspn(*args, " ");
	n = strcspn(*args, " ");
	if (n == 0)
		return (0);
	snprintf(buf, len, "%.*s", (int)n, *args);
	*args += n;
	*args += strspn(*args, " ");
	return (1);
}

static int
hm_addr(struct heapmap *hm, const char *text, uint64_t *a)
{
	char	*cause = NULL;
	int	 rel;

	if (analyze_heapmap_addr(hm->m, text, a, &rel, &cause) != 0) {
		tui_message("error: %s", cause);
		free(cause);
		return (-1);
	}
	if (rel)
		tui_message("%s: relative to the heap's start, %#llx", text,
		    (unsigned long long)*a);
	return (0);
}

static int
hm_cmd_zoomout(struct heapmap *hm, const char *args)
{
	char	*end, *b;
	double	 pct, f;
	int	 k = 0;

	if (*args == '\0') {
		/* The seed's ZoomOut ~: all of it, from its start. */
		hm->v.zoom = analyze_heapmap_fit(hm->m, &hm->v);
		analyze_heapmap_move(hm->m, &hm->v, ANALYZE_HEAPMAP_HOME, 0);
		b = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
		tui_message("the whole heap: %s a cell", b);
		free(b);
		hm_follow(hm);
		return (TUI_R_DRAW);
	}
	pct = strtod(args, &end);
	end += strspn(end, " ");
	if (*end == '%')
		end++;
	end += strspn(end, " ");
	if (end == args || *end != '\0' || pct <= -100) {
		tui_message("error: usage: :zoomout [N%%] (N above -100)");
		return (TUI_R_DRAW);
	}
	/* Cells hold powers of two: the nearest one to 1 + N %. */
	for (f = 1 + pct / 100; f >= 1.4142135623730951; f /= 2)
		k++;
	for (; f < 0.7071067811865476; f *= 2)
		k--;
	if (k == 0) {
		tui_message("%g%%: less than a zoom step (cells double or"
		    " halve)", pct);
		return (TUI_R_DRAW);
	}
	hm_zoom(hm, k);
	return (TUI_R_DRAW);
}

static int
hm_cmd_move(struct heapmap *hm, const char *args)
{
	char		 dir[16], *end;
	long long	 n = -1;
	int		 v;

	if (!hm_word(&args, dir, sizeof dir) || (strcasecmp(dir, "up") != 0 &&
	    strcasecmp(dir, "down") != 0 && strcasecmp(dir, "left") != 0 &&
	    strcasecmp(dir, "right") != 0)) {
		tui_message("error: usage: :move up|down|left|right [N]");
		return (TUI_R_DRAW);
	}
	if (*args != '\0') {
		n = strtoll(args, &end, 10);
		if (*end != '\0' || n < 0) {
			tui_message("error: :move: %s is not a count", args);
			return (TUI_R_DRAW);
		}
	}
	v = strcasecmp(dir, "up") == 0 || strcasecmp(dir, "down") == 0;
	/* The seed's: a quarter of the height, a sixth of the width. */
	if (n < 0)
		n = v ? (hm->v.rows / 4 > 0 ? hm->v.rows / 4 : 1) :
		    (hm->v.cols / 6 > 0 ? hm->v.cols / 6 : 1);
	if (strcasecmp(dir, "up") == 0 || strcasecmp(dir, "left") == 0)
		n = -n;
	hm_move(hm, v ? ANALYZE_HEAPMAP_ROWS : ANALYZE_HEAPMAP_CELLS, n);
	return (TUI_R_DRAW);
}

static int
hm_cmd_setmapto(struct heapmap *hm, const char *args)
{
	uint64_t	a;

	if (strcasecmp(args, "top") == 0)
		analyze_heapmap_move(hm->m, &hm->v, ANALYZE_HEAPMAP_HOME, 0);
	else if (strcasecmp(args, "bottom") == 0)
		analyze_heapmap_move(hm->m, &hm->v, ANALYZE_HEAPMAP_END, 0);
	else if (strcasecmp(args, "center") == 0 ||
	    strcasecmp(args, "centre") == 0)
		analyze_heapmap_center(hm->m, &hm->v,
		    analyze_heapmap_middle(hm->m));
	else if (*args == '\0') {
		tui_message("error: usage: :setmapto top|bottom|center|ADDR");
		return (TUI_R_DRAW);
	} else {
		if (hm_addr(hm, args, &a) != 0)
			return (TUI_R_DRAW);
		analyze_heapmap_center(hm->m, &hm->v, a);
		hm->cur = analyze_heapmap_find(hm->m, a);
	}
	hm_follow(hm);
	return (TUI_R_DRAW);
}

static int
hm_cmd_startmapat(struct heapmap *hm, const char *args)
{
	uint64_t	a;
	int		z = hm->v.zoom;
	char		*b;

	if (*args == '\0') {
		tui_message("error: usage: :startmapat ADDR");
		return (TUI_R_DRAW);
	}
	if (hm_addr(hm, args, &a) != 0)
		return (TUI_R_DRAW);
	analyze_heapmap_start_at(hm->m, &hm->v, a);
	if (hm->v.zoom != z) {
		b = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
		tui_message("zoomed in to fill the map: %s a cell", b);
		free(b);
	}
	hm->cur = SIZE_MAX;
	hm_follow(hm);
	return (TUI_R_DRAW);
}

static int
hm_cmd_resizemap(struct heapmap *hm, const char *args)
{
	uint32_t	h = hm->maxh != 0 ? hm->maxh : hm->v.rows;

	if (strcasecmp(args, "double") == 0) {
		h *= 2;
		/* As high as the screen gives: no limit kept. */
		if (h >= (uint32_t)LINES * 2)
			h = 0;
	} else if (strcasecmp(args, "half") == 0) {
		h /= 2;
		if (h < HM_MIN_PIXELS)
			h = HM_MIN_PIXELS;
	} else {
		tui_message("error: usage: :resizemap double|half");
		return (TUI_R_DRAW);
	}
	hm->maxh = h;
	if (h == 0)
		tui_message("the map as high as the screen");
	else
		tui_message("the map at most %u rows of cells", h);
	return (TUI_R_DRAW);
}

static const char *hm_show_words = "map collectable notcollectable reachable"
    " reachedfrom reachedfrommodules reachedfromvariables markedonly"
    " objectsizes freeze";

static int
hm_cmd_show(struct heapmap *hm, const char *args)
{
	char	w[32];
	int	any = 0;

	while (hm_word(&args, w, sizeof w)) {
		any = 1;
		if (strcasecmp(w, "map") == 0)
			hm_toggle(hm, &hm->show_map, "Map", 0);
		else if (strcasecmp(w, "collectable") == 0)
			hm_toggle(hm, &hm->collectable, "Collectable", 0);
		else if (strcasecmp(w, "notcollectable") == 0)
			hm_toggle(hm, &hm->notcollectable, "NotCollectable",
			    0);
		else if (strcasecmp(w, "reachable") == 0)
			hm_toggle(hm, &hm->reachable, "Reachable", 1);
		else if (strcasecmp(w, "reachedfrom") == 0)
			hm_toggle(hm, &hm->reachedfrom, "ReachedFrom", 1);
		else if (strcasecmp(w, "reachedfrommodules") == 0 ||
		    strcasecmp(w, "reachedfromvariables") == 0) {
			hm->info = hm->info == HM_INFO_ROOTS ? HM_INFO_OFF :
			    HM_INFO_ROOTS;
			tui_message("roots that reach the selected object %s",
			    hm->info == HM_INFO_ROOTS ? "shown" : "hidden");
		} else if (strcasecmp(w, "markedonly") == 0)
			hm_toggle(hm, &hm->markedonly, "MarkedOnly", 0);
		else if (strcasecmp(w, "objectsizes") == 0) {
			hm->info = hm->info == HM_INFO_SIZES ? HM_INFO_OFF :
			    HM_INFO_SIZES;
			tui_message("object sizes %s", hm->info ==
			    HM_INFO_SIZES ? "shown" : "hidden");
		} else if (strcasecmp(w, "freeze") == 0) {
			hm->freeze = !hm->freeze;
			hm->dirty = 1;
			tui_message("Freeze %s", hm->freeze ? "on" : "off");
		} else {
			tui_message("error: :show %s: not one of %s", w,
			    hm_show_words);
			return (TUI_R_DRAW);
		}
	}
	if (!any)
		tui_message("error: usage: :show WHAT (%s)", hm_show_words);
	return (TUI_R_DRAW);
}

/* Blocks whose type is picked in tm[] (a byte per type) into selset. */
static size_t
hm_select_types(struct heapmap *hm, const uint8_t *tm)
{
	size_t	b, n = 0;

	for (b = 0; b < hm->s->nblocks; b++) {
		hm->selset[b] = hm->s->type[b] != HM_SNONE &&
		    tm[hm->s->type[b]];
		n += hm->selset[b];
	}
	return (n);
}

/* A root by name or an object by address: its graph node. */
static int
hm_path(struct heapmap *hm, const char *path, uint32_t *node)
{
	uint32_t	r;
	uint64_t	a;
	size_t		b;
	char		*cause = NULL;
	int		rel;

	if ((r = analyze_heapview_root(hm->s, path, NULL)) != HM_SNONE) {
		*node = 1 + r;
		return (0);
	}
	if (analyze_heapmap_addr(hm->m, path, &a, &rel, &cause) == 0 &&
	    (b = analyze_heapmap_find(hm->m, a)) != SIZE_MAX) {
		*node = hm_node(hm, b);
		return (0);
	}
	free(cause);
	tui_message("error: %s: no root of that name (module:variable)"
	    " and no object at that address (fields of a variable need the"
	    " program's DWARF, not in this snapshot)", path);
	return (-1);
}

static int
hm_cmd_select(struct heapmap *hm, const char *args)
{
	const struct analyze_heap	*g = &hm->s->graph;
	struct analyze_heapview_hit	*hits;
	uint8_t				*tm, *mark;
	uint32_t			 node, m, base = 1 + hm->s->nroots;
	size_t				 n = 0, b, i;
	char				 w[32], *str, *end, *what;
	const char			*q;
	long long			 pos = 0;
	int				 rc = 1;

	if (!hm_word(&args, w, sizeof w)) {
		tui_message("error: usage: :select off|trace PATH|"
		    "onlyanchoredby PATH|object \"STRING\" [POS]|"
		    "typedescriptor [MODULE].[TYPE]|module NAME");
		return (TUI_R_DRAW);
	}
	if (hm->walking == HM_WALK_ANCHORED)
		hm_walk_abort(hm);
	memset(hm->selset, 0, hm->s->nblocks);
	free(hm->selwhat);
	hm->selwhat = NULL;
	hm->nselset = 0;
	hm->dirty = 1;
	if (strcasecmp(w, "off") == 0) {
		tui_message("selection off");
		return (TUI_R_DRAW);
	}
	/* A path through the snapshot's DWARF: where it ends points. */
	if (strcasecmp(w, "trace") == 0 && *args != '\0' && hm->session != 0 &&
	    (rc = analyze_heapview_trace(tui_store(), hm->session, hm->s,
	    args, &hits, &n, &str)) <= 0) {
		if (rc < 0) {
			tui_message("error: %s", str);
			free(str);
			return (TUI_R_DRAW);
		}
		for (i = 0; i < n; i++)
			hm->selset[hits[i].block] = 1;
		free(hits);
		for (b = n = 0; b < hm->s->nblocks; b++)
			n += hm->selset[b];
		what = xasprintf("trace %s", args);
	} else if (strcasecmp(w, "trace") == 0 ||
	    strcasecmp(w, "onlyanchoredby") == 0) {
		if (*args == '\0' || hm_path(hm, args, &node) != 0) {
			if (*args == '\0')
				tui_message("error: :select %s PATH", w);
			return (TUI_R_DRAW);
		}
		mark = xcalloc_populated(g->nnodes + 1, 1);
		if (strcasecmp(w, "onlyanchoredby") == 0) {
			/* A search over the graph: in steps if it is long. */
			hm_walk_abort(hm);
			analyze_heap_anchored_begin(&hm->walk, g, node, mark);
			hm->walk_mark = mark;
			hm->walk_node = node;
			hm->walk_what = xasprintf("only anchored by %s", args);
			hm_walk_start(hm, HM_WALK_ANCHORED, SIZE_MAX);
			return (TUI_R_DRAW);
		}
		/* trace: what the root or object points to. */
		if (node >= base)
			mark[node] = 1;
		else
			for (i = g->out_off[node]; i < g->out_off[node + 1];
			    i++)
				mark[g->out[i] & 0x7fffffffu] = 1;
		for (b = 0; b < hm->s->nblocks; b++) {
			hm->selset[b] = mark[base + b];
			n += hm->selset[b];
		}
		free(mark);
		what = xasprintf("trace %s", args);
	} else if (strcasecmp(w, "object") == 0) {
		q = args;
		if (*q != '"' || (end = strchr(q + 1, '"')) == NULL) {
			tui_message("error: :select object \"STRING\" [POS]");
			return (TUI_R_DRAW);
		}
		str = xasprintf("%.*s", (int)(end - q - 1), q + 1);
		q = end + 1 + strspn(end + 1, " ");
		if (*q != '\0') {
			pos = strtoll(q, &end, 0);
			if (*end != '\0' || pos < 0) {
				free(str);
				tui_message("error: :select object: %s is not"
				    " a position", q);
				return (TUI_R_DRAW);
			}
		}
		if (hm->s->data_off == NULL) {
			free(str);
			tui_message("error: this snapshot kept no contents"
			    " (pvheap --contents)");
			return (TUI_R_DRAW);
		}
		n = analyze_heapview_find(hm->s, str, strlen(str),
		    (uint64_t)pos, hm->selset);
		what = xasprintf("\"%s\" at %lld", str, pos);
		free(str);
	} else if (strcasecmp(w, "typedescriptor") == 0) {
		tm = xcalloc(hm->s->ntypes + 1, 1);
		/* [MODULE].[TYPE]: an empty side is any. */
		q = args;
		if (*q == '.')
			q++;
		if (q[0] != '\0' && q[strlen(q) - 1] == '.') {
			str = xasprintf("%.*s", (int)strlen(q) - 1, q);
			m = analyze_heapview_module(hm->s, str);
			free(str);
			for (i = 0; i < hm->s->ntypes; i++)
				tm[i] = m != HM_SNONE &&
				    hm->s->types[i].module == m;
		} else
			analyze_heapview_types(hm->s, q, tm);
		n = hm_select_types(hm, tm);
		free(tm);
		what = xasprintf("type %s", args);
	} else if (strcasecmp(w, "module") == 0) {
		if ((m = analyze_heapview_module(hm->s, args)) == HM_SNONE) {
			tui_message("error: no module %s", args);
			return (TUI_R_DRAW);
		}
		tm = xcalloc(hm->s->ntypes + 1, 1);
		for (i = 0; i < hm->s->ntypes; i++)
			tm[i] = hm->s->types[i].module == m;
		n = hm_select_types(hm, tm);
		free(tm);
		what = xasprintf("module %s", hm->s->modules[m].name);
	} else {
		tui_message("error: :select %s: not off, trace,"
		    " onlyanchoredby, object, typedescriptor or module", w);
		return (TUI_R_DRAW);
	}
	hm->nselset = n;
	hm->selwhat = what;
	tui_message("selected %zu objects: %s", n, what);
	return (TUI_R_DRAW);
}

static int
hm_cmd_mark(struct heapmap *hm, const char *args)
{
	uint8_t	*tm;
	char	 w[256];
	size_t	 i, k, n[HM_MAX_SPECS];
	char	*msg, *t;

	for (k = 0; k < hm->nspecs; k++)
		free(hm->specs[k]);
	hm->nspecs = 0;
	memset(hm->typemark, 0, hm->s->ntypes);
	hm->dirty = 1;
	tm = xcalloc(hm->s->ntypes + 1, 1);
	while (hm_word(&args, w, sizeof w)) {
		if (hm->nspecs == HM_MAX_SPECS) {
			tui_message("error: at most %d marks (the seed had 5)",
			    HM_MAX_SPECS);
			free(tm);
			return (TUI_R_DRAW);
		}
		n[hm->nspecs] = analyze_heapview_types(hm->s, w, tm);
		/* An earlier spec keeps the types it took. */
		for (i = 0; i < hm->s->ntypes; i++) {
			if (tm[i] && hm->typemark[i] == 0)
				hm->typemark[i] = (uint8_t)(hm->nspecs + 1);
		}
		hm->specs[hm->nspecs++] = xstrdup(w);
	}
	free(tm);
	if (hm->nspecs == 0) {
		tui_message("marks off");
		return (TUI_R_DRAW);
	}
	msg = xstrdup("marked");
	for (k = 0; k < hm->nspecs; k++) {
		t = xasprintf("%s %s (%zu type%s)", msg, hm->specs[k], n[k],
		    n[k] == 1 ? "" : "s");
		free(msg);
		msg = t;
	}
	tui_message("%s", msg);
	free(msg);
	return (TUI_R_DRAW);
}

static int
hm_cmd_testunload(struct heapmap *hm, const char *args)
{
	uint8_t		*drop;
	uint32_t	 m;
	size_t		 i, nu = 0;
	char		 w[256];

	memset(hm->lost, 0, hm->s->graph.nnodes);
	memset(hm->unloaded, 0, hm->s->nmodules);
	hm->nlost = 0;
	hm->dirty = 1;
	tui_heapinfo_unload(hm->hi, NULL, NULL);
	if (*args == '\0') {
		tui_message("test unload off");
		return (TUI_R_DRAW);
	}
	drop = xcalloc(hm->s->nmodules + 1, 1);
	while (hm_word(&args, w, sizeof w)) {
		if ((m = analyze_heapview_module(hm->s, w)) == HM_SNONE) {
			tui_message("error: no module %s", w);
			free(drop);
			return (TUI_R_DRAW);
		}
		drop[m] = 1;
	}
	hm->nlost = analyze_heapview_unload(hm->s, drop, hm->unloaded,
	    hm->lost);
	tui_heapinfo_unload(hm->hi, drop, hm->unloaded);
	for (i = 0; i < hm->s->nmodules; i++)
		nu += hm->unloaded[i];
	free(drop);
	tui_message("test unload of %zu module%s (importers too): %zu"
	    " objects freed", nu, nu == 1 ? "" : "s", hm->nlost);
	return (TUI_R_DRAW);
}

static int
hm_cmd_status(struct heapmap *hm)
{
	char	*cell = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));

	tui_message("zoom %s a cell; map %s%s%s%s%s%s%s; marks %zu;"
	    " selection %s; test unload %zu objects; %s", cell,
	    hm->show_map ? "on" : "off", hm->collectable ? ", collectable" :
	    "", hm->notcollectable ? ", notcollectable" : "", hm->reachable ?
	    ", reachable" : "", hm->reachedfrom ? ", reachedfrom" : "",
	    hm->markedonly ? ", markedonly" : "", hm->freeze ? ", frozen" : "",
	    hm->nspecs, hm->selwhat != NULL ? hm->selwhat : "none", hm->nlost,
	    hm->halves ? "half blocks" : "a character a cell");
	free(cell);
	return (TUI_R_DRAW);
}

static int	hm_cmd_remain(struct heapmap *, const char *);
static int	hm_cmd_update(struct tui_view *, const char *);
static int	hm_cmd_compare(struct tui_view *, const char *);

static int
hm_command(struct tui_view *tv, const char *name, const char *args)
{
	struct heapmap	*hm = tv->data;

	if (!hm_shown(hm) || hm->s->nregions == 0) {
		tui_message("error: %s", !hm_shown(hm) ? "the heap map is not"
		    " loaded" : "an empty heap");
		return (TUI_R_DRAW);
	}
	/* A command is the map's: it takes the keys back from a table. */
	hm_focus(tv, 0);
	if (strcasecmp(name, "zoomout") == 0)
		return (hm_cmd_zoomout(hm, args));
	if (strcasecmp(name, "move") == 0)
		return (hm_cmd_move(hm, args));
	if (strcasecmp(name, "setmapto") == 0)
		return (hm_cmd_setmapto(hm, args));
	if (strcasecmp(name, "startmapat") == 0)
		return (hm_cmd_startmapat(hm, args));
	if (strcasecmp(name, "resizemap") == 0)
		return (hm_cmd_resizemap(hm, args));
	/* (:show map and :mark need no graph; the rest of these do.) */
	if (strcasecmp(name, "show") == 0)
		return (strcasecmp(args, "map") == 0 || strcasecmp(args,
		    "markedonly") == 0 || strcasecmp(args, "objectsizes") ==
		    0 || hm_graph(hm, ":show") ? hm_cmd_show(hm, args) :
		    TUI_R_DRAW);
	if (strcasecmp(name, "select") == 0)
		return (hm_graph(hm, ":select") ? hm_cmd_select(hm, args) :
		    TUI_R_DRAW);
	if (strcasecmp(name, "mark") == 0)
		return (hm_cmd_mark(hm, args));
	if (strcasecmp(name, "testunload") == 0)
		return (hm_graph(hm, ":testunload") ? hm_cmd_testunload(hm,
		    args) : TUI_R_DRAW);
	if (strcasecmp(name, "status") == 0)
		return (hm_cmd_status(hm));
	if (strcasecmp(name, "remain") == 0)
		return (hm_cmd_remain(hm, args));
	if (strcasecmp(name, "update") == 0)
		return (hm_cmd_update(tv, args));
	if (strcasecmp(name, "compare") == 0)
		return (hm_cmd_compare(tv, args));
	tui_message("error: :%s is not a heap map command", name);
	return (TUI_R_DRAW);
}

/* Names of the modules, and of the types without spaces, for Tab. */
static char *
hm_names(struct heapmap *hm, int modules, int types)
{
	char	*out = xstrdup(""), *t;
	size_t	 i;

	for (i = 0; modules && i < hm->s->nmodules; i++) {
		t = xasprintf("%s %s", out, hm->s->modules[i].name);
		free(out);
		out = t;
	}
	for (i = 0; types && i < hm->s->ntypes; i++) {
		if (strchr(hm->s->types[i].name, ' ') != NULL)
			continue;
		t = xasprintf("%s %s", out, hm->s->types[i].name);
		free(out);
		out = t;
	}
	return (out);
}

static char *
hm_complete(struct tui_view *tv, const char *name, int arg)
{
	struct heapmap	*hm = tv->data;

	if (!hm_shown(hm))
		return (NULL);
	if (strcasecmp(name, "move") == 0)
		return (arg == 0 ? xstrdup("up down left right") : NULL);
	if (strcasecmp(name, "setmapto") == 0)
		return (arg == 0 ? xstrdup("top bottom center") : NULL);
	if (strcasecmp(name, "resizemap") == 0)
		return (arg == 0 ? xstrdup("double half") : NULL);
	if (strcasecmp(name, "remain") == 0)
		return (arg == 0 ? xstrdup("on off") : NULL);
	if (strcasecmp(name, "update") == 0)
		return (arg == 0 ? xstrdup("every off") : NULL);
	if (strcasecmp(name, "show") == 0)
		return (xstrdup(hm_show_words));
	if (strcasecmp(name, "select") == 0)
		return (arg == 0 ? xstrdup("off trace onlyanchoredby object"
		    " typedescriptor module") : hm_names(hm, 1, 1));
	if (strcasecmp(name, "mark") == 0)
		return (hm_names(hm, 1, 1));
	if (strcasecmp(name, "testunload") == 0)
		return (hm_names(hm, 1, 0));
	return (NULL);
}

/* Search: the objects whose type has the pattern, or at an address. */
static int
hm_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct heapmap	*hm = tv->data;

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
	free(hm->lost);
	free(hm->unloaded);
	hm_walk_abort(hm);
	tui_heaplive_free(hm->live);
	analyze_heapdiff_cmp_free(hm->cmp);
	analyze_heapdiff_remain_free(hm->remain_base);
	free(hm->hidden);
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

	free(hm->s->program);
	hm->s->program = tui_session_name(tv->session);
	hm->session = tv->session;
	hm_ready(tv);
	tui_message("loaded %zu objects, %zu pointers in %llu ms",
	    hm->s->nblocks, hm->s->graph.nedges - hm->s->nroots,
	    (unsigned long long)(tui_now_ns() - t0) / 1000000);
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

/* While a stored session loads: how far, and how to leave. */
static void
hm_draw_loading(struct heapmap *hm, int64_t session, int y, int w)
{
	uint64_t	rows = 0, total = 0;

	if (hm->loader != NULL)
		tui_heapload_progress(hm->loader, &rows, &total);
	if (total != 0 && rows <= total)
		tui_putf(y, 2, w - 2, TUI_PLAIN, "loading the heap snapshot"
		    " of session %lld: %llu of %llu objects, pointers and"
		    " roots read (%llu%%); q leaves", (long long)session,
		    (unsigned long long)rows, (unsigned long long)total,
		    (unsigned long long)(rows * 100 / total));
	else
		tui_putf(y, 2, w - 2, TUI_PLAIN, "loading the heap snapshot"
		    " of session %lld: its objects, the pointers between"
		    " them, the map; q leaves", (long long)session);
}

/*
 * After the first frame: the heap graph and its states, which the map
 * does not need but the overlays, :select and the object pane do.  One
 * step (a few hundred milliseconds on a million blocks); a deadline of 0
 * (^C, or the view closing) leaves it unmade.
 */
static int	hm_live_work(struct tui_view *, uint64_t);
static void	hm_live_arm(struct tui_view *);

static int
hm_work_one(struct tui_view *tv, uint64_t deadline)
{
	struct heapmap	*hm = tv->data;
	uint64_t	 t0 = tui_now_ns();

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
	tui_message("heap graph made in %llu ms: %zu pointers, %llu"
	    " collectable", (unsigned long long)(tui_now_ns() - t0) / 1000000,
	    hm->s->graph.nedges - hm->s->nroots, (unsigned long long)
	    (hm->s->graph.counts[ANALYZE_HEAP_DEFINITE] +
	    hm->s->graph.counts[ANALYZE_HEAP_INDIRECT]));
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
}

/* The snapshot's map is made: what the view keeps for it. */
static void
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
static int
hm_shown(const struct heapmap *hm)
{
	return (!hm->loading && hm->load_error == NULL);
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

/* Search in the info table that has the keys. */
static int
hm_info_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct heapmap	*hm = tv->data;

	return (tui_heapinfo_match(hm->hi, HM_TABLE(hm->info), row,
	    pattern));
}

/* ---- live: updates, born and freed, Remain (heaplive.c) ------------ */

/* The next time the view wants its work op: an update due, or a look. */
static void
hm_live_arm(struct tui_view *tv)
{
	struct heapmap	*hm = tv->data;
	uint64_t	 due, look;

	if (hm->live == NULL) {
		tui_wake(tv, 0);
		return;
	}
	/*
	 * Ended: at once, to say so (hm_live_work), if not said yet; in a
	 * second while --keep's delete runs, to see it end.
	 */
	if (tui_heaplive_ended(hm->live)) {
		tui_wake(tv, !hm->live_ended ? tui_now_ns() :
		    tui_heaplive_deleting(hm->live) ? tui_now_ns() +
		    1000000000 : 0);
		return;
	}
	/* Once a second, whether the program is still there. */
	look = tui_now_ns() + 1000000000;
	due = tui_heaplive_due(hm->live);
	tui_wake(tv, due != 0 && due < look ? due : look);
}

/* Remain's hidden objects, for the snapshot now shown. */
static void
hm_remain_apply(struct heapmap *hm)
{
	long	n;

	free(hm->hidden);
	hm->hidden = NULL;
	if (hm->remain_base == NULL)
		return;
	hm->hidden = xcalloc_populated(hm->s->nblocks + 1, 1);
	if ((n = analyze_heapdiff_remain_hide(hm->remain_base, hm->s,
	    hm->hidden)) < 0) {
		analyze_heapdiff_remain_free(hm->remain_base);
		hm->remain_base = NULL;
		hm->remain = 0;
		tui_message("error: remain off: the snapshots are not in"
		    " address order");
	}
	hm->dirty = 1;
}

/* Block b of the new snapshot, from block ob of the old one via c. */
static size_t
hm_carry(const struct analyze_heapdiff_cmp *c,
    const struct analyze_heapview *ns, const struct analyze_heapview *os,
    size_t ob)
{
	size_t	lo = 0, hi = ns->nblocks, mid;

	if (ob == SIZE_MAX || c == NULL)
		return (SIZE_MAX);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ns->addr[mid] < os->addr[ob])
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ns->nblocks && analyze_heapdiff_cmp_was(c, lo) == ob)
		return (lo);
	return (SIZE_MAX);
}

/*
 * Show snapshot ns (session id) in place of the one shown, compared with
 * it: the same place in the heap at the same zoom, the same overlays and
 * :mark specs, the selected object and the :select set where their
 * blocks still exist (same address and allocation number).
 */
static void
hm_replace(struct tui_view *tv, struct analyze_heapview *ns, int64_t id,
    struct analyze_heapdiff_cmp *c, struct tui_heapinfo *hi)
{
	struct heapmap		*hm = tv->data;
	struct analyze_heapview	*os = hm->s;
	uint8_t			*oldset = hm->selset, *tm;
	char			*bb, *fb;
	uint64_t		 top = 0, row, born_b, freed_b;
	uint32_t		 col;
	size_t			 sel, cur, b, w, k, i, born, freed;
	int			 at_top, gone;

	at_top = analyze_heapmap_row_addr(hm->m, &hm->v, hm->v.top,
	    &top) >= 0;
	sel = hm_carry(c, ns, os, hm->sel);
	cur = hm_carry(c, ns, os, hm->cur);
	gone = hm->sel != SIZE_MAX && sel == SIZE_MAX;
	/* A :compare reads the snapshot that goes now. */
	hm_compare_stop(hm);
	analyze_heapdiff_cmp_free(hm->cmp);
	hm->cmp = c;

	/* What was made for the old snapshot goes with it. */
	free(hm->typemark);
	free(hm->unloaded);
	free(hm->reach);
	free(hm->rfrom);
	free(hm->lost);
	hm->reach = hm->rfrom = hm->lost = NULL;
	hm->nlost = 0;
	/* A search over the old graph; the old snapshot's info tables. */
	hm_walk_abort(hm);
	hm_focus(tv, 0);
	tui_heapinfo_free(hm->hi);
	hm->hi = hi != NULL ? hi : tui_heapinfo_new(ns);
	hm->reach_of = hm->rfrom_of = SIZE_MAX;
	free(ns->program);
	ns->program = tui_session_name(id);
	hm->s = ns;
	tv->session = id;
	hm->session = id;
	hm_ready(tv);

	/* The :select set, block by block; the :mark specs, type by type. */
	hm->nselset = 0;
	for (b = 0; c != NULL && oldset != NULL && b < ns->nblocks; b++) {
		w = analyze_heapdiff_cmp_was(c, b);
		hm->selset[b] = w != ANALYZE_HEAPVIEW_NONE && oldset[w];
		hm->nselset += hm->selset[b];
	}
	free(oldset);
	tm = xcalloc(ns->ntypes + 1, 1);
	for (k = 0; k < hm->nspecs; k++) {
		analyze_heapview_types(ns, hm->specs[k], tm);
		for (i = 0; i < ns->ntypes; i++) {
			if (tm[i] && hm->typemark[i] == 0)
				hm->typemark[i] = (uint8_t)(k + 1);
		}
	}
	free(tm);
	analyze_heapview_free(os);
	free(os);

	/* The same place: the address that was top left, at the zoom. */
	hm->fit = 0;
	hm->sel = sel;
	hm->cur = sel != SIZE_MAX ? sel : cur;
	if (at_top && analyze_heapmap_locate(hm->m, &hm->v, top, &row,
	    &col) == 0)
		hm->v.top = hm->v.align > 1 ? row - row % hm->v.align : row;
	analyze_heapmap_clamp(hm->m, &hm->v);
	hm_remain_apply(hm);
	hm->dirty = 1;
	if (c == NULL)
		return;
	analyze_heapdiff_cmp_counts(c, &born, &born_b, &freed, &freed_b);
	bb = hm_size(born_b);
	fb = hm_size(freed_b);
	tui_message("since session %lld: %zu born (%s), %zu freed (%s);"
	    " now session %lld%s", (long long)analyze_heapdiff_cmp_against(c),
	    born, bb, freed, fb, (long long)id, gone ? ", the selected object"
	    " was freed" : "");
	free(bb);
	free(fb);
}

/* Start an update; say why not. */
static int
hm_update(struct tui_view *tv)
{
	struct heapmap	*hm = tv->data;
	char		*cause = NULL;

	if (hm->live == NULL) {
		tui_message("error: :update needs a live program (profview"
		    " --attach); this is a stored snapshot");
		return (TUI_R_DRAW);
	}
	if (tui_heaplive_start(hm->live, hm->s, tv->session, &cause) != 0) {
		tui_message("%s%s", tui_heaplive_ended(hm->live) ? "" :
		    "error: ", cause);
		free(cause);
		hm_live_arm(tv);
		return (TUI_R_DRAW);
	}
	tui_message("update: taking a snapshot of pid %ld",
	    (long)tui_heaplive_pid(hm->live));
	tv->busy = 1;
	return (TUI_R_DRAW);
}

/*
 * A live map's background work: an update's steps, one due by itself,
 * or a look whether the program is still there.  A deadline of 0
 * cancels an update (the map keeps the snapshot it shows).
 */
static int
hm_live_work(struct tui_view *tv, uint64_t deadline)
{
	struct heapmap		*hm = tv->data;
	struct analyze_heapview	*ns;
	struct analyze_heapdiff_cmp	*c;
	const char		*before;
	char			*cause = NULL;
	int64_t			 id = 0;
	uint64_t		 due, a, i, l, d, t0;
	int			 r;

	tui_heaplive_tidy(hm->live);
	if (!tui_heaplive_busy(hm->live)) {
		if (deadline == 0)
			return (0);
		due = tui_heaplive_due(hm->live);
		if (due != 0 && tui_now_ns() >= due) {
			hm_update(tv);
			return (tui_heaplive_busy(hm->live));
		}
		if (tui_heaplive_ended(hm->live) && !hm->live_ended) {
			hm->live_ended = 1;
			tui_message("the program (pid %ld) has ended: session"
			    " %lld, its last snapshot, stays",
			    (long)tui_heaplive_pid(hm->live),
			    (long long)tv->session);
		}
		return (0);
	}
	before = tui_heaplive_doing(hm->live);
	r = tui_heaplive_step(hm->live, deadline, &ns, &id, &c, &cause);
	if (r == 1) {
		if (tui_heaplive_doing(hm->live) != before)
			tui_message("update: %s", tui_heaplive_doing(
			    hm->live));
		return (1);
	}
	if (deadline == 0)
		tui_message("update cancelled: the map shows session %lld",
		    (long long)tv->session);
	else if (ns != NULL) {
		tui_heaplive_times(hm->live, &a, &i, &l, &d);
		t0 = tui_now_ns();
		hm_replace(tv, ns, id, c, tui_heaplive_info(hm->live));
		hm->swapped = tui_now_ns();
		/* --keep: the oldest go once the new one is shown. */
		tui_heaplive_prune(hm->live, id);
		if (c == NULL)
			tui_message("error: update: session %lld shown, not"
			    " compared: %s", (long long)id, cause);
		/* For bench/heaplive: the parts of one update. */
		tui_trace("update_us snapshot %llu ingest %llu load %llu"
		    " compare %llu replace %llu", (unsigned long long)a,
		    (unsigned long long)i, (unsigned long long)l,
		    (unsigned long long)d, (unsigned long long)
		    (hm->swapped - t0) / 1000);
	} else if (cause != NULL) {
		if (tui_heaplive_ended(hm->live)) {
			hm->live_ended = 1;
			tui_message("%s: session %lld stays", cause,
			    (long long)tv->session);
		} else
			tui_message("error: update: %s", cause);
	}
	free(cause);
	return (0);
}

static int
hm_cmd_update(struct tui_view *tv, const char *args)
{
	struct heapmap	*hm = tv->data;
	char		 w[16], *end;
	double		 secs;

	if (*args == '\0')
		return (hm_update(tv));
	if (hm->live == NULL)
		return (hm_update(tv));
	if (!hm_word(&args, w, sizeof w) || (strcasecmp(w, "off") == 0 &&
	    *args != '\0') || (strcasecmp(w, "every") != 0 &&
	    strcasecmp(w, "off") != 0)) {
		tui_message("error: usage: :update [every SECS|off]");
		return (TUI_R_DRAW);
	}
	if (strcasecmp(w, "off") == 0 || strcasecmp(args, "off") == 0) {
		tui_heaplive_every(hm->live, 0);
		tui_message("updates only when asked (u, :update)");
		hm_live_arm(tv);
		return (TUI_R_DRAW);
	}
	secs = strtod(args, &end);
	if (end == args || *end != '\0' || !(secs >= 0.1) ||
	    secs > 86400) {
		tui_message("error: :update every SECS: seconds, 0.1 to"
		    " 86400");
		return (TUI_R_DRAW);
	}
	tui_heaplive_every(hm->live, secs);
	tui_message("an update every %g s", secs);
	hm_live_arm(tv);
	return (TUI_R_DRAW);
}

static int
hm_cmd_remain(struct heapmap *hm, const char *args)
{
	if (strcasecmp(args, "on") != 0 && strcasecmp(args, "off") != 0) {
		tui_message("error: usage: :remain on|off");
		return (TUI_R_DRAW);
	}
	analyze_heapdiff_remain_free(hm->remain_base);
	hm->remain_base = NULL;
	hm->remain = strcasecmp(args, "on") == 0;
	if (hm->remain)
		hm->remain_base = analyze_heapdiff_remain_new(hm->s);
	hm_remain_apply(hm);
	hm->dirty = 1;
	if (hm->remain)
		tui_message("remain on: only the %zu objects there now are"
		    " shown, after updates too", hm->s->nblocks);
	else
		tui_message("remain off: every object is shown");
	return (TUI_R_DRAW);
}

/* On the loader's thread: the snapshot read, compared with the shown. */
static void
hm_compare_after(void *arg, struct analyze_heapview *other)
{
	struct hm_compare	*hc = arg;

	hc->cmp = analyze_heapdiff_cmp_new(other, hc->id, hc->shown,
	    &hc->cause);
}

/* Give up a :compare under way (Esc, ^C, an update, the view closing). */
static void
hm_compare_stop(struct heapmap *hm)
{
	struct hm_compare	*hc = hm->comparing;

	if (hc == NULL)
		return;
	if (hc->load != NULL)
		tui_heapload_stop(hc->load);
	analyze_heapview_free(hc->other);
	free(hc->other);
	analyze_heapdiff_cmp_free(hc->cmp);
	free(hc->cause);
	free(hc);
	hm->comparing = NULL;
}

/* A slice of :compare: 1 while it loads, 0 once shown (or failed). */
static int
hm_compare_work(struct heapmap *hm, uint64_t deadline)
{
	struct hm_compare	*hc = hm->comparing;
	struct analyze_heapdiff_cmp	*c;
	char			*cause, *bb, *fb;
	uint64_t		 rows, total, born_b, freed_b;
	size_t			 born, freed;

	if (tui_heapload_wait(hc->load, deadline)) {
		tui_heapload_progress(hc->load, &rows, &total);
		tui_message("comparing with session %lld: %llu of %llu rows"
		    " read (Esc cancels)", (long long)hc->id,
		    (unsigned long long)rows, (unsigned long long)total);
		return (1);
	}
	if (tui_heapload_end(hc->load, &cause) != 0 || hc->cmp == NULL) {
		hc->load = NULL;
		tui_message("error: %s", cause != NULL ? cause : hc->cause);
		free(cause);
		hm_compare_stop(hm);
		return (0);
	}
	hc->load = NULL;
	c = hc->cmp;
	hc->cmp = NULL;
	analyze_heapdiff_cmp_free(hm->cmp);
	hm->cmp = c;
	hm->dirty = 1;
	analyze_heapdiff_cmp_counts(c, &born, &born_b, &freed, &freed_b);
	bb = hm_size(born_b);
	fb = hm_size(freed_b);
	tui_message("since session %lld: %zu born (%s), %zu freed (%s), in"
	    " %llu ms", (long long)hc->id, born, bb, freed, fb,
	    (unsigned long long)(tui_now_ns() - hc->t0) / 1000000);
	free(bb);
	free(fb);
	hm_compare_stop(hm);
	return (0);
}

/*
 * :compare [ID|off]: born and freed since session ID, an earlier
 * snapshot of the same run (by default the one before this one).
 */
static int
hm_cmd_compare(struct tui_view *tv, const char *args)
{
	struct heapmap		*hm = tv->data;
	struct hm_compare	*hc;
	char			*end;
	long long		 id;
	struct store_heap	 h, o;

	if (strcasecmp(args, "off") == 0) {
		hm_compare_stop(hm);
		analyze_heapdiff_cmp_free(hm->cmp);
		hm->cmp = NULL;
		hm->dirty = 1;
		tui_message("compare off: no born or freed objects shown");
		return (TUI_R_DRAW);
	}
	if (tv->session == 0 || store_heap_get(tui_store(), tv->session,
	    &h) != 0) {
		tui_message("error: :compare needs a stored heap session");
		return (TUI_R_DRAW);
	}
	if (*args == '\0') {
		id = store_heap_previous(tui_store(), tv->session);
		if (id <= 0) {
			tui_message("error: no earlier snapshot of this run"
			    " (pid %lld) is stored", (long long)h.pid);
			return (TUI_R_DRAW);
		}
	} else {
		id = strtoll(args, &end, 10);
		if (*end != '\0' || id <= 0) {
			tui_message("error: usage: :compare [ID|off]");
			return (TUI_R_DRAW);
		}
	}
	if (store_heap_get(tui_store(), id, &o) != 0) {
		tui_message("error: session %lld is not a heap snapshot", id);
		return (TUI_R_DRAW);
	}
	if (o.pid != h.pid || o.started_ns != h.started_ns ||
	    h.started_ns == 0) {
		tui_message("error: session %lld is not of this run (pid %lld"
		    " started at %lld): its blocks' numbers mean other"
		    " things", id, (long long)h.pid, (long long)h.started_ns);
		return (TUI_R_DRAW);
	}
	if (o.time_ns > h.time_ns) {
		tui_message("error: session %lld was taken after this one:"
		    " open it (:open %lld) and compare with %lld", id, id,
		    (long long)tv->session);
		return (TUI_R_DRAW);
	}
	/* Read and compared on a thread; hm_work shows it when done. */
	hm_compare_stop(hm);
	hc = xcalloc(1, sizeof *hc);
	hc->other = xcalloc(1, sizeof *hc->other);
	hc->shown = hm->s;
	hc->id = id;
	hc->t0 = tui_now_ns();
	hm->comparing = hc;
	hc->load = tui_heapload_start(id, hc->other, 0, hm_compare_after,
	    hc);
	tv->busy = 1;
	tui_message("comparing with session %lld (Esc cancels)", id);
	return (TUI_R_DRAW);
}

/* The map of a live program: updates by u, :update and --every. */
void
tui_heapmap_live(struct tui_view *tv, struct tui_heaplive *live)
{
	struct heapmap	*hm;

	if (tv == NULL || tv->ops != &hm_ops) {
		tui_heaplive_free(live);
		return;
	}
	hm = tv->data;
	tui_heaplive_free(hm->live);
	hm->live = live;
	hm_live_arm(tv);
}

static const struct tui_view_ops hm_ops = {
	.name = "heapmap",
	.help = "a heap snapshot as HeapInspector's zoomable bitmap",
	.draw = hm_draw,
	.key = hm_key,
	.title = hm_title,
	.match = hm_match,
	.mouse = hm_mouse,
	.command = hm_command,
	.complete = hm_complete,
	.export = hm_export,
	.work = hm_work,
	.free = hm_free,
};

/* The map while its info table has the keys (hm_focus). */
static const struct tui_view_ops hm_info_ops = {
	.name = "heapinfo",
	.help = "the heap map with the keys in its info table",
	.draw = hm_draw,
	.key = hm_key,
	.title = hm_title,
	.match = hm_info_match,
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
struct tui_view *
tui_heapmap_new(int64_t id, char **cause)
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
