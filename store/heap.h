/*
 * store/heap.h: the heap kind's tables (heap.c): a pvheap snapshot's
 * header, modules, sites, DWARF types, blocks, roots, references and
 * regions.
 */
#ifndef STORE_HEAP_H
#define STORE_HEAP_H

#include "store/store.h"

extern const struct store_schema	store_heap_schema;

/* A heap snapshot's header and leak summary (heap.c). */
struct store_heap {
	const char	*version;
	int64_t		 pid, ppid;
	const char	*taken;		/* exit, signal, every, socket, other */
	int64_t		 serial;
	int64_t		 time_ns, stop_ns;
	int64_t		 seq;
	int64_t		 contents;	/* bytes kept per block; -1 all */
	int64_t		 depth;
	const char	*cmdline, *cwd;
	int64_t		 blocks, bytes;
	int64_t		 reachable_blocks, reachable_bytes;
	int64_t		 possible_blocks, possible_bytes;
	int64_t		 definite_blocks, definite_bytes;
	int64_t		 indirect_blocks, indirect_bytes;
	int64_t		 refs;		/* pointers the ingest wrote */
	int64_t		 roots;		/* store_heap_get only */
	int64_t		 started_ns;	/* the run's start; 0: not known */
};

struct store_heap_module {
	int64_t		 idx;
	const char	*path, *soname, *build_id;
	uint64_t	 base, lo, hi, code_size, data_size;
	int		 main, unloaded;
};

struct store_heap_site {
	int64_t		 idx;
	int64_t		 type, module;	/* -1: none */
	const char	*function;
	const char	*module_path;	/* store_heap_site_next only */
	uint64_t	 pc;
	const char	*stack;		/* "function (module)" lines */
	int64_t		 first_frame;	/* heap_stack rows: the stack's */
	int64_t		 nframes;
	uint64_t	 allocs, frees, bytes, peak_bytes;
	uint64_t	 live_bytes, live_blocks;
	uint64_t	 collectable_bytes, collectable_blocks;
	const char	*file;		/* the innermost frame's, or NULL */
	int64_t		 line;
};

/* A snapshot's DWARF: types, their members, the modules' variables. */
struct store_heap_dtype {
	int64_t		 idx;
	const char	*name;
	const char	*kind;		/* struct union pointer array base other */
	int64_t		 module;
	uint64_t	 size;
	int64_t		 target;	/* pointee or element; -1: none */
	uint64_t	 count;		/* an array's elements */
};

struct store_heap_dfield {
	int64_t		 type, idx;
	const char	*name;
	uint64_t	 offset;
	int64_t		 dtype;		/* -1: none */
	int		 base;		/* a C++ base class */
};

struct store_heap_dvar {
	int64_t		 idx, module;
	const char	*name;
	uint64_t	 addr;
	int64_t		 dtype;		/* -1: none */
};

struct store_heap_block {
	int64_t		 idx;
	uint64_t	 addr, size, usable, seq;
	int64_t		 site, type, region;	/* -1: none */
	int64_t		 tid;
	const char	*state;		/* reachable, possible, collectable */
	const char	*leak;		/* definite, indirect, or NULL */
	const uint8_t	*contents;	/* NULL: not kept */
	size_t		 ncontents;
};

struct store_heap_root {
	int64_t		 idx;
	int64_t		 region;
	uint64_t	 addr;
	const char	*name;
	int64_t		 name_off;
	int64_t		 dst, dst_off;
	/* store_heap_root_next only: the region's */
	const char	*region_kind;
	const char	*region_name;	/* a module's file name */
	int64_t		 module;	/* -1: none */
	int64_t		 tid;
};

struct store_heap_ref {
	int64_t		 src, src_off, dst, dst_off;
};

/*
 * A session's pointers are heap_refrun rows, one per STORE_HEAP_RUN
 * source blocks, each run's pointers packed in one blob: a row per
 * pointer was most of an ingest.  The ingest adds them in the file's
 * order (by source, then offset) through a store_heap_runw.
 */
#define STORE_HEAP_RUN_SHIFT	12
#define STORE_HEAP_RUN		(1 << STORE_HEAP_RUN_SHIFT)

/*
 * Likewise a heap_blockrun row holds STORE_HEAP_RUN blocks by index in a
 * blob of varints, their kept contents apart (heap_content), written
 * through a store_heap_runw too.  A pack or unpack is of pointers or of
 * blocks.
 */
struct store_heap_pack {
	uint8_t		*buf;
	size_t		 len, cap;
	int64_t		 n;
	uint64_t	 src, off, dst;	/* pointers: the one before's */
	uint64_t	 addr;		/* blocks: the run's first address */
	uint64_t	 last, seq, tid; /* blocks: the one before's, */
	uint64_t	 site, type, region; /* these + 1 (0: none) */
};

/* A writer of a session's block runs or pointer runs, a row a run. */
struct store_heap_runw {
	struct store		*st;
	int64_t			 session;
	int64_t			 run;
	int			 blocks;	/* heap_blockrun, else refrun */
	struct store_heap_pack	 pack;
};

struct store_heap_unpack {
	const uint8_t	*p, *end;
	int64_t		 n;
	int		 form;		/* pointers: heap_refrun.form */
	uint64_t	 src, off, dst;	/* pointers: the one before's */
	uint64_t	 idx, addr;	/* blocks: the run's first */
	uint64_t	 last, seq, tid; /* blocks: the one before's, */
	uint64_t	 site, type, region; /* these + 1 (0: none) */
};

struct store_heap_refs;
struct store_heap_blocks;

struct store_heap_type {
	int64_t		 idx;
	const char	*name;
	int64_t		 module;	/* -1: none */
	int		 site;		/* kind site: no type */
};

/* A vtable (data 0) or a module's data region (1). */
struct store_heap_desc {
	int		 data;
	int64_t		 type;		/* the vtable's, or -1 */
	const char	*name;		/* the class, or the region's */
	int64_t		 module;	/* -1: none */
	uint64_t	 addr;
	int64_t		 size;		/* -1: not known */
	uint64_t	 roots;		/* data: its words to the heap */
};

struct store_heap_import {
	int64_t		 module, target;
};

struct store_heap_region {
	int64_t		 idx;
	const char	*kind;		/* heap, arena, mmap */
	uint64_t	 lo, hi;
	const char	*name;
};

/* heap.c */
int		 store_heap_add(struct store *, int64_t,
		     const struct store_heap *);
int		 store_heap_get(struct store *, int64_t, struct store_heap *);
int64_t		 store_heap_previous(struct store *, int64_t);
int		 store_heap_module_add(struct store *, int64_t,
		     const struct store_heap_module *);
int		 store_heap_import_add(struct store *, int64_t, int64_t,
		     int64_t, const char *, int64_t);
int		 store_heap_region_add(struct store *, int64_t, int64_t,
		     const char *, uint64_t, uint64_t, const char *, int64_t,
		     int64_t);
int		 store_heap_type_add(struct store *, int64_t, int64_t,
		     const char *, const char *, int64_t, int64_t, uint64_t,
		     uint64_t);
int		 store_heap_vtable_add(struct store *, int64_t, int64_t,
		     int64_t, const char *, uint64_t, uint64_t);
int		 store_heap_site_add(struct store *, int64_t,
		     const struct store_heap_site *);
int		 store_heap_frame_add(struct store *, int64_t,
		     const struct store_heap_site *);
int		 store_heap_stack_add(struct store *, int64_t, int64_t,
		     int64_t);
void		 store_heap_runw_init(struct store_heap_runw *,
		     struct store *, int64_t, int);
int		 store_heap_runw_end(struct store_heap_runw *);
int		 store_heap_blockw_add(struct store_heap_runw *,
		     const struct store_heap_block *);
void		 store_heap_pack_block(struct store_heap_pack *,
		     const struct store_heap_block *);
int		 store_heap_unpack_block(struct store_heap_unpack *,
		     struct store_heap_block *);
int		 store_heap_refw_add(struct store_heap_runw *, uint32_t,
		     uint64_t, uint32_t, uint32_t);
void		 store_heap_pack_ref2(struct store_heap_pack *,
		     const struct store_heap_ref *);
void		 store_heap_pack_ref(struct store_heap_pack *,
		     const struct store_heap_ref *);
void		 store_heap_unpack_init(struct store_heap_unpack *,
		     const void *, size_t);
int		 store_heap_unpack_next(struct store_heap_unpack *,
		     struct store_heap_ref *);
int		 store_heap_root_add(struct store *, int64_t,
		     const struct store_heap_root *);
int		 store_heap_dtype_add(struct store *, int64_t,
		     const struct store_heap_dtype *);
int		 store_heap_dfield_add(struct store *, int64_t,
		     const struct store_heap_dfield *);
int		 store_heap_dvar_add(struct store *, int64_t,
		     const struct store_heap_dvar *);
struct store_cursor *store_heap_dtypes(struct store *, int64_t);
int		 store_heap_dtype_next(struct store_cursor *,
		     struct store_heap_dtype *);
struct store_cursor *store_heap_dfields(struct store *, int64_t);
int		 store_heap_dfield_next(struct store_cursor *,
		     struct store_heap_dfield *);
struct store_cursor *store_heap_dvars(struct store *, int64_t);
int		 store_heap_dvar_next(struct store_cursor *,
		     struct store_heap_dvar *);
int		 store_heap_ref_at(struct store *, int64_t, int64_t, int64_t,
		     int64_t *, int64_t *);
struct store_cursor *store_heap_sites(struct store *, int64_t, int64_t,
		     int);
int		 store_heap_site_next(struct store_cursor *,
		     struct store_heap_site *);
/* The columns of store_heap_frames, _stacks and _site_runs, by name. */
#define STORE_HEAP_FRAME_COLUMNS(X)					\
	X(STORE_HEAP_FRAME_IDX, "idx") X(STORE_HEAP_FRAME_TEXT, "text")
#define STORE_HEAP_STACK_COLUMNS(X)					\
	X(STORE_HEAP_STACK_IDX, "idx") X(STORE_HEAP_STACK_FRAME, "frame")
#define STORE_HEAP_SITE_RUN_COLUMNS(X)					\
	X(STORE_HEAP_RUN_IDX, "idx")					\
	X(STORE_HEAP_RUN_FIRST_FRAME, "first_frame")			\
	X(STORE_HEAP_RUN_NFRAMES, "nframes")
enum { STORE_HEAP_FRAME_COLUMNS(STORE_COLUMN_ENUM) };
enum { STORE_HEAP_STACK_COLUMNS(STORE_COLUMN_ENUM) };
enum { STORE_HEAP_SITE_RUN_COLUMNS(STORE_COLUMN_ENUM) };
struct store_cursor *store_heap_frames(struct store *, int64_t);
struct store_cursor *store_heap_stacks(struct store *, int64_t);
struct store_cursor *store_heap_site_runs(struct store *, int64_t);
struct store_heap_blocks *store_heap_blocks(struct store *, int64_t);
int		 store_heap_block_next(struct store_heap_blocks *,
		     struct store_heap_block *);
void		 store_heap_blocks_close(struct store_heap_blocks *);
struct store_cursor *store_heap_contents(struct store *, int64_t);
int		 store_heap_contents_next(struct store_cursor *,
		     struct store_heap_block *);
struct store_heap_refs *store_heap_refs(struct store *, int64_t);
int		 store_heap_ref_next(struct store_heap_refs *,
		     struct store_heap_ref *);
void		 store_heap_refs_close(struct store_heap_refs *);
struct store_cursor *store_heap_roots(struct store *, int64_t);
int		 store_heap_root_next(struct store_cursor *,
		     struct store_heap_root *);
struct store_cursor *store_heap_types(struct store *, int64_t);
struct store_cursor *store_heap_descs(struct store *, int64_t);
int		 store_heap_desc_next(struct store_cursor *,
		     struct store_heap_desc *);
struct store_cursor *store_heap_regions(struct store *, int64_t);
struct store_cursor *store_heap_modules(struct store *, int64_t);
int		 store_heap_module_next(struct store_cursor *,
		     struct store_heap_module *);
struct store_cursor *store_heap_imports(struct store *, int64_t);
int		 store_heap_type_next(struct store_cursor *,
		     struct store_heap_type *);
int		 store_heap_import_next(struct store_cursor *,
		     struct store_heap_import *);
int		 store_heap_region_next(struct store_cursor *,
		     struct store_heap_region *);
/* A thread's stack or registers region (heap_region with a tid). */
struct store_heap_thread {
	int64_t		 tid;
	const char	*kind;		/* stack, registers */
	uint64_t	 lo, hi;
};
struct store_cursor *store_heap_threads(struct store *, int64_t);
int		 store_heap_thread_next(struct store_cursor *,
		     struct store_heap_thread *);

#endif
