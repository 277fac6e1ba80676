/*
 * Statements a user typed (profview sql, the browser's :sql): the one
 * place besides the engine that prepares SQL text it did not write, so
 * that callers see typed values and never the SQLite API.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "xmalloc.h"
#include "store/store.h"

/*
 * A running statement asks its stop function every STORE_QUERY_OPS
 * virtual machine steps, some tens of microseconds: an aggregate that
 * never returns a row stops as soon as its user asks, not at a row.
 */
#define STORE_QUERY_OPS		1000

struct store_query {
	struct store	*st;
	sqlite3_stmt	*s;
	int		(*stop)(void *);
	void		*arg;
	int		 stopped;
};

/*
 * An ATTACH may create a file; unless the user said the store may be
 * written (store_query_writes), only files that exist are attached.  A
 * name that is not a literal cannot be checked, so it is refused.
 */
static int
query_authorize(void *arg, int action, const char *a1, const char *a2,
    const char *db, const char *trigger)
{
	struct stat	 sb;
	int		*denied = arg;

	(void)a2;
	(void)db;
	(void)trigger;
	if (action != SQLITE_ATTACH)
		return (SQLITE_OK);
	if (a1 != NULL && (*a1 == '\0' || strcmp(a1, ":memory:") == 0 ||
	    stat(a1, &sb) == 0))
		return (SQLITE_OK);
	*denied = 1;
	return (SQLITE_DENY);
}

/*
 * Prepare the first statement of *sql and move *sql past it.  NULL with
 * *cause NULL when nothing but blanks and comments was left; NULL with
 * *cause set on an error.
 */
struct store_query *
store_query_open(struct store *st, const char **sql, char **cause)
{
	struct store_query	*q;
	sqlite3			*db = store_db(st);
	sqlite3_stmt		*s = NULL;
	const char		*tail;
	int			 rc, denied = 0;

	*cause = NULL;
	if (!store_query_writable(st))
		sqlite3_set_authorizer(db, query_authorize, &denied);
	while (**sql != '\0') {
		rc = sqlite3_prepare_v2(db, *sql, -1, &s, &tail);
		if (rc != SQLITE_OK) {
			*cause = denied ? xstrdup("ATTACH makes the file it"
			    " names if there is none: only with --writable") :
			    xstrdup(sqlite3_errmsg(db));
			break;
		}
		*sql = tail;
		if (s != NULL)
			break;
	}
	sqlite3_set_authorizer(db, NULL, NULL);
	if (s == NULL)
		return (NULL);
	q = xcalloc(1, sizeof *q);
	q->st = st;
	q->s = s;
	return (q);
}

/*
 * While the statement runs, ask stop(arg) now and then (STORE_QUERY_OPS);
 * when it says so the statement ends, and store_query_step fails with
 * store_query_error "interrupted".
 */
void
store_query_watch(struct store_query *q, int (*stop)(void *), void *arg)
{
	q->stop = stop;
	q->arg = arg;
}

static int
query_progress(void *arg)
{
	struct store_query	*q = arg;

	if (!q->stopped && q->stop(q->arg))
		q->stopped = 1;
	return (q->stopped);
}

/* Whether the statement was stopped by its watcher. */
int
store_query_stopped(struct store_query *q)
{
	return (q->stopped);
}

/* Whether the statement leaves the store as it is. */
int
store_query_readonly(struct store_query *q)
{
	return (sqlite3_stmt_readonly(q->s));
}

int
store_query_ncols(struct store_query *q)
{
	return (sqlite3_column_count(q->s));
}

const char *
store_query_name(struct store_query *q, int col)
{
	const char	*name = sqlite3_column_name(q->s, col);

	return (name != NULL ? name : "?");
}

/*
 * The next row into v (ncols values, pointing into the statement until the
 * next step): 1 a row, 0 done, -1 an error (store_query_error).
 */
int
store_query_step(struct store_query *q, struct store_value *v)
{
	int	rc, i, n;

	if (q->stop != NULL)
		sqlite3_progress_handler(sqlite3_db_handle(q->s),
		    STORE_QUERY_OPS, query_progress, q);
	rc = sqlite3_step(q->s);
	if (q->stop != NULL)
		sqlite3_progress_handler(sqlite3_db_handle(q->s), 0, NULL,
		    NULL);
	if (rc == SQLITE_DONE)
		return (0);
	if (rc != SQLITE_ROW)
		return (-1);
	n = sqlite3_column_count(q->s);
	for (i = 0; i < n; i++) {
		memset(&v[i], 0, sizeof v[i]);
		switch (sqlite3_column_type(q->s, i)) {
		case SQLITE_INTEGER:
			v[i].type = STORE_INT;
			v[i].i = sqlite3_column_int64(q->s, i);
			break;
		case SQLITE_FLOAT:
			v[i].type = STORE_REAL;
			v[i].r = sqlite3_column_double(q->s, i);
			break;
		case SQLITE_TEXT:
			v[i].s = (const char *)sqlite3_column_text(q->s, i);
			v[i].len = (size_t)sqlite3_column_bytes(q->s, i);
			/* NULL here is SQLite out of memory. */
			v[i].type = v[i].s != NULL ? STORE_TEXT : STORE_NULL;
			break;
		case SQLITE_BLOB:
			/*
			 * The size first: a zeroblob() is only a size until
			 * its bytes are asked for.  A huge blob's are not.
			 */
			v[i].type = STORE_BLOB;
			v[i].len = (size_t)sqlite3_column_bytes(q->s, i);
			if (v[i].len > STORE_BLOB_MAX)
				break;
			v[i].s = sqlite3_column_blob(q->s, i);
			if (v[i].s == NULL)
				v[i].s = "";
			break;
		default:
			v[i].type = STORE_NULL;
			break;
		}
	}
	return (1);
}

const char *
store_query_error(struct store_query *q)
{
	return (sqlite3_errmsg(sqlite3_db_handle(q->s)));
}

/* Rows the finished statement inserted, changed or deleted. */
int64_t
store_query_changes(struct store_query *q)
{
	return (sqlite3_changes64(sqlite3_db_handle(q->s)));
}

void
store_query_close(struct store_query *q)
{
	if (q == NULL)
		return;
	sqlite3_finalize(q->s);
	free(q);
}
