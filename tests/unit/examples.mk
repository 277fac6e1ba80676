# The examples (examples/local.mk): every file ingests, every kind is
# there, the DOS programs are the build's, and "make examples-c"'s
# recipe makes files of the three kinds it is for, on the build's
# wordfreq and capture tools.  The demo's screens are tests/tui/demo.sh.
TESTS += tests/unit/examples.sh
EXTRA_DIST += tests/unit/examples.sh
# (Through a variable: a rule naming the log would replace automake's.)
EXAMPLES_LOG = tests/unit/examples.sh.log
EXAMPLES_TEST_DEPS = examples/build/wordfreq $(EXAMPLES_C_TOOLS)
if HAVE_NASM
EXAMPLES_TEST_DEPS += $(DOS_BUILT)
endif
$(EXAMPLES_LOG): $(EXAMPLES_TEST_DEPS)
