/*
 * The mon kind's tables: a pvtrace profile (PROG.mon).  The header, the
 * modules, the functions, the call edges, the call paths (a tree: each
 * path's parent is the path it extends) and the functions the plan left
 * out; the run's statistics are counter rows.
 */
#include <stddef.h>

#include "store/store.h"

static const char *const store_mon_migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE IF NOT EXISTS mon ("
	"  session INTEGER PRIMARY KEY REFERENCES session(id) ON DELETE CASCADE,"
	"  build_id TEXT,"
	"  command TEXT NOT NULL,"
	"  first_run TEXT,"
	"  last_run TEXT,"
	"  runs INTEGER NOT NULL,"
	"  real_ns INTEGER NOT NULL,"
	"  status TEXT NOT NULL,"
	"  clock TEXT NOT NULL,"
	"  clock_hz INTEGER NOT NULL,"
	"  cpu TEXT NOT NULL,"
	"  jump_a_ps INTEGER NOT NULL, jump_b_ps INTEGER NOT NULL,"
	"  jump_lo_ps INTEGER NOT NULL, jump_hi_ps INTEGER NOT NULL,"
	"  jump_calls INTEGER NOT NULL,"
	"  trap_a_ps INTEGER NOT NULL, trap_b_ps INTEGER NOT NULL,"
	"  trap_lo_ps INTEGER NOT NULL, trap_hi_ps INTEGER NOT NULL,"
	"  trap_calls INTEGER NOT NULL,"
	"  error TEXT);"
	"CREATE TABLE IF NOT EXISTS mon_module ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  state TEXT NOT NULL,"
	"  path TEXT NOT NULL,"
	"  PRIMARY KEY (session, name)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS func ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  name TEXT NOT NULL,"
	"  module TEXT NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  how TEXT NOT NULL CHECK (how IN ('jump', 'trap')),"
	"  calls INTEGER NOT NULL,"
	"  self_ns INTEGER NOT NULL,"
	"  total_ns INTEGER NOT NULL,"
	"  self_cpu_ns INTEGER,"
	"  total_cpu_ns INTEGER,"
	"  self_err_ns INTEGER NOT NULL,"
	"  total_err_ns INTEGER NOT NULL,"
	"  PRIMARY KEY (session, key)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS call ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  caller TEXT,"
	"  callee TEXT NOT NULL,"
	"  calls INTEGER NOT NULL,"
	"  total_ns INTEGER NOT NULL,"
	"  total_cpu_ns INTEGER,"
	"  total_err_ns INTEGER NOT NULL);"
	"CREATE INDEX IF NOT EXISTS call_session ON call(session, callee);"
	"CREATE TABLE IF NOT EXISTS callpath ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  id INTEGER NOT NULL,"
	"  parent INTEGER,"
	"  func TEXT NOT NULL,"
	"  depth INTEGER NOT NULL,"
	"  calls INTEGER NOT NULL,"
	"  self_ns INTEGER NOT NULL,"
	"  total_ns INTEGER NOT NULL,"
	"  self_cpu_ns INTEGER,"
	"  total_cpu_ns INTEGER,"
	"  self_err_ns INTEGER NOT NULL,"
	"  total_err_ns INTEGER NOT NULL,"
	"  PRIMARY KEY (session, id)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS mon_left_out ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  module TEXT NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  reason TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS mon_left_out_session ON"
	"  mon_left_out(session);",
};

static const char *const store_mon_purge[] = {
	"DELETE FROM mon_left_out WHERE session = ?1",
	"DELETE FROM callpath WHERE session = ?1",
	"DELETE FROM call WHERE session = ?1",
	"DELETE FROM func WHERE session = ?1",
	"DELETE FROM mon_module WHERE session = ?1",
	"DELETE FROM mon WHERE session = ?1",
};

const struct store_schema store_mon_schema = {
	store_mon_migrations,
	sizeof store_mon_migrations / sizeof store_mon_migrations[0],
	"SELECT printf('%d functions, %d calls, %d call paths; %d run%s,"
	" %.3f s', (SELECT count(*) FROM func f WHERE f.session = s.id),"
	" (SELECT coalesce(sum(calls), 0) FROM func f WHERE"
	" f.session = s.id), (SELECT count(*) FROM callpath p WHERE"
	" p.session = s.id), m.runs, CASE m.runs WHEN 1 THEN '' ELSE 's'"
	" END, m.real_ns / 1e9) FROM mon m WHERE m.session = s.id",
	store_mon_purge,
	sizeof store_mon_purge / sizeof store_mon_purge[0]
};

static const struct store_table store_t_mon = {
	"mon", "build_id, command, first_run, last_run, runs, real_ns,"
	" status, clock, clock_hz, cpu, jump_a_ps, jump_b_ps, jump_lo_ps,"
	" jump_hi_ps, jump_calls, trap_a_ps, trap_b_ps, trap_lo_ps,"
	" trap_hi_ps, trap_calls, error", NULL
};
static const struct store_table store_t_mon_module = {
	"mon_module", "name, state, path", NULL
};
static const struct store_table store_t_func = {
	"func", "key, name, module, addr, size, how, calls, self_ns,"
	" total_ns, self_cpu_ns, total_cpu_ns, self_err_ns, total_err_ns",
	NULL
};
static const struct store_table store_t_call = {
	"call", "caller, callee, calls, total_ns, total_cpu_ns,"
	" total_err_ns", NULL
};
static const struct store_table store_t_callpath = {
	"callpath", "id, parent, func, depth, calls, self_ns, total_ns,"
	" self_cpu_ns, total_cpu_ns, self_err_ns, total_err_ns", NULL
};
static const struct store_table store_t_mon_left_out = {
	"mon_left_out", "module, addr, size, name, reason", NULL
};

static void
store_mon_put_cpu(struct store_row *r, int cpu, int64_t v)
{
	if (cpu)
		store_put_int(r, v);
	else
		store_put_null(r);
}

int
store_mon_add(struct store *st, int64_t session, const struct store_mon *m)
{
	struct store_row	*r;
	int			 i;

	if ((r = store_row(st, &store_t_mon, session)) == NULL)
		return (-1);
	store_put_text(r, m->build_id);
	store_put_text(r, m->command);
	store_put_text(r, m->first_run);
	store_put_text(r, m->last_run);
	store_put_int(r, m->runs);
	store_put_int(r, m->real_ns);
	store_put_text(r, m->status);
	store_put_text(r, m->clock);
	store_put_int(r, m->clock_hz);
	store_put_text(r, m->cpu);
	for (i = 0; i < 2; i++) {
		store_put_int(r, m->over_ps[i][0]);
		store_put_int(r, m->over_ps[i][1]);
		store_put_int(r, m->over_ps[i][2]);
		store_put_int(r, m->over_ps[i][3]);
		store_put_int(r, m->over_calls[i]);
	}
	store_put_text(r, m->error);
	return (store_row_end(st, r));
}

int
store_mon_module_add(struct store *st, int64_t session, const char *name,
    const char *state, const char *path)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_mon_module, session)) == NULL)
		return (-1);
	store_put_text(r, name);
	store_put_text(r, state);
	store_put_text(r, path);
	return (store_row_end(st, r));
}

int
store_func_add(struct store *st, int64_t session, const struct store_func *f,
    int cpu)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_func, session)) == NULL)
		return (-1);
	store_put_text(r, f->key);
	store_put_text(r, f->name);
	store_put_text(r, f->module);
	store_put_int(r, (int64_t)f->addr);
	store_put_int(r, (int64_t)f->size);
	store_put_static(r, f->trap ? "trap" : "jump");
	store_put_int(r, (int64_t)f->calls);
	store_put_int(r, f->self_ns);
	store_put_int(r, f->total_ns);
	store_mon_put_cpu(r, cpu, f->self_cpu_ns);
	store_mon_put_cpu(r, cpu, f->total_cpu_ns);
	store_put_int(r, f->self_err_ns);
	store_put_int(r, f->total_err_ns);
	return (store_row_end(st, r));
}

int
store_call_add(struct store *st, int64_t session, const struct store_call *c,
    int cpu)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_call, session)) == NULL)
		return (-1);
	if (c->caller != NULL)
		store_put_text(r, c->caller);
	else
		store_put_null(r);
	store_put_text(r, c->callee);
	store_put_int(r, (int64_t)c->calls);
	store_put_int(r, c->total_ns);
	store_mon_put_cpu(r, cpu, c->total_cpu_ns);
	store_put_int(r, c->total_err_ns);
	return (store_row_end(st, r));
}

int
store_callpath_add(struct store *st, int64_t session,
    const struct store_callpath *p, int cpu)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_callpath, session)) == NULL)
		return (-1);
	store_put_int(r, p->id);
	if (p->parent >= 0)
		store_put_int(r, p->parent);
	else
		store_put_null(r);
	store_put_text(r, p->func);
	store_put_int(r, p->depth);
	store_put_int(r, (int64_t)p->calls);
	store_put_int(r, p->self_ns);
	store_put_int(r, p->total_ns);
	store_mon_put_cpu(r, cpu, p->self_cpu_ns);
	store_mon_put_cpu(r, cpu, p->total_cpu_ns);
	store_put_int(r, p->self_err_ns);
	store_put_int(r, p->total_err_ns);
	return (store_row_end(st, r));
}

int
store_mon_left_out_add(struct store *st, int64_t session, const char *module,
    uint64_t addr, uint64_t size, const char *name, const char *reason)
{
	struct store_row	*r;

	if ((r = store_row(st, &store_t_mon_left_out, session)) == NULL)
		return (-1);
	store_put_text(r, module);
	store_put_int(r, (int64_t)addr);
	store_put_int(r, (int64_t)size);
	store_put_text(r, name);
	store_put_text(r, reason);
	return (store_row_end(st, r));
}

/* The header of a mon session (one row, or none); texts last until close. */
struct store_cursor *
store_mon_get(struct store *st, int64_t session)
{
	return (store_cursor_open(st, "SELECT build_id, command, first_run,"
	    " last_run, runs, real_ns, status, clock, clock_hz, cpu,"
	    " jump_a_ps, jump_b_ps, jump_lo_ps, jump_hi_ps, jump_calls,"
	    " trap_a_ps, trap_b_ps, trap_lo_ps, trap_hi_ps, trap_calls, error"
	    " FROM mon WHERE session = ?1", session));
}

int
store_mon_next(struct store_cursor *c, struct store_mon *m)
{
	int	rc, i;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	m->build_id = store_cursor_text(c, 0);
	m->command = store_cursor_text(c, 1);
	m->first_run = store_cursor_text(c, 2);
	m->last_run = store_cursor_text(c, 3);
	m->runs = store_cursor_int(c, 4);
	m->real_ns = store_cursor_int(c, 5);
	m->status = store_cursor_text(c, 6);
	m->clock = store_cursor_text(c, 7);
	m->clock_hz = store_cursor_int(c, 8);
	m->cpu = store_cursor_text(c, 9);
	for (i = 0; i < 2; i++) {
		m->over_ps[i][0] = store_cursor_int(c, 10 + 5 * i);
		m->over_ps[i][1] = store_cursor_int(c, 11 + 5 * i);
		m->over_ps[i][2] = store_cursor_int(c, 12 + 5 * i);
		m->over_ps[i][3] = store_cursor_int(c, 13 + 5 * i);
		m->over_calls[i] = store_cursor_int(c, 14 + 5 * i);
	}
	m->error = store_cursor_text(c, 20);
	return (1);
}

/* A session's functions, most self time first. */
struct store_cursor *
store_funcs(struct store *st, int64_t session)
{
	return (store_cursor_open(st, "SELECT key, name, module, addr, size,"
	    " how = 'trap', calls, self_ns, total_ns, self_cpu_ns,"
	    " total_cpu_ns, self_err_ns, total_err_ns FROM func WHERE"
	    " session = ?1 ORDER BY self_ns DESC, key", session));
}

int
store_func_next(struct store_cursor *c, struct store_func *f)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	f->key = store_cursor_text(c, 0);
	f->name = store_cursor_text(c, 1);
	f->module = store_cursor_text(c, 2);
	f->addr = (uint64_t)store_cursor_int(c, 3);
	f->size = (uint64_t)store_cursor_int(c, 4);
	f->trap = (int)store_cursor_int(c, 5);
	f->calls = (uint64_t)store_cursor_int(c, 6);
	f->self_ns = store_cursor_int(c, 7);
	f->total_ns = store_cursor_int(c, 8);
	f->self_cpu_ns = store_cursor_int(c, 9);
	f->total_cpu_ns = store_cursor_int(c, 10);
	f->self_err_ns = store_cursor_int(c, 11);
	f->total_err_ns = store_cursor_int(c, 12);
	return (1);
}

/* A session's call edges, most time first. */
struct store_cursor *
store_calls(struct store *st, int64_t session)
{
	return (store_cursor_open(st, "SELECT caller, callee, calls,"
	    " total_ns, total_cpu_ns, total_err_ns FROM call WHERE"
	    " session = ?1 ORDER BY total_ns DESC, caller, callee", session));
}

int
store_call_next(struct store_cursor *c, struct store_call *e)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	e->caller = store_cursor_text(c, 0);
	e->callee = store_cursor_text(c, 1);
	e->calls = (uint64_t)store_cursor_int(c, 2);
	e->total_ns = store_cursor_int(c, 3);
	e->total_cpu_ns = store_cursor_int(c, 4);
	e->total_err_ns = store_cursor_int(c, 5);
	return (1);
}

/* A session's call paths in file (depth-first) order. */
struct store_cursor *
store_callpaths(struct store *st, int64_t session)
{
	return (store_cursor_open(st, "SELECT id, coalesce(parent, -1), func,"
	    " depth, calls, self_ns, total_ns, self_cpu_ns, total_cpu_ns,"
	    " self_err_ns, total_err_ns FROM callpath WHERE session = ?1"
	    " ORDER BY id", session));
}

int
store_callpath_next(struct store_cursor *c, struct store_callpath *p)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	p->id = store_cursor_int(c, 0);
	p->parent = store_cursor_int(c, 1);
	p->func = store_cursor_text(c, 2);
	p->depth = store_cursor_int(c, 3);
	p->calls = (uint64_t)store_cursor_int(c, 4);
	p->self_ns = store_cursor_int(c, 5);
	p->total_ns = store_cursor_int(c, 6);
	p->self_cpu_ns = store_cursor_int(c, 7);
	p->total_cpu_ns = store_cursor_int(c, 8);
	p->self_err_ns = store_cursor_int(c, 9);
	p->total_err_ns = store_cursor_int(c, 10);
	return (1);
}
