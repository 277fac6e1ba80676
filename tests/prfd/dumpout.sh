#!/bin/sh
# pvprf's dump file is written as output files beside other users must
# be (outfile.c): never through a symlink planted at NAME.tmp (the old
# writer's fixed temporary name), a FIFO or a device named with -o is
# written in place and stays one, and the file is 0600 whatever the
# umask (it holds the command line).
. "${top_srcdir:-.}/tests/prfd/prfd.sh"
WORK=$top_builddir/tests/prfd/work

"$WORK" split 0.2 0 >/dev/null 2>&1 &
pid=$!
"$PVPRF" init "$pid" && "$PVPRF" start "$pid"
wait "$pid"
"$PVPRF" stop "$pid"

echo keep >"$W/victim"
ln -s "$W/victim" "$W/out.prfd.tmp"
"$PVPRF" dump "$pid" -o "$W/out.prfd"
check "a symlink at NAME.tmp: its target untouched" sh -c \
    "test \"\$(cat '$W/victim')\" = keep"
check "and the dump written" sh -c "'$PVPRF' print '$W/out.prfd' >/dev/null"

mkfifo "$W/fifo"
timeout 10 cat "$W/fifo" >"$W/from-fifo" &
cat=$!
"$PVPRF" dump "$pid" -o "$W/fifo"
wait "$cat"
check "-o a FIFO: written into it, and still a FIFO" sh -c \
    "test -p '$W/fifo' && '$PVPRF' print '$W/from-fifo' >/dev/null"
if [ "$(id -u)" = 0 ]; then
	# A device of our own (/dev/null's numbers), not /dev/null itself.
	mknod "$W/null" c 1 3
	"$PVPRF" dump "$pid" -o "$W/null"
	check "-o a device: written in place, still the device" \
	    test -c "$W/null"
else
	skip "" "-o a device: mknod needs root"
fi

(umask 022 && "$PVPRF" dump "$pid" -o "$W/mode.prfd")
m=$(stat -c %a "$W/mode.prfd")
check "the dump is 0600 under umask 022 ($m)" test "$m" = 600
"$PVPRF" exit "$pid"
finish
