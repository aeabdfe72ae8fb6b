#!/bin/sh
# hq-agent's own overhead per step: with a fake model server on loopback
# that answers at once, the wall time of a run that takes STEPS steps,
# minus the time its tools ran, divided by the steps. Goal: under 5 ms.
# Baseline, measured in the same run: one round trip to the same fake
# server from Python's http.client (the server's own share).
set -eu
cd "$(dirname "$0")/.."
: "${HQ_BUILD:=$(pwd)/build}"
STEPS=${HQ_BENCH_STEPS:-20}
T=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench.XXXXXX")
PID=
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; rm -rf "$T"' EXIT

mkdir -p "$T/tools"
cat >"$T/tools/hq-benchtool" <<'SH'
#!/bin/sh
if [ "$1" = --tool-schema ]; then
echo '{"name":"hq_benchtool","description":"Prints one row (benchmark).","parameters":{"type":"object","properties":{"metrics":{"type":"array","items":{"type":"string"},"description":"m"}}},"writes":false,"x-positional":"metrics"}'
exit 0
fi
echo '{"metric":"steps","value":8123,"unit":"count"}'
SH
chmod +x "$T/tools/hq-benchtool"
cat >"$T/sc.json" <<'EOF2'
{"repeat_last": true, "turns": [
 {"reply": {"text": "Looking.", "calls": [{"name": "hq_benchtool", "args": {"metrics": ["steps"]}}]}}
]}
EOF2
python3 tests/fake/fake_llm.py "$T/sc.json" >"$T/port" &
PID=$!
i=0
while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
PORT=$(cat "$T/port")

export HQ_AGENT_TOOL_PATH="$T/tools" HQ_DB="$T/hq.db" HQ_TZ=UTC
run_agent() {
	"$HQ_BUILD/bin/hq-agent" -p openai -m bench --base-url "http://127.0.0.1:$PORT/v1" \
		--max-steps "$STEPS" --jsonl "$@" "bench" </dev/null 2>/dev/null | grep '"event":"done"' || true
}
best=""
for mode in "" --no-stream; do
	for rep in 1 2 3; do
		t0=$(date +%s%N)
		done_ev=$(run_agent $mode)
		wall_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		per=$(printf '%s' "$done_ev" | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
print("%.3f" % ((d["seconds"] - d["tool_seconds"]) / d["steps"] * 1000))')
		whole=$(printf '%s' "$done_ev" | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
print("%.3f" % ((int(sys.argv[1]) - d["tool_seconds"] * 1000) / d["steps"]))' "$wall_ms")
		echo "run ${mode:---stream} #$rep: $(printf '%s' "$done_ev" | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
print("%d steps, loop %.1f ms, tools %.1f ms" % (d["steps"], d["seconds"] * 1000, d["tool_seconds"] * 1000))'), process ${wall_ms} ms; overhead $per ms/step in the loop, $whole ms/step counting start-up and tool discovery"
		best=$(python3 -c "import sys; a=[float(x) for x in sys.argv[1:] if x]; print('%.3f' % min(a))" $best $per)
	done
done
base=$(python3 -c '
import http.client, json, sys, time
body = json.dumps({"model": "bench", "messages": [{"role": "user", "content": "bench"}], "stream": True})
ts = []
for i in range(20):
    c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
    t = time.perf_counter()
    c.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
    c.getresponse().read()
    ts.append(time.perf_counter() - t)
    c.close()
print("%.3f" % (min(ts) * 1000))' "$PORT")
echo "agent overhead per step (best of 6): $best ms; goal 5 ms: ratio $(python3 -c "print('%.2f' % ($best / 5))")"
echo "baseline: one fake-server round trip from Python: $base ms; overhead/baseline ratio $(python3 -c "print('%.2f' % ($best / $base))")"
