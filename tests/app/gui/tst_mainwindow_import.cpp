// Files into a real MainWindow (offscreen, issue 4): File ▸ Import… dispatch by content for
// every points, machine and session format (the profilers' real files, byte-exact), files
// dropped on the window (QDropEvent with URLs), bad files named with the reason, File ▸ Import
// options… changing what an import gives (and re-reading the file on show), Edit ▸ Copy chart
// on the clipboard, and File ▸ Export image… carrying the window's session.
#include "app/gui/importcontroller.h"
#include "app/gui/mainwindow.h"
#include "app/gui/sessioncontroller.h"
#include "tests/support/settingssandbox.h"
#include "tests/support/testfiles.h"

#include "core/io/file_io.h"
#include "core/io/formats/hardware_json.h"
#include "core/io/formats/points_json.h"
#include "core/io/readers.h"
#include "core/presets/presets.h"
#include "core/session/session.h"
#include "tests/support/testmachine.h"
#include "tests/support/testpaths.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/dialogs/exportdialog.h"
#include "widgets/dialogs/importoptionsdialog.h"
#include "widgets/dialogs/messagebox.h"
#include "widgets/document/document.h"
#include "widgets/document/pointsloader.h"
#include "widgets/document/sessionfile.h"
#include "widgets/document/settings.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/figuresession.h"
#include "widgets/panels/hardwarepanel.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>

#include <sys/stat.h>
#include <sys/types.h>

#include <memory>

using namespace ridgepoint;
using test::readAll;
using test::write;

namespace {

QString fixture(const QString &name)
{
    const QByteArray fromEnv = qgetenv("RIDGEPOINT_FIXTURES_DIR");
    return QDir(fromEnv.isEmpty() ? test::fixturePath({}) : QString(fromEnv)).filePath(name);
}

QString testData(const QString &name)
{
    return test::dataPath(name);
}

// What the core readers make of a file on their own: the window must show the same.
PointsFileResult pointsOf(const QString &path, const ReadOptions &options = {})
{
    const auto text = readTextFile(path.toStdString());
    return text ? readPointsFile(*text, path.toStdString(), options) : PointsFileResult {};
}

HardwareFileResult machinesOf(const QString &path)
{
    const auto text = readTextFile(path.toStdString());
    return text ? readHardwareFile(*text, path.toStdString()) : HardwareFileResult {};
}

// Two kernels on a machine of another name than the window's: opening it is visible.
Session otherSession()
{
    Session session;
    session.hardware = test::machine();
    session.hardware.name = "Session machine";
    session.points.push_back({ test::point("alpha", "a", 1e10, 1e9, 0.1), 1.0, 1.0, std::nullopt });
    session.points.push_back({ test::point("beta", "b", 1e11, 1e9, 0.5), 0.5, 1.0, std::nullopt });
    return session;
}

QMimeData *urls(const QStringList &files, const QList<QUrl> &more = {})
{
    auto *mime = new QMimeData;
    QList<QUrl> list;
    for (const QString &file : files)
        list << QUrl::fromLocalFile(file);
    mime->setUrls(list + more);
    return mime;
}

// What a file manager does: enter (the window accepts local files), then drop. Qt delivers the
// drop to the widget that accepted the enter.
bool dragAndDrop(QWidget *window, const QMimeData *mime)
{
    QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, mime, Qt::LeftButton, {});
    QCoreApplication::sendEvent(window, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent drop(QPointF(200, 200), Qt::CopyAction, mime, Qt::LeftButton, {});
    QCoreApplication::sendEvent(window, &drop);
    return drop.isAccepted() && drop.dropAction() == Qt::CopyAction;
}

} // namespace

class TestMainWindowImport : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void fileMenuReadsLikeTheIssue();
    void importReadsEveryPointsFormat_data();
    void importReadsEveryPointsFormat();
    void importAddsAndSelectsEveryMachineFormat_data();
    void importAddsAndSelectsEveryMachineFormat();
    void ncuRooflineSectionGivesItsRoofsAndItsPoints();
    void aTraceOpensOnItsDevicesMachineElseTheOneOnScreen_data();
    void aTraceOpensOnItsDevicesMachineElseTheOneOnScreen();
    void nerscTextGivesTheHalvesItHolds_data();
    void nerscTextGivesTheHalvesItHolds();
    void importOpensSessionsAndFigures_data();
    void importOpensSessionsAndFigures();
    void openingASessionAsksAboutUnsavedWorkFirst();
    void badFilesAreNamedWithTheReason_data();
    void badFilesAreNamedWithTheReason();
    void hardwareMenuImportRefusesAPointsFile_data();
    void hardwareMenuImportRefusesAPointsFile();
    void droppedFilesAreImportedInOrder();
    void severalDroppedPointsFilesBecomeOneSet();
    void onlyLocalFilesAreAccepted();
    void importOptionsChangeWhatAnImportGives_data();
    void importOptionsChangeWhatAnImportGives();
    void importOptionsRereadTheFileOnShow();
    void importOptionsOfferNoRereadAfterASession();
    void copyChartPutsPngAndSvgWithTheSessionOnTheClipboard();
    void exportImageCarriesTheWindowsSession();

private:
    std::unique_ptr<MainWindow> makeWindow();

    std::unique_ptr<test::SettingsSandbox> m_dir;
    std::vector<Question> m_questions;
    QMessageBox::StandardButton m_saveAnswer = QMessageBox::Discard;
};

void TestMainWindowImport::init()
{
    m_dir = std::make_unique<test::SettingsSandbox>();
    QVERIFY(m_dir->isValid());
    Settings::store().clear();
    QFile::remove(SessionController::autosavePath());
    m_questions.clear();
    m_saveAnswer = QMessageBox::Discard;
    // Skipped rows: import the rest; unsaved work: m_saveAnswer; warnings: OK.
    MessageBox::setAnswerer([this](const Question &question) {
        m_questions.push_back(question);
        if (question.title.startsWith("Problems in"))
            return QMessageBox::Yes;
        if (question.title == "Unsaved changes")
            return m_saveAnswer;
        return QMessageBox::Ok;
    });
}

void TestMainWindowImport::cleanup()
{
    MessageBox::setAnswerer(nullptr);
    QFile::remove(SessionController::autosavePath());
}

std::unique_ptr<MainWindow> TestMainWindowImport::makeWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->setHardware(test::machine());
    window->setPoints(test::points(), "test points");
    window->show();
    return window;
}

void TestMainWindowImport::fileMenuReadsLikeTheIssue()
{
    auto window = makeWindow();
    QMenu *file = window->menuBar()->actions().front()->menu();
    QStringList texts;
    for (QAction *action : file->actions()) {
        if (!action->isSeparator())
            texts << action->text().remove('&');
    }
    // File ▸ New / Open example / Open / Open recent / Import … / Save / Save As / Export
    // image… / Export table…
    const QStringList expected = { "New", "Open example", "Open…", "Open recent", "Import…",
        "Import options…", "Save", "Save as…" };
    QCOMPARE(texts.mid(0, expected.size()), expected);
    QVERIFY(texts.indexOf("Export image…") > texts.indexOf("Save as…"));
    QCOMPARE(texts.indexOf("Export table…"), texts.indexOf("Export image…") + 1);
    auto *import = window->findChild<QAction *>("import");
    QVERIFY(import);
    QCOMPARE(import->shortcut(), QKeySequence(QStringLiteral("Ctrl+I")));
    auto *copy = window->findChild<QAction *>("copyChart");
    QVERIFY(copy);
    QCOMPARE(copy->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+C")));
    QVERIFY(window->findChild<QAction *>("importMachine"));
    QVERIFY(window->findChild<QAction *>("importOptions"));
}

void TestMainWindowImport::importReadsEveryPointsFormat_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::newRow("generic CSV") << fixture("simple_kernel_timing_rtx5070.csv") << "points CSV";
    QTest::newRow("ncu details") << fixture("ncu_details_metrics_gemm_tiled_rtx5070.csv")
                                 << "Nsight Compute CSV (details page)";
    QTest::newRow("ncu details, auto units")
        << fixture("ncu_details_autounits_cublas_gemv.csv") << "Nsight Compute CSV (details page)";
    QTest::newRow("ncu raw") << testData("ncu/ncu_raw_page.csv") << "Nsight Compute CSV (raw page)";
    QTest::newRow("rocprof pmc_perf")
        << fixture("rocprof_compute_pmc_perf_MI200.csv") << "rocprof-compute pmc_perf.csv";
    QTest::newRow("Advisor survey")
        << testData("advisor/survey_legacy.csv") << "Intel Advisor survey CSV";
    QTest::newRow("likwid") << testData("likwid/mem_dp_region.csv") << "likwid-perfctr CSV";
    QTest::newRow("UTF-16 CSV") << testData("encodings/utf16le_points.csv") << "points CSV";
    QTest::newRow("points JSON") << QString() << "Ridgepoint points JSON";
}

void TestMainWindowImport::importReadsEveryPointsFormat()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    if (file.isEmpty()) {
        std::vector<KernelPoint> points = { test::point("json-a", "g", 2e9, 1e9, 0.01),
            test::point("json-b", "g", 8e9, 1e9, 0.02) };
        file = write(*m_dir, "points.json", QByteArray::fromStdString(writePointsJson(points)));
    }
    const PointsFileResult expected = pointsOf(file);
    QVERIFY(expected.format);
    QCOMPARE(QString::fromUtf8(fileFormatName(*expected.format).data()), format);
    QVERIFY(!expected.points.points.empty());
    QCOMPARE(ImportController::classify(file).kind, ImportController::Kind::Points);

    auto window = makeWindow();
    QVERIFY(window->importer()->importFile(file));
    Document *doc = window->document();
    QCOMPARE(doc->pointCount(), expected.points.points.size());
    QCOMPARE(doc->measuredPoint(0).name, expected.points.points.front().name);
    QCOMPARE(doc->measuredPoint(doc->pointCount() - 1).flops, expected.points.points.back().flops);
    QCOMPARE(doc->hardware().name, std::string("Test machine")); // the machine stays
    // Rows that were skipped were shown and confirmed; nothing else was asked.
    for (const Question &question : m_questions)
        QVERIFY2(question.title.startsWith("Problems in"), qPrintable(question.title));
    QCOMPARE(m_questions.empty(), !hasErrors(expected.points.diagnostics));
}

void TestMainWindowImport::importAddsAndSelectsEveryMachineFormat_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("rocprof roofline.csv") << fixture("rocprof_compute_roofline_MI200.csv");
    QTest::newRow("ERT roofline.json") << testData("ert/roofline_p100.json");
    QTest::newRow("Advisor roofs") << testData("advisor/roofs.csv");
    QTest::newRow("hardware JSON") << QString();
}

void TestMainWindowImport::importAddsAndSelectsEveryMachineFormat()
{
    QFETCH(QString, file);
    if (file.isEmpty()) {
        Hardware own = test::machine();
        own.name = "My workstation";
        file = write(*m_dir, "mine.json", QByteArray::fromStdString(writeHardwareJson(own)));
    }
    const HardwareFileResult expected = machinesOf(file);
    QVERIFY(!expected.hardware.machines.empty());
    const std::string name = expected.hardware.machines.front().name;
    QCOMPARE(ImportController::classify(file).kind, ImportController::Kind::Machine);

    auto window = makeWindow();
    QVERIFY(window->importer()->importFile(file));
    QCOMPARE(window->document()->hardware().name, name);
    QCOMPARE(window->document()->hardware().compute.size(),
        expected.hardware.machines.front().compute.size());
    QCOMPARE(window->document()->pointCount(), std::size_t { 3 }); // the kernels stay
    auto *panel = window->findChild<HardwarePanel *>();
    QVERIFY(panel->presetBox()->findText(QString::fromStdString(name)) >= 0);
    QVERIFY(window->document()->undoStack()->canUndo()); // selecting it is an edit
    QVERIFY(m_questions.empty());
}

void TestMainWindowImport::ncuRooflineSectionGivesItsRoofsAndItsPoints()
{
    const QString file = fixture("ncu_section_roofline_chart_cublas_gemv.csv");
    QCOMPARE(ImportController::classify(file).kind, ImportController::Kind::PointsAndMachine);
    const HardwareFileResult machines = machinesOf(file);
    const PointsFileResult points = pointsOf(file);
    QVERIFY(!machines.hardware.machines.empty());
    QVERIFY(!points.points.points.empty());

    auto window = makeWindow();
    QVERIFY(window->importer()->importFile(file));
    QCOMPARE(window->document()->hardware().name, machines.hardware.machines.front().name);
    QCOMPARE(window->document()->pointCount(), points.points.points.size());
    QCOMPARE(window->document()->measuredPoint(0).name, points.points.points.front().name);
}

void TestMainWindowImport::aTraceOpensOnItsDevicesMachineElseTheOneOnScreen_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("machine");
    QTest::addColumn<QString>("said");
    QTest::newRow("V100: its preset") << "traces/diff_test_v100.json.gz"
                                      << "NVIDIA V100" << QString();
    // ROCm's "AMD Radeon Graphics" with 104 CUs: the MI250 GCD preset, by its count.
    QTest::newRow("MI250: its die's preset") << "traces/mi250_minitoy_train.json.gz"
                                             << "AMD Instinct MI250 (one GCD)" << QString();
    // A device no preset names or counts: no error, the machine on screen (an MI250X).
    QTest::newRow("unknown: the machine on screen")
        << "UNNAMED"
        << "AMD Instinct MI250X"
        << "unnamed.json: the trace's device \"NVIDIA Prototype X\" is not a preset "
           "Ridgepoint knows; its kernels are on AMD Instinct MI250X, the machine on screen "
           "(choose another in the Hardware panel)";
}

// A PyTorch trace gives its kernels and, through the device it names, its machine. A device no
// preset names leaves the kernels on the machine on screen and says so in the status bar,
// without a dialog: until 2026-11-30 the window warned "gives no machine; nothing was changed"
// (with the command line's --hardware advice) over kernels it had opened.
void TestMainWindowImport::aTraceOpensOnItsDevicesMachineElseTheOneOnScreen()
{
    QFETCH(QString, file);
    QFETCH(QString, machine);
    QFETCH(QString, said);
    file = file == "UNNAMED" ? write(*m_dir, "unnamed.json", test::traceOfAnUnknownDevice())
                             : testData(file);
    auto window = makeWindow();
    window->setHardware(**PresetDatabase::builtin().find("MI250X"));
    QCOMPARE(ImportController::classify(file).kind, ImportController::Kind::PointsAndMachine);
    QVERIFY(window->importer()->importFile(file));
    QVERIFY(window->document()->pointCount() >= 2); // not the window's own three test points
    QVERIFY(window->document()->measuredPoint(0).name != "stream");
    QCOMPARE(QString::fromStdString(window->document()->hardware().name), machine);
    for (const Question &question : m_questions)
        QVERIFY2(question.title.startsWith("Problems in"), qPrintable(question.title));
    if (!said.isEmpty())
        QCOMPARE(window->statusBar()->currentMessage(), said);
    // Framed on the machine they came with, not on the one on screen before (an MI250X whose
    // FP32 ridge kept the frame wide): what Fit to data gives, and `render`.
    RooflinePlot *plot = window->plot();
    const QCPRange x = plot->xAxis->range();
    const QCPRange y = plot->yAxis->range();
    plot->fitToData();
    QCOMPARE(plot->xAxis->range(), x);
    QCOMPARE(plot->yAxis->range(), y);
}

void TestMainWindowImport::nerscTextGivesTheHalvesItHolds_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("points"); // 0: the window's own three test points stay
    QTest::addColumn<bool>("machine");
    const QString roofs = "memroofs 12000 2500.5 800.25\nmem_roof_names 'L1' 'L2' 'HBM'\n"
                          "comproofs 6000.0 3000.0\ncomp_roof_names 'FMA' 'No-FMA'\n";
    const QString kernels = "AI_HBM 2.5 5.0\nAI_L2 1.25 2.5\nFLOPS 1500.0 2400.5\n"
                            "labels 'bs=1' 'bs=2'\n";
    // The sample file: "omit the following if only plotting roofs".
    QTest::newRow("roofs and kernels")
        << roofs + kernels << int(ImportController::Kind::PointsAndMachine) << 2 << true;
    QTest::newRow("roofs only") << roofs << int(ImportController::Kind::Machine) << 0 << true;
    QTest::newRow("kernels only") << kernels << int(ImportController::Kind::Points) << 2 << false;
}

void TestMainWindowImport::nerscTextGivesTheHalvesItHolds()
{
    QFETCH(QString, content);
    QFETCH(int, kind);
    QFETCH(int, points);
    QFETCH(bool, machine);
    const QString file = write(*m_dir, "data_hierarchical.txt", content.toUtf8());
    QCOMPARE(int(ImportController::classify(file).kind), kind);
    auto window = makeWindow();
    // The kernels alone are placed on the window's machine, which has an L2 roof and DRAM.
    QVERIFY(window->importer()->importFile(file));
    QVERIFY2(m_questions.empty(),
        qPrintable(m_questions.empty() ? QString() : m_questions.front().text));
    QCOMPARE(window->document()->pointCount(), std::size_t(points ? points : 3));
    QCOMPARE(window->document()->hardware().name != test::machine().name, machine);
    if (points)
        QCOMPARE(window->document()->measuredPoint(0).name, std::string("bs=1"));
}

void TestMainWindowImport::importOpensSessionsAndFigures_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("session JSON") << "json";
    QTest::newRow("PNG with its session") << "png";
    QTest::newRow("SVG with its session") << "svg";
    QTest::newRow("PDF with its session") << "pdf";
}

void TestMainWindowImport::importOpensSessionsAndFigures()
{
    QFETCH(QString, kind);
    const Session session = otherSession();
    const QByteArray json = QByteArray::fromStdString(writeSessionJson(session));
    QString file;
    if (kind == "json") {
        file = write(*m_dir, "s.ridgepoint.json", json);
    } else {
        RooflinePlot plot;
        plot.document()->loadSession(session);
        ExportOptions options;
        options.width = 640;
        options.height = 400;
        options.session = json;
        file = m_dir->filePath("figure." + kind);
        QCOMPARE(ChartExporter(plot).exportTo(file, options), QString());
    }
    QCOMPARE(ImportController::classify(file).kind, ImportController::Kind::Session);

    auto window = makeWindow();
    QVERIFY(window->importer()->importFile(file));
    QCOMPARE(window->document()->hardware().name, std::string("Session machine"));
    QCOMPARE(window->document()->pointCount(), std::size_t { 2 });
    QCOMPARE(window->document()->measuredPoint(1).name, std::string("beta"));
    QCOMPARE(window->document()->whatIf(1).bytesFactor, 0.5);
    QCOMPARE(window->sessions()->fileName(), file);
    QVERIFY(m_questions.empty()); // nothing unsaved, nothing asked
}

void TestMainWindowImport::openingASessionAsksAboutUnsavedWorkFirst()
{
    const QString file = write(
        *m_dir, "s.ridgepoint.json", QByteArray::fromStdString(writeSessionJson(otherSession())));
    auto window = makeWindow();
    window->document()->setWhatIf(0, WhatIf { 0.5, 1.0 });
    m_saveAnswer = QMessageBox::Cancel;
    QVERIFY(!window->importer()->importFile(file));
    QCOMPARE(m_questions.size(), std::size_t { 1 });
    QCOMPARE(m_questions[0].title, QString("Unsaved changes"));
    QCOMPARE(window->document()->pointCount(), std::size_t { 3 });
    QCOMPARE(window->document()->whatIf(0).bytesFactor, 0.5);

    m_saveAnswer = QMessageBox::Discard;
    QVERIFY(window->importer()->importFile(file));
    QCOMPARE(window->document()->pointCount(), std::size_t { 2 });
}

void TestMainWindowImport::badFilesAreNamedWithTheReason_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("reason"); // a part of the message's text
    QTest::newRow("unknown shape")
        << testData("bad/unknown_shape.txt") << "not a file Ridgepoint can read; tried points CSV";
    QTest::newRow("binary") << testData("bad/binary_garbage.bin") << "binary_garbage.bin:";
    QTest::newRow("truncated hardware JSON")
        << testData("bad/truncated_hardware.json") << "truncated_hardware.json:";
    QTest::newRow("ncu unknown unit") << testData("bad/ncu_unknown_unit.csv") << "unit";
    QTest::newRow("missing") << QString("MISSING") << "not found";
    QTest::newRow("folder") << QString("FOLDER") << "is a folder";
    QTest::newRow("PNG without a session") << QString("PLAIN_PNG") << "no Ridgepoint session";
    // Refused by type before they are opened: a FIFO would block, /dev/zero never ends.
    QTest::newRow("FIFO") << QString("FIFO") << "is a FIFO, not a regular file";
    QTest::newRow("/dev/zero") << QString("/dev/zero")
                               << "is a character device, not a regular file";
}

void TestMainWindowImport::badFilesAreNamedWithTheReason()
{
    QFETCH(QString, file);
    QFETCH(QString, reason);
    if (file == "MISSING") {
        file = m_dir->filePath("gone.csv");
    } else if (file == "FOLDER") {
        file = m_dir->filePath("runs");
        QVERIFY(QDir().mkpath(file));
    } else if (file == "PLAIN_PNG") {
        QImage image(32, 32, QImage::Format_RGB32);
        image.fill(Qt::white);
        file = m_dir->filePath("holiday.png");
        QVERIFY(image.save(file));
    } else if (file == "FIFO") {
        file = m_dir->filePath("kernels.csv");
        QCOMPARE(mkfifo(file.toLocal8Bit().constData(), 0600), 0);
    }
    auto window = makeWindow();
    // Unsaved work: a file that cannot be used must not ask about it, nor lose it.
    window->document()->setWhatIf(0, WhatIf { 0.5, 1.0 });
    QVERIFY(!window->importer()->importFile(file));
    QCOMPARE(m_questions.size(), std::size_t { 1 });
    const Question &message = m_questions.front();
    QCOMPARE(message.icon, QMessageBox::Warning);
    const QString shown = message.title + '\n' + message.text;
    QVERIFY2(shown.contains(QFileInfo(file).fileName()), qPrintable(shown));
    QVERIFY2(shown.contains(reason), qPrintable(shown));
    QCOMPARE(window->document()->pointCount(), std::size_t { 3 });
    QCOMPARE(window->document()->whatIf(0).bytesFactor, 0.5);
    QCOMPARE(window->document()->hardware().name, std::string("Test machine"));
}

void TestMainWindowImport::hardwareMenuImportRefusesAPointsFile_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("rocprof pmc_perf") << fixture("rocprof_compute_pmc_perf_MI200.csv");
    QTest::newRow("generic CSV") << fixture("simple_kernel_timing_rtx5070.csv");
}

void TestMainWindowImport::hardwareMenuImportRefusesAPointsFile()
{
    QFETCH(QString, file);
    // The readers only say what a file is not; the message says what it is.
    const QString reason = QString("holds kernels (%1 points), not ceilings")
                               .arg(pointsOf(file).points.points.size());
    auto window = makeWindow();
    QVERIFY(!window->importer()->importMachineFile(file));
    QCOMPARE(m_questions.size(), std::size_t { 1 });
    QVERIFY2(m_questions[0].text.contains(reason), qPrintable(m_questions[0].text));
    QCOMPARE(window->document()->hardware().name, std::string("Test machine"));
    QCOMPARE(window->document()->pointCount(), std::size_t { 3 });
}

void TestMainWindowImport::droppedFilesAreImportedInOrder()
{
    auto window = makeWindow();
    const QString machine = fixture("rocprof_compute_roofline_MI200.csv");
    const QString points = fixture("rocprof_compute_pmc_perf_MI200.csv");
    std::unique_ptr<QMimeData> mime(urls({ machine, points }));
    QVERIFY(dragAndDrop(window.get(), mime.get()));

    // Imported after the drop has returned.
    QCOMPARE(window->document()->hardware().name, std::string("Test machine"));
    const PointsFileResult expected = pointsOf(points);
    QTRY_COMPARE(window->document()->measuredPoint(0).name, expected.points.points[0].name);
    QCOMPARE(window->document()->pointCount(), expected.points.points.size());
    QCOMPARE(window->document()->hardware().name, machinesOf(machine).hardware.machines[0].name);
    // The kernels went in first: the machine chosen with them is not unsaved work to ask about.
    QVERIFY(m_questions.empty());
    QVERIFY(window->document()->undoStack()->canUndo());
}

void TestMainWindowImport::severalDroppedPointsFilesBecomeOneSet()
{
    auto window = makeWindow();
    window->document()->setWhatIf(0, WhatIf { 0.5, 1.0 }); // unsaved: asked once
    const QString a = fixture("simple_kernel_timing_rtx5070.csv");
    const QString b = testData("likwid/mem_dp_region.csv");
    const QString bad = testData("bad/unknown_shape.txt");
    std::unique_ptr<QMimeData> mime(urls({ a, bad, b }));
    QVERIFY(dragAndDrop(window.get(), mime.get()));

    const std::size_t expected
        = pointsOf(a).points.points.size() + pointsOf(b).points.points.size();
    QTRY_COMPARE(window->document()->pointCount(), expected);
    QCOMPARE(window->document()->measuredPoint(expected - 1).name,
        pointsOf(b).points.points.back().name);
    int saveQuestions = 0;
    bool badNamed = false;
    for (const Question &question : m_questions) {
        saveQuestions += question.title == "Unsaved changes";
        badNamed = badNamed || question.text.contains("unknown_shape.txt");
    }
    QCOMPARE(saveQuestions, 1);
    QVERIFY(badNamed);
    QVERIFY(window->windowTitle().contains("simple_kernel_timing_rtx5070 and 1 more"));
}

void TestMainWindowImport::onlyLocalFilesAreAccepted()
{
    auto window = makeWindow();
    std::unique_ptr<QMimeData> remote(urls({}, { QUrl("https://example.com/runs.csv") }));
    QDragEnterEvent enter(QPoint(5, 5), Qt::CopyAction, remote.get(), Qt::LeftButton, {});
    enter.ignore();
    QCoreApplication::sendEvent(window.get(), &enter);
    QVERIFY(!enter.isAccepted());

    auto text = std::make_unique<QMimeData>();
    text->setText("name,flops,bytes\n");
    QDragEnterEvent textEnter(QPoint(5, 5), Qt::CopyAction, text.get(), Qt::LeftButton, {});
    textEnter.ignore();
    QCoreApplication::sendEvent(window.get(), &textEnter);
    QVERIFY(!textEnter.isAccepted());

    // Mixed: the local file is taken, the remote one left alone.
    const QString local = testData("likwid/mem_dp_region.csv");
    std::unique_ptr<QMimeData> mixed(urls({ local }, { QUrl("https://example.com/runs.csv") }));
    QCOMPARE(ImportController::localFiles(mixed.get()), QStringList { local });
}

void TestMainWindowImport::importOptionsChangeWhatAnImportGives_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("drop"); // dropped on the window, else File ▸ Import…
    QTest::addColumn<bool>("perKernel");
    QTest::addColumn<int>("ldsBanks");
    QTest::addColumn<int>("points");
    // Two launches of one kernel; two dispatches of gemm_bf16 and one of daxpy.
    const QString ncu = testData("ncu/ncu_details_nersc_v100.csv");
    const QString rocprof = testData("rocprof/pmc_perf_mi300.csv");
    QTest::newRow("ncu, per launch") << ncu << false << false << 32 << 2;
    QTest::newRow("ncu, per kernel") << ncu << false << true << 32 << 1;
    QTest::newRow("ncu, per kernel, dropped") << ncu << true << true << 32 << 1;
    QTest::newRow("rocprof, per dispatch") << rocprof << false << false << 32 << 3;
    QTest::newRow("rocprof, per kernel") << rocprof << false << true << 32 << 2;
    QTest::newRow("rocprof, per kernel, dropped") << rocprof << true << true << 32 << 2;
    QTest::newRow("rocprof, 64 LDS banks") << rocprof << false << false << 64 << 3;
}

void TestMainWindowImport::importOptionsChangeWhatAnImportGives()
{
    QFETCH(QString, file);
    QFETCH(bool, drop);
    QFETCH(bool, perKernel);
    QFETCH(int, ldsBanks);
    QFETCH(int, points);
    Settings::set(settings::importPerKernel, perKernel);
    Settings::set(settings::importLdsBanksPerCu, ldsBanks);
    ReadOptions options;
    options.ncu.sumLaunchesOfAKernel = perKernel;
    options.rocprof.sumDispatchesOfAKernel = perKernel;
    options.rocprof.ldsBanksPerCu = ldsBanks;
    const PointsFileResult expected = pointsOf(file, options);
    QCOMPARE(int(expected.points.points.size()), points);

    auto window = makeWindow();
    if (drop) {
        std::unique_ptr<QMimeData> mime(urls({ file }));
        QVERIFY(dragAndDrop(window.get(), mime.get()));
        QTRY_COMPARE(window->document()->pointCount(), std::size_t(points));
    } else {
        QVERIFY(window->importer()->importFile(file));
    }
    Document *doc = window->document();
    QCOMPARE(doc->pointCount(), std::size_t(points));
    for (std::size_t i = 0; i < doc->pointCount(); ++i) {
        const KernelPoint &shown = doc->measuredPoint(i);
        const KernelPoint &read = expected.points.points[i];
        QCOMPARE(shown.name, read.name);
        QCOMPARE(shown.flops, read.flops);
        QCOMPARE(shown.bytes.size(), read.bytes.size());
        for (std::size_t level = 0; level < read.bytes.size(); ++level)
            QCOMPARE(shown.bytes[level].bytes, read.bytes[level].bytes);
    }
    QCOMPARE(window->importer()->lastPointsFiles(), QStringList { file });
}

void TestMainWindowImport::importOptionsRereadTheFileOnShow()
{
    const QString file = testData("ncu/ncu_details_nersc_v100.csv");
    auto window = makeWindow();
    QVERIFY(window->importer()->importFile(file));
    QCOMPARE(window->document()->pointCount(), std::size_t { 2 });
    m_questions.clear();

    bool answered = false;
    // The dialog is modal: tick "per kernel" and re-read once it is up, as a user would.
    QTimer::singleShot(0, this, [&] {
        auto *dialog = qobject_cast<ImportOptionsDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        auto *reread = dialog->findChild<QPushButton *>("reread");
        QVERIFY(reread);
        QVERIFY(reread->text().remove('&').contains("ncu_details_nersc_v100.csv"));
        QTest::mouseClick(dialog->findChild<QCheckBox *>("perKernel"), Qt::LeftButton);
        QTest::mouseClick(reread, Qt::LeftButton);
        answered = true;
    });
    window->findChild<QAction *>("importOptions")->trigger();
    QVERIFY(answered);

    // The kernels on show are the file read again, one point per kernel: the launches summed.
    ReadOptions perKernel;
    perKernel.ncu.sumLaunchesOfAKernel = true;
    const PointsFileResult expected = pointsOf(file, perKernel);
    Document *doc = window->document();
    QCOMPARE(doc->pointCount(), std::size_t { 1 });
    QCOMPARE(doc->measuredPoint(0).name, expected.points.points[0].name);
    QCOMPARE(doc->measuredPoint(0).flops, expected.points.points[0].flops);
    const PointsFileResult launches = pointsOf(file);
    QCOMPARE(doc->measuredPoint(0).flops,
        launches.points.points[0].flops + launches.points.points[1].flops);
    QCOMPARE(Settings::get(settings::importPerKernel), true);
    QVERIFY(m_questions.empty()); // nothing unsaved, nothing skipped: nothing to ask
}

void TestMainWindowImport::importOptionsOfferNoRereadAfterASession()
{
    auto window = makeWindow();
    QVERIFY(window->importer()->importFile(testData("ncu/ncu_details_nersc_v100.csv")));
    QVERIFY(!window->importer()->lastPointsFiles().isEmpty());
    // A session's points were not read from a file: re-reading one would throw them away.
    const QString session = write(*m_dir, "other.ridgepoint.json",
        QByteArray::fromStdString(writeSessionJson(otherSession())));
    QVERIFY(window->importer()->importFile(session));
    QVERIFY(window->importer()->lastPointsFiles().isEmpty());

    bool answered = false;
    QTimer::singleShot(0, this, [&] {
        auto *dialog = qobject_cast<ImportOptionsDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        QVERIFY(!dialog->findChild<QPushButton *>("reread"));
        QTest::mouseClick(dialog->findChild<QCheckBox *>("perKernel"), Qt::LeftButton);
        dialog->findChild<QDialogButtonBox *>("buttons")->button(QDialogButtonBox::Ok)->click();
        answered = true;
    });
    window->findChild<QAction *>("importOptions")->trigger();
    QVERIFY(answered);
    QCOMPARE(window->document()->pointCount(), std::size_t { 2 }); // the session's, untouched
    QCOMPARE(window->document()->measuredPoint(0).name, std::string("alpha"));
    QCOMPARE(importReadOptions().ncu.sumLaunchesOfAKernel, true); // for the next import
}

void TestMainWindowImport::copyChartPutsPngAndSvgWithTheSessionOnTheClipboard()
{
    auto window = makeWindow();
    QGuiApplication::clipboard()->clear();
    window->findChild<QAction *>("copyChart")->trigger();
    const QMimeData *mime = QGuiApplication::clipboard()->mimeData();
    QVERIFY(mime);
    QVERIFY(mime->hasImage());
    QVERIFY2(mime->hasFormat("image/png") && mime->hasFormat("image/svg+xml"),
        qPrintable(mime->formats().join(", ")));
    const QImage image = qvariant_cast<QImage>(mime->imageData());
    const double ratio = window->plot()->devicePixelRatioF();
    QCOMPARE(image.size(),
        QSize(qRound(window->plot()->width() * ratio), qRound(window->plot()->height() * ratio)));
    QVERIFY(image.pixelColor(image.width() / 2, image.height() / 2).isValid());

    const QByteArray svg = mime->data("image/svg+xml");
    QVERIFY(svg.contains("<svg"));
    QVERIFY(svg.contains(kPictureSessionNamespace));
    for (const QByteArray &picture : { mime->data("image/png"), svg }) {
        const auto json = sessionFromPicture(picture, "clipboard");
        QVERIFY2(json, json ? "" : json.error().c_str());
        const SessionReadResult session = readSessionJson(*json, "clipboard");
        QVERIFY(session.session);
        QCOMPARE(session.session->points.size(), std::size_t { 3 });
        QCOMPARE(session.session->hardware.name, std::string("Test machine"));
    }
}

void TestMainWindowImport::exportImageCarriesTheWindowsSession()
{
    auto window = makeWindow();
    window->document()->setWhatIf(2, WhatIf { 0.25, 1.0 });
    const QString file = m_dir->filePath("review.svg");
    bool answered = false;
    // The dialog is modal: fill it in once it is up.
    QTimer::singleShot(0, this, [&] {
        auto *dialog = qobject_cast<ExportDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->findChild<QComboBox *>("format")->setCurrentIndex(1);
        dialog->findChild<QLineEdit *>("file")->setText(file);
        dialog->findChild<QLineEdit *>("title")->setText("Before and after");
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        answered = true;
    });
    window->findChild<QAction *>("exportImage")->trigger();
    QVERIFY(answered);
    const QByteArray svg = readAll(file);
    QVERIFY(svg.contains("Before and after"));
    const SessionReadResult back = readSessionFile(file);
    QVERIFY(back.session);
    QCOMPARE(back.session->points.size(), std::size_t { 3 });
    QCOMPARE(back.session->points[2].bytesFactor, 0.25);
    QVERIFY(back.session->view); // the window's view range goes with it
}

QTEST_MAIN(TestMainWindowImport)
#include "tst_mainwindow_import.moc"
