#!/bin/sh
# pvtrace counts library calls by default, caught at the GOT slots the
# program calls them through: strcmp, strtok, qsort (and by_value, the
# program's comparison, called back from it), memcpy, printf, strlen...
# from main, a thread and a child process, each count equal to uftrace's
# (a -pg build of the same source, its report of the PLT calls); the
# same through -fno-plt's GOT slots alone; none with --no-lib; the
# program's output unchanged; the samples of a stretch in strlen land in
# strlen; profview stores them as plt.  With --lib, the library's
# functions the program calls through its PLT are one function each,
# counted at their entries as callgrind counts them.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
need_valgrind
N=6000		# strlen's calls: ~0.1 s of samples in it

trace plt "$TD/plt" $N
"$TD/plt" $N >"$W/plt.native"
check "the traced program ran (exit $(cat "$W/plt.rc"))" \
    test "$(cat "$W/plt.rc")" = 0
check "output unchanged" cmp -s "$W/plt.native" "$W/plt.out"
check "the plan lists the GOT slots as plt, flag g" \
    grep -q "^fn 0 0x[0-9a-f]* 0 plt 0 - - g strcmp$" "$W/plt.pdt"
check "__libc_start_main left out, with why" grep -q \
    "^plt 0x[0-9a-f]* 0 __libc_start_main the C library's start" \
    "$W/plt.mon"
check "_exit left out: the agent stands in for it" grep -q \
    "^plt 0x[0-9a-f]* 0 _exit bound to the agent" "$W/plt.mon"

# The program's own functions still equal callgrind's counts.
callgrind plt "$TD/plt" $N
compare plt

# LIBCALLS: the library functions the program calls, by name.  fork is
# not among them: uftrace counts it in both processes, which each
# return from it; pvtrace counts the one call.
LIBCALLS="strcmp strtok qsort memcpy printf strlen memset strtol
    pthread_create pthread_join waitpid"
# oracle NAME FUNCTION...: "FUNCTION CALLS" for each, from NAME's
# [functions] (0 when absent).
oracle() {
	n=$1
	shift
	for f in "$@"; do
		echo "$f $(field "$n" "$f" 1 | grep . || echo 0)"
	done
}
if command -v uftrace >/dev/null 2>&1 &&
    uftrace record -d "$W/uft" "$TD/plt-pg" $N >/dev/null 2>"$W/uft.err"
then
	uftrace report -d "$W/uft" -s call --no-pager 2>/dev/null |
	    awk '$NF ~ /^[a-z_]+$/ { print $NF, $(NF - 1) }' |
	    sort >"$W/uft.calls"
	# same NAME: NAME's counts of the library calls and by_value equal
	# uftrace's; the ones that differ, named.
	same() {
		oracle "$1" $LIBCALLS by_value | sort >"$W/$1.calls"
		join -a 1 "$W/$1.calls" "$W/uft.calls" |
		    awk 'NF != 3 || $2 != $3 { print; bad = 1 }
		    END { exit bad }' >"$W/$1.diff"
	}
	check "library calls and by_value equal uftrace's" same plt
	cat "$W/plt.diff" 2>/dev/null | sed 's/^/# differs: /'
else
	skip "library calls equal uftrace's (no uftrace, or it failed)"
fi
b=$(edge plt qsort by_value 1)
check "by_value called back from qsort: $b calls" test "$b" = 8415 -o \
    "$b" = "$(awk '$1 == "by_value" { print $2 }' "$W/uft.calls" 2>/dev/null)"

# pathcalls NAME F1/F2/...: the calls of that call path, from the root.
pathcalls() {
	awk -v want="$2" '/^\[/ { s = $1; n = 0; next } /^#/ { next }
	    s == "[paths]" && NF == 9 {
	    p[n] = ($8 == "-" ? "" : p[$8] "/") $9
	    if (p[n] == want) print $1; n++ }' "$W/$1.mon"
}
c=$(pathcalls plt main/compare_words/strcmp)
t=$(pathcalls plt worker/compare_words/strcmp)
k=$(pathcalls plt main/child_work/compare_words/strcmp)
check "strcmp from main $c, the thread $t, the child $k (1000 100 50)" \
    test "$c $t $k" = "1000 100 50"

# The samples: strlen's stretch is its own, by the sampler.
python3 "$top_srcdir/tests/e2e/tracesamp.py" "$W/plt.mon" >"$W/plt.samp"
top=$(awk '$1 != "probe" && $1 != "program" { print $2, $1 }' \
    "$W/plt.samp" | sort -n | tail -1)
share=$(awk '$1 == "strlen" { s = $2 } $1 == "program" { p = $2 }
    END { if (p > 0) printf "%d\n", 100 * s / p }' "$W/plt.samp")
d="strlen has the most sampled self time ($top), $share % of the program's"
check "$d" \
    sh -c "[ '${top#* }' = strlen ] && [ '${share:-0}' -ge 50 ]"

# profview keeps them apart from patched entries: how is plt.
q=$(pvsql plt "SELECT how || ' ' || calls FROM func WHERE name = 'strcmp'")
check "profview ingests them as plt: strcmp $q" test "$q" = "plt 1150"

# --lib: the functions of a library the program calls through its PLT
# are traced at their own entries, whoever calls them: no GOT slot of
# their names planned, one row each, whose calls (the program's through
# the PLT and the library's own) equal callgrind's.  lib_again, another
# name of lib_step's, has its slot planned (the plan names the function
# lib_step), and the agent leaves that slot to the traced entry, so that
# no call passes two probes: its calls are lib_step's.
(cd "$W" && "$PVTRACE" plan --lib libpvtplt -o lib.pdt "$TD/plt-lib" \
    >lib.plan 2>&1 && "$PVTRACE" -o lib.mon -p lib.pdt -- "$TD/plt-lib" \
    100 >lib.out 2>lib.err)
check "--lib: output unchanged" test "$(cat "$W/lib.out")" = 31665
check "--lib: no GOT slot planned for lib_step or lib_work" sh -c \
    "! grep -q ' g lib_\\(step\\|work\\)\$' '$W/lib.pdt'"
check "--lib: lib_again's slot left to the traced lib_step" grep -q \
    "^plt-lib 0x[0-9a-f]* 0 lib_again bound to the code of a traced module" \
    "$W/lib.mon"
rows=$(awk '/^\[/ { s = $1 } s == "[functions]" && $12 ~ /^lib_/ {
    print $8, $9, $12 }' "$W/lib.mon" | sort | tr '\n' ' ')
# lib_step calls nothing: a leaf, with the light probe (the sampler runs).
check "--lib: one row each, at the library's entries ($rows)" \
    test "$rows" = "jump libpvtplt.so lib_work leaf libpvtplt.so lib_step "
callgrind lib "$TD/plt-lib" 100
compare lib 1
q=$(pvsql lib "SELECT how || ' ' || calls FROM func WHERE name LIKE 'lib_%'
    ORDER BY name" | tr '\n' ' ')
check "--lib: profview has one function each: $q" \
    test "$q" = "leaf 495 jump 100 "

# -fno-plt: the calls go through the GOT slots alone (R_X86_64_GLOB_DAT).
trace noplt "$TD/plt-noplt" $N
check "-fno-plt: output unchanged" cmp -s "$W/plt.native" "$W/noplt.out"
if [ -s "$W/uft.calls" ]; then
	check "-fno-plt: library calls equal uftrace's" same noplt
	cat "$W/noplt.diff" 2>/dev/null | sed 's/^/# differs: /'
else
	skip "-fno-plt: library calls equal uftrace's (no uftrace)"
fi

# --no-lib: none of them, the program's own as before.
(cd "$W" && "$PVTRACE" --no-lib -o nolib.mon -p nolib.pdt -- "$TD/plt" \
    $N >nolib.out 2>nolib.err)
check "--no-lib: no GOT slot planned" sh -c \
    "! grep -q ' g ' '$W/nolib.pdt'"
check "--no-lib: no library function counted" sh -c \
    "! awk '/^\\[/ { s = \$1 } s == \"[functions]\" && \$8 == \"plt\"' \
    '$W/nolib.mon' | grep -q ."
b=$(field nolib by_value 1)
check "--no-lib: by_value still counted ($b)" \
    test "$b" = "$(field plt by_value 1)"
# The same plan file, library calls on again: planned again, with them.
(cd "$W" && "$PVTRACE" -o again.mon -p nolib.pdt -- "$TD/plt" $N \
    >again.out 2>again.err)
s=$(field again strcmp 1)
check "the --no-lib plan is made again without it: strcmp $s" \
    test "$s" = 1150
finish
