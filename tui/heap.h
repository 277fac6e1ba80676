/*
 * The heap views' own declarations (tui/heap*.c, tui/heapmap.c and the
 * files it is split into): the loader, the live program, the info
 * tables, the heap map's keys, colours and commands, and the state its
 * files share.  Only those files include it; tui/tui.h knows the heap
 * map by its mode (tui_mode_heapmap) alone.
 */
#ifndef TUI_HEAP_H
#define TUI_HEAP_H

#include <sys/types.h>

#include <stdint.h>

#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "tui/tui.h"

/* heapload.c: a stored heap session loaded on a thread of its own. */
struct analyze_heapview;
struct tui_heapload;
struct tui_heapload *tui_heapload_start(int64_t, struct analyze_heapview *,
		    int, void (*)(void *, struct analyze_heapview *), void *);
int		 tui_heapload_wait(struct tui_heapload *, uint64_t);
void		 tui_heapload_progress(struct tui_heapload *, uint64_t *,
		    uint64_t *);
int		 tui_heapload_end(struct tui_heapload *, char **);
void		 tui_heapload_stop(struct tui_heapload *);

/*
 * heaplive.c: the heap map on a running program (pvheap's socket), two
 * snapshots of one run compared, HeapInspector's Remain.
 */
struct analyze_heapmap_view;
struct analyze_heapmap_cell;
struct analyze_heapmap_count;
struct tui_heaplive;
struct analyze_heapdiff_cmp;
struct analyze_heapdiff_remain;
struct tui_heaplive *tui_heaplive_new(const char *, double, unsigned,
		    int64_t, const char *);
void		 tui_heaplive_tidy(struct tui_heaplive *);
int		 tui_heaplive_deleting(const struct tui_heaplive *);
void		 tui_heaplive_prune(struct tui_heaplive *, int64_t);
void		 tui_heaplive_free(struct tui_heaplive *);
const char	*tui_heaplive_socket(const struct tui_heaplive *);
int		 tui_heaplive_ended(struct tui_heaplive *);
pid_t		 tui_heaplive_pid(const struct tui_heaplive *);
void		 tui_heaplive_every(struct tui_heaplive *, double);
double		 tui_heaplive_every_secs(const struct tui_heaplive *);
uint64_t	 tui_heaplive_due(const struct tui_heaplive *);
int		 tui_heaplive_busy(const struct tui_heaplive *);
const char	*tui_heaplive_doing(const struct tui_heaplive *);
struct tui_heaplive *tui_heaplive_new_file(void);
int		 tui_heaplive_start_file(struct tui_heaplive *,
		    const struct analyze_heapview *, int64_t, const char *,
		    char **);
int		 tui_heaplive_start(struct tui_heaplive *,
		    const struct analyze_heapview *, int64_t, char **);
int		 tui_heaplive_step(struct tui_heaplive *, uint64_t,
		    struct analyze_heapview **, int64_t *,
		    struct analyze_heapdiff_cmp **, char **);
void		 tui_heaplive_times(const struct tui_heaplive *, uint64_t *,
		    uint64_t *, uint64_t *, uint64_t *);
struct tui_heapinfo *tui_heaplive_info(struct tui_heaplive *);

struct tui_view	*tui_heapmap_open(struct analyze_heapview *, char **);
/*
 * heapinfo.c: the heap map's info tables (HeapInspector's Info lists), made
 * once from the map's snapshot; the map draws one in its info pane and
 * gives it the keys while it has the focus.  Keys answer TUI_R_* with
 * TUI_HI_MARKS (the objects picked changed) or TUI_HI_GOTO (go to
 * tui_heapinfo_goto's address).
 */
#define TUI_HI_MARKS	0x100
#define TUI_HI_GOTO	0x200
enum tui_heapinfo_table {
	TUI_HI_MODULES,
	TUI_HI_BYMODULE,
	TUI_HI_BYTYPE,
	TUI_HI_IMPORTS,
	TUI_HI_HIERARCHY,
	TUI_HI_SIZES,
	TUI_HI_FREE,
	TUI_HI_ROOTS,		/* ReachedFromVariables */
	TUI_HI_ROOTMODS,	/* ReachedFromModules */
	TUI_HI_LEAKS,		/* loss records: lost blocks by stack */
	TUI_HI_LEAKS_UP,	/* bottom-up over them */
	TUI_HI_LEAKS_DOWN,	/* top-down */
	TUI_HI_LIVE,		/* every live block by stack */
	TUI_HI_TYPEHIER,	/* C++ classes: bases, size, pointers */
	TUI_HI_MODTYPES,	/* ModuleReachableTypes */
	TUI_HI_FINAL,		/* Finalizers: objects with a destructor */
	TUI_HI_STATUS,		/* HeapInspector.Status: the map's rows */
	TUI_HI_TASKS,		/* threads: stacks, roots, anchors */
	TUI_HI_MODULELESS,	/* blocks no module's data reaches */
	TUI_HI_DESCS,		/* the vtables and data :select chose */
	TUI_HI_COUNT
};
/* ObjectsByType's and TypeHierarchy's Named and Classes. */
enum tui_heapinfo_filter {
	TUI_HI_ALL,
	TUI_HI_NAMED,
	TUI_HI_CLASSES
};
struct tui_heapinfo;
struct tui_heapinfo *tui_heapinfo_new(const struct analyze_heapview *);
void		 tui_heapinfo_make(struct tui_heapinfo *);
void		 tui_heapinfo_free(struct tui_heapinfo *);
const char	*tui_heapinfo_name(enum tui_heapinfo_table);
struct tui_list	*tui_heapinfo_list(struct tui_heapinfo *,
		    enum tui_heapinfo_table);
void		 tui_heapinfo_sort(struct tui_heapinfo *,
		    enum tui_heapinfo_table, struct tui_list *);
void		 tui_heapinfo_draw(struct tui_heapinfo *,
		    enum tui_heapinfo_table, struct tui_list *, size_t,
		    const uint8_t *, int, int, int, int);
int		 tui_heapinfo_key(struct tui_heapinfo *,
		    enum tui_heapinfo_table, struct tui_list *, int);
int		 tui_heapinfo_match(struct tui_heapinfo *,
		    enum tui_heapinfo_table, size_t, const char *);
const uint8_t	*tui_heapinfo_picked(struct tui_heapinfo *, const char **);
int		 tui_heapinfo_leaks(struct tui_heapinfo *, uint64_t *,
		    uint64_t *);
int		 tui_heapinfo_unpick(struct tui_heapinfo *);
uint64_t	 tui_heapinfo_goto(struct tui_heapinfo *);
int		 tui_heapinfo_freed(struct tui_heapinfo *, size_t, uint8_t *);
void		 tui_heapinfo_unload(struct tui_heapinfo *, const uint8_t *,
		    const uint8_t *);
int		 tui_heapinfo_classes(struct tui_heapinfo *,
		    enum tui_heapinfo_filter);
int		 tui_heapinfo_bytype(struct tui_heapinfo *,
		    enum tui_heapinfo_filter);
int		 tui_heapinfo_modtypes(struct tui_heapinfo *, uint32_t);
int		 tui_heapinfo_finalizers(struct tui_heapinfo *);
void		 tui_heapinfo_descs(struct tui_heapinfo *, const uint8_t *,
		    const char *);
int		 tui_heapinfo_asked(const struct tui_heapinfo *,
		    enum tui_heapinfo_table);
void		 tui_heapinfo_status(struct tui_heapinfo *, char **, char **,
		    size_t);
size_t		 tui_heapinfo_moduleless(struct tui_heapinfo *);
size_t		 tui_heapinfo_pick_stack(struct tui_heapinfo *, const char *,
		    size_t *);
const struct analyze_heapinfo *tui_heapinfo_numbers(struct tui_heapinfo *);

/*
 * The heap map's colours (heapdraw.c's table, made by draw.c after the
 * browser's): HeapInspector's eight type marks, the overlays, the other
 * marks and the cursor, an info table's picked objects and
 * ModuleHierarchy's levels.  HM_COLOUR gives one's pair for tui_attr.
 */
enum hm_colour {
	HM_C_TYPE1, HM_C_TYPE2, HM_C_TYPE3, HM_C_TYPE4, HM_C_TYPE5,
	HM_C_TYPE6, HM_C_TYPE7, HM_C_TYPE8,
	HM_C_COLLECTABLE,
	HM_C_REACHABLE,
	HM_C_REACHED_FROM,
	HM_C_SELECTED,
	HM_C_BLOCK,
	HM_C_FREED,
	HM_C_BORN,
	HM_C_KEPT,
	HM_C_POSSIBLE,
	HM_C_UNLOAD,
	HM_C_HEAP_CURSOR,
	HM_C_PICKED,
	HM_C_HIER_TOP,		/* imported by no module */
	HM_C_HIER_UNLOAD,	/* test-unloaded */
	HM_C_HIER_NEEDED,	/* imported by a test-unloaded one */
	HM_C_DEFAULT,		/* ColorizeDefaultBlocks */
	HM_C_COUNT
};
extern struct tui_colours hm_colours;
#define HM_COLOUR(c)	(hm_colours.base + (int)(c))

/* The map's and its info tables' actions (tui.h: from TUI_ACT_VIEW). */
enum hm_action {
	HM_ACT_PAGE_DOWN = TUI_ACT_VIEW,
	HM_ACT_PAGE_UP,
	HM_ACT_DOWN,
	HM_ACT_UP,
	HM_ACT_RIGHT,
	HM_ACT_LEFT,
	HM_ACT_HOME,
	HM_ACT_END,
	HM_ACT_ZOOM_IN,
	HM_ACT_ZOOM_OUT,
	HM_ACT_CUR_LEFT,
	HM_ACT_CUR_RIGHT,
	HM_ACT_CUR_DOWN,
	HM_ACT_CUR_UP,
	HM_ACT_SELECT,
	HM_ACT_ROWS,
	HM_ACT_REACHABLE,
	HM_ACT_REACHED_FROM,
	HM_ACT_COLLECTABLE,
	HM_ACT_INFO,
	HM_ACT_INFO_PREV,
	HM_ACT_FOCUS,
	HM_ACT_UNPICK,
	HM_ACT_UPDATE,
	HI_ACT_PICK,
	HI_ACT_UNPICK,
	HI_ACT_SORT,
	HI_ACT_SORT_LEFT,
	HI_ACT_SORT_RIGHT,
	HI_ACT_LEFT,
	HI_ACT_RIGHT,
	HI_ACT_NEXT,
	HI_ACT_PREV,
	HI_ACT_MAP
};

#define HM_NM		ANALYZE_HEAPMAP_NMARKS
#define HM_NONE		ANALYZE_HEAPMAP_NONE
#define HM_SNONE	ANALYZE_HEAPVIEW_NONE
#define HM_INFO_H	6	/* lines of the info pane */
/*
 * Lines of the legend: with its cells, a mark's entry is a line of 80
 * columns, and four keep the selection, born, freed and a type mark (a
 * live map's usual set) in view.
 */
#define HM_LEGEND_MAX	4
/* :resizemap half stops here, as in HeapInspector. */
#define HM_MIN_PIXELS	16
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
	HM_INFO_ROOTMODS = 1 + TUI_HI_ROOTMODS,
	HM_INFO_STATUS = 1 + TUI_HI_STATUS,
	HM_INFO_MODULELESS = 1 + TUI_HI_MODULELESS,
	HM_INFO_OFF = 1 + TUI_HI_COUNT,
	HM_NINFO
};
#define HM_TABLE(i)	((enum tui_heapinfo_table)((i) - 1))
/* The tables of the roots that reach the selected object. */
#define HM_IS_ROOTS(i)	((i) == HM_INFO_ROOTS || (i) == HM_INFO_ROOTMODS)
#define HM_IS_TABLE(i)	((i) != HM_INFO_OBJECT && (i) != HM_INFO_OFF)

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
	/* :zoomout N%'s rows (0: all there are room for), and that room. */
	uint32_t			 zrows;
	uint32_t			 room;

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
	uint64_t			 incells[HM_NM];	/* showing k */

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
	/* The first screen chosen (once a view), and what the status says. */
	int				 first_done;
	char				*first_what;
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
	/* HeapInspector's index variable, and the trace path using it. */
	long long			 index;
	char				*index_path;
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
	struct analyze_heapdiff_cmp	*cmp;
	struct hm_compare		*comparing;	/* :compare's load */
	struct analyze_heapdiff_remain	*remain_base;
	uint8_t				*hidden;	/* per block */
	uint64_t			 swapped;	/* an update's end */

	/* ColorizeDefaultBlocks, and DefaultBlocks off (not drawn). */
	int				 colorize_default;
	int				 hide_default;

	/*
	 * The descriptors :select chose, which are not on the heap: a map
	 * of their own below the heap's rows (its regions the data regions
	 * and runs of vtables holding them; its blocks every descriptor
	 * there, the chosen ones selected), never in the heap's counts.
	 */
	struct analyze_heapmap		*dm;
	struct analyze_heapmap_view	 dv;
	uint64_t			*daddr, *dsize;
	struct analyze_heapmap_cell	*dcells;
	int				 desc_lines;	/* its label's too */
	int				 desc_more;	/* rows it has no room for */
	char				*desc_label;
};

/*
 * The heap map's own files share its state (struct heapmap above):
 * heapmap.c the view, its marks, moves, keys, mouse and work;
 * heapdraw.c the frame; heapcmd.c the : commands; heapupdate.c a live
 * map's updates, :compare and Remain.
 */
/* heapmap.c */
char		*hm_size(uint64_t);
uint32_t	 hm_node(const struct heapmap *, size_t);
const char	*hm_type_name(const struct heapmap *, size_t);
const char	*hm_state_name(int);
void		 hm_walk_abort(struct heapmap *);
void		 hm_walk_start(struct heapmap *, enum hm_walk, size_t);
void		 hm_reach(struct heapmap *);
void		 hm_make_marks(struct heapmap *);
size_t		 hm_default_blocks(const struct heapmap *, uint8_t *,
		    uint64_t *);
int		 hm_store(struct heapmap *, const char *, char **);
uint64_t	 hm_block_row(struct heapmap *, size_t, uint32_t *);
void		 hm_follow(struct heapmap *);
void		 hm_goto(struct heapmap *, size_t);
void		 hm_move(struct heapmap *, enum analyze_heapmap_move,
		    int64_t);
void		 hm_zoom(struct heapmap *, int);
int		 hm_graph(struct heapmap *, const char *);
void		 hm_toggle(struct heapmap *, int *, const char *, int);
void		 hm_focus(struct tui_view *, int);
void		 hm_ready(struct tui_view *);
int		 hm_shown(const struct heapmap *);

/* heapdraw.c */
char		*hm_title(struct tui_view *);
void		 hm_layout(struct heapmap *, int, int);
void		 hm_draw(struct tui_view *, int, int, int);
void		 hm_draw_loading(struct heapmap *, int64_t, int, int);

/* heapcmd.c */
extern const struct tui_command hm_commands[];
void		 hm_desc_off(struct heapmap *);
extern const struct tui_topic hm_topics[];
void		 hm_bases(struct heapmap *, const char *);
int		 hm_word(const char **, char *, size_t);
int		 hm_command(struct tui_view *, const char *, const char *);
char		*hm_complete(struct tui_view *, const char *, int);
void		 hm_status_rows(struct heapmap *);

/* heapupdate.c */
void		 hm_live_arm(struct tui_view *);
int		 hm_live_work(struct tui_view *, uint64_t);
int		 hm_update(struct tui_view *);
int		 hm_cmd_update(struct tui_view *, const char *);
int		 hm_cmd_updatemodules(struct tui_view *);
int		 hm_cmd_remain(struct heapmap *, const char *);
int		 hm_cmd_compare(struct tui_view *, const char *);
void		 hm_compare_stop(struct heapmap *);
int		 hm_compare_work(struct heapmap *, uint64_t);

#endif
