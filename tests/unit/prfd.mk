# The prfd reader (Dos32Profile dumps), its tables, model and report:
# Check suite on dumps it writes itself, of both ULONG widths.
check_PROGRAMS += tests/unit/check_prfd
tests_unit_check_prfd_SOURCES = tests/unit/check_prfd.c tests/unit/testutil.h
tests_unit_check_prfd_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_prfd_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_prfd

# prfd-symbols.sh: dumps gen.py writes of work, a program built -g by the
# compiler alone (no sanitizer runtime, so nm sees only its functions);
# nm is the oracle of the names.
PRFD_PROG = tests/data/prfd/work
TESTS += tests/unit/prfd-symbols.sh
EXTRA_DIST += tests/unit/prfd-symbols.sh tests/data/prfd/work.c \
	tests/data/prfd/gen.py
CLEANFILES += $(PRFD_PROG)
# (Through a variable: a rule naming the log would replace automake's.)
PRFD_SYMBOLS_LOG = tests/unit/prfd-symbols.sh.log
$(PRFD_SYMBOLS_LOG): $(PRFD_PROG)
$(PRFD_PROG): tests/data/prfd/work.c
	@$(MKDIR_P) tests/data/prfd
	$(AM_V_CC)$(CC) -O1 -g -o $@ $(srcdir)/tests/data/prfd/work.c

# The reader's libFuzzer harness: its corpus replayed (tests/fuzz/).
check_PROGRAMS += tests/fuzz/replay_prfd
TESTS += tests/fuzz/replay_prfd
tests_fuzz_replay_prfd_SOURCES = tests/fuzz/fuzz_prfd.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h
tests_fuzz_replay_prfd_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"prfd"'
tests_fuzz_replay_prfd_LDADD = $(CORE_LIBS)
