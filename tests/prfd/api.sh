#!/bin/sh
# Dos32Profile's API through libpvprf and a pvprfd of the test's own.
. "${top_srcdir:-.}/tests/prfd/prfd.sh"
"$top_builddir/tests/prfd/api"
