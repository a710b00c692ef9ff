# The completion logic, appended by packaging/gen-docs.sh after the generated tables
# (_ridgepoint_commands, _ridgepoint_options, _ridgepoint_value).

# Files (and folders to walk into) matching $1.
_ridgepoint_files() {
  compopt -o filenames 2>/dev/null
  mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$1")
}

# The words of $1 that start with $2.
_ridgepoint_words() {
  mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -W "$1" -- "$2")
}

# Preset names and aliases starting with $1, case ignored like --hardware does; spaces become
# '-', which --hardware ignores as it ignores spaces ("H100 SXM5" -> H100-SXM5).
_ridgepoint_presets() {
  local program=$1 cur=$2 name
  local IFS=$'\n'
  for name in $("$program" presets --names 2>/dev/null); do
    name=${name// /-}
    if [[ ${name,,} == "${cur,,}"* ]]; then
      COMPREPLY+=("$name")
    fi
  done
}

_ridgepoint() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local prev=""
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  local program=${COMP_WORDS[0]}
  [[ -x $program ]] || program=ridgepoint
  COMPREPLY=()

  local command=window word
  if ((COMP_CWORD > 1)); then
    for word in $_ridgepoint_commands help; do
      [[ ${COMP_WORDS[1]} == "$word" ]] && command=$word
    done
  fi
  [[ $command == help ]] && return 0

  # The value of the option before the cursor.
  local value=""
  [[ $prev == -* ]] && value=$(_ridgepoint_value "$command $prev")
  if [[ -n $value ]]; then
    if [[ $prev == --hardware ]]; then
      _ridgepoint_presets "$program" "$cur"
      _ridgepoint_files "$cur"
    elif [[ ${value,,} == *file* || ${value,,} == *dir* ]]; then
      _ridgepoint_files "$cur"
    elif [[ $value == *'|'* ]]; then
      _ridgepoint_words "${value//|/ }" "$cur"
    fi
    return 0
  fi

  if [[ $cur == -* ]]; then
    _ridgepoint_words "$(_ridgepoint_options "$command")" "$cur"
    return 0
  fi
  if ((COMP_CWORD == 1)); then
    _ridgepoint_words "$_ridgepoint_commands help" "$cur"
  fi
  _ridgepoint_files "$cur"
  return 0
}
complete -F _ridgepoint ridgepoint
