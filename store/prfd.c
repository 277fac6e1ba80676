/*
 * The prfd kind's tables: a Dos32Profile dump.  The header with the
 * process's global counters (PRFRET0 of us_thrdno 0) and what our
 * extension record says, one row a session; each thread's PRFRET0; the
 * slots (PRFVA) with their modules; the hit table (PRFRET2) by address.
 * The detail counters (PRFRET3) are core bucket rows, each slot's a run
 * of idx that prfd_slot names, and the modules' symbols core symbol
 * rows, so that the histogram and its exports serve them.  Names are
 * Dos32Profile's, without their r0_/va_ prefixes.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "store/store.h"
#include "store/prfd.h"

static const char *const store_prfd_migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE IF NOT EXISTS prfd ("
	"  session INTEGER PRIMARY KEY REFERENCES session(id) ON DELETE CASCADE,"
	"  pid INTEGER NOT NULL,"
	"  width INTEGER NOT NULL,"
	"  timval INTEGER NOT NULL,"
	"  flags INTEGER NOT NULL,"
	"  shift INTEGER NOT NULL,"
	"  idle INTEGER NOT NULL,"
	"  vm86 INTEGER NOT NULL,"
	"  kernel INTEGER NOT NULL,"
	"  shrmem INTEGER NOT NULL,"
	"  unknown INTEGER NOT NULL,"
	"  nhitbufs INTEGER NOT NULL,"
	"  hitbufcnt INTEGER NOT NULL,"
	"  errcnt INTEGER NOT NULL,"
	"  r0_timval INTEGER NOT NULL,"
	"  extension INTEGER NOT NULL,"
	"  hit_table INTEGER NOT NULL,"
	"  period_ns INTEGER,"
	"  samples INTEGER,"
	"  ns INTEGER,"
	"  command TEXT);"
	"CREATE TABLE IF NOT EXISTS prfd_thread ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  thrdno INTEGER NOT NULL,"
	"  tid INTEGER,"
	"  flags INTEGER NOT NULL,"
	"  idle INTEGER NOT NULL,"
	"  vm86 INTEGER NOT NULL,"
	"  kernel INTEGER NOT NULL,"
	"  shrmem INTEGER NOT NULL,"
	"  unknown INTEGER NOT NULL,"
	"  hitbufcnt INTEGER NOT NULL,"
	"  errcnt INTEGER NOT NULL,"
	"  PRIMARY KEY (session, thrdno)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS prfd_slot ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  vaddr INTEGER NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  flags INTEGER NOT NULL,"
	"  cnt INTEGER NOT NULL,"
	"  bucket_first INTEGER,"
	"  nbuckets INTEGER NOT NULL,"
	"  module TEXT,"
	"  build_id TEXT,"
	"  symbols INTEGER NOT NULL,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS prfd_hit ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  addr INTEGER NOT NULL,"
	"  hits INTEGER NOT NULL,"
	"  PRIMARY KEY (session, addr)) WITHOUT ROWID;",
	/* 1 -> 2: the modules samples fell in outside the slots */
	"CREATE TABLE IF NOT EXISTS prfd_module ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  lo INTEGER NOT NULL,"
	"  hi INTEGER NOT NULL,"
	"  pgoff INTEGER NOT NULL,"
	"  bias INTEGER NOT NULL,"
	"  kernel INTEGER NOT NULL,"
	"  path TEXT NOT NULL,"
	"  build_id TEXT,"
	"  samples INTEGER NOT NULL,"
	"  symbols INTEGER NOT NULL,"
	"  unresolved TEXT,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS prfd_module_hit ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  module INTEGER NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  hits INTEGER NOT NULL,"
	"  PRIMARY KEY (session, module, addr)) WITHOUT ROWID;",
};

static const char *const store_prfd_purge[] = {
	"DELETE FROM prfd_module_hit WHERE session = ?1",
	"DELETE FROM prfd_module WHERE session = ?1",
	"DELETE FROM prfd_hit WHERE session = ?1",
	"DELETE FROM prfd_slot WHERE session = ?1",
	"DELETE FROM prfd_thread WHERE session = ?1",
	"DELETE FROM prfd WHERE session = ?1",
};

const struct store_schema store_prfd_schema = {
	store_prfd_migrations,
	sizeof store_prfd_migrations / sizeof store_prfd_migrations[0],
	"SELECT printf('pid %d, %d slot%s, %d samples, counters of %d bytes',"
	" p.pid, (SELECT count(*) FROM prfd_slot l WHERE l.session = s.id),"
	" CASE (SELECT count(*) FROM prfd_slot l WHERE l.session = s.id)"
	" WHEN 1 THEN '' ELSE 's' END,"
	" p.idle + p.vm86 + p.kernel + p.shrmem + p.unknown +"
	" (SELECT coalesce(sum(cnt), 0) FROM prfd_slot l"
	" WHERE l.session = s.id) + (SELECT coalesce(sum(samples), 0)"
	" FROM prfd_module o WHERE o.session = s.id AND NOT o.kernel),"
	" 1 << p.shift)"
	" FROM prfd p WHERE p.session = s.id",
	store_prfd_purge,
	sizeof store_prfd_purge / sizeof store_prfd_purge[0],
	NULL
};

static const struct store_table store_t_prfd = {
	"prfd", "pid, width, timval, flags, shift, idle, vm86, kernel,"
	" shrmem, unknown, nhitbufs, hitbufcnt, errcnt, r0_timval, extension,"
	" hit_table, period_ns, samples, ns, command", NULL
};
static const struct store_table store_t_prfd_thread = {
	"prfd_thread", "thrdno, tid, flags, idle, vm86, kernel, shrmem,"
	" unknown, hitbufcnt, errcnt", NULL
};
static const struct store_table store_t_prfd_slot = {
	"prfd_slot", "idx, vaddr, size, flags, cnt, bucket_first, nbuckets,"
	" module, build_id, symbols", NULL
};
static const struct store_table store_t_prfd_hit = {
	"prfd_hit", "addr, hits", NULL
};
static const struct store_table store_t_prfd_module = {
	"prfd_module", "idx, lo, hi, pgoff, bias, kernel, path, build_id,"
	" samples, symbols, unresolved", NULL
};
static const struct store_table store_t_prfd_module_hit = {
	"prfd_module_hit", "module, addr, hits", NULL
};

/* An optional count: NULL for -1 (the dump does not say). */
static void
store_prfd_put_opt(struct store_row *r, int64_t v)
{
	if (v < 0)
		store_put_null(r);
	else
		store_put_int(r, v);
}

int
store_prfd_add(struct store *st, int64_t session, const struct store_prfd *d)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_prfd, session)) == NULL)
		return (-1);
	store_put_int(r, d->pid);
	store_put_int(r, d->width);
	store_put_int(r, d->timval);
	store_put_int(r, d->flags);
	store_put_int(r, d->shift);
	store_put_int(r, (int64_t)d->idle);
	store_put_int(r, (int64_t)d->vm86);
	store_put_int(r, (int64_t)d->kernel);
	store_put_int(r, (int64_t)d->shrmem);
	store_put_int(r, (int64_t)d->unknown);
	store_put_int(r, (int64_t)d->nhitbufs);
	store_put_int(r, (int64_t)d->hitbufcnt);
	store_put_int(r, d->errcnt);
	store_put_int(r, d->r0_timval);
	store_put_int(r, d->extension);
	store_put_int(r, d->hit_table);
	store_prfd_put_opt(r, d->period_ns);
	store_prfd_put_opt(r, d->samples);
	store_prfd_put_opt(r, d->ns);
	if (d->command != NULL)
		store_put_text(r, d->command);
	else
		store_put_null(r);
	return (store_row_end(st, r));
}

#define STORE_PRFD_COLUMNS(X) \
	X(PRFD_PID, "pid") X(PRFD_WIDTH, "width") X(PRFD_TIMVAL, "timval") \
	X(PRFD_FLAGS, "flags") X(PRFD_SHIFT, "shift") X(PRFD_IDLE, "idle") \
	X(PRFD_VM86, "vm86") X(PRFD_KERNEL, "kernel") \
	X(PRFD_SHRMEM, "shrmem") X(PRFD_UNKNOWN, "unknown") \
	X(PRFD_NHITBUFS, "nhitbufs") X(PRFD_HITBUFCNT, "hitbufcnt") \
	X(PRFD_ERRCNT, "errcnt") X(PRFD_R0_TIMVAL, "r0_timval") \
	X(PRFD_EXTENSION, "extension") X(PRFD_HIT_TABLE, "hit_table") \
	X(PRFD_PERIOD_NS, "coalesce(period_ns, -1)") \
	X(PRFD_SAMPLES, "coalesce(samples, -1)") \
	X(PRFD_NS, "coalesce(ns, -1)") X(PRFD_COMMAND, "command")
STORE_COLUMNS(store_prfd_columns, STORE_PRFD_COLUMNS);

/* The header of prfd session; -1 if it has none.  command is to free. */
int
store_prfd_get(struct store *st, int64_t session, struct store_prfd *d)
{
	struct store_cursor	*c;
	const char		*t;
	int			 rc;

	memset(d, 0, sizeof *d);
	c = store_cursor_select(st, store_prfd_columns,
	    "FROM prfd WHERE session = ?1", session);
	if ((rc = store_cursor_step(c)) == 1) {
		d->pid = (uint32_t)store_cursor_int(c, PRFD_PID);
		d->width = (unsigned)store_cursor_int(c, PRFD_WIDTH);
		d->timval = (uint16_t)store_cursor_int(c, PRFD_TIMVAL);
		d->flags = (uint16_t)store_cursor_int(c, PRFD_FLAGS);
		d->shift = (uint16_t)store_cursor_int(c, PRFD_SHIFT);
		d->idle = (uint64_t)store_cursor_int(c, PRFD_IDLE);
		d->vm86 = (uint64_t)store_cursor_int(c, PRFD_VM86);
		d->kernel = (uint64_t)store_cursor_int(c, PRFD_KERNEL);
		d->shrmem = (uint64_t)store_cursor_int(c, PRFD_SHRMEM);
		d->unknown = (uint64_t)store_cursor_int(c, PRFD_UNKNOWN);
		d->nhitbufs = (uint64_t)store_cursor_int(c, PRFD_NHITBUFS);
		d->hitbufcnt = (uint64_t)store_cursor_int(c, PRFD_HITBUFCNT);
		d->errcnt = (uint8_t)store_cursor_int(c, PRFD_ERRCNT);
		d->r0_timval = (uint16_t)store_cursor_int(c, PRFD_R0_TIMVAL);
		d->extension = (int)store_cursor_int(c, PRFD_EXTENSION);
		d->hit_table = (int)store_cursor_int(c, PRFD_HIT_TABLE);
		d->period_ns = store_cursor_int(c, PRFD_PERIOD_NS);
		d->samples = store_cursor_int(c, PRFD_SAMPLES);
		d->ns = store_cursor_int(c, PRFD_NS);
		if ((t = store_cursor_text(c, PRFD_COMMAND)) != NULL)
			d->command = xstrdup(t);
	}
	store_cursor_close(c);
	return (rc == 1 ? 0 : -1);
}

int
store_prfd_thread_add(struct store *st, int64_t session,
    const struct store_prfd_thread *t)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_prfd_thread, session)) == NULL)
		return (-1);
	store_put_int(r, t->thrdno);
	store_prfd_put_opt(r, t->tid);
	store_put_int(r, t->flags);
	store_put_int(r, (int64_t)t->idle);
	store_put_int(r, (int64_t)t->vm86);
	store_put_int(r, (int64_t)t->kernel);
	store_put_int(r, (int64_t)t->shrmem);
	store_put_int(r, (int64_t)t->unknown);
	store_put_int(r, (int64_t)t->hitbufcnt);
	store_put_int(r, t->errcnt);
	return (store_row_end(st, r));
}

#define STORE_PRFD_THREAD_COLUMNS(X) \
	X(THREAD_THRDNO, "thrdno") X(THREAD_TID, "coalesce(tid, -1)") \
	X(THREAD_FLAGS, "flags") X(THREAD_IDLE, "idle") \
	X(THREAD_VM86, "vm86") X(THREAD_KERNEL, "kernel") \
	X(THREAD_SHRMEM, "shrmem") X(THREAD_UNKNOWN, "unknown") \
	X(THREAD_HITBUFCNT, "hitbufcnt") X(THREAD_ERRCNT, "errcnt")
STORE_COLUMNS(store_prfd_thread_columns, STORE_PRFD_THREAD_COLUMNS);

/* A session's threads by us_thrdno. */
struct store_cursor *
store_prfd_threads(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_prfd_thread_columns,
	    "FROM prfd_thread WHERE session = ?1 ORDER BY thrdno", session));
}

int
store_prfd_thread_next(struct store_cursor *c, struct store_prfd_thread *t)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	t->thrdno = (uint32_t)store_cursor_int(c, THREAD_THRDNO);
	t->tid = store_cursor_int(c, THREAD_TID);
	t->flags = (uint16_t)store_cursor_int(c, THREAD_FLAGS);
	t->idle = (uint64_t)store_cursor_int(c, THREAD_IDLE);
	t->vm86 = (uint64_t)store_cursor_int(c, THREAD_VM86);
	t->kernel = (uint64_t)store_cursor_int(c, THREAD_KERNEL);
	t->shrmem = (uint64_t)store_cursor_int(c, THREAD_SHRMEM);
	t->unknown = (uint64_t)store_cursor_int(c, THREAD_UNKNOWN);
	t->hitbufcnt = (uint64_t)store_cursor_int(c, THREAD_HITBUFCNT);
	t->errcnt = (uint8_t)store_cursor_int(c, THREAD_ERRCNT);
	return (1);
}

int
store_prfd_slot_add(struct store *st, int64_t session,
    const struct store_prfd_slot *s)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_prfd_slot, session)) == NULL)
		return (-1);
	store_put_int(r, s->idx);
	store_put_int(r, (int64_t)s->vaddr);
	store_put_int(r, (int64_t)s->size);
	store_put_int(r, (int64_t)s->flags);
	store_put_int(r, (int64_t)s->cnt);
	store_prfd_put_opt(r, s->bucket_first);
	store_put_int(r, s->nbuckets);
	if (s->module != NULL)
		store_put_text(r, s->module);
	else
		store_put_null(r);
	if (s->build_id != NULL)
		store_put_text(r, s->build_id);
	else
		store_put_null(r);
	store_put_int(r, s->symbols);
	return (store_row_end(st, r));
}

#define STORE_PRFD_SLOT_COLUMNS(X) \
	X(SLOT_IDX, "idx") X(SLOT_VADDR, "vaddr") X(SLOT_SIZE, "size") \
	X(SLOT_FLAGS, "flags") X(SLOT_CNT, "cnt") \
	X(SLOT_BUCKET_FIRST, "coalesce(bucket_first, -1)") \
	X(SLOT_NBUCKETS, "nbuckets") X(SLOT_MODULE, "module") \
	X(SLOT_BUILD_ID, "build_id") X(SLOT_SYMBOLS, "symbols")
STORE_COLUMNS(store_prfd_slot_columns, STORE_PRFD_SLOT_COLUMNS);

/* A session's slots in the dump's order. */
struct store_cursor *
store_prfd_slots(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_prfd_slot_columns,
	    "FROM prfd_slot WHERE session = ?1 ORDER BY idx", session));
}

/* The next slot; module and build_id are xstrdup'd (or NULL). */
int
store_prfd_slot_next(struct store_cursor *c, struct store_prfd_slot *s)
{
	const char	*t;
	int		 rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	s->idx = store_cursor_int(c, SLOT_IDX);
	s->vaddr = (uint64_t)store_cursor_int(c, SLOT_VADDR);
	s->size = (uint64_t)store_cursor_int(c, SLOT_SIZE);
	s->flags = (uint64_t)store_cursor_int(c, SLOT_FLAGS);
	s->cnt = (uint64_t)store_cursor_int(c, SLOT_CNT);
	s->bucket_first = store_cursor_int(c, SLOT_BUCKET_FIRST);
	s->nbuckets = store_cursor_int(c, SLOT_NBUCKETS);
	t = store_cursor_text(c, SLOT_MODULE);
	s->module = t != NULL ? xstrdup(t) : NULL;
	t = store_cursor_text(c, SLOT_BUILD_ID);
	s->build_id = t != NULL ? xstrdup(t) : NULL;
	s->symbols = store_cursor_int(c, SLOT_SYMBOLS);
	return (1);
}

int
store_prfd_hit_add(struct store *st, int64_t session, uint64_t addr,
    uint64_t hits)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_prfd_hit, session)) == NULL)
		return (-1);
	store_put_int(r, (int64_t)addr);
	store_put_int(r, (int64_t)hits);
	return (store_row_end(st, r));
}

/*
 * A slot's detail counters: the session's bucket rows from idx first,
 * n of them, by idx (store_bucket_next), a range of the bucket table's
 * key, not a scan of every slot's.
 */
struct store_cursor *
store_prfd_buckets(struct store *st, int64_t session, int64_t first,
    int64_t n)
{
	struct store_cursor	*c;

	c = store_bucket_cursor(st, "FROM bucket WHERE session = ?1"
	    " AND idx >= ?2 AND idx < ?3 ORDER BY idx", session);
	store_cursor_bind(c, 2, first);
	store_cursor_bind(c, 3, first + n);
	return (c);
}

#define STORE_PRFD_HIT_COLUMNS(X) \
	X(HIT_ADDR, "addr") X(HIT_HITS, "hits")
STORE_COLUMNS(store_prfd_hit_columns, STORE_PRFD_HIT_COLUMNS);

/* A session's hit table by address. */
struct store_cursor *
store_prfd_hits(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_prfd_hit_columns,
	    "FROM prfd_hit WHERE session = ?1 ORDER BY addr", session));
}

int
store_prfd_hit_next(struct store_cursor *c, uint64_t *addr, uint64_t *hits)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	*addr = (uint64_t)store_cursor_int(c, HIT_ADDR);
	*hits = (uint64_t)store_cursor_int(c, HIT_HITS);
	return (1);
}

int
store_prfd_module_add(struct store *st, int64_t session,
    const struct store_prfd_module *m)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_prfd_module, session)) == NULL)
		return (-1);
	store_put_int(r, m->idx);
	store_put_int(r, (int64_t)m->lo);
	store_put_int(r, (int64_t)m->hi);
	store_put_int(r, (int64_t)m->pgoff);
	store_put_int(r, (int64_t)m->bias);
	store_put_int(r, m->kernel);
	store_put_text(r, m->path);
	if (m->build_id != NULL)
		store_put_text(r, m->build_id);
	else
		store_put_null(r);
	store_put_int(r, (int64_t)m->samples);
	store_put_int(r, m->symbols);
	if (m->unresolved != NULL)
		store_put_text(r, m->unresolved);
	else
		store_put_null(r);
	return (store_row_end(st, r));
}

#define STORE_PRFD_MODULE_COLUMNS(X) \
	X(MOD_IDX, "idx") X(MOD_LO, "lo") X(MOD_HI, "hi") \
	X(MOD_PGOFF, "pgoff") X(MOD_BIAS, "bias") X(MOD_KERNEL, "kernel") \
	X(MOD_PATH, "path") X(MOD_BUILD_ID, "build_id") \
	X(MOD_SAMPLES, "samples") X(MOD_SYMBOLS, "symbols") \
	X(MOD_UNRESOLVED, "unresolved")
STORE_COLUMNS(store_prfd_module_columns, STORE_PRFD_MODULE_COLUMNS);

/* A session's modules in the dump's order. */
struct store_cursor *
store_prfd_modules(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_prfd_module_columns,
	    "FROM prfd_module WHERE session = ?1 ORDER BY idx", session));
}

/* The next module; its strings are xstrdup'd (or NULL). */
int
store_prfd_module_next(struct store_cursor *c, struct store_prfd_module *m)
{
	const char	*t;
	int		 rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	m->idx = store_cursor_int(c, MOD_IDX);
	m->lo = (uint64_t)store_cursor_int(c, MOD_LO);
	m->hi = (uint64_t)store_cursor_int(c, MOD_HI);
	m->pgoff = (uint64_t)store_cursor_int(c, MOD_PGOFF);
	m->bias = (uint64_t)store_cursor_int(c, MOD_BIAS);
	m->kernel = (int)store_cursor_int(c, MOD_KERNEL);
	t = store_cursor_text(c, MOD_PATH);
	m->path = xstrdup(t != NULL ? t : "");
	t = store_cursor_text(c, MOD_BUILD_ID);
	m->build_id = t != NULL ? xstrdup(t) : NULL;
	m->samples = (uint64_t)store_cursor_int(c, MOD_SAMPLES);
	m->symbols = store_cursor_int(c, MOD_SYMBOLS);
	t = store_cursor_text(c, MOD_UNRESOLVED);
	m->unresolved = t != NULL ? xstrdup(t) : NULL;
	return (1);
}

int
store_prfd_module_hit_add(struct store *st, int64_t session, int64_t module,
    uint64_t addr, uint64_t hits)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_prfd_module_hit, session)) == NULL)
		return (-1);
	store_put_int(r, module);
	store_put_int(r, (int64_t)addr);
	store_put_int(r, (int64_t)hits);
	return (store_row_end(st, r));
}

#define STORE_PRFD_MODHIT_COLUMNS(X) \
	X(MODHIT_MODULE, "module") X(MODHIT_ADDR, "addr") X(MODHIT_HITS, "hits")
STORE_COLUMNS(store_prfd_modhit_columns, STORE_PRFD_MODHIT_COLUMNS);

/* A session's module samples, by module and address. */
struct store_cursor *
store_prfd_module_hits(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_prfd_modhit_columns,
	    "FROM prfd_module_hit WHERE session = ?1 ORDER BY module, addr",
	    session));
}

int
store_prfd_module_hit_next(struct store_cursor *c, int64_t *module,
    uint64_t *addr, uint64_t *hits)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	*module = store_cursor_int(c, MODHIT_MODULE);
	*addr = (uint64_t)store_cursor_int(c, MODHIT_ADDR);
	*hits = (uint64_t)store_cursor_int(c, MODHIT_HITS);
	return (1);
}
