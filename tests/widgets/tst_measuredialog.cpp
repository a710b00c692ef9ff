// The measuring dialog: a short real run fills the curve and hands over a machine; Cancel and
// closing stop the worker within the bound the core promises.
#include "widgets/measuredialog.h"

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

QTEST_MAIN(TestMeasureDialog)
#include "tst_measuredialog.moc"
