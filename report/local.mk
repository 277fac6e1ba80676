# report: a per-kind writer (prf.c) builds a document of tables, a
# per-format driver (text, csv, json, html) writes it.  ovd.c writes its
# own, including the Chrome trace-event timeline.
libprofview_a_SOURCES += report/report.h report/report.c report/query.c report/prf.c \
	report/text.c report/csv.c report/json.c report/html.c report/ovd.c
