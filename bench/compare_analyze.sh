#!/usr/bin/env bash
# `ridgepoint analyze` on a million rows in every output format, two builds side by side in one
# run, and the pandas baseline (docs/PERFORMANCE.md, "analyze on a million rows"): the median wall
# time and median peak RSS ("Maximum resident set size", /usr/bin/time -v) of RUNS runs of each
# case, the report going to /dev/null. The builds alternate run by run, so a change in the
# machine's load falls on both.
#
#   bench/compare_analyze.sh OLD/ridgepoint NEW/ridgepoint [RUNS]
#
# The input is /tmp/points-1000000.csv from bench/make_points.py, made when missing (never
# committed). pandas: `apt-get install -y python3-pandas`, run with /usr/bin/python3 (Debian's).
set -euo pipefail

old=${1:?usage: bench/compare_analyze.sh old/ridgepoint new/ridgepoint [runs]}
new=${2:?usage: bench/compare_analyze.sh old/ridgepoint new/ridgepoint [runs]}
runs=${3:-5}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
points_files 1000000
input=/tmp/points-1000000.csv

# measure FILE COMMAND...: appends "seconds kilobytes" of one run to FILE ("failed" on an error).
measure() {
  local file=$1
  shift
  if /usr/bin/time -v -o "$out/time" "$@" >/dev/null 2>"$out/err"; then
    awk '/Elapsed \(wall clock\)/ { n = split($NF, p, ":"); s = p[n] + (n > 1 ? 60 * p[n - 1] : 0) }
         /Maximum resident set size/ { m = $NF } END { print s, m }' "$out/time" >>"$file"
  else
    echo failed >>"$file"
  fi
}

# summary FILE: "median s (runs), median MB".
summary() {
  if grep -q failed "$1"; then
    echo "failed: $(head -c 120 "$out/err")"
    return
  fi
  printf '%6.2f s (%s), %5d MB' "$(cut -d' ' -f1 "$1" | median)" "$(cut -d' ' -f1 "$1" | tr '\n' ' ' | sed 's/ $//')" \
    "$(($(cut -d' ' -f2 "$1" | median | cut -d. -f1) / 1024))"
}

echo "$(date -u '+%F %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $runs runs each"
echo "input: $input, $(du -h "$input" | cut -f1)"
cases=("table:" "csv:--format csv" "markdown:--format markdown" "json:--json" "compact:--compact")
for entry in "${cases[@]}"; do
  label=${entry%%:*}
  read -r -a options <<<"${entry#*:}"
  rm -f "$out/old" "$out/new"
  for _ in $(seq "$runs"); do
    # A build from before --compact (26823cf) has no such case.
    if [ "$label" != compact ] || "$old" analyze --help 2>/dev/null | grep -q -- --compact; then
      measure "$out/old" "$old" analyze --hardware h100 "${options[@]}" "$input"
    fi
    measure "$out/new" "$new" analyze --hardware h100 "${options[@]}" "$input"
  done
  printf '%-9s old %s\n' "$label" "$([ -f "$out/old" ] && summary "$out/old" || echo "no such option")"
  printf '%-9s new %s\n' "" "$(summary "$out/new")"
done
rm -f "$out/pandas"
for _ in $(seq "$runs"); do
  measure "$out/pandas" /usr/bin/python3 "$here/pandas_analyze.py" "$input" /dev/null
done
printf '%-9s     %s\n' "pandas" "$(summary "$out/pandas")"
