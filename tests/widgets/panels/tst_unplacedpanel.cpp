// A profiler trace in the Kernels panel, with the real widgets: the table's Operator, Shapes and
// Launches columns and, beside it, the kernels the trace could not place with their share of
// the GPU time; both go when the points are replaced by others.
#include "core/io/formats/kineto_trace.h"
#include "tests/support/testmachine.h"
#include "widgets/document/document.h"
#include "widgets/models/pointstablemodel.h"
#include "widgets/panels/pointspanel.h"
#include "widgets/panels/unplacedpanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QTest>

#include <memory>

using namespace ridgepoint;

class TestUnplacedPanel : public QObject
{
    Q_OBJECT

private slots:
    void showsTheTracesColumnsAndUnplacedKernels_data();
    void showsTheTracesColumnsAndUnplacedKernels();
    void forgetsTheTraceWithItsPoints();
    void keepsTheReasonInSight();
};

namespace {

// Two launches of one mm call (3 µs each: one point), a kernel without a launch (6 µs) and one
// under an operator with no model (2 µs): 14 µs of GPU time, 6 placed.
const char *const kTrace = R"({"schemaVersion": 1, "deviceProperties": [{"name": "X"}],
"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 20,
 "args": {"Input Dims": [[64, 32], [32, 16]], "Input type": ["float", "float"]}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 101,
 "dur": 2, "args": {"correlation": 1}},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 110, "dur": 3,
 "args": {"correlation": 1}},
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 200, "dur": 20,
 "args": {"Input Dims": [[64, 32], [32, 16]], "Input type": ["float", "float"]}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 201,
 "dur": 2, "args": {"correlation": 2}},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 210, "dur": 3,
 "args": {"correlation": 2}},
{"ph": "X", "cat": "kernel", "name": "replayed", "pid": 0, "tid": 7, "ts": 300, "dur": 6,
 "args": {"correlation": 99}},
{"ph": "X", "cat": "cpu_op", "name": "aten::nonzero", "pid": 1, "tid": 1, "ts": 400, "dur": 20,
 "args": {"Input Dims": [[64], [], []], "Input type": ["float", "Scalar", "Scalar"]}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 401,
 "dur": 2, "args": {"correlation": 3}},
{"ph": "X", "cat": "kernel", "name": "nonzero_kernel", "pid": 0, "tid": 7, "ts": 410, "dur": 2,
 "args": {"correlation": 3}}
]})";

struct Window {
    std::unique_ptr<QWidget> top = std::make_unique<QWidget>();
    Document *document = new Document(top.get());
    PointsPanel *panel = nullptr;
};

std::unique_ptr<Window> windowWithTrace()
{
    auto w = std::make_unique<Window>();
    auto read = readKinetoTrace(kTrace, "t.json");
    w->document->resetHardware(test::machine());
    w->document->resetPoints(std::move(read.points));
    w->document->setTrace(std::move(*read.trace));
    w->panel = new PointsPanel(w->document, w->top.get());
    w->top->resize(1400, 500);
    w->panel->resize(1400, 500);
    w->top->show();
    return w;
}

QString cellText(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text() : QString();
}

} // namespace

void TestUnplacedPanel::showsTheTracesColumnsAndUnplacedKernels_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("time");
    QTest::addColumn<QString>("share"); // of 14 µs, by hand
    QTest::addColumn<QString>("reason");
    QTest::newRow("no launch") << 0 << "replayed"
                               << "6 us"
                               << "42.9 %"
                               << "no launch in the trace";
    QTest::newRow("no model") << 1 << "nonzero_kernel"
                              << "2 us"
                              << "14.3 %"
                              << "operator aten::nonzero has no model yet";
}

void TestUnplacedPanel::showsTheTracesColumnsAndUnplacedKernels()
{
    QFETCH(int, row);
    QFETCH(QString, name);
    QFETCH(QString, time);
    QFETCH(QString, share);
    QFETCH(QString, reason);
    auto w = windowWithTrace();
    QVERIFY(QTest::qWaitForWindowExposed(w->top.get()));
    // The table: one point (the two gemm launches), its operator, shapes and launches.
    PointsTableModel *model = w->panel->model();
    QCOMPARE(model->rowCount(), 1);
    const int op = model->columnOf(PointsTableModel::Operator);
    QVERIFY(op > 0);
    QCOMPARE(model->headerData(op, Qt::Horizontal, Qt::DisplayRole).toString(), "Operator");
    QCOMPARE(model->index(0, op).data().toString(), "aten::mm");
    QCOMPARE(model->index(0, model->columnOf(PointsTableModel::Shapes)).data().toString(),
        "float[64, 32], float[32, 16]");
    QCOMPARE(model->index(0, model->columnOf(PointsTableModel::Launches)).data().toString(), "2");
    // Beside it, the unplaced kernels, largest first, with 6 of 14 µs placed (42.9 %).
    UnplacedPanel *unplaced = w->panel->unplaced();
    QVERIFY(unplaced->isVisible());
    const auto *summary = unplaced->findChild<QLabel *>("unplacedSummary");
    QCOMPARE(summary->text(),
        "Placed 42.9 % of 14 us of GPU time (4 kernels); not placed, largest first:");
    const auto *table = unplaced->findChild<QTableWidget *>("unplacedTable");
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(cellText(table, row, UnplacedPanel::Kernel), name);
    QCOMPARE(cellText(table, row, UnplacedPanel::Time), time);
    QCOMPARE(cellText(table, row, UnplacedPanel::Share), share);
    QCOMPARE(cellText(table, row, UnplacedPanel::Launches), "1");
    QVERIFY2(cellText(table, row, UnplacedPanel::Reason).startsWith(reason),
        qPrintable(cellText(table, row, UnplacedPanel::Reason)));
    // Laid out beside the table, not over it.
    QVERIFY(unplaced->width() > 0 && w->panel->view()->width() > 0);
    QVERIFY(!unplaced->geometry().intersects(w->panel->view()->geometry()));
}

void TestUnplacedPanel::forgetsTheTraceWithItsPoints()
{
    auto w = windowWithTrace();
    QVERIFY(QTest::qWaitForWindowExposed(w->top.get()));
    const int columns = w->panel->model()->columnCount();
    w->document->resetPoints(test::points());
    QCOMPARE(w->panel->model()->columnOf(PointsTableModel::Operator), -1);
    QCOMPARE(w->panel->model()->columnCount(), columns - 3);
    QVERIFY(!w->panel->unplaced()->isVisible());
    QVERIFY(!w->document->trace());
}

// The A100 fixture's second largest unplaced kernel has a 1,800-character signature; beside the
// Kernels table of a 1600-pixel window the pane is about 620 pixels wide. Its name is elided so
// that the reason, what the reader acts on, is in sight without scrolling.
void TestUnplacedPanel::keepsTheReasonInSight()
{
    Document document;
    TraceSummary trace;
    trace.gpuSeconds = 1.0;
    trace.kernels = 1;
    const std::string name = "void split_embedding_backward_codegen_rowwise_adagrad_unweighted_"
                             "kernel_cta_per_row_1<float, float, float, 2ul>("
        + std::string(1700, 'x') + ")";
    trace.unplaced.push_back(
        { name, 0.5, 6, "operator CppNode<SplitLookupFunction> has no model" });
    document.setTrace(std::move(trace));
    UnplacedPanel panel(&document);
    panel.resize(620, 200);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const auto *table = panel.findChild<QTableWidget *>("unplacedTable");
    const int reasonAt = table->horizontalHeader()->sectionViewportPosition(UnplacedPanel::Reason);
    QVERIFY2(reasonAt + 100 <= table->viewport()->width(),
        qPrintable(QString("the reason starts at %1 of %2 pixels")
                       .arg(reasonAt)
                       .arg(table->viewport()->width())));
    QCOMPARE(table->item(0, UnplacedPanel::Kernel)->toolTip(), QString::fromStdString(name));
}

QTEST_MAIN(TestUnplacedPanel)
#include "tst_unplacedpanel.moc"
