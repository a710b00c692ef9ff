#!/usr/bin/env bash
# `ridgepoint render --session` of sessions whose points all carry what-if moves, and of sessions
# of planned matmul workloads, at several sizes, so that the growth with N shows
# (docs/PERFORMANCE.md, "Sessions with moves and workloads"). With two programs they run
# alternately in one shell (before/after); each run is cut off after LIMIT seconds (shown as >LIMIT).
#
#   bench/time_render_sessions.sh path/to/ridgepoint [path/to/other/ridgepoint] [RUNS] [LIMIT]
#
# The sessions come from bench/make_session.py (made in /tmp when missing; never committed).
# SIZES="1000 10000" overrides the sizes (default 1000 10000 20000 40000).
set -euo pipefail

first=${1:?usage: bench/time_render_sessions.sh ridgepoint [other-ridgepoint] [runs] [limit]}
second=""
if [ $# -ge 2 ] && [ -x "$2" ]; then
  second=$2
  shift
fi
runs=${2:-3}
limit=${3:-120}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"

# time_one PROGRAM SESSION: "seconds peak-KB", the seconds as ">LIMIT" when cut off.
time_one() {
  if /usr/bin/time -f "%e %M" -o "$out/time" timeout "$limit" "$1" render --session "$2" \
    -o "$out/o.svg" >/dev/null 2>"$out/err"; then
    cat "$out/time"
  else
    echo ">$limit 0"
  fi
}

echo "$(date -u '+%F %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $runs runs each"
for kind in moved workloads; do
  for n in ${SIZES:-1000 10000 20000 40000}; do
    session=/tmp/session-$kind-$n.ridgepoint.json
    [ -f "$session" ] || "$here/make_session.py" --kind "$kind" "$n" "$session"
    programs=("$first")
    [ -z "$second" ] || programs+=("$second")
    for k in "${!programs[@]}"; do : >"$out/runs$k"; done
    for _ in $(seq "$runs"); do
      for k in "${!programs[@]}"; do
        time_one "${programs[$k]}" "$session" >>"$out/runs$k"
      done
    done
    for k in "${!programs[@]}"; do
      # A run cut off counts as the limit in the median.
      printf '%-9s %6d  %-40s median %7.2f s (runs: %s)  peak RSS %5d MB\n' "$kind" "$n" \
        "${programs[$k]}" "$(cut -d' ' -f1 "$out/runs$k" | tr -d '>' | median)" \
        "$(cut -d' ' -f1 "$out/runs$k" | paste -sd' ')" \
        "$(($(cut -d' ' -f2 "$out/runs$k" | median | cut -d. -f1) / 1024))"
    done
  done
done
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
