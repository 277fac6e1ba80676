# tests/unit tests: reports
check_PROGRAMS += tests/unit/check_report
tests_unit_check_report_SOURCES = tests/unit/check_report.c
tests_unit_check_report_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_report_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_report

# profview sql and export end to end.
TESTS += tests/unit/report_cli.sh
EXTRA_DIST += tests/unit/report_cli.sh

# The command line against hostile input and a hostile world: maps that
# name units or not, options on a stored file, locks, read-only and
# corrupt stores, FIFOs, a full disk, names that drive a terminal, SIGINT.
TESTS += tests/unit/robust.sh
EXTRA_DIST += tests/unit/robust.sh

# Every tool's --help, --version, bad option and mistyped command.
TESTS += tests/unit/cli_help.sh
EXTRA_DIST += tests/unit/cli_help.sh

# The manual pages lint clean and list every option and command.
TESTS += tests/unit/man_lint.sh
EXTRA_DIST += tests/unit/man_lint.sh

# The kinds in profview.1 and --help come from kind_table.
check_PROGRAMS += tests/unit/kindtable
tests_unit_kindtable_SOURCES = tests/unit/kindtable.c
tests_unit_kindtable_LDADD = $(CORE_LIBS)
TESTS += tests/unit/kinds.sh
EXTRA_DIST += tests/unit/kinds.sh
# Only its own files, kind.c, tui/kinds.c, kinds.mk and the man pages
# name a kind (HACKING.md, "Adding a session kind").
TESTS += tests/unit/kindfiles.py
EXTRA_DIST += tests/unit/kindfiles.py

# main's kind options and question verbs come from kind_table.
TESTS += tests/unit/kind_hooks.sh
EXTRA_DIST += tests/unit/kind_hooks.sh

# After adding a kind or a format: rewrite profview.1's list of kinds.
update-man-kinds: tests/unit/kindtable$(EXEEXT)
	tests/unit/kindtable > $(srcdir)/man/kinds.tmp
	sed -e '/^\.\\" BEGIN KINDS/,/^\.\\" END KINDS/{/^\.\\" END KINDS/r $(srcdir)/man/kinds.tmp' -e 'd;}' \
	    $(srcdir)/man/profview.1 > $(srcdir)/man/profview.1.new
	mv $(srcdir)/man/profview.1.new $(srcdir)/man/profview.1
	rm -f $(srcdir)/man/kinds.tmp
.PHONY: update-man-kinds

# The README's and profview(1)'s examples run as written.
TESTS += tests/unit/docs_examples.sh tests/unit/setup_install.sh
EXTRA_DIST += tests/unit/docs_examples.sh tests/unit/setup_install.sh

# profview diff's numbers against two sessions' reports (the kinds' diff
# tests use it).
EXTRA_DIST += tests/unit/diffcheck.py

# The comparison (analyze/diff.c) against brute force.
check_PROGRAMS += tests/unit/check_diff
tests_unit_check_diff_SOURCES = tests/unit/check_diff.c
tests_unit_check_diff_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_diff_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_diff
