#!/bin/sh
# pvtrace passes the program's exit status and its death by signal on
# unchanged (the runner dies of the same signal), and a program killed
# ten calls deep (SIGTERM, SIGKILL, a segfault) or aborting there loses
# no count: the counters live in memory the runner shares, and the
# frames left open are closed when the process died.  -a adds runs up.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"

# How a command ended, as Python's subprocess says: N, or -SIG.
ended() {
	python3 -c 'import subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL)
print(r.returncode)' "$@"
}
stat() { awk -v k="$2" '$1 == "stat" && $2 == k { print $3 }' "$W/$1.mon"; }

cd "$W" || exit 1
"$PVTRACE" plan -o sig.pdt "$TD/signals" >/dev/null
r=$(ended "$PVTRACE" -o exit.mon -p sig.pdt -- "$TD/signals" exit 7)
check "exit status 7 passes through ($r)" test "$r" = 7
check "the .mon says exit 7" grep -qx "status exit 7" exit.mon
check "main's steps counted" test "$(field exit step 1)" = 1000

for how in "kill 15:-15:SIGTERM" "kill 9:-9:SIGKILL" "segv:-11:SIGSEGV" \
    "abort:-6:SIGABRT"; do
	args=${how%%:*}
	want=${how#*:}
	want=${want%%:*}
	name=${how##*:}
	# shellcheck disable=SC2086
	r=$(ended "$PVTRACE" -o "$name.mon" -p sig.pdt -- "$TD/signals" $args)
	check "$name: the runner dies of it too ($r)" test "$r" = "$want"
	check "$name: the .mon is written" grep -qx \
	    "status signal ${want#-}" "$name.mon"
	check "$name: step's 1000 calls kept" test \
	    "$(field "$name" step 1)" = 1000
	check "$name: dive's 11 calls kept" test "$(field "$name" dive 1)" = 11
	k=$(stat "$name" kill_closed)
	e=$(stat "$name" exit_closed)
	# kill(), a library function, is open when its signal comes;
	# abort() is the agent's, and closes the others at the call.
	if [ "$name" = SIGABRT ]; then
		check "$name: abort() closed main and 11 dives ($e)" \
		    test "$e" = 12
	elif [ "$args" = segv ]; then
		check "$name: the runner closed main and 11 dives ($k)" \
		    test "$k" = 12
	else
		check "$name: the runner closed main, 11 dives and kill ($k)" \
		    test "$k" = 13
	fi
	t=$(field "$name" main 3)
	d=$(field "$name" dive 3)
	# Two estimates: within their uncertainties together.
	s=$(( $(field "$name" main 7) + $(field "$name" dive 7) ))
	check "$name: dive's self+children ($d) <= main's ($t, +/- $s)" \
	    le "$d" "$t" "$s"
done

# exec: the frames open at the exec close there; the new image is the
# same program, traced again into the same profile.
r=$(ended "$PVTRACE" -o exec.mon -p sig.pdt -- "$TD/signals" exec)
check "exec: the new image's exit status 5 passes through ($r)" \
    test "$r" = 5
check "exec: both images' steps counted (2000)" \
    test "$(field exec step 1)" = 2000
check "exec: main twice, dive 11 times" \
    test "$(field exec main 1) $(field exec dive 1)" = "2 11"
e=$(stat exec exit_closed)
check "exec: main and 11 dives closed at the exec ($e)" test "$e" = 12
check "exec: two processes applied the plan" \
    test "$(stat exec processes)" = 2
# The new image keeps the pid and the old image's slots, whose "in the
# agent" flags were in memory the exec unmapped: its sampler, looking
# 50,000 times a second, must leave them alone (it read them and died of
# SIGSEGV, as the program).
r=
for i in 1 2 3; do
	r="$r$(ended "$PVTRACE" --rate 50000 -o fast.mon -p sig.pdt -- \
	    "$TD/signals" exec) "
done
check "exec under a 50 kHz sampler: exit status 5, thrice ($r)" \
    test "$r" = "5 5 5 "

# The program has ended and left a child that sleeps on, which pvtrace
# waits for (its counts are the profile's too): a SIGTERM then stops the
# wait and the profile is written, with the program's status 3 (it went
# to the ended program, and pvtrace waited the 30 s out).
"$PVTRACE" -o orphan.mon -p sig.pdt -- "$TD/signals" orphan 30 \
    >orphan.out 2>orphan.err &
pv=$!
# Until pvtrace's only child is the orphan (the program reaped).
orphan_only() {
	o=$(sed -n 's/^orphan //p' orphan.out)
	[ -n "$o" ] &&
	    [ "$(cat /proc/$pv/task/*/children 2>/dev/null | tr -s ' ' |
	    sed 's/^ //; s/ $//')" = "$o" ]
}
i=0
while ! orphan_only && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM "$pv"
i=0
while kill -0 "$pv" 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
if kill -0 "$pv" 2>/dev/null; then
	r=waiting
	kill -KILL "$pv"
else
	wait "$pv"
	r=$?
fi
[ -n "${o:-}" ] && kill "$o" 2>/dev/null
check "orphan left: SIGTERM ends the wait, status 3 ($r)" test "$r" = 3
check "... and the profile is written (main once)" \
    test "$(field orphan main 1)" = 1

rm -f acc.mon
"$PVTRACE" -a -o acc.mon -p sig.pdt -- "$TD/signals" >/dev/null
"$PVTRACE" -a -o acc.mon -p sig.pdt -- "$TD/signals" >/dev/null
"$PVTRACE" -a -o acc.mon -p sig.pdt -- "$TD/signals" >/dev/null
check "-a: three runs" grep -qx "runs 3" acc.mon
check "-a: step's calls add up (3000)" test "$(field acc step 1)" = 3000
check "-a: main's calls add up (3)" test "$(field acc main 1)" = 3
p1=$(awk '/^\[paths\]/ { print $2 }' acc.mon)
"$PVTRACE" -o one.mon -p sig.pdt -- "$TD/signals" >/dev/null
p2=$(awk '/^\[paths\]/ { print $2 }' one.mon)
check "-a: the same paths as one run ($p1, $p2)" test "$p1" = "$p2"
finish
