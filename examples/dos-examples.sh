#!/bin/sh
# Remake the DOS examples: W3.PRF, W10.PRF and SHARE.PRF, made by
# PROFIL.COM under DOSBox from the workloads, with the programs and their
# NASM maps and listings beside them (the annotate view's instructions
# and source lines).  Each has the hit table (the HITS section).
#	make examples-dos	or	top_builddir=BUILD sh examples/dos-examples.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/e2e/dos.sh"

dos_setup examples
dos_copy capture/profil/PROFIL.COM capture/profil/work/W3.COM \
    capture/profil/work/W3.MAP capture/profil/work/W10.EXE capture/profil/work/W10.MAP \
    capture/profil/work/SHARE.COM capture/profil/work/SHARE.MAP
dos_run 150 "PROFIL /B:1 /C:200 W3.COM > W3.LOG" \
    "PROFIL /B:1 /C:200 W10.EXE > W10.LOG" \
    "PROFIL /B:1 /C:200 SHARE.COM > SHARE.LOG"
for f in W3.COM W10.EXE SHARE.COM; do
	b=${f%.*}
	tr -d '\r' < "$DOSDIR/$b.LOG"
	cp "$DOSDIR/$b.PRF" "$DOSDIR/$f" "$DOSDIR/$b.MAP" \
	    "$top_builddir/capture/profil/work/$b.LST" "$top_srcdir/examples/" ||
	    exit 1
done
