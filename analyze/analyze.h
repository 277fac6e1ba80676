/*
 * analyze: what SQL does badly, as plain C over arrays loaded once from
 * the store and shared by tui/ and report/.
 */
#ifndef ANALYZE_H
#define ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

struct analyze_sym {
	char		*module;
	char		*name;
	uint64_t	 addr;
	uint64_t	 size;
	double		 hits;	/* bucket hits shared out by overlap */
};

/* A bucket, or a run of merged buckets at a coarser zoom level. */
struct analyze_bucket {
	uint32_t	 idx;		/* first raw bucket */
	uint64_t	 lo;
	uint64_t	 hi;
	uint64_t	 hits;
	uint32_t	 sym_first;	/* candidate symbols, sorted by addr */
	uint32_t	 sym_count;
};

struct analyze_level {
	uint32_t		 factor;	/* raw buckets per row */
	size_t			 n;
	struct analyze_bucket	*b;
};

struct analyze_hist {
	int64_t			 session;
	struct store_prf	 prf;
	uint64_t		 in_program;	/* sum of bucket hits */
	uint64_t		 total;		/* plus io, dos, high */
	double			 unattributed;	/* bucket hits outside symbols */
	struct analyze_sym	*syms;		/* by address */
	size_t			 nsyms;
	size_t			*flat;		/* syms by hits, descending */
	struct analyze_level	*levels;	/* [0] is the raw buckets */
	size_t			 nlevels;
};

int		 analyze_hist_load(struct store *, int64_t,
		    struct analyze_hist *, char **);
void		 analyze_hist_free(struct analyze_hist *);
uint64_t	 analyze_overlap(const struct analyze_bucket *,
		    const struct analyze_sym *);
char		*analyze_bucket_names(const struct analyze_hist *,
		    const struct analyze_bucket *);

#endif
