#!/bin/sh
# pvtrace's plan file and its leaves: flag l only on a jumped function,
# the end line's fifth count the file's leaves (- for --no-leaf), a plan
# from before leaves (four counts) or one made with leaves the other way
# from the run's planned again, one made the run's way used as it is.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
P="$TD/tiny"
cd "$W" || exit 1

"$PVTRACE" plan -o good.pdt "$P" >good.log 2>&1
end=$(grep '^end ' good.pdt)
leaves=$(awk '$1 == "fn" && $9 ~ /l/' good.pdt | wc -l)
check "the plan's end line counts its $leaves leaves ($end)" \
    test "${end##* }" = "$leaves" -a "$leaves" -ge 3

# refused NAME LINE FIELD MESSAGE: a run on NAME.pdt fails, and says why
# with the file, the line and the field.
refused() {
	"$PVTRACE" -o "$1.mon" -p "$1.pdt" -- "$P" >"$1.out" 2>"$1.err"
	rc=$?
	check "$1: refused ($rc): $(head -n 1 "$1.err")" sh -c "[ $rc != 0 ] &&
	    grep -qF '$1.pdt: line $2: $3: $4' '$1.err' && [ ! -e '$1.mon' ]"
}

# Flag l on the trapped function, then on the one left out.
for how in trap out; do
	line=$(grep -n "^fn [^ ]* [^ ]* [^ ]* $how " good.pdt | sed 1q)
	line=${line%%:*}
	awk -v l="$line" 'NR == l { $9 = ($9 == "-" ? "" : $9) "l" }
	    { print }' good.pdt >"l$how.pdt"
	refused "l$how" "$line" flags "l (a leaf) on a function not jumped"
done

# Flag c on a leaf displaced in part: the whole copy needs it all.
line=$(awk '$1 == "fn" && $9 ~ /l/ && $9 !~ /c/ && $4 != $6 { print NR;
    exit }' good.pdt)
awk -v l="$line" 'NR == l { $9 = $9 "c" } { print }' good.pdt >cpart.pdt
refused cpart "$line" flags \
    "c (a whole copy) on a function not a leaf displaced whole"

e=$(grep -n '^end ' good.pdt)
e=${e%%:*}
sed "s/^end \(.*\) $leaves\$/end \1 $((leaves + 1))/" good.pdt >more.pdt
refused more "$e" end "says $((leaves + 1)) leaves, the file has $leaves"
sed 's/^end \(.*\) [0-9]*$/end \1 -/' good.pdt >dash.pdt
refused dash "$e" end "says no leaves (-), the file has $leaves"
sed 's/^end \(.*\) [0-9]*$/end \1/' good.pdt >four.pdt
refused four "$e" end "says no leaves (four counts), the file has $leaves"
# Three counts, a plan from before GOT slots: its library functions
# (plt, g) gone with the fourth.
awk '$1 == "fn" && $5 == "plt" { next } $1 == "end" { NF = 4 } { print }' \
    good.pdt >three.pdt
e3=$(grep -n '^end ' three.pdt)
refused three "${e3%%:*}" end \
    "says no leaves (three counts), the file has $leaves"
sed 's/^end .*/& 0/' good.pdt >six.pdt
refused six "$e" end "want three to five counts"

# A plan from before leaves: no flag l (nor c), four counts.  pvtrace plans
# again (in the file it was given) and traces the leaves.
awk '$1 == "fn" { gsub(/[lc]/, "", $9); if ($9 == "") $9 = "-" }
    $1 == "end" { NF = 5 } { print }' good.pdt >old.pdt
"$PVTRACE" -o old.mon -p old.pdt -- "$P" >old.out 2>old.err
rc=$?
check "a plan from before leaves: the run succeeds ($rc), planning again" \
    sh -c "[ $rc = 0 ] && grep -q '^pvtrace: planned old.pdt' old.err"
check "... and the plan is the new one, its end line five counts" \
    cmp -s good.pdt old.pdt
h=$(awk '/^\[/ { s = $1 } s == "[functions]" && ($12 == "one" ||
    $12 == "two" || $12 == "three") { printf "%s ", $8 }' old.mon)
check "... and one two three traced as leaves ($h)" \
    test "$h" = "leaf leaf leaf "

"$PVTRACE" plan --no-leaf -o nl.pdt "$P" >nl.log 2>&1
check "--no-leaf: the end line's fifth count is - ($(grep '^end ' nl.pdt))" \
    test "$(grep '^end ' nl.pdt)" = "${end% *} -"
check "--no-leaf: no flag l" sh -c "! awk '\$1 == \"fn\" && \$9 ~ /l/' \
    nl.pdt | grep -q ."
cp nl.pdt nl2.pdt
"$PVTRACE" --no-leaf -o nl2.mon -p nl2.pdt -- "$P" >nl2.out 2>nl2.err
rc=$?
check "--no-leaf on a --no-leaf plan: used as it is ($rc)" sh -c "[ $rc = 0 ] &&
    [ ! -s nl2.err ] && cmp -s nl.pdt nl2.pdt"
"$PVTRACE" -o nl.mon -p nl.pdt -- "$P" >nl.out 2>nl.err
rc=$?
check "a run with leaves on a --no-leaf plan plans again ($rc)" \
    sh -c "[ $rc = 0 ] && grep -q '^pvtrace: planned nl.pdt' nl.err &&
    cmp -s good.pdt nl.pdt"
"$PVTRACE" --no-leaf -o back.mon -p nl.pdt -- "$P" >back.out 2>back.err
rc=$?
h=$(awk '/^\[/ { s = $1 } s == "[functions]" && $8 == "leaf"' back.mon)
check "--no-leaf on a plan with leaves plans again, no leaf traced ($rc)" \
    sh -c "[ $rc = 0 ] && grep -q '^pvtrace: planned nl.pdt' back.err &&
    [ \"\$(grep '^end ' nl.pdt)\" = '${end% *} -' ] && [ -z '$h' ]"
finish
