#!/usr/bin/env bash
# Runs the generated bash completion the way bash does on TAB (COMP_WORDS, COMP_CWORD) and checks
# what it offers. The program is first on PATH so the completion asks it for the preset names.
#   check-completion.sh RIDGEPOINT COMPLETION_FILE
set -uo pipefail
bin=$1 completion=$2
PATH="$(cd "$(dirname "$bin")" && pwd):$PATH"
# shellcheck source=/dev/null
source "$completion" || { echo "FAIL: cannot source $completion"; exit 1; }
fail=0
complete_words() { # complete_words WORD...: the cursor on the last word; prints COMPREPLY
  COMP_WORDS=("$@")
  COMP_CWORD=$(($# - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _ridgepoint
  printf '%s\n' "${COMPREPLY[@]}"
}
expect() { # expect "WORDS" WANTED...: each wanted word is offered
  local words=$1 got want
  shift
  # shellcheck disable=SC2086
  got=$(cd "$scratch" && complete_words $words)
  for want in "$@"; do
    grep -qxF -- "$want" <<<"$got" || { echo "FAIL: '$words' does not offer '$want' (offers: $(echo $got))"; fail=1; }
  done
}
reject() { # reject "WORDS" UNWANTED...
  local words=$1 got no
  shift
  # shellcheck disable=SC2086
  got=$(cd "$scratch" && complete_words $words)
  for no in "$@"; do
    if grep -qxF -- "$no" <<<"$got"; then echo "FAIL: '$words' offers '$no'"; fail=1; fi
  done
}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
touch "$scratch/kernels.csv" "$scratch/h100-own.json" "$scratch/with space.csv"

expect "ridgepoint ren" render
reject "ridgepoint ren" analyze kernels.csv
expect "ridgepoint m" matmul measure
# The H100 preset's aliases (resources/hardware/nvidia-h100-sxm.json: "H100", "H100 SXM",
# "H100 SXM5"), spaces written as '-' and matched regardless of case.
expect "ridgepoint render --hardware H1" H100 H100-SXM H100-SXM5
expect "ridgepoint render --hardware h1" H100 H100-SXM H100-SXM5
reject "ridgepoint render --hardware H1" H200 A100-80GB
expect "ridgepoint --hardware H1" H100
expect "ridgepoint analyze --hardware h" h100-own.json
expect "ridgepoint render --th" --theme
expect "ridgepoint render --theme d" dark
expect "ridgepoint analyze --format c" csv
expect "ridgepoint presets --" --json --names --help
reject "ridgepoint presets --" --theme
expect "ridgepoint analyze k" kernels.csv
expect "ridgepoint render -o k" kernels.csv
expect "ridgepoint measure -o k" kernels.csv
expect "ridgepoint --sc" --screenshot
expect "ridgepoint analyze wi" "with space.csv"

exit $fail
