# The OVD reader, statistics and reports: Check suite on hand-made files,
# and the simulator's files against its ground truth.
check_PROGRAMS += tests/unit/check_ovd
tests_unit_check_ovd_SOURCES = tests/unit/check_ovd.c
tests_unit_check_ovd_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ovd_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_ovd

TESTS += tests/ovdsim/check-ovdsim
EXTRA_DIST += tests/ovdsim/check-ovdsim tests/ovdsim/ovdsim.py \
	tests/ovdsim/check_truth.py

# The fuzz harness and its seed corpus (built and replayed by
# tests/fuzz/local.mk).
EXTRA_DIST += tests/fuzz/fuzz_ovd.c \
	tests/fuzz/corpus/ovd/cut-in-event.OVD \
	tests/fuzz/corpus/ovd/empty.OVD \
	tests/fuzz/corpus/ovd/midnight.OVD \
	tests/fuzz/corpus/ovd/ovrdemo.OVD \
	tests/fuzz/corpus/ovd/reprieves.OVD \
	tests/fuzz/corpus/ovd/setbuf.OVD \
	tests/fuzz/corpus/ovd/version2.OVD \
	tests/fuzz/corpus/ovd/wrap.OVD
