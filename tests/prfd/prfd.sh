# Helpers for the Dos32Profile tests (tests/prfd/*.sh), sourced.  Each
# test has a runtime folder of its own, so its pvprfd is its own (started
# on demand by the first call, as for a user) and is ended at the end by
# the pid in its lock file.
: "${top_builddir:=.}" "${top_srcdir:=.}"
top_builddir=$(cd "$top_builddir" && pwd)
PVPRF=$top_builddir/capture/os2/pvprf
PVPRFD=$top_builddir/capture/os2/pvprfd
export PVPRFD
W=$(mktemp -d "${TMPDIR:-/tmp}/pvprf-test.XXXXXX")
chmod 700 "$W"
mkdir -m 700 "$W/run"
XDG_RUNTIME_DIR=$W/run
export XDG_RUNTIME_DIR
cleanup() {
	if [ -s "$W/run/pvprfd.lock" ]; then
		kill "$(cat "$W/run/pvprfd.lock")" 2>/dev/null
	fi
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
n=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() {
	d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
finish() { echo "1..$n"; exit 0; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }

# near A B POINTS: |A - B| <= POINTS (decimals).
near() { awk -v a="$1" -v b="$2" -v p="$3" \
    'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p) }'; }
