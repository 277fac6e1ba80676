#!/bin/sh
# Where a module's functions come from (issue 23 point 1), on pvprf
# record's dumps of modwork (tests/prfd/modwork, linked against its own
# libprfdmod.so): the library's .symtab; a stripped copy's debug file
# found by its .gnu_debuglink in .debug/ beside it, which names as many
# functions; without it the .dynsym, fewer; one found by build-id under
# --debug-dir's and $PROFVIEW_DEBUG_DIR's folders and in the debuginfod
# cache, by debuglink under a debug folder, and one of another build
# refused with a warning naming it; a library changed since the run,
# named by nothing and said so; the vDSO's by the reader's own image; a
# library mapped while the daemon was stopped, by the kernel's records;
# a JIT's code by none; the kernel's samples from /proc/kallsyms when it
# shows addresses.
. "${top_srcdir:-.}/tests/prfd/prfd.sh"
command -v objcopy >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1 ||
    skip_all "objcopy and readelf (binutils) are needed"
MODWORK=$top_builddir/tests/prfd/modwork
LIB=$top_builddir/tests/prfd/libprfdmod.so
PV="$top_builddir/profview --db $W/pv.db"

# dump NAME: modwork's dump with the library the loader finds first in
# $W/lib (else the build's), ingested alone; NAME.err the warnings.
dump() {
	LD_LIBRARY_PATH=$W/lib "$PVPRF" record -o "$W/$1.prfd" -- \
	    "$MODWORK" 0.3 >/dev/null 2>&1
	rm -f "$W/pv.db"
	$PV ingest "$W/$1.prfd" >/dev/null 2>"$W/$1.err"
}
sql() { $PV sql --csv "$1" 2>/dev/null | tail -n +2; }
# syms: the library's functions stored, and whether lib_five had samples.
syms() { sql "SELECT symbols FROM prfd_module WHERE path LIKE
    '%/libprfdmod.so'"; }
named() { sql "SELECT count(*) FROM symbol WHERE name = 'lib_five'"; }

dump plain
full=$(syms)
check "the library's .symtab: $full functions, lib_five among them" \
    test "${full:-0}" -gt 2 -a "$(named)" = 1

mkdir -p "$W/lib/.debug"
objcopy --only-keep-debug "$LIB" "$W/lib/.debug/libprfdmod.so.debug"
objcopy --strip-all --add-gnu-debuglink="$W/lib/.debug/libprfdmod.so.debug" \
    "$LIB" "$W/lib/libprfdmod.so"
dump debug
d=$(syms)
check "stripped, its debug file by debuglink in .debug/: $d functions of\
 $full" test "$d" = "$full"
rm "$W/lib/.debug/libprfdmod.so.debug"
rm -f "$W/pv.db"
$PV ingest "$W/debug.prfd" >/dev/null 2>"$W/debug.err"
s=$(syms)
check "without the debug file: the .dynsym's $s, fewer, lib_five named" \
    test "${s:-0}" -gt 0 -a "${s:-0}" -lt "$full" -a "$(named)" = 1

# The debug directories (--debug-dir, else $PROFVIEW_DEBUG_DIR) and the
# debuginfod client's cache, on the library stripped with no debuglink:
# found by build-id alone.  again NAME CMD...: NAME's dump ingested by
# CMD, again.err its warnings.
again() {
	d=$1
	shift
	rm -f "$W/pv.db"
	"$@" ingest "$W/$d.prfd" >/dev/null 2>"$W/again.err"
}
id=$(readelf -n "$LIB" | awk '/Build ID:/ { print $3 }')
objcopy --only-keep-debug "$LIB" "$W/lib.debug"
objcopy --strip-all "$LIB" "$W/lib/libprfdmod.so"
bid=$W/dd/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
mkdir -p "${bid%/*}"
cp "$W/lib.debug" "$bid"
again debug $PV --debug-dir "$W/none:$W/dd"
check "--debug-dir's second folder, by build-id: $(syms) functions of\
 $full" test "$(syms)" = "$full"
again debug env PROFVIEW_DEBUG_DIR="$W/dd" $PV
check "\$PROFVIEW_DEBUG_DIR, by build-id: $(syms) functions of $full" \
    test "$(syms)" = "$full"
rm -r "$W/dd"
for c in cache xdg/debuginfod_client home/.cache/debuginfod_client; do
	mkdir -p "$W/$c/$id"
	cp "$W/lib.debug" "$W/$c/$id/debuginfo"
done
again debug env PROFVIEW_DEBUG_DIR="$W/none" \
    DEBUGINFOD_CACHE_PATH="$W/cache" XDG_CACHE_HOME="$W/none" $PV
check "the debuginfod cache \$DEBUGINFOD_CACHE_PATH: $(syms) functions of\
 $full" test "$(syms)" = "$full"
again debug env -u DEBUGINFOD_CACHE_PATH PROFVIEW_DEBUG_DIR="$W/none" \
    XDG_CACHE_HOME="$W/xdg" HOME="$W/none" $PV
check "else \$XDG_CACHE_HOME/debuginfod_client: $(syms) functions of\
 $full" test "$(syms)" = "$full"
again debug env -u DEBUGINFOD_CACHE_PATH -u XDG_CACHE_HOME \
    PROFVIEW_DEBUG_DIR="$W/none" HOME="$W/home" $PV
check "else ~/.cache/debuginfod_client: $(syms) functions of $full" \
    test "$(syms)" = "$full"
rm -r "$W/cache" "$W/xdg" "$W/home"

# By debuglink under a debug folder: DIR/the library's folder/LINK.
objcopy --strip-all --add-gnu-debuglink="$W/lib.debug" "$LIB" \
    "$W/lib/libprfdmod.so"
mkdir -p "$W/dd$W/lib"
cp "$W/lib.debug" "$W/dd$W/lib/lib.debug"
again debug $PV --debug-dir "$W/dd"
check "by debuglink under --debug-dir's folder: $(syms) functions of\
 $full" test "$(syms)" = "$full"
rm -r "$W/dd"

# A debug file of another build where the module's should be: its own
# build-id note is not the module's, so refused, named, and not read.
nb=$(( ${#id} / 2 ))
{
	printf '\004\000\000\000'
	printf "\\$(printf %03o "$nb")\\000\\000\\000"
	printf '\003\000\000\000GNU\000'
	k=0
	while [ $k -lt $nb ]; do printf '\021'; k=$((k + 1)); done
} >"$W/note"
cp "$W/lib.debug" "$W/bad.debug"
objcopy --update-section .note.gnu.build-id="$W/note" "$W/bad.debug"
objcopy --strip-all "$LIB" "$W/lib/libprfdmod.so"
mkdir -p "${bid%/*}"
cp "$W/bad.debug" "$bid"
again debug $PV --debug-dir "$W/dd"
check "another build's debug file refused, named: the .dynsym's $(syms)" \
    sh -c "test '$(syms)' -lt '$full' && grep -qF \
    'debug file refused: $bid (build-id 1111' '$W/again.err'"
rm -r "$W/dd"

# A library with no build-id: its debuglink's CRC vouches for the file
# it names (gdb's check), and a file of other bytes is refused.
objcopy --remove-section .note.gnu.build-id "$LIB" "$W/nobid.so"
objcopy --only-keep-debug "$W/nobid.so" "$W/lib/.debug/nobid.debug"
objcopy --strip-all --add-gnu-debuglink="$W/lib/.debug/nobid.debug" \
    "$W/nobid.so" "$W/lib/libprfdmod.so"
dump nobid
check "no build-id, the debug file its debuglink's CRC names: $(syms)\
 functions of $full" test "$(syms)" = "$full"
printf x >>"$W/lib/.debug/nobid.debug"
again nobid $PV
check "a debug file of other bytes refused, named: the .dynsym's $(syms)" \
    sh -c "test '$(syms)' -lt '$full' && grep -qF \
    '$W/lib/.debug/nobid.debug (not the CRC its debuglink records)' \
    '$W/again.err'"
rm "$W/lib/.debug/nobid.debug"

# The library changed since the run: another build-id.
objcopy --add-section .note.x=/dev/null "$LIB" "$W/lib/other.so"
objcopy --remove-section .note.gnu.build-id "$W/lib/other.so"
cp "$W/lib/other.so" "$W/lib/libprfdmod.so"
rm -f "$W/pv.db"
$PV ingest "$W/debug.prfd" >/dev/null 2>"$W/changed.err"
u=$(sql "SELECT unresolved FROM prfd_module WHERE path LIKE
    '%/libprfdmod.so'")
check "a library changed since: no functions, said ($u)" sh -c \
    "test '$(syms)' = 0 && grep -q 'not the file profiled' '$W/changed.err'"

# The library replaced while the program runs (another build renamed
# over it, as an upgrade does), then put back: the dump has the build-id
# of the file mapped, which pvprfd reads through /proc/PID/map_files,
# not the path's, so the library is named.  modwork gate says on the
# FIFO that its library is mapped and waits for the FIFO's end.
# The kernel opens map_files links for CAP_SYS_ADMIN or
# CAP_CHECKPOINT_RESTORE only: without, pvprfd reads the path (the
# upgrade's build-id), as this user would.
mapfiles() { sh -c 'f=$(ls /proc/$$/map_files | head -n 1) &&
    head -c 1 "/proc/$$/map_files/$f" >/dev/null' 2>/dev/null; }
{ printf '\004\000\000\000\024\000\000\000\003\000\000\000GNU\000'
  printf 'pvprf-other-build-id'; } >"$W/note"
objcopy --update-section .note.gnu.build-id="$W/note" "$LIB" \
    "$W/lib/upgrade0.so"
# replaced NAME [WRAPPER...]: modwork's dump (under WRAPPER) with its
# library replaced once mapped and put back at the end, ingested alone.
replaced() {
	name=$1
	shift
	cp "$LIB" "$W/lib/libprfdmod.so"
	cp "$LIB" "$W/lib/mapped.so"
	cp "$W/lib/upgrade0.so" "$W/lib/upgrade.so"
	rm -f "$W/gate"
	mkfifo "$W/gate"
	LD_LIBRARY_PATH=$W/lib "$@" "$PVPRF" record -o "$W/$name.prfd" -- \
	    "$MODWORK" gate "$W/gate" 0.3 >/dev/null 2>&1 &
	rec=$!
	read -r started <"$W/gate"
	mv "$W/lib/upgrade.so" "$W/lib/libprfdmod.so"
	: >"$W/gate"
	wait "$rec"
	mv "$W/lib/mapped.so" "$W/lib/libprfdmod.so"
	rm -f "$W/pv.db"
	$PV ingest "$W/$name.prfd" >/dev/null 2>"$W/$name.err"
}
# Where map_files is closed (a regular user; here, root without the two
# capabilities) pvprfd sees by the device and inode that the path's file
# is not the one mapped, and the dump says so rather than giving the
# upgrade's build-id: the library's functions are not named by another
# build's symbols, and the warning says why.
if mapfiles; then
	replaced replaced
	r=$(syms)
	check "a library replaced during the run ($started), put back: $r\
 functions of $full, lib_five named" \
	    test "${r:-0}" = "$full" -a "$(named)" = 1
	if command -v setpriv >/dev/null 2>&1; then
		# A daemon of its own, started without them.
		mkdir -m 700 "$W/run-closed"
		replaced closed env XDG_RUNTIME_DIR="$W/run-closed" setpriv \
		    --bounding-set=-sys_admin,-checkpoint_restore \
		    --inh-caps=-sys_admin,-checkpoint_restore
	fi
else
	skip "a library replaced during the run" "/proc/PID/map_files" \
	    "cannot be opened here"
	replaced closed
fi
if [ -s "$W/closed.prfd" ]; then
	check "map_files closed, the library replaced: not named by the\
 replacement, said why ($(syms) functions)" sh -c "test '$(syms)' = 0 &&
	    grep -q 'not the one the program mapped' '$W/closed.err'"
else
	skip "map_files closed, the library replaced" "setpriv" "is missing"
fi

# The vDSO: modwork vdso loops on clock_gettime(CLOCK_MONOTONIC).  The
# vDSO names only what it exports: on a machine whose clock is kvm-clock
# most samples fall in its paravirtual clock's reader, which it does not
# name ("[vdso], outside symbols"), and the rest in
# __vdso_clock_gettime, which led on the machines before 2026-11-29.
"$PVPRF" record -o "$W/vdso.prfd" -- "$MODWORK" vdso 0.3 >/dev/null 2>&1
rm -f "$W/pv.db"
$PV ingest "$W/vdso.prfd" >/dev/null 2>"$W/vdso.err"
v=$(sql "SELECT samples || ' ' || symbols FROM prfd_module WHERE path =
    '[vdso]'")
$PV export -f csv 1 | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++)
    c[$i] = i } $1 == "flat" { print $c["module"] ":" $c["symbol"] }' \
    >"$W/vdso.flat"
top=$(head -1 "$W/vdso.flat")
check "the vDSO: its samples and functions ($v), the first row $top" \
    sh -c "test -n '$v' &&
    test '${v#* }' -gt 0 && echo '$top' | grep -q '^\[vdso\]:' &&
    grep -q '^\[vdso\]:.*clock_gettime' '$W/vdso.flat'"

# A daemon that reads its rings late (starved on a busy machine): stopped
# once the library is mapped until modwork has ended, when its
# /proc/PID/maps has nothing left to say.  The kernel's records of the
# mappings still put the library's samples in the library.
"$PVPRF" record -o "$W/late.prfd" -- "$MODWORK" 0.5 >/dev/null 2>&1 &
rec=$!
d=
i=0
while [ $i -lt 1000 ]; do
	# The daemon (the record's, started if it had ended) by its lock.
	m=$(pgrep -P $rec | head -1)
	[ -n "$m" ] && grep -q libprfdmod "/proc/$m/maps" 2>/dev/null &&
	    d=$(cat "$W/run/pvprfd.lock") &&
	    [ "$(cat "/proc/$d/comm" 2>/dev/null)" = pvprfd ] &&
	    kill -STOP "$d" && break
	d=
	i=$((i + 1))
	sleep 0.005
done
while [ -n "$d" ] && [ -d "/proc/$m" ] &&
    ! grep -q '^State:.*Z' "/proc/$m/status" 2>/dev/null; do
	sleep 0.02
done
stopped=${d:+stopped}
[ -z "$d" ] || kill -CONT "$d"
wait $rec
rm -f "$W/pv.db"
$PV ingest "$W/late.prfd" >/dev/null 2>"$W/late.err"
# hits FUNCTION: its samples in the flat profile.
hits() {
	$PV export -f csv 1 | awk -F, -v f="$1" 'NR == 1 { for (i = 1;
	    i <= NF; i++) c[$i] = i } $1 == "flat" && $c["symbol"] == f {
	    print $c["hits"] }'
}
five=$(hits lib_five)
two=$(hits own_two)
check "the daemon ${stopped:-not stopped} from the library's mapping to\
 modwork's end: lib_five's ${five:-no} samples, own_two's ${two:-no}" \
    test -n "$stopped" -a "${five:-0}" -gt "${two:-0}" -a "${two:-0}" -gt 0

# Code in anonymous memory (a JIT's) where modwork's own file was mapped
# and unmapped: the kernel reports the anonymous mapping too, as
# "//anon", which is no file: its samples are unknown, as the maps leave
# them, and no module is made of it, nor of the file once there.
"$PVPRF" record -o "$W/jit.prfd" -- "$MODWORK" jit 0.3 >/dev/null 2>&1
rm -f "$W/pv.db"
$PV ingest "$W/jit.prfd" >/dev/null 2>"$W/jit.err"
unk=$($PV export -f csv 1 | awk -F, '$1 == "global" && $4 == "unknown" {
    print $6 }')
mods=$(sql "SELECT group_concat(path, ' ') FROM prfd_module")
check "code in anonymous memory: unknown, ${unk:-no} % of the samples; no\
 module of it ($mods)" sh -c "awk -v u='${unk:-0}' \
    'BEGIN { exit !(u >= 80) }' && ! echo '$mods' | grep -q 'anon\|modwork'"

# The kernel: named when /proc/kallsyms shows addresses.
k=$(awk '{ print $1; exit }' /proc/kallsyms 2>/dev/null)
ks=$(sql "SELECT samples FROM prfd_module WHERE kernel" | head -1)
if [ -z "$k" ] || [ "$(echo "$k" | tr -d 0)" = "" ] || [ "${ks:-0}" = 0 ]
then
	skip "" "/proc/kallsyms shows no addresses here, or no kernel sample"
else
	kn=$(sql "SELECT count(*) FROM symbol WHERE module =
	    '[kernel.kallsyms]'")
	check "the kernel's $ks samples named by $kn kallsyms functions" \
	    test "${kn:-0}" -gt 0
fi
finish
