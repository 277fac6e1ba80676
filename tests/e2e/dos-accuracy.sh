#!/bin/sh
# PROFIL.COM under DOSBox on two workloads with known instruction splits:
# W3.COM (3:1) and W10.EXE (1:2:...:10, a hand-made MZ file).  Each
# routine's share of the program's samples, from the buckets profview
# stored, must be within 2 percentage points of its share of the
# instructions the workload counted itself; the .PRF header must match
# where DOS really loaded the program and how big the image is.  The
# runs keep PROFIL's hit table (tests/e2e/dos-hits.sh tests the table
# itself), so profview's flat profile is exact: within 1 point.  The
# NASM listings beside the programs are stored for the annotate view: each
# sampled CS:IP must be the address of a listed line.
. "${top_srcdir:-.}/tests/e2e/dos.sh"

dos_setup accuracy
dos_copy capture/profil/PROFIL.COM capture/profil/work/W3.COM \
    capture/profil/work/W3.MAP capture/profil/work/W3.LST \
    capture/profil/work/W10.EXE capture/profil/work/W10.MAP \
    capture/profil/work/W10.LST
echo "1..44"
# The saturation run first, so that W3.OUT is the accuracy run's.
dos_run 150 "PROFIL /B:4096 /C:50 W3.COM 2 > W3S.LOG" "REN W3.PRF W3S.PRF" \
    "PROFIL /B:1 /C:200 W3.COM > W3.LOG" \
    "PROFIL /B:1 /C:200 W10.EXE > W10.LOG"

# workload NAME EXT ROUTINE...
workload()
{
	name=$1 ext=$2
	shift 2
	check "$name: PROFIL reports a normal end" \
	    grep -q 'Program terminated normally (code 0)' "$DOSDIR/$name.LOG"
	if ! pv_ingest "$DOSDIR/$name.PRF"; then
		ok 1 "$name: profview ingests $name.PRF: $(cat "$DOSDIR/ingest.err")"
		for i in $(seq $((6 + $#))); do ok 1 "$name: no data"; done
		return
	fi
	ok 0 "$name: profview ingests $name.PRF"
	w=$(pv_warnings)
	check "$name: no ingest warnings ${w:+($w)}" test -z "$w"
	# The listing, placed by the load rule (COM and EXE alike), has a
	# line at every address PROFIL sampled, or (the loops' "times N nop")
	# the line that repeats an instruction there.
	c=$(pv_sql "SELECT count(*) FROM prf_source WHERE session = $pv_id")
	check "$name: the listing's $c lines stored" test "${c:-0}" -gt 0
	c=$(pv_sql "SELECT count(*) FROM prf_hit h WHERE h.session = $pv_id
	    AND NOT EXISTS (SELECT 1 FROM prf_source s WHERE
	    s.session = h.session AND s.addr = h.addr) AND NOT EXISTS
	    (SELECT 1 FROM prf_source s WHERE s.session = h.session AND
	    s.text LIKE '%times%' AND s.addr = (SELECT max(t.addr) FROM
	    prf_source t WHERE t.session = h.session AND t.addr < h.addr))")
	check "$name: every sampled CS:IP is a listed line's (${c:-?} not)" \
	    test "$c" = 0

	set -- "$@"
	hdr=$(pv_sql "SELECT prog_low_pa, prog_high_pa, bucket_num, bucket_siz
	    FROM prf WHERE session = $pv_id")
	low=$(echo "$hdr" | cut -d, -f1)
	high=$(echo "$hdr" | cut -d, -f2)
	num=$(echo "$hdr" | cut -d, -f3)
	siz=$(echo "$hdr" | cut -d, -f4)
	psp=$(hex "$(dos_out "$name.OUT" psp)")
	check "$name: prog_low_pa $low is the PSP the program saw ($psp)" \
	    test "$low" = "$psp"

	# The loaded image: a COM file whole; an EXE's load module.
	f=$DOSDIR/$name.$ext
	if [ "$ext" = COM ]; then
		bytes=$(wc -c < "$f")
	else
		set -- $(od -An -tu2 -j2 -N8 "$f") "$@"
		last=$1 pages=$2 paras=$4
		shift 4
		bytes=$((pages * 512 - paras * 16))
		[ "$last" -ne 0 ] && bytes=$((bytes - 512 + last))
	fi
	image=$((16 + (bytes + 15) / 16))
	check "$name: prog_high_pa - prog_low_pa = $image paragraphs" \
	    test "$((high - low))" = "$image"
	check "$name: bucket_num $num = ceil($image / $siz)" \
	    test "$num" = "$(((image + siz - 1) / siz))"

	# Routine extents from the map: to the next symbol.  A COM's map
	# offsets count from PSP:0000, an EXE's from the image at PSP+10h.
	base=0
	[ "$ext" = COM ] || base=16
	nasm_syms "$DOSDIR/$name.MAP" > "$DOSDIR/syms"
	pv_sql "SELECT lo, hits FROM bucket WHERE session = $pv_id" \
	    > "$DOSDIR/buckets"
	total=0
	for r in "$@"; do
		total=$((total + $(hex "$(dos_out "$name.OUT" "$r")")))
	done
	for r in "$@"; do
		instr=$(hex "$(dos_out "$name.OUT" "$r")")
		awk -F'[ ,]' -v r="$r" -v instr="$instr" -v total="$total" \
		    -v low="$low" -v base="$base" '
		FILENAME ~ /syms$/ {
			a[NR] = $1; nm[NR] = $2; ns = NR; next
		}
		{ lo[++nb] = $1; hits[nb] = $2; all += $2 }
		END {
			for (i = 1; i <= ns; i++)
				if (nm[i] == r)
					break
			if (i > ns) { print "no symbol " r; exit 1 }
			from = (low + base) * 16 + a[i]
			to = i < ns ? (low + base) * 16 + a[i + 1] : 1e12
			for (j = 1; j <= nb; j++)
				if (lo[j] >= from && lo[j] < to)
					got += hits[j]
			want = 100 * instr / total
			have = all ? 100 * got / all : 0
			d = have - want
			printf "%s %.2f%% of %d samples, %.2f%% of instructions\n",
			    r, have, all, want
			exit (d > 2 || d < -2)
		}' "$DOSDIR/syms" "$DOSDIR/buckets" > "$DOSDIR/share"
		ok $? "$name: $(cat "$DOSDIR/share")"
	done

	# The same shares from profview's own flat profile: its map reader,
	# the load rule and the hit table's exact attribution, end to end,
	# within 1 point.  A routine owns its local labels (rt1.loop).
	"$PROFVIEW" --db "$DOSDIR/pv.db" export -f csv "$pv_id" \
	    > "$DOSDIR/flat.csv" 2> /dev/null
	for r in "$@"; do
		instr=$(hex "$(dos_out "$name.OUT" "$r")")
		awk -F, -v r="$r" -v instr="$instr" -v total="$total" '
		$1 == "symbols" && ($4 == r || index($4, r ".") == 1) {
			got += $5; seen = 1
		}
		$1 == "buckets" { all += $5 }
		END {
			if (!seen) { print "no symbol " r " in the flat profile"; exit 1 }
			want = 100 * instr / total
			have = all ? 100 * got / all : 0
			d = have - want
			printf "%s flat profile %.2f%%, %.2f%% of instructions\n",
			    r, have, want
			exit (d > 1 || d < -1)
		}' "$DOSDIR/flat.csv" > "$DOSDIR/share"
		ok $? "$name: $(cat "$DOSDIR/share")"
	done
}

workload W3 COM alpha beta
workload W10 EXE rt1 rt2 rt3 rt4 rt5 rt6 rt7 rt8 rt9 rt10
# Saturation: one bucket for the whole program at 20 kHz gets more than
# 65535 samples.  The 16-bit count must stop at 65535, the PV32 trailer
# must say so and carry the real count, and profview must store that.
f=$DOSDIR/W3S.PRF
set -- $(od -An -tu2 -j2 -N2 "$f") 0
num=$1
set -- $(od -An -tu2 -j18 -N2 "$f") 0
check "saturation: the 16-bit bucket holds 65535" test "$1" = 65535
set -- $(od -An -tu2 -j$((18 + 2 * num + 6)) -N2 "$f") \
    $(od -An -tu4 -j$((18 + 2 * num + 8)) -N4 "$f") 0 0
check "saturation: the PV32 trailer flags it" test "$1" = 1
total=$2
pycheck "saturation: the hit table adds up to the 32-bit count" check "$f"
if pv_ingest "$f"; then
	hits=$(pv_sql "SELECT hits FROM bucket WHERE session = $pv_id
	    AND idx = 0")
	check "saturation: profview stores the 32-bit count ($hits of $total)" \
	    test "$hits" -gt 65535 -a "$hits" -le "$total"
else
	ok 1 "saturation: profview ingests W3S.PRF: $(cat "$DOSDIR/ingest.err")"
fi
[ "$dos_status" = 0 ] || echo "# dosbox exited with $dos_status"
