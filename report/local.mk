# report: a per-kind writer (prf.c, ovd.c) builds a document of tables,
# a per-format driver (text, csv, json, html) writes it; a kind with a
# timeline also feeds the timeline drivers (chrome).  query.c writes the
# rows of a statement a user typed.
# Each kind's writer is in its block of kinds.mk.
libprofview_a_SOURCES += report/report.h report/report.c report/query.c \
	report/diff.c \
	report/text.c report/csv.c report/json.c report/html.c report/chrome.c

# pprof's profile.proto (pprof.c): protobuf-c's encoder over C made from
# report/pprof.proto by protoc-c.  The made files are kept in the tree,
# so a build needs only the runtime (libprotobuf-c) and the fuzz
# harnesses, which compile the library's sources from the source tree,
# find them there; "make pprof-proto" makes them again after the .proto
# changes, and tests/unit/pprof-proto.sh fails while they differ.
libprofview_a_SOURCES += report/pprof.c report/pprof.pb-c.c \
	report/pprof.pb-c.h
EXTRA_DIST += report/pprof.proto tests/unit/pprof-proto.sh
TESTS += tests/unit/pprof-proto.sh
pprof-proto:
	cd $(srcdir) && protoc-c --c_out=. report/pprof.proto
.PHONY: pprof-proto
