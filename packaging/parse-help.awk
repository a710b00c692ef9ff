# Reads the --help text of one ridgepoint command (QCommandLineParser's layout, or the top-level
# usage of app/cli/cli.cpp) and prints it as tab-separated records, one a line:
#   U <TAB> positional syntax            (after "[options]" on the Usage line)
#   D <TAB> description                  (the paragraph under the Usage line, joined)
#   O <TAB> names <TAB> value <TAB> text (names space-separated: "-o --output"; value "file")
#   A <TAB> name <TAB> text              (a positional argument)
#   C <TAB> name <TAB> text              (a subcommand, top-level usage only)
#   X <TAB> status <TAB> text            (an exit status, top-level usage only)
# Wrapped lines are joined with one space. Every record gets the command given as -v cmd=NAME
# in front.
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function flush() {
    if (kind == "O") {
        value = ""
        if (match(spec, /<[^>]*>/)) {
            value = substr(spec, RSTART + 1, RLENGTH - 2)
            spec = substr(spec, 1, RSTART - 1)
        }
        gsub(/,/, " ", spec)
        gsub(/ +/, " ", spec)
        printf "%s\tO\t%s\t%s\t%s\n", cmd, trim(spec), value, trim(text)
    } else if (kind != "") {
        printf "%s\t%s\t%s\t%s\n", cmd, kind, trim(spec), trim(text)
    }
    kind = ""; spec = ""; text = ""
}
function start(k, line) {
    flush()
    kind = k
    line = substr(line, 3)
    if (match(line, /  +/)) {
        spec = substr(line, 1, RSTART - 1)
        text = substr(line, RSTART + RLENGTH)
    } else {
        spec = line
        text = ""
    }
}
/^Usage: / {
    rest = $0
    if (match(rest, /\[options\]/)) {
        rest = substr(rest, RSTART + RLENGTH)
        printf "%s\tU\t%s\n", cmd, trim(rest)
    }
    section = "desc"; desc = ""
    next
}
/^Options:$/ { flush(); section = "O"; next }
/^Arguments:$/ { flush(); section = "A"; next }
/^Commands:$/ { flush(); section = "C"; next }
/^Exit status:$/ { flush(); section = "X"; next }
/^$/ {
    flush()
    if (section == "desc" && desc != "") { printf "%s\tD\t%s\n", cmd, desc; desc = "" }
    section = (section == "desc") ? "" : section
    next
}
section == "desc" { desc = (desc == "" ? "" : desc " ") trim($0); next }
section != "" && section != "desc" && /^  [^ ]/ { start(section, $0); next }
section != "" && kind != "" && /^   / { text = text " " trim($0); next }
{ flush(); section = "" }
END {
    flush()
    if (section == "desc" && desc != "") printf "%s\tD\t%s\n", cmd, desc
}
