# End-to-end: PROFIL.COM for real under DOSBox (headless).  The scripts
# print "1..0 # SKIP" when dosbox is not installed.
DOS_E2E = tests/e2e/dos-accuracy.sh tests/e2e/dos-exits.sh \
	tests/e2e/dos-readme.sh \
	tests/e2e/dos-hits.sh
TESTS += $(DOS_E2E)
EXTRA_DIST += $(DOS_E2E) tests/e2e/dos.sh tests/e2e/dosbox.conf \
	tests/e2e/prfhits.py

# The DOS programs are not built by "make all" (only PROFIL.COM is).
# Without NASM there is nothing to build and the scripts skip.
DOS_E2E_DEPS = profview$(EXEEXT)
if HAVE_NASM
DOS_E2E_DEPS += $(DOS_BUILT)
endif
DOS_E2E_LOGS = $(DOS_E2E:=.log)
$(DOS_E2E_LOGS): $(DOS_E2E_DEPS)

# pvtrace's truth tests: each traces programs from tests/data/trace and
# checks them against valgrind's callgrind (skipped without valgrind).
TRACE_E2E = tests/e2e/trace-recurse.sh tests/e2e/trace-tiny.sh \
	tests/e2e/trace-jump.sh tests/e2e/trace-except.sh \
	tests/e2e/trace-threads.sh tests/e2e/trace-procs.sh \
	tests/e2e/trace-signals.sh tests/e2e/trace-sqlite.sh \
	tests/e2e/trace-deep.sh tests/e2e/trace-setuid.sh \
	tests/e2e/trace-output.sh tests/e2e/trace-stripped.sh \
	tests/e2e/trace-truth.sh tests/e2e/trace-plt.sh \
	tests/e2e/trace-top.sh tests/e2e/trace-diff.sh \
	tests/e2e/trace-leaf.sh tests/e2e/trace-pdt.sh
TESTS += $(TRACE_E2E)
EXTRA_DIST += $(TRACE_E2E) tests/e2e/trace.sh tests/e2e/tracecmp.py \
	tests/e2e/tracesamp.py
TRACE_E2E_LOGS = $(TRACE_E2E:=.log)
$(TRACE_E2E_LOGS): capture/pvtrace/pvtrace$(EXEEXT) \
	capture/pvtrace/libpvtrace.so $(TRACE_PROGS)

# The pprof export read by go tool pprof (golang-go; skipped without it),
# one session of each kind, and a pvtrace run of a truth-test program.
PPROF_E2E = tests/e2e/pprof.sh
TESTS += $(PPROF_E2E)
EXTRA_DIST += $(PPROF_E2E) tests/e2e/pprofcmp.py
PPROF_E2E_LOGS = $(PPROF_E2E:=.log)
$(PPROF_E2E_LOGS): profview$(EXEEXT) capture/pvtrace/pvtrace$(EXEEXT) \
	capture/pvtrace/libpvtrace.so tests/data/trace/recurse
