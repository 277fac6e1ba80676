#!/bin/sh
# Every tool's command line as a new user first meets it (issue 19, points
# 3 and 4): --help and -h print the whole usage on standard output and exit
# 0, --version and -V print the package's version, a bad option is the
# short usage on standard error and status 2; a mistyped command is told
# as one, with the command it was near, not as a file or a pid.
: "${PROFVIEW:?PROFVIEW must name the built binary}"
: "${top_builddir:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvclihelp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
. "${top_srcdir:-.}/tests/tap.sh"
b=$(cd "$top_builddir" && pwd)
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$b/config.h")
tools="profview=$PROFVIEW pvtrace=$b/capture/pvtrace/pvtrace
pvheap=$b/capture/pvheap/pvheap pvprf=$b/capture/pvprf/pvprf
pvprfd=$b/capture/pvprf/pvprfd"
echo "1..$((5 * 7 + 10))"

# run CMD...: its status in rc, its outputs in $tmp/out and $tmp/err.
run() { "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?; }
err() { cat "$tmp/err"; }

if [ -z "$version" ]; then
	echo "Bail out! no PACKAGE_VERSION in $b/config.h"
	exit 1
fi
for t in $tools; do
	name=${t%%=*}
	bin=${t#*=}
	for h in --help -h; do
		run "$bin" $h
		if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] &&
		    head -1 "$tmp/out" | grep -q "^usage: $name " &&
		    [ "$(grep -c . "$tmp/out")" -gt 3 ]; then
			ok 0 "$name $h: the usage on stdout, status 0"
		else
			ok 1 "$name $h: status $rc, stdout $(wc -l \
			    <"$tmp/out") lines, stderr: $(err)"
		fi
	done
	# Help that could not be written is a failure, not a silent 0.
	"$bin" --help >/dev/full 2>/dev/null </dev/null
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
		ok 0 "$name --help >/dev/full fails ($rc)"
	else ok 1 "$name --help >/dev/full: status $rc"; fi
	for v in --version -V; do
		run "$bin" $v
		if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] &&
		    grep -q "^$name .*$version\$" "$tmp/out"; then
			ok 0 "$name $v: $(cat "$tmp/out")"
		else
			ok 1 "$name $v: status $rc, stdout $(cat \
			    "$tmp/out"), stderr: $(err)"
		fi
	done
	run "$bin" --no-such-option
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
	    grep -q "no-such-option" "$tmp/err" &&
	    grep -q "^usage: $name " "$tmp/err"; then
		ok 0 "$name --no-such-option: the usage on stderr, status 2"
	else
		ok 1 "$name --no-such-option: status $rc, stderr: $(err)"
	fi
	# The short usage: the synopsis, not every option's description.
	if [ $rc -eq 2 ] && ! grep -q -- "--version" "$tmp/err"; then
		ok 0 "$name --no-such-option: the short usage"
	else ok 1 "$name --no-such-option: the whole help on stderr"; fi
done

# expect WHAT STATUS MESSAGE CMD...: exactly that one line on stderr.
expect() {
	what=$1 want=$2 msg=$3
	shift 3
	run "$@"
	if [ $rc -eq "$want" ] && [ "$(err)" = "$msg" ] &&
	    [ ! -s "$tmp/out" ]; then
		ok 0 "$what"
	else ok 1 "$what: status $rc, stderr: $(err)"; fi
}
cd "$tmp" || exit 1
db="$tmp/store.db"
expect "profview sesions: unknown command, did you mean sessions" 2 \
    "profview: unknown command 'sesions' (did you mean 'sessions'?)" \
    "$PROFVIEW" --db "$db" sesions
if [ ! -e "$db" ]; then ok 0 "profview sesions makes no store"
else ok 1 "profview sesions made $db"; fi
expect "profview sess: the start of sessions" 2 \
    "profview: unknown command 'sess' (did you mean 'sessions'?)" \
    "$PROFVIEW" --db "$db" sess
expect "profview exprot 1: did you mean export" 2 \
    "profview: unknown command 'exprot' (did you mean 'export'?)" \
    "$PROFVIEW" --db "$db" exprot 1
expect "profview nothere.prf: neither a file nor a command" 1 \
    "profview: nothere.prf: no such file, and not a command (see profview --help)" \
    "$PROFVIEW" --db "$db" nothere.prf
# A file of that name is a file: ingested (and refused, it is no profile).
echo "not a profile" >sesions
run "$PROFVIEW" --db "$db" sesions
if [ $rc -eq 1 ] && ! grep -q "unknown command" "$tmp/err" &&
    grep -q "sesions" "$tmp/err"; then
	ok 0 "profview sesions, a file there: read as a file"
else ok 1 "profview sesions, a file there: status $rc, stderr: $(err)"; fi

expect "pvprf recrd -- ./calc: did you mean record" 2 \
    "pvprf: unknown command 'recrd' (did you mean 'record'?)" \
    "$b/capture/pvprf/pvprf" recrd -- ./calc
run "$b/capture/pvprf/pvprf" frobnicate 1
if [ $rc -eq 2 ] && head -1 "$tmp/err" | grep -qx \
    "pvprf: unknown command 'frobnicate'" &&
    grep -q "^usage: pvprf " "$tmp/err"; then
	ok 0 "pvprf frobnicate 1: unknown command, and the usage"
else ok 1 "pvprf frobnicate 1: status $rc, stderr: $(err)"; fi

expect "pvtrace plna ./prog: did you mean plan" 2 \
    "pvtrace: unknown command 'plna' (did you mean 'plan'?)" \
    "$b/capture/pvtrace/pvtrace" plna ./prog
# A program of that name on PATH is run as asked, not taken for plan.
mkdir "$tmp/bin" && printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/plna" &&
    chmod +x "$tmp/bin/plna"
PATH="$tmp/bin:$PATH" run "$b/capture/pvtrace/pvtrace" plna
if ! grep -q "unknown command" "$tmp/err" &&
    grep -qF "$tmp/bin/plna" "$tmp/err"; then
	ok 0 "pvtrace plna, a program on PATH: taken as the program ($rc)"
else ok 1 "pvtrace plna, a program on PATH: $(err)"; fi
