# tests/fuzz: libFuzzer harnesses.  "make check" replays each corpus with
# the normal compiler (one TAP point per file); "make fuzz" builds them with
# clang -fsanitize=fuzzer,address,undefined and fuzzes for FUZZ_SECONDS.
FUZZ_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)

check_PROGRAMS += tests/fuzz/replay_prf tests/fuzz/replay_map \
	tests/fuzz/replay_ovd tests/fuzz/replay_heap
TESTS += tests/fuzz/replay_prf tests/fuzz/replay_map tests/fuzz/replay_ovd \
	tests/fuzz/replay_heap

tests_fuzz_replay_prf_SOURCES = tests/fuzz/fuzz_prf.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h
tests_fuzz_replay_prf_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"prf"'
tests_fuzz_replay_prf_LDADD = $(CORE_LIBS)

tests_fuzz_replay_map_SOURCES = tests/fuzz/fuzz_map.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h
tests_fuzz_replay_map_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"map"'
tests_fuzz_replay_map_LDADD = $(CORE_LIBS)

tests_fuzz_replay_ovd_SOURCES = tests/fuzz/fuzz_ovd.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h
tests_fuzz_replay_ovd_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"ovd"'
tests_fuzz_replay_ovd_LDADD = $(CORE_LIBS)

tests_fuzz_replay_heap_SOURCES = tests/fuzz/fuzz_heap.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h
tests_fuzz_replay_heap_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"heap"'
tests_fuzz_replay_heap_LDADD = $(CORE_LIBS)

EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/corpus

FUZZ_SECONDS = 60
fuzz:
	$(SHELL) $(srcdir)/tests/fuzz/run.sh $(FUZZ_SECONDS)
.PHONY: fuzz
