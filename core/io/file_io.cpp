#include "core/io/file_io.h"

#include "core/io/text.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ridgepoint {

namespace {

Unexpected<std::string> tooLarge(const std::string &path, std::uintmax_t size, std::uintmax_t limit)
{
    return Unexpected(path + ": too large (" + std::to_string(size) + " bytes; the limit is "
        + std::to_string(limit) + ")");
}

Unexpected<std::string> cannotRead(const std::string &path, int error)
{
    return Unexpected(path + ": cannot read: " + std::strerror(error));
}

// Why a file of `mode` (stat's st_mode) is not read: nothing for a regular file.
std::string typeProblem(const std::string &path, mode_t mode)
{
    if (S_ISREG(mode))
        return {};
    if (S_ISDIR(mode))
        return path + ": is a directory, not a file";
    if (S_ISFIFO(mode))
        return path + ": is a FIFO, not a regular file";
    if (S_ISCHR(mode))
        return path + ": is a character device, not a regular file";
    if (S_ISBLK(mode))
        return path + ": is a block device, not a regular file";
    if (S_ISSOCK(mode))
        return path + ": is a socket, not a regular file";
    return path + ": not a regular file";
}

// At most `limit` + 1 bytes of the open file: one byte past the limit tells the caller the
// file is larger, without reading a growing file to its end.
Expected<void, std::string> readAtMost(
    const RegularFile &file, std::string &content, std::uintmax_t limit)
{
    constexpr std::size_t kChunk = std::size_t { 1 } << 16;
    // Straight into a string of the reported size: reading through a string stream held the
    // text twice (the stream's buffer and its copy), 120 MB for a 60 MB file.
    // kTextPadding more: the profiler-trace reader parses the text in place with them.
    content.reserve(static_cast<std::size_t>(std::min(file.size(), limit) + 1) + kTextPadding);
    const std::uintmax_t wanted = limit + 1;
    while (content.size() < wanted) {
        // Within the reserved room while there is some: the read that finds the end of a file
        // of the reported size asks for one byte, not a chunk that would reallocate the string
        // to twice its size and copy the whole text (a transient 2x of a 200 MB session).
        const std::size_t room = content.capacity() - content.size();
        const auto step = static_cast<std::size_t>(std::min<std::uintmax_t>(
            room > 0 ? std::min(kChunk, room) : kChunk, wanted - content.size()));
        const std::size_t at = content.size();
        content.resize(at + step);
        const auto got = file.readAt(at, content.data() + at, step);
        if (!got)
            return Unexpected(got.error());
        content.resize(at + *got);
        if (*got < step)
            break;
    }
    return {};
}

Expected<std::string, std::string> readBounded(
    const std::string &path, std::uintmax_t limit, bool refuseLarger)
{
    auto file = RegularFile::open(path);
    if (!file)
        return Unexpected(std::move(file).error());
    if (file->size() > limit && refuseLarger)
        return tooLarge(path, file->size(), limit);
    try {
        std::string content;
        if (auto read = readAtMost(*file, content, limit); !read)
            return Unexpected(std::move(read).error());
        if (content.size() > limit) {
            // No size reported (a /proc file) or one that grew while read: all that is known
            // is that it holds more than the limit.
            if (refuseLarger)
                return Unexpected(path + ": too large (more than " + std::to_string(limit)
                    + " bytes, the limit)");
            content.resize(static_cast<std::size_t>(limit));
        }
        // A file that grew while read may have filled the room.
        if (content.capacity() - content.size() < kTextPadding)
            content.reserve(content.size() + kTextPadding);
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
    struct stat status {
    };
    if (::stat(path.c_str(), &status) != 0) // follows links, as the open does
        return path + ": not found";
    return typeProblem(path, status.st_mode);
}

Expected<RegularFile, std::string> RegularFile::open(const std::string &path)
{
    // By type first: a device is not even opened.
    if (std::string problem = regularFileProblem(path); !problem.empty())
        return Unexpected(std::move(problem));
    // Then without blocking (a FIFO swapped in since would block an open for reading until a
    // writer came) and checked on the descriptor, which no later swap can change.
    const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (descriptor < 0) {
        const int error = errno;
        if (error == ENOENT || error == ENOTDIR)
            return Unexpected(path + ": not found");
        return cannotRead(path, error);
    }
    struct stat status {
    };
    if (::fstat(descriptor, &status) != 0) {
        const int error = errno;
        ::close(descriptor);
        return cannotRead(path, error);
    }
    if (std::string problem = typeProblem(path, status.st_mode); !problem.empty()) {
        ::close(descriptor);
        return Unexpected(std::move(problem));
    }
    // A regular file: reads block again as they did (a network or FUSE file system may honour
    // the flag and give EAGAIN instead of waiting for the data).
    if (const int flags = ::fcntl(descriptor, F_GETFL);
        flags < 0 || ::fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const int error = errno;
        ::close(descriptor);
        return cannotRead(path, error);
    }
    return RegularFile(descriptor, path, static_cast<std::uintmax_t>(status.st_size));
}

RegularFile::RegularFile(int descriptor, std::string path, std::uintmax_t size)
    : m_descriptor(descriptor)
    , m_path(std::move(path))
    , m_size(size)
{ }

RegularFile::RegularFile(RegularFile &&other) noexcept
    : m_descriptor(std::exchange(other.m_descriptor, -1))
    , m_path(std::move(other.m_path))
    , m_size(other.m_size)
{ }

RegularFile &RegularFile::operator=(RegularFile &&other) noexcept
{
    if (this != &other) {
        if (m_descriptor >= 0)
            ::close(m_descriptor);
        m_descriptor = std::exchange(other.m_descriptor, -1);
        m_path = std::move(other.m_path);
        m_size = other.m_size;
    }
    return *this;
}

RegularFile::~RegularFile()
{
    if (m_descriptor >= 0)
        ::close(m_descriptor);
}

std::optional<std::uintmax_t> RegularFile::currentSize() const
{
    struct stat status {
    };
    if (::fstat(m_descriptor, &status) != 0)
        return std::nullopt;
    return static_cast<std::uintmax_t>(status.st_size);
}

Expected<std::size_t, std::string> RegularFile::readAt(
    std::uintmax_t offset, char *out, std::size_t length) const
{
    std::size_t done = 0;
    while (done < length) {
        const ssize_t got
            = ::pread(m_descriptor, out + done, length - done, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return cannotRead(m_path, errno);
        if (got == 0)
            break; // the end of the file
        done += static_cast<std::size_t>(got);
    }
    return done;
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
