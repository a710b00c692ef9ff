// A profiler trace against its baseline trace in a real MainWindow (offscreen, issue 28): File ▸
// Open on the run, Open baseline on the other trace, and the Kernels dock's operator-change pane
// (OperatorChangePanel) showing each operator's times and speed-up (docs/MODEL.md §11.7), sorted
// by a column's numbers rather than its text, and emptied when the baseline is cleared. Its
// model is watched by QAbstractItemModelTester throughout.
#include "app/gui/mainwindow.h"
#include "app/gui/reviewcontroller.h"
#include "tests/support/settingssandbox.h"
#include "tests/support/testpaths.h"
#include "widgets/dialogs/messagebox.h"
#include "widgets/document/document.h"
#include "widgets/document/settings.h"
#include "widgets/panels/operatorchangepanel.h"
#include "widgets/panels/pointspanel.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace ridgepoint;

namespace {

QString testData(const char *name)
{
    return test::dataPath(QLatin1String(name));
}

// tests/data/traces/small: before.json the baseline, after.json the run (worked by hand in
// tests/app/cli/tst_cli_baseline.cpp): mm 20 → 10 µs (×2), relu 4 → 8 µs (×0.5), mul 6 µs only
// in the run, sigmoid 2 µs only in the baseline.
const char *const kMm = "aten::mm(float[64, 32], float[32, 16])";
const char *const kRelu = "aten::relu(float[4, 16])";
const char *const kSigmoid = "aten::sigmoid(float[4, 16])";
const char *const kMul = "aten::mul(float[4, 16], float[4, 16])";

QStringList column(const QTableWidget *table, int column)
{
    QStringList texts;
    for (int row = 0; row < table->rowCount(); ++row) {
        const QTableWidgetItem *item = table->item(row, column);
        texts << (item ? item->text() : QString());
    }
    return texts;
}

// A click on the header of `section`, as a reader sorts.
void clickHeader(QTableWidget *table, int section)
{
    QHeaderView *header = table->horizontalHeader();
    const int x = header->sectionViewportPosition(section) + header->sectionSize(section) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
}

} // namespace

class TestMainWindowBaseline : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void showsEachOperatorsChange();
    void sortsByAColumnsNumbers_data();
    void sortsByAColumnsNumbers();
    void clearingTheBaselineEmptiesThePane();

private:
    struct Opened {
        std::unique_ptr<MainWindow> window;
        QTableWidget *table = nullptr;
        QLabel *summary = nullptr;
        std::unique_ptr<QAbstractItemModelTester> tester;
    };
    Opened openWithBaseline();

    std::unique_ptr<test::SettingsSandbox> m_dir;
    std::vector<Question> m_questions;
};

void TestMainWindowBaseline::init()
{
    m_dir = std::make_unique<test::SettingsSandbox>();
    QVERIFY(m_dir->isValid());
    Settings::store().clear();
    m_questions.clear();
    MessageBox::setAnswerer([this](const Question &question) {
        m_questions.push_back(question);
        return QMessageBox::Cancel;
    });
}

void TestMainWindowBaseline::cleanup()
{
    MessageBox::setAnswerer(nullptr);
}

TestMainWindowBaseline::Opened TestMainWindowBaseline::openWithBaseline()
{
    Opened opened;
    opened.window = std::make_unique<MainWindow>();
    opened.window->show();
    auto *panel = opened.window->findChild<OperatorChangePanel *>();
    if (!panel)
        return opened;
    opened.table = panel->findChild<QTableWidget *>("operatorChangeTable");
    opened.summary = panel->findChild<QLabel *>("operatorChangeSummary");
    // Watching from before the trace: every reset and row change the pane makes is checked.
    opened.tester = std::make_unique<QAbstractItemModelTester>(
        opened.table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    if (!opened.window->openPointsFile(testData("traces/small/after.json"))
        || !opened.window->review()->openBaseline(testData("traces/small/before.json")))
        opened.table = nullptr;
    return opened;
}

void TestMainWindowBaseline::showsEachOperatorsChange()
{
    const Opened opened = openWithBaseline();
    QVERIFY(opened.table);
    QVERIFY2(m_questions.empty(), m_questions.empty() ? "" : qPrintable(m_questions[0].text));
    QVERIFY(opened.table->isVisible());
    QCOMPARE(opened.summary->text(),
        QString("vs before.json: ×1.33 on 2 operators in both runs (75.0 % of this run's time); "
                "1 only here, 1 only in the baseline"));
    // OperatorChanges' order: matched (largest baseline time first), only here, only there.
    QCOMPARE(column(opened.table, OperatorChangePanel::Key),
        (QStringList { kMm, kRelu, kMul, kSigmoid }));
    QCOMPARE(column(opened.table, OperatorChangePanel::BaselineTime),
        (QStringList { "20 us", "4 us", "–", "2 us" }));
    QCOMPARE(column(opened.table, OperatorChangePanel::CurrentTime),
        (QStringList { "10 us", "8 us", "6 us", "–" }));
    QCOMPARE(column(opened.table, OperatorChangePanel::SpeedupFactor),
        (QStringList { "×2", "×0.5", "–", "–" }));
    QCOMPARE(column(opened.table, OperatorChangePanel::Kernels),
        (QStringList { "1 / 1", "1 / 1", "0 / 1", "1 / 0" }));
    QCOMPARE(column(opened.table, OperatorChangePanel::Status),
        (QStringList { "matched", "matched", "only in this run", "only in the baseline" }));
}

void TestMainWindowBaseline::sortsByAColumnsNumbers_data()
{
    // Rows without a figure ("–") sort below every figure. Text order would put "10 us" before
    // "4 us" and "×0.5" before "×2" the other way round.
    QTest::addColumn<int>("section");
    QTest::addColumn<int>("clicks"); // 1: ascending, 2: descending
    QTest::addColumn<QStringList>("keys");
    QTest::newRow("this run, ascending")
        << int(OperatorChangePanel::CurrentTime) << 1 << QStringList { kSigmoid, kMul, kRelu, kMm };
    QTest::newRow("this run, descending")
        << int(OperatorChangePanel::CurrentTime) << 2 << QStringList { kMm, kRelu, kMul, kSigmoid };
    QTest::newRow("baseline, ascending") << int(OperatorChangePanel::BaselineTime) << 1
                                         << QStringList { kMul, kSigmoid, kRelu, kMm };
    QTest::newRow("speed-up, descending") << int(OperatorChangePanel::SpeedupFactor) << 2
                                          << QStringList { kMm, kRelu, kMul, kSigmoid };
    QTest::newRow("operator, ascending")
        << int(OperatorChangePanel::Key) << 1 << QStringList { kMm, kMul, kRelu, kSigmoid };
}

void TestMainWindowBaseline::sortsByAColumnsNumbers()
{
    QFETCH(int, section);
    QFETCH(int, clicks);
    QFETCH(QStringList, keys);
    const Opened opened = openWithBaseline();
    QVERIFY(opened.table);
    QVERIFY(opened.table->isSortingEnabled());
    for (int i = 0; i < clicks; ++i)
        clickHeader(opened.table, section);
    QCOMPARE(opened.table->horizontalHeader()->sortIndicatorSection(), section);
    QCOMPARE(column(opened.table, OperatorChangePanel::Key), keys);
    // Each row's cells move with it.
    const int mm = static_cast<int>(keys.indexOf(kMm));
    QCOMPARE(opened.table->item(mm, OperatorChangePanel::SpeedupFactor)->text(), QString("×2"));
    QCOMPARE(opened.table->item(mm, OperatorChangePanel::CurrentTime)->text(), QString("10 us"));
}

void TestMainWindowBaseline::clearingTheBaselineEmptiesThePane()
{
    const Opened opened = openWithBaseline();
    QVERIFY(opened.table);
    QCOMPARE(opened.table->rowCount(), 4);
    auto *clear = opened.window->findChild<QAction *>("clearBaseline");
    QVERIFY(clear && clear->isEnabled());
    clear->trigger();
    QVERIFY(!opened.window->document()->baseline());
    QCOMPARE(opened.table->rowCount(), 0);
    QCOMPARE(opened.summary->text(), QString("No baseline: File ▸ Open baseline…"));
    QVERIFY(!opened.table->isVisible()); // the pane goes with the baseline
    // Opened again, the rows come back.
    QVERIFY(opened.window->review()->openBaseline(testData("traces/small/before.json")));
    QCOMPARE(opened.table->rowCount(), 4);
}

QTEST_MAIN(TestMainWindowBaseline)
#include "tst_mainwindow_baseline.moc"
