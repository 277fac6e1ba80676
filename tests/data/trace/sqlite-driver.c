/*
 * pvtrace truth test on code nobody here wrote: a small driver linked
 * with Debian's libsqlite3.a, so that the SQLite library's own static
 * functions (a few thousand) are in the program's symbol table and are
 * traced and compared with callgrind one by one.
 *
 * sqlite-driver [ROWS]: ROWS rows (default 300, what the call-count test
 * compares); tests/e2e/trace-top.sh asks for enough to run about a
 * second, for a profile of many samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sqlite3.h>

int
main(int argc, char **argv)
{
	sqlite3		*db;
	sqlite3_stmt	*st;
	long		 sum = 0, rows = argc > 1 ? atol(argv[1]) : 300, i;
	/* Distinct keys beyond 1000 rows (7919 is prime to this). */
	long		 keys = rows > 1000 ? 1000000 : 1000;

	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		return (1);
	sqlite3_exec(db, "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);"
	    " CREATE INDEX tb ON t(b);", NULL, NULL, NULL);
	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO t(b) VALUES (printf('row %d',"
	    " ?1))", -1, &st, NULL);
	for (i = 0; i < rows; i++) {
		sqlite3_bind_int(st, 1, (int)(i * 7919 % keys));
		sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "SELECT a, length(b) FROM t WHERE b > 'row 5'"
	    " ORDER BY b", -1, &st, NULL);
	while (sqlite3_step(st) == SQLITE_ROW)
		sum += sqlite3_column_int(st, 0) + sqlite3_column_int(st, 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
	printf("%ld\n", sum);
	return (0);
}
