// The chart's review layers driven with real mouse events (issue 4): a baseline run joined to
// the current points by arrows labelled with the speed-up, notes and targets added from the
// right-click menu, notes that follow a dragged point, undo of all of it, and exports that
// carry them.
#include "tests/support/testmachine.h"

#include "widgets/chart/reviewoverlay.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/chartexporter.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QInputDialog>
#include <QMenu>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <cmath>
#include <functional>

using namespace ridgepoint;

namespace {

void send(QWidget *widget, QEvent::Type type, QPointF at, Qt::MouseButton button,
    Qt::MouseButtons buttons)
{
    QMouseEvent event(type, at, widget->mapToGlobal(at), button, buttons, {});
    QCoreApplication::sendEvent(widget, &event);
}

void drag(QWidget *widget, QPointF from, QPointF to)
{
    send(widget, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    for (int step = 1; step <= 4; ++step)
        send(widget, QEvent::MouseMove, from + (to - from) * step / 4.0, Qt::NoButton,
            Qt::LeftButton);
    send(widget, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
}

// Answers the next modal dialog (QInputDialog, the target dialog) once it is up.
void answerNextDialog(std::function<void(QDialog *)> answer)
{
    auto poll = std::make_shared<std::function<void()>>();
    *poll = [answer, poll] {
        if (auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget())) {
            answer(dialog);
            return;
        }
        QTimer::singleShot(10, *poll);
    };
    QTimer::singleShot(0, *poll);
}

void answerText(const QString &text)
{
    answerNextDialog([text](QDialog *dialog) {
        auto *input = qobject_cast<QInputDialog *>(dialog);
        QVERIFY(input);
        input->setTextValue(text);
        input->accept();
    });
}

bool near(QPointF a, QPointF b)
{
    return std::fabs(a.x() / b.x() - 1.0) < 1e-9 && std::fabs(a.y() / b.y() - 1.0) < 1e-9;
}

} // namespace

class TestReviewOverlay : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void joinsBaselineToCurrentPointsWithTheSpeedup_data();
    void joinsBaselineToCurrentPointsWithTheSpeedup();
    void unpairedBaselinePointsAreOnlyFaint();
    void clearingTheBaselineIsUndoable();
    void rightClickOnAPointAddsANoteThatFollowsItsDrags();
    void rightClickElsewhereAddsANoteThere();
    void editsAndRemovesANoteFromItsMenu();
    void addsATargetUnderAChosenRoof();
    void exportsCarryArrowsNotesAndTargets();

private:
    // Right-clicks at `at` and returns the context menu that opened.
    QMenu *rightClick(QPointF at);
    QAction *action(QMenu *menu, const char *name);

    Document *m_document = nullptr;
    RooflinePlot *m_plot = nullptr;
    ReviewOverlay *m_overlay = nullptr;
};

void TestReviewOverlay::init()
{
    m_document = new Document;
    m_document->resetHardware(test::machine());
    m_document->resetPoints(test::points());
    m_plot = new RooflinePlot;
    m_plot->setDocument(m_document);
    m_overlay = new ReviewOverlay(m_plot, m_document);
    m_plot->resize(900, 650);
    m_plot->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_plot));
    m_plot->resetToHardwareFrame();
    m_plot->replot();
}

void TestReviewOverlay::cleanup()
{
    delete m_plot;
    delete m_document;
}

QMenu *TestReviewOverlay::rightClick(QPointF at)
{
    // The right button, then the context-menu event the window system sends after it (QTest's
    // synthetic clicks do not go through the platform that would).
    QTest::mouseClick(m_plot, Qt::RightButton, {}, at.toPoint());
    QContextMenuEvent event(
        QContextMenuEvent::Mouse, at.toPoint(), m_plot->mapToGlobal(at.toPoint()));
    QCoreApplication::sendEvent(m_plot, &event);
    QMenu *menu = nullptr;
    [&] { QTRY_VERIFY((menu = qobject_cast<QMenu *>(QApplication::activePopupWidget()))); }();
    return menu;
}

QAction *TestReviewOverlay::action(QMenu *menu, const char *name)
{
    QAction *found = menu ? menu->findChild<QAction *>(name) : nullptr;
    if (!found)
        qWarning("no action %s in the context menu", name);
    return found;
}

void TestReviewOverlay::joinsBaselineToCurrentPointsWithTheSpeedup_data()
{
    QTest::addColumn<double>("baselineSeconds"); // of "gemm", measured now in 2 s; 0: rate only
    QTest::addColumn<double>("baselineRate");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("formula");

    QTest::newRow("twice as fast") << 4.0 << 0.0 << "×2"
                                   << "baseline time ÷ current time";
    QTest::newRow("slower") << 1.0 << 0.0 << "×0.5"
                            << "baseline time ÷ current time";
    QTest::newRow("odd ratio") << 3.0 << 0.0 << "×1.5"
                               << "baseline time ÷ current time";
    // 500 GFLOP/s now over 200 GFLOP/s then.
    QTest::newRow("baseline rate only") << 0.0 << 2e11 << "×2.5"
                                        << "current FLOP/s ÷ baseline FLOP/s";
}

void TestReviewOverlay::joinsBaselineToCurrentPointsWithTheSpeedup()
{
    QFETCH(double, baselineSeconds);
    QFETCH(double, baselineRate);
    QFETCH(QString, label);
    QFETCH(QString, formula);
    KernelPoint before = test::point("gemm", "math", 1e12, 1e10, baselineSeconds);
    if (baselineSeconds == 0.0) {
        before.seconds.reset();
        before.measuredRate = baselineRate;
    }
    m_document->setBaseline(Baseline { "old.csv", { before } });
    const auto arrows = m_overlay->baselineArrows();
    QCOMPARE(arrows.size(), std::size_t(1));
    QCOMPARE(arrows[0].label, label);
    QVERIFY2(arrows[0].tooltip.contains(formula), qPrintable(arrows[0].tooltip));
    // From the baseline's place to gemm's: same intensity (100 FLOP/B), its old rate.
    const double oldRate = baselineSeconds > 0.0 ? 1e12 / baselineSeconds : baselineRate;
    QVERIFY(near(arrows[0].from, QPointF(100.0, oldRate)));
    QVERIFY(near(arrows[0].to, *m_plot->pointCoords(1)));
}

void TestReviewOverlay::unpairedBaselinePointsAreOnlyFaint()
{
    m_document->setBaseline(Baseline { "old.csv",
        { test::point("gemm", "math", 1e12, 1e10, 4.0),
            test::point("retired kernel", "", 1e9, 1e9, 0.1) } });
    QCOMPARE(m_overlay->baselinePoints().size(), std::size_t(2));
    QCOMPARE(m_overlay->baselineArrows().size(), std::size_t(1));
    // The faint points are drawn (a graph on the baseline layer, named in the legend).
    bool found = false;
    for (int i = 0; i < m_plot->graphCount(); ++i)
        found |= m_plot->graph(i)->name() == "baseline (old.csv)"
            && m_plot->graph(i)->dataCount() == 2;
    QVERIFY(found);
}

void TestReviewOverlay::clearingTheBaselineIsUndoable()
{
    m_document->setBaseline(
        Baseline { "old.csv", { test::point("gemm", "math", 1e12, 1e10, 4.0) } });
    m_document->setBaseline(std::nullopt);
    QVERIFY(m_overlay->baselineArrows().empty());
    QVERIFY(m_overlay->baselinePoints().empty());
    m_document->undoStack()->undo();
    QCOMPARE(m_overlay->baselineArrows().size(), std::size_t(1));
    m_document->undoStack()->undo();
    QVERIFY(m_overlay->baselineArrows().empty());
}

void TestReviewOverlay::rightClickOnAPointAddsANoteThatFollowsItsDrags()
{
    const QPointF gemm = m_plot->pointPosition(1);
    QMenu *menu = rightClick(gemm);
    QVERIFY(menu);
    QVERIFY(!menu->findChild<QAction *>("editNote")); // nothing to edit yet
    QAction *add = action(menu, "addNoteToPoint");
    QVERIFY(add);
    QCOMPARE(add->text(), QString("Add note to gemm…"));
    answerText("tiling halves the traffic");
    add->trigger();
    menu->close();
    QCOMPARE(m_document->annotations().size(), std::size_t(1));
    QCOMPARE(m_document->annotations()[0].point, std::string("gemm"));
    QCOMPARE(m_document->annotations()[0].text, std::string("tiling halves the traffic"));
    auto notes = m_overlay->notes();
    QCOMPARE(notes.size(), std::size_t(1));
    const QPointF before = *m_plot->pointCoords(1);
    QVERIFY(near(notes[0].at, before));

    // Drag gemm up and left: the note goes with it.
    m_plot->replot();
    drag(m_plot, m_plot->pointPosition(1), m_plot->pointPosition(1) + QPointF(-60, -40));
    const QPointF after = *m_plot->pointCoords(1);
    QVERIFY(!near(after, before));
    notes = m_overlay->notes();
    QVERIFY(near(notes[0].at, after));

    // Undo the drag: back where it was; undo the note: gone.
    m_document->undoStack()->undo();
    QVERIFY(near(m_overlay->notes()[0].at, before));
    m_document->undoStack()->undo();
    QVERIFY(m_overlay->notes().empty());
}

void TestReviewOverlay::rightClickElsewhereAddsANoteThere()
{
    const QPointF at(m_plot->xAxis->coordToPixel(0.05), m_plot->yAxis->coordToPixel(5e11));
    QMenu *menu = rightClick(at);
    QVERIFY(menu);
    QVERIFY(!menu->findChild<QAction *>("addNoteToPoint")); // no point under the cursor
    answerText("nothing runs here");
    QVERIFY(action(menu, "addNoteHere"));
    action(menu, "addNoteHere")->trigger();
    menu->close();
    QCOMPARE(m_document->annotations().size(), std::size_t(1));
    const auto &note = m_document->annotations()[0];
    QVERIFY(note.point.empty());
    QVERIFY(std::fabs(m_plot->xAxis->coordToPixel(note.x) - at.x()) < 1.0);
    QVERIFY(std::fabs(m_plot->yAxis->coordToPixel(note.y) - at.y()) < 1.0);
    QCOMPARE(m_document->undoStack()->undoText(), QString("Add note"));
}

void TestReviewOverlay::editsAndRemovesANoteFromItsMenu()
{
    m_document->setAnnotations({ { "first", "", 0.05, 5e11 } }, "Add note");
    m_plot->replot();
    // On the note's anchor.
    const QPointF at(m_plot->xAxis->coordToPixel(0.05), m_plot->yAxis->coordToPixel(5e11));
    QMenu *menu = rightClick(at);
    QVERIFY(action(menu, "editNote"));
    answerText("second");
    QVERIFY(action(menu, "editNote"));
    action(menu, "editNote")->trigger();
    menu->close();
    QCOMPARE(m_overlay->notes()[0].text, QString("second"));

    menu = rightClick(at);
    QVERIFY(action(menu, "removeNote"));
    action(menu, "removeNote")->trigger();
    menu->close();
    QVERIFY(m_document->annotations().empty());
    QVERIFY(m_overlay->notes().empty());
    m_document->undoStack()->undo();
    QCOMPARE(m_overlay->notes()[0].text, QString("second"));
}

void TestReviewOverlay::addsATargetUnderAChosenRoof()
{
    QMenu *menu
        = rightClick(QPointF(m_plot->xAxis->coordToPixel(0.05), m_plot->yAxis->coordToPixel(5e11)));
    answerNextDialog([](QDialog *dialog) {
        auto *roof = dialog->findChild<QComboBox *>("targetRoof");
        auto *percent = dialog->findChild<QSpinBox *>("targetPercent");
        QVERIFY(roof && percent);
        roof->setCurrentIndex(roof->findData("DRAM"));
        percent->setValue(60);
        dialog->accept();
    });
    QVERIFY(action(menu, "addTarget"));
    action(menu, "addTarget")->trigger();
    menu->close();
    QCOMPARE(m_document->targets().size(), std::size_t(1));
    QCOMPARE(m_document->targets()[0], (TargetMarker { "DRAM", 0.6, "" }));
    QCOMPARE(m_overlay->targetLabels(), QStringList { "goal: 60 % of DRAM" });

    // Right-click on the dashed line (60 % of 100 GB/s at 1 FLOP/B = 60 GFLOP/s).
    m_plot->replot();
    const QPointF onLine(m_plot->xAxis->coordToPixel(1.0), m_plot->yAxis->coordToPixel(6e10));
    menu = rightClick(onLine);
    QVERIFY(action(menu, "removeTarget"));
    action(menu, "removeTarget")->trigger();
    menu->close();
    QVERIFY(m_overlay->targetLabels().isEmpty());
    m_document->undoStack()->undo();
    QCOMPARE(m_overlay->targetLabels(), QStringList { "goal: 60 % of DRAM" });
}

void TestReviewOverlay::exportsCarryArrowsNotesAndTargets()
{
    m_document->setBaseline(
        Baseline { "old.csv", { test::point("gemm", "math", 1e12, 1e10, 4.0) } });
    m_document->setAnnotations({ { "review me", "stream", 0.0, 0.0 } }, "Add note");
    m_document->setTargets({ { "FP32 vector", 0.5, "" } }, "Add target");
    QTemporaryDir dir;
    const QString svg = dir.filePath("chart.svg");
    QCOMPARE(ChartExporter(*m_plot).exportTo(svg, 1200, 800), QString());
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    for (const char *expected :
        { "×2", "review me", "goal: 50 % of FP32 vector", "baseline (old.csv)" })
        QVERIFY2(text.contains(QString::fromUtf8(expected)), expected);
}

QTEST_MAIN(TestReviewOverlay)
#include "tst_reviewoverlay.moc"
