/*
 * The SQLite store: schema, migration, transactions, cached prepared
 * inserts and the read queries views need.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "xmalloc.h"
#include "store/store.h"

enum {
	ST_SESSION_FIND,
	ST_SESSION_ADD,
	ST_COUNTER_ADD,
	ST_PRF_ADD,
	ST_WARNING_ADD,
	ST_OVD_ADD,
	ST_OVR_UNIT_ADD,
	ST_COUNT
};

static const char *store_sql[ST_COUNT] = {
	"SELECT id FROM session WHERE sha256 = ?1",
	"INSERT INTO session(kind, source, sha256, bytes, program, captured)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	"INSERT OR REPLACE INTO counter(session, name, value)"
	" VALUES (?1, ?2, ?3)",
	"INSERT INTO prf(session, clock_grain, bucket_num, bucket_siz,"
	" prog_low_pa, prog_high_pa, dos_pa, hit_io, hit_dos, hit_high, pv32,"
	" saturated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	"INSERT INTO warning(session, offset, message) VALUES (?1, ?2, ?3)",
	"INSERT INTO ovd(session, version, prefix_seg, truncated, wraps)"
	" VALUES (?1, ?2, ?3, ?4, ?5)",
	"INSERT INTO ovr_unit(session, stat_seg, file_ofs, code_size,"
	" fixup_size, entry_pts, name) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
};

/*
 * Bulk tables take their rows in batches: one INSERT of STORE_BATCH rows
 * costs about half of what as many one-row statements do, because for a
 * narrow row the work of a statement (step, halt, reset, bind) outweighs
 * the b-tree insert.  Rows wait here, in order, until the batch is full or
 * anything else uses the connection (store_flush).
 */
#define STORE_BATCH	64
#define STORE_BATCH_COLS 8

enum {
	SB_SYMBOL,
	SB_BUCKET,
	SB_OVR_EVENT,
	SB_OVR_LOADED,
	SB_COUNT
};

static const struct {
	const char	*insert;
	int		 ncols;
} store_batch_sql[SB_COUNT] = {
	{ "INSERT INTO symbol(session, module, name, addr, size) VALUES ", 5 },
	{ "INSERT INTO bucket(session, idx, lo, hi, hits) VALUES ", 5 },
	{ "INSERT INTO ovr_event(session, seq, ticks, kind, ovr_seg, ovr_ofs,"
	    " heap_org, heap_end) VALUES ", 8 },
	{ "INSERT INTO ovr_loaded(session, stat_seg, load_seg, first_seq,"
	    " last_seq) VALUES ", 5 },
};

struct store_cell {
	int64_t		 v;	/* the integer, or the text's arena offset */
	int		 len;	/* STORE_INT, STORE_NULL or the text length */
};
#define STORE_INT	-1
#define STORE_NULL	-2
#define STORE_KIND	-3	/* ovr_event.kind: v is 1 for reprieve */

struct store_batch {
	sqlite3_stmt		*one;	/* for the rows of a partial batch */
	sqlite3_stmt		*many;	/* STORE_BATCH rows */
	int64_t			 session;	/* of every pending row */
	int			 rows;
	struct store_cell	 cells[STORE_BATCH * STORE_BATCH_COLS];
	char			*text;	/* the rows' strings, back to back */
	size_t			 used;
	size_t			 size;
};

struct store {
	sqlite3			*db;
	char			*path;
	sqlite3_stmt		*stmt[ST_COUNT];
	int			 ingesting;	/* in store_begin: no FKs */
	struct store_batch	 batch[SB_COUNT];
	char			*failure;	/* a batch failed: no commit */
};

static int	store_flush(struct store *);
static void	store_discard(struct store *);

/*
 * Migrations: entry N takes a store from user_version N to N + 1.  A new
 * store runs them all, so the first one is the whole original schema.
 */
static const char *store_migrations[STORE_SCHEMA_VERSION] = {
	/* 0 -> 1 */
	"CREATE TABLE session ("
	"  id INTEGER PRIMARY KEY,"
	"  kind TEXT NOT NULL"
	"   CHECK (kind IN ('prf', 'ovd', 'prfd', 'mon', 'heap')),"
	"  source TEXT NOT NULL,"
	"  sha256 TEXT NOT NULL UNIQUE,"
	"  bytes INTEGER NOT NULL,"
	"  program TEXT,"
	"  captured TEXT,"
	"  ingested TEXT NOT NULL"
	"   DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')));"
	"CREATE TABLE warning ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  offset INTEGER,"
	"  message TEXT NOT NULL);"
	"CREATE INDEX warning_session ON warning(session);"
	"CREATE TABLE symbol ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  module TEXT,"
	"  name TEXT NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  size INTEGER NOT NULL);"
	"CREATE INDEX symbol_addr ON symbol(session, addr);"
	"CREATE TABLE counter ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  value INTEGER NOT NULL,"
	"  PRIMARY KEY (session, name)) WITHOUT ROWID;"
	"CREATE TABLE bucket ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  lo INTEGER NOT NULL,"
	"  hi INTEGER NOT NULL,"
	"  hits INTEGER NOT NULL,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TABLE prf ("
	"  session INTEGER PRIMARY KEY REFERENCES session(id) ON DELETE CASCADE,"
	"  clock_grain INTEGER NOT NULL,"
	"  bucket_num INTEGER NOT NULL,"
	"  bucket_siz INTEGER NOT NULL,"
	"  prog_low_pa INTEGER NOT NULL,"
	"  prog_high_pa INTEGER NOT NULL,"
	"  dos_pa INTEGER NOT NULL,"
	"  hit_io INTEGER NOT NULL,"
	"  hit_dos INTEGER NOT NULL,"
	"  hit_high INTEGER NOT NULL,"
	"  pv32 INTEGER NOT NULL DEFAULT 0,"
	"  saturated INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE ovd ("
	"  session INTEGER PRIMARY KEY REFERENCES session(id) ON DELETE CASCADE,"
	"  version INTEGER NOT NULL,"
	"  prefix_seg INTEGER NOT NULL,"
	"  truncated INTEGER NOT NULL DEFAULT 0,"
	"  wraps INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE ovr_unit ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  stat_seg INTEGER NOT NULL,"
	"  file_ofs INTEGER NOT NULL,"
	"  code_size INTEGER NOT NULL,"
	"  fixup_size INTEGER NOT NULL,"
	"  entry_pts INTEGER NOT NULL,"
	"  name TEXT,"
	"  PRIMARY KEY (session, stat_seg)) WITHOUT ROWID;"
	"CREATE TABLE ovr_event ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  ticks INTEGER NOT NULL,"
	"  kind TEXT NOT NULL CHECK (kind IN ('load', 'reprieve')),"
	"  ovr_seg INTEGER NOT NULL,"
	"  ovr_ofs INTEGER NOT NULL,"
	"  heap_org INTEGER NOT NULL,"
	"  heap_end INTEGER NOT NULL,"
	"  PRIMARY KEY (session, seq)) WITHOUT ROWID;"
	/*
	 * A load list row per event would be most of the store (every load
	 * repeats the whole buffer), so a row is a residency: unit stat_seg
	 * sat at load_seg in the list of every event first_seq..last_seq.
	 * No index: it would cost a quarter of an OVD ingest, and readers
	 * take a session's rows whole.
	 */
	"CREATE TABLE ovr_loaded ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  stat_seg INTEGER NOT NULL,"
	"  load_seg INTEGER NOT NULL,"
	"  first_seq INTEGER NOT NULL,"
	"  last_seq INTEGER NOT NULL);",
};

static void
store_cause(struct store *st, char **cause, const char *what)
{
	if (cause != NULL)
		*cause = xasprintf("%s: %s: %s", st->path, what,
		    sqlite3_errmsg(st->db));
}

/* Create every directory above path; errors surface at sqlite3_open. */
static void
store_mkdirs(const char *path)
{
	char	*copy, *p;

	if ((copy = strdup(path)) == NULL)
		return;
	for (p = copy + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(copy, 0755);
		*p = '/';
	}
	free(copy);
}

/* The store's path: $PROFVIEW_DB, else under $XDG_DATA_HOME or ~/.local. */
char *
store_default_path(void)
{
	const char	*env, *home;

	if ((env = getenv("PROFVIEW_DB")) != NULL && *env != '\0')
		return (strdup(env));
	if ((env = getenv("XDG_DATA_HOME")) != NULL && *env == '/')
		return (xasprintf("%s/profview/profview.db", env));
	if ((home = getenv("HOME")) == NULL || *home == '\0')
		home = ".";
	return (xasprintf("%s/.local/share/profview/profview.db", home));
}

static int
store_user_version(struct store *st)
{
	sqlite3_stmt	*s;
	int		 v = -1;

	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s,
	    NULL) != SQLITE_OK)
		return (-1);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return (v);
}

/* Bring the schema up to date in one transaction. */
static int
store_migrate(struct store *st, char **cause)
{
	int	 v;
	char	*sql;

	if (store_exec(st, "BEGIN IMMEDIATE", cause) != 0)
		return (-1);
	if ((v = store_user_version(st)) < 0) {
		store_cause(st, cause, "reading user_version");
		goto fail;
	}
	if (v > STORE_SCHEMA_VERSION) {
		*cause = xasprintf("%s: schema version %d is newer than this"
		    " profview understands (%d)", st->path, v,
		    STORE_SCHEMA_VERSION);
		goto fail;
	}
	if (v == STORE_SCHEMA_VERSION) {
		store_rollback(st);
		return (0);
	}
	for (; v < STORE_SCHEMA_VERSION; v++) {
		if (store_exec(st, store_migrations[v], cause) != 0)
			goto fail;
	}
	sql = xasprintf("PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
	if (sql == NULL || store_exec(st, sql, cause) != 0) {
		free(sql);
		goto fail;
	}
	free(sql);
	return (store_commit(st, cause));
fail:
	store_rollback(st);
	return (-1);
}

/* Open (creating and migrating as needed) the store at path. */
struct store *
store_open(const char *path, int flags, char **cause)
{
	struct store	*st;
	int		 memory;

	if ((st = calloc(1, sizeof *st)) == NULL ||
	    (st->path = strdup(path)) == NULL) {
		free(st);
		*cause = xasprintf("%s: out of memory", path);
		return (NULL);
	}
	memory = (strcmp(path, ":memory:") == 0);
	if (!memory)
		store_mkdirs(path);
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		store_cause(st, cause, "open");
		store_close(st);
		return (NULL);
	}
	sqlite3_busy_timeout(st->db, 5000);
	if (store_exec(st, "PRAGMA foreign_keys = ON", cause) != 0)
		goto fail;
	if (!memory && store_exec(st, "PRAGMA journal_mode = WAL; "
	    "PRAGMA synchronous = NORMAL", cause) != 0)
		goto fail;
	if (store_migrate(st, cause) != 0)
		goto fail;
	if ((flags & STORE_READONLY) &&
	    store_exec(st, "PRAGMA query_only = ON", cause) != 0)
		goto fail;
	return (st);
fail:
	store_close(st);
	return (NULL);
}

void
store_close(struct store *st)
{
	int	i;

	if (st == NULL)
		return;
	/* Rows added outside a transaction are kept; inside, it rolls back. */
	if (sqlite3_get_autocommit(st->db))
		store_flush(st);
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(st->stmt[i]);
	for (i = 0; i < SB_COUNT; i++) {
		sqlite3_finalize(st->batch[i].one);
		sqlite3_finalize(st->batch[i].many);
		free(st->batch[i].text);
	}
	free(st->failure);
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

/* The connection, for plain SQL: pending rows go in first. */
sqlite3 *
store_db(struct store *st)
{
	store_flush(st);
	return (st->db);
}

const char *
store_path(struct store *st)
{
	return (st->path);
}

const char *
store_error(struct store *st)
{
	if (st->failure != NULL)
		return (st->failure);
	return (sqlite3_errmsg(st->db));
}

int
store_exec(struct store *st, const char *sql, char **cause)
{
	char	*err = NULL;

	if (store_flush(st) != 0) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", st->path,
			    store_error(st));
		return (-1);
	}
	if (sqlite3_exec(st->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", st->path,
			    err != NULL ? err : sqlite3_errmsg(st->db));
		sqlite3_free(err);
		return (-1);
	}
	return (0);
}

/*
 * An ingest transaction.  Foreign keys are not checked inside it: every
 * row an ingest writes belongs to the session it added in this same
 * transaction, so the per-row parent lookup (a fifth of the insert time)
 * can never fail.  The pragma is a no-op inside a transaction, hence
 * before BEGIN and after COMMIT or ROLLBACK.
 */
int
store_begin(struct store *st, char **cause)
{
	if (store_exec(st, "PRAGMA foreign_keys = OFF; BEGIN IMMEDIATE",
	    cause) != 0) {
		store_exec(st, "PRAGMA foreign_keys = ON", NULL);
		return (-1);
	}
	st->ingesting = 1;
	return (0);
}

static void
store_end(struct store *st)
{
	st->ingesting = 0;
	store_exec(st, "PRAGMA foreign_keys = ON", NULL);
}

int
store_commit(struct store *st, char **cause)
{
	if (st->failure != NULL) {
		*cause = xasprintf("%s: %s", st->path, st->failure);
		return (-1);
	}
	if (store_exec(st, "COMMIT", cause) != 0)
		return (-1);	/* still open: the caller rolls back */
	if (st->ingesting)
		store_end(st);
	return (0);
}

void
store_rollback(struct store *st)
{
	store_discard(st);
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	if (st->ingesting)
		store_end(st);
}

/* A cached statement, ready for binding, after any pending rows. */
static sqlite3_stmt *
store_stmt(struct store *st, int which)
{
	sqlite3_stmt	*s = st->stmt[which];

	if (store_flush(st) != 0)
		return (NULL);
	/*
	 * Every user resets after its step and binds every parameter, so
	 * a second reset and clear_bindings here would be per-row waste.
	 */
	if (s == NULL) {
		if (sqlite3_prepare_v3(st->db, store_sql[which], -1,
		    SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK)
			return (NULL);
		st->stmt[which] = s;
	}
	return (s);
}

static int
store_step_done(sqlite3_stmt *s)
{
	int	rc = sqlite3_step(s);

	sqlite3_reset(s);
	return (rc == SQLITE_DONE ? 0 : -1);
}

/* The batch's statement for one row or for STORE_BATCH rows. */
static sqlite3_stmt *
store_batch_stmt(struct store *st, int which, int many)
{
	struct store_batch	*b = &st->batch[which];
	sqlite3_stmt		**sp = many ? &b->many : &b->one;
	char			*sql, *row, *p;
	int			 i, rows = many ? STORE_BATCH : 1, n;

	if (*sp != NULL)
		return (*sp);
	/*
	 * Every row's first column is the session, ?1 in each: one bind per
	 * statement instead of one per row.  The other "?" number on from 2.
	 */
	n = store_batch_sql[which].ncols;
	row = xmalloc(3 * (size_t)n + 4);
	p = stpcpy(row, "(?1");
	for (i = 1; i < n; i++) {
		*p++ = ',';
		*p++ = ' ';
		*p++ = '?';
	}
	*p++ = ')';
	*p = '\0';
	sql = xmalloc(strlen(store_batch_sql[which].insert) +
	    (size_t)rows * (strlen(row) + 2) + 1);
	p = stpcpy(sql, store_batch_sql[which].insert);
	for (i = 0; i < rows; i++)
		p = stpcpy(stpcpy(p, i != 0 ? ", " : ""), row);
	if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, sp,
	    NULL) != SQLITE_OK)
		*sp = NULL;
	free(sql);
	free(row);
	return (*sp);
}

static void
store_cell_bind(sqlite3_stmt *s, int i, const struct store_cell *c,
    const char *text)
{
	if (c->len == STORE_INT)
		sqlite3_bind_int64(s, i, c->v);
	else if (c->len == STORE_NULL)
		sqlite3_bind_null(s, i);
	else if (c->len == STORE_KIND)
		sqlite3_bind_text(s, i, c->v ? "reprieve" : "load",
		    c->v ? 8 : 4, SQLITE_STATIC);
	else
		sqlite3_bind_text(s, i, text + c->v, c->len, SQLITE_STATIC);
}

/* Bind rows first.. of the batch: ?1 the session, the rest from 2 on. */
static void
store_batch_bind(sqlite3_stmt *s, const struct store_batch *b, int ncols,
    int first, int rows)
{
	const struct store_cell	*c;
	int			 i, k = 2, r;

	sqlite3_bind_int64(s, 1, b->session);
	for (r = first; r < first + rows; r++) {
		c = b->cells + r * ncols;
		for (i = 1; i < ncols; i++)
			store_cell_bind(s, k++, &c[i], b->text);
	}
}

/* Insert the batch's rows: all at once when full, else one by one. */
static int
store_batch_flush(struct store *st, int which)
{
	struct store_batch	*b = &st->batch[which];
	sqlite3_stmt		*s;
	int			 n = store_batch_sql[which].ncols, r;

	if (b->rows == STORE_BATCH) {
		if ((s = store_batch_stmt(st, which, 1)) == NULL)
			goto fail;
		store_batch_bind(s, b, n, 0, STORE_BATCH);
		if (store_step_done(s) != 0)
			goto fail;
	} else if (b->rows != 0) {
		if ((s = store_batch_stmt(st, which, 0)) == NULL)
			goto fail;
		for (r = 0; r < b->rows; r++) {
			store_batch_bind(s, b, n, r, 1);
			if (store_step_done(s) != 0)
				goto fail;
		}
	}
	b->rows = 0;
	b->used = 0;
	return (0);
fail:
	/*
	 * In a transaction some rows of the batch may be in and the caller
	 * may not look until commit: make the failure stick until rollback.
	 */
	if (st->failure == NULL && !sqlite3_get_autocommit(st->db))
		st->failure = xasprintf("%s", sqlite3_errmsg(st->db));
	b->rows = 0;
	b->used = 0;
	return (-1);
}

/* Insert every pending row; -1 once any batch has failed. */
static int
store_flush(struct store *st)
{
	int	i, rc = 0;

	for (i = 0; i < SB_COUNT; i++) {
		if (st->batch[i].rows != 0 && store_batch_flush(st, i) != 0)
			rc = -1;
	}
	return (st->failure != NULL ? -1 : rc);
}

/* Forget pending rows and a failure: the transaction is going away. */
static void
store_discard(struct store *st)
{
	int	i;

	for (i = 0; i < SB_COUNT; i++) {
		st->batch[i].rows = 0;
		st->batch[i].used = 0;
	}
	free(st->failure);
	st->failure = NULL;
}

/*
 * The cells of a new row of session in batch which, or NULL after a
 * failure.  A batch holds one session's rows (its statement binds the
 * session once), so another session's row flushes it first.  Cell 0 is
 * the session too, unused.
 */
static struct store_cell *
store_batch_row(struct store *st, int which, int64_t session)
{
	struct store_batch	*b = &st->batch[which];

	if (st->failure != NULL)
		return (NULL);
	if (b->rows != 0 && b->session != session &&
	    store_batch_flush(st, which) != 0)
		return (NULL);
	b->session = session;
	return (b->cells + b->rows * store_batch_sql[which].ncols);
}

static int
store_batch_end_row(struct store *st, int which)
{
	if (++st->batch[which].rows < STORE_BATCH)
		return (0);
	return (store_batch_flush(st, which));
}

static void
store_cell_int(struct store_cell *c, int64_t v)
{
	c->v = v;
	c->len = STORE_INT;
}

/* Copy s into the batch: callers may reuse their buffer at once. */
static void
store_cell_text(struct store_batch *b, struct store_cell *c, const char *s)
{
	size_t	len;

	if (s == NULL || (len = strlen(s)) > INT_MAX) {
		c->len = STORE_NULL;
		return;
	}
	if (b->text == NULL || b->size - b->used < len) {
		while (b->size - b->used < len || b->size == 0)
			b->size = b->size != 0 ? b->size * 2 : 4096;
		b->text = xreallocarray(b->text, 1, b->size);
	}
	memcpy(b->text + b->used, s, len);
	c->v = (int64_t)b->used;
	c->len = (int)len;
	b->used += len;
}

/* The session with this sha256, or 0. */
int64_t
store_session_find(struct store *st, const char *sha256)
{
	sqlite3_stmt	*s;
	int64_t		 id = 0;

	if ((s = store_stmt(st, ST_SESSION_FIND)) == NULL)
		return (-1);
	sqlite3_bind_text(s, 1, sha256, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	return (id);
}

int64_t
store_session_add(struct store *st, const char *kind, const char *source,
    const char *sha256, int64_t bytes, const char *program,
    const char *captured, char **cause)
{
	sqlite3_stmt	*s;

	if ((s = store_stmt(st, ST_SESSION_ADD)) == NULL)
		goto fail;
	sqlite3_bind_text(s, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 4, bytes);
	sqlite3_bind_text(s, 5, program, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 6, captured, -1, SQLITE_STATIC);
	if (store_step_done(s) != 0)
		goto fail;
	return (sqlite3_last_insert_rowid(st->db));
fail:
	store_cause(st, cause, "adding session");
	return (-1);
}

int
store_session_delete(struct store *st, int64_t id, char **cause)
{
	sqlite3_stmt	*s;
	int		 rc;

	/* The cascade needs foreign keys, which an ingest turns off. */
	if (st->ingesting) {
		*cause = xasprintf("%s: cannot delete a session inside an"
		    " ingest", st->path);
		return (-1);
	}
	store_flush(st);
	if (sqlite3_prepare_v2(st->db, "DELETE FROM session WHERE id = ?1",
	    -1, &s, NULL) != SQLITE_OK) {
		store_cause(st, cause, "deleting session");
		return (-1);
	}
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_cause(st, cause, "deleting session");
		return (-1);
	}
	if (sqlite3_changes(st->db) == 0) {
		*cause = xasprintf("no session %lld", (long long)id);
		return (-1);
	}
	return (0);
}

int
store_symbol_add(struct store *st, int64_t session, const char *module,
    const char *name, uint64_t addr, uint64_t size)
{
	struct store_cell	*c;

	if ((c = store_batch_row(st, SB_SYMBOL, session)) ==
	    NULL)
		return (-1);
	store_cell_int(&c[0], session);
	store_cell_text(&st->batch[SB_SYMBOL], &c[1], module);
	store_cell_text(&st->batch[SB_SYMBOL], &c[2], name);
	store_cell_int(&c[3], (int64_t)addr);
	store_cell_int(&c[4], (int64_t)size);
	return (store_batch_end_row(st, SB_SYMBOL));
}

int
store_counter_add(struct store *st, int64_t session, const char *name,
    int64_t value)
{
	sqlite3_stmt	*s;

	if ((s = store_stmt(st, ST_COUNTER_ADD)) == NULL)
		return (-1);
	sqlite3_bind_int64(s, 1, session);
	sqlite3_bind_text(s, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, value);
	return (store_step_done(s));
}

int
store_bucket_add(struct store *st, int64_t session, uint32_t idx,
    uint64_t lo, uint64_t hi, uint64_t hits)
{
	struct store_cell	*c;

	if ((c = store_batch_row(st, SB_BUCKET, session)) ==
	    NULL)
		return (-1);
	store_cell_int(&c[0], session);
	store_cell_int(&c[1], idx);
	store_cell_int(&c[2], (int64_t)lo);
	store_cell_int(&c[3], (int64_t)hi);
	store_cell_int(&c[4], (int64_t)hits);
	return (store_batch_end_row(st, SB_BUCKET));
}

int
store_prf_add(struct store *st, int64_t session, const struct store_prf *p)
{
	sqlite3_stmt	*s;

	if ((s = store_stmt(st, ST_PRF_ADD)) == NULL)
		return (-1);
	sqlite3_bind_int64(s, 1, session);
	sqlite3_bind_int64(s, 2, p->clock_grain);
	sqlite3_bind_int64(s, 3, p->bucket_num);
	sqlite3_bind_int64(s, 4, p->bucket_siz);
	sqlite3_bind_int64(s, 5, p->prog_low_pa);
	sqlite3_bind_int64(s, 6, p->prog_high_pa);
	sqlite3_bind_int64(s, 7, p->dos_pa);
	sqlite3_bind_int64(s, 8, (sqlite3_int64)p->hit_io);
	sqlite3_bind_int64(s, 9, (sqlite3_int64)p->hit_dos);
	sqlite3_bind_int64(s, 10, (sqlite3_int64)p->hit_high);
	sqlite3_bind_int(s, 11, p->pv32);
	sqlite3_bind_int(s, 12, p->saturated);
	return (store_step_done(s));
}

int
store_warning_add(struct store *st, int64_t session, int64_t offset,
    const char *message)
{
	sqlite3_stmt	*s;

	if ((s = store_stmt(st, ST_WARNING_ADD)) == NULL)
		return (-1);
	sqlite3_bind_int64(s, 1, session);
	if (offset >= 0)
		sqlite3_bind_int64(s, 2, offset);
	else
		sqlite3_bind_null(s, 2);
	sqlite3_bind_text(s, 3, message, -1, SQLITE_STATIC);
	return (store_step_done(s));
}

static char *
store_column_dup(sqlite3_stmt *s, int col)
{
	const unsigned char	*t = sqlite3_column_text(s, col);

	return (t != NULL ? strdup((const char *)t) : NULL);
}

#define STORE_SESSION_COLUMNS \
	"SELECT id, kind, source, sha256, bytes, program, captured, ingested," \
	" (SELECT count(*) FROM warning w WHERE w.session = s.id)," \
	" CASE kind WHEN 'prf' THEN" \
	"  (SELECT printf('%d buckets of %d para, %d samples, grain %d us'," \
	"   p.bucket_num, p.bucket_siz, p.hit_io + p.hit_dos + p.hit_high +" \
	"   (SELECT coalesce(sum(hits), 0) FROM bucket b" \
	"    WHERE b.session = s.id), p.clock_grain)" \
	"   FROM prf p WHERE p.session = s.id)" \
	" WHEN 'ovd' THEN" \
	"  (SELECT printf('%d overlaid units, %d events (%d reprieves)%s'," \
	"   (SELECT count(*) FROM ovr_unit u WHERE u.session = s.id)," \
	"   (SELECT count(*) FROM ovr_event e WHERE e.session = s.id)," \
	"   (SELECT count(*) FROM ovr_event e WHERE e.session = s.id" \
	"    AND e.kind = 'reprieve')," \
	"   CASE o.truncated WHEN 0 THEN '' ELSE ', truncated' END)" \
	"   FROM ovd o WHERE o.session = s.id)" \
	" ELSE '' END FROM session s"

static void
store_session_fill(sqlite3_stmt *s, struct store_session *ss)
{
	const unsigned char	*t;

	memset(ss, 0, sizeof *ss);
	ss->id = sqlite3_column_int64(s, 0);
	if ((t = sqlite3_column_text(s, 1)) != NULL)
		snprintf(ss->kind, sizeof ss->kind, "%s", t);
	ss->source = store_column_dup(s, 2);
	if ((t = sqlite3_column_text(s, 3)) != NULL)
		snprintf(ss->sha256, sizeof ss->sha256, "%s", t);
	ss->bytes = sqlite3_column_int64(s, 4);
	ss->program = store_column_dup(s, 5);
	ss->captured = store_column_dup(s, 6);
	ss->ingested = store_column_dup(s, 7);
	ss->warnings = sqlite3_column_int(s, 8);
	ss->summary = store_column_dup(s, 9);
}

/* Fill ss with session id; -1 if there is no such session. */
int
store_session_get(struct store *st, int64_t id, struct store_session *ss)
{
	sqlite3_stmt	*s;
	int		 rc = -1;

	store_flush(st);
	if (sqlite3_prepare_v2(st->db, STORE_SESSION_COLUMNS
	    " WHERE id = ?1", -1, &s, NULL) != SQLITE_OK)
		return (-1);
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW) {
		store_session_fill(s, ss);
		rc = 0;
	}
	sqlite3_finalize(s);
	return (rc);
}

/* Every session, oldest first. */
int
store_sessions(struct store *st, struct store_session **out, size_t *n)
{
	sqlite3_stmt		*s;
	struct store_session	*v = NULL, *nv;
	size_t			 len = 0, cap = 0;
	int			 rc;

	*out = NULL;
	*n = 0;
	store_flush(st);
	if (sqlite3_prepare_v2(st->db, STORE_SESSION_COLUMNS " ORDER BY id",
	    -1, &s, NULL) != SQLITE_OK)
		return (-1);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (len == cap) {
			cap = cap != 0 ? cap * 2 : 16;
			if ((nv = realloc(v, cap * sizeof *v)) == NULL) {
				rc = SQLITE_NOMEM;
				break;
			}
			v = nv;
		}
		store_session_fill(s, &v[len++]);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_sessions_free(v, len);
		return (-1);
	}
	*out = v;
	*n = len;
	return (0);
}

void
store_session_free(struct store_session *ss)
{
	free(ss->source);
	free(ss->program);
	free(ss->captured);
	free(ss->ingested);
	free(ss->summary);
}

void
store_sessions_free(struct store_session *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		store_session_free(&v[i]);
	free(v);
}

int
store_prf_get(struct store *st, int64_t session, struct store_prf *p)
{
	sqlite3_stmt	*s;
	int		 rc = -1;

	store_flush(st);
	if (sqlite3_prepare_v2(st->db, "SELECT clock_grain, bucket_num,"
	    " bucket_siz, prog_low_pa, prog_high_pa, dos_pa, hit_io, hit_dos,"
	    " hit_high, pv32, saturated FROM prf WHERE session = ?1", -1, &s,
	    NULL) != SQLITE_OK)
		return (-1);
	sqlite3_bind_int64(s, 1, session);
	if (sqlite3_step(s) == SQLITE_ROW) {
		p->clock_grain = sqlite3_column_int64(s, 0);
		p->bucket_num = sqlite3_column_int64(s, 1);
		p->bucket_siz = sqlite3_column_int64(s, 2);
		p->prog_low_pa = sqlite3_column_int64(s, 3);
		p->prog_high_pa = sqlite3_column_int64(s, 4);
		p->dos_pa = sqlite3_column_int64(s, 5);
		p->hit_io = sqlite3_column_int64(s, 6);
		p->hit_dos = sqlite3_column_int64(s, 7);
		p->hit_high = sqlite3_column_int64(s, 8);
		p->pv32 = sqlite3_column_int(s, 9);
		p->saturated = sqlite3_column_int(s, 10);
		rc = 0;
	}
	sqlite3_finalize(s);
	return (rc);
}

/* The session's warnings as "offset N: message" strings. */
int
store_warnings(struct store *st, int64_t session, char ***out, size_t *n)
{
	sqlite3_stmt	*s;
	char		**v = NULL, **nv, *line;
	size_t		 len = 0;

	*out = NULL;
	*n = 0;
	store_flush(st);
	if (sqlite3_prepare_v2(st->db, "SELECT CASE WHEN offset IS NULL"
	    " THEN message ELSE printf('offset %d: %s', offset, message) END"
	    " FROM warning WHERE session = ?1 ORDER BY rowid", -1, &s,
	    NULL) != SQLITE_OK)
		return (-1);
	sqlite3_bind_int64(s, 1, session);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if ((line = store_column_dup(s, 0)) == NULL)
			continue;
		if ((nv = realloc(v, (len + 1) * sizeof *v)) == NULL) {
			free(line);
			break;
		}
		v = nv;
		v[len++] = line;
	}
	sqlite3_finalize(s);
	*out = v;
	*n = len;
	return (0);
}

int
store_ovd_add(struct store *st, int64_t session, const struct store_ovd *o)
{
	sqlite3_stmt	*s;

	if ((s = store_stmt(st, ST_OVD_ADD)) == NULL)
		return (-1);
	sqlite3_bind_int64(s, 1, session);
	sqlite3_bind_int(s, 2, o->version);
	sqlite3_bind_int(s, 3, o->prefix_seg);
	sqlite3_bind_int(s, 4, o->truncated);
	sqlite3_bind_int64(s, 5, o->wraps);
	return (store_step_done(s));
}

int
store_ovr_unit_add(struct store *st, int64_t session,
    const struct store_ovr_unit *u)
{
	sqlite3_stmt	*s;

	if ((s = store_stmt(st, ST_OVR_UNIT_ADD)) == NULL)
		return (-1);
	sqlite3_bind_int64(s, 1, session);
	sqlite3_bind_int(s, 2, u->stat_seg);
	sqlite3_bind_int64(s, 3, u->file_ofs);
	sqlite3_bind_int(s, 4, u->code_size);
	sqlite3_bind_int(s, 5, u->fixup_size);
	sqlite3_bind_int(s, 6, u->entry_pts);
	if (u->name != NULL)
		sqlite3_bind_text(s, 7, u->name, -1, SQLITE_STATIC);
	return (store_step_done(s));
}

/* Called once per event of files with millions: keep it lean. */
int
store_ovr_event_add(struct store *st, int64_t session,
    const struct store_ovr_event *e)
{
	struct store_cell	*c;

	if ((c = store_batch_row(st, SB_OVR_EVENT, session)) ==
	    NULL)
		return (-1);
	store_cell_int(&c[0], session);
	store_cell_int(&c[1], e->seq);
	store_cell_int(&c[2], e->ticks);
	c[3].v = e->reprieve != 0;
	c[3].len = STORE_KIND;
	store_cell_int(&c[4], e->ovr_seg);
	store_cell_int(&c[5], e->ovr_ofs);
	store_cell_int(&c[6], e->heap_org);
	store_cell_int(&c[7], e->heap_end);
	return (store_batch_end_row(st, SB_OVR_EVENT));
}

int
store_ovr_loaded_add(struct store *st, int64_t session, uint16_t stat_seg,
    uint16_t load_seg, int64_t first_seq, int64_t last_seq)
{
	struct store_cell	*c;

	if ((c = store_batch_row(st, SB_OVR_LOADED, session)) ==
	    NULL)
		return (-1);
	store_cell_int(&c[0], session);
	store_cell_int(&c[1], stat_seg);
	store_cell_int(&c[2], load_seg);
	store_cell_int(&c[3], first_seq);
	store_cell_int(&c[4], last_seq);
	return (store_batch_end_row(st, SB_OVR_LOADED));
}
