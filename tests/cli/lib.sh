# tests/cli/lib.sh — sourced by every CLI test: a private store, zone and
# scratch directory, the built commands first on PATH, and TAP helpers.
HQ_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HQ_BUILD=${HQ_BUILD:-$HQ_ROOT/build}
HQ_FIXTURES=${HQ_FIXTURES:-$HQ_ROOT/tests/fixtures}
PATH=$HQ_BUILD/bin:$HQ_BUILD/tools:$PATH
T=$(mktemp -d "${TMPDIR:-/tmp}/hq-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home" "$T/config"
export PATH HQ_ROOT HQ_BUILD HQ_FIXTURES T
export HQ_DB="$T/hq.db" HQ_TZ=America/Los_Angeles HOME="$T/home"
export XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/home/.local/share"
export NO_COLOR=1 LC_ALL=C.UTF-8
unset HQ_CONFIG HQ_LLM_PROVIDER HQ_LLM_MODEL HQ_LLM_BASE_URL HQ_LLM_PRIVACY \
      OPENAI_API_KEY ANTHROPIC_API_KEY GEMINI_API_KEY
# the agent's tests again with what a remote model sees (3051)
[ -n "${HQ_TEST_LLM_PRIVACY:-}" ] && export HQ_LLM_PRIVACY=$HQ_TEST_LLM_PRIVACY

_tap_n=0
_tap_fail=0

# ok COND-EXIT-STATUS NAME: `ok $? "name"` after a command, or use run_ok.
ok() {
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_fail=$((_tap_fail + 1))
	fi
}

# is GOT WANT NAME
is() {
	_tap_n=$((_tap_n + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $_tap_n - $3"
	else
		echo "not ok $_tap_n - $3"
		printf '#   got:      %s\n#   expected: %s\n' "$1" "$2"
		_tap_fail=$((_tap_fail + 1))
	fi
}

# like TEXT EXTENDED-REGEX NAME
like() {
	_tap_n=$((_tap_n + 1))
	if printf '%s' "$1" | grep -Eq -- "$2"; then
		echo "ok $_tap_n - $3"
	else
		echo "not ok $_tap_n - $3"
		printf '#   %s\n#   does not match: %s\n' "$(printf '%s' "$1" | head -c 600)" "$2"
		_tap_fail=$((_tap_fail + 1))
	fi
}

# unlike TEXT EXTENDED-REGEX NAME
unlike() {
	_tap_n=$((_tap_n + 1))
	if printf '%s' "$1" | grep -Eq -- "$2"; then
		echo "not ok $_tap_n - $3"
		printf '#   %s\n#   matches: %s\n' "$(printf '%s' "$1" | head -c 600)" "$2"
		_tap_fail=$((_tap_fail + 1))
	else
		echo "ok $_tap_n - $3"
	fi
}

# num_near GOT WANT TOLERANCE NAME
num_near() {
	_tap_n=$((_tap_n + 1))
	if awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= t) }'; then
		echo "ok $_tap_n - $4"
	else
		echo "not ok $_tap_n - $4"
		printf '#   got: %s  expected: %s (±%s)\n' "$1" "$2" "$3"
		_tap_fail=$((_tap_fail + 1))
	fi
}

# run CMD...: sets $out, $err and $rc without stopping the test.
run() {
	"$@" >"$T/.out" 2>"$T/.err"
	rc=$?
	out=$(cat "$T/.out")
	err=$(cat "$T/.err")
}

# rows 'PYTHON EXPR': the expression printed over the JSON rows of $out
# (after run): r is the list of rows, f the rows by their "field" key.
rows() {
	printf '%s\n' "$out" | python3 -c "
import json, sys
r = [json.loads(l) for l in sys.stdin if l.strip()]
f = {x.get('field'): x for x in r if isinstance(x, dict)}
print($1)"
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# need_fixtures PATH...: files or directories under $HQ_FIXTURES that the
# test reads. They are part of the repository (tests/fixtures), so one
# that is missing fails the test file instead of skipping it.
need_fixtures() {
	for _f in "$@"; do
		[ -e "$HQ_FIXTURES/$_f" ] && continue
		ok 1 "fixture $HQ_FIXTURES/$_f is there (see tests/fixtures/README.md)"
		done_testing
		exit 1
	done
}

done_testing() {
	echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ]
}
