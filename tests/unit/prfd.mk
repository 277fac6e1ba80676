# The prfd reader (Dos32Profile dumps), its tables, model and report:
# Check suite on dumps it writes itself, of both ULONG widths.
check_PROGRAMS += tests/unit/check_prfd
tests_unit_check_prfd_SOURCES = tests/unit/check_prfd.c tests/unit/testutil.h
tests_unit_check_prfd_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_prfd_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_prfd
