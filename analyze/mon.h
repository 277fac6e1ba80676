/*
 * analyze/mon.h: a pvtrace profile's model (the mon kind's: analyze/mon.c),
 * shared by its view and its report.
 */
#ifndef ANALYZE_MON_H
#define ANALYZE_MON_H

#include "analyze/analyze.h"
#include "store/mon.h"

/*
 * Times from the sampler (a .mon of version 3), [ANALYZE_MON_CPU] and
 * [ANALYZE_MON_REAL]: samples and the time they stand for, self and self
 * plus children (a function's recursion counted once), and the 95 %
 * binomial interval's half-width at the sample count.  few: under
 * ANALYZE_MON_FEW samples, too few for the time to mean much.
 */
enum { ANALYZE_MON_CPU, ANALYZE_MON_REAL };
#define ANALYZE_MON_FEW	10

struct analyze_mon_samp {
	int64_t		 self_n[2], total_n[2];
	int64_t		 self_ns[2], total_ns[2];
	double		 self_err_ns[2], total_err_ns[2];
	int		 few[2];
};

/*
 * mon.c: a pvtrace profile (the mon kind's model): its header, functions
 * by self time, call edges by time, call paths depth first (parents
 * before children).  Strings are the model's own.  With samples (sampled
 * set), fsamp, psamp and esamp hold the sampler's times beside fn, paths
 * and calls_ (same index); the trap-measured times stay in those.
 */
struct analyze_mon {
	struct store_mon	 hdr;
	int			 cpu;		/* CPU times were kept */
	struct store_func	*fn;
	size_t			 nfn;
	struct store_call	*calls_;
	size_t			 ncalls;
	struct store_callpath	*paths;
	size_t			 npaths;
	int64_t			 self_ns;	/* every function's self */
	uint64_t		 calls;		/* every function's calls */
	int64_t			 real_ns;	/* the top paths' totals */
	int			 sampled;	/* the profile has samples */
	struct analyze_mon_samp	*fsamp;		/* by function */
	struct analyze_mon_samp	*psamp;		/* by path */
	struct analyze_mon_samp	*esamp;		/* by call edge (total) */
	struct analyze_mon_samp	 outside;	/* in no traced function */
	/*
	 * The program's time from samples (every path and outside), the
	 * probe's excluded (it is in hdr.probe, by STORE_SA_*): what
	 * shares are of.
	 */
	int64_t			 prog_n[2], prog_ns[2];
};

void		*analyze_mon_model(struct store *, int64_t, char **);
int		 analyze_mon_looked(const struct analyze_mon *);
void		 analyze_mon_model_free(void *);
struct analyze_hist;
int		 analyze_mon_code(struct store *, int64_t,
		     const struct analyze_mon *, size_t, struct analyze_hist *,
		     char **);

/* The kind's diff hook (analyze/mondiff.c, kind.h). */
struct analyze_diff;
int		 analyze_mon_diff(struct store *, void *, void *,
		    struct analyze_diff *, char **);

#endif
