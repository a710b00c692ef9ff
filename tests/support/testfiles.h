// Reading and writing the small files tests make and check.
#pragma once

#include "tests/support/testpaths.h"

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <QtGlobal>

namespace ridgepoint::test {

// The file's bytes; empty when it cannot be read (a missing export, say).
inline QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Replaces the file with `bytes`. A test that cannot write its own input stops there.
inline void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

// Writes `bytes` to `name` in `dir`; its path.
inline QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    writeAll(path, bytes);
    return path;
}

// The hand-written example trace (tests/data/traces/small/example.json) with its device named
// "NVIDIA Prototype X": a name no preset has, and 108 SMs, which two presets share, so no machine
// is found for it.
inline QByteArray traceOfAnUnknownDevice()
{
    return readAll(dataPath(QStringLiteral("traces/small/example.json")))
        .replace("NVIDIA A100-PG509-200", "NVIDIA Prototype X");
}

} // namespace ridgepoint::test
