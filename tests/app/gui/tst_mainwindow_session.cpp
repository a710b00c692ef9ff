// The window's session life cycle, driven on a real MainWindow (offscreen): save and reopen,
// Ctrl+S, atomic writes that leave the old file when they fail, questions before unsaved work
// is dropped (answered by the test through the MessageBox wrapper), the autosave and its
// restore, and point files read on a worker thread with the skipped rows shown first.
#include "app/gui/mainwindow.h"
#include "app/gui/sessioncontroller.h"
#include "tests/support/settingssandbox.h"
#include "tests/support/testfiles.h"

#include "core/session/session.h"
#include "tests/support/testmachine.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/dialogs/messagebox.h"
#include "widgets/document/document.h"
#include "widgets/document/sessionfile.h"
#include "widgets/document/settings.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/exportoptions.h"

#include <QFile>
#include <QFileInfo>
#include <QProgressDialog>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <csignal>
#include <sys/resource.h>
#include <unistd.h>

using namespace ridgepoint;
using test::readAll;
using test::writeAll;

class TestMainWindowSession : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void savesAndReopensTheWholeWorkspace();
    void ctrlSSavesToTheSessionFile();
    void ctrlSKeepsThePictureASessionCameFrom_data();
    void ctrlSKeepsThePictureASessionCameFrom();
    void titleShowsNameAndModifiedMarker();
    void failedSaveLeavesTheOldFile_data();
    void failedSaveLeavesTheOldFile();
    void refusesABrokenSessionAndKeepsTheWork();
    void closeWithUnsavedChangesAsks_data();
    void closeWithUnsavedChangesAsks();
    void openingPointsWithUnsavedChangesAsks();
    void autosavesAndOffersToRestore();
    void cleanExitRemovesTheAutosave();
    void recentSessionsAreRemembered();
    void skippedRowsAreShownBeforeImport_data();
    void skippedRowsAreShownBeforeImport();
    void largeFileIsReadOnAWorkerThread();
    void cancellingTheReadKeepsThePoints();

private:
    std::unique_ptr<MainWindow> makeWindow();
    // A CSV of `rows` valid kernels (and a broken row 3 when asked).
    QString writeCsv(const QString &name, int rows, bool brokenRow = false);

    std::unique_ptr<test::SettingsSandbox> m_dir;
    std::vector<Question> m_questions;
    std::vector<QMessageBox::StandardButton> m_answers;
};

void TestMainWindowSession::init()
{
    m_dir = std::make_unique<test::SettingsSandbox>();
    QVERIFY(m_dir->isValid());
    Settings::store().clear();
    QFile::remove(SessionController::autosavePath());
    m_questions.clear();
    m_answers.clear();
    MessageBox::setAnswerer([this](const Question &question) {
        m_questions.push_back(question);
        if (m_answers.empty())
            return QMessageBox::Cancel; // an unexpected question fails the test below
        const auto answer = m_answers.front();
        m_answers.erase(m_answers.begin());
        return answer;
    });
}

void TestMainWindowSession::cleanup()
{
    MessageBox::setAnswerer(nullptr);
    QFile::remove(SessionController::autosavePath());
}

std::unique_ptr<MainWindow> TestMainWindowSession::makeWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->setHardware(test::machine());
    window->setPoints(test::points(), "test points");
    window->show();
    return window;
}

QString TestMainWindowSession::writeCsv(const QString &name, int rows, bool brokenRow)
{
    QByteArray text = "name,flops,bytes,seconds\n";
    for (int i = 0; i < rows; ++i) {
        if (brokenRow && i == 1)
            text += "broken,-5,100,0.1\n";
        else
            text += "k" + QByteArray::number(i) + ",1e9,1e8,0.01\n";
    }
    const QString path = m_dir->filePath(name);
    writeAll(path, text);
    return path;
}

void TestMainWindowSession::savesAndReopensTheWholeWorkspace()
{
    auto window = makeWindow();
    Document *doc = window->document();
    doc->setWhatIf(0, WhatIf { 0.5, 0.25 });
    doc->setQuantMode(QuantMode::W8A16);
    doc->setAnnotations(
        { { "tiled next", "gemm", 0, 0 }, { "here", "", 3.0, 1e10 } }, "Add annotations");
    doc->setTargets({ { "DRAM", 0.6, "" } }, "Add target");
    doc->setBaseline(Baseline { "old.csv", { test::point("gemm", "math", 1e12, 1e10, 4.0) } });
    window->plot()->xAxis->setRange(0.5, 500);
    window->plot()->yAxis->setRange(1e9, 1e13);
    const QString path = m_dir->filePath("review.ridgepoint.json");
    QVERIFY(window->sessions()->saveTo(path));
    QVERIFY(doc->undoStack()->isClean());
    const std::string saved = writeSessionJson(window->sessions()->snapshot());

    auto other = std::make_unique<MainWindow>();
    QVERIFY(other->sessions()->open(path));
    QVERIFY(m_questions.empty());
    QCOMPARE(other->document()->pointCount(), std::size_t { 3 });
    QCOMPARE(other->document()->whatIf(0), (WhatIf { 0.5, 0.25 }));
    QCOMPARE(other->document()->quantMode(), QuantMode::W8A16);
    QCOMPARE(other->document()->annotations().size(), std::size_t { 2 });
    QCOMPARE(other->document()->targets().front().ceiling, std::string("DRAM"));
    QVERIFY(other->document()->baseline());
    QCOMPARE(other->plot()->xAxis->range().lower, 0.5);
    QCOMPARE(other->plot()->yAxis->range().upper, 1e13);
    const std::string reopened = writeSessionJson(other->sessions()->snapshot());
    QCOMPARE(QString::fromStdString(reopened), QString::fromStdString(saved));
    QVERIFY(other->document()->undoStack()->isClean());
}

void TestMainWindowSession::ctrlSSavesToTheSessionFile()
{
    auto window = makeWindow();
    const QString path = m_dir->filePath("s.ridgepoint.json");
    QVERIFY(window->sessions()->saveTo(path));
    window->document()->setWhatIf(1, WhatIf { 2.0, 1.0 });
    QVERIFY(!window->document()->undoStack()->isClean());
    QVERIFY(!readAll(path).contains("bytesFactor"));
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
    QTest::keyClick(window.get(), Qt::Key_S, Qt::ControlModifier);
    QVERIFY(window->document()->undoStack()->isClean());
    const auto read = readSessionFile(path);
    QVERIFY(read.session);
    QCOMPARE(read.session->points[1].bytesFactor, 2.0);
}

void TestMainWindowSession::ctrlSKeepsThePictureASessionCameFrom_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("besideExists");
    QTest::newRow("SVG, nothing beside") << "svg" << false;
    QTest::newRow("PNG, nothing beside") << "png" << false;
    QTest::newRow("PDF, nothing beside") << "pdf" << false;
    QTest::newRow("SVG, a file beside already: Save as") << "svg" << true;
}

void TestMainWindowSession::ctrlSKeepsThePictureASessionCameFrom()
{
    QFETCH(QString, kind);
    QFETCH(bool, besideExists);
    const QString picture = m_dir->filePath("roofline." + kind);
    const QString beside = m_dir->filePath("roofline.ridgepoint.json");
    {
        auto source = makeWindow();
        ExportOptions options;
        options.width = 320;
        options.height = 200;
        options.session
            = QByteArray::fromStdString(writeSessionJson(source->sessions()->snapshot()));
        QCOMPARE(ChartExporter(*source->plot()).exportTo(picture, options), QString());
    }
    const QByteArray pictureBytes = readAll(picture);
    QVERIFY(pictureBytes.size() > 100);
    const QByteArray other = "not mine";
    if (besideExists)
        writeAll(beside, other);
    const QString chosen = m_dir->filePath("chosen.ridgepoint.json");
    QStringList suggestions;

    auto window = std::make_unique<MainWindow>();
    window->show();
    window->sessions()->setSaveFileChooser([&](const QString &suggested) {
        suggestions << suggested;
        return chosen;
    });
    QVERIFY(window->sessions()->open(picture));
    window->document()->setWhatIf(1, WhatIf { 2.0, 1.0 });
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
    QTest::keyClick(window.get(), Qt::Key_S, Qt::ControlModifier);

    QCOMPARE(readAll(picture), pictureBytes); // the picture is byte for byte what it was
    QVERIFY(window->document()->undoStack()->isClean());
    const QString saved = besideExists ? chosen : beside;
    QCOMPARE(window->sessions()->fileName(), saved);
    const auto read = readSessionFile(saved);
    QVERIFY(read.session);
    QCOMPARE(read.session->points[1].bytesFactor, 2.0);
    if (besideExists) {
        QCOMPARE(suggestions, QStringList { beside }); // Save as proposed NAME.ridgepoint.json
        QCOMPARE(readAll(beside), other); // and the file there was not overwritten
    } else {
        QVERIFY(suggestions.isEmpty());
        const QString status = window->statusBar()->currentMessage();
        QVERIFY2(status.contains("Kept the picture roofline." + kind)
                && status.contains("saved the session beside it as roofline.ridgepoint.json"),
            qPrintable(status));
    }
}

void TestMainWindowSession::titleShowsNameAndModifiedMarker()
{
    auto window = makeWindow();
    QVERIFY(window->sessions()->saveTo(m_dir->filePath("roofs of march.ridgepoint.json")));
    QVERIFY2(window->windowTitle().contains("roofs of march"), qPrintable(window->windowTitle()));
    QVERIFY(!window->isWindowModified());
    window->document()->setWhatIf(0, WhatIf { 0.5, 1.0 });
    QVERIFY(window->isWindowModified());
    window->document()->undoStack()->undo();
    QVERIFY(!window->isWindowModified());
}

void TestMainWindowSession::failedSaveLeavesTheOldFile_data()
{
    QTest::addColumn<QString>("how");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing directory") << "missing"
                                       << "does not exist";
    QTest::newRow("write cut short (the file-size limit, as a full disk)") << "full"
                                                                           << "cannot write";
    QTest::newRow("read-only directory") << "readonly"
                                         << "cannot write";
}

void TestMainWindowSession::failedSaveLeavesTheOldFile()
{
    QFETCH(QString, how);
    QFETCH(QString, message);
    auto window = makeWindow();
    QString path;
    const QByteArray old = "{\"old\": true}\n";
    if (how == "missing") {
        path = m_dir->filePath("no/such/dir/s.ridgepoint.json");
    } else if (how == "full") {
        path = m_dir->filePath("full.ridgepoint.json");
        writeAll(path, old);
    } else {
        if (geteuid() == 0)
            QSKIP("root writes into read-only directories; the file-size row covers this");
        QVERIFY(QDir(m_dir->path()).mkdir("ro"));
        path = m_dir->filePath("ro/s.ridgepoint.json");
        writeAll(path, old);
        QFile::setPermissions(m_dir->filePath("ro"), QFile::ReadOwner | QFile::ExeOwner);
    }
    window->document()->setWhatIf(0, WhatIf { 0.5, 1.0 });
    m_answers = { QMessageBox::Ok };
    // The write fails after its first 64 bytes (EFBIG), even for root.
    rlimit previous {};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &previous), 0);
    rlimit small = previous;
    small.rlim_cur = 64;
    const auto handler = std::signal(SIGXFSZ, SIG_IGN);
    if (how == "full")
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
    const bool saved = window->sessions()->saveTo(path);
    setrlimit(RLIMIT_FSIZE, &previous);
    std::signal(SIGXFSZ, handler);
    QVERIFY(!saved);
    QCOMPARE(m_questions.size(), std::size_t { 1 });
    QCOMPARE(m_questions[0].title, QString("Cannot save session"));
    QVERIFY2(m_questions[0].text.contains(message), qPrintable(m_questions[0].text));
    QVERIFY2(
        m_questions[0].text.contains(QFileInfo(path).fileName()), qPrintable(m_questions[0].text));
    QVERIFY(!window->document()->undoStack()->isClean()); // still unsaved
    if (how != "missing")
        QCOMPARE(readAll(path), old);
    else
        QVERIFY(!QFile::exists(path));
    QFile::setPermissions(
        m_dir->filePath("ro"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

void TestMainWindowSession::refusesABrokenSessionAndKeepsTheWork()
{
    auto window = makeWindow();
    const QString path = m_dir->filePath("future.ridgepoint.json");
    writeAll(path, R"({"format": "ridgepoint-session", "version": 9})");
    m_answers = { QMessageBox::Ok };
    QVERIFY(!window->sessions()->open(path));
    QCOMPARE(m_questions.size(), std::size_t { 1 });
    // The reason in the message itself, not only behind "Show Details".
    QVERIFY2(m_questions[0].text.contains("newer Ridgepoint"), qPrintable(m_questions[0].text));
    QCOMPARE(window->document()->pointCount(), std::size_t { 3 });
}

void TestMainWindowSession::closeWithUnsavedChangesAsks_data()
{
    QTest::addColumn<int>("answer");
    QTest::addColumn<bool>("closed");
    QTest::addColumn<bool>("saved");
    QTest::newRow("cancel keeps the window") << int(QMessageBox::Cancel) << false << false;
    QTest::newRow("discard closes") << int(QMessageBox::Discard) << true << false;
    QTest::newRow("save writes, then closes") << int(QMessageBox::Save) << true << true;
}

void TestMainWindowSession::closeWithUnsavedChangesAsks()
{
    QFETCH(int, answer);
    QFETCH(bool, closed);
    QFETCH(bool, saved);
    auto window = makeWindow();
    const QString path = m_dir->filePath("s.ridgepoint.json");
    QVERIFY(window->sessions()->saveTo(path));
    const QByteArray before = readAll(path);
    window->document()->setWhatIf(0, WhatIf { 0.5, 1.0 });
    m_answers = { QMessageBox::StandardButton(answer) };
    QCOMPARE(window->close(), closed);
    QCOMPARE(m_questions.size(), std::size_t { 1 });
    QVERIFY(m_questions[0].text.contains("Save the changes to s"));
    QCOMPARE(window->isVisible(), !closed);
    QCOMPARE(readAll(path) != before, saved);
}

void TestMainWindowSession::openingPointsWithUnsavedChangesAsks()
{
    auto window = makeWindow();
    window->document()->setWhatIf(0, WhatIf { 0.5, 1.0 });
    const QString csv = writeCsv("more.csv", 5);
    m_answers = { QMessageBox::Cancel };
    QVERIFY(!window->openPointsFile(csv));
    QCOMPARE(m_questions.size(), std::size_t { 1 });
    QCOMPARE(window->document()->pointCount(), std::size_t { 3 });
    m_answers = { QMessageBox::Discard };
    QVERIFY(window->openPointsFile(csv));
    QCOMPARE(window->document()->pointCount(), std::size_t { 5 });
}

void TestMainWindowSession::autosavesAndOffersToRestore()
{
    Settings::set(settings::autosaveIntervalMs, 50);
    const QString autosave = SessionController::autosavePath();
    {
        auto window = makeWindow();
        QTest::qWait(200);
        QVERIFY(!QFile::exists(autosave)); // nothing unsaved, nothing written
        window->document()->setWhatIf(2, WhatIf { 0.125, 1.0 });
        QTRY_VERIFY(QFile::exists(autosave));
        // A crash: the window goes without close(), the autosave stays.
    }
    QVERIFY(QFile::exists(autosave));
    auto window = std::make_unique<MainWindow>();
    m_answers = { QMessageBox::Yes };
    QVERIFY(window->sessions()->offerRestore());
    QCOMPARE(m_questions.size(), std::size_t { 1 });
    QCOMPARE(m_questions[0].title, QString("Restore unsaved work?"));
    QCOMPARE(window->document()->pointCount(), std::size_t { 3 });
    QCOMPARE(window->document()->whatIf(2).bytesFactor, 0.125);
    QVERIFY(window->isWindowModified()); // restored work is not saved anywhere yet

    // Declined: the autosave is dropped and nothing is loaded.
    auto third = std::make_unique<MainWindow>();
    m_answers = { QMessageBox::Discard };
    QVERIFY(!third->sessions()->offerRestore());
    QVERIFY(!QFile::exists(autosave));
    QCOMPARE(third->document()->pointCount(), std::size_t { 0 });
}

void TestMainWindowSession::cleanExitRemovesTheAutosave()
{
    Settings::set(settings::autosaveIntervalMs, 50);
    auto window = makeWindow();
    window->document()->setWhatIf(0, WhatIf { 0.5, 1.0 });
    QTRY_VERIFY(QFile::exists(SessionController::autosavePath()));
    m_answers = { QMessageBox::Discard };
    QVERIFY(window->close());
    QVERIFY(!QFile::exists(SessionController::autosavePath()));
}

void TestMainWindowSession::recentSessionsAreRemembered()
{
    auto window = makeWindow();
    QVERIFY(window->sessions()->saveTo(m_dir->filePath("a.ridgepoint.json")));
    QVERIFY(window->sessions()->saveTo(m_dir->filePath("b.ridgepoint.json")));
    QVERIFY(window->sessions()->saveTo(m_dir->filePath("a.ridgepoint.json")));
    const QStringList recent = Settings::get(settings::recentSessions);
    QCOMPARE(recent.size(), 2);
    QVERIFY(recent[0].endsWith("a.ridgepoint.json"));
    QVERIFY(recent[1].endsWith("b.ridgepoint.json"));
    auto *menu = window->findChild<QMenu *>("recentSessions");
    QVERIFY(menu);
    QCOMPARE(menu->actions().first()->text(), QString("a.ridgepoint.json"));
}

void TestMainWindowSession::skippedRowsAreShownBeforeImport_data()
{
    QTest::addColumn<int>("answer");
    QTest::addColumn<int>("points");
    QTest::newRow("cancel merges nothing") << int(QMessageBox::Cancel) << 3;
    QTest::newRow("yes imports the valid rows") << int(QMessageBox::Yes) << 3;
}

void TestMainWindowSession::skippedRowsAreShownBeforeImport()
{
    QFETCH(int, answer);
    QFETCH(int, points);
    auto window = makeWindow();
    window->document()->removePoints({ 0 }); // 2 points left, unsaved
    window->document()->undoStack()->setClean();
    const QString csv = writeCsv("bad.csv", 4, true);
    m_answers = { QMessageBox::StandardButton(answer) };
    const bool imported = window->openPointsFile(csv);
    QCOMPARE(imported, answer == QMessageBox::Yes);
    QCOMPARE(m_questions.size(), std::size_t { 1 });
    QVERIFY2(m_questions[0].text.startsWith("1 of 4 rows of"), qPrintable(m_questions[0].text));
    QVERIFY2(m_questions[0].details.startsWith(csv + ":3:"), qPrintable(m_questions[0].details));
    QCOMPARE(
        window->document()->pointCount(), std::size_t(answer == QMessageBox::Yes ? points : 2));
}

void TestMainWindowSession::largeFileIsReadOnAWorkerThread()
{
    Settings::set(settings::backgroundReadBytes, qint64 { 1000 });
    auto window = makeWindow();
    const QString csv = writeCsv("big.csv", 2000);
    QVERIFY(QFileInfo(csv).size() > 1000);
    bool sawProgress = false;
    QTimer poll;
    connect(&poll, &QTimer::timeout, this, [&] {
        if (window->findChild<QProgressDialog *>("pointsProgress"))
            sawProgress = true;
    });
    poll.start(0);
    QVERIFY(window->openPointsFile(csv));
    QCOMPARE(window->document()->pointCount(), std::size_t { 2000 });
    QVERIFY(sawProgress);
    QVERIFY(m_questions.empty());
}

void TestMainWindowSession::cancellingTheReadKeepsThePoints()
{
    Settings::set(settings::backgroundReadBytes, qint64 { 1000 });
    auto window = makeWindow();
    // Large enough that the read outlasts the click on Cancel below.
    const QString csv = writeCsv("huge.csv", 400000);
    QTimer::singleShot(0, this, [&] {
        auto *progress = window->findChild<QProgressDialog *>("pointsProgress");
        QVERIFY(progress);
        auto *cancel = progress->findChild<QPushButton *>();
        QVERIFY(cancel);
        QTest::mouseClick(cancel, Qt::LeftButton);
    });
    QVERIFY(!window->openPointsFile(csv));
    QCOMPARE(window->document()->pointCount(), std::size_t { 3 });
    QVERIFY(window->document()->undoStack()->isClean());
}

QTEST_MAIN(TestMainWindowSession)
#include "tst_mainwindow_session.moc"
