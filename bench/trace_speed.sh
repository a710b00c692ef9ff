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

# run_case LABEL COMMAND...: COMMAND's median time and peak RSS over the runs.
run_case() {
  local label=$1 status
  shift
  local times=() rss=()
  for _ in $(seq "$runs"); do
    status=0
    /usr/bin/time -f "%e %M" -o "$out/time" "$@" >/dev/null 2>"$out/err" || status=$?
    if [ "$status" -ne 0 ]; then
      printf '%-24s failed (status %d): %s\n' "$label" "$status" "$(head -c 200 "$out/err")"
      return
    fi
    read -r t m <"$out/time"
    times+=("$t")
    rss+=("$m")
  done
  printf '%-24s median %6.2f s (runs: %s)  peak RSS %5d MB (runs: %s)\n' "$label" \
    "$(printf '%s\n' "${times[@]}" | median)" "${times[*]}" \
    "$(($(printf '%s\n' "${rss[@]}" | median | cut -d. -f1) / 1024))" \
    "$(printf '%s ' "${rss[@]}" | awk '{ for (i = 1; i <= NF; i++) printf "%s%d", (i > 1 ? " " : ""), $i / 1024 }')"
}

echo "$(date -u '+%F %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $runs runs each"
echo "input: $trace, $(du -h "$trace" | cut -f1)"
run_case "ridgepoint analyze" "$ridgepoint" analyze "$trace"
run_case "ridgepoint analyze --json" "$ridgepoint" analyze --json "$trace"
run_case "python3 json.load" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$trace"
