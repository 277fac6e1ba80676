#!/bin/sh
# PROFIL.COM's exit paths under DOSBox: a normal end, Ctrl-C (INT 23h),
# Ctrl-Break (INT 1Bh, then the program keeps running), a critical error
# answered Abort (INT 24h), a program that stays resident, and one that
# takes INT 08h and never gives it back.  Each time the .PRF must be
# written and ingest, the termination message must say what happened, and
# VECCHK must find INT 08h/1Bh/23h/24h and the PIT rate as they were.  A
# control run of VECCHK under PROFIL shows that VECCHK sees the hooks.
# Every .PRF carries a good hit table (tests/e2e/prfhits.py).  Then the
# prompts: bad answers are asked again, the parameters typed reach the
# program, and /H: alone (it has a default) does not stop the questions.
# Last, with little memory left (EATMEM): the default table is left out
# and every sample is missed, a table asked for with /H: stops PROFIL.
. "${top_srcdir:-.}/tests/e2e/dos.sh"

dos_setup exits
dos_copy capture/profil/PROFIL.COM capture/profil/work/EXITS.COM \
    capture/profil/work/ABORT24.COM capture/profil/work/VECCHK.COM \
    capture/profil/work/EATMEM.COM
echo "1..52"

# Typed answers: a zero and a word for the bucket size, an interval
# below the minimum, then good ones, then the parameter N.
printf '0\r\nabc\r\n1\r\n20\r\n1000\r\nN\r\n' > "$DOSDIR/ANSWERS.TXT"
# With /B: and /H: given: the interval and the parameter.
printf '1000\r\nN\r\n' > "$DOSDIR/ANSWERS2.TXT"

set -- ABORT24 "VECCHK > V0.TXT"
for m in N C B E T H; do
	set -- "$@" "PROFIL /B:1 /C:500 EXITS.COM $m > O_$m.TXT" \
	    "REN EXITS.PRF X_$m.PRF" "VECCHK > V_$m.TXT"
done
set -- "$@" "PROFIL /B:1 /C:500 VECCHK.COM > V_P.TXT" \
    "PROFIL /H:64 /B:1 EXITS.COM < ANSWERS2.TXT > O_J.TXT" \
    "REN EXITS.PRF X_J.PRF" \
    "PROFIL EXITS.COM < ANSWERS.TXT > O_I.TXT" "PROFIL > O_U.TXT" \
    "PROFIL /B:1 /C:500 NOSUCH.COM > O_F.TXT" \
    "PROFIL /B:1 /C:20 EXITS.COM N > O_R.TXT" \
    "PROFIL /B:1 /C:500 /H:8193 EXITS.COM N > O_Q.TXT" \
    "COPY EXITS.COM NOWRITE.COM" "MD NOWRITE.PRF" \
    "PROFIL /B:1 /C:500 NOWRITE.COM N > O_W.TXT" "VECCHK > V_W.TXT" \
    "COPY EXITS.COM LOWMEM.COM" EATMEM \
    "PROFIL /B:1 /C:500 LOWMEM.COM N > O_M.TXT" \
    "PROFIL /B:1 /C:500 /H:4096 EXITS.COM N > O_K.TXT"
dos_run 150 "$@"

# path LETTER MESSAGE DESCRIPTION
path()
{
	check "$1: $3: \"$2\"" grep -q "$2" "$DOSDIR/O_$1.TXT"
	if pv_ingest "$DOSDIR/X_$1.PRF"; then
		hits=$(pv_sql "SELECT SUM(hits) FROM bucket
		    WHERE session = $pv_id")
		check "$1: the .PRF ingests and holds $hits program samples" \
		    test "${hits:-0}" -gt 0
	else
		ok 1 "$1: the .PRF ingests: $(cat "$DOSDIR/ingest.err")"
	fi
	pycheck "$1: its hit table" check "$DOSDIR/X_$1.PRF"
	py field "$DOSDIR/X_$1.PRF" count
	check "$1: ... not empty ($msg entries)" test "${msg:-0}" -gt 0
	check "$1: vectors and PIT restored ($(tr -d '\r' < "$DOSDIR/V_$1.TXT"))" \
	    cmp -s "$DOSDIR/V0.TXT" "$DOSDIR/V_$1.TXT"
}

path N 'Program terminated normally (code 7)' "normal end"
path C 'Program terminated by Ctrl-C' "INT 23h"
path B 'Program terminated by Ctrl-Break' "INT 1Bh"
path E 'Program terminated by critical-error abort' "INT 24h, Abort"
path T 'Program terminated and stayed resident (code 5)' "resident"
path H 'took INT 08h and did not give it back' "INT 08h kept"

check "control: VECCHK under PROFIL sees the hooks and the fast PIT" \
    grep -q 'pit=fast' "$DOSDIR/V_P.TXT"
check "control: ... and not the vectors of V0" \
    test "$(head -c 12 "$DOSDIR/V_P.TXT")" != "$(head -c 12 "$DOSDIR/V0.TXT")"

tr -d '\r' < "$DOSDIR/O_I.TXT" > "$DOSDIR/prompts"
check "prompts: a bad answer is asked again (3 times)" \
    test "$(grep -o 'Bad number' "$DOSDIR/prompts" | wc -l)" = 3
check "prompts: the typed parameter reaches the program (code 7)" \
    grep -q 'Program terminated normally (code 7)' "$DOSDIR/prompts"
if pv_ingest "$DOSDIR/EXITS.PRF"; then
	check "prompts: the .PRF has the typed bucket size and interval" \
	    test "$(pv_sql "SELECT bucket_siz, clock_grain FROM prf
	    WHERE session = $pv_id")" = "1,1000"
else
	ok 1 "prompts: the .PRF ingests: $(cat "$DOSDIR/ingest.err")"
fi
pycheck "prompts: the .PRF has the default hit table" check \
    "$DOSDIR/EXITS.PRF"
py field "$DOSDIR/EXITS.PRF" capacity
check "prompts: ... of 4096 entries ($msg)" test "$msg" = 4096

tr -d '\r' < "$DOSDIR/O_J.TXT" > "$DOSDIR/prompts"
check "/H: and /B: given: the interval and the parameters are asked" \
    sh -c "grep -q '^Clock interval' '$DOSDIR/prompts' &&
    grep -q '^Program parameters' '$DOSDIR/prompts' &&
    ! grep -q '^Paragraphs per bucket' '$DOSDIR/prompts'"
check "/H: and /B: given: the typed parameter reaches the program" \
    grep -q 'Program terminated normally (code 7)' "$DOSDIR/prompts"
py field "$DOSDIR/X_J.PRF" capacity,siz,grain
check "/H: and /B: given: /H:64 /B:1, 1000 us typed: the .PRF has \
entries, paragraphs, us $msg" test "$msg" = 64,1,1000
check "errors: no file name prints the usage" \
    grep -q '^usage: PROFIL' "$DOSDIR/O_U.TXT"
check "errors: a missing program is named" \
    grep -q 'File not found: NOSUCH.COM' "$DOSDIR/O_F.TXT"
check "errors: an interval below 50 us is refused, nothing runs" \
    sh -c "grep -q 'out of range' '$DOSDIR/O_R.TXT' &&
    ! grep -q terminated '$DOSDIR/O_R.TXT'"
check "errors: /H:8193 is refused, nothing runs" \
    sh -c "grep -q 'out of range' '$DOSDIR/O_Q.TXT' &&
    ! grep -q terminated '$DOSDIR/O_Q.TXT'"
check "errors: a .PRF that cannot be created is reported" \
    grep -q 'Cannot write NOWRITE.PRF' "$DOSDIR/O_W.TXT"
check "errors: ... and the machine is restored all the same" \
    cmp -s "$DOSDIR/V0.TXT" "$DOSDIR/V_W.TXT"

check "no memory: the default table is left out, PROFIL says so" \
    grep -q 'Not enough memory for the hit table: buckets only' \
    "$DOSDIR/O_M.TXT"
check "no memory: ... and the program runs" \
    grep -q 'Program terminated normally (code 7)' "$DOSDIR/O_M.TXT"
f=$DOSDIR/LOWMEM.PRF
pycheck "no memory: the section, all samples missed" check "$f"
py field "$f" capacity,flags
check "no memory: no entries, full (capacity, flags $msg)" test "$msg" = 0,1
py field "$f" missed
check "no memory: $msg samples missed" test "${msg:-0}" -gt 0
check "no memory: /H: asked for a table that does not fit: nothing runs" \
    sh -c "grep -q '^Not enough memory' '$DOSDIR/O_K.TXT' &&
    ! grep -q terminated '$DOSDIR/O_K.TXT'"
[ "$dos_status" = 0 ] || echo "# dosbox exited with $dos_status"
