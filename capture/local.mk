# Capture tools, one folder per seed method.
include $(srcdir)/capture/dos/local.mk
include $(srcdir)/capture/oberon/local.mk
include $(srcdir)/capture/amiga/local.mk
include $(srcdir)/capture/os2/local.mk
