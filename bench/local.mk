# Benchmarks: run by hand ("make bench"), never timed inside make check.
include $(srcdir)/bench/ingest.mk
include $(srcdir)/bench/tui.mk
include $(srcdir)/bench/dos.mk
include $(srcdir)/bench/ovd.mk
