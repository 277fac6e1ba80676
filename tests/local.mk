# Tests.  Every test speaks TAP, so "make check" counts each test point:
# Check suites write TAP to stdout (CK_TAP_LOG_FILE_NAME=-), shell tests
# print it themselves (tests/tap.sh).  tools/check.sh turns each run's counts
# into a line of passed, failed and skipped, and their sum into the
# closing "N passed, N failed" line.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
# CK_DEFAULT_TIMEOUT: Check's per-test timeout guards against a hang,
# and brute-force checks of the analyses take seconds on a loaded machine:
# a guard, not a speed test (tests never time code; bench/ does).
AM_TESTS_ENVIRONMENT = \
	CK_TAP_LOG_FILE_NAME=- CK_VERBOSITY=silent CK_FORK=yes \
	CK_DEFAULT_TIMEOUT=60 \
	top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)' \
	PROFVIEW='$(abs_top_builddir)/profview' PROFVIEW_DB=:memory: \
	TMUX_TMPDIR='$(abs_top_builddir)'; \
	export CK_TAP_LOG_FILE_NAME CK_VERBOSITY CK_FORK CK_DEFAULT_TIMEOUT \
	top_srcdir \
	top_builddir PROFVIEW PROFVIEW_DB TMUX_TMPDIR;

UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(SQLITE_CFLAGS) \
	-DTEST_DATA='"$(abs_top_srcdir)/tests/data"'
UNIT_LDADD = $(CORE_LIBS) $(CHECK_LIBS)

check_PROGRAMS += tests/unit/check_store
tests_unit_check_store_SOURCES = tests/unit/check_store.c
tests_unit_check_store_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_store_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_store
dist_check_DATA += tests/data/store-v1.db tests/data/calls.mon \
	tests/data/calls3.mon

# store/ alone, with a kind of its own: a call from store/ up to the kind
# table, a reader, an analysis or a report does not link here.
check_PROGRAMS += tests/unit/check_store_core
tests_unit_check_store_core_SOURCES = tests/unit/check_store_core.c \
	store/store.h store/store.c store/core.c store/query.c xmalloc.c \
	xmalloc.h
tests_unit_check_store_core_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_store_core_LDADD = $(SQLITE_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/check_store_core tests/unit/store_deps.sh
EXTRA_DIST += tests/unit/store_deps.sh

check_PROGRAMS += tests/unit/check_store_bulk
tests_unit_check_store_bulk_SOURCES = tests/unit/check_store_bulk.c \
	tests/unit/testutil.h
tests_unit_check_store_bulk_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_store_bulk_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_store_bulk

check_PROGRAMS += tests/unit/check_outfile
tests_unit_check_outfile_SOURCES = tests/unit/check_outfile.c outfile.c \
	outfile.h
tests_unit_check_outfile_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_outfile_LDADD = $(CHECK_LIBS)
TESTS += tests/unit/check_outfile

EXTRA_DIST += tools/check.sh tools/slowtui.sh
EXTRA_DIST += tests/tap.sh

# Each area keeps its tests in its own fragment.
include $(srcdir)/tests/unit/ingest.mk
include $(srcdir)/tests/unit/report.mk
include $(srcdir)/tests/unit/examples.mk
include $(srcdir)/tests/unit/helpers.mk
include $(srcdir)/tests/fuzz/local.mk
include $(srcdir)/tests/tui/local.mk
include $(srcdir)/tests/data/trace/local.mk
include $(srcdir)/tests/e2e/local.mk
