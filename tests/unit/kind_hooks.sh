#!/bin/sh
# What main takes from the kind table (kind.c) rather than knowing itself:
# a kind's options (--load's values), its question's verb (the commands a
# typo is matched against, the usage) and where a question goes.
echo 1..4
pv() { "${PROFVIEW:?}" --db :memory: "$@"; }
err=$(pv --load elf x 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$err" = "profview: --load takes com or exe" ]; then
	echo "ok 1 - --load's values come from prf's option"
else
	echo "not ok 1 - --load elf: exit $rc: $err"
fi
err=$(pv heep 2>&1); rc=$?
if [ $rc -eq 2 ] && echo "$err" | grep -q "did you mean 'heap'"; then
	echo "ok 2 - a mistyped question's verb is suggested"
else
	echo "not ok 2 - heep: exit $rc: $err"
fi
err=$(pv heap 1 2>&1); rc=$?
if [ $rc -eq 2 ] && echo "$err" | grep -q '^       profview \[options\] heap \[--csv|--json\] ID QUESTION'; then
	echo "ok 3 - a question without one is a usage error, its line in the usage"
else
	echo "not ok 3 - heap 1: exit $rc: $err"
fi
err=$(pv heap 1 sizes 2>&1); rc=$?
if [ $rc -eq 1 ] && echo "$err" | grep -q '^profview: heap: '; then
	echo "ok 4 - a question goes to its kind, which names itself in an error"
else
	echo "not ok 4 - heap 1 sizes: exit $rc: $err"
fi
