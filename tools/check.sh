#!/bin/sh
# Run every test: the suite in this build, then the whole suite again in a
# sanitizer build (ASan + UBSan, -Werror) from the distribution tarball
# (make distcheck, which also proves the tarball builds, installs and
# uninstalls), and as root the tests that drop privileges once more
# from a copy of the tree in a 0700 folder.  Each run's count has a line
# of its own, "check: RUN: N passed, N failed, N skipped", a run whose
# step failed without a failing test (a compile error, say) counting one
# failure; the last line, which CI reads, is their sum, "N passed, N
# failed".  The exit status is non-zero if anything failed.
#
# PROFVIEW_NO_SANITIZE=1 skips the second run, PROFVIEW_NO_PRIVDROP=1
# the third.  Tests can tell the runs apart by PROFVIEW_CHECK_PASS
# (plain, sanitizer or privdrop): a test whose slow part runs no
# profview code (DOSBox itself) may skip that part in the second.
set -u
cd "$(dirname "$0")/.." || exit 2
if [ ! -f Makefile ]; then
	echo "check: no Makefile: run tools/setup.sh build (or ./configure)" >&2
	exit 2
fi
log=$(mktemp -d "${TMPDIR:-/tmp}/profview-check.XXXXXX") || exit 2
trap 'rm -rf "$log"' EXIT
trap 'exit 1' HUP INT TERM
status=0
runs=

# run RUN CMD...: run RUN's step with its output shown, and logged in
# $log/RUN (its exit status in $log/RUN.rc) to be counted at the end.
run() {
	runs="$runs $1"
	rlog=$log/$1
	shift
	echo "check: $*"
	{ "$@" 2>&1; echo $? >"$rlog.rc"; } | tee "$rlog"
	rc=$(cat "$rlog.rc" 2>/dev/null || echo 1)
	if [ "$rc" != 0 ]; then
		echo "check: failed (exit $rc): $*"
		status=1
	fi
}

# Failing tests print their logs (automake's harness reads VERBOSE).
VERBOSE=1
PROFVIEW_CHECK_PASS=plain
export VERBOSE PROFVIEW_CHECK_PASS
run plain make -j2 check

if [ -z "${PROFVIEW_NO_SANITIZE:-}" ]; then
	# A finding fails the test that made it, with a stack; library leaks
	# we cannot fix go in tools/lsan.supp, each with its reason.
	ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
	LSAN_OPTIONS=suppressions=$(pwd)/tools/lsan.supp:print_suppressions=0
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	# Check's per-test timeout guards against hangs, and the sanitizers
	# make code several times slower: scale it, do not race it.
	CK_TIMEOUT_MULTIPLIER=10
	PROFVIEW_CHECK_PASS=sanitizer
	export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS PROFVIEW_CHECK_PASS \
	    CK_TIMEOUT_MULTIPLIER
	run sanitizer make -j2 distcheck \
	    DISTCHECK_CONFIGURE_FLAGS="--enable-sanitizers --enable-werror"
fi

# The tests that run programs as nobody (setpriv), again from a copy of
# the tree in a 0700 folder, as a clone in /root is: they must run
# copies nobody can reach, not the build tree's programs.  Root only (no
# one else can become nobody); PROFVIEW_NO_PRIVDROP=1 skips it.
if [ "$(id -u)" = 0 ] && [ -z "${PROFVIEW_NO_PRIVDROP:-}" ] &&
    command -v setpriv >/dev/null 2>&1; then
	home=$(mktemp -d "${TMPDIR:-/tmp}/profview-home.XXXXXX")
	chmod 700 "$home"
	PROFVIEW_CHECK_PASS=privdrop
	export PROFVIEW_CHECK_PASS
	# Only what those tests need is built (check_PROGRAMS overridden).
	run privdrop sh -c 'make dist >/dev/null && tar -C "$1" -xzf \
	    "$(ls -t profview-*.tar.gz | head -1)" && rm -f profview-*.tar.gz &&
	    cd "$1"/profview-* && ./configure -q --enable-werror >/dev/null &&
	    make -j2 >/dev/null && make -j2 check \
	    check_PROGRAMS="tests/prfd/work tests/prfd/call" \
	    TESTS="tests/prfd/cli.sh tests/prfd/errors.sh tests/unit/robust.sh"' \
	    sh "$home"
	rm -rf "$home"
fi

# sum WHAT LOG: automake's count of WHAT (PASS, SKIP, ...) in a run's
# LOG.  Its harness prints "# PASS:  N" etc. under "Testsuite summary"
# once per "make check" (VERBOSE repeats them from test-suite.log: not
# counted); SKIP counts each "# SKIP" point and each script skipped
# whole ("1..0 # SKIP").
sum() {
	awk -v k="$1:" '/^Testsuite summary for/ { on = 1; next }
	    on && $1 == "#" && $2 == k { n += $3 }
	    on && $1 == "#" && $2 == "ERROR:" { on = 0 }
	    END { print n + 0 }' "$2"
}
# The failing points again, by name, just above the counts: CI keeps
# only the tail of this output, and a count alone does not say which
# test to look at.  First each failing point with what it printed (from
# the logs VERBOSE printed): the TAP comments just before its "not ok"
# (a check's command runs first) and the lines after it (a screen
# test's screen), a few each, so that a failure seen once in CI says
# why.
for r in $runs; do
	awk -v r="$r" 'function out(s) { print "check: " r ": " s }
	    /^not ok [0-9]/ { out($0); for (i = 1; i <= nb; i++)
	    out("  " b[i]); nb = 0; on = 1; k = 0; next }
	    /^(ok [0-9]|=+$|(PASS|FAIL|ERROR|SKIP|XFAIL|XPASS): )/ {
	    on = 0; nb = 0; next }
	    on { if (k++ < 15) out("  " $0); next }
	    /^#/ && nb < 8 { b[++nb] = $0 }' "$log/$r"
done
for r in $runs; do
	grep -E '^(FAIL|ERROR|XPASS): ' "$log/$r" | sort -u |
	    sed "s/^/check: $r: /"
done
pass=0
fail=0
for r in $runs; do
	p=$(sum PASS "$log/$r")
	f=$(( $(sum FAIL "$log/$r") + $(sum ERROR "$log/$r") + \
	    $(sum XPASS "$log/$r") ))
	[ "$(cat "$log/$r.rc" 2>/dev/null)" = 0 ] || [ "$f" -ne 0 ] || f=1
	echo "check: $r: $p passed, $f failed, $(sum SKIP "$log/$r") skipped"
	pass=$((pass + p))
	fail=$((fail + f))
done
[ "$pass" -gt 0 ] || status=1
[ "$fail" -eq 0 ] || status=1
[ "$status" -eq 0 ] || [ "$fail" -ne 0 ] || fail=1
echo "$pass passed, $fail failed"
exit $status
