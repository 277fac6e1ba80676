#!/bin/sh
# The examples a newcomer copies: every profview command in the README's
# "Using it" block and in profview(1)'s EXAMPLES runs as written, from the
# top of the source tree, in that order, on a fresh store (the browser's
# lines, which open the terminal, only ingest their file, as the browser
# does first), every file they name exists, and every query they show
# about a numbered session finds rows.
: "${PROFVIEW:?PROFVIEW must name the built binary}"
src=$(cd "${top_srcdir:-.}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvdocs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

# A work folder that looks like the top of the tree for what the
# examples read, and takes what they write.
mkdir "$tmp/work"
ln -s "$src/examples" "$tmp/work/examples"
mkdir "$tmp/bin"
ln -s "$PROFVIEW" "$tmp/bin/profview"

# The README's commands: its indented profview lines under "## Using it".
sed -n '/^## Using it/,/^## /p' "$src/README.md" |
    sed -n 's/^    \(profview .*\)$/\1/p' |
    sed 's/  *# .*$//' > "$tmp/readme"
# profview(1)'s: "$ profview" lines of EXAMPLES, with their continuation
# lines joined (the SQL wraps).
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$src/man/profview.1" |
    awk '/^\$ profview/ { if (c != "") print c; c = substr($0, 3); next }
	/^\.Ed/ { if (c != "") print c; c = ""; next }
	c != "" { sub(/^ +/, " "); c = c $0 }
	END { if (c != "") print c }' |
    sed 's/\\(em/-/g; s/\\e/\\/g' > "$tmp/man"

n=0
total=$(($(wc -l < "$tmp/readme") + $(wc -l < "$tmp/man")))
echo "1..$total"
run() {	# run FROM LINE
	n=$((n + 1))
	line=$2
	# A file argument is any word with a dot and no quote or dash at its
	# start that is not written: the examples' inputs.
	set -- $(echo "$line" | sed "s/'[^']*'//g; s/\"[^\"]*\"//g")
	shift
	sub=$1
	case $sub in
	ingest|sessions|sql|export|delete|browse|diff) ;;
	*)
		# The browser, which ingests its file first: that much here.
		line="profview ingest $sub"
		;;
	esac
	# A query of a session by number, shown on the terminal, must find
	# something (a header, its rule and a row): the numbers the text
	# gives are those the examples before it made.
	if (cd "$tmp/work" && PROFVIEW_DB="$tmp/db" PATH="$tmp/bin:$PATH" \
	    sh -c "$line" > "$tmp/out" 2> "$tmp/err") &&
	    { ! echo "$line" | grep -q '^profview sql .*session = [0-9]' ||
	    echo "$line" | grep -q '>' ||
	    [ "$(wc -l < "$tmp/out")" -ge 3 ]; }; then
		echo "ok $n - $1: $line"
	else
		echo "not ok $n - $1: $line"
		sed 's/^/# /' "$tmp/err"
	fi
}
while IFS= read -r l; do run README "$l"; done < "$tmp/readme"
# The man page's examples on a store of their own, in their order.
rm -f "$tmp/db" "$tmp/db-wal" "$tmp/db-shm"
while IFS= read -r l; do run profview.1 "$l"; done < "$tmp/man"
