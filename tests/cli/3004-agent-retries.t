#!/usr/bin/env bash
# Transient failures are retried with backoff, honouring retry-after-ms and
# Retry-After; permanent ones are not; budgets end runs with exit 1.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
need_fixtures llm/anthropic_429.json
make_tools "$T/tools"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# 429 with Retry-After: 1, then 429 with retry-after-ms: 200 (beats Retry-After: 30)
start_fake retry-429
t0=$(now_ms)
agent openai --jsonl "steps?"
ms=$(( $(now_ms) - t0 ))
is "$rc" 0 "429 twice: answered on the third attempt"
like "$out" '"retries":2' "429 twice: two retries reported"
is "$(wc -l <"$FAKE_LOG")" 3 "429 twice: three requests"
ok "$([ "$ms" -ge 1150 ] && [ "$ms" -lt 10000 ]; echo $?)" "429: waited Retry-After 1 s + retry-after-ms 200, not Retry-After 30 s (${ms} ms)"

# Anthropic: HTTP 529, then an overloaded_error event after HTTP 200
start_fake overloaded
agent anthropic --jsonl "steps?"
is "$rc" 0 "529 and mid-stream overloaded_error: answered"
like "$out" '"event":"answer","text":"Recovered: 8123."' "overloaded: the retried answer"
is "$(wc -l <"$FAKE_LOG")" 3 "overloaded: three requests"

# the same mid-stream error in OpenAI and Ollama streams
for p in openai ollama; do
	start_fake overloaded
	agent $p --jsonl "steps?"
	is "$rc" 0 "$p mid-stream error: retried and answered"
done

# a connection dropped mid-stream is retried
for p in openai anthropic gemini ollama; do
	start_fake dropped
	agent $p --jsonl "steps?"
	is "$rc" 0 "$p dropped stream: answered"
	like "$out" '"text":"Second try: 8123."' "$p dropped stream: from the second attempt"
	unlike "$out" '"event":"tool_call"' "$p dropped stream: the half-received call is not run"
done

# the recorded Anthropic 429s (x-should-retry: true, no retry-after)
start_fake recorded-429
agent anthropic --jsonl "steps?"
is "$rc" 0 "recorded 429s: retried with backoff, then answered"
like "$out" '"retries":2' "recorded 429s: two retries"

# Gemini: 429 with RetryInfo in the body (no header), then 503 UNAVAILABLE
start_fake gemini-retryinfo
t0=$(now_ms)
agent gemini --jsonl "steps?"
ms=$(( $(now_ms) - t0 ))
is "$rc" 0 "gemini 429 + 503: answered"
like "$out" '"text":"After the quota wait: 8123."' "gemini 429 + 503: from the third attempt"
ok "$([ "$ms" -ge 2400 ] && [ "$ms" -lt 12000 ]; echo $?)" "gemini 429: waited the body's retryDelay of 2.5 s, more than backoff would (${ms} ms)"

# a 400 is not retried: exit 2 with the server's message
start_fake not-retryable
agent openai "steps?"
is "$rc" 2 "400: exit 2"
like "$err" "HTTP 400: Function tools with reasoning_effort are not supported" "400: the server's message"
is "$(wc -l <"$FAKE_LOG")" 1 "400: not retried"

# a 429 for an exhausted quota is not retried: only the user can fix it
start_fake quota
agent openai "steps?"
is "$rc" 2 "insufficient_quota: exit 2"
like "$err" "You exceeded your current quota" "insufficient_quota: the server's message"
is "$(wc -l <"$FAKE_LOG")" 1 "insufficient_quota: not retried"

# no server at all: retried, then exit 2 with a hint
start_fake one-call
stop_fake
agent openai "steps?"
is "$rc" 2 "no server: exit 2"
like "$err" "is the model server running" "no server: says what to check"

# an endless tool loop stops at --max-steps, exit 1, with what was found
start_fake endless
agent openai --max-steps 3 "steps?"
is "$rc" 1 "endless loop: exit 1"
like "$err" "step budget \(3\) ran out" "endless loop: says the step budget ran out"
like "$out" "8123" "endless loop: prints what was found"
is "$(wc -l <"$FAKE_LOG")" 3 "endless loop: exactly 3 requests"

# a slow server: --timeout ends the run
start_fake slow-server
t0=$(now_ms)
agent openai --timeout 1 "steps?"
ms=$(( $(now_ms) - t0 ))
is "$rc" 1 "slow server: exit 1"
like "$err" "timed out" "slow server: says it timed out"
ok "$([ "$ms" -lt 8000 ]; echo $?)" "slow server: gave up long before the server's 30 s (${ms} ms)"

done_testing
