# Dos32Profile (capture/pvprf): the API's return codes, divider, hit table,
# processes and threads through the real library and daemon (api); the
# truth of pvprf record against known CPU shares and perf record on the
# same run (truth.sh, work).  Test programs get no sanitizer: they are
# profiled, and api links the library, which has none.
check_PROGRAMS += tests/prfd/api tests/prfd/work
tests_prfd_api_SOURCES = tests/prfd/api.c capture/pvprf/flg.c
tests_prfd_api_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -O1 -g -pthread
tests_prfd_api_LDFLAGS = -pthread -Wl,-rpath,$(abs_top_builddir)/capture/pvprf
tests_prfd_api_LDADD = capture/pvprf/libpvprf.so.1
tests_prfd_api_DEPENDENCIES = capture/pvprf/libpvprf.so.1
# call: one call, made setuid root by errors.sh (an absolute rpath: the
# loader ignores $$ORIGIN and LD_LIBRARY_PATH in a setuid program).
check_PROGRAMS += tests/prfd/call
tests_prfd_call_SOURCES = tests/prfd/call.c
tests_prfd_call_CFLAGS = $(WARN_CFLAGS) -std=gnu11
tests_prfd_call_LDFLAGS = -Wl,-rpath,$(abs_top_builddir)/capture/pvprf
tests_prfd_call_LDADD = capture/pvprf/libpvprf.so.1
tests_prfd_call_DEPENDENCIES = capture/pvprf/libpvprf.so.1
tests_prfd_work_SOURCES = tests/prfd/work.c
tests_prfd_work_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -O1 -g -fno-inline -fno-pie
tests_prfd_work_LDFLAGS = -no-pie
# modwork: a program and a shared library of its own, both -g, for the
# module truth test (modtruth.sh): pvprf and perf name the library's
# functions by its .symtab.
check_PROGRAMS += tests/prfd/libprfdmod.so tests/prfd/modwork
tests_prfd_libprfdmod_so_SOURCES = tests/prfd/modlib.c tests/prfd/modlib.h
tests_prfd_libprfdmod_so_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -O1 -g -fPIC \
	-fno-inline
tests_prfd_libprfdmod_so_LDFLAGS = -shared -Wl,-soname,libprfdmod.so
tests_prfd_modwork_SOURCES = tests/prfd/modwork.c
tests_prfd_modwork_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -O1 -g -fno-inline
tests_prfd_modwork_LDFLAGS = -Wl,-rpath,$(abs_top_builddir)/tests/prfd
tests_prfd_modwork_LDADD = tests/prfd/libprfdmod.so
tests_prfd_modwork_DEPENDENCIES = tests/prfd/libprfdmod.so

PRFD_TESTS = tests/prfd/api.sh tests/prfd/truth.sh tests/prfd/cli.sh \
	tests/prfd/diff.sh \
	tests/prfd/daemon.sh tests/prfd/errors.sh tests/prfd/dumpout.sh \
	tests/prfd/modtruth.sh tests/prfd/modsyms.sh
TESTS += $(PRFD_TESTS)
EXTRA_DIST += $(PRFD_TESTS) tests/prfd/prfd.sh tests/prfd/prfdfn.py \
	tests/prfd/client.py tests/prfd/modcmp.py
PRFD_TEST_LOGS = $(PRFD_TESTS:=.log)
$(PRFD_TEST_LOGS): capture/pvprf/pvprf$(EXEEXT) capture/pvprf/pvprfd$(EXEEXT) \
	capture/pvprf/libpvprf.so.1 tests/prfd/api$(EXEEXT) \
	tests/prfd/work$(EXEEXT) tests/prfd/call$(EXEEXT) \
	tests/prfd/modwork$(EXEEXT) tests/prfd/libprfdmod.so

# pvprf's reader of dump files, fuzzed (tests/fuzz/run.sh pvprf) and its
# corpus replayed here.
check_PROGRAMS += tests/fuzz/replay_pvprf
TESTS += tests/fuzz/replay_pvprf
tests_fuzz_replay_pvprf_SOURCES = tests/fuzz/fuzz_pvprf.c \
	tests/fuzz/replay.c tests/fuzz/fuzz.h
EXTRA_tests_fuzz_replay_pvprf_SOURCES = capture/pvprf/dumpfile.c
tests_fuzz_replay_pvprf_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"pvprf"'
tests_fuzz_replay_pvprf_LDADD = $(CORE_LIBS)

# annotate-x86.sh (a screen test of the prfd block): hot, profiled by
# pvprf and perf and traced by pvtrace, built -g by the compiler alone (no
# sanitizer runtime in a profiled program), and another build of it.
PRFD_HOT = tests/prfd/hot tests/prfd/hot-rebuilt
EXTRA_DIST += tests/prfd/hot.c
CLEANFILES += $(PRFD_HOT)
tests/prfd/hot: tests/prfd/hot.c
	@$(MKDIR_P) tests/prfd
	$(AM_V_CC)$(CC) -O1 -g -fno-inline -o $@ $(srcdir)/tests/prfd/hot.c
tests/prfd/hot-rebuilt: tests/prfd/hot.c
	@$(MKDIR_P) tests/prfd
	$(AM_V_CC)$(CC) -O1 -g -fno-inline -DHOT_REBUILT -o $@ \
	    $(srcdir)/tests/prfd/hot.c
# (Through a variable: a rule naming the log would replace automake's.)
ANNOTATE_X86_LOG = tests/tui/annotate-x86.sh.log
$(ANNOTATE_X86_LOG): $(PRFD_HOT) capture/pvprf/pvprf$(EXEEXT) \
	capture/pvprf/pvprfd$(EXEEXT) capture/pvprf/libpvprf.so.1 \
	capture/pvtrace/pvtrace$(EXEEXT)
