# pvheap and its agent libpvheap.so, an LD_PRELOAD library.  The project
# has no libtool, so the library is a "program" linked with -shared,
# installed in $(pkglibdir) where pvheap looks for it (or beside pvheap,
# in the build tree).  Neither gets the sanitizers (configure.ac): the
# agent runs inside other programs.
PVHEAP_AGENT_SRC = capture/oberon/agent.c capture/oberon/snap.c \
	capture/oberon/elf.c capture/oberon/agent.h capture/oberon/heapfmt.h \
	outfile.c outfile.h

agentdir = $(pkglibdir)
agent_PROGRAMS = capture/oberon/libpvheap.so
capture_oberon_libpvheap_so_SOURCES = $(PVHEAP_AGENT_SRC)
capture_oberon_libpvheap_so_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -fPIC \
	-fvisibility=hidden -ftls-model=initial-exec $(UNWIND_CFLAGS)
capture_oberon_libpvheap_so_LDFLAGS = -shared -Wl,--no-undefined \
	-Wl,-z,now
capture_oberon_libpvheap_so_LDADD = $(UNWIND_LIBS) -ldl -lpthread

bin_PROGRAMS += capture/oberon/pvheap
capture_oberon_pvheap_SOURCES = capture/oberon/pvheap.c
capture_oberon_pvheap_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPVHEAP_LIBDIR='"$(pkglibdir)"'

dist_man_MANS += man/pvheap.1
