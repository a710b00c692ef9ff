#include "app/gui/importcontroller.h"

#include "app/gui/mainwindow.h"
#include "app/gui/sessioncontroller.h"

#include "core/io/file_io.h"
#include "core/io/readers.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/dialogs/importoptionsdialog.h"
#include "widgets/dialogs/messagebox.h"
#include "widgets/document/document.h"
#include "widgets/document/pointsloader.h"
#include "widgets/document/settings.h"
#include "widgets/export/figuresession.h"
#include "widgets/panels/hardwarepanel.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMimeData>
#include <QSet>
#include <QStatusBar>
#include <QStringDecoder>
#include <QUrl>

#include <algorithm>

namespace ridgepoint {
namespace {

// Enough for every signature detectFileFormat looks for (it reads at most 64 KiB).
constexpr qint64 kHeadBytes = qint64 { 64 } * 1024;

// Reasons shown in a message's text; the rest are under "Show Details…".
constexpr std::size_t kReasonsInText = 3;

// The first diagnostics in the text, all of them in the details.
std::pair<QString, QString> reasons(const std::vector<Diagnostic> &diagnostics)
{
    QStringList all;
    for (const Diagnostic &d : diagnostics)
        all << QString::fromStdString(d.toString());
    const qsizetype inText = std::min(all.size(), qsizetype(kReasonsInText));
    QStringList shown = all.mid(0, inText);
    QString details;
    if (all.size() > inText) {
        shown << QObject::tr("… and %n more (see the details)", nullptr, int(all.size() - inText));
        details = all.join('\n');
    }
    return { shown.join('\n'), details };
}

bool looksLikeJson(const QByteArray &text)
{
    for (const char c : text) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        return c == '{' || c == '[';
    }
    return false;
}

} // namespace

ImportController::ImportController(MainWindow *window, Document *document,
    HardwarePanel *hardwarePanel, SessionController *sessions)
    : QObject(window)
    , m_window(window)
    , m_document(document)
    , m_hardwarePanel(hardwarePanel)
    , m_sessions(sessions)
{
    // A session's points were not read from a file: there is nothing to re-read.
    connect(
        m_sessions, &SessionController::sessionLoaded, this, [this] { m_lastPointsFiles.clear(); });
}

// The formats' lists and patterns come from the format registry (core/io/format_registry.h).
QString ImportController::importFilter()
{
    QStringList everything;
    for (const std::string &pattern : fileDialogPatterns(std::nullopt))
        everything << QString::fromStdString(pattern);
    everything << "*.png"
               << "*.svg"
               << "*.pdf";
    return tr("Everything Ridgepoint reads (%1)").arg(everything.join(' ')) + ";;"
        + QString::fromStdString(fileDialogFilter(tr("Points").toStdString(), ReadFor::Points))
        + ";;"
        + QString::fromStdString(fileDialogFilter(tr("Machines").toStdString(), ReadFor::Machines))
        + ";;" + tr("Sessions and exported figures (*.ridgepoint.json *.json *.png *.svg *.pdf)")
        + ";;" + tr("All files (*)");
}

QString ImportController::machineFilter()
{
    return QString::fromStdString(
               fileDialogFilter(tr("Machine files").toStdString(), ReadFor::Machines))
        + ";;" + tr("All files (*)");
}

void ImportController::addImportAction(QMenu *file)
{
    QAction *action = file->addAction(tr("&Import…"), QKeySequence(tr("Ctrl+I")), this, [this] {
        const QStringList names = QFileDialog::getOpenFileNames(
            m_window, tr("Import"), Settings::get(settings::importDirectory), importFilter());
        if (names.isEmpty())
            return;
        Settings::set(settings::importDirectory, QFileInfo(names.front()).absolutePath());
        importFiles(names);
    });
    action->setObjectName("import");
    action->setStatusTip(tr("Open points, a machine or a session from any format Ridgepoint "
                            "reads (you can also drop files on the window)"));
    QAction *options
        = file->addAction(tr("Import o&ptions…"), this, &ImportController::editImportOptions);
    options->setObjectName("importOptions");
    options->setStatusTip(tr("How Nsight Compute and rocprof-compute files are read: one point "
                             "per kernel or per launch, FLOP per tensor instruction and per half "
                             "FMA, decimal comma, LDS banks"));
}

void ImportController::editImportOptions()
{
    ImportOptionsDialog dialog(m_window, m_lastPointsFiles);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (!dialog.rereadRequested()) {
        m_window->statusBar()->showMessage(
            tr("Import options saved; they apply from the next import"), 10000);
        return;
    }
    // Through the same path as an import: skipped rows are shown, unsaved work is asked about,
    // and a file that cannot be read any more changes nothing.
    const QStringList files = m_lastPointsFiles; // a copy: reading may change the member
    const QStringList read = m_window->openPointsFiles(files);
    if (!read.isEmpty())
        m_lastPointsFiles = read;
}

void ImportController::addHardwareActions(QMenu *hardwareMenu)
{
    QAction *action = hardwareMenu->addAction(tr("&Import machine file…"), this, [this] {
        const QString name = QFileDialog::getOpenFileName(m_window, tr("Import machine file"),
            Settings::get(settings::importDirectory), machineFilter());
        if (name.isEmpty())
            return;
        Settings::set(settings::importDirectory, QFileInfo(name).absolutePath());
        importMachineFile(name);
    });
    action->setObjectName("importMachine");
    action->setStatusTip(tr("Add the machine of a hardware JSON, ERT, rocprof-compute, Advisor "
                            "or Nsight Compute ceilings file"));
}

ImportController::Classification ImportController::classify(const QString &fileName)
{
    const QFileInfo info(fileName);
    if (info.isDir())
        return { Kind::Unusable,
            tr("%1: is a folder, not a file (import the files in it instead)").arg(fileName) };
    // The bounded reader: a FIFO or a device is refused by type before it is opened.
    const auto bytes = readFileHead(fileName.toStdString(), static_cast<std::size_t>(kHeadBytes));
    if (!bytes)
        return { Kind::Unusable, QString::fromStdString(bytes.error()) };
    QByteArray head = QByteArray::fromStdString(*bytes);

    if (pictureKind(head) != PictureKind::None)
        return { Kind::Session, {} };
    // The readers convert UTF-16 text; do the same to recognise it.
    if (head.startsWith("\xff\xfe") || head.startsWith("\xfe\xff")) {
        head.chop(head.size() % 2);
        QStringDecoder decode(
            head.startsWith("\xff\xfe") ? QStringConverter::Utf16LE : QStringConverter::Utf16BE);
        head = QString(decode(head)).toUtf8();
    }
    if (head.startsWith("\xef\xbb\xbf"))
        head.remove(0, 3);
    if (looksLikeJson(head) && head.contains("\"ridgepoint-session\""))
        return { Kind::Session, {} };
    const std::string_view text(head.constData(), head.size());
    const auto format = detectFileFormat(text);
    if (!format)
        return { Kind::Points, {} };
    // What the format gives (core/io/format_registry.cpp); a NERSC text says by its lines.
    switch (givesOf(*format, text)) {
    case Gives::Machine:
        return { Kind::Machine, {} };
    case Gives::Both:
        return { Kind::PointsAndMachine, {} };
    case Gives::Points:
        break;
    }
    return { Kind::Points, {} };
}

int ImportController::importFiles(const QStringList &fileNames)
{
    QSet<QString> used;
    // Points files are gathered and read together: one set of kernels, one question about
    // unsaved work. They go in before the machines that came with them, since replacing the
    // kernels starts a new history and selecting a machine is an edit of it (the other way
    // round, the machine just chosen would count as unsaved work). A session replaces
    // everything, so what came before it goes in first.
    QStringList points;
    QStringList machines;
    const auto flush = [&] {
        if (!points.isEmpty()) {
            // Files that were refused said so themselves.
            const QStringList read = m_window->openPointsFiles(points);
            for (const QString &fileName : read)
                used.insert(fileName);
            if (!read.isEmpty())
                m_lastPointsFiles = read;
        }
        for (const QString &fileName : std::as_const(machines)) {
            if (importMachineFile(fileName, used.contains(fileName)))
                used.insert(fileName);
        }
        points.clear();
        machines.clear();
    };
    for (const QString &fileName : fileNames) {
        const Classification what = classify(fileName);
        switch (what.kind) {
        case Kind::Unusable:
            MessageBox::warn(m_window, tr("Cannot import %1").arg(QFileInfo(fileName).fileName()),
                tr("%1\n\nNothing was changed.").arg(what.reason));
            break;
        case Kind::Session:
            flush();
            if (m_sessions->open(fileName))
                used.insert(fileName);
            break;
        case Kind::Machine:
            machines << fileName;
            break;
        case Kind::PointsAndMachine:
            points << fileName;
            machines << fileName;
            break;
        case Kind::Points:
            points << fileName;
            break;
        }
    }
    flush();
    if (fileNames.size() > 1)
        m_window->statusBar()->showMessage(
            tr("%1 of %n files imported", nullptr, int(fileNames.size())).arg(used.size()), 10000);
    return int(used.size());
}

bool ImportController::importMachineFile(const QString &fileName, bool kernelsOpened)
{
    const QString title = tr("Cannot import %1").arg(QFileInfo(fileName).fileName());
    const auto text = readTextFile(fileName.toStdString());
    if (!text) {
        MessageBox::warn(m_window, title,
            tr("%1\n\nNothing was changed.").arg(QString::fromStdString(text.error())));
        return false;
    }
    const ReadOptions options = importReadOptions();
    const HardwareFileResult result = readHardwareFile(*text, fileName.toStdString(), options);
    const std::vector<Hardware> &machines = result.hardware.machines;
    const auto [shown, details] = reasons(result.hardware.diagnostics);
    if (machines.empty()) {
        // A generic points CSV has no signature, so the readers only say what it is not.
        if (!result.format) {
            const PointsFileResult points = readPointsFile(*text, fileName.toStdString(), options);
            if (!points.points.points.empty()) {
                MessageBox::warn(m_window, title,
                    tr("%1 holds kernels (%n points), not ceilings; nothing was changed. File ▸ "
                       "Import… opens it as kernels.",
                        nullptr, int(points.points.points.size()))
                        .arg(fileName));
                return false;
            }
        }
        if (kernelsOpened && !result.hardware.diagnostics.empty()) {
            // A trace from a device no preset names (or none at all): its kernels are read and
            // shown on the machine on screen, which may well be the one it ran on.
            m_window->statusBar()->showMessage(
                tr("%1: %2; its kernels are on %3, the machine on screen (choose another in "
                   "the Hardware panel)")
                    .arg(QFileInfo(fileName).fileName(),
                        QString::fromStdString(result.hardware.diagnostics.front().message),
                        QString::fromStdString(m_document->hardware().name)),
                20000);
            return false;
        }
        MessageBox::warn(m_window, title,
            tr("%1 gives no machine; nothing was changed.\n\n%2").arg(fileName, shown), details);
        return false;
    }
    for (const Hardware &machine : machines)
        m_hardwarePanel->addMachine(machine);
    m_document->selectHardware(machines.front());
    // Kernels that came with their machine were framed on the machine before it: frame them on
    // their own, as `render` does, not on whichever machine was on screen.
    if (kernelsOpened)
        m_window->plot()->fitToData();
    const QString format = result.format ? QString::fromUtf8(fileFormatName(*result.format).data(),
                               qsizetype(fileFormatName(*result.format).size()))
                                         : QString();
    QString message = machines.size() == 1
        ? tr("Machine %1 from %2 (%3)")
              .arg(QString::fromStdString(machines.front().name), fileName, format)
        : tr("%n machines from %1 (%2); %3 selected", nullptr, int(machines.size()))
              .arg(fileName, format, QString::fromStdString(machines.front().name));
    if (hasErrors(result.hardware.diagnostics)) {
        // Some machines of the file were usable, some not: say which were left out.
        MessageBox::warn(m_window, tr("Problems in %1").arg(QFileInfo(fileName).fileName()),
            tr("%1. Parts of the file could not be read and were left out:\n\n%2")
                .arg(message, shown),
            details);
    } else if (!result.hardware.diagnostics.empty()) {
        message += tr("; %n warning(s), e.g. %1", nullptr, int(result.hardware.diagnostics.size()))
                       .arg(QString::fromStdString(result.hardware.diagnostics.front().toString()));
    }
    m_window->statusBar()->showMessage(message, 10000);
    return true;
}

QStringList ImportController::localFiles(const QMimeData *mime)
{
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    for (const QUrl &url : mime->urls()) {
        if (url.isLocalFile())
            files << url.toLocalFile();
    }
    return files;
}

} // namespace ridgepoint
