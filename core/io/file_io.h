// The one way Ridgepoint reads a file it was given (points, machines, sessions, pictures, model
// configurations): regular files only, refused by type before they are opened (opening a FIFO
// for reading blocks), and never more than the limit read, whatever size the file reports.
// The failures are kept apart: not found, not a regular file, unreadable, too large, out of
// memory.
#pragma once

#include "core/model/expected.h"
#include <cstddef>
#include <cstdint>
#include <string>

namespace ridgepoint {

inline constexpr std::uintmax_t kMaxInputBytes = 1ULL << 30; // 1 GiB

// Nothing when `path` names a regular file (or a link to one), else why not: "x: not found",
// "x: is a directory, not a file", "x: is a FIFO, not a regular file" (likewise a character
// device, a block device, a socket). Checked by type, without opening the file.
std::string regularFileProblem(const std::string &path);

// The whole file. The message starts with the path: "x.csv: not found", "x.csv: cannot read:
// Permission denied", "x.csv: too large (N bytes; the limit is 1073741824)" (read stops at
// maxBytes + 1 when the file reports no size or grows), "x.csv: out of memory while reading".
ridgepoint::Expected<std::string, std::string> readTextFile(
    const std::string &path, std::uintmax_t maxBytes = kMaxInputBytes);

// At most the first `bytes` bytes (the whole file when it is shorter), with the same checks:
// for telling what a file holds before reading all of it.
ridgepoint::Expected<std::string, std::string> readFileHead(
    const std::string &path, std::size_t bytes);

} // namespace ridgepoint
