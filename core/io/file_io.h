// The one way Ridgepoint reads a file it was given (points, machines, sessions, pictures, model
// configurations): regular files only, and never more than the limit read, whatever size the
// file reports. A path is refused by type before it is opened (opening some devices does
// something), then opened without blocking and checked again on the open descriptor, so a FIFO
// put in the file's place between the two checks is refused too instead of hanging the read.
// The failures are kept apart: not found, not a regular file, unreadable, too large, out of
// memory.
#pragma once

#include "core/model/expected.h"
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace ridgepoint {

inline constexpr std::uintmax_t kMaxInputBytes = 1ULL << 30; // 1 GiB

// Nothing when `path` names a regular file (or a link to one), else why not: "x: not found",
// "x: is a directory, not a file", "x: is a FIFO, not a regular file" (likewise a character
// device, a block device, a socket). Checked by type, without opening the file.
[[nodiscard]] std::string regularFileProblem(const std::string &path);

// A regular file open for reading (POSIX descriptor; closed with the object). Reads at an
// offset do not move a shared position, so several threads may read one file at once.
class RegularFile
{
public:
    // The file at `path`, or the message of readTextFile's failures ("x: not found", "x: is a
    // FIFO, not a regular file", "x: cannot read: Permission denied").
    static Expected<RegularFile, std::string> open(const std::string &path);

    RegularFile(RegularFile &&other) noexcept;
    RegularFile &operator=(RegularFile &&other) noexcept;
    RegularFile(const RegularFile &) = delete;
    RegularFile &operator=(const RegularFile &) = delete;
    ~RegularFile();

    const std::string &path() const { return m_path; }
    // The size the file reported when opened (0 for /proc files, which report none).
    std::uintmax_t size() const { return m_size; }
    // The size it reports now; nullopt when that cannot be asked.
    std::optional<std::uintmax_t> currentSize() const;
    // Up to `length` bytes from `offset` into `out`: how many were read (fewer only at the end
    // of the file), or "x: cannot read: <reason>".
    Expected<std::size_t, std::string> readAt(
        std::uintmax_t offset, char *out, std::size_t length) const;

private:
    RegularFile(int descriptor, std::string path, std::uintmax_t size);

    int m_descriptor = -1;
    std::string m_path;
    std::uintmax_t m_size = 0;
};

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
