#!/bin/sh
# pvtrace on a program that exec runs with other credentials (set-user-ID
# or set-group-ID to someone else): the loader ignores LD_PRELOAD for it,
# so nothing could be counted.  pvtrace says why and exits 127 without
# running it or writing a profile (it wrote an empty one and exited 0).
# As root the test makes its own, owned by nobody; as another user it
# takes a set-user-ID program of the system's.
. "${top_srcdir:-.}/tests/e2e/trace.sh"

# refused NAME PROG [ARG]...
refused() {
	name=$1
	shift
	(cd "$W" && "$PVTRACE" -o "$name.mon" -p "$name.pdt" -- "$@" \
	    >"$name.out" 2>"$name.err"; echo $? >"$name.rc")
	r=$(cat "$W/$name.rc")
	check "$name: pvtrace exits 127 ($r)" test "$r" = 127
	check "$name: says why" grep -q "ignores LD_PRELOAD" "$W/$name.err"
	check "$name: no profile written" test ! -e "$W/$name.mon"
	check "$name: the program not run" test ! -s "$W/$name.out"
}

if [ "$(id -u)" = 0 ]; then
	idp=$(command -v id)
	cp "$idp" "$W/suid"
	chown 65534 "$W/suid"
	chmod 4755 "$W/suid"
	# On a nosuid mount it runs as us, and is traced as usual.
	[ "$("$W/suid" -u)" = 65534 ] ||
	    skip_all "$W is on a nosuid mount: set-user-ID does nothing"
	refused suid "$W/suid" -u
	check "suid: the owner named" grep -q "set-user-ID (to " \
	    "$W/suid.err"
	cp "$idp" "$W/sgid"
	chgrp 65534 "$W/sgid"
	chmod 2755 "$W/sgid"
	refused sgid "$W/sgid" -g
	check "sgid: the group named" grep -q "set-group-ID (to " \
	    "$W/sgid.err"
	# Set-user-ID to ourselves changes nothing: traced as usual.
	cp "$TD/deep" "$W/own"
	chmod 4755 "$W/own"
	trace own "$W/own" 5
	check "own set-user-ID program: traced (exit 0, down 6 calls)" \
	    test "$(cat "$W/own.rc") $(field own down 1)" = "0 6"
else
	for p in /usr/bin/passwd /bin/su /usr/bin/chsh /usr/bin/newgrp ""; do
		[ -n "$p" ] && [ -u "$p" ] && [ -x "$p" ] &&
		    [ "$(stat -c %u "$p")" != "$(id -u)" ] && break
	done
	[ -n "$p" ] || skip_all "not root, and no set-user-ID program here"
	refused system "$p" --help
fi
finish
