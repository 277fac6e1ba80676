#!/bin/sh
# pvtrace on recursion, mutual recursion, static functions and tail
# calls, as a PIE and as a fixed-address executable: every function's
# call count equals callgrind's; the program's output is unchanged; a
# recursive function's self+children is not counted twice (it is at most
# its caller's, and a function that only calls itself has self+children
# equal to self).
. "${top_srcdir:-.}/tests/e2e/trace.sh"
need_valgrind
for p in recurse recurse-nopie; do
	trace "$p" "$TD/$p"
	"$TD/$p" >"$W/$p.native"
	check "$p: output unchanged" cmp -s "$W/$p.native" "$W/$p.out"
	check "$p: exit status 0" test "$(cat "$W/$p.rc")" = 0
	callgrind "$p" "$TD/$p"
	compare "$p"
	# Both are estimates, each with its uncertainty (column 7): the
	# callee's at most main's within the two together.  main's is the
	# larger (every call below it adds its own); a run whose calibration
	# came out high puts main's total far below its true one, even below
	# zero, and its uncertainty says so.  Counting a recursion twice
	# (recurse_spin's 51 levels: 51 times its time) still shows.
	main=$(field "$p" main 3)
	me=$(field "$p" main 7)
	for f in fib fact.constprop.0 is_even is_odd recurse_spin.constprop.0
	do
		t=$(field "$p" "$f" 3)
		e=$(field "$p" "$f" 7)
		[ -n "$t" ] || continue
		check "$p: $f self+children $t ns <= main's $main (+/- $e + $me)" \
		    le "$t" "$main" "$((e + me))"
	done
	# Recursion once: fib's total is the outermost call's, which is
	# main's edge to it; its self-edge counts the inner calls once too.
	t=$(field "$p" fib 3)
	m=$(edge "$p" main fib 2)
	check "$p: fib's self+children ($t) is main -> fib's ($m)" \
	    test "$t" = "$m"
	# fib calls nothing else: all the time under it is its own.  (Each
	# path's time is rounded to a ns on its own: 1 ns a call of slack.)
	s=$(field "$p" fib 2)
	c=$(field "$p" fib 1)
	check "$p: fib's self+children ($t) is its self ($s)" \
	    sh -c "$(printf 'd=$((%s - %s)); [ ${d#-} -le %s ]' "$t" "$s" "$c")"
	# profview reads the same numbers back.
	q=$(pvsql "$p" "SELECT f.calls || ' ' || f.total_ns || ' ' ||
	    (SELECT count(*) FROM callpath p WHERE p.session = f.session) ||
	    ' ' || (SELECT sum(calls) FROM callpath p WHERE p.session =
	    f.session AND p.func = 'fib') AS r FROM func f JOIN session s ON
	    s.id = f.session WHERE s.source LIKE '%/$p.mon' AND f.key = 'fib'")
	np=$(awk '/^\[paths\]/ { print $2 }' "$W/$p.mon")
	check "$p: profview ingests it: fib $c calls, $t ns, $np paths" \
	    test "$q" = "$c $t $np $c"
done
finish
