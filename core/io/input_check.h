// The checks every input file passes before a reader sees it: text, not binary; UTF-8 (UTF-16
// with a byte-order mark is converted); lines and line counts within limits.
#pragma once

#include "core/model/diagnostic.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ridgepoint {

struct InputLimits {
    std::size_t maxLineBytes = 1U << 20; // 1 MiB: no table has such a line (JSON is exempt)
    std::size_t maxLines = 20'000'000; // rows; about 1 GB of a typical points CSV
};

struct TextCheck {
    std::optional<Diagnostic> error; // why the file cannot be read as text
    std::optional<std::string> converted; // UTF-8 text when the input was UTF-16
};

// Looks at the whole input once. JSON (first non-blank byte '{' or '[') may have lines of any
// length; everything else is held to `limits`.
TextCheck checkTextInput(
    std::string_view text, const std::string &fileName, const InputLimits &limits = {});

} // namespace ridgepoint
