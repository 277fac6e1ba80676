#!/bin/sh
# PROFIL.COM's hit table under DOSBox: the HITS section after the PV32
# counts (profview-formats(5)), read by tests/e2e/prfhits.py.  On W3.COM,
# W10.EXE (in 3-paragraph buckets) and SHARE.COM (a hot loop, a
# once-run routine and a data label in one 16-byte bucket) with the
# default table: the section is well-formed, the entries and the missed
# samples add up to the buckets exactly (bucket by bucket, none missed),
# every entry is an instruction start of the NASM listing, and the
# hottest entries are the loops' instructions.  /H:2 fills up and says
# so without losing a sample, /H:8192 takes a whole segment, /H:0 writes
# no section.  No profview code runs here: the sanitizer pass skips it.
. "${top_srcdir:-.}/tests/e2e/dos.sh"

if [ "${PROFVIEW_CHECK_PASS:-}" = sanitizer ]; then
	echo "1..0 # SKIP DOSBox only, run in the plain pass"
	exit 0
fi
dos_setup hits
dos_copy capture/profil/PROFIL.COM capture/profil/work/W3.COM \
    capture/profil/work/W3.LST capture/profil/work/W10.EXE \
    capture/profil/work/W10.LST capture/profil/work/SHARE.COM \
    capture/profil/work/SHARE.LST
echo "1..30"
dos_run 150 "PROFIL /B:1 /C:200 W3.COM > W3.LOG" \
    "PROFIL /B:3 /C:200 W10.EXE > W10.LOG" \
    "PROFIL /H:2 /B:1 /C:100 SHARE.COM > S2.LOG" "REN SHARE.PRF S2.PRF" \
    "PROFIL /B:1 /H:0 /C:100 SHARE.COM > S0.LOG" "REN SHARE.PRF S0.PRF" \
    "PROFIL /B:1 /C:100 /H:8192 SHARE.COM > S8.LOG" "REN SHARE.PRF S8.PRF" \
    "PROFIL /B:1 /C:100 SHARE.COM > SHARE.LOG"

# workload NAME LOOPS: LOOPS, a pattern for the listing lines of its loops.
workload()
{
	f=$DOSDIR/$1.PRF
	check "$1: PROFIL reports a normal end" \
	    grep -q 'Program terminated normally (code 0)' "$DOSDIR/$1.LOG"
	pycheck "$1: HITS well-formed, the invariant holds" check "$f"
	py field "$f" capacity,flags,missed
	check "$1: the default table, nothing missed (capacity, flags, missed \
$msg)" test "$msg" = 4096,0,0
	pycheck "$1: bucket by bucket" buckets "$f"
	pycheck "$1: instruction starts" starts "$f" "$DOSDIR/$1.LST"
	pycheck "$1: the loops are the hottest" hot "$f" "$DOSDIR/$1.LST" "$2"
}

workload W3 'times %3 nop|loop \$ - %3'
workload W10 'times %3 nop|loop \$ - %3'
workload SHARE '; hot'
check "SHARE: the summary names the table" \
    grep -q 'Hit table: [1-9][0-9]* of 4096 entries, 0 missed' \
    "$DOSDIR/SHARE.LOG"

# /H:2: three hot instructions, room for two.
f=$DOSDIR/S2.PRF
pycheck "/H:2: HITS well-formed, the invariant holds" check "$f"
py field "$f" capacity,count
check "/H:2: both entries used (capacity, count $msg)" test "$msg" = 2,2
py field "$f" flags,missed
check "/H:2: full, samples missed (flags, missed $msg)" \
    test "${msg%,*}" = 1 -a "${msg#*,}" -gt 0
pycheck "/H:2: instruction starts" starts "$f" "$DOSDIR/SHARE.LST"
check "/H:2: the summary says the table was full" \
    grep -q 'Hit table: 2 of 2 entries, [1-9][0-9]* missed (full)' \
    "$DOSDIR/S2.LOG"

# /H:8192: the most one segment holds.
f=$DOSDIR/S8.PRF
pycheck "/H:8192: HITS well-formed, the invariant holds" check "$f"
py field "$f" capacity
check "/H:8192: capacity $msg" test "$msg" = 8192
pycheck "/H:8192: instruction starts" starts "$f" "$DOSDIR/SHARE.LST"

# /H:0: the file PROFIL wrote before the table, nothing after the counts.
f=$DOSDIR/S0.PRF
check "/H:0: PROFIL reports a normal end" \
    grep -q 'Program terminated normally (code 0)' "$DOSDIR/S0.LOG"
pycheck "/H:0: no HITS section" none "$f"
check "/H:0: no word of the table in the summary" \
    sh -c "! grep -qi 'table' '$DOSDIR/S0.LOG'"
[ "$dos_status" = 0 ] || echo "# dosbox exited with $dos_status"
