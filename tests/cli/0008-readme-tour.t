#!/usr/bin/env bash
# The README's tour works as printed for a newcomer: make demo's script
# ends with the one line that sets a new shell up, and in a new shell
# (nothing but HOME and TERM) with that line pasted, each command of the
# tour prints the lines the README shows, on an 80-column terminal. The
# demo's days are fixed, so this holds whatever the day; the
# reports still read the clock (goals, alerts and week stop at the newest
# data or today), so make check-clock runs it too. The tables the README
# shows whole (goals, alerts, the week, --where's answer...) are checked
# whole; an import's JSON line field by field (the tour imports again:
# every record a duplicate). The examples of the man pages that show
# their output are run on the demo's store the same way.
# reads the clock
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
is "$(grep -v '^ *{' "$T/demo.out" | perl -CSD -nle 'print if length > 80' | grep -v '^\$ \|^== \|^   open \|^The demo store is\|^    export PATH=')" "" \
	"the demo's own lines fit 80 columns (commands and titles aside)"
grep -F 'export PATH="$PWD/build/bin:$PATH" HQ_DB="$HOME/.local/share/hq/demo/hq.db" HQ_CONFIG="$HOME/.local/share/hq/demo/config" HQ_TZ=America/Los_Angeles' \
	"$HQ_ROOT/README.md" >/dev/null
ok $? "the README's Set up gives the same line"

python3 - "$HQ_ROOT/README.md" "$line" "$T/home" "$T/tour" "$HQ_ROOT/man" <<'PY'
import glob, json, os, re, subprocess, sys
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
# the commands whose whole output the README shows (the rest: a few rows)
WHOLE = ("hq-query workouts --where", "hq-report goals", "hq-report alerts",
         "hq-report week", "hq-report latest", "hq-report trend labs",
         "hq-report compare dexa", "hq-report cgm", "hq-correlate")


def run(cmd):
    """cmd in a new shell with the demo's line pasted, on an 80-column
    terminal: its lines, colours taken out."""
    sh = "%s\nstty cols 80; %s" % (sys.argv[2], cmd)
    r = subprocess.run(["script", "-qec", "bash --norc -c '%s'" % sh.replace("'", "'\\''"),
                        "/dev/null"], capture_output=True, text=True,
                       env={"HOME": sys.argv[3], "TERM": "xterm", "PATH": "/usr/bin:/bin"})
    return [re.sub(r"\x1b\[[0-9;]*[mK]", "", g).rstrip()
            for g in r.stdout.replace("\r", "").split("\n")]


def fields(line):
    """an import's JSON line as the README shows it ("..." leaves fields
    out): its fields but the path and the time it took"""
    kv = re.findall(r'"([a-z_]+)":("[^"]*"|[-0-9.]+)', line)
    return {k: json.loads(v) for k, v in kv if k not in ("file", "seconds")}


res = open(sys.argv[4], "w")
for cmd, want in blocks:
    got = run(cmd)
    missing = [w for w in want if not w.startswith("{") and w.rstrip() not in got]
    # an import's line: the fields shown are the ones it printed
    for w in [w for w in want if w.startswith("{")]:
        name = os.path.basename(json.loads(re.search(r'^\{"file":("[^"]*")', w).group(1)))
        mine = [fields(g) for g in got if g.startswith("{") and
                os.path.basename(json.loads(g).get("file", "")) == name]
        shown = fields(w)
        if not mine or any(mine[0].get(k) != v for k, v in shown.items()):
            missing.append(w)
    shown = [w.rstrip() for w in want]
    # a line the README leaves out of a table it shows whole, and a message
    # it does not show ("hq-ingest: cannot open labs.csv")
    unshown = [g for g in got if g and g not in shown and
               (cmd.startswith(WHOLE) or re.match(r"^hq[-a-z]*: ", g) or
                "command not found" in g)]
    wide = [g for g in got if len(g) > 80 and not g.startswith("{") and
            not g.startswith("hq-agent: no model set")]
    missing += unshown
    res.write("%d\t%s\n" % (1 if missing or wide else 0, cmd))
    for m in missing:
        print("#   %s: %s" % ("not in the README" if m in unshown else "the README shows", m))
    for w in wide:
        print("#   wider than 80: %s" % w)
    if missing:
        for g in got[:20]:
            print("#   got: %s" % g)

# The man pages' examples that show what they print: "$ COMMAND" and its
# lines, run on the demo's store.
ESC = [(r"\-", "-"), (r"\[*r]", "\u03c1"), (r"\(*r", "\u03c1"), (r"\(+-", "\u00b1"),
       (r"\(<=", "\u2264"), (r"\(>=", "\u2265"), (r"\&", ""), (r"\e", "\\")]
for page in sorted(glob.glob(os.path.join(sys.argv[5], "*.[1-8]"))):
    cmd, want, examples = None, [], []
    for l in open(page, encoding="utf-8").read().split("\n") + [""]:
        for a, b in ESC:
            l = l.replace(a, b)
        if l.startswith("$ "):
            cmd, want = l[2:], []
            examples.append((cmd, want))
        elif cmd and l.strip() and not l.startswith((".", "#")):
            want.append(l.rstrip())
        else:
            cmd = None
    for cmd, want in examples:
        if not want or "| jq" in cmd:
            continue
        got = run(cmd)
        # a wrapped sentence's indent aside
        missing = [w for w in want if w.strip() not in [g.strip() for g in got]]
        res.write("%d\t%s: %s\n" % (1 if missing else 0, os.path.basename(page), cmd))
        for m in missing:
            print("#   %s shows: %s" % (os.path.basename(page), m))
        if missing:
            for g in got[:20]:
                print("#   got: %s" % g)
PY
while IFS=$'\t' read -r rc cmd; do
	ok "$rc" "tour: $cmd"
done <"$T/tour"
ok "$([ "$(wc -l <"$T/tour")" -ge 15 ]; echo $?)" "the tour's commands were all found ($(wc -l <"$T/tour"))"
done_testing
