# Benchmarks: run by hand ("make bench"), never timed inside make check.
# Each fragment appends what its benchmarks need built to BENCH_DEPS and
# its executables (paths relative to the source or build tree) to
# BENCH_RUN.  (Not BENCH_SCRIPTS/_PROGRAMS: automake reserves those
# suffixes for things it installs.)
include $(srcdir)/bench/ingest.mk
include $(srcdir)/bench/tui.mk
include $(srcdir)/bench/dos.mk
include $(srcdir)/bench/ovd.mk
include $(srcdir)/bench/store.mk
include $(srcdir)/bench/heap.mk
include $(srcdir)/bench/trace.mk
include $(srcdir)/bench/prfd.mk
