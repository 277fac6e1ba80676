# tests/unit tests: reports
check_PROGRAMS += tests/unit/check_report
tests_unit_check_report_SOURCES = tests/unit/check_report.c
tests_unit_check_report_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_report_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/check_report

# profview sql and export end to end.
TESTS += tests/unit/report_cli.sh
EXTRA_DIST += tests/unit/report_cli.sh

# The manual pages lint clean and list every option and command.
TESTS += tests/unit/man_lint.sh
EXTRA_DIST += tests/unit/man_lint.sh
