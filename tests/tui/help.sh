#!/bin/sh
# Screen test: keys come in groups, one per view.  ? lists the keys of the
# view it is pressed in first, then the keys of every view that view
# leaves alone, the commands, the prompt's and the y/n question's keys.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 17
mkprf && mkovd ovrdemo OVRDEMO || exit 1

# at REGEX: the first screen line matching REGEX, empty if none.
at() { screen | grep -nE -- "$1" | head -1 | cut -d: -f1; }
# above A B: a line matching A is on screen above one matching B.
above() {
	a=$(at "$1")
	b=$(at "$2")
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}

start -- browse 1
wait_for "[histogram] session 1" &&
    screen | tail -1 | grep -qE "^\[histogram\] session 1 \| 1/3 +\? help$"
ok $? "the status line says ? help until the first key"
keys j
wait_for "| 2/3" && ! screen | tail -1 | grep -q "? help"
ok $? "and no more after it"
keys ?
wait_for "profview: help for the histogram view (q closes)" &&
    [ "$(screen | sed -n 2p)" = "In the histogram" ]
ok $? "? in the histogram: its own group first"
above "^  s +cycle the sort" "^In every view" &&
    above "^  t +buckets or per-symbol" "^In every view" &&
    above "^  z +hide or show the rows without hits" "^In every view" &&
    above "^  % +percentages of all samples" "^In every view" &&
    above "^In every view" "^  q +close the view" &&
    above "^  q +close the view" "^  Escape +end the search, else close"
ok $? "s, t, z and % come before the keys of every view, q and Escape"
keys / m o v e Space d o w n Space o n e Space r o w Enter
wait_for "/move down one row: 1/1"
ok $? "the histogram's help has the list's j Down C-n"
keys q
wait_for "[histogram] session 1 | 2/3"
ok $? "q closes the help"
keys F1
wait_for "profview: help for the histogram view (q closes)" &&
    wait_for -E "^  \? F1 +show the keys, this view's first"
ok $? "F1 is help too"
keys q

keys t Enter
wait_for "[bucket] session 1"
keys ?
wait_for "profview: help for the bucket view" &&
    [ "$(screen | sed -n 2p)" = "In a bucket's symbols" ] &&
    wait_for -E "^  Enter a +annotate the symbol"
ok $? "the bucket view's own key first: Enter or a annotates"
keys q s
wait_for "s does nothing in the bucket view"
ok $? "a histogram key does nothing in the bucket view"

keys : "open 2" Enter
wait_for "[timeline] session 2" && wait_for "loaded "
keys ?
wait_for "profview: help for the timeline view" &&
    [ "$(screen | sed -n 2p)" = "In the timeline" ]
ok $? "? in the timeline: its own group first"
above "^  \[ +previous event of the unit" "^In every view" &&
    above "^  \] +next event of the unit" "^In every view" &&
    above "^  u Tab +the per-unit table" "^In every view"
ok $? "[ ] u come before the keys of every view"
keys / m o v e Space d o w n Space o n e Space r o w Enter
wait_for "/move down one row: no match"
ok $? "the list's j Down C-n, which the timeline rebinds, is left out"
keys / d e l e t e Space t h e Space w o r d Enter
wait_for -E "/delete the word: 1/1" &&
    screen | grep -qE "^  C-w +delete the word before the cursor"
ok $? "the prompt's editing keys are in the help (C-w)"
keys / y e s : Enter
wait_for -E "/yes:: 1/1" && screen | grep -qE "^  y Y +yes: go ahead"
ok $? "and the y/n question's"

keys q u
wait_for "overlay units by thrash"
keys : h e l p Enter
wait_for "profview: help for the units view" &&
    [ "$(screen | sed -n 2p)" = "In the unit table" ] &&
    above "^  u Tab +back to the timeline" "^In every view"
ok $? ":help in the unit table: its group first, u goes back"
keys q u
wait_for "[timeline] session 2"
ok $? "u in the unit table goes back to the timeline"
keys q

# A long entry wraps under its column at 80, its wide command on a line
# of its own (it ran on to column 120, cut by a narrower terminal).
pvsize="130 40" start -- browse 1
wait_for "[histogram] session 1"
keys ?
wait_for "profview: help for the histogram view"
keys / o b j e c t s Space b y Space r o o t Enter
wide() { screen | sed '$d' | sed 's/ *$//' | awk 'length > 80' | grep -q .; }
wait_for "/objects by root: 1/1" &&
    screen | grep -A1 -E '^  :select off\|trace\|.*module \.\.\.$' |
    grep -qE '^ {25}heap map: select objects by root or string, a type.s$' &&
    screen | grep -qE '^ {25}vtables or a module.s data, or their instances$' &&
    ! wide
ok $? "a long help entry wraps at 80 columns under its column"
keys q Q
finish
