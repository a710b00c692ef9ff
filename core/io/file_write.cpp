#include "core/io/file_write.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <utility>

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ridgepoint {

namespace {

// Links followed before giving up, as the kernel does (MAXSYMLINKS).
constexpr int kMaxLinks = 40;
// Bytes of the target's name kept in the temporary file's name (which must stay under NAME_MAX).
constexpr std::size_t kMaxTempBase = 180;

enum class TargetKind { NewFile, RegularFile, WriteThrough, Refused };

// What a path names, for writing.
struct Target {
    TargetKind kind = TargetKind::Refused;
    std::string file; // New/RegularFile: the path with its links followed (the file replaced)
    bool fifo = false; // WriteThrough: a FIFO rather than a character device
    struct stat status {
    }; // RegularFile: the file's owner and mode, kept
    std::string problem; // Refused: why, starting with the path
};

Unexpected<std::string> cannotWrite(const std::string &path, int error)
{
    return Unexpected(path + ": cannot write: " + std::strerror(error));
}

std::string folderOf(const std::string &path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string baseOf(const std::string &path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// `path` with its symbolic links followed to the file they end at, which need not exist (a link
// to a file not written yet): the file a rename must replace so that the link stays a link.
Expected<std::string, std::string> followLinks(const std::string &path)
{
    std::string current = path;
    for (int step = 0; step <= kMaxLinks; ++step) {
        struct stat status {
        };
        if (::lstat(current.c_str(), &status) != 0 || !S_ISLNK(status.st_mode))
            return current;
        std::string target(
            static_cast<std::size_t>(status.st_size > 0 ? status.st_size : 0) + 256, '\0');
        const ssize_t length = ::readlink(current.c_str(), target.data(), target.size());
        if (length < 0)
            return cannotWrite(path, errno);
        target.resize(static_cast<std::size_t>(length));
        current = target.starts_with('/') ? target : folderOf(current) + "/" + target;
    }
    return cannotWrite(path, ELOOP);
}

Target refused(std::string problem)
{
    Target target;
    target.problem = std::move(problem);
    return target;
}

// A path that names nothing yet: a new file where its links end, in a folder that must exist.
Target newFileTarget(const std::string &path)
{
    auto file = followLinks(path);
    if (!file)
        return refused(std::move(file).error());
    const std::string folder = folderOf(*file);
    struct stat status {
    };
    if (::stat(folder.c_str(), &status) != 0 || !S_ISDIR(status.st_mode))
        return refused(path + ": the folder " + folder + " does not exist");
    Target target;
    target.kind = TargetKind::NewFile;
    target.file = std::move(*file);
    return target;
}

// What `path` names (following links, /proc's included), without opening it.
Target classify(const std::string &path)
{
    if (path.empty())
        return refused("an empty output file name (expected a file name)");
    struct stat status {
    };
    if (::stat(path.c_str(), &status) != 0) {
        const int error = errno;
        if (error == ENOENT)
            return newFileTarget(path);
        if (error == ENOTDIR)
            return refused(path + ": the folder " + folderOf(path) + " is not a folder");
        return refused(cannotWrite(path, error).error);
    }
    const std::string expected
        = " (expected a file, a character device such as /dev/null or a FIFO)";
    if (S_ISDIR(status.st_mode))
        return refused(path + ": is a directory (expected a file name)");
    if (S_ISBLK(status.st_mode))
        return refused(path + ": is a block device" + expected);
    if (S_ISSOCK(status.st_mode))
        return refused(path + ": is a socket" + expected);
    Target target;
    if (S_ISCHR(status.st_mode) || S_ISFIFO(status.st_mode)) {
        target.kind = TargetKind::WriteThrough;
        target.fifo = S_ISFIFO(status.st_mode);
        return target;
    }
    if (!S_ISREG(status.st_mode))
        return refused(path + ": is not a file" + expected);
    auto file = followLinks(path);
    if (!file)
        return refused(std::move(file).error());
    target.kind = TargetKind::RegularFile;
    target.file = std::move(*file);
    target.status = status;
    return target;
}

// A new, empty file beside `file` with the permission bits `mode` (less the umask), open for
// writing, and its name; or why it could not be made.
Expected<std::pair<int, std::string>, std::string> createTemporary(
    const std::string &shown, const std::string &file, mode_t mode)
{
    static std::atomic<unsigned> counter { 0 };
    const std::string stem = folderOf(file) + "/." + baseOf(file).substr(0, kMaxTempBase) + ".";
    const auto clock = static_cast<unsigned long long>(
        std::chrono::steady_clock::now().time_since_epoch().count());
    for (int attempt = 0; attempt < 100; ++attempt) {
        const unsigned long long salt = clock * 1000003ULL + counter.fetch_add(1) * 7919ULL
            + static_cast<unsigned long long>(::getpid());
        const std::string name = stem + std::to_string(salt % 1000000007ULL) + ".tmp";
        const int descriptor
            = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (descriptor >= 0)
            return std::pair { descriptor, name };
        if (errno != EEXIST)
            return cannotWrite(shown, errno);
    }
    return cannotWrite(shown, EEXIST);
}

// All of `bytes` to the descriptor, resuming after a signal or a short write; 0, else errno.
int writeAll(int descriptor, std::string_view bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t wrote = ::write(descriptor, bytes.data() + done, bytes.size() - done);
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote < 0)
            return errno;
        if (wrote == 0)
            return EIO;
        done += static_cast<std::size_t>(wrote);
    }
    return 0;
}

// SIGPIPE held back while it lives, so a FIFO whose reader leaves gives EPIPE (a message) instead
// of ending the program; a SIGPIPE raised meanwhile is taken back before the mask is restored.
class SigpipeHeld
{
public:
    SigpipeHeld()
    {
        sigemptyset(&m_pipe);
        sigaddset(&m_pipe, SIGPIPE);
        sigset_t pending;
        sigemptyset(&pending);
        m_wasPending = ::sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
        ::pthread_sigmask(SIG_BLOCK, &m_pipe, &m_previous);
    }
    SigpipeHeld(const SigpipeHeld &) = delete;
    SigpipeHeld &operator=(const SigpipeHeld &) = delete;
    ~SigpipeHeld()
    {
        if (!m_wasPending) {
            const timespec now { 0, 0 };
            while (::sigtimedwait(&m_pipe, nullptr, &now) == SIGPIPE) { }
        }
        ::pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
    }

private:
    sigset_t m_pipe;
    sigset_t m_previous;
    bool m_wasPending = false;
};

// A character device or FIFO: opened without blocking (a FIFO without a reader fails at once
// with ENXIO), checked again on the descriptor, then written with blocking writes.
Expected<void, std::string> writeThrough(
    const std::string &path, const Target &target, std::string_view bytes)
{
    const int descriptor = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (descriptor < 0) {
        if (errno == ENXIO && target.fifo)
            return Unexpected(path + ": no process is reading this FIFO (start the reader first)");
        return cannotWrite(path, errno);
    }
    struct stat status {
    };
    const int flags = ::fcntl(descriptor, F_GETFL);
    if (::fstat(descriptor, &status) != 0 || flags < 0
        || ::fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const int error = errno;
        ::close(descriptor);
        return cannotWrite(path, error);
    }
    if (!S_ISCHR(status.st_mode) && !S_ISFIFO(status.st_mode)) {
        ::close(descriptor);
        return Unexpected(path
            + ": changed while it was opened (expected the character device "
              "or FIFO it was)");
    }
    int error = 0;
    {
        const SigpipeHeld held;
        error = writeAll(descriptor, bytes);
    }
    if (::close(descriptor) != 0 && error == 0 && errno != EINTR)
        error = errno;
    if (error != 0)
        return cannotWrite(path, error);
    return {};
}

// The folder's entry (the rename) on the disk too; a folder that cannot be synced is no error.
void syncFolder(const std::string &folder)
{
    const int descriptor = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (descriptor < 0)
        return;
    if (::fsync(descriptor) != 0) { } // best effort: the file itself is synced
    ::close(descriptor);
}

// A new or regular file: a temporary file beside it, written, synced and renamed over it.
Expected<void, std::string> replaceFile(
    const std::string &path, const Target &target, std::string_view bytes)
{
    const bool exists = target.kind == TargetKind::RegularFile;
    if (exists && ::access(target.file.c_str(), W_OK) != 0)
        return cannotWrite(path, errno);
    const mode_t mode = exists ? (target.status.st_mode & 07777) : 0666;
    auto temporary = createTemporary(path, target.file, mode);
    if (!temporary)
        return Unexpected(std::move(temporary).error());
    const auto [descriptor, name] = *temporary;
    int error = writeAll(descriptor, bytes);
    if (error == 0 && exists) {
        // The owner first (a change of owner clears set-id bits), then the mode without the umask.
        if (::fchown(descriptor, target.status.st_uid, target.status.st_gid) != 0) { }
        if (::fchmod(descriptor, mode) != 0)
            error = errno;
    }
    if (error == 0 && ::fsync(descriptor) != 0)
        error = errno;
    if (::close(descriptor) != 0 && error == 0 && errno != EINTR)
        error = errno;
    if (error == 0 && ::rename(name.c_str(), target.file.c_str()) != 0)
        error = errno;
    if (error != 0) {
        ::unlink(name.c_str());
        return cannotWrite(path, error);
    }
    syncFolder(folderOf(target.file));
    return {};
}

} // namespace

std::string outputTargetProblem(const std::string &path)
{
    const Target target = classify(path);
    switch (target.kind) {
    case TargetKind::Refused:
        return target.problem;
    case TargetKind::WriteThrough:
        return ::access(path.c_str(), W_OK) == 0 ? std::string() : cannotWrite(path, errno).error;
    case TargetKind::RegularFile:
        if (::access(target.file.c_str(), W_OK) != 0)
            return cannotWrite(path, errno).error;
        break;
    case TargetKind::NewFile:
        break;
    }
    // The folder takes a file: the temporary file the write will make, made and removed.
    auto temporary = createTemporary(path, target.file, 0600);
    if (!temporary)
        return std::move(temporary).error();
    ::close(temporary->first);
    ::unlink(temporary->second.c_str());
    return {};
}

Expected<void, std::string> writeOutputFile(const std::string &path, std::string_view bytes)
{
    const Target target = classify(path);
    switch (target.kind) {
    case TargetKind::Refused:
        return Unexpected(target.problem);
    case TargetKind::WriteThrough:
        return writeThrough(path, target, bytes);
    case TargetKind::NewFile:
    case TargetKind::RegularFile:
        break;
    }
    return replaceFile(path, target, bytes);
}

} // namespace ridgepoint
