/*
 * The table of session kinds (kind.h).  A new kind is its headers'
 * includes and one line here, one line in tui/kinds.c and a block of
 * kinds.mk; everything else it needs is files of its own (HACKING.md,
 * tests/unit/kindfiles.py).
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "kind.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "analyze/hist.h"
#include "analyze/mon.h"
#include "analyze/ovd.h"
#include "analyze/prfd.h"
#include "ingest/ingest.h"
#include "ingest/heap.h"
#include "ingest/mon.h"
#include "ingest/ovd.h"
#include "ingest/prf.h"
#include "ingest/prfd.h"
#include "report/report.h"
#include "report/heap.h"
#include "report/mon.h"
#include "report/ovd.h"
#include "report/prf.h"
#include "report/prfd.h"
#include "store/store.h"
#include "store/heap.h"
#include "store/mon.h"
#include "store/ovd.h"
#include "store/prf.h"
#include "store/prfd.h"

static const struct kind_question kind_heap_question = {
	"heap",
	"           ask a heap session: collectable, leaks|live [bottom-up|"
	"top-down],\n"
	"           reachable ADDR|ROOT, reached-from ADDR, anchored-by"
	" ROOT|ADDR,\n"
	"           test-unload MODULE..., by-type, by-module, sizes,"
	" find STRING [POS],\n"
	"           trace ROOT[N]\n",
	report_heap_question
};

/* The DOS readers' options: prf's all four, ovd's the map. */
static const struct kind_option kind_map_option = {
	"map", "FILE", 0, 1,
	"linker map for the symbols (default NAME.MAP beside FILE)"
};
static const struct kind_option kind_load_option = {
	"load", "com|exe", 1, 1,
	"how the DOS program was loaded (default: from the map)"
};
static const struct kind_option kind_program_option = {
	"program", "FILE", 0, 0,
	"the profiled DOS program, kept for its code\n"
	"(default NAME.COM or NAME.EXE beside FILE)"
};
static const struct kind_option kind_listing_option = {
	"listing", "FILE", 0, 0,
	"the program's NASM listing (nasm -l), for source lines\n"
	"(default NAME.LST beside the program)"
};
static const struct kind_option *const kind_prf_options[] = {
	&kind_map_option, &kind_load_option, &kind_program_option,
	&kind_listing_option, NULL
};
static const struct kind_option *const kind_ovd_options[] = {
	&kind_map_option, NULL
};

const struct kind kind_table[] = {
	{ "prf", "MS-DOS PROFIL bucket file (NAME.PRF)",
	    &ingest_prf_reader, &store_prf_schema,
	    analyze_hist_model, analyze_hist_model_free,
	    report_prf, NULL, KIND_F(REPORT_PPROF), NULL, NULL,
	    kind_prf_options, NULL, analyze_prf_diff },
	{ "ovd", "OVRACT overlay log of Turbo Pascal 5 (NAME.OVD)",
	    &ingest_ovd_reader, &store_ovd_schema,
	    analyze_ovd_model, analyze_ovd_model_free,
	    report_ovd, report_ovd_trace, KIND_F(REPORT_CHROME), NULL, NULL,
	    kind_ovd_options, NULL, analyze_ovd_diff },
	{ "heap", "pvheap snapshot of a C/C++ heap (NAME.heap)",
	    &ingest_heap_reader, &store_heap_schema,
	    analyze_heap_model, analyze_heap_model_free,
	    report_heap, NULL,
	    KIND_F(REPORT_HEAPSNAPSHOT) | KIND_F(REPORT_COLLAPSED) |
	    KIND_F(REPORT_PPROF), NULL,
	    &kind_heap_question, NULL,
	    ingest_heapsock_snapshot, analyze_heap_diff },
	{ "mon", "pvtrace call profile (PROG.mon)",
	    &ingest_mon_reader, &store_mon_schema,
	    analyze_mon_model, analyze_mon_model_free,
	    report_mon, NULL, KIND_F(REPORT_CALLGRIND) |
	    KIND_F(REPORT_COLLAPSED) | KIND_F(REPORT_SPEEDSCOPE) |
	    KIND_F(REPORT_PPROF), report_mon_profile, NULL, NULL, NULL,
	    analyze_mon_diff },
	{ "prfd", "Dos32Profile dump of pvprf or OS/2 (NAME.prfd)",
	    &ingest_prfd_reader, &store_prfd_schema,
	    analyze_prfd_model, analyze_prfd_model_free,
	    report_prfd, NULL, KIND_F(REPORT_PPROF), NULL, NULL, NULL,
	    NULL, analyze_prfd_diff },
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

/* The question whose verb is verb, or NULL. */
const struct kind_question *
kind_question_find(const char *verb)
{
	size_t	i;

	for (i = 0; i < kind_count; i++) {
		if (kind_table[i].question != NULL &&
		    strcmp(kind_table[i].question->verb, verb) == 0)
			return (kind_table[i].question);
	}
	return (NULL);
}

/* The option called name that a kind takes, or NULL. */
const struct kind_option *
kind_option_find(const char *name)
{
	const struct kind_option *const	*o;
	size_t				 i;

	for (i = 0; i < kind_count; i++) {
		for (o = kind_table[i].options; o != NULL && *o != NULL; o++) {
			if (strcmp((*o)->name, name) == 0)
				return (*o);
		}
	}
	return (NULL);
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

/*
 * The kinds as the store knows them (store_open takes them), made from
 * kind_table on the first call: the program's first store_open, before
 * any thread; later calls only read it.
 */
const struct store_kind *
kind_store(void)
{
	static struct store_kind	v[sizeof kind_table /
					    sizeof kind_table[0] + 1];
	size_t				i;

	if (v[0].name == NULL) {
		for (i = 0; i < kind_count; i++) {
			v[i].name = kind_table[i].name;
			v[i].schema = kind_table[i].schema;
		}
	}
	return (v);
}
