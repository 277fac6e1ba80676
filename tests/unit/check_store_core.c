/*
 * The store on its own: this test links store/ and xmalloc.c only, with a
 * kind of its own, so a call from store/ to the kind table, a reader, an
 * analysis or a report fails to link here (tests/unit/store_deps.sh
 * greps for the includes).  And session.kind: no CHECK of the kinds'
 * names since core migration 4, a name the store was not given refused
 * by store_session_add, and a store of the schema before (3) migrated
 * with its sessions and their rows.  And the code an annotation keeps:
 * runs found by the addresses they hold, forgotten, deleted.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "xmalloc.h"
#include "store/store.h"

/* store.c's; the test makes a store as these left it at version 3. */
extern const char *const	store_core_migrations[STORE_SCHEMA_VERSION];

static const char *const toy_migrations[] = {
	"CREATE TABLE IF NOT EXISTS toy ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  n INTEGER NOT NULL);"
	"CREATE INDEX IF NOT EXISTS toy_session ON toy(session);",
};
static const char *const toy_purge[] = {
	"DELETE FROM toy WHERE session = ?1",
};
static const struct store_schema toy_schema = {
	toy_migrations, 1,
	"SELECT printf('%d toys', count(*)) FROM toy t WHERE t.session = s.id",
	toy_purge, 1, NULL
};

/*
 * "toy" is no name the CHECK of migration 1 allowed; the old store's
 * sessions are "prf", one of those it did, with the toy's tables.
 */
static const struct store_kind toy_kinds[] = {
	{ "toy", &toy_schema },
	{ "prf", &toy_schema },
	{ NULL, NULL }
};

static char	tmpdb[64];

static void
tmpdb_setup(void)
{
	int	fd;

	snprintf(tmpdb, sizeof tmpdb, "/tmp/pvcoreXXXXXX");
	if ((fd = mkstemp(tmpdb)) == -1)
		abort();
	close(fd);
	unlink(tmpdb);
}

static void
tmpdb_teardown(void)
{
	char	path[80];

	unlink(tmpdb);
	snprintf(path, sizeof path, "%s-wal", tmpdb);
	unlink(path);
	snprintf(path, sizeof path, "%s-shm", tmpdb);
	unlink(path);
}

static int64_t
count(struct store *st, const char *sql)
{
	return (store_int_query(st, sql, 0, -1));
}

static void
run(sqlite3 *db, const char *sql)
{
	char	*err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
		ck_abort_msg("%s: %s", sql, err);
}

/* A session of a kind the store was not given is refused, by name. */
START_TEST(test_unknown_kind_refused)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(":memory:", 0, toy_kinds, &cause);
	ck_assert_ptr_nonnull(st);
	ck_assert_int_gt(store_session_add(st, "toy", "/a.toy", "aa", 3, NULL,
	    NULL, &cause), 0);
	ck_assert_int_eq(store_session_add(st, "nope", "/b.nope", "bb", 3,
	    NULL, NULL, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "unknown kind 'nope'"));
	free(cause);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM session"), 1);
	store_close(st);
}
END_TEST

/* A new store's session table has no CHECK; its kinds' tables are made. */
START_TEST(test_no_kind_check)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(":memory:", 0, toy_kinds, &cause);
	ck_assert_ptr_nonnull(st);
	ck_assert_int_eq(count(st, "PRAGMA user_version"),
	    STORE_SCHEMA_VERSION);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM sqlite_master WHERE"
	    " name = 'session' AND sql NOT LIKE '%CHECK%'"), 1);
	ck_assert_int_eq(count(st, "SELECT version FROM kind_schema WHERE"
	    " kind = 'toy'"), 1);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM toy"), 0);
	store_close(st);
}
END_TEST

/* The addresses of the runs of kept code overlapping [lo, hi), "a b". */
static char *
code_runs(struct store *st, int64_t id, uint64_t lo, uint64_t hi)
{
	struct store_cursor	*c;
	struct store_code	 e;
	char			 buf[256];
	size_t			 n = 0;

	buf[0] = '\0';
	c = store_codes(st, id, lo, hi);
	while (store_code_next(c, &e) == 1)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%llx:%zu",
		    n != 0 ? " " : "", (unsigned long long)e.addr, e.len);
	store_cursor_close(c);
	return (xstrdup(buf));
}

/*
 * Kept code (code, code_line): a run is found by any address it holds,
 * forgotten with the lines in its range only, and deleted with its
 * session.
 */
START_TEST(test_code_kept)
{
	struct store		*st;
	struct store_cursor	*c;
	struct store_code_line	 l;
	char			*cause = NULL, *s;
	int64_t			 id;

	st = store_open(":memory:", 0, toy_kinds, &cause);
	ck_assert_ptr_nonnull(st);
	id = store_session_add(st, "toy", "/a.toy", "aa", 3, NULL, NULL,
	    &cause);
	ck_assert_int_eq(store_begin(st, &cause), 0);
	ck_assert_int_eq(store_code_add(st, id, 0x1000, "/m", "ab", "\x90\xc3",
	    2), 0);
	ck_assert_int_eq(store_code_add(st, id, 0x1010, "/m", NULL, "\xc3", 1),
	    0);
	ck_assert_int_eq(store_code_line_add(st, id, 0x1000, "/m.c", 3, "{"),
	    0);
	ck_assert_int_eq(store_code_line_add(st, id, 0x1010, "/m.c", 9, NULL),
	    0);
	ck_assert_int_eq(store_commit(st, &cause), 0);
	s = code_runs(st, id, 0x1001, 0x1002);
	ck_assert_str_eq(s, "1000:2");
	free(s);
	s = code_runs(st, id, 0x1002, 0x1010);
	ck_assert_str_eq(s, "");
	free(s);
	s = code_runs(st, id, 0, 0x2000);
	ck_assert_str_eq(s, "1000:2 1010:1");
	free(s);
	c = store_code_lines(st, id, 0x1010, 0x1011);
	ck_assert_int_eq(store_code_line_next(c, &l), 1);
	ck_assert_str_eq(l.file, "/m.c");
	ck_assert_int_eq(l.line, 9);
	ck_assert_ptr_null(l.text);
	ck_assert_int_eq(store_code_line_next(c, &l), 0);
	store_cursor_close(c);

	ck_assert_int_eq(store_begin(st, &cause), 0);
	ck_assert_int_eq(store_code_forget(st, id, 0x1001, 0x1002), 0);
	ck_assert_int_eq(store_commit(st, &cause), 0);
	s = code_runs(st, id, 0, 0x2000);
	ck_assert_str_eq(s, "1010:1");
	free(s);
	/* Lines outside the range forgotten stay. */
	ck_assert_int_eq(count(st, "SELECT count(*) FROM code_line"), 2);

	ck_assert_int_eq(store_session_delete(st, id, &cause), 0);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM code"), 0);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM code_line"), 0);
	store_close(st);
}
END_TEST

/*
 * A store at core version 3 (the CHECK in place) migrates: its sessions
 * and every child row stay, the children's keys name the new session
 * table (a cascade still deletes), the indexes stay, keys are on again.
 */
START_TEST(test_migrate_v3)
{
	struct store	*st;
	sqlite3		*db;
	char		*cause = NULL;
	int		 i;

	ck_assert_int_eq(sqlite3_open(tmpdb, &db), SQLITE_OK);
	for (i = 0; i < 3; i++)
		run(db, store_core_migrations[i]);
	run(db, toy_migrations[0]);
	run(db, "INSERT INTO kind_schema VALUES ('prf', 1);"
	    "INSERT INTO session (id, kind, source, sha256, bytes, ingested,"
	    " summary) VALUES (1, 'prf', '/a.prf', 'aa', 10, 't1', 'one'),"
	    " (2, 'prf', '/b.prf', 'bb', 20, 't2', NULL);"
	    "INSERT INTO warning VALUES (1, 4, 'w1'), (2, NULL, 'w2');"
	    "INSERT INTO symbol VALUES (1, NULL, 'f', 16, 2);"
	    "INSERT INTO counter VALUES (2, 'c', 7);"
	    "INSERT INTO bucket VALUES (1, 0, 0, 16, 5);"
	    "INSERT INTO toy VALUES (1, 1), (2, 2), (2, 3);"
	    "PRAGMA user_version = 3;");
	ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);

	st = store_open(tmpdb, 0, toy_kinds, &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(count(st, "PRAGMA user_version"),
	    STORE_SCHEMA_VERSION);
	ck_assert_int_eq(count(st, "PRAGMA foreign_keys"), 1);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM sqlite_master WHERE"
	    " name = 'session' AND sql NOT LIKE '%CHECK%'"), 1);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM session WHERE"
	    " (id = 1 AND kind = 'prf' AND source = '/a.prf' AND sha256 = 'aa'"
	    " AND bytes = 10 AND ingested = 't1' AND summary = 'one') OR"
	    " (id = 2 AND sha256 = 'bb' AND summary = '2 toys')"), 2);
	ck_assert_int_eq(count(st, "SELECT (SELECT count(*) FROM warning) +"
	    " (SELECT count(*) FROM symbol) + (SELECT count(*) FROM counter) +"
	    " (SELECT count(*) FROM bucket) + (SELECT count(*) FROM toy)"), 8);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM sqlite_master WHERE"
	    " type = 'index' AND name IN ('warning_session', 'symbol_addr',"
	    " 'toy_session', 'sqlite_autoindex_session_1')"), 4);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM"
	    " pragma_foreign_key_list('toy') WHERE \"table\" = 'session'"), 1);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM"
	    " pragma_foreign_key_check"), 0);

	/* The keys hold on the new table: a cascade, an orphan refused. */
	ck_assert_int_eq(store_exec(st, "DELETE FROM session WHERE id = 2",
	    &cause), 0);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM toy"), 1);
	ck_assert_int_eq(count(st, "SELECT count(*) FROM warning"), 1);
	ck_assert_int_eq(store_exec(st, "INSERT INTO toy VALUES (9, 9)",
	    &cause), -1);
	free(cause);
	cause = NULL;
	ck_assert_int_eq(store_session_delete(st, 1, &cause), 0);
	ck_assert_int_eq(count(st, "SELECT (SELECT count(*) FROM session) +"
	    " (SELECT count(*) FROM toy) + (SELECT count(*) FROM bucket)"), 0);
	ck_assert_int_gt(store_session_add(st, "toy", "/c.toy", "cc", 1, NULL,
	    NULL, &cause), 0);
	store_close(st);
}
END_TEST

static Suite *
store_core_suite(void)
{
	Suite	*s = suite_create("store_core");
	TCase	*tc = tcase_create("core");

	tcase_add_checked_fixture(tc, tmpdb_setup, tmpdb_teardown);
	tcase_add_test(tc, test_unknown_kind_refused);
	tcase_add_test(tc, test_no_kind_check);
	tcase_add_test(tc, test_code_kept);
	tcase_add_test(tc, test_migrate_v3);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner	*sr = srunner_create(store_core_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}
