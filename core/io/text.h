// Text helpers every reader shares: blanks, ASCII case, the UTF-8 byte-order mark, lines and
// their columns. One definition each, so that every reader trims, lower-cases and counts columns
// alike (docs/FORMATS.md §7).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Room left after the end of a text that readTextFile and the inflater return (their strings'
// capacity): a parser that reads a block past the end (simdjson, for profiler traces, reads up to
// 64 bytes) can take the text where it lies instead of a padded copy of it.
inline constexpr std::size_t kTextPadding = 64;
// What trim() removes: spaces, tabs and line ends.
inline constexpr std::string_view kBlanks = " \t\r\n";

// The text without a leading UTF-8 byte-order mark.
std::string_view withoutBom(std::string_view text);

inline bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// The text without leading and trailing blanks (kBlanks). Inline: every cell of a big table
// goes through it.
inline std::string_view trim(std::string_view text)
{
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    return text;
}

// ASCII letters lower-cased; every other byte (UTF-8 included) kept, so byte offsets hold.
std::string asciiLower(std::string_view text);
char asciiLower(char c);
// ASCII letters upper-cased, the same way.
std::string asciiUpper(std::string_view text);

// One line of a text, without its line end (LF or CRLF).
struct TextLine {
    std::string_view text;
    int number = 0; // 1-based
};

// The lines of `text`, at most `maxLines` of them (0: all). A last line without a line end
// counts; an empty text has no lines.
std::vector<TextLine> linesOf(std::string_view text, std::size_t maxLines = 0);

// The first line of `text` (up to its LF, a CR before it kept).
std::string_view firstLine(std::string_view text);

// 1-based column (code points) of `part`, a view into `line`.
int columnIn(std::string_view line, std::string_view part);

// The column just after a line's last non-blank character: where a missing value would go.
int endColumn(std::string_view line);

// Words of a line split at spaces and tabs, each a view into the line.
std::vector<std::string_view> words(std::string_view line);

// The cells of one line split at `delimiter`, each trimmed (no quoting: for sniffing and for
// the one-line formats; tables go through tokenizeCsv).
std::vector<std::string_view> splitCells(std::string_view line, char delimiter = ',');

// The last part of a path ("a/b/sum" -> "sum"), for machines a file does not name.
std::string baseName(const std::string &path);

// "a, b, c": the items joined, each wrapped in `quote` (none by default).
std::string joinedList(const std::vector<std::string> &items, std::string_view quote = "");

// The one wording of every reader for a key it does not know (JSON keys, NERSC text keys):
// `unknown key "colour" ignored (expected one of name, flops, bytes)`.
std::string unknownKeyMessage(std::string_view key, const std::vector<std::string_view> &known);

} // namespace ridgepoint
