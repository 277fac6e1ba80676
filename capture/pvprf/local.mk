# Dos32Profile on Linux (capture/pvprf): libpvprf.so.1, the API of pvprf.h,
# asks pvprfd, the per-user daemon that samples with perf_event_open; pvprf
# is the command (init/start/stop/clear/dump/exit, record, print).  The
# project has no libtool, so the library is a "program" linked with
# -shared and a soname, and libpvprf.so is a link made at install (with
# the data: automake installs a program of a made-up folder there).  It
# runs inside other programs: never built with the sanitizers.
PVPRF_LIB_SRC = capture/pvprf/lib.c capture/pvprf/proto.c capture/pvprf/pvprf.h \
	capture/pvprf/prfd.h
pvprflibdir = $(libdir)
pvprflib_PROGRAMS = capture/pvprf/libpvprf.so.1
capture_pvprf_libpvprf_so_1_SOURCES = $(PVPRF_LIB_SRC)
capture_pvprf_libpvprf_so_1_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPVPRF_BINDIR='"$(bindir)"'
capture_pvprf_libpvprf_so_1_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -fPIC \
	-fvisibility=hidden
capture_pvprf_libpvprf_so_1_LDFLAGS = -shared -Wl,--no-undefined \
	-Wl,-soname,libpvprf.so.1
include_HEADERS = capture/pvprf/pvprf.h

install-data-hook: install-pvprf-link
install-pvprf-link:
	cd $(DESTDIR)$(libdir) && rm -f libpvprf.so && \
	    $(LN_S) libpvprf.so.1 libpvprf.so
uninstall-hook: uninstall-pvprf-link
uninstall-pvprf-link:
	rm -f $(DESTDIR)$(libdir)/libpvprf.so
.PHONY: install-pvprf-link uninstall-pvprf-link

bin_PROGRAMS += capture/pvprf/pvprfd capture/pvprf/pvprf
capture_pvprf_pvprfd_SOURCES = capture/pvprf/pvprfd.c capture/pvprf/profile.c \
	capture/pvprf/proto.c capture/pvprf/flg.c capture/pvprf/pvprfd.h \
	capture/pvprf/prfd.h capture/pvprf/pvprf.h xmalloc.c xmalloc.h
capture_pvprf_pvprfd_CPPFLAGS = $(AM_CPPFLAGS) $(LIBELF_CFLAGS)
capture_pvprf_pvprfd_LDADD = $(LIBELF_LIBS)
# pvprf calls the API the way a program would: through the library.
capture_pvprf_pvprf_SOURCES = capture/pvprf/pvprf.c capture/pvprf/dumpfile.c \
	capture/pvprf/prfd.h capture/pvprf/pvprf.h capture/pvprf/pvprfc.h \
	xmalloc.c xmalloc.h vis.c vis.h outfile.c outfile.h suggest.c \
	suggest.h
capture_pvprf_pvprf_CPPFLAGS = $(AM_CPPFLAGS) $(LIBELF_CFLAGS)
capture_pvprf_pvprf_LDADD = capture/pvprf/libpvprf.so.1 $(LIBELF_LIBS)
capture_pvprf_pvprf_LDFLAGS = $(AM_LDFLAGS) -Wl,-rpath,'$$ORIGIN' \
	-Wl,-rpath,$(libdir)
capture_pvprf_pvprf_DEPENDENCIES = capture/pvprf/libpvprf.so.1

dist_man_MANS += man/pvprf.1 man/pvprfd.1 man/pvprf.3
