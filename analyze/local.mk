# What every kind's model may use (symbols); each kind's model is in its
# block of kinds.mk.
libprofview_a_SOURCES += analyze/analyze.h analyze/diff.h analyze/diff.c
