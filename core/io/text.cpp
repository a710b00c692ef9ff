#include "core/io/text.h"

#include <algorithm>

namespace ridgepoint {

std::string_view withoutBom(std::string_view text)
{
    if (text.starts_with(kUtf8Bom))
        text.remove_prefix(kUtf8Bom.size());
    return text;
}

char asciiLower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string asciiLower(std::string_view text)
{
    std::string out(text);
    for (char &c : out)
        c = asciiLower(c);
    return out;
}

std::string asciiUpper(std::string_view text)
{
    std::string out(text);
    for (char &c : out)
        c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
    return out;
}

std::vector<TextLine> linesOf(std::string_view text, std::size_t maxLines)
{
    std::vector<TextLine> out;
    std::size_t start = 0;
    int number = 0;
    while (start < text.size() && (maxLines == 0 || out.size() < maxLines)) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        out.push_back({ line, ++number });
        start = end + 1;
    }
    return out;
}

std::string_view firstLine(std::string_view text)
{
    return text.substr(0, std::min(text.find('\n'), text.size()));
}

int columnIn(std::string_view line, std::string_view part)
{
    const auto offset = static_cast<std::size_t>(part.data() - line.data());
    int column = 1;
    for (std::size_t i = 0; i < offset && i < line.size(); ++i)
        column += (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80 ? 0 : 1;
    return column;
}

int endColumn(std::string_view line)
{
    const auto last = line.find_last_not_of(kBlanks);
    return columnIn(line, line.substr(last == std::string_view::npos ? 0 : last + 1));
}

std::vector<std::string_view> words(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while (at < line.size()) {
        at = line.find_first_not_of(" \t", at);
        if (at == std::string_view::npos)
            break;
        const std::size_t end = std::min(line.find_first_of(" \t", at), line.size());
        out.push_back(line.substr(at, end - at));
        at = end;
    }
    return out;
}

std::vector<std::string_view> splitCells(std::string_view line, char delimiter)
{
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start <= line.size()) {
        const std::size_t end = std::min(line.find(delimiter, start), line.size());
        out.push_back(trim(line.substr(start, end - start)));
        start = end + 1;
    }
    return out;
}

std::string baseName(const std::string &path)
{
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string joinedList(const std::vector<std::string> &items, std::string_view quote)
{
    std::string out;
    for (const auto &item : items) {
        if (!out.empty())
            out += ", ";
        out.append(quote).append(item).append(quote);
    }
    return out;
}

std::string unknownKeyMessage(std::string_view key, const std::vector<std::string_view> &known)
{
    std::string list;
    for (const std::string_view k : known)
        list.append(list.empty() ? "" : ", ").append(k);
    return "unknown key \"" + std::string(key) + "\" ignored (expected one of " + list + ")";
}

} // namespace ridgepoint
