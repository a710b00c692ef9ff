// Every persisted setting in one place: its key, type and default (the Tiled Preference<T> /
// KeePassXC Config shape). QSettings stores them; tests point the store at a temporary file.
#pragma once

#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QStringList>

#include <memory>

namespace ridgepoint {

template<typename T> struct Setting {
    const char *key;
    T defaultValue;
};

namespace settings {
inline const Setting<QByteArray> windowGeometry { "window/geometry", {} };
inline const Setting<QByteArray> windowState { "window/state", {} };
inline const Setting<QString> theme { "view/theme", QStringLiteral("light") }; // light|dark|print
inline const Setting<bool> regionShading { "view/regionShading", false };
inline const Setting<bool> allPointLabels { "view/allPointLabels", false };
// View ▸ Points: auto, density or dots; and how many points make Auto draw a density.
inline const Setting<QString> pointsMode { "view/pointsMode", QStringLiteral("auto") };
inline const Setting<int> densityThreshold { "view/densityThreshold", 5000 };
// View ▸ Dot size by time share (on: a dot's area follows its time share when times are known).
inline const Setting<bool> dotSizeByTime { "view/dotSizeByTime", true };
// Presentation font scale of the chart, in percent (100, 125, 150 or 200).
inline const Setting<int> fontScalePercent { "view/fontScalePercent", 100 };
// View ▸ Legend: auto, top-left, top-right, bottom-left, bottom-right, below or hidden (the
// window and its exports).
inline const Setting<QString> legendPlacement { "view/legendPlacement", QStringLiteral("auto") };
// The name of the last preset chosen; the window reopens on it unless --hardware is given.
inline const Setting<QString> lastPreset { "session/lastPreset", QString() };
inline const Setting<QString> exportFormat { "export/format", QStringLiteral("png") };
inline const Setting<int> exportWidth { "export/width", 1600 };
inline const Setting<int> exportHeight { "export/height", 1000 };
// PNG resolution; the picture is drawn at dpi / 96 device pixels per logical pixel.
inline const Setting<int> exportDpi { "export/dpi", 96 };
// The unit the size is shown in: px, in or cm (the size itself is stored in logical pixels).
inline const Setting<QString> exportSizeUnit { "export/sizeUnit", QStringLiteral("px") };
inline const Setting<QString> exportTitle { "export/title", QString() };
// The points table below the chart.
inline const Setting<bool> exportTable { "export/table", false };
inline const Setting<bool> exportEmbedSession { "export/embedSession", true };
inline const Setting<QString> exportDirectory { "export/directory", QString() };
inline const Setting<QStringList> recentSessions { "session/recent", {} }; // newest first
inline const Setting<QString> sessionDirectory { "session/directory", QString() };
// Unsaved work is written to the app-data location this often (tests shorten it).
inline const Setting<int> autosaveIntervalMs { "session/autosaveIntervalMs", 60 * 1000 };
// Where File ▸ Import… and Hardware ▸ Import machine file… start.
inline const Setting<QString> importDirectory { "import/directory", QString() };
// File ▸ Import options…: what the profilers' files do not say themselves (core/io/readers.h
// ReadOptions), used by every import, drop and baseline. The defaults are the readers' own.
// One point per kernel name instead of one per ncu launch or rocprof-compute dispatch.
inline const Setting<bool> importPerKernel { "import/perKernel", false };
// FLOP per sm__inst_executed_pipe_tensor instruction (NcuOptions: 512, V100).
inline const Setting<int> importTensorFlopsPerInstruction { "import/ncuTensorFlopsPerInstruction",
    512 };
// FLOP per half-precision FMA thread instruction: 2 (NERSC) or 4 (ncu's roofline).
inline const Setting<int> importHalfFlopsPerFma { "import/ncuHalfFlopsPerFma", 2 };
// ncu's numbers: "auto" (told from each file), "comma" (decimal comma) or "point".
inline const Setting<QString> importDecimalSeparator { "import/ncuDecimalSeparator",
    QStringLiteral("auto") };
// LDS banks per compute unit in rocprof-compute's LDS bytes (RocprofOptions: 32).
inline const Setting<int> importLdsBanksPerCu { "import/rocprofLdsBanksPerCu", 32 };
// Point files larger than this are read on a worker thread with a progress dialog.
inline const Setting<qint64> backgroundReadBytes { "import/backgroundReadBytes",
    qint64 { 2 } * 1024 * 1024 };
// Hardware ▸ Measure this machine: the budget chosen last ("quick" or "thorough") and the
// threads of the all-thread runs (0: every CPU the process may use).
inline const Setting<QString> measureBudget { "measure/budget", QStringLiteral("thorough") };
inline const Setting<int> measureThreads { "measure/threads", 0 };
// What the two budgets spend, in seconds, and the largest working set of the sweep in bytes
// (0: from the reported caches). Tests shrink them to finish in a second.
inline const Setting<double> measureQuickSeconds { "measure/quickSeconds", 10.0 };
inline const Setting<double> measureThoroughSeconds { "measure/thoroughSeconds", 60.0 };
inline const Setting<qint64> measureMaxWorkingSet { "measure/maxWorkingSetBytes", 0 };
} // namespace settings

class Settings
{
public:
    // The application's QSettings (organisation and application name), or the INI file given
    // to useFile() — tests call it with a temporary file so they never see the user's settings.
    static QSettings &store();
    static void useFile(const QString &fileName);
    // Writes and lets go of the INI file `fileName` if it is the store, before the caller removes
    // it; the next store() is the application's again. Any other store is left as it is.
    static void forgetFile(const QString &fileName);

    template<typename T> static T get(const Setting<T> &setting)
    {
        const QVariant value = store().value(setting.key);
        if (!value.isValid() || !value.canConvert<T>())
            return setting.defaultValue;
        return value.value<T>();
    }

    template<typename T> static void set(const Setting<T> &setting, const T &value)
    {
        store().setValue(setting.key, QVariant::fromValue(value));
    }

private:
    static std::unique_ptr<QSettings> &instance();
};

} // namespace ridgepoint
