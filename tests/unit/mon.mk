# The mon reader (pvtrace profiles), its tables and its report: Check
# suite on hand-made files.
check_PROGRAMS += tests/unit/check_mon
tests_unit_check_mon_SOURCES = tests/unit/check_mon.c tests/unit/testutil.h
tests_unit_check_mon_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_mon_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_mon
