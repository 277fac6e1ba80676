libprofview_a_SOURCES += report/report.h report/report.c report/ovd.c
