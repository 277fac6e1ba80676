#!/bin/sh
# bench/dos: PROFIL.COM's overhead under DOSBox.  Runs W3.COM (repeated
# BENCH_REPEAT times, default 9: about 18 s of emulated time) alone, then
# under PROFIL at 1 kHz and at 10 kHz, in one DOSBox session with the
# test configuration (normal core, fixed cycles), and prints the BIOS
# ticks each run took (the workload reads 0040:006C itself) and the
# slowdown against the run without PROFIL.  The target: under 3 % at 1 kHz.
# Ticks are 55 ms; a run's samples time it to a clock period, so the
# handler's time per sample comes from the two rates' sample counts
# (T = T0 / (1 - rate * cost)), and a third run at 10 kHz with /H:0
# gives it without the hit table.
#
#	make bench-dos		or	top_builddir=BUILD sh bench/dos.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/e2e/dos.sh"

rep=${BENCH_REPEAT:-9}
dos_setup bench
dos_copy capture/profil/PROFIL.COM capture/profil/work/W3.COM
dos_run 600 "W3 $rep" "REN W3.OUT PLAIN.OUT" \
    "PROFIL /B:1 /C:1000 W3.COM $rep > K1.TXT" "REN W3.OUT K1.OUT" \
    "PROFIL /B:1 /C:100 W3.COM $rep > K10.TXT" "REN W3.OUT K10.OUT" \
    "PROFIL /B:1 /C:100 /H:0 W3.COM $rep > K10Z.TXT"

plain=$(hex "$(dos_out PLAIN.OUT ticks)")
k1=$(hex "$(dos_out K1.OUT ticks)")
k10=$(hex "$(dos_out K10.OUT ticks)")
if [ "$plain" -le 0 ] 2>/dev/null && [ "$k1" -le 0 ] 2>/dev/null; then
	echo "bench/dos: no tick counts (dosbox status $dos_status)" >&2
	exit 1
fi
printf 'W3.COM x%s under DOSBox (BIOS ticks of 54.9 ms; +-1 tick)\n' "$rep"
awk -v p="$plain" -v a="$k1" -v b="$k10" 'BEGIN {
	printf "  without PROFIL     %5d ticks\n", p
	printf "  PROFIL at 1 kHz    %5d ticks  slowdown %.2f %%  (%s)\n", a,
	    100 * (a - p) / p, (a - p) / p < 0.03 ? "under 3 %" : "OVER 3 %"
	printf "  PROFIL at 10 kHz   %5d ticks  slowdown %.2f %%\n", b,
	    100 * (b - p) / p
}'
for f in K1 K10 K10Z; do
	sed -n 's/\r$//; s/^Wrote /  /p; s/^Hit table/    hit table/p' \
	    "$DOSDIR/$f.TXT"
done

# samples RUN: the samples PROFIL took in that run.
samples()
{
	tr -d '\r' < "$DOSDIR/$1.TXT" |
	    sed -n 's/^Wrote [^:]*: \([0-9]*\) samples.*/\1/p'
}
cycles=$(sed -n 's/^cycles=fixed //p' "$top_srcdir/tests/e2e/dosbox.conf")
awk -v s1="$(samples K1)" -v s10="$(samples K10)" -v sz="$(samples K10Z)" \
    -v cyc="${cycles:-0}" 'BEGIN {
	if (!s1 || !s10 || !sz)
		exit
	hz = 1193182			# the PIT; PROFIL rounds us * 1.193182
	t1 = s1 * int(1000 * 1.193182 + 0.5) / hz
	t10 = s10 * int(100 * 1.193182 + 0.5) / hz
	tz = sz * int(100 * 1.193182 + 0.5) / hz
	c = (t10 - t1) / (t10 * 10000 - t1 * 1000)
	t0 = t10 * (1 - 10000 * c)
	cz = (1 - t0 / tz) / 10000
	printf "  per sample, from the sample counts: %.2f us (%.0f cycles);" \
	    " %.2f us (%.0f) with /H:0\n", 1e6 * c, c * cyc * 1000,
	    1e6 * cz, cz * cyc * 1000
	printf "  the handler takes %.2f %% at 1 kHz, %.2f %% at 10 kHz" \
	    " (%.2f %% with /H:0)\n", 100 * 1000 * c, 100 * 10000 * c,
	    100 * 10000 * cz
}'
