# bench/ovd.mk: OVD ingest speed ("make bench-ovd"; never part of check).
EXTRA_PROGRAMS += bench/ovd-bare
bench_ovd_bare_SOURCES = bench/ovd-bare.c
bench_ovd_bare_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
bench_ovd_bare_LDADD = $(CORE_LIBS)
CLEANFILES += bench/ovd-bare
EXTRA_DIST += bench/ovd-ingest

bench: bench-ovd
bench-ovd: profview bench/ovd-bare
	top_builddir=. $(SHELL) $(srcdir)/bench/ovd-ingest $(BENCH_OVD_EVENTS)
.PHONY: bench-ovd

# bench/ovd-memory: what the timeline holds per event on a 10M-event
# session ("make bench-ovd-memory"), model and index apart.
EXTRA_PROGRAMS += bench/ovd-model
bench_ovd_model_SOURCES = bench/ovd-model.c
bench_ovd_model_LDADD = $(CORE_LIBS)
CLEANFILES += bench/ovd-model
EXTRA_DIST += bench/ovd-memory
bench: bench-ovd-memory
bench-ovd-memory: bench/ovd-model
	top_builddir=. $(SHELL) $(srcdir)/bench/ovd-memory $(BENCH_OVD_MEMORY_EVENTS)
.PHONY: bench-ovd-memory
