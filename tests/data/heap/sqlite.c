/*
 * SQLite, a program we did not write, as a heap of thousands of blocks:
 * one connection kept by a global, one lost with everything it holds
 * (its tables, cache and prepared statements), one closed.
 */
#include <stdio.h>
#include <sqlite3.h>
#include "heaptest.h"

sqlite3	*kept;

static void
fill(sqlite3 *db, int rows)
{
	sqlite3_stmt	*st;
	char		 text[64];
	int		 i;

	sqlite3_exec(db, "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c"
	    " REAL); CREATE INDEX tb ON t(b); BEGIN", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?, ?, ?)", -1, &st,
	    NULL);
	for (i = 0; i < rows; i++) {
		snprintf(text, sizeof text, "row %d", i * 7919 % rows);
		sqlite3_bind_int(st, 1, i);
		sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 3, i * 1.5);
		sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
}

static __attribute__((noinline)) void
lose(void)
{
	sqlite3 *volatile	db;
	sqlite3_stmt		*st;

	sqlite3_open(":memory:", (sqlite3 **)&db);
	fill(db, 3000);
	/* A statement left prepared, as leaky programs do. */
	sqlite3_prepare_v2(db, "SELECT b FROM t WHERE c > ?", -1, &st, NULL);
	st = NULL;
	db = NULL;
	(void)db;
}

int
main(void)
{
	sqlite3	*db;

	sqlite3_open(":memory:", &kept);
	fill(kept, 5000);
	sqlite3_open(":memory:", &db);
	fill(db, 1000);
	sqlite3_close(db);
	lose();
	heaptest_scrub();
	printf("sqlite: %d\n", sqlite3_total_changes(kept));
	return (0);
}
