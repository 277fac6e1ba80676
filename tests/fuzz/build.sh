#!/bin/sh
# Every fuzz harness still compiles and links with clang's libFuzzer
# (tests/fuzz/run.sh build), against the sources libprofview.a is made
# of (FUZZ_CORE, FUZZ_LIBS from the Makefile): "make check" replays the
# corpora with the normal compiler, which never noticed that no harness
# linked any more.  A TAP point per harness.
out=${top_builddir:-.}/tests/fuzz/build
FUZZ_OUT=$(mkdir -p "$out" && cd "$out" && pwd) || exit 1
export FUZZ_OUT
exec sh "${top_srcdir:-.}/tests/fuzz/run.sh" build
