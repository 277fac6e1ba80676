# Capture tools, one folder per seed method.
include $(srcdir)/capture/profil/local.mk
include $(srcdir)/capture/pvheap/local.mk
include $(srcdir)/capture/pvtrace/local.mk
include $(srcdir)/capture/pvprf/local.mk
