/*
 * Helpers shared by the unit tests: build PRF files in memory, ingest
 * them into a :memory: store, count rows.
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "kind.h"
#include "ingest/ingest.h"
#include "store/store.h"

#define TU_UNUSED	__attribute__((unused))

/* One entry of a HITS section as the file has it. */
struct tu_hit {
	uint16_t	 ip;
	uint16_t	 cs;
	uint32_t	 hits;
};

/*
 * A PRF file's fields; trailer only when pv32 is set, a HITS section
 * after it only when hits is set, then tail bytes as they are.
 */
struct tu_prf {
	uint16_t	 w[9];	/* clock_grain .. hit_high */
	const uint16_t	*h16;	/* w[1] counts */
	int		 pv32;
	uint16_t	 version;
	uint16_t	 flags;
	uint32_t	 total, io, dos, high;
	const uint32_t	*h32;	/* w[1] counts */
	int		 hits;
	const char	*hits_tag;	/* NULL: "HITS" */
	int		 hits_len_set;	/* else length = 12 + 8 * nhit */
	uint32_t	 hits_len;
	uint16_t	 hits_version, hits_flags, hits_capacity, hits_count;
	uint32_t	 hits_missed;
	const struct tu_hit *hit;	/* nhit entries are written */
	size_t		 nhit;
	const uint8_t	*tail;
	size_t		 ntail;
};

/* Fill f's HITS section: version 1, count = capacity = n entries. */
static TU_UNUSED void
tu_prf_hits(struct tu_prf *f, const struct tu_hit *hit, size_t n,
    uint32_t missed)
{
	f->hits = 1;
	f->hits_version = 1;
	f->hits_flags = missed != 0;
	f->hits_capacity = (uint16_t)n;
	f->hits_count = (uint16_t)n;
	f->hits_missed = missed;
	f->hit = hit;
	f->nhit = n;
}

/* Where f's HITS section starts in its bytes. */
static TU_UNUSED size_t
tu_prf_hits_at(const struct tu_prf *f)
{
	return (18 + 2 * (size_t)f->w[1] + 24 + 4 * (size_t)f->w[1]);
}

static void
tu_u16(uint8_t **p, uint16_t v)
{
	(*p)[0] = v & 0xff;
	(*p)[1] = v >> 8;
	*p += 2;
}

static void
tu_u32(uint8_t **p, uint32_t v)
{
	tu_u16(p, v & 0xffff);
	tu_u16(p, v >> 16);
}

/* Serialize f into a malloc'd buffer; *len its size. */
static TU_UNUSED uint8_t *
tu_prf_bytes(const struct tu_prf *f, size_t *len)
{
	uint8_t	*buf, *p;
	size_t	 i;

	*len = 18 + 2 * (size_t)f->w[1] + (f->pv32 ? 24 + 4 * (size_t)f->w[1] :
	    0) + (f->hits ? 20 + 8 * f->nhit : 0) + f->ntail;
	p = buf = calloc(1, *len + 1);
	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < 9; i++)
		tu_u16(&p, f->w[i]);
	for (i = 0; i < f->w[1]; i++)
		tu_u16(&p, f->h16 != NULL ? f->h16[i] : 0);
	if (f->pv32) {
		memcpy(p, "PV32", 4);
		p += 4;
		tu_u16(&p, f->version);
		tu_u16(&p, f->flags);
		tu_u32(&p, f->total);
		tu_u32(&p, f->io);
		tu_u32(&p, f->dos);
		tu_u32(&p, f->high);
		for (i = 0; i < f->w[1]; i++)
			tu_u32(&p, f->h32 != NULL ? f->h32[i] : 0);
	}
	if (f->hits) {
		memcpy(p, f->hits_tag != NULL ? f->hits_tag : "HITS", 4);
		p += 4;
		tu_u32(&p, f->hits_len_set ? f->hits_len :
		    12 + 8 * (uint32_t)f->nhit);
		tu_u16(&p, f->hits_version);
		tu_u16(&p, f->hits_flags);
		tu_u16(&p, f->hits_capacity);
		tu_u16(&p, f->hits_count);
		tu_u32(&p, f->hits_missed);
		for (i = 0; i < f->nhit; i++) {
			tu_u16(&p, f->hit[i].ip);
			tu_u16(&p, f->hit[i].cs);
			tu_u32(&p, f->hit[i].hits);
		}
	}
	if (f->ntail != 0)
		memcpy(p, f->tail, f->ntail);
	return (buf);
}

static TU_UNUSED struct store *
tu_store(void)
{
	struct store	*st;
	char		*cause = NULL;

	st = store_open(":memory:", 0, kind_store(), &cause);
	ck_assert_msg(st != NULL, "%s", cause);
	return (st);
}

static TU_UNUSED int64_t
tu_count(struct store *st, const char *sql)
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

/* Rows in every data table together. */
static TU_UNUSED int64_t
tu_rows(struct store *st)
{
	return (tu_count(st, "SELECT (SELECT count(*) FROM session) +"
	    " (SELECT count(*) FROM warning) + (SELECT count(*) FROM symbol) +"
	    " (SELECT count(*) FROM counter) + (SELECT count(*) FROM bucket) +"
	    " (SELECT count(*) FROM prf) + (SELECT count(*) FROM ovd) +"
	    " (SELECT count(*) FROM ovr_unit) + (SELECT count(*) FROM ovr_event)"
	    " + (SELECT count(*) FROM ovr_loaded) + (SELECT count(*) FROM"
	    " prf_hit) + (SELECT count(*) FROM prf_image) + (SELECT count(*) FROM"
	    " prf_source)"));
}

/* Ingest len bytes as name; returns ingest_bytes' result. */
static TU_UNUSED int
tu_ingest(struct store *st, const char *name, const uint8_t *buf,
    size_t len, const struct ingest_opts *opts, int64_t *id, char **cause)
{
	const char	*kind;
	int		 reused;

	*cause = NULL;
	return (ingest_bytes(st, name, buf, len, opts, id, &kind, &reused,
	    cause));
}

/* Write text to a new temporary file; the path is static storage. */
static TU_UNUSED const char *
tu_tmpfile(const char *suffix, const void *text, size_t len)
{
	static char	path[4][64];
	static int	next;
	char		*p = path[next++ % 4];
	int		 fd;

	snprintf(p, 64, "/tmp/pvtestXXXXXX%s", suffix);
	fd = mkstemps(p, (int)strlen(suffix));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	return (p);
}

/* A temporary store file path (not created), for tests of a real file. */
static char	tu_tmpdb[64];

static TU_UNUSED void
tu_tmpdb_setup(void)
{
	int	fd;

	snprintf(tu_tmpdb, sizeof tu_tmpdb, "/tmp/pvtestXXXXXX");
	fd = mkstemp(tu_tmpdb);
	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(tu_tmpdb);
}

/* Remove the store file and the WAL files SQLite left beside it. */
static TU_UNUSED void
tu_tmpdb_teardown(void)
{
	char	path[96];

	unlink(tu_tmpdb);
	snprintf(path, sizeof path, "%s-wal", tu_tmpdb);
	unlink(path);
	snprintf(path, sizeof path, "%s-shm", tu_tmpdb);
	unlink(path);
}

#endif
