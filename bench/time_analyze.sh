#!/usr/bin/env bash
# End-to-end timings of `ridgepoint analyze --json` on a million rows (docs/PERFORMANCE.md,
# "analyze end to end"): the median wall time, CPU time (user + system) and peak RSS of RUNS runs
# of each case, and the size of the report.
#
#   bench/time_analyze.sh build/perf-rel/app/ridgepoint [RUNS]
#
# The input files are made in /tmp when missing (never committed): /tmp/points-1000000.csv by
# bench/make_points.py (name,flops,bytes,seconds,group, random, 49 MB) and /tmp/bench-1000000.csv
# with the rows of bench_core's readPointsCsv/1000000 (name,group,precision,flops,bytes,seconds,
# 61 MB).
set -euo pipefail

ridgepoint=${1:?usage: bench/time_analyze.sh path/to/ridgepoint [runs]}
runs=${2:-3}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
points_files 1000000
[ -f /tmp/bench-1000000.csv ] || awk 'BEGIN {
  print "name,group,precision,flops,bytes,seconds"
  for (i = 0; i < 1000000; i++)
    printf "kernel_%d,g%d,bf16,%f,%f,0.001\n", i, i % 8, 1e6 * (1 + i % 1000), 1e5 * (1 + (i * 7) % 997)
}' >/tmp/bench-1000000.csv

# run_case LABEL OUTPUT INPUT: OUTPUT is /dev/null or a file name in the temporary directory.
run_case() {
  local label=$1 output=$2 input=$3 target
  target=$([ "$output" = /dev/null ] && echo /dev/null || echo "$out/$output")
  local times=() cpus=() rss=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S %M" -o "$out/time" \
      "$ridgepoint" analyze --hardware h100 --json "$input" >"$target" 2>"$out/err"
    read -r t u s m <"$out/time"
    times+=("$t")
    cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')")
    rss+=("$m")
  done
  local size=-
  if [ "$target" != /dev/null ]; then
    size=$(du -h "$target" | cut -f1)
    rm -f "$target"
  fi
  printf '%-26s median %6.2f s (runs: %s)  CPU %5.2f s  peak RSS %5d MB  report %s\n' "$label" \
    "$(printf '%s\n' "${times[@]}" | median)" "${times[*]}" \
    "$(printf '%s\n' "${cpus[@]}" | median)" \
    "$(($(printf '%s\n' "${rss[@]}" | median | cut -d. -f1) / 1024))" "$size"
}

echo "$(date -u '+%F %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $runs runs each"
run_case "bench rows -> /dev/null" /dev/null /tmp/bench-1000000.csv
run_case "random rows -> /dev/null" /dev/null /tmp/points-1000000.csv
run_case "random rows -> file" report.json /tmp/points-1000000.csv
