#!/bin/sh
# pvprf from the shell: the calls on a running process, the dump file's
# records in their order with the extension (modules and build-ids,
# threads, period, command), pvprf print of it and of a width-4 file made
# here from Dos32Profile's structures, every truncation and each bad field of
# a file, record's exec failure and death by a signal, and the daemon's
# one-per-user lock and idle exit.
. "${top_srcdir:-.}/tests/prfd/prfd.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"
WORK=$top_builddir/tests/prfd/work
DUMPCHK=$W/dumpchk.py

# The calls on a process already running, from init to exit.
"$WORK" split 1.5 0 >/dev/null 2>&1 &
pid=$!
# Once it is the program (the shell's fork execs it).
i=0
real=$(readlink -f "$WORK")
while [ "$(readlink "/proc/$pid/exe")" != "$real" ] && [ $i -lt 3000 ]; do
	sleep 0.01
	i=$((i + 1))
done
check "init" "$PVPRF" init "$pid" --slots auto --hit -b 65536
"$PVPRF" init "$pid" -t 500 2>"$W/e"
check "init again, another timer: 548" \
    grep -q ": 548 ERROR_PRF_TIMER_RESET" "$W/e"
check "start" "$PVPRF" start "$pid"
"$PVPRF" start "$pid" 2>"$W/e"
rc=$?
check "start again: 546, exit status 3 ($rc)" \
    sh -c "test $rc = 3 && grep -q ': 546 ' '$W/e'"
wait "$pid"
check "stop after the process ended" "$PVPRF" stop "$pid"
"$PVPRF" stop "$pid" 2>"$W/e"
check "stop again: 545" grep -q ": 545 ERROR_PRF_NOT_STARTED" "$W/e"
"$PVPRF" init "$pid" 2>"$W/e"
check "init of the ended process's pid: 544, its profile kept" \
    grep -q ": 544 ERROR_PRF_ALREADY_INITIALIZED" "$W/e"
check "dump" "$PVPRF" dump "$pid" -o "$W/live.prfd"
check "exit" "$PVPRF" exit "$pid"
"$PVPRF" dump "$pid" -o "$W/none.prfd" 2>"$W/e"
check "dump after exit: 303 (no such process any more)" \
    grep -q ": 303 ERROR_INVALID_PROCID" "$W/e"
check "no file from a failed dump" test ! -e "$W/none.prfd"

# A profile's process ends and its pid goes to another (the kernel's next
# pid set by hand, as root): INIT of the new one makes its profile.
sleep 30 &
old=$!
"$PVPRF" init "$old" 2>"$W/e"
kill "$old"
wait "$old" 2>/dev/null
if [ -w /proc/sys/kernel/ns_last_pid ]; then
	i=0
	while [ $i -lt 20 ]; do
		echo $((old - 1)) > /proc/sys/kernel/ns_last_pid
		sleep 30 &
		new=$!
		[ "$new" = "$old" ] && break
		kill "$new"
		wait "$new" 2>/dev/null
		i=$((i + 1))
	done
	"$PVPRF" init "$new" 2>"$W/e"
	rc=$?
	check "init of a pid that another process has now: a new profile ($rc)" \
	    sh -c "test $new = $old && test $rc = 0"
	"$PVPRF" exit "$new"
	kill "$new"
	wait "$new" 2>/dev/null
else
	"$PVPRF" exit "$old"
	skip "" "pid reuse: ns_last_pid needs root"
fi

# A reader of our own, to check the records' order and the extension.
cat >"$DUMPCHK" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
w = b[6]
def ul(o, n=1):
    return [int.from_bytes(b[o + i * w:o + (i + 1) * w], "little")
            for i in range(n)]
off, recs = 14, []
while off < len(b):
    cmd, thr = struct.unpack_from("<BH", b, off)
    va, sz = ul(off + 3, 2)
    recs.append((cmd, thr, va, off + 3 + 2 * w, sz))
    off += 3 + 2 * w + sz
order = [(r[0], r[1]) for r in recs]
nthr = struct.unpack_from("<H", b, recs[0][3] + 4 + 9 * w + 5)[0]
slots = b[recs[1 + nthr][3]]
want = [(0, 0)] + [(0, i) for i in range(1, nthr + 1)] + [(1, 0), (2, 0)]
want += [(3, 0)] * slots + [(0xF0, 0)]
print("order", "ok" if order == want else "bad %s" % order)
e = recs[-1]
o, end = e[3], e[3] + e[4]
while o < end:
    tag, fl, ln = struct.unpack_from("<HHI", b, o)
    d = b[o + 8:o + 8 + ln]
    if tag == 1:
        n = d[2 * w]
        print("module", d[2 * w + 1:2 * w + 1 + n].hex(),
              d[2 * w + 1 + n:].decode())
    elif tag == 2:
        c = struct.unpack_from("<I", d)[0]
        print("threads", c, *struct.unpack_from("<%dI" % c, d, 4))
    elif tag == 3:
        print("period", *struct.unpack_from("<QQQ", d))
    elif tag == 4:
        print("command", *d.split(b"\0")[:-1])
    o += 8 + ln
PY
python3 "$DUMPCHK" "$W/live.prfd" >"$W/live.chk"
sed 's/^/# /' "$W/live.chk"
check "records in order: process, threads, slots, hits, details, ours" \
    grep -qx "order ok" "$W/live.chk"
bid=$(readelf -n "$WORK" | awk '/Build ID/ { print $3 }')
check "module: the program and its build-id" \
    grep -qx "module $bid $real" "$W/live.chk"
check "threads: the process's" grep -q "^threads 1 $pid\$" "$W/live.chk"
check "period: 1000000 ns" grep -q "^period 1000000 " "$W/live.chk"
"$PVPRF" print "$W/live.prfd" >"$W/live.txt"
check "print: the slot with its module" grep -q "^     $real build-id $bid" \
    "$W/live.txt"

# record: the whole run, then print.
"$PVPRF" record -o "$W/rec.prfd" -- "$WORK" split 0.3 0.2 >/dev/null 2>&1
python3 "$DUMPCHK" "$W/rec.prfd" >"$W/rec.chk"
check "record: records in order" grep -qx "order ok" "$W/rec.chk"
check "record: the command" grep -q "^command b'$WORK' b'split' b'0.3'" \
    "$W/rec.chk"
"$PVPRF" print "$W/rec.prfd" >"$W/rec.txt"
check "print: idle, kernel, shared memory, slots with shares" sh -c \
    "grep -q '^idle  *[0-9][0-9]* *[0-9.]*%' '$W/rec.txt' &&
    grep -q '^shared memory ' '$W/rec.txt' &&
    grep -q '^   1 0x' '$W/rec.txt'"
(cd "$W" && "$PVPRF" record -- "$WORK" split 0.1 0 >/dev/null 2>&1)
check "record's default file: PROG.prfd" test -s "$W/work.prfd"

"$PVPRF" record -o "$W/x.prfd" -- "$W/no-such-program" 2>"$W/e"
rc=$?
check "record of a program that is not there: 127 ($rc)" test "$rc" = 127
check "no dump file then" test ! -e "$W/x.prfd"
"$PVPRF" record -o "$W/sig.prfd" -- sh -c 'kill -TERM $$' 2>/dev/null
rc=$?
check "death by SIGTERM passed on ($rc)" test "$rc" = 143
check "and the dump written" test -s "$W/sig.prfd"

# A width-4 file as OS/2 returned it, from Dos32Profile's structures.
python3 - "$W/os2.prfd" <<'PY'
import struct, sys
f = open(sys.argv[1], "wb")
f.write(b"PRFD" + struct.pack("<HBBIH", 1, 4, 0, 77, 1000))
r0 = struct.pack("<HH9IHBHH", 0x0004, 2, 10, 0, 20, 30, 40, 8, 3, 0, 0,
                 1000, 0, 2, 1)
va = [(0x10000, 0x1000, 8, 0, 100), (0x20000, 0x100, 8, 0, 300)]
r1 = struct.pack("<B", 2) + b"".join(struct.pack("<5I", *v) for v in va)
r2 = struct.pack("<4I", 3, 0x10004, 0x10008, 0x20000)
r3 = struct.pack("<2I", 0x100, 64) + struct.pack("<64I", *range(64))
for cmd, thr, vaddr, buf in ((0, 0, 0, r0), (1, 0, 0, r1), (2, 0, 0, r2),
                             (3, 0, 0x20000, r3)):
    f.write(struct.pack("<BHII", cmd, thr, vaddr, len(buf)) + buf)
PY
"$PVPRF" print "$W/os2.prfd" >"$W/os2.txt" 2>&1
sed 's/^/# /' "$W/os2.txt"
check "width 4: the counters" sh -c \
    "grep -q '^idle  *10  *2.00%' '$W/os2.txt' &&
    grep -q '^kernel  *20  *4.00%' '$W/os2.txt' &&
    grep -q '^unknown  *40  *8.00%' '$W/os2.txt' &&
    grep -q '^total  *500\$' '$W/os2.txt'"
s1='^   1 0x0000000000010000  *4096  *t  *100  *20.00%'
s2='^   2 0x0000000000020000  *256  *t  *300  *60.00%'
check "width 4: the slots" sh -c "grep -q '$s1' '$W/os2.txt' &&
    grep -q '$s2' '$W/os2.txt'"
check "width 4: hit table 3 of 8" grep -q "^hit table: 3 of 8 entries" \
    "$W/os2.txt"

# Every truncation of a file: printed or refused with an offset, never
# a crash.
len=$(wc -c <"$W/rec.prfd")
bad=0
i=0
while [ "$i" -lt "$len" ]; do
	head -c "$i" "$W/rec.prfd" >"$W/cut.prfd"
	"$PVPRF" print "$W/cut.prfd" >/dev/null 2>"$W/e"
	rc=$?
	if [ "$rc" -gt 1 ] || { [ "$rc" = 1 ] && ! grep -q "offset" "$W/e"; }
	then
		bad=$((bad + 1))
		echo "# cut at $i: exit $rc: $(cat "$W/e")"
	fi
	i=$((i + 1 + i / 50))
done
check "truncations: an error naming the offset or a shorter dump" \
    test "$bad" = 0
# Each bad field.
badfile() {
	python3 -c 'import sys
b = bytearray(open(sys.argv[1], "rb").read())
o = int(sys.argv[2]); v = bytes.fromhex(sys.argv[3])
b[o:o + len(v)] = v
open(sys.argv[4], "wb").write(b)' "$W/os2.prfd" "$1" "$2" "$W/bad.prfd"
	"$PVPRF" print "$W/bad.prfd" >/dev/null 2>"$W/e"
	rc=$?
	check "bad $3: exit $rc, $(cat "$W/e")" sh -c \
	    "test $rc = 1 && grep -q 'offset $4: $3' '$W/e'"
}
badfile 0 58585858 magic 0
badfile 4 0300 version 4
badfile 6 05 width 6
badfile 21 ffffff00 us_bufsz 21
badfile 83 03 "PRFRET1: r1_nslots 3" 72
badfile 135 04 "r2_nhits" 124
badfile 14 07 "no PRFRET0" 426
# A MAPPING entry (version 2) whose length is not its fields'.
python3 -c 'import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[1059:1063] = (42).to_bytes(4, "little")
open(sys.argv[2], "wb").write(b)' \
    "$top_srcdir/tests/fuzz/corpus/pvprf/w8-mapping.prfd" "$W/bad.prfd"
"$PVPRF" print "$W/bad.prfd" >/dev/null 2>"$W/e"
rc=$?
check "bad MAPPING len: exit $rc, $(cat "$W/e")" sh -c \
    "test $rc = 1 && grep -q 'offset 1059: mapping len 42 does not' '$W/e'"
"$PVPRF" print "$top_srcdir/tests/fuzz/corpus/pvprf/w8-mapping.prfd" \
    >"$W/map.txt" 2>&1
check "print: a version 2 dump's modules, the kernel's of its counter" \
    sh -c "grep -q '^modules  *12 ' '$W/map.txt' &&
    grep -q ' 12 .*/nonexistent/libm.so\$' '$W/map.txt' &&
    grep -q ' 4 .*kernel.kallsyms. (of the kernel counter)\$' '$W/map.txt'"

# Not root, where perf_event_paranoid is 2: the kernel refuses kernel-mode
# samples, so the profile is of user mode only, and the dump and profview
# say so (a syscall loop shows kernel 0, its time among idle).
p=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo none)
if [ "$(id -u)" = 0 ] && [ "$p" = 2 ] && command -v setpriv >/dev/null; then
	U=$(mktemp -d "${TMPDIR:-/tmp}/pvprf-user.XXXXXX")
	chmod 755 "$U"
	mkdir -m 700 "$U/run"
	chown 65534:65534 "$U/run"
	nobody_tree "$U"
	setpriv --reuid=65534 --regid=65534 --clear-groups env \
	    XDG_RUNTIME_DIR="$U/run" PVPRFD="$NPVPRFD" "$NPVPRF" record \
	    -o "$U/run/u.prfd" -- "$NWORK" sys 0.2 >/dev/null 2>&1
	rc=$?
	"$PVPRF" print "$U/run/u.prfd" > "$W/u.txt" 2>&1
	check "not root: user mode only, said by print ($rc)" sh -c \
	    "test $rc = 7 && grep -q '^user mode only: the kernel refused' \
	    '$W/u.txt' && grep -q '^kernel  *0 ' '$W/u.txt'"
	"$top_builddir/profview" --db "$W/u.db" ingest "$U/run/u.prfd" \
	    > /dev/null 2> "$W/u.err"
	check "not root: profview's ingest warns of it" grep -q \
	    'user mode only: the kernel refused' "$W/u.err"
	[ -s "$U/run/pvprfd.lock" ] && kill "$(cat "$U/run/pvprfd.lock")"
	rm -rf "$U"
else
	for k in print ingest; do
		skip "" "not root ($k): needs root to" \
		    "become nobody and perf_event_paranoid 2 (it is $p)"
	done
fi

# The daemon: one a user, and gone when idle.
"$PVPRF" exit 1 2>/dev/null
lockpid=$(cat "$W/run/pvprfd.lock")
"$PVPRFD" -t 1 2>/dev/null
rc=$?
check "a second pvprfd leaves at once ($rc), the first serves" \
    sh -c "test $rc = 0 && test \"\$(cat '$W/run/pvprfd.lock')\" = $lockpid &&
    kill -0 $lockpid"
kill "$lockpid"
i=0
while kill -0 "$lockpid" 2>/dev/null && [ $i -lt 3000 ]; do
	sleep 0.01
	i=$((i + 1))
done
"$PVPRFD" -t 1 &
d=$!
wait "$d"
check "pvprfd -t 1 with nothing to do leaves" test $? = 0
check "and takes its socket" test ! -e "$W/run/pvprfd.sock"
finish
