#include "widgets/sessionfile.h"

#include "core/file_io.h"

#include <QObject>
#include <QSaveFile>

namespace ridgepoint {

SessionReadResult readSessionFile(const QString &fileName)
{
    const std::string name = fileName.toStdString();
    auto text = readTextFile(name);
    if (!text) {
        SessionReadResult result;
        result.diagnostics.push_back({ Severity::Error, std::string(), 0, 0, text.error() });
        return result;
    }
    return readSessionJson(*text, name);
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
