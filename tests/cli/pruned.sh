# tests/cli/pruned.sh — sourced by the tests of imports into pruned months
# (5013-5015) after lib.sh: an archive in a directory, an iPhone's steps,
# a store pushed and pruned, and what the tests read of it.

t0=1672531200   # 2023-01-01T00:00:00Z
mkdir -p "$XDG_CONFIG_HOME/hq"
conf="$XDG_CONFIG_HOME/hq/config"
printf '[archive]\nremote = file://%s/remote\n' "$T" >"$conf"
cache="$HOME/.cache/hq/archive"
steps="(SELECT id FROM metric WHERE identifier = 'HKQuantityTypeIdentifierStepCount')"

# phone_steps: an iPhone's steps at :00-:10 of every hour of
# 2023-01..2023-03, 100 + the hour's number mod 50, as JSON lines
phone_steps() {
	awk -v t0=$t0 'BEGIN { for (i = 0; i < 2160; i++) { t = t0 + i * 3600
		printf "{\"metric\":\"steps\",\"start\":%d,\"end\":%d,\"value\":%d,\"unit\":\"count\",\"source\":\"My iPhone\"}\n", t, t + 600, 100 + i % 50 } }'
}
# v T: the iPhone's count at the hour starting at T
v() { echo $((100 + ($1 - t0) / 3600 % 50)); }

# pruned_store FILE...: imported, pushed, 2023-01..2023-02 pruned
pruned_store() {
	hq-ingest -q "$@" >/dev/null && hq-archive -q init >/dev/null &&
	    hq-archive -q push && hq-archive -q prune --before 2023-03 --yes
}
# cached: how many months the cache holds
cached() { ls "$cache" 2>/dev/null | grep -c '\.db$'; }
