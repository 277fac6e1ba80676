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
