# bench/tui: first frame and per-key redraw times of the real binary under
# tmux (see the script).  Run "make bench-tui" or bench/tui by hand; never
# part of make check.
EXTRA_DIST += bench/tui
bench: bench-tui
bench-tui: profview
	top_srcdir='$(top_srcdir)' PROFVIEW='$(abs_top_builddir)/profview' \
	    $(SHELL) $(srcdir)/bench/tui
.PHONY: bench-tui
# bench/tui-ovd: per-key redraw of the OVD timeline on a 5M-event session
# (BENCH_OVD_EVENTS to change; generated and ingested once, kept in
# bench/ovd-data).
EXTRA_DIST += bench/tui-ovd
bench-tui-ovd: profview
	top_builddir=. PROFVIEW='$(abs_top_builddir)/profview' \
	    $(SHELL) $(srcdir)/bench/tui-ovd $(BENCH_OVD_EVENTS)
.PHONY: bench-tui-ovd
# bench/prf-open: the first frame of a 65535-bucket PRF (budget 50 ms),
# beside the sqlite3 shell reading its rows; PROFVIEW_OLD=another build
# adds its figure.
EXTRA_DIST += bench/prf-open
bench: bench-prf-open
bench-prf-open: profview
	PROFVIEW='$(abs_top_builddir)/profview' $(SHELL) $(srcdir)/bench/prf-open
.PHONY: bench-prf-open
# bench/tui-annotate: opening the annotate view on a 64 KiB symbol with
# 8000 hit-table entries (BENCH_ANNOTATE_OPENS times), and its keys.
EXTRA_DIST += bench/tui-annotate
bench: bench-tui-annotate
bench-tui-annotate: profview
	PROFVIEW='$(abs_top_builddir)/profview' \
	    $(SHELL) $(srcdir)/bench/tui-annotate
.PHONY: bench-tui-annotate
# bench/heaplive: one update of the live heap map on a program with 1M
# live blocks, split into its parts, beside gcore of the same process
# (BENCH_HEAPLIVE_BLOCKS to change).
EXTRA_DIST += bench/heaplive
bench-heaplive: profview capture/pvheap/pvheap tests/tui/heaplive-prog
	top_builddir=. PROFVIEW='$(abs_top_builddir)/profview' \
	    $(SHELL) $(srcdir)/bench/heaplive
.PHONY: bench-heaplive
