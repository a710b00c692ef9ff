# Sourced by the timing scripts of bench/ (time_analyze.sh, time_render.sh, compare_render.sh):
# the scratch directory, the offscreen platform, the points files and the median.
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
