// The doctor's other-machine guess in the window (Document::otherMachineFit): the built-in
// example, made on an H100, opened on an A100 is named as measured on the H100 in the table's
// Consistency column and in the point's tooltip; on the H100 itself nothing is guessed.
#include "core/presets/example_points.h"
#include "core/presets/presets.h"
#include "widgets/chart/charttooltip.h"
#include "widgets/document/document.h"
#include "widgets/models/pointstablemodel.h"

#include <QTest>
#include <QUndoStack>

using namespace ridgepoint;

namespace {

Hardware preset(const char *name)
{
    const PresetDatabase presets = PresetDatabase::builtin();
    const auto found = presets.find(name);
    return found ? **found : Hardware {};
}

} // namespace

class TestDocumentDoctor : public QObject
{
    Q_OBJECT

private slots:
    void exampleOnTheWrongMachine_data();
    void exampleOnTheWrongMachine();
    void forgetsTheGuessWhenTheMachineChanges();
};

void TestDocumentDoctor::exampleOnTheWrongMachine_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<QString>("guess"); // empty: none

    QTest::newRow("A100 80GB") << "A100 80GB"
                               << "NVIDIA H100 SXM5 80GB";
    QTest::newRow("A100 40GB") << "A100 40GB"
                               << "NVIDIA H100 SXM5 80GB";
    // On its own machine only the deliberately undercounted gather is impossible: one point
    // says nothing of the machine.
    QTest::newRow("H100 itself") << "H100"
                                 << "";
}

void TestDocumentDoctor::exampleOnTheWrongMachine()
{
    QFETCH(QString, machine);
    QFETCH(QString, guess);

    Document document;
    document.resetHardware(preset(machine.toUtf8().constData()));
    QVERIFY(!document.hardware().name.empty());
    document.resetPoints(examplePoints());
    const MachineFit *fit = document.otherMachineFit();
    if (guess.isEmpty()) {
        QVERIFY2(!fit, fit ? fit->machine.c_str() : "");
        return;
    }
    QVERIFY(fit);
    QCOMPARE(QString::fromStdString(fit->machine), guess);
    QVERIFY(fit->fitted * 4 >= fit->impossible * 3);

    // Every impossible point that fits the guess says so first, in the table and the tooltip.
    PointsTableModel model(&document);
    std::size_t named = 0;
    for (std::size_t i = 0; i < document.pointCount(); ++i) {
        const auto &a = document.analysis(i);
        if (!a || a->consistent)
            continue;
        const QString cell
            = model.data(model.index(static_cast<int>(i), PointsTableModel::Consistency))
                  .toString();
        const QString tooltip = chart::ChartTooltip::describe(document, i);
        if (document.otherMachineDiagnosis(i)) {
            ++named;
            QCOMPARE(cell, "faster than the roof: measured on " + guess + "?");
            QVERIFY2(tooltip.contains("likely: measured on " + guess + "?"), qPrintable(tooltip));
        } else {
            QVERIFY2(!cell.contains("measured on"), qPrintable(cell));
        }
    }
    QCOMPARE(named, fit->fitted);
}

void TestDocumentDoctor::forgetsTheGuessWhenTheMachineChanges()
{
    Document document;
    document.resetHardware(preset("A100 80GB"));
    document.resetPoints(examplePoints());
    QVERIFY(document.otherMachineFit());
    document.selectHardware(preset("H100"));
    QVERIFY(!document.otherMachineFit());
    document.undoStack()->undo(); // back on the A100: the guess is found again
    QVERIFY(document.otherMachineFit());
}

QTEST_MAIN(TestDocumentDoctor)
#include "tst_documentdoctor.moc"
