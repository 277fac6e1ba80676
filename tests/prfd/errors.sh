#!/bin/sh
# Errors said as they are: a dump to a full disk (/dev/full) is named
# with its cause and exit 1, INIT past the user's locked memory for perf
# buffers is 8 and names the limit, a daemon that died while recording
# is said to have, a daemon folder that is not the user's is named; and a
# setuid-root program linked with libpvprf does not run $PVPRFD.
. "${top_srcdir:-.}/tests/prfd/prfd.sh"
WORK=$top_builddir/tests/prfd/work
CALL=$top_builddir/tests/prfd/call

# A dump larger than stdio's buffer (a slot's 16K detail counters) to a
# full disk: the write fails in the middle, not at the close.
"$WORK" split 0.5 0 >/dev/null 2>&1 &
pid=$!
"$PVPRF" init "$pid" --slots 0x400000:0x10000
"$PVPRF" start "$pid"
wait "$pid"
"$PVPRF" stop "$pid"
"$PVPRF" dump "$pid" -o /dev/full 2>"$W/e"
rc=$?
check "dump to a full disk: exit $rc, $(cat "$W/e")" sh -c \
    "test $rc = 1 && grep -q '^pvprf: /dev/full: No space left on device' \
    '$W/e'"
"$PVPRF" exit "$pid"

# The daemon killed while the program runs: the profile is lost, and
# pvprf says the daemon went away (it said 303, no such process).
"$PVPRF" record -o "$W/died.prfd" -- sh -c \
    'kill -KILL $(cat "$XDG_RUNTIME_DIR/pvprfd.lock")' 2>"$W/e"
rc=$?
sed 's/^/# /' "$W/e"
check "record whose daemon died: exit $rc, the daemon said to have ended" \
    sh -c "test $rc = 1 && grep -q ': 543 ERROR_PRF_NOT_INITIALIZED:.*has ended: the profiles it held are lost' '$W/e' &&
    test ! -e '$W/died.prfd'"

# The daemon's folder open to others, or another user's: named, with why.
mkdir -m 755 "$W/open"
XDG_RUNTIME_DIR=$W/open "$PVPRF" exit 1 2>"$W/e"
check "a folder open to others: named ($(cat "$W/e"))" grep -q \
    ": 328 ERROR_SYS_INTERNAL: $W/open: owned by uid $(id -u), mode 0755" \
    "$W/e"
if [ "$(id -u)" = 0 ]; then
	mkdir -m 700 "$W/theirs"
	chown 65534 "$W/theirs"
	XDG_RUNTIME_DIR=$W/theirs "$PVPRF" exit 1 2>"$W/e"
	check "another user's folder: named ($(cat "$W/e"))" grep -q \
	    ": 328 ERROR_SYS_INTERNAL: $W/theirs: owned by uid 65534" "$W/e"
else
	skip "" "another user's folder: needs root"
fi

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null ||
    ! command -v prlimit >/dev/null; then
	for k in memlock setuid setuid-daemon; do
		skip "" "$k: needs root, setpriv, prlimit"
	done
	finish
fi
U=$(mktemp -d "${TMPDIR:-/tmp}/pvprf-user.XXXXXX")
chmod 755 "$U"
mkdir -m 700 "$U/run" "$U/out"
chown 65534:65534 "$U/run" "$U/out"
nobody_tree "$U"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# Wait until process $1 is nobody's.
wait_nobody() {
	j=0
	while [ "$(stat -c %u "/proc/$1" 2>/dev/null)" != 65534 ] &&
	    [ $j -lt 500 ]; do
		sleep 0.01
		j=$((j + 1))
	done
}

# Nobody's perf buffers past their locked memory (perf_event_mlock_kb a
# CPU, then the daemon's RLIMIT_MEMLOCK, 0 here): INIT is 8 and says
# which limit, not 303.
pids=
i=0
rc=0
while [ $i -lt 12 ] && [ $rc = 0 ]; do
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 30 &
	pids="$pids $!"
	wait_nobody $!
	nobody env XDG_RUNTIME_DIR="$U/run" PVPRFD="$NPVPRFD" prlimit \
	    --memlock=0:0 "$NPVPRF" init $! 2>"$W/e"
	rc=$?
	i=$((i + 1))
done
check "INIT $i past the locked memory: $rc, $(cat "$W/e")" sh -c \
    "test $rc = 3 && grep -q \": 8 ERROR_NOT_ENOUGH_MEMORY: the perf buffers' locked memory is spent: .* (kernel.perf_event_mlock_kb) and pvprfd's RLIMIT_MEMLOCK (0 KiB)\" '$W/e'"
kill $pids
[ -s "$U/run/pvprfd.lock" ] && kill "$(cat "$U/run/pvprfd.lock")"

# A setuid-root program linked with libpvprf, run by nobody with
# $PVPRFD naming nobody's program: not run (it was, as root).  The
# daemon it starts instead is the one beside the library, as nobody, in
# nobody's /tmp/pvprfd-65534 ($XDG_RUNTIME_DIR is not read either).
cp "$CALL" "$U/call"
chmod 4755 "$U/call"
printf '#!/bin/sh -p\nid -u >%s/ran\n' "$U/out" >"$U/evil"
chmod 755 "$U/evil"
made=
[ -e /tmp/pvprfd-65534 ] || made=1
nobody env XDG_RUNTIME_DIR="$U/run" PVPRFD="$U/evil" "$U/call" 5 1 \
    >"$W/o" 2>&1
sed 's/^/# /' "$W/o"
# (The call ran, and returned: a code first on its line; else nothing
# was tried and the check below would hold of nothing.)
setuid_not_run() { grep -q '^[0-9]' "$W/o" && test ! -e "$U/out/ran"; }
check "setuid: \$PVPRFD not run${made:+ }" setuid_not_run
l=/tmp/pvprfd-65534/pvprfd.lock
# The daemon beside the library is the build tree's, which nobody
# cannot run where the tree is in a 0700 home (the setuid program's
# loader, as root, still reads the library there).
if reachable "$PVPRFD"; then
	check "setuid: the daemon started runs as the caller's real user" \
	    sh -c "test -s $l &&
	    test \"\$(stat -c %u /proc/\$(cat $l))\" = 65534"
else
	skip "" "setuid daemon: nobody cannot reach" \
	    "the build tree's pvprfd ($PVPRFD)"
fi
[ -s "$l" ] && kill "$(cat "$l")"
if [ -n "$made" ]; then
	sleep 0.2
	rm -rf /tmp/pvprfd-65534
fi
rm -rf "$U"
finish
