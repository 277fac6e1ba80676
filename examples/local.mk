# Real data for the demo ("sh tools/setup.sh demo" opens examples/*.PRF):
# made by PROFIL.COM under DOSBox, remade by "make examples-dos".
EXTRA_DIST += examples/W3.PRF examples/W3.MAP examples/W10.PRF \
	examples/W10.MAP examples/dos-examples.sh
examples-dos: $(DOS_BUILT)
	top_srcdir=$(top_srcdir) top_builddir=$(top_builddir) \
	    $(SHELL) $(top_srcdir)/examples/dos-examples.sh
.PHONY: examples-dos
