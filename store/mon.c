/*
 * The mon kind's tables: a pvtrace profile (PROG.mon).  The header, the
 * modules, the functions, the call edges, the call paths (a tree: each
 * path's parent is the path it extends) and the functions the plan left
 * out; the run's statistics are counter rows.
 */
#include <stddef.h>
#include <string.h>

#include "xmalloc.h"
#include "store/store.h"
#include "store/mon.h"

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
	/*
	 * 1 -> 2: the sampler's counts (a .mon of version 3).  The rate is
	 * NULL for an older profile, which has trap times only; a path's
	 * samples are a table of their own because the file gives them
	 * after its paths, and id -1 holds those of no traced function.
	 */
	"ALTER TABLE mon ADD COLUMN sample_rate INTEGER;"
	"ALTER TABLE mon ADD COLUMN probe_cpu_samples INTEGER;"
	"ALTER TABLE mon ADD COLUMN probe_cpu_ns INTEGER;"
	"ALTER TABLE mon ADD COLUMN probe_real_samples INTEGER;"
	"ALTER TABLE mon ADD COLUMN probe_real_ns INTEGER;"
	"CREATE TABLE IF NOT EXISTS callpath_sample ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  id INTEGER NOT NULL,"
	"  cpu_samples INTEGER NOT NULL,"
	"  cpu_ns INTEGER NOT NULL,"
	"  real_samples INTEGER NOT NULL,"
	"  real_ns INTEGER NOT NULL,"
	"  PRIMARY KEY (session, id)) WITHOUT ROWID;",
	/*
	 * 2 -> 3: func.how may be 'plt', a library function caught at a
	 * GOT slot, which was stored as 'jump' (the trampoline it goes
	 * through) so that the user could not tell it from a patched
	 * entry.  SQLite cannot alter a CHECK, so the table is made anew,
	 * copied, dropped and the copy renamed, as core migration 4 does
	 * session (nothing references func); columns, order and key as
	 * before.  Rows stored before keep 'jump': what was a slot is not
	 * in them (ingesting the .mon again gives 'plt').
	 */
	"CREATE TABLE func_3 ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  name TEXT NOT NULL,"
	"  module TEXT NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  how TEXT NOT NULL CHECK (how IN ('jump', 'trap', 'plt')),"
	"  calls INTEGER NOT NULL,"
	"  self_ns INTEGER NOT NULL,"
	"  total_ns INTEGER NOT NULL,"
	"  self_cpu_ns INTEGER,"
	"  total_cpu_ns INTEGER,"
	"  self_err_ns INTEGER NOT NULL,"
	"  total_err_ns INTEGER NOT NULL,"
	"  PRIMARY KEY (session, key)) WITHOUT ROWID;"
	"INSERT INTO func_3 (session, key, name, module, addr, size, how,"
	"  calls, self_ns, total_ns, self_cpu_ns, total_cpu_ns, self_err_ns,"
	"  total_err_ns) SELECT session, key, name, module, addr, size, how,"
	"  calls, self_ns, total_ns, self_cpu_ns, total_cpu_ns, self_err_ns,"
	"  total_err_ns FROM func;"
	"DROP TABLE func;"
	"ALTER TABLE func_3 RENAME TO func;",
	/*
	 * 3 -> 4: func.how may be 'leaf', a function that calls nothing,
	 * given pvtrace's light probe while the sampler ran: its calls
	 * are counted, its time comes from the samples only, and its
	 * trap-measured times are 0 (they are in its caller's).  The
	 * table made anew as in 2 -> 3.
	 */
	"CREATE TABLE func_4 ("
	"  session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  name TEXT NOT NULL,"
	"  module TEXT NOT NULL,"
	"  addr INTEGER NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  how TEXT NOT NULL CHECK (how IN ('jump', 'trap', 'plt', 'leaf')),"
	"  calls INTEGER NOT NULL,"
	"  self_ns INTEGER NOT NULL,"
	"  total_ns INTEGER NOT NULL,"
	"  self_cpu_ns INTEGER,"
	"  total_cpu_ns INTEGER,"
	"  self_err_ns INTEGER NOT NULL,"
	"  total_err_ns INTEGER NOT NULL,"
	"  PRIMARY KEY (session, key)) WITHOUT ROWID;"
	"INSERT INTO func_4 (session, key, name, module, addr, size, how,"
	"  calls, self_ns, total_ns, self_cpu_ns, total_cpu_ns, self_err_ns,"
	"  total_err_ns) SELECT session, key, name, module, addr, size, how,"
	"  calls, self_ns, total_ns, self_cpu_ns, total_cpu_ns, self_err_ns,"
	"  total_err_ns FROM func;"
	"DROP TABLE func;"
	"ALTER TABLE func_4 RENAME TO func;",
};

/* The names of enum store_how, as func.how holds them. */
const char *const store_func_how[] = { "jump", "trap", "plt", "leaf" };

static const char *const store_mon_purge[] = {
	"DELETE FROM callpath_sample WHERE session = ?1",
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
	sizeof store_mon_purge / sizeof store_mon_purge[0],
	NULL
};

static const struct store_table store_t_mon = {
	"mon", "build_id, command, first_run, last_run, runs, real_ns,"
	" status, clock, clock_hz, cpu, jump_a_ps, jump_b_ps, jump_lo_ps,"
	" jump_hi_ps, jump_calls, trap_a_ps, trap_b_ps, trap_lo_ps,"
	" trap_hi_ps, trap_calls, error, sample_rate, probe_cpu_samples,"
	" probe_cpu_ns, probe_real_samples, probe_real_ns", NULL
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
static const struct store_table store_t_callpath_sample = {
	"callpath_sample", "id, cpu_samples, cpu_ns, real_samples, real_ns",
	NULL
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
	if (m->sample_rate < 0) {
		for (i = 0; i < 5; i++)
			store_put_null(r);
	} else {
		store_put_int(r, m->sample_rate);
		for (i = 0; i < STORE_SA_COUNT; i++)
			store_put_int(r, m->probe[i]);
	}
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
	store_put_static(r, store_func_how[f->how]);
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
store_callpath_sample_add(struct store *st, int64_t session,
    const struct store_callpath_sample *p)
{
	struct store_row	*r;
	int			 i;

	if ((r = store_row(st, &store_t_callpath_sample, session)) == NULL)
		return (-1);
	store_put_int(r, p->id);
	for (i = 0; i < STORE_SA_COUNT; i++)
		store_put_int(r, p->v[i]);
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

#define STORE_MON_COLUMNS(X) \
	X(MON_BUILD_ID, "build_id") X(MON_COMMAND, "command") \
	X(MON_FIRST_RUN, "first_run") X(MON_LAST_RUN, "last_run") \
	X(MON_RUNS, "runs") X(MON_REAL_NS, "real_ns") X(MON_STATUS, "status") \
	X(MON_CLOCK, "clock") X(MON_CLOCK_HZ, "clock_hz") X(MON_CPU, "cpu") \
	X(MON_JUMP_A_PS, "jump_a_ps") X(MON_JUMP_B_PS, "jump_b_ps") \
	X(MON_JUMP_LO_PS, "jump_lo_ps") X(MON_JUMP_HI_PS, "jump_hi_ps") \
	X(MON_JUMP_CALLS, "jump_calls") X(MON_TRAP_A_PS, "trap_a_ps") \
	X(MON_TRAP_B_PS, "trap_b_ps") X(MON_TRAP_LO_PS, "trap_lo_ps") \
	X(MON_TRAP_HI_PS, "trap_hi_ps") X(MON_TRAP_CALLS, "trap_calls") \
	X(MON_ERROR, "error") X(MON_SAMPLE_RATE, "coalesce(sample_rate, -1)") \
	X(MON_PROBE_CPU_N, "coalesce(probe_cpu_samples, 0)") \
	X(MON_PROBE_CPU_NS, "coalesce(probe_cpu_ns, 0)") \
	X(MON_PROBE_REAL_N, "coalesce(probe_real_samples, 0)") \
	X(MON_PROBE_REAL_NS, "coalesce(probe_real_ns, 0)")
STORE_COLUMNS(store_mon_columns, STORE_MON_COLUMNS);

/* The header of a mon session (one row, or none); texts last until close. */
struct store_cursor *
store_mon_get(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_mon_columns,
	    "FROM mon WHERE session = ?1", session));
}

int
store_mon_next(struct store_cursor *c, struct store_mon *m)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	m->build_id = store_cursor_text(c, MON_BUILD_ID);
	m->command = store_cursor_text(c, MON_COMMAND);
	m->first_run = store_cursor_text(c, MON_FIRST_RUN);
	m->last_run = store_cursor_text(c, MON_LAST_RUN);
	m->runs = store_cursor_int(c, MON_RUNS);
	m->real_ns = store_cursor_int(c, MON_REAL_NS);
	m->status = store_cursor_text(c, MON_STATUS);
	m->clock = store_cursor_text(c, MON_CLOCK);
	m->clock_hz = store_cursor_int(c, MON_CLOCK_HZ);
	m->cpu = store_cursor_text(c, MON_CPU);
	m->over_ps[0][0] = store_cursor_int(c, MON_JUMP_A_PS);
	m->over_ps[0][1] = store_cursor_int(c, MON_JUMP_B_PS);
	m->over_ps[0][2] = store_cursor_int(c, MON_JUMP_LO_PS);
	m->over_ps[0][3] = store_cursor_int(c, MON_JUMP_HI_PS);
	m->over_calls[0] = store_cursor_int(c, MON_JUMP_CALLS);
	m->over_ps[1][0] = store_cursor_int(c, MON_TRAP_A_PS);
	m->over_ps[1][1] = store_cursor_int(c, MON_TRAP_B_PS);
	m->over_ps[1][2] = store_cursor_int(c, MON_TRAP_LO_PS);
	m->over_ps[1][3] = store_cursor_int(c, MON_TRAP_HI_PS);
	m->over_calls[1] = store_cursor_int(c, MON_TRAP_CALLS);
	m->error = store_cursor_text(c, MON_ERROR);
	m->sample_rate = store_cursor_int(c, MON_SAMPLE_RATE);
	m->probe[STORE_SA_CPU_N] = store_cursor_int(c, MON_PROBE_CPU_N);
	m->probe[STORE_SA_CPU_NS] = store_cursor_int(c, MON_PROBE_CPU_NS);
	m->probe[STORE_SA_REAL_N] = store_cursor_int(c, MON_PROBE_REAL_N);
	m->probe[STORE_SA_REAL_NS] = store_cursor_int(c, MON_PROBE_REAL_NS);
	return (1);
}

#define STORE_FUNC_COLUMNS(X) \
	X(FUNC_KEY, "key") X(FUNC_NAME, "name") X(FUNC_MODULE, "module") \
	X(FUNC_ADDR, "addr") X(FUNC_SIZE, "size") \
	X(FUNC_HOW, "CASE how WHEN 'trap' THEN 1 WHEN 'plt' THEN 2" \
	    " WHEN 'leaf' THEN 3 ELSE 0" \
	" END") X(FUNC_CALLS, "calls") \
	X(FUNC_SELF_NS, "self_ns") X(FUNC_TOTAL_NS, "total_ns") \
	X(FUNC_SELF_CPU_NS, "self_cpu_ns") \
	X(FUNC_TOTAL_CPU_NS, "total_cpu_ns") \
	X(FUNC_SELF_ERR_NS, "self_err_ns") \
	X(FUNC_TOTAL_ERR_NS, "total_err_ns")
STORE_COLUMNS(store_func_columns, STORE_FUNC_COLUMNS);

/* A session's functions, most self time first. */
struct store_cursor *
store_funcs(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_func_columns,
	    "FROM func WHERE session = ?1 ORDER BY self_ns DESC, key",
	    session));
}

int
store_func_next(struct store_cursor *c, struct store_func *f)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	f->key = store_cursor_text(c, FUNC_KEY);
	f->name = store_cursor_text(c, FUNC_NAME);
	f->module = store_cursor_text(c, FUNC_MODULE);
	f->addr = (uint64_t)store_cursor_int(c, FUNC_ADDR);
	f->size = (uint64_t)store_cursor_int(c, FUNC_SIZE);
	/* The CASE above gives enum store_how's numbers. */
	f->how = (enum store_how)store_cursor_int(c, FUNC_HOW);
	f->calls = (uint64_t)store_cursor_int(c, FUNC_CALLS);
	f->self_ns = store_cursor_int(c, FUNC_SELF_NS);
	f->total_ns = store_cursor_int(c, FUNC_TOTAL_NS);
	f->self_cpu_ns = store_cursor_int(c, FUNC_SELF_CPU_NS);
	f->total_cpu_ns = store_cursor_int(c, FUNC_TOTAL_CPU_NS);
	f->self_err_ns = store_cursor_int(c, FUNC_SELF_ERR_NS);
	f->total_err_ns = store_cursor_int(c, FUNC_TOTAL_ERR_NS);
	return (1);
}

#define STORE_CALL_COLUMNS(X) \
	X(CALL_CALLER, "caller") X(CALL_CALLEE, "callee") \
	X(CALL_CALLS, "calls") X(CALL_TOTAL_NS, "total_ns") \
	X(CALL_TOTAL_CPU_NS, "total_cpu_ns") \
	X(CALL_TOTAL_ERR_NS, "total_err_ns")
STORE_COLUMNS(store_call_columns, STORE_CALL_COLUMNS);

/* A session's call edges, most time first. */
struct store_cursor *
store_calls(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_call_columns,
	    "FROM call WHERE session = ?1 ORDER BY total_ns DESC, caller,"
	    " callee", session));
}

int
store_call_next(struct store_cursor *c, struct store_call *e)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	e->caller = store_cursor_text(c, CALL_CALLER);
	e->callee = store_cursor_text(c, CALL_CALLEE);
	e->calls = (uint64_t)store_cursor_int(c, CALL_CALLS);
	e->total_ns = store_cursor_int(c, CALL_TOTAL_NS);
	e->total_cpu_ns = store_cursor_int(c, CALL_TOTAL_CPU_NS);
	e->total_err_ns = store_cursor_int(c, CALL_TOTAL_ERR_NS);
	return (1);
}

#define STORE_CALLPATH_COLUMNS(X) \
	X(PATH_ID, "id") X(PATH_PARENT, "coalesce(parent, -1)") \
	X(PATH_FUNC, "func") X(PATH_DEPTH, "depth") X(PATH_CALLS, "calls") \
	X(PATH_SELF_NS, "self_ns") X(PATH_TOTAL_NS, "total_ns") \
	X(PATH_SELF_CPU_NS, "self_cpu_ns") \
	X(PATH_TOTAL_CPU_NS, "total_cpu_ns") \
	X(PATH_SELF_ERR_NS, "self_err_ns") \
	X(PATH_TOTAL_ERR_NS, "total_err_ns")
STORE_COLUMNS(store_callpath_columns, STORE_CALLPATH_COLUMNS);

/* A session's call paths in file (depth-first) order. */
struct store_cursor *
store_callpaths(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_callpath_columns,
	    "FROM callpath WHERE session = ?1 ORDER BY id", session));
}

int
store_callpath_next(struct store_cursor *c, struct store_callpath *p)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	p->id = store_cursor_int(c, PATH_ID);
	p->parent = store_cursor_int(c, PATH_PARENT);
	p->func = store_cursor_text(c, PATH_FUNC);
	p->depth = store_cursor_int(c, PATH_DEPTH);
	p->calls = (uint64_t)store_cursor_int(c, PATH_CALLS);
	p->self_ns = store_cursor_int(c, PATH_SELF_NS);
	p->total_ns = store_cursor_int(c, PATH_TOTAL_NS);
	p->self_cpu_ns = store_cursor_int(c, PATH_SELF_CPU_NS);
	p->total_cpu_ns = store_cursor_int(c, PATH_TOTAL_CPU_NS);
	p->self_err_ns = store_cursor_int(c, PATH_SELF_ERR_NS);
	p->total_err_ns = store_cursor_int(c, PATH_TOTAL_ERR_NS);
	return (1);
}

#define STORE_CALLPATH_SAMPLE_COLUMNS(X) \
	X(PS_ID, "id") X(PS_CPU_N, "cpu_samples") X(PS_CPU_NS, "cpu_ns") \
	X(PS_REAL_N, "real_samples") X(PS_REAL_NS, "real_ns")
STORE_COLUMNS(store_callpath_sample_columns, STORE_CALLPATH_SAMPLE_COLUMNS);

/* A session's sampled paths by id (-1 first: outside traced functions). */
struct store_cursor *
store_callpath_samples(struct store *st, int64_t session)
{
	return (store_cursor_select(st, store_callpath_sample_columns,
	    "FROM callpath_sample WHERE session = ?1 ORDER BY id", session));
}

int
store_callpath_sample_next(struct store_cursor *c,
    struct store_callpath_sample *p)
{
	int	rc;

	if ((rc = store_cursor_step(c)) != 1)
		return (rc);
	p->id = store_cursor_int(c, PS_ID);
	p->v[STORE_SA_CPU_N] = store_cursor_int(c, PS_CPU_N);
	p->v[STORE_SA_CPU_NS] = store_cursor_int(c, PS_CPU_NS);
	p->v[STORE_SA_REAL_N] = store_cursor_int(c, PS_REAL_N);
	p->v[STORE_SA_REAL_NS] = store_cursor_int(c, PS_REAL_NS);
	return (1);
}

#define STORE_MON_MODULE_COLUMNS(X) \
	X(MODULE_PATH, "path")
STORE_COLUMNS(store_mon_module_columns, STORE_MON_MODULE_COLUMNS);

/*
 * The path of module name of the session: 1 with *path to free, 0, -1.
 * One row of the table's key, not a walk over the session's modules.
 */
int
store_mon_module_path(struct store *st, int64_t session, const char *name,
    char **path)
{
	struct store_cursor	*c;
	int			 rc;

	*path = NULL;
	c = store_cursor_select(st, store_mon_module_columns,
	    "FROM mon_module WHERE session = ?1 AND name = ?2", session);
	store_cursor_bind_text(c, 2, name);
	if ((rc = store_cursor_step(c)) == 1)
		*path = xstrdup(store_cursor_text(c, MODULE_PATH));
	store_cursor_close(c);
	return (rc);
}
