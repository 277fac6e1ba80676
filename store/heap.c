/*
 * The heap kind's tables: a snapshot's header with its leak summary, its
 * modules and their imports, memory regions, types, allocation sites,
 * live blocks with memcheck's state, the pointers between blocks and from
 * the roots.  Blocks and pointers are the most (a million blocks, four
 * pointers per block is common): a heap_blockrun row holds 4096 blocks
 * and a heap_refrun row the pointers of 4096 source blocks, each packed
 * in a blob of varints; heap_block and heap_ref are views of them a row
 * each, by heap_block_unpack and heap_ref_unpack (below), which
 * store_heap_connect gives every connection profview opens: the sqlite3
 * shell, without them, reads the runs but not the views.
 * A stack is a run of heap_stack rows naming heap_frame rows, as the file
 * has it: the text of a frame many sites share is stored once.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

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
	/*
	 * 4 -> 5: blocks and pointers packed.  A row per block and per
	 * pointer (an insert each) was most of an ingest: 1M blocks with
	 * 3M pointers took 1.5 s for the pointers, more for the blocks.
	 * Each run of 4096 blocks is now one heap_blockrun row, JSON text
	 * (their kept contents heap_content rows), and each run of 4096
	 * source blocks' pointers one heap_refrun row, a blob of varints
	 * (store_heap_pack_block, _ref).  heap_block and heap_ref are
	 * views with the old columns: heap_block by json_each, so that it
	 * reads in any SQLite (the sqlite3 shell, which tests and people
	 * use on it, too); heap_ref by heap_ref_unpack, which
	 * store_heap_connect gives every connection profview opens (the
	 * pointers, three a block, stay varints: 6 bytes each, where a
	 * block's JSON text takes 34).  Stored sessions' rows are packed
	 * by heap_block_pack and heap_ref_pack, which sort each run's.
	 */
	"CREATE TABLE IF NOT EXISTS heap_blockrun ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  run INTEGER NOT NULL,"
	"  count INTEGER NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  blocks TEXT NOT NULL,"
	"  PRIMARY KEY (session, run));"
	"CREATE TABLE IF NOT EXISTS heap_content ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  contents BLOB NOT NULL,"
	"  PRIMARY KEY (session, idx));"
	"INSERT INTO heap_blockrun SELECT g.session, g.run, g.n,"
	"  (SELECT b.addr FROM heap_block b WHERE b.session = g.session"
	"  AND b.idx = g.first), g.blocks FROM (SELECT session,"
	"  idx >> 12 AS run, count(*) AS n, min(idx) AS first,"
	"  heap_block_pack(idx, addr, size, usable, seq, site, type, tid,"
	"  state, leak, region) AS blocks FROM heap_block"
	"  GROUP BY session, idx >> 12) g;"
	"INSERT INTO heap_content SELECT session, idx, contents FROM heap_block"
	"  WHERE contents IS NOT NULL;"
	"DROP TABLE heap_block;"
	"CREATE VIEW heap_block AS SELECT r.session AS session,"
	"  (r.run << 12) + j.key AS idx,"
	"  r.addr + json_extract(j.value, '$[0]') AS addr,"
	"  json_extract(j.value, '$[1]') AS size,"
	"  json_extract(j.value, '$[1]') + json_extract(j.value, '$[2]')"
	"  AS usable, json_extract(j.value, '$[3]') AS seq,"
	"  json_extract(j.value, '$[4]') AS site,"
	"  json_extract(j.value, '$[5]') AS type,"
	"  json_extract(j.value, '$[6]') AS tid,"
	"  CASE json_extract(j.value, '$[7]') / 3 WHEN 0 THEN 'reachable'"
	"  WHEN 1 THEN 'possible' ELSE 'collectable' END AS state,"
	"  CASE json_extract(j.value, '$[7]') % 3 WHEN 1 THEN 'definite'"
	"  WHEN 2 THEN 'indirect' END AS leak,"
	"  json_extract(j.value, '$[8]') AS region, c.contents AS contents"
	"  FROM heap_blockrun r, json_each(r.blocks) j"
	"  LEFT JOIN heap_content c ON c.session = r.session"
	"  AND c.idx = (r.run << 12) + j.key;"
	"CREATE TABLE IF NOT EXISTS heap_refrun ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  run INTEGER NOT NULL,"
	"  count INTEGER NOT NULL,"
	"  refs BLOB NOT NULL,"
	"  PRIMARY KEY (session, run));"
	"INSERT INTO heap_refrun SELECT session, src >> 12, count(*),"
	"  heap_ref_pack(src, src_off, dst, dst_off) FROM heap_ref"
	"  GROUP BY session, src >> 12;"
	"DROP TABLE heap_ref;"
	"CREATE VIEW heap_ref AS SELECT r.session AS session, u.src AS src,"
	"  u.src_off AS src_off, u.dst AS dst, u.dst_off AS dst_off"
	"  FROM heap_refrun r, heap_ref_unpack(r.refs) u;",
	/*
	 * 5 -> 6: HeapInspector's type descriptors, read from the modules'
	 * symbol tables at ingest: each class's vtable size, and every
	 * _ZTV symbol of the modules read, used by a live object or not,
	 * so that :select typedescriptor finds and counts them; NULL and
	 * none where the module was gone or the session ingested before.
	 */
	"ALTER TABLE heap_type ADD COLUMN vtable_size INTEGER;"
	"CREATE TABLE IF NOT EXISTS heap_vtable ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  idx INTEGER NOT NULL,"
	"  module INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  PRIMARY KEY (session, idx)) WITHOUT ROWID;",
	/*
	 * 6 -> 7: a run's blocks a blob of varints, as its pointers are
	 * (store_heap_pack_block): the JSON text was two thirds of what an
	 * ingest of 1M blocks wrote, and its digits a tenth of its CPU.
	 * heap_block is a view by heap_block_unpack, which only profview's
	 * connections have, as heap_ref's heap_ref_unpack.  Stored runs of
	 * text are read by json_each and packed by heap_block_pack; runs
	 * migration 5 has just packed (a version 4 store) already are blobs.
	 */
	"DROP VIEW heap_block;"
	"CREATE TABLE heap_blockrun7 ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  run INTEGER NOT NULL,"
	"  count INTEGER NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  blocks BLOB NOT NULL,"
	"  PRIMARY KEY (session, run));"
	"INSERT INTO heap_blockrun7 SELECT r.session, r.run, r.count, r.addr,"
	"  heap_block_pack((r.run << 12) + j.key,"
	"  r.addr + json_extract(j.value, '$[0]'),"
	"  json_extract(j.value, '$[1]'),"
	"  json_extract(j.value, '$[1]') + json_extract(j.value, '$[2]'),"
	"  json_extract(j.value, '$[3]'), json_extract(j.value, '$[4]'),"
	"  json_extract(j.value, '$[5]'), json_extract(j.value, '$[6]'),"
	"  CASE json_extract(j.value, '$[7]') / 3 WHEN 0 THEN 'reachable'"
	"  WHEN 1 THEN 'possible' ELSE 'collectable' END,"
	"  CASE json_extract(j.value, '$[7]') % 3 WHEN 1 THEN 'definite'"
	"  WHEN 2 THEN 'indirect' END, json_extract(j.value, '$[8]'))"
	"  FROM heap_blockrun r, json_each(r.blocks) j"
	"  WHERE typeof(r.blocks) = 'text' GROUP BY r.session, r.run;"
	"INSERT INTO heap_blockrun7 SELECT session, run, count, addr, blocks"
	"  FROM heap_blockrun WHERE typeof(blocks) = 'blob';"
	"DROP TABLE heap_blockrun;"
	"ALTER TABLE heap_blockrun7 RENAME TO heap_blockrun;"
	"CREATE VIEW heap_block AS SELECT r.session AS session, u.idx AS idx,"
	"  u.addr AS addr, u.size AS size, u.usable AS usable, u.seq AS seq,"
	"  u.site AS site, u.type AS type, u.tid AS tid, u.state AS state,"
	"  u.leak AS leak, u.region AS region, c.contents AS contents"
	"  FROM heap_blockrun r, heap_block_unpack(r.blocks, r.addr, r.run) u"
	"  LEFT JOIN heap_content c ON c.session = r.session"
	"  AND c.idx = u.idx;",
	/*
	 * 7 -> 8: pointers of form 2 (store_heap_pack_ref2): a head byte
	 * a pointer, with the target from the target before's where that
	 * is nearer than from the source (an array of pointers to blocks
	 * in a row), and the flags and a small offset in it: 3.3 bytes a
	 * pointer on the 1M-block bench where form 1's four varints took
	 * 6.  Rows stored before keep form 1 (the column's default), and
	 * both are read; heap_ref_unpack takes the form as its second
	 * argument (1 without it).
	 */
	"ALTER TABLE heap_refrun ADD COLUMN form INTEGER NOT NULL DEFAULT 1;"
	"DROP VIEW heap_ref;"
	"CREATE VIEW heap_ref AS SELECT r.session AS session, u.src AS src,"
	"  u.src_off AS src_off, u.dst AS dst, u.dst_off AS dst_off"
	"  FROM heap_refrun r, heap_ref_unpack(r.refs, r.form) u;",
};

static int	store_heap_connect(struct sqlite3 *);

static const char *const store_heap_purge[] = {
	"DELETE FROM heap_refrun WHERE session = ?1",
	"DELETE FROM heap_root WHERE session = ?1",
	"DELETE FROM heap_dvar WHERE session = ?1",
	"DELETE FROM heap_vtable WHERE session = ?1",
	"DELETE FROM heap_dfield WHERE session = ?1",
	"DELETE FROM heap_dtype WHERE session = ?1",
	"DELETE FROM heap_content WHERE session = ?1",
	"DELETE FROM heap_blockrun WHERE session = ?1",
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
	sizeof store_heap_purge / sizeof store_heap_purge[0],
	store_heap_connect
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
	"heap_type", "idx, name, kind, module, site, vtable, vtable_size",
	NULL
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
static const struct store_table store_t_heap_vtable = {
	"heap_vtable", "idx, module, name, addr, size", NULL
};
static const struct store_table store_t_heap_dvar = {
	"heap_dvar", "idx, module, name, addr, dtype", NULL
};
static const struct store_table store_t_heap_blockrun = {
	"heap_blockrun", "run, count, addr, blocks", NULL
};
static const struct store_table store_t_heap_content = {
	"heap_content", "idx, contents", NULL
};
static const struct store_table store_t_heap_refrun = {
	"heap_refrun", "run, count, refs, form", NULL
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
 * The header.  ref_first and ref_last were the rowids of the session's
 * heap_ref rows; the pointers are packed now, and they number them 1 to
 * refs, so that ref_last - ref_first + 1 counts them as it did.
 */
int
store_heap_add(struct store *st, int64_t session, const struct store_heap *h)
{
	struct store_row	*r;

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
		store_put_int(r, 1);
		store_put_int(r, h->refs);
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
    uint64_t vtable, uint64_t vtable_size)
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
	if (vtable_size == 0)
		store_put_null(r);
	else
		store_put_int(r, (int64_t)vtable_size);
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

int
store_heap_vtable_add(struct store *st, int64_t session, int64_t idx,
    int64_t module, const char *name, uint64_t addr, uint64_t size)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_heap_vtable, session)) == NULL)
		return (-1);
	store_put_int(r, idx);
	store_put_int(r, module);
	store_put_text(r, name);
	store_put_int(r, (int64_t)addr);
	store_put_int(r, (int64_t)size);
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

/*
 * The pointers packed: per pointer, as LEB128 varints, its source less
 * the one before's (0 before the first), its offset less the one
 * before's when the source is the same (else itself), its target as a
 * zigzag difference from its source, and the target's offset.  Every
 * difference wraps at 64 bits, so any rows pack; the file's order makes
 * most of them one byte.  store_heap_pack_ref makes room for a pointer's
 * four at once (40 bytes at most), not a check a varint: 12M of them for
 * 3M pointers.
 */

/* A varint at q; the byte after it. */
static inline uint8_t *
store_heap_putq(uint8_t *q, uint64_t v)
{
	while (v >= 0x80) {
		*q++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*q++ = (uint8_t)v;
	return (q);
}

/* A varint at the pack's end, its room made (store_heap_room). */
static inline void
store_heap_put(struct store_heap_pack *p, uint64_t v)
{
	p->len = (size_t)(store_heap_putq(p->buf + p->len, v) - p->buf);
}

/* Room for need bytes more; a buffer of first bytes to begin with. */
static inline void
store_heap_room(struct store_heap_pack *p, size_t need, size_t first)
{
	if (p->cap - p->len < need) {
		p->cap = p->cap != 0 ? p->cap * 2 : first;
		p->buf = xreallocarray(p->buf, p->cap, 1);
	}
}

static uint64_t
store_heap_zz(uint64_t d)
{
	return ((d << 1) ^ (uint64_t)((int64_t)d >> 63));
}

static uint64_t
store_heap_unzz(uint64_t z)
{
	return ((z >> 1) ^ (uint64_t)-(int64_t)(z & 1));
}

void
store_heap_pack_ref(struct store_heap_pack *p, const struct store_heap_ref *r)
{
	uint64_t	src = (uint64_t)r->src, off = (uint64_t)r->src_off;
	uint64_t	d = (uint64_t)r->dst - src;

	store_heap_room(p, 40, 4096);
	store_heap_put(p, src - p->src);
	store_heap_put(p, p->n != 0 && src == p->src ? off - p->off : off);
	store_heap_put(p, store_heap_zz(d));
	store_heap_put(p, (uint64_t)r->dst_off);
	p->src = src;
	p->off = off;
	p->n++;
}

/*
 * Form 2 (heap tables 8, what the ingest writes): a head byte a pointer,
 * then only what it does not say: the source less the one before's
 * unless the same (SAME), the offset (less the one before's if the
 * source is the same) unless it is a multiple of 8 under 31 words, kept
 * in the head's top five bits, the target as a zigzag difference from
 * the target before's (NEAR) or from its source, whichever is smaller
 * (an array of pointers to the blocks in a row is one byte each), and
 * the target's offset unless 0 (OFF0).  3.3 bytes a pointer on the 1M
 * block bench, where form 1 (store_heap_pack_ref) takes 6.
 */
#define STORE_HEAP_R_SAME	0x01
#define STORE_HEAP_R_NEAR	0x02
#define STORE_HEAP_R_OFF0	0x04
#define STORE_HEAP_R_WSHIFT	3
#define STORE_HEAP_R_WFAR	31	/* the offset follows as a varint */

/*
 * Inlined into store_heap_refw_add, the ingest's 3M calls: the state in
 * registers, the buffer through one pointer.
 */
static inline void
store_heap_ref2(struct store_heap_pack *p, uint64_t src, uint64_t off,
    uint64_t dst, uint64_t dst_off)
{
	uint64_t	o = off, ds, dp;
	uint8_t		*q, *head;
	unsigned	h = 0;

	store_heap_room(p, 41, 4096);
	head = p->buf + p->len;
	q = head + 1;
	if (p->n != 0 && src == p->src) {
		h |= STORE_HEAP_R_SAME;
		o = off - p->off;
	} else
		q = store_heap_putq(q, src - p->src);
	if ((o & 7) == 0 && (o >> 3) < STORE_HEAP_R_WFAR)
		h |= (unsigned)(o >> 3) << STORE_HEAP_R_WSHIFT;
	else {
		h |= STORE_HEAP_R_WFAR << STORE_HEAP_R_WSHIFT;
		q = store_heap_putq(q, o);
	}
	ds = store_heap_zz(dst - src);
	dp = store_heap_zz(dst - p->dst);
	if (dp < ds) {
		h |= STORE_HEAP_R_NEAR;
		q = store_heap_putq(q, dp);
	} else
		q = store_heap_putq(q, ds);
	if (dst_off == 0)
		h |= STORE_HEAP_R_OFF0;
	else
		q = store_heap_putq(q, dst_off);
	*head = (uint8_t)h;
	p->len = (size_t)(q - p->buf);
	p->src = src;
	p->off = off;
	p->dst = dst;
	p->n++;
}

void
store_heap_pack_ref2(struct store_heap_pack *p, const struct store_heap_ref *r)
{
	store_heap_ref2(p, (uint64_t)r->src, (uint64_t)r->src_off,
	    (uint64_t)r->dst, (uint64_t)r->dst_off);
}

void
store_heap_unpack_init(struct store_heap_unpack *u, const void *p, size_t len)
{
	memset(u, 0, sizeof *u);
	u->p = p;
	u->end = u->p != NULL ? u->p + len : NULL;
}

static int
store_heap_varint(struct store_heap_unpack *u, uint64_t *out)
{
	uint64_t	v = 0;
	unsigned	sh = 0;
	uint8_t		c;

	do {
		if (u->p >= u->end || sh > 63)
			return (-1);
		c = *u->p++;
		v |= (uint64_t)(c & 0x7f) << sh;
		sh += 7;
	} while (c & 0x80);
	*out = v;
	return (0);
}

/* A form 2 pointer (store_heap_pack_ref2). */
static int
store_heap_unpack_ref2(struct store_heap_unpack *u, struct store_heap_ref *r)
{
	uint64_t	ds = 0, o, d, dst_off = 0;
	unsigned	h;

	h = *u->p++;
	if ((h & STORE_HEAP_R_SAME) && u->n == 0)
		return (-1);
	if (!(h & STORE_HEAP_R_SAME) && store_heap_varint(u, &ds) != 0)
		return (-1);
	o = (uint64_t)(h >> STORE_HEAP_R_WSHIFT) << 3;
	if ((h >> STORE_HEAP_R_WSHIFT) == STORE_HEAP_R_WFAR &&
	    store_heap_varint(u, &o) != 0)
		return (-1);
	if (store_heap_varint(u, &d) != 0 || (!(h & STORE_HEAP_R_OFF0) &&
	    store_heap_varint(u, &dst_off) != 0))
		return (-1);
	if (h & STORE_HEAP_R_SAME)
		o += u->off;
	u->src += ds;
	u->off = o;
	u->dst = ((h & STORE_HEAP_R_NEAR) ? u->dst : u->src) +
	    store_heap_unzz(d);
	u->n++;
	r->src = (int64_t)u->src;
	r->src_off = (int64_t)o;
	r->dst = (int64_t)u->dst;
	r->dst_off = (int64_t)dst_off;
	return (1);
}

/*
 * The next pointer of a blob of form u->form (1 when 0): 1, 0 at the
 * blob's end, -1 if it is cut short.
 */
int
store_heap_unpack_next(struct store_heap_unpack *u, struct store_heap_ref *r)
{
	uint64_t	ds, o, d, dst_off;

	if (u->p >= u->end)
		return (0);
	if (u->form == 2)
		return (store_heap_unpack_ref2(u, r));
	if (store_heap_varint(u, &ds) != 0 || store_heap_varint(u, &o) != 0 ||
	    store_heap_varint(u, &d) != 0 ||
	    store_heap_varint(u, &dst_off) != 0)
		return (-1);
	if (u->n != 0 && ds == 0)
		o += u->off;
	u->src += ds;
	u->off = o;
	u->n++;
	r->src = (int64_t)u->src;
	r->src_off = (int64_t)o;
	r->dst = (int64_t)(u->src + store_heap_unzz(d));
	r->dst_off = (int64_t)dst_off;
	return (1);
}

#define STORE_HEAP_RUN_COLUMNS(X) X(RUN_REFS, "refs") X(RUN_FORM, "form")
STORE_COLUMNS(store_heap_run_columns, STORE_HEAP_RUN_COLUMNS);

/*
 * The pointer from byte src_off of block src: 1 with *dst and *dst_off,
 * 0 if that word points to no block.  Its run is the one row to read.
 */
int
store_heap_ref_at(struct store *st, int64_t session, int64_t src,
    int64_t src_off, int64_t *dst, int64_t *dst_off)
{
	struct store_cursor		*c;
	struct store_heap_unpack	 u;
	struct store_heap_ref		 r;
	const void			*p;
	size_t				 len;
	int				 rc, found = 0;

	if (src < 0)
		return (0);
	c = store_cursor_select(st, store_heap_run_columns, "FROM heap_refrun"
	    " WHERE session = ?1 AND run = ?2", session);
	if (c == NULL)
		return (-1);
	store_cursor_bind(c, 2, src >> STORE_HEAP_RUN_SHIFT);
	if ((rc = store_cursor_step(c)) == 1) {
		p = store_cursor_blob(c, RUN_REFS, &len);
		store_heap_unpack_init(&u, p, len);
		u.form = (int)store_cursor_int(c, RUN_FORM);
		while ((rc = store_heap_unpack_next(&u, &r)) == 1 &&
		    r.src <= src) {
			if (r.src == src && r.src_off == src_off) {
				*dst = r.dst;
				*dst_off = r.dst_off;
				found = 1;
				break;
			}
		}
	}
	store_cursor_close(c);
	return (rc < 0 ? -1 : found);
}
/*
 * The blocks packed, a blob of varints as the pointers are (JSON text,
 * 34 bytes a block, was two thirds of what an ingest of 1M blocks
 * wrote, and printing its digits a tenth of its CPU).  Per block, in
 * index order, which the file's address order is: its address less the
 * block before's (the first's less heap_blockrun.addr, its own), size,
 * usable less size, seq as a zigzag difference from the block before's;
 * then a byte: state (0 reachable, 1 possible, 2 collectable) times 3
 * plus leak (0 none, 1 definite, 2 indirect) in its high four bits, and
 * a bit each for site (1), type (2), tid (4) and region (8) the same as
 * the block before's; then, of those four, each that is not: site + 1,
 * type + 1, tid as a zigzag difference, region + 1 (0 for none; the
 * first block's "before" is none and tid 0).  Differences wrap at 64
 * bits, so any values pack.  Neighbours mostly share site, type, thread
 * and region: the bench's 1M blocks (bench/heap/live.sh) take 5.0 bytes
 * each and 600 blocks of eight test programs' snapshots 7.3, where nine
 * varints, a byte a field at least, took 9.0 and 10.3 (8.0 and 9.3 with
 * state folded into region): four comparisons a block, for 4 MB fewer
 * that a 1M-block ingest writes.
 */
static const char *const store_heap_states[] = { "reachable", "possible",
    "collectable" };
static const char *const store_heap_leaks[] = { NULL, "definite",
    "indirect" };

/* Room for one block: eight varints of 10 bytes at most, and its byte. */
#define STORE_HEAP_BLOCK_MAX	81

#define STORE_HEAP_SAME_SITE	0x1
#define STORE_HEAP_SAME_TYPE	0x2
#define STORE_HEAP_SAME_TID	0x4
#define STORE_HEAP_SAME_REGION	0x8

static unsigned
store_heap_code(const char *const *names, size_t n, const char *s)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (names[i] == s || (names[i] != NULL && s != NULL &&
		    strcmp(names[i], s) == 0))
			return ((unsigned)i);
	}
	return (0);
}

/* An index as a varint: 0 for none, else itself + 1. */
static inline uint64_t
store_heap_idx1(int64_t v)
{
	return (v < 0 ? 0 : (uint64_t)v + 1);
}

/* A block, the run's next. */
void
store_heap_pack_block(struct store_heap_pack *p,
    const struct store_heap_block *b)
{
	uint64_t	site = store_heap_idx1(b->site);
	uint64_t	type = store_heap_idx1(b->type);
	uint64_t	region = store_heap_idx1(b->region);
	uint64_t	tid = (uint64_t)b->tid;
	unsigned	same;

	if (p->n == 0)
		p->addr = p->last = b->addr;
	store_heap_room(p, STORE_HEAP_BLOCK_MAX, 65536);
	same = (store_heap_code(store_heap_states, 3, b->state) * 3 +
	    store_heap_code(store_heap_leaks, 3, b->leak)) << 4;
	if (site == p->site)
		same |= STORE_HEAP_SAME_SITE;
	if (type == p->type)
		same |= STORE_HEAP_SAME_TYPE;
	if (tid == p->tid)
		same |= STORE_HEAP_SAME_TID;
	if (region == p->region)
		same |= STORE_HEAP_SAME_REGION;
	store_heap_put(p, b->addr - p->last);
	store_heap_put(p, b->size);
	store_heap_put(p, b->usable - b->size);
	store_heap_put(p, store_heap_zz(b->seq - p->seq));
	p->buf[p->len++] = (uint8_t)same;
	if (!(same & STORE_HEAP_SAME_SITE))
		store_heap_put(p, site);
	if (!(same & STORE_HEAP_SAME_TYPE))
		store_heap_put(p, type);
	if (!(same & STORE_HEAP_SAME_TID))
		store_heap_put(p, store_heap_zz(tid - p->tid));
	if (!(same & STORE_HEAP_SAME_REGION))
		store_heap_put(p, region);
	p->last = b->addr;
	p->seq = b->seq;
	p->tid = tid;
	p->site = site;
	p->type = type;
	p->region = region;
	p->n++;
}

/*
 * The next block of a run's blob (no contents), u->addr the run's first
 * address and u->idx its first index: 1, 0 at the end, -1 if it is cut
 * short or not what store_heap_pack_block writes.
 */
int
store_heap_unpack_block(struct store_heap_unpack *u, struct store_heap_block *b)
{
	uint64_t	v[4], tid = 0;
	unsigned	same;
	size_t		i;

	if (u->p >= u->end)
		return (0);
	for (i = 0; i < 4; i++) {
		if (store_heap_varint(u, &v[i]) != 0)
			return (-1);
	}
	if (u->p >= u->end || (same = *u->p++) >> 4 > 8)
		return (-1);
	if ((!(same & STORE_HEAP_SAME_SITE) &&
	    store_heap_varint(u, &u->site) != 0) ||
	    (!(same & STORE_HEAP_SAME_TYPE) &&
	    store_heap_varint(u, &u->type) != 0) ||
	    (!(same & STORE_HEAP_SAME_TID) && store_heap_varint(u, &tid) != 0) ||
	    (!(same & STORE_HEAP_SAME_REGION) &&
	    store_heap_varint(u, &u->region) != 0))
		return (-1);
	if (!(same & STORE_HEAP_SAME_TID))
		u->tid += store_heap_unzz(tid);
	if (u->n == 0)
		u->last = u->addr;
	memset(b, 0, sizeof *b);
	b->idx = (int64_t)(u->idx + (uint64_t)u->n);
	b->addr = u->last + v[0];
	b->size = v[1];
	b->usable = v[1] + v[2];
	b->seq = u->seq + store_heap_unzz(v[3]);
	b->site = (int64_t)(u->site - 1);
	b->type = (int64_t)(u->type - 1);
	b->tid = (int64_t)u->tid;
	b->state = store_heap_states[(same >> 4) / 3];
	b->leak = store_heap_leaks[(same >> 4) % 3];
	b->region = (int64_t)(u->region - 1);
	u->last = b->addr;
	u->seq = b->seq;
	u->n++;
	return (1);
}

void
store_heap_runw_init(struct store_heap_runw *w, struct store *st,
    int64_t session, int blocks)
{
	memset(w, 0, sizeof *w);
	w->st = st;
	w->session = session;
	w->run = -1;
	w->blocks = blocks;
}

/* The run packed so far as its row. */
static int
store_heap_runw_flush(struct store_heap_runw *w)
{
	struct store_heap_pack	 p = w->pack;
	struct store_row	*r;

	if (w->pack.n == 0)
		return (0);
	memset(&w->pack, 0, sizeof w->pack);
	w->pack.buf = p.buf;
	w->pack.cap = p.cap;
	if ((r = store_row(w->st, w->blocks ? &store_t_heap_blockrun :
	    &store_t_heap_refrun, w->session)) == NULL)
		return (-1);
	store_put_int(r, w->run);
	store_put_int(r, p.n);
	if (w->blocks)
		store_put_int(r, (int64_t)p.addr);
	store_put_blob(r, p.buf, p.len);
	if (!w->blocks)
		store_put_int(r, 2);
	return (store_row_end(w->st, r));
}

/* Index idx (a block's, a pointer's source) in the run being packed. */
static int
store_heap_runw_at(struct store_heap_runw *w, uint64_t idx)
{
	if ((int64_t)(idx >> STORE_HEAP_RUN_SHIFT) == w->run)
		return (0);
	if (store_heap_runw_flush(w) != 0)
		return (-1);
	w->run = (int64_t)(idx >> STORE_HEAP_RUN_SHIFT);
	return (0);
}

int
store_heap_runw_end(struct store_heap_runw *w)
{
	int	rc;

	rc = store_heap_runw_flush(w);
	free(w->pack.buf);
	memset(&w->pack, 0, sizeof w->pack);
	return (rc);
}

/* A block, by index; its contents, if kept, a heap_content row. */
int
store_heap_blockw_add(struct store_heap_runw *w,
    const struct store_heap_block *b)
{
	struct store_row	*r;

	if (store_heap_runw_at(w, (uint64_t)b->idx) != 0)
		return (-1);
	store_heap_pack_block(&w->pack, b);
	if (b->contents == NULL)
		return (0);
	if ((r = store_row(w->st, &store_t_heap_content, w->session)) == NULL)
		return (-1);
	store_put_int(r, b->idx);
	store_put_blob(r, b->contents, b->ncontents);
	return (store_row_end(w->st, r));
}

/* A pointer, in the file's order (by source, then offset). */
int
store_heap_refw_add(struct store_heap_runw *w, uint32_t src, uint64_t src_off,
    uint32_t dst, uint32_t dst_off)
{
	if ((int64_t)(src >> STORE_HEAP_RUN_SHIFT) != w->run &&
	    store_heap_runw_at(w, src) != 0)
		return (-1);
	store_heap_ref2(&w->pack, src, src_off, dst, dst_off);
	return (0);
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

struct store_heap_blocks {
	struct store_cursor		*c;
	struct store_heap_unpack	 u;
};

#define STORE_HEAP_BLOCKRUN_COLUMNS(X) \
	X(BLOCKRUN_RUN, "run") X(BLOCKRUN_ADDR, "addr") \
	X(BLOCKRUN_BLOCKS, "blocks")
STORE_COLUMNS(store_heap_blockrun_columns, STORE_HEAP_BLOCKRUN_COLUMNS);

/*
 * What the heap graph's analyses load once (analyze/heapsnap.c): blocks
 * by index, a run's text at a time (their contents apart, with
 * store_heap_contents), pointers, roots with their region's module and
 * thread, types, modules and imports, each by a cursor and its _next.
 */
struct store_heap_blocks *
store_heap_blocks(struct store *st, int64_t session)
{
	struct store_heap_blocks	*it;

	it = xcalloc(1, sizeof *it);
	it->c = store_cursor_select(st, store_heap_blockrun_columns,
	    "FROM heap_blockrun WHERE session = ?1 ORDER BY run", session);
	if (it->c == NULL) {
		free(it);
		return (NULL);
	}
	return (it);
}

int
store_heap_block_next(struct store_heap_blocks *it, struct store_heap_block *b)
{
	const void	*p;
	size_t		 len;
	int		 rc;

	while ((rc = store_heap_unpack_block(&it->u, b)) == 0) {
		if ((rc = store_cursor_step(it->c)) != 1)
			return (rc);
		p = store_cursor_blob(it->c, BLOCKRUN_BLOCKS, &len);
		store_heap_unpack_init(&it->u, p, len);
		it->u.idx = (uint64_t)store_cursor_int(it->c, BLOCKRUN_RUN) <<
		    STORE_HEAP_RUN_SHIFT;
		it->u.addr = (uint64_t)store_cursor_int(it->c, BLOCKRUN_ADDR);
	}
	return (rc);
}

void
store_heap_blocks_close(struct store_heap_blocks *it)
{
	if (it == NULL)
		return;
	store_cursor_close(it->c);
	free(it);
}

#define STORE_HEAP_CONTENTS_COLUMNS(X) \
	X(CONTENTS_IDX, "idx") X(CONTENTS_CONTENTS, "contents")
STORE_COLUMNS(store_heap_contents_columns, STORE_HEAP_CONTENTS_COLUMNS);

/* The blocks whose contents were kept, by index. */
struct store_cursor *
store_heap_contents(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_contents_columns,
	    "FROM heap_content WHERE session = ?1 ORDER BY idx", session));
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

struct store_heap_refs {
	struct store_cursor		*c;
	struct store_heap_unpack	 u;
};

/* A session's pointers in order, a run's blob at a time. */
struct store_heap_refs *
store_heap_refs(struct store *st, int64_t session)
{
	struct store_heap_refs	*it;

	it = xcalloc(1, sizeof *it);
	it->c = store_cursor_select(st, store_heap_run_columns,
	    "FROM heap_refrun WHERE session = ?1 ORDER BY run", session);
	if (it->c == NULL) {
		free(it);
		return (NULL);
	}
	return (it);
}

int
store_heap_ref_next(struct store_heap_refs *it, struct store_heap_ref *r)
{
	const void	*p;
	size_t		 len;
	int		 rc;

	while ((rc = store_heap_unpack_next(&it->u, r)) == 0) {
		if ((rc = store_cursor_step(it->c)) != 1)
			return (rc);
		p = store_cursor_blob(it->c, RUN_REFS, &len);
		store_heap_unpack_init(&it->u, p, len);
		it->u.form = (int)store_cursor_int(it->c, RUN_FORM);
	}
	return (rc);
}

void
store_heap_refs_close(struct store_heap_refs *it)
{
	if (it == NULL)
		return;
	store_cursor_close(it->c);
	free(it);
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

#define STORE_HEAP_DESC_COLUMNS(X) \
	X(DESC_DATA, "data") X(DESC_TYPE, "type") X(DESC_NAME, "name") \
	X(DESC_MODULE, "module") X(DESC_ADDR, "addr") X(DESC_SIZE, "size") \
	X(DESC_ROOTS, "roots")
STORE_COLUMNS(store_heap_desc_columns, STORE_HEAP_DESC_COLUMNS);

/*
 * HeapInspector's descriptors, the objects outside the heap that
 * describe it: the modules' vtables (heap_vtable, with the type a live
 * object's vtable named, or -1; and, where ingest read no symbols, the
 * types of kind vtable, size -1: unknown) and each module's data (its
 * regions of kind data, with the roots in each), by kind and address;
 * read with store_heap_desc_next.
 */
struct store_cursor *
store_heap_descs(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_heap_desc_columns,
	    "FROM (SELECT 0 AS data, coalesce((SELECT t.idx FROM heap_type t"
	    " WHERE t.session = ?1 AND t.kind = 'vtable' AND t.vtable ="
	    " v.addr), -1) AS type, v.name AS name, v.module AS module,"
	    " v.addr AS addr, v.size AS size, 0 AS roots FROM heap_vtable v"
	    " WHERE v.session = ?1 UNION ALL SELECT 0, t.idx, t.name,"
	    " coalesce(t.module, -1), t.vtable, coalesce(t.vtable_size, -1),"
	    " 0 FROM heap_type t WHERE t.session = ?1 AND t.kind = 'vtable'"
	    " AND t.vtable IS NOT NULL AND NOT EXISTS (SELECT 1 FROM"
	    " heap_vtable v WHERE v.session = ?1 AND v.addr = t.vtable)"
	    " UNION ALL SELECT 1, -1, g.name, coalesce(g.module, -1), g.lo,"
	    " g.hi - g.lo, (SELECT count(*) FROM heap_root r"
	    " WHERE r.session = ?1 AND r.region = g.idx) FROM heap_region g"
	    " WHERE g.session = ?1 AND g.kind = 'data') ORDER BY data, addr",
	    session));
}

int
store_heap_desc_next(struct store_cursor *c, struct store_heap_desc *d)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	d->data = store_cursor_int(c, DESC_DATA) != 0;
	d->type = store_cursor_int(c, DESC_TYPE);
	d->name = store_cursor_text(c, DESC_NAME);
	d->module = store_cursor_int(c, DESC_MODULE);
	d->addr = (uint64_t)store_cursor_int(c, DESC_ADDR);
	d->size = store_cursor_int(c, DESC_SIZE);
	d->roots = (uint64_t)store_cursor_int(c, DESC_ROOTS);
	return (1);
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

/*
 * heap_ref_unpack(refs) and heap_block_unpack(blocks, addr, run): a
 * heap_refrun blob's pointers and a heap_blockrun row's blocks as rows,
 * so that the heap_ref and heap_block views have the columns the tables
 * had.  Eponymous virtual tables, used as table-valued functions.
 */
struct store_heap_vkind {
	const char	*decl;
	int		 hidden;	/* the blob's column, the first hidden */
	int		 nhidden;	/* the arguments */
	int		 nneed;		/* the first ones, which must be given */
	int		 blocks;
};

static const struct store_heap_vkind store_heap_vrefs = {
	"CREATE TABLE x(src INTEGER, src_off INTEGER, dst INTEGER,"
	" dst_off INTEGER, refs HIDDEN, form HIDDEN)",
	4, 2, 1, 0
};

static const struct store_heap_vkind store_heap_vblocks = {
	"CREATE TABLE x(idx INTEGER, addr INTEGER, size INTEGER,"
	" usable INTEGER, seq INTEGER, site INTEGER, type INTEGER,"
	" tid INTEGER, state TEXT, leak TEXT, region INTEGER,"
	" blocks HIDDEN, base HIDDEN, run HIDDEN)",
	11, 3, 3, 1
};

struct store_heap_vtab {
	sqlite3_vtab			 base;
	const struct store_heap_vkind	*kind;
};

struct store_heap_vcur {
	sqlite3_vtab_cursor		 base;
	const struct store_heap_vkind	*kind;
	uint8_t				*copy;
	struct store_heap_unpack	 u;
	struct store_heap_ref		 r;
	struct store_heap_block		 b;
	sqlite3_int64			 row;
	int				 eof;
};

static int
store_heap_vconnect(sqlite3 *db, void *aux, int argc, const char *const *argv,
    sqlite3_vtab **out, char **err)
{
	const struct store_heap_vkind	*kind = aux;
	struct store_heap_vtab		*vt;
	int				 rc;

	(void)argc;
	(void)argv;
	(void)err;
	if ((rc = sqlite3_declare_vtab(db, kind->decl)) != SQLITE_OK)
		return (rc);
	/* It reads only its argument: a view in the schema may use it. */
	sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
	if ((vt = sqlite3_malloc(sizeof *vt)) == NULL)
		return (SQLITE_NOMEM);
	memset(vt, 0, sizeof *vt);
	vt->kind = kind;
	*out = &vt->base;
	return (SQLITE_OK);
}

static int
store_heap_vdisconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return (SQLITE_OK);
}

/*
 * Only with its needed arguments (the others may follow), "hiddencolumn
 * = ?" each, which xFilter gets in the columns' order.
 */
static int
store_heap_vbest(sqlite3_vtab *vt, sqlite3_index_info *ii)
{
	const struct store_heap_vkind	*kind;
	int				 i, col, found = 0;

	kind = ((struct store_heap_vtab *)vt)->kind;
	for (i = 0; i < ii->nConstraint; i++) {
		col = ii->aConstraint[i].iColumn - kind->hidden;
		if (col >= 0 && col < kind->nhidden &&
		    ii->aConstraint[i].op == SQLITE_INDEX_CONSTRAINT_EQ &&
		    ii->aConstraint[i].usable &&
		    (found & (1 << col)) == 0) {
			ii->aConstraintUsage[i].argvIndex = col + 1;
			ii->aConstraintUsage[i].omit = 1;
			found |= 1 << col;
		}
	}
	if ((found & ((1 << kind->nneed) - 1)) != (1 << kind->nneed) - 1 ||
	    (found & (found + 1)) != 0)
		return (SQLITE_CONSTRAINT);
	ii->estimatedCost = STORE_HEAP_RUN;
	ii->estimatedRows = STORE_HEAP_RUN;
	return (SQLITE_OK);
}

static int
store_heap_vopen(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct store_heap_vcur	*c;

	if ((c = sqlite3_malloc(sizeof *c)) == NULL)
		return (SQLITE_NOMEM);
	memset(c, 0, sizeof *c);
	c->kind = ((struct store_heap_vtab *)vt)->kind;
	*out = &c->base;
	return (SQLITE_OK);
}

static int
store_heap_vclose(sqlite3_vtab_cursor *vc)
{
	struct store_heap_vcur	*c = (struct store_heap_vcur *)vc;

	sqlite3_free(c->copy);
	sqlite3_free(c);
	return (SQLITE_OK);
}

static int
store_heap_vnext(sqlite3_vtab_cursor *vc)
{
	struct store_heap_vcur	*c = (struct store_heap_vcur *)vc;
	int			 rc;

	if (c->kind->blocks)
		rc = store_heap_unpack_block(&c->u, &c->b);
	else
		rc = store_heap_unpack_next(&c->u, &c->r);
	if (rc < 0) {
		sqlite3_free(c->base.pVtab->zErrMsg);
		c->base.pVtab->zErrMsg = sqlite3_mprintf("a packed blob cut"
		    " short after %lld rows", (long long)c->row);
		return (SQLITE_CORRUPT);
	}
	c->eof = rc == 0;
	c->row++;
	return (SQLITE_OK);
}

/* The blob is copied: an argument lives only as long as this call. */
static int
store_heap_vfilter(sqlite3_vtab_cursor *vc, int idxnum, const char *idxstr,
    int argc, sqlite3_value **argv)
{
	struct store_heap_vcur	*c = (struct store_heap_vcur *)vc;
	int			 len = 0;

	(void)idxnum;
	(void)idxstr;
	sqlite3_free(c->copy);
	c->copy = NULL;
	c->row = 0;
	if (argc >= 1 && sqlite3_value_type(argv[0]) == SQLITE_BLOB &&
	    (len = sqlite3_value_bytes(argv[0])) > 0) {
		if ((c->copy = sqlite3_malloc(len)) == NULL)
			return (SQLITE_NOMEM);
		memcpy(c->copy, sqlite3_value_blob(argv[0]), (size_t)len);
	}
	store_heap_unpack_init(&c->u, c->copy, (size_t)len);
	if (!c->kind->blocks && argc == 2)
		c->u.form = (int)sqlite3_value_int64(argv[1]);
	if (c->kind->blocks && argc == 3) {
		c->u.addr = (uint64_t)sqlite3_value_int64(argv[1]);
		c->u.idx = (uint64_t)sqlite3_value_int64(argv[2]) <<
		    STORE_HEAP_RUN_SHIFT;
	}
	return (store_heap_vnext(vc));
}

static int
store_heap_veof(sqlite3_vtab_cursor *vc)
{
	return (((struct store_heap_vcur *)vc)->eof);
}

/* A block's column: NULL for no site, type, region or leak. */
static void
store_heap_vblock(struct store_heap_vcur *c, sqlite3_context *ctx, int col)
{
	const struct store_heap_block	*b = &c->b;
	const int64_t			 v[] = { b->idx, (int64_t)b->addr,
					    (int64_t)b->size,
					    (int64_t)b->usable,
					    (int64_t)b->seq, b->site, b->type,
					    b->tid };
	const char			*t;

	switch (col) {
	case 5:
	case 6:
		if (v[col] < 0)
			sqlite3_result_null(ctx);
		else
			sqlite3_result_int64(ctx, v[col]);
		break;
	case 8:
	case 9:
		t = col == 8 ? b->state : b->leak;
		if (t == NULL)
			sqlite3_result_null(ctx);
		else
			sqlite3_result_text(ctx, t, -1, SQLITE_STATIC);
		break;
	case 10:
		if (b->region < 0)
			sqlite3_result_null(ctx);
		else
			sqlite3_result_int64(ctx, b->region);
		break;
	default:
		if (col >= 0 && col < 8)
			sqlite3_result_int64(ctx, v[col]);
		else
			sqlite3_result_null(ctx);
		break;
	}
}

static int
store_heap_vcolumn(sqlite3_vtab_cursor *vc, sqlite3_context *ctx, int col)
{
	struct store_heap_vcur	*c = (struct store_heap_vcur *)vc;
	const int64_t		 ref[] = { c->r.src, c->r.src_off, c->r.dst,
				    c->r.dst_off };

	if (c->kind->blocks)
		store_heap_vblock(c, ctx, col);
	else if (col >= 0 && col < 4)
		sqlite3_result_int64(ctx, ref[col]);
	else
		sqlite3_result_null(ctx);
	return (SQLITE_OK);
}

static int
store_heap_vrowid(sqlite3_vtab_cursor *vc, sqlite3_int64 *row)
{
	*row = ((struct store_heap_vcur *)vc)->row;
	return (SQLITE_OK);
}

static const sqlite3_module store_heap_unpack_module = {
	.xConnect = store_heap_vconnect,
	.xBestIndex = store_heap_vbest,
	.xDisconnect = store_heap_vdisconnect,
	.xOpen = store_heap_vopen,
	.xClose = store_heap_vclose,
	.xFilter = store_heap_vfilter,
	.xNext = store_heap_vnext,
	.xEof = store_heap_veof,
	.xColumn = store_heap_vcolumn,
	.xRowid = store_heap_vrowid,
};

/*
 * heap_block_pack(idx, addr, size, usable, seq, site, type, tid, state,
 * leak, region) and heap_ref_pack(src, src_off, dst, dst_off): a
 * group's blocks or pointers as a heap_blockrun or heap_refrun blob, for
 * the migration that packed the rows.  Sorted here, by index or by
 * source and offset: an aggregate's rows come in no promised order.
 */
struct store_heap_agg {
	struct store_heap_ref	*r;
	struct store_heap_block	*b;
	size_t			 n, cap;
};

static struct store_heap_agg *
store_heap_agg_more(sqlite3_context *ctx)
{
	struct store_heap_agg	*a;

	if ((a = sqlite3_aggregate_context(ctx, sizeof *a)) == NULL) {
		sqlite3_result_error_nomem(ctx);
		return (NULL);
	}
	if (a->n == a->cap) {
		a->cap = a->cap != 0 ? a->cap * 2 : 1024;
		a->r = xreallocarray(a->r, a->cap, sizeof *a->r);
		a->b = xreallocarray(a->b, a->cap, sizeof *a->b);
	}
	return (a);
}

static void
store_heap_agg_ref(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct store_heap_agg	*a;
	struct store_heap_ref	*r;

	(void)argc;
	if ((a = store_heap_agg_more(ctx)) == NULL)
		return;
	r = &a->r[a->n++];
	r->src = sqlite3_value_int64(argv[0]);
	r->src_off = sqlite3_value_int64(argv[1]);
	r->dst = sqlite3_value_int64(argv[2]);
	r->dst_off = sqlite3_value_int64(argv[3]);
}

/* A nullable index: -1 for NULL. */
static int64_t
store_heap_agg_idx(sqlite3_value *v)
{
	if (sqlite3_value_type(v) == SQLITE_NULL)
		return (-1);
	return (sqlite3_value_int64(v));
}

static void
store_heap_agg_block(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct store_heap_agg	*a;
	struct store_heap_block	*b;

	(void)argc;
	if ((a = store_heap_agg_more(ctx)) == NULL)
		return;
	b = &a->b[a->n++];
	memset(b, 0, sizeof *b);
	b->idx = sqlite3_value_int64(argv[0]);
	b->addr = (uint64_t)sqlite3_value_int64(argv[1]);
	b->size = (uint64_t)sqlite3_value_int64(argv[2]);
	b->usable = (uint64_t)sqlite3_value_int64(argv[3]);
	b->seq = (uint64_t)sqlite3_value_int64(argv[4]);
	b->site = store_heap_agg_idx(argv[5]);
	b->type = store_heap_agg_idx(argv[6]);
	b->tid = sqlite3_value_int64(argv[7]);
	b->state = store_heap_states[store_heap_code(store_heap_states, 3,
	    (const char *)sqlite3_value_text(argv[8]))];
	b->leak = store_heap_leaks[store_heap_code(store_heap_leaks, 3,
	    (const char *)sqlite3_value_text(argv[9]))];
	b->region = store_heap_agg_idx(argv[10]);
}

static int
store_heap_agg_refcmp(const void *a0, const void *b0)
{
	const struct store_heap_ref	*a = a0, *b = b0;

	if (a->src != b->src)
		return (a->src < b->src ? -1 : 1);
	if (a->src_off != b->src_off)
		return (a->src_off < b->src_off ? -1 : 1);
	return (0);
}

static int
store_heap_agg_blockcmp(const void *a0, const void *b0)
{
	const struct store_heap_block	*a = a0, *b = b0;

	if (a->idx != b->idx)
		return (a->idx < b->idx ? -1 : 1);
	return (0);
}

static void
store_heap_agg_final(sqlite3_context *ctx, int blocks)
{
	struct store_heap_agg	*a;
	struct store_heap_pack	 p;
	size_t			 i;

	memset(&p, 0, sizeof p);
	if ((a = sqlite3_aggregate_context(ctx, 0)) != NULL && a->n != 0) {
		if (blocks) {
			qsort(a->b, a->n, sizeof *a->b,
			    store_heap_agg_blockcmp);
			for (i = 0; i < a->n; i++)
				store_heap_pack_block(&p, &a->b[i]);
		} else {
			qsort(a->r, a->n, sizeof *a->r, store_heap_agg_refcmp);
			for (i = 0; i < a->n; i++)
				store_heap_pack_ref(&p, &a->r[i]);
		}
	}
	if (a != NULL) {
		free(a->r);
		free(a->b);
	}
	sqlite3_result_blob(ctx, p.buf != NULL ? (const void *)p.buf : "",
	    (int)p.len, SQLITE_TRANSIENT);
	free(p.buf);
}

static void
store_heap_agg_ref_final(sqlite3_context *ctx)
{
	store_heap_agg_final(ctx, 0);
}

static void
store_heap_agg_block_final(sqlite3_context *ctx)
{
	store_heap_agg_final(ctx, 1);
}

static int
store_heap_connect(struct sqlite3 *db)
{
	const int	fl = SQLITE_UTF8 | SQLITE_DETERMINISTIC |
			    SQLITE_INNOCUOUS;
	int		rc;

	if ((rc = sqlite3_create_module(db, "heap_ref_unpack",
	    &store_heap_unpack_module, (void *)&store_heap_vrefs)) != SQLITE_OK)
		return (rc);
	if ((rc = sqlite3_create_module(db, "heap_block_unpack",
	    &store_heap_unpack_module, (void *)&store_heap_vblocks)) !=
	    SQLITE_OK)
		return (rc);
	if ((rc = sqlite3_create_function(db, "heap_ref_pack", 4, fl, NULL,
	    NULL, store_heap_agg_ref, store_heap_agg_ref_final)) != SQLITE_OK)
		return (rc);
	return (sqlite3_create_function(db, "heap_block_pack", 11, fl, NULL,
	    NULL, store_heap_agg_block, store_heap_agg_block_final));
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
