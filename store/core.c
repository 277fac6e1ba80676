/*
 * The tables every kind shares: session, warning, symbol, counter,
 * bucket, and code and code_line (what an annotation kept of a module),
 * their migrations (PRAGMA user_version) and statements.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "xmalloc.h"
#include "store/store.h"

/*
 * Entry N takes the core from user_version N to N + 1.  Stores written
 * before the kinds had their own migrations made every table in the
 * first; the kinds' first migrations (CREATE ... IF NOT EXISTS, the same
 * definitions) find those tables there and leave them.
 */
const char *const store_core_migrations[STORE_SCHEMA_VERSION] = {
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
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;",
	/* 1 -> 2: each kind's tables keep their own version. */
	"CREATE TABLE kind_schema ("
	"  kind TEXT PRIMARY KEY,"
	"  version INTEGER NOT NULL) WITHOUT ROWID;",
	/*
	 * 2 -> 3: the one-line summary, made once at ingest: made on every
	 * read it counted every event of every session (2.5 s for 18M).
	 * Sessions stored before get theirs at the end of the migration.
	 */
	"ALTER TABLE session ADD COLUMN summary TEXT;",
	/*
	 * 3 -> 4: session.kind without its CHECK of the kinds' names, which
	 * made every new kind a rebuild of session: the store checks the
	 * name against its kinds (store_session_add).  SQLite cannot drop a
	 * constraint, so the table is made anew, copied, dropped and the
	 * copy renamed, foreign keys off (store_migrate), so dropping it
	 * cascades to no child and the children's REFERENCES session name
	 * the copy once it is renamed; the columns, their order, keys and
	 * defaults are as before.
	 */
	"CREATE TABLE session_4 ("
	"  id INTEGER PRIMARY KEY,"
	"  kind TEXT NOT NULL,"
	"  source TEXT NOT NULL,"
	"  sha256 TEXT NOT NULL UNIQUE,"
	"  bytes INTEGER NOT NULL,"
	"  program TEXT,"
	"  captured TEXT,"
	"  ingested TEXT NOT NULL"
	"   DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),"
	"  summary TEXT);"
	"INSERT INTO session_4 (id, kind, source, sha256, bytes, program,"
	"  captured, ingested, summary) SELECT id, kind, source, sha256, bytes,"
	"  program, captured, ingested, summary FROM session;"
	"DROP TABLE session;"
	"ALTER TABLE session_4 RENAME TO session;",
	/*
	 * 4 -> 5: the code a session annotated, kept from its module's
	 * file when first annotated (ingest/code.c), so that the session
	 * annotates the same after the module is rebuilt or gone; the
	 * DWARF lines of its addresses with their source text.
	 */
	"CREATE TABLE code ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  addr INTEGER NOT NULL,"
	"  module TEXT NOT NULL,"
	"  build_id TEXT,"
	"  bytes BLOB NOT NULL,"
	"  PRIMARY KEY (session, addr)) WITHOUT ROWID;"
	"CREATE TABLE code_line ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  addr INTEGER NOT NULL,"
	"  file TEXT NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  text TEXT);"
	"CREATE INDEX code_line_addr ON code_line(session, addr);",
};

static const char *const store_core_purge[] = {
	"DELETE FROM warning WHERE session = ?1",
	"DELETE FROM symbol WHERE session = ?1",
	"DELETE FROM counter WHERE session = ?1",
	"DELETE FROM bucket WHERE session = ?1",
	"DELETE FROM code WHERE session = ?1",
	"DELETE FROM code_line WHERE session = ?1",
};

static const struct store_table store_t_warning = {
	"warning", "offset, message", NULL
};
static const struct store_table store_t_symbol = {
	"symbol", "module, name, addr, size", NULL
};
static const struct store_table store_t_counter = {
	"counter", "name, value", "INSERT OR REPLACE"
};
static const struct store_table store_t_bucket = {
	"bucket", "idx, lo, hi, hits", NULL
};
static const struct store_table store_t_code = {
	"code", "addr, module, build_id, bytes", "INSERT OR REPLACE"
};
static const struct store_table store_t_code_line = {
	"code_line", "addr, file, line, text", NULL
};

static void
store_core_cause(struct store *st, char **cause, const char *what)
{
	if (cause != NULL)
		*cause = xasprintf("%s: %s: %s", store_path(st), what,
		    store_error(st));
}

/* The session with this sha256, 0 if none, -1 on error. */
int64_t
store_session_find(struct store *st, const char *sha256)
{
	sqlite3_stmt	*s;
	int64_t		 id = 0;
	int		 rc;

	if (sqlite3_prepare_v2(store_db(st), "SELECT id FROM session WHERE"
	    " sha256 = ?1", -1, &s, NULL) != SQLITE_OK)
		return (-1);
	sqlite3_bind_text(s, 1, sha256, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW)
		id = sqlite3_column_int64(s, 0);
	else if (rc != SQLITE_DONE)
		id = -1;
	sqlite3_finalize(s);
	return (id);
}

/*
 * Add a session of kind, which must be one of the kinds the store was
 * opened with: session.kind has no CHECK of its own (core migration 4).
 */
int64_t
store_session_add(struct store *st, const char *kind, const char *source,
    const char *sha256, int64_t bytes, const char *program,
    const char *captured, char **cause)
{
	sqlite3_stmt	*s;
	int		 rc;

	if (store_kind_find(st, kind) == NULL) {
		*cause = xasprintf("%s: adding session: unknown kind '%s'",
		    store_path(st), kind);
		return (-1);
	}
	if (sqlite3_prepare_v2(store_db(st), "INSERT INTO session(kind,"
	    " source, sha256, bytes, program, captured) VALUES (?1, ?2, ?3,"
	    " ?4, ?5, ?6)", -1, &s, NULL) != SQLITE_OK) {
		store_core_cause(st, cause, "adding session");
		return (-1);
	}
	sqlite3_bind_text(s, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 4, bytes);
	sqlite3_bind_text(s, 5, program, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 6, captured, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_core_cause(st, cause, "adding session");
		return (-1);
	}
	return (sqlite3_last_insert_rowid(store_db(st)));
}

/* Run each statement of v with ?1 bound to id; -1 at the first error. */
static int
store_run_each(sqlite3 *db, const char *const *v, size_t n, int64_t id)
{
	sqlite3_stmt	*s;
	size_t		 i;
	int		 rc;

	for (i = 0; i < n; i++) {
		if (sqlite3_prepare_v2(db, v[i], -1, &s, NULL) != SQLITE_OK)
			return (-1);
		sqlite3_bind_int64(s, 1, id);
		rc = sqlite3_step(s);
		sqlite3_finalize(s);
		if (rc != SQLITE_DONE)
			return (-1);
	}
	return (0);
}

/*
 * Make session id, of kind kind, new again for a file read anew (its
 * symbols follow other options): its rows go, by the core's and the
 * kind's purge statements, and the session row gets the file's name and
 * the time of this ingest.  Inside an ingest's transaction, so a failed
 * reading leaves the old rows.
 */
int
store_session_reread(struct store *st, const char *kind, int64_t id,
    const char *source, int64_t bytes, const char *program,
    const char *captured, char **cause)
{
	const struct store_kind	*k;
	sqlite3_stmt		*s;
	sqlite3			*db = store_db(st);
	int			 rc;

	if ((k = store_kind_find(st, kind)) == NULL) {
		*cause = xasprintf("%s: unknown kind '%s'", store_path(st),
		    kind);
		return (-1);
	}
	if (store_run_each(db, store_core_purge, sizeof store_core_purge /
	    sizeof store_core_purge[0], id) != 0 || store_run_each(db,
	    k->schema->purge, k->schema->npurge, id) != 0) {
		store_core_cause(st, cause, "clearing the session");
		return (-1);
	}
	if (sqlite3_prepare_v2(db, "UPDATE session SET source = ?2,"
	    " bytes = ?3, program = ?4, captured = ?5, ingested ="
	    " strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1", -1, &s,
	    NULL) != SQLITE_OK) {
		store_core_cause(st, cause, "updating the session");
		return (-1);
	}
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, source, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, bytes);
	sqlite3_bind_text(s, 4, program, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, captured, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_core_cause(st, cause, "updating the session");
		return (-1);
	}
	return (0);
}

/*
 * Set what a reader learnt of the session from inside the file (the
 * program's name, when it was captured); NULL leaves a field alone.
 */
int
store_session_set(struct store *st, int64_t id, const char *program,
    const char *captured)
{
	sqlite3_stmt	*s;
	int		 rc;

	if (program == NULL && captured == NULL)
		return (0);
	if (sqlite3_prepare_v2(store_db(st), "UPDATE session SET"
	    " program = coalesce(?2, program),"
	    " captured = coalesce(?3, captured) WHERE id = ?1", -1, &s,
	    NULL) != SQLITE_OK)
		return (-1);
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, program, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, captured, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return (rc == SQLITE_DONE ? 0 : -1);
}

/*
 * Delete a session and its rows.  Its kind's purge and the core's delete
 * the rows with foreign keys off: the ON DELETE CASCADE would look for
 * children in every table, and a table with no index on session (the
 * stays of every overlay session) would be scanned whole.
 */
int
store_session_delete(struct store *st, int64_t id, char **cause)
{
	const struct store_kind	*k;
	sqlite3			*db = store_db(st);
	struct store_session	 ss;
	int			 changed, rc;

	if (store_ingesting(st) || !sqlite3_get_autocommit(db)) {
		*cause = xasprintf("%s: cannot delete a session inside %s",
		    store_path(st), store_ingesting(st) ? "an ingest" :
		    "a transaction");
		return (-1);
	}
	if (store_exec(st, "PRAGMA foreign_keys = OFF; BEGIN IMMEDIATE",
	    cause) != 0) {
		store_exec(st, "PRAGMA foreign_keys = ON", NULL);
		return (-1);
	}
	if ((rc = store_session_get(st, id, &ss)) != 0) {
		if (rc < 0)
			store_core_cause(st, cause, "reading session");
		else
			*cause = xasprintf("no session %lld", (long long)id);
		goto fail;
	}
	k = store_kind_find(st, ss.kind);
	store_session_free(&ss);
	if (store_run_each(db, store_core_purge, sizeof store_core_purge /
	    sizeof store_core_purge[0], id) != 0 ||
	    (k != NULL && store_run_each(db, k->schema->purge,
	    k->schema->npurge, id) != 0) ||
	    store_run_each(db, (const char *const []){ "DELETE FROM session"
	    " WHERE id = ?1" }, 1, id) != 0) {
		store_core_cause(st, cause, "deleting session");
		goto fail;
	}
	changed = sqlite3_changes(db);
	if (store_exec(st, "COMMIT", cause) != 0)
		goto fail;
	store_exec(st, "PRAGMA foreign_keys = ON", NULL);
	if (changed == 0) {
		*cause = xasprintf("no session %lld", (long long)id);
		return (-1);
	}
	return (0);
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	store_exec(st, "PRAGMA foreign_keys = ON", NULL);
	return (-1);
}

/* The kind's summary SQL as an UPDATE of session ?1's summary column. */
static char *
store_summary_update(const struct store_kind *k, const char *where)
{
	return (xasprintf("UPDATE session AS s SET summary = coalesce((%s),"
	    " '') WHERE s.kind = '%s' AND %s", k->schema->summary, k->name,
	    where));
}

/*
 * Make the one-line summary of session id, of kind kind: at the end of
 * its ingest, which knows the kind (no read of the session to learn it).
 */
int
store_session_summarize(struct store *st, int64_t id, const char *kind)
{
	const struct store_kind	*k;
	char			*sql;
	int			 rc;

	if ((k = store_kind_find(st, kind)) == NULL)
		return (-1);
	if (k->schema->summary == NULL)
		return (0);
	sql = store_summary_update(k, "s.id = ?1");
	rc = store_run_each(store_db(st), (const char *const []){ sql }, 1,
	    id);
	free(sql);
	return (rc);
}

/* Summaries of the sessions that have none (stored before there were). */
int
store_summaries(struct store *st, char **cause)
{
	const struct store_kind	*k;
	char			*sql;
	int			 rc;

	for (k = store_kinds(st); k->name != NULL; k++) {
		if (k->schema->summary == NULL)
			continue;
		sql = store_summary_update(k, "s.summary IS NULL");
		rc = store_exec(st, sql, cause);
		free(sql);
		if (rc != 0)
			return (-1);
	}
	return (0);
}

int
store_warning_add(struct store *st, int64_t session, int64_t offset,
    const char *message)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_warning, session)) == NULL)
		return (-1);
	if (offset >= 0)
		store_put_int(r, offset);
	else
		store_put_null(r);
	store_put_text(r, message);
	return (store_row_end(st, r));
}

int
store_symbol_add(struct store *st, int64_t session, const char *module,
    const char *name, uint64_t addr, uint64_t size)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_symbol, session)) == NULL)
		return (-1);
	store_put_text(r, module);
	store_put_text(r, name);
	store_put_int(r, (int64_t)addr);
	store_put_int(r, (int64_t)size);
	return (store_row_end(st, r));
}

int
store_counter_add(struct store *st, int64_t session, const char *name,
    int64_t value)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_counter, session)) == NULL)
		return (-1);
	store_put_text(r, name);
	store_put_int(r, value);
	return (store_row_end(st, r));
}

int
store_bucket_add(struct store *st, int64_t session, uint32_t idx,
    uint64_t lo, uint64_t hi, uint64_t hits)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_bucket, session)) == NULL)
		return (-1);
	store_put_int(r, idx);
	store_put_int(r, (int64_t)lo);
	store_put_int(r, (int64_t)hi);
	store_put_int(r, (int64_t)hits);
	return (store_row_end(st, r));
}

#define STORE_SYMBOL_COLUMNS(X) \
	X(SYM_MODULE, "module") X(SYM_NAME, "name") X(SYM_ADDR, "addr") \
	X(SYM_SIZE, "size")
STORE_COLUMNS(store_symbol_columns, STORE_SYMBOL_COLUMNS);

/* A session's symbols, by address (ties in map order). */
struct store_cursor *
store_symbols(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_symbol_columns,
	    "FROM symbol WHERE session = ?1 ORDER BY addr, rowid", session));
}

int
store_symbol_next(struct store_cursor *c, struct store_symbol *y)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	y->module = store_cursor_text(c, SYM_MODULE);
	y->name = store_cursor_text(c, SYM_NAME);
	y->addr = (uint64_t)store_cursor_int(c, SYM_ADDR);
	y->size = (uint64_t)store_cursor_int(c, SYM_SIZE);
	return (1);
}

#define STORE_BUCKET_COLUMNS(X) \
	X(BUCKET_IDX, "idx") X(BUCKET_LO, "lo") X(BUCKET_HI, "hi") \
	X(BUCKET_HITS, "hits")
STORE_COLUMNS(store_bucket_columns, STORE_BUCKET_COLUMNS);

/* A session's buckets, by index. */
struct store_cursor *
store_buckets(struct store *st, int64_t session)
{
	return (store_bucket_cursor(st, "FROM bucket WHERE session = ?1"
	    " ORDER BY idx", session));
}

/* Buckets of the query tail (FROM bucket ...), read by store_bucket_next. */
struct store_cursor *
store_bucket_cursor(struct store *st, const char *tail, int64_t session)
{
	return (store_cursor_select(st, store_bucket_columns, tail, session));
}

int
store_bucket_next(struct store_cursor *c, struct store_bucket *b)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	b->idx = (uint32_t)store_cursor_int(c, BUCKET_IDX);
	b->lo = (uint64_t)store_cursor_int(c, BUCKET_LO);
	b->hi = (uint64_t)store_cursor_int(c, BUCKET_HI);
	b->hits = (uint64_t)store_cursor_int(c, BUCKET_HITS);
	return (1);
}

static char *
store_column_dup(sqlite3_stmt *s, int col)
{
	const unsigned char	*t = sqlite3_column_text(s, col);

	return (t != NULL ? strdup((const char *)t) : NULL);
}

#define STORE_SESSION_COLUMNS(X) \
	X(SESSION_ID, "id") X(SESSION_KIND, "kind") \
	X(SESSION_SOURCE, "source") X(SESSION_SHA256, "sha256") \
	X(SESSION_BYTES, "bytes") X(SESSION_PROGRAM, "program") \
	X(SESSION_CAPTURED, "captured") X(SESSION_INGESTED, "ingested") \
	X(SESSION_WARNINGS, "(SELECT count(*) FROM warning w" \
	    " WHERE w.session = s.id)") \
	X(SESSION_SUMMARY, "coalesce(summary, '')")
STORE_COLUMNS(store_session_columns, STORE_SESSION_COLUMNS);

/* The session columns, the summary made at ingest among them. */
static char *
store_session_select(const char *where)
{
	char	*tail, *sql;

	tail = xasprintf("FROM session s %s", where);
	sql = store_select_sql(store_session_columns, tail);
	free(tail);
	return (sql);
}

static void
store_session_fill(sqlite3_stmt *s, struct store_session *ss)
{
	const unsigned char	*t;

	memset(ss, 0, sizeof *ss);
	ss->id = sqlite3_column_int64(s, SESSION_ID);
	if ((t = sqlite3_column_text(s, SESSION_KIND)) != NULL)
		snprintf(ss->kind, sizeof ss->kind, "%s", t);
	ss->source = store_column_dup(s, SESSION_SOURCE);
	if ((t = sqlite3_column_text(s, SESSION_SHA256)) != NULL)
		snprintf(ss->sha256, sizeof ss->sha256, "%s", t);
	ss->bytes = sqlite3_column_int64(s, SESSION_BYTES);
	ss->program = store_column_dup(s, SESSION_PROGRAM);
	ss->captured = store_column_dup(s, SESSION_CAPTURED);
	ss->ingested = store_column_dup(s, SESSION_INGESTED);
	ss->warnings = sqlite3_column_int(s, SESSION_WARNINGS);
	ss->summary = store_column_dup(s, SESSION_SUMMARY);
}

/*
 * Fill ss with session id: 0, or 1 if there is no such
 * session, or -1 when the store cannot say (store_error: a corrupt file
 * is not a missing session).
 */
int
store_session_get(struct store *st, int64_t id, struct store_session *ss)
{
	sqlite3_stmt	*s;
	char		*sql;
	int		 rc;

	sql = store_session_select("WHERE id = ?1");
	if (sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL) != SQLITE_OK) {
		free(sql);
		return (-1);
	}
	free(sql);
	sqlite3_bind_int64(s, 1, id);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		store_session_fill(s, ss);
		rc = 0;
	} else
		rc = rc == SQLITE_DONE ? 1 : -1;
	sqlite3_finalize(s);
	return (rc);
}

/* Every session, oldest first. */
int
store_sessions(struct store *st, struct store_session **out, size_t *n)
{
	sqlite3_stmt		*s;
	struct store_session	*v = NULL;
	size_t			 len = 0, cap = 0;
	char			*sql;
	int			 rc;

	*out = NULL;
	*n = 0;
	sql = store_session_select("ORDER BY id");
	if (sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL) != SQLITE_OK) {
		free(sql);
		return (-1);
	}
	free(sql);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (len == cap) {
			cap = cap != 0 ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof *v);
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

/* The text of the first column of every row of sql (?1 the session). */
static int
store_strings(struct store *st, const char *sql, int64_t session,
    char ***out, size_t *n)
{
	struct store_cursor	*c;
	const char		*t;
	char			**v = NULL;
	size_t			 len = 0;
	int			 rc;

	*out = NULL;
	*n = 0;
	if ((c = store_cursor_open(st, sql, session)) == NULL)
		return (-1);
	while ((rc = store_cursor_step(c)) == 1) {
		if ((t = store_cursor_text(c, 0)) == NULL)
			continue;
		v = xreallocarray(v, len + 1, sizeof *v);
		v[len++] = xstrdup(t);
	}
	store_cursor_close(c);
	if (rc != 0) {
		while (len > 0)
			free(v[--len]);
		free(v);
		return (-1);
	}
	*out = v;
	*n = len;
	return (0);
}

/* The session's warnings as "offset N: message" strings. */
int
store_warnings(struct store *st, int64_t session, char ***out, size_t *n)
{
	return (store_strings(st, "SELECT CASE WHEN offset IS NULL THEN"
	    " message ELSE printf('offset %d: %s', offset, message) END FROM"
	    " warning WHERE session = ?1 ORDER BY rowid", session, out, n));
}

/*
 * The names a query can use, for :sql's Tab: every table and view of the
 * store and every column of those, sorted without regard to case, each
 * name once.  SQLite's own tables are left out.
 */
int
store_names(struct store *st, char ***out, size_t *n)
{
	return (store_strings(st, "WITH t(name) AS (SELECT name FROM"
	    " sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE"
	    " 'sqlite\\_%' ESCAPE '\\') SELECT name FROM t UNION SELECT"
	    " p.name FROM t, pragma_table_info(t.name) p ORDER BY 1 COLLATE"
	    " NOCASE", 0, out, n));
}

/* The bytes of a function at addr, read from module (build_id, or NULL). */
int
store_code_add(struct store *st, int64_t session, uint64_t addr,
    const char *module, const char *build_id, const void *bytes, size_t len)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_code, session)) == NULL)
		return (-1);
	store_put_int(r, (int64_t)addr);
	store_put_text(r, module);
	if (build_id != NULL)
		store_put_text(r, build_id);
	else
		store_put_null(r);
	store_put_blob(r, bytes, len);
	return (store_row_end(st, r));
}

/* The source line of addr (text NULL: the source file was not read). */
int
store_code_line_add(struct store *st, int64_t session, uint64_t addr,
    const char *file, int64_t line, const char *text)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_code_line, session)) == NULL)
		return (-1);
	store_put_int(r, (int64_t)addr);
	store_put_text(r, file);
	store_put_int(r, line);
	if (text != NULL)
		store_put_text(r, text);
	else
		store_put_null(r);
	return (store_row_end(st, r));
}

#define STORE_CODE_COLUMNS(X) \
	X(CODE_ADDR, "addr") X(CODE_MODULE, "module") \
	X(CODE_BUILD_ID, "build_id") X(CODE_BYTES, "bytes")
STORE_COLUMNS(store_code_columns, STORE_CODE_COLUMNS);

/*
 * Forget the kept code of a session that overlaps [lo, hi), and its
 * lines there: before [lo, hi) is kept again as one run.
 */
int
store_code_forget(struct store *st, int64_t session, uint64_t lo,
    uint64_t hi)
{
	static const char *const sql[] = {
		"DELETE FROM code WHERE session = ?1 AND addr < ?3 AND"
		" addr + length(bytes) > ?2",
		"DELETE FROM code_line WHERE session = ?1 AND addr >= ?2 AND"
		" addr < ?3"
	};
	struct store_cursor	*c;
	size_t			 i;
	int			 rc = 0;

	for (i = 0; i < sizeof sql / sizeof sql[0] && rc == 0; i++) {
		if ((c = store_cursor_open(st, sql[i], session)) == NULL)
			return (-1);
		store_cursor_bind(c, 2, (int64_t)lo);
		store_cursor_bind(c, 3, (int64_t)hi);
		rc = store_cursor_step(c) < 0 ? -1 : 0;
		store_cursor_close(c);
	}
	return (rc);
}

/*
 * The kept code of a session that overlaps [lo, hi), by address, for
 * store_code_next.
 */
struct store_cursor *
store_codes(struct store *st, int64_t session, uint64_t lo, uint64_t hi)
{
	struct store_cursor	*c;

	c = store_cursor_select(st, store_code_columns, "FROM code WHERE"
	    " session = ?1 AND addr < ?3 AND addr + length(bytes) > ?2"
	    " ORDER BY addr", session);
	store_cursor_bind(c, 2, (int64_t)lo);
	store_cursor_bind(c, 3, (int64_t)hi);
	return (c);
}

/* The next run of code; its texts and bytes are valid until it moves. */
int
store_code_next(struct store_cursor *c, struct store_code *e)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	e->addr = (uint64_t)store_cursor_int(c, CODE_ADDR);
	e->module = store_cursor_text(c, CODE_MODULE);
	e->build_id = store_cursor_text(c, CODE_BUILD_ID);
	e->bytes = store_cursor_blob(c, CODE_BYTES, &e->len);
	return (1);
}

#define STORE_CODE_LINE_COLUMNS(X) \
	X(LINE_ADDR, "addr") X(LINE_FILE, "file") X(LINE_LINE, "line") \
	X(LINE_TEXT, "text")
STORE_COLUMNS(store_code_line_columns, STORE_CODE_LINE_COLUMNS);

/* The source lines at addresses [lo, hi), by address, for _next. */
struct store_cursor *
store_code_lines(struct store *st, int64_t session, uint64_t lo, uint64_t hi)
{
	struct store_cursor	*c;

	c = store_cursor_select(st, store_code_line_columns, "FROM code_line"
	    " WHERE session = ?1 AND addr >= ?2 AND addr < ?3 ORDER BY addr,"
	    " rowid", session);
	store_cursor_bind(c, 2, (int64_t)lo);
	store_cursor_bind(c, 3, (int64_t)hi);
	return (c);
}

int
store_code_line_next(struct store_cursor *c, struct store_code_line *e)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	e->addr = (uint64_t)store_cursor_int(c, LINE_ADDR);
	e->file = store_cursor_text(c, LINE_FILE);
	e->line = store_cursor_int(c, LINE_LINE);
	e->text = store_cursor_text(c, LINE_TEXT);
	return (1);
}
