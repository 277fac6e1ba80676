/*
 * The heap map's info tables: HeapInspector's Info lists (§1.4) as tables
 * with a cursor, sortable by any column, in the map's info pane.
 * Modules (code, data, objects, imports and importers direct/indirect,
 * TestUnloadModules' marks), ObjectsByModule, ObjectsByType, Imports,
 * ModuleHierarchy (levels from DT_NEEDED, coloured as HeapInspector's),
 * ObjectSizes, FreeBlocks (the gaps between blocks within regions) and
 * the roots that reach the selected object (ReachedFromModules and
 * ReachedFromVariables); and, as memcheck and heaptrack show them, the
 * leaks by allocation stack (analyze/heapleaks.c's loss records, flat,
 * bottom-up and top-down) and every live block by stack (Live).  And
 * those their commands make, being read from the store or needing a
 * module: TypeHierarchy, ModuleReachableTypes and Finalizers (the
 * DWARF's classes, what a module's globals reach by type, the objects
 * of classes with a destructor), and ObjectsByType's Named and Classes.
 *
 * Every table is made once, when the heap graph is (the roots' when an
 * object is selected), the modules' and free blocks' numbers by
 * analyze/heapinfo.c and the sums by analyze_heapview_sums; a key only
 * sorts an index or draws the rows in view, so a table of a hundred
 * thousand free blocks answers a key as fast as one of three modules.
 * Enter on a row picks its objects (a module's, a type's, a size
 * class's, what a root reaches) for the map to mark; on a free block it
 * asks the map to go there.
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "tui/tui.h"
#include "tui/heap.h"

#define HI_NONE		ANALYZE_HEAPVIEW_NONE

/* How a column shows and sorts. */
enum hi_kind {
	HI_NUM,		/* a count or bytes, right aligned */
	HI_HEX,		/* an address */
	HI_CLASS,	/* a size class: 0, or 2^(k-1) .. 2^k - 1 */
	HI_PAIR,	/* direct/indirect (key: direct << 32 | indirect) */
	HI_TEXT		/* sorted by its text */
};

struct hi_col {
	const char	*name;
	enum hi_kind	 kind;
	int		 width;		/* text: the least it gets */
};

struct hi_def {
	const char		*name;
	const char		*what;		/* the pane's first line */
	const struct hi_col	*cols;
	int			 ncols;
	int			 scol;		/* sorted by at first, */
	int			 desc;		/* which way */
};

static const struct hi_col hi_modules_cols[] = {
	{ "objects", HI_NUM, 8 }, { "bytes", HI_NUM, 10 },
	{ "code", HI_NUM, 9 }, { "data", HI_NUM, 8 },
	{ "types", HI_NUM, 5 }, { "imports", HI_PAIR, 9 },
	{ "imported by", HI_PAIR, 11 }, { "module", HI_TEXT, 20 },
	{ "refs", HI_NUM, 6 }, { "anchors", HI_NUM, 7 },
	{ "anchored", HI_NUM, 10 }, { "total", HI_NUM, 10 }
};
static const struct hi_col hi_sums_cols[] = {
	{ "objects", HI_NUM, 8 }, { "bytes", HI_NUM, 11 },
	{ "usable", HI_NUM, 11 }, { "module", HI_TEXT, 12 }
};
static const struct hi_col hi_types_cols[] = {
	{ "objects", HI_NUM, 8 }, { "bytes", HI_NUM, 11 },
	{ "usable", HI_NUM, 11 }, { "type", HI_TEXT, 24 },
	{ "module", HI_TEXT, 12 }
};
static const struct hi_col hi_imports_cols[] = {
	{ "direct", HI_NUM, 6 }, { "indirect", HI_NUM, 8 },
	{ "module", HI_TEXT, 20 }, { "imports directly", HI_TEXT, 24 },
	{ "and through them", HI_TEXT, 24 }, { "imported by", HI_TEXT, 16 }
};
static const struct hi_col hi_hier_cols[] = {
	{ "level", HI_NUM, 5 }, { "objects", HI_NUM, 8 },
	{ "bytes", HI_NUM, 10 }, { "mark", HI_TEXT, 4 },
	{ "module", HI_TEXT, 16 }, { "imports", HI_TEXT, 16 }
};
static const struct hi_col hi_sizes_cols[] = {
	{ "size", HI_CLASS, 21 }, { "objects", HI_NUM, 8 },
	{ "bytes", HI_NUM, 11 }, { "usable", HI_NUM, 11 }
};
static const struct hi_col hi_free_cols[] = {
	{ "address", HI_HEX, 14 }, { "bytes", HI_NUM, 11 },
	{ "region", HI_TEXT, 12 }
};
/* rank: the list's own order (a tree's), which a sort leaves. */
static const struct hi_col hi_leaks_cols[] = {
	{ "rank", HI_NUM, 5 }, { "state", HI_TEXT, 15 },
	{ "blocks", HI_NUM, 8 }, { "bytes", HI_NUM, 11 },
	{ "allocated at", HI_TEXT, 24 }
};
static const struct hi_col hi_roots_cols[] = {
	{ "pointers", HI_NUM, 8 }, { "direct", HI_TEXT, 6 },
	{ "module", HI_TEXT, 16 }, { "root", HI_TEXT, 20 }
};
static const struct hi_col hi_rootmods_cols[] = {
	{ "roots", HI_NUM, 5 }, { "direct", HI_NUM, 6 },
	{ "module", HI_TEXT, 16 }, { "its roots that reach it", HI_TEXT, 24 }
};
static const struct hi_col hi_status_cols[] = {
	{ "n", HI_NUM, 3 }, { "what", HI_TEXT, 26 }, { "value", HI_TEXT, 24 }
};
static const struct hi_col hi_tasks_cols[] = {
	{ "thread", HI_NUM, 8 }, { "stack from", HI_HEX, 14 },
	{ "to", HI_HEX, 14 }, { "bytes", HI_NUM, 8 },
	{ "stack refs", HI_NUM, 10 }, { "register refs", HI_NUM, 13 },
	{ "anchors", HI_NUM, 7 }, { "anchored", HI_NUM, 9 }
};
static const struct hi_col hi_mless_cols[] = {
	{ "address", HI_HEX, 14 }, { "usable", HI_NUM, 9 },
	{ "thread", HI_NUM, 8 }, { "held by", HI_TEXT, 32 },
	{ "type", HI_TEXT, 16 }
};

static const struct hi_col hi_classes_cols[] = {
	{ "objects", HI_NUM, 8 }, { "bytes", HI_NUM, 10 },
	{ "size", HI_NUM, 6 }, { "pointers", HI_NUM, 8 },
	{ "vtable", HI_TEXT, 6 }, { "virtual", HI_NUM, 7 },
	{ "derived", HI_NUM, 7 }, { "class", HI_TEXT, 20 },
	{ "bases", HI_TEXT, 16 }
};
static const struct hi_col hi_final_cols[] = {
	{ "address", HI_HEX, 14 }, { "bytes", HI_NUM, 9 },
	{ "mark", HI_TEXT, 15 }, { "type", HI_TEXT, 20 },
	{ "finalized by", HI_TEXT, 24 }
};
static const struct hi_col hi_descs_cols[] = {
	{ "address", HI_HEX, 14 }, { "bytes", HI_NUM, 7 },
	{ "refs", HI_NUM, 7 }, { "descriptor", HI_TEXT, 32 },
	{ "module", HI_TEXT, 16 }
};

#define HI_N(a)	((int)(sizeof (a) / sizeof (a)[0]))
static const struct hi_def hi_defs[TUI_HI_COUNT] = {
	[TUI_HI_MODULES] = { "Modules", "modules: code, data, objects;"
	    " imports and importers direct/indirect; refs: pointers from its"
	    " data, anchors: blocks only they reach; total: code + data +"
	    " anchored", hi_modules_cols,
	    HI_N(hi_modules_cols), 1, 1 },
	[TUI_HI_BYMODULE] = { "ObjectsByModule", "objects by the module of"
	    " their type", hi_sums_cols, HI_N(hi_sums_cols), 1, 1 },
	[TUI_HI_BYTYPE] = { "ObjectsByType", "objects by type; usable:"
	    " with fragmentation", hi_types_cols, HI_N(hi_types_cols), 1,
	    1 },
	[TUI_HI_IMPORTS] = { "Imports", "what each module imports (DT_NEEDED),"
	    " directly and through those, and the modules importing it",
	    hi_imports_cols,
	    HI_N(hi_imports_cols), 2, 0 },
	[TUI_HI_HIERARCHY] = { "ModuleHierarchy", "levels: 0 imports nothing,"
	    " else 1 + its imports' highest; a cycle's modules share one",
	    hi_hier_cols, HI_N(hi_hier_cols), 0, 1 },
	[TUI_HI_SIZES] = { "ObjectSizes", "objects by size asked, in powers"
	    " of two", hi_sizes_cols, HI_N(hi_sizes_cols), 0, 0 },
	[TUI_HI_FREE] = { "FreeBlocks", NULL, hi_free_cols,
	    HI_N(hi_free_cols), 0, 0 },
	/* ReachedFromVariables, a name the pane's width keeps short. */
	[TUI_HI_ROOTS] = { "ReachedFrom", NULL, hi_roots_cols,
	    HI_N(hi_roots_cols), 3, 0 },
	[TUI_HI_ROOTMODS] = { "ReachedFromModules", NULL, hi_rootmods_cols,
	    HI_N(hi_rootmods_cols), 2, 0 },
	[TUI_HI_LEAKS] = { "Leaks", NULL, hi_leaks_cols,
	    HI_N(hi_leaks_cols), 0, 0 },
	[TUI_HI_LEAKS_UP] = { "LeaksBottomUp", NULL, hi_leaks_cols,
	    HI_N(hi_leaks_cols), 0, 0 },
	[TUI_HI_LEAKS_DOWN] = { "LeaksTopDown", NULL, hi_leaks_cols,
	    HI_N(hi_leaks_cols), 0, 0 },
	[TUI_HI_LIVE] = { "Live", NULL, hi_leaks_cols,
	    HI_N(hi_leaks_cols), 0, 0 },
	[TUI_HI_TYPEHIER] = { "TypeHierarchy", NULL, hi_classes_cols,
	    HI_N(hi_classes_cols), 7, 0 },
	[TUI_HI_MODTYPES] = { "ModuleReachableTypes", NULL, hi_types_cols,
	    HI_N(hi_types_cols), 1, 1 },
	[TUI_HI_FINAL] = { "Finalizers", NULL, hi_final_cols,
	    HI_N(hi_final_cols), 0, 0 },
	[TUI_HI_STATUS] = { "Status", "the map's settings and the heap's"
	    " bytes, as HeapInspector.Status", hi_status_cols,
	    HI_N(hi_status_cols), 0, 0 },
	[TUI_HI_TASKS] = { "Tasks", "threads: the stack scanned (from 128"
	    " bytes below sp), pointers from it and the registers, the blocks"
	    " only they reach", hi_tasks_cols, HI_N(hi_tasks_cols), 0, 0 },
	[TUI_HI_MODULELESS] = { "ModuleLessObjects", NULL, hi_mless_cols,
	    HI_N(hi_mless_cols), 0, 0 },
	[TUI_HI_DESCS] = { "Descriptors", NULL, hi_descs_cols,
	    HI_N(hi_descs_cols), 0, 0 },
};

/* The tables of the roots reaching the selected object. */
#define HI_ROOTS(t)	((t) == TUI_HI_ROOTS || (t) == TUI_HI_ROOTMODS)

/* The leak tables: which records (lost or live) and which shape. */
#define HI_NLEAKS	4
#define HI_LEAKS(t)	((t) >= TUI_HI_LEAKS && (t) <= TUI_HI_LIVE)
static const int hi_leaks_all[HI_NLEAKS] = { 0, 0, 0, 1 };
static const int hi_leaks_shape[HI_NLEAKS] = { ANALYZE_HEAPLEAKS_FLAT,
	ANALYZE_HEAPLEAKS_BOTTOM_UP, ANALYZE_HEAPLEAKS_TOP_DOWN,
	ANALYZE_HEAPLEAKS_FLAT };
/* A row's stack as the pane shows it: no more than a wide screen. */
#define HI_LABEL_MAX	1024

struct hi_table {
	size_t		 n;
	uint32_t	*order;		/* shown row -> row */
	int		 scol;
	int		 desc;
	int		 hcol;		/* first column on screen */
	int		 stale;		/* sort again before drawing */
	int		 w;		/* the width it was drawn in */
	struct tui_list	 list;
};

struct tui_heapinfo {
	const struct analyze_heapview	*s;
	int				 made;
	struct hi_table			 t[TUI_HI_COUNT];

	struct analyze_heapinfo		 m;	/* modules, free blocks */
	struct analyze_heapview_sum	*sums[3];
	size_t				 nsums[3];

	size_t				 roots_of;	/* block, or SIZE_MAX */
	uint32_t			*roots;		/* reaching it */
	uint8_t				*direct;	/* per root: points at it */
	char				*roots_what;
	/* Per module reaching it: its roots that do, those direct, names. */
	uint32_t			*rmods;
	uint32_t			*rm_roots, *rm_direct;
	char				**rm_names;
	char				*rmods_what;

	struct analyze_heapleaks	 lk[HI_NLEAKS];
	char				**lk_label[HI_NLEAKS];	/* per row */
	char				*lk_what[HI_NLEAKS];

	/*
	 * A sort by a number's scratch, kept from sort to sort: made anew
	 * each time, the first writes to its pages took most of a key that
	 * sorts 100K free blocks (12-14 ms of 16).
	 */
	uint64_t			*skey, *skb;
	uint32_t			*srb;
	size_t				*scnt, scap;
	struct hi_skey			*ssk, *ssu;	/* and by a text's */
	uint32_t			*sgr;

	/*
	 * TypeHierarchy's rows (classes) once :typehierarchy read them, and
	 * per class its objects, their bytes, the classes derived from it
	 * directly and its bases' names.
	 */
	uint32_t			*th_rows;
	uint64_t			*th_objs, *th_bytes;
	uint32_t			*th_derived;
	char				**th_bases;
	char				*th_what;
	/* ObjectsByType unfiltered, while a filter keeps some of it. */
	struct analyze_heapview_sum	*bt_all;
	size_t				 nbt_all;
	char				*bt_what;
	/* Finalizers: the blocks whose class has a destructor. */
	uint32_t			*fin;
	char				*fin_what;
	/* ModuleReachableTypes: by type, what the module's roots reach. */
	struct analyze_heapview_sum	*mt;
	uint8_t				*mt_only;	/* per block */
	char				*mt_what;
	char				*mless_what;
	/* Descriptors: the vtables and modules' data :select chose. */
	uint32_t			*ds;
	char				**ds_text;	/* per row: what it is */
	char				*ds_what;
	/* Status: the map's rows (tui_heapinfo_status). */
	char				**st_name, **st_value;
	size_t				 nst;

	uint8_t				*picked;	/* per block */
	size_t				 npicked;
	char				*pick_name;
	int				 pick_table;	/* -1: none */
	size_t				 pick_row;
	uint64_t			 go;
};

static const int hi_sums_by[TUI_HI_COUNT] = {
	[TUI_HI_BYMODULE] = ANALYZE_HEAPVIEW_BY_MODULE,
	[TUI_HI_BYTYPE] = ANALYZE_HEAPVIEW_BY_TYPE,
	[TUI_HI_SIZES] = ANALYZE_HEAPVIEW_BY_SIZE,
};

/* Whether table t is one of analyze_heapview_sums' lists. */
static int
hi_sums(int t)
{
	return (t == TUI_HI_BYMODULE || t == TUI_HI_BYTYPE ||
	    t == TUI_HI_SIZES);
}

const char *
tui_heapinfo_name(enum tui_heapinfo_table t)
{
	return (hi_defs[t].name);
}

static void
hi_rmods_free(struct tui_heapinfo *hi)
{
	size_t	i;

	for (i = 0; hi->rm_names != NULL && i < hi->s->nmodules; i++)
		free(hi->rm_names[i]);
	free(hi->rm_names);
	free(hi->rmods);
	free(hi->rm_roots);
	free(hi->rm_direct);
	free(hi->rmods_what);
	hi->rm_names = NULL;
	hi->rmods = hi->rm_roots = hi->rm_direct = NULL;
	hi->rmods_what = NULL;
}

static void
hi_classes_free(struct tui_heapinfo *hi)
{
	size_t	i;

	for (i = 0; hi->th_bases != NULL && i < hi->s->nclasses; i++)
		free(hi->th_bases[i]);
	free(hi->th_bases);
	free(hi->th_rows);
	free(hi->th_objs);
	free(hi->th_bytes);
	free(hi->th_derived);
	free(hi->th_what);
	hi->th_bases = NULL;
	hi->th_rows = hi->th_derived = NULL;
	hi->th_objs = hi->th_bytes = NULL;
	hi->th_what = NULL;
}

static void
hi_descs_free(struct tui_heapinfo *hi)
{
	size_t	i;

	for (i = 0; i < hi->t[TUI_HI_DESCS].n; i++)
		free(hi->ds_text[i]);
	free(hi->ds_text);
	free(hi->ds);
	free(hi->ds_what);
	hi->ds_text = NULL;
	hi->ds = NULL;
	hi->ds_what = NULL;
	hi->t[TUI_HI_DESCS].n = 0;
}

static void
hi_status_free(struct tui_heapinfo *hi)
{
	size_t	i;

	for (i = 0; i < hi->nst; i++) {
		free(hi->st_name[i]);
		free(hi->st_value[i]);
	}
	free(hi->st_name);
	free(hi->st_value);
	hi->st_name = hi->st_value = NULL;
	hi->nst = 0;
}

/*
 * The Status table's rows, names and values (taken, with the arrays):
 * what the map says of itself, set before each frame that shows it, so
 * it is sorted again only when a row changed.
 */
void
tui_heapinfo_status(struct tui_heapinfo *hi, char **name, char **value,
    size_t n)
{
	size_t	i;

	for (i = 0; n == hi->nst && i < n; i++) {
		if (strcmp(name[i], hi->st_name[i]) != 0 ||
		    strcmp(value[i], hi->st_value[i]) != 0)
			break;
	}
	if (n == hi->nst && i == n) {
		for (i = 0; i < n; i++) {
			free(name[i]);
			free(value[i]);
		}
		free(name);
		free(value);
		return;
	}
	hi_status_free(hi);
	hi->st_name = name;
	hi->st_value = value;
	hi->nst = hi->t[TUI_HI_STATUS].n = n;
	hi->t[TUI_HI_STATUS].stale = 1;
}

/* The modules' and free blocks' numbers, once made; else NULL. */
const struct analyze_heapinfo *
tui_heapinfo_numbers(struct tui_heapinfo *hi)
{
	return (hi->made ? &hi->m : NULL);
}

struct tui_heapinfo *
tui_heapinfo_new(const struct analyze_heapview *s)
{
	struct tui_heapinfo	*hi = xcalloc(1, sizeof *hi);
	int			 t;

	hi->s = s;
	hi->roots_of = SIZE_MAX;
	hi->pick_table = -1;
	for (t = 0; t < TUI_HI_COUNT; t++) {
		hi->t[t].scol = hi_defs[t].scol;
		hi->t[t].desc = hi_defs[t].desc;
	}
	return (hi);
}

void
tui_heapinfo_free(struct tui_heapinfo *hi)
{
	size_t	i;
	int	t;

	if (hi == NULL)
		return;
	for (t = 0; t < TUI_HI_COUNT; t++)
		free(hi->t[t].order);
	analyze_heapinfo_free(&hi->m);
	for (t = 0; t < 3; t++)
		free(hi->sums[t]);
	free(hi->roots);
	free(hi->direct);
	free(hi->roots_what);
	hi_rmods_free(hi);
	for (t = 0; t < HI_NLEAKS; t++) {
		for (i = 0; i < hi->lk[t].nrows; i++)
			free(hi->lk_label[t][i]);
		free(hi->lk_label[t]);
		free(hi->lk_what[t]);
		analyze_heapleaks_free(&hi->lk[t]);
	}
	free(hi->skey);
	free(hi->skb);
	free(hi->srb);
	free(hi->scnt);
	free(hi->ssk);
	free(hi->ssu);
	free(hi->sgr);
	hi_status_free(hi);
	free(hi->mless_what);
	free(hi->picked);
	free(hi->pick_name);
	hi_classes_free(hi);
	free(hi->bt_all);
	free(hi->bt_what);
	free(hi->mt);
	free(hi->mt_only);
	free(hi->mt_what);
	free(hi->fin);
	free(hi->fin_what);
	hi_descs_free(hi);
	free(hi);
}

/*
 * The leak tables' records and rows, each row's text made once (a text
 * column sorts by its strings' addresses first): the stack, indented by
 * its depth in a tree.
 */
static void
hi_make_leaks(struct tui_heapinfo *hi)
{
	struct analyze_heapleaks	*l;
	char				*t;
	size_t				 i;
	int				 k;

	for (k = 0; k < HI_NLEAKS; k++) {
		l = &hi->lk[k];
		analyze_heapleaks_make(l, hi->s, hi_leaks_all[k],
		    hi_leaks_shape[k]);
		hi->lk_label[k] = xcalloc(l->nrows + 1, sizeof (char *));
		for (i = 0; i < l->nrows; i++) {
			t = analyze_heapleaks_label(l, hi->s, i, HI_LABEL_MAX);
			hi->lk_label[k][i] = xasprintf("%*s%s",
			    (int)l->rows[i].depth * 2, "", t);
			free(t);
		}
		hi->lk_what[k] = xasprintf("%s by allocation stack%s: %zu"
		    " records, %llu blocks, %llu bytes; Enter marks a row's",
		    hi_leaks_all[k] ? "live blocks" : "lost blocks",
		    hi_leaks_shape[k] == ANALYZE_HEAPLEAKS_BOTTOM_UP ?
		    ", bottom-up" : hi_leaks_shape[k] ==
		    ANALYZE_HEAPLEAKS_TOP_DOWN ? ", top-down" : "", l->nrecs,
		    (unsigned long long)l->blocks,
		    (unsigned long long)l->bytes);
		hi->t[TUI_HI_LEAKS + k].n = l->nrows;
	}
}

/* The lost blocks' count and bytes (the Leaks table's), once made. */
int
tui_heapinfo_leaks(struct tui_heapinfo *hi, uint64_t *blocks,
    uint64_t *bytes)
{
	if (!hi->made)
		return (-1);
	*blocks = hi->lk[0].blocks;
	*bytes = hi->lk[0].bytes;
	return (0);
}

/* Make every table but the roots' (made for each object selected). */
void
tui_heapinfo_make(struct tui_heapinfo *hi)
{
	int	t;

	if (hi->made)
		return;
	analyze_heapinfo_make(&hi->m, hi->s);
	hi_make_leaks(hi);
	for (t = 0; t < TUI_HI_COUNT; t++) {
		if (hi_sums(t)) {
			hi->nsums[hi_sums_by[t]] = analyze_heapview_sums(hi->s,
			    hi_sums_by[t], &hi->sums[hi_sums_by[t]]);
			hi->t[t].n = hi->nsums[hi_sums_by[t]];
		}
	}
	hi->t[TUI_HI_MODULES].n = hi->s->nmodules;
	hi->t[TUI_HI_IMPORTS].n = hi->s->nmodules;
	hi->t[TUI_HI_HIERARCHY].n = hi->s->nmodules;
	hi->t[TUI_HI_FREE].n = hi->m.ngaps;
	hi->t[TUI_HI_TASKS].n = hi->m.nthr;
	hi->t[TUI_HI_MODULELESS].n = hi->m.nmless;
	hi->mless_what = xasprintf("%zu objects, %llu bytes, no module's"
	    " data reaches; %llu held by stacks or other memory, %llu by"
	    " nothing (lost)", hi->m.nmless,
	    (unsigned long long)hi->m.mless_bytes, (unsigned long long)
	    (hi->m.nmless - hi->m.mless_lost), (unsigned long long)
	    hi->m.mless_lost);
	hi->picked = xcalloc_populated(hi->s->nblocks + 1, 1);
	hi->made = 1;
	for (t = 0; t < TUI_HI_COUNT; t++) {
		hi->t[t].list.n = hi->t[t].n;
		tui_heapinfo_sort(hi, t, &hi->t[t].list);
	}
}

/*
 * The colour ModuleHierarchy draws module m's name in, by its class (the
 * heap map's pairs are numbered when the colours start: no table).
 */
static int
hi_hier(const struct tui_heapinfo *hi, size_t m)
{
	switch (hi->m.mod[m].hier) {
	case ANALYZE_HEAPINFO_TOP:
		return (HM_COLOUR(HM_C_HIER_TOP));
	case ANALYZE_HEAPINFO_UNLOAD:
		return (HM_COLOUR(HM_C_HIER_UNLOAD));
	case ANALYZE_HEAPINFO_NEEDED:
		return (HM_COLOUR(HM_C_HIER_NEEDED));
	default:
		return (TUI_C_NONE);
	}
}

/* A row's place in a list's own order, from 1 (its key: from 0). */
static const char *
hi_rank(size_t i, uint64_t *key, char *buf, size_t len)
{
	*key = i;
	if (buf == NULL)
		return (NULL);
	snprintf(buf, len, "%zu", i + 1);
	return (buf);
}

/*
 * A cell of row i (in the table's own order) of table t: its sort key,
 * and its text in buf (or a string returned); with no buf (a sort by a
 * number), only the key: a hundred thousand rows sort without printing.
 */
static const char *
hi_cell(struct tui_heapinfo *hi, int t, size_t i, int c, uint64_t *key,
    char *buf, size_t len)
{
	const struct analyze_heapview	*s = hi->s;
	const struct analyze_heapview_sum *u;
	const struct analyze_heapinfo_module *m;
	const struct analyze_heapleak_row *lr;
	const struct analyze_heapinfo_thread *th;
	const struct analyze_heapview_desc *d;
	uint32_t			 k, m2;
	size_t				 b;
	const char			*txt = NULL;

	*key = 0;
	switch (t) {
	case TUI_HI_MODULES:
		m = &hi->m.mod[i];
		switch (c) {
		case 0: *key = m->objects; break;
		case 1: *key = m->bytes; break;
		case 2: *key = s->modules[i].code_size; break;
		case 3: *key = s->modules[i].data_size; break;
		case 4: *key = m->types; break;
		case 5:
			*key = (uint64_t)m->imp << 32 | m->imp_all;
			if (buf != NULL && hi->m.direct_only)
				snprintf(buf, len, "%u/?%s", m->imp, m->mark);
			else if (buf != NULL)
				snprintf(buf, len, "%u/%u%s", m->imp,
				    m->imp_all, m->mark);
			return (buf);
		case 6:
			*key = (uint64_t)m->by << 32 | m->by_all;
			if (buf != NULL && hi->m.direct_only)
				snprintf(buf, len, "%u/?", m->by);
			else if (buf != NULL)
				snprintf(buf, len, "%u/%u", m->by, m->by_all);
			return (buf);
		case 7: txt = s->modules[i].name; break;
		case 8: *key = m->refs; break;
		case 9: *key = m->anchors; break;
		case 10: *key = m->anchored; break;
		default:
			*key = s->modules[i].code_size +
			    s->modules[i].data_size + m->anchored;
			break;
		}
		break;
	case TUI_HI_BYMODULE:
	case TUI_HI_BYTYPE:
	case TUI_HI_SIZES:
	case TUI_HI_MODTYPES:
		/* ModuleReachableTypes is ObjectsByType's columns. */
		if (t == TUI_HI_MODTYPES) {
			u = &hi->mt[i];
			t = TUI_HI_BYTYPE;
		} else
			u = &hi->sums[hi_sums_by[t]][i];
		if (t == TUI_HI_SIZES) {
			/* The class first, its numbers after. */
			c = c == 0 ? 4 : c - 1;
		}
		switch (c) {
		case 0: *key = u->blocks; break;
		case 1: *key = u->bytes; break;
		case 2: *key = u->usable; break;
		case 3:
			k = u->key;
			if (t == TUI_HI_BYTYPE)
				txt = k == HI_NONE ? "(no type)" :
				    s->types[k].name;
			else
				txt = k == HI_NONE ? "(no module)" :
				    s->modules[k].name;
			break;
		case 4:
			if (t == TUI_HI_BYTYPE) {
				k = u->key == HI_NONE ? HI_NONE :
				    s->types[u->key].module;
				txt = k == HI_NONE ? "" : s->modules[k].name;
				break;
			}
			*key = u->key;
			if (buf == NULL)
				return (NULL);
			if (u->key == 0)
				snprintf(buf, len, "0");
			else
				snprintf(buf, len, "%llu-%llu",
				    1ULL << (u->key - 1), u->key >= 64 ?
				    ~0ULL : (1ULL << u->key) - 1);
			return (buf);
		}
		break;
	case TUI_HI_IMPORTS:
		m = &hi->m.mod[i];
		switch (c) {
		case 0: *key = m->imp; break;
		case 1:
			if (hi->m.direct_only) {
				txt = "?";
				break;
			}
			*key = m->imp_all - m->imp;
			break;
		case 2: txt = s->modules[i].name; break;
		case 3: txt = m->imports; break;
		case 4: txt = m->through != NULL ? m->through : "?"; break;
		default: txt = m->importers; break;
		}
		break;
	case TUI_HI_HIERARCHY:
		m = &hi->m.mod[i];
		switch (c) {
		case 0: *key = m->level; break;
		case 1: *key = m->objects; break;
		case 2: *key = m->bytes; break;
		case 3:
			if (m->cycle && buf != NULL) {
				snprintf(buf, len, "%s%scycle", m->mark,
				    *m->mark != '\0' ? " " : "");
				return (buf);
			}
			txt = *m->mark != '\0' ? m->mark : m->by == 0 ?
			    "top" : "";
			break;
		case 4: txt = s->modules[i].name; break;
		default: txt = m->imports; break;
		}
		break;
	case TUI_HI_FREE:
		switch (c) {
		case 0: *key = hi->m.gap_addr[i]; break;
		case 1: *key = hi->m.gap_size[i]; break;
		default: txt = s->map.regions[hi->m.gap_region[i]].name; break;
		}
		break;
	case TUI_HI_LEAKS:
	case TUI_HI_LEAKS_UP:
	case TUI_HI_LEAKS_DOWN:
	case TUI_HI_LIVE:
		lr = &hi->lk[t - TUI_HI_LEAKS].rows[i];
		switch (c) {
		case 0:
			return (hi_rank(i, key, buf, len));
		case 1: txt = analyze_heapleaks_state(lr->state); break;
		case 2: *key = lr->blocks; break;
		case 3: *key = lr->bytes; break;
		default: txt = hi->lk_label[t - TUI_HI_LEAKS][i]; break;
		}
		break;
	case TUI_HI_ROOTS:
		k = hi->roots[i];
		switch (c) {
		case 0:
			*key = s->graph.out_off[2 + k] - s->graph.out_off[1 +
			    k];
			break;
		case 1: txt = hi->direct[k] ? "yes" : "no"; break;
		case 2:
			txt = s->roots[k].module == HI_NONE ? "" :
			    s->modules[s->roots[k].module].name;
			break;
		default: txt = s->roots[k].name; break;
		}
		break;
	case TUI_HI_ROOTMODS:
		k = hi->rmods[i];
		switch (c) {
		case 0: *key = hi->rm_roots[k]; break;
		case 1: *key = hi->rm_direct[k]; break;
		case 2: txt = s->modules[k].name; break;
		default: txt = hi->rm_names[k]; break;
		}
		break;
	case TUI_HI_FINAL:
		b = hi->fin[i];
		k = s->type_class[s->type[b]];
		switch (c) {
		case 0: *key = s->addr[b]; break;
		case 1: *key = s->size[b]; break;
		case 2:
			txt = analyze_heapleaks_state(s->graph.state[b]);
			break;
		case 3: txt = s->types[s->type[b]].name; break;
		default:
			txt = s->class_dtor[k] == 1 ? s->class_dtor_name[k] :
			    "implicit, a base's";
			break;
		}
		break;
	case TUI_HI_TYPEHIER:
		k = hi->th_rows[i];
		switch (c) {
		case 0: *key = hi->th_objs[k]; break;
		case 1: *key = hi->th_bytes[k]; break;
		case 2: *key = s->class_size[k]; break;
		case 3: *key = s->class_ptrs[k]; break;
		case 4: txt = s->class_vptr[k] ? "yes" : "no"; break;
		case 5:
			/* An older ingest kept no methods: not 0. */
			if (!s->class_methods && s->class_vptr[k]) {
				txt = "?";
				break;
			}
			*key = s->class_virt[k];
			break;
		case 6: *key = hi->th_derived[k]; break;
		case 7: txt = s->classes[k]; break;
		default: txt = hi->th_bases[k]; break;
		}
		break;
	case TUI_HI_TASKS:
		th = &hi->m.thr[i];
		switch (c) {
		case 0: *key = (uint64_t)th->tid; break;
		case 1:
		case 2:
			*key = c == 1 ? th->lo : th->hi;
			if (th->hi == 0)
				txt = "?";
			break;
		case 3:
			*key = th->hi - th->lo;
			if (th->hi == 0)
				txt = "?";
			break;
		case 4: *key = th->stack_refs; break;
		case 5:
			*key = th->regs_refs;
			if (th->regs <= 0)
				txt = th->regs == 0 ? "not read" : "?";
			break;
		case 6: *key = th->anchors; break;
		default: *key = th->anchored; break;
		}
		break;
	case TUI_HI_MODULELESS:
		k = hi->m.mless[i];
		switch (c) {
		case 0: *key = s->addr[k]; break;
		case 1: *key = s->usable[k]; break;
		case 2:
			m2 = hi->m.owner != NULL ? hi->m.owner[k] : HI_NONE;
			if (m2 == HI_NONE || m2 == ANALYZE_HEAPINFO_SHARED ||
			    m2 < s->nmodules) {
				txt = "";
				break;
			}
			*key = (uint64_t)hi->m.thr[m2 - s->nmodules].tid;
			break;
		case 3:
			m2 = hi->m.owner != NULL ? hi->m.owner[k] : HI_NONE;
			txt = !hi->m.mless_rooted[i] ? "nothing (lost)" :
			    m2 != HI_NONE && m2 != ANALYZE_HEAPINFO_SHARED &&
			    m2 >= s->nmodules ? "its thread's stack, registers" :
			    "threads or other memory";
			break;
		default:
			txt = s->type[k] == HI_NONE ? "(no type)" :
			    s->types[s->type[k]].name;
			break;
		}
		break;
	case TUI_HI_DESCS:
		d = &s->descs[hi->ds[i]];
		switch (c) {
		case 0: *key = d->addr; break;
		case 1:
			*key = d->size;
			if (d->size == 0)
				txt = "?";
			break;
		case 2: *key = d->refs; break;
		case 3: txt = hi->ds_text[i]; break;
		default:
			txt = d->module == HI_NONE ? "" :
			    s->modules[d->module].name;
			break;
		}
		break;
	case TUI_HI_STATUS:
		switch (c) {
		case 0:
			return (hi_rank(i, key, buf, len));
		case 1: txt = hi->st_name[i]; break;
		default: txt = hi->st_value[i]; break;
		}
		break;
	}
	if (txt != NULL || buf == NULL)
		return (txt);
	switch (hi_defs[t].cols[c].kind) {
	case HI_HEX:
		snprintf(buf, len, "%#llx", (unsigned long long)*key);
		break;
	default:
		snprintf(buf, len, "%llu", (unsigned long long)*key);
		break;
	}
	return (buf);
}

struct hi_skey {
	const char	*s;
	uint32_t	 row;
};

/* By text, either way; equal texts keep the table's own order. */
static int
hi_text_cmp(const void *a, const void *b, void *desc)
{
	const struct hi_skey	*x = a, *y = b;
	int			 c = strcmp(x->s, y->s);

	if (c != 0)
		return (*(int *)desc ? -c : c);
	return (x->row < y->row ? -1 : x->row > y->row);
}

/* The sort scratch, for n rows. */
static void
hi_scratch(struct tui_heapinfo *hi, size_t n)
{
	if (hi->scnt == NULL)
		hi->scnt = xcalloc_populated(65536, sizeof *hi->scnt);
	if (n < hi->scap)
		return;
	free(hi->skey);
	free(hi->skb);
	free(hi->srb);
	free(hi->ssk);
	free(hi->ssu);
	free(hi->sgr);
	hi->scap = n + 1;
	hi->skey = xcalloc_populated(hi->scap, sizeof *hi->skey);
	hi->skb = xcalloc_populated(hi->scap, sizeof *hi->skb);
	hi->srb = xcalloc_populated(hi->scap, sizeof *hi->srb);
	hi->ssk = xcalloc_populated(hi->scap, sizeof *hi->ssk);
	hi->ssu = xcalloc_populated(hi->scap, sizeof *hi->ssu);
	hi->sgr = xcalloc_populated(hi->scap, sizeof *hi->sgr);
}

/*
 * Rows by a number: a stable radix sort of (key, row), 16 bits a pass,
 * a pass left out where every key has the same digit; descending sorts
 * the complement, so equal keys keep the table's own order both ways.
 */
static void
hi_radix(struct tui_heapinfo *hi, uint64_t *key, uint32_t *row, size_t n)
{
	uint64_t	*ks = key, *kd = hi->skb, *tk;
	uint32_t	*rs = row, *rd = hi->srb, *tr;
	size_t		*cnt = hi->scnt, i, sum, c;
	int		 shift;

	for (shift = 0; n > 0 && shift < 64; shift += 16) {
		memset(cnt, 0, 65536 * sizeof *cnt);
		for (i = 0; i < n; i++)
			cnt[(ks[i] >> shift) & 0xffff]++;
		if (cnt[(ks[0] >> shift) & 0xffff] == n)
			continue;
		for (i = 0, sum = 0; i < 65536; i++) {
			c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++) {
			c = cnt[(ks[i] >> shift) & 0xffff]++;
			kd[c] = ks[i];
			rd[c] = rs[i];
		}
		tk = ks; ks = kd; kd = tk;
		tr = rs; rs = rd; rd = tr;
	}
	/* An odd number of passes left the rows in the scratch array. */
	if (rs != row)
		memcpy(row, rs, n * sizeof *row);
}

/*
 * Rows by their texts (ssk[].s, one a row): as a radix sort of each row's
 * text's rank.  The rows' texts are mostly a few strings shared (a
 * region's name for 100K free blocks), so the strings are told apart by
 * address (a radix sort), only the distinct ones are compared, and equal
 * texts keep the table's own order both ways.  qsort of 100K rows took
 * 6-11 ms here, most of it its merge buffer's first writes.
 */
static void
hi_text_order(struct tui_heapinfo *hi, int desc, uint32_t *order, size_t n)
{
	struct hi_skey	*sk = hi->ssk, *u = hi->ssu;
	uint32_t	*rank = hi->sgr, r = 0;
	uint64_t	*key = hi->skey;
	size_t		 i, m = 0;
	int		 ascending = 0;	/* hi_text_cmp's desc */

	for (i = 0; i < n; i++) {
		key[i] = (uint64_t)(uintptr_t)sk[i].s;
		order[i] = (uint32_t)i;
	}
	hi_radix(hi, key, order, n);
	/* Each distinct address a group; a row's group in its .row. */
	for (i = 0; i < n; i++) {
		if (m == 0 || sk[order[i]].s != u[m - 1].s) {
			u[m].s = sk[order[i]].s;
			u[m].row = (uint32_t)m;
			m++;
		}
		sk[order[i]].row = (uint32_t)(m - 1);
	}
	qsort_r(u, m, sizeof *u, hi_text_cmp, &ascending);
	for (i = 0; i < m; i++) {
		if (i > 0 && strcmp(u[i].s, u[i - 1].s) != 0)
			r++;
		rank[u[i].row] = r;
	}
	for (i = 0; i < n; i++) {
		key[i] = rank[sk[i].row];
		if (desc)
			key[i] = ~key[i];
		order[i] = (uint32_t)i;
	}
	hi_radix(hi, key, order, n);
}

/*
 * Sort table t by its sort column, the cursor staying on its row (in the
 * list l, the view's while the table has the keys).
 */
void
tui_heapinfo_sort(struct tui_heapinfo *hi, enum tui_heapinfo_table t,
    struct tui_list *l)
{
	struct hi_table		*tb = &hi->t[t];
	struct hi_skey		*sk;
	uint64_t		*key;
	uint32_t		*row;
	size_t			 i, n = tb->n, cur;
	char			 buf[64];
	int			 c = tb->scol;

	cur = tb->order != NULL && l->cur < n ? tb->order[l->cur] : SIZE_MAX;
	tb->order = xreallocarray(tb->order, n + 1, sizeof *tb->order);
	hi_scratch(hi, n);
	if (hi_defs[t].cols[c].kind == HI_TEXT) {
		sk = hi->ssk;
		for (i = 0; i < n; i++)
			sk[i].s = hi_cell(hi, t, i, c, &(uint64_t){ 0 }, buf,
			    sizeof buf);
		hi_text_order(hi, tb->desc, tb->order, n);
	} else {
		key = hi->skey;
		row = tb->order;
		for (i = 0; i < n; i++) {
			hi_cell(hi, t, i, c, &key[i], NULL, 0);
			if (tb->desc)
				key[i] = ~key[i];
			row[i] = (uint32_t)i;
		}
		hi_radix(hi, key, row, n);
	}
	l->n = n;
	for (i = 0; cur != SIZE_MAX && i < n; i++) {
		if (tb->order[i] == cur) {
			tui_list_goto(l, i);
			break;
		}
	}
}

/*
 * TestUnloadModules' marks and ModuleHierarchy's colours
 * (analyze_heapinfo_unload) for the modules named and those unloaded
 * with them; NULL: no test unload.
 */
void
tui_heapinfo_unload(struct tui_heapinfo *hi, const uint8_t *named,
    const uint8_t *unloaded)
{
	if (hi->m.mod == NULL)
		return;
	analyze_heapinfo_unload(&hi->m, named, unloaded);
	hi->t[TUI_HI_MODULES].stale = hi->t[TUI_HI_HIERARCHY].stale = 1;
}

/* System.Free M*'s modules (analyze_heapinfo_freed); -1 before the graph. */
int
tui_heapinfo_freed(struct tui_heapinfo *hi, size_t m, uint8_t *freed)
{
	if (hi->m.mod == NULL)
		return (-1);
	analyze_heapinfo_freed(&hi->m, m, freed);
	return (0);
}

/*
 * ReachedFromModules / ReachedFromVariables: the roots that reach block
 * sel, from mark (per node: what reaches sel, the map's ReachedFrom
 * search, which it runs in steps), made when sel changes; and which of
 * them point at it themselves.
 */
static void
hi_make_roots(struct tui_heapinfo *hi, int t0, size_t sel,
    const uint8_t *mark, struct tui_list *l)
{
	const struct analyze_heapview	*s = hi->s;
	const struct analyze_heap	*g = &s->graph;
	struct tui_list			*ll;
	uint32_t			 node, v, r, nm = 0;
	size_t				 i, n = 0;
	char				*names = xstrdup(""), *t;

	if (hi->roots_of == sel)
		return;
	node = (uint32_t)(1 + s->nroots + sel);
	hi->roots = xreallocarray(hi->roots, s->nroots + 1, sizeof *hi->roots);
	hi->direct = xreallocarray(hi->direct, s->nroots + 1, 1);
	memset(hi->direct, 0, s->nroots + 1);
	for (i = g->in_off[node]; i < g->in_off[node + 1]; i++) {
		v = g->in[i] & 0x7fffffffu;
		if (v >= 1 && v <= s->nroots)
			hi->direct[v - 1] = 1;
	}
	hi_rmods_free(hi);
	hi->rmods = xreallocarray(NULL, s->nmodules + 1, sizeof *hi->rmods);
	hi->rm_roots = xcalloc(s->nmodules + 1, sizeof *hi->rm_roots);
	hi->rm_direct = xcalloc(s->nmodules + 1, sizeof *hi->rm_direct);
	hi->rm_names = xcalloc(s->nmodules + 1, sizeof *hi->rm_names);
	for (r = 0; r < s->nroots; r++) {
		if (!mark[1 + r])
			continue;
		hi->roots[n++] = r;
		v = s->roots[r].module;
		if (v == HI_NONE)
			continue;
		/* HeapInspector's ReachedFromModules: a row a module. */
		hi->rm_direct[v] += hi->direct[r];
		t = xasprintf("%s%s%s", hi->rm_names[v] != NULL ?
		    hi->rm_names[v] : "", hi->rm_names[v] != NULL ? ", " : "",
		    analyze_heapview_root_var(s->roots[r].name));
		free(hi->rm_names[v]);
		hi->rm_names[v] = t;
		if (hi->rm_roots[v]++ != 0)
			continue;
		hi->rmods[nm++] = v;
		t = xasprintf("%s%s%s", names, *names != '\0' ? ", " : "",
		    s->modules[v].name);
		free(names);
		names = t;
	}
	free(hi->roots_what);
	hi->roots_what = xasprintf("%zu roots in %u modules reach %#llx%s%s",
	    n, nm, (unsigned long long)s->addr[sel], nm != 0 ? ": " : "",
	    names);
	free(names);
	hi->rmods_what = xasprintf("%u modules reach %#llx by their"
	    " variables (of %zu roots; a thread's stack is no module's)", nm,
	    (unsigned long long)s->addr[sel], n);
	hi->t[TUI_HI_ROOTS].n = n;
	hi->t[TUI_HI_ROOTMODS].n = nm;
	hi->roots_of = sel;
	/* l is the table drawn's; the other's list is its own. */
	for (r = TUI_HI_ROOTS; r <= TUI_HI_ROOTMODS; r++) {
		ll = r == (uint32_t)t0 ? l : &hi->t[r].list;
		ll->cur = ll->top = 0;
		tui_heapinfo_sort(hi, (enum tui_heapinfo_table)r, ll);
	}
	/* A pick of the last object's roots names rows no longer here. */
	if (hi->pick_table == TUI_HI_ROOTS || hi->pick_table ==
	    TUI_HI_ROOTMODS)
		hi->pick_table = -1;
}

/*
 * Column c's width: room for its head and the sort mark; the last
 * column, if text, all that is left (x: where it starts).
 */
static int
hi_width(const struct hi_def *d, int c, int x, int w)
{
	int	n = (int)strlen(d->cols[c].name) + 1;

	if (c + 1 == d->ncols && d->cols[c].kind == HI_TEXT)
		return (w - x);
	return (d->cols[c].width > n ? d->cols[c].width : n);
}

/*
 * Table t in the pane at y, h lines by w: a line of what it is, the
 * column heads (the sort column's with ^ or v), the rows in view; the
 * cursor's row shows only while the table has the keys (focus), the
 * picked row in bold.  l is the table's list (the view's while focused).
 */
void
tui_heapinfo_draw(struct tui_heapinfo *hi, enum tui_heapinfo_table t,
    struct tui_list *l, size_t sel, const uint8_t *rfrom, int focus, int y,
    int h, int w)
{
	const struct hi_def	*d = &hi_defs[t];
	struct hi_table		*tb = &hi->t[t];
	const char		*what = d->what, *txt;
	char			 buf[64];
	uint64_t		 key;
	size_t			 i, row;
	int			 c, x, cw, r, attr, tw, x0;

	if (hi->made && ((t == TUI_HI_TYPEHIER && hi->th_what == NULL) ||
	    (t == TUI_HI_MODTYPES && hi->mt_what == NULL) ||
	    (t == TUI_HI_FINAL && hi->fin_what == NULL))) {
		tui_putf(y, 0, w, A_BOLD, "%s: %s", d->name, t ==
		    TUI_HI_TYPEHIER ? ":typehierarchy [named|classes] reads"
		    " the classes from the snapshot's DWARF" : t ==
		    TUI_HI_FINAL ? ":finalizers makes it" :
		    ":modulereachabletypes MODULE makes it");
		l->n = 0;
		return;
	}
	if (!hi->made || (HI_ROOTS(t) && (sel == SIZE_MAX ||
	    rfrom == NULL))) {
		tui_putf(y, 0, w, A_BOLD, "%s: %s", d->name, !hi->made ?
		    "the info lists are made with the heap graph" :
		    "no object selected (Enter on the map selects one)");
		l->n = 0;
		return;
	}
	if (HI_ROOTS(t)) {
		hi_make_roots(hi, t, sel, rfrom, l);
		what = t == TUI_HI_ROOTS ? hi->roots_what : hi->rmods_what;
	} else if (t == TUI_HI_FREE)
		what = hi->m.gap_what;
	else if (t == TUI_HI_MODULELESS)
		what = hi->mless_what;
	else if (t == TUI_HI_DESCS)
		what = hi->ds_what != NULL ? hi->ds_what : ":select"
		    " typedescriptor or module chooses them";
	else if (HI_LEAKS(t))
		what = hi->lk_what[t - TUI_HI_LEAKS];
	else if (t == TUI_HI_TYPEHIER)
		what = hi->th_what;
	else if (t == TUI_HI_MODTYPES)
		what = hi->mt_what;
	else if (t == TUI_HI_FINAL)
		what = hi->fin_what;
	else if (t == TUI_HI_BYTYPE && hi->bt_what != NULL)
		what = hi->bt_what;
	else if (hi->m.direct_only && (t == TUI_HI_MODULES ||
	    t == TUI_HI_IMPORTS))
		what = "too many modules to walk from each: direct imports"
		    " only (?)";
	if (tb->stale) {
		tb->stale = 0;
		tui_heapinfo_sort(hi, t, l);
	}
	/* Who has the keys first: the rest may not fit. */
	tb->w = w;
	x = tui_put(y, 0, w, focus ? tui_attr(TUI_C_TITLE) : (int)A_BOLD,
	    d->name);
	x += tui_put(y, x + 1, w - x - 1, tui_attr(TUI_C_HEADER), focus ?
	    "[keys here; i, Escape: the map]" : "[i: keys here]") + 1;
	tui_putf(y, x, w - x, TUI_PLAIN, " %zu: %s", tb->n, what);
	if (h < 2)
		return;
	if (tb->hcol >= d->ncols)
		tb->hcol = d->ncols - 1;
	for (c = tb->hcol, x = 0; c < d->ncols && x < w; c++) {
		cw = hi_width(d, c, x, w);
		if (d->cols[c].kind == HI_TEXT)
			tui_put(y + 1, x, cw, tui_attr(TUI_C_HEADER),
			    d->cols[c].name);
		else
			tui_putf(y + 1, x, cw, tui_attr(TUI_C_HEADER), "%*s",
			    cw - 1, d->cols[c].name);
		if (c == tb->scol) {
			x0 = d->cols[c].kind == HI_TEXT ?
			    (int)strlen(d->cols[c].name) : cw - 1;
			tui_put(y + 1, x + x0, 1, tui_attr(TUI_C_HEADER),
			    tb->desc ? "v" : "^");
		}
		x += cw + 1;
	}
	l->y = y + 2;
	l->n = tb->n;
	tui_list_fit(l, h - 2);
	for (r = 0; r < l->height; r++) {
		if ((i = l->top + (size_t)r) >= tb->n)
			break;
		row = tb->order[i];
		attr = focus && i == l->cur ? tui_attr(TUI_C_CURSOR) :
		    hi->pick_table == (int)t && hi->pick_row == row ?
		    (int)A_BOLD : TUI_PLAIN;
		if (focus && i == l->cur)
			tui_fill(y + 2 + r, 0, w, attr);
		for (c = tb->hcol, x = 0; c < d->ncols && x < w; c++) {
			cw = hi_width(d, c, x, w);
			txt = hi_cell(hi, t, row, c, &key, buf, sizeof buf);
			if (d->cols[c].kind == HI_TEXT) {
				/* ModuleHierarchy's colours, on names. */
				tui_put(y + 2 + r, x, cw, (t ==
				    TUI_HI_HIERARCHY && c == 4 &&
				    hi_hier(hi, row) != TUI_C_NONE &&
				    !(focus && i == l->cur)) ?
				    tui_attr(hi_hier(hi, row)) | attr :
				    attr, txt);
			} else {
				tw = (int)strlen(txt);
				tui_put(y + 2 + r, x + (tw < cw - 1 ? cw - 1 -
				    tw : 0), cw, attr, txt);
			}
			x += cw + 1;
		}
	}
}

/*
 * Pick the blocks whose type is marked in tm[] (ntypes + 1 bytes, the
 * last for blocks of no type): a look-up a block, the pass over a
 * million of them a few milliseconds.  The count.
 */
static size_t
hi_pick_types(struct tui_heapinfo *hi, const uint8_t *tm)
{
	const struct analyze_heapview	*s = hi->s;
	const uint32_t			*type = s->type;
	uint32_t			 none = (uint32_t)s->ntypes, t;
	uint8_t				*pk = hi->picked;
	size_t				 b, n = 0;

	for (b = 0; b < s->nblocks; b++) {
		t = type[b];
		n += pk[b] = tm[t < none ? t : none];
	}
	return (n);
}

/* What Enter on row (the table's own) of t picks, into picked[]. */
static void
hi_pick(struct tui_heapinfo *hi, int t, size_t row)
{
	const struct analyze_heapview	*s = hi->s;
	const struct analyze_heapview_sum *u = NULL;
	const struct analyze_heapleak_row *lr;
	uint8_t				*mark, *tm;
	uint32_t			 want = HI_NONE, node, base, m, *roots;
	size_t				 b, n = 0, k;
	char				 buf[64];

	tm = xcalloc(s->ntypes + 1, 1);
	if (hi_sums(t))
		u = &hi->sums[hi_sums_by[t]][row];
	free(hi->pick_name);
	switch (t) {
	case TUI_HI_MODULES:
	case TUI_HI_HIERARCHY:
	case TUI_HI_BYMODULE:
		want = u != NULL ? u->key : (uint32_t)row;
		for (k = 0; k < s->ntypes; k++)
			tm[k] = s->types[k].module == want;
		tm[s->ntypes] = want == HI_NONE;
		n = hi_pick_types(hi, tm);
		hi->pick_name = xasprintf("module %s", want == HI_NONE ?
		    "(none)" : s->modules[want].name);
		break;
	case TUI_HI_MODTYPES:
		/* The type's objects the module reaches. */
		if (u == NULL)
			u = &hi->mt[row];
		if (u->key == HI_NONE) {
			for (k = 0; k <= s->ntypes; k++)
				tm[k] = k == s->ntypes || s->types[k].site;
		} else
			tm[u->key] = 1;
		hi_pick_types(hi, tm);
		for (b = 0; b < s->nblocks; b++)
			n += hi->picked[b] &= hi->mt_only[b];
		hi->pick_name = xasprintf("type %s reached from the module",
		    u->key == HI_NONE ? "(none)" : s->types[u->key].name);
		break;
	case TUI_HI_FINAL:
		/* The object itself, as a free block's row goes to it. */
		memset(hi->picked, 0, s->nblocks);
		hi->picked[hi->fin[row]] = 1;
		n = 1;
		hi->pick_name = xasprintf("%s at %#llx",
		    s->types[s->type[hi->fin[row]]].name,
		    (unsigned long long)s->addr[hi->fin[row]]);
		break;
	case TUI_HI_TYPEHIER:
		for (b = 0; b < s->nblocks; b++)
			n += hi->picked[b] = s->type[b] < s->ntypes &&
			    s->type_class[s->type[b]] == hi->th_rows[row];
		hi->pick_name = xasprintf("class %s",
		    s->classes[hi->th_rows[row]]);
		break;
	case TUI_HI_BYTYPE:
		/* The untyped row: the blocks of no type and of a site. */
		if (u->key == HI_NONE) {
			for (k = 0; k <= s->ntypes; k++)
				tm[k] = k == s->ntypes || s->types[k].site;
		} else
			tm[u->key] = 1;
		n = hi_pick_types(hi, tm);
		hi->pick_name = xasprintf("type %s", u->key == HI_NONE ?
		    "(none)" : s->types[u->key].name);
		break;
	case TUI_HI_IMPORTS:
		analyze_heapinfo_closure(&hi->m, (uint32_t)row, NULL);
		hi->m.seen[row] = 1;
		for (k = 0; k < s->ntypes; k++) {
			m = s->types[k].module;
			tm[k] = m != HI_NONE && hi->m.seen[m];
		}
		n = hi_pick_types(hi, tm);
		hi->pick_name = xasprintf("%s and its imports",
		    s->modules[row].name);
		break;
	case TUI_HI_SIZES:
		for (b = 0; b < s->nblocks; b++)
			n += hi->picked[b] =
			    analyze_heapview_class(s->size[b]) == u->key;
		hi->pick_name = xasprintf("size %s", hi_cell(hi, t, row, 0,
		    &(uint64_t){ 0 }, buf, sizeof buf));
		break;
	case TUI_HI_ROOTS:
		/* What the root reaches: what it anchors, with others. */
		node = 1 + hi->roots[row];
		base = (uint32_t)(1 + s->nroots);
		mark = xcalloc_populated(s->graph.nnodes + 1, 1);
		analyze_heap_reach(&s->graph, &node, 1, 0, NULL, mark);
		for (b = 0; b < s->nblocks; b++)
			n += hi->picked[b] = mark[base + b];
		free(mark);
		hi->pick_name = xasprintf("reached from %s",
		    s->roots[hi->roots[row]].name);
		break;
	case TUI_HI_ROOTMODS:
	case TUI_HI_DESCS:
		/* A vtable's row: its class's objects. */
		if (t == TUI_HI_DESCS && !s->descs[hi->ds[row]].data) {
			if (s->descs[hi->ds[row]].type != HI_NONE)
				tm[s->descs[hi->ds[row]].type] = 1;
			n = hi_pick_types(hi, tm);
			hi->pick_name = xasprintf("the objects of %s",
			    s->descs[hi->ds[row]].name);
			break;
		}
		/* What the module's variables (in its data) reach. */
		m = t == TUI_HI_ROOTMODS ? hi->rmods[row] :
		    s->descs[hi->ds[row]].module;
		roots = xreallocarray(NULL, s->nroots + 1, sizeof *roots);
		for (k = 0, node = 0; k < s->nroots; k++) {
			if (s->roots[k].module == m)
				roots[node++] = (uint32_t)(1 + k);
		}
		base = (uint32_t)(1 + s->nroots);
		mark = xcalloc_populated(s->graph.nnodes + 1, 1);
		analyze_heap_reach(&s->graph, roots, node, 0, NULL, mark);
		free(roots);
		for (b = 0; b < s->nblocks; b++)
			n += hi->picked[b] = mark[base + b];
		free(mark);
		hi->pick_name = xasprintf("reached from %s's variables",
		    m == HI_NONE ? "(none)" : s->modules[m].name);
		break;
	case TUI_HI_MODULELESS:
		memset(hi->picked, 0, s->nblocks);
		hi->picked[hi->m.mless[row]] = 1;
		n = 1;
		hi->pick_name = xasprintf("moduleless %#llx",
		    (unsigned long long)s->addr[hi->m.mless[row]]);
		break;
	case TUI_HI_TASKS:
		/* What only the thread's stack and registers reach. */
		m = (uint32_t)(s->nmodules + row);
		for (b = 0; b < s->nblocks; b++)
			n += hi->picked[b] = hi->m.owner != NULL &&
			    hi->m.owner[b] == m;
		hi->pick_name = xasprintf("anchored by thread %lld",
		    (long long)hi->m.thr[row].tid);
		break;
	case TUI_HI_LEAKS:
	case TUI_HI_LEAKS_UP:
	case TUI_HI_LEAKS_DOWN:
	case TUI_HI_LIVE:
		n = analyze_heapleaks_mark(&hi->lk[t - TUI_HI_LEAKS], s, row,
		    hi->picked);
		lr = &hi->lk[t - TUI_HI_LEAKS].rows[row];
		hi->pick_name = xasprintf("%s%s%.60s", analyze_heapleaks_state(
		    lr->state), lr->state < ANALYZE_HEAP_NSTATES ? " " : "",
		    hi->lk_label[t - TUI_HI_LEAKS][row] + lr->depth * 2);
		break;
	}
	free(tm);
	hi->npicked = n;
	hi->pick_table = t;
	hi->pick_row = row;
}

/*
 * :show moduleless: every ModuleLessObjects block picked for the map's
 * mark (no row of the table: pick_row is none of its rows); the count.
 */
size_t
tui_heapinfo_moduleless(struct tui_heapinfo *hi)
{
	size_t	i;

	if (!hi->made)
		return (0);
	memset(hi->picked, 0, hi->s->nblocks);
	for (i = 0; i < hi->m.nmless; i++)
		hi->picked[hi->m.mless[i]] = 1;
	free(hi->pick_name);
	hi->pick_name = xstrdup("moduleless");
	hi->npicked = hi->m.nmless;
	hi->pick_table = TUI_HI_MODULELESS;
	hi->pick_row = SIZE_MAX;
	return (hi->m.nmless);
}

/*
 * Whether site k's frames' functions, innermost first and joined by
 * " < ", are stack: the diff's name of an allocation stack
 * (analyze/heapdiff.c), "(not known)" for a site with no frames.
 */
static int
hi_stack_is(const struct analyze_heapview *s, size_t k, const char *stack)
{
	const char	*f;
	uint32_t	 i;
	size_t		 len;

	if (k >= s->nsites || s->site_first[k] == s->site_first[k + 1])
		return (strcmp(stack, "(not known)") == 0);
	for (i = s->site_first[k]; i < s->site_first[k + 1]; i++) {
		if (i != s->site_first[k]) {
			if (strncmp(stack, " < ", 3) != 0)
				return (0);
			stack += 3;
		}
		f = s->frames[s->site_frame != NULL ? s->site_frame[i] :
		    i].function;
		len = strlen(f);
		if (strncmp(stack, f, len) != 0)
			return (0);
		stack += len;
	}
	return (*stack == '\0');
}

/*
 * The diff view's Enter on a heap row: every block allocated by the
 * stack the row names (each site with those functions: the diff merges
 * them) picked for the map's mark, and *row the Live table's first shown
 * row of one of them, SIZE_MAX if none; the count, 0 when no block is.
 */
size_t
tui_heapinfo_pick_stack(struct tui_heapinfo *hi, const char *stack,
    size_t *row)
{
	const struct analyze_heapview	*s = hi->s;
	const struct analyze_heapleaks	*l;
	struct hi_table			*tb = &hi->t[TUI_HI_LIVE];
	uint8_t				*is;
	uint32_t			 k, rec;
	size_t				 b, r, n = 0;

	*row = SIZE_MAX;
	if (!hi->made)
		return (0);
	/* The last for blocks of no known site. */
	is = xcalloc(s->nsites + 1, 1);
	for (k = 0; k <= s->nsites; k++)
		is[k] = (uint8_t)hi_stack_is(s, k, stack);
	for (b = 0; b < s->nblocks; b++)
		n += hi->picked[b] = is[s->site[b] < s->nsites ? s->site[b] :
		    s->nsites];
	l = &hi->lk[TUI_HI_LIVE - TUI_HI_LEAKS];
	for (r = 0; r < tb->n && *row == SIZE_MAX; r++) {
		rec = l->rows[tb->order != NULL ? tb->order[r] : r].rec;
		if (rec != HI_NONE && is[l->recs[rec].site < s->nsites ?
		    l->recs[rec].site : s->nsites])
			*row = r;
	}
	free(is);
	if (n == 0) {
		tui_heapinfo_unpick(hi);
		return (0);
	}
	free(hi->pick_name);
	hi->pick_name = xasprintf("stack %.60s", stack);
	hi->npicked = n;
	hi->pick_table = TUI_HI_LIVE;
	hi->pick_row = SIZE_MAX;
	return (n);
}

/* Take the pick off the map; whether there was one. */
int
tui_heapinfo_unpick(struct tui_heapinfo *hi)
{
	if (hi->pick_table < 0)
		return (0);
	hi->pick_table = -1;
	hi->npicked = 0;
	return (1);
}

/* The objects picked (a byte per block) and the legend's name; NULL. */
const uint8_t *
tui_heapinfo_picked(struct tui_heapinfo *hi, const char **name)
{
	if (hi->pick_table < 0)
		return (NULL);
	*name = hi->pick_name;
	return (hi->picked);
}

/* The address a FreeBlocks row asked the map to go to. */
uint64_t
tui_heapinfo_goto(struct tui_heapinfo *hi)
{
	return (hi->go);
}

struct tui_list *
tui_heapinfo_list(struct tui_heapinfo *hi, enum tui_heapinfo_table t)
{
	return (&hi->t[t].list);
}

/* Search in a table: row (as shown) has pattern in a column's text. */
int
tui_heapinfo_match(struct tui_heapinfo *hi, enum tui_heapinfo_table t,
    size_t row, const char *pattern)
{
	const struct hi_def	*d = &hi_defs[t];
	char			 buf[64];
	int			 c;

	if (!hi->made || row >= hi->t[t].n)
		return (0);
	for (c = 0; c < d->ncols; c++) {
		if (tui_strcasestr(hi_cell(hi, t, hi->t[t].order[row], c,
		    &(uint64_t){ 0 }, buf, sizeof buf), pattern))
			return (1);
	}
	return (0);
}

/* Scroll the columns as little as shows the sort column's head. */
static void
hi_show_col(const struct hi_def *d, struct hi_table *tb)
{
	int	x, c;

	if (tb->scol < tb->hcol) {
		tb->hcol = tb->scol;
		return;
	}
	for (; tb->hcol < tb->scol; tb->hcol++) {
		for (x = 0, c = tb->hcol; c < tb->scol; c++)
			x += hi_width(d, c, x, tb->w) + 1;
		if (x + (int)strlen(d->cols[tb->scol].name) + 1 <= tb->w)
			break;
	}
}

/*
 * A key for table t while it has the keys (l: the view's list): sort,
 * scroll the columns, Enter picks the row's objects (again: unpicks) or
 * on a free block asks the map to go there.  TUI_R_* with TUI_HI_MARKS
 * when the pick changed, TUI_HI_GOTO when the map should move.
 */
int
tui_heapinfo_key(struct tui_heapinfo *hi, enum tui_heapinfo_table t,
    struct tui_list *l, int a)
{
	const struct hi_def	*d = &hi_defs[t];
	struct hi_table		*tb = &hi->t[t];
	size_t			 row;

	if (!hi->made)
		return (TUI_R_UNUSED);
	switch (a) {
	case HI_ACT_SORT:
		tb->desc = !tb->desc;
		break;
	case HI_ACT_SORT_LEFT:
	case HI_ACT_SORT_RIGHT:
		if (a == HI_ACT_SORT_LEFT && tb->scol > 0)
			tb->scol--;
		else if (a == HI_ACT_SORT_RIGHT && tb->scol + 1 <
		    d->ncols)
			tb->scol++;
		/* Names A-Z, numbers the most first, as HeapInspector's. */
		tb->desc = d->cols[tb->scol].kind != HI_TEXT;
		hi_show_col(d, tb);
		break;
	case HI_ACT_LEFT:
		if (tb->hcol > 0)
			tb->hcol--;
		return (TUI_R_DRAW);
	case HI_ACT_RIGHT:
		if (tb->hcol + 1 < d->ncols)
			tb->hcol++;
		return (TUI_R_DRAW);
	case HI_ACT_PICK:
		if (l->cur >= tb->n)
			return (TUI_R_DRAW);
		row = tb->order[l->cur];
		if (t == TUI_HI_FREE) {
			hi->go = hi->m.gap_addr[row];
			tui_message("free block %#llx: %llu bytes",
			    (unsigned long long)hi->go,
			    (unsigned long long)hi->m.gap_size[row]);
			return (TUI_R_DRAW | TUI_HI_GOTO);
		}
		if (hi->pick_table == (int)t && hi->pick_row == row) {
			tui_heapinfo_unpick(hi);
			tui_message("unmarked");
			return (TUI_R_DRAW | TUI_HI_MARKS);
		}
		hi_pick(hi, t, row);
		tui_message("marked %zu objects: %s (Enter again or x"
		    " unmarks)", hi->npicked, hi->pick_name);
		return (TUI_R_DRAW | TUI_HI_MARKS);
	default:
		return (TUI_R_UNUSED);
	}
	tui_heapinfo_sort(hi, t, l);
	tui_message("%s sorted by %s, %s", d->name, d->cols[tb->scol].name,
	    tb->desc ? "descending" : "ascending");
	return (TUI_R_DRAW);
}

/* Whether a type's or class's name is one: an anonymous one is not. */
static int
hi_named(const char *name)
{
	return (strstr(name, "(anonymous)") == NULL);
}

/* A table's rows changed: from the top, sorted as it was. */
static void
hi_renew(struct tui_heapinfo *hi, enum tui_heapinfo_table t)
{
	hi->t[t].list.cur = hi->t[t].list.top = 0;
	free(hi->t[t].order);
	hi->t[t].order = NULL;
	tui_heapinfo_sort(hi, t, &hi->t[t].list);
	/* A pick's row is gone from under it; its marks stay. */
	if (hi->pick_table == (int)t)
		hi->pick_row = SIZE_MAX;
}

/*
 * TypeHierarchy, once the snapshot's classes are read
 * (analyze_heapview_bases): every class, or the Named (not anonymous)
 * or the Classes (with a vtable pointer: polymorphic).  -1 before the
 * graph or without the classes; else the rows.
 */
int
tui_heapinfo_classes(struct tui_heapinfo *hi, enum tui_heapinfo_filter f)
{
	const struct analyze_heapview	*s = hi->s;
	size_t				 c, b, n = 0, k, nb = 0;
	uint32_t			 tc;
	char				*t;

	if (!hi->made || s->classes == NULL)
		return (-1);
	hi_classes_free(hi);
	hi->th_rows = xreallocarray(NULL, s->nclasses + 1,
	    sizeof *hi->th_rows);
	hi->th_objs = xcalloc(s->nclasses + 1, sizeof *hi->th_objs);
	hi->th_bytes = xcalloc(s->nclasses + 1, sizeof *hi->th_bytes);
	hi->th_derived = xcalloc(s->nclasses + 1, sizeof *hi->th_derived);
	hi->th_bases = xcalloc(s->nclasses + 1, sizeof *hi->th_bases);
	for (b = 0; b < s->nblocks; b++) {
		if (s->type[b] >= s->ntypes ||
		    (tc = s->type_class[s->type[b]]) == HI_NONE)
			continue;
		hi->th_objs[tc]++;
		hi->th_bytes[tc] += s->size[b];
	}
	for (c = 0; c < s->nclasses; c++) {
		hi->th_bases[c] = xstrdup("");
		for (k = s->class_base_off[c]; k < s->class_base_off[c + 1];
		    k++) {
			hi->th_derived[s->class_base[k]]++;
			t = xasprintf("%s%s%s", hi->th_bases[c],
			    *hi->th_bases[c] != '\0' ? ", " : "",
			    s->classes[s->class_base[k]]);
			free(hi->th_bases[c]);
			hi->th_bases[c] = t;
			nb++;
		}
	}
	for (c = 0; c < s->nclasses; c++) {
		if ((f == TUI_HI_NAMED && !hi_named(s->classes[c])) ||
		    (f == TUI_HI_CLASSES && !s->class_vptr[c]))
			continue;
		hi->th_rows[n++] = (uint32_t)c;
	}
	hi->th_what = xasprintf("%s C++ classes and C structs of the DWARF,"
	    " %zu derivations; vtable: a _vptr member, its own or a base's;"
	    " virtual: methods it declares virtual%s", f == TUI_HI_NAMED ?
	    "named" : f == TUI_HI_CLASSES ? "polymorphic" : "all", nb,
	    s->class_methods ? "" : " (?: ingested with no methods kept)");
	hi->t[TUI_HI_TYPEHIER].n = n;
	hi_renew(hi, TUI_HI_TYPEHIER);
	return ((int)n);
}

/*
 * ObjectsByType's Named (types with a name: no allocation site's, no
 * anonymous struct) and Classes (of a class with a vtable pointer, so
 * analyze_heapview_bases first), or every type again.  -1 before the
 * graph (or Classes without the classes); else the rows.
 */
int
tui_heapinfo_bytype(struct tui_heapinfo *hi, enum tui_heapinfo_filter f)
{
	const struct analyze_heapview	*s = hi->s;
	struct analyze_heapview_sum	*all, *u;
	size_t				 i, n = 0, nall;
	uint32_t			 k, c;

	if (!hi->made || (f == TUI_HI_CLASSES && s->classes == NULL))
		return (-1);
	if (hi->bt_all == NULL) {
		hi->bt_all = hi->sums[ANALYZE_HEAPVIEW_BY_TYPE];
		hi->nbt_all = hi->nsums[ANALYZE_HEAPVIEW_BY_TYPE];
		hi->sums[ANALYZE_HEAPVIEW_BY_TYPE] = NULL;
	}
	all = hi->bt_all;
	nall = hi->nbt_all;
	free(hi->sums[ANALYZE_HEAPVIEW_BY_TYPE]);
	u = xcalloc(nall + 1, sizeof *u);
	for (i = 0; i < nall; i++) {
		k = all[i].key;
		if (f == TUI_HI_NAMED && (k == HI_NONE ||
		    !hi_named(s->types[k].name)))
			continue;
		if (f == TUI_HI_CLASSES && (k == HI_NONE ||
		    (c = s->type_class[k]) == HI_NONE || !s->class_vptr[c]))
			continue;
		u[n++] = all[i];
	}
	hi->sums[ANALYZE_HEAPVIEW_BY_TYPE] = u;
	hi->nsums[ANALYZE_HEAPVIEW_BY_TYPE] = n;
	free(hi->bt_what);
	hi->bt_what = f == TUI_HI_ALL ? NULL : xasprintf("objects by type,"
	    " %s only (%zu of %zu types); usable: with fragmentation",
	    f == TUI_HI_NAMED ? "named" : "classes with a vtable", n, nall);
	hi->t[TUI_HI_BYTYPE].n = n;
	hi_renew(hi, TUI_HI_BYTYPE);
	return ((int)n);
}

/*
 * ModuleReachableTypes: by type, the objects module m's roots (its
 * globals) reach, through any path.  -1 before the graph; else the rows.
 */
int
tui_heapinfo_modtypes(struct tui_heapinfo *hi, uint32_t m)
{
	const struct analyze_heapview	*s = hi->s;
	uint32_t			*roots, nr = 0, base;
	uint8_t				*mark;
	size_t				 k, b, n, nobj = 0;

	if (!hi->made)
		return (-1);
	roots = xreallocarray(NULL, s->nroots + 1, sizeof *roots);
	for (k = 0; k < s->nroots; k++) {
		if (s->roots[k].module == m)
			roots[nr++] = (uint32_t)(1 + k);
	}
	base = (uint32_t)(1 + s->nroots);
	mark = xcalloc_populated(s->graph.nnodes + 1, 1);
	analyze_heap_reach(&s->graph, roots, nr, 0, NULL, mark);
	free(roots);
	free(hi->mt_only);
	hi->mt_only = xcalloc(s->nblocks + 1, 1);
	for (b = 0; b < s->nblocks; b++)
		nobj += hi->mt_only[b] = mark[base + b];
	free(mark);
	free(hi->mt);
	n = analyze_heapview_sums_of(s, ANALYZE_HEAPVIEW_BY_TYPE,
	    hi->mt_only, &hi->mt);
	free(hi->mt_what);
	hi->mt_what = xasprintf("%zu objects of %zu types reached from %s's"
	    " %u roots (its globals); usable: with fragmentation", nobj, n,
	    s->modules[m].name, nr);
	hi->t[TUI_HI_MODTYPES].n = n;
	hi_renew(hi, TUI_HI_MODTYPES);
	return ((int)n);
}

/*
 * Whether Tab shows table t: TypeHierarchy and ModuleReachableTypes only
 * once their commands made them (the second needs a module named).
 */
int
tui_heapinfo_asked(const struct tui_heapinfo *hi, enum tui_heapinfo_table t)
{
	if (t == TUI_HI_TYPEHIER)
		return (hi->th_what != NULL);
	if (t == TUI_HI_MODTYPES)
		return (hi->mt_what != NULL);
	if (t == TUI_HI_FINAL)
		return (hi->fin_what != NULL);
	if (t == TUI_HI_DESCS)
		return (hi->ds_what != NULL);
	return (1);
}

/*
 * Descriptors: those sel[] has of the snapshot's (analyze_heapview_descs
 * read them), and the pane's first line, what.
 */
void
tui_heapinfo_descs(struct tui_heapinfo *hi, const uint8_t *sel,
    const char *what)
{
	const struct analyze_heapview	*s = hi->s;
	size_t				 i, n = 0;

	hi_descs_free(hi);
	hi->ds = xreallocarray(NULL, s->ndescs + 1, sizeof *hi->ds);
	hi->ds_text = xreallocarray(NULL, s->ndescs + 1,
	    sizeof *hi->ds_text);
	for (i = 0; i < s->ndescs; i++) {
		if (!sel[i])
			continue;
		hi->ds_text[n] = s->descs[i].data ?
		    xstrdup("data (writable)") : xasprintf("vtable for %s",
		    s->descs[i].name);
		hi->ds[n++] = (uint32_t)i;
	}
	hi->ds_what = xstrdup(what);
	hi->t[TUI_HI_DESCS].n = n;
	hi_renew(hi, TUI_HI_DESCS);
}

/*
 * Finalizers: the objects whose type is a class with a destructor
 * (declared in it, or a base's that its implicit one runs), from the
 * DWARF; the mark is whether a root reaches it (a collector's mark
 * bit).  -1 before the graph or without the classes; else the rows.
 */
int
tui_heapinfo_finalizers(struct tui_heapinfo *hi)
{
	const struct analyze_heapview	*s = hi->s;
	size_t				 b, n = 0, lost = 0;
	uint32_t			 c;

	if (!hi->made || s->classes == NULL)
		return (-1);
	free(hi->fin);
	hi->fin = xreallocarray(NULL, s->nblocks + 1, sizeof *hi->fin);
	for (b = 0; b < s->nblocks; b++) {
		if (s->type[b] >= s->ntypes ||
		    (c = s->type_class[s->type[b]]) == HI_NONE ||
		    !s->class_dtor[c])
			continue;
		hi->fin[n++] = (uint32_t)b;
		lost += s->graph.state[b] != ANALYZE_HEAP_REACHABLE;
	}
	free(hi->fin_what);
	hi->fin_what = xasprintf("%zu objects of classes with a destructor,"
	    " %zu no root reaches (no atexit or thread-key cleanup: a"
	    " snapshot has not their lists)%s", n, lost, s->class_methods ?
	    "" : "; ingested with no methods kept: ingest it again");
	hi->t[TUI_HI_FINAL].n = n;
	hi_renew(hi, TUI_HI_FINAL);
	return ((int)n);
}
