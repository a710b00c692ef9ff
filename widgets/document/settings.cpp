#include "widgets/document/settings.h"

namespace ridgepoint {

std::unique_ptr<QSettings> &Settings::instance()
{
    static std::unique_ptr<QSettings> settings;
    return settings;
}

QSettings &Settings::store()
{
    auto &settings = instance();
    if (!settings)
        settings = std::make_unique<QSettings>();
    return *settings;
}

void Settings::useFile(const QString &fileName)
{
    instance() = std::make_unique<QSettings>(fileName, QSettings::IniFormat);
}

void Settings::forgetFile(const QString &fileName)
{
    auto &settings = instance();
    if (settings && settings->format() == QSettings::IniFormat && settings->fileName() == fileName)
        settings.reset();
}

} // namespace ridgepoint
