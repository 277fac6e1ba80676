/*
 * report/ovd.h: the overlay session's report and its timeline (ovd.c), for
 * kind.c.
 */
#ifndef REPORT_OVD_H
#define REPORT_OVD_H

#include "report/report.h"

struct report_trace;

int		 report_ovd(struct store *, const struct store_session *,
		     const void *, int, FILE *, char **);
int		 report_ovd_trace(const struct store_session *, const void *,
		     struct report_trace *);

#endif
