/*
 * report/mon.h: the pvtrace profile's report and its call profile (mon.c),
 * for kind.c.
 */
#ifndef REPORT_MON_H
#define REPORT_MON_H

#include "report/report.h"

int		 report_mon(struct store *, const struct store_session *,
		     const void *, int, FILE *, char **);
int		 report_mon_profile(const struct store_session *, const void *,
		     int, FILE *, char **);

#endif
