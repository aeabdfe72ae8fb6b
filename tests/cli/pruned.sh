# tests/cli/pruned.sh — sourced by the tests of imports into pruned months
# (5013-5015) after lib.sh: an archive in a directory, an iPhone's steps,
# a store pushed and pruned, and what the tests read of it.

. "$(dirname "$0")/archive.sh"
t0=1672531200   # 2023-01-01T00:00:00Z
conf="$XDG_CONFIG_HOME/hq/config"
cache="$HOME/.cache/hq/archive"
steps="(SELECT id FROM metric WHERE identifier = 'HKQuantityTypeIdentifierStepCount')"

# phone.jsonl: an iPhone's steps at :00-:10 of every hour of
# 2023-01..2023-03, 100 + the hour's number mod 50 (archive.sh), and the
# archive's remote in the config
hourly_steps 2160 "$T/phone.jsonl" "My iPhone"
# v T: the iPhone's count at the hour starting at T
v() { echo $((100 + ($1 - t0) / 3600 % 50)); }

# pruned_store FILE...: imported, pushed, 2023-01..2023-02 pruned
pruned_store() {
	hq-ingest -q "$@" >/dev/null && hq-archive -q init >/dev/null &&
	    hq-archive -q push && hq-archive -q prune --before 2023-03 --yes
}
# cached: how many months the cache holds
cached() { ls "$cache" 2>/dev/null | grep -c '\.db$'; }
