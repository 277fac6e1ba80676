#!/bin/sh
# The C the pprof export is built from (report/pprof.pb-c.[ch], kept in
# the tree) is what protoc-c makes of report/pprof.proto now: a change to
# the .proto without "make pprof-proto" fails here.
. "${top_srcdir:-.}/tests/tap.sh"

command -v protoc-c >/dev/null 2>&1 ||
    skip_all "protoc-c not found (Debian: protobuf-c-compiler)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
plan 1
# From the source tree with the .proto's relative name, as the rule runs
# it: the name is written into the files.
(cd "${top_srcdir:-.}" && protoc-c --c_out="$tmp" report/pprof.proto)
check "report/pprof.pb-c.c and .h are protoc-c's of report/pprof.proto" \
    sh -c 'cmp "$1/report/pprof.pb-c.c" "$2/report/pprof.pb-c.c" &&
	cmp "$1/report/pprof.pb-c.h" "$2/report/pprof.pb-c.h"' sh \
    "$tmp" "${top_srcdir:-.}"
finish
