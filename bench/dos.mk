# bench/dos: PROFIL.COM's overhead under DOSBox, by hand or "make bench";
# never part of make check.
EXTRA_DIST += bench/dos.sh
bench: bench-dos
bench-dos: $(DOS_BUILT) profview$(EXEEXT)
	top_srcdir=$(top_srcdir) top_builddir=$(top_builddir) \
	    $(SHELL) $(top_srcdir)/bench/dos.sh
.PHONY: bench bench-dos
