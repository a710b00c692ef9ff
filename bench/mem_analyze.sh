#!/usr/bin/env bash
# Peak memory and wall time of `ridgepoint analyze` on 3 million rows and on a 210 MB session
# (docs/PERFORMANCE.md, "Memory of analyze"): the median peak RSS ("Maximum resident set size")
# and wall time of RUNS runs of each case, the report going to /dev/null.
#
#   bench/mem_analyze.sh build/release/app/ridgepoint [RUNS]
#
# The inputs are made in /tmp when missing (never committed): /tmp/points-3000000.csv by
# bench/make_points.py (name,flops,bytes,seconds,group, about 150 MB) and
# /tmp/session-400000.ridgepoint.json by bench/make_session.py (about 210 MB).
set -euo pipefail

ridgepoint=${1:?usage: bench/mem_analyze.sh path/to/ridgepoint [runs]}
runs=${2:-3}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
points_files 3000000
session=/tmp/session-400000.ridgepoint.json
[ -f "$session" ] || "$here/make_session.py" 400000 "$session"

# run_case LABEL ARGUMENTS...: analyze with ARGUMENTS, stdout to /dev/null.
run_case() {
  local label=$1
  shift
  time_case "$label" "$ridgepoint" analyze "$@"
}

echo "$(date -u '+%F %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $runs runs each"
echo "inputs: $(du -h /tmp/points-3000000.csv | cut -f1) points CSV, $(du -h "$session" | cut -f1) session"
run_case "3M rows, table" --hardware h100 /tmp/points-3000000.csv
run_case "3M rows, csv" --hardware h100 --format csv /tmp/points-3000000.csv
run_case "3M rows, json" --hardware h100 --json /tmp/points-3000000.csv
run_case "session 400k points, json" --json "$session"
