// Reading a whole file into memory, with the three failures kept apart: not found,
// unreadable, too large.
#pragma once

#include "core/model/expected.h"
#include <cstdint>
#include <string>

namespace ridgepoint {

inline constexpr std::uintmax_t kMaxInputBytes = 1ULL << 30; // 1 GiB

// The message starts with the path: "x.csv: not found", "x.csv: cannot read: Permission denied".
ridgepoint::Expected<std::string, std::string> readTextFile(
    const std::string &path, std::uintmax_t maxBytes = kMaxInputBytes);

} // namespace ridgepoint
