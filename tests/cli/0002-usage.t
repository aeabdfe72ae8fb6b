#!/usr/bin/env bash
# One option loop (lib/base/opts.c, hq_opts_parse) for every command: -h, the
# same words for every usage error, the table's checks of choices and
# ranges, --complete and the bash completion built on it.
. "$(dirname "$0")/lib.sh"

# usage_error CMD WANT NAME ARGS...: exit 2, nothing on stdout, and on
# stderr the message and the pointer to --help: two lines (the whole usage
# is --help's).
usage_error() {
	local cmd=$1 want=$2 name=$3
	shift 3
	run "$cmd" "$@" </dev/null
	is "$rc" 2 "$cmd $name: exit 2"
	is "$out" "" "$cmd $name: nothing on stdout"
	is "$(printf '%s\n' "$err" | head -1)" "$cmd: $want" "$cmd $name: the message"
	is "$(printf '%s\n' "$err" | sed -n '2,$p')" "try '$cmd --help'" "$cmd $name: then where to look, and no more"
}

# Every command parses its options with hq_opts_parse: one wording.
cmds="hq-ingest hq-agent hq-query hq-report"

for c in $cmds; do
	usage_error "$c" "unknown option '--bogus'" "--bogus" --bogus
	usage_error "$c" "unknown option '--bogus'" "--bogus=1" --bogus=1 x
	usage_error "$c" "unknown option '-Z'" "-Z" -Z
	usage_error "$c" "option '--db' needs a value" "--db at the end" --db
	usage_error "$c" "option '--version' takes no value" "--version=2" --version=2
	run "$c" -h
	is "$rc" 0 "$c -h: exit 0"
	like "$out" "^usage: $c " "$c -h: the usage on stdout"
	is "$out" "$("$c" --help)" "$c -h is --help"
	like "$out" "-h, --help" "$c --help lists -h"
	is "$(printf '%s\n' "$out" | awk 'length($0) > 80' | head -3)" "" "$c --help fits 80 columns"
done

# hq-agent: what the issue found (a bare "unknown option" for both)
usage_error hq-agent "option '--model' needs a value" "--model at the end" --model
usage_error hq-agent "option '-m' needs a value" "-m at the end" "how many steps?" -m
usage_error hq-agent "option '--max-steps' takes a whole number from 1 to 1000, not '0'" \
	"--max-steps 0" --max-steps 0 q
usage_error hq-agent "option '--max-output' takes a whole number from 256 to 16777216, not '10'" \
	"--max-output 10" --max-output 10 q
usage_error hq-agent "option '--timeout' takes a number above 0, not '0'" "--timeout 0" --timeout 0 q
usage_error hq-agent "option '--tool-timeout' takes a number above 0, not 'soon'" \
	"--tool-timeout soon" --tool-timeout soon q
usage_error hq-agent "option '--provider' takes openai, anthropic, gemini or ollama, not 'mistral'" \
	"--provider mistral" -p mistral q
usage_error hq-agent "option '--tool-mode' takes native or text, not 'json'" \
	"--tool-mode json" --tool-mode json q
usage_error hq-agent "option '--t' is ambiguous (--timeout, --tool-timeout, --tool-mode, --tz, --tool-schema)" \
	"an ambiguous --t" --t 5 q
usage_error hq-agent "no question (give it as arguments or on stdin)" "no question" -m x
# a long option may be abbreviated while it is the only one that fits
HQ_DB="$T/log.db" run hq-agent --lo
is "$rc" 1 "hq-agent --lo is --log (nothing logged yet: exit 1)"

# hq-ingest
usage_error hq-ingest "option '--format' takes auto, apple, fit, tcx, gpx, dexcom, libre, jsonl, labs, fhir or dexa, not 'xml'" "--format xml" \
	--format xml x.json
usage_error hq-ingest "option '--wait' takes a whole number from 0 to 604800, not '-1'" \
	"--wait -1" --wait -1 x.json
usage_error hq-ingest "no files to import ('-' reads stdin)" "no files" -q
usage_error hq-ingest "'-' (stdin) can be given only once" "stdin twice" - -
printf '{"metric":"weight","start":"2024-12-03T07:00:00Z","value":80}\n' >"$T/w.jsonl"
run hq-ingest "$T/w.jsonl" --format jsonl -q
is "$rc" 0 "hq-ingest: options after the files are read too"
like "$out" '"inserted":1' "hq-ingest: and the file is imported"
run hq-ingest -q -- "$T/w.jsonl"
is "$rc" 0 "hq-ingest: '--' ends the options"

# --complete: an enum's choices, one a line, from the table
run hq-ingest --complete format
is "$rc $out" "0 auto
apple
fit
tcx
gpx
dexcom
libre
jsonl
labs
fhir
dexa" "hq-ingest --complete format"
run hq-agent --complete --provider
is "$(printf '%s' "$out" | tr '\n' ' ')" "openai anthropic gemini ollama" "hq-agent --complete provider"
run hq-agent --complete model
is "$rc $out" "0 " "--complete: an option without a list prints nothing"
usage_error hq-agent "unknown option '--colour'" "--complete colour" --complete colour

# the bash completion asks the commands (one function for all of them)
complete_words() { # WORD...: what bash would offer for the last word
	bash -c '. "$1/completions/hq.bash"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_hq_complete; printf "%s\n" "${COMPREPLY[@]}"' \
		sh "$HQ_ROOT" "$@" | sort | tr '\n' ' '
}
is "$(complete_words hq-ingest --format '')" "apple auto dexa dexcom fhir fit gpx jsonl labs libre tcx " \
	"completion: hq-ingest --format"
is "$(complete_words hq-report cgm --by '')" "day month week " \
	"completion: hq-report cgm --by"
is "$(complete_words hq-report '')" "alerts bests cgm compare forecast goals latest list load nutrition plan trend week zones " "completion: hq-report's subcommands"
is "$(complete_words hq-report latest '')" "dexa labs " "completion: hq-report latest's kinds"
# the weeks are the zone's: at 03:30 UTC on Monday 2026-12-07 it is still
# Sunday in Los Angeles, so this week is 2026-W49, not W50
is "$(HQ_NOW=2026-12-07T03:30:00Z complete_words hq-report week --week '')" \
	"$(printf '2026-W%s ' 41 42 43 44 45 46 47 48 49)" \
	"completion: hq-report week --week, the last few ISO weeks of the zone's today"
like "$(complete_words hq-report --db "$T/none.db" trend resting_h)" "^resting_heart_rate resting_hr $" "completion: hq-report trend METRIC"
like "$(complete_words hq-report trend la)" "^labs $" "completion: hq-report trend labs still"
is "$(complete_words hq-agent -p '')" "anthropic gemini ollama openai " \
	"completion: hq-agent -p"
is "$(complete_words hq-agent --tool-mode t)" "text " "completion: hq-agent --tool-mode t"
is "$(complete_words hq-query --by w)" "week " "completion: hq-query --by w"
like "$(complete_words hq-query --agg p9)" "^p90 p95 p99 $" "completion: hq-query --agg p9"
like "$(complete_words hq-query --type run)" "running" "completion: hq-query --type run"
done_testing
