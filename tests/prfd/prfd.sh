# Helpers for the Dos32Profile tests (tests/prfd/*.sh), sourced.  Each
# test has a runtime folder of its own, so its pvprfd is its own (started
# on demand by the first call, as for a user) and is ended at the end by
# the pid in its lock file (those in $W/run*/, so a test's second).
: "${top_builddir:=.}" "${top_srcdir:=.}"
top_builddir=$(cd "$top_builddir" && pwd)
PVPRF=$top_builddir/capture/pvprf/pvprf
PVPRFD=$top_builddir/capture/pvprf/pvprfd
export PVPRFD
W=$(mktemp -d "${TMPDIR:-/tmp}/pvprf-test.XXXXXX")
chmod 700 "$W"
mkdir -m 700 "$W/run"
XDG_RUNTIME_DIR=$W/run
export XDG_RUNTIME_DIR
cleanup() {
	# Its own, and any a test started under another runtime folder.
	for l in "$W"/run*/pvprfd.lock; do
		[ ! -s "$l" ] || kill "$(cat "$l")" 2>/dev/null
	done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
. "$top_srcdir/tests/tap.sh"

# nobody_tree DIR: copies of what the tests run as nobody (pvprf with
# the library its $ORIGIN rpath finds, pvprfd, the workload) in DIR,
# which nobody can reach: the build tree may be under a 0700 home (a
# clone in /root), where nobody could run none of it.  Sets NPVPRF,
# NPVPRFD and NWORK.
nobody_tree() {
	cp "$PVPRF" "$top_builddir/capture/pvprf/libpvprf.so.1" "$PVPRFD" \
	    "$top_builddir/tests/prfd/work" "$1/" &&
	    chmod 755 "$1/pvprf" "$1/pvprfd" "$1/work" &&
	    chmod 644 "$1/libpvprf.so.1"
	NPVPRF=$1/pvprf
	NPVPRFD=$1/pvprfd
	NWORK=$1/work
}
# reachable PATH: whether nobody can reach PATH (every folder on the
# way open to others).
reachable() {
	setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$1"
}

# near A B POINTS: |A - B| <= POINTS (decimals).
near() { awk -v a="$1" -v b="$2" -v p="$3" \
    'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p) }'; }
