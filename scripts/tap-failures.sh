#!/bin/sh
# scripts/tap-failures.sh DIR: what failed, from the TAP scripts/tap-keep.sh
# kept in DIR: each failing test's file, number and name with its lines of
# diagnostics (got/expected), and a test file that stopped early, ran
# other than its plan or exited non-zero with no test failed. Prints
# nothing when everything passed.
dir=$1
[ -d "$dir" ] || exit 0
for rcfile in "$dir"/*.rc; do
	[ -e "$rcfile" ] || continue
	read -r rc t <"$rcfile"
	awk -v t="$t" -v rc="$rc" '
	/^(not )?ok [0-9]+/ { n = $1 == "not" ? $3 : $2 }
	/^not ok/ && !/# *TODO/ {
		fails++
		l = $0
		sub(/^not ok /, "", l)
		print t " test " l
		shown = 1
		next
	}
	shown && /^#/ { l = $0; sub(/^#[ \t]*/, "", l); print "    " l; next }
	{ shown = 0 }
	/^1\.\.[0-9]+/ { plan = $1; sub(/^1\.\./, "", plan) }
	END {
		if (plan == "")
			print t ": stopped after test " n + 0 " with no plan (exit " rc "); its stderr is above"
		else if (plan + 0 != n + 0)
			print t ": planned " plan " tests, ran " n + 0
		else if (rc != 0 && !fails)
			print t ": exit " rc " with no test failed; its stderr is above"
	}' "${rcfile%.rc}.tap"
done
