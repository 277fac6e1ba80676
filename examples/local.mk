# Real data for the demo ("sh tools/setup.sh demo" runs examples/demo.sh,
# which ingests every example and opens the sessions list).  "make
# examples" remakes them all; the files shipped are what it made.
EXTRA_DIST += examples/demo.sh
examples: examples-dos examples-ovd examples-c
.PHONY: examples

# Made by PROFIL.COM under DOSBox, remade by "make examples-dos", with
# what annotate needs beside each: the program PROFIL ran (NASM's flat
# binary, byte for byte the build's) and its NASM map and listing.
EXTRA_DIST += examples/W3.PRF examples/W3.COM examples/W3.MAP \
	examples/W3.LST examples/W10.PRF examples/W10.EXE examples/W10.MAP \
	examples/W10.LST examples/SHARE.PRF examples/SHARE.COM \
	examples/SHARE.MAP examples/SHARE.LST examples/dos-examples.sh
examples-dos: $(DOS_BUILT)
	top_srcdir=$(top_srcdir) top_builddir=$(top_builddir) \
	    $(SHELL) $(top_srcdir)/examples/dos-examples.sh
.PHONY: examples-dos

# Simulated overlay logs (the names say so): tests/ovdsim/ovdsim.py runs
# the Turbo Pascal overlay manager's model on a scripted call sequence.
# OVRDEMO: two units taking turns in a buffer that holds one (thrashing);
# TUNING: five units, OvrSetRetry reprieves, the buffer resized twice.
EXTRA_DIST += examples/OVRDEMO-simulated.OVD examples/OVRDEMO-simulated.MAP \
	examples/TUNING-simulated.OVD examples/TUNING-simulated.MAP
examples-ovd:
	cd $(srcdir)/examples && \
	for s in ovrdemo:OVRDEMO tuning:TUNING; do \
		python3 ../tests/ovdsim/ovdsim.py $${s%%:*} $${s#*:}-simulated && \
		rm -f $${s#*:}-simulated.json || exit 1; \
	done
.PHONY: examples-ovd

# wordfreq.c's heap snapshot (pvheap), call profile (pvtrace) and
# Dos32Profile dump (pvprf record), remade by "make examples-c"
# (examples/c-examples.sh), and beside them the program that made them,
# whose symbols and DWARF profview reads at ingest (found beside a
# profile by its name and build-id, wherever the tree is).  The build
# makes the program as examples/build/wordfreq, never over the shipped
# one (its build-id would change with the build's folder, which -g
# records), and examples-c puts it in examples/ before running it.  It is
# built as the traced test programs are, by the compiler alone: never
# with the user's CFLAGS (a sanitizer's runtime must not sit in a
# program the agents go into), with -g for the heap's types and lines,
# and -fno-inline so that each function of the source is one pvtrace
# counts and pvprf names.  Bound at load (-z now), as the heap test
# programs are, so that no lazy binding's frames are left on the stack
# for the snapshot's scan.
EXTRA_DIST += examples/wordfreq.c examples/wordfreq examples/wordfreq.heap \
	examples/wordfreq.mon examples/wordfreq.prfd examples/c-examples.sh
CLEANFILES += examples/build/wordfreq
# The shipped program is the one the shipped profiles saw, so nothing may
# remake it: without this rule make's built-in one (wordfreq from
# wordfreq.c) did, in make dist, whenever a checkout happened to leave the
# source newer, and the demo then warned of a build-id not the profiles'.
examples/wordfreq: ;
EXAMPLES_C_TOOLS = capture/pvheap/pvheap capture/pvheap/libpvheap.so \
	capture/pvtrace/pvtrace capture/pvtrace/libpvtrace.so \
	capture/pvprf/pvprf capture/pvprf/pvprfd capture/pvprf/libpvprf.so.1
examples/build/wordfreq: examples/wordfreq.c
	@$(MKDIR_P) examples/build
	$(AM_V_CC)$(CC) $(WARN_CFLAGS) -O1 -g -fno-inline -Wl,-z,now -o $@ \
	    $(srcdir)/examples/wordfreq.c
examples-c: examples/build/wordfreq $(EXAMPLES_C_TOOLS)
	top_srcdir=$(top_srcdir) top_builddir=$(top_builddir) \
	    $(SHELL) $(top_srcdir)/examples/c-examples.sh
.PHONY: examples-c
