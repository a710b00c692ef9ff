// Helpers shared by the reader tests: diagnostics as text, files from the fixtures and tests/data.
#pragma once

#include "core/io/file_io.h"
#include "core/model/diagnostic.h"
#include "tests/support/testpaths.h"

#include <QStringList>
#include <QtGlobal>

#include <string>
#include <vector>

namespace ridgepoint::test {

inline QString joined(const std::vector<ridgepoint::Diagnostic> &diagnostics)
{
    QStringList lines;
    for (const auto &d : diagnostics)
        lines << QString::fromStdString(d.toString());
    return lines.join('\n');
}

inline std::string readFixture(const std::string &name)
{
    auto text = ridgepoint::readTextFile(fixturePath(QString::fromStdString(name)).toStdString());
    if (!text)
        qFatal("%s", text.error().c_str());
    return *text;
}

inline std::string readTestData(const std::string &path)
{
    auto text = ridgepoint::readTextFile(sourceFile("tests/data/" + path));
    if (!text)
        qFatal("%s", text.error().c_str());
    return *text;
}

} // namespace ridgepoint::test
