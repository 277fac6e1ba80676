# The OVD reader, statistics and reports: Check suite on hand-made files,
# and the simulator's files against its ground truth.
check_PROGRAMS += tests/unit/check_ovd
tests_unit_check_ovd_SOURCES = tests/unit/check_ovd.c tests/unit/testutil.h
tests_unit_check_ovd_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ovd_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_ovd

TESTS += tests/ovdsim/check-ovdsim
EXTRA_DIST += tests/ovdsim/check-ovdsim tests/ovdsim/ovdsim.py \
	tests/ovdsim/check_truth.py

# The reader's libFuzzer harness: its corpus replayed (tests/fuzz/).
check_PROGRAMS += tests/fuzz/replay_ovd
TESTS += tests/fuzz/replay_ovd
tests_fuzz_replay_ovd_SOURCES = tests/fuzz/fuzz_ovd.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h
tests_fuzz_replay_ovd_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"ovd"'
tests_fuzz_replay_ovd_LDADD = $(CORE_LIBS)
# profview diff of two overlay logs against their reports.
TESTS += tests/unit/diff-ovd.sh
EXTRA_DIST += tests/unit/diff-ovd.sh
