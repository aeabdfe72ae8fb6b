#!/usr/bin/env bash
# libcurl is opened by name when first used (lib/base/curl.c): Debian's
# OpenSSL build libcurl.so.4, else the GnuTLS build (libcurl-gnutls.so.4,
# libcurl3-gnutls) or the NSS one, so a machine with only those still
# reaches its model and its archive; with none, the error says what was
# tried. The libraries are hidden by bind-mounting /dev/null over them in
# a private mount namespace: that needs root and unshare, else skipped.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null ||
	skip_all "needs root and unshare -m to hide a library"
so() { ldconfig -p | awk -v n="$1" '$1 == n { print $NF; exit }'; }
openssl=$(so libcurl.so.4) gnutls=$(so libcurl-gnutls.so.4) nss=$(so libcurl-nss.so.4)
[ -n "$openssl" ] || skip_all "no libcurl.so.4 here"

# hidden FILE...: /dev/null mounted over each (the link's target)
cat >"$T/hide.sh" <<'SH'
n=$1; shift
for i in $(seq "$n"); do mount --bind /dev/null "$(readlink -f "$1")"; shift; done
exec "$@"
SH
hidden() { unshare -m sh "$T/hide.sh" "$@"; }
export HQ_LLM_PROVIDER=openai HQ_LLM_BASE_URL=http://127.0.0.1:1/v1 \
	OPENAI_API_KEY=test-key HQ_LLM_MODEL=m
export HQ_ARCHIVE_ACCESS_KEY=a HQ_ARCHIVE_SECRET_KEY=b
S3='--remote s3://b/a --endpoint http://127.0.0.1:1'

out=$(hidden 0 hq-agent hello 2>&1)
like "$out" "cannot reach http://127.0.0.1:1/v1/chat/completions: Couldn't connect" \
	"libcurl.so.4 there: hq-agent's request is made (nothing listens)"
if [ -n "$gnutls" ]; then
	out=$(hidden 1 "$openssl" hq-agent hello 2>&1)
	like "$out" "cannot reach http://127.0.0.1:1/v1/chat/completions: Couldn't connect" \
		"libcurl.so.4 hidden: the GnuTLS build makes the request"
else
	ok 0 "# SKIP no libcurl-gnutls.so.4 here"
fi

hide="$openssl"
n=1
for f in "$gnutls" "$nss"; do
	[ -n "$f" ] && { hide="$hide $f"; n=$((n + 1)); }
done
# shellcheck disable=SC2086
out=$(hidden "$n" $hide hq-archive $S3 init 2>&1)
st=$?
is "$st" 1 "no libcurl at all: hq-archive init fails"
like "$out" "^hq-archive: libcurl cannot start: libcurl could not be opened: .*libcurl\\.so\\.4" \
	"and says libcurl could not be opened, naming libcurl.so.4"
[ -n "$gnutls" ] && like "$out" "; [^;]*libcurl-gnutls\\.so\\.4" "and the GnuTLS build tried"
# shellcheck disable=SC2086
out=$(hidden "$n" $hide hq-agent hello 2>&1)
like "$out" "cannot initialise libcurl: libcurl could not be opened" \
	"hq-agent says the same"
unlike "$out" "test-key" "the key is not in the message"
done_testing
