/*
 * The ovd kind's tables: the OVD header, the overlaid units, the events
 * and the stays in the overlay buffer.
 */
#include <stddef.h>

#include "store/store.h"
#include "store/ovd.h"

static const char *const store_ovd_migrations[] = {
	/* 0 -> 1: as the core's first migration made them before. */
	"CREATE TABLE IF NOT EXISTS ovd ("
	"  session INTEGER PRIMARY KEY REFERENCES session(id) ON DELETE CASCADE,"
	"  version INTEGER NOT NULL,"
	"  prefix_seg INTEGER NOT NULL,"
	"  truncated INTEGER NOT NULL DEFAULT 0,"
	"  wraps INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE IF NOT EXISTS ovr_unit ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  stat_seg INTEGER NOT NULL,"
	"  file_ofs INTEGER NOT NULL,"
	"  code_size INTEGER NOT NULL,"
	"  fixup_size INTEGER NOT NULL,"
	"  entry_pts INTEGER NOT NULL,"
	"  name TEXT,"
	"  PRIMARY KEY (session, stat_seg)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS ovr_event ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  ticks INTEGER NOT NULL,"
	"  kind TEXT NOT NULL CHECK (kind IN ('load', 'reprieve')),"
	"  ovr_seg INTEGER NOT NULL,"
	"  ovr_ofs INTEGER NOT NULL,"
	"  heap_org INTEGER NOT NULL,"
	"  heap_end INTEGER NOT NULL,"
	"  PRIMARY KEY (session, seq)) WITHOUT ROWID;"
	/*
	 * A load list row per event would be most of the store (every load
	 * repeats the whole buffer), so a row is a residency: unit stat_seg
	 * sat at load_seg in the list of every event first_seq..last_seq.
	 * No index: it would cost a quarter of an OVD ingest, and readers
	 * take a session's rows whole.
	 */
	"CREATE TABLE IF NOT EXISTS ovr_loaded ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  stat_seg INTEGER NOT NULL,"
	"  load_seg INTEGER NOT NULL,"
	"  first_seq INTEGER NOT NULL,"
	"  last_seq INTEGER NOT NULL);",
	/*
	 * 1 -> 2: where a session's stays are in ovr_loaded.  An ingest
	 * writes them in one run of rowids, so the range is the session's
	 * access path for free (an index on session cost 77 % more ingest
	 * time).  NULL for sessions stored before: they are scanned.
	 */
	"ALTER TABLE ovd ADD COLUMN loaded_first INTEGER;"
	"ALTER TABLE ovd ADD COLUMN loaded_last INTEGER;",
};

/* The rowids of session ?1's stays, or every rowid when not recorded. */
#define STORE_OVD_RANGE \
	" rowid BETWEEN coalesce((SELECT loaded_first FROM ovd" \
	" WHERE session = ?1), 0) AND coalesce((SELECT loaded_last" \
	" FROM ovd WHERE session = ?1), 9223372036854775807)"

static const char *const store_ovd_purge[] = {
	"DELETE FROM ovr_loaded WHERE" STORE_OVD_RANGE " AND session = ?1",
	"DELETE FROM ovr_event WHERE session = ?1",
	"DELETE FROM ovr_unit WHERE session = ?1",
	"DELETE FROM ovd WHERE session = ?1",
};

const struct store_schema store_ovd_schema = {
	store_ovd_migrations,
	sizeof store_ovd_migrations / sizeof store_ovd_migrations[0],
	"SELECT printf('%d overlaid units, %d events (%d reprieves)%s',"
	" (SELECT count(*) FROM ovr_unit u WHERE u.session = s.id),"
	" (SELECT count(*) FROM ovr_event e WHERE e.session = s.id),"
	" (SELECT count(*) FROM ovr_event e WHERE e.session = s.id"
	"  AND e.kind = 'reprieve'),"
	" CASE o.truncated WHEN 0 THEN '' ELSE ', truncated' END)"
	" FROM ovd o WHERE o.session = s.id",
	store_ovd_purge,
	sizeof store_ovd_purge / sizeof store_ovd_purge[0],
	NULL
};

static const struct store_table store_t_ovd = {
	"ovd", "version, prefix_seg, truncated, wraps, loaded_first,"
	" loaded_last", NULL
};
static const struct store_table store_t_ovr_unit = {
	"ovr_unit",
	"stat_seg, file_ofs, code_size, fixup_size, entry_pts, name", NULL
};
static const struct store_table store_t_ovr_event = {
	"ovr_event", "seq, ticks, kind, ovr_seg, ovr_ofs, heap_org, heap_end",
	NULL
};
static const struct store_table store_t_ovr_loaded = {
	"ovr_loaded", "stat_seg, load_seg, first_seq, last_seq", NULL
};

int
store_ovd_add(struct store *st, int64_t session, const struct store_ovd *o)
{
	struct store_row	*r;
	int64_t			 last;

	/* The stays went in last, one after another: they end the table. */
	last = store_int_query(st, "SELECT max(rowid) FROM ovr_loaded", 0, 0);
	if ((r = store_row(st, &store_t_ovd, session)) == NULL)
		return (-1);
	store_put_int(r, o->version);
	store_put_int(r, o->prefix_seg);
	store_put_int(r, o->truncated);
	store_put_int(r, o->wraps);
	store_put_int(r, last - o->stays + 1);
	store_put_int(r, last);
	return (store_row_end(st, r));
}

#define STORE_OVD_COLUMNS(X) \
	X(OVD_VERSION, "version") X(OVD_PREFIX_SEG, "prefix_seg") \
	X(OVD_TRUNCATED, "truncated") X(OVD_WRAPS, "wraps")
STORE_COLUMNS(store_ovd_columns, STORE_OVD_COLUMNS);

/* The header of OVD session; -1 if it has none. */
int
store_ovd_get(struct store *st, int64_t session, struct store_ovd *o)
{
	struct store_cursor	*c;
	int			 rc;

	c = store_cursor_select(st, store_ovd_columns,
	    "FROM ovd WHERE session = ?1", session);
	if ((rc = store_cursor_step(c)) == 1) {
		o->version = (int)store_cursor_int(c, OVD_VERSION);
		o->prefix_seg = (uint16_t)store_cursor_int(c, OVD_PREFIX_SEG);
		o->truncated = (int)store_cursor_int(c, OVD_TRUNCATED);
		o->wraps = store_cursor_int(c, OVD_WRAPS);
	}
	store_cursor_close(c);
	return (rc == 1 ? 0 : -1);
}

int
store_ovr_unit_add(struct store *st, int64_t session,
    const struct store_ovr_unit *u)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_ovr_unit, session)) == NULL)
		return (-1);
	store_put_int(r, u->stat_seg);
	store_put_int(r, u->file_ofs);
	store_put_int(r, u->code_size);
	store_put_int(r, u->fixup_size);
	store_put_int(r, u->entry_pts);
	store_put_text(r, u->name);
	return (store_row_end(st, r));
}

#define STORE_OVR_UNIT_COLUMNS(X) \
	X(UNIT_STAT_SEG, "stat_seg") X(UNIT_FILE_OFS, "file_ofs") \
	X(UNIT_CODE_SIZE, "code_size") X(UNIT_FIXUP_SIZE, "fixup_size") \
	X(UNIT_ENTRY_PTS, "entry_pts") X(UNIT_NAME, "name")
STORE_COLUMNS(store_ovr_unit_columns, STORE_OVR_UNIT_COLUMNS);

/* A session's units, by static segment. */
struct store_cursor *
store_ovr_units(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_ovr_unit_columns,
	    "FROM ovr_unit WHERE session = ?1 ORDER BY stat_seg", session));
}

int
store_ovr_unit_next(struct store_cursor *c, struct store_ovr_unit *u)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	u->stat_seg = (uint16_t)store_cursor_int(c, UNIT_STAT_SEG);
	u->file_ofs = (uint32_t)store_cursor_int(c, UNIT_FILE_OFS);
	u->code_size = (uint16_t)store_cursor_int(c, UNIT_CODE_SIZE);
	u->fixup_size = (uint16_t)store_cursor_int(c, UNIT_FIXUP_SIZE);
	u->entry_pts = (uint16_t)store_cursor_int(c, UNIT_ENTRY_PTS);
	u->name = store_cursor_text(c, UNIT_NAME);
	return (1);
}

/* Called once per event of files with millions: keep it lean. */
int
store_ovr_event_add(struct store *st, int64_t session,
    const struct store_ovr_event *e)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_ovr_event, session)) == NULL)
		return (-1);
	store_put_int(r, e->seq);
	store_put_int(r, e->ticks);
	store_put_static(r, e->reprieve ? "reprieve" : "load");
	store_put_int(r, e->ovr_seg);
	store_put_int(r, e->ovr_ofs);
	store_put_int(r, e->heap_org);
	store_put_int(r, e->heap_end);
	return (store_row_end(st, r));
}

/* Events of a session (the last seq + 1; one descent of the b-tree). */
int64_t
store_ovr_event_count(struct store *st, int64_t session)
{
	return (store_int_query(st, "SELECT max(seq) + 1 FROM ovr_event"
	    " WHERE session = ?1", session, 0));
}

#define STORE_OVR_EVENT_COLUMNS(X) \
	X(EVENT_SEQ, "seq") X(EVENT_TICKS, "ticks") \
	X(EVENT_REPRIEVE, "kind = 'reprieve'") X(EVENT_OVR_SEG, "ovr_seg") \
	X(EVENT_OVR_OFS, "ovr_ofs") X(EVENT_HEAP_ORG, "heap_org") \
	X(EVENT_HEAP_END, "heap_end")
STORE_COLUMNS(store_ovr_event_columns, STORE_OVR_EVENT_COLUMNS);

/* A session's events in seq order (the primary key's: no sort). */
struct store_cursor *
store_ovr_events(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_ovr_event_columns,
	    "FROM ovr_event WHERE session = ?1 ORDER BY seq", session));
}

int
store_ovr_event_next(struct store_cursor *c, struct store_ovr_event *e)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	e->seq = store_cursor_int(c, EVENT_SEQ);
	e->ticks = store_cursor_int(c, EVENT_TICKS);
	e->reprieve = (int)store_cursor_int(c, EVENT_REPRIEVE);
	e->ovr_seg = (uint16_t)store_cursor_int(c, EVENT_OVR_SEG);
	e->ovr_ofs = (uint16_t)store_cursor_int(c, EVENT_OVR_OFS);
	e->heap_org = (uint16_t)store_cursor_int(c, EVENT_HEAP_ORG);
	e->heap_end = (uint16_t)store_cursor_int(c, EVENT_HEAP_END);
	return (1);
}

int
store_ovr_loaded_add(struct store *st, int64_t session, uint16_t stat_seg,
    uint16_t load_seg, int64_t first_seq, int64_t last_seq)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_ovr_loaded, session)) == NULL)
		return (-1);
	store_put_int(r, stat_seg);
	store_put_int(r, load_seg);
	store_put_int(r, first_seq);
	store_put_int(r, last_seq);
	return (store_row_end(st, r));
}

/*
 * The rowids of the session's stays, or for a session stored before they
 * were recorded, of the whole table (one descent each, not a scan): for
 * progress and presizing.
 */
void
store_ovr_loaded_range(struct store *st, int64_t session, int64_t *lo,
    int64_t *hi)
{
	*lo = store_int_query(st, "SELECT coalesce((SELECT loaded_first FROM"
	    " ovd WHERE session = ?1), (SELECT min(rowid) FROM ovr_loaded))",
	    session, 0);
	*hi = store_int_query(st, "SELECT coalesce((SELECT loaded_last FROM"
	    " ovd WHERE session = ?1), (SELECT max(rowid) FROM ovr_loaded))",
	    session, 0);
}

#define STORE_OVR_LOADED_COLUMNS(X) \
	X(STAY_ROWID, "rowid") X(STAY_STAT_SEG, "stat_seg") \
	X(STAY_LOAD_SEG, "load_seg") X(STAY_FIRST_SEQ, "first_seq") \
	X(STAY_LAST_SEQ, "last_seq")
STORE_COLUMNS(store_ovr_loaded_columns, STORE_OVR_LOADED_COLUMNS);

/*
 * A session's stays in table order, which is nearly first_seq order (a
 * row is written when the stay ends); ordering them here would make
 * SQLite sort every row before the first comes back.  The rowid range
 * makes it a seek, not a scan of every session's stays.
 */
struct store_cursor *
store_ovr_loaded(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_ovr_loaded_columns,
	    "FROM ovr_loaded WHERE" STORE_OVD_RANGE " AND session = ?1",
	    session));
}

int
store_ovr_loaded_next(struct store_cursor *c, struct store_ovr_loaded *l)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	l->rowid = store_cursor_int(c, STAY_ROWID);
	l->stat_seg = (uint16_t)store_cursor_int(c, STAY_STAT_SEG);
	l->load_seg = (uint16_t)store_cursor_int(c, STAY_LOAD_SEG);
	l->first_seq = store_cursor_int(c, STAY_FIRST_SEQ);
	l->last_seq = store_cursor_int(c, STAY_LAST_SEQ);
	return (1);
}
