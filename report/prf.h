/* report/prf.h: the PROFIL session's report (prf.c), for kind.c. */
#ifndef REPORT_PRF_H
#define REPORT_PRF_H

#include "report/report.h"

int		 report_prf(struct store *, const struct store_session *,
		     const void *, int, FILE *, char **);

#endif
