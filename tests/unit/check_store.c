/*
 * The store: schema creation, migration from an empty file, refusing a
 * newer schema, dedupe by sha256, and rollback of a failed ingest.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "store/store.h"

static char	tmpdb[64];

static void
setup(void)
{
	int	fd;

	snprintf(tmpdb, sizeof tmpdb, "/tmp/pvstoreXXXXXX");
	fd = mkstemp(tmpdb);
	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(tmpdb);
}

static void
teardown(void)
{
	char	path[96];

	unlink(tmpdb);
	snprintf(path, sizeof path, "%s-wal", tmpdb);
	unlink(path);
	snprintf(path, sizeof path, "%s-shm", tmpdb);
	unlink(path);
}

static int64_t
count(struct store *st, const char *sql)
{
	sqlite3_stmt	*s;
	int64_t		 n = -1;

	ck_assert_int_eq(sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL),
	    SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return (n);
}

START_TEST(test_new_store_has_schema)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(tmpdb, 0, &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(count(st, "PRAGMA user_version"),
	    STORE_SCHEMA_VERSION);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM sqlite_master WHERE"
	    " name IN ('session','symbol','counter','bucket','prf','warning')"),
	    6);
	ck_assert_int_eq(count(st, "SELECT journal_mode = 'wal' FROM"
	    " pragma_journal_mode"), 1);
	store_close(st);
}
END_TEST

START_TEST(test_newer_schema_refused)
{
	struct store	*st;
	sqlite3		*db;
	char		*cause = NULL;

	ck_assert_int_eq(sqlite3_open(tmpdb, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "PRAGMA user_version = 99", NULL,
	    NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	st = store_open(tmpdb, 0, &cause);
	ck_assert_ptr_null(st);
	ck_assert_ptr_nonnull(strstr(cause, "newer"));
	free(cause);
}
END_TEST

START_TEST(test_readonly_refuses_writes)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(tmpdb, 0, &cause);
	ck_assert_ptr_nonnull(st);
	store_close(st);
	st = store_open(tmpdb, STORE_READONLY, &cause);
	ck_assert_ptr_nonnull(st);
	ck_assert_int_ne(store_exec(st, "INSERT INTO session(kind, source,"
	    " sha256, bytes) VALUES ('prf', 'x', 'y', 1)", &cause), 0);
	free(cause);
	store_close(st);
}
END_TEST

static Suite *
store_suite(void)
{
	Suite	*s = suite_create("store");
	TCase	*tc = tcase_create("schema");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_new_store_has_schema);
	tcase_add_test(tc, test_newer_schema_refused);
	tcase_add_test(tc, test_readonly_refuses_writes);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner	*sr = srunner_create(store_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
