/*
 * analyze/heap.h: the heap kind's analyses (heapgraph.c, heapmap.c,
 * heapview.c, heapdiff.c, heapleaks.c, heapsnap.c, heap.c), shared by the
 * heap views, the heap reports and the questions.
 */
#ifndef ANALYZE_HEAP_H
#define ANALYZE_HEAP_H

#include <stdatomic.h>
#include "analyze/analyze.h"
#include "store/heap.h"

/*
 * The heap graph (heapgraph.c).  Nodes: 0 for all roots together, then
 * 1 + r for root r, then 1 + nroots + b for block b (blocks in address
 * order, as memcheck takes them).
 */
#define ANALYZE_HEAP_E_ROOT	0x1	/* src is a root, not a block */
#define ANALYZE_HEAP_E_INTERIOR	0x2	/* points inside dst, not at it */
#define ANALYZE_HEAP_E_EXCUSED	0x4	/* ... as a memcheck heuristic allows */
/* Nodes and edges a graph may have: below the top bit, which marks. */
#define ANALYZE_HEAP_MAX	0x80000000u
/* analyze_heap_states_csr's targets: interior, and no heuristic excuses it. */
#define ANALYZE_HEAP_T_WEAK	ANALYZE_HEAP_MAX

struct analyze_heap_edge {
	uint32_t	 src;
	uint32_t	 dst;
	uint32_t	 flags;
};

/* A block's leak kind, memcheck's. */
enum analyze_heap_state {
	ANALYZE_HEAP_UNREACHED,		/* only while computing */
	ANALYZE_HEAP_REACHABLE,
	ANALYZE_HEAP_POSSIBLE,
	ANALYZE_HEAP_DEFINITE,		/* definitely lost */
	ANALYZE_HEAP_INDIRECT,		/* indirectly lost */
	ANALYZE_HEAP_NSTATES
};

struct analyze_heap {
	uint32_t	 nroots;
	uint32_t	 nblocks;
	uint32_t	 nnodes;
	size_t		 nedges;
	uint32_t	*out_off;	/* CSR: nnodes + 1 offsets */
	uint32_t	*out;		/* targets (top bit: interior) */
	uint32_t	*in_off;
	uint32_t	*in;
	uint64_t	*size;		/* per node; roots 0 */
	/* analyze_heap_states */
	uint8_t		*state;		/* per block */
	uint64_t	 counts[ANALYZE_HEAP_NSTATES];
	uint64_t	 bytes[ANALYZE_HEAP_NSTATES];
	/* analyze_heap_dominators */
	uint32_t	*idom;		/* per node, UINT32_MAX unreached */
	uint64_t	*retained;	/* per node */
	uint32_t	*dom_in;	/* per node, its span in dom_order */
	uint32_t	*dom_out;
	uint32_t	*dom_order;	/* the tree in preorder */
	uint32_t	 ndom;
};

int		 analyze_heap_build(struct analyze_heap *, uint32_t, uint32_t,
		    const uint64_t *, const struct analyze_heap_edge *, size_t,
		    char **);
void		 analyze_heap_free(struct analyze_heap *);
void		 analyze_heap_states(struct analyze_heap *);
int		 analyze_heap_states_csr(uint8_t *, const uint32_t *, size_t,
		    uint32_t, const uint32_t *, const uint32_t *, char **);
size_t		 analyze_heap_reach(const struct analyze_heap *,
		    const uint32_t *, size_t, int, const uint8_t *, uint8_t *);

/* A search over the graph in steps (analyze_heap_reach's, resumable). */
struct analyze_heap_walk {
	const struct analyze_heap	*h;
	const uint8_t			*skip;
	uint8_t				*mark;
	uint32_t			*stack;		/* NULL: done */
	uint32_t			 top;
	int				 reverse;
	size_t				 count;		/* marked so far */
};

void		 analyze_heap_walk_begin(struct analyze_heap_walk *,
		    const struct analyze_heap *, const uint32_t *, size_t, int,
		    const uint8_t *, uint8_t *);
int		 analyze_heap_walk_step(struct analyze_heap_walk *, size_t);
void		 analyze_heap_walk_end(struct analyze_heap_walk *);
void		 analyze_heap_anchored_begin(struct analyze_heap_walk *,
		    const struct analyze_heap *, uint32_t, uint8_t *);
size_t		 analyze_heap_anchored_finish(const struct analyze_heap *,
		    uint32_t, uint8_t *);
void		 analyze_heap_dominators(struct analyze_heap *);
size_t		 analyze_heap_anchored(const struct analyze_heap *, uint32_t,
		    const uint32_t **);
size_t		 analyze_heap_anchored_by(const struct analyze_heap *,
		    uint32_t, uint8_t *);
size_t		 analyze_heap_unload(const struct analyze_heap *,
		    const uint8_t *, uint8_t *);

/*
 * The heap map (heapmap.c): HeapInspector's bitmap of a heap as a model
 * that a view asks for the cells it shows.  The heap's regions (main
 * heap, arenas, mmap'd chunks) in address order, each starting a new row
 * at its start address; a cell holds a power of two of bytes (16 << zoom,
 * or 16 >> -zoom when zoomed in past one granule a cell), and shows the
 * highest mark below of the drawn blocks with a byte in it, however few
 * its bytes, so that no zoom hides a marked block; a cell without a byte
 * of a drawn block is free, blank.
 *
 * Marks, lowest priority first.  The caller decides each block's mark
 * (from its type, its leak state, the overlays on), writes it into
 * mark[] and calls analyze_heapmap_marks_changed.
 */
enum analyze_heapmap_mark {
	ANALYZE_HEAPMAP_PLAIN,		/* a block nothing picks out */
	ANALYZE_HEAPMAP_DEFAULT,	/* the C library's or loader's own */
	ANALYZE_HEAPMAP_TYPE1,		/* :mark spec 1 .. 8 */
	ANALYZE_HEAPMAP_TYPE2,
	ANALYZE_HEAPMAP_TYPE3,
	ANALYZE_HEAPMAP_TYPE4,
	ANALYZE_HEAPMAP_TYPE5,
	ANALYZE_HEAPMAP_TYPE6,
	ANALYZE_HEAPMAP_TYPE7,
	ANALYZE_HEAPMAP_TYPE8,
	ANALYZE_HEAPMAP_FREED,		/* gone since the snapshot compared */
	ANALYZE_HEAPMAP_BORN,		/* new since the snapshot compared */
	ANALYZE_HEAPMAP_KEPT,		/* not collectable */
	ANALYZE_HEAPMAP_POSSIBLE,	/* possibly lost */
	ANALYZE_HEAPMAP_COLLECTABLE,	/* definitely or indirectly lost */
	ANALYZE_HEAPMAP_UNLOAD,		/* collectable after :testunload */
	ANALYZE_HEAPMAP_REACHABLE,	/* reachable from the selected object */
	ANALYZE_HEAPMAP_REACHED_FROM,	/* reaches the selected object */
	ANALYZE_HEAPMAP_PICKED,		/* an info table row's objects */
	ANALYZE_HEAPMAP_SELECTED,	/* the selection */
	ANALYZE_HEAPMAP_NMARKS
};
/* A block's mark: not drawn, not counted.  A cell's: nothing drawn. */
#define ANALYZE_HEAPMAP_NONE	0xff

#define ANALYZE_HEAPMAP_GRANULE	16	/* malloc's alignment */
#define ANALYZE_HEAPMAP_ZMIN	(-3)	/* a granule as 8 cells */
#define ANALYZE_HEAPMAP_ZMAX	40

/* Cell flags. */
#define ANALYZE_HEAPMAP_START	0x1	/* a drawn block starts in it */
#define ANALYZE_HEAPMAP_SPARSE	0x2	/* under half its bytes are drawn */
#define ANALYZE_HEAPMAP_OUT	0x4	/* outside every region */

struct analyze_heapmap_region {
	uint64_t	 lo;		/* [lo, hi) */
	uint64_t	 hi;
	char		*name;		/* "main heap", "arena 2", "mmap" */
};

struct analyze_heapmap_cell {
	uint8_t		 mark;		/* ANALYZE_HEAPMAP_NONE: free */
	uint8_t		 flags;
};

struct analyze_heapmap_count {
	uint64_t	 blocks;
	uint64_t	 bytes;
};

/*
 * Where a map is: cols cells a row, rows rows (pixel rows: a terminal
 * line holds two with half blocks), the zoom, the phase (every region's
 * first row starts phase cells in from the left: Left and Right move the
 * map's start by cells, as HeapInspector's Move does) and the top row.  With
 * align 2, every region's first row is an even one (blank rows pad the
 * region before), so that with two rows to a line a region starts a line
 * and its start address can label it.
 */
struct analyze_heapmap_view {
	uint32_t	 cols;
	uint32_t	 rows;
	int		 zoom;
	uint32_t	 phase;		/* < cols */
	uint64_t	 top;
	uint32_t	 align;		/* 0 or 1: none */
};

/*
 * From 256 bytes a cell on, a zoom level's cells are kept as runs of
 * equal cells, made a chunk at a time when a frame first shows it (and
 * again when the marks have changed since).
 */
struct analyze_heapmap_chunk {
	uint64_t	 gen;		/* the marks' it was made with */
	uint32_t	 n;
	uint32_t	 cap;
	uint32_t	*off;		/* a run's first cell, in the chunk */
	uint16_t	*val;		/* mark | flags << 8 */
};

struct analyze_heapmap_level {
	unsigned	 shift;		/* log2 of a chunk's cells */
	uint64_t	 nchunks;	/* 0: not laid out yet */
	struct analyze_heapmap_chunk *chunks;
};

struct analyze_heapmap {
	struct analyze_heapmap_region *regions;	/* by address */
	size_t		 nregions;
	size_t		*rfirst;	/* region r's blocks: [rfirst[r],
					   rfirst[r + 1]) */
	uint64_t	*rbytes;	/* bytes of the regions before r */
	uint64_t	 heap_bytes;	/* of every region */
	size_t		 nblocks;
	const uint64_t	*addr;		/* by address, none overlapping */
	const uint64_t	*size;		/* usable size (both borrowed) */
	uint8_t		*mark;		/* the caller's: enum or _NONE */
	struct analyze_heapmap_count total[ANALYZE_HEAPMAP_NMARKS];
	uint32_t	*ck_count;	/* per 64 blocks: counts by mark */
	uint64_t	*ck_bytes;	/* and bytes, before the block */
	uint32_t	*ck_zero;	/* and blocks of no size */
	uint64_t	 gen;		/* of the marks, from 1 */
	struct analyze_heapmap_level levels[ANALYZE_HEAPMAP_ZMAX + 1];
	/* The layout of the last cols, zoom and phase asked for. */
	int		 l_ok;
	uint32_t	 l_cols;
	int		 l_zoom;
	uint32_t	 l_phase;
	uint32_t	 l_align;
	uint64_t	*l_row;		/* first row of region r; [nregions]
					   all rows */
	uint64_t	*l_cell;	/* first linear cell of region r */
};

/* The moves of analyze_heapmap_move. */
enum analyze_heapmap_move {
	ANALYZE_HEAPMAP_ROWS,		/* n rows down (up if negative) */
	ANALYZE_HEAPMAP_CELLS,		/* the start n cells on (back) */
	ANALYZE_HEAPMAP_HOME,		/* the heap's start, top left */
	ANALYZE_HEAPMAP_END		/* the heap's end at the bottom */
};

int		 analyze_heapmap_build(struct analyze_heapmap *,
		    const struct analyze_heapmap_region *, size_t,
		    const uint64_t *, const uint64_t *, size_t, char **);
int		 analyze_heapmap_check(const struct analyze_heapmap_region *,
		    size_t, const uint64_t *, const uint64_t *, size_t,
		    char **);
void		 analyze_heapmap_free(struct analyze_heapmap *);
void		 analyze_heapmap_marks_changed(struct analyze_heapmap *);
uint64_t	 analyze_heapmap_level_build(struct analyze_heapmap *, int);
uint64_t	 analyze_heapmap_cell_bytes(int);
uint64_t	 analyze_heapmap_nrows(struct analyze_heapmap *,
		    const struct analyze_heapmap_view *);
int		 analyze_heapmap_fit(struct analyze_heapmap *,
		    const struct analyze_heapmap_view *);
void		 analyze_heapmap_frame(struct analyze_heapmap *,
		    const struct analyze_heapmap_view *,
		    struct analyze_heapmap_cell *);
long		 analyze_heapmap_row_addr(struct analyze_heapmap *,
		    const struct analyze_heapmap_view *, uint64_t, uint64_t *);
int		 analyze_heapmap_cell_range(struct analyze_heapmap *,
		    const struct analyze_heapmap_view *, uint64_t, uint32_t,
		    uint64_t *, uint64_t *);
size_t		 analyze_heapmap_block_at(struct analyze_heapmap *,
		    const struct analyze_heapmap_view *, uint64_t, uint32_t);
size_t		 analyze_heapmap_find(const struct analyze_heapmap *,
		    uint64_t);
int		 analyze_heapmap_locate(struct analyze_heapmap *,
		    const struct analyze_heapmap_view *, uint64_t, uint64_t *,
		    uint32_t *);
int		 analyze_heapmap_span(struct analyze_heapmap *,
		    const struct analyze_heapmap_view *, uint64_t *,
		    uint64_t *);
void		 analyze_heapmap_counts(struct analyze_heapmap *,
		    const struct analyze_heapmap_view *,
		    struct analyze_heapmap_count *);
int		 analyze_heapmap_move(struct analyze_heapmap *,
		    struct analyze_heapmap_view *, enum analyze_heapmap_move,
		    int64_t);
void		 analyze_heapmap_clamp(struct analyze_heapmap *,
		    struct analyze_heapmap_view *);
int		 analyze_heapmap_zoom(struct analyze_heapmap *,
		    struct analyze_heapmap_view *, int);
int		 analyze_heapmap_zoom_by(struct analyze_heapmap *,
		    struct analyze_heapmap_view *, double, uint32_t);
void		 analyze_heapmap_center(struct analyze_heapmap *,
		    struct analyze_heapmap_view *, uint64_t);
void		 analyze_heapmap_start_at(struct analyze_heapmap *,
		    struct analyze_heapmap_view *, uint64_t);
int		 analyze_heapmap_zoom_to(struct analyze_heapmap *,
		    struct analyze_heapmap_view *, uint64_t, uint64_t);
int		 analyze_heapmap_addr(const struct analyze_heapmap *,
		    const char *, uint64_t *, int *, char **);
uint64_t	 analyze_heapmap_middle(const struct analyze_heapmap *);

/*
 * A load watched from another thread (the heap map loads a stored session
 * in a thread of its own, so its keys answer meanwhile): the rows read so
 * far, of total (both set by the loader), and stop, which a watcher sets
 * to make the load give up ("interrupted").
 */
struct analyze_heap_watch {
	_Atomic uint64_t	 rows;
	_Atomic uint64_t	 total;
	_Atomic int		 stop;
};

/*
 * A heap snapshot as the heap map's view holds it (heapview.c): plain
 * arrays, whoever filled them (the heap kind's loader, a test), and what
 * analyze_heapview_init makes of them: the heap graph with its leak
 * states, and the map.  Blocks are by address; edges name blocks by
 * their index here (ANALYZE_HEAP_E_ROOT: the source is a root).  An
 * index that refers to nothing is ANALYZE_HEAPVIEW_NONE.
 */
#define ANALYZE_HEAPVIEW_NONE	UINT32_MAX

struct analyze_heapview_type {
	char		*name;		/* a class, or the allocation site */
	uint32_t	 module;
	/*
	 * Not a type: the blocks' type is unknown, name says where they
	 * were allocated (the site's function, whose module is module).
	 */
	int		 site;
};

struct analyze_heapview_module {
	char		*name;
	uint32_t	*imports;	/* DT_NEEDED, as module indices */
	uint32_t	 nimports;
	uint64_t	 code_size;	/* its executable and writable */
	uint64_t	 data_size;	/* segments' bytes */
};

/*
 * HeapInspector's descriptors, which are not on the heap: a class's
 * vtable (its type descriptor, an object of the module's read-only data:
 * the _ZTV symbol's address and size) or one of a module's writable data
 * regions (its module descriptor, where its globals are).
 */
struct analyze_heapview_desc {
	int		 data;		/* 1: module data; 0: a vtable */
	uint32_t	 type;		/* the vtable's class, as a type, if a
					   live object has it */
	char		*name;		/* the class, or the data's module */
	uint32_t	 module;
	uint64_t	 addr;
	uint64_t	 size;		/* 0: not known (an older ingest) */
	uint64_t	 refs;		/* live objects of the class, or the
					   data's pointers to the heap */
};

/* A thread, as the snapshot's regions give it (NULL in a demo's). */
struct analyze_heapview_thread {
	int64_t		 tid;
	uint64_t	 lo, hi;	/* its stack, from 128 B below sp */
	int		 regs;		/* its registers were read */
};

struct analyze_heapview_frame {
	char		*function;
	char		*file;		/* NULL: not known */
	uint32_t	 line;
};

struct analyze_heapview_root {
	char		*name;		/* "module:variable", "thread 12" */
	char		*symbol;	/* a C++ variable's, or NULL */
	uint32_t	 module;
};

struct analyze_heapview {
	char		*program;
	struct analyze_heapmap_region *regions;
	size_t		 nregions;
	size_t		 nblocks;
	uint64_t	*addr;
	uint64_t	*size;		/* asked for */
	uint64_t	*usable;
	uint64_t	*seq;		/* allocation numbers, or NULL */
	uint32_t	*type;		/* per block */
	uint32_t	*site;		/* per block */
	struct analyze_heapview_type *types;
	size_t		 ntypes;
	struct analyze_heapview_module *modules;
	size_t		 nmodules;
	uint32_t	*site_first;	/* site s: frames [first[s], first[s+1]) */
	size_t		 nsites;
	/*
	 * Those frames' indices into frames[], sites sharing frames; NULL:
	 * site_first indexes frames[] itself.
	 */
	uint32_t	*site_frame;
	size_t		 nsite_frames;
	struct analyze_heapview_frame *frames;
	size_t		 nframes;
	struct analyze_heapview_root *roots;
	size_t		 nroots;
	/*
	 * C++ derivation, from the DWARF stored at ingest once
	 * analyze_heapview_bases has read it (else classes is NULL): the
	 * class names, sorted, each one's direct bases as indices into them
	 * ([base_off[c], base_off[c + 1]) of base[]), and each type's class
	 * (or ANALYZE_HEAPVIEW_NONE).
	 */
	char		**classes;
	size_t		 nclasses;
	uint32_t	*class_base_off;
	uint32_t	*class_base;
	uint32_t	*type_class;
	/*
	 * TypeHierarchy's, per class: its size, its own pointer members
	 * (the vtable pointer not one), and whether it or a base has a
	 * vtable pointer (a _vptr member: a polymorphic class).
	 */
	uint64_t	*class_size;
	uint32_t	*class_ptrs;
	uint8_t		*class_vptr;
	/*
	 * And its virtual methods declared in it (overrides too), and its
	 * destructor: declared in it ("~C()", class_dtor 1), or only a
	 * base's (2: C's implicit one calls it), or none (0).
	 */
	uint32_t	*class_virt;
	uint8_t		*class_dtor;
	char		**class_dtor_name;	/* 1: its name, else NULL */
	int		 class_methods;	/* any stored (else an older ingest) */
	/* Read by analyze_heapview_descs: NULL until then. */
	struct analyze_heapview_desc *descs;
	size_t		 ndescs;
	struct analyze_heap_edge *edges;
	size_t		 nedges;
	uint64_t	*data_off;	/* NULL, or block b's kept bytes:
					   data[data_off[b] .. data_off[b+1]) */
	uint8_t		*data;
	struct analyze_heapview_thread *threads;
	size_t		 nthreads;
	/* Made by analyze_heapview_init (_map, then _graph). */
	struct analyze_heapmap	 map;
	struct analyze_heap	 graph;
	int			 graph_ready;
};

/* One row of ObjectsByType / ObjectsByModule / ObjectSizes. */
struct analyze_heapview_sum {
	uint32_t	 key;		/* type, module, or log2 of the size */
	uint64_t	 blocks;
	uint64_t	 bytes;		/* asked for */
	uint64_t	 usable;	/* with fragmentation */
};

int		 analyze_heapview_init(struct analyze_heapview *, char **);
int		 analyze_heapview_load(struct store *, int64_t,
		    struct analyze_heapview *, char **);
int		 analyze_heapview_load_watched(struct store *, int64_t,
		    struct analyze_heapview *, struct analyze_heap_watch *,
		    char **);
int		 analyze_heapview_map(struct analyze_heapview *, char **);
char		*analyze_heapview_stack(const struct analyze_heapview *,
		     uint32_t, size_t);
size_t		 analyze_heapview_regions(const struct analyze_heapmap_region *,
		     size_t, const uint64_t *, const uint64_t *, size_t,
		     struct analyze_heapmap_region **);
int		 analyze_heapview_graph(struct analyze_heapview *, char **);
void		 analyze_heapview_free(struct analyze_heapview *);
int		 analyze_heapview_bases(struct store *, int64_t,
		    struct analyze_heapview *);
int		 analyze_heapview_descs(struct store *, int64_t,
		    struct analyze_heapview *);
size_t		 analyze_heapview_vtables(const struct analyze_heapview *,
		    const char *, uint8_t *);
size_t		 analyze_heapview_types(const struct analyze_heapview *,
		    const char *, uint8_t *);
uint32_t	 analyze_heapview_class(uint64_t);
size_t		 analyze_heapview_sums_of(const struct analyze_heapview *,
		     int, const uint8_t *, struct analyze_heapview_sum **);
size_t		 analyze_heapview_sums(const struct analyze_heapview *, int,
		    struct analyze_heapview_sum **);
size_t		 analyze_heapview_find(const struct analyze_heapview *,
		    const char *, size_t, uint64_t, uint8_t *);
size_t		 analyze_heapview_unload(const struct analyze_heapview *,
		    const uint8_t *, uint8_t *, uint8_t *);
uint32_t	 analyze_heapview_module(const struct analyze_heapview *,
		    const char *);
const char	*analyze_heapview_root_var(const char *);
uint32_t	 analyze_heapview_root(const struct analyze_heapview *,
		    const char *, int *);
/* A pointer word at the end of a traced path. */
struct analyze_heapview_hit {
	uint64_t	 at;		/* its offset in the place */
	uint32_t	 block;		/* where it points */
	uint64_t	 into;		/* at this offset */
};

int		 analyze_heapview_trace(struct store *, int64_t,
		    const struct analyze_heapview *, const char *,
		    struct analyze_heapview_hit **, size_t *, char **);
#define ANALYZE_HEAPVIEW_BY_TYPE	0
#define ANALYZE_HEAPVIEW_BY_MODULE	1
#define ANALYZE_HEAPVIEW_BY_SIZE	2

/*
 * The heap map's info tables as numbers (heapinfo.c): per module its
 * objects, imports and importers (direct and indirect: DT_NEEDED's
 * graph as two CSR arrays), ModuleHierarchy's level and class and
 * TestUnloadModules' mark; the gaps between blocks (FreeBlocks).
 */
enum analyze_heapinfo_hier {
	ANALYZE_HEAPINFO_PLAIN,
	ANALYZE_HEAPINFO_TOP,		/* nothing imports it */
	ANALYZE_HEAPINFO_UNLOAD,	/* unloaded by the test */
	ANALYZE_HEAPINFO_NEEDED		/* imported by an unloaded one */
};

struct analyze_heapinfo_module {
	uint64_t	 objects;
	uint64_t	 bytes;
	uint32_t	 types;
	uint32_t	 imp;		/* modules it imports directly */
	uint32_t	 imp_all;	/* directly or not */
	uint32_t	 by;		/* modules that import it directly */
	uint32_t	 by_all;
	uint32_t	 level;
	int		 cycle;		/* in an import cycle */
	char		*imports;	/* names, direct */
	char		*through;	/* names, only indirect */
	char		*importers;	/* names, importing it directly */
	const char	*mark;		/* TestUnloadModules': "", ++ ... */
	enum analyze_heapinfo_hier hier;
	uint64_t	 refs;		/* pointers from its data into blocks */
	uint64_t	 anchors;	/* blocks only its data reaches */
	uint64_t	 anchored;	/* their usable bytes */
};

#define ANALYZE_HEAPINFO_SHARED	(UINT32_MAX - 1)

/*
 * HeapInspector's Tasks: a thread, its stack (0, 0: no region known), its
 * roots' pointers and the blocks only they reach.
 */
struct analyze_heapinfo_thread {
	int64_t		 tid;
	uint64_t	 lo, hi;
	int		 regs;		/* registers read: 1, 0, -1 not known */
	uint64_t	 stack_refs;
	uint64_t	 regs_refs;
	uint64_t	 anchors;
	uint64_t	 anchored;	/* usable bytes */
};

struct analyze_heapinfo {
	const struct analyze_heapview *s;
	struct analyze_heapinfo_module *mod;	/* NULL until made */
	size_t		 nmod;
	uint32_t	*dep_off;	/* CSR: distinct imports */
	uint32_t	*dep;
	uint32_t	*rdep_off;	/* and importers */
	uint32_t	*rdep;
	uint8_t		*seen;		/* per module: a closure's answer */
	uint32_t	*todo;
	int		 direct_only;	/* too many for indirect counts */

	uint64_t	*gap_addr;	/* FreeBlocks, by address */
	uint64_t	*gap_size;
	uint32_t	*gap_region;
	size_t		 ngaps;
	char		*gap_what;	/* their summary */
	uint64_t	 gap_total;	/* their bytes */
	/*
	 * Per block, the one owner whose roots alone reach it: a module
	 * (its index), a thread (nmod + its index in thr) or
	 * ANALYZE_HEAPINFO_SHARED (roots of two, or of no
	 * module), ANALYZE_HEAPVIEW_NONE (none); NULL before the graph.
	 */
	uint32_t	*owner;	/* modules, then nmod + a thread */
	struct analyze_heapinfo_thread *thr;
	size_t		 nthr;
	/*
	 * ModuleLessObjects: the blocks no module's data reaches, by
	 * address, each with whether any root reaches it (a thread's stack
	 * or registers, other memory) or none; their count and bytes.
	 */
	uint32_t	*mless;
	uint8_t		*mless_rooted;
	size_t		 nmless;
	uint64_t	 mless_bytes;
	uint64_t	 mless_lost;	/* of them, reached from no root */
	uint64_t	 gap_small;	/* gaps too small for one: headers */
};

void		 analyze_heapinfo_make(struct analyze_heapinfo *,
		    const struct analyze_heapview *);
void		 analyze_heapinfo_free(struct analyze_heapinfo *);
size_t		 analyze_heapinfo_closure(struct analyze_heapinfo *, uint32_t,
		    const uint8_t *);
void		 analyze_heapinfo_freed(struct analyze_heapinfo *, size_t,
		    uint8_t *);
void		 analyze_heapinfo_unload(struct analyze_heapinfo *,
		    const uint8_t *, const uint8_t *);
void		 analyze_heapinfo_importers(const struct analyze_heapview *,
		    uint8_t *);

/*
 * Leaks by allocation stack (heapleaks.c): memcheck's loss records, the
 * blocks merged by allocation stack (a site) and state, most bytes first;
 * over them rows in a shape: the records themselves, bottom-up (each
 * allocating function, its records under it) or top-down (a tree of
 * frames from the outermost in).  A row holds its records
 * (row_recs[first .. first + n)), so Enter on it marks their blocks.
 */
#define ANALYZE_HEAPLEAKS_FLAT		0
#define ANALYZE_HEAPLEAKS_BOTTOM_UP	1
#define ANALYZE_HEAPLEAKS_TOP_DOWN	2

struct analyze_heapleak_rec {
	uint32_t	 id;		/* its index, once sorted */
	uint32_t	 site;		/* ANALYZE_HEAPVIEW_NONE: not known */
	uint8_t		 state;		/* enum analyze_heap_state */
	uint64_t	 blocks;
	uint64_t	 bytes;		/* asked for, as memcheck counts */
};

struct analyze_heapleak_row {
	uint32_t	 depth;
	uint32_t	 rec;		/* a record's row; else NONE */
	uint32_t	 frame;		/* its frame or function, or NONE */
	uint8_t		 state;		/* its records', or NSTATES: mixed */
	uint64_t	 blocks;
	uint64_t	 bytes;
	uint32_t	 first;		/* its records in row_recs */
	uint32_t	 n;
};

struct analyze_heapleaks {
	int		 all;		/* live blocks too, not only lost */
	int		 shape;
	struct analyze_heapleak_rec *recs;
	size_t		 nrecs;
	uint32_t	*block_rec;	/* per block; NONE: in no record */
	struct analyze_heapleak_row *rows;
	size_t		 nrows;
	uint32_t	*row_recs;
	size_t		 nrow_recs;
	uint64_t	 blocks;	/* in the records */
	uint64_t	 bytes;
};

void		 analyze_heapleaks_make(struct analyze_heapleaks *,
		    const struct analyze_heapview *, int, int);
void		 analyze_heapleaks_free(struct analyze_heapleaks *);
size_t		 analyze_heapleaks_mark(const struct analyze_heapleaks *,
		    const struct analyze_heapview *, size_t, uint8_t *);
char		*analyze_heapleaks_label(const struct analyze_heapleaks *,
		    const struct analyze_heapview *, size_t, size_t);
const char	*analyze_heapleaks_state(unsigned);
int		 analyze_heapleaks_collectable(unsigned);

/*
 * Two snapshots of one run compared (heapdiff.c): the blocks born since
 * the older and those freed, matched by address and allocation number
 * over both sides' blocks by address.  A side is borrowed arrays: seq may
 * be NULL (then address and usable size match a block).
 */
struct analyze_heapdiff_side {
	const uint64_t	*addr;		/* rising */
	const uint64_t	*usable;
	const uint64_t	*seq;
	size_t		 n;
};

struct analyze_heapdiff {
	uint32_t	*was;		/* per new block: old index, or NONE */
	size_t		 nborn;
	uint64_t	 born_bytes;	/* usable */
	uint32_t	*freed;		/* old blocks gone, by address */
	size_t		 nfreed;
	uint64_t	 freed_bytes;
};

int		 analyze_heapdiff_make(struct analyze_heapdiff *,
		    const struct analyze_heapdiff_side *,
		    const struct analyze_heapdiff_side *, char **);
void		 analyze_heapdiff_free(struct analyze_heapdiff *);

/*
 * Over that diff, what the heap map draws (heapdiff.c): a comparison
 * (born blocks marked, freed ones drawn where they were on the new
 * snapshot's regions) and HeapInspector's Remain (the blocks there when it
 * was turned on; the ones born since hidden).
 */
struct analyze_heapdiff_cmp;
struct analyze_heapdiff_remain;
struct analyze_heapdiff_cmp *analyze_heapdiff_cmp_new(
		    const struct analyze_heapview *, int64_t,
		    const struct analyze_heapview *, char **);
void		 analyze_heapdiff_cmp_free(struct analyze_heapdiff_cmp *);
int64_t		 analyze_heapdiff_cmp_against(
		    const struct analyze_heapdiff_cmp *);
void		 analyze_heapdiff_cmp_counts(
		    const struct analyze_heapdiff_cmp *, size_t *, uint64_t *,
		    size_t *, uint64_t *);
uint32_t	 analyze_heapdiff_cmp_was(const struct analyze_heapdiff_cmp *,
		    size_t);
void		 analyze_heapdiff_cmp_marks(
		    const struct analyze_heapdiff_cmp *, const uint8_t *,
		    uint8_t *, size_t);
void		 analyze_heapdiff_cmp_frame(struct analyze_heapdiff_cmp *,
		    const struct analyze_heapmap_view *,
		    struct analyze_heapmap_cell *,
		    struct analyze_heapmap_count *);
void		 analyze_heapdiff_cmp_totals(
		    const struct analyze_heapdiff_cmp *,
		    struct analyze_heapmap_count *);
struct analyze_heapdiff_remain *analyze_heapdiff_remain_new(
		    const struct analyze_heapview *);
void		 analyze_heapdiff_remain_free(
		    struct analyze_heapdiff_remain *);
long		 analyze_heapdiff_remain_hide(
		    const struct analyze_heapdiff_remain *,
		    const struct analyze_heapview *, uint8_t *);

/*
 * The heap kind (heap.c): a snapshot's header and leak summary, and its
 * top allocation sites by live bytes, for the report; the model adds the
 * snapshot loaded (view) and its loss records (leaks, flat).
 */
#define ANALYZE_HEAP_TOP	20

struct analyze_heap_summary {
	struct store_heap	 h;
	struct store_heap_site	*sites;		/* most live bytes first */
	size_t			 nsites;
	struct analyze_heapview	*view;		/* NULL: not loaded */
	struct analyze_heapleaks leaks;
};

int		 analyze_heap_summary_load(struct store *, int64_t, size_t,
		     struct analyze_heap_summary *, char **);
void		 analyze_heap_summary_free(struct analyze_heap_summary *);
void		*analyze_heap_model(struct store *, int64_t, char **);
void		 analyze_heap_model_free(void *);

/*
 * A heap session loaded for the questions (heapsnap.c): its blocks by
 * address, the graph with roots grouped by variable or thread, the
 * states computed at ingest (memcheck's heuristics need the contents).
 */
struct analyze_heap_snap {
	int64_t		  session;
	struct analyze_heap g;
	uint32_t	  nblocks;
	uint64_t	 *addr;
	uint64_t	 *size;
	uint64_t	 *usable;
	uint64_t	 *seq;		/* the allocation's number */
	int32_t		 *type;		/* -1: none */
	int32_t		 *site;
	uint32_t	  nroots;
	char		**root_name;	/* module:variable, or a thread's */
	char		**root_symbol;	/* C++: mangled; or NULL */
	int32_t		 *root_module;	/* -1: a thread's stack or registers */
	uint32_t	  ntypes;
	char		**type_name;
	int32_t		 *type_module;
	uint8_t		 *type_site;	/* 1: a site's, no type */
	uint32_t	  nmodules;
	char		**module_name;	/* the file name */
	uint32_t	 *imp_off;	/* CSR: the modules each imports */
	uint32_t	 *imp;
};

int		 analyze_heap_snap_load(struct store *, int64_t,
		     struct analyze_heap_snap *, char **);
int		 analyze_heap_snap_load_watched(struct store *, int64_t,
		     struct analyze_heap_snap *, struct analyze_heap_watch *,
		     char **);
void		 analyze_heap_snap_free(struct analyze_heap_snap *);
char		*analyze_heap_snap_root_key(const struct store_heap_root *);

/* The kind's diff hook (analyze/heapdiff.c, kind.h). */
struct analyze_diff;
int		 analyze_heap_diff(struct store *, void *, void *,
		    struct analyze_diff *, char **);

#endif
