# bench/trace.sh: pvtrace's overhead a call beside uftrace's (a -pg build
# of the same source) and callgrind's slowdown, from one run; its
# sampler's CPU time at 1 kHz beside perf record's; and the plan's time
# for a program of 10000 functions ("make bench-trace").
EXTRA_DIST += bench/trace.sh bench/trace-work.c bench/trace-gen.py
bench: bench-trace
bench-trace: capture/pvtrace/pvtrace$(EXEEXT) capture/pvtrace/libpvtrace.so
	CC='$(CC)' top_srcdir=$(top_srcdir) top_builddir=. \
	    $(SHELL) $(srcdir)/bench/trace.sh
.PHONY: bench-trace
