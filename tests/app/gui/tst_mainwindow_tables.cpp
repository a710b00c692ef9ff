// The window's tables on a first start (issue 27, items 11 and 5): a real MainWindow, offscreen,
// with no saved settings and the example data set, at the sizes a user's screen gives. The
// Kernels dock shows whole rows of its table, at least six at 1920 × 1080, while the chart stays
// the largest part of the window and the Hardware dock keeps its ceilings in view; Consistency
// is as wide as "faster than the roof", not a fifth of the table; with "Compare with" chosen
// from its picker the two compare columns follow Utilization, with short headers read whole,
// in view without scrolling.
#include "app/gui/mainwindow.h"

#include "core/presets/example_points.h"
#include "core/presets/presets.h"
#include "tests/support/settingssandbox.h"
#include "widgets/document/settings.h"
#include "widgets/models/pointstablemodel.h"
#include "widgets/panels/hardwarepanel.h"
#include "widgets/panels/pointspanel.h"

#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace ridgepoint;

namespace {

// The deferred work done: the docks fitted once shown and after a resize, and laid out.
void settle()
{
    for (int i = 0; i < 6; ++i)
        QCoreApplication::processEvents();
}

const Hardware &preset(const std::string &query)
{
    static const PresetDatabase presets = PresetDatabase::builtin();
    const auto found = presets.find(query);
    if (!found)
        qFatal("no preset %s", query.c_str());
    return **found;
}

} // namespace

class TestMainWindowTables : public QObject
{
    Q_OBJECT

private slots:
    void init();

    void firstStartShowsWholeRows_data();
    void firstStartShowsWholeRows();
    void compareColumnsFollowUtilization_data();
    void compareColumnsFollowUtilization();

private:
    // As on a first start: no saved window state, H100 and the example data set.
    std::unique_ptr<MainWindow> firstStart(QSize size);
    std::unique_ptr<test::SettingsSandbox> m_dir;
};

void TestMainWindowTables::init()
{
    m_dir = std::make_unique<test::SettingsSandbox>();
    QVERIFY(m_dir->isValid());
    Settings::store().clear();
}

std::unique_ptr<MainWindow> TestMainWindowTables::firstStart(QSize size)
{
    auto window = std::make_unique<MainWindow>();
    window->setHardware(preset("H100"));
    window->setPoints(examplePoints(), "the example data set");
    window->resize(size);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    settle();
    return window;
}

void TestMainWindowTables::firstStartShowsWholeRows_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("leastRows");
    QTest::newRow("1920 × 1080") << QSize(1920, 1080) << 6;
    QTest::newRow("1600 × 950, the first window") << QSize(1600, 950) << 6;
    QTest::newRow("1280 × 800") << QSize(1280, 800) << 4;
    QTest::newRow("1024 × 700") << QSize(1024, 700) << 2;
}

void TestMainWindowTables::firstStartShowsWholeRows()
{
    QFETCH(QSize, size);
    QFETCH(int, leastRows);
    auto window = firstStart(size);
    QVERIFY(window);
    QTRY_COMPARE(window->size(), size);
    settle();
    auto *panel = window->findChild<PointsPanel *>();
    QTableView *view = panel->view();
    const int row = view->verticalHeader()->defaultSectionSize();
    const int shown = view->viewport()->height();
    const QString what = QStringLiteral("viewport %1 px, rows of %2 px").arg(shown).arg(row);
    // Whole rows, and at least so many (the example has 13).
    QVERIFY2(shown % row == 0, qPrintable(what));
    QVERIFY2(shown / row >= leastRows, qPrintable(what));
    // The chart stays the largest part: taller than the Kernels dock, twice so on large windows.
    auto *kernels = window->findChild<QDockWidget *>("kernelsDock");
    const double chartOverKernels = double(window->plot()->height()) / kernels->height();
    QVERIFY2(chartOverKernels >= (size.height() >= 950 ? 2.0 : 1.2),
        qPrintable(QStringLiteral("chart %1 px, Kernels dock %2 px")
                       .arg(window->plot()->height())
                       .arg(kernels->height())));
    // Consistency is as wide as "faster than the roof" (the example has points whose
    // diagnosis is longer): not a fifth of the table.
    const int consistency = panel->model()->columnOf(PointsTableModel::Consistency);
    const int width = view->horizontalHeader()->sectionSize(consistency);
    QVERIFY2(width <= view->fontMetrics().horizontalAdvance("faster than the roof") + 12,
        qPrintable(QString::number(width)));
    QVERIFY2(width >= view->horizontalHeader()->sectionSizeHint(consistency),
        qPrintable(QString::number(width))); // the header whole
    if (size.width() >= 1600)
        QVERIFY(width < 0.1 * view->viewport()->width());
    // A longer diagnosis elides in the cell and is whole in its tooltip.
    bool longOne = false;
    for (int r = 0; r < panel->proxy()->rowCount(); ++r) {
        const QModelIndex cell = panel->proxy()->index(r, consistency);
        const QString text = cell.data().toString();
        if (view->fontMetrics().horizontalAdvance(text) + 12 > width) {
            longOne = true;
            QVERIFY2(
                cell.data(Qt::ToolTipRole).toString().startsWith(text + "\n"), qPrintable(text));
        }
    }
    QVERIFY(longOne);
    // From the first window's size up, the Hardware dock still shows every ceiling of the
    // machine (H100: 18).
    if (size.height() >= 950) {
        QTableView *ceilings = window->findChild<HardwarePanel *>()->ceilingsView();
        QVERIFY(!ceilings->verticalScrollBar()->isVisible());
    }
}

void TestMainWindowTables::compareColumnsFollowUtilization_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("machine");
    QTest::addColumn<QString>("roofHeader");
    QTest::addColumn<QString>("speedupHeader");
    QTest::newRow("1920 × 1080, MI300X") << QSize(1920, 1080) << "MI300X"
                                         << "MI300X roof"
                                         << "× on MI300X";
    QTest::newRow("1920 × 1080, A100 80GB") << QSize(1920, 1080) << "A100 80GB"
                                            << "A100 80GB roof"
                                            << "× on A100 80GB";
    QTest::newRow("1600 × 950, MI300X") << QSize(1600, 950) << "MI300X"
                                        << "MI300X roof"
                                        << "× on MI300X";
}

void TestMainWindowTables::compareColumnsFollowUtilization()
{
    QFETCH(QSize, size);
    QFETCH(QString, machine);
    QFETCH(QString, roofHeader);
    QFETCH(QString, speedupHeader);
    auto window = firstStart(size);
    QVERIFY(window);
    const std::string name = preset(machine.toStdString()).name;
    // Chosen from the "Compare with" picker with the keyboard, as a user would.
    QComboBox *box = window->findChild<HardwarePanel *>()->compareBox();
    const int target = box->findText(QString::fromStdString(name));
    QVERIFY(target > 0);
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Home);
    for (int i = 0; i < target; ++i)
        QTest::keyClick(box, Qt::Key_Down);
    QVERIFY(window->document()->compareHardware());
    QCOMPARE(window->document()->compareHardware()->name, name);
    settle();

    auto *panel = window->findChild<PointsPanel *>();
    const PointsTableModel *model = panel->model();
    const int roof = model->columnOf(PointsTableModel::CompareAttainable);
    const int speedup = model->columnOf(PointsTableModel::CompareSpeedup);
    QCOMPARE(roof, model->columnOf(PointsTableModel::Utilization) + 1);
    QCOMPARE(speedup, roof + 1);
    QCOMPARE(model->columnOf(PointsTableModel::Consistency), speedup + 1);
    QHeaderView *header = panel->view()->horizontalHeader();
    QCOMPARE(header->visualIndex(roof), roof);
    QCOMPARE(
        panel->proxy()->headerData(roof, Qt::Horizontal, Qt::DisplayRole).toString(), roofHeader);
    QCOMPARE(panel->proxy()->headerData(speedup, Qt::Horizontal, Qt::DisplayRole).toString(),
        speedupHeader);
    QVERIFY(panel->proxy()
                ->headerData(speedup, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .contains(QString::fromStdString(name)));
    // In view without scrolling, and each header read whole.
    QCOMPARE(panel->view()->horizontalScrollBar()->value(), 0);
    for (const int column : { roof, speedup }) {
        const QString text
            = panel->proxy()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        QVERIFY2(header->sectionSize(column) >= header->sectionSizeHint(column), qPrintable(text));
        QVERIFY2(header->sectionViewportPosition(column) + header->sectionSize(column)
                <= panel->view()->viewport()->width(),
            qPrintable(
                QStringLiteral("%1 ends at %2 of %3")
                    .arg(text)
                    .arg(header->sectionViewportPosition(column) + header->sectionSize(column))
                    .arg(panel->view()->viewport()->width())));
    }
    // The numbers are the model's (roof there ÷ roof here): a cell reads "×N".
    QVERIFY(panel->proxy()->index(0, speedup).data().toString().startsWith("×"));
}

QTEST_MAIN(TestMainWindowTables)
#include "tst_mainwindow_tables.moc"
