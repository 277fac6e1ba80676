/*
 * analyze/mon.h: a pvtrace profile's model (the mon kind's: analyze/mon.c),
 * shared by its view and its report.
 */
#ifndef ANALYZE_MON_H
#define ANALYZE_MON_H

#include "analyze/analyze.h"
#include "store/mon.h"

/*
 * mon.c: a pvtrace profile (the mon kind's model): its header, functions
 * by self time, call edges by time, call paths depth first (parents
 * before children).  Strings are the model's own.
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
};

void		*analyze_mon_model(struct store *, int64_t, char **);
void		 analyze_mon_model_free(void *);

#endif
