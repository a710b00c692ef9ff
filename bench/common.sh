# Sourced by the timing scripts of bench/ (time_analyze.sh, time_render.sh, compare_render.sh,
# mem_analyze.sh, trace_speed.sh): the scratch directory, the offscreen platform, the points files,
# the median and a timed case.
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export QT_QPA_PLATFORM=offscreen

# points_files N...: /tmp/points-N.csv from make_points.py for each N, when missing (never
# committed).
points_files() {
  local n
  for n in "$@"; do
    [ -f "/tmp/points-$n.csv" ] || "$here/make_points.py" "$n" "/tmp/points-$n.csv"
  done
}

# The median of the numbers on stdin, one a line (the mean of the middle two for an even count).
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# time_case LABEL COMMAND...: COMMAND's median wall time and peak RSS over $runs runs, one line;
# a failing run is reported with the start of its stderr instead.
time_case() {
  local label=$1 status t m
  shift
  local times=() rss=()
  for _ in $(seq "$runs"); do
    status=0
    /usr/bin/time -f "%e %M" -o "$out/time" "$@" >/dev/null 2>"$out/err" || status=$?
    if [ "$status" -ne 0 ]; then
      printf '%-28s failed (status %d): %s\n' "$label" "$status" "$(head -c 200 "$out/err")"
      return
    fi
    read -r t m <"$out/time"
    times+=("$t")
    rss+=("$m")
  done
  printf '%-28s median %6.2f s (runs: %s)  peak RSS %5d MB (runs: %s)\n' "$label" \
    "$(printf '%s\n' "${times[@]}" | median)" "${times[*]}" \
    "$(($(printf '%s\n' "${rss[@]}" | median | cut -d. -f1) / 1024))" \
    "$(printf '%s ' "${rss[@]}" | awk '{ for (i = 1; i <= NF; i++) printf "%s%d", (i > 1 ? " " : ""), $i / 1024 }')"
}
