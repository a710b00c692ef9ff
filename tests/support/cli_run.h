// Runs the ridgepoint program this tree built (testpaths.h) headless for the CLI tests.
#pragma once

#include "tests/support/testpaths.h"

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace ridgepoint::test {

struct Run {
    int status = -1;
    QByteArray out;
    QByteArray err;
};

// `workingDirectory`: where it runs (empty: this process's own).
inline Run runCli(const QStringList &arguments, const QString &workingDirectory = {})
{
    QProcess process;
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    process.setProcessEnvironment(environment);
    process.start(ridgepointProgram(), arguments);
    if (!process.waitForFinished(300000)) // ASan on a loaded 2-core machine: minutes
        qFatal("ridgepoint did not finish");
    return { process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError() };
}

} // namespace ridgepoint::test
