#include "core/model/diagnostic.h"

#include <algorithm>

namespace ridgepoint {

std::string Diagnostic::toString() const
{
    std::string out = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        out += ":" + std::to_string(line);
        if (column > 0)
            out += ":" + std::to_string(column);
    }
    out += ": ";
    if (severity == Severity::Warning)
        out += "warning: ";
    out += message;
    return out;
}

bool hasErrors(const std::vector<Diagnostic> &diagnostics)
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
        [](const Diagnostic &d) { return d.severity == Severity::Error; });
}

TextPosition positionOfOffset(std::string_view text, std::size_t offset)
{
    TextPosition position;
    offset = std::min(offset, text.size());
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++position.line;
            position.column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0U) != 0x80U) {
            ++position.column; // count UTF-8 code points, not bytes
        }
    }
    return position;
}

} // namespace ridgepoint
