# pvheap and its agent libpvheap.so, an LD_PRELOAD library.  The project
# has no libtool, so the library is a "program" linked with -shared,
# installed in $(pkglibdir) where pvheap looks for it (or beside pvheap,
# in the build tree).  Neither gets the sanitizers (configure.ac): the
# agent runs inside other programs.
PVHEAP_AGENT_SRC = capture/pvheap/agent.c capture/pvheap/agent_hooks.c \
	capture/pvheap/agent_blocks.c capture/pvheap/agent_sites.c \
	capture/pvheap/agent_mem.c capture/pvheap/agent_server.c \
	capture/pvheap/snap.c \
	capture/pvheap/snap_stop.c capture/pvheap/snap_maps.c \
	capture/pvheap/snap_index.c capture/pvheap/snap_roots.c \
	capture/pvheap/snap_scan.c capture/pvheap/snap_names.c \
	capture/pvheap/snap_write.c capture/pvheap/snap.h \
	capture/pvheap/elf.c capture/pvheap/agent.h capture/pvheap/heapfmt.h \
	outfile.c outfile.h

agentdir = $(pkglibdir)
agent_PROGRAMS = capture/pvheap/libpvheap.so
capture_pvheap_libpvheap_so_SOURCES = $(PVHEAP_AGENT_SRC)
capture_pvheap_libpvheap_so_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -fPIC \
	-fvisibility=hidden -ftls-model=initial-exec $(UNWIND_CFLAGS)
capture_pvheap_libpvheap_so_LDFLAGS = -shared -Wl,--no-undefined \
	-Wl,-z,now
capture_pvheap_libpvheap_so_LDADD = $(UNWIND_LIBS) -ldl -lpthread

bin_PROGRAMS += capture/pvheap/pvheap
capture_pvheap_pvheap_SOURCES = capture/pvheap/pvheap.c execprog.c \
	execprog.h
capture_pvheap_pvheap_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPVHEAP_LIBDIR='"$(pkglibdir)"'

dist_man_MANS += man/pvheap.1
