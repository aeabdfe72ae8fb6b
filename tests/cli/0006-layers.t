#!/usr/bin/env bash
# The layering check (scripts/layers.pl, run by make check): the tree passes,
# and a copy of it with one include of a higher layer, a peer, another
# layer's internal header, or a file outside a layer folder fails, naming
# file:line (HACKING.md, Layers).
. "$(dirname "$0")/lib.sh"
L=$HQ_ROOT/scripts/layers.pl

run perl "$L" "$HQ_ROOT"
is "$rc" 0 "the tree: no include of a higher layer beyond the allowed ones"
like "$out" "none of a higher layer" "the tree: says so"

fresh() {   # a copy of lib/ and include/ to break
	rm -rf "$T/t" && mkdir -p "$T/t" && cp -R "$HQ_ROOT/lib" "$HQ_ROOT/include" "$T/t/"
}
fresh
run perl "$L" "$T/t"
is "$rc" 0 "a copy of the tree passes"

fresh
n=$(($(wc -l <"$T/t/lib/base/buf.c") + 1))
echo '#include "hq/agent.h"' >>"$T/t/lib/base/buf.c"
run perl "$L" "$T/t"
is "$rc" 1 "base including agent: fails"
like "$err" "lib/base/buf.c:$n: base includes hq/agent.h of agent, a higher layer" \
	"and names file:line and the layers"

fresh
echo '#include "hq/select.h"' >>"$T/t/include/hq/store.h"
run perl "$L" "$T/t"
is "$rc" 1 "a public header of store including one of query: fails"
like "$err" "include/hq/store.h:[0-9]*: store includes hq/select.h of query" "and names it"

fresh
echo '#include "hq/svg.h"' >>"$T/t/lib/format/csv.c"
run perl "$L" "$T/t"
is "$rc" 1 "format including out (peers): fails"
like "$err" "lib/format/csv.c:[0-9]*: format includes hq/svg.h of out, a peer" "and names it"

fresh
echo '#include "hq/llm_provider.h"' >>"$T/t/lib/cli/complete.c"
run perl "$L" "$T/t"
is "$rc" 1 "another layer including agent's internal header: fails"
like "$err" "lib/cli/complete.c:[0-9]*: hq/llm_provider.h is internal to lib/agent/" "and names it"

fresh
echo 'int hq_new_thing(void);' >"$T/t/lib/new_thing.c"
run perl "$L" "$T/t"
is "$rc" 1 "a file at the top of lib/: fails"
like "$err" "lib/new_thing.c: not in a layer folder" "and says where it should go"

fresh
echo '#include "hq/buf.h"' >>"$T/t/lib/agent/llm/llm_openai.c"
echo '#include "hq/query.h"' >>"$T/t/lib/analyze/cgm.c"
run perl "$L" "$T/t"
is "$rc" 0 "lower layers and a subfolder's own layer: allowed"

done_testing
