#!/usr/bin/env bash
# The README's tour works as printed for a newcomer: make demo's script
# ends with the one line that sets a new shell up, and in a new shell
# (nothing but HOME and TERM) with that line pasted, each command of the
# tour prints the lines the README shows, on an 80-column terminal. The
# demo's days are fixed, so this holds whatever the day.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || skip_all "script(1) is needed for a terminal"
command -v gen-export >/dev/null || skip_all "gen-export not built"

mkdir -p "$T/home"
HOME="$T/home" HQ_BUILD="$HQ_BUILD" sh "$HQ_ROOT/scripts/demo.sh" >"$T/demo.out" 2>&1
is "$?" 0 "the demo runs"
line=$(sed -n 's/^    \(export PATH=.*\)/\1/p' "$T/demo.out")
is "$line" "export PATH='$HQ_BUILD/bin':\"\$PATH\" HQ_DB='$T/home/.local/share/hq/demo/hq.db' HQ_CONFIG='$T/home/.local/share/hq/demo/config' HQ_TZ=America/Los_Angeles" \
	"the demo ends with the line to paste: PATH, HQ_DB, HQ_CONFIG (the demo's goals), HQ_TZ, absolute"
like "$(grep -A1 'The demo store is' "$T/demo.out")" "To try the tour of README.md in a new shell" \
	"and says what it is for"
like "$(cat "$T/demo.out")" "'hq help COMMAND' shows a command's manual page" "and where the manual is"
is "$(grep -v '^ *{' "$T/demo.out" | awk 'length > 80' | grep -v '^\$ \|^== \|^   open \|^The demo store is\|^    export PATH=')" "" \
	"the demo's own lines fit 80 columns (commands and titles aside)"
grep -F 'export PATH="$PWD/build/bin:$PATH" HQ_DB="$HOME/.local/share/hq/demo/hq.db" HQ_CONFIG="$HOME/.local/share/hq/demo/config" HQ_TZ=America/Los_Angeles' \
	"$HQ_ROOT/README.md" >/dev/null
ok $? "the README's Set up gives the same line"

python3 - "$HQ_ROOT/README.md" "$line" "$T/home" "$T/tour" <<'PY'
import re, subprocess, sys
readme = open(sys.argv[1], encoding="utf-8").read()
tour = readme[readme.index("## A tour"):readme.index("## Importing")]
blocks, cur = [], None
for l in tour.split("\n"):
    if l.startswith("    $ "):
        cur = [l[6:], []]
        blocks.append(cur)
    elif l.startswith("    ") and cur is not None:
        cur[1].append(l[4:])
    else:
        cur = None
res = open(sys.argv[4], "w")
for cmd, want in blocks:
    sh = "%s\nstty cols 80; %s" % (sys.argv[2], cmd)
    r = subprocess.run(["script", "-qec", "bash --norc -c '%s'" % sh.replace("'", "'\\''"),
                        "/dev/null"], capture_output=True, text=True,
                       env={"HOME": sys.argv[3], "TERM": "xterm", "PATH": "/usr/bin:/bin"})
    got = [re.sub(r"\x1b\[[0-9;]*[mK]", "", g).rstrip()
           for g in r.stdout.replace("\r", "").split("\n")]
    # JSON lines (import summaries) differ in paths, timings and, run
    # again, in what is new: their fields are checked by other tests
    missing = [w for w in want if not w.startswith("{") and w.rstrip() not in got]
    wide = [g for g in got if len(g) > 80 and not g.startswith("{") and
            not g.startswith("hq-agent: no model set")]
    # a message the README does not show ("hq-ingest: cannot open labs.csv")
    missing += [g for g in got if (re.match(r"^hq[-a-z]*: ", g) or "command not found" in g) and
                g not in [w.rstrip() for w in want]]
    res.write("%d\t%s\n" % (1 if missing or wide else 0, cmd))
    for m in missing:
        print("#   the README shows: %s" % m)
    for w in wide:
        print("#   wider than 80: %s" % w)
    if missing:
        for g in got[:20]:
            print("#   got: %s" % g)
PY
while IFS=$'\t' read -r rc cmd; do
	ok "$rc" "tour: $cmd"
done <"$T/tour"
ok "$([ "$(wc -l <"$T/tour")" -ge 15 ]; echo $?)" "the tour's commands were all found ($(wc -l <"$T/tour"))"
done_testing
