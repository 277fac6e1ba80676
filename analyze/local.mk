libprofview_a_SOURCES += analyze/analyze.h analyze/hist.c analyze/ovd.c \
	analyze/heapgraph.c analyze/heapsnap.c analyze/annotate.c analyze/heap.c \
	analyze/heapmap.c analyze/heapview.c analyze/heapdiff.c \
	analyze/heapinfo.c analyze/mon.c analyze/prfd.c
