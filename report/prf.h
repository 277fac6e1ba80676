/*
 * report/prf.h: the PROFIL session's report (prf.c), and the rows of its
 * histogram and annotate views as the browser exports them (annotate.c),
 * for kind.c and the views.
 */
#ifndef REPORT_PRF_H
#define REPORT_PRF_H

#include "report/report.h"

struct analyze_hist;
struct analyze_annotate;

/* report_hist flags: which rows the browser is showing. */
#define REPORT_HIST_FLAT	0x1	/* the flat profile, not the buckets */
#define REPORT_HIST_NONZERO	0x2	/* leave out buckets without hits */

/* The histogram and annotate views' rows (tui/hist.c, tui/annotate.c). */
int		 report_hist(struct analyze_hist *, size_t, int, int,
		     FILE *, char **);
int		 report_annotate(const struct analyze_hist *,
		     const struct analyze_annotate *, const char *, int, FILE *,
		     char **);

int		 report_prf(struct store *, const struct store_session *,
		     const void *, int, FILE *, char **);

#endif
