#!/bin/sh
# scripts/tap-slowest.sh DIR [N]: the N test files (default 12) that took
# the most CPU in the last run, from the *.time files scripts/tap-keep.sh
# kept in DIR, and the total: CPU and wall seconds. CI's budget is spent
# here; a new test that lands near the top needs a reason.
dir=$1 n=${2:-12}
[ -d "$dir" ] || exit 0
cat "$dir"/*.time 2>/dev/null | sort -rn | awk -v n="$n" '
NR <= n { printf "  %7.1f s CPU %7.1f s wall  %s\n", $1, $2, $3 }
{ cpu += $1; wall += $2; files++ }
END { if (files) printf "  %7.1f s CPU %7.1f s wall  in all (%d files)\n", cpu, wall, files }'
