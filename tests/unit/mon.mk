# The mon reader (pvtrace profiles), its tables and its report: Check
# suite on hand-made files.
check_PROGRAMS += tests/unit/check_mon
tests_unit_check_mon_SOURCES = tests/unit/check_mon.c tests/unit/testutil.h
tests_unit_check_mon_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_mon_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_mon

# The .mon name codec pvtrace and the reader share (monname.c).
check_PROGRAMS += tests/unit/check_monname
tests_unit_check_monname_SOURCES = tests/unit/check_monname.c
tests_unit_check_monname_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_monname_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_monname

# The reader's libFuzzer harness: its corpus replayed (tests/fuzz/).
check_PROGRAMS += tests/fuzz/replay_mon
TESTS += tests/fuzz/replay_mon
tests_fuzz_replay_mon_SOURCES = tests/fuzz/fuzz_mon.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h
tests_fuzz_replay_mon_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"mon"'
tests_fuzz_replay_mon_LDADD = $(CORE_LIBS)
