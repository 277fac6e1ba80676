# Capture tools, one folder per tool (HACKING.md names the system each
# one comes from).
include $(srcdir)/capture/profil/local.mk
include $(srcdir)/capture/pvheap/local.mk
include $(srcdir)/capture/pvtrace/local.mk
include $(srcdir)/capture/pvprf/local.mk
