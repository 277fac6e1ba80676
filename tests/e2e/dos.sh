# Shared by the DOS end-to-end tests and bench/dos: run commands in
# DOSBox, headless, on a temporary C: drive.  Sourced, not run.

: "${top_srcdir:=.}" "${top_builddir:=.}"
PROFVIEW=${PROFVIEW:-$top_builddir/profview}

# dos_setup NAME: skip the whole test unless DOSBox and the assembled
# programs are there; make DOSDIR, the C: drive.
dos_setup()
{
	DOSBOX=${DOSBOX:-$(command -v dosbox 2>/dev/null)}
	if [ -z "$DOSBOX" ]; then
		echo "1..0 # SKIP dosbox not found"
		exit 0
	fi
	if [ ! -f "$top_builddir/capture/profil/PROFIL.COM" ]; then
		echo "1..0 # SKIP PROFIL.COM not built (nasm not found)"
		exit 0
	fi
	DOSDIR=$(mktemp -d "${TMPDIR:-/tmp}/profview-$1.XXXXXX")
	trap 'rm -rf "$DOSDIR"' EXIT
	trap 'exit 1' HUP INT TERM
}

# dos_copy FILE...: put built files (paths from the top of the build) on C:.
dos_copy()
{
	for f in "$@"; do
		cp "$top_builddir/$f" "$DOSDIR/" || exit 1
	done
}

# dos_run SECONDS COMMAND...: run the DOS commands in one DOSBox session,
# then leave.  DOSBox's own output goes to DOSDIR/dosbox.log.
dos_run()
{
	limit=$1
	shift
	{
		cat "$top_srcdir/tests/e2e/dosbox.conf"
		printf '[autoexec]\nmount c "%s"\nc:\n' "$DOSDIR"
		for c in "$@"; do
			printf '%s\n' "$c"
		done
		printf 'exit\n'
	} > "$DOSDIR/test.cnf"
	# DOSBox writes its default settings under $HOME: keep it in here.
	HOME=$DOSDIR SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
	    timeout -k 5 "$limit" "$DOSBOX" -conf "$DOSDIR/test.cnf" -noconsole \
	    > "$DOSDIR/dosbox.log" 2>&1
	dos_status=$?
	# DOS_KEEP=DIR keeps the DOS side's text output for a look afterwards.
	cp "$DOSDIR"/*.TXT "${DOS_KEEP:-/nonexistent}" 2>/dev/null || :
}

# The workload's report: "name hexvalue" lines, CRLF.
dos_out()
{
	tr -d '\r' < "$DOSDIR/$1" | awk -v k="$2" '$1 == k { print $2 }'
}

hex()
{
	printf '%d\n' "0x$1"
}

. "$top_srcdir/tests/tap.sh"

# pv_ingest FILE: ingest into DOSDIR/pv.db; sets pv_id, keeps stderr in
# DOSDIR/ingest.err.  Returns profview's status.
pv_ingest()
{
	pv_id=$("$PROFVIEW" --db "$DOSDIR/pv.db" ingest "$1" \
	    2> "$DOSDIR/ingest.err" | cut -f1)
	st=$?
	[ -n "$pv_id" ] || st=1
	return $st
}

# Warnings other than "the map could not be read" (map parsing is another
# module's; these tests compute symbol extents from the map themselves).
pv_warnings()
{
	grep -i warning "$DOSDIR/ingest.err" | grep -v 'map ignored' || :
}

# pv_sql QUERY: numeric CSV rows from the store.  "profview sql" when it
# can; sqlite3 on the same store while the report module is not there.
pv_sql()
{
	if ! "$PROFVIEW" --db "$DOSDIR/pv.db" --csv sql "$1" \
	    > "$DOSDIR/sql.out" 2> /dev/null; then
		command -v sqlite3 > /dev/null || return 1
		sqlite3 -csv "$DOSDIR/pv.db" "$1" > "$DOSDIR/sql.out" ||
		    return 1
	fi
	grep '^[0-9-]' "$DOSDIR/sql.out"
}

# py COMMAND FILE ARGS...: tests/e2e/prfhits.py, which reads a .PRF's
# HITS section itself; its line goes to msg, its status to st.
py()
{
	python3 "$top_srcdir/tests/e2e/prfhits.py" "$@" > "$DOSDIR/py.out"
	st=$?
	msg=$(cat "$DOSDIR/py.out")
	return $st
}
# pycheck DESCRIPTION COMMAND FILE ARGS...: one test point, with msg.
pycheck()
{
	desc=$1
	shift
	py "$@"
	ok $st "$desc: $msg"
}

# NASM map symbols of the .text section: "virtual-address name", sorted,
# local labels (with a dot) left out.
nasm_syms()
{
	awk '/^---- Section / { text = ($3 == ".text") ; next }
	    text && $1 ~ /^[0-9A-Fa-f]+$/ && $2 ~ /^[0-9A-Fa-f]+$/ &&
	    $3 !~ /\./ { print $2, $3 }' "$1" |
	while read -r addr name; do
		echo "$(printf '%d' "0x$addr") $name"
	done | sort -n
}
