#!/usr/bin/env bash
# The layering check (scripts/layers.pl, run by make layers and make check):
# the tree passes, and a copy of it fails, naming file:line and the layers,
# once the compiler has seen an include of a higher layer or a peer however
# it is spelled, an internal header from cmd/ or another layer, a file
# missing from its layer's README or one its README names that is not
# there, or sources changed since they were built (HACKING.md, Layers).
. "$(dirname "$0")/lib.sh"
L=$HQ_ROOT/scripts/layers.pl

run perl "$L" "$HQ_ROOT" "$HQ_BUILD"
is "$rc" 0 "the tree: every header each source reached is allowed"
like "$out" "[0-9]+ includes seen compiling [0-9]+ sources of lib/ and cmd/: all allowed" \
	"the tree: says so"

# A copy of the sources and of the build's .d files, times kept; a case
# breaks it, then compiles what it broke with the Makefile (into the
# copy's b/), so the check reads what the compiler saw.
fresh() {
	rm -rf "$T/t" && mkdir -p "$T/t/b/obj" &&
	cp -pR "$HQ_ROOT/lib" "$HQ_ROOT/include" "$HQ_ROOT/cmd" \
		"$HQ_ROOT/Makefile" "$T/t/" &&
	(cd "$HQ_BUILD/obj" &&
		find lib cmd -name '*.d' -exec cp -p --parents -t "$T/t/b/obj" {} +)
}
# build FILE...: compile the copy's FILE.c, or each source that reached
# the header FILE.
build() {
	local f objs=
	for f; do
		case $f in
		*.c) objs="$objs b/obj/${f%.c}.o" ;;
		*) objs="$objs $(cd "$T/t" && grep -rl --include='*.d' " $f" b/obj |
			sed 's/\.d$/.o/')" ;;
		esac
	done
	if [ -z "$objs" ]; then
		echo "# build $*: no source reached it" >&2
		return 1
	fi
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -s -j2 -C "$T/t" BUILD=b OPT=-O0 -B $objs >"$T/make.out" 2>&1 ||
		cat "$T/make.out" >&2
}
check() { run perl "$L" "$T/t" "$T/t/b"; }
# add FILE LINE: append LINE to the copy's FILE; $n is its line number.
add() {
	echo "$2" >>"$T/t/$1"
	n=$(wc -l <"$T/t/$1")
}

fresh
check
is "$rc" 0 "a copy of the tree passes"

fresh
add lib/base/buf.c '#include "hq/agent.h"'
build lib/base/buf.c
check
is "$rc" 1 "base including agent: fails"
like "$err" "lib/base/buf.c:$n: base includes hq/agent.h of agent, a higher layer" \
	"and names file:line and the layers"

fresh
add lib/base/utf8.c '#include <hq/select.h>'
build lib/base/utf8.c
check
is "$rc" 1 "base including <hq/select.h> of query: fails"
like "$err" "lib/base/utf8.c:$n: base includes hq/select.h of query, a higher layer" \
	"and names file:line"

fresh
add lib/base/time.c '#include "../../include/hq/select.h"'
build lib/base/time.c
check
is "$rc" 1 "base including ../../include/hq/select.h: fails"
like "$err" "lib/base/time.c:$n: base includes hq/select.h of query, a higher layer" \
	"and names file:line"

fresh
add include/hq/report.h '#include "hq/select.h"'
build include/hq/report.h
check
is "$rc" 1 "a public header of store including one of query: fails"
like "$err" "include/hq/report.h:$n: store includes hq/select.h of query, a higher layer \(seen compiling lib/store/[a-z_]+\.c" \
	"and names the header's line, not each file that includes it"

fresh
add lib/format/csv.c '#include "hq/svg.h"'
build lib/format/csv.c
check
is "$rc" 1 "format including render (peers): fails"
like "$err" "lib/format/csv.c:$n: format includes hq/svg.h of render, a peer" "and names it"

fresh
add lib/query/list.c '#include "hq/cgmfile.h"'
build lib/query/list.c
check
is "$rc" 1 "query including read (both on store, peers): fails"
like "$err" "lib/query/list.c:$n: query includes hq/cgmfile.h of read, a peer" "and names it"

fresh
add lib/analyze/trend.c '#include "hq/cgmfile.h"'
build lib/analyze/trend.c
check
is "$rc" 1 "analyze including read (which only hq-ingest needs): fails"
like "$err" "lib/analyze/trend.c:$n: analyze includes hq/cgmfile.h of read" "and names it"

fresh
add lib/read/jsonl.c '#include "hq/select.h"'
build lib/read/jsonl.c
check
is "$rc" 1 "read including query (peers): fails"
like "$err" "lib/read/jsonl.c:$n: read includes hq/select.h of query, a peer" "and names it"

fresh
add lib/agent/proc.c '#include "hq/workout.h"'
build lib/agent/proc.c
check
is "$rc" 1 "agent including query (both on store, peers): fails"
like "$err" "lib/agent/proc.c:$n: agent includes hq/workout.h of query, a peer" "and names it"

fresh
add lib/store/merge.c '#include "hq/output.h"'
build lib/store/merge.c
check
is "$rc" 1 "store including render, which it does not sit on: fails"
like "$err" "lib/store/merge.c:$n: store includes hq/output.h of render, a peer" "and names it"

fresh
add lib/cli/complete.c '#include "hq/llm_provider.h"'
build lib/cli/complete.c
check
is "$rc" 1 "another layer including agent's internal header: fails"
like "$err" "lib/cli/complete.c:$n: hq/llm_provider.h is internal to lib/agent/" "and names it"

fresh
add cmd/hq-query.c '#include "hq/query_int.h"'
build cmd/hq-query.c
check
is "$rc" 1 "a command including query's internal header: fails"
like "$err" "cmd/hq-query.c:$n: hq/query_int.h is internal to lib/query/" "and names it"

fresh
add cmd/hq-ingest.c '#include <hq/ingest_int.h>'
build cmd/hq-ingest.c
check
is "$rc" 1 "a command including <hq/ingest_int.h>: fails"
like "$err" "cmd/hq-ingest.c:$n: hq/ingest_int.h is internal to lib/store/" "and names it"

fresh
add include/hq/llm.h '#include "hq/llm_provider.h"'
build include/hq/llm.h
check
is "$rc" 1 "a public header of agent handing on its internal one: fails"
like "$err" "include/hq/llm.h:$n: hq/llm_provider.h is internal to lib/agent/ \(seen compiling (cmd|lib/cli)/[a-z_-]+\.c" \
	"and names the header's line and a file that reached it through it"

fresh
echo 'int hq_new_thing(void);' >"$T/t/lib/new_thing.c"
build lib/new_thing.c
check
is "$rc" 1 "a file at the top of lib/: fails"
like "$err" "lib/new_thing.c: not in a layer folder" "and says where it should go"

fresh
printf '%s\n' 'int hq_new_thing(void);' 'int hq_new_thing(void) { return 0; }' \
	>"$T/t/lib/base/new_thing.c"
build lib/base/new_thing.c
check
is "$rc" 1 "a file of lib/base/ its README does not name: fails"
like "$err" "lib/base/new_thing.c: not in lib/base/README.md" "and names both"

fresh
echo 'int hq_new_thing(void);' >"$T/t/include/hq/new_thing.h"
printf '%s\n' 'int hq_new_thing(void);' 'int hq_new_thing(void) { return 0; }' \
	>"$T/t/lib/base/new_thing.c"
add lib/base/README.md '| new_thing.c | a header it does not include |'
build lib/base/new_thing.c
check
is "$rc" 1 "a header no file of its layer includes: fails"
like "$err" "include/hq/new_thing.h: no file of lib/base/ includes it, so what it includes is not checked" \
	"and says why"

fresh
add lib/render/README.md '| gone.c | what is not there |'
check
is "$rc" 1 "a README naming a file its folder does not hold: fails"
like "$err" "lib/render/README.md:$n: names gone.c, which lib/render/ does not hold" \
	"and names README:line and the file"

fresh
sed -i 's/^May include: lib\/store and what it may/May include: lib\/query, lib\/store and what they may/' \
	"$T/t/lib/read/README.md"
check
is "$rc" 1 "a README whose 'May include:' is not the graph's: fails"
like "$err" "lib/read/README.md:[0-9]+: \"May include:\" says .*lib/query; the graph \(scripts/layers.pl\) lets lib/read/ include lib/base, lib/format, lib/store" \
	"and says what the graph lets it include"

fresh
add lib/base/buf.c '/* changed since the build */'
check
is "$rc" 1 "a source changed since it was built: fails"
like "$err" "lib/base/buf.c: .*b/obj/lib/base/buf.d is older than lib/base/buf.c: run make layers" \
	"and says what to run"

fresh
rm "$T/t/b/obj/lib/base/term.d"
check
is "$rc" 1 "a source never built: fails"
like "$err" "lib/base/term.c: not built \(no .*b/obj/lib/base/term.d: run make layers\)" \
	"and says what to run"

fresh
add lib/agent/llm/llm_openai.c '#include "hq/buf.h"'
add lib/analyze/cgm.c '#include <hq/query.h>'
add cmd/hq.c '#include "../include/hq/week.h"'
add lib/read/jsonl.c '#include "../format/../../include/hq/csv.h"'
build lib/agent/llm/llm_openai.c lib/analyze/cgm.c cmd/hq.c lib/read/jsonl.c
check
is "$rc" 0 "lower layers, however spelled, and a subfolder's own layer: allowed"

done_testing
