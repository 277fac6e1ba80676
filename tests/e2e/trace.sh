# Helpers for the pvtrace truth tests (tests/e2e/trace-*.sh), sourced.
# Each test traces a program from tests/data/trace with pvtrace, runs it
# again under valgrind's callgrind (the oracle for call counts), and
# prints TAP; the plan line comes last, when the count is known.
: "${top_builddir:=.}" "${top_srcdir:=.}"
PVTRACE=$(cd "$top_builddir" && pwd)/capture/pvtrace/pvtrace
TD=$(cd "$top_builddir" && pwd)/tests/data/trace
TRACECMP="$top_srcdir/tests/e2e/tracecmp.py"
W=$(mktemp -d "${TMPDIR:-/tmp}/pvtrace-test.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT

# busy_cores: both cores kept busy (yes > /dev/null, twice) until the
# script ends, for the checks that must hold on a loaded machine.
busy_cores() {
	yes >/dev/null &
	Y1=$!
	yes >/dev/null &
	Y2=$!
	# CONT too: a test may have stopped them, and a stopped process
	# keeps a SIGTERM pending until it runs again.
	trap 'kill $Y1 $Y2 2>/dev/null; kill -CONT $Y1 $Y2 2>/dev/null
	    [ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT
}
. "$top_srcdir/tests/tap.sh"

need_valgrind() {
	command -v valgrind >/dev/null 2>&1 ||
	    skip_all "valgrind is not installed (the callgrind oracle)"
	command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"
}

# trace NAME PROG [ARG]...: pvtrace it in $W (NAME.mon, NAME.pdt,
# NAME.out, NAME.err, NAME.rc).
trace() {
	name=$1
	prog=$2
	shift 2
	(cd "$W" && "$PVTRACE" -o "$name.mon" -p "$name.pdt" -- "$prog" "$@" \
	    >"$name.out" 2>"$name.err"; echo $? >"$name.rc")
}

# callgrind NAME PROG [ARG]...: the oracle's run, one file per process;
# a dump at every fork keeps a child from counting its parent's calls.
callgrind() {
	name=$1
	shift
	valgrind --tool=callgrind --demangle=no --compress-strings=no \
	    --trace-children=yes '--dump-before=*fork*' \
	    --callgrind-out-file="$W/cg.$name.%p" "$@" \
	    >"$W/$name.cgout" 2>"$W/$name.cgerr"
}

# compare NAME [MODULE]: one TAP point per traced function callgrind saw
# called, and one for all those it did not (tracecmp.py).
compare() {
	python3 "$TRACECMP" --module "${2:-0}" "$W/$1.pdt" "$W/$1.mon" \
	    "$W"/cg."$1".* >"$W/$1.cmp" 2>&1
	while IFS= read -r line; do
		case $line in
		"ok "*) ok 0 "${line#ok [0-9]* - }" ;;
		"not ok "*) ok 1 "${line#not ok [0-9]* - }" ;;
		1..*) ;;
		*) echo "# $line" ;;
		esac
	done <"$W/$1.cmp"
}

# field NAME FUNCTION COLUMN: a column of FUNCTION's [functions] line
# (1 calls, 2 self_ns, 3 total_ns, 4 self_cpu_ns, 5 total_cpu_ns,
# 6 self_err, 7 total_err).
field() {
	awk -v f="$2" -v c="$3" '/^\[/ { s = $1 } s == "[functions]" &&
	    $12 == f { print $c; exit }' "$W/$1.mon"
}

# edge NAME CALLER CALLEE COLUMN: a column of a [calls] line.
edge() {
	awk -v a="$2" -v b="$3" -v c="$4" '/^\[/ { s = $1 } s == "[calls]" &&
	    $5 == a && $6 == b { print $c; exit }' "$W/$1.mon"
}

# header NAME KEY: the value(s) of a header line.
header() {
	awk -v k="$2" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' \
	    "$W/$1.mon"
}

# pvsql NAME QUERY: profview's answer to QUERY over NAME.mon, ingested
# into a store of the test's own (the session is the one NAME.mon made).
pvsql() {
	"${PROFVIEW:-$top_builddir/profview}" --db "$W/pv.db" ingest \
	    "$W/$1.mon" >/dev/null 2>"$W/$1.ingest" || return 1
	"${PROFVIEW:-$top_builddir/profview}" --db "$W/pv.db" sql --csv \
	    "$2" | sed 1d
}

# le A B [SLACK]: A <= B + SLACK, in integers of any size (awk: doubles).
le() { awk -v a="$1" -v b="$2" -v s="${3:-0}" 'BEGIN { exit !(a <= b + s) }'; }
