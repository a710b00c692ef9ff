#!/usr/bin/env bash
# End-to-end timings of `ridgepoint render` (docs/PERFORMANCE.md, "render end to end"): the median
# wall time and peak RSS of RUNS runs of each case, and the output's size, plus the per-step
# milliseconds of one more run (render's hidden --timings).
#
#   bench/time_render.sh build/r-rel/app/ridgepoint [RUNS]
#
# The points files come from bench/make_points.py (made in /tmp when missing; never committed).
set -euo pipefail

ridgepoint=${1:?usage: bench/time_render.sh path/to/ridgepoint [runs]}
runs=${2:-5}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
points_files 100000 1000000

run_case() {
  local label=$1 output=$2
  shift 2
  local times=() rss=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$out/time" "$ridgepoint" render "$@" -o "$out/$output" >/dev/null 2>"$out/err"
    read -r t m <"$out/time"
    times+=("$t")
    rss+=("$m")
  done
  printf '%-34s median %5.2f s (runs: %s)  peak RSS %4d MB  output %s\n' "$label" \
    "$(printf '%s\n' "${times[@]}" | median)" "${times[*]}" \
    "$(($(printf '%s\n' "${rss[@]}" | median | cut -d. -f1) / 1024))" \
    "$(du -h "$out/$output" | cut -f1)"
  "$ridgepoint" render "$@" --timings -o "$out/$output" 2>&1 >/dev/null | grep '^timing' |
    sed 's/^timing: //' | paste -sd ' ' | sed 's/^/    steps: /'
}

echo "$(date -u '+%F %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $runs runs each"
run_case "no points (start-up and exit)" empty.svg --hardware h100
run_case "100k points -> PNG 1600x1000" p100k.png --hardware h100 /tmp/points-100000.csv
run_case "100k points -> SVG" p100k.svg --hardware h100 /tmp/points-100000.csv
run_case "1M points -> SVG" p1m.svg --hardware h100 /tmp/points-1000000.csv
run_case "1M points -> PNG" p1m.png --hardware h100 /tmp/points-1000000.csv
