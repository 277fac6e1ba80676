# The PROFIL reader and the prf kind's store and report (check_prf).
check_PROGRAMS += tests/unit/check_prf
TESTS += tests/unit/check_prf
tests_unit_check_prf_SOURCES = tests/unit/check_prf.c tests/unit/testutil.h
tests_unit_check_prf_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_prf_LDADD = $(UNIT_LDADD)

# The reader's libFuzzer harness: its corpus replayed (tests/fuzz/).
check_PROGRAMS += tests/fuzz/replay_prf
TESTS += tests/fuzz/replay_prf
tests_fuzz_replay_prf_SOURCES = tests/fuzz/fuzz_prf.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h
tests_fuzz_replay_prf_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"prf"'
tests_fuzz_replay_prf_LDADD = $(CORE_LIBS)
# profview diff of two PROFIL histograms against their reports.
TESTS += tests/unit/diff-prf.sh
EXTRA_DIST += tests/unit/diff-prf.sh
