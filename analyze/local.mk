# The analyses several kinds share (symbols, the histogram prf and prfd
# draw, annotate); each kind's model is in its block of kinds.mk.
libprofview_a_SOURCES += analyze/analyze.h analyze/hist.c analyze/annotate.c
