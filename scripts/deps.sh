#!/bin/sh
# Install what hq needs to build, test and benchmark, from Debian 12's
# packages. Safe to re-run: only missing packages are installed.
set -eu
PKGS="gcc make pkg-config libc6-dev
libsqlite3-dev libxml2-dev libcjson-dev libcurl4-openssl-dev libarchive-dev
libsodium-dev libzstd-dev zlib1g-dev zstd curl
sqlite3 libxml2-utils libarchive-tools python3 perl tzdata time valgrind
groff-base tmux zsh fish faketime"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
# node and npm from Debian unless a node with its npm is there already
command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"
# hq-archive's tests run a real S3 server from npm (tests/s3, pinned in
# its package-lock.json)
s3() {
	[ -d tests/s3/node_modules/@20minutes/s3rver ] && return 0
	echo "deps: npm ci in tests/s3" >&2
	(cd tests/s3 && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}
cd "$(dirname "$0")/.."
if [ -z "$missing" ]; then
	s3
	exit 0
fi
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
s3
