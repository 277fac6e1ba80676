# tests/fuzz: libFuzzer harnesses.  "make check" replays each corpus with
# the normal compiler (one TAP point per file); "make fuzz" builds them with
# clang -fsanitize=fuzzer,address,undefined and fuzzes for FUZZ_SECONDS.
FUZZ_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)

# Each kind's reader's harness is in its test fragment (kinds.mk).
check_PROGRAMS += tests/fuzz/replay_map tests/fuzz/replay_ingest \
	tests/fuzz/replay_report tests/fuzz/replay_cell \
	tests/fuzz/replay_listing
TESTS += tests/fuzz/replay_map tests/fuzz/replay_ingest \
	tests/fuzz/replay_report tests/fuzz/replay_cell \
	tests/fuzz/replay_listing

tests_fuzz_replay_map_SOURCES = tests/fuzz/fuzz_map.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h
tests_fuzz_replay_map_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"map"'
tests_fuzz_replay_map_LDADD = $(CORE_LIBS)

# The whole ingest path from files (a data file and its map, found or
# named, load rules, a second ingest), every report writer, and the :sql
# table's cells with the query writers.
FUZZ_FILES = tests/fuzz/files.c tests/fuzz/files.h tests/fuzz/check.c \
	tests/fuzz/check.h
tests_fuzz_replay_ingest_SOURCES = tests/fuzz/fuzz_ingest.c \
	tests/fuzz/replay.c tests/fuzz/fuzz.h $(FUZZ_FILES)
tests_fuzz_replay_ingest_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"ingest"'
tests_fuzz_replay_ingest_LDADD = $(CORE_LIBS)

tests_fuzz_replay_report_SOURCES = tests/fuzz/fuzz_report.c \
	tests/fuzz/replay.c tests/fuzz/fuzz.h $(FUZZ_FILES)
tests_fuzz_replay_report_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"report"'
tests_fuzz_replay_report_LDADD = $(CORE_LIBS)

tests_fuzz_replay_cell_SOURCES = tests/fuzz/fuzz_cell.c \
	tests/fuzz/replay.c tests/fuzz/fuzz.h $(FUZZ_FILES)
tests_fuzz_replay_cell_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"cell"'
tests_fuzz_replay_cell_LDADD = $(CORE_LIBS)

# The program's listing, and the annotation over what it stored.
tests_fuzz_replay_listing_SOURCES = tests/fuzz/fuzz_listing.c \
	tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_listing_CFLAGS = $(FUZZ_CFLAGS) -DFUZZ_CORPUS='"listing"'
tests_fuzz_replay_listing_LDADD = $(CORE_LIBS)

EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/build.sh tests/fuzz/corpus

# The harnesses link the library's own list of sources and libraries, so
# a file added to libprofview.a is in them too; tests/fuzz/build.sh
# builds each in "make check".
FUZZ_ENV = FUZZ_CORE='$(filter %.c,$(libprofview_a_SOURCES))' \
	FUZZ_CPPFLAGS='-D_GNU_SOURCE $(CAPSTONE_CFLAGS) $(LIBDW_CFLAGS) \
	$(LIBELF_CFLAGS) $(SQLITE_CFLAGS) $(PROTOBUF_C_CFLAGS) $(ZLIB_CFLAGS)' \
	FUZZ_LIBS='$(SQLITE_LIBS) $(CAPSTONE_LIBS) $(LIBDW_LIBS) \
	$(LIBELF_LIBS) $(PROTOBUF_C_LIBS) $(ZLIB_LIBS) $(DEMANGLE_LIBS) $(LIBS)'
AM_TESTS_ENVIRONMENT += $(FUZZ_ENV); export FUZZ_CORE FUZZ_CPPFLAGS FUZZ_LIBS;
TESTS += tests/fuzz/build.sh
CLEANFILES += tests/fuzz/build/core/*.o tests/fuzz/build/core.a \
	tests/fuzz/build/fuzz_*

FUZZ_SECONDS = 60
fuzz:
	$(FUZZ_ENV) $(SHELL) $(srcdir)/tests/fuzz/run.sh $(FUZZ_SECONDS)
.PHONY: fuzz
