/*
 * The .mon name codec (monname.c) that pvtrace writes with and both
 * pvtrace and the reader read with: every name comes back as it went,
 * and every malformed name is refused, by the codec and by the reader
 * with the message it has always given.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind.h"
#include "monname.h"
#include "ingest/ingest.h"
#include "store/store.h"

/* A name escaped, in memory. */
static char *
put(const char *s)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	monname_put(f, s);
	fclose(f);
	return (buf);
}

/* Decoded with flags: 0 and the name in out, or -1. */
static int
get(const char *s, char *out, int flags)
{
	return (monname_decode(s, strlen(s), out, flags));
}

START_TEST(test_round_trip)
{
	char	 name[256], out[3 * 256 + 1], *e;
	size_t	 i, j;
	int	 flags;

	/* Every byte but NUL, alone and among others. */
	for (i = 1; i < 256; i++) {
		snprintf(name, sizeof name, "a%cb%c", (int)i, (int)i);
		e = put(name);
		ck_assert_msg(strpbrk(e, " \t\n;@") == NULL, "%s", e);
		for (flags = 0; flags <= MONNAME_FIELD; flags++) {
			ck_assert_int_eq(get(e, out, flags), 0);
			ck_assert_str_eq(out, name);
		}
		free(e);
	}
	/* Long names of random bytes. */
	srandom(20);
	for (j = 0; j < 1000; j++) {
		for (i = 0; i < sizeof name - 1; i++)
			name[i] = (char)(1 + random() % 255);
		name[random() % sizeof name] = '\0';
		name[sizeof name - 1] = '\0';
		e = put(name);
		ck_assert_int_eq(get(e, out, MONNAME_FIELD), 0);
		ck_assert_str_eq(out, name);
		free(e);
	}
	/* The empty name is "%00", never an empty field. */
	e = put("");
	ck_assert_str_eq(e, "%00");
	ck_assert_int_eq(get(e, out, MONNAME_FIELD), 0);
	ck_assert_str_eq(out, "");
	free(e);
	e = put("50% off;x@y");
	ck_assert_str_eq(e, "50%25%20off%3Bx%40y");
	free(e);
	/* Lower-case escapes are read too; only the bytes given are. */
	ck_assert_int_eq(monname_decode("%3b%3Bxyz", 6, out, 0), 0);
	ck_assert_str_eq(out, ";;");
}
END_TEST

/* Names no writer makes, each refused. */
static const char *const malformed[] = {
	"%", "%4", "a%", "a%4", "%G1", "%1G", "%zz", "%-1", "%%41",
	"a%00", "%00%00", "%000", "a b", "a\tb", "a\x7f", "a\x80", "\xff"
};

START_TEST(test_malformed)
{
	char	out[16];
	size_t	i;

	for (i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
		ck_assert_msg(get(malformed[i], out, 0) == -1, "'%s'",
		    malformed[i]);
		ck_assert_msg(get(malformed[i], out, MONNAME_FIELD) == -1,
		    "'%s'", malformed[i]);
	}
	/* A bare ';' or '@' is a separator in a .mon field. */
	ck_assert_int_eq(get("a;b", out, MONNAME_FIELD), -1);
	ck_assert_int_eq(get("a@b", out, MONNAME_FIELD), -1);
	ck_assert_int_eq(get("a;b", out, 0), 0);
	ck_assert_str_eq(out, "a;b");
	ck_assert_int_eq(get("a@b", out, 0), 0);
	ck_assert_str_eq(out, "a@b");
	/* The bytes after len are not read. */
	ck_assert_int_eq(monname_decode("ab%4", 2, out, MONNAME_FIELD), 0);
	ck_assert_str_eq(out, "ab");
}
END_TEST

/* The rest of the reader's message after the quote. */
static const char *
bad_msg(const char *bad)
{
	static char	buf[64];

	snprintf(buf, sizeof buf, "%s' is not an escaped name", bad);
	return (buf);
}

/*
 * The reader refuses each in a .mon's program line, with the message it
 * gave before the codec was shared.
 */
START_TEST(test_reader)
{
	struct ingest_opts	 opts;
	struct store		*st;
	const char		*kind, *tail;
	char			*path, *good, *text, *cause, *want;
	FILE			*f;
	long			 len;
	size_t			 i, off;
	int64_t			 id;
	int			 reused;
	const char *const	 more[] = { "a;b", "a@b" };

	path = TEST_DATA "/calls.mon";
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	good = calloc(1, (size_t)len + 1);
	ck_assert_uint_eq(fread(good, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	ck_assert_ptr_nonnull(tail = strstr(good, "program /tmp/prog\n"));
	off = (size_t)(tail - good) + 8;
	tail += strlen("program /tmp/prog");
	st = store_open(":memory:", 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	memset(&opts, 0, sizeof opts);
	for (i = 0; i < sizeof malformed / sizeof malformed[0] + 2; i++) {
		const char	*bad = i < sizeof malformed /
		    sizeof malformed[0] ? malformed[i] : more[i -
		    sizeof malformed / sizeof malformed[0]];

		/* Not white space: that splits the line, another error. */
		if (strpbrk(bad, " \t") != NULL)
			continue;
		ck_assert_int_ne(asprintf(&text, "%.*s%s%s", (int)off, good,
		    bad, tail), -1);
		cause = NULL;
		ck_assert_int_ne(ingest_bytes(st, "t.mon", (const uint8_t *)
		    text, strlen(text), &opts, &id, &kind, &reused, &cause),
		    0);
		ck_assert_int_ne(asprintf(&want, "t.mon: offset %zu: program:"
		    " '", off), -1);
		ck_assert_msg(strncmp(cause, want, strlen(want)) == 0 &&
		    strstr(cause, "' is not an escaped name") != NULL, "%s",
		    cause);
		/* A byte that is not text is shown escaped (vis.c). */
		if (bad[strcspn(bad, "\x7f\x80\xff")] == '\0')
			ck_assert_str_eq(cause + strlen(want), bad_msg(bad));
		free(want);
		free(cause);
		free(text);
	}
	store_close(st);
	free(good);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("monname");
	TCase	*tc = tcase_create("codec");
	SRunner	*sr;
	int	 nf;

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_reader);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}
