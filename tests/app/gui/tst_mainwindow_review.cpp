// The review side of a real MainWindow (offscreen, issue 4): File > Open baseline… and Clear
// baseline with undo, the kernels table's speed-up column, a baseline file with broken rows
// answered through the MessageBox wrapper, and File > Export table… of the rows as filtered
// and sorted, as CSV and Markdown, written atomically.
#include "app/gui/mainwindow.h"
#include "app/gui/reviewcontroller.h"
#include "tests/support/settingssandbox.h"
#include "tests/support/testfiles.h"

#include "tests/support/testmachine.h"
#include "widgets/chart/reviewoverlay.h"
#include "widgets/dialogs/messagebox.h"
#include "widgets/document/document.h"
#include "widgets/document/settings.h"
#include "widgets/models/pointstablemodel.h"
#include "widgets/panels/pointspanel.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace ridgepoint;
using test::readAll;
using test::write;

class TestMainWindowReview : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void opensAndClearsABaselineWithUndo();
    void baselineWithBrokenRowsAsksFirst();
    void exportsTheTableAsFilteredAndSorted();
    void refusesAnUnknownTableType();
    void statusBarNamesWhatNext_data();
    void statusBarNamesWhatNext();

private:
    std::unique_ptr<MainWindow> makeWindow();
    QAbstractItemModel *table(MainWindow &window);

    std::unique_ptr<test::SettingsSandbox> m_dir;
    std::vector<Question> m_questions;
    std::vector<QMessageBox::StandardButton> m_answers;
};

void TestMainWindowReview::init()
{
    m_dir = std::make_unique<test::SettingsSandbox>();
    QVERIFY(m_dir->isValid());
    Settings::store().clear();
    m_questions.clear();
    m_answers.clear();
    MessageBox::setAnswerer([this](const Question &question) {
        m_questions.push_back(question);
        if (m_answers.empty())
            return QMessageBox::Cancel;
        const auto answer = m_answers.front();
        m_answers.erase(m_answers.begin());
        return answer;
    });
}

void TestMainWindowReview::cleanup()
{
    MessageBox::setAnswerer(nullptr);
}

std::unique_ptr<MainWindow> TestMainWindowReview::makeWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->setHardware(test::machine());
    window->setPoints(test::points(), "test points");
    window->show();
    return window;
}

QAbstractItemModel *TestMainWindowReview::table(MainWindow &window)
{
    auto *panel = window.findChild<PointsPanel *>();
    return panel ? panel->proxy() : nullptr;
}

void TestMainWindowReview::opensAndClearsABaselineWithUndo()
{
    auto window = makeWindow();
    QAbstractItemModel *model = table(*window);
    QVERIFY(model);
    // Session order (timed points open sorted by payoff): stream, gemm, stencil.
    window->findChild<PointsPanel *>()->view()->sortByColumn(-1, Qt::AscendingOrder);
    const int columns = model->columnCount();
    // gemm took 4 s then (2 s now), stream 0.01 s (0.02 s now); "old" has no partner.
    const QString file = write(*m_dir, "before.csv",
        "name,flops,bytes,seconds\ngemm,1e12,1e10,4\nstream,1e9,1e9,0.01\nold,1e9,1e9,1\n");
    QVERIFY(window->review()->openBaseline(file));
    QVERIFY(m_questions.empty());
    QCOMPARE(window->document()->baseline()->points.size(), std::size_t(3));
    QCOMPARE(window->review()->overlay()->baselineArrows().size(), std::size_t(2));
    QCOMPARE(window->review()->overlay()->baselinePoints().size(), std::size_t(3));

    QCOMPARE(model->columnCount(), columns + 1);
    const int speedup = PointsTableModel::SpeedupVsBaseline;
    QCOMPARE(
        model->headerData(speedup, Qt::Horizontal).toString(), QString("Speed-up vs baseline"));
    QCOMPARE(model->index(0, speedup).data().toString(), QString("×0.5")); // stream
    QCOMPARE(model->index(1, speedup).data().toString(), QString("×2")); // gemm
    QCOMPARE(model->index(2, speedup).data().toString(), QString("–")); // stencil: no partner
    QVERIFY(model->index(1, speedup)
                .data(Qt::ToolTipRole)
                .toString()
                .contains("baseline time ÷ current time"));

    auto *clear = window->findChild<QAction *>("clearBaseline");
    QVERIFY(clear && clear->isEnabled());
    clear->trigger();
    QVERIFY(!window->document()->baseline());
    QVERIFY(!clear->isEnabled());
    QCOMPARE(model->columnCount(), columns);
    QVERIFY(window->review()->overlay()->baselineArrows().empty());

    window->document()->undoStack()->undo();
    QVERIFY(window->document()->baseline());
    QCOMPARE(model->columnCount(), columns + 1);
    window->document()->undoStack()->undo();
    QVERIFY(!window->document()->baseline());
}

void TestMainWindowReview::statusBarNamesWhatNext_data()
{
    QTest::addColumn<bool>("timed");
    QTest::addColumn<QString>("text");
    // test::points(): total 2.06 s; payoffs gemm 2/2.06 × 0.5 = 48.5 %, stencil 0.04/2.06 ×
    // 0.75 = 1.46 %, stream 0.02/2.06 × 0.5 = 0.485 % (two significant digits).
    QTest::newRow("timed") << true << "What next: gemm 49 %, stencil 1.5 %, stream 0.49 %";
    QTest::newRow("no times") << false << "";
}

void TestMainWindowReview::statusBarNamesWhatNext()
{
    QFETCH(bool, timed);
    QFETCH(QString, text);
    auto window = makeWindow();
    if (!timed) {
        auto points = test::points();
        for (auto &p : points)
            p.seconds.reset();
        window->setPoints(points, "planned");
    }
    auto *label = window->statusBar()->findChild<QLabel *>("whatNext");
    QVERIFY(label);
    QCOMPARE(label->text(), text);
}

void TestMainWindowReview::baselineWithBrokenRowsAsksFirst()
{
    auto window = makeWindow();
    const QString file
        = write(*m_dir, "broken.csv", "name,flops,bytes,seconds\ngemm,1e12,1e10,4\nbad,-1,1e9,1\n");
    m_answers = { QMessageBox::Cancel };
    QVERIFY(!window->review()->openBaseline(file));
    QCOMPARE(m_questions.size(), std::size_t(1));
    QVERIFY(m_questions[0].text.contains("1 of 2 rows"));
    QVERIFY(!window->document()->baseline());

    m_answers = { QMessageBox::Yes };
    QVERIFY(window->review()->openBaseline(file));
    QCOMPARE(window->document()->baseline()->points.size(), std::size_t(1));

    QVERIFY(!window->review()->openBaseline(m_dir->filePath("missing.csv")));
    QCOMPARE(m_questions.size(), std::size_t(3)); // the warning about the missing file
    QCOMPARE(window->document()->baseline()->points.size(), std::size_t(1));
}

void TestMainWindowReview::exportsTheTableAsFilteredAndSorted()
{
    auto window = makeWindow();
    auto *panel = window->findChild<PointsPanel *>();
    // Only the memory kernels, fastest first: stencil (100 GFLOP/s), then stream (50).
    panel->filterEdit()->setText("memory");
    panel->view()->sortByColumn(PointsTableModel::Performance, Qt::DescendingOrder);
    QCOMPARE(panel->proxy()->rowCount(), 2);

    const QString csv = m_dir->filePath("table.csv");
    QCOMPARE(window->review()->exportTable(csv), QString());
    const QList<QByteArray> lines = readAll(csv).split('\n');
    QCOMPARE(lines.size(), 4); // header, two rows, the empty tail after the last CRLF
    QVERIFY(lines[0].startsWith("kernel,group,precision,flops [FLOP]"));
    QVERIFY2(lines[1].startsWith("stencil,memory,,4e+09,DRAM,1e+09,4,0.04,1e+11,"), lines[1]);
    QVERIFY2(lines[2].startsWith("stream,memory,,1e+09,DRAM,1e+09,1,0.02,5e+10,"), lines[2]);

    const QString md = m_dir->filePath("table.md");
    QCOMPARE(window->review()->exportTable(md), QString());
    const QList<QByteArray> rows = readAll(md).split('\n');
    QVERIFY(rows[0].startsWith("| Kernel  | Group  |"));
    QVERIFY(rows[2].startsWith("| stencil | memory |"));
    QVERIFY(rows[3].startsWith("| stream  | memory |"));
    QVERIFY(rows[2].contains("| 100 GFLOP/s |"));
}

void TestMainWindowReview::refusesAnUnknownTableType()
{
    auto window = makeWindow();
    const QString path = write(*m_dir, "table.txt", "keep me");
    QVERIFY(window->review()->exportTable(path).contains("unknown table type"));
    QCOMPARE(readAll(path), QByteArray("keep me"));
    // A directory that does not exist: the error names the file, nothing is written.
    const QString missing = m_dir->filePath("no/such/dir/table.csv");
    QVERIFY(!window->review()->exportTable(missing).isEmpty());
    QVERIFY(!QFile::exists(missing));
}

QTEST_MAIN(TestMainWindowReview)
#include "tst_mainwindow_review.moc"
