#!/bin/sh
# Install what hq needs to build, test and benchmark, from Debian 12's
# packages. Safe to re-run: only missing packages are installed.
set -eu
PKGS="gcc make pkg-config libc6-dev
libsqlite3-dev libxml2-dev libcjson-dev libcurl4-openssl-dev libarchive-dev
zlib1g-dev
sqlite3 libxml2-utils libarchive-tools python3 perl tzdata time valgrind
groff-base tmux zsh fish faketime"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
	SUDO=
elif command -v sudo >/dev/null 2>&1; then
	SUDO=sudo
else
	echo "deps: need root to install:$missing" >&2
	exit 2
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
