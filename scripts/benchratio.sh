#!/usr/bin/env bash
# How a benchmark's cost grows with its size: runs the benchmarks of one
# package -count times (default 5) on one CPU and prints, for each, the
# least cpu-ns/op over the runs (ns/op where a benchmark reports no CPU
# time) and the ratio to the same benchmark at half the size (its last
# path element), when there is one. The least of several runs is the
# figure least disturbed by other work on a shared machine.
#
#   scripts/benchratio.sh ./rollout/cloneset '^BenchmarkPlan$/(scaleout|update|planner-update|read)/'
#   COUNT=10 scripts/benchratio.sh ./rollout/cloneset '^BenchmarkPlan$/update/'
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=${1:?usage: scripts/benchratio.sh package benchmark-regexp}
pattern=${2:?usage: scripts/benchratio.sh package benchmark-regexp}
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
go test -c -o "$bin" "$pkg"
GOMAXPROCS=1 "$bin" -test.run '^$' -test.bench "$pattern" -test.count "${COUNT:-5}" -test.benchmem |
	awk '
	/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		v = ""
		for (i = 2; i < NF; i++) if ($(i+1) == "cpu-ns/op") v = $i
		if (v == "") for (i = 2; i < NF; i++) if ($(i+1) == "ns/op") v = $i
		if (!(name in best) || v + 0 < best[name] + 0) best[name] = v
		if (!(name in seen)) { order[++n] = name; seen[name] = 1 }
	}
	END {
		printf "%-50s %14s %8s\n", "benchmark", "least ns/op", "x half"
		for (k = 1; k <= n; k++) {
			nm = order[k]; size = nm; sub(/.*\//, "", size); group = nm; sub(/\/[^\/]*$/, "", group)
			half = group "/" (size / 2); r = ""
			if (size ~ /^[0-9]+$/ && (half in best)) r = sprintf("%.2f", best[nm] / best[half])
			printf "%-50s %14.0f %8s\n", nm, best[nm], r
		}
	}'
