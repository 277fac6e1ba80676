#!/bin/sh
# Screen test: the terminal itself.  Resizing, quitting, SIGTERM and
# Ctrl-Z all leave the terminal as they found it (stty -g compared).
# SIGTERM, SIGINT and SIGHUP kill profview by that signal once the
# terminal is restored, so its exit status is 128 + the signal number.
# So does every other signal that kills (SIGQUIT, faults, SIGUSR1 ...),
# and every way out also switches off what profview switched on: the
# alternate screen, mouse reporting, application cursor keys and keypad
# (tmux reports each mode).
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 25
mkprf

# Alternate screen, application cursor keys, keypad, mouse (normal and
# SGR) and a visible cursor: 000001 is how a shell leaves the pane.
modes() {
	$T display -p '#{alternate_on}#{keypad_cursor_flag}#{keypad_flag}'`
	    `'#{mouse_standard_flag}#{mouse_sgr_flag}#{cursor_flag}'
}

start -- browse 1
wait_for "[histogram] session 1"
$T resize-window -x 20 -y 6
wait_for "[histogram] 1/3" && [ "$(screen | wc -l)" -le 6 ]
ok $? "resized to 20x6: still drawing, status line kept"
keys j j
wait_for "] 3/3"
ok $? "keys still work at 20x6"
$T resize-window -x 80 -y 24
wait_for "DEMO  grain 54925 us  bucket 1 para (16 bytes)  2093 samples" &&
    wait_for -E "^ +[0-9.]+% .* MAIN +main$"
ok $? "back to 80x24: header and rows redrawn"
keys q q
restored
ok $? "q on the last view quits; stty -g equal before and after"
[ "$(modes)" = 000001 ]
ok $? "q: alternate screen, cursor keys, keypad, mouse all off ($(modes))"
[ "$(cat "$dir/status")" = 0 ]
ok $? "exit status 0"

start -- browse 1
wait_for "[histogram] session 1"
kill -TERM "$(cat "$dir/pid")"
restored
ok $? "SIGTERM: terminal restored"
[ "$(cat "$dir/status")" = 143 ]
ok $? "SIGTERM: exit status 143 (killed by the signal)"

# The crash path: a fault (here SIGSEGV sent from outside) restores the
# terminal with async-signal-safe calls and dies of the same signal.
start -- browse 1
wait_for "[histogram] session 1"
kill -SEGV "$(cat "$dir/pid")"
restored && [ "$(modes)" = 000001 ]
ok $? "SIGSEGV: terminal restored, every mode off ($(modes))"
[ "$(cat "$dir/status")" = 139 ]
ok $? "SIGSEGV: exit status 139 (died of the signal)"

# Every signal that kills: the terminal as it was, in every mode, and
# the status of a death by that signal.
for sig in QUIT ABRT TERM HUP USR1 PIPE ALRM; do
	start -- browse 1
	wait_for "[histogram] session 1"
	kill -$sig "$(cat "$dir/pid")"
	restored && [ "$(modes)" = 000001 ]
	ok $? "SIG$sig: terminal restored, every mode off ($(modes))"
done

# Ctrl-Z needs a shell with job control: bash -m.
cat > "$dir/wrapz.sh" <<EOS
set -m
stty -g > "$dir/stty.before"
env TERM=screen-256color LC_ALL=C.UTF-8 "$PROFVIEW" --db "$dir/db" browse 1
if [ \$? = 148 ]; then
	stty -g > "$dir/stty.stopped"
	echo "stopped; press Enter"
	read line
	fg %1
fi
echo \$? > "$dir/status"
stty -g > "$dir/stty.after"
echo "profview exited"
exec sleep 600
EOS
$T kill-server
T="tmux -L pvt$$-z -f /dev/null"
rm -f "$dir/stty.after"
$T new-session -d -x 80 -y 24 "bash $dir/wrapz.sh"
wait_for "[histogram] session 1"
keys j j
wait_for "| 3/3"
# The tty flushes unread input on ^Z, so ^Z goes alone.
keys C-z
wait_for "stopped; press Enter" &&
    cmp -s "$dir/stty.before" "$dir/stty.stopped"
ok $? "Ctrl-Z: stopped with the terminal restored"
keys Enter
wait_for "[histogram] session 1 | 3/3" &&
    wait_for "DEMO  grain 54925 us"
ok $? "fg: redrawn where it was"
keys Q
restored
ok $? "quit after fg: stty -g equal"

for term in xterm-256color vt100 linux; do
	start $term -- browse 1
	wait_for "[histogram] session 1" && keys s &&
	    wait_for "sorted by " && keys Q && restored
	ok $? "TERM=$term: draws, takes keys, quits cleanly"
done

# Home and End as tmux sends them to an xterm-256color pane (CSI 1~
# and 4~, as PuTTY and GNU screen do): termkey's Find and Select, which
# were "not bound".
start xterm-256color -- browse 1
wait_for "[histogram] session 1 | 1/3" && keys End &&
    wait_for "[histogram] session 1 | 3/3" && keys Home &&
    wait_for "[histogram] session 1 | 1/3" && ! screen | grep -q "not bound"
ok $? "TERM=xterm-256color in tmux: Home and End (CSI 1~, 4~) move"
keys Q

# A TERM curses does not know: an error and status 1, the keypad as
# termkey found it (initscr would have exited with it in keypad mode).
start nosuchterm -- browse 1
wait_for "profview exited" && [ "$(cat "$dir/status")" = 1 ] &&
    screen | grep -q "cannot start curses on TERM=nosuchterm" &&
    [ "$($T display -p '#{keypad_cursor_flag}#{keypad_flag}')" = 00 ]
ok $? "TERM=nosuchterm: an error, status 1, keypad mode off"
finish
