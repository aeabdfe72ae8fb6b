# bash completion for hq-* commands. Installed as .../completions/hq with a
# link per command. Each command has one function below; its option list is
# checked against --help and the man page by tests/cli/0001-docs.t.

_hq_dates="today yesterday this-week last-week this-month last-month this-year last-year 7d 30d 3m 1y"

# Metric names present in the store (fast: reads the store's metric list).
_hq_metrics() {
	hq-query --complete-metrics 2>/dev/null
}

# The values an option takes, as the command lists them: its choices, or
# the library's list (workout types, aggregations). $1: the command, $2:
# the option. Returns 1 when the option has no list.
_hq_values() {
	local words
	words=$("$1" --complete "$2" 2>/dev/null)
	[ -n "$words" ] || return 1
	COMPREPLY=($(compgen -W "$words" -- "$cur"))
}

_hq_common() {
	# $1: the previous word. Completes the arguments of shared options;
	# returns 0 when it did.
	case $1 in
	--db) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
	--tz) COMPREPLY=($(cd /usr/share/zoneinfo 2>/dev/null && compgen -f -- "$cur")); return 0 ;;
	esac
	return 1
}

_hq_ingest() {
	local cur prev
	_init_completion 2>/dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; }
	local opts="-q --quiet --db --format --tz --wait -h --help --version --tool-schema"
	case $prev in
	--format) _hq_values hq-ingest "$prev"; return ;;
	--wait) COMPREPLY=($(compgen -W "0 10 60 600" -- "$cur")); return ;;
	esac
	_hq_common "$prev" && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -F _hq_ingest hq-ingest

_hq_query() {
	local cur prev
	_init_completion 2>/dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; }
	local opts="--from --to --by --agg --where --when --source --limit --offset --format --tz --db --list --type --min-duration --no-rollup --complete-metrics -h --help --version --tool-schema"
	case $prev in
	--from|--to) COMPREPLY=($(compgen -W "$_hq_dates" -- "$cur")); return ;;
	--by|--agg|--format|--type) _hq_values hq-query "$prev"; return ;;
	--when) COMPREPLY=($(compgen -W "$(_hq_metrics | sed 's/$/.sum/; p; s/\.sum$/.avg/; p; s/\.avg$/.max/')" -- "$cur")); return ;;
	--where|--limit|--offset|--source|--min-duration) return ;;
	esac
	_hq_common "$prev" && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	else
		COMPREPLY=($(compgen -W "$(_hq_metrics) workouts workout" -- "$cur"))
	fi
}
complete -F _hq_query hq-query

# Metric names, and metric.aggregate once a dot is typed (glucose.max).
_hq_metric_aggs() {
	if [[ $cur == *.* ]]; then
		local m=${cur%.*}
		COMPREPLY=($(compgen -W "$(hq-query --complete agg 2>/dev/null | sed "s/^/$m./")" -- "$cur"))
	else
		COMPREPLY=($(compgen -W "$(_hq_metrics)" -- "$cur"))
	fi
}

_hq_correlate() {
	local cur prev
	_init_completion 2>/dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; }
	local opts="--lag --night --from --to --method --min-n --when --against --format --tz --db -h --help --version --tool-schema"
	case $prev in
	--from|--to) COMPREPLY=($(compgen -W "$_hq_dates" -- "$cur")); return ;;
	--method|--format) _hq_values hq-correlate "$prev"; return ;;
	--when) COMPREPLY=($(compgen -W "$(_hq_metrics | sed 's/$/.sum/; p; s/\.sum$/.avg/; p; s/\.avg$/.max/')" -- "$cur")); return ;;
	--against) COMPREPLY=($(compgen -W "all $(_hq_metrics)" -- "$cur")); return ;;
	--lag) COMPREPLY=($(compgen -W "-1 1 2 7" -- "$cur")); return ;;
	--min-n) return ;;
	esac
	_hq_common "$prev" && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	elif [[ $cur == */* || $cur == .* ]]; then
		COMPREPLY=($(compgen -f -- "$cur"))
	else
		_hq_metric_aggs
	fi
}
complete -F _hq_correlate hq-correlate

_hq_agent() {
	local cur prev
	_init_completion 2>/dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; }
	local opts="-p --provider -m --model --base-url --max-steps --timeout --tool-timeout --max-output --tool-mode --no-stream --max-tokens -y --yes -v --verbose --jsonl --session --log --db --tz -h --help --version --tool-schema"
	case $prev in
	-p|--provider) _hq_values hq-agent provider; return ;;
	--tool-mode) _hq_values hq-agent "$prev"; return ;;
	--base-url) COMPREPLY=($(compgen -W "http://127.0.0.1:11434/v1 http://127.0.0.1:11434 http://127.0.0.1:8080/v1 https://api.openai.com/v1 https://api.anthropic.com https://generativelanguage.googleapis.com" -- "$cur")); return ;;
	-m|--model|--max-steps|--timeout|--tool-timeout|--max-output|--max-tokens|--session) return ;;
	esac
	_hq_common "$prev" && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	fi
}
complete -F _hq_agent hq-agent

# hq-report: the subcommand's words by position, lab tests from the store,
# --fields and --unit values from the command.
_hq_report() {
	local cur prev
	_init_completion 2>/dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; }
	local opts="--unit --fields --last --dates --format --tz --db --complete-tests -h --help --version --tool-schema"
	case $prev in
	--format|--unit) _hq_values hq-report "$prev"; return ;;
	--fields)   # a comma-separated list: the name after the last comma
		local pre=${cur%"${cur##*,}"}
		COMPREPLY=($(compgen -P "$pre" -W "$(hq-report --complete fields 2>/dev/null)" -- "${cur##*,}"))
		return ;;
	--last|--dates) return ;;
	esac
	_hq_common "$prev" && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	local words=() i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--unit|--fields|--last|--dates|--format|--tz|--db) i=$((i + 1)) ;;
		-*) ;;
		*) words+=("${COMP_WORDS[i]}") ;;
		esac
	done
	case "${words[*]}" in
	"") COMPREPLY=($(compgen -W "list latest trend compare" -- "$cur")) ;;
	list|latest) COMPREPLY=($(compgen -W "labs dexa" -- "$cur")) ;;
	trend) COMPREPLY=($(compgen -W "labs" -- "$cur")) ;;
	compare) COMPREPLY=($(compgen -W "dexa" -- "$cur")) ;;
	"latest labs"*|"trend labs") COMPREPLY=($(compgen -W "$(hq-report --complete-tests 2>/dev/null)" -- "$cur")) ;;
	esac
}
complete -F _hq_report hq-report
