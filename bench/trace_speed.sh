#!/usr/bin/env bash
# Time and peak memory of `ridgepoint analyze` on a large PyTorch profiler trace next to Python's
# json.load of the same file (docs/PERFORMANCE.md, "Profiler traces"): the median wall time and
# peak RSS ("Maximum resident set size") of RUNS runs of each, the report going to /dev/null.
#
#   bench/trace_speed.sh build/release/app/ridgepoint [RUNS] [MEGABYTES]
#
# The trace is made in /tmp when missing (never committed): /tmp/trace-MEGABYTESmb.json by
# bench/make_trace.py, the A100 fixture's events repeated with shifted times and ids (124 MB by
# default).
set -euo pipefail

ridgepoint=${1:?usage: bench/trace_speed.sh path/to/ridgepoint [runs] [megabytes]}
runs=${2:-3}
megabytes=${3:-124}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
trace=/tmp/trace-${megabytes}mb.json
[ -f "$trace" ] || "$here/make_trace.py" "$trace" "$megabytes"

echo "$(date -u '+%F %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $runs runs each"
echo "input: $trace, $(du -h "$trace" | cut -f1)"
time_case "ridgepoint analyze" "$ridgepoint" analyze "$trace"
time_case "ridgepoint analyze --json" "$ridgepoint" analyze --json "$trace"
time_case "python3 json.load" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$trace"
