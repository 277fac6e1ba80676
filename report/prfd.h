/* report/prfd.h: the Dos32Profile dump's report (prfd.c), for kind.c. */
#ifndef REPORT_PRFD_H
#define REPORT_PRFD_H

#include "report/report.h"

int		 report_prfd(struct store *, const struct store_session *,
		     const void *, int, FILE *, char **);

#endif
