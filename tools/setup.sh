#!/bin/sh
# Install what profview needs (Debian, as root; idempotent), build it, and
# then either open the demo ("demo") or run every test ("check").
set -eu
cd "$(dirname "$0")/.."

PKGS="build-essential autoconf automake pkg-config libncurses-dev
libtermkey-dev libsqlite3-dev sqlite3 check nasm dosbox tmux clang
libclang-rt-14-dev valgrind python3"

install_deps() {
	missing=""
	for p in $PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		    grep -q 'install ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		echo "setup: need root to install:$missing" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $missing
}

build() {
	[ -x configure ] || autoreconf -fi
	[ -f Makefile ] || ./configure "$@"
	make -j2
}

what=${1:-check}
[ $# -gt 0 ] && shift
install_deps
case "$what" in
deps)	;;
build)	build "$@" ;;
demo)	build
	exec ./profview --db "${PROFVIEW_DB:-examples/demo.db}" examples/*.PRF ;;
check)	build
	exec tools/check.sh ;;
*)	echo "usage: tools/setup.sh [deps|build|demo|check]" >&2; exit 2 ;;
esac
