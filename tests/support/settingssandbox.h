// A temporary folder whose settings.ini is the application's settings while the folder lives.
#pragma once

#include "widgets/document/settings.h"

#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace ridgepoint::test {

// The settings are written and let go before the folder is removed. A QSettings that outlived its
// folder wrote its pending changes when it was replaced and so made the folder again: each run of
// the suite left about 250 of them in the temporary folder.
class SettingsSandbox : public QTemporaryDir
{
public:
    SettingsSandbox()
    {
        // Whatever is written once the sandbox is gone goes to Qt's test folders
        // (~/.qttest), never to the user's own settings.
        QStandardPaths::setTestModeEnabled(true);
        if (isValid())
            Settings::useFile(filePath(QStringLiteral("settings.ini")));
    }
    ~SettingsSandbox() { Settings::forgetFile(filePath(QStringLiteral("settings.ini"))); }
    SettingsSandbox(const SettingsSandbox &) = delete;
    SettingsSandbox &operator=(const SettingsSandbox &) = delete;
};

} // namespace ridgepoint::test
