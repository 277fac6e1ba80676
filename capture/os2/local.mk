# Dos32Profile on Linux (capture/os2): libpvprf.so.1, the API of pvprf.h,
# asks pvprfd, the per-user daemon that samples with perf_event_open; pvprf
# is the command (init/start/stop/clear/dump/exit, record, print).  The
# project has no libtool, so the library is a "program" linked with
# -shared and a soname, and libpvprf.so is a link made at install (with
# the data: automake installs a program of a made-up folder there).  It
# runs inside other programs: never built with the sanitizers.
PVPRF_LIB_SRC = capture/os2/lib.c capture/os2/proto.c capture/os2/pvprf.h \
	capture/os2/prfd.h
pvprflibdir = $(libdir)
pvprflib_PROGRAMS = capture/os2/libpvprf.so.1
capture_os2_libpvprf_so_1_SOURCES = $(PVPRF_LIB_SRC)
capture_os2_libpvprf_so_1_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPVPRF_BINDIR='"$(bindir)"'
capture_os2_libpvprf_so_1_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -fPIC \
	-fvisibility=hidden
capture_os2_libpvprf_so_1_LDFLAGS = -shared -Wl,--no-undefined \
	-Wl,-soname,libpvprf.so.1
include_HEADERS = capture/os2/pvprf.h

install-data-hook: install-pvprf-link
install-pvprf-link:
	cd $(DESTDIR)$(libdir) && rm -f libpvprf.so && \
	    $(LN_S) libpvprf.so.1 libpvprf.so
uninstall-hook: uninstall-pvprf-link
uninstall-pvprf-link:
	rm -f $(DESTDIR)$(libdir)/libpvprf.so
.PHONY: install-pvprf-link uninstall-pvprf-link

bin_PROGRAMS += capture/os2/pvprfd capture/os2/pvprf
capture_os2_pvprfd_SOURCES = capture/os2/pvprfd.c capture/os2/profile.c \
	capture/os2/proto.c capture/os2/flg.c capture/os2/pvprfd.h \
	capture/os2/prfd.h capture/os2/pvprf.h xmalloc.c xmalloc.h
capture_os2_pvprfd_CPPFLAGS = $(AM_CPPFLAGS) $(LIBELF_CFLAGS)
capture_os2_pvprfd_LDADD = $(LIBELF_LIBS)
# pvprf calls the API the way a program would: through the library.
capture_os2_pvprf_SOURCES = capture/os2/pvprf.c capture/os2/dumpfile.c \
	capture/os2/prfd.h capture/os2/pvprf.h capture/os2/pvprfc.h \
	xmalloc.c xmalloc.h vis.c vis.h outfile.c outfile.h suggest.c \
	suggest.h
capture_os2_pvprf_CPPFLAGS = $(AM_CPPFLAGS) $(LIBELF_CFLAGS)
capture_os2_pvprf_LDADD = capture/os2/libpvprf.so.1 $(LIBELF_LIBS)
capture_os2_pvprf_LDFLAGS = $(AM_LDFLAGS) -Wl,-rpath,'$$ORIGIN' \
	-Wl,-rpath,$(libdir)
capture_os2_pvprf_DEPENDENCIES = capture/os2/libpvprf.so.1

dist_man_MANS += man/pvprf.1 man/pvprfd.1 man/pvprf.3
