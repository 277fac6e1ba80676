libprofview_a_SOURCES += analyze/analyze.h analyze/hist.c analyze/ovd.c \
	analyze/heapgraph.c analyze/mon.c
