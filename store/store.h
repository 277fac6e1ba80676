/*
 * store: the SQLite file every session lives in.
 *
 * store.c is the engine: open and migrate, transactions, batched inserts
 * driven by table descriptors, and read cursors.  core.c has the tables
 * every kind shares (session, warning, symbol, counter, bucket); each
 * kind's own tables, their DDL, migrations and statements are in
 * store/KIND.c, described by a store_schema.  The store never looks up
 * which kinds there are: whoever opens it passes them (the program its
 * table of kinds), so store/ builds and is tested without any reader,
 * analysis or report (tests/unit/store_deps.sh, check_store_core).
 *
 * Table and column names are a public interface (users type :sql queries
 * against them, profview-formats.5 documents them): change them only with
 * a migration.
 */
#ifndef STORE_H
#define STORE_H

#include <stddef.h>
#include <stdint.h>

struct sqlite3;

/* The core tables' version, in PRAGMA user_version (core.c). */
#define STORE_SCHEMA_VERSION	4

#define STORE_READONLY	0x1	/* open the file read-only, never create it */
#define STORE_NOCREATE	0x2	/* open it read-write, never create it */

struct store;

/*
 * A kind's part of the schema (store/KIND.c): its migrations, each taking
 * the kind's tables from version N to N + 1 (the version is kept in the
 * kind_schema table, so kinds added on different branches never take the
 * same number), and its one-line session summary.
 */
struct store_schema {
	const char *const	 *migrations;
	size_t			  nmigrations;
	const char		 *summary;	/* SQL expression on s.id */
	/*
	 * Statements (?1 the session) that delete a session's rows from
	 * the kind's tables.  Deleting runs them with foreign keys off, so
	 * that no cascade scans a table that has no index on session.
	 */
	const char *const	 *purge;
	size_t			  npurge;
};

/*
 * A kind as the store knows it: its name (session.kind, kind_schema.kind)
 * and its schema.  store_open takes an array of these ended by a NULL
 * name, as tmux's tables end, and keeps the pointer: it must outlive the
 * store.
 */
struct store_kind {
	const char			*name;
	const struct store_schema	*schema;
};

extern const struct store_schema	store_prf_schema;
extern const struct store_schema	store_ovd_schema;
extern const struct store_schema	store_heap_schema;
extern const struct store_schema	store_mon_schema;
extern const struct store_schema	store_prfd_schema;

/*
 * A table rows are inserted into: every row's first column is session.
 * The engine batches rows per table (store.c) whatever the column count.
 */
struct store_table {
	const char	*name;
	const char	*columns;	/* the rest, "idx, lo, hi, hits" */
	const char	*verb;		/* NULL: "INSERT" */
};

/* A read query's column list makes its enum and its SQL (see below). */
#define STORE_COLUMN_ENUM(name, sql)	name,
#define STORE_COLUMN_SQL(name, sql)	sql,

/* One row of the session table. */
struct store_session {
	int64_t		 id;
	char		 kind[8];
	char		*source;
	char		 sha256[65];
	int64_t		 bytes;
	char		*program;
	char		*captured;
	char		*ingested;
	char		*summary;	/* one line, made at ingest */
	int		 warnings;
};

/* A symbol row (names valid until the cursor moves). */
struct store_symbol {
	const char	*module;
	const char	*name;
	uint64_t	 addr;
	uint64_t	 size;
};

struct store_bucket {
	uint32_t	idx;
	uint64_t	lo;
	uint64_t	hi;
	uint64_t	hits;
};

/* The PRF header as stored (seed names; counts are the winning ones). */
struct store_prf {
	uint32_t	clock_grain;
	uint32_t	bucket_num;
	uint32_t	bucket_siz;
	uint32_t	prog_low_pa;
	uint32_t	prog_high_pa;
	uint32_t	dos_pa;
	uint64_t	hit_io;
	uint64_t	hit_dos;
	uint64_t	hit_high;
	int		pv32;		/* counts came from the PV32 trailer */
	int		saturated;	/* a 16-bit count hit 65535 */
	/* The HITS section (prf migration 2): zeros when there is none. */
	int		hit_table;	/* prf_hit holds the file's hit table */
	int		hit_table_full;	/* a sample found no free entry */
	uint32_t	hit_table_capacity;	/* entries it had room for */
	uint64_t	hit_missed;	/* in-program samples in no entry */
};

/* One entry of a PRF hit table: a distinct CS:IP and its samples. */
struct store_prf_hit {
	uint64_t	addr;		/* cs * 16 + ip */
	uint16_t	cs;
	uint16_t	ip;
	uint64_t	hits;
};

/* A line of the program's NASM listing (text valid until the cursor moves). */
struct store_prf_source {
	uint64_t	 addr;		/* linear */
	int64_t		 line;		/* in the listing file, from 1 */
	const char	*text;
};

/* An OVRACT session (.OVD): header and what the reader found. */
struct store_ovd {
	int		version;
	uint16_t	prefix_seg;
	int		truncated;	/* the file ends inside an event */
	int64_t		wraps;		/* BIOS midnight wraps of the clock */
	int64_t		stays;		/* ovr_loaded rows the reader wrote */
};

/* One overlaid unit of the code list (seed names, lower case). */
struct store_ovr_unit {
	uint16_t	 stat_seg;
	uint32_t	 file_ofs;
	uint16_t	 code_size;
	uint16_t	 fixup_size;
	uint16_t	 entry_pts;
	const char	*name;		/* unit name from the map, or NULL */
};

struct store_ovr_event {
	int64_t		seq;
	int64_t		ticks;		/* Time, plus 1800B0h per midnight wrap */
	int		reprieve;	/* else a load */
	uint16_t	ovr_seg;
	uint16_t	ovr_ofs;
	uint16_t	heap_org;
	uint16_t	heap_end;
};

/* A stay in the overlay buffer, with its rowid (rows are in stay order). */
struct store_ovr_loaded {
	int64_t		rowid;
	uint16_t	stat_seg;
	uint16_t	load_seg;
	int64_t		first_seq;
	int64_t		last_seq;
};

/* A pvtrace profile's header (mon); the overheads in picoseconds. */
struct store_mon {
	const char	*build_id;
	const char	*command;
	const char	*first_run, *last_run;
	int64_t		 runs;
	int64_t		 real_ns;
	const char	*status;	/* "exit 0", "signal 9" */
	const char	*clock;		/* tsc, monotonic */
	int64_t		 clock_hz;
	const char	*cpu;		/* perf-task-clock, or why not */
	int64_t		 over_ps[2][4];	/* jump, trap: a, b, lo, hi */
	int64_t		 over_calls[2];
	const char	*error;		/* NULL: none */
};

/* A function of a pvtrace profile (times in ns, overhead subtracted). */
struct store_func {
	const char	*key;		/* unique in the session */
	const char	*name;
	const char	*module;
	uint64_t	 addr;
	uint64_t	 size;
	int		 trap;		/* entered by int3, else a jump */
	uint64_t	 calls;
	int64_t		 self_ns, total_ns;
	int64_t		 self_cpu_ns, total_cpu_ns;
	int64_t		 self_err_ns, total_err_ns;
};

/* A call edge; caller NULL: no traced caller. */
struct store_call {
	const char	*caller;
	const char	*callee;
	uint64_t	 calls;
	int64_t		 total_ns, total_cpu_ns, total_err_ns;
};

/* A call path: func called on the path parent (-1: from the top). */
struct store_callpath {
	int64_t		 id;
	int64_t		 parent;
	const char	*func;
	int64_t		 depth;
	uint64_t	 calls;
	int64_t		 self_ns, total_ns;
	int64_t		 self_cpu_ns, total_cpu_ns;
	int64_t		 self_err_ns, total_err_ns;
};

/* The engine (store.c). */
char		*store_default_path(void);
struct store	*store_open(const char *, int, const struct store_kind *,
		     char **);
void		 store_close(struct store *);
struct sqlite3	*store_db(struct store *);
const char	*store_path(struct store *);
int		 store_exec(struct store *, const char *, char **);
int		 store_begin(struct store *, char **);
void		 store_waiting_hook(struct store *,
		     void (*)(void *, const char *, long), void *);
int		 store_commit(struct store *, char **);
void		 store_rollback(struct store *);
const char	*store_error(struct store *);

/*
 * Writing a row: store_row, a store_put_* per column after session, in
 * the table's order, then store_row_end.  Text is copied (static text is
 * not: string literals only).  Only ingest/ writes, inside store_begin and
 * store_commit.
 */
struct store_row;
struct store_row *store_row(struct store *, const struct store_table *,
		     int64_t);
void		 store_put_int(struct store_row *, int64_t);
void		 store_put_text(struct store_row *, const char *);
void		 store_put_static(struct store_row *, const char *);
void		 store_put_null(struct store_row *);
void		 store_put_blob(struct store_row *, const void *, size_t);
int		 store_row_end(struct store *, struct store_row *);

/*
 * Reading rows: a cursor over one session's rows of one query, stepped by
 * the query's own store_*_next (1 a row, 0 done, -1 an error).
 */
struct store_cursor;
void		 store_cursor_close(struct store_cursor *);

/* The tables every kind shares (core.c). */
int64_t		 store_session_find(struct store *, const char *);
int64_t		 store_session_add(struct store *, const char *, const char *,
		     const char *, int64_t, const char *, const char *, char **);
int		 store_session_set(struct store *, int64_t, const char *,
		     const char *);
int		 store_session_reread(struct store *, const char *,
		     int64_t, const char *, int64_t, const char *,
		     const char *, char **);
int		 store_session_delete(struct store *, int64_t, char **);
int		 store_session_summarize(struct store *, int64_t,
		     const char *);
int		 store_session_get(struct store *, int64_t,
		     struct store_session *);
int		 store_sessions(struct store *, struct store_session **,
		     size_t *);
void		 store_session_free(struct store_session *);
void		 store_sessions_free(struct store_session *, size_t);
int		 store_warning_add(struct store *, int64_t, int64_t,
		     const char *);
int		 store_warnings(struct store *, int64_t, char ***, size_t *);
int		 store_symbol_add(struct store *, int64_t, const char *,
		     const char *, uint64_t, uint64_t);
struct store_cursor *store_symbols(struct store *, int64_t);
int		 store_symbol_next(struct store_cursor *,
		     struct store_symbol *);
int		 store_counter_add(struct store *, int64_t, const char *,
		     int64_t);
int		 store_bucket_add(struct store *, int64_t, uint32_t, uint64_t,
		     uint64_t, uint64_t);
struct store_cursor *store_buckets(struct store *, int64_t);
int		 store_bucket_next(struct store_cursor *,
		     struct store_bucket *);
int		 store_names(struct store *, char ***, size_t *);

/* prf.c */
int		 store_prf_add(struct store *, int64_t,
		     const struct store_prf *);
int		 store_prf_get(struct store *, int64_t, struct store_prf *);
int		 store_prf_hit_add(struct store *, int64_t,
		     const struct store_prf_hit *);
struct store_cursor *store_prf_hits(struct store *, int64_t);
int		 store_prf_hit_next(struct store_cursor *,
		     struct store_prf_hit *);
int		 store_prf_image_add(struct store *, int64_t, uint64_t,
		     const uint8_t *, size_t);
int		 store_prf_image_get(struct store *, int64_t, uint64_t *,
		     uint8_t **, size_t *);
int		 store_prf_source_add(struct store *, int64_t, uint64_t,
		     int64_t, const char *);
struct store_cursor *store_prf_sources(struct store *, int64_t, uint64_t,
		     uint64_t);
int		 store_prf_source_next(struct store_cursor *,
		     struct store_prf_source *);

/* ovd.c */
int		 store_ovd_add(struct store *, int64_t,
		     const struct store_ovd *);
int		 store_ovd_get(struct store *, int64_t, struct store_ovd *);
int		 store_ovr_unit_add(struct store *, int64_t,
		     const struct store_ovr_unit *);
struct store_cursor *store_ovr_units(struct store *, int64_t);
int		 store_ovr_unit_next(struct store_cursor *,
		     struct store_ovr_unit *);
int		 store_ovr_event_add(struct store *, int64_t,
		     const struct store_ovr_event *);
int64_t		 store_ovr_event_count(struct store *, int64_t);
struct store_cursor *store_ovr_events(struct store *, int64_t);
int		 store_ovr_event_next(struct store_cursor *,
		     struct store_ovr_event *);
int		 store_ovr_loaded_add(struct store *, int64_t, uint16_t,
		     uint16_t, int64_t, int64_t);
void		 store_ovr_loaded_range(struct store *, int64_t, int64_t *,
		     int64_t *);
struct store_cursor *store_ovr_loaded(struct store *, int64_t);
int		 store_ovr_loaded_next(struct store_cursor *,
		     struct store_ovr_loaded *);

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
	int64_t		 refs;		/* heap_ref rows the ingest wrote */
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

struct store_heap_type {
	int64_t		 idx;
	const char	*name;
	int64_t		 module;	/* -1: none */
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
		     const char *, const char *, int64_t, int64_t, uint64_t);
int		 store_heap_site_add(struct store *, int64_t,
		     const struct store_heap_site *);
int		 store_heap_frame_add(struct store *, int64_t,
		     const struct store_heap_site *);
int		 store_heap_stack_add(struct store *, int64_t, int64_t,
		     int64_t);
int		 store_heap_block_add(struct store *, int64_t,
		     const struct store_heap_block *);
int		 store_heap_ref_add(struct store *, int64_t, uint32_t,
		     uint64_t, uint32_t, uint32_t);
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
struct store_cursor *store_heap_blocks(struct store *, int64_t);
int		 store_heap_block_next(struct store_cursor *,
		     struct store_heap_block *);
struct store_cursor *store_heap_contents(struct store *, int64_t);
int		 store_heap_contents_next(struct store_cursor *,
		     struct store_heap_block *);
struct store_cursor *store_heap_refs(struct store *, int64_t);
int		 store_heap_ref_next(struct store_cursor *,
		     struct store_heap_ref *);
struct store_cursor *store_heap_roots(struct store *, int64_t);
int		 store_heap_root_next(struct store_cursor *,
		     struct store_heap_root *);
struct store_cursor *store_heap_types(struct store *, int64_t);
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
/* mon.c; cpu 0: the CPU columns are NULL (not measured). */
int		 store_mon_add(struct store *, int64_t,
		     const struct store_mon *);
struct store_cursor *store_mon_get(struct store *, int64_t);
int		 store_mon_next(struct store_cursor *, struct store_mon *);
int		 store_mon_module_add(struct store *, int64_t, const char *,
		     const char *, const char *);
int		 store_func_add(struct store *, int64_t,
		     const struct store_func *, int);
struct store_cursor *store_funcs(struct store *, int64_t);
int		 store_func_next(struct store_cursor *, struct store_func *);
int		 store_call_add(struct store *, int64_t,
		     const struct store_call *, int);
struct store_cursor *store_calls(struct store *, int64_t);
int		 store_call_next(struct store_cursor *, struct store_call *);
int		 store_callpath_add(struct store *, int64_t,
		     const struct store_callpath *, int);
struct store_cursor *store_callpaths(struct store *, int64_t);
int		 store_callpath_next(struct store_cursor *,
		     struct store_callpath *);
int		 store_mon_left_out_add(struct store *, int64_t, const char *,
		     uint64_t, uint64_t, const char *, const char *);

/*
 * A Dos32Profile dump (prfd.c): the header, the process's PRFRET0 and
 * what our extension record says (period_ns, samples, ns: -1 when the
 * dump has none; command NULL).
 */
struct store_prfd {
	uint32_t	 pid;
	unsigned	 width;		/* bytes in a ULONG: 4 or 8 */
	uint16_t	 timval;	/* the header's */
	uint16_t	 r0_timval;	/* PRFRET0's */
	uint16_t	 flags;
	uint16_t	 shift;
	uint64_t	 idle, vm86, kernel, shrmem, unknown;
	uint64_t	 nhitbufs, hitbufcnt;
	uint8_t		 errcnt;
	int		 extension;	/* the dump has our record */
	int		 hit_table;	/* it has a PRFRET2 */
	int64_t		 period_ns, samples, ns;
	char		*command;	/* store_prfd_get: to free */
};

/* A thread's PRFRET0 (us_thrdno, from 1); tid -1: not known. */
struct store_prfd_thread {
	uint32_t	 thrdno;
	int64_t		 tid;
	uint16_t	 flags;
	uint64_t	 idle, vm86, kernel, shrmem, unknown;
	uint64_t	 hitbufcnt;
	uint8_t		 errcnt;
};

/*
 * A slot (PRFVA), its detail counters the bucket rows [bucket_first,
 * bucket_first + nbuckets) (bucket_first -1: none), its module from the
 * extension (NULL: not known) and how many of its symbols were stored.
 */
struct store_prfd_slot {
	int64_t		 idx;
	uint64_t	 vaddr, size, flags, cnt;
	int64_t		 bucket_first, nbuckets;
	char		*module;
	char		*build_id;	/* hex */
	int64_t		 symbols;
};

/* prfd.c; strings of a _get or _next are the caller's to free. */
int		 store_prfd_add(struct store *, int64_t,
		     const struct store_prfd *);
int		 store_prfd_get(struct store *, int64_t, struct store_prfd *);
int		 store_prfd_thread_add(struct store *, int64_t,
		     const struct store_prfd_thread *);
struct store_cursor *store_prfd_threads(struct store *, int64_t);
int		 store_prfd_thread_next(struct store_cursor *,
		     struct store_prfd_thread *);
int		 store_prfd_slot_add(struct store *, int64_t,
		     const struct store_prfd_slot *);
struct store_cursor *store_prfd_slots(struct store *, int64_t);
int		 store_prfd_slot_next(struct store_cursor *,
		     struct store_prfd_slot *);
int		 store_prfd_hit_add(struct store *, int64_t, uint64_t,
		     uint64_t);
struct store_cursor *store_prfd_buckets(struct store *, int64_t, int64_t,
		     int64_t);
struct store_cursor *store_prfd_hits(struct store *, int64_t);
int		 store_prfd_hit_next(struct store_cursor *, uint64_t *,
		     uint64_t *);

/*
 * A statement a user typed (query.c): for profview sql and :sql only.
 */
enum store_type {
	STORE_NULL,
	STORE_INT,
	STORE_REAL,
	STORE_TEXT,
	STORE_BLOB
};
struct store_value {
	int		 type;
	int64_t		 i;
	double		 r;
	const char	*s;	/* STORE_TEXT, STORE_BLOB; NULL for a blob
				   over STORE_BLOB_MAX, known by its size */
	size_t		 len;	/* bytes of s */
};
#define STORE_BLOB_MAX	(16u << 20)
struct store_query;
void		 store_query_writes(struct store *, int);
int		 store_query_writable(struct store *);
struct store_query *store_query_open(struct store *, const char **, char **);
void		 store_query_watch(struct store_query *, int (*)(void *),
		     void *);
int		 store_query_stopped(struct store_query *);
int		 store_query_readonly(struct store_query *);
int		 store_query_ncols(struct store_query *);
const char	*store_query_name(struct store_query *, int);
int		 store_query_step(struct store_query *, struct store_value *);
const char	*store_query_error(struct store_query *);
int64_t		 store_query_changes(struct store_query *);
void		 store_query_close(struct store_query *);

/*
 * Below: the interface between the files of store/, not for callers.
 */

/*
 * A read query's columns are named as a written table's are by its
 * store_table: one list, X(NAME, "SQL expression") per column, makes
 * both the enum a _next function reads them by and the column list
 * store_cursor_select selects, so the two cannot disagree:
 *
 *	#define SYMBOL_COLUMNS(X) X(SYM_NAME, "name") X(SYM_ADDR, "addr")
 *	STORE_COLUMNS(store_symbol_columns, SYMBOL_COLUMNS);
 *	...store_cursor_int(c, SYM_ADDR)
 */
#define STORE_COLUMNS(var, list)					\
	enum { list(STORE_COLUMN_ENUM) };				\
	static const char *const var[] = { list(STORE_COLUMN_SQL) NULL }
char		*store_select_sql(const char *const *, const char *);
struct store_cursor *store_bucket_cursor(struct store *, const char *,
		     int64_t);
struct store_cursor *store_cursor_select(struct store *,
		     const char *const *, const char *, int64_t);
struct store_cursor *store_cursor_open(struct store *, const char *,
		     int64_t);
void		 store_cursor_bind(struct store_cursor *, int, int64_t);
int		 store_cursor_step(struct store_cursor *);
int64_t		 store_cursor_int(struct store_cursor *, int);
const char	*store_cursor_text(struct store_cursor *, int);
const void	*store_cursor_blob(struct store_cursor *, int, size_t *);
int		 store_cursor_null(struct store_cursor *, int);
int64_t		 store_int_query(struct store *, const char *, int64_t,
		     int64_t);
int		 store_ingesting(struct store *);
const struct store_kind *store_kind_find(struct store *, const char *);
const struct store_kind *store_kinds(struct store *);
int		 store_summaries(struct store *, char **);

#endif
