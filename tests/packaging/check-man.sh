#!/usr/bin/env bash
# The man page and --help name the same subcommands and the same options for each. Read
# independently of packaging/gen-docs.sh: the options are the words starting with '-' at the
# start of a --help line, and the \fB...\fR words of the man page's .TP entries per section.
#   check-man.sh RIDGEPOINT MAN_PAGE
set -uo pipefail
bin=$1 man=$2
fail=0
help_options() { "$bin" "$@" 2>/dev/null | grep -E '^  -' | sed 's/^  //' | grep -oE -- '(^|, )--?[A-Za-z0-9-]+' |
                 sed 's/^, //' | sort -u; }
man_options() { # the options listed under ".SS NAME" (or the WINDOW section for "window")
  awk -v want="$1" '
    /^\.S[HS] / { sub(/^\.S[HS] /, ""); section = $0; next }
    section == want && prev == ".TP" { print }
    { prev = $0 }' "$man" | grep -oE '\\fB[^\\]*(\\-[^\\]*)*\\fR' | sed 's/\\fB//; s/\\fR//; s/\\-/-/g' |
    grep -E '^-' | sort -u; }
commands_help=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }' | sort)
commands_man=$(grep -E '^\.SS [a-z]+$' "$man" | sed 's/^\.SS //' | grep -vx Options | sort)
[ -n "$commands_help" ] || { echo "FAIL: --help lists no commands"; exit 1; }
if [ "$commands_help" != "$commands_man" ]; then
  echo "FAIL: commands differ: --help: $(echo $commands_help); man: $(echo $commands_man)"
  fail=1
fi
compare() { # compare NAME MAN_SECTION HELP_ARGS...
  local name=$1 section=$2 h m
  shift 2
  h=$(help_options "$@")
  m=$(man_options "$section")
  [ -n "$h" ] || { echo "FAIL: '$*' lists no options"; fail=1; return; }
  if [ "$h" != "$m" ]; then
    echo "FAIL: $name: options differ"; diff <(echo "$h") <(echo "$m") | sed 's/^/  /'; fail=1
  fi
}
compare window Options --help-window
for c in $commands_help; do compare "$c" "$c" "$c" --help; done
exit $fail
