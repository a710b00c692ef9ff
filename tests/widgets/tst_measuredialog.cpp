// The measuring dialog: a short real run fills the curve and hands over a machine; Cancel and
// closing stop the worker within the bound the core promises.
#include "widgets/document.h"
#include "widgets/hardwarepanel.h"
#include "widgets/measuredialog.h"

#include <QComboBox>

#include <QElapsedTimer>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <qcustomplot.h>

using namespace ridgepoint;

class TestMeasureDialog : public QObject
{
    Q_OBJECT

private slots:
    void measuresAndHandsOverAMachine();
    void cancelStopsTheWorker_data();
    void cancelStopsTheWorker();
    void closingWhileMeasuringIsSafe();
    void measuredMachineJoinsThePicker();
};

namespace {

MeasureOptions shortRun()
{
    MeasureOptions options;
    options.budgetSeconds = 1.0;
    options.maxWorkingSet = 4 * 1024 * 1024;
    options.pointsPerOctave = 2;
    return options;
}

int plottedPoints(QCustomPlot *plot)
{
    int points = 0;
    for (int i = 0; i < plot->graphCount(); ++i)
        points += plot->graph(i)->dataCount();
    return points;
}

} // namespace

void TestMeasureDialog::measuresAndHandsOverAMachine()
{
    MeasureDialog dialog(shortRun());
    QSignalSpy finished(&dialog, &MeasureDialog::measurementFinished);
    QVERIFY(!dialog.acceptButton()->isEnabled());
    dialog.start();
    QVERIFY(dialog.isRunning());
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.first().first().toBool(), true);
    QVERIFY(!dialog.isRunning());
    QVERIFY(dialog.result());
    QVERIFY(validateHardware(dialog.result()->hardware).empty());
    // The live curve got every sample: one graph per kernel and thread count.
    QCOMPARE(
        plottedPoints(dialog.plot()), static_cast<int>(dialog.result()->measurement.sweep.size()));
    QVERIFY(dialog.plot()->graphCount() >= 3);
    QCOMPARE(dialog.progressBar()->value(), dialog.progressBar()->maximum());
    QVERIFY(dialog.acceptButton()->isEnabled());
}

void TestMeasureDialog::cancelStopsTheWorker_data()
{
    QTest::addColumn<bool>("byButton");
    QTest::newRow("Cancel button") << true;
    QTest::newRow("cancel()") << false;
}

void TestMeasureDialog::cancelStopsTheWorker()
{
    QFETCH(bool, byButton);
    MeasureOptions options;
    options.budgetSeconds = 60.0;
    MeasureDialog dialog(options);
    QSignalSpy finished(&dialog, &MeasureDialog::measurementFinished);
    dialog.show(); // showing starts the measurement
    QVERIFY(dialog.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(plottedPoints(dialog.plot()) > 2, 20000);
    QElapsedTimer clock;
    clock.start();
    if (byButton)
        QTest::mouseClick(dialog.cancelButton(), Qt::LeftButton);
    else
        dialog.cancel();
    QVERIFY(finished.wait(5000));
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY(!dialog.result());
    QCOMPARE(dialog.errorText(), QString("cancelled"));
    if (byButton) // Cancel closes the dialog once the worker has stopped
        QVERIFY(!dialog.isVisible());
}

void TestMeasureDialog::closingWhileMeasuringIsSafe()
{
    MeasureOptions options;
    options.budgetSeconds = 60.0;
    QElapsedTimer clock;
    {
        MeasureDialog dialog(options);
        dialog.start();
        QTest::qWait(200);
        clock.start();
    } // the destructor cancels and joins the worker
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    QTest::qWait(50); // queued calls for the dead dialog are dropped, not run
}

void TestMeasureDialog::measuredMachineJoinsThePicker()
{
    // What Hardware > Measure this machine does with the dialog's result.
    MeasureDialog dialog(shortRun());
    QSignalSpy finished(&dialog, &MeasureDialog::measurementFinished);
    dialog.start();
    QVERIFY(finished.wait(20000));
    QVERIFY(dialog.result());
    const Hardware &measured = dialog.result()->hardware;

    Document document;
    HardwarePanel panel(&document, { makeSimpleMachine(1e12, 1e11) });
    const int before = panel.presetBox()->count();
    panel.addMachine(measured);
    document.selectHardware(measured);
    QCOMPARE(panel.presetBox()->count(), before + 1);
    QCOMPARE(panel.presetBox()->currentText(), QString::fromStdString(measured.name));
    QCOMPARE(panel.compareBox()->findText(QString::fromStdString(measured.name)), before + 1);
    panel.addMachine(measured); // again: replaced, not listed twice
    QCOMPARE(panel.presetBox()->count(), before + 1);
    QCOMPARE(document.hardware().name, measured.name);
}

QTEST_MAIN(TestMeasureDialog)
#include "tst_measuredialog.moc"
