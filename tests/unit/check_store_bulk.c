/*
 * The store's bulk insert path: rows added in batches arrive complete and
 * in order, a failure inside a batch fails the transaction, and foreign
 * keys are enforced again once an ingest transaction ends.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"
#include "kind.h"
#include "store/store.h"
#include "store/ovd.h"
#include "ingest/ingest.h"
#include "tests/unit/testutil.h"

static struct store *
open_store(void)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	return (st);
}

static int64_t
begin_session(struct store *st, const char *sha)
{
	char	*cause = NULL;
	int64_t	 id;

	ck_assert_msg(store_begin(st, &cause) == 0, "%s", cause);
	id = store_session_add(st, "prf", "test", sha, 1, NULL, NULL, &cause);
	ck_assert_msg(id > 0, "%s", cause);
	return (id);
}

static void
commit(struct store *st)
{
	char	*cause = NULL;

	ck_assert_msg(store_commit(st, &cause) == 0, "%s", cause);
}

/* Row counts around the batch size: each must arrive whole, in order. */
START_TEST(test_rows_complete_and_ordered)
{
	static const int	 sizes[] = { 1, 63, 64, 65, 128, 1000 };
	struct store		*st = open_store();
	char			 name[32], sha[16], *q;
	int64_t			 id;
	int			 i, k, n;

	for (k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); k++) {
		n = sizes[k];
		snprintf(sha, sizeof sha, "s%d", n);
		id = begin_session(st, sha);
		for (i = 0; i < n; i++) {
			ck_assert_int_eq(store_bucket_add(st, id, i, 16 * i,
			    16 * i + 16, 3 * i), 0);
			/* One buffer for every name: the store must copy. */
			snprintf(name, sizeof name, "f%d", i);
			ck_assert_int_eq(store_symbol_add(st, id,
			    i % 3 == 0 ? NULL : i % 3 == 1 ? "" : "M", name,
			    i, 1), 0);
		}
		commit(st);
		q = xasprintf("SELECT count(*) FROM bucket WHERE session = %lld"
		    " AND lo = 16 * idx AND hi = lo + 16 AND hits = 3 * idx",
		    (long long)id);
		ck_assert_int_eq(tu_count(st, q), n);
		free(q);
		/* rowid order is insertion order: names follow addr. */
		q = xasprintf("SELECT count(*) FROM symbol WHERE session = %lld"
		    " AND name = 'f' || addr AND (rowid - (SELECT min(rowid)"
		    " FROM symbol WHERE session = %lld)) = addr"
		    " AND CASE addr %% 3 WHEN 0 THEN module IS NULL"
		    " WHEN 1 THEN module = '' ELSE module = 'M' END",
		    (long long)id, (long long)id);
		ck_assert_int_eq(tu_count(st, q), n);
		free(q);
	}
	store_close(st);
}
END_TEST

/* SQL run in the middle of an ingest sees every row added so far. */
START_TEST(test_pending_rows_visible)
{
	struct store	*st = open_store();
	int64_t		 id;
	int		 i;

	id = begin_session(st, "v");
	for (i = 0; i < 70; i++)
		ck_assert_int_eq(store_bucket_add(st, id, i, i, i + 1, 1), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM bucket"), 70);
	commit(st);
	store_close(st);
}
END_TEST

/* A bad row inside a batch fails the ingest and leaves nothing. */
START_TEST(test_failure_in_batch)
{
	struct store	*st = open_store();
	char		*cause = NULL;
	int64_t		 id;
	int		 i, rc = 0;

	id = begin_session(st, "f");
	for (i = 0; i < 100 && rc == 0; i++)	/* idx 10 twice */
		rc = store_bucket_add(st, id, i == 11 ? 10 : i, i, i + 1, 1);
	if (rc == 0)	/* the batch is still waiting: commit must see it */
		rc = store_commit(st, &cause);
	ck_assert_int_ne(rc, 0);
	ck_assert_ptr_nonnull(strstr(cause != NULL ? cause : store_error(st),
	    "UNIQUE"));
	free(cause);
	store_rollback(st);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM bucket"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM session"), 0);
	/* The store is usable again. */
	id = begin_session(st, "g");
	ck_assert_int_eq(store_bucket_add(st, id, 0, 0, 1, 1), 0);
	commit(st);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM bucket"), 1);
	store_close(st);
}
END_TEST

/* Foreign keys are off only inside an ingest; deletes still cascade. */
START_TEST(test_foreign_keys_restored)
{
	struct store	*st = open_store();
	char		*cause = NULL;
	int64_t		 id;

	ck_assert_int_eq(tu_count(st, "PRAGMA foreign_keys"), 1);
	id = begin_session(st, "k");
	ck_assert_int_eq(store_bucket_add(st, id, 0, 0, 1, 1), 0);
	ck_assert_int_ne(store_session_delete(st, id, &cause), 0);
	ck_assert_ptr_nonnull(strstr(cause, "inside an ingest"));
	free(cause);
	cause = NULL;
	commit(st);
	ck_assert_int_eq(tu_count(st, "PRAGMA foreign_keys"), 1);

	begin_session(st, "r");
	store_rollback(st);
	ck_assert_int_eq(tu_count(st, "PRAGMA foreign_keys"), 1);

	ck_assert_msg(store_session_delete(st, id, &cause) == 0, "%s", cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM bucket"), 0);
	store_close(st);
}
END_TEST

/*
 * OVD rows are batched too: events and residencies interleaved with a
 * one-row statement (a counter), around the batch size, arrive whole and
 * in order.
 */
START_TEST(test_ovd_rows_complete_and_ordered)
{
	static const int	 sizes[] = { 1, 63, 64, 65, 128, 1000 };
	struct store		*st = open_store();
	struct store_ovr_event	 e;
	char			 sha[16], *q;
	int64_t			 id;
	int			 i, k, n;

	for (k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); k++) {
		n = sizes[k];
		snprintf(sha, sizeof sha, "o%d", n);
		id = begin_session(st, sha);
		for (i = 0; i < n; i++) {
			memset(&e, 0, sizeof e);
			e.seq = i;
			e.ticks = 7 * (int64_t)i + 0x1800b0;
			e.reprieve = (i % 5 == 0);
			e.ovr_seg = (uint16_t)(0x1000 + i);
			e.ovr_ofs = (uint16_t)(3 * i);
			e.heap_org = 0x2000;
			e.heap_end = (uint16_t)(0x3000 + i);
			ck_assert_int_eq(store_ovr_event_add(st, id, &e), 0);
			ck_assert_int_eq(store_ovr_loaded_add(st, id,
			    (uint16_t)(0x1000 + i), (uint16_t)(0x2000 + i), i,
			    i + 2), 0);
			if (i == n / 2)
				ck_assert_int_eq(store_counter_add(st, id,
				    "half", i), 0);
		}
		commit(st);
		q = xasprintf("SELECT count(*) FROM ovr_event WHERE session ="
		    " %lld AND ticks = 7 * seq + 0x1800b0 AND kind = CASE seq"
		    " %% 5 WHEN 0 THEN 'reprieve' ELSE 'load' END AND ovr_seg"
		    " = 4096 + seq AND ovr_ofs = 3 * seq AND heap_org = 8192"
		    " AND heap_end = 12288 + seq AND seq < %d", (long long)id,
		    n);
		ck_assert_int_eq(tu_count(st, q), n);
		free(q);
		q = xasprintf("SELECT count(*) FROM ovr_loaded WHERE session ="
		    " %lld AND stat_seg = 4096 + first_seq AND load_seg ="
		    " 8192 + first_seq AND last_seq = first_seq + 2 AND"
		    " (rowid - (SELECT min(rowid) FROM ovr_loaded WHERE"
		    " session = %lld)) = first_seq", (long long)id,
		    (long long)id);
		ck_assert_int_eq(tu_count(st, q), n);
		free(q);
		q = xasprintf("SELECT value FROM counter WHERE session = %lld"
		    " AND name = 'half'", (long long)id);
		ck_assert_int_eq(tu_count(st, q), n / 2);
		free(q);
	}
	store_close(st);
}
END_TEST

/* A duplicate event inside a batch fails the ingest and leaves nothing. */
START_TEST(test_ovd_failure_in_batch)
{
	struct store		*st = open_store();
	struct store_ovr_event	 e;
	char			*cause = NULL;
	int64_t			 id;
	int			 i, rc = 0;

	id = begin_session(st, "of");
	memset(&e, 0, sizeof e);
	for (i = 0; i < 100 && rc == 0; i++) {	/* seq 20 twice */
		e.seq = i == 21 ? 20 : i;
		rc = store_ovr_event_add(st, id, &e);
		if (rc == 0)
			rc = store_ovr_loaded_add(st, id, 1, 2, i, i);
	}
	if (rc == 0)
		rc = store_commit(st, &cause);
	ck_assert_int_ne(rc, 0);
	ck_assert_ptr_nonnull(strstr(cause != NULL ? cause : store_error(st),
	    "UNIQUE"));
	free(cause);
	store_rollback(st);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_event"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_loaded"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM session"), 0);
	store_close(st);
}
END_TEST

/*
 * The file hash (which may take the SHA extensions' path): FIPS 180-2
 * vectors for every padding case, and a long odd-length input.
 */
START_TEST(test_sha256)
{
	static const char	*abc56 = "abcdbcdecdefdefgefghfghighijhijk"
	    "ijkljklmklmnlmnomnopnopq";
	static const char	*abc112 = "abcdefghbcdefghicdefghijdefghijk"
	    "efghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
	    "mnopqrstnopqrstu";
	uint8_t			*buf;
	char			 hex[65];
	size_t			 i;

	ingest_sha256((const uint8_t *)"", 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934c"
	    "a495991b7852b855");
	ingest_sha256((const uint8_t *)"abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9c"
	    "b410ff61f20015ad");
	ingest_sha256((const uint8_t *)abc56, strlen(abc56), hex);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167"
	    "f6ecedd419db06c1");
	ingest_sha256((const uint8_t *)abc112, strlen(abc112), hex);
	ck_assert_str_eq(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51"
	    "afac45037afee9d1");
	buf = xmalloc(1000000);
	memset(buf, 'a', 1000000);
	ingest_sha256(buf, 1000000, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e"
	    "046d39ccc7112cd0");
	for (i = 0; i < 65537; i++)
		buf[i] = (uint8_t)(i * 7 % 251);
	ingest_sha256(buf, 65537, hex);
	ck_assert_str_eq(hex, "4777864940199a04146ef4ed977bc01fa6e98ddb60eed9c1"
	    "d44eb2e3da0404ad");
	free(buf);
}
END_TEST

/*
 * A batch statement binds the session once, so rows of two sessions
 * added in turn must each keep their own.
 */
START_TEST(test_sessions_interleaved)
{
	struct store	*st = open_store();
	char		*cause = NULL;
	int64_t		 a, b;
	int		 i;

	a = begin_session(st, "ia");
	b = store_session_add(st, "prf", "test", "ib", 1, NULL, NULL, &cause);
	ck_assert_msg(b > 0, "%s", cause);
	for (i = 0; i < 200; i++) {
		ck_assert_int_eq(store_bucket_add(st, i % 3 == 0 ? b : a, i, i,
		    i + 1, i), 0);
		ck_assert_int_eq(store_ovr_loaded_add(st, i < 100 ? a : b, 1,
		    2, i, i), 0);
	}
	commit(st);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM bucket WHERE"
	    " session = (SELECT id FROM session WHERE sha256 = 'ib') AND"
	    " idx % 3 = 0"), 67);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM bucket WHERE"
	    " session = (SELECT id FROM session WHERE sha256 = 'ia') AND"
	    " idx % 3 != 0"), 133);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM ovr_loaded WHERE"
	    " (session = (SELECT id FROM session WHERE sha256 = 'ia')) ="
	    " (first_seq < 100)"), 200);
	store_close(st);
}
END_TEST

/* Rows added without a transaction are not lost at close. */
START_TEST(test_autocommit_rows_kept)
{
	struct store	*st = open_store();
	char		*cause = NULL;
	int64_t		 id;

	id = store_session_add(st, "prf", "a", "a", 1, NULL, NULL, &cause);
	ck_assert_msg(id > 0, "%s", cause);
	ck_assert_int_eq(store_symbol_add(st, id, NULL, "x", 1, 1), 0);
	store_close(st);
	st = open_store();
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM symbol"), 1);
	store_close(st);
}
END_TEST

static Suite *
bulk_suite(void)
{
	Suite	*s = suite_create("store_bulk");
	TCase	*tc = tcase_create("bulk");

	tcase_add_checked_fixture(tc, tu_tmpdb_setup, tu_tmpdb_teardown);
	tcase_add_test(tc, test_rows_complete_and_ordered);
	tcase_add_test(tc, test_pending_rows_visible);
	tcase_add_test(tc, test_failure_in_batch);
	tcase_add_test(tc, test_foreign_keys_restored);
	tcase_add_test(tc, test_autocommit_rows_kept);
	tcase_add_test(tc, test_ovd_rows_complete_and_ordered);
	tcase_add_test(tc, test_ovd_failure_in_batch);
	tcase_add_test(tc, test_sha256);
	tcase_add_test(tc, test_sessions_interleaved);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner	*sr = srunner_create(bulk_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
