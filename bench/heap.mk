# bench/heap-graph.sh: the heap graph's analyses on 1M blocks and ~3.9M
# pointers against issue 10's budgets, and memcheck's leak search over
# the same heap built for real by bench/heap-prog ("make bench-heap-graph").
EXTRA_PROGRAMS += bench/heap-graph bench/heap-prog
bench_heap_graph_SOURCES = bench/heap-graph.c bench/heap-shape.h
bench_heap_graph_LDADD = $(CORE_LIBS)
bench_heap_prog_SOURCES = bench/heap-prog.c bench/heap-shape.h
CLEANFILES += bench/heap-graph bench/heap-prog
EXTRA_DIST += bench/heap-graph.sh
bench: bench-heap-graph
bench-heap-graph: bench/heap-graph bench/heap-prog
	top_builddir=. $(SHELL) $(srcdir)/bench/heap-graph.sh
.PHONY: bench-heap-graph
