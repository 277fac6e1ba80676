/*
 * The store: schema creation, migration from an empty file, refusing a
 * newer schema, dedupe by sha256, and rollback of a failed ingest.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <sqlite3.h>

#include "xmalloc.h"
#include "ingest/ingest.h"
#include "kind.h"
#include "store/store.h"
#include "store/ovd.h"
#include "store/prf.h"
#include "tests/unit/testutil.h"

START_TEST(test_new_store_has_schema)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
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
	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_ptr_null(st);
	ck_assert_ptr_nonnull(strstr(cause, "newer"));
	free(cause);
}
END_TEST

START_TEST(test_readonly_refuses_writes)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_ptr_nonnull(st);
	store_close(st);
	st = store_open(tu_tmpdb, STORE_READONLY, kind_store(), &cause);
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
	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(tu_count(st, "PRAGMA user_version"),
	    STORE_SCHEMA_VERSION);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM sqlite_master WHERE"
	    " type = 'table' AND name IN ('session', 'symbol', 'counter',"
	    " 'bucket', 'prf', 'warning', 'ovd', 'ovr_unit', 'ovr_event',"
	    " 'ovr_loaded', 'mine')"), 11);
	store_close(st);
	/* Opening again finds it current and changes nothing. */
	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(tu_count(st, "PRAGMA user_version"),
	    STORE_SCHEMA_VERSION);
	store_close(st);
}
END_TEST

/* Copy the file at src to tu_tmpdb. */
static void
copy_store(const char *src)
{
	FILE	*in, *out;
	char	 buf[8192];
	size_t	 n;

	in = fopen(src, "rb");
	ck_assert_msg(in != NULL, "%s", src);
	out = fopen(tu_tmpdb, "wb");
	ck_assert_ptr_nonnull(out);
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
	fclose(in);
	ck_assert_int_eq(fclose(out), 0);
}

/* Every table's and index's columns, as one string to compare. */
static char *
schema_of(struct store *st)
{
	sqlite3_stmt	*s;
	char		*all = xstrdup(""), *t;

	ck_assert_int_eq(sqlite3_prepare_v2(store_db(st), "SELECT m.type,"
	    " m.name, m.tbl_name, group_concat(c.name || ' ' || c.type || ' '"
	    " || c.\"notnull\" || ' ' || coalesce(c.dflt_value, '') || ' ' ||"
	    " c.pk, ', ') FROM sqlite_master m,"
	    " pragma_table_xinfo(m.name) c WHERE m.type = 'table'"
	    " GROUP BY m.name UNION ALL SELECT type, name, tbl_name, sql"
	    " FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
	    " ORDER BY 2", -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		t = xasprintf("%s%s %s %s: %s\n", all,
		    sqlite3_column_text(s, 0), sqlite3_column_text(s, 1),
		    sqlite3_column_text(s, 2), sqlite3_column_text(s, 3));
		free(all);
		all = t;
	}
	sqlite3_finalize(s);
	return (all);
}

/*
 * A store written by the main of schema version 1 (every table made by
 * one migration) opens, migrates to the per-kind versions and ends with
 * exactly the schema a new store gets; its sessions read as before.
 */
START_TEST(test_migrate_v1_store)
{
	struct store		*st;
	struct store_session	 ss, *all;
	struct store_prf	 p;
	size_t			 n;
	char			*cause = NULL, *fresh, *old, *sql;

	st = store_open(":memory:", 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	fresh = schema_of(st);
	store_close(st);

	copy_store(TEST_DATA "/store-v1.db");
	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(tu_count(st, "PRAGMA user_version"),
	    STORE_SCHEMA_VERSION);
	sql = xasprintf("SELECT count(*) FROM kind_schema WHERE"
	    " (kind = 'prf' AND version = %zu) OR (kind = 'ovd' AND"
	    " version = %zu)", store_prf_schema.nmigrations,
	    store_ovd_schema.nmigrations);
	ck_assert_int_eq(tu_count(st, sql), 2);
	free(sql);
	old = schema_of(st);
	ck_assert_str_eq(old, fresh);
	ck_assert_int_eq(store_session_get(st, 1, &ss), 0);
	ck_assert_str_eq(ss.kind, "prf");
	store_session_free(&ss);
	ck_assert_int_eq(store_prf_get(st, 1, &p), 0);
	ck_assert_uint_eq(p.bucket_num, 75);
	/* Sessions from before exact attribution: no table, no image. */
	ck_assert_int_eq(p.hit_table, 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf WHERE"
	    " hit_table = 0 AND hit_missed IS NULL"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_hit"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM prf_image"), 0);
	ck_assert_int_eq(store_sessions(st, &all, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_ptr_nonnull(strstr(all[0].summary, "75 buckets"));
	ck_assert_str_eq(all[1].kind, "ovd");
	ck_assert_ptr_nonnull(strstr(all[1].summary, "180 events"));
	store_sessions_free(all, n);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_event"), 180);
	store_close(st);
	free(fresh);
	free(old);
}
END_TEST

/*
 * Kinds keep their own versions: one this program does not know (made
 * on another branch) is left alone; one of its own kinds at a version
 * newer than it knows is refused, naming the kind.
 */
START_TEST(test_kind_versions)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(store_exec(st, "INSERT INTO kind_schema VALUES"
	    " ('zzz', 7)", &cause), 0);
	store_close(st);
	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(store_exec(st, "UPDATE kind_schema SET version = 99"
	    " WHERE kind = 'ovd'", &cause), 0);
	store_close(st);
	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_ptr_null(st);
	ck_assert_ptr_nonnull(strstr(cause, "ovd tables are at version 99"));
	free(cause);
}
END_TEST

/* A kind with no row yet (added since the store was made) is migrated. */
START_TEST(test_kind_added_later)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(store_exec(st, "DROP TABLE ovr_loaded; DROP TABLE"
	    " ovr_event; DROP TABLE ovr_unit; DROP TABLE ovd; DELETE FROM"
	    " kind_schema WHERE kind = 'ovd'", &cause), 0);
	store_close(st);
	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM sqlite_master"
	    " WHERE name IN ('ovd', 'ovr_unit', 'ovr_event', 'ovr_loaded')"),
	    4);
	ck_assert_int_eq(tu_count(st, "SELECT version FROM kind_schema"
	    " WHERE kind = 'ovd'"), (int64_t)store_ovd_schema.nmigrations);
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
/* Rows of session id in every table with a session column. */
static int64_t
session_rows(struct store *st, int64_t id)
{
	sqlite3_stmt	*s;
	char		*sql;
	int64_t		 n = 0;

	ck_assert_int_eq(sqlite3_prepare_v2(store_db(st), "SELECT m.name FROM"
	    " sqlite_master m, pragma_table_info(m.name) c WHERE m.type ="
	    " 'table' AND c.name = 'session'", -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		sql = xasprintf("SELECT count(*) FROM \"%s\" WHERE session ="
		    " %lld", sqlite3_column_text(s, 0), (long long)id);
		n += tu_count(st, sql);
		free(sql);
	}
	sqlite3_finalize(s);
	return (n);
}

/*
 * Deleting a session (with foreign keys off, through the kinds' purge
 * statements) leaves no row of it in any table: a table a kind adds
 * without a purge statement fails here.
 */
START_TEST(test_delete_every_table)
{
	struct store	*st;
	uint8_t		*a, *b;
	size_t		 alen, blen;
	int64_t		 id1, id2;
	const char	*kind;
	int		 reused;
	char		*cause = NULL, *sql;

	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	a = small_prf(&alen, 55);
	b = small_prf(&blen, 56);
	ck_assert_int_eq(ingest_bytes(st, "/nonexistent/a.prf", a, alen, NULL,
	    &id1, &kind, &reused, &cause), 0);
	ck_assert_int_eq(ingest_bytes(st, "/nonexistent/b.prf", b, blen, NULL,
	    &id2, &kind, &reused, &cause), 0);
	/* A row in each of prf's own tables, as a hit table and image give. */
	sql = xasprintf("INSERT INTO prf_hit VALUES (%1$lld, 65536, 4096, 0,"
	    " 1); INSERT INTO prf_image VALUES (%1$lld, 65792, x'90');"
	    " INSERT INTO prf_source VALUES (%1$lld, 65792, 1, 'nop');"
	    " INSERT INTO warning VALUES (%1$lld, 0, 'odd')", (long long)id1);
	ck_assert_int_eq(store_exec(st, sql, &cause), 0);
	free(sql);
	ck_assert_int_ge(session_rows(st, id1), 7);
	ck_assert_int_eq(store_session_delete(st, id1, &cause), 0);
	ck_assert_int_eq(session_rows(st, id1), 0);
	ck_assert_int_gt(session_rows(st, id2), 0);
	ck_assert_int_eq(tu_count(st, "PRAGMA foreign_keys"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM"
	    " pragma_foreign_key_check"), 0);
	free(a);
	free(b);
	store_close(st);
}
END_TEST

START_TEST(test_dedupe)
{
	struct store	*st;
	uint8_t		*a, *b;
	size_t		 alen, blen;
	int64_t		 id1, id2, id3;
	const char	*kind;
	int		 reused;
	char		*cause = NULL;

	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
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
	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
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
	struct ingest_opts	 o = { 0 };
	struct store		*st;
	uint8_t			*a;
	size_t			 alen;
	int64_t			 id;
	const char		*kind;
	int			 reused;
	char			*cause = NULL;

	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	a = small_prf(&alen, 55);
	ingest_opts_set(&o, "map",
	    tu_tmpfile(".map", badmap, sizeof badmap - 1));
	ck_assert_int_eq(ingest_bytes(st, "/nonexistent/a.prf", a, alen, &o,
	    &id, &kind, &reused, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, ": line 3: segment: "));
	free(cause);
	ck_assert_int_eq(tu_rows(st), 0);
	unlink(ingest_opts_get(&o, "map"));
	/* Without the map the same bytes load. */
	ck_assert_int_eq(ingest_bytes(st, "/nonexistent/a.prf", a, alen, NULL,
	    &id, &kind, &reused, &cause), 0);
	ck_assert_int_eq(reused, 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM bucket"), 3);
	store_close(st);
	free(a);
}
END_TEST

/*
 * What :sql's Tab offers: tables and their columns, each once, sorted
 * without regard to case, none of SQLite's own; also read-only.
 */
START_TEST(test_names)
{
	struct store	*st;
	char		*cause = NULL, **v;
	size_t		 n, i, sessions;
	int		 flags;

	for (flags = 0; flags <= STORE_READONLY; flags += STORE_READONLY) {
		st = store_open(tu_tmpdb, flags, kind_store(), &cause);
		ck_assert_msg(st != NULL, "%s", cause);
		ck_assert_int_eq(store_names(st, &v, &n), 0);
		ck_assert_uint_gt(n, 20);
		sessions = 0;
		for (i = 0; i < n; i++) {
			if (i > 0)
				ck_assert_int_lt(strcasecmp(v[i - 1], v[i]),
				    0);
			ck_assert_int_ne(strncmp(v[i], "sqlite_", 7), 0);
			sessions += strcmp(v[i], "session") == 0;
		}
		/* A table and a column of several. */
		ck_assert_uint_eq(sessions, 1);
		for (i = 0; i < n; i++)
			free(v[i]);
		free(v);
		store_close(st);
	}
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
	tcase_add_test(tc, test_migrate_v1_store);
	tcase_add_test(tc, test_kind_versions);
	tcase_add_test(tc, test_kind_added_later);
	tcase_add_test(tc, test_dedupe);
	tcase_add_test(tc, test_delete_every_table);
	tcase_add_test(tc, test_rollback_after_buckets);
	tcase_add_test(tc, test_names);
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
