/*
 * store/prfd.h: the prfd kind's tables (prfd.c): a Dos32Profile dump's
 * header, its threads, slots and hit table.
 */
#ifndef STORE_PRFD_H
#define STORE_PRFD_H

#include "store/store.h"

extern const struct store_schema	store_prfd_schema;

/*
 * A Dos32Profile dump (prfd.c): the header, the process's PRFRET0 and
 * what our extension record says (period_ns, samples, ns: -1 when the
 * dump has none; command NULL).
 */
struct store_prfd {
	uint32_t	 pid;
	unsigned	 width;		/* bytes in a ULONG: 4 or 8 */
	uint16_t	 timval;	/* the header's */
	uint16_t	 r0_timval;	/* PRFRET0's */
	uint16_t	 flags;
	uint16_t	 shift;
	uint64_t	 idle, vm86, kernel, shrmem, unknown;
	uint64_t	 nhitbufs, hitbufcnt;
	uint8_t		 errcnt;
	int		 extension;	/* the dump has our record */
	int		 hit_table;	/* it has a PRFRET2 */
	int64_t		 period_ns, samples, ns;
	char		*command;	/* store_prfd_get: to free */
};

/* A thread's PRFRET0 (us_thrdno, from 1); tid -1: not known. */
struct store_prfd_thread {
	uint32_t	 thrdno;
	int64_t		 tid;
	uint16_t	 flags;
	uint64_t	 idle, vm86, kernel, shrmem, unknown;
	uint64_t	 hitbufcnt;
	uint8_t		 errcnt;
};

/*
 * A slot (PRFVA), its detail counters the bucket rows [bucket_first,
 * bucket_first + nbuckets) (bucket_first -1: none), its module from the
 * extension (NULL: not known) and how many of its symbols were stored.
 */
struct store_prfd_slot {
	int64_t		 idx;
	uint64_t	 vaddr, size, flags, cnt;
	int64_t		 bucket_first, nbuckets;
	char		*module;
	char		*build_id;	/* hex */
	int64_t		 symbols;
};

/*
 * A module some samples fell in outside the slots (the program, a
 * library, the vDSO; kernel: the kernel's, which are the kernel
 * counter's), as the dump's MAPPING entry says: mapped at [lo, hi) from
 * file offset pgoff, an address less bias is the file's vaddr.  symbols:
 * how many of its symbols were stored; unresolved: why none could be
 * (NULL: they were).
 */
struct store_prfd_module {
	int64_t		 idx;
	uint64_t	 lo, hi, pgoff, bias;
	int		 kernel;
	char		*path;
	char		*build_id;	/* hex, NULL: none */
	uint64_t	 samples;
	int64_t		 symbols;
	char		*unresolved;
};

/* prfd.c; strings of a _get or _next are the caller's to free. */
int		 store_prfd_add(struct store *, int64_t,
		     const struct store_prfd *);
int		 store_prfd_get(struct store *, int64_t, struct store_prfd *);
int		 store_prfd_thread_add(struct store *, int64_t,
		     const struct store_prfd_thread *);
struct store_cursor *store_prfd_threads(struct store *, int64_t);
int		 store_prfd_thread_next(struct store_cursor *,
		     struct store_prfd_thread *);
int		 store_prfd_slot_add(struct store *, int64_t,
		     const struct store_prfd_slot *);
struct store_cursor *store_prfd_slots(struct store *, int64_t);
int		 store_prfd_slot_next(struct store_cursor *,
		     struct store_prfd_slot *);
int		 store_prfd_hit_add(struct store *, int64_t, uint64_t,
		     uint64_t);
struct store_cursor *store_prfd_buckets(struct store *, int64_t, int64_t,
		     int64_t);
struct store_cursor *store_prfd_hits(struct store *, int64_t);
int		 store_prfd_hit_next(struct store_cursor *, uint64_t *,
		     uint64_t *);

int		 store_prfd_module_add(struct store *, int64_t,
		     const struct store_prfd_module *);
struct store_cursor *store_prfd_modules(struct store *, int64_t);
int		 store_prfd_module_next(struct store_cursor *,
		     struct store_prfd_module *);
int		 store_prfd_module_hit_add(struct store *, int64_t, int64_t,
		     uint64_t, uint64_t);
struct store_cursor *store_prfd_module_hits(struct store *, int64_t);
int		 store_prfd_module_hit_next(struct store_cursor *, int64_t *,
		     uint64_t *, uint64_t *);

#endif
