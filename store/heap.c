/*
 * The heap kind's tables: a snapshot's header with its leak summary, its
 * modules and their imports, memory regions, types, allocation sites,
 * live blocks with memcheck's state, the pointers between blocks and from
 * the roots.  heap_ref is the big one (four per block is common): no
 * index, its rows are one run of rowids per session, kept in the header.
 * A stack is a run of heap_stack rows naming heap_frame rows, as the file
 * has it: the text of a frame many sites share is stored once.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "store/store.h"
#include "store/heap.h"

static const char *const store_heap_migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE IF NOT EXISTS heap ("
	"  session INTEGER PRIMARY KEY"
	"   REFERENCES session(id) ON DELETE CASCADE,"
	"  version TEXT NOT NULL,"
	"  pid INTEGER NOT NULL,"
	"  ppid INTEGER NOT NULL,"
	"  taken TEXT NOT NULL"
	"   CHECK (taken IN ('exit', 'signal', 'every', 'socket', 'other')),"
	"  serial INTEGER NOT NULL,"
	"  time_ns INTEGER NOT NULL,"
	"  stop_ns INTEGER NOT NULL,"
	"  seq INTEGER NOT NULL,"
	"  contents INTEGER NOT NULL,"
	"  depth INTEGER NOT NULL,"
	"  cmdline TEXT,"
	"  cwd TEXT,"
	"  blocks INTEGER NOT NULL,"
	"  bytes INTEGER NOT NULL,"
	"  reachable_blocks INTEGER NOT NULL,"
	"  reachable_bytes INTEGER NOT NULL,"
	"  possible_blocks INTEGER NOT NULL,"
	"  possible_bytes INTEGER NOT NULL,"
	"  definite_blocks INTEGER NOT NULL,"
	"  definite_bytes INTEGER NOT NULL,"
	"  indirect_blocks INTEGER NOT NULL,"
	"  indirect_bytes INTEGER NOT NULL,"
	"  ref_first INTEGER,"
	"  ref_last INTEGER);"
	"CREATE TABLE IF NOT EXISTS heap_module ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  path TEXT NOT NULL,"
	"  soname TEXT,"
	"  build_id TEXT,"
	"  base INTEGER NOT NULL,"
	"  lo INTEGER NOT NULL,"
	"  hi INTEGER NOT NULL,"
	"  code_size INTEGER NOT NULL,"
	"  data_size INTEGER NOT NULL,"
	"  main INTEGER NOT NULL,"
	"  unloaded INTEGER NOT NULL,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS heap_import ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  module INTEGER NOT NULL,"
	"  idx INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  target INTEGER,"
	"  PRIMARY KEY (session, module, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS heap_region ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  kind TEXT NOT NULL CHECK (kind IN ('heap', 'arena', 'mmap',"
	"   'data', 'stack', 'registers', 'anon', 'file', 'other')),"
	"  lo INTEGER NOT NULL,"
	"  hi INTEGER NOT NULL,"
	"  name TEXT,"
	"  module INTEGER,"
	"  tid INTEGER,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS heap_type ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  kind TEXT NOT NULL CHECK (kind IN ('vtable', 'dwarf', 'site',"
	"   'other')),"
	"  module INTEGER,"
	"  site INTEGER,"
	"  vtable INTEGER,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS heap_site ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  type INTEGER,"
	"  function TEXT,"
	"  module INTEGER,"
	"  pc INTEGER,"
	"  stack TEXT NOT NULL,"
	"  allocs INTEGER NOT NULL,"
	"  frees INTEGER NOT NULL,"
	"  bytes INTEGER NOT NULL,"
	"  peak_bytes INTEGER NOT NULL,"
	"  live_bytes INTEGER NOT NULL,"
	"  live_blocks INTEGER NOT NULL,"
	"  collectable_bytes INTEGER NOT NULL,"
	"  collectable_blocks INTEGER NOT NULL,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS heap_block ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  usable INTEGER NOT NULL,"
	"  seq INTEGER NOT NULL,"
	"  site INTEGER,"
	"  type INTEGER,"
	"  tid INTEGER NOT NULL,"
	"  state TEXT NOT NULL"
	"   CHECK (state IN ('reachable', 'possible', 'collectable')),"
	"  leak TEXT CHECK (leak IN ('definite', 'indirect')),"
	"  region INTEGER,"
	"  contents BLOB,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS heap_ref ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  src INTEGER NOT NULL,"
	"  src_off INTEGER NOT NULL,"
	"  dst INTEGER NOT NULL,"
	"  dst_off INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS heap_root ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  region INTEGER NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  name TEXT,"
	"  name_off INTEGER,"
	"  dst INTEGER NOT NULL,"
	"  dst_off INTEGER NOT NULL,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;",
	/*
	 * 1 -> 2: what the modules' DWARF says (ingest/heapdwarf.c): the
	 * innermost frame's source line of each site, and the type layouts
	 * and variables that profview heap trace walks.
	 */
	"ALTER TABLE heap_site ADD COLUMN file TEXT;"
	"ALTER TABLE heap_site ADD COLUMN line INTEGER;"
	"CREATE TABLE IF NOT EXISTS heap_dtype ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  kind TEXT NOT NULL CHECK (kind IN ('struct', 'union', 'pointer',"
	"   'array', 'base', 'other')),"
	"  module INTEGER NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  target INTEGER,"
	"  count INTEGER NOT NULL,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS heap_dfield ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  type INTEGER NOT NULL,"
	"  idx INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  offset INTEGER NOT NULL,"
	"  dtype INTEGER,"
	"  base INTEGER NOT NULL,"
	"  PRIMARY KEY (session, type, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS heap_dvar ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  module INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  dtype INTEGER,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;",
	/*
	 * 2 -> 3: the run a snapshot is of (its process and when the agent
	 * started in it), so a live program's snapshots are one run.
	 */
	"ALTER TABLE heap ADD COLUMN started_ns INTEGER;",
	/*
	 * 3 -> 4: frames once, stacks as references.  Each site kept its
	 * whole stack as text, and its first frame's function and file, so
	 * sites sharing long frames multiplied them (a 1 MB file made
	 * gigabytes).  Now a frame is a heap_frame row, the file's runs of
	 * frames are heap_stack rows and a site names its run; heap_site is
	 * a view with the old columns, made from its frames.  Stored
	 * sessions' stacks are split into their lines, each distinct line a
	 * frame; a site's first one also by its function, pc and line, which
	 * it keeps.
	 */
	"CREATE TABLE IF NOT EXISTS heap_frame ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  pc INTEGER,"
	"  module INTEGER,"
	"  function TEXT,"
	"  file TEXT,"
	"  line INTEGER,"
	"  text TEXT NOT NULL,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS heap_stack ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  frame INTEGER NOT NULL,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS heap_allocsite ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  type INTEGER,"
	"  first_frame INTEGER NOT NULL,"
	"  nframes INTEGER NOT NULL,"
	"  allocs INTEGER NOT NULL,"
	"  frees INTEGER NOT NULL,"
	"  bytes INTEGER NOT NULL,"
	"  peak_bytes INTEGER NOT NULL,"
	"  live_bytes INTEGER NOT NULL,"
	"  live_blocks INTEGER NOT NULL,"
	"  collectable_bytes INTEGER NOT NULL,"
	"  collectable_blocks INTEGER NOT NULL,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;"
	"CREATE TEMP TABLE heap_m4_line AS WITH RECURSIVE"
	"  l(session, site, n, text, rest) AS ("
	"  SELECT session, idx, -1, '', stack || char(10) FROM heap_site"
	"   WHERE stack <> ''"
	"  UNION ALL SELECT session, site, n + 1,"
	"   substr(rest, 1, instr(rest, char(10)) - 1),"
	"   substr(rest, instr(rest, char(10)) + 1) FROM l WHERE rest <> '')"
	" SELECT l.session, l.site, l.n, l.text, o.pc, o.module, o.function,"
	"  o.file, o.line FROM l LEFT JOIN heap_site o ON l.n = 0"
	"  AND o.session = l.session AND o.idx = l.site WHERE l.n >= 0;"
	"CREATE TEMP TABLE heap_m4_frame AS SELECT session,"
	"  row_number() OVER (PARTITION BY session ORDER BY text, pc) - 1"
	"  AS idx, text, pc, module, function, file, line FROM"
	"  (SELECT DISTINCT session, text, pc, module, function, file, line"
	"  FROM temp.heap_m4_line);"
	"CREATE INDEX temp.heap_m4_frame_text ON heap_m4_frame (session, text);"
	"CREATE TEMP TABLE heap_m4_run AS SELECT session, site,"
	"  sum(n) OVER (PARTITION BY session ORDER BY site) - n AS first, n"
	"  FROM (SELECT session, site, count(*) AS n FROM temp.heap_m4_line"
	"  GROUP BY session, site);"
	"INSERT INTO heap_frame SELECT session, idx, pc, module, function,"
	"  file, line, text FROM temp.heap_m4_frame;"
	"INSERT INTO heap_stack (session, idx, frame) SELECT l.session,"
	"  row_number() OVER (PARTITION BY l.session ORDER BY l.site, l.n) - 1,"
	"  f.idx FROM temp.heap_m4_line l JOIN temp.heap_m4_frame f"
	"  ON f.session = l.session AND f.text = l.text AND f.pc IS l.pc"
	"  AND f.module IS l.module AND f.function IS l.function"
	"  AND f.file IS l.file AND f.line IS l.line;"
	"INSERT INTO heap_allocsite SELECT s.session, s.idx, s.type,"
	"  coalesce(r.first, 0), coalesce(r.n, 0), s.allocs, s.frees,"
	"  s.bytes, s.peak_bytes, s.live_bytes, s.live_blocks,"
	"  s.collectable_bytes, s.collectable_blocks"
	"  FROM heap_site s LEFT JOIN temp.heap_m4_run r"
	"  ON r.session = s.session AND r.site = s.idx;"
	"DROP TABLE temp.heap_m4_line;"
	"DROP TABLE temp.heap_m4_frame;"
	"DROP TABLE temp.heap_m4_run;"
	"DROP TABLE heap_site;"
	"CREATE VIEW heap_site AS SELECT s.session, s.idx, s.type,"
	"  f.function, f.module, f.pc,"
	"  coalesce((SELECT group_concat(text, char(10)) FROM"
	"  (SELECT g.text FROM heap_stack k JOIN heap_frame g"
	"  ON g.session = k.session AND g.idx = k.frame"
	"  WHERE k.session = s.session AND k.idx >= s.first_frame"
	"  AND k.idx < s.first_frame + s.nframes ORDER BY k.idx)), '')"
	"  AS stack, s.allocs, s.frees, s.bytes, s.peak_bytes, s.live_bytes,"
	"  s.live_blocks, s.collectable_bytes, s.collectable_blocks, f.file,"
	"  f.line FROM heap_allocsite s LEFT JOIN heap_stack k0"
	"  ON k0.session = s.session AND k0.idx = s.first_frame"
	"  AND s.nframes > 0 LEFT JOIN heap_frame f"
	"  ON f.session = k0.session AND f.idx = k0.frame;",
};

/* The rowids of session ?1's pointers, or every rowid when unknown. */
#define STORE_HEAP_REFS \
	" rowid BETWEEN coalesce((SELECT ref_first FROM heap" \
	" WHERE session = ?1), 0) AND coalesce((SELECT ref_last" \
	" FROM heap WHERE session = ?1), 9223372036854775807)"

static const char *const store_heap_purge[] = {
	"DELETE FROM heap_ref WHERE" STORE_HEAP_REFS " AND session = ?1",
	"DELETE FROM heap_root WHERE session = ?1",
	"DELETE FROM heap_dvar WHERE session = ?1",
	"DELETE FROM heap_dfield WHERE session = ?1",
	"DELETE FROM heap_dtype WHERE session = ?1",
	"DELETE FROM heap_block WHERE session = ?1",
	"DELETE FROM heap_allocsite WHERE session = ?1",
	"DELETE FROM heap_stack WHERE session = ?1",
	"DELETE FROM heap_frame WHERE session = ?1",
	"DELETE FROM heap_type WHERE session = ?1",
	"DELETE FROM heap_region WHERE session = ?1",
	"DELETE FROM heap_import WHERE session = ?1",
	"DELETE FROM heap_module WHERE session = ?1",
	"DELETE FROM heap WHERE session = ?1",
};

const struct store_schema store_heap_schema = {
	store_heap_migrations,
	sizeof store_heap_migrations / sizeof store_heap_migrations[0],
	"SELECT printf('%d blocks (%d bytes): %d collectable (%d bytes),"
	" %d possible (%d bytes), at %s',"
	" h.blocks, h.bytes, h.definite_blocks + h.indirect_blocks,"
	" h.definite_bytes + h.indirect_bytes, h.possible_blocks,"
	" h.possible_bytes, h.taken)"
	" FROM heap h WHERE h.session = s.id",
	store_heap_purge,
	sizeof store_heap_purge / sizeof store_heap_purge[0]
};

static const struct store_table store_t_heap = {
	"heap", "version, pid, ppid, taken, serial, time_ns, stop_ns, seq,"
	" contents, depth, cmdline, cwd, blocks, bytes, reachable_blocks,"
	" reachable_bytes, possible_blocks, possible_bytes, definite_blocks,"
	" definite_bytes, indirect_blocks, indirect_bytes, ref_first,"
	" ref_last, started_ns", NULL
};
static const struct store_table store_t_heap_module = {
	"heap_module", "idx, path, soname, build_id, base, lo, hi, code_size,"
	" data_size, main, unloaded", NULL
};
static const struct store_table store_t_heap_import = {
	"heap_import", "module, idx, name, target", NULL
};
static const struct store_table store_t_heap_region = {
	"heap_region", "idx, kind, lo, hi, name, module, tid", NULL
};
static const struct store_table store_t_heap_type = {
	"heap_type", "idx, name, kind, module, site, vtable", NULL
};
static const struct store_table store_t_heap_allocsite = {
	"heap_allocsite", "idx, type, first_frame, nframes, allocs, frees,"
	" bytes, peak_bytes, live_bytes, live_blocks, collectable_bytes,"
	" collectable_blocks", NULL
};
static const struct store_table store_t_heap_frame = {
	"heap_frame", "idx, pc, module, function, file, line, text", NULL
};
static const struct store_table store_t_heap_stack = {
	"heap_stack", "idx, frame", NULL
};
static const struct store_table store_t_heap_dtype = {
	"heap_dtype", "idx, name, kind, module, size, target, count", NULL
};
static const struct store_table store_t_heap_dfield = {
	"heap_dfield", "type, idx, name, offset, dtype, base", NULL
};
static const struct store_table store_t_heap_dvar = {
	"heap_dvar", "idx, module, name, addr, dtype", NULL
};
static const struct store_table store_t_heap_block = {
	"heap_block", "idx, addr, size, usable, seq, site, type, tid, state,"
	" leak, region, contents", NULL
};
static const struct store_table store_t_heap_ref = {
	"heap_ref", "src, src_off, dst, dst_off", NULL
};
static const struct store_table store_t_heap_root = {
	"heap_root", "idx, region, addr, name, name_off, dst, dst_off", NULL
};

/* An index column: NULL for none. */
static void
store_heap_idx(struct store_row *r, int64_t v)
{
	if (v < 0)
		store_put_null(r);
	else
		store_put_int(r, v);
}

/* A text column: NULL for none or "". */
static void
store_heap_text(struct store_row *r, const char *s)
{
	if (s == NULL || *s == '\0')
		store_put_null(r);
	else
		store_put_text(r, s);
}

/*
 * The header, after every pointer: the refs went in one after another,
 * so they end their table and the last nrefs rowids are the session's.
 */
int
store_heap_add(struct store *st, int64_t session, const struct store_heap *h)
{
	struct store_row	*r;
	int64_t			 last;

	last = store_int_query(st, "SELECT max(rowid) FROM heap_ref", 0, 0);
	if ((r = store_row(st, &store_t_heap, session)) == NULL)
		return (-1);
	store_put_text(r, h->version);
	store_put_int(r, h->pid);
	store_put_int(r, h->ppid);
	store_put_static(r, h->taken);
	store_put_int(r, h->serial);
	store_put_int(r, h->time_ns);
	store_put_int(r, h->stop_ns);
	store_put_int(r, h->seq);
	store_put_int(r, h->contents);
	store_put_int(r, h->depth);
	store_heap_text(r, h->cmdline);
	store_heap_text(r, h->cwd);
	store_put_int(r, h->blocks);
	store_put_int(r, h->bytes);
	store_put_int(r, h->reachable_blocks);
	store_put_int(r, h->reachable_bytes);
	store_put_int(r, h->possible_blocks);
	store_put_int(r, h->possible_bytes);
	store_put_int(r, h->definite_blocks);
	store_put_int(r, h->definite_bytes);
	store_put_int(r, h->indirect_blocks);
	store_put_int(r, h->indirect_bytes);
	if (h->refs == 0) {
		store_put_null(r);
		store_put_null(r);
	} else {
		store_put_int(r, last - h->refs + 1);
		store_put_int(r, last);
	}
	if (h->started_ns == 0)
		store_put_null(r);
	else
		store_put_int(r, h->started_ns);
	return (store_row_end(st, r));
}

#define STORE_HEAP_COLUMNS(X) \
	X(HEAP_PID, "pid") X(HEAP_PPID, "ppid") X(HEAP_TAKEN, "taken") \
	X(HEAP_SERIAL, "serial") X(HEAP_TIME_NS, "time_ns") \
	X(HEAP_STOP_NS, "stop_ns") X(HEAP_SEQ, "seq") \
	X(HEAP_CONTENTS, "contents") X(HEAP_DEPTH, "depth") \
	X(HEAP_BLOCKS, "blocks") X(HEAP_BYTES, "bytes") \
	X(HEAP_REACHABLE_BLOCKS, "reachable_blocks") \
	X(HEAP_REACHABLE_BYTES, "reachable_bytes") \
	X(HEAP_POSSIBLE_BLOCKS, "possible_blocks") \
	X(HEAP_POSSIBLE_BYTES, "possible_bytes") \
	X(HEAP_DEFINITE_BLOCKS, "definite_blocks") \
	X(HEAP_DEFINITE_BYTES, "definite_bytes") \
	X(HEAP_INDIRECT_BLOCKS, "indirect_blocks") \
	X(HEAP_INDIRECT_BYTES, "indirect_bytes") \
	X(HEAP_REFS, "coalesce(ref_last - ref_first + 1, 0)") \
	X(HEAP_ROOTS, "(SELECT count(*) FROM heap_root WHERE session = ?1)") \
	X(HEAP_STARTED_NS, "started_ns")
STORE_COLUMNS(store_heap_columns, STORE_HEAP_COLUMNS);

/*
 * The header of heap session; -1 if it has none.  Its pointers are
 * counted from their run of rowids, which store_heap_add made exactly
 * that long: counting the rows took half a second on 5M pointers.
 */
int
store_heap_get(struct store *st, int64_t session, struct store_heap *h)
{
	struct store_cursor	*c;
	int			 rc;

	c = store_cursor_select(st, store_heap_columns,
	    "FROM heap WHERE session = ?1", session);
	if ((rc = store_cursor_step(c)) == 1) {
		h->version = "1";
		h->pid = store_cursor_int(c, HEAP_PID);
		h->ppid = store_cursor_int(c, HEAP_PPID);
		h->taken = "other";
		if (store_cursor_text(c, HEAP_TAKEN) != NULL) {
			static const char *const names[] = { "exit", "signal",
			    "every", "socket" };
			size_t	i;

			for (i = 0; i < 4; i++) {
				if (strcmp(store_cursor_text(c, HEAP_TAKEN),
				    names[i]) == 0)
					h->taken = names[i];
			}
		}
		h->serial = store_cursor_int(c, HEAP_SERIAL);
		h->time_ns = store_cursor_int(c, HEAP_TIME_NS);
		h->stop_ns = store_cursor_int(c, HEAP_STOP_NS);
		h->seq = store_cursor_int(c, HEAP_SEQ);
		h->contents = store_cursor_int(c, HEAP_CONTENTS);
		h->depth = store_cursor_int(c, HEAP_DEPTH);
		h->cmdline = NULL;
		h->cwd = NULL;
		h->blocks = store_cursor_int(c, HEAP_BLOCKS);
		h->bytes = store_cursor_int(c, HEAP_BYTES);
		h->reachable_blocks =
		    store_cursor_int(c, HEAP_REACHABLE_BLOCKS);
		h->reachable_bytes = store_cursor_int(c, HEAP_REACHABLE_BYTES);
		h->possible_blocks = store_cursor_int(c, HEAP_POSSIBLE_BLOCKS);
		h->possible_bytes = store_cursor_int(c, HEAP_POSSIBLE_BYTES);
		h->definite_blocks = store_cursor_int(c, HEAP_DEFINITE_BLOCKS);
		h->definite_bytes = store_cursor_int(c, HEAP_DEFINITE_BYTES);
		h->indirect_blocks = store_cursor_int(c, HEAP_INDIRECT_BLOCKS);
		h->indirect_bytes = store_cursor_int(c, HEAP_INDIRECT_BYTES);
		h->refs = store_cursor_int(c, HEAP_REFS);
		h->roots = store_cursor_int(c, HEAP_ROOTS);
		h->started_ns = store_cursor_int(c, HEAP_STARTED_NS);
	}
	store_cursor_close(c);
	return (rc == 1 ? 0 : -1);
}

/*
 * The snapshot of session's run (same pid, same started_ns) taken last
 * before it; 0 if none is stored or the run is not known.
 */
int64_t
store_heap_previous(struct store *st, int64_t session)
{
	return (store_int_query(st, "SELECT p.session FROM heap h JOIN heap p"
	    " ON p.pid = h.pid AND p.started_ns = h.started_ns AND"
	    " p.time_ns < h.time_ns WHERE h.session = ?1 ORDER BY"
	    " p.time_ns DESC LIMIT 1", session, 0));
}

int
store_heap_module_add(struct store *st, int64_t session,
    const struct store_heap_module *m)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_module, session)) == NULL)
		return (-1);
	store_put_int(r, m->idx);
	store_put_text(r, m->path);
	store_heap_text(r, m->soname);
	store_heap_text(r, m->build_id);
	store_put_int(r, (int64_t)m->base);
	store_put_int(r, (int64_t)m->lo);
	store_put_int(r, (int64_t)m->hi);
	store_put_int(r, (int64_t)m->code_size);
	store_put_int(r, (int64_t)m->data_size);
	store_put_int(r, m->main);
	store_put_int(r, m->unloaded);
	return (store_row_end(st, r));
}

int
store_heap_import_add(struct store *st, int64_t session, int64_t module,
    int64_t idx, const char *name, int64_t target)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_import, session)) == NULL)
		return (-1);
	store_put_int(r, module);
	store_put_int(r, idx);
	store_put_text(r, name);
	store_heap_idx(r, target);
	return (store_row_end(st, r));
}

int
store_heap_region_add(struct store *st, int64_t session, int64_t idx,
    const char *kind, uint64_t lo, uint64_t hi, const char *name,
    int64_t module, int64_t tid)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_region, session)) == NULL)
		return (-1);
	store_put_int(r, idx);
	store_put_static(r, kind);
	store_put_int(r, (int64_t)lo);
	store_put_int(r, (int64_t)hi);
	store_heap_text(r, name);
	store_heap_idx(r, module);
	store_heap_idx(r, tid);
	return (store_row_end(st, r));
}

int
store_heap_type_add(struct store *st, int64_t session, int64_t idx,
    const char *name, const char *kind, int64_t module, int64_t site,
    uint64_t vtable)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_type, session)) == NULL)
		return (-1);
	store_put_int(r, idx);
	store_put_text(r, name);
	store_put_static(r, kind);
	store_heap_idx(r, module);
	store_heap_idx(r, site);
	if (vtable == 0)
		store_put_null(r);
	else
		store_put_int(r, (int64_t)vtable);
	return (store_row_end(st, r));
}

int
store_heap_site_add(struct store *st, int64_t session,
    const struct store_heap_site *s)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_allocsite, session)) == NULL)
		return (-1);
	store_put_int(r, s->idx);
	store_heap_idx(r, s->type);
	store_put_int(r, s->first_frame);
	store_put_int(r, s->nframes);
	store_put_int(r, (int64_t)s->allocs);
	store_put_int(r, (int64_t)s->frees);
	store_put_int(r, (int64_t)s->bytes);
	store_put_int(r, (int64_t)s->peak_bytes);
	store_put_int(r, (int64_t)s->live_bytes);
	store_put_int(r, (int64_t)s->live_blocks);
	store_put_int(r, (int64_t)s->collectable_bytes);
	store_put_int(r, (int64_t)s->collectable_blocks);
	return (store_row_end(st, r));
}

/*
 * A distinct frame of the stacks: its code address, module, function,
 * DWARF's file and line, and its text in stack (a line per function,
 * inlined ones first); first_frame and nframes are not used.
 */
int
store_heap_frame_add(struct store *st, int64_t session,
    const struct store_heap_site *f)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_frame, session)) == NULL)
		return (-1);
	store_put_int(r, f->idx);
	if (f->pc == 0)
		store_put_null(r);
	else
		store_put_int(r, (int64_t)f->pc);
	store_heap_idx(r, f->module);
	store_heap_text(r, f->function);
	store_heap_text(r, f->file);
	if (f->file == NULL || *f->file == '\0')
		store_put_null(r);
	else
		store_put_int(r, f->line);
	store_put_text(r, f->stack != NULL ? f->stack : "");
	return (store_row_end(st, r));
}

/* Entry idx of the stacks' frames: frame, a heap_frame. */
int
store_heap_stack_add(struct store *st, int64_t session, int64_t idx,
    int64_t frame)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_stack, session)) == NULL)
		return (-1);
	store_put_int(r, idx);
	store_put_int(r, frame);
	return (store_row_end(st, r));
}

int
store_heap_dtype_add(struct store *st, int64_t session,
    const struct store_heap_dtype *t)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_dtype, session)) == NULL)
		return (-1);
	store_put_int(r, t->idx);
	store_put_text(r, t->name);
	store_put_static(r, t->kind);
	store_put_int(r, t->module);
	store_put_int(r, (int64_t)t->size);
	store_heap_idx(r, t->target);
	store_put_int(r, (int64_t)t->count);
	return (store_row_end(st, r));
}

int
store_heap_dfield_add(struct store *st, int64_t session,
    const struct store_heap_dfield *f)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_dfield, session)) == NULL)
		return (-1);
	store_put_int(r, f->type);
	store_put_int(r, f->idx);
	store_put_text(r, f->name != NULL ? f->name : "");
	store_put_int(r, (int64_t)f->offset);
	store_heap_idx(r, f->dtype);
	store_put_int(r, f->base);
	return (store_row_end(st, r));
}

int
store_heap_dvar_add(struct store *st, int64_t session,
    const struct store_heap_dvar *v)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_dvar, session)) == NULL)
		return (-1);
	store_put_int(r, v->idx);
	store_put_int(r, v->module);
	store_put_text(r, v->name);
	store_put_int(r, (int64_t)v->addr);
	store_heap_idx(r, v->dtype);
	return (store_row_end(st, r));
}

#define STORE_HEAP_DTYPE_COLUMNS(X) \
	X(DTYPE_IDX, "idx") X(DTYPE_NAME, "name") X(DTYPE_KIND, "kind") \
	X(DTYPE_MODULE, "module") X(DTYPE_SIZE, "size") \
	X(DTYPE_TARGET, "coalesce(target, -1)") X(DTYPE_COUNT, "count")
STORE_COLUMNS(store_heap_dtype_columns, STORE_HEAP_DTYPE_COLUMNS);

/* DWARF types by index: idx, name, kind, module, size, target, count. */
struct store_cursor *
store_heap_dtypes(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_dtype_columns,
	    "FROM heap_dtype WHERE session = ?1 ORDER BY idx", session));
}

int
store_heap_dtype_next(struct store_cursor *c, struct store_heap_dtype *t)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	t->idx = store_cursor_int(c, DTYPE_IDX);
	t->name = store_cursor_text(c, DTYPE_NAME);
	t->kind = store_cursor_text(c, DTYPE_KIND);
	t->module = store_cursor_int(c, DTYPE_MODULE);
	t->size = (uint64_t)store_cursor_int(c, DTYPE_SIZE);
	t->target = store_cursor_int(c, DTYPE_TARGET);
	t->count = (uint64_t)store_cursor_int(c, DTYPE_COUNT);
	return (1);
}

#define STORE_HEAP_DFIELD_COLUMNS(X) \
	X(DFIELD_TYPE, "type") X(DFIELD_IDX, "idx") X(DFIELD_NAME, "name") \
	X(DFIELD_OFFSET, "offset") X(DFIELD_DTYPE, "coalesce(dtype, -1)") \
	X(DFIELD_BASE, "base")
STORE_COLUMNS(store_heap_dfield_columns, STORE_HEAP_DFIELD_COLUMNS);

/* Members by type, then index (offset order). */
struct store_cursor *
store_heap_dfields(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_dfield_columns,
	    "FROM heap_dfield WHERE session = ?1 ORDER BY type, idx", session));
}

int
store_heap_dfield_next(struct store_cursor *c, struct store_heap_dfield *f)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	f->type = store_cursor_int(c, DFIELD_TYPE);
	f->idx = store_cursor_int(c, DFIELD_IDX);
	f->name = store_cursor_text(c, DFIELD_NAME);
	f->offset = (uint64_t)store_cursor_int(c, DFIELD_OFFSET);
	f->dtype = store_cursor_int(c, DFIELD_DTYPE);
	f->base = (int)store_cursor_int(c, DFIELD_BASE);
	return (1);
}

#define STORE_HEAP_DVAR_COLUMNS(X) \
	X(DVAR_IDX, "idx") X(DVAR_MODULE, "module") X(DVAR_NAME, "name") \
	X(DVAR_ADDR, "addr") X(DVAR_DTYPE, "coalesce(dtype, -1)")
STORE_COLUMNS(store_heap_dvar_columns, STORE_HEAP_DVAR_COLUMNS);

/* Variables by index. */
struct store_cursor *
store_heap_dvars(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_dvar_columns,
	    "FROM heap_dvar WHERE session = ?1 ORDER BY idx", session));
}

int
store_heap_dvar_next(struct store_cursor *c, struct store_heap_dvar *v)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	v->idx = store_cursor_int(c, DVAR_IDX);
	v->module = store_cursor_int(c, DVAR_MODULE);
	v->name = store_cursor_text(c, DVAR_NAME);
	v->addr = (uint64_t)store_cursor_int(c, DVAR_ADDR);
	v->dtype = store_cursor_int(c, DVAR_DTYPE);
	return (1);
}

#define STORE_HEAP_REF_COLUMNS(X) \
	X(REF_SRC, "src") X(REF_SRC_OFF, "src_off") X(REF_DST, "dst") \
	X(REF_DST_OFF, "dst_off")
STORE_COLUMNS(store_heap_ref_columns, STORE_HEAP_REF_COLUMNS);

#define STORE_HEAP_RUN_COLUMNS(X) \
	X(RUN_FIRST, "ref_first") X(RUN_LAST, "ref_last")
STORE_COLUMNS(store_heap_run_columns, STORE_HEAP_RUN_COLUMNS);

/*
 * The pointer from byte src_off of block src: 1 with *dst and *dst_off,
 * 0 if that word points to no block.  A session's heap_ref rows are one
 * run of rowids in the file's order, by source and offset, so a binary
 * search over the rowids finds it without an index.
 */
int
store_heap_ref_at(struct store *st, int64_t session, int64_t src,
    int64_t src_off, int64_t *dst, int64_t *dst_off)
{
	struct store_cursor	*c;
	int64_t			 lo, hi, mid, s, o;
	int			 rc, found = 0;

	c = store_cursor_select(st, store_heap_run_columns, "FROM heap WHERE"
	    " session = ?1 AND ref_first IS NOT NULL", session);
	if ((rc = store_cursor_step(c)) != 1) {
		store_cursor_close(c);
		return (rc < 0 ? -1 : 0);
	}
	lo = store_cursor_int(c, RUN_FIRST);
	hi = store_cursor_int(c, RUN_LAST) + 1;
	store_cursor_close(c);
	while (lo < hi && !found) {
		mid = lo + (hi - lo) / 2;
		c = store_cursor_select(st, store_heap_ref_columns,
		    "FROM heap_ref WHERE rowid = ?1", mid);
		if ((rc = store_cursor_step(c)) != 1) {
			store_cursor_close(c);
			return (-1);
		}
		s = store_cursor_int(c, REF_SRC);
		o = store_cursor_int(c, REF_SRC_OFF);
		if (s == src && o == src_off) {
			*dst = store_cursor_int(c, REF_DST);
			*dst_off = store_cursor_int(c, REF_DST_OFF);
			found = 1;
		} else if (s < src || (s == src && o < src_off))
			lo = mid + 1;
		else
			hi = mid;
		store_cursor_close(c);
	}
	return (found);
}

/* A million of these per snapshot: scalars, static text. */
int
store_heap_block_add(struct store *st, int64_t session,
    const struct store_heap_block *b)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_block, session)) == NULL)
		return (-1);
	store_put_int(r, b->idx);
	store_put_int(r, (int64_t)b->addr);
	store_put_int(r, (int64_t)b->size);
	store_put_int(r, (int64_t)b->usable);
	store_put_int(r, (int64_t)b->seq);
	store_heap_idx(r, b->site);
	store_heap_idx(r, b->type);
	store_put_int(r, b->tid);
	store_put_static(r, b->state);
	if (b->leak != NULL)
		store_put_static(r, b->leak);
	else
		store_put_null(r);
	store_heap_idx(r, b->region);
	if (b->contents != NULL)
		store_put_blob(r, b->contents, b->ncontents);
	else
		store_put_null(r);
	return (store_row_end(st, r));
}

int
store_heap_ref_add(struct store *st, int64_t session, uint32_t src,
    uint64_t src_off, uint32_t dst, uint32_t dst_off)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_ref, session)) == NULL)
		return (-1);
	store_put_int(r, src);
	store_put_int(r, (int64_t)src_off);
	store_put_int(r, dst);
	store_put_int(r, dst_off);
	return (store_row_end(st, r));
}

int
store_heap_root_add(struct store *st, int64_t session,
    const struct store_heap_root *o)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_root, session)) == NULL)
		return (-1);
	store_put_int(r, o->idx);
	store_put_int(r, o->region);
	store_put_int(r, (int64_t)o->addr);
	store_heap_text(r, o->name);
	if (o->name == NULL || *o->name == '\0')
		store_put_null(r);
	else
		store_put_int(r, o->name_off);
	store_put_int(r, o->dst);
	store_put_int(r, o->dst_off);
	return (store_row_end(st, r));
}

/*
 * A report's frame: its text cut here (characters), "..." after.  Sites
 * share frames, so a 1 MiB name in 64 frames of 40 sites made a report
 * of gigabytes from a 1 MB file; no function's name is this long.  Told
 * by the character after it, not length(), which counts them all.
 */
#define STORE_HEAP_FRAME_MAX	"4096"

#define STORE_HEAP_SITE_COLUMNS(X) \
	X(SITE_IDX, "s.idx") X(SITE_FUNCTION, "f.function") \
	X(SITE_MODULE_PATH, "m.path") X(SITE_ALLOCS, "s.allocs") \
	X(SITE_FREES, "s.frees") X(SITE_BYTES, "s.bytes") \
	X(SITE_PEAK_BYTES, "s.peak_bytes") X(SITE_LIVE_BYTES, "s.live_bytes") \
	X(SITE_LIVE_BLOCKS, "s.live_blocks") \
	X(SITE_COLLECTABLE_BYTES, "s.collectable_bytes") \
	X(SITE_STACK, "NULL") \
	X(SITE_COLLECTABLE_BLOCKS, "s.collectable_blocks") \
	X(SITE_FILE, "f.file") X(SITE_LINE, "coalesce(f.line, 0)")
STORE_COLUMNS(store_heap_site_columns, STORE_HEAP_SITE_COLUMNS);

/* SITE_STACK when the stacks are asked for. */
#define STORE_HEAP_SITE_STACK \
	"coalesce((SELECT group_concat(text, char(10)) FROM" \
	" (SELECT CASE WHEN substr(g.text, " STORE_HEAP_FRAME_MAX \
	" + 1, 1) <> '' THEN substr(g.text, 1, " STORE_HEAP_FRAME_MAX \
	") || '...' ELSE g.text END AS text FROM heap_stack k" \
	" JOIN heap_frame g" \
	" ON g.session = k.session AND g.idx = k.frame" \
	" WHERE k.session = ?1 AND k.idx >= s.first_frame" \
	" AND k.idx < s.first_frame + s.nframes ORDER BY k.idx)), '')"

/*
 * A session's allocation sites, most live bytes first, at most limit (-1:
 * all), with their first frame's function, module and line; with each
 * one's stack as text when stacks is set (each frame cut at
 * STORE_HEAP_FRAME_MAX), else NULL.  A stack is made from the frames for
 * the sites returned alone: for all of them it cost a lookup per frame
 * of every site.
 */
struct store_cursor *
store_heap_sites(struct store *st, int64_t session, int64_t limit,
    int stacks)
{
	const char		*cols[sizeof store_heap_site_columns /
				    sizeof store_heap_site_columns[0]];
	struct store_cursor	*c;
	char			*tail;

	memcpy(cols, store_heap_site_columns, sizeof cols);
	if (stacks)
		cols[SITE_STACK] = STORE_HEAP_SITE_STACK;
	tail = xasprintf("FROM (SELECT * FROM heap_allocsite"
	    " WHERE session = ?1 ORDER BY live_bytes DESC, idx LIMIT %lld) s"
	    " LEFT JOIN heap_stack k0 ON k0.session = ?1"
	    " AND k0.idx = s.first_frame AND s.nframes > 0"
	    " LEFT JOIN heap_frame f ON f.session = ?1 AND f.idx = k0.frame"
	    " LEFT JOIN heap_module m ON m.session = ?1 AND m.idx = f.module"
	    " ORDER BY s.live_bytes DESC, s.idx", (long long)limit);
	c = store_cursor_select(st, cols, tail, session);
	free(tail);
	return (c);
}

int
store_heap_site_next(struct store_cursor *c, struct store_heap_site *s)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	memset(s, 0, sizeof *s);
	s->idx = store_cursor_int(c, SITE_IDX);
	s->function = store_cursor_text(c, SITE_FUNCTION);
	s->module_path = store_cursor_text(c, SITE_MODULE_PATH);
	s->allocs = (uint64_t)store_cursor_int(c, SITE_ALLOCS);
	s->frees = (uint64_t)store_cursor_int(c, SITE_FREES);
	s->bytes = (uint64_t)store_cursor_int(c, SITE_BYTES);
	s->peak_bytes = (uint64_t)store_cursor_int(c, SITE_PEAK_BYTES);
	s->live_bytes = (uint64_t)store_cursor_int(c, SITE_LIVE_BYTES);
	s->live_blocks = (uint64_t)store_cursor_int(c, SITE_LIVE_BLOCKS);
	s->collectable_bytes =
	    (uint64_t)store_cursor_int(c, SITE_COLLECTABLE_BYTES);
	s->stack = store_cursor_text(c, SITE_STACK);
	s->collectable_blocks =
	    (uint64_t)store_cursor_int(c, SITE_COLLECTABLE_BLOCKS);
	s->file = store_cursor_text(c, SITE_FILE);
	s->line = store_cursor_int(c, SITE_LINE);
	return (1);
}

/*
 * The distinct frames by index: idx, text (a line per function, an
 * inlined one's first); the frames of the stacks in order, frame by
 * frame: idx, frame; the sites by index with their run of those:
 * idx, first_frame, nframes.  Read each with store_cursor_int/_text
 * by the names of its columns (store.h):
 * a reader that wants each site's frames without their text made again
 * for every site (heap_site's stack does that).
 */
static const char *const store_heap_frame_columns[] = {
	STORE_HEAP_FRAME_COLUMNS(STORE_COLUMN_SQL) NULL
};
static const char *const store_heap_stack_columns[] = {
	STORE_HEAP_STACK_COLUMNS(STORE_COLUMN_SQL) NULL
};
static const char *const store_heap_site_run_columns[] = {
	STORE_HEAP_SITE_RUN_COLUMNS(STORE_COLUMN_SQL) NULL
};

struct store_cursor *
store_heap_frames(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_frame_columns,
	    "FROM heap_frame WHERE session = ?1 ORDER BY idx", session));
}

struct store_cursor *
store_heap_stacks(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_stack_columns,
	    "FROM heap_stack WHERE session = ?1 ORDER BY idx", session));
}

struct store_cursor *
store_heap_site_runs(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_site_run_columns,
	    "FROM heap_allocsite WHERE session = ?1 ORDER BY idx", session));
}

#define STORE_HEAP_BLOCK_COLUMNS(X) \
	X(BLOCK_IDX, "idx") X(BLOCK_ADDR, "addr") X(BLOCK_SIZE, "size") \
	X(BLOCK_USABLE, "usable") X(BLOCK_SEQ, "seq") \
	X(BLOCK_SITE, "coalesce(site, -1)") \
	X(BLOCK_TYPE, "coalesce(type, -1)") \
	X(BLOCK_REGION, "coalesce(region, -1)") X(BLOCK_TID, "tid") \
	X(BLOCK_STATE, "state") X(BLOCK_LEAK, "leak")
STORE_COLUMNS(store_heap_block_columns, STORE_HEAP_BLOCK_COLUMNS);

/*
 * What the heap graph's analyses load once (analyze/heapsnap.c): blocks
 * by index (their contents apart, with store_heap_contents), pointers,
 * roots with their region's module and thread, types, modules and
 * imports, each by a cursor and its _next.
 */
struct store_cursor *
store_heap_blocks(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_block_columns,
	    "FROM heap_block WHERE session = ?1 ORDER BY idx", session));
}

int
store_heap_block_next(struct store_cursor *c, struct store_heap_block *b)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	memset(b, 0, sizeof *b);
	b->idx = store_cursor_int(c, BLOCK_IDX);
	b->addr = (uint64_t)store_cursor_int(c, BLOCK_ADDR);
	b->size = (uint64_t)store_cursor_int(c, BLOCK_SIZE);
	b->usable = (uint64_t)store_cursor_int(c, BLOCK_USABLE);
	b->seq = (uint64_t)store_cursor_int(c, BLOCK_SEQ);
	b->site = store_cursor_int(c, BLOCK_SITE);
	b->type = store_cursor_int(c, BLOCK_TYPE);
	b->region = store_cursor_int(c, BLOCK_REGION);
	b->tid = store_cursor_int(c, BLOCK_TID);
	b->state = store_cursor_text(c, BLOCK_STATE);
	b->leak = store_cursor_text(c, BLOCK_LEAK);
	return (1);
}

#define STORE_HEAP_CONTENTS_COLUMNS(X) \
	X(CONTENTS_IDX, "idx") X(CONTENTS_CONTENTS, "contents")
STORE_COLUMNS(store_heap_contents_columns, STORE_HEAP_CONTENTS_COLUMNS);

/* The blocks whose contents were kept, by index. */
struct store_cursor *
store_heap_contents(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_contents_columns,
	    "FROM heap_block WHERE session = ?1 AND contents IS NOT NULL"
	    " ORDER BY idx", session));
}

int
store_heap_contents_next(struct store_cursor *c, struct store_heap_block *b)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	b->idx = store_cursor_int(c, CONTENTS_IDX);
	b->contents = store_cursor_blob(c, CONTENTS_CONTENTS, &b->ncontents);
	return (1);
}

struct store_cursor *
store_heap_refs(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_ref_columns,
	    "FROM heap_ref WHERE" STORE_HEAP_REFS " AND session = ?1",
	    session));
}

int
store_heap_ref_next(struct store_cursor *c, struct store_heap_ref *r)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	r->src = store_cursor_int(c, REF_SRC);
	r->src_off = store_cursor_int(c, REF_SRC_OFF);
	r->dst = store_cursor_int(c, REF_DST);
	r->dst_off = store_cursor_int(c, REF_DST_OFF);
	return (1);
}

#define STORE_HEAP_ROOT_COLUMNS(X) \
	X(ROOT_IDX, "r.idx") X(ROOT_REGION, "r.region") \
	X(ROOT_ADDR, "r.addr") X(ROOT_NAME, "r.name") \
	X(ROOT_NAME_OFF, "r.name_off") X(ROOT_DST, "r.dst") \
	X(ROOT_DST_OFF, "r.dst_off") X(ROOT_REGION_KIND, "g.kind") \
	X(ROOT_MODULE, "coalesce(g.module, -1)") \
	X(ROOT_TID, "coalesce(g.tid, 0)") X(ROOT_REGION_NAME, "g.name")
STORE_COLUMNS(store_heap_root_columns, STORE_HEAP_ROOT_COLUMNS);

/* Roots with their region's kind, module and thread, by index. */
struct store_cursor *
store_heap_roots(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_root_columns,
	    "FROM heap_root r LEFT JOIN heap_region g ON g.session = ?1 AND"
	    " g.idx = r.region WHERE r.session = ?1 ORDER BY r.idx", session));
}

int
store_heap_root_next(struct store_cursor *c, struct store_heap_root *r)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	memset(r, 0, sizeof *r);
	r->idx = store_cursor_int(c, ROOT_IDX);
	r->region = store_cursor_int(c, ROOT_REGION);
	r->addr = (uint64_t)store_cursor_int(c, ROOT_ADDR);
	r->name = store_cursor_text(c, ROOT_NAME);
	r->name_off = store_cursor_int(c, ROOT_NAME_OFF);
	r->dst = store_cursor_int(c, ROOT_DST);
	r->dst_off = store_cursor_int(c, ROOT_DST_OFF);
	r->region_kind = store_cursor_text(c, ROOT_REGION_KIND);
	r->module = store_cursor_int(c, ROOT_MODULE);
	r->tid = store_cursor_int(c, ROOT_TID);
	r->region_name = store_cursor_text(c, ROOT_REGION_NAME);
	return (1);
}

#define STORE_HEAP_TYPE_COLUMNS(X) \
	X(TYPE_IDX, "idx") X(TYPE_NAME, "name") \
	X(TYPE_MODULE, "coalesce(module, -1)") X(TYPE_SITE, "kind = 'site'")
STORE_COLUMNS(store_heap_type_columns, STORE_HEAP_TYPE_COLUMNS);

/*
 * Types: idx, name, module (-1: none), whether it is an allocation site's
 * function (no type), by index.
 */
struct store_cursor *
store_heap_types(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_type_columns,
	    "FROM heap_type WHERE session = ?1 ORDER BY idx", session));
}

#define STORE_HEAP_REGION_COLUMNS(X) \
	X(REGION_IDX, "idx") X(REGION_KIND, "kind") X(REGION_LO, "lo") \
	X(REGION_HI, "hi") X(REGION_NAME, "name")
STORE_COLUMNS(store_heap_region_columns, STORE_HEAP_REGION_COLUMNS);

/*
 * The regions blocks live in (heap, arena, mmap), by address: idx, kind,
 * lo, hi, name; read with store_heap_region_next.
 */
struct store_cursor *
store_heap_regions(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_region_columns,
	    "FROM heap_region WHERE session = ?1 AND kind IN ('heap',"
	    " 'arena', 'mmap') ORDER BY lo, idx", session));
}

#define STORE_HEAP_MODULE_COLUMNS(X) \
	X(MODULE_IDX, "idx") X(MODULE_PATH, "path") \
	X(MODULE_SONAME, "soname") X(MODULE_MAIN, "main") \
	X(MODULE_UNLOADED, "unloaded") X(MODULE_CODE_SIZE, "code_size") \
	X(MODULE_DATA_SIZE, "data_size")
STORE_COLUMNS(store_heap_module_columns, STORE_HEAP_MODULE_COLUMNS);

/*
 * Modules by index; store_heap_module_next fills idx, path, soname, main,
 * unloaded, code_size and data_size.
 */
struct store_cursor *
store_heap_modules(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_module_columns,
	    "FROM heap_module WHERE session = ?1 ORDER BY idx", session));
}

int
store_heap_module_next(struct store_cursor *c, struct store_heap_module *m)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	memset(m, 0, sizeof *m);
	m->idx = store_cursor_int(c, MODULE_IDX);
	m->path = store_cursor_text(c, MODULE_PATH);
	m->soname = store_cursor_text(c, MODULE_SONAME);
	m->main = (int)store_cursor_int(c, MODULE_MAIN);
	m->unloaded = (int)store_cursor_int(c, MODULE_UNLOADED);
	m->code_size = (uint64_t)store_cursor_int(c, MODULE_CODE_SIZE);
	m->data_size = (uint64_t)store_cursor_int(c, MODULE_DATA_SIZE);
	return (1);
}

#define STORE_HEAP_IMPORT_COLUMNS(X) \
	X(IMPORT_MODULE, "module") X(IMPORT_TARGET, "target")
STORE_COLUMNS(store_heap_import_columns, STORE_HEAP_IMPORT_COLUMNS);

/* Imports that name a loaded module: module, target. */
struct store_cursor *
store_heap_imports(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_import_columns,
	    "FROM heap_import WHERE session = ?1 AND target IS NOT NULL ORDER"
	    " BY module, idx", session));
}

int
store_heap_type_next(struct store_cursor *c, struct store_heap_type *t)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	t->idx = store_cursor_int(c, TYPE_IDX);
	t->name = store_cursor_text(c, TYPE_NAME);
	t->module = store_cursor_int(c, TYPE_MODULE);
	t->site = store_cursor_int(c, TYPE_SITE) != 0;
	return (1);
}

int
store_heap_import_next(struct store_cursor *c, struct store_heap_import *m)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	m->module = store_cursor_int(c, IMPORT_MODULE);
	m->target = store_cursor_int(c, IMPORT_TARGET);
	return (1);
}

int
store_heap_region_next(struct store_cursor *c, struct store_heap_region *r)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	r->idx = store_cursor_int(c, REGION_IDX);
	r->kind = store_cursor_text(c, REGION_KIND);
	r->lo = (uint64_t)store_cursor_int(c, REGION_LO);
	r->hi = (uint64_t)store_cursor_int(c, REGION_HI);
	r->name = store_cursor_text(c, REGION_NAME);
	return (1);
}

#define STORE_HEAP_THREAD_COLUMNS(X) \
	X(THREAD_TID, "tid") X(THREAD_KIND, "kind") X(THREAD_LO, "lo") \
	X(THREAD_HI, "hi")
STORE_COLUMNS(store_heap_thread_columns, STORE_HEAP_THREAD_COLUMNS);

/*
 * The threads' regions (HeapInspector's Tasks): each stack and registers
 * region, by thread; read with store_heap_thread_next.
 */
struct store_cursor *
store_heap_threads(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_thread_columns,
	    "FROM heap_region WHERE session = ?1 AND tid IS NOT NULL AND"
	    " kind IN ('stack', 'registers') ORDER BY tid, kind", session));
}

int
store_heap_thread_next(struct store_cursor *c, struct store_heap_thread *t)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	t->tid = store_cursor_int(c, THREAD_TID);
	t->kind = store_cursor_text(c, THREAD_KIND);
	t->lo = (uint64_t)store_cursor_int(c, THREAD_LO);
	t->hi = (uint64_t)store_cursor_int(c, THREAD_HI);
	return (1);
}
