# bench/ingest.mk: ingest speed against sqlite3 .import and a bare insert
# loop.  The helper program is built with everything else so that a change
# to the store API cannot break the benchmark unnoticed.
noinst_PROGRAMS += bench/ingest_tool
bench_ingest_tool_SOURCES = bench/ingest_tool.c
bench_ingest_tool_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
bench_ingest_tool_LDADD = $(CORE_LIBS)

BENCH_DEPS += bench/ingest_tool
BENCH_RUN += bench/ingest
EXTRA_DIST += bench/ingest

# Just this one: "make bench-ingest".
bench-ingest: profview$(EXEEXT) bench/ingest_tool$(EXEEXT)
	top_builddir='$(top_builddir)' PROFVIEW='$(abs_top_builddir)/profview' \
	    $(SHELL) $(srcdir)/bench/ingest
.PHONY: bench-ingest

# The map reader on overlapping segments against disjoint ones.
BENCH_RUN += bench/map-overlap
EXTRA_DIST += bench/map-overlap

# A Dos32Profile dump of 2M rows (detail counters, hit table) against
# sqlite3 .import of the same rows: "make bench-prfd-ingest".
BENCH_RUN += bench/prfd-ingest
EXTRA_DIST += bench/prfd-ingest
bench-prfd-ingest: profview$(EXEEXT)
	top_builddir='$(top_builddir)' PROFVIEW='$(abs_top_builddir)/profview' \
	    $(SHELL) $(srcdir)/bench/prfd-ingest
.PHONY: bench-prfd-ingest
