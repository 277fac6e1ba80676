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
