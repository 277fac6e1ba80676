# The heap snapshot reader and memcheck's rules: hand-made files.
check_PROGRAMS += tests/unit/check_heap
tests_unit_check_heap_SOURCES = tests/unit/check_heap.c
tests_unit_check_heap_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_heap_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_heap
