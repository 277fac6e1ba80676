/*
 * The table of session kinds (kind.h).  A new kind is one line here and
 * one in tui/kinds.c; everything else it needs is files of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "kind.h"
#include "analyze/analyze.h"
#include "ingest/ingest.h"
#include "report/report.h"
#include "store/store.h"

const struct kind kind_table[] = {
	{ "prf", "MS-DOS PROFIL bucket file (NAME.PRF)",
	    &ingest_prf_reader, &store_prf_schema,
	    analyze_hist_model, analyze_hist_model_free,
	    report_prf, NULL, 0, NULL, NULL },
	{ "ovd", "OVRACT overlay log of Turbo Pascal 5 (NAME.OVD)",
	    &ingest_ovd_reader, &store_ovd_schema,
	    analyze_ovd_model, analyze_ovd_model_free,
	    report_ovd, report_ovd_trace, KIND_F(REPORT_CHROME), NULL, NULL },
	{ "heap", "pvheap snapshot of a C/C++ heap (NAME.heap)",
	    &ingest_heap_reader, &store_heap_schema,
	    analyze_heap_model, analyze_heap_model_free,
	    report_heap, NULL,
	    KIND_F(REPORT_HEAPSNAPSHOT) | KIND_F(REPORT_COLLAPSED), NULL,
	    ingest_heapsock_snapshot },
	{ "mon", "pvtrace call profile (PROG.mon)",
	    &ingest_mon_reader, &store_mon_schema,
	    analyze_mon_model, analyze_mon_model_free,
	    report_mon, NULL, KIND_F(REPORT_CALLGRIND) |
	    KIND_F(REPORT_COLLAPSED) | KIND_F(REPORT_SPEEDSCOPE),
	    report_mon_profile, NULL },
	{ "prfd", "Dos32Profile dump of pvprf or OS/2 (NAME.prfd)",
	    &ingest_prfd_reader, &store_prfd_schema,
	    analyze_prfd_model, analyze_prfd_model_free,
	    report_prfd, NULL, 0, NULL, NULL },
};
const size_t kind_count = sizeof kind_table / sizeof kind_table[0];

/* The kind called name, or NULL. */
const struct kind *
kind_find(const char *name)
{
	size_t	i;

	for (i = 0; i < kind_count; i++) {
		if (strcmp(kind_table[i].name, name) == 0)
			return (&kind_table[i]);
	}
	return (NULL);
}

/* Whether kind k can be exported in format: tables always, others if listed. */
int
kind_exports(const struct kind *k, int format)
{
	if (report_tabular(format))
		return (1);
	if (format < 0 || format >= REPORT_FORMATS ||
	    !(k->formats & KIND_F(format)))
		return (0);
	/* A timeline format needs the trace writer that feeds it. */
	return (!report_traced(format) || k->trace != NULL);
}

/* "prf, ovd": every kind's name, joined by sep. */
char *
kind_names(const char *sep)
{
	char	*s = xstrdup(""), *t;
	size_t	 i;

	for (i = 0; i < kind_count; i++) {
		t = xasprintf("%s%s%s", s, i != 0 ? sep : "",
		    kind_table[i].name);
		free(s);
		s = t;
	}
	return (s);
}

/* The formats kind k exports (every format if k is NULL), joined by sep. */
char *
kind_formats(const struct kind *k, const char *sep)
{
	char	*s = xstrdup(""), *t;
	size_t	 i;
	int	 f, any;

	for (f = 0; f < REPORT_FORMATS; f++) {
		any = 0;
		if (k != NULL)
			any = kind_exports(k, f);
		for (i = 0; k == NULL && i < kind_count; i++)
			any |= kind_exports(&kind_table[i], f);
		if (!any)
			continue;
		t = xasprintf("%s%s%s", s, *s != '\0' ? sep : "",
		    report_format_name(f));
		free(s);
		s = t;
	}
	return (s);
}
