#include "widgets/document/sessionfile.h"

#include "core/io/file_io.h"
#include "core/io/file_write.h"
#include "core/io/picture_session.h"
#include "core/session/session_read.h"

#include <new>
#include <string_view>
#include <utility>

namespace ridgepoint {

namespace {

// One error about the whole file. The core's and the picture reader's messages start with the
// file's name, which the diagnostic carries on its own.
SessionReadResult fileError(const std::string &file, std::string message)
{
    const std::string prefix = file + ": ";
    if (message.compare(0, prefix.size(), prefix) == 0)
        message.erase(0, prefix.size());
    SessionReadResult result;
    result.diagnostics.push_back({ Severity::Error, file, 0, 0, std::move(message) });
    return result;
}

} // namespace

SessionReadResult readSessionFile(const QString &fileName)
{
    const std::string name = fileName.toStdString();
    try {
        // One bounded read for every kind (regular files only, 1 GiB): pictures included.
        auto bytes = readTextFile(name);
        if (!bytes)
            return fileError(name, bytes.error());
        return readSessionBytes(std::move(*bytes), name);
    } catch (const std::bad_alloc &) {
        return fileError(name, "out of memory while reading");
    }
}

SessionReadResult readSessionBytes(std::string &&bytes, const std::string &fileName)
{
    try {
        // A picture exported with its session: the embedded document, read like a session.
        if (pictureKind(bytes) != PictureKind::None) {
            auto json = sessionFromPictureBytes(bytes, fileName);
            if (!json)
                return fileError(fileName, json.error());
            std::string().swap(bytes);
            return readSessionJsonConsuming(std::move(*json), fileName);
        }
        return readSessionJsonConsuming(std::move(bytes), fileName);
    } catch (const std::bad_alloc &) {
        return fileError(fileName, "out of memory while reading");
    }
}

QString writeOutput(const QString &fileName, const QByteArray &bytes)
{
    const auto written = writeOutputFile(fileName.toStdString(),
        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    return written ? QString() : QString::fromStdString(written.error());
}

QString writeSessionFile(const QString &fileName, const Session &session)
{
    return writeOutput(fileName, QByteArray::fromStdString(writeSessionJson(session)));
}

} // namespace ridgepoint
