/*
 * analyze/prfd.h: a Dos32Profile dump's model (the prfd kind's: analyze/prfd.c),
 * shared by its view and its report.
 */
#ifndef ANALYZE_PRFD_H
#define ANALYZE_PRFD_H

#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "store/prfd.h"

/*
 * prfd.c: a Dos32Profile dump (the prfd kind's model).  Shares are of
 * the run time by default, as perf shows them: every sample taken while
 * the process ran (all but idle); with all set, of total, every period
 * (the global counters, the slots' and the modules' counts).
 */
struct analyze_prfd_flat {
	size_t		 sym;		/* SIZE_MAX: outside symbols */
	size_t		 slot;		/* SIZE_MAX: outside slots */
	size_t		 mod;		/* SIZE_MAX: in no module */
	uint64_t	 addr;		/* the symbol's, slot's or module's */
	uint64_t	 hits;		/* of the hit table and the modules */
};

struct analyze_prfd {
	int64_t			  session;
	struct store_prfd	  d;
	struct store_prfd_thread *threads;	/* by thrdno */
	size_t			  nthreads;
	struct store_prfd_slot	 *slots;	/* the dump's order */
	size_t			  nslots;
	size_t			 *by_addr;	/* slots by vaddr */
	struct store_prfd_module *mods;		/* the dump's order */
	size_t			  nmods;
	size_t			  unresolved;	/* modules without symbols */
	uint64_t		  counters;	/* idle + vm86 + kernel + ... */
	uint64_t		  slots_total;	/* the slots' counts */
	uint64_t		  mods_total;	/* the modules' but the kernel's */
	uint64_t		  total;	/* the three */
	uint64_t		  run;		/* total less idle */
	int			  all;		/* shares of total, not run */
	/* Loaded by analyze_prfd_table (the slots view asks when shown). */
	uint64_t		 *hit_addr;	/* the hit table by address */
	uint64_t		 *hit_n;
	size_t			  nhit;
	uint64_t		  hit_total;
	uint64_t		  flat_total;	/* hit_total and the modules' */
	/* The modules' samples: module, address and count, by both. */
	int64_t			 *mh_mod;
	uint64_t		 *mh_addr;
	uint64_t		 *mh_n;
	size_t			  nmh;
	uint64_t		  kernel_named;	/* the kernel's among them */
	struct analyze_sym	 *syms;		/* by address */
	size_t			  nsyms;
	struct analyze_prfd_flat *flat;		/* by hits, descending */
	size_t			  nflat;
	int			  table;	/* the above are loaded */
};

int		 analyze_prfd_load(struct store *, int64_t,
		     struct analyze_prfd *, char **);
int		 analyze_prfd_load_head(struct store *, int64_t,
		     struct analyze_prfd *, char **);
int		 analyze_prfd_table(struct store *, struct analyze_prfd *,
		     char **);
void		 analyze_prfd_free(struct analyze_prfd *);
void		*analyze_prfd_model(struct store *, int64_t, char **);
void		 analyze_prfd_model_free(void *);
double		 analyze_prfd_pct(const struct analyze_prfd *, double);
size_t		 analyze_prfd_slot_at(const struct analyze_prfd *, uint64_t);
size_t		 analyze_prfd_sym_at(const struct analyze_prfd *, uint64_t);
size_t		 analyze_prfd_mh_module(const struct analyze_prfd *, size_t);
const char	*analyze_prfd_module(const struct analyze_prfd *, size_t);
const char	*analyze_prfd_flat_module(const struct analyze_prfd *,
		     const struct analyze_prfd_flat *);
const char	*analyze_prfd_basename(const char *);
char		*analyze_prfd_flat_name(const struct analyze_prfd *,
		     const struct analyze_prfd_flat *);
int		 analyze_prfd_slot_hist(struct store *, struct analyze_prfd *,
		     size_t, struct analyze_hist *, char **);
int		 analyze_prfd_module_hist(struct store *,
		     struct analyze_prfd *, const struct analyze_prfd_flat *,
		     struct analyze_hist *, char **);

/* The kind's diff hook (analyze/prfddiff.c, kind.h). */
struct analyze_diff;
int		 analyze_prfd_diff(struct store *, void *, void *,
		    struct analyze_diff *, char **);

#endif
