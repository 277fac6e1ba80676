/*
 * The store engine: open and migrate (the core's and every kind's
 * migrations), transactions, rows inserted in batches driven by table
 * descriptors, and read cursors.  No table of any kind is named here.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "xmalloc.h"
#include "store/store.h"

/*
 * Rows go in batches: one INSERT of STORE_BATCH rows costs about half of
 * what as many one-row statements do, because for a narrow row the work
 * of a statement (step, halt, reset, bind) outweighs the b-tree insert.
 * Rows wait in their table's batch, in order, until it is full or
 * anything else uses the connection (store_flush).
 */
#define STORE_BATCH	64

/*
 * How long a statement waits for another process's write lock.  Readers
 * never wait (WAL); an ingest waits for another ingest to end, which can
 * take minutes on a big file (STORE_WRITE_WAIT_MS).
 */
#define STORE_BUSY_MS		5000
#define STORE_WRITE_WAIT_MS	(30 * 60 * 1000)

enum store_cell_type {
	STORE_CELL_INT,
	STORE_CELL_NULL,
	STORE_CELL_TEXT,	/* copied into the batch's text */
	STORE_CELL_STATIC,	/* a string literal, kept by pointer */
	STORE_CELL_BLOB		/* copied into the batch's text, as text */
};

struct store_cell {
	int		 type;
	int		 len;		/* text bytes */
	int64_t		 v;		/* the integer, or the text's offset */
	const char	*s;		/* static text */
};

/* The pending rows of one table.  Cells are (ncols - 1) a row: the
 * session column is bound once per statement, ?1 in every row. */
struct store_batch {
	const struct store_table *table;
	int			 ncols;		/* with session */
	sqlite3_stmt		*one;		/* for a partial batch */
	sqlite3_stmt		*many;		/* STORE_BATCH rows */
	int64_t			 session;	/* of every pending row */
	int			 rows;
	int			 put;		/* cells of the open row */
	struct store_cell	*cells;
	char			*text;		/* the rows' strings */
	size_t			 used;
	size_t			 size;
};

struct store {
	sqlite3			*db;
	char			*path;
	int			 flags;		/* STORE_READONLY ... */
	const struct store_kind	*kinds;		/* the caller's, NULL-ended */
	size_t			 nkinds;
	int			 user_writes;	/* store_query_writes */
	int			 ingesting;	/* in store_begin: no FKs */
	struct store_batch	*batch;		/* in first-use order */
	size_t			 nbatch;
	char			*failure;	/* a batch failed: no commit */
	/* Told when an ingest must wait for another's lock. */
	void			(*waiting)(void *, const char *, long);
	void			*waiting_arg;
};

struct store_cursor {
	struct store	*st;
	sqlite3_stmt	*s;
};

/* A store opened with no kinds (NULL) has the core's tables alone. */
static const struct store_kind	store_no_kinds[] = { { NULL, NULL } };

/* The core: every kind's tables build on these (core.c). */
extern const char *const	store_core_migrations[STORE_SCHEMA_VERSION];

static int	store_flush(struct store *);
static void	store_discard(struct store *);

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

/* One integer from a query with ?1 bound to arg; def if no row or NULL. */
int64_t
store_int_query(struct store *st, const char *sql, int64_t arg, int64_t def)
{
	sqlite3_stmt	*s;
	int64_t		 v = def;

	store_flush(st);
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return (def);
	if (sqlite3_bind_parameter_count(s) >= 1)
		sqlite3_bind_int64(s, 1, arg);
	if (sqlite3_step(s) == SQLITE_ROW &&
	    sqlite3_column_type(s, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return (v);
}

/*
 * The version of each kind's tables, from kind_schema (0 where a kind has
 * no row, or before the core made the table).  -1 on a read error.
 */
static int
store_kind_versions(struct store *st, int core, int64_t *v)
{
	sqlite3_stmt	*s;
	size_t		 i;
	int		 rc = 0;

	for (i = 0; i < st->nkinds; i++)
		v[i] = 0;
	if (core < 2)
		return (0);
	if (sqlite3_prepare_v2(st->db, "SELECT version FROM kind_schema"
	    " WHERE kind = ?1", -1, &s, NULL) != SQLITE_OK)
		return (-1);
	for (i = 0; i < st->nkinds && rc == 0; i++) {
		sqlite3_bind_text(s, 1, st->kinds[i].name, -1, SQLITE_STATIC);
		if (sqlite3_step(s) == SQLITE_ROW)
			v[i] = sqlite3_column_int64(s, 0);
		if (sqlite3_reset(s) != SQLITE_OK)
			rc = -1;
	}
	sqlite3_finalize(s);
	return (rc);
}

/*
 * Whether the store needs migrating: 1 yes, 0 no, -1 with cause when it
 * is newer than this program (the core, or any kind it knows).
 */
static int
store_outdated(struct store *st, int *core, int64_t *kv, char **cause)
{
	const struct store_schema	*sc;
	size_t				 i;
	int				 old = 0;

	*core = (int)store_int_query(st, "PRAGMA user_version", 0, -1);
	if (*core < 0) {
		store_cause(st, cause, "reading user_version");
		return (-1);
	}
	if (*core > STORE_SCHEMA_VERSION) {
		*cause = xasprintf("%s: schema version %d is newer than this"
		    " profview understands (%d)", st->path, *core,
		    STORE_SCHEMA_VERSION);
		return (-1);
	}
	if (store_kind_versions(st, *core, kv) != 0) {
		store_cause(st, cause, "reading kind_schema");
		return (-1);
	}
	for (i = 0; i < st->nkinds; i++) {
		sc = st->kinds[i].schema;
		if (kv[i] > (int64_t)sc->nmigrations) {
			*cause = xasprintf("%s: the %s tables are at version"
			    " %lld, newer than this profview understands"
			    " (%zu)", st->path, st->kinds[i].name,
			    (long long)kv[i],
			    sc->nmigrations);
			return (-1);
		}
		old |= (kv[i] < (int64_t)sc->nmigrations);
	}
	return (old || *core < STORE_SCHEMA_VERSION);
}

/* The kind called name among those the store was opened with, or NULL. */
const struct store_kind *
store_kind_find(struct store *st, const char *name)
{
	size_t	i;

	for (i = 0; i < st->nkinds; i++) {
		if (strcmp(st->kinds[i].name, name) == 0)
			return (&st->kinds[i]);
	}
	return (NULL);
}

/* The kinds the store was opened with, ended by a NULL name. */
const struct store_kind *
store_kinds(struct store *st)
{
	return (st->kinds);
}

/* store_outdated without the versions. */
static int
store_stale(struct store *st, char **cause)
{
	int64_t	*kv;
	int	 core, rc;

	kv = xcalloc(st->nkinds + 1, sizeof *kv);
	rc = store_outdated(st, &core, kv, cause);
	free(kv);
	return (rc);
}

/* Run a kind's migrations from version from on, and record where it is. */
static int
store_migrate_kind(struct store *st, const struct store_kind *k,
    int64_t from, char **cause)
{
	const struct store_schema	*sc = k->schema;
	sqlite3_stmt			*s;
	size_t		 v;
	int		 rc;

	for (v = (size_t)from; v < sc->nmigrations; v++) {
		if (store_exec(st, sc->migrations[v], cause) != 0)
			return (-1);
	}
	if (sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO"
	    " kind_schema(kind, version) VALUES (?1, ?2)", -1, &s, NULL) !=
	    SQLITE_OK) {
		store_cause(st, cause, "recording the schema");
		return (-1);
	}
	sqlite3_bind_text(s, 1, k->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, (int64_t)sc->nmigrations);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_cause(st, cause, "recording the schema");
		return (-1);
	}
	return (0);
}

/*
 * Bring the schema up to date in one transaction: the core's migrations
 * (user_version), then each kind's (kind_schema).  A current store is
 * only read, so opening it takes no write lock.
 */
static int
store_migrate(struct store *st, char **cause)
{
	int64_t	*kv;
	size_t	 i;
	int	 core, rc, fkoff;
	char	*sql;

	kv = xcalloc(st->nkinds + 1, sizeof *kv);
	if ((rc = store_outdated(st, &core, kv, cause)) <= 0) {
		free(kv);
		return (rc);
	}
	/*
	 * A core migration may rebuild a table others reference (4 makes
	 * session anew): with foreign keys on, dropping the old one would
	 * delete every child row.  So the core migrates with them off (the
	 * pragma is a no-op inside a transaction, hence before BEGIN;
	 * commit and rollback turn them on) and the keys are checked before
	 * the commit instead.
	 */
	fkoff = core < STORE_SCHEMA_VERSION;
	if ((fkoff && store_exec(st, "PRAGMA foreign_keys = OFF", cause) !=
	    0) || store_exec(st, "BEGIN IMMEDIATE", cause) != 0) {
		store_exec(st, "PRAGMA foreign_keys = ON", NULL);
		free(kv);
		return (-1);
	}
	/* Another process may have migrated it while we waited. */
	if ((rc = store_outdated(st, &core, kv, cause)) <= 0) {
		store_rollback(st);
		goto done;
	}
	for (; core < STORE_SCHEMA_VERSION; core++) {
		if (store_exec(st, store_core_migrations[core], cause) != 0)
			goto fail;
	}
	for (i = 0; i < st->nkinds; i++) {
		if (kv[i] < (int64_t)st->kinds[i].schema->nmigrations &&
		    store_migrate_kind(st, &st->kinds[i], kv[i], cause) != 0)
			goto fail;
	}
	if (store_summaries(st, cause) != 0)
		goto fail;
	if (fkoff && store_int_query(st, "SELECT count(*) FROM"
	    " pragma_foreign_key_check", 0, -1) != 0) {
		*cause = xasprintf("%s: migrating left rows whose parent is"
		    " gone", st->path);
		goto fail;
	}
	sql = xasprintf("PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
	rc = store_exec(st, sql, cause);
	free(sql);
	if (rc != 0)
		goto fail;
	if ((rc = store_commit(st, cause)) == 0)
		goto done;
fail:
	store_rollback(st);
	rc = -1;
done:
	store_exec(st, "PRAGMA foreign_keys = ON", NULL);
	free(kv);
	return (rc);
}

/*
 * The URI of path for sqlite3_open_v2 with SQLITE_OPEN_URI, opened
 * immutable: the characters a URI gives a meaning are escaped.
 */
static char *
store_immutable_uri(const char *path)
{
	const char	*p;
	char		*uri, *o;

	uri = xmalloc(3 * strlen(path) + 32);
	o = stpcpy(uri, "file:");
	for (p = path; *p != '\0'; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			o += sprintf(o, "%%%02X", (unsigned char)*p);
		else
			*o++ = *p;
	}
	stpcpy(o, "?immutable=1");
	return (uri);
}

/*
 * Whether a read-only open of path may fall back to reading the file as
 * immutable: a WAL store needs its -shm file, which a reader cannot make
 * in a folder it may not write.  No writer can be at work there without
 * a -wal file, so the file is as it stays while it is read.
 */
static int
store_frozen(const char *path)
{
	struct stat	 sb;
	char		*dir, *slash, *wal;
	int		 frozen;

	dir = xstrdup(path);
	if ((slash = strrchr(dir, '/')) == NULL)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	wal = xasprintf("%s-wal", path);
	frozen = access(dir, W_OK) != 0 && (errno == EACCES ||
	    errno == EROFS) && stat(wal, &sb) != 0 && errno == ENOENT;
	free(wal);
	free(dir);
	return (frozen);
}

/*
 * Open the connection: read-only ones never create the file, nor change
 * its journal mode.
 */
static int
store_connect(struct store *st, const char *name, int flags, char **cause)
{
	const struct store_schema	*sc;
	size_t				 i;
	int				 oflags;

	if (flags & STORE_READONLY)
		oflags = SQLITE_OPEN_READONLY;
	else if (flags & STORE_NOCREATE)
		oflags = SQLITE_OPEN_READWRITE;
	else
		oflags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	if (strncmp(name, "file:", 5) == 0 && name != st->path)
		oflags |= SQLITE_OPEN_URI;
	if (sqlite3_open_v2(name, &st->db, oflags | SQLITE_OPEN_NOMUTEX,
	    NULL) != SQLITE_OK) {
		store_cause(st, cause, "open");
		return (-1);
	}
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
	for (i = 0; i < st->nkinds; i++) {
		sc = st->kinds[i].schema;
		if (sc->connect != NULL && sc->connect(st->db) != SQLITE_OK) {
			store_cause(st, cause, "open");
			return (-1);
		}
	}
	/*
	 * Reads through a mapping, not a pread per page: the browser's
	 * first frame of a 65535-bucket session read its rows in half the
	 * time (syscalls are dear on a VM).  Nothing here truncates a store
	 * (no VACUUM), so the mapping never loses its pages.
	 */
	if (store_exec(st, "PRAGMA foreign_keys = ON; "
	    "PRAGMA mmap_size = 268435456", cause) != 0)
		return (-1);
	if (!(flags & STORE_READONLY) && strcmp(name, ":memory:") != 0 &&
	    store_exec(st, "PRAGMA journal_mode = WAL; "
	    "PRAGMA synchronous = NORMAL", cause) != 0)
		return (-1);
	return (0);
}

static void
store_disconnect(struct store *st)
{
	sqlite3_close(st->db);
	st->db = NULL;
}

/*
 * Open (creating and migrating as needed) the store at path.
 * STORE_READONLY opens it read-only and STORE_NOCREATE as it is: neither
 * makes a store where there is none.  A read-only open takes no lock
 * (readers never wait for a writer: WAL), and a store that needs
 * migrating is migrated by a writing connection first.
 *
 * kinds are the kinds whose tables it holds, passed by the caller rather
 * than registered once in a global: as tmux hands options_default the
 * table entry instead of options.c finding it, a connection opened on a
 * thread, a test with a kind of its own, and the program open exactly
 * what they pass, and nothing in store/ knows the kind table.
 */
struct store *
store_open(const char *path, int flags, const struct store_kind *kinds,
    char **cause)
{
	struct store	*st;
	struct stat	 sb;
	char		*uri;
	int		 memory, rc;

	if ((st = calloc(1, sizeof *st)) == NULL ||
	    (st->path = strdup(path)) == NULL) {
		free(st);
		*cause = xasprintf("%s: out of memory", path);
		return (NULL);
	}
	st->flags = flags;
	if (kinds == NULL)
		kinds = store_no_kinds;
	st->kinds = kinds;
	while (kinds[st->nkinds].name != NULL)
		st->nkinds++;
	memory = (strcmp(path, ":memory:") == 0);
	if (memory)
		flags &= ~(STORE_READONLY | STORE_NOCREATE);
	else if (stat(path, &sb) != 0 && errno == ENOENT) {
		if (flags & (STORE_READONLY | STORE_NOCREATE)) {
			*cause = xasprintf("%s: no store there (profview"
			    " ingest makes one)", path);
			goto fail;
		}
		store_mkdirs(path);
	}
	if (store_connect(st, path, flags, cause) != 0)
		goto fail;
	if (!(flags & STORE_READONLY)) {
		if (store_migrate(st, cause) != 0)
			goto fail;
		return (st);
	}

	rc = store_stale(st, cause);
	if (rc < 0 && store_frozen(path)) {
		/* A read-only folder: read the file as it is. */
		free(*cause);
		*cause = NULL;
		store_disconnect(st);
		uri = store_immutable_uri(path);
		rc = store_connect(st, uri, flags, cause);
		free(uri);
		if (rc != 0)
			goto fail;
		rc = store_stale(st, cause);
	}
	if (rc < 0)
		goto fail;
	if (rc > 0) {
		/* Migrate with a writer, then read what it made. */
		store_disconnect(st);
		if (store_connect(st, path, STORE_NOCREATE, cause) != 0 ||
		    store_migrate(st, cause) != 0)
			goto fail;
		store_disconnect(st);
		if (store_connect(st, path, flags, cause) != 0)
			goto fail;
	}
	if (store_exec(st, "PRAGMA query_only = ON", cause) != 0)
		goto fail;
	return (st);
fail:
	store_close(st);
	return (NULL);
}

void
store_close(struct store *st)
{
	size_t	i;

	if (st == NULL)
		return;
	/* Rows added outside a transaction are kept; inside, it rolls back. */
	if (st->db != NULL && sqlite3_get_autocommit(st->db))
		store_flush(st);
	for (i = 0; i < st->nbatch; i++) {
		sqlite3_finalize(st->batch[i].one);
		sqlite3_finalize(st->batch[i].many);
		free(st->batch[i].cells);
		free(st->batch[i].text);
	}
	free(st->batch);
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

/*
 * Whether the statements a user types may change the store (and make
 * files by ATTACH): --writable.  Query.c asks.
 */
void
store_query_writes(struct store *st, int on)
{
	st->user_writes = on;
}

int
store_query_writable(struct store *st)
{
	return (st->user_writes);
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
 * fn(arg, path, pid) is called when an ingest finds the store locked by
 * another process and starts to wait (pid: the holder, 0 if unknown), so
 * the user learns what profview waits for before the wait, which may be
 * minutes, begins.
 */
void
store_waiting_hook(struct store *st, void (*fn)(void *, const char *, long),
    void *arg)
{
	st->waiting = fn;
	st->waiting_arg = arg;
}

/*
 * The process that holds the store's write lock, or 0: SQLite's unix VFS
 * takes it with fcntl on byte 120 of PATH-shm in WAL mode (the first of
 * its WAL locks), where F_GETLK names the holder.
 */
static long
store_lock_holder(struct store *st)
{
	struct flock	 fl;
	char		*shm;
	int		 fd;

	shm = xasprintf("%s-shm", st->path);
	fd = open(shm, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	free(shm);
	if (fd == -1)
		return (0);
	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = 120;
	fl.l_len = 1;
	if (fcntl(fd, F_GETLK, &fl) != 0 || fl.l_type == F_UNLCK)
		fl.l_pid = 0;
	close(fd);
	return ((long)fl.l_pid);
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
	char	*busy = NULL;
	int	 rc;

	/*
	 * An ingest's pages stay in memory until COMMIT: with SQLite's 2 MB
	 * cache a 50 MB session spilled dirty pages into the WAL mid-way,
	 * read them back and wrote them again (1M blocks: 56k pwrites and
	 * 26k preads for 13k pages; now 39k and 13k, each frame's two
	 * writes and the checkpoint's copy).  The cache only grows as pages
	 * are made; past 256 MB a session spills as before.
	 */
	if (store_exec(st, "PRAGMA foreign_keys = OFF; "
	    "PRAGMA cache_size = -262144", cause) != 0)
		return (-1);
	/*
	 * Another ingest may hold the lock for as long as its file takes:
	 * the waiting hook says so first (a browser started on a file said
	 * nothing, its screen blank, until the other ingest ended).
	 */
	sqlite3_busy_timeout(st->db, 0);
	rc = store_exec(st, "BEGIN IMMEDIATE", &busy);
	if (rc != 0 && (sqlite3_errcode(st->db) & 0xff) == SQLITE_BUSY) {
		free(busy);
		busy = NULL;
		if (st->waiting != NULL)
			st->waiting(st->waiting_arg, st->path,
			    store_lock_holder(st));
		sqlite3_busy_timeout(st->db, STORE_WRITE_WAIT_MS);
		rc = store_exec(st, "BEGIN IMMEDIATE", &busy);
	}
	sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
	if (rc != 0) {
		if (cause != NULL)
			*cause = busy;
		else
			free(busy);
		store_exec(st, "PRAGMA foreign_keys = ON", NULL);
		return (-1);
	}
	st->ingesting = 1;
	return (0);
}

/* Whether an ingest's transaction (foreign keys off) is open. */
int
store_ingesting(struct store *st)
{
	return (st->ingesting);
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
	if (store_flush(st) != 0 || st->failure != NULL) {
		*cause = xasprintf("%s: %s", st->path, store_error(st));
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

static int
store_step_done(sqlite3_stmt *s)
{
	int	rc = sqlite3_step(s);

	sqlite3_reset(s);
	return (rc == SQLITE_DONE ? 0 : -1);
}

/* Columns of a descriptor's row, the session included. */
static int
store_table_ncols(const struct store_table *t)
{
	const char	*p;
	int		 n = 2;

	for (p = t->columns; *p != '\0'; p++)
		n += (*p == ',');
	return (n);
}

/* The batch of table t, made on first use. */
static struct store_batch *
store_batch_of(struct store *st, const struct store_table *t)
{
	struct store_batch	*b;
	size_t			 i;

	for (i = 0; i < st->nbatch; i++) {
		if (st->batch[i].table == t)
			return (&st->batch[i]);
	}
	st->batch = xreallocarray(st->batch, st->nbatch + 1, sizeof *b);
	b = &st->batch[st->nbatch++];
	memset(b, 0, sizeof *b);
	b->table = t;
	b->ncols = store_table_ncols(t);
	b->cells = xreallocarray(NULL, STORE_BATCH,
	    (size_t)(b->ncols - 1) * sizeof *b->cells);
	return (b);
}

/* The batch's statement for one row or for STORE_BATCH rows. */
static sqlite3_stmt *
store_batch_stmt(struct store *st, struct store_batch *b, int many)
{
	sqlite3_stmt	**sp = many ? &b->many : &b->one;
	char		 *sql, *row, *p;
	int		  i, rows = many ? STORE_BATCH : 1, n = b->ncols;

	if (*sp != NULL)
		return (*sp);
	/* ?1, the session, in every row; the other "?" number on from 2. */
	row = xmalloc(3 * (size_t)n + 4);
	p = stpcpy(row, "(?1");
	for (i = 1; i < n; i++)
		p = stpcpy(p, ", ?");
	stpcpy(p, ")");
	sql = xasprintf("%s INTO %s(session, %s) VALUES ",
	    b->table->verb != NULL ? b->table->verb : "INSERT",
	    b->table->name, b->table->columns);
	sql = xreallocarray(sql, 1, strlen(sql) + (size_t)rows *
	    (strlen(row) + 2) + 1);
	p = sql + strlen(sql);
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
	switch (c->type) {
	case STORE_CELL_INT:
		sqlite3_bind_int64(s, i, c->v);
		break;
	case STORE_CELL_TEXT:
		sqlite3_bind_text(s, i, text + c->v, c->len, SQLITE_STATIC);
		break;
	case STORE_CELL_STATIC:
		sqlite3_bind_text(s, i, c->s, c->len, SQLITE_STATIC);
		break;
	case STORE_CELL_BLOB:
		sqlite3_bind_blob(s, i, text + c->v, c->len, SQLITE_STATIC);
		break;
	default:
		sqlite3_bind_null(s, i);
		break;
	}
}

/* Bind rows first.. of the batch: ?1 the session, the rest from 2 on. */
static void
store_batch_bind(sqlite3_stmt *s, const struct store_batch *b, int first,
    int rows)
{
	const struct store_cell	*c;
	int			 i, k = 2, r, w = b->ncols - 1;

	sqlite3_bind_int64(s, 1, b->session);
	for (r = first; r < first + rows; r++) {
		c = b->cells + r * w;
		for (i = 0; i < w; i++)
			store_cell_bind(s, k++, &c[i], b->text);
	}
}

/* Insert the batch's rows: all at once when full, else one by one. */
static int
store_batch_flush(struct store *st, struct store_batch *b)
{
	sqlite3_stmt	*s;
	int		 r;

	if (b->rows == STORE_BATCH) {
		if ((s = store_batch_stmt(st, b, 1)) == NULL)
			goto fail;
		store_batch_bind(s, b, 0, STORE_BATCH);
		if (store_step_done(s) != 0)
			goto fail;
	} else if (b->rows != 0) {
		if ((s = store_batch_stmt(st, b, 0)) == NULL)
			goto fail;
		for (r = 0; r < b->rows; r++) {
			store_batch_bind(s, b, r, 1);
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
		st->failure = xasprintf("%s: %s", b->table->name,
		    sqlite3_errmsg(st->db));
	b->rows = 0;
	b->used = 0;
	return (-1);
}

/* Insert every pending row; -1 once any batch has failed. */
static int
store_flush(struct store *st)
{
	size_t	i;
	int	rc = 0;

	for (i = 0; i < st->nbatch; i++) {
		if (st->batch[i].rows != 0 &&
		    store_batch_flush(st, &st->batch[i]) != 0)
			rc = -1;
	}
	return (st->failure != NULL ? -1 : rc);
}

/* Forget pending rows and a failure: the transaction is going away. */
static void
store_discard(struct store *st)
{
	size_t	i;

	for (i = 0; i < st->nbatch; i++) {
		st->batch[i].rows = 0;
		st->batch[i].used = 0;
		st->batch[i].put = 0;
	}
	free(st->failure);
	st->failure = NULL;
}

/*
 * A new row of session for table t, or NULL after a failure.  A batch
 * holds one session's rows (its statement binds the session once), so
 * another session's row flushes it first.
 */
struct store_row *
store_row(struct store *st, const struct store_table *t, int64_t session)
{
	struct store_batch	*b;

	if (st->failure != NULL)
		return (NULL);
	b = store_batch_of(st, t);
	if (b->rows != 0 && b->session != session &&
	    store_batch_flush(st, b) != 0)
		return (NULL);
	b->session = session;
	b->put = 0;
	return ((struct store_row *)b);
}

static struct store_cell *
store_next_cell(struct store_row *r)
{
	struct store_batch	*b = (struct store_batch *)r;

	if (b->put >= b->ncols - 1)
		fatal("store: too many columns for %s", b->table->name);
	return (&b->cells[b->rows * (b->ncols - 1) + b->put++]);
}

void
store_put_int(struct store_row *r, int64_t v)
{
	struct store_cell	*c = store_next_cell(r);

	c->type = STORE_CELL_INT;
	c->v = v;
}

void
store_put_null(struct store_row *r)
{
	store_next_cell(r)->type = STORE_CELL_NULL;
}

/* Copy len bytes of s into the batch's text as a cell of type. */
static void
store_put_bytes(struct store_row *r, int type, const void *s, size_t len)
{
	struct store_batch	*b = (struct store_batch *)r;
	struct store_cell	*c = store_next_cell(r);

	if (s == NULL || len > INT_MAX) {
		c->type = STORE_CELL_NULL;
		return;
	}
	if (b->text == NULL || b->size - b->used < len) {
		while (b->size - b->used < len || b->size == 0)
			b->size = b->size != 0 ? b->size * 2 : 4096;
		b->text = xreallocarray(b->text, 1, b->size);
	}
	if (len != 0)
		memcpy(b->text + b->used, s, len);
	c->type = type;
	c->v = (int64_t)b->used;
	c->len = (int)len;
	b->used += len;
}

/* Copy s into the batch: callers may reuse their buffer at once. */
void
store_put_text(struct store_row *r, const char *s)
{
	store_put_bytes(r, STORE_CELL_TEXT, s, s != NULL ? strlen(s) : 0);
}

/* A blob, copied like text (NULL is NULL; len 0 an empty blob). */
void
store_put_blob(struct store_row *r, const void *p, size_t len)
{
	store_put_bytes(r, STORE_CELL_BLOB, p, len);
}

/* A string that outlives the batch (a literal): no copy. */
void
store_put_static(struct store_row *r, const char *s)
{
	struct store_cell	*c = store_next_cell(r);

	if (s == NULL) {
		c->type = STORE_CELL_NULL;
		return;
	}
	c->type = STORE_CELL_STATIC;
	c->s = s;
	c->len = (int)strlen(s);
}

int
store_row_end(struct store *st, struct store_row *r)
{
	struct store_batch	*b = (struct store_batch *)r;

	if (b->put != b->ncols - 1)
		fatal("store: %d of %d columns for %s", b->put, b->ncols - 1,
		    b->table->name);
	b->put = 0;
	if (++b->rows < STORE_BATCH)
		return (0);
	return (store_batch_flush(st, b));
}

/* A read query with ?1 bound to session; NULL on error (store_error). */
struct store_cursor *
store_cursor_open(struct store *st, const char *sql, int64_t session)
{
	struct store_cursor	*c;
	sqlite3_stmt		*s;

	if (store_flush(st) != 0)
		return (NULL);
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return (NULL);
	if (sqlite3_bind_parameter_count(s) >= 1)
		sqlite3_bind_int64(s, 1, session);
	c = xcalloc(1, sizeof *c);
	c->st = st;
	c->s = s;
	return (c);
}

/* "SELECT a, b, c tail" from the NULL-ended column list cols. */
char *
store_select_sql(const char *const *cols, const char *tail)
{
	char	*sql, *p;
	size_t	 i, len = sizeof "SELECT " + strlen(tail) + 1;

	for (i = 0; cols[i] != NULL; i++)
		len += strlen(cols[i]) + 2;
	p = sql = xmalloc(len);
	p = stpcpy(p, "SELECT ");
	for (i = 0; cols[i] != NULL; i++) {
		if (i != 0)
			p = stpcpy(p, ", ");
		p = stpcpy(p, cols[i]);
	}
	*p++ = ' ';
	stpcpy(p, tail);
	return (sql);
}

/*
 * A read query of the columns cols (a STORE_COLUMNS list, read back by
 * its enum) and tail, the rest of the statement, with ?1 bound to
 * session; NULL on error (store_error).  The text is made once an open,
 * the columns are read by position: no lookup a row.
 */
struct store_cursor *
store_cursor_select(struct store *st, const char *const *cols,
    const char *tail, int64_t session)
{
	struct store_cursor	*c;
	char			*sql;

	sql = store_select_sql(cols, tail);
	c = store_cursor_open(st, sql, session);
	free(sql);
	return (c);
}

/* Bind ?n of an open cursor's query (?1 is the session) to v. */
void
store_cursor_bind(struct store_cursor *c, int n, int64_t v)
{
	if (c != NULL)
		sqlite3_bind_int64(c->s, n, v);
}

/* Bind ?n of an open cursor's query to text v (copied). */
void
store_cursor_bind_text(struct store_cursor *c, int n, const char *v)
{
	if (c != NULL)
		sqlite3_bind_text(c->s, n, v, -1, SQLITE_TRANSIENT);
}

/* 1 a row, 0 done, -1 an error (store_error says which). */
int
store_cursor_step(struct store_cursor *c)
{
	int	rc;

	if (c == NULL)
		return (-1);
	rc = sqlite3_step(c->s);
	if (rc == SQLITE_ROW)
		return (1);
	return (rc == SQLITE_DONE ? 0 : -1);
}

int64_t
store_cursor_int(struct store_cursor *c, int col)
{
	return (sqlite3_column_int64(c->s, col));
}

/* Text of a column, NULL for NULL; valid until the cursor moves. */
const char *
store_cursor_text(struct store_cursor *c, int col)
{
	return ((const char *)sqlite3_column_text(c->s, col));
}

/* A blob column's bytes and *len, NULL for NULL; valid as text is. */
const void *
store_cursor_blob(struct store_cursor *c, int col, size_t *len)
{
	const void	*p = sqlite3_column_blob(c->s, col);

	*len = (size_t)sqlite3_column_bytes(c->s, col);
	return (p);
}

int
store_cursor_null(struct store_cursor *c, int col)
{
	return (sqlite3_column_type(c->s, col) == SQLITE_NULL);
}

void
store_cursor_close(struct store_cursor *c)
{
	if (c == NULL)
		return;
	sqlite3_finalize(c->s);
	free(c);
}
