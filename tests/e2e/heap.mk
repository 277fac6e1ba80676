# pvheap end to end: the heap test programs (tests/data/heap) run under
# pvheap and under valgrind memcheck, whose leak summary is the oracle.
check_PROGRAMS += tests/e2e/heapsum
tests_e2e_heapsum_SOURCES = tests/e2e/heapsum.c
tests_e2e_heapsum_LDADD = $(CORE_LIBS)
