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

# bench/heap: pvheap against heaptrack and memcheck (run.sh); a million
# live blocks' memory, snapshot, ingest and map beside heaptrack (live.sh).
EXTRA_PROGRAMS += bench/heap/churn bench/heap/graph
bench_heap_churn_SOURCES = bench/heap/churn.c
bench_heap_churn_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -O2
bench_heap_churn_LDFLAGS = -Wl,-z,now
bench_heap_graph_SOURCES = bench/heap/graph.c
# -g: run.sh times its snapshot's ingest with the blocks typed by DWARF
# and, from a copy stripped of it, without.
bench_heap_graph_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -O2 -g
bench_heap_graph_LDFLAGS = -Wl,-z,now
BENCH_DEPS += bench/heap/churn$(EXEEXT) bench/heap/graph$(EXEEXT) \
	capture/pvheap/pvheap$(EXEEXT) capture/pvheap/libpvheap.so \
	tests/e2e/heapsum$(EXEEXT)
BENCH_RUN += bench/heap/run.sh bench/heap/live.sh
EXTRA_DIST += bench/heap/run.sh bench/heap/live.sh
CLEANFILES += bench/heap/churn bench/heap/graph

# bench/heapmap-model: the heap map's model on 1M blocks, per zoom: level
# build, frame and counts, beside a frame made by scanning every block
# ("make bench-heapmap-model"; BENCH_HEAPMAP_BLOCKS to change).
EXTRA_PROGRAMS += bench/heapmap-model
bench_heapmap_model_SOURCES = bench/heapmap-model.c
bench_heapmap_model_LDADD = $(CORE_LIBS)
CLEANFILES += bench/heapmap-model
bench: bench-heapmap-model
bench-heapmap-model: bench/heapmap-model
	bench/heapmap-model $(BENCH_HEAPMAP_BLOCKS)
.PHONY: bench-heapmap-model

# bench/tui-heapmap: the heap map's first frame and keys in the browser
# code on 1M objects and 4M pointers, made up and read by
# tests/tui/heapmap-demo; then the real binary on a stored session of
# bench/heap-prog's 1M blocks by pvheap ("make bench-tui-heapmap").
EXTRA_DIST += bench/tui-heapmap
bench: bench-tui-heapmap
bench-tui-heapmap: tests/tui/heapmap-demo$(EXEEXT) profview$(EXEEXT) \
    capture/pvheap/pvheap$(EXEEXT) bench/heap-prog$(EXEEXT)
	top_builddir=. $(SHELL) $(srcdir)/bench/tui-heapmap
.PHONY: bench-tui-heapmap
