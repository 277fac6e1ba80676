/*
 * The prf kind's tables: the PRF header, one row a session (the buckets
 * and symbols are core tables); the file's hit table, when it has one;
 * the profiled program's load image, so that the store stands alone; and
 * the lines of its NASM listing, by address, for the annotate view.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "store/store.h"
#include "store/prf.h"

static const char *const store_prf_migrations[] = {
	/* 0 -> 1: as the core's first migration made it before. */
	"CREATE TABLE IF NOT EXISTS prf ("
	"  session INTEGER PRIMARY KEY REFERENCES session(id) ON DELETE CASCADE,"
	"  clock_grain INTEGER NOT NULL,"
	"  bucket_num INTEGER NOT NULL,"
	"  bucket_siz INTEGER NOT NULL,"
	"  prog_low_pa INTEGER NOT NULL,"
	"  prog_high_pa INTEGER NOT NULL,"
	"  dos_pa INTEGER NOT NULL,"
	"  hit_io INTEGER NOT NULL,"
	"  hit_dos INTEGER NOT NULL,"
	"  hit_high INTEGER NOT NULL,"
	"  pv32 INTEGER NOT NULL DEFAULT 0,"
	"  saturated INTEGER NOT NULL DEFAULT 0);",
	/*
	 * 1 -> 2: exact attribution.  The HITS section's header goes on
	 * prf (NULL where a session has no table, as every older one), its
	 * entries into prf_hit; the program's image into prf_image.  A
	 * CS:IP is one entry, so (session, cs, ip) is the key; reads by
	 * session sort at most 65535 rows by addr.
	 */
	"ALTER TABLE prf ADD COLUMN hit_table INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE prf ADD COLUMN hit_table_full INTEGER;"
	"ALTER TABLE prf ADD COLUMN hit_table_capacity INTEGER;"
	"ALTER TABLE prf ADD COLUMN hit_missed INTEGER;"
	"CREATE TABLE prf_hit ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  addr INTEGER NOT NULL,"
	"  cs INTEGER NOT NULL,"
	"  ip INTEGER NOT NULL,"
	"  hits INTEGER NOT NULL,"
	"  PRIMARY KEY (session, cs, ip)) WITHOUT ROWID;"
	"CREATE TABLE prf_image ("
	"  session INTEGER PRIMARY KEY"
	"   REFERENCES session(id) ON DELETE CASCADE,"
	"  addr INTEGER NOT NULL,"
	"  bytes BLOB NOT NULL);",
	/*
	 * 2 -> 3: source lines.  The program's NASM listing, checked against
	 * prf_image at ingest, one row a line of it that has an address (or
	 * a label or comment just before one).  Read by address range for a
	 * symbol, so the key leads with addr; line (the listing file's) keeps
	 * the lines of one address in order and makes the key unique.
	 */
	"CREATE TABLE prf_source ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  addr INTEGER NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  text TEXT NOT NULL,"
	"  PRIMARY KEY (session, addr, line)) WITHOUT ROWID;",
};

static const char *const store_prf_purge[] = {
	"DELETE FROM prf_source WHERE session = ?1",
	"DELETE FROM prf_hit WHERE session = ?1",
	"DELETE FROM prf_image WHERE session = ?1",
	"DELETE FROM prf WHERE session = ?1",
};

const struct store_schema store_prf_schema = {
	store_prf_migrations,
	sizeof store_prf_migrations / sizeof store_prf_migrations[0],
	"SELECT printf('%d buckets of %d para, %d samples, grain %d us',"
	" p.bucket_num, p.bucket_siz, p.hit_io + p.hit_dos + p.hit_high +"
	" (SELECT coalesce(sum(hits), 0) FROM bucket b WHERE b.session = s.id),"
	" p.clock_grain) FROM prf p WHERE p.session = s.id",
	store_prf_purge,
	sizeof store_prf_purge / sizeof store_prf_purge[0],
	NULL
};

static const struct store_table store_t_prf = {
	"prf", "clock_grain, bucket_num, bucket_siz, prog_low_pa,"
	" prog_high_pa, dos_pa, hit_io, hit_dos, hit_high, pv32, saturated,"
	" hit_table, hit_table_full, hit_table_capacity, hit_missed",
	NULL
};
static const struct store_table store_t_prf_hit = {
	"prf_hit", "addr, cs, ip, hits", NULL
};
static const struct store_table store_t_prf_image = {
	"prf_image", "addr, bytes", NULL
};
static const struct store_table store_t_prf_source = {
	"prf_source", "addr, line, text", NULL
};

int
store_prf_add(struct store *st, int64_t session, const struct store_prf *p)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_prf, session)) == NULL)
		return (-1);
	store_put_int(r, p->clock_grain);
	store_put_int(r, p->bucket_num);
	store_put_int(r, p->bucket_siz);
	store_put_int(r, p->prog_low_pa);
	store_put_int(r, p->prog_high_pa);
	store_put_int(r, p->dos_pa);
	store_put_int(r, (int64_t)p->hit_io);
	store_put_int(r, (int64_t)p->hit_dos);
	store_put_int(r, (int64_t)p->hit_high);
	store_put_int(r, p->pv32);
	store_put_int(r, p->saturated);
	store_put_int(r, p->hit_table);
	/* Without a table these say nothing: NULL, not 0. */
	if (p->hit_table) {
		store_put_int(r, p->hit_table_full);
		store_put_int(r, p->hit_table_capacity);
		store_put_int(r, (int64_t)p->hit_missed);
	} else {
		store_put_null(r);
		store_put_null(r);
		store_put_null(r);
	}
	return (store_row_end(st, r));
}

#define STORE_PRF_COLUMNS(X) \
	X(PRF_CLOCK_GRAIN, "clock_grain") X(PRF_BUCKET_NUM, "bucket_num") \
	X(PRF_BUCKET_SIZ, "bucket_siz") X(PRF_PROG_LOW_PA, "prog_low_pa") \
	X(PRF_PROG_HIGH_PA, "prog_high_pa") X(PRF_DOS_PA, "dos_pa") \
	X(PRF_HIT_IO, "hit_io") X(PRF_HIT_DOS, "hit_dos") \
	X(PRF_HIT_HIGH, "hit_high") X(PRF_PV32, "pv32") \
	X(PRF_SATURATED, "saturated") X(PRF_HIT_TABLE, "hit_table") \
	X(PRF_HIT_TABLE_FULL, "coalesce(hit_table_full, 0)") \
	X(PRF_HIT_TABLE_CAPACITY, "coalesce(hit_table_capacity, 0)") \
	X(PRF_HIT_MISSED, "coalesce(hit_missed, 0)")
STORE_COLUMNS(store_prf_columns, STORE_PRF_COLUMNS);

/* The header of PRF session; -1 if it has none. */
int
store_prf_get(struct store *st, int64_t session, struct store_prf *p)
{
	struct store_cursor	*c;
	int			 rc;

	memset(p, 0, sizeof *p);
	c = store_cursor_select(st, store_prf_columns,
	    "FROM prf WHERE session = ?1", session);
	if ((rc = store_cursor_step(c)) == 1) {
		p->clock_grain = (uint32_t)store_cursor_int(c, PRF_CLOCK_GRAIN);
		p->bucket_num = (uint32_t)store_cursor_int(c, PRF_BUCKET_NUM);
		p->bucket_siz = (uint32_t)store_cursor_int(c, PRF_BUCKET_SIZ);
		p->prog_low_pa = (uint32_t)store_cursor_int(c, PRF_PROG_LOW_PA);
		p->prog_high_pa =
		    (uint32_t)store_cursor_int(c, PRF_PROG_HIGH_PA);
		p->dos_pa = (uint32_t)store_cursor_int(c, PRF_DOS_PA);
		p->hit_io = (uint64_t)store_cursor_int(c, PRF_HIT_IO);
		p->hit_dos = (uint64_t)store_cursor_int(c, PRF_HIT_DOS);
		p->hit_high = (uint64_t)store_cursor_int(c, PRF_HIT_HIGH);
		p->pv32 = (int)store_cursor_int(c, PRF_PV32);
		p->saturated = (int)store_cursor_int(c, PRF_SATURATED);
		p->hit_table = (int)store_cursor_int(c, PRF_HIT_TABLE);
		p->hit_table_full =
		    (int)store_cursor_int(c, PRF_HIT_TABLE_FULL);
		p->hit_table_capacity =
		    (uint32_t)store_cursor_int(c, PRF_HIT_TABLE_CAPACITY);
		p->hit_missed = (uint64_t)store_cursor_int(c, PRF_HIT_MISSED);
	}
	store_cursor_close(c);
	return (rc == 1 ? 0 : -1);
}

int
store_prf_hit_add(struct store *st, int64_t session,
    const struct store_prf_hit *e)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_prf_hit, session)) == NULL)
		return (-1);
	store_put_int(r, (int64_t)e->addr);
	store_put_int(r, e->cs);
	store_put_int(r, e->ip);
	store_put_int(r, (int64_t)e->hits);
	return (store_row_end(st, r));
}

#define STORE_PRF_HIT_COLUMNS(X) \
	X(HIT_ADDR, "addr") X(HIT_CS, "cs") X(HIT_IP, "ip") \
	X(HIT_HITS, "hits")
STORE_COLUMNS(store_prf_hit_columns, STORE_PRF_HIT_COLUMNS);

/* A session's hit table by address (ties by CS), for store_prf_hit_next. */
struct store_cursor *
store_prf_hits(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_prf_hit_columns,
	    "FROM prf_hit WHERE session = ?1 ORDER BY addr, cs", session));
}

int
store_prf_hit_next(struct store_cursor *c, struct store_prf_hit *e)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	e->addr = (uint64_t)store_cursor_int(c, HIT_ADDR);
	e->cs = (uint16_t)store_cursor_int(c, HIT_CS);
	e->ip = (uint16_t)store_cursor_int(c, HIT_IP);
	e->hits = (uint64_t)store_cursor_int(c, HIT_HITS);
	return (1);
}

/* The program's load image, len bytes placed at linear address addr. */
int
store_prf_image_add(struct store *st, int64_t session, uint64_t addr,
    const uint8_t *bytes, size_t len)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_prf_image, session)) == NULL)
		return (-1);
	store_put_int(r, (int64_t)addr);
	store_put_blob(r, bytes, len);
	return (store_row_end(st, r));
}

#define STORE_PRF_IMAGE_COLUMNS(X) \
	X(IMAGE_ADDR, "addr") X(IMAGE_BYTES, "bytes")
STORE_COLUMNS(store_prf_image_columns, STORE_PRF_IMAGE_COLUMNS);

/*
 * A session's image: 1 with *addr, *bytes (to free) and *len, 0 when it
 * has none, -1 on a read error.
 */
int
store_prf_image_get(struct store *st, int64_t session, uint64_t *addr,
    uint8_t **bytes, size_t *len)
{
	struct store_cursor	*c;
	const void		*p;
	int			 rc;

	*bytes = NULL;
	*len = 0;
	*addr = 0;
	c = store_cursor_select(st, store_prf_image_columns,
	    "FROM prf_image WHERE session = ?1", session);
	if ((rc = store_cursor_step(c)) == 1) {
		*addr = (uint64_t)store_cursor_int(c, IMAGE_ADDR);
		p = store_cursor_blob(c, IMAGE_BYTES, len);
		*bytes = xmalloc(*len + 1);
		if (*len != 0)
			memcpy(*bytes, p, *len);
	}
	store_cursor_close(c);
	return (rc);
}

/* A line of the program's listing at linear address addr. */
int
store_prf_source_add(struct store *st, int64_t session, uint64_t addr,
    int64_t line, const char *text)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_prf_source, session)) == NULL)
		return (-1);
	store_put_int(r, (int64_t)addr);
	store_put_int(r, line);
	store_put_text(r, text);
	return (store_row_end(st, r));
}

#define STORE_PRF_SOURCE_COLUMNS(X) \
	X(SOURCE_ADDR, "addr") X(SOURCE_LINE, "line") X(SOURCE_TEXT, "text")
STORE_COLUMNS(store_prf_source_columns, STORE_PRF_SOURCE_COLUMNS);

/*
 * A session's listing lines at addresses [lo, hi), by address and then
 * in listing order, for store_prf_source_next.
 */
struct store_cursor *
store_prf_sources(struct store *st, int64_t session, uint64_t lo,
    uint64_t hi)
{
	struct store_cursor	*c;

	c = store_cursor_select(st, store_prf_source_columns,
	    "FROM prf_source WHERE session = ?1 AND addr >= ?2 AND addr < ?3"
	    " ORDER BY addr, line", session);
	store_cursor_bind(c, 2, (int64_t)lo);
	store_cursor_bind(c, 3, (int64_t)hi);
	return (c);
}

/* The next line; its text is valid until the cursor moves. */
int
store_prf_source_next(struct store_cursor *c, struct store_prf_source *e)
{
	const char	*t;
	int		 rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	e->addr = (uint64_t)store_cursor_int(c, SOURCE_ADDR);
	e->line = store_cursor_int(c, SOURCE_LINE);
	t = store_cursor_text(c, SOURCE_TEXT);
	e->text = t != NULL ? t : "";
	return (1);
}
