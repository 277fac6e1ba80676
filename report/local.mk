# report: a per-kind writer (prf.c, ovd.c) builds a document of tables,
# a per-format driver (text, csv, json, html) writes it; a kind with a
# timeline also feeds the timeline drivers (chrome).  query.c writes the
# rows of a statement a user typed.
# Each kind's writer is in its block of kinds.mk.
libprofview_a_SOURCES += report/report.h report/report.c report/query.c \
	report/diff.c \
	report/text.c report/csv.c report/json.c report/html.c report/chrome.c
