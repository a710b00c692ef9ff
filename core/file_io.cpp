#include "core/file_io.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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
    std::ostringstream content;
    content << in.rdbuf();
    if (in.bad())
        return ridgepoint::Unexpected(path + ": cannot read: " + std::strerror(errno));
    return content.str();
}

} // namespace ridgepoint
