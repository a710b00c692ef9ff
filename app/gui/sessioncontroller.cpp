#include "app/gui/sessioncontroller.h"

#include "core/presets/example_points.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/dialogs/messagebox.h"
#include "widgets/document/document.h"
#include "widgets/document/sessionfile.h"
#include "widgets/document/settings.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QStandardPaths>
#include <QStatusBar>
#include <QUndoStack>

#include <algorithm>

namespace ridgepoint {
namespace {

constexpr int kMaxRecent = 8;

QString diagnosticsText(const std::vector<Diagnostic> &diagnostics)
{
    QStringList lines;
    for (const auto &d : diagnostics)
        lines << QString::fromStdString(d.toString());
    return lines.join('\n');
}

} // namespace

SessionController::SessionController(QMainWindow *window, Document *document, RooflinePlot *plot)
    : QObject(window)
    , m_window(window)
    , m_document(document)
    , m_plot(plot)
{
    m_autosaveTimer.setInterval(Settings::get(settings::autosaveIntervalMs));
    connect(&m_autosaveTimer, &QTimer::timeout, this, [this] {
        if (const QString error = autosave(); !error.isEmpty())
            m_window->statusBar()->showMessage(tr("Autosave failed: %1").arg(error), 10000);
    });
    m_autosaveTimer.start();
}

void SessionController::addNewActions(QMenu *file)
{
    QAction *newAction
        = file->addAction(tr("&New"), QKeySequence::New, this, [this] { newSession(); });
    newAction->setObjectName("newSession");
    newAction->setStatusTip(tr("Start an empty session on the current machine"));
    QAction *example = file->addAction(tr("Open e&xample"), this, [this] { openExample(); });
    example->setObjectName("openExample");
    example->setStatusTip(tr("The example kernels of the first start, on the current machine"));
}

bool SessionController::newSession()
{
    if (!maybeSave())
        return false;
    startOver({}, QString());
    m_window->statusBar()->showMessage(tr("New session"), 5000);
    return true;
}

bool SessionController::openExample()
{
    if (!maybeSave())
        return false;
    std::vector<KernelPoint> points = examplePoints();
    const int count = static_cast<int>(points.size());
    startOver(std::move(points), tr("the example data set"));
    m_window->statusBar()->showMessage(tr("%n example kernel(s)", nullptr, count), 5000);
    return true;
}

void SessionController::startOver(std::vector<KernelPoint> points, const QString &title)
{
    Session session;
    session.hardware = m_document->hardware();
    session.figures = m_document->figures(); // a new data set keeps the roofs the user chose
    for (KernelPoint &point : points)
        session.points.push_back(SessionPoint { std::move(point), 1.0, 1.0, std::nullopt });
    m_untitledName = title;
    load(session);
    setFileName(QString());
}

void SessionController::addOpenActions(QMenu *file)
{
    QAction *open = file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        const QString name = QFileDialog::getOpenFileName(m_window, tr("Open session"),
            Settings::get(settings::sessionDirectory),
            tr("Sessions and figures exported with one (*.ridgepoint.json *.json *.png *.svg "
               "*.pdf);;All files (*)"));
        if (!name.isEmpty())
            this->open(name);
    });
    open->setObjectName("openSession");
    open->setStatusTip(tr("Open a saved session, or the session inside an exported figure"));
    m_recentMenu = file->addMenu(tr("Open &recent"));
    m_recentMenu->setObjectName("recentSessions");
    rebuildRecentMenu();
}

void SessionController::addSaveActions(QMenu *file)
{
    QAction *saveAction
        = file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    saveAction->setObjectName("saveSession");
    saveAction->setStatusTip(tr("Save the whole workspace as a session"));
    QAction *saveAsAction
        = file->addAction(tr("Save &as…"), QKeySequence::SaveAs, this, [this] { saveAs(); });
    saveAsAction->setObjectName("saveSessionAs");
}

Session SessionController::snapshot() const
{
    Session session = m_document->toSession();
    const QCPRange x = m_plot->xAxis->range();
    const QCPRange y = m_plot->yAxis->range();
    if (x.lower > 0 && y.lower > 0 && x.lower < x.upper && y.lower < y.upper)
        session.view = ViewRange { x.lower, x.upper, y.lower, y.upper };
    session.theme = m_plot->display().theme.key();
    session.pointsMode = chart::pointsModeKey(m_plot->display().points);
    session.dotSize = m_plot->display().dotSizeByTime ? "time" : "fixed";
    return session;
}

QString SessionController::name() const
{
    if (m_fileName.isEmpty())
        return m_untitledName.isEmpty() ? tr("Untitled") : m_untitledName;
    QString base = QFileInfo(m_fileName).fileName();
    for (const char *suffix : { ".ridgepoint.json", ".json" }) {
        if (base.endsWith(QLatin1String(suffix)) && base.size() > qsizetype(strlen(suffix))) {
            base.chop(qsizetype(strlen(suffix)));
            break;
        }
    }
    return base;
}

bool SessionController::maybeSave()
{
    if (m_document->undoStack()->isClean())
        return true;
    switch (MessageBox::askToSave(m_window, name())) {
    case QMessageBox::Save:
        return save();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

bool SessionController::open(const QString &fileName)
{
    // Read first: a file that cannot be opened asks nothing about the work it would replace.
    const SessionReadResult result = readSessionFile(fileName);
    if (!result.session) {
        // The first error says why; the whole list (warnings too) is under Details.
        const auto error = std::find_if(result.diagnostics.begin(), result.diagnostics.end(),
            [](const Diagnostic &d) { return d.severity == Severity::Error; });
        MessageBox::warn(m_window, tr("Cannot open session"),
            tr("%1 could not be opened; nothing was changed.").arg(fileName)
                + (error == result.diagnostics.end()
                        ? QString()
                        : "\n\n" + QString::fromStdString(error->toString())),
            result.diagnostics.size() > 1 ? diagnosticsText(result.diagnostics) : QString());
        return false;
    }
    if (!maybeSave())
        return false;
    m_untitledName.clear();
    load(*result.session);
    setFileName(fileName);
    addRecent(fileName);
    QString message = tr("Session %1 opened").arg(fileName);
    if (result.version < kSessionVersion)
        message += tr(" (converted from version %1; saving writes version %2)")
                       .arg(result.version)
                       .arg(kSessionVersion);
    if (!result.diagnostics.empty())
        message += tr("; %n warning(s), e.g. %1", nullptr, int(result.diagnostics.size()))
                       .arg(QString::fromStdString(result.diagnostics.front().toString()));
    m_window->statusBar()->showMessage(message, 10000);
    return true;
}

void SessionController::load(const Session &session)
{
    m_document->loadSession(session);
    if (!session.theme.empty()) {
        if (auto *action = m_window->findChild<QAction *>(
                QStringLiteral("theme-") + QString::fromStdString(session.theme)))
            action->trigger();
    }
    if (!session.pointsMode.empty()) {
        if (auto *action = m_window->findChild<QAction *>(
                QStringLiteral("points-") + QString::fromStdString(session.pointsMode)))
            action->trigger();
    }
    if (!session.dotSize.empty()) {
        if (auto *action = m_window->findChild<QAction *>(QStringLiteral("dotSizeByTime")))
            action->setChecked(session.dotSize == "time");
    }
    if (session.view) {
        m_plot->xAxis->setRange(session.view->xLower, session.view->xUpper);
        m_plot->yAxis->setRange(session.view->yLower, session.view->yUpper);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    } else {
        m_plot->fitToData(); // the hardware frame when the session has no point
    }
    emit sessionLoaded();
}

QString SessionController::sessionFileFor(const QString &fileName)
{
    if (fileName.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return fileName;
    QString base = fileName;
    for (const char *picture : { ".svg", ".png", ".pdf" }) {
        if (base.endsWith(QLatin1String(picture), Qt::CaseInsensitive)) {
            base.chop(4);
            break;
        }
    }
    return base + QStringLiteral(".ridgepoint.json");
}

bool SessionController::save()
{
    if (m_fileName.isEmpty())
        return saveAs();
    const QString target = sessionFileFor(m_fileName);
    if (target == m_fileName)
        return saveTo(m_fileName);
    // Opened from a picture: the picture stays; the session goes beside it, never over a file
    // that is there already without asking.
    if (QFileInfo::exists(target))
        return saveAs();
    const QString picture = QFileInfo(m_fileName).fileName();
    if (!saveTo(target))
        return false;
    m_window->statusBar()->showMessage(tr("Kept the picture %1; saved the session beside it as %2")
                                           .arg(picture, QFileInfo(target).fileName()),
        10000);
    return true;
}

bool SessionController::saveAs()
{
    const QString suggested = m_fileName.isEmpty()
        ? QDir(Settings::get(settings::sessionDirectory)).filePath(name() + ".ridgepoint.json")
        : sessionFileFor(m_fileName);
    QString fileName = m_chooseSaveFile
        ? m_chooseSaveFile(suggested)
        : QFileDialog::getSaveFileName(m_window, tr("Save session"), suggested,
            tr("Ridgepoint sessions (*.ridgepoint.json);;All files (*)"));
    if (fileName.isEmpty())
        return false;
    // A name that is not .json (a picture's, or none) becomes NAME.ridgepoint.json.
    return saveTo(sessionFileFor(fileName));
}

bool SessionController::saveTo(const QString &fileName)
{
    if (const QString error = writeSessionFile(fileName, snapshot()); !error.isEmpty()) {
        MessageBox::warn(m_window, tr("Cannot save session"),
            tr("The session was not saved (any older file there is unchanged): %1").arg(error));
        return false;
    }
    m_document->undoStack()->setClean();
    setFileName(fileName);
    addRecent(fileName);
    Settings::set(settings::sessionDirectory, QFileInfo(fileName).absolutePath());
    discardAutosave();
    m_window->statusBar()->showMessage(tr("Session saved to %1").arg(fileName), 5000);
    return true;
}

void SessionController::setFileName(const QString &fileName)
{
    m_fileName = fileName;
    emit fileNameChanged();
}

void SessionController::addRecent(const QString &fileName)
{
    const QString path = QFileInfo(fileName).absoluteFilePath();
    QStringList recent = Settings::get(settings::recentSessions);
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    Settings::set(settings::recentSessions, recent);
    rebuildRecentMenu();
}

void SessionController::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = Settings::get(settings::recentSessions);
    for (const QString &path : recent) {
        QAction *action = m_recentMenu->addAction(
            QFileInfo(path).fileName(), this, [this, path] { open(path); });
        action->setToolTip(path);
        action->setStatusTip(path);
    }
    if (!recent.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear list"), this, [this] {
            Settings::set(settings::recentSessions, QStringList());
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

QString SessionController::autosavePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("autosave.ridgepoint.json"));
}

QString SessionController::autosave()
{
    if (m_document->undoStack()->isClean())
        return QString();
    const QString path = autosavePath();
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return tr("cannot create %1").arg(QFileInfo(path).absolutePath());
    return writeSessionFile(path, snapshot());
}

bool SessionController::offerRestore()
{
    const QString path = autosavePath();
    const QFileInfo info(path);
    if (!info.exists())
        return false;
    const auto answer = MessageBox::ask(m_window,
        { QMessageBox::Question, tr("Restore unsaved work?"),
            tr("Ridgepoint did not close cleanly last time. Restore the work autosaved at %1?")
                .arg(QLocale().toString(info.lastModified(), QLocale::ShortFormat)),
            QString(), QMessageBox::Yes | QMessageBox::Discard, QMessageBox::Yes });
    if (answer != QMessageBox::Yes) {
        discardAutosave();
        return false;
    }
    const SessionReadResult result = readSessionFile(path);
    if (!result.session) {
        MessageBox::warn(m_window, tr("Cannot restore"),
            tr("The autosave could not be read; it is left at %1.").arg(path),
            diagnosticsText(result.diagnostics));
        return false;
    }
    load(*result.session);
    setFileName(QString());
    // Restored work is not saved anywhere yet: an empty step makes the document modified.
    m_document->undoStack()->resetClean();
    return true;
}

void SessionController::discardAutosave()
{
    QFile::remove(autosavePath());
}

} // namespace ridgepoint
