#!/usr/bin/env bash
# hq-query search's bad input (issue 31): a malformed search or place is a
# usage error (exit 2) naming the word at fault, never SQLite's words, and
# the store is left exactly as it was.
. "$(dirname "$0")/lib.sh"
command -v hq-ingest >/dev/null && command -v hq-query >/dev/null ||
	skip_all "hq-ingest or hq-query is not built"

printf 'date,test,value,unit,ref_low,ref_high\n2025-11-02,LDL cholesterol,131,mg/dL,,100\n' >"$T/labs.csv"
hq-ingest -q "$T/labs.csv" >/dev/null
ok $? "a store"
sum() { cat "$HQ_DB" "$HQ_DB-wal" 2>/dev/null | cksum; }
before=$(sum)

# bad WORDS... PATTERN NAME: exit 2, stderr matches PATTERN, no SQL
bad() {
	pat=$1 name=$2
	shift 2
	out=$(hq-query "$@" 2>&1 >/dev/null)
	is $? 2 "$name: exit 2"
	like "$out" "$pat" "$name: says what is wrong"
	unlike "$out" "fts5|sqlite|SQL|syntax error near" "$name: no SQL in the message"
}
bad "'\"unbalanced': the quote is not closed" '"unbalanced' search '"unbalanced'
bad "'NEAR\(': NEAR groups are not searched" 'NEAR(' search 'NEAR(a b)'
bad "'NEAR\(': NEAR" 'NEAR( alone' search 'NEAR('
bad "'\*': '\*' ends a word" '* alone' search '*'
bad "'a\*b': '\*' ends a word" 'a*b' search 'a*b'
bad "the search has 10000 words; at most 64" '10,000 words' \
	search $(yes word | head -10000)
bad "the search has 10000 words; at most 64" '10,000 words in one operand' \
	search "$(yes w | head -10000 | tr '\n' ' ')"
bad "the search is 2000 bytes long; at most 1024" 'a word of 2,000 bytes' \
	search "$(head -c 2000 /dev/zero | tr '\0' x)"
bad "'OR': it needs words before it" 'OR first' search OR cholesterol
bad "'AND': it needs words after it" 'AND last' search cholesterol AND
bad "'\(': it is not closed" 'unclosed (' search '(ldl OR hdl'
bad "'\)': it closes no" 'stray )' search 'ldl)'
bad "no word in the phrase" 'empty phrase' search '""'
bad "no word to search for" 'punctuation only' search '?!'
bad "search for what" 'no words, no place' search
bad "latitude 91 is outside -90 to 90" 'lat 91' search --near 91,0
bad "longitude 181 is outside -180 to 180" 'lon 181' search --near 0,181
bad "write LAT,LON" 'NaN' search --near NaN,0
bad "write LAT,LON" 'nan as a number' search --near 0,nan
bad "write LAT,LON" 'inf' search --near 0,0,inf
bad "radius 0 km is not above 0" 'radius 0' search --near 37.8,-122.4,0
bad "radius 1e\+09 km is not above 0 and at most 1000" 'radius 1e9' search --near 37.8,-122.4,1e9
bad "radius -1 km" 'radius -1' search --near 37.8,-122.4,-1
bad "write LAT,LON" 'one number' search --near 37.8
bad "write LAT,LON" 'four numbers' search --near 1,2,3,4
bad "no such place under \[places\]" 'unknown place' search --near lake
bad "--in 'books'" '--in books' search x --in books
bad "--near finds workouts" '--near with --in labs' search --near 1,2 --in labs
bad "go with hq-query search" '--near without search' steps --near 1,2
bad "no such workout type" '--type' search run --type runing
mkdir -p "$XDG_CONFIG_HOME/hq"
printf '[places]\nhome = 37.77,-122.42,0.5\n1.5 = 37.77,-122.42\n' >"$XDG_CONFIG_HOME/hq/config"
bad "config:3: \[places\] '1.5'.*coordinate" 'a place named like a coordinate' search --near home
printf '[places]\nhome = 37.77,-122.42,0\n' >"$XDG_CONFIG_HOME/hq/config"
bad "config:2: \[places\] home '37.77,-122.42,0': the radius 0 km" 'a place of radius 0' search --near home
printf '[places]\nhome = 91,0\n' >"$XDG_CONFIG_HOME/hq/config"
bad "latitude 91" 'a place at lat 91' search --near home

is "$(sum)" "$before" "the store is exactly as it was"
# and the words hq quotes are not FTS5's: a column filter is a word
hq-query search 'title:ldl' --count >"$T/n" 2>&1
is "$?:$(cat "$T/n")" "0:0" "title:ldl is a word, not a column filter"
hq-query search --count -- -ldl >"$T/n" 2>&1
is "$?:$(cat "$T/n")" "0:1" "-ldl is the word ldl"
done_testing
