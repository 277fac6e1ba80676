#!/bin/sh
# Screen test: the demo (examples/demo.sh, what "tools/setup.sh demo"
# runs after the build) opens the sessions list with every kind in it,
# Enter on each opens its view with something on its first screen, and
# Enter on the hottest symbol of the DOS example annotates it.
. "${top_srcdir:-.}/tests/tui/lib.sh"
src=$(cd "${top_srcdir:-.}" && pwd)
plan 8

# demo: examples/demo.sh in an 80x24 pane, on the test's store.
demo() {
	cat > "$dir/wrap.sh" <<EOS
sh -c 'echo \$\$ > "$dir/pid"; exec env TERM=screen-256color LC_ALL=C.UTF-8 \
    XDG_STATE_HOME="$dir/state" PROFVIEW="$PROFVIEW" PROFVIEW_DB="$dir/db" \
    sh "$src/examples/demo.sh"'
echo \$? > "$dir/status"
echo "profview exited"
exec sleep 600
EOS
	rm -f "$dir/status" "$dir/pid"
	$T kill-server 2>/dev/null
	runs=$((runs + 1))
	T="tmux -L pvt$$-$runs -f /dev/null"
	$T new-session -d -x 80 -y 24 "sh $dir/wrap.sh"
	wait_file "$dir/pid"
}
# row KIND: the sessions list's line of the first session of KIND.
row() { screen | grep -nE "^ +[0-9]+ $1 " | head -1 | cut -d: -f1; }
# open KIND: the cursor to that session (from the top), then Enter.
open() {
	keys g
	wait_for "[sessions] 1/"
	i=3
	r=$(row "$1")
	while [ -n "$r" ] && [ $i -lt "$r" ]; do
		keys j
		i=$((i + 1))
	done
	[ -n "$r" ] && wait_for "[sessions] $((r - 2))/" && keys Enter
}

demo
wait_for "profview: " && wait_for "[sessions] 1/" &&
    for k in prf ovd heap mon prfd; do
	    [ -n "$(row $k)" ] || { echo "# no $k session"; false; } || break
    done
ok $? "the sessions list has a session of each kind: prf ovd heap mon prfd"

# Each view's title and a line of what it is about.
open prf && wait_for -E "^profview: [A-Z0-9]+: flat profile, [0-9]+ symbols" &&
    wait_for -E "^ +[0-9.]+% +[0-9.]+% +[1-9][0-9]* [0-9A-F]{4}:[0-9A-F]{4}"
ok $? "Enter on a prf session: its flat profile, the hottest with hits"
keys Enter
wait_for -E "^profview: [A-Z0-9]+: annotate [^ ]+, [0-9]+ instructions" &&
    wait_for "exact: the hit table places each sample" &&
    wait_for -E "^ +[0-9.]+% +[1-9][0-9]* +[0-9A-F]{4}:[0-9A-F]{4} [0-9A-F]{5} "
ok $? "Enter on its hottest symbol annotates it: instructions with samples"
keys q q
wait_for "[sessions]"

open ovd && wait_for -E "^profview: [^:]+: overlay timeline" &&
    wait_for -E "^event 0: load of "
ok $? "Enter on an ovd session: the overlay timeline"
keys q
wait_for "[sessions]"

open heap && wait_for "profview: wordfreq: heap map, " &&
    wait_long -E "loaded [0-9]+ objects" &&
    wait_for -E "allocated at [a-z_]+ "
ok $? "Enter on the heap session: the map, an object and its stack"
keys q
wait_for "[sessions]"

open mon && wait_for -E "^profview: wordfreq: [0-9]+ functions, " &&
    wait_for -E "^ +2000000 +[0-9.]+ .* lookup$"
ok $? "Enter on the mon session: the calls view, lookup's 2000000 calls"
keys q
wait_for "[sessions]"

open prfd && wait_for -E "^profview: wordfreq: [0-9]+ slots? by count, " &&
    wait_for -E "^shares of run time: run [0-9]+  idle [0-9]+ " &&
    wait_for -E "^wordfreq +[0-9A-F]+ "
ok $? "Enter on the prfd session: the counters and the program's slot"
keys q
wait_for "[sessions]"
n1=$(sql "SELECT count(*) FROM session")
keys q
wait_for "profview exited"

# Again: the same sessions, none twice.
demo
nfiles=$(ls "$src"/examples/*.PRF "$src"/examples/*.OVD \
    "$src"/examples/*.heap "$src"/examples/*.mon "$src"/examples/*.prfd |
    wc -l)
wait_for "[sessions] 1/" &&
    [ "$(sql "SELECT count(*) FROM session")" = "$n1" ] &&
    [ "$n1" = "$nfiles" ]
ok $? "a second demo: the same $n1 sessions, one a file"
keys q
wait_for "profview exited"
finish
