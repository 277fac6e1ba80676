#!/bin/sh
# Run every test: the suite in this build, then the whole suite again in a
# sanitizer build from the distribution tarball (make distcheck, which also
# proves the tarball builds, installs and uninstalls).  The last line is
# "N passed, N failed", counting every test point of both runs.
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0

make -j2 check 2>&1 | tee -a "$log" || status=1
if [ "${PROFVIEW_NO_SANITIZE:-}" = "" ]; then
	make -j2 distcheck \
	    DISTCHECK_CONFIGURE_FLAGS="--enable-sanitizers --enable-werror" \
	    2>&1 | tee -a "$log" || status=1
fi

# Automake's harness prints "# PASS:  N" etc. once per run.
sum() { grep -E "^# $1: +[0-9]+" "$log" | awk '{ n += $3 } END { print n + 0 }'; }
pass=$(sum PASS)
fail=$(( $(sum FAIL) + $(sum ERROR) + $(sum XPASS) ))
[ "$pass" -gt 0 ] || status=1
[ "$fail" -eq 0 ] || status=1
echo "$pass passed, $fail failed"
exit $status
