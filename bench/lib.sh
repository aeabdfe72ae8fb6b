# bench/lib.sh — sourced by the benchmarks (bench/run.sh does not run it).

# best CMD...: the best wall time of three runs, in seconds.
best() {
	b=999
	for _ in 1 2 3; do
		s=$(date +%s.%N)
		"$@" >/dev/null
		e=$(date +%s.%N)
		b=$(awk -v b="$b" -v s="$s" -v e="$e" 'BEGIN { d = e - s; print (d < b) ? d : b }')
	done
	echo "$b"
}
