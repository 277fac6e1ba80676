# tests/unit tests: the heap graph's analyses (analyze/heapgraph.c)
check_PROGRAMS += tests/unit/check_heapgraph
tests_unit_check_heapgraph_SOURCES = tests/unit/check_heapgraph.c
tests_unit_check_heapgraph_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_heapgraph_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_heapgraph

# tests/unit: the heap map's model (analyze/heapmap.c) against brute force
check_PROGRAMS += tests/unit/check_heapmap
tests_unit_check_heapmap_SOURCES = tests/unit/check_heapmap.c
tests_unit_check_heapmap_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_heapmap_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_heapmap

# The leak kinds against memcheck's on one heap, built for real and as a
# graph (bench/heap-shape.h, small).
check_PROGRAMS += tests/unit/heapshape tests/unit/heapprog
tests_unit_heapshape_SOURCES = tests/unit/heapshape.c bench/heap-shape.h
tests_unit_heapshape_CFLAGS = $(AM_CFLAGS) -DHS_BLOCKS=20000u
tests_unit_heapshape_LDADD = $(CORE_LIBS)
tests_unit_heapprog_SOURCES = bench/heap-prog.c bench/heap-shape.h
tests_unit_heapprog_CFLAGS = $(AM_CFLAGS) -DHS_BLOCKS=20000u
TESTS += tests/unit/heap-memcheck.sh
EXTRA_DIST += tests/unit/heap-memcheck.sh

# The heap snapshot reader and memcheck's rules: hand-made files.
check_PROGRAMS += tests/unit/check_heap
tests_unit_check_heap_SOURCES = tests/unit/check_heap.c
tests_unit_check_heap_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_heap_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_heap

# Two snapshots compared (analyze/heapdiff.c) against brute force.
check_PROGRAMS += tests/unit/check_heapdiff
tests_unit_check_heapdiff_SOURCES = tests/unit/check_heapdiff.c
tests_unit_check_heapdiff_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_heapdiff_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_heapdiff

# The info tables' numbers (analyze/heapinfo.c) against brute force.
check_PROGRAMS += tests/unit/check_heapinfo
tests_unit_check_heapinfo_SOURCES = tests/unit/check_heapinfo.c
tests_unit_check_heapinfo_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_heapinfo_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_heapinfo

# The reader's libFuzzer harness: its corpus replayed (tests/fuzz/).
check_PROGRAMS += tests/fuzz/replay_heap
TESTS += tests/fuzz/replay_heap
tests_fuzz_replay_heap_SOURCES = tests/fuzz/fuzz_heap.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h
tests_fuzz_replay_heap_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"heap"'
tests_fuzz_replay_heap_LDADD = $(CORE_LIBS)
