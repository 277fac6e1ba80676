/*
 * The peer for bench/ovd-ingest: a bare prepared-insert loop writing the
 * rows an OVD ingest wrote (read beforehand from SRC, not timed) into a
 * fresh store with the same schema, in one transaction.
 *
 * usage: ovd-bare SRC.db SESSION DST.db   prints "rows seconds"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xmalloc.h"
#include "store/store.h"

struct row {
	int64_t	v[7];
};

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
	sqlite3_stmt	*ev, *ld;
	struct row	*e, *l;
	size_t		 ne, nl, i;
	char		*cause = NULL;
	int64_t		 session, id;
	double		 t0, t1;
	int		 k;

	if (argc != 4)
		fatal("usage: ovd-bare SRC.db SESSION DST.db");
	session = strtoll(argv[2], NULL, 10);
	if ((src = store_open(argv[1], STORE_READONLY, &cause)) == NULL ||
	    (dst = store_open(argv[3], 0, &cause)) == NULL)
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
	if (sqlite3_prepare_v2(db, "INSERT INTO ovr_event(session, seq, ticks,"
	    " kind, ovr_seg, ovr_ofs, heap_org, heap_end) VALUES (?1, ?2, ?3,"
	    " ?4, ?5, ?6, ?7, ?8)", -1, &ev, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO ovr_loaded(session, stat_seg,"
	    " load_seg, first_seq, last_seq) VALUES (?1, ?2, ?3, ?4, ?5)", -1,
	    &ld, NULL) != SQLITE_OK)
		fatal("%s", sqlite3_errmsg(db));
	for (i = 0; i < ne; i++) {
		sqlite3_bind_int64(ev, 1, id);
		sqlite3_bind_int64(ev, 2, e[i].v[0]);
		sqlite3_bind_int64(ev, 3, e[i].v[1]);
		sqlite3_bind_text(ev, 4, e[i].v[2] ? "reprieve" : "load", -1,
		    SQLITE_STATIC);
		for (k = 3; k < 7; k++)
			sqlite3_bind_int64(ev, k + 2, e[i].v[k]);
		if (sqlite3_step(ev) != SQLITE_DONE)
			fatal("%s", sqlite3_errmsg(db));
		sqlite3_reset(ev);
	}
	for (i = 0; i < nl; i++) {
		sqlite3_bind_int64(ld, 1, id);
		for (k = 0; k < 4; k++)
			sqlite3_bind_int64(ld, k + 2, l[i].v[k]);
		if (sqlite3_step(ld) != SQLITE_DONE)
			fatal("%s", sqlite3_errmsg(db));
		sqlite3_reset(ld);
	}
	sqlite3_finalize(ev);
	sqlite3_finalize(ld);
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
