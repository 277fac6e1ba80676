/*
 * report: every session kind, and any query result, written as a report.
 * The same code serves "profview export" and the browser's :export.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

#include "store/store.h"

enum report_format {
	REPORT_TEXT,
	REPORT_CSV,
	REPORT_JSON,
	REPORT_HTML,
	REPORT_CHROME,
	REPORT_FORMATS
};

int		 report_format_parse(const char *);
const char	*report_format_name(int);
int		 report_session(struct store *, int64_t, int, FILE *, char **);
int		 report_stmt(sqlite3_stmt *, int, FILE *, char **);

/* ovd.c */
int		 report_ovd(struct store *, int64_t, int, FILE *, char **);

#endif
