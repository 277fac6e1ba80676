#!/bin/sh
# pvtrace's light probe for leaves (no frame: a counted entry, a mark and
# a landing) under signals: a timer's handler calls traced functions
# while a leaf runs (its leaf is stashed in the handler's frame), a
# second timer's handler, itself a leaf, comes while a leaf runs, a
# handler siglongjmps out of a leaf, one leaves it by setcontext (which
# the agent does not hear of: to main, or to a function that then
# returns), one the plan does not trace leaves it by setcontext too, and
# one forks in it.  Leaves the plan copies whole into their trampolines
# (flag c: no landing, the return address left alone) fault there: a
# handler siglongjmps out of one, an untraced one leaves it by setcontext
# (its mark dead at the next entry, at the same return address, which
# is no jump to its own entry), another returns into one.  Every count
# is the program's own, with and without leaves (--no-leaf, --rate 0),
# and under a fast sampler, which reads the leaf's mark while it changes.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
need_valgrind

P="$TD/leafsig"
LEAVES="spin park forkwait leaf tick poke trip hleaf"
# Of them, those run whole in their trampolines.
COPIES="leaf tick poke trip"
# Called by the handlers: their counts are the timers' (and the faults').
HANDLED="handler node leaf tick segv ill hleaf"

# got NAME KEY: what the program printed for KEY (0 if nothing).
got() { awk -v k="$2" '$1 == k { v = $2 } END { print v + 0 }' "$W/$1.out"; }
# calls NAME FUNCTION: its calls in NAME.mon (absent: 0).
calls() { c=$(field "$1" "$2" 1); echo "${c:-0}"; }
stat() { awk -v k="$2" '$1 == "stat" && $2 == k { print $3 }' "$W/$1.mon"; }
# hows NAME WANT: the functions of LEAVES whose how is not WANT.
hows() {
	for f in $LEAVES; do
		h=$(awk -v f="$f" '/^\[/ { s = $1 } s == "[functions]" &&
		    $12 == f { print $8 }' "$W/$1.mon")
		[ "$h" = "$2" ] || printf ' %s:%s' "$f" "${h:-absent}"
	done
}

"$P" >"$W/native.out"
sed 's/[0-9][0-9]*/N/g' "$W/native.out" >"$W/native.shape"
check "untraced: 50 jumps, 60 + 20 contexts, a fork, 2050 spins, 30 + 20\
 faults and 30 trips" \
    test "$(got native jumps) $(got native contexts) $(got native raw) \
$(got native forks) $(got native spin) $(got native faults) \
$(got native rawfaults) $(got native tripped) $(got native trip)" = \
    "50 60 20 1 2050 30 20 30 30"

(cd "$W" && "$PVTRACE" plan -o plan.pdt "$P" >plan.log 2>&1)
bad=
for f in $LEAVES; do
	grep -q "^fn 0 0x[0-9a-f]* [0-9]* jump .* [a-z]*l[a-z]* $f\$" \
	    "$W/plan.pdt" || bad="$bad $f"
done
for f in $COPIES; do
	grep -q "^fn 0 0x[0-9a-f]* [0-9]* jump .* [a-z]*lc[a-z]* $f\$" \
	    "$W/plan.pdt" || bad="$bad $f:c"
done
for f in spin park forkwait hleaf; do
	grep -q "^fn 0 0x[0-9a-f]* [0-9]* jump .* [a-bd-z]*l[a-bd-z]* $f\$" \
	    "$W/plan.pdt" || bad="$bad $f:landing"
done
for f in main handler node hop segv ill; do
	grep -q "^fn 0 0x[0-9a-f]* [0-9]* jump .* [a-km-z-]* $f\$" \
	    "$W/plan.pdt" || bad="$bad $f"
done
check "plan: $LEAVES leaves, $COPIES whole copies, main handler node hop\
 segv ill not (${bad:-all right})" \
    test -z "$bad"

# run NAME WANT-HOW PVTRACE-ARG...: a traced run and its checks.
run() {
	name=$1
	want=$2
	shift 2
	(cd "$W" && "$PVTRACE" "$@" -o "$name.mon" -- "$P" >"$name.out" \
	    2>"$name.err"; echo $? >"$name.rc")
	sed 's/[0-9][0-9]*/N/g' "$W/$name.out" >"$W/$name.shape"
	check "$name: exit 0, no pvtrace error, the untraced output's shape" \
	    sh -c "[ \"\$(cat '$W/$name.rc')\" = 0 ] &&
	    ! grep -q pvtrace: '$W/$name.err' &&
	    cmp -s '$W/native.shape' '$W/$name.shape'"
	m="$(calls "$name" spin) $(calls "$name" park)"
	m="$m $(calls "$name" forkwait) $(calls "$name" hop)"
	m="$m $(calls "$name" nest) $(calls "$name" poke)"
	m="$m $(calls "$name" trip)"
	p="$(got "$name" spin) $(got "$name" park) $(got "$name" forkwait)"
	p="$p $(got "$name" hop) $(got "$name" nest) $(got "$name" poke)"
	p="$p $(got "$name" trip)"
	check "$name: main's calls counted ($m), as it made them ($p)" \
	    test "$m $(got "$name" jumps) $(got "$name" contexts) \
$(got "$name" raw) $(got "$name" forks) $(got "$name" faults) \
$(got "$name" rawfaults) $(got "$name" tripped)" = \
	    "2050 130 1 50 10 50 30 50 60 20 1 30 20 30"
	# An entry while the agent's C code runs (a handler that came in
	# the middle of main's entry of a leaf) is missed, and the stat
	# says so: a missed handler run misses its six entries, a missed
	# tick one.
	k=$(($(got "$name" handler) - $(calls "$name" handler)))
	t=$(($(got "$name" tick) - $(calls "$name" tick)))
	m="$(calls "$name" node) $(calls "$name" leaf) $(calls "$name" hleaf)"
	m="$m $(stat "$name" missed)"
	p="$(($(got "$name" node) - k)) $(($(got "$name" leaf) - 3 * k))"
	p="$p $(($(got "$name" hleaf) - k))"
	check "$name: the handlers' calls counted: node, leaf, hleaf, missed $m \
(handler $(got "$name" handler) runs, $k missed; tick $(got "$name" tick), \
$t missed)" sh -c "[ $k -ge 0 ] && [ $t -ge 0 ] &&
	    [ '$m' = '$p $((6 * k + t))' ]"
	# Each siglongjmp closes the handler's frame, and park's or poke's
	# when it has one (a missed handler run has none); each setcontext leaves
	# them to the next entry (main's of hop or park) or exit (nest's),
	# which closes them as abandoned (the untraced handlers have none:
	# raw's 20 contexts, and rawsegv's 20 out of poke).
	# A leaf so left is no frame, and a call of park after it no jump
	# to its own entry.
	u=$(stat "$name" unwound)
	a=$(stat "$name" abandoned)
	j=$(stat "$name" self_jumps)
	u=${u:--1} a=${a:--1} j=${j:--1}
	per=1
	[ "$want" = leaf ] || per=2
	x=$((60 * per + 40 * (per - 1)))
	check "$name: unwound $u, abandoned $a frames (50 + 30 jumps, 60 + 20\
 + 20 contexts, $per each, the last 40 one less), self_jumps $j" \
	    sh -c "[ $u -le $((80 * per)) ] && [ $u -ge $((80 * per - k)) ] &&
	    [ $a -le $x ] && [ $a -ge $((x - k)) ] && [ $j = 0 ]"
	# After each nest, main's loop of no call is main's own time, not
	# that of the park the setcontext left: the sampler's CPU time of
	# main's self is at least half its ten loops' (measured as burn).
	if [ "$name" != rate0 ]; then
		b=$(got "$name" burn)
		c=$(python3 "$top_srcdir/tests/e2e/tracesamp.py" \
		    "$W/$name.mon" | awk '$1 == "main" { print $2 }')
		check "$name: main's sampled self CPU ${c:-0} ns >= 5 x burn \
$b ns" le "$((5 * b))" "${c:-0}"
	fi
	h=$(hows "$name" "$want")
	check "$name: $LEAVES are how $want (${h:-all})" test -z "$h"
}
run leaf leaf -p plan.pdt
run fast leaf -p plan.pdt --rate 20000
run noleaf jump -p noleaf.pdt --no-leaf
run rate0 jump -p plan.pdt --rate 0

# The oracle for the calls no timer decides: main's, and the C
# runtime's.  Callgrind counts no handler's run as a call: the handlers'
# are checked against the program's own above, and left out of the plan
# it is compared over.  Nor does it count poke's calls, which fault in
# its first block: main's own count of them is checked above.
callgrind leaf "$P"
awk -v h=" $HANDLED poke " '!($1 == "fn" && index(h, " " $10 " "))' \
    "$W/plan.pdt" >"$W/oracle.pdt"
mv "$W/oracle.pdt" "$W/leaf.pdt"
compare leaf
finish
