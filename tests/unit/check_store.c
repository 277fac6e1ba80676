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
#include "tests/unit/testutil.h"

START_TEST(test_new_store_has_schema)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(tu_tmpdb, 0, &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(tu_count(st, "PRAGMA user_version"),
	    STORE_SCHEMA_VERSION);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM sqlite_master WHERE"
	    " name IN ('session','symbol','counter','bucket','prf','warning')"),
	    6);
	ck_assert_int_eq(tu_count(st, "SELECT journal_mode = 'wal' FROM"
	    " pragma_journal_mode"), 1);
	store_close(st);
}
END_TEST

START_TEST(test_newer_schema_refused)
{
	struct store	*st;
	sqlite3		*db;
	char		*cause = NULL;

	ck_assert_int_eq(sqlite3_open(tu_tmpdb, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "PRAGMA user_version = 99", NULL,
	    NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	st = store_open(tu_tmpdb, 0, &cause);
	ck_assert_ptr_null(st);
	ck_assert_ptr_nonnull(strstr(cause, "newer"));
	free(cause);
}
END_TEST

START_TEST(test_readonly_refuses_writes)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(tu_tmpdb, 0, &cause);
	ck_assert_ptr_nonnull(st);
	store_close(st);
	st = store_open(tu_tmpdb, STORE_READONLY, &cause);
	ck_assert_ptr_nonnull(st);
	ck_assert_int_ne(store_exec(st, "INSERT INTO session(kind, source,"
	    " sha256, bytes) VALUES ('prf', 'x', 'y', 1)", &cause), 0);
	free(cause);
	store_close(st);
}
END_TEST


/* An existing empty file (user_version 0) is migrated in place. */
START_TEST(test_migrate_from_empty_file)
{
	struct store	*st;
	sqlite3		*db;
	char		*cause = NULL;
	FILE		*f;

	f = fopen(tu_tmpdb, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(sqlite3_open(tu_tmpdb, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE mine(x);"
	    " PRAGMA user_version = 0", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	st = store_open(tu_tmpdb, 0, &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(tu_count(st, "PRAGMA user_version"),
	    STORE_SCHEMA_VERSION);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM sqlite_master WHERE"
	    " type = 'table' AND name IN ('session', 'symbol', 'counter',"
	    " 'bucket', 'prf', 'warning', 'ovd', 'ovr_unit', 'ovr_event',"
	    " 'ovr_loaded', 'mine')"), 11);
	store_close(st);
	/* Opening again finds it current and changes nothing. */
	st = store_open(tu_tmpdb, 0, &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(tu_count(st, "PRAGMA user_version"),
	    STORE_SCHEMA_VERSION);
	store_close(st);
}
END_TEST

static uint8_t *
small_prf(size_t *len, uint16_t grain)
{
	static const uint16_t	h16[3] = { 1, 2, 3 };
	struct tu_prf		f;

	memset(&f, 0, sizeof f);
	f.w[0] = grain; f.w[1] = 3; f.w[2] = 1; f.w[3] = 0x1000;
	f.w[4] = 0x1003; f.w[5] = 0x800;
	f.h16 = h16;
	return (tu_prf_bytes(&f, len));
}

/* The same bytes twice are one session; different bytes are two. */
START_TEST(test_dedupe)
{
	struct store	*st;
	uint8_t		*a, *b;
	size_t		 alen, blen;
	int64_t		 id1, id2, id3;
	const char	*kind;
	int		 reused;
	char		*cause = NULL;

	st = store_open(tu_tmpdb, 0, &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	a = small_prf(&alen, 55);
	b = small_prf(&blen, 56);
	ck_assert_int_eq(ingest_bytes(st, "/nonexistent/a.prf", a, alen, NULL,
	    &id1, &kind, &reused, &cause), 0);
	ck_assert_int_eq(reused, 0);
	ck_assert_str_eq(kind, "prf");
	ck_assert_int_eq(ingest_bytes(st, "/nonexistent/again.prf", a, alen,
	    NULL, &id2, &kind, &reused, &cause), 0);
	ck_assert_int_eq(reused, 1);
	ck_assert_int_eq(id2, id1);
	ck_assert_int_eq(ingest_bytes(st, "/nonexistent/b.prf", b, blen, NULL,
	    &id3, &kind, &reused, &cause), 0);
	ck_assert_int_eq(reused, 0);
	ck_assert_int_ne(id3, id1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM session"), 2);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM bucket"), 6);
	store_close(st);

	/* Also across opens of the file, through ingest_file. */
	st = store_open(tu_tmpdb, 0, &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	{
		const char	*path = tu_tmpfile(".prf", a, alen);

		ck_assert_int_eq(ingest_file(st, path, NULL, &id2, &kind,
		    &reused, &cause), 0);
		ck_assert_int_eq(reused, 1);
		ck_assert_int_eq(id2, id1);
		unlink(path);
	}
	store_close(st);
	free(a);
	free(b);
}
END_TEST

/*
 * A map given with --map fails after the session, prf, bucket and counter
 * rows were written: the transaction takes every one of them back, and
 * the store still works.
 */
START_TEST(test_rollback_after_buckets)
{
	static const char	 badmap[] = " Start Stop Length Name Class\n"
	    " 00000H 0001FH 00020H _TEXT CODE\n 00020H oops\n";
	struct ingest_opts	 o = { NULL, INGEST_LOAD_AUTO, 0 };
	struct store		*st;
	uint8_t			*a;
	size_t			 alen;
	int64_t			 id;
	const char		*kind;
	int			 reused;
	char			*cause = NULL;

	st = store_open(tu_tmpdb, 0, &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	a = small_prf(&alen, 55);
	o.map = tu_tmpfile(".map", badmap, sizeof badmap - 1);
	ck_assert_int_eq(ingest_bytes(st, "/nonexistent/a.prf", a, alen, &o,
	    &id, &kind, &reused, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, ": line 3: segment: "));
	free(cause);
	ck_assert_int_eq(tu_rows(st), 0);
	unlink(o.map);
	/* Without the map the same bytes load. */
	ck_assert_int_eq(ingest_bytes(st, "/nonexistent/a.prf", a, alen, NULL,
	    &id, &kind, &reused, &cause), 0);
	ck_assert_int_eq(reused, 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM bucket"), 3);
	store_close(st);
	free(a);
}
END_TEST

static Suite *
store_suite(void)
{
	Suite	*s = suite_create("store");
	TCase	*tc = tcase_create("schema");

	tcase_add_checked_fixture(tc, tu_tmpdb_setup, tu_tmpdb_teardown);
	tcase_add_test(tc, test_new_store_has_schema);
	tcase_add_test(tc, test_newer_schema_refused);
	tcase_add_test(tc, test_readonly_refuses_writes);
	tcase_add_test(tc, test_migrate_from_empty_file);
	tcase_add_test(tc, test_dedupe);
	tcase_add_test(tc, test_rollback_after_buckets);
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
