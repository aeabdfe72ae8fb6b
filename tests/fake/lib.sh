# tests/fake/lib.sh — helpers for the hq-agent tests, sourced after
# tests/cli/lib.sh: the fake model server, a fake tool, provider settings.

# start_fake SCENARIO: serve the scenario (a file, or a name in
# tests/fake/scenarios); sets FAKE_PORT and FAKE_LOG (requests, one JSON
# object per line).
start_fake() {
	local sc=$1
	[ -f "$sc" ] || sc="$HQ_ROOT/tests/fake/scenarios/$1.json"
	FAKE_LOG="$T/requests.jsonl"
	: >"$FAKE_LOG"
	# a running server takes the new scenario (Python starts slowly)
	if [ -n "${FAKE_PID:-}" ] && kill -0 "$FAKE_PID" 2>/dev/null &&
		exec 3<>"/dev/tcp/127.0.0.1/$FAKE_PORT"; then
		printf 'POST /_fake/scenario HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n' \
			"$(wc -c <"$sc")" >&3
		cat "$sc" >&3
		cat <&3 >/dev/null
		exec 3<&-
		return
	fi
	: >"$T/fake.port"
	python3 "$HQ_ROOT/tests/fake/fake_llm.py" "$sc" --log "$FAKE_LOG" >"$T/fake.port" 2>"$T/fake.err" &
	FAKE_PID=$!
	local i=0
	while [ ! -s "$T/fake.port" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	FAKE_PORT=$(cat "$T/fake.port")
	[ -n "$FAKE_PORT" ] || { echo "Bail out! fake model server did not start: $(cat "$T/fake.err")"; exit 1; }
}

stop_fake() {
	if [ -n "${FAKE_PID:-}" ]; then
		kill "$FAKE_PID" 2>/dev/null
		wait "$FAKE_PID" 2>/dev/null
		FAKE_PID=
	fi
}
trap 'stop_fake; rm -rf "$T"' EXIT

# base_url PROVIDER: the fake server's address as that provider's base URL
base_url() {
	case $1 in
	openai) echo "http://127.0.0.1:$FAKE_PORT/v1" ;;
	*) echo "http://127.0.0.1:$FAKE_PORT" ;;
	esac
}

# agent PROVIDER ARGS...: hq-agent against the fake server (run sets
# $out $err $rc); stdin is not a terminal
agent() {
	local p=$1
	shift
	ANTHROPIC_API_KEY=test-key-anthropic GEMINI_API_KEY=test-key-gemini \
		run hq-agent -p "$p" -m fake-model --base-url "$(base_url "$p")" "$@" </dev/null
}

# requests: the logged request bodies, for python checks on stdin
req() {
	python3 -c "
import json, sys
reqs = [json.loads(l) for l in open('$FAKE_LOG')]
$1"
}

# make_tools DIR: fake hq tools for the agent to find (HQ_AGENT_TOOL_PATH)
make_tools() {
	mkdir -p "$1"
	cat >"$1/hq-testtool" <<'SH'
#!/bin/sh
# A stand-in for hq-query: a schema like the opts module writes, and rows.
if [ "$1" = --tool-schema ]; then
cat <<'J'
{"name":"hq_testtool","description":"Daily step counts of the user, as JSON rows.","parameters":{"type":"object","properties":{"metrics":{"type":"array","items":{"type":"string"},"description":"metric names"},"from":{"type":"string","description":"first day"},"by":{"type":"string","enum":["day","week"],"description":"bucket"},"limit":{"type":"integer","description":"rows at most"},"list":{"type":"boolean","description":"list metrics"},"rows":{"type":"integer","description":"rows to print (testing)"},"sleep":{"type":"number","description":"seconds to sleep first (testing)"},"fail":{"type":"boolean","description":"exit 2 (testing)"}},"required":["metrics"]},"writes":false,"x-positional":"metrics"}
J
exit 0
fi
rows=1 nap=0 fail=0 args="$*"
while [ $# -gt 0 ]; do
	case $1 in
	--rows) rows=$2; shift ;;
	--sleep) nap=$2; shift ;;
	--fail) fail=1 ;;
	esac
	shift
done
[ -n "${HQ_TESTTOOL_PIDFILE:-}" ] && echo $$ >"$HQ_TESTTOOL_PIDFILE"
[ -n "${HQ_TESTTOOL_ENVFILE:-}" ] && env >>"$HQ_TESTTOOL_ENVFILE"
# how many run at once: each is a file in the directory while it runs
if [ -n "${HQ_TESTTOOL_RUNDIR:-}" ]; then
	: >"$HQ_TESTTOOL_RUNDIR/$$"
	ls "$HQ_TESTTOOL_RUNDIR" | wc -l >>"$HQ_TESTTOOL_RUNDIR.seen"
fi
[ "$nap" = 0 ] || sleep "$nap"
[ -n "${HQ_TESTTOOL_RUNDIR:-}" ] && rm -f "$HQ_TESTTOOL_RUNDIR/$$"
if [ $fail = 1 ]; then echo "hq-testtool: unknown metric 'stepz' (did you mean steps?)" >&2; exit 2; fi
i=0
while [ $i -lt "$rows" ]; do
	echo "{\"argv\":\"$args\",\"row\":$i,\"value\":8123,\"unit\":\"count\",\"key\":\"${ANTHROPIC_API_KEY:-}\"}"
	i=$((i + 1))
done
SH
	cat >"$1/hq-writetool" <<'SH'
#!/bin/sh
# A stand-in for hq-ingest: it changes the store, so it must be confirmed.
if [ "$1" = --tool-schema ]; then
echo '{"name":"hq_writetool","description":"Imports a file into the store (testing).","parameters":{"type":"object","properties":{"files":{"type":"array","items":{"type":"string"},"description":"files"}}},"writes":true,"x-positional":"files"}'
exit 0
fi
echo "{\"imported\":\"$*\"}"
touch "$HQ_WRITETOOL_MARK"
SH
	printf '#!/bin/sh\necho not json\n' >"$1/hq-broken"
	chmod +x "$1/hq-testtool" "$1/hq-writetool" "$1/hq-broken"
	export HQ_AGENT_TOOL_PATH="$1"
}
