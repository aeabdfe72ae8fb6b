#!/usr/bin/env bash
# Completion at the terminal: the commands answer --complete-args from
# their tables and the store (aliases, --when/--where names, --agg lists,
# sources, workout ids, sessions, dates, zones), and bash, zsh and fish
# offer it, through hq too. zsh and bash run interactively in tmux.
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"

gen-export --days 10 --zip -o "$T/e.zip" >/dev/null 2>&1
hq-ingest -q "$T/e.zip" >/dev/null

# cands CMD WORD...: the values --complete-args prints (no descriptions)
cands() { "$@" 2>&1 | cut -f1 | tr '\n' ' '; }
ca() { local c=$1; shift; cands "$c" --complete-args "$@"; }

# ---- the commands' answers ----------------------------------------------
out=$(ca hq-query st)
like "$out" "(^| )steps " "metrics: the alias steps"
like "$out" "(^| )step_count " "metrics: and the catalog name"
like "$(ca hq-query gl)" "(^| )glucose .*blood_glucose|(^| )blood_glucose .*glucose " \
	"metrics: glucose and blood_glucose"
like "$(ca hq-query sl)" "(^| )sleep " "metrics: sleep (nights from sleep analysis)"
unlike "$(ca hq-query '')" "(^| )body_fat" "metrics: only those in the store"
like "$(hq-query --complete-args ste)" "steps	step_count: steps taken" "metrics: an alias says what it stands for"
like "$(HQ_DB=$T/none.db ca hq-query '')" "(^| )body_fat " "metrics: without a store, the whole catalog"
like "$(ca hq-query steps '')" "(^| )heart_rate " "metrics: more after the first"
like "$(ca hq-query '')" "(^| )workouts workout search $" "workouts, workout and search"
like "$(ca hq-query search --in 'labs,')" "^labs,workouts labs,labs labs,records labs,metrics labs,sources $" "search --in: the kinds after the comma"
mkdir -p "$XDG_CONFIG_HOME/hq" && printf '[places]\nhome = 37.77,-122.42,0.5\n7.5 = 1,2\nlake = 47.6,-122.3\n' >"$XDG_CONFIG_HOME/hq/config"
is "$(hq-query --complete-args search --near '')" "$(printf 'home\t37.77,-122.42,0.5\nlake\t47.6,-122.3')" "search --near: the [places] names (not one named like a coordinate)"
rm -f "$XDG_CONFIG_HOME/hq/config"

is "$(ca hq-query --agg avg,m)" "$(hq-query --complete agg | sed 's/^/avg,/' | tr '\n' ' ')" \
	"--agg avg,m: the aggregations after the comma, the list kept"
like "$(ca hq-query --agg avg,m)" "^avg,avg avg,min avg,max .*avg,median .*avg,p90 " "--agg: (which are these)"
like "$(ca hq-query --when gluc)" "(^| )glucose\\. " "--when: a metric and its dot"
like "$(ca hq-query --when glucose.m)" "^glucose\\.avg glucose\\.min glucose\\.max " "--when metric.: the aggregations"
like "$(ca hq-query --when 'exercise_time.sum>=60 and ste')" "exercise_time\\.sum>=60 and steps\\. " \
	"--when: the last name of an expression"
like "$(ca hq-query --where 'avg>70 and m')" "^avg>70 and value avg>70 and n avg>70 and avg " \
	"--where: value, n and the aggregations"
is "$(ca hq-query --source '')" "$(sqlite3 "$HQ_DB" 'select name from source order by name' | tr '\n' ' ')" \
	"--source: the sources in the store"
like "$(ca hq-query --source '')" "^Alex’s Apple Watch Alex’s iPhone " "--source: (which are these)"
out=$(hq-query --complete-args workout '')
n=$(sqlite3 "$HQ_DB" "select count(*) from workout")
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" "$n" "workout ID: every workout"
want=$(sqlite3 "$HQ_DB" "select id from workout order by start desc limit 1")
like "$(printf '%s\n' "$out" | head -1)" "^$want	20[0-9-]{8} (running|cycling|walking|[a-z_]+) [0-9]+ min" \
	"workout ID: newest first, with date, type, minutes"
is "$(ca hq-query workouts '')" "" "nothing after workouts"
like "$(HQ_NOW=2026-12-01T03:30:00Z ca hq-query --from '')" "^today yesterday this-week last-week .* 2026-11-30 2026-W49 2026-11 2026 $" \
	"--from: the date forms, then the zone's today: at 03:30 UTC on 1 December, 30 November in Los Angeles"
like "$(ca hq-query --to=l)" "--to=last-week .*--to=last-month " "--to=...: the forms with the option kept"
like "$(ca hq-query --tz Europe/P)" "(^| )Europe/Paris " "--tz: the zones"
is "$(ca hq-query --db '')" ":files " "--db: a file"
is "$(ca hq-ingest '')" ":files " "hq-ingest: files"
like "$(ca hq-query --fo)" "(^| )--format " "options"
like "$(ca hq-correlate --against '')" "^all .*(^| )steps " "hq-correlate --against: all, then the metrics"
like "$(hq-correlate --complete-args --against al)" "^all	every other metric" "--against al: all, said what it is"
unlike "$(ca hq-correlate --against steps,)" "(^| )steps,all " "--against LIST,: metrics only, not all"
# hq-report: a subcommand's own options once it is typed
is "$(ca hq-report cgm --)" "--from --to --by --agp --format --tz --db --complete-tests --help --version --tool-schema " \
	"hq-report cgm --: cgm's options, not labs' --unit nor dexa's --fields"
is "$(ca hq-report trend labs --)" "--unit --format --tz --db --complete-tests --help --version --tool-schema " \
	"hq-report trend labs --: --unit, not cgm's nor dexa's"
like "$(ca hq-report compare dexa --)" "^--fields --last --dates --format " "hq-report compare dexa --: --fields, --last, --dates"
unlike "$(ca hq-report latest dexa --)" "--last|--unit|--from" "hq-report latest dexa --: not compare's --last"
like "$(ca hq-report --)" "^--unit --fields --last --dates --from " "hq-report --: before a subcommand, every option"

# hq-agent: sessions, runs, models from its log in the store
sqlite3 "$HQ_DB" "insert into agent_run(started, session, question, provider, model, base_url, tool_mode)
	values (1733000000, 'walk', 'How far?', 'ollama', 'llama3.1', 'u', 'native'),
	       (1733100000, NULL, 'Sleep?', 'anthropic', 'claude-x', 'u', 'native'),
	       (1733200000, 'walk', 'And then?', 'ollama', 'llama3.1', 'u', 'native')"
like "$(hq-agent --complete-args --session '')" "^walk	2 runs, last 2024-12-0[23]$" "--session: the sessions, with their runs"
is "$(ca hq-agent --log '')" "3 2 1 " "--log ID: the runs, newest first"
like "$(hq-agent --complete-args --log '')" "2	2024-1[12]-[0-9]+ Sleep\\?" "--log ID: with their question"
is "$(ca hq-agent -m '')" "llama3.1 claude-x " "--model: the models used"
like "$(ca hq-agent --base-url '')" "http://127.0.0.1:11434/v1 " "--base-url: the providers' URLs"
is "$(ca hq-agent '')" "" "a question: nothing"

# hq: the commands, then the command's own completion
out=$(hq --complete-args '')
like "$out" "^agent	Answer a question" "hq: the commands with their summaries"
like "$out" "query	Time series" "hq: query"
like "$(printf '%s\n' "$out" | tail -1)" "^help	" "hq: help"
is "$(ca hq query --by w)" "hour day week month year " "hq query --by: hq-query's answer"
is "$(ca hq help '')" "$(cands ls "$HQ_BUILD/bin" | sed 's/hq-//g; s/^hq //; s/ hq / /')config " "hq help: the commands, then config (hq(7))"

# ---- bash ---------------------------------------------------------------
bash_words() { # WORD...: what the bash function offers for the last word
	bash -c '. "$1/completions/hq.bash"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_hq_complete; printf "%s\n" "${COMPREPLY[@]}"' sh "$HQ_ROOT" "$@" | tr '\n' ' '
}
is "$(bash_words hq-query --agg avg,m)" "avg,min avg,max avg,median " "bash: --agg avg,m"
is "$(bash_words hq-query ste)" "step_count steps " "bash: aliases and names"
is "$(bash_words hq query --by w)" "week " "bash: through hq"
is "$(bash_words hq-query --source A)" 'Alex’s\ Apple\ Watch Alex’s\ iPhone ' "bash: names with blanks quoted"
# bash splits --by=w and http://x at = and :, and replaces what follows
is "$(bash -c '. "$1/completions/hq.bash"; COMP_WORDS=(hq-query --by = w); COMP_CWORD=3
	COMP_LINE="hq-query --by=w"; COMP_POINT=15; _hq_complete; printf "%s\n" "${COMPREPLY[@]}"' \
	sh "$HQ_ROOT")" "week" "bash: --by=w completes after the '='"
is "$(bash -c '. "$1/completions/hq.bash"; COMP_WORDS=(hq-agent --base-url http : //127.0.0.1 : 11434/); COMP_CWORD=6
	COMP_LINE="hq-agent --base-url http://127.0.0.1:11434/"; COMP_POINT=${#COMP_LINE}; _hq_complete
	printf "%s\n" "${COMPREPLY[@]}"' sh "$HQ_ROOT" | tr '\n' ' ')" "11434/v1 " \
	"bash: a URL completes after its last ':'"
# listing (the second tab): the values with their descriptions
out=$(bash -c '. "$1/completions/hq.bash"; COMP_TYPE=63; COMP_WORDS=(hq-query workout ""); COMP_CWORD=2
	COMP_LINE="hq-query workout "; COMP_POINT=${#COMP_LINE}; _hq_complete; printf "%s\n" "${COMPREPLY[@]}"' sh "$HQ_ROOT")
like "$(printf '%s\n' "$out" | head -1)" "^$want  \\(20[0-9-]{8} [a-z_]+ [0-9]+ min" "bash: listing workout ids shows date and type"
registered=$(bash -c 'mkdir -p "$2/xbin"; printf "#!/bin/sh\n" >"$2/xbin/hq-newcmd"; chmod +x "$2/xbin/hq-newcmd"
	PATH="$2/xbin:$PATH"; . "$1/completions/hq.bash"; complete -p hq-newcmd' sh "$HQ_ROOT" "$T")
like "$registered" "_hq_complete hq-newcmd$" "bash: any hq-* on PATH is registered"

# ---- a word too long (issue 23): each candidate repeats the word's head -----
# 1,000 metrics and a 50,000-byte --when would answer 50 MB; a word over
# 1 KiB (HQ_COMPLETE_MAX_WORD) gets no candidates.
python3 -c '
for i in range(1000):
    print("{\"metric\":\"m%04d\",\"start\":\"2024-12-01T07:00:00Z\",\"value\":1}" % i)' >"$T/many.jsonl"
HQ_DB=$T/many.db hq-ingest -q "$T/many.jsonl" >/dev/null
long=$(python3 -c 'print("m0001.sum>0 and " * 3125, end="")')
is "${#long}" 50000 "a --when word of 50,000 bytes"
is "$(HQ_DB=$T/many.db hq-query --complete-args --when "$long" | wc -c | tr -d ' ')" 0 \
	"completing it writes nothing (it wrote 50 MB)"
short=${long:0:1008}
is "${#short}" 1008 "a word of 1008 bytes"
is "$(HQ_DB=$T/many.db hq-query --complete-args --when "$short" | grep -c "^${short}m0999\\.$")" 1 \
	"is completed (1 KiB is the bound)"
is "$(HQ_DB=$T/many.db hq-query --complete-args --when "${long:0:1025}" | wc -c | tr -d ' ')" 0 \
	"1025 bytes: nothing"

# ---- hostile names (issue 23): every candidate quoted for its context -------
# Sources come from any file a user imports: names that run a command, break
# out of a quote or glob, if a completion inserts them as they are.
H=$T/hostile.db
python3 - "$T" >"$T/hostile.jsonl" <<'PY'
import json, sys
t = sys.argv[1]
names = ["$(touch %s/pwned1)" % t, "`touch %s/pwned2`" % t,
         'q";touch %s/pwned3;"' % t, 'b\\";touch %s/pwned4;\\"' % t,
         "s'$(touch %s/pwned5)'" % t, "x!!y", "star*", "~tilde", "back\\slash end\\"]
for i, n in enumerate(names):
    print(json.dumps({"metric": "steps", "start": "2024-12-01T0%d:00:00Z" % i,
                      "value": i + 1, "source": n}))
PY
HQ_DB=$H hq-ingest -q "$T/hostile.jsonl" >/dev/null
hostile_n=$(HQ_DB=$H hq-query --complete-args --source '' | wc -l | tr -d ' ')
is "$hostile_n" 9 "hostile names: the store offers all nine sources"
# bash, by its function: for a bare word and inside an open ' and ", each
# candidate as bash reads it back (the line run, closing quote added as
# readline adds it) is the source itself, and nothing ran
for open in '' "'" '"'; do
	HQ_DB=$H bash -c '. "$1/completions/hq.bash"; o=$2
		COMP_WORDS=(hq-query --source "$o"); COMP_CWORD=2
		COMP_LINE="hq-query --source $o"; COMP_POINT=${#COMP_LINE}
		_hq_complete
		for r in "${COMPREPLY[@]}"; do
			c=$o   # readline closes the quote unless the match ends with it
			[[ -n $o && $r == *"$o" ]] && c=
			cd "$3" && bash -c "printf \"%s\\n\" $o$r$c"
		done' sh "$HQ_ROOT" "$open" "$T" >"$T/got" 2>"$T/err"
	HQ_DB=$H hq-query --complete-args --source '' >"$T/want"
	is "$(cat "$T/got")" "$(cat "$T/want")" "bash, quote [$open]: each name read back as it is"
	is "$(ls "$T" | grep -c pwned)" 0 "bash, quote [$open]: nothing ran"
	is "$(cat "$T/err")" "" "bash, quote [$open]: no error"
	rm -f "$T"/pwned*
done

# ---- interactive shells in tmux (a private server) --------------------------
env="env -i HOME=$T/home PATH=$PATH HQ_DB=$HQ_DB TERM=xterm LC_ALL=C.UTF-8"
if command -v tmux >/dev/null; then
	TM= tm_n=0
	trap '[ -n "$TM" ] && $TM kill-server 2>/dev/null; rm -rf "$T"' EXIT
	# tm_start CMD: a shell on a 100-column pane, once its prompt "> " shows.
	# Each shell has a server of its own: killing the last session of a
	# server makes it exit while the next new-session may still reach it
	# ("no server running", seen under load).
	tm_start() {
		local i=0
		[ -n "$TM" ] && $TM kill-server 2>/dev/null
		tm_n=$((tm_n + 1))
		TM="tmux -S $T/tmux$tm_n.sock -f /dev/null"
		$TM new-session -d -s c -x 100 -y 30 "$1"
		while [ $i -lt 50 ] && ! $TM capture-pane -p -t c | grep -q '^> '; do
			sleep 0.1; i=$((i + 1))
		done
	}
	# screen_like NAME REGEX LINE KEY...: on a cleared line, type LINE and
	# the keys (the terminal queues them: each tab acts after the one
	# before), then wait for the screen to match REGEX (20 s at most: a
	# loaded machine is slow, not wrong) and check it
	screen_like() {
		local name=$1 re=$2 line=$3 i=0 shot
		shift 3
		$TM send-keys -t c C-e C-u C-l
		while [ $i -lt 100 ] && [ "$($TM capture-pane -p -t c | tr -d ' \n')" != ">" ]; do
			sleep 0.1; i=$((i + 1))
		done
		$TM send-keys -t c -l "$line"
		for k in "$@"; do
			$TM send-keys -t c "$k"
		done
		i=0
		while [ $i -lt 200 ]; do
			shot=$($TM capture-pane -p -t c)
			printf '%s' "$shot" | grep -Eq -- "$re" && break
			sleep 0.1; i=$((i + 1))
		done
		like "$shot" "$re" "$name"
	}
	if command -v zsh >/dev/null; then
		printf "PS1='> '\nfpath=(%s/completions \$fpath)\nautoload -Uz compinit && compinit -u -d %s/zcompdump\n" \
			"$HQ_ROOT" "$T" >"$T/.zshrc"
		tm_start "$env ZDOTDIR=$T zsh"
		screen_like "zsh: --by w" "> hq-query --by week" "hq-query --by w" Tab
		screen_like "zsh: --agg avg,m lists the aggregations" "avg,median" "hq-query --agg avg,m" Tab
		screen_like "zsh: hq's commands (and a space)" "> hq query X" "hq qu" Tab X
		screen_like "zsh: workout ids with date and type" "$want +-- 20[0-9-]{8} [a-z_]+" \
			"hq query workout " Tab
		screen_like "zsh: --when glucose. (no space after the dot)" "> hq-query --when glucose\\.X" \
			"hq-query --when gluc" Tab X
	else
		echo "# zsh not installed: its interactive tests skipped"
	fi
	printf "PS1='> '\n. %s/completions/hq.bash\n" "$HQ_ROOT" >"$T/bashrc"
	tm_start "$env bash --noprofile --rcfile $T/bashrc -i"
	screen_like "bash, interactive: --by=w" "> hq-query --by=week" "hq-query --by=w" Tab
	screen_like "bash, interactive: the second tab lists ids with date and type" \
		"$want  \\(20[0-9-]{8} [a-z_]+" "hq-query workout " Tab Tab
	screen_like "bash, interactive: a source with blanks, quoted" \
		'> hq-query --source Alex’s\\ Apple\\ Watch' 'hq-query --source Alex’s\ A' Tab
	screen_like "bash, interactive: hq's commands (and a space)" "> hq agent X" "hq ag" Tab X
	screen_like "bash, interactive: --agg avg,me" "> hq-query --agg avg,median X" "hq-query --agg avg,me" Tab X
	screen_like "bash, interactive: --when glucose. (no space after the dot)" \
		"> hq-query --when glucose\\.X" "hq-query --when gluc" Tab X
	$TM kill-server 2>/dev/null
else
	echo "# tmux not installed: the interactive tests skipped"
fi

# ---- fish ---------------------------------------------------------------
if command -v fish >/dev/null; then
	fishc() { # LINE: what fish completes for it
		env HOME="$T/home" XDG_CONFIG_HOME="$T/home/.config" fish --no-config -c "for f in $HQ_BUILD/completions/fish/*.fish; source \$f; end; complete -C'$1'" 2>&1
	}
	is "$(fishc 'hq-query --by w')" "week" "fish: --by w"
	is "$(fishc 'hq-query --agg avg,me')" "avg,median" "fish: --agg avg,me"
	like "$(fishc 'hq query workout ')" "^$want	20[0-9-]{8} [a-z_]+" "fish: through hq, workout ids with date and type"
	like "$(fishc 'hq qu')" "^query	Time series" "fish: hq's commands with their summaries"
	like "$(fishc 'hq-query --source Alex’s\ A')" "Alex’s Apple Watch" "fish: a source with blanks"
	like "$(fishc "hq-ingest --db=$T/e.z")" "^--db=$T/e.zip" "fish: --db= completes a file"
else
	echo "# fish not installed: its tests skipped"
fi
# ---- hostile names at a real prompt: bash, zsh and fish in tmux -------------
# Each name starts with its own letter: type it bare, after ' and after ",
# TAB, then put printf before the command and a redirection after it, and
# run the line. The file must hold each name as it is, and nothing may run.
if command -v tmux >/dev/null; then
	python3 - "$T" >"$T/h2.jsonl" <<'PY'
import json, sys
t = sys.argv[1]
names = ["a$(touch %s/pwned1)" % t, "b`touch %s/pwned2`" % t,
         'c";touch %s/pwned3;"' % t, 'd\\";touch %s/pwned4;\\"' % t,
         "e'$(touch %s/pwned5)'" % t, "f!!y", "g*", "h\\slash end\\"]
for i, n in enumerate(names):
    print(json.dumps({"metric": "steps", "start": "2024-12-01T0%d:00:00Z" % i,
                      "value": i + 1, "source": n}))
PY
	H2=$T/h2.db
	HQ_DB=$H2 hq-ingest -q "$T/h2.jsonl" >/dev/null
	mkdir -p "$T/hw" && touch "$T/hw/gx" "$T/hw/b.txt"   # g* would match gx
	HQ_DB=$H2 hq-query --complete-args --source '' | sed 's/^/hq-query\n--source\n/' >"$T/h.one"
	cat "$T/h.one" "$T/h.one" "$T/h.one" >"$T/h.want"
	henv="env -i HOME=$T/home XDG_CONFIG_HOME=$T/home/.config PATH=$PATH HQ_DB=$H2 TERM=xterm LC_ALL=C.UTF-8"
	printf "PS1='> '\n. %s/completions/hq.bash\ncd %s/hw\n" "$HQ_ROOT" "$T" >"$T/hbashrc"
	mkdir -p "$T/hz"
	printf "PS1='> '\nfpath=(%s/completions \$fpath)\nautoload -Uz compinit && compinit -u -d %s/hz/zcompdump\ncd %s/hw\n" \
		"$HQ_ROOT" "$T" "$T" >"$T/hz/.zshrc"
	for sh in bash zsh fish; do
		case $sh in
		bash) start="$henv bash --noprofile --rcfile $T/hbashrc -i" ;;
		zsh) command -v zsh >/dev/null || { echo "# zsh not installed"; continue; }
			start="$henv ZDOTDIR=$T/hz zsh" ;;
		fish) command -v fish >/dev/null || { echo "# fish not installed"; continue; }
			start="$henv fish --no-config -C 'function fish_prompt; echo \"> \"; end; for f in $HQ_BUILD/completions/fish/*.fish; source \$f; end; cd $T/hw'" ;;
		esac
		rm -f "$T/h.got" "$T"/pwned*
		TM2="tmux -S $T/tmux-$sh.sock -f /dev/null"
		$TM2 new-session -d -s h -x 200 -y 50 "$start"
		i=0
		while [ $i -lt 100 ] && ! $TM2 capture-pane -p -t h | grep -q '^> '; do
			sleep 0.1; i=$((i + 1))
		done
		# the terminal queues the keys: each line's TAB acts before Enter
		for open in '' "'" '"'; do
			for l in a b c d e f g h; do
				$TM2 send-keys -t h -l "hq-query --source $open$l"
				$TM2 send-keys -t h Tab C-a
				$TM2 send-keys -t h -l "printf '%s\\n' "
				$TM2 send-keys -t h C-e
				$TM2 send-keys -t h -l " >>$T/h.got"
				$TM2 send-keys -t h Enter
			done
		done
		i=0
		while [ $i -lt 300 ] && [ "$(wc -l <"$T/h.got" 2>/dev/null)" != 72 ]; do
			sleep 0.1; i=$((i + 1))
		done
		sleep 0.3
		is "$(cat "$T/h.got" 2>/dev/null)" "$(cat "$T/h.want")" \
			"$sh, interactive: 8 hostile sources completed bare, in ' and in \", run as they are"
		is "$(ls "$T" | grep -c pwned)" 0 "$sh, interactive: no command hidden in a source ran"
		$TM2 kill-server 2>/dev/null
	done
else
	echo "# tmux not installed: the hostile names' interactive tests skipped"
fi
done_testing
