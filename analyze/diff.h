/*
 * analyze/diff.h: two sessions of one kind compared, as perf diff compares
 * two perf.data files (diff.c).  Rows are matched by name, never by
 * address: a relink or ASLR moves every function, the names stay.  Each
 * kind says what its rows and measures are with its diff hook (kind.h),
 * in its own files; this is what they fill and what the CLI, the reports
 * and the browser's diff view read.
 */
#ifndef ANALYZE_DIFF_H
#define ANALYZE_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "intern.h"
#include "store/store.h"

/* The two sides: the baseline (A) and the new session (B). */
enum { ANALYZE_DIFF_BASE, ANALYZE_DIFF_NEW };
#define ANALYZE_DIFF_ONLY_BASE	0x1	/* row sides: a bit each */
#define ANALYZE_DIFF_ONLY_NEW	0x2
#define ANALYZE_DIFF_BOTH	0x3

/* Measure flags. */
#define ANALYZE_DIFF_NS		0x1	/* nanoseconds */
/*
 * A count of the change itself, not of a side (heap's blocks born since
 * the baseline, and those freed): one value, kept as the new side's, with
 * no delta.
 */
#define ANALYZE_DIFF_CHANGE	0x2

struct analyze_diff_measure {
	const char	*name;		/* csv and json: "self_ns" */
	const char	*title;		/* people: "self" */
	int		 flags;
};

struct analyze_diff_row {
	char		*name;
	int		 sides;		/* ANALYZE_DIFF_ONLY_* */
	size_t		 at[2];		/* its first index in each side's
					   model (the hook's), or SIZE_MAX */
	double		*v;		/* [measure * 2 + side] */
};

struct analyze_diff_table {
	const char	*name;		/* json key, csv section */
	const char	*title;		/* people's heading */
	const char	*key;		/* what a row is: "function" */
	const struct analyze_diff_measure *m;
	size_t		 nm;
	double		*total;		/* [measure * 2 + side]: what shares
					   are of; < 0 until given or summed */
	struct analyze_diff_row *rows;	/* by |delta %| once finished */
	size_t		 nrows;
	size_t		 cap;
	struct intern	 names;		/* name to row */
};

struct analyze_diff {
	const char	*kind;
	int64_t		 session[2];
	char		*title[2];	/* each session's source */
	struct analyze_diff_table **tables;	/* each made once, kept */
	size_t		 ntables;
	const char	*note;		/* the kind's: what the rows hold */
};

struct analyze_diff_table *analyze_diff_table(struct analyze_diff *,
		    const char *, const char *, const char *,
		    const struct analyze_diff_measure *, size_t);
struct analyze_diff_row *analyze_diff_add(struct analyze_diff_table *, int,
		    const char *, size_t, const double *);
void		 analyze_diff_totals(struct analyze_diff_table *, int,
		    const double *);
void		 analyze_diff_finish(struct analyze_diff *);
void		 analyze_diff_free(struct analyze_diff *);
double		 analyze_diff_pct(const struct analyze_diff_table *,
		    const struct analyze_diff_row *, size_t, int);
double		 analyze_diff_delta(const struct analyze_diff_row *, size_t);
double		 analyze_diff_delta_pct(const struct analyze_diff_table *,
		    const struct analyze_diff_row *, size_t);
const char	*analyze_diff_side_mark(int);
int		 analyze_diff_sessions(struct store *, int64_t, int64_t,
		    struct analyze_diff *, char **);

#endif
