# The session kinds' files, a block each: the sources of its reader,
# tables, model, report and view, and its tests.  A new kind adds its
# block here, a line in kind.c's table and one in tui/kinds.c's; every
# other file it needs is its own (HACKING.md, "Adding a session kind";
# tests/unit/kindfiles.sh checks that nothing else names a kind).
# What several kinds share (DOS maps and images, symbols) is in the
# folders' local.mk; a kind that uses another's files says so ("uses:").

# prf: MS-DOS PROFIL bucket files, the histogram and annotate views.
libprofview_a_SOURCES += ingest/prf.h ingest/prf.c ingest/listing.c \
	store/prf.h store/prf.c analyze/hist.h analyze/hist.c analyze/annotate.c \
	analyze/prfdiff.c \
	report/prf.h report/prf.c report/annotate.c
TUI_SOURCES += tui/hist.h tui/hist.c tui/annotate.c
TUI_TESTS += tests/tui/hist.sh tests/tui/annotate.sh
include $(srcdir)/tests/unit/prf.mk

# ovd: Turbo Pascal overlay logs, the timeline.
libprofview_a_SOURCES += ingest/ovd.h ingest/ovd.c store/ovd.h store/ovd.c \
	analyze/ovd.h analyze/ovd.c analyze/ovddiff.c report/ovd.h report/ovd.c
TUI_SOURCES += tui/timeline.h tui/timeline.c tui/units.c
TUI_TESTS += tests/tui/timeline.sh
include $(srcdir)/tests/unit/ovd.mk

# heap: pvheap snapshots, the heap map.
libprofview_a_SOURCES += ingest/heap.h ingest/heap.c ingest/heapdwarf.c \
	ingest/heapsock.c \
	store/heap.h store/heap.c analyze/heap.h analyze/heapgraph.c analyze/heapsnap.c \
	analyze/heap.c analyze/heapmap.c analyze/heapview.c \
	analyze/heapdiff.c analyze/heapinfo.c analyze/heapleaks.c report/heap.h report/heap.c report/heapq.c \
	report/heapexport.c
TUI_SOURCES += tui/heap.h tui/heapmap.c tui/heapdraw.c tui/heapcmd.c \
	tui/heapupdate.c tui/heapinfo.c tui/heapload.c tui/heaplive.c
TUI_TESTS += tests/tui/heapmap.sh tests/tui/heapmarks.sh \
	tests/tui/heapinfo.sh tests/tui/heapleaks.sh tests/tui/heapwalk.sh \
	tests/tui/heaplive.sh tests/tui/heapnames.sh tests/tui/heapseed.sh \
	tests/tui/heaptypes.sh tests/tui/heapdesc.sh \
	tests/tui/heapviews.sh
include $(srcdir)/tests/unit/heap.mk
include $(srcdir)/tests/e2e/heap.mk

# mon: pvtrace call profiles, the calls view; uses: prf (a function's
# code is prf's annotate view of it).  monname.c is the one codec of
# names in .mon files, pvtrace's writer's too.
libprofview_a_SOURCES += monname.h monname.c \
	ingest/mon.h ingest/mon.c store/mon.h store/mon.c \
	analyze/mon.h analyze/mon.c analyze/mondiff.c report/mon.h report/mon.c
TUI_SOURCES += tui/calls.c
TUI_TESTS += tests/tui/calls.sh
include $(srcdir)/tests/unit/mon.mk

# prfd: Dos32Profile dumps, the slots view; uses: prf (a slot's
# histogram and its code are prf's views of it).
libprofview_a_SOURCES += ingest/prfd.h ingest/prfd.c store/prfd.h store/prfd.c \
	analyze/prfd.h analyze/prfd.c analyze/prfddiff.c report/prfd.h report/prfd.c
TUI_SOURCES += tui/slots.c
TUI_TESTS += tests/tui/slots.sh tests/tui/annotate-x86.sh
include $(srcdir)/tests/unit/prfd.mk
include $(srcdir)/tests/prfd/local.mk
