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
#define STORE_SCHEMA_VERSION	5

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
	/*
	 * NULL, or what each connection needs before the kind's tables
	 * are read (SQL functions and virtual tables its migrations and
	 * views use): an SQLite result code.
	 */
	int			(*connect)(struct sqlite3 *);
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

/* A run of kept code (store_codes: valid until the cursor moves). */
struct store_code {
	uint64_t	 addr;
	const char	*module;
	const char	*build_id;	/* NULL: none was recorded */
	const void	*bytes;
	size_t		 len;
};

/* A source line of kept code (text NULL: the file was not read). */
struct store_code_line {
	uint64_t	 addr;
	const char	*file;
	int64_t		 line;
	const char	*text;
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
int		 store_code_add(struct store *, int64_t, uint64_t,
		     const char *, const char *, const void *, size_t);
int		 store_code_line_add(struct store *, int64_t, uint64_t,
		     const char *, int64_t, const char *);
int		 store_code_forget(struct store *, int64_t, uint64_t,
		     uint64_t);
struct store_cursor *store_codes(struct store *, int64_t, uint64_t,
		     uint64_t);
int		 store_code_next(struct store_cursor *, struct store_code *);
struct store_cursor *store_code_lines(struct store *, int64_t, uint64_t,
		     uint64_t);
int		 store_code_line_next(struct store_cursor *,
		     struct store_code_line *);

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
void		 store_cursor_bind_text(struct store_cursor *, int,
		     const char *);
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
