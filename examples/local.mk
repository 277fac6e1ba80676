# Real data for the demo ("sh tools/setup.sh demo" opens examples/*.PRF
# and examples/*.OVD):
# made by PROFIL.COM under DOSBox, remade by "make examples-dos".
EXTRA_DIST += examples/W3.PRF examples/W3.MAP examples/W10.PRF \
	examples/W10.MAP examples/SHARE.PRF examples/SHARE.MAP \
	examples/dos-examples.sh
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
