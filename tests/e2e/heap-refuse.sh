#!/bin/sh
# Programs the loader will not preload the agent into: pvheap says why
# and exits 1 without running them, rather than run them and write
# nothing (a set-user-ID program that changes who runs it, a static
# one); a set-user-ID program that does not (its owner runs it) is
# watched as any other; an ELF file whose program headers are not there
# is named with the offset and the field.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-refuse
echo "1..5"

pvheap st -- "$HEAPBIN/static"
check "a static program: status $pv_rc, said, no snapshot" sh -c \
    '[ $1 = 1 ] && grep -q "statically linked" "$2" && [ ! -e "$3" ]' \
    sh $pv_rc "$W/st.err" "$W/st.heap"

cp "$HEAPBIN/list" "$W/mine"
chmod u+s "$W/mine"
pvheap mine -- "$W/mine"
check "set-user-ID to who runs it: watched (status $pv_rc)" \
    sh -c "[ $pv_rc = 7 ] && '$HEAPSUM' '$W/mine.heap' > /dev/null"

if [ "$(id -u)" = 0 ]; then
	cp "$HEAPBIN/list" "$W/suid"
	chown nobody "$W/suid"
	chmod 4755 "$W/suid"
	pvheap su -- "$W/suid"
	check "a set-user-ID program: status $pv_rc, said, no snapshot" sh -c \
	    '[ $1 = 1 ] && grep -q "set-user-ID program" "$2" && [ ! -e "$3" ]' \
	    sh $pv_rc "$W/su.err" "$W/su.heap"
	(PATH=$W:$PATH; pvheap su2 -- suid; exit $pv_rc)
	check "... found along PATH too" sh -c \
	    '[ $1 = 1 ] && grep -q "set-user-ID program" "$2"' sh $? \
	    "$W/su2.err"
else
	ok 0 "a set-user-ID program # SKIP not root: no other owner to give"
	ok 0 "... found along PATH too # SKIP not root"
fi

head -c 64 "$HEAPBIN/list" > "$W/cut"
chmod +x "$W/cut"
pvheap cut -- "$W/cut"
check "program headers past the end: status $pv_rc, offset 32 e_phoff" \
    sh -c '[ $1 = 1 ] && grep -q "cut: offset 32: e_phoff .* past the end" "$2"' \
    sh $pv_rc "$W/cut.err"
