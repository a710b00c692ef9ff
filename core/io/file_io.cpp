#include "core/io/file_io.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>

namespace ridgepoint {

namespace {

namespace fs = std::filesystem;

Unexpected<std::string> tooLarge(const std::string &path, std::uintmax_t size, std::uintmax_t limit)
{
    return Unexpected(path + ": too large (" + std::to_string(size) + " bytes; the limit is "
        + std::to_string(limit) + ")");
}

// At most `limit` + 1 bytes of the open stream: one byte past the limit tells the caller the
// file is larger, without reading a device or a growing file to its end.
bool readAtMost(std::ifstream &in, std::string &content, std::uintmax_t limit, std::uintmax_t hint)
{
    constexpr std::size_t kChunk = std::size_t { 1 } << 16;
    // Straight into a string of the reported size: reading through a string stream held the
    // text twice (the stream's buffer and its copy), 120 MB for a 60 MB file.
    content.reserve(static_cast<std::size_t>(std::min(hint, limit) + 1));
    const std::uintmax_t wanted = limit + 1;
    while (content.size() < wanted) {
        const auto step
            = static_cast<std::size_t>(std::min<std::uintmax_t>(kChunk, wanted - content.size()));
        const std::size_t at = content.size();
        content.resize(at + step);
        in.read(content.data() + at, static_cast<std::streamsize>(step));
        const auto got = static_cast<std::size_t>(in.gcount());
        content.resize(at + got);
        if (got < step)
            break;
    }
    return !in.bad();
}

Expected<std::string, std::string> readBounded(
    const std::string &path, std::uintmax_t limit, bool refuseLarger)
{
    if (std::string problem = regularFileProblem(path); !problem.empty())
        return Unexpected(std::move(problem));
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (!ec && size > limit && refuseLarger)
        return tooLarge(path, size, limit);
    try {
        std::ifstream in(path, std::ios::binary);
        if (!in)
            return Unexpected(path + ": cannot read: " + std::strerror(errno));
        std::string content;
        if (!readAtMost(in, content, limit, ec ? 0 : size))
            return Unexpected(path + ": cannot read: " + std::strerror(errno));
        if (content.size() > limit) {
            // No size reported (a pipe-like file) or one that grew while read: all that is
            // known is that it holds more than the limit.
            if (refuseLarger)
                return Unexpected(path + ": too large (more than " + std::to_string(limit)
                    + " bytes, the limit)");
            content.resize(static_cast<std::size_t>(limit));
        }
        return content;
    } catch (const std::bad_alloc &) {
        return Unexpected(path + ": out of memory while reading (the limit is "
            + std::to_string(limit) + " bytes)");
    } catch (const std::length_error &) {
        return Unexpected(path + ": out of memory while reading (the limit is "
            + std::to_string(limit) + " bytes)");
    }
}

} // namespace

std::string regularFileProblem(const std::string &path)
{
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status))
        return path + ": not found";
    switch (status.type()) {
    case fs::file_type::regular:
        return {};
    case fs::file_type::directory:
        return path + ": is a directory, not a file";
    case fs::file_type::fifo:
        return path + ": is a FIFO, not a regular file";
    case fs::file_type::character:
        return path + ": is a character device, not a regular file";
    case fs::file_type::block:
        return path + ": is a block device, not a regular file";
    case fs::file_type::socket:
        return path + ": is a socket, not a regular file";
    default:
        return path + ": not a regular file";
    }
}

ridgepoint::Expected<std::string, std::string> readTextFile(
    const std::string &path, std::uintmax_t maxBytes)
{
    return readBounded(path, maxBytes, true);
}

ridgepoint::Expected<std::string, std::string> readFileHead(
    const std::string &path, std::size_t bytes)
{
    return readBounded(path, bytes, false);
}

} // namespace ridgepoint
