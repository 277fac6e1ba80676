/*
 * analyze: what SQL does badly, as plain C over arrays loaded once from
 * the store and shared by tui/ and report/.
 */
#ifndef ANALYZE_H
#define ANALYZE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

struct analyze_sym {
	char		*module;
	char		*name;
	uint64_t	 addr;
	uint64_t	 size;
	/*
	 * Its samples: the hit table's entries inside it, exactly, plus its
	 * share of each bucket's samples the table does not place (all of
	 * them without a table), split by instruction starts or bytes.
	 */
	double		 hits;
	/*
	 * What the hits rest on: lo counts the unplaced samples of only the
	 * buckets the symbol has to itself, hi those of every bucket it
	 * touches.  lo == hi: exact; else hits is an estimate in [lo, hi].
	 */
	double		 hits_lo;
	double		 hits_hi;
};

int		 analyze_syms_load(struct store *, int64_t,
		    struct analyze_sym **, size_t *);
void		 analyze_syms_free(struct analyze_sym *, size_t);

#endif
