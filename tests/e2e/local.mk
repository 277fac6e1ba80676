# End-to-end: PROFIL.COM for real under DOSBox (headless).  The scripts
# print "1..0 # SKIP" when dosbox is not installed.
DOS_E2E = tests/e2e/dos-accuracy.sh tests/e2e/dos-exits.sh
TESTS += $(DOS_E2E)
EXTRA_DIST += $(DOS_E2E) tests/e2e/dos.sh tests/e2e/dosbox.conf

# The DOS programs are not built by "make all" (only PROFIL.COM is).
tests/e2e/dos-accuracy.sh.log tests/e2e/dos-exits.sh.log: $(DOS_BUILT) profview$(EXEEXT)
