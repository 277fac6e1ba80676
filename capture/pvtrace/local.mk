# pvtrace (capture/pvtrace): the p1/p2 trap profiler for x86-64 ELF
# programs.  The command plans (capstone decodes each function's entry,
# libelf reads the symbols) and runs; the agent it preloads patches the
# program in memory.
bin_PROGRAMS += capture/pvtrace/pvtrace
capture_pvtrace_pvtrace_SOURCES = capture/pvtrace/pvtrace.c \
	capture/pvtrace/plan.c capture/pvtrace/pdt.c capture/pvtrace/mon.c \
	capture/pvtrace/name.c capture/pvtrace/pvtrace.h outfile.c outfile.h \
	suggest.c suggest.h monname.c monname.h execprog.c execprog.h
capture_pvtrace_pvtrace_CPPFLAGS = $(AM_CPPFLAGS) $(LIBELF_CFLAGS) \
	-DPVT_PKGLIBDIR='"$(pkglibdir)"'
capture_pvtrace_pvtrace_LDADD = $(LIBELF_LIBS) $(CAPSTONE_LIBS) -lm
dist_man_MANS += man/pvtrace.1

# The agent, libpvtrace.so, is built by hand rather than by automake's
# rules: it goes into every traced program, so it must never carry the
# user's CFLAGS (a sanitizer build would preload ASan into the program).
# rt.c is the fast path between the stubs and it must not touch a
# vector register: -mgeneral-regs-only.
PVT_AGENT_SRC = capture/pvtrace/agent.c capture/pvtrace/agent_patch.c \
	capture/pvtrace/agent_cal.c capture/pvtrace/agent_libc.c \
	capture/pvtrace/agent_samp.c capture/pvtrace/rt.c capture/pvtrace/stubs.S \
	capture/pvtrace/pvtrace.h \
	capture/pvtrace/agent.h
PVT_AGENT_OBJ = capture/pvtrace/agent.pic.o capture/pvtrace/agent_patch.pic.o \
	capture/pvtrace/agent_cal.pic.o capture/pvtrace/agent_libc.pic.o \
	capture/pvtrace/agent_samp.pic.o capture/pvtrace/rt.pic.o \
	capture/pvtrace/stubs.pic.o
PVT_AGENT_CC = $(CC) $(WARN_CFLAGS) -std=gnu11 -O2 -g -fPIC \
	-fvisibility=hidden -D_GNU_SOURCE -I$(top_srcdir) -I$(top_builddir)
pvtagentdir = $(pkglibdir)
pvtagent_DATA = capture/pvtrace/libpvtrace.so
EXTRA_DIST += $(PVT_AGENT_SRC)
CLEANFILES += capture/pvtrace/libpvtrace.so $(PVT_AGENT_OBJ)
capture/pvtrace/libpvtrace.so: $(PVT_AGENT_SRC)
	@$(MKDIR_P) capture/pvtrace
	$(AM_V_CC)$(PVT_AGENT_CC) -mgeneral-regs-only -fno-stack-protector \
	    -c -o capture/pvtrace/rt.pic.o $(srcdir)/capture/pvtrace/rt.c
	$(AM_V_CC)$(PVT_AGENT_CC) -c -o capture/pvtrace/agent.pic.o \
	    $(srcdir)/capture/pvtrace/agent.c
	$(AM_V_CC)$(PVT_AGENT_CC) -c -o capture/pvtrace/agent_patch.pic.o \
	    $(srcdir)/capture/pvtrace/agent_patch.c
	$(AM_V_CC)$(PVT_AGENT_CC) -c -o capture/pvtrace/agent_cal.pic.o \
	    $(srcdir)/capture/pvtrace/agent_cal.c
	$(AM_V_CC)$(PVT_AGENT_CC) -c -o capture/pvtrace/agent_libc.pic.o \
	    $(srcdir)/capture/pvtrace/agent_libc.c
	$(AM_V_CC)$(PVT_AGENT_CC) -c -o capture/pvtrace/agent_samp.pic.o \
	    $(srcdir)/capture/pvtrace/agent_samp.c
	$(AM_V_CC)$(PVT_AGENT_CC) -c -o capture/pvtrace/stubs.pic.o \
	    $(srcdir)/capture/pvtrace/stubs.S
	$(AM_V_CCLD)$(CC) -shared -Wl,-z,defs -o $@ $(PVT_AGENT_OBJ)
