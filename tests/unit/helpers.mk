# The top-level helpers every folder shares: bsearch.h, hex.h.
check_PROGRAMS += tests/unit/check_helpers
tests_unit_check_helpers_SOURCES = tests/unit/check_helpers.c bsearch.h hex.h
tests_unit_check_helpers_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_helpers_LDADD = $(CHECK_LIBS)
TESTS += tests/unit/check_helpers
