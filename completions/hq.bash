# bash completion for hq and every hq-* command. Nothing here knows an
# option: the words typed go to the command itself,
#
#     hq-query --complete-args --agg avg,m
#
# which answers from its option table and its store, one candidate a line,
# "VALUE" or "VALUE<tab>DESCRIPTION", or ":files" (hq(7), lib/opts.c). So
# a new command, option or value needs no edit here. Installed as
# .../bash-completion/completions/hq with a link per command; sourcing it
# also registers every hq-* on PATH.

# The words of the line up to the cursor as the command sees them: bash
# splits --by=week and http://host at '=' and ':' (COMP_WORDBREAKS), so
# pieces with no blank between them are joined again. Sets _hq_words
# (without the command) and _hq_cur (the word completed, joined, raw).
_hq_words() {
	local line i w lead
	if [[ -n ${COMP_LINE-} ]]; then
		line=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
	else
		line="${COMP_WORDS[*]:0:COMP_CWORD+1}"
	fi
	_hq_words=()
	for ((i = 0; i <= COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		lead=${line%%[![:blank:]]*}
		line=${line#"$lead"}
		line=${line#"$w"}
		((i == 0)) && continue
		if ((i > 1)) && [[ -z $lead ]]; then
			_hq_words[-1]+=$w
		else
			_hq_words+=("$w")
		fi
	done
	((${#_hq_words[@]})) || _hq_words=("")
	_hq_cur=${_hq_words[-1]}
}

# A word as typed, without its quoting: 'a b', "a b" and a\ b are a b.
_hq_dequote() {
	local w=$1
	case $w in
	\'*) w=${w#\'}; w=${w%\'} ;;
	\"*) w=${w#\"}; w=${w%\"} ;;
	*) w=${w//\\/} ;;
	esac
	printf '%s' "$w"
}

_hq_complete() {
	local cmd=${COMP_WORDS[0]} cur reply line value descr i n=0 keep
	local -a words=() vals=() descs=()
	_hq_words
	for ((i = 0; i < ${#_hq_words[@]}; i++)); do
		words+=("$(_hq_dequote "${_hq_words[i]}")")
	done
	cur=${words[${#words[@]}-1]}
	reply=$("$cmd" --complete-args "${words[@]}" 2>/dev/null) || return 0
	# bash replaces only what follows the last '=' or ':' of a bare word
	keep=${_hq_cur%"${_hq_cur##*[=:]}"}
	[[ ${_hq_cur:0:1} == [\'\"] ]] && keep=
	if [[ $reply == :files ]]; then
		local IFS=$'\n'
		COMPREPLY=($(compgen -f -- "${cur#"$keep"}"))
		compopt -o filenames 2>/dev/null
		return 0
	fi
	while IFS= read -r line; do
		value=${line%%$'\t'*}
		[[ $value == "$cur"* ]] || continue
		descr=
		[[ $line == *$'\t'* ]] && descr=${line#*$'\t'}
		vals+=("${value#"$keep"}")
		descs+=("$descr")
	done <<<"$reply"
	compopt -o nosort 2>/dev/null
	# a list or a name that goes on (avg, steps.) takes no space yet
	if ((${#vals[@]} == 1)) && [[ ${vals[0]} == *[.,=] ]]; then
		compopt -o nospace 2>/dev/null
	fi
	# listing (the second tab): each value with its description
	if ((${#vals[@]} > 1)) && [[ ${COMP_TYPE:-9} == 63 ]]; then
		local width=${COLUMNS:-80} entry
		for ((i = 0; i < ${#vals[@]}; i++)); do
			[[ -n ${descs[i]} && ${vals[i]} != -* ]] || continue
			entry="${vals[i]}  (${descs[i]})"
			((${#entry} < width)) || entry="${entry:0:width-2}…"
			vals[i]=$entry
		done
	fi
	# each value quoted for where it goes (listing, the second tab, only
	# shows them): a value is text from the store, and any file imported
	# names sources (issue 23)
	if [[ ${COMP_TYPE:-9} != 63 ]]; then
		local open=
		[[ ${_hq_cur:0:1} == [\'\"] ]] && open=${_hq_cur:0:1}
		for ((i = 0; i < ${#vals[@]}; i++)); do
			_hq_quote "$open" "${vals[i]}"
			vals[i]=$_hq_q
		done
	fi
	COMPREPLY=("${vals[@]}")
}

# _hq_quote OPEN VALUE: VALUE as it must be typed after the word's opening
# quote OPEN (' or ", else none) for the shell to read it back as it is,
# into _hq_q (no subshell per value).
# Inside "...": \ before $ ` \ " (which still act there), and a ! (history
# expansion, which a \ does not stop there) as "'!'", closing the quote and
# opening it again. Inside '...': a ' as '\''. Bare: printf %q when any
# character is not a letter, a digit or one of _ . / , : = @ % + - (so
# blanks, * ? [ ~ # ! and the rest are quoted; a list as avg,min is not).
_hq_quote() {
	local v=$2 bs='\' sq="'" dq='"'
	case $1 in
	\")
		v=${v//"$bs"/"$bs$bs"}
		v=${v//"\$"/"$bs\$"}
		v=${v//"\`"/"$bs\`"}
		v=${v//"$dq"/"$bs$dq"}
		v=${v//"!"/"$dq$sq!$sq$dq"}
		;;
	\')
		v=${v//"$sq"/"$sq$bs$sq$sq"}
		;;
	*)
		[[ $v == *[^[:alnum:]_./,:=@%+-]* ]] && printf -v v '%q' "$v"
		;;
	esac
	# readline closes the quote after a single match unless the match ends
	# with the quote character (as \" or '\'' or "'!'" do): close it here
	[[ -n $1 && $v == *"$1" ]] && v+=$1
	_hq_q=$v
}

# hq, the commands built with it, and any other hq-* on PATH: a new
# command needs nothing here.
_hq_names=$(compgen -c hq- 2>/dev/null | sort -u)
complete -F _hq_complete hq hq-agent hq-ingest hq-query $_hq_names
unset _hq_names
