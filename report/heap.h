/*
 * report/heap.h: the heap snapshot's report, its questions (heapq.c) and
 * its formats of its own (heapexport.c), for kind.c.
 */
#ifndef REPORT_HEAP_H
#define REPORT_HEAP_H

#include "report/report.h"

int		 report_heap(struct store *, const struct store_session *,
		     const void *, int, FILE *, char **);
int		 report_heap_question(struct store *, int64_t, char **, int,
		     int, FILE *, char **);
/* heapexport.c: report_heap's formats of its own (kind.h's formats). */
int		 report_heap_snapshot(struct store *,
		     const struct store_session *, FILE *, char **);
int		 report_heap_collapsed(struct store *,
		     const struct store_session *, FILE *, char **);

#endif
