// A point dragged with the mouse: after the first step lays the chart out, each step draws the
// dragged point's layer alone (no full replot), and the window shows the point where a full
// replot would draw it, with its label placed.
#include "tests/support/testmachine.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"

#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>

using namespace ridgepoint;

namespace {

void send(QWidget *widget, QEvent::Type type, QPointF at, Qt::MouseButton button,
    Qt::MouseButtons buttons)
{
    QMouseEvent event(type, at, widget->mapToGlobal(at), button, buttons, {});
    QCoreApplication::sendEvent(widget, &event);
}

// The pixels of `image` in a square of `half` pixels each way around `at` (logical pixels).
QImage around(const QImage &image, QPointF at, int half)
{
    const double ratio = image.devicePixelRatio();
    return image.copy(QRect(QPoint(int((at.x() - half) * ratio), int((at.y() - half) * ratio)),
        QSize(int(2 * half * ratio), int(2 * half * ratio))));
}

} // namespace

class TestDragPaint : public QObject
{
    Q_OBJECT

private slots:
    void stepsDrawTheDraggedLayerAlone_data()
    {
        QTest::addColumn<int>("point");
        QTest::addColumn<QPointF>("move"); // pixels per step
        QTest::newRow("stream, right") << 0 << QPointF(20, 0);
        QTest::newRow("gemm, down") << 1 << QPointF(0, 15);
        QTest::newRow("stencil, up and left") << 2 << QPointF(-12, -10);
    }

    void stepsDrawTheDraggedLayerAlone()
    {
        QFETCH(int, point);
        QFETCH(QPointF, move);
        Document doc;
        doc.resetHardware(test::machine());
        doc.resetPoints(test::points());
        RooflinePlot plot;
        plot.setDocument(&doc);
        plot.resize(900, 600);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.replot();
        QSignalSpy replots(&plot, &QCustomPlot::afterReplot);
        const auto index = static_cast<std::size_t>(point);
        QPointF at = plot.pointPosition(index);
        send(&plot, QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton);
        at += move;
        send(&plot, QEvent::MouseMove, at, Qt::NoButton, Qt::LeftButton);
        QVERIFY(plot.inspect().isDragging());
        const auto laidOut = replots.size(); // the first step lays the chart out
        QVERIFY(laidOut >= 1);
        for (int step = 0; step < 3; ++step) {
            at += move;
            send(&plot, QEvent::MouseMove, at, Qt::NoButton, Qt::LeftButton);
        }
        QCOMPARE(replots.size(), laidOut); // no full replot after the first step
        QVERIFY(!doc.whatIf(index).isIdentity());
        const QPointF dot = plot.pointPosition(index);
        QVERIFY(std::abs(dot.x() - at.x()) < 2.0 && std::abs(dot.y() - at.y()) < 2.0);
        // The dragged point's label is shown (placed in the room the last layout left).
        const QString name = QString::fromStdString(doc.measuredPoint(index).name);
        QVERIFY2(plot.inspect().pointLabels().join('|').contains(name),
            qPrintable(plot.inspect().pointLabels().join('|')));
        const QImage fast = plot.grab().toImage();
        // A full replot draws the dot where the step drew it.
        plot.replot();
        const QImage full = plot.grab().toImage();
        QCOMPARE(around(fast, dot, 7), around(full, dot, 7));
        send(&plot, QEvent::MouseButtonRelease, at, Qt::LeftButton, Qt::NoButton);
        QVERIFY(!plot.inspect().isDragging());
    }
};

QTEST_MAIN(TestDragPaint)
#include "tst_dragpaint.moc"
