# fish completion for hq and the hq-* commands. Nothing here knows an
# option: the words typed go to the command itself,
# `hq-query --complete-args --agg avg,m`, which answers from its option
# table and its store, one candidate a line, "VALUE<tab>DESCRIPTION" as
# fish reads them, or ":files" (hq(7), lib/opts.c). The build writes one
# copy per command (hq-query.fish...), differing in the last line only.

function __hq_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l cmd $tokens[1]
    set -e tokens[1]
    set -l out ($cmd --complete-args $tokens $cur 2>/dev/null)
    if test "$out[1]" = ":files"
        set -l head (string match -r -- '^--[^=]*=' $cur)
        for f in (__fish_complete_path (string replace -r -- '^--[^=]*=' '' $cur))
            printf '%s%s\n' "$head" $f
        end
        return
    end
    printf '%s\n' $out
end

complete -c hq -f -k -a '(__hq_complete)'
