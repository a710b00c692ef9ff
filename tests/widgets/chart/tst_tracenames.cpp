// A profiler trace on the chart (issue 28): its points named by operator, as the Kernels table's
// Operator column writes it, with the shapes where the operator repeats and the point's number
// where those repeat too; never the kernel's "Kernel" (cutlass::Kernel<…>) or a bare number
// for want of a name. The legend groups the points by operator; a points file keeps its groups.
#include "tests/support/reader_test_support.h"
#include "tests/support/testmachine.h"

#include "core/io/formats/kineto_trace.h"
#include "core/io/readers.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/chart/tracenames.h"
#include "widgets/document/document.h"

#include <QTest>

using namespace ridgepoint;

class TestTraceNames : public QObject
{
    Q_OBJECT

private slots:
    void splitsAGroupAsTheTable_data();
    void splitsAGroupAsTheTable();
    void namesPointsByOperator_data();
    void namesPointsByOperator();
    void legendFollowsTheTrace();
    void fixtureReadsAsTheTable_data();
    void fixtureReadsAsTheTable();
};

namespace {

QStringList legendNames(const RooflinePlot &plot)
{
    QStringList names;
    for (int i = 0; i < plot.legend->itemCount(); ++i) {
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot.legend->item(i)))
            names << item->plottable()->name();
    }
    return names;
}

QString withoutSpaces(QString text)
{
    return text.remove(' ').remove('\n');
}

bool isNumber(const QString &text)
{
    bool ok = false;
    text.toInt(&ok);
    return ok;
}

} // namespace

void TestTraceNames::splitsAGroupAsTheTable_data()
{
    QTest::addColumn<QString>("group");
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("shapes");
    QTest::addColumn<QString>("dims");
    QTest::newRow("mm") << "aten::mm(float[64, 32], float[32, 16])"
                        << "aten::mm"
                        << "float[64, 32], float[32, 16]"
                        << "[64, 32], [32, 16]";
    QTest::newRow("scalar tensor") << "aten::add(c10::Half[8], float[])"
                                   << "aten::add"
                                   << "c10::Half[8], float[]"
                                   << "[8], []";
    QTest::newRow("no tensors") << "aten::ones()"
                                << "aten::ones"
                                << ""
                                << "";
    QTest::newRow("collective") << "record_param_comms: allreduce(Float[6637568], 2 ranks)"
                                << "record_param_comms: allreduce"
                                << "Float[6637568], 2 ranks"
                                << "[6637568], 2 ranks";
    QTest::newRow("collective without operator") << "allreduce"
                                                 << "allreduce"
                                                 << ""
                                                 << "";
    QTest::newRow("not closed") << "gemm (batch 1) x"
                                << "gemm (batch 1) x"
                                << ""
                                << "";
}

void TestTraceNames::splitsAGroupAsTheTable()
{
    QFETCH(QString, group);
    QFETCH(QString, op);
    QFETCH(QString, shapes);
    QFETCH(QString, dims);
    const auto [gotOp, gotShapes] = chart::operatorAndShapes(group.toStdString());
    QCOMPARE(QString::fromStdString(gotOp), op);
    QCOMPARE(QString::fromStdString(gotShapes), shapes);
    QCOMPARE(QString::fromUtf8(chart::traceOperator(group.toStdString())), op);
    QCOMPARE(chart::shapeDims(shapes), dims);
}

void TestTraceNames::namesPointsByOperator_data()
{
    QTest::addColumn<QStringList>("groups");
    QTest::addColumn<QStringList>("kernels");
    QTest::addColumn<QStringList>("names");
    const QString cutlass = "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm>(Params)";
    QTest::newRow("one point per operator")
        << QStringList { "aten::mm(float[64, 32], float[32, 16])", "aten::relu(float[4, 16])" }
        << QStringList { cutlass, "void at::native::vectorized_elementwise_kernel<4>(int)" }
        << QStringList { "aten::mm", "aten::relu" };
    // Points 1 and 3 share the operator: the shapes tell them apart; point 2 stays plain.
    QTest::newRow("operator repeats") << QStringList { "aten::bmm(float[8, 4, 2], float[8, 2, 4])",
        "aten::relu(float[4])", "aten::bmm(float[8, 4, 4], float[8, 4, 2])" }
                                      << QStringList { cutlass, "relu", cutlass }
                                      << QStringList { "aten::bmm [8, 4, 2], [8, 2, 4]",
                                             "aten::relu", "aten::bmm [8, 4, 4], [8, 4, 2]" };
    // One addmm call's two kernels (the GEMM and its split-K reduction) at points 2 and 3, and
    // shapes differing only in type at points 1 and 4: numbered, the key to the "#" column.
    QTest::newRow("shapes repeat")
        << QStringList { "aten::addmm(float[16], float[4, 8], float[8, 16])",
               "aten::addmm(float[16], float[2, 8], float[8, 16])",
               "aten::addmm(float[16], float[2, 8], float[8, 16])",
               "aten::addmm(c10::Half[16], c10::Half[4, 8], c10::Half[8, 16])" }
        << QStringList { cutlass, cutlass, "splitKreduce_kernel", cutlass }
        << QStringList { "aten::addmm [16], [4, 8], [8, 16] #1",
               "aten::addmm [16], [2, 8], [8, 16] #2", "aten::addmm [16], [2, 8], [8, 16] #3",
               "aten::addmm [16], [4, 8], [8, 16] #4" };
    // Collectives: two all-reduces of different messages, two kernels of one broadcast (the
    // NCCL fixture's groups).
    QTest::newRow("collective")
        << QStringList { "record_param_comms: allreduce(Float[6637568], 2 ranks)",
               "record_param_comms: allreduce(Float[2431040], 2 ranks)",
               "record_param_comms: broadcast(Long[53], 2 ranks)",
               "record_param_comms: broadcast(Long[53], 2 ranks)" }
        << QStringList { "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)",
               "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)",
               "ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclWorkElem)",
               "ncclDevKernel_Broadcast_RING_LL(ncclDevComm*)" }
        << QStringList { "record_param_comms: allreduce [6637568]",
               "record_param_comms: allreduce [2431040]", "record_param_comms: broadcast [53] #3",
               "record_param_comms: broadcast [53] #4" };
    // Group sizes that differ are kept: they tell the points apart.
    QTest::newRow("collective ranks differ")
        << QStringList { "record_param_comms: allgather(Float[64], 2 ranks)",
               "record_param_comms: allgather(Float[64], 8 ranks)" }
        << QStringList { "ncclDevKernel_AllGather_RING_LL(ncclDevComm*)",
               "ncclDevKernel_AllGather_RING_LL(ncclDevComm*)" }
        << QStringList { "record_param_comms: allgather [64], 2 ranks",
               "record_param_comms: allgather [64], 8 ranks" };
    QTest::newRow("no group") << QStringList { "", "aten::mm(float[2, 2], float[2, 2])" }
                              << QStringList { "void ns::daxpy<float>(float*)", cutlass }
                              << QStringList { "daxpy", "aten::mm" };
}

void TestTraceNames::namesPointsByOperator()
{
    QFETCH(QStringList, groups);
    QFETCH(QStringList, kernels);
    QFETCH(QStringList, names);
    QCOMPARE(chart::traceChartNames(groups, kernels), names);
}

void TestTraceNames::legendFollowsTheTrace()
{
    // As the window opens a trace: its points, then the trace (Document::setTrace), which has
    // the chart name and group them again by operator.
    auto read = readKinetoTrace(test::readTestData("traces/small/example.json"), "example.json");
    QVERIFY(read.trace);
    const std::vector<KernelPoint> points = read.points;
    RooflinePlot plot;
    plot.resize(1200, 800);
    plot.document()->resetHardware(test::machine());
    plot.document()->resetPoints(read.points);
    plot.document()->setTrace(std::move(*read.trace));
    plot.fitToData();
    plot.replot();
    QStringList names = legendNames(plot);
    QVERIFY2(names.contains("aten::addmm") && names.contains("aten::relu"),
        qPrintable(names.join(" | ")));
    QVERIFY(plot.inspect().pointLabels().contains("aten::addmm"));
    QVERIFY(!plot.inspect().pointLabels().contains("gemm_kernel"));
    // The same points without their trace (a points file): the groups and names they carry.
    plot.document()->resetPoints(points);
    plot.replot();
    names = legendNames(plot);
    QVERIFY2(
        names.contains(QString::fromStdString(points[0].group)), qPrintable(names.join(" | ")));
    QVERIFY(!names.contains("aten::addmm"));
    QVERIFY2(plot.inspect().pointLabels().contains("gemm_kernel"),
        qPrintable(plot.inspect().pointLabels().join(" | ")));
}

void TestTraceNames::fixtureReadsAsTheTable_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("legend"); // the named groups, then the fold, if any
    QTest::addColumn<QString>("label"); // one label the chart must show
    // Each operator's time summed from `analyze --json`'s points in Python (the operator: the
    // group up to its '('), ranked: the first eight named, the rest folded with their share of
    // the points' time (A100: 21 operators, 20.95 of 154.81 ms; V100: 9, 4.88 of 58.69 ms).
    QTest::newRow("A100") << "diff_control_a100.json.gz"
                          << QStringList { "aten::mm", "aten::addmm", "aten::bmm", "aten::add",
                                 "aten::mul", "aten::sum", "aten::add_",
                                 "aten::native_layer_norm_backward",
                                 "+ 21 more groups (13.5 % of time)" }
                          << "aten::bmm";
    QTest::newRow("V100") << "diff_test_v100.json.gz"
                          << QStringList { "aten::mm", "aten::addmm", "aten::add_", "aten::mul",
                                 "aten::sum", "aten::native_layer_norm_backward", "aten::div_",
                                 "aten::sigmoid_backward", "+ 9 more groups (8.3 % of time)" }
                          << "aten::addmm";
    // Ten operators: every one named, in the order they first appear.
    QTest::newRow("MI250") << "mi250_minitoy_train.json.gz"
                           << QStringList { "aten::addmm", "aten::clamp_min", "aten::mse_loss",
                                  "aten::mean", "aten::mse_loss_backward",
                                  "aten::threshold_backward", "aten::mm", "aten::sum", "aten::add_",
                                  "aten::_foreach_add_" }
                           << "aten::mm";
    QTest::newRow("NCCL") << "nccl_allreduce.json.gz"
                          << QStringList { "record_param_comms: allreduce",
                                 "record_param_comms: broadcast" }
                          << "record_param_comms: broadcast";
}

void TestTraceNames::fixtureReadsAsTheTable()
{
    QFETCH(QString, file);
    QFETCH(QStringList, legend);
    QFETCH(QString, label);
    auto read = readPointsFile(test::readTestData("traces/" + file.toStdString()), "f");
    QVERIFY(read.points.trace);
    auto machine = traceMachine(*read.points.trace);
    std::vector<KernelPoint> points = read.points.points;
    RooflinePlot plot;
    plot.resize(1600, 1000);
    plot.document()->resetHardware(machine ? *machine : test::machine());
    plot.document()->resetPoints(std::move(read.points.points));
    plot.document()->setTrace(std::move(*read.points.trace));
    plot.fitToData();
    plot.replot();
    // The legend: operators, no shapes.
    const QStringList names = legendNames(plot);
    const auto first = names.indexOf(legend.front());
    QVERIFY2(first >= 0, qPrintable(names.join(" | ")));
    QCOMPARE(names.mid(first, legend.size()), legend);
    // Every label names an operator of the table (or is a point's number, the key to its "#"
    // column); none is the kernel's shortened name.
    const QStringList labels = plot.inspect().pointLabels();
    QVERIFY(!labels.isEmpty());
    int named = 0;
    for (const QString &text : labels) {
        QVERIFY2(!text.contains("Kernel") && !text.contains("kernel"), qPrintable(text));
        if (isNumber(text)) {
            QVERIFY(text.toInt() >= 1 && static_cast<std::size_t>(text.toInt()) <= points.size());
            continue;
        }
        const bool ofTable = std::any_of(points.begin(), points.end(), [&](const KernelPoint &p) {
            const QString op = QString::fromStdString(chart::operatorAndShapes(p.group).first);
            return withoutSpaces(text).startsWith(withoutSpaces(op));
        });
        QVERIFY2(ofTable, qPrintable(text));
        ++named;
    }
    QVERIFY2(named > 0, qPrintable(labels.join(" | ")));
    QVERIFY2(std::any_of(labels.begin(), labels.end(),
                 [&](const QString &text) {
                     return withoutSpaces(text).startsWith(withoutSpaces(label));
                 }),
        qPrintable(labels.join(" | ")));
}

QTEST_MAIN(TestTraceNames)
#include "tst_tracenames.moc"
