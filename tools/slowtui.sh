#!/bin/sh
# Run screen tests with every poll() of profview's returning late (strace
# injects a delay, default 40 ms), as on a loaded machine but every time:
# a check that reads the screen before its key's answer is drawn fails
# here, not once a week in CI.  From the top of a built tree:
#
#     sh tools/slowtui.sh                    # every tests/tui/*.sh
#     SLOW_US=80000 sh tools/slowtui.sh search timeline
#
# Slow by nature and not part of make check: a long load (a million rows
# of :sql) takes a poll a slice and can outlast a check's wait.
set -u
cd "$(dirname "$0")/.." || exit 2
command -v strace >/dev/null || { echo "slowtui: needs strace" >&2; exit 2; }
[ -x ./profview ] || { echo "slowtui: build profview first" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slowtui.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
# -D: strace a grandchild, so that profview keeps its pid (the tests
# signal it by pid).
cat > "$tmp/profview" <<EOS
#!/bin/sh
exec strace -D -o /dev/null -e trace=poll \
    -e inject=poll:delay_exit=${SLOW_US:-40000} "$(pwd)/profview" "\$@"
EOS
chmod +x "$tmp/profview"
[ $# -gt 0 ] || set -- $(ls tests/tui/*.sh | sed -n 's,.*/\(.*\)\.sh$,\1,p' |
    grep -vx lib)
failed=0
for t in "$@"; do
	top_srcdir=. top_builddir=. PROFVIEW="$tmp/profview" \
	    PROFVIEW_DB=:memory: TMUX_TMPDIR="$tmp" \
	    sh "tests/tui/$t.sh" > "$tmp/log" 2>&1
	n=$(grep -c '^not ok' "$tmp/log")
	echo "$t: $(grep -c '^ok' "$tmp/log") ok, $n not ok"
	grep '^not ok' "$tmp/log"
	failed=$((failed + n))
done
[ "$failed" = 0 ]
