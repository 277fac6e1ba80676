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
