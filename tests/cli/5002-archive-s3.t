#!/usr/bin/env bash
# hq-archive against a real S3 server (@20minutes/s3rver, tests/s3) on a
# free loopback port: every request signed (Signature V4), a wrong secret
# refused by the server (403), a round trip through it; the server's
# faults through a proxy (500, 503 with Retry-After, a dropped or cut
# connection) retried, then a clear error; no secret in any output.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/archive.sh"

start_s3 "$T/s3data"
[ -n "$S3_PORT" ]
ok $? "the S3 server runs on a free port ($S3_PORT)"
start_proxy
[ -n "$PX_PORT" ]
ok $? "the fault proxy runs in front of it ($PX_PORT)"

export HQ_ARCHIVE_ACCESS_KEY=HQTESTKEY HQ_ARCHIVE_SECRET_KEY=$S3_SECRET
gen-export --zip --days 40 --clinical -o "$T/g.zip" >/dev/null 2>&1
hq-ingest -q "$T/g.zip" >/dev/null
# path-style through the proxy, a prefix with a character S3 encodes
A=(--remote "s3://b/my+hq" --endpoint "http://127.0.0.1:$PX_PORT" --addressing path --region eu-west-3)

run hq-archive "${A[@]}" init
is "$rc" 0 "init on S3: exit 0"
run hq-archive "${A[@]}" push -v
is "$rc" 0 "push to S3: exit 0"
like "$out" '"sent":[1-9]' "push sent segments"
like "$err" 'PUT [0-9a-f]{32}: 200' "-v: a line per request"
unlike "$err" "$S3_SECRET|HQTESTKEY|Authorization|Credential" "-v shows neither the secret nor the access key"
is "$(grep -c UNSIGNED "$T/plog")" 0 "every request hq made was signed"
like "$(grep -c 'PUT /b/my%2Bhq/' "$T/plog")" '^[1-9]' "objects under the prefix, encoded as S3 signs it"
ls -R "$T/s3data" | grep -q manifest
ok $? "the manifest is in the server's bucket"
for s in "SQLite format 3" "Apple Watch" "HKQuantityTypeIdentifier" "2024-10-2"; do
	grep -rqaF "$s" "$T/s3data" --exclude='*.json'
	is "$?" 1 "the server's bytes hold no '$s'"
done

run hq-archive "${A[@]}" push
like "$out" '"unchanged":true' "a second push: nothing changed"
run hq-archive "${A[@]}" verify --format jsonl
is "$rc" 0 "verify over S3: exit 0"

# a wrong secret: the server refuses it, the error names the code only
run env HQ_ARCHIVE_SECRET_KEY=not-the-secret hq-archive "${A[@]}" list
is "$rc" 1 "a wrong secret: exit 1"
like "$err" "HTTP 403 SignatureDoesNotMatch" "a wrong secret: the server's 403, by its code"
unlike "$err" "not-the-secret|HQTESTKEY|StringToSign" "a wrong secret: no key nor signed text in the error"
run env HQ_ARCHIVE_ACCESS_KEY=nobody hq-archive "${A[@]}" list
like "$err" "HTTP 403 InvalidAccessKeyId" "an unknown access key: 403 by its code"
run env -u HQ_ARCHIVE_ACCESS_KEY -u HQ_ARCHIVE_SECRET_KEY hq-archive "${A[@]}" list
like "$err" "no credentials for s3://b/my\+hq" "no credentials: said"

# credentials from a 0600 file
printf 'access_key = HQTESTKEY\nsecret_key = %s\n' "$S3_SECRET" >"$T/cred"
chmod 600 "$T/cred"
run env -u HQ_ARCHIVE_ACCESS_KEY -u HQ_ARCHIVE_SECRET_KEY hq-archive "${A[@]}" --credentials "$T/cred" list
is "$rc" 0 "credentials from a 0600 file"
chmod 640 "$T/cred"
run env -u HQ_ARCHIVE_ACCESS_KEY -u HQ_ARCHIVE_SECRET_KEY hq-archive "${A[@]}" --credentials "$T/cred" list
like "$err" "others may read these credentials: chmod 600" "a credentials file others may read: refused"

# faults: retried, then a clear error
: >"$T/plog"
echo 500 >"$T/plan"
run hq-archive "${A[@]}" list
is "$rc" 0 "one 500: retried, then listed"
is "$(grep -c ' 500$' "$T/plog")" 1 "the 500 was seen once"
printf '500\n500\n500\n500\n' >"$T/plan"
run hq-archive "${A[@]}" list
is "$rc" 1 "500 four times: exit 1"
like "$err" "the server failed: HTTP 500 InternalError, 4 times" "500 four times: a clear error"
printf '503 2\n' >"$T/plan"
start=$(date +%s.%N)
run hq-archive "${A[@]}" list
end=$(date +%s.%N)
is "$rc" 0 "503 with Retry-After: retried"
awk -v a="$start" -v b="$end" 'BEGIN { exit !(b - a >= 2) }'
ok $? "503 with Retry-After: 2 waited 2 s before the retry"
printf 'drop\n' >"$T/plan"
run hq-archive "${A[@]}" verify --format jsonl
is "$rc" 0 "a dropped connection: retried"
printf 'drop\ndrop\ndrop\ndrop\n' >"$T/plan"
run hq-archive "${A[@]}" list
is "$rc" 1 "a connection dropped four times: exit 1"
like "$err" "Server returned nothing.*4 times" "a dropped connection: a clear error"
: >"$T/plan"
# a GET cut short: the manifest is read on every command; cut its body
printf 'pass\ncut 100\n' >"$T/plan"
run hq-archive "${A[@]}" list
is "$rc" 0 "a body cut short: retried"

# a new machine restores through S3
mkdir -p "$T/new/config/hq"
cp "$XDG_CONFIG_HOME/hq/archive.key" "$T/new/config/hq/"
run env HOME="$T/new" XDG_CONFIG_HOME="$T/new/config" hq-archive "${A[@]}" --db "$T/new/hq.db" restore
is "$rc" 0 "restore from S3 on a new machine"
for q in "hq-query steps --by day" "hq-query workouts" "hq-query heart_rate --by hour --from 2024-10-25 --to 2024-10-26" "hq-report latest labs"; do
	is "$(HQ_DB="$T/new/hq.db" $q 2>&1)" "$($q 2>&1)" "restored via S3: $q"
done

# virtual-host addressing: BUCKET.HOST (s3rver cannot check its
# signatures, so the URL is what is checked, through the proxy)
: >"$T/plog"
run hq-archive --remote s3://b --endpoint "http://localhost:$PX_PORT" --addressing virtual list -v
like "$(head -1 "$T/plog")" '^GET /hq-archive signed ' "virtual-host: the object at the host's root, signed"
unlike "$err" "$S3_SECRET" "virtual-host: no secret in the error"

done_testing
