#!/usr/bin/env bash
# Before/after of `ridgepoint render` (docs/PERFORMANCE.md, "Memory at a million points"): two
# builds run alternately in one shell, RUNS runs of each case, median wall time and peak RSS.
#
#   bench/compare_render.sh path/to/before/ridgepoint path/to/after/ridgepoint [RUNS]
#
# The points files come from bench/make_points.py (made in /tmp when missing; never committed).
set -euo pipefail

before=${1:?usage: bench/compare_render.sh before/ridgepoint after/ridgepoint [runs]}
after=${2:?usage: bench/compare_render.sh before/ridgepoint after/ridgepoint [runs]}
runs=${3:-5}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
points_files 100000 1000000

echo "$(date -u '+%F %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $runs runs each"
for c in "100000 svg" "100000 png" "1000000 svg" "1000000 png"; do
  read -r n ext <<<"$c"
  : >"$out/before"
  : >"$out/after"
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -a -o "$out/before" "$before" render --hardware h100 \
      "/tmp/points-$n.csv" -o "$out/o.$ext" >/dev/null 2>&1
    /usr/bin/time -f "%e %M" -a -o "$out/after" "$after" render --hardware h100 \
      "/tmp/points-$n.csv" -o "$out/o.$ext" >/dev/null 2>&1
  done
  for v in before after; do
    printf '%8s -> %s %-6s median %5.2f s (runs: %s)  peak RSS %5d MB\n' "$n" "$ext" "$v" \
      "$(cut -d' ' -f1 "$out/$v" | median)" "$(cut -d' ' -f1 "$out/$v" | paste -sd' ')" \
      "$(($(cut -d' ' -f2 "$out/$v" | median) / 1024))"
  done
done
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
