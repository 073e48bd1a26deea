#!/bin/sh
# scripts/setup.sh: make a fresh Debian machine ready to build ptxemu,
# then build it.  Installs only the Debian packages that are missing
# (with sudo when not root), runs autoreconf and configure (once), and
# make.  Extra arguments go to configure.
set -eu

cd "$(dirname "$0")/.."

need=""
for pkg in build-essential flex bison libgmp-dev check pkg-config \
           libzstd-dev liblz4-dev libjson-c-dev gnuplot-nox \
           autoconf automake libtool valgrind; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
         grep -q "install ok installed"; then
        need="$need $pkg"
    fi
done
if [ -n "$need" ]; then
    echo "setup: installing Debian packages:$need"
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "setup: need root or sudo to install:$need" >&2
        exit 1
    fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] ||
   [ Makefile.am -nt configure ] || [ tests/Makefile.inc -nt configure ]; then
    autoreconf -fi
fi
if [ ! -f Makefile ] || [ configure -nt Makefile ] || [ $# -gt 0 ]; then
    ./configure --enable-werror "$@"
fi
make -j"$(nproc 2>/dev/null || echo 2)"
