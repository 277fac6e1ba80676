/*
 * store/mon.h: the mon kind's tables (mon.c): a pvtrace profile's header,
 * its functions, call edges and call paths.
 */
#ifndef STORE_MON_H
#define STORE_MON_H

#include "store/store.h"

extern const struct store_schema	store_mon_schema;

/*
 * The sampler's counts (a .mon of version 3): looks that found CPU time
 * used and that CPU time, looks and the real time between them.
 */
enum store_sa {
	STORE_SA_CPU_N, STORE_SA_CPU_NS, STORE_SA_REAL_N, STORE_SA_REAL_NS,
	STORE_SA_COUNT
};

/* A pvtrace profile's header (mon); the overheads in picoseconds. */
struct store_mon {
	const char	*build_id;
	const char	*command;
	const char	*first_run, *last_run;
	int64_t		 runs;
	int64_t		 real_ns;
	const char	*status;	/* "exit 0", "signal 9" */
	const char	*clock;		/* tsc, monotonic */
	int64_t		 clock_hz;
	const char	*cpu;		/* perf-task-clock, or why not */
	int64_t		 over_ps[2][4];	/* jump, trap: a, b, lo, hi */
	int64_t		 over_calls[2];
	const char	*error;		/* NULL: none */
	int64_t		 sample_rate;	/* Hz; 0 off, -1 no samples (old) */
	int64_t		 probe[STORE_SA_COUNT];	/* looks inside the agent */
};

/*
 * How a function's entry was caught (func.how, store_func_how names them):
 * a patched jump, an int3, or a library function's GOT slot pointed at a
 * trampoline.
 */
enum store_how {
	STORE_HOW_JUMP, STORE_HOW_TRAP, STORE_HOW_PLT, STORE_HOW_LEAF
};
extern const char *const	store_func_how[];

/* A function of a pvtrace profile (times in ns, overhead subtracted). */
struct store_func {
	const char	*key;		/* unique in the session */
	const char	*name;
	const char	*module;
	uint64_t	 addr;
	uint64_t	 size;
	enum store_how	 how;
	uint64_t	 calls;
	int64_t		 self_ns, total_ns;
	int64_t		 self_cpu_ns, total_cpu_ns;
	int64_t		 self_err_ns, total_err_ns;
};

/* A call edge; caller NULL: no traced caller. */
struct store_call {
	const char	*caller;
	const char	*callee;
	uint64_t	 calls;
	int64_t		 total_ns, total_cpu_ns, total_err_ns;
};

/* A call path: func called on the path parent (-1: from the top). */
struct store_callpath {
	int64_t		 id;
	int64_t		 parent;
	const char	*func;
	int64_t		 depth;
	uint64_t	 calls;
	int64_t		 self_ns, total_ns;
	int64_t		 self_cpu_ns, total_cpu_ns;
	int64_t		 self_err_ns, total_err_ns;
};

/* A path's samples at it (self); id -1: outside traced functions. */
struct store_callpath_sample {
	int64_t		 id;
	int64_t		 v[STORE_SA_COUNT];
};

/* mon.c; cpu 0: the CPU columns are NULL (not measured). */
int		 store_mon_add(struct store *, int64_t,
		     const struct store_mon *);
struct store_cursor *store_mon_get(struct store *, int64_t);
int		 store_mon_next(struct store_cursor *, struct store_mon *);
int		 store_mon_module_add(struct store *, int64_t, const char *,
		     const char *, const char *);
int		 store_mon_module_path(struct store *, int64_t, const char *,
		     char **);
int		 store_func_add(struct store *, int64_t,
		     const struct store_func *, int);
struct store_cursor *store_funcs(struct store *, int64_t);
int		 store_func_next(struct store_cursor *, struct store_func *);
int		 store_call_add(struct store *, int64_t,
		     const struct store_call *, int);
struct store_cursor *store_calls(struct store *, int64_t);
int		 store_call_next(struct store_cursor *, struct store_call *);
int		 store_callpath_add(struct store *, int64_t,
		     const struct store_callpath *, int);
struct store_cursor *store_callpaths(struct store *, int64_t);
int		 store_callpath_next(struct store_cursor *,
		     struct store_callpath *);
int		 store_callpath_sample_add(struct store *, int64_t,
		     const struct store_callpath_sample *);
struct store_cursor *store_callpath_samples(struct store *, int64_t);
int		 store_callpath_sample_next(struct store_cursor *,
		     struct store_callpath_sample *);
int		 store_mon_left_out_add(struct store *, int64_t, const char *,
		     uint64_t, uint64_t, const char *, const char *);

#endif
