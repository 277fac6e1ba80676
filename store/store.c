/*
 * The SQLite store: schema, migration, transactions, cached prepared
 * inserts and the read queries views need.
 */
#include <errno.h>
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
	ST_SYMBOL_ADD,
	ST_COUNTER_ADD,
	ST_BUCKET_ADD,
	ST_PRF_ADD,
	ST_WARNING_ADD,
	ST_OVD_ADD,
	ST_OVR_UNIT_ADD,
	ST_OVR_EVENT_ADD,
	ST_OVR_LOADED_ADD,
	ST_COUNT
};

static const char *store_sql[ST_COUNT] = {
	"SELECT id FROM session WHERE sha256 = ?1",
	"INSERT INTO session(kind, source, sha256, bytes, program, captured)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	"INSERT INTO symbol(session, module, name, addr, size)"
	" VALUES (?1, ?2, ?3, ?4, ?5)",
	"INSERT OR REPLACE INTO counter(session, name, value)"
	" VALUES (?1, ?2, ?3)",
	"INSERT INTO bucket(session, idx, lo, hi, hits)"
	" VALUES (?1, ?2, ?3, ?4, ?5)",
	"INSERT INTO prf(session, clock_grain, bucket_num, bucket_siz,"
	" prog_low_pa, prog_high_pa, dos_pa, hit_io, hit_dos, hit_high, pv32,"
	" saturated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	"INSERT INTO warning(session, offset, message) VALUES (?1, ?2, ?3)",
	"INSERT INTO ovd(session, version, prefix_seg, truncated, wraps)"
	" VALUES (?1, ?2, ?3, ?4, ?5)",
	"INSERT INTO ovr_unit(session, stat_seg, file_ofs, code_size,"
	" fixup_size, entry_pts, name) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	"INSERT INTO ovr_event(session, seq, ticks, kind, ovr_seg, ovr_ofs,"
	" heap_org, heap_end) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	"INSERT INTO ovr_loaded(session, stat_seg, load_seg, first_seq,"
	" last_seq) VALUES (?1, ?2, ?3, ?4, ?5)",
};

struct store {
	sqlite3		*db;
	char		*path;
	sqlite3_stmt	*stmt[ST_COUNT];
};

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
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(st->stmt[i]);
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

sqlite3 *
store_db(struct store *st)
{
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
	return (sqlite3_errmsg(st->db));
}

int
store_exec(struct store *st, const char *sql, char **cause)
{
	char	*err = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", st->path,
			    err != NULL ? err : sqlite3_errmsg(st->db));
		sqlite3_free(err);
		return (-1);
	}
	return (0);
}

int
store_begin(struct store *st, char **cause)
{
	return (store_exec(st, "BEGIN IMMEDIATE", cause));
}

int
store_commit(struct store *st, char **cause)
{
	return (store_exec(st, "COMMIT", cause));
}

void
store_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

/* A cached statement, reset and ready for binding. */
static sqlite3_stmt *
store_stmt(struct store *st, int which)
{
	sqlite3_stmt	*s = st->stmt[which];

	if (s == NULL) {
		if (sqlite3_prepare_v3(st->db, store_sql[which], -1,
		    SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK)
			return (NULL);
		st->stmt[which] = s;
	} else {
		sqlite3_reset(s);
		sqlite3_clear_bindings(s);
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
	sqlite3_stmt	*s;

	if ((s = store_stmt(st, ST_SYMBOL_ADD)) == NULL)
		return (-1);
	sqlite3_bind_int64(s, 1, session);
	sqlite3_bind_text(s, 2, module, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)addr);
	sqlite3_bind_int64(s, 5, (sqlite3_int64)size);
	return (store_step_done(s));
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
	sqlite3_stmt	*s;

	if ((s = store_stmt(st, ST_BUCKET_ADD)) == NULL)
		return (-1);
	sqlite3_bind_int64(s, 1, session);
	sqlite3_bind_int64(s, 2, idx);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)lo);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)hi);
	sqlite3_bind_int64(s, 5, (sqlite3_int64)hits);
	return (store_step_done(s));
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
	sqlite3_stmt	*s = st->stmt[ST_OVR_EVENT_ADD];

	if (s == NULL && (s = store_stmt(st, ST_OVR_EVENT_ADD)) == NULL)
		return (-1);
	sqlite3_bind_int64(s, 1, session);
	sqlite3_bind_int64(s, 2, e->seq);
	sqlite3_bind_int64(s, 3, e->ticks);
	sqlite3_bind_text(s, 4, e->reprieve ? "reprieve" : "load",
	    e->reprieve ? 8 : 4, SQLITE_STATIC);
	sqlite3_bind_int(s, 5, e->ovr_seg);
	sqlite3_bind_int(s, 6, e->ovr_ofs);
	sqlite3_bind_int(s, 7, e->heap_org);
	sqlite3_bind_int(s, 8, e->heap_end);
	return (store_step_done(s));
}

int
store_ovr_loaded_add(struct store *st, int64_t session, uint16_t stat_seg,
    uint16_t load_seg, int64_t first_seq, int64_t last_seq)
{
	sqlite3_stmt	*s = st->stmt[ST_OVR_LOADED_ADD];

	if (s == NULL && (s = store_stmt(st, ST_OVR_LOADED_ADD)) == NULL)
		return (-1);
	sqlite3_bind_int64(s, 1, session);
	sqlite3_bind_int(s, 2, stat_seg);
	sqlite3_bind_int(s, 3, load_seg);
	sqlite3_bind_int64(s, 4, first_seq);
	sqlite3_bind_int64(s, 5, last_seq);
	return (store_step_done(s));
}
