// Where a test finds the checkout's files and the ridgepoint program: found at run time from the
// test program's own folder, along the relative ways CMake gives each test
// (RIDGEPOINT_TEST_SOURCE_FROM_HERE, and RIDGEPOINT_TEST_PROGRAM_FROM_HERE for the CLI tests).
// No compile carries the name of the folder it was made in, so a clone in a new folder makes the
// same compiles as the last one and takes them from the compiler cache (docs/ARCHITECTURE.md,
// "Building").
#pragma once

#include <QDir>
#include <QFileInfo>
#include <QString>

#include <string>

namespace ridgepoint::test {

// The folder of this test program. From /proc/self/exe rather than QCoreApplication: some tests
// keep paths in globals made before main().
inline QString programFolder()
{
    static const QString folder
        = QFileInfo(QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath()).absolutePath();
    return folder;
}

// `relative` in the source tree (the tree itself when empty).
inline QString sourcePath(const QString &relative = {})
{
    static const QString root = QDir::cleanPath(
        QDir(programFolder()).filePath(QStringLiteral(RIDGEPOINT_TEST_SOURCE_FROM_HERE)));
    return relative.isEmpty() ? root : root + QLatin1Char('/') + relative;
}

// `relative` among the tests' inputs (tests/data).
inline QString dataPath(const QString &relative)
{
    return sourcePath(QStringLiteral("tests/data/") + relative);
}

inline std::string sourceFile(const std::string &relative)
{
    return sourcePath(QString::fromStdString(relative)).toStdString();
}

// `name` among the profilers' real files (tests/data/real, with their licences); the folder
// itself when empty.
inline QString fixturePath(const QString &name)
{
    const QString folder = QStringLiteral("tests/data/real");
    return sourcePath(name.isEmpty() ? folder : folder + QLatin1Char('/') + name);
}

#ifdef RIDGEPOINT_TEST_PROGRAM_FROM_HERE
// The ridgepoint program this tree built.
inline QString ridgepointProgram()
{
    static const QString program = QDir::cleanPath(
        QDir(programFolder()).filePath(QStringLiteral(RIDGEPOINT_TEST_PROGRAM_FROM_HERE)));
    return program;
}
#endif

} // namespace ridgepoint::test
