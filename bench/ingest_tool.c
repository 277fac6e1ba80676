/*
 * ingest_tool: the C half of bench/ingest.  It writes the input files,
 * runs the two reference inserters (a bare prepared-insert loop, and the
 * store API without a file parser), and times whole processes, so that
 * profview, sqlite3 .import and the references are measured the same way:
 * fork to exit, one process putting the same rows into a fresh store.
 *
 *	ingest_tool prf FILE N		PRF with N one-paragraph buckets
 *	ingest_tool map STEM N		STEM.PRF + STEM.MAP with N publics
 *	ingest_tool bare-buckets DB N	bare loop: the rows "prf" makes
 *	ingest_tool bare-symbols DB N	bare loop: the rows "map" makes
 *	ingest_tool multi-buckets DB N	bare loop, 64 rows a statement
 *	ingest_tool multi-symbols DB N	(as profview's store batches them)
 *	ingest_tool store-symbols DB N	store_symbol_add: the same rows
 *	ingest_tool time CMD [ARG...]	run CMD, print its seconds
 *
 * The row formulas live here once, so every inserter stores the same rows
 * (bench/ingest compares a checksum of each store to prove it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "xmalloc.h"
#include "kind.h"
#include "store/store.h"

/* PRF for (a): buckets of one paragraph from BENCH_LOW up. */
#define BENCH_LOW	0x1000u

/*
 * Map for (b): an EXE whose PSP is at BENCH_PSP; the image starts at
 * PSP+10h and public i sits at image byte i, so N publics need N bytes.
 */
#define BENCH_PSP	0x0100u
#define BENCH_MODULE	"_TEXT"

static uint32_t
bench_hits(uint32_t i)
{
	/* Spread, below 0xffff so no bucket reads as saturated. */
	return ((uint32_t)((i * 2654435761u) >> 16) % 60000);
}

/* The paragraph just past the image of n publics. */
static uint32_t
bench_map_high(uint32_t n)
{
	return (BENCH_PSP + 0x10 + (n + 15) / 16);
}

static void
bench_put16(FILE *f, uint32_t v)
{
	fputc(v & 0xff, f);
	fputc((v >> 8) & 0xff, f);
}

static void
bench_write_prf(const char *path, uint32_t low, uint32_t high, uint32_t siz,
    uint32_t n)
{
	FILE		*f;
	uint32_t	 i;

	if ((f = fopen(path, "wb")) == NULL)
		fatal("%s: %s", path, strerror(errno));
	bench_put16(f, 55);		/* clock_grain, us */
	bench_put16(f, n);
	bench_put16(f, siz);
	bench_put16(f, low);
	bench_put16(f, high);
	bench_put16(f, 0x0060);		/* dos_pa */
	bench_put16(f, 7);		/* hit_io */
	bench_put16(f, 11);		/* hit_dos */
	bench_put16(f, 13);		/* hit_high */
	for (i = 0; i < n; i++)
		bench_put16(f, bench_hits(i));
	if (fclose(f) != 0)
		fatal("%s: %s", path, strerror(errno));
}

static void
bench_prf(const char *path, uint32_t n)
{
	if (n == 0 || BENCH_LOW + n > 0xffff)
		fatal("prf: 1 to %u buckets", 0xffff - BENCH_LOW);
	bench_write_prf(path, BENCH_LOW, BENCH_LOW + n, 1, n);
}

/* Public i's name; buf holds at least 16 bytes. */
static const char *
bench_name(char *buf, uint32_t i)
{
	char	*p = buf + 15;

	/* By hand: snprintf would cost more than the insert it feeds. */
	*p = '\0';
	do {
		*--p = '0' + i % 10;
		i /= 10;
	} while (i != 0);
	*--p = '_';
	*--p = 'f';
	*--p = '_';
	return (p);
}

static void
bench_symbol_row(uint32_t i, uint32_t n, uint64_t *addr, uint64_t *size)
{
	*addr = (uint64_t)(BENCH_PSP + 0x10) * 16 + i;
	/* What attach computes: to the next public, the last to the end. */
	if (i + 1 < n)
		*size = 1;
	else
		*size = (uint64_t)bench_map_high(n) * 16 - *addr;
}

/*
 * A Microsoft LINK map: segment table, publics by value as seg:off, and
 * the PRF of the same program (few, large buckets: the rows are symbols).
 */
static void
bench_map(const char *stem, uint32_t n)
{
	FILE		*f;
	char		*path, name[16];
	uint32_t	 i, high, span, siz, nb;

	if (n == 0 || bench_map_high(n) > 0xffff)
		fatal("map: 1 to %u publics", (0xffff - BENCH_PSP - 0x10) * 16);
	high = bench_map_high(n);
	span = high - BENCH_PSP;
	siz = (span + 15) / 16;
	nb = (span + siz - 1) / siz;
	path = xasprintf("%s.PRF", stem);
	bench_write_prf(path, BENCH_PSP, high, siz, nb);
	free(path);

	path = xasprintf("%s.MAP", stem);
	if ((f = fopen(path, "w")) == NULL)
		fatal("%s: %s", path, strerror(errno));
	fprintf(f, "\n Start  Stop   Length Name               Class\n");
	fprintf(f, " 00000H %05XH %05XH %-18s CODE\n\n", n - 1, n,
	    BENCH_MODULE);
	fprintf(f, "  Address         Publics by Value\n\n");
	for (i = 0; i < n; i++) {
		fprintf(f, " %04X:%04X       %s\n", (i >> 16) << 12,
		    i & 0xffff, bench_name(name, i));
	}
	fprintf(f, "\nProgram entry point at 0000:0000\n");
	if (fclose(f) != 0)
		fatal("%s: %s", path, strerror(errno));
	free(path);
}

static struct store *
bench_open(const char *db)
{
	struct store	*st;
	char		*cause = NULL;

	if ((st = store_open(db, 0, kind_store(), &cause)) == NULL)
		fatal("%s", cause);
	return (st);
}

static void
bench_exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		fatal("%s: %s", sql, sqlite3_errmsg(db));
}

static sqlite3_stmt *
bench_prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt	*s;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fatal("%s: %s", sql, sqlite3_errmsg(db));
	return (s);
}

static void
bench_step(sqlite3 *db, sqlite3_stmt *s)
{
	if (sqlite3_step(s) != SQLITE_DONE)
		fatal("insert: %s", sqlite3_errmsg(db));
	sqlite3_reset(s);
}

/*
 * The reference, SQLite's own limit: a plain connection with SQLite's
 * defaults (so no foreign key checks) and the store's durability (WAL,
 * synchronous NORMAL), one transaction, one prepared statement, bind,
 * step, reset.  Nothing any inserter of these rows could skip.
 */
static sqlite3 *
bench_bare_open(const char *path)
{
	sqlite3	*db;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK)
		fatal("%s: %s", path, sqlite3_errmsg(db));
	bench_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
	    " BEGIN IMMEDIATE; INSERT INTO session(kind, source, sha256, bytes)"
	    " VALUES ('prf', 'bare', 'bare', 0)");
	return (db);
}

static void
bench_bare_close(sqlite3 *db, sqlite3_stmt *s)
{
	sqlite3_finalize(s);
	bench_exec(db, "COMMIT");
	if (sqlite3_close(db) != SQLITE_OK)
		fatal("close: %s", sqlite3_errmsg(db));
}

/*
 * "INSERT INTO table(columns) VALUES" and rows of five parameters; rows
 * > 1 is the multi-row form profview's store uses for bulk tables.
 */
static sqlite3_stmt *
bench_insert(sqlite3 *db, const char *table, int rows)
{
	sqlite3_stmt	*s;
	char		*sql, *p;
	int		 i;

	sql = xmalloc(128 + (size_t)rows * 20);
	p = sql + sprintf(sql, "INSERT INTO %s VALUES ", table);
	for (i = 0; i < rows; i++)
		p += sprintf(p, "%s(?, ?, ?, ?, ?)", i != 0 ? ", " : "");
	s = bench_prepare(db, sql);
	free(sql);
	return (s);
}

/* Bind row i of the bucket table at parameter first. */
static void
bench_bind_bucket(sqlite3_stmt *s, int first, uint32_t i)
{
	uint64_t	lo = (uint64_t)(BENCH_LOW + i) * 16;

	sqlite3_bind_int64(s, first, 1);
	sqlite3_bind_int64(s, first + 1, i);
	sqlite3_bind_int64(s, first + 2, (sqlite3_int64)lo);
	sqlite3_bind_int64(s, first + 3, (sqlite3_int64)lo + 16);
	sqlite3_bind_int64(s, first + 4, bench_hits(i));
}

/* Bind symbol i; its name goes into buf, which must live until the step. */
static void
bench_bind_symbol(sqlite3_stmt *s, int first, uint32_t i, uint32_t n,
    char *buf)
{
	const char	*name = bench_name(buf, i);
	uint64_t	 addr, size;

	bench_symbol_row(i, n, &addr, &size);
	sqlite3_bind_int64(s, first, 1);
	sqlite3_bind_text(s, first + 1, BENCH_MODULE, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, first + 2, name, buf + 15 - name, SQLITE_STATIC);
	sqlite3_bind_int64(s, first + 3, (sqlite3_int64)addr);
	sqlite3_bind_int64(s, first + 4, (sqlite3_int64)size);
}

#define BENCH_MULTI	64

/* rows rows a statement, the remainder one by one. */
static void
bench_bare(const char *path, int symbols, uint32_t n, int rows)
{
	sqlite3		*db = bench_bare_open(path);
	sqlite3_stmt	*s, *one;
	static char	 names[BENCH_MULTI][16];
	const char	*table;
	uint32_t	 i = 0;
	int		 r;

	table = symbols ? "symbol(session, module, name, addr, size)" :
	    "bucket(session, idx, lo, hi, hits)";
	s = bench_insert(db, table, rows);
	for (; rows > 1 && n - i >= (uint32_t)rows; i += rows) {
		for (r = 0; r < rows; r++) {
			if (symbols)
				bench_bind_symbol(s, 1 + 5 * r, i + r, n,
				    names[r]);
			else
				bench_bind_bucket(s, 1 + 5 * r, i + r);
		}
		bench_step(db, s);
	}
	one = rows > 1 ? bench_insert(db, table, 1) : s;
	for (; i < n; i++) {
		if (symbols)
			bench_bind_symbol(one, 1, i, n, names[0]);
		else
			bench_bind_bucket(one, 1, i);
		bench_step(db, one);
	}
	if (one != s)
		sqlite3_finalize(one);
	bench_bare_close(db, s);
}

/* Symbols through profview's own insert path, minus a map parser. */
static void
bench_store_symbols(const char *db, uint32_t n)
{
	struct store	*st = bench_open(db);
	char		 buf[16], *cause = NULL;
	uint32_t	 i;
	uint64_t	 addr, size;
	int64_t		 session;

	if (store_begin(st, &cause) != 0)
		fatal("%s", cause);
	session = store_session_add(st, "prf", "store", "store", 0, NULL, NULL,
	    &cause);
	if (session < 0)
		fatal("%s", cause);
	for (i = 0; i < n; i++) {
		bench_symbol_row(i, n, &addr, &size);
		if (store_symbol_add(st, session, BENCH_MODULE,
		    bench_name(buf, i), addr, size) != 0)
			fatal("symbol: %s", store_error(st));
	}
	if (store_commit(st, &cause) != 0)
		fatal("%s", cause);
	store_close(st);
}

static double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

/* Run argv, print its wall time; its output goes to /dev/null. */
static int
bench_time(char **argv)
{
	double	 t0, t1;
	pid_t	 pid;
	int	 status;

	t0 = bench_now();
	if ((pid = fork()) == -1)
		fatal("fork: %s", strerror(errno));
	if (pid == 0) {
		if (freopen("/dev/null", "w", stdout) == NULL)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "ingest_tool: %s: %s\n", argv[0],
		    strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) == -1)
		fatal("waitpid: %s", strerror(errno));
	t1 = bench_now();
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "ingest_tool: %s failed\n", argv[0]);
		return (1);
	}
	printf("%.6f\n", t1 - t0);
	return (0);
}

static uint32_t
bench_count(const char *s)
{
	char		*end;
	unsigned long	 v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || v == 0 ||
	    v > 0xffffffffUL)
		fatal("%s: not a row count", s);
	return ((uint32_t)v);
}

int
main(int argc, char **argv)
{
	const char	*cmd = argc > 1 ? argv[1] : "";

	if (strcmp(cmd, "time") == 0 && argc > 2)
		return (bench_time(argv + 2));
	if (argc != 4) {
		fprintf(stderr, "usage: ingest_tool prf|map|bare-buckets|"
		    "bare-symbols|multi-buckets|multi-symbols|store-symbols"
		    " PATH N\n"
		    "       ingest_tool time CMD [ARG...]\n");
		return (2);
	}
	if (strcmp(cmd, "prf") == 0)
		bench_prf(argv[2], bench_count(argv[3]));
	else if (strcmp(cmd, "map") == 0)
		bench_map(argv[2], bench_count(argv[3]));
	else if (strcmp(cmd, "bare-buckets") == 0)
		bench_bare(argv[2], 0, bench_count(argv[3]), 1);
	else if (strcmp(cmd, "bare-symbols") == 0)
		bench_bare(argv[2], 1, bench_count(argv[3]), 1);
	else if (strcmp(cmd, "multi-buckets") == 0)
		bench_bare(argv[2], 0, bench_count(argv[3]), BENCH_MULTI);
	else if (strcmp(cmd, "multi-symbols") == 0)
		bench_bare(argv[2], 1, bench_count(argv[3]), BENCH_MULTI);
	else if (strcmp(cmd, "store-symbols") == 0)
		bench_store_symbols(argv[2], bench_count(argv[3]));
	else {
		fprintf(stderr, "ingest_tool: unknown command %s\n", cmd);
		return (2);
	}
	return (0);
}
