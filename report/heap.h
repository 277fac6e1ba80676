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
/* heap.c: loss records' rows (the leaks and live questions, the report). */
struct analyze_heapview;
struct analyze_heapleaks;
extern const struct report_col report_heap_leak_cols[];
#define REPORT_HEAP_LEAK_COLS	8
/* A record's stack is cut there (a frame may be a megabyte of name). */
#define REPORT_HEAP_STACK_MAX	65536
void		 report_heap_leak_rows(struct report_out *,
		     const struct analyze_heapleaks *,
		     const struct analyze_heapview *, size_t);
/* heapexport.c: report_heap's formats of its own (kind.h's formats). */
int		 report_heap_snapshot(struct store *,
		     const struct store_session *, FILE *, char **);
int		 report_heap_collapsed(struct store *,
		     const struct store_session *, FILE *, char **);
struct store_heap;
int		 report_heap_pprof(struct store *,
		     const struct store_session *, const struct store_heap *,
		     FILE *, char **);

#endif
