/*
 * The mon reader (pvtrace's .mon profiles) on hand-made files: a good
 * one, and one without CPU time; each field's bad values; truncation at
 * every length; sections whose counts lie; and the report.
 */
#include <check.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "kind.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/mon.h"
#include "ingest/ingest.h"
#include "ingest/mon.h"
#include "report/report.h"
#include "report/pprof.pb-c.h"
#include "store/mon.h"
#include "store/store.h"
#include "tests/unit/testutil.h"

/*
 * A profile as pvtrace writes one: main calls work (which calls leaf)
 * and two static functions both named helper (so qualified), and a
 * function with a space in its name.  Its [paths] are a tree: each
 * path's parent (its number in the section) and its function.
 */
static const char good_text[] =
"pvtrace-mon 2\n"
"# pvtrace(1)'s p2 profile\n"
"program /tmp/prog\n"
"build_id 0a1b2c\n"
"command ./prog a%20b\n"
"first_run 2026-11-23T10:00:00Z\n"
"last_run 2026-11-23T10:05:00Z\n"
"runs 2\n"
"real_ns 123456789\n"
"status exit 3\n"
"clock tsc 2096000000\n"
"cpu perf-task-clock\n"
"overhead jump 26.7 15.3 41.5 42.5 28896\n"
"overhead trap 1500.0 5600.5 7000.0 14000.0 164\n"
"stat processes 1\n"
"stat threads 2\n"
"stat traps 5\n"
"module prog patched /tmp/prog\n"
"\n"
"[functions] 5\n"
"#      calls         self_ns        total_ns     self_cpu_ns    total_cpu_ns    self_err   total_err how  module addr size function\n"
"       1000          500000          500000          400000          400000        10000       10000 jump prog 0x1190 5 leaf\n"
"          2          300000          800000          250000          650000          100       10100 jump prog 0x11a0 45 work\n"
"          1          100000         1000000           90000          890000           30       10200 jump prog 0x1050 61 main\n"
"          1           50000           50000           50000           50000          5          5 trap prog 0x1200 3 helper@prog+0x1200\n"
"          1          -20000          -20000          -20000          -20000          50          50 jump prog 0x1210 8 helper@prog+0x1210\n"
"\n"
"[calls] 4\n"
"#      calls        total_ns    total_cpu_ns   total_err caller callee\n"
"          1         1000000          890000       10200 - main\n"
"          2          800000          650000       10100 main work\n"
"       1000          500000          400000       10000 work leaf\n"
"          1           50000           50000           5 main helper@prog+0x1200\n"
"\n"
"[paths] 5\n"
"#      calls         self_ns        total_ns     self_cpu_ns    total_cpu_ns    self_err   total_err parent function\n"
"          1          100000         1000000           90000          890000          30       10200 - main\n"
"          2          300000          800000          250000          650000         100       10100 0 work\n"
"       1000          500000          500000          400000          400000       10000       10000 1 leaf\n"
"          1           50000           50000           50000           50000           5           5 0 helper@prog+0x1200\n"
"          1          -20000          -20000          -20000          -20000          50          50 - helper@prog+0x1210\n"
"\n"
"[left out] 2\n"
"# module addr size function reason\n"
"prog 0x1090 34 _start the program's entry point: the loader jumps to it\n"
"prog 0x10d0 81 f%20g.cold the cold part of a function: entered by a jump\n"
"\n"
"[end]\n";

/*
 * The same profile as pvtrace wrote it before version 2, each path in
 * full: still read (users keep old profiles).
 */
static const char good_v1_text[] =
"pvtrace-mon 1\n"
"# pvtrace(1)'s p2 profile\n"
"program /tmp/prog\n"
"build_id 0a1b2c\n"
"command ./prog a%20b\n"
"first_run 2026-11-23T10:00:00Z\n"
"last_run 2026-11-23T10:05:00Z\n"
"runs 2\n"
"real_ns 123456789\n"
"status exit 3\n"
"clock tsc 2096000000\n"
"cpu perf-task-clock\n"
"overhead jump 26.7 15.3 41.5 42.5 28896\n"
"overhead trap 1500.0 5600.5 7000.0 14000.0 164\n"
"stat processes 1\n"
"stat threads 2\n"
"stat traps 5\n"
"module prog patched /tmp/prog\n"
"\n"
"[functions] 5\n"
"#      calls         self_ns        total_ns     self_cpu_ns    total_cpu_ns    self_err   total_err how  module addr size function\n"
"       1000          500000          500000          400000          400000        10000       10000 jump prog 0x1190 5 leaf\n"
"          2          300000          800000          250000          650000          100       10100 jump prog 0x11a0 45 work\n"
"          1          100000         1000000           90000          890000           30       10200 jump prog 0x1050 61 main\n"
"          1           50000           50000           50000           50000          5          5 trap prog 0x1200 3 helper@prog+0x1200\n"
"          1          -20000          -20000          -20000          -20000          50          50 jump prog 0x1210 8 helper@prog+0x1210\n"
"\n"
"[calls] 4\n"
"#      calls        total_ns    total_cpu_ns   total_err caller callee\n"
"          1         1000000          890000       10200 - main\n"
"          2          800000          650000       10100 main work\n"
"       1000          500000          400000       10000 work leaf\n"
"          1           50000           50000           5 main helper@prog+0x1200\n"
"\n"
"[paths] 5\n"
"#      calls         self_ns        total_ns     self_cpu_ns    total_cpu_ns    self_err   total_err path\n"
"          1          100000         1000000           90000          890000          30       10200 main\n"
"          2          300000          800000          250000          650000         100       10100 main;work\n"
"       1000          500000          500000          400000          400000       10000       10000 main;work;leaf\n"
"          1           50000           50000           50000           50000           5           5 main;helper@prog+0x1200\n"
"          1          -20000          -20000          -20000          -20000          50          50 helper@prog+0x1210\n"
"\n"
"[left out] 2\n"
"# module addr size function reason\n"
"prog 0x1090 34 _start the program's entry point: the loader jumps to it\n"
"prog 0x10d0 81 f%20g.cold the cold part of a function: entered by a jump\n"
"\n"
"[end]\n";

static char	 tmp[64];
static struct store *st;

static void
setup(void)
{
	char	*cause = NULL;

	st = store_open(":memory:", 0, kind_store(),
	    &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	snprintf(tmp, sizeof tmp, "/tmp/pvmonXXXXXX.mon");
	close(mkstemps(tmp, 4));
}

static void
teardown(void)
{
	store_close(st);
	unlink(tmp);
}

/* From memory: no file to write (the truncation test takes thousands). */
static int
ingest_mem(const char *text, size_t len, int64_t *id, char **cause)
{
	struct ingest_opts	 opts;
	const char		*kind;
	int			 reused;

	memset(&opts, 0, sizeof opts);
	*cause = NULL;
	return (ingest_bytes(st, "t.mon", (const uint8_t *)text, len, &opts,
	    id, &kind, &reused, cause));
}

static int
ingest(const char *text, size_t len, int64_t *id, char **cause)
{
	struct ingest_opts	 opts;
	const char		*kind;
	FILE			*f;
	int			 reused;

	f = fopen(tmp, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
	memset(&opts, 0, sizeof opts);
	*cause = NULL;
	return (ingest_file(st, tmp, &opts, id, &kind, &reused, cause));
}

static void
no_rows(void)
{
	static const char *const t[] = { "session", "mon", "mon_module",
	    "func", "call", "callpath", "mon_left_out", "counter" };
	char	q[64];
	size_t	i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		snprintf(q, sizeof q, "SELECT count(*) FROM %s", t[i]);
		ck_assert_msg(tu_count(st, q) == 0, "rows left in %s", t[i]);
	}
}

/* A text with its first from replaced by to. */
static char *
edit_in(const char *base, const char *from, const char *to)
{
	const char	*at = strstr(base, from);
	char		*s;

	ck_assert_msg(at != NULL, "no '%s' in the good file", from);
	ck_assert_int_ne(asprintf(&s, "%.*s%s%s", (int)(at - base), base, to,
	    at + strlen(from)), -1);
	return (s);
}

static char *
edit(const char *from, const char *to)
{
	return (edit_in(good_text, from, to));
}

/* The edited base is refused, naming an offset, field and detail. */
static void
bad_in(const char *base, const char *from, const char *to, const char *field,
    const char *detail)
{
	char	*text = edit_in(base, from, to), *cause;
	int64_t	 id;

	ck_assert_msg(ingest(text, strlen(text), &id, &cause) != 0,
	    "'%s' -> '%s' loaded", from, to);
	ck_assert_msg(strstr(cause, "offset ") != NULL, "%s", cause);
	ck_assert_msg(strstr(cause, field) != NULL, "%s lacks %s", cause,
	    field);
	ck_assert_msg(strstr(cause, detail) != NULL, "%s lacks %s", cause,
	    detail);
	free(cause);
	free(text);
	no_rows();
}

static void
bad(const char *from, const char *to, const char *field, const char *detail)
{
	bad_in(good_text, from, to, field, detail);
}

START_TEST(test_detect)
{
	char	*text = edit("pvtrace-mon 2\n", "pvtrace-mon 4\n"), *cause;
	int64_t	 id;

	ck_assert_int_ne(ingest(text, strlen(text), &id, &cause), 0);
	ck_assert_msg(strstr(cause, "not a profile profview knows") != NULL,
	    "%s", cause);
	free(cause);
	free(text);
	ck_assert_int_eq(ingest_mon_reader.detect((const uint8_t *)good_text,
	    sizeof good_text - 1, "x"), 100);
	ck_assert_int_eq(ingest_mon_reader.detect((const uint8_t *)
	    good_v1_text, sizeof good_v1_text - 1, "x"), 100);
	ck_assert_int_eq(ingest_mon_reader.detect((const uint8_t *)
	    "pvtrace-mon 10\n", 15, "x.mon"), 0);
	ck_assert_int_eq(ingest_mon_reader.detect((const uint8_t *)
	    "pvtrace-plan 1\n", 15, "x.mon"), 0);
	ck_assert_int_eq(ingest_mon_reader.detect((const uint8_t *)"", 0,
	    "x.mon"), 0);
}
END_TEST

/* What the good profile (either version) puts in the tables. */
static void
good_rows(const char *text, size_t len)
{
	char	*cause;
	int64_t	 id;

	ck_assert_msg(ingest(text, len, &id, &cause) == 0, "%s", cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM session WHERE"
	    " kind = 'mon' AND program = 'prog' AND captured ="
	    " '2026-11-23T10:05:00Z'"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM mon WHERE"
	    " command = './prog a b' AND runs = 2 AND real_ns = 123456789"
	    " AND status = 'exit 3' AND clock = 'tsc' AND clock_hz ="
	    " 2096000000 AND cpu = 'perf-task-clock' AND jump_a_ps = 26700"
	    " AND jump_b_ps = 15300 AND jump_lo_ps = 41500 AND jump_hi_ps ="
	    " 42500 AND jump_calls = 28896 AND trap_b_ps = 5600500 AND"
	    " trap_calls = 164 AND build_id = '0a1b2c' AND error IS NULL"),
	    1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM func"), 5);
	ck_assert_int_eq(tu_count(st, "SELECT calls FROM func WHERE key ="
	    " 'leaf' AND name = 'leaf' AND module = 'prog' AND addr = 4496"
	    " AND size = 5 AND how = 'jump' AND self_ns = 500000 AND"
	    " total_cpu_ns = 400000 AND self_err_ns = 10000"), 1000);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM func WHERE name ="
	    " 'helper'"), 2);
	ck_assert_int_eq(tu_count(st, "SELECT self_ns FROM func WHERE key ="
	    " 'helper@prog+0x1210'"), -20000);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM func WHERE key ="
	    " 'helper@prog+0x1200' AND how = 'trap'"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM call"), 4);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM call WHERE"
	    " caller IS NULL AND callee = 'main' AND calls = 1 AND"
	    " total_ns = 1000000 AND total_err_ns = 10200"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT calls FROM call WHERE"
	    " caller = 'work' AND callee = 'leaf'"), 1000);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM callpath"), 5);
	/* The tree: each path's parent is the one it extends. */
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM callpath c JOIN"
	    " callpath p ON p.session = c.session AND p.id = c.parent WHERE"
	    " c.func = 'leaf' AND c.depth = 3 AND p.func = 'work' AND"
	    " p.depth = 2"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM callpath WHERE"
	    " parent IS NULL"), 2);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM mon_left_out"
	    " WHERE name = 'f g.cold' AND addr = 4304 AND size = 81 AND"
	    " reason LIKE 'the cold part%'"), 1);
	ck_assert_int_eq(tu_count(st, "SELECT value FROM counter WHERE name"
	    " = 'threads'"), 2);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM mon_module WHERE"
	    " name = 'prog' AND state = 'patched' AND path = '/tmp/prog'"),
	    1);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning"), 0);
}

START_TEST(test_good)
{
	good_rows(good_text, sizeof good_text - 1);
	/* Each path's parent is the one the file names. */
	ck_assert_int_eq(tu_count(st, "SELECT group_concat(id || ':' ||"
	    " coalesce(parent, '-') || ':' || depth, ' ') = '0:-:1 1:0:2"
	    " 2:1:3 3:0:2 4:-:1' FROM (SELECT * FROM callpath ORDER BY id)"),
	    1);
}
END_TEST

/*
 * A module's path by its name (annotate's way to the file): that name
 * exactly, not one LIKE would take, and of that session only.
 */
START_TEST(test_module_path)
{
	char	*cause, *path;
	int64_t	 id, other;

	ck_assert_msg(ingest(good_text, sizeof good_text - 1, &id, &cause) ==
	    0, "%s", cause);
	ck_assert_int_eq(store_mon_module_add(st, id, "p_og", "patched",
	    "/tmp/p_og"), 0);
	ck_assert_int_eq(store_mon_module_path(st, id, "prog", &path), 1);
	ck_assert_str_eq(path, "/tmp/prog");
	free(path);
	ck_assert_int_eq(store_mon_module_path(st, id, "p_og", &path), 1);
	ck_assert_str_eq(path, "/tmp/p_og");
	free(path);
	ck_assert_int_eq(store_mon_module_path(st, id, "pro", &path), 0);
	ck_assert_ptr_null(path);
	ck_assert_int_eq(store_mon_module_path(st, id, "PROG", &path), 0);
	ck_assert_ptr_null(path);
	ck_assert_msg(ingest_mem(good_v1_text, sizeof good_v1_text - 1,
	    &other, &cause) == 0, "%s", cause);
	ck_assert_int_ne(other, id);
	ck_assert_int_eq(store_mon_module_path(st, other, "p_og", &path), 0);
	ck_assert_ptr_null(path);
}
END_TEST

START_TEST(test_good_v1)
{
	good_rows(good_v1_text, sizeof good_v1_text - 1);
	ck_assert_int_eq(tu_count(st, "SELECT group_concat(id || ':' ||"
	    " coalesce(parent, '-') || ':' || depth, ' ') = '0:-:1 1:0:2"
	    " 2:1:3 3:0:2 4:-:1' FROM (SELECT * FROM callpath ORDER BY id)"),
	    1);
}
END_TEST

/*
 * The good text as it is without CPU time: the header says why, and the
 * CPU columns of [functions], [paths] (4th, 5th) and [calls] (3rd) are
 * '-'.  Data lines come back with single spaces.
 */
static char *
nocpu(void)
{
	char	*out = NULL, *copy = strdup(good_text), *line, *save, *f;
	char	*v[16];
	size_t	 len = 0, n, i;
	int	 sect = 0;
	FILE	*o = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(copy);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strcmp(line, "cpu perf-task-clock") == 0) {
			fputs("cpu unavailable Permission denied\n", o);
			continue;
		}
		if (line[0] == '[')
			sect = line[1] == 'f' || line[1] == 'p' ? 1 :
			    line[1] == 'c' ? 2 : 0;
		if (sect == 0 || line[0] == '[' || line[0] == '#') {
			fprintf(o, "%s\n", line);
			continue;
		}
		for (n = 0, f = strtok(line, " "); f != NULL && n < 16;
		    f = strtok(NULL, " "))
			v[n++] = f;
		for (i = 0; i < n; i++) {
			if ((sect == 1 && (i == 3 || i == 4)) ||
			    (sect == 2 && i == 2))
				v[i] = "-";
			fprintf(o, "%s%s", i > 0 ? " " : "", v[i]);
		}
		fputc('\n', o);
	}
	fclose(o);
	free(copy);
	return (out);
}

START_TEST(test_no_cpu)
{
	char	*text = nocpu(), *cause;
	int64_t	 id;

	ck_assert_msg(ingest(text, strlen(text), &id, &cause) == 0, "%s",
	    cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM func WHERE"
	    " self_cpu_ns IS NULL AND total_cpu_ns IS NULL"), 5);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM call WHERE"
	    " total_cpu_ns IS NULL"), 4);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM callpath WHERE"
	    " self_cpu_ns IS NULL AND total_cpu_ns IS NULL"), 5);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM mon WHERE cpu ="
	    " 'unavailable Permission denied'"), 1);
	free(text);
}
END_TEST

/* Each field of each kind of line, with a value it may not have. */
START_TEST(test_bad_fields)
{
	bad("program /tmp/prog\n", "", "program", "missing");
	bad("program /tmp/prog", "program /tmp/pr%g", "program", "escaped");
	bad("runs 2", "runs 0", "runs", "0");
	bad("runs 2", "runs two", "runs", "not a non-negative");
	bad("runs 2\n", "", "runs", "missing");
	bad("real_ns 123456789", "real_ns -5", "real_ns", "not a");
	bad("real_ns 123456789", "real_ns 99999999999999999999", "real_ns",
	    "out of range");
	bad("status exit 3", "status quit 3", "status", "exit or signal");
	bad("status exit 3", "status exit 300", "status", "over 255");
	bad("clock tsc 2096000000", "clock rdtsc 1", "clock", "tsc or");
	bad("clock tsc 2096000000", "clock tsc 0", "clock", "0 Hz");
	bad("cpu perf-task-clock", "cpu maybe", "cpu", "unavailable");
	bad("overhead jump 26.7", "overhead jmp 26.7", "overhead", "jump or");
	bad("overhead jump 26.7", "overhead jump 2.6.7", "overhead",
	    "decimal");
	bad("overhead jump 26.7 15.3 41.5 42.5 28896", "overhead jump 26.7"
	    " 15.3 41.5 42.5 -1", "overhead", "not a");
	bad("overhead trap 1500.0 5600.5 7000.0 14000.0 164\n", "",
	    "overhead trap", "missing");
	bad("first_run 2026-11-23T10:00:00Z", "first_run yesterday",
	    "first_run", "ISO 8601");
	bad("build_id 0a1b2c", "build_id 0a1b2g", "build_id", "hexadecimal");
	bad("stat threads 2", "stat threads x", "stat", "not a");
	bad("stat threads 2", "stat Threads 2", "stat", "statistic");
	bad("module prog patched", "module prog patchy", "module", "state");
	bad("[functions] 5", "[function] 5", "section", "[functions]");
	bad("[functions] 5", "[functions]", "[functions]", "count");
	bad("[functions] 5", "[functions] 6", "[functions]", "not the 6");
	bad("[functions] 5", "[functions] 4", "[calls]", "expected");
	bad("[functions] 5", "[functions] 99999999", "functions",
	    "cannot fit");
	bad("       1000          500000", "       1k00          500000",
	    "calls", "not a");
	bad("          2          300000          800000", "          2  "
	    "        3e5          800000", "self_ns", "not a");
	bad("400000        10000       10000 jump prog 0x1190",
	    "400000        10000       10000 jmp prog 0x1190", "how",
	    "jump, trap, plt or leaf");
	bad("jump prog 0x1190 5 leaf", "jump prog 1190 5 leaf", "addr",
	    "0x address");
	bad("jump prog 0x1190 5 leaf", "jump prog 0x1190 five leaf", "size",
	    "not a");
	bad("jump prog 0x1190 5 leaf", "jump prog 0x1190 5 le%zf", "function",
	    "function key");
	bad("0x1050 61 main\n", "0x1050 61 leaf\n", "function", "twice");
	bad("jump prog 0x1050 61 main\n", "jump prog 0x1050 61\n",
	    "[functions]", "11 fields");
	bad("          1          100000         1000000           90000 ",
	    "          1          100000         1000000               - ",
	    "self_cpu_ns", "header says CPU time was kept");
	bad("helper@prog+0x1210\n\n[calls]", "helper@prog+0x12z0\n\n[calls]",
	    "function", "function key");
	bad("[calls] 4", "[calls] 5", "[calls]", "not the 5");
	bad("10200 - main", "10200 nobody main", "caller", "no [functions]");
	bad("10100 main work", "10100 main worker", "callee",
	    "no [functions]");
	bad("10100 main work", "10100 main", "[calls]", "5 fields");
	bad("       10200 - main", "          -1 - main", "total_err",
	    "not a");
	bad("[paths] 5", "[paths] 4", "[left out]", "expected");
	bad("[left out] 2", "[left out] 3", "[left out]", "not the 3");
	bad("prog 0x1090 34 _start the program's entry point: the loader jumps"
	    " to it\n", "prog 0x1090 34 _start\n", "[left out]", "4 fields");
	bad("prog 0x1090 34", "prog 1090 34", "addr", "0x");
	bad("[end]\n", "[fin]\n", "[end]", "no [end]");
	bad("[end]\n", "[end]\nmore\n", "[end]", "lines after");
}
END_TEST

/*
 * Version 2's tree: a parent out of range, below its child or the child
 * itself, in a cycle, off the path above (not depth first); a function
 * twice under one parent; a version 1 path in a version 2 file.
 */
START_TEST(test_bad_tree)
{
	bad("10000 1 leaf", "10000 5 leaf", "parent", "out of range");
	bad("10000 1 leaf", "10000 99999999999 leaf", "parent",
	    "out of range");
	bad("10000 1 leaf", "10000 99999999999999999999 leaf", "parent",
	    "out of range");
	bad("10000 1 leaf", "10000 3 leaf", "parent", "not above path 2");
	bad("10000 1 leaf", "10000 2 leaf", "parent", "not above path 2");
	/* A cycle, 0 under 1 under 0: the first line names a later one. */
	bad("30       10200 - main", "30       10200 1 main", "parent",
	    "not above path 0");
	bad("10000 1 leaf", "10000 -1 leaf", "parent", "not a non-negative");
	bad("10000 1 leaf", "10000 x leaf", "parent", "not a non-negative");
	/* helper@prog+0x1200's parent is main, no longer on the path. */
	bad("50 - helper@prog+0x1210", "50 1 helper@prog+0x1210", "parent",
	    "not depth first");
	bad("10000 1 leaf", "10000 1 leef", "function", "no [functions]");
	bad("10000 1 leaf", "10000 0 work", "function", "twice");
	bad("10000 1 leaf", "10000 main;work;leaf", "[paths]", "8 fields");
	bad("10000 1 leaf", "10000 1 leaf 2", "[paths]", "10 fields");
	/* Counts that lie either way. */
	bad("[paths] 5", "[paths] 6", "[paths]", "not the 6");
	bad("[paths] 5", "[paths] 3", "[left out]", "expected");
}
END_TEST

/* Version 1's paths, each in full. */
START_TEST(test_bad_v1_paths)
{
	const char	*v1 = good_v1_text;

	bad_in(v1, "10000 main;work;leaf", "10000 main;wirk;leaf", "path",
	    "parent path");
	bad_in(v1, "10000 main;work;leaf", "10000 main;work;leef", "path",
	    "no [functions]");
	bad_in(v1, "10000 main;work;leaf", "10000 main;work;", "path",
	    "empty");
	bad_in(v1, "10100 main;work\n", "10100 main\n", "path", "twice");
	/* A version 2 line: its last field takes the rest of the line. */
	bad_in(v1, "10000 main;work;leaf", "10000 1 leaf", "path",
	    "'1 leaf' is in no [functions]");
}
END_TEST

/*
 * Numbers each in range whose sum is not: the functions' calls (the
 * session's summary adds them: the store said "integer overflow" with
 * no line or field), their self times and the top paths' times (the
 * model adds them).
 */
static void
overflow(const char *base, const char *from1, const char *to1,
    const char *from2, const char *to2, const char *field)
{
	char	*text = edit_in(base, from1, to1);

	bad_in(text, from2, to2, field, "add up past 64 bits");
	free(text);
}

START_TEST(test_overflow)
{
	overflow(good_text, "       1000          500000",
	    "9223372036854775000          500000",
	    "          2          300000          800000",
	    "9000000000000000000          300000          800000", "calls");
	overflow(good_text, "       1000          500000",
	    "       1000 9000000000000000000",
	    "          2          300000          800000",
	    "          2 9000000000000000000          800000", "self_ns");
	overflow(good_text, "       1000          500000",
	    "       1000 -9000000000000000000",
	    "          2          300000          800000",
	    "          2 -9000000000000000000          800000", "self_ns");
	overflow(good_text, "1000000           90000          890000"
	    "          30       10200 - main", "9000000000000000000"
	    "           90000          890000          30       10200 - main",
	    "-20000          -20000          -20000          50          50 -"
	    " helper", "9000000000000000000          -20000          -20000"
	    "          50          50 - helper", "total_ns");
	overflow(good_v1_text, "1000000           90000          890000"
	    "          30       10200 main", "9000000000000000000"
	    "           90000          890000          30       10200 main",
	    "-20000          -20000          -20000          50          50"
	    " helper", "9000000000000000000          -20000          -20000"
	    "          50          50 helper", "total_ns");
}
END_TEST

START_TEST(test_nul)
{
	char	 text[sizeof good_text], *at, *cause;
	int64_t	 id;

	memcpy(text, good_text, sizeof good_text);
	at = strstr(text, "runs 2");
	at[4] = '\0';
	ck_assert_int_ne(ingest(text, sizeof good_text - 1, &id, &cause), 0);
	ck_assert_msg(strstr(cause, "NUL") != NULL, "%s", cause);
	free(cause);
	no_rows();
}
END_TEST

START_TEST(test_unknown_header)
{
	char	*text = edit("runs 2\n", "runs 2\nfuture_key 1 2 3\n"), *cause;
	int64_t	 id;

	ck_assert_msg(ingest(text, strlen(text), &id, &cause) == 0, "%s",
	    cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE '%future_key%'"), 1);
	free(text);
}
END_TEST

START_TEST(test_inconsistent_calls)
{
	char	*text = edit("          2          300000          800000"
	    "          250000          650000          100       10100 jump",
	    "          3          300000          800000          250000"
	    "          650000          100       10100 jump"), *cause;
	int64_t	 id;

	ck_assert_msg(ingest(text, strlen(text), &id, &cause) == 0, "%s",
	    cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE 'function work: 3 calls, but its paths have 2'"),
	    1);
	free(text);
}
END_TEST

static void
truncations(const char *text, size_t n)
{
	size_t	 len;
	char	*cause;
	int64_t	 id;

	for (len = 0; len < n - 1; len++) {
		ck_assert_msg(ingest_mem(text, len, &id, &cause) != 0,
		    "the first %zu bytes loaded", len);
		ck_assert_ptr_nonnull(cause);
		free(cause);
		no_rows();
	}
	/* Only the last newline missing: the file is whole. */
	ck_assert_msg(ingest(text, n - 1, &id, &cause) == 0, "%s", cause);
}

START_TEST(test_truncation_every_length)
{
	truncations(good_text, sizeof good_text - 1);
}
END_TEST

START_TEST(test_truncation_every_length_v1)
{
	truncations(good_v1_text, sizeof good_v1_text - 1);
}
END_TEST

/* The pprof profile in gzip'd buf, as a reader decodes it. */
static Perftools__Profiles__Profile *
pprof_read(const char *buf, size_t len)
{
	Perftools__Profiles__Profile	*p;
	z_stream			 z;
	uint8_t				*out = NULL;
	size_t				 cap = 0, n = 0;
	int				 zr;

	ck_assert_msg(len > 2 && (uint8_t)buf[0] == 0x1f &&
	    (uint8_t)buf[1] == 0x8b, "not gzip");
	memset(&z, 0, sizeof z);
	ck_assert_int_eq(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (uint8_t *)buf;
	z.avail_in = (uInt)len;
	do {
		if (n == cap) {
			cap = cap != 0 ? cap * 2 : 4096;
			out = xreallocarray(out, cap, 1);
		}
		z.next_out = out + n;
		z.avail_out = (uInt)(cap - n);
		zr = inflate(&z, Z_NO_FLUSH);
		n = cap - z.avail_out;
	} while (zr == Z_OK);
	ck_assert_int_eq(zr, Z_STREAM_END);
	inflateEnd(&z);
	p = perftools__profiles__profile__unpack(NULL, n, out);
	ck_assert_ptr_nonnull(p);
	free(out);
	return (p);
}

/* The name of the function at location id of p. */
static const char *
pprof_fn(const Perftools__Profiles__Profile *p, uint64_t id)
{
	const Perftools__Profiles__Location	*l = p->location[id - 1];

	ck_assert_uint_eq(l->id, id);
	ck_assert_uint_eq(l->n_line, 1);
	return (p->string_table[p->function[l->line[0]->function_id -
	    1]->name]);
}

/*
 * The good profile in pprof's terms: CPU, wall and calls by call path,
 * the leaf first; a time below zero kept as it is.
 */
static void
pprof_check(const char *buf, size_t len)
{
	Perftools__Profiles__Profile		*p = pprof_read(buf, len);
	const Perftools__Profiles__Sample	*s;
	size_t					 i, seen = 0;

	ck_assert_str_eq(p->string_table[0], "");
	ck_assert_uint_eq(p->n_sample_type, 3);
	ck_assert_str_eq(p->string_table[p->sample_type[0]->type], "cpu");
	ck_assert_str_eq(p->string_table[p->sample_type[0]->unit],
	    "nanoseconds");
	ck_assert_str_eq(p->string_table[p->sample_type[1]->type], "wall");
	ck_assert_str_eq(p->string_table[p->sample_type[2]->type], "calls");
	ck_assert_str_eq(p->string_table[p->default_sample_type], "cpu");
	ck_assert_int_eq(p->duration_nanos, 123456789);
	ck_assert_uint_eq(p->n_sample, 5);
	for (i = 0; i < p->n_sample; i++) {
		s = p->sample[i];
		ck_assert_uint_eq(s->n_value, 3);
		if (strcmp(pprof_fn(p, s->location_id[0]), "leaf") == 0) {
			ck_assert_uint_eq(s->n_location_id, 3);
			ck_assert_str_eq(pprof_fn(p, s->location_id[1]),
			    "work");
			ck_assert_str_eq(pprof_fn(p, s->location_id[2]),
			    "main");
			ck_assert_int_eq(s->value[0], 400000);
			ck_assert_int_eq(s->value[1], 500000);
			ck_assert_int_eq(s->value[2], 1000);
			seen++;
		}
		if (strcmp(pprof_fn(p, s->location_id[0]),
		    "helper@prog+0x1210") == 0) {
			ck_assert_uint_eq(s->n_location_id, 1);
			ck_assert_int_eq(s->value[1], -20000);
			seen++;
		}
	}
	ck_assert_uint_eq(seen, 2);
	perftools__profiles__profile__free_unpacked(p, NULL);
}

/* The mon model of a profile's text, ingested; its session in *ss. */
static void *
model_of(const char *text, struct store_session *ss)
{
	const struct kind	*k = kind_find("mon");
	void			*model;
	char			*cause;
	int64_t			 id;

	ck_assert_ptr_nonnull(k);
	ck_assert_msg(ingest(text, strlen(text), &id, &cause) == 0, "%s",
	    cause);
	ck_assert_int_eq(store_session_get(st, id, ss), 0);
	model = k->model_load(st, id, &cause);
	ck_assert_msg(model != NULL, "%s", cause);
	return (model);
}

START_TEST(test_report)
{
	struct store_session	 ss;
	const struct kind	*k = kind_find("mon");
	void			*model;
	char			*cause, *buf = NULL;
	size_t			 len = 0;
	int			 fmt;
	FILE			*f;

	model = model_of(good_text, &ss);
	ck_assert_uint_eq(((struct analyze_mon *)model)->nfn, 5);
	ck_assert_uint_eq(((struct analyze_mon *)model)->npaths, 5);
	for (fmt = 0; fmt < REPORT_FORMATS; fmt++) {
		if (!report_exports(k, fmt))
			continue;
		f = open_memstream(&buf, &len);
		ck_assert_msg(report_write(st, &ss, model, fmt, f, &cause) == 0,
		    "%s", cause);
		fclose(f);
		if (fmt == REPORT_PPROF) {
			pprof_check(buf, len);
			free(buf);
			buf = NULL;
			continue;
		}
		ck_assert_msg(strstr(buf, "leaf") != NULL, "format %d", fmt);
		switch (fmt) {
		case REPORT_COLLAPSED:
			/* Self time by stack; below zero is left out. */
			ck_assert_msg(strstr(buf, "main;work;leaf 500000\n") !=
			    NULL && strstr(buf, "main;helper@prog+0x1200"
			    " 50000\n") != NULL && strstr(buf,
			    "helper@prog+0x1210") == NULL, "%s", buf);
			break;
		case REPORT_CALLGRIND:
			ck_assert_msg(strstr(buf, "events: ns\n") != NULL &&
			    strstr(buf, "fn=work\n0 300000\ncfn=leaf\n"
			    "calls=1000 0\n0 500000\n") != NULL, "%s", buf);
			break;
		case REPORT_SPEEDSCOPE:
			ck_assert_msg(strstr(buf, "\"unit\":\"nanoseconds\"")
			    != NULL && strstr(buf, "\"weights\":[100000,"
			    "300000,500000,50000,0]") != NULL, "%s", buf);
			break;
		default:
			ck_assert_msg(strstr(buf, "helper@prog+0x1210") !=
			    NULL, "format %d", fmt);
		}
		free(buf);
		buf = NULL;
	}
	k->model_free(model);
	store_session_free(&ss);
}
END_TEST

/*
 * A library function caught at its GOT slot ("plt") stays plt: in the
 * table, in what the model reads and in the report's how column, so that
 * it is told from a patched entry.
 */
START_TEST(test_plt)
{
	struct store_session	 ss;
	const struct kind	*k = kind_find("mon");
	struct analyze_mon	*m;
	char			*text, *cause, *buf = NULL;
	size_t			 len = 0, i;
	int64_t			 id;
	FILE			*f;

	text = edit("50 jump prog 0x1210 8", "50 plt prog 0x1210 8");
	ck_assert_msg(ingest(text, strlen(text), &id, &cause) == 0, "%s",
	    cause);
	free(text);
	ck_assert_int_eq(tu_count(st, "SELECT group_concat(key || ' ' || how,"
	    " ', ') = 'helper@prog+0x1200 trap, helper@prog+0x1210 plt'"
	    " FROM (SELECT * FROM func WHERE how <> 'jump' ORDER BY key)"), 1);
	ck_assert_int_eq(store_session_get(st, id, &ss), 0);
	m = k->model_load(st, id, &cause);
	ck_assert_msg(m != NULL, "%s", cause);
	for (i = 0; i < m->nfn; i++) {
		if (strcmp(m->fn[i].key, "helper@prog+0x1210") == 0)
			ck_assert_int_eq(m->fn[i].how, STORE_HOW_PLT);
		else if (strcmp(m->fn[i].key, "helper@prog+0x1200") == 0)
			ck_assert_int_eq(m->fn[i].how, STORE_HOW_TRAP);
		else
			ck_assert_int_eq(m->fn[i].how, STORE_HOW_JUMP);
	}
	f = open_memstream(&buf, &len);
	ck_assert_msg(report_write(st, &ss, m, REPORT_CSV, f, &cause) == 0,
	    "%s", cause);
	fclose(f);
	ck_assert_msg(strstr(buf, ",plt,prog,4624,helper@prog+0x1210,") !=
	    NULL && strstr(buf, ",trap,prog,4608,helper@prog+0x1200,") !=
	    NULL, "%s", buf);
	free(buf);
	k->model_free(m);
	store_session_free(&ss);
}
END_TEST

/* How the store defines func, as sqlite_master keeps it. */
static char *
func_sql(struct store *s)
{
	sqlite3_stmt	*q;
	char		*sql;

	ck_assert_int_eq(sqlite3_prepare_v2(store_db(s), "SELECT sql FROM"
	    " sqlite_master WHERE name = 'func'", -1, &q, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	sql = xstrdup((const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return (sql);
}

/*
 * A store whose mon tables are at version 2 (func.how 'jump' or 'trap'
 * only, the CHECK as migration 1 made it) is migrated: its rows kept as
 * they were, the table's definition a new store's, and 'plt' taken.
 */
START_TEST(test_migrate_how)
{
	struct store	*fs;
	char		*cause = NULL, *fresh, *old;
	const char	*ins = "INSERT INTO func VALUES (1, 'f', 'f', 'prog', 1,"
	    " 0, 'plt', 1, 0, 0, NULL, NULL, 0, 0)";

	fresh = func_sql(st);
	tu_tmpdb_setup();
	fs = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(fs != NULL, "%s", cause);
	ck_assert_int_eq(store_exec(fs, "DROP TABLE func;"
	    "CREATE TABLE func ("
	    "  session INTEGER NOT NULL REFERENCES session(id)"
	    "   ON DELETE CASCADE,"
	    "  key TEXT NOT NULL, name TEXT NOT NULL, module TEXT NOT NULL,"
	    "  addr INTEGER NOT NULL, size INTEGER NOT NULL,"
	    "  how TEXT NOT NULL CHECK (how IN ('jump', 'trap')),"
	    "  calls INTEGER NOT NULL, self_ns INTEGER NOT NULL,"
	    "  total_ns INTEGER NOT NULL, self_cpu_ns INTEGER,"
	    "  total_cpu_ns INTEGER, self_err_ns INTEGER NOT NULL,"
	    "  total_err_ns INTEGER NOT NULL,"
	    "  PRIMARY KEY (session, key)) WITHOUT ROWID;"
	    "INSERT INTO session (id, kind, source, sha256, bytes) VALUES"
	    " (1, 'mon', 'a.mon', 'x', 1);"
	    "INSERT INTO func VALUES (1, 'a', 'a', 'prog', 16, 5, 'jump', 7,"
	    " 1, 2, 3, 4, 5, 6), (1, 'b', 'b', 'prog', 32, 3, 'trap', 8, 9,"
	    " 10, NULL, NULL, 11, 12);"
	    "UPDATE kind_schema SET version = 2 WHERE kind = 'mon'",
	    &cause), 0);
	ck_assert_int_ne(store_exec(fs, ins, &cause), 0);
	free(cause);
	store_close(fs);

	fs = store_open(tu_tmpdb, 0, kind_store(), &cause);
	ck_assert_msg(fs != NULL, "%s", cause);
	ck_assert_int_eq(tu_count(fs, "SELECT version FROM kind_schema WHERE"
	    " kind = 'mon'"), (int64_t)store_mon_schema.nmigrations);
	old = func_sql(fs);
	ck_assert_str_eq(old, fresh);
	free(old);
	ck_assert_int_eq(tu_count(fs, "SELECT group_concat(session || ':' ||"
	    " key || ':' || name || ':' || module || ':' || addr || ':' ||"
	    " size || ':' || how || ':' || calls || ':' || self_ns || ':' ||"
	    " total_ns || ':' || coalesce(self_cpu_ns, '-') || ':' ||"
	    " coalesce(total_cpu_ns, '-') || ':' || self_err_ns || ':' ||"
	    " total_err_ns, ' ') = '1:a:a:prog:16:5:jump:7:1:2:3:4:5:6"
	    " 1:b:b:prog:32:3:trap:8:9:10:-:-:11:12' FROM (SELECT * FROM func"
	    " ORDER BY key)"), 1);
	ck_assert_int_eq(store_exec(fs, ins, &cause), 0);
	ck_assert_int_ne(store_exec(fs, "UPDATE func SET how = 'out'",
	    &cause), 0);
	free(cause);
	store_close(fs);
	tu_tmpdb_teardown();
	free(fresh);
}
END_TEST

/* Text with every from replaced by to. */
static char *
edit_all(const char *text, const char *from, const char *to)
{
	const char	*p = text, *at;
	char		*s = xstrdup(""), *t;

	while ((at = strstr(p, from)) != NULL) {
		ck_assert_int_ne(asprintf(&t, "%s%.*s%s", s, (int)(at - p), p,
		    to), -1);
		free(s);
		s = t;
		p = at + strlen(from);
	}
	ck_assert_int_ne(asprintf(&t, "%s%s", s, p), -1);
	free(s);
	return (t);
}

/* The bytes below ' ' but line ends, and DEL, in s. */
static size_t
controls(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s < ' ' && *s != '\n') || *s == 0x7f;
	return (n);
}

/*
 * A function named to retitle the terminal, with a line end, and a
 * command that would clear the screen: the call profiles, which may go
 * to a terminal, hold none of their bytes raw (issue 18, point 17), and
 * the names stay on their lines.
 */
START_TEST(test_report_hostile_names)
{
	struct store_session	 ss;
	const struct kind	*k = kind_find("mon");
	static const int	 fmts[] = { REPORT_COLLAPSED,
				    REPORT_CALLGRIND };
	void			*model;
	char			*text, *t2, *cause, *buf = NULL;
	size_t			 len = 0, i;
	FILE			*f;

	t2 = edit_all(good_text, "leaf", "le%1B]0%3Bowned%07%0Aaf%7F");
	text = edit_all(t2, "command ./prog a%20b\n",
	    "command ./prog %1Bc%0D\n");
	free(t2);
	model = model_of(text, &ss);
	for (i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		f = open_memstream(&buf, &len);
		ck_assert_msg(report_write(st, &ss, model, fmts[i], f,
		    &cause) == 0, "%s", cause);
		fclose(f);
		ck_assert_msg(controls(buf) == 0, "format %d: %s", fmts[i],
		    buf);
		if (fmts[i] == REPORT_COLLAPSED)
			ck_assert_msg(strstr(buf, "main;work;le\\x1B]0:owned"
			    "\\x07\\naf\\x7F 500000\n") != NULL, "%s", buf);
		else
			ck_assert_msg(strstr(buf, "\ncmd: ./prog \\x1Bc\\r\n")
			    != NULL && strstr(buf, "\ncfn=le\\x1B]0:owned"
			    "\\x07\\naf\\x7F\ncalls=1000 0\n") != NULL, "%s",
			    buf);
		free(buf);
		buf = NULL;
	}
	k->model_free(model);
	store_session_free(&ss);
	free(text);
}
END_TEST

/*
 * With samples the call profiles are the sampler's CPU times, as the
 * calls view and the report show them, not the traps' (issue 21): here
 * the samples put work above leaf, the traps leaf above work; and the
 * samples in no traced function are a frame of their own, so that every
 * format's total is the program's time.  A profile taken with the
 * sampler off has the traps' times still.
 */
START_TEST(test_report_sampled)
{
	struct store_session	 ss;
	const struct kind	*k = kind_find("mon");
	static const struct {
		int		 fmt;
		const char	*want[3];
	} cases[] = {
		{ REPORT_COLLAPSED, { "\nmain;work 500000000\n",
		    "\nmain;work;leaf 200000000\n",
		    "\n[outside traced functions] 6000000\n" } },
		{ REPORT_CALLGRIND, { "event: ns : CPU time from samples\n"
		    "events: ns\nsummary: 740000000\n",
		    "\nfn=work\n0 500000000\ncfn=leaf\ncalls=1000 0\n"
		    "0 200000000\n",
		    "\nfn=[outside traced functions]\n0 6000000\n" } },
		{ REPORT_SPEEDSCOPE, { "\"endValue\":740000000,",
		    "\"weights\":[30000000,500000000,200000000,4000000,0,"
		    "6000000]",
		    ",{\"name\":\"[outside traced functions]\"}]" } },
	};
	void			*model;
	char			*t1, *t2, *text, *cause, *buf = NULL;
	size_t			 len = 0, i, j;
	FILE			*f;

	t1 = edit_all(good_text, "pvtrace-mon 2\n", "pvtrace-mon 3\n");
	t2 = edit_all(t1, "module prog patched /tmp/prog\n",
	    "module prog patched /tmp/prog\nsample_rate 1000\n"
	    "samples probe 1000 900000000 1000 950000000\n"
	    "samples outside 6 6000000 6 6000000\n");
	text = edit_all(t2, "\n[left out] 2\n", "\n[samples] 4\n"
	    "0 30 30000000 40 40000000\n"
	    "1 500 500000000 520 520000000\n"
	    "2 200 200000000 210 210000000\n"
	    "3 4 4000000 4 4000000\n"
	    "\n[left out] 2\n");
	free(t1);
	free(t2);
	model = model_of(text, &ss);
	ck_assert(((struct analyze_mon *)model)->sampled);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		f = open_memstream(&buf, &len);
		ck_assert_msg(report_write(st, &ss, model, cases[i].fmt, f,
		    &cause) == 0, "%s", cause);
		fclose(f);
		for (j = 0; j < 3; j++)
			ck_assert_msg(strstr(buf, cases[i].want[j]) != NULL,
			    "format %d: no %s in %s", cases[i].fmt,
			    cases[i].want[j], buf);
		/* leaf's time at the traps, 500 us, is nowhere. */
		ck_assert_msg(strstr(buf, "500000\n") == NULL &&
		    strstr(buf, "500000,") == NULL, "%s", buf);
		free(buf);
		buf = NULL;
	}
	k->model_free(model);
	store_session_free(&ss);
	/* Taken with the sampler off (--rate 0): the traps' times. */
	t1 = edit_all(text, "sample_rate 1000\n", "sample_rate 0\n");
	model = model_of(t1, &ss);
	f = open_memstream(&buf, &len);
	ck_assert_msg(report_write(st, &ss, model, REPORT_COLLAPSED, f,
	    &cause) == 0, "%s", cause);
	fclose(f);
	ck_assert_msg(strstr(buf, "\nmain;work;leaf 500000\n") != NULL &&
	    strstr(buf, "outside") == NULL, "%s", buf);
	free(buf);
	k->model_free(model);
	store_session_free(&ss);
	free(t1);
	free(text);
}
END_TEST

static Suite *
mon_suite(void)
{
	Suite	*s = suite_create("mon");
	TCase	*tc = tcase_create("reader");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_detect);
	tcase_add_test(tc, test_good);
	tcase_add_test(tc, test_good_v1);
	tcase_add_test(tc, test_module_path);
	tcase_add_test(tc, test_no_cpu);
	tcase_add_test(tc, test_bad_fields);
	tcase_add_test(tc, test_bad_tree);
	tcase_add_test(tc, test_bad_v1_paths);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_nul);
	tcase_add_test(tc, test_unknown_header);
	tcase_add_test(tc, test_inconsistent_calls);
	tcase_add_test(tc, test_truncation_every_length);
	tcase_add_test(tc, test_truncation_every_length_v1);
	tcase_add_test(tc, test_report);
	tcase_add_test(tc, test_report_hostile_names);
	tcase_add_test(tc, test_report_sampled);
	tcase_add_test(tc, test_plt);
	tcase_add_test(tc, test_migrate_how);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner	*sr = srunner_create(mon_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
