# tests/tui: screen tests.  The binary runs in a private tmux server of a
# fixed size; a script sends keys and polls the screen text.  keytable
# prints the man page's KEYS/COMMANDS from the key tables for keys.sh
# (each view's, so it links the browser; it starts no terminal).
check_PROGRAMS += tests/tui/keytable
tests_tui_keytable_SOURCES = tests/tui/keytable.c $(TUI_SOURCES)
tests_tui_keytable_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS) \
	$(TERMKEY_CFLAGS) $(SQLITE_CFLAGS)
tests_tui_keytable_LDADD = $(CORE_LIBS) $(NCURSES_LIBS) $(TERMKEY_LIBS)

# heapmap-demo: the browser on a heap snapshot read from a text file, for
# heapmap.sh and bench/tui-heapmap (test-only).
check_PROGRAMS += tests/tui/heapmap-demo
tests_tui_heapmap_demo_SOURCES = tests/tui/heapmap-demo.c $(TUI_SOURCES)
tests_tui_heapmap_demo_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS) \
	$(TERMKEY_CFLAGS) $(SQLITE_CFLAGS)
tests_tui_heapmap_demo_LDADD = $(CORE_LIBS) $(NCURSES_LIBS) $(TERMKEY_LIBS)

# heaplive-prog: a program whose heap changes on cue, for heaplive.sh
# (built as the heap test programs are: it runs under the agent).
check_PROGRAMS += tests/tui/heaplive-prog
tests_tui_heaplive_prog_SOURCES = tests/tui/heaplive-prog.c
tests_tui_heaplive_prog_CFLAGS = $(HEAPTEST_CFLAGS)
# Linked without DWARF: its lists are all struct node to DWARF, and
# heaplive.sh tells them apart by their allocation sites.
tests_tui_heaplive_prog_LDFLAGS = $(HEAPTEST_LINK) -Wl,--strip-debug

# The core's screen tests; each kind's view's are in its block of kinds.mk.
TUI_TESTS = tests/tui/keys.sh tests/tui/sql.sh tests/tui/sessions.sh \
	tests/tui/diff.sh \
	tests/tui/term.sh tests/tui/help.sh tests/tui/commands.sh \
	tests/tui/colour.sh tests/tui/search.sh tests/tui/escape.sh \
	tests/tui/demo.sh tests/tui/lock.sh
TESTS += $(TUI_TESTS)
# slots.sh profiles tests/data/prfd/work on paper (tests/unit/prfd.mk).
SLOTS_LOG = tests/tui/slots.sh.log
$(SLOTS_LOG): $(PRFD_PROG)
# annotate.sh profiles attr.asm on paper: its image, map and listing.
# (Through a variable: a rule naming the log would replace automake's.)
ANNOTATE_LOG = tests/tui/annotate.sh.log
if HAVE_NASM
$(ANNOTATE_LOG): tests/data/attr.com
endif
EXTRA_DIST += $(TUI_TESTS) tests/tui/lib.sh

# After changing a key or command: rewrite profview.1's generated part.
update-man-keys: tests/tui/keytable$(EXEEXT)
	tests/tui/keytable > $(srcdir)/man/keys.tmp
	sed -e '/^\.\\" BEGIN KEYS/,/^\.\\" END KEYS/{/^\.\\" END KEYS/r $(srcdir)/man/keys.tmp' -e 'd;}' \
	    $(srcdir)/man/profview.1 > $(srcdir)/man/profview.1.new
	mv $(srcdir)/man/profview.1.new $(srcdir)/man/profview.1
	rm -f $(srcdir)/man/keys.tmp
.PHONY: update-man-keys
