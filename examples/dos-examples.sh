#!/bin/sh
# Remake the DOS examples: W3.PRF and W10.PRF, made by PROFIL.COM under
# DOSBox from the workloads, with the NASM maps beside them.
#	make examples-dos	or	top_builddir=BUILD sh examples/dos-examples.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/e2e/dos.sh"

dos_setup examples
dos_copy capture/dos/PROFIL.COM capture/dos/work/W3.COM \
    capture/dos/work/W3.MAP capture/dos/work/W10.EXE capture/dos/work/W10.MAP
dos_run 150 "PROFIL /B:1 /C:200 W3.COM > W3.LOG" \
    "PROFIL /B:1 /C:200 W10.EXE > W10.LOG"
for f in W3 W10; do
	tr -d '\r' < "$DOSDIR/$f.LOG"
	cp "$DOSDIR/$f.PRF" "$DOSDIR/$f.MAP" "$top_srcdir/examples/" || exit 1
done
