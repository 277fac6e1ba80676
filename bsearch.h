/*
 * The one binary search.  BSEARCH_FIRST(i, lo, hi, before) sets i to the
 * first index in [lo, hi) at which the condition before, an expression
 * of i, is false; hi when it holds at every one.  before must hold of a
 * prefix of the range and of nothing after it (what it tests is sorted):
 *
 *	BSEARCH_FIRST(i, 0, n, v[i] < key);	the first at or above key
 *	BSEARCH_FIRST(i, 0, n, v[i] <= key);	the first above it; i - 1,
 *						if i > 0, the last at or below
 *
 * A macro, not a function with a comparator, because the sites search
 * every kind of order: a field, an index through a permutation, a pair
 * of keys, a function of the index, an array read with atomics.  A
 * comparator would want a context struct and a function each, longer
 * than the loop it replaced and untyped through its void *; here the
 * order stays at the call site, in C, typed.  A header and nothing to
 * link, so the LD_PRELOAD agents in capture/ use it as well.  lo and hi
 * are evaluated once, before an index; before once per step, at most
 * log2(hi - lo) + 1 times.
 */
#ifndef BSEARCH_H
#define BSEARCH_H

#include <stddef.h>

#define BSEARCH_FIRST(i, lo, hi, before) do {				\
	size_t	bsearch_lo_ = (lo), bsearch_hi_ = (hi), bsearch_mid_;	\
									\
	while (bsearch_lo_ < bsearch_hi_) {				\
		bsearch_mid_ = bsearch_lo_ +				\
		    (bsearch_hi_ - bsearch_lo_) / 2;			\
		(i) = bsearch_mid_;					\
		if (before)						\
			bsearch_lo_ = bsearch_mid_ + 1;			\
		else							\
			bsearch_hi_ = bsearch_mid_;			\
	}								\
	(i) = bsearch_lo_;						\
} while (0)

#endif
