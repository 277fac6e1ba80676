/*
 * The prf kind's table: the PRF header, one row a session (the buckets
 * and symbols are core tables).
 */
#include <stddef.h>

#include "store/store.h"

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
};

static const char *const store_prf_purge[] = {
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
	sizeof store_prf_purge / sizeof store_prf_purge[0]
};

static const struct store_table store_t_prf = {
	"prf", "clock_grain, bucket_num, bucket_siz, prog_low_pa,"
	" prog_high_pa, dos_pa, hit_io, hit_dos, hit_high, pv32, saturated",
	NULL
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
	return (store_row_end(st, r));
}

/* The header of PRF session; -1 if it has none. */
int
store_prf_get(struct store *st, int64_t session, struct store_prf *p)
{
	struct store_cursor	*c;
	int			 rc;

	c = store_cursor_open(st, "SELECT clock_grain, bucket_num,"
	    " bucket_siz, prog_low_pa, prog_high_pa, dos_pa, hit_io, hit_dos,"
	    " hit_high, pv32, saturated FROM prf WHERE session = ?1", session);
	if ((rc = store_cursor_step(c)) == 1) {
		p->clock_grain = (uint32_t)store_cursor_int(c, 0);
		p->bucket_num = (uint32_t)store_cursor_int(c, 1);
		p->bucket_siz = (uint32_t)store_cursor_int(c, 2);
		p->prog_low_pa = (uint32_t)store_cursor_int(c, 3);
		p->prog_high_pa = (uint32_t)store_cursor_int(c, 4);
		p->dos_pa = (uint32_t)store_cursor_int(c, 5);
		p->hit_io = (uint64_t)store_cursor_int(c, 6);
		p->hit_dos = (uint64_t)store_cursor_int(c, 7);
		p->hit_high = (uint64_t)store_cursor_int(c, 8);
		p->pv32 = (int)store_cursor_int(c, 9);
		p->saturated = (int)store_cursor_int(c, 10);
	}
	store_cursor_close(c);
	return (rc == 1 ? 0 : -1);
}
