# TAP for the shell tests, sourced (from "${top_srcdir:-.}/tests/tap.sh",
# as the tests find their other helpers: a VPATH build's tests run from
# the build tree).  Automake's tap-driver.sh counts the points; a script
# prints its plan first when it knows the count (plan N) or last, from
# the points it printed (finish).
#
# Points are numbered from n, which a script may read; nothing else here
# is meant for the scripts but the functions.
n=0
tap_planned=
tap_failed=0

# plan COUNT: the plan, before the first point.
plan() {
	tap_planned=1
	echo "1..$1"
}

# ok STATUS DESCRIPTION [DIRECTIVE]: one point, passed if STATUS is 0.  A
# DIRECTIVE ("SKIP why", "TODO why") is TAP's: a point that carries one
# is not a failure of the script.  After a failure without one, the
# command in tap_on_fail, if the script set one, prints what would help
# to see why, as TAP comments (the screen tests print the screen).
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n${2:+ - $2}${3:+ # $3}"
		return 0
	fi
	echo "not ok $n${2:+ - $2}${3:+ # $3}"
	if [ -z "${3:-}" ]; then
		tap_failed=1
		if [ -n "${tap_on_fail:-}" ]; then
			$tap_on_fail
		fi
	fi
	return 0
}

# check DESCRIPTION COMMAND...: one point, passed if COMMAND succeeds.
# COMMAND's own output is not hidden: what it says on standard error is
# the diagnostic of a failure.
check() {
	tap_d=$1
	shift
	if "$@"; then ok 0 "$tap_d"; else ok 1 "$tap_d"; fi
}

# skip DESCRIPTION REASON...: a point that could not run here (the
# words of REASON joined as echo does).  An empty DESCRIPTION makes it
# "ok N # SKIP REASON".
skip() {
	tap_d=$1
	shift
	ok 0 "$tap_d" "SKIP $*"
}

# skip_all REASON: the whole script skipped (its only line), and ended.
skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

# finish: end the script, with the plan if none was printed; the status
# says whether a point failed.
finish() {
	[ -n "$tap_planned" ] || echo "1..$n"
	exit $tap_failed
}
