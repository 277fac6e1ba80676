# bench/prfd: pvprf record's cost beside perf record's at 1 and 10 kHz
# on the same workload, from one run ("make bench-prfd").
EXTRA_PROGRAMS += bench/prfd/work
bench_prfd_work_SOURCES = bench/prfd/work.c
bench_prfd_work_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -O2 -g -pthread
bench_prfd_work_LDFLAGS = -pthread
CLEANFILES += bench/prfd/work
EXTRA_DIST += bench/prfd/run.sh
bench: bench-prfd
bench-prfd: bench/prfd/work$(EXEEXT) capture/pvprf/pvprf$(EXEEXT) \
	capture/pvprf/pvprfd$(EXEEXT) capture/pvprf/libpvprf.so.1
	top_builddir=. $(SHELL) $(srcdir)/bench/prfd/run.sh
.PHONY: bench-prfd
