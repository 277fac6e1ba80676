# pvtrace (capture/amiga): the p1/p2 trap profiler for x86-64 ELF
# programs.  The command plans (capstone decodes each function's entry,
# libelf reads the symbols) and runs; the agent it preloads patches the
# program in memory.
bin_PROGRAMS += capture/amiga/pvtrace
capture_amiga_pvtrace_SOURCES = capture/amiga/pvtrace.c \
	capture/amiga/plan.c capture/amiga/pdt.c capture/amiga/mon.c \
	capture/amiga/name.c capture/amiga/pvtrace.h outfile.c outfile.h \
	suggest.c suggest.h
capture_amiga_pvtrace_CPPFLAGS = $(AM_CPPFLAGS) $(LIBELF_CFLAGS) \
	-DPVT_PKGLIBDIR='"$(pkglibdir)"'
capture_amiga_pvtrace_LDADD = $(LIBELF_LIBS) $(CAPSTONE_LIBS) -lm
dist_man_MANS += man/pvtrace.1

# The agent, libpvtrace.so, is built by hand rather than by automake's
# rules: it goes into every traced program, so it must never carry the
# user's CFLAGS (a sanitizer build would preload ASan into the program).
# rt.c is the fast path between the stubs and it must not touch a
# vector register: -mgeneral-regs-only.
PVT_AGENT_SRC = capture/amiga/agent.c capture/amiga/rt.c \
	capture/amiga/stubs.S capture/amiga/pvtrace.h
PVT_AGENT_CC = $(CC) $(WARN_CFLAGS) -std=gnu11 -O2 -g -fPIC \
	-fvisibility=hidden -D_GNU_SOURCE -I$(top_srcdir) -I$(top_builddir)
pvtagentdir = $(pkglibdir)
pvtagent_DATA = capture/amiga/libpvtrace.so
EXTRA_DIST += $(PVT_AGENT_SRC)
CLEANFILES += capture/amiga/libpvtrace.so capture/amiga/agent.pic.o \
	capture/amiga/rt.pic.o capture/amiga/stubs.pic.o
capture/amiga/libpvtrace.so: $(PVT_AGENT_SRC)
	@$(MKDIR_P) capture/amiga
	$(AM_V_CC)$(PVT_AGENT_CC) -mgeneral-regs-only -fno-stack-protector \
	    -c -o capture/amiga/rt.pic.o $(srcdir)/capture/amiga/rt.c
	$(AM_V_CC)$(PVT_AGENT_CC) -c -o capture/amiga/agent.pic.o \
	    $(srcdir)/capture/amiga/agent.c
	$(AM_V_CC)$(PVT_AGENT_CC) -c -o capture/amiga/stubs.pic.o \
	    $(srcdir)/capture/amiga/stubs.S
	$(AM_V_CCLD)$(CC) -shared -Wl,-z,defs -o $@ \
	    capture/amiga/agent.pic.o capture/amiga/rt.pic.o \
	    capture/amiga/stubs.pic.o
