// A message about an input, tied to where in the input it arose.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

enum class Severity { Error, Warning };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string file;
    int line = 0; // 1-based; 0 when the whole input is meant
    int column = 0; // 1-based; 0 when the whole line is meant
    std::string message;

    // "file:line:column: message", leaving out the parts that are not known.
    std::string toString() const;
};

bool hasErrors(const std::vector<Diagnostic> &diagnostics);

// 1-based line and column of a byte offset in a text.
struct TextPosition {
    int line = 1;
    int column = 1;
};
TextPosition positionOfOffset(std::string_view text, std::size_t offset);

} // namespace ridgepoint
