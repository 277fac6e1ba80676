# bench/heapgraph.sh: the heap graph's analyses on 1M blocks and ~3.9M
# pointers against issue 10's budgets, and memcheck's leak search over
# the same heap built for real by bench/heap-prog ("make bench-heapgraph").
EXTRA_PROGRAMS += bench/heapgraph bench/heap-prog
bench_heapgraph_SOURCES = bench/heapgraph.c bench/heap-shape.h
bench_heapgraph_LDADD = $(CORE_LIBS)
bench_heap_prog_SOURCES = bench/heap-prog.c bench/heap-shape.h
CLEANFILES += bench/heapgraph bench/heap-prog
EXTRA_DIST += bench/heapgraph.sh
bench: bench-heapgraph
bench-heapgraph: bench/heapgraph bench/heap-prog
	top_builddir=. $(SHELL) $(srcdir)/bench/heapgraph.sh
.PHONY: bench-heapgraph

# bench/heap: pvheap against heaptrack and memcheck (run.sh).
EXTRA_PROGRAMS += bench/heap/churn bench/heap/graph
bench_heap_churn_SOURCES = bench/heap/churn.c
bench_heap_churn_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -O2
bench_heap_churn_LDFLAGS = -Wl,-z,now
bench_heap_graph_SOURCES = bench/heap/graph.c
bench_heap_graph_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -O2
bench_heap_graph_LDFLAGS = -Wl,-z,now
BENCH_DEPS += bench/heap/churn$(EXEEXT) bench/heap/graph$(EXEEXT) \
	capture/oberon/pvheap$(EXEEXT) capture/oberon/libpvheap.so \
	tests/e2e/heapsum$(EXEEXT)
BENCH_RUN += bench/heap/run.sh
EXTRA_DIST += bench/heap/run.sh
CLEANFILES += bench/heap/churn bench/heap/graph
