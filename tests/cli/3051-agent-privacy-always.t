#!/usr/bin/env bash
# The agent's end-to-end tests with the real tools, again with privacy =
# always (HQ_LLM_PRIVACY): the model still answers every question that
# needs no position. The whole agent suite passes so too:
#   for t in tests/cli/30[0-4]*.t; do HQ_TEST_LLM_PRIVACY=always prove $t; done
. "$(dirname "$0")/lib.sh"

HQ_LLM_PRIVACY=always run hq-agent --privacy
like "$out" "positions withheld" "HQ_LLM_PRIVACY=always withholds from a local server too"
for t in 3007-agent-e2e 3020-agent-labs 3040-agent-week; do
	HQ_TEST_LLM_PRIVACY=always bash "$HQ_ROOT/tests/cli/$t.t" >"$T/$t.out" 2>&1
	ok $? "$t passes with privacy = always"
	grep '^not ok' "$T/$t.out" | sed 's/^/# /'
done
done_testing
