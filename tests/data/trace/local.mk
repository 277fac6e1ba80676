# Programs the pvtrace truth tests trace (tests/e2e/trace-*.sh): built
# by "make check" with the compiler alone, never with the user's CFLAGS
# (a sanitizer's runtime must not sit in a traced program).  -O2 makes
# the tail calls and tiny functions the tests need; recurse-nopie is the
# same program as a fixed-address (ET_EXEC) executable.
TRACE_PROGS = tests/data/trace/recurse tests/data/trace/recurse-nopie \
	tests/data/trace/tiny tests/data/trace/jump tests/data/trace/except \
	tests/data/trace/threads tests/data/trace/procs \
	tests/data/trace/signals tests/data/trace/sqlite-driver \
	tests/data/trace/deep tests/data/trace/truth tests/data/trace/quiet \
	tests/data/trace/plt tests/data/trace/plt-noplt tests/data/trace/plt-pg \
	tests/data/trace/libpvtplt.so tests/data/trace/plt-lib \
	tests/data/trace/split tests/data/trace/leafsig \
	tests/data/trace/xz-driver
TRACE_CC = $(CC) -O2 -g
EXTRA_DIST += tests/data/trace/recurse.c tests/data/trace/tiny.c \
	tests/data/trace/jump.c tests/data/trace/except.cc \
	tests/data/trace/threads.c tests/data/trace/procs.c \
	tests/data/trace/signals.c tests/data/trace/sqlite-driver.c \
	tests/data/trace/deep.c tests/data/trace/truth.c \
	tests/data/trace/quiet.c tests/data/trace/plt.c \
	tests/data/trace/libplt.c tests/data/trace/plt-lib.c \
	tests/data/trace/split.c tests/data/trace/leafsig.c \
	tests/data/trace/xz-driver.c
CLEANFILES += $(TRACE_PROGS)

tests/data/trace/recurse: tests/data/trace/recurse.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/recurse.c
tests/data/trace/recurse-nopie: tests/data/trace/recurse.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -fno-pie -no-pie -o $@ \
	    $(srcdir)/tests/data/trace/recurse.c
tests/data/trace/tiny: tests/data/trace/tiny.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/tiny.c
tests/data/trace/jump: tests/data/trace/jump.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/jump.c
tests/data/trace/except: tests/data/trace/except.cc
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(CXX) -O2 -g -o $@ $(srcdir)/tests/data/trace/except.cc
tests/data/trace/threads: tests/data/trace/threads.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -pthread -o $@ \
	    $(srcdir)/tests/data/trace/threads.c
tests/data/trace/procs: tests/data/trace/procs.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/procs.c
tests/data/trace/signals: tests/data/trace/signals.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/signals.c
tests/data/trace/deep: tests/data/trace/deep.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/deep.c
tests/data/trace/split: tests/data/trace/split.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/split.c
tests/data/trace/leafsig: tests/data/trace/leafsig.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/leafsig.c
tests/data/trace/truth: tests/data/trace/truth.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/truth.c
tests/data/trace/quiet: tests/data/trace/quiet.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/quiet.c
# Library calls: through the PLT, through the GOT alone (-fno-plt), and
# a -pg build for uftrace, the oracle of their counts.
PLT_CC = $(TRACE_CC) -fno-builtin -pthread
tests/data/trace/plt: tests/data/trace/plt.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(PLT_CC) -o $@ $(srcdir)/tests/data/trace/plt.c
tests/data/trace/plt-noplt: tests/data/trace/plt.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(PLT_CC) -fno-plt -o $@ $(srcdir)/tests/data/trace/plt.c
tests/data/trace/plt-pg: tests/data/trace/plt.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(PLT_CC) -pg -o $@ $(srcdir)/tests/data/trace/plt.c
# A library traced with --lib whose functions the program calls through
# its PLT; the program finds it beside itself ($$ORIGIN).  No start
# files: the C runtime's code in a library (_init, frame_dummy...) is
# what callgrind does not see (tracecmp.py) and this one needs none.
tests/data/trace/libpvtplt.so: tests/data/trace/libplt.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -fPIC -shared -nostartfiles -o $@ \
	    $(srcdir)/tests/data/trace/libplt.c
tests/data/trace/plt-lib: tests/data/trace/plt-lib.c \
    tests/data/trace/libpvtplt.so
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/plt-lib.c \
	    -Ltests/data/trace -lpvtplt '-Wl,-rpath,$$ORIGIN'
# SQLite's own code, from Debian's static library (libsqlite3-dev).
tests/data/trace/sqlite-driver: tests/data/trace/sqlite-driver.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) $(SQLITE_CFLAGS) -o $@ \
	    $(srcdir)/tests/data/trace/sqlite-driver.c -l:libsqlite3.a -lm \
	    -lpthread -ldl
# xz's, from Debian's static library (liblzma-dev): code that computes,
# beside SQLite's that waits on memory.
tests/data/trace/xz-driver: tests/data/trace/xz-driver.c
	@$(MKDIR_P) tests/data/trace
	$(AM_V_CC)$(TRACE_CC) -o $@ $(srcdir)/tests/data/trace/xz-driver.c \
	    -l:liblzma.a -lpthread
