#include "widgets/document/pointsloader.h"

#include "core/io/file_io.h"
#include "widgets/dialogs/messagebox.h"
#include "widgets/document/settings.h"

#include <QEventLoop>
#include <QFileInfo>
#include <QProgressDialog>
#include <QThread>

#include <memory>
#include <new>

namespace ridgepoint {
namespace {

PointsLoad readNow(const std::string &fileName, const ReadOptions &options)
{
    PointsLoad load;
    try {
        auto text = readTextFile(fileName);
        if (!text) {
            load.error = QString::fromStdString(text.error());
            return load;
        }
        load.result = readPointsFile(*text, fileName, options);
        load.status = PointsLoad::Status::Read;
    } catch (const std::bad_alloc &) {
        // On the worker thread: an escaping exception would end the process.
        load = PointsLoad();
        load.error = QString::fromStdString(fileName + ": out of memory while reading");
    }
    return load;
}

// The setting when it is a whole number in [1, max], else the default.
int inRange(const Setting<int> &setting, int max)
{
    const int value = Settings::get(setting);
    return value >= 1 && value <= max ? value : setting.defaultValue;
}

} // namespace

ReadOptions importReadOptions()
{
    ReadOptions options;
    const bool perKernel = Settings::get(settings::importPerKernel);
    options.ncu.sumLaunchesOfAKernel = perKernel;
    options.rocprof.sumDispatchesOfAKernel = perKernel;
    options.ncu.tensorFlopsPerInstruction
        = inRange(settings::importTensorFlopsPerInstruction, kMaxTensorFlopsPerInstruction);
    const int halfFlops = Settings::get(settings::importHalfFlopsPerFma);
    options.ncu.halfFlopsPerFma = halfFlops == 2 || halfFlops == 4
        ? halfFlops
        : settings::importHalfFlopsPerFma.defaultValue;
    const QString separator = Settings::get(settings::importDecimalSeparator);
    if (separator == QLatin1String("comma"))
        options.ncu.decimalComma = true;
    else if (separator == QLatin1String("point"))
        options.ncu.decimalComma = false;
    options.rocprof.ldsBanksPerCu = inRange(settings::importLdsBanksPerCu, kMaxLdsBanksPerCu);
    return options;
}

void setImportReadOptions(const ReadOptions &options)
{
    // One switch for both profilers, as on the command line (--per-kernel).
    Settings::set(settings::importPerKernel,
        options.ncu.sumLaunchesOfAKernel || options.rocprof.sumDispatchesOfAKernel);
    Settings::set(settings::importTensorFlopsPerInstruction,
        static_cast<int>(options.ncu.tensorFlopsPerInstruction));
    Settings::set(settings::importHalfFlopsPerFma, static_cast<int>(options.ncu.halfFlopsPerFma));
    Settings::set(settings::importDecimalSeparator,
        !options.ncu.decimalComma       ? QStringLiteral("auto")
            : *options.ncu.decimalComma ? QStringLiteral("comma")
                                        : QStringLiteral("point"));
    Settings::set(settings::importLdsBanksPerCu, static_cast<int>(options.rocprof.ldsBanksPerCu));
}

PointsLoad loadPointsFile(QWidget *parent, const QString &fileName)
{
    return loadPointsFile(parent, fileName, importReadOptions());
}

PointsLoad loadPointsFile(QWidget *parent, const QString &fileName, const ReadOptions &options)
{
    const std::string name = fileName.toStdString();
    const QFileInfo info(fileName);
    if (!info.exists() || info.size() <= Settings::get(settings::backgroundReadBytes))
        return readNow(name, options);

    // The worker owns nothing of the GUI: it fills `shared`, which outlives a cancelled dialog.
    auto shared = std::make_shared<PointsLoad>();
    QThread *thread
        = QThread::create([shared, name, options] { *shared = readNow(name, options); });
    QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);

    QProgressDialog progress(QObject::tr("Reading %1 (%2 MB)…")
                                 .arg(info.fileName())
                                 .arg(double(info.size()) / 1e6, 0, 'f', 1),
        QObject::tr("Cancel"), 0, 0, parent);
    progress.setObjectName("pointsProgress");
    progress.setWindowTitle(QObject::tr("Opening points"));
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);

    QEventLoop loop;
    bool cancelled = false;
    QObject::connect(thread, &QThread::finished, &loop, &QEventLoop::quit);
    QObject::connect(&progress, &QProgressDialog::canceled, &loop, [&] {
        cancelled = true;
        loop.quit();
    });
    thread->start();
    progress.show();
    loop.exec();
    progress.hide();
    if (cancelled) {
        // The read runs to its end on its own; its result is dropped with `shared`.
        PointsLoad load;
        load.status = PointsLoad::Status::Cancelled;
        load.onWorkerThread = true;
        return load;
    }
    shared->onWorkerThread = true;
    return std::move(*shared);
}

bool confirmPointsRead(QWidget *parent, const QString &fileName, const PointsReadResult &result,
    const QString &refusedTitle, const QString &refusedText, const QString &question)
{
    QStringList lines;
    for (const auto &d : result.diagnostics)
        lines << QString::fromStdString(d.toString());
    if (result.points.empty()) {
        // The reasons themselves, not only "see the details": usually there are one or two.
        constexpr qsizetype kInText = 3;
        QStringList shown = lines.mid(0, kInText);
        if (lines.size() > kInText)
            shown << QObject::tr(
                "… and %n more (see the details)", nullptr, int(lines.size() - kInText));
        MessageBox::warn(parent, refusedTitle,
            shown.isEmpty() ? refusedText : refusedText + "\n\n" + shown.join('\n'),
            lines.size() > kInText ? lines.join('\n') : QString());
        return false;
    }
    if (!hasErrors(result.diagnostics))
        return true;
    const auto answer = MessageBox::ask(parent,
        { QMessageBox::Warning, QObject::tr("Problems in %1").arg(QFileInfo(fileName).fileName()),
            QObject::tr("%1 of %2 rows of %3 were skipped (the reasons are in the details). ")
                    .arg(result.rowsSkipped)
                    .arg(result.rowsRead)
                    .arg(fileName)
                + question.arg(result.points.size()),
            lines.join('\n'), QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel });
    return answer == QMessageBox::Yes;
}

} // namespace ridgepoint
