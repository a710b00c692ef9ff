#include "widgets/document/sessionfile.h"

#include "core/io/file_io.h"
#include "core/session/session_read.h"
#include "widgets/export/figuresession.h"

#include <QFile>
#include <QObject>
#include <QSaveFile>

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
    // A picture exported with its session: the embedded document, read like a session file.
    QFile picture(fileName);
    if (picture.open(QIODevice::ReadOnly) && pictureKind(picture.peek(4096)) != PictureKind::None) {
        const auto json = sessionFromPicture(picture.readAll(), fileName);
        if (!json)
            return fileError(name, json.error());
        return readSessionJson(*json, name);
    }
    auto text = readTextFile(name);
    if (!text)
        return fileError(name, text.error());
    return readSessionJsonConsuming(std::move(*text), name);
}

QString writeFileAtomically(const QString &fileName, const QByteArray &bytes)
{
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("cannot write %1: %2").arg(fileName, file.errorString());
    if (file.write(bytes) != bytes.size()) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return QObject::tr("cannot write %1: %2").arg(fileName, reason);
    }
    if (!file.commit())
        return QObject::tr("cannot write %1: %2").arg(fileName, file.errorString());
    return QString();
}

QString writeSessionFile(const QString &fileName, const Session &session)
{
    return writeFileAtomically(fileName, QByteArray::fromStdString(writeSessionJson(session)));
}

} // namespace ridgepoint
