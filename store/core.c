/*
 * The tables every kind shares: session, warning, symbol, counter and
 * bucket, their migrations (PRAGMA user_version) and statements.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "xmalloc.h"
#include "kind.h"
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

int64_t
store_session_add(struct store *st, const char *kind, const char *source,
    const char *sha256, int64_t bytes, const char *program,
    const char *captured, char **cause)
{
	sqlite3_stmt	*s;
	int		 rc;

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

/*
 * Make session id new again for a file read anew (its symbols follow
 * other options): every row of it goes, in every table that has a
 * session column (whatever kinds there are), and the session row gets
 * the file's name and the time of this ingest.  Inside an ingest's
 * transaction, so a failed reading leaves the old rows.
 */
int
store_session_reread(struct store *st, int64_t id, const char *source,
    int64_t bytes, const char *program, const char *captured, char **cause)
{
	sqlite3_stmt	*s, *d;
	sqlite3		*db = store_db(st);
	char		*sql;
	int		 rc;

	if (sqlite3_prepare_v2(db, "SELECT m.name FROM sqlite_schema m,"
	    " pragma_table_info(m.name) c WHERE m.type = 'table' AND"
	    " c.name = 'session' AND m.name <> 'session'", -1, &s, NULL) !=
	    SQLITE_OK) {
		store_core_cause(st, cause, "reading the tables");
		return (-1);
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		sql = sqlite3_mprintf("DELETE FROM \"%w\" WHERE session = ?1",
		    (const char *)sqlite3_column_text(s, 0));
		if (sql == NULL || sqlite3_prepare_v2(db, sql, -1, &d, NULL) !=
		    SQLITE_OK) {
			sqlite3_free(sql);
			break;
		}
		sqlite3_free(sql);
		sqlite3_bind_int64(d, 1, id);
		rc = sqlite3_step(d);
		sqlite3_finalize(d);
		if (rc != SQLITE_DONE)
			break;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
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

int
store_session_delete(struct store *st, int64_t id, char **cause)
{
	sqlite3_stmt	*s;
	sqlite3		*db = store_db(st);
	int		 rc;

	/* The cascade needs foreign keys, which an ingest turns off. */
	if (store_ingesting(st)) {
		*cause = xasprintf("%s: cannot delete a session inside an"
		    " ingest", store_path(st));
		return (-1);
	}
	if (sqlite3_prepare_v2(db, "DELETE FROM session WHERE id = ?1", -1,
	    &s, NULL) != SQLITE_OK) {
		store_core_cause(st, cause, "deleting session");
		return (-1);
	}
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_core_cause(st, cause, "deleting session");
		return (-1);
	}
	if (sqlite3_changes(db) == 0) {
		*cause = xasprintf("no session %lld", (long long)id);
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

/* A session's symbols, by address (ties in map order). */
struct store_cursor *
store_symbols(struct store *st, int64_t session)
{
	return (store_cursor_open(st, "SELECT module, name, addr, size FROM"
	    " symbol WHERE session = ?1 ORDER BY addr, rowid", session));
}

int
store_symbol_next(struct store_cursor *c, struct store_symbol *y)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	y->module = store_cursor_text(c, 0);
	y->name = store_cursor_text(c, 1);
	y->addr = (uint64_t)store_cursor_int(c, 2);
	y->size = (uint64_t)store_cursor_int(c, 3);
	return (1);
}

/* A session's buckets, by index. */
struct store_cursor *
store_buckets(struct store *st, int64_t session)
{
	return (store_cursor_open(st, "SELECT idx, lo, hi, hits FROM bucket"
	    " WHERE session = ?1 ORDER BY idx", session));
}

int
store_bucket_next(struct store_cursor *c, struct store_bucket *b)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	b->idx = (uint32_t)store_cursor_int(c, 0);
	b->lo = (uint64_t)store_cursor_int(c, 1);
	b->hi = (uint64_t)store_cursor_int(c, 2);
	b->hits = (uint64_t)store_cursor_int(c, 3);
	return (1);
}

static char *
store_column_dup(sqlite3_stmt *s, int col)
{
	const unsigned char	*t = sqlite3_column_text(s, col);

	return (t != NULL ? strdup((const char *)t) : NULL);
}

/*
 * The session columns and, for the list of sessions, each kind's summary,
 * chosen by kind: the summaries come from the kinds' schemas, so a new
 * kind brings its own.  A summary may count a session's rows, so a read
 * of one session (opening it) leaves it out.
 */
static char *
store_session_select(const char *where, int summary)
{
	const struct store_schema	*sc;
	char				*sql, *t;
	size_t				 i;

	sql = xstrdup("SELECT id, kind, source, sha256, bytes, program,"
	    " captured, ingested, (SELECT count(*) FROM warning w"
	    " WHERE w.session = s.id), ");
	if (!summary) {
		t = xasprintf("%s'' FROM session s %s", sql, where);
		free(sql);
		return (t);
	}
	t = xasprintf("%sCASE kind", sql);
	free(sql);
	sql = t;
	for (i = 0; i < kind_count; i++) {
		sc = kind_table[i].schema;
		if (sc->summary == NULL)
			continue;
		t = xasprintf("%s WHEN '%s' THEN (%s)", sql,
		    kind_table[i].name, sc->summary);
		free(sql);
		sql = t;
	}
	t = xasprintf("%s ELSE '' END FROM session s %s", sql, where);
	free(sql);
	return (t);
}

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

/*
 * Fill ss with session id (no summary): 0, or 1 if there is no such
 * session, or -1 when the store cannot say (store_error: a corrupt file
 * is not a missing session).
 */
int
store_session_get(struct store *st, int64_t id, struct store_session *ss)
{
	sqlite3_stmt	*s;
	char		*sql;
	int		 rc;

	sql = store_session_select("WHERE id = ?1", 0);
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
	sql = store_session_select("ORDER BY id", 1);
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

/* The session's warnings as "offset N: message" strings. */
int
store_warnings(struct store *st, int64_t session, char ***out, size_t *n)
{
	struct store_cursor	*c;
	const char		*line;
	char			**v = NULL;
	size_t			 len = 0;
	int			 rc;

	*out = NULL;
	*n = 0;
	if ((c = store_cursor_open(st, "SELECT CASE WHEN offset IS NULL"
	    " THEN message ELSE printf('offset %d: %s', offset, message) END"
	    " FROM warning WHERE session = ?1 ORDER BY rowid", session)) ==
	    NULL)
		return (-1);
	while ((rc = store_cursor_step(c)) == 1) {
		if ((line = store_cursor_text(c, 0)) == NULL)
			continue;
		v = xreallocarray(v, len + 1, sizeof *v);
		v[len++] = xstrdup(line);
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
