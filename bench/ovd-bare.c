/*
 * The peer for bench/ovd-ingest: a bare prepared-insert loop writing the
 * rows an OVD ingest wrote (read beforehand from SRC, not timed) into a
 * fresh store with the same schema, in one transaction.  With ROWS above
 * 1, each INSERT carries that many rows (the rest one by one): SQLite's
 * ceiling for these rows when statement overhead is shared, as profview's
 * store shares it.
 *
 * usage: ovd-bare SRC.db SESSION DST.db [ROWS]   prints "rows seconds"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "xmalloc.h"
#include "kind.h"
#include "store/store.h"

struct row {
	int64_t	v[7];
};

/* "INSERT INTO table(cols) VALUES (?, ...), ..." with rows rows. */
static sqlite3_stmt *
prepare(sqlite3 *db, const char *head, int ncol, int rows)
{
	sqlite3_stmt	*s;
	char		*sql, *p;
	int		 r, c;

	p = sql = xmalloc(strlen(head) + (size_t)rows * (3 * ncol + 4) + 1);
	p = stpcpy(p, head);
	for (r = 0; r < rows; r++) {
		p = stpcpy(p, r != 0 ? ", (" : " (");
		for (c = 0; c < ncol; c++)
			p = stpcpy(p, c != 0 ? ", ?" : "?");
		*p++ = ')';
	}
	*p = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fatal("%s", sqlite3_errmsg(db));
	free(sql);
	return (s);
}

static void
step(sqlite3 *db, sqlite3_stmt *s)
{
	if (sqlite3_step(s) != SQLITE_DONE)
		fatal("%s", sqlite3_errmsg(db));
	sqlite3_reset(s);
}

static void
bind_event(sqlite3_stmt *s, int at, int64_t id, const struct row *e)
{
	int	k;

	sqlite3_bind_int64(s, at, id);
	sqlite3_bind_int64(s, at + 1, e->v[0]);
	sqlite3_bind_int64(s, at + 2, e->v[1]);
	sqlite3_bind_text(s, at + 3, e->v[2] ? "reprieve" : "load", -1,
	    SQLITE_STATIC);
	for (k = 3; k < 7; k++)
		sqlite3_bind_int64(s, at + k + 1, e->v[k]);
}

static void
bind_loaded(sqlite3_stmt *s, int at, int64_t id, const struct row *l)
{
	int	k;

	sqlite3_bind_int64(s, at, id);
	for (k = 0; k < 4; k++)
		sqlite3_bind_int64(s, at + k + 1, l->v[k]);
}

#define EVENT_INSERT	"INSERT INTO ovr_event(session, seq, ticks, kind," \
	" ovr_seg, ovr_ofs, heap_org, heap_end) VALUES"
#define LOADED_INSERT	"INSERT INTO ovr_loaded(session, stat_seg," \
	" load_seg, first_seq, last_seq) VALUES"

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static struct row *
load(sqlite3 *db, const char *sql, int64_t session, int ncol, size_t *n)
{
	sqlite3_stmt	*s;
	struct row	*v = NULL;
	size_t		 cap = 0;
	int		 i;

	*n = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fatal("%s", sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, session);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap != 0 ? cap * 2 : 4096;
			v = xreallocarray(v, cap, sizeof *v);
		}
		for (i = 0; i < ncol; i++)
			v[*n].v[i] = sqlite3_column_int64(s, i);
		(*n)++;
	}
	sqlite3_finalize(s);
	return (v);
}

int
main(int argc, char **argv)
{
	struct store	*src, *dst;
	sqlite3		*db;
	sqlite3_stmt	*ev, *ld, *evn = NULL, *ldn = NULL;
	struct row	*e, *l;
	size_t		 ne, nl, i;
	char		*cause = NULL;
	int64_t		 session, id;
	double		 t0, t1;
	int		 rows = 1, r;

	if (argc != 4 && argc != 5)
		fatal("usage: ovd-bare SRC.db SESSION DST.db [ROWS]");
	session = strtoll(argv[2], NULL, 10);
	if (argc == 5 && ((rows = atoi(argv[4])) < 1 || rows > 1000))
		fatal("ROWS: 1 to 1000");
	if ((src = store_open(argv[1], STORE_READONLY, kind_store(),
	    &cause)) == NULL ||
	    (dst = store_open(argv[3], 0, kind_store(), &cause)) == NULL)
		fatal("%s", cause);
	e = load(store_db(src), "SELECT seq, ticks, kind = 'reprieve',"
	    " ovr_seg, ovr_ofs, heap_org, heap_end FROM ovr_event WHERE"
	    " session = ?1 ORDER BY seq", session, 7, &ne);
	l = load(store_db(src), "SELECT stat_seg, load_seg, first_seq,"
	    " last_seq FROM ovr_loaded WHERE session = ?1 ORDER BY rowid",
	    session, 4, &nl);
	db = store_db(dst);

	t0 = now();
	if (store_begin(dst, &cause) != 0)
		fatal("%s", cause);
	id = store_session_add(dst, "ovd", "bare", "bare", 0, NULL, NULL,
	    &cause);
	if (id < 0)
		fatal("%s", cause);
	ev = prepare(db, EVENT_INSERT, 8, 1);
	ld = prepare(db, LOADED_INSERT, 5, 1);
	if (rows > 1) {
		evn = prepare(db, EVENT_INSERT, 8, rows);
		ldn = prepare(db, LOADED_INSERT, 5, rows);
	}
	for (i = 0; rows > 1 && i + (size_t)rows <= ne; i += (size_t)rows) {
		for (r = 0; r < rows; r++)
			bind_event(evn, 1 + 8 * r, id, &e[i + (size_t)r]);
		step(db, evn);
	}
	for (; i < ne; i++) {
		bind_event(ev, 1, id, &e[i]);
		step(db, ev);
	}
	for (i = 0; rows > 1 && i + (size_t)rows <= nl; i += (size_t)rows) {
		for (r = 0; r < rows; r++)
			bind_loaded(ldn, 1 + 5 * r, id, &l[i + (size_t)r]);
		step(db, ldn);
	}
	for (; i < nl; i++) {
		bind_loaded(ld, 1, id, &l[i]);
		step(db, ld);
	}
	sqlite3_finalize(ev);
	sqlite3_finalize(ld);
	sqlite3_finalize(evn);
	sqlite3_finalize(ldn);
	if (store_commit(dst, &cause) != 0)
		fatal("%s", cause);
	t1 = now();
	printf("%zu %.3f\n", ne + nl, t1 - t0);
	store_close(src);
	store_close(dst);
	free(e);
	free(l);
	return (0);
}
