#include "core/io/file_io.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace ridgepoint {

ridgepoint::Expected<std::string, std::string> readTextFile(
    const std::string &path, std::uintmax_t maxBytes)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status))
        return ridgepoint::Unexpected(path + ": not found");
    if (fs::is_directory(status))
        return ridgepoint::Unexpected(path + ": is a directory, not a file");
    const auto size = fs::file_size(path, ec);
    if (!ec && size > maxBytes)
        return ridgepoint::Unexpected(path + ": too large (" + std::to_string(size)
            + " bytes; the limit is " + std::to_string(maxBytes) + ")");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return ridgepoint::Unexpected(path + ": cannot read: " + std::strerror(errno));
    // Straight into a string of the file's size: reading through a string stream held the
    // text twice (the stream's buffer and its copy), 120 MB for a 60 MB file.
    std::string content(ec ? 0 : static_cast<std::size_t>(size), '\0');
    in.read(content.data(), static_cast<std::streamsize>(content.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == content.size()) {
        // Whatever the size did not cover: a file that grew meanwhile, or one with no size.
        std::array<char, 1 << 16> chunk {};
        while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
            content.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    } else {
        content.resize(got);
    }
    if (in.bad())
        return ridgepoint::Unexpected(path + ": cannot read: " + std::strerror(errno));
    return content;
}

} // namespace ridgepoint
