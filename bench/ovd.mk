# bench/ovd.mk: OVD ingest speed ("make bench-ovd"; never part of check).
EXTRA_PROGRAMS += bench/ovd-bare
bench_ovd_bare_SOURCES = bench/ovd-bare.c
bench_ovd_bare_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
bench_ovd_bare_LDADD = $(CORE_LIBS)
CLEANFILES += bench/ovd-bare
EXTRA_DIST += bench/ovd-ingest

bench-ovd: profview bench/ovd-bare
	top_builddir=. $(SHELL) $(srcdir)/bench/ovd-ingest $(BENCH_OVD_EVENTS)
.PHONY: bench-ovd
