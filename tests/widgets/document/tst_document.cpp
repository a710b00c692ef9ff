// Document: undoable edits, drag merging, cancelling, the "Custom (from …)" rename.
#include "core/presets/presets.h"
#include "tests/support/testmachine.h"
#include "widgets/document/document.h"

#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include <algorithm>

using namespace ridgepoint;

class TestDocument : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        doc = std::make_unique<Document>();
        doc->resetHardware(test::machine());
        doc->resetPoints(test::points());
    }

    void whatIfScalesBytesAndTime_data()
    {
        QTest::addColumn<double>("bytesFactor");
        QTest::addColumn<double>("timeFactor");
        QTest::addColumn<double>("intensity");
        QTest::addColumn<double>("performance");
        QTest::newRow("identity") << 1.0 << 1.0 << 1.0 << 5e10;
        QTest::newRow("half the bytes") << 0.5 << 1.0 << 2.0 << 5e10;
        QTest::newRow("half the time") << 1.0 << 0.5 << 1.0 << 1e11;
        QTest::newRow("both") << 0.1 << 0.25 << 10.0 << 2e11;
    }

    void whatIfScalesBytesAndTime()
    {
        QFETCH(double, bytesFactor);
        QFETCH(double, timeFactor);
        QFETCH(double, intensity);
        QFETCH(double, performance);
        doc->setWhatIf(0, { bytesFactor, timeFactor });
        const auto &a = doc->analysis(0);
        QVERIFY(a.has_value());
        QCOMPARE(a->levels.front().intensity, intensity);
        QCOMPARE(*a->performance, performance);
        QCOMPARE(doc->point(0).flops, 1e9); // FLOPs never move
        QCOMPARE(doc->measuredPoint(0).bytes.front().bytes, 1e9);
    }

    void whatIfMovesAPointKnownByIntensities_data()
    {
        QTest::addColumn<double>("bytesFactor");
        QTest::addColumn<double>("timeFactor");
        QTest::addColumn<double>("dramIntensity");
        QTest::addColumn<double>("l2Intensity");
        QTest::addColumn<double>("performance");
        // Measured: I_DRAM = 2, I_L2 = 0.5 FLOP/B at 80 GFLOP/s, and no counts (a NERSC text
        // file's point). Fewer bytes is a higher intensity; less time a higher rate.
        QTest::newRow("identity") << 1.0 << 1.0 << 2.0 << 0.5 << 8e10;
        QTest::newRow("a quarter of the bytes") << 0.25 << 1.0 << 8.0 << 2.0 << 8e10;
        QTest::newRow("half the time") << 1.0 << 0.5 << 2.0 << 0.5 << 1.6e11;
    }

    void whatIfMovesAPointKnownByIntensities()
    {
        QFETCH(double, bytesFactor);
        QFETCH(double, timeFactor);
        QFETCH(double, dramIntensity);
        QFETCH(double, l2Intensity);
        QFETCH(double, performance);
        KernelPoint p;
        p.name = "nersc";
        p.intensity = 2.0;
        p.levelIntensities = { { MemoryLevel::L2, 0.5 } };
        p.measuredRate = 8e10;
        doc->resetPoints({ p });
        doc->setWhatIf(0, { bytesFactor, timeFactor });
        const auto &a = doc->analysis(0);
        QVERIFY(a.has_value());
        QCOMPARE(a->levels.size(), std::size_t { 2 });
        QCOMPARE(a->levels[0].intensity, dramIntensity);
        QCOMPARE(a->levels[1].intensity, l2Intensity);
        QCOMPARE(*a->performance, performance);
        // min(1e12, 1e11 · I_DRAM, 1e12 · I_L2)
        QCOMPARE(a->attainable, std::min({ 1e12, 1e11 * dramIntensity, 1e12 * l2Intensity }));
        QCOMPARE(*doc->measuredPoint(0).intensity, 2.0); // the measurement is kept
    }

    void whatIfIsOneUndoStepAndUndoRestores()
    {
        QSignalSpy changed(doc.get(), &Document::pointsChanged);
        doc->setWhatIf(0, { 0.05, 1.0 });
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(doc->analysis(0)->bound, Bound::Compute); // I = 20 > ridge 10
        QCOMPARE(changed.count(), 1);
        doc->undoStack()->undo();
        QCOMPARE(doc->whatIf(0), WhatIf {});
        QCOMPARE(doc->analysis(0)->bound, Bound::Memory);
        doc->undoStack()->redo();
        QCOMPARE(doc->whatIf(0).bytesFactor, 0.05);
    }

    void previewStepsMergeIntoOneCommand()
    {
        doc->setWhatIf(1, { 0.9, 1.0 }, EditPhase::Preview);
        doc->setWhatIf(1, { 0.8, 1.0 }, EditPhase::Preview);
        doc->setWhatIf(1, { 0.7, 0.9 }, EditPhase::Preview);
        QVERIFY(doc->hasOpenPreview());
        doc->setWhatIf(1, { 0.6, 0.9 }, EditPhase::Final);
        QVERIFY(!doc->hasOpenPreview());
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(doc->whatIf(1), (WhatIf { 0.6, 0.9 }));
        // The next drag of the same point is a step of its own.
        doc->setWhatIf(1, { 0.5, 0.9 }, EditPhase::Preview);
        doc->setWhatIf(1, { 0.4, 0.9 }, EditPhase::Final);
        QCOMPARE(doc->undoStack()->count(), 2);
        doc->undoStack()->undo();
        QCOMPARE(doc->whatIf(1), (WhatIf { 0.6, 0.9 }));
    }

    void cancelledPreviewLeavesNoTrace()
    {
        doc->setWhatIf(0, { 0.5, 1.0 });
        doc->setWhatIf(2, { 0.3, 1.0 }, EditPhase::Preview);
        doc->setWhatIf(2, { 0.2, 1.0 }, EditPhase::Preview);
        doc->cancelPreview();
        QCOMPARE(doc->whatIf(2), WhatIf {});
        QCOMPARE(doc->undoStack()->count(), 1);
        QVERIFY(!doc->undoStack()->canRedo());
        QCOMPARE(doc->whatIf(0).bytesFactor, 0.5);
    }

    void dragBackToStartLeavesNoStep()
    {
        doc->setWhatIf(0, { 0.5, 1.0 }, EditPhase::Preview);
        doc->setWhatIf(0, {}, EditPhase::Final);
        QCOMPARE(doc->undoStack()->count(), 0);
    }

    void editingAPresetMakesItCustom()
    {
        QSignalSpy changed(doc.get(), &Document::hardwareChanged);
        Hardware hw = doc->hardware();
        hw.memory[0].bandwidth = 2e11;
        doc->editHardware(hw, "faster DRAM");
        QCOMPARE(QString::fromStdString(doc->hardware().name), QString("Custom (from TM)"));
        QCOMPARE(doc->hardware().memory[0].bandwidth, 2e11);
        QCOMPARE(doc->analysis(0)->attainable, 2e11); // I = 1 on the new roof
        QCOMPARE(changed.count(), 1);
        // A second edit keeps the custom name rather than nesting it.
        hw = doc->hardware();
        hw.compute[0].peak = 2e12;
        doc->editHardware(hw, "faster math");
        QCOMPARE(QString::fromStdString(doc->hardware().name), QString("Custom (from TM)"));
        doc->undoStack()->undo();
        doc->undoStack()->undo();
        QCOMPARE(QString::fromStdString(doc->hardware().name), QString("Test machine"));
        QCOMPARE(doc->hardware().memory[0].bandwidth, 1e11);
        QCOMPARE(doc->analysis(0)->attainable, 1e11);
    }

    void selectingAnotherMachineIsUndoable()
    {
        Hardware other = makeSimpleMachine(4e12, 4e11);
        doc->selectHardware(other);
        QCOMPARE(doc->analysis(0)->attainable, 4e11);
        doc->undoStack()->undo();
        QCOMPARE(doc->analysis(0)->attainable, 1e11);
    }

    void deleteAndDuplicateAreUndoable()
    {
        doc->setWhatIf(1, { 0.5, 1.0 });
        doc->removePoints({ 2, 0 });
        QCOMPARE(doc->pointCount(), std::size_t(1));
        QCOMPARE(QString::fromStdString(doc->measuredPoint(0).name), QString("gemm"));
        QCOMPARE(doc->whatIf(0).bytesFactor, 0.5); // the move stays with its point
        doc->undoStack()->undo();
        QCOMPARE(doc->pointCount(), std::size_t(3));
        QCOMPARE(QString::fromStdString(doc->measuredPoint(0).name), QString("stream"));
        QCOMPARE(QString::fromStdString(doc->measuredPoint(2).name), QString("stencil"));

        doc->duplicatePoints({ 1 });
        QCOMPARE(doc->pointCount(), std::size_t(4));
        QCOMPARE(QString::fromStdString(doc->measuredPoint(3).name), QString("gemm (copy)"));
        QCOMPARE(doc->selection(), std::vector<std::size_t> { 3 });
        doc->undoStack()->undo();
        QCOMPARE(doc->pointCount(), std::size_t(3));
    }

    void selectionIsSortedAndBounded()
    {
        QSignalSpy changed(doc.get(), &Document::selectionChanged);
        doc->setSelection({ 2, 0, 2, 7 });
        QCOMPARE(doc->selection(), (std::vector<std::size_t> { 0, 2 }));
        doc->setSelection({ 0, 2 });
        QCOMPARE(changed.count(), 1); // unchanged selection: no signal
    }

    void compareMachineAnalysesWithItsOwnCeilings()
    {
        QVERIFY(!doc->compareAnalysis(0).has_value());
        doc->setCompareHardware(makeSimpleMachine(1e13, 1e12));
        const auto there = doc->compareAnalysis(0);
        QVERIFY(there.has_value());
        QCOMPARE(there->attainable, 1e12);
    }

    // Issue 4: workloads are kept beside the points that have one, not one slot per point; they
    // must still follow their points through deletion, undo, duplication and sessions.
    void workloadsFollowTheirPoints()
    {
        doc->resetHardware(**PresetDatabase::builtin().find("H100"));
        const auto matmul = [](const char *group) {
            Workload w;
            w.model = MatmulWorkload { MatmulSpec { 64, 4096, 4096, Precision::BF16, {} }, {}, {} };
            w.group = group;
            w.sweep = SweepMembership {};
            return w;
        };
        QVERIFY(doc->addWorkloads({ matmul("a"), matmul("b") }, "add").has_value());
        const auto groups = [](const Document &d) {
            QStringList list;
            for (std::size_t i = 0; i < d.pointCount(); ++i)
                list << (d.workload(i) ? QString::fromStdString(d.workload(i)->group) : "-");
            return list;
        };
        QCOMPARE(groups(*doc), QStringList({ "-", "-", "-", "a", "b" }));
        QVERIFY(!doc->workload(99));

        doc->removePoints({ 3, 1 });
        QCOMPARE(groups(*doc), QStringList({ "-", "-", "b" }));
        QVERIFY(doc->analysis(2).has_value());
        doc->undoStack()->undo();
        QCOMPARE(groups(*doc), QStringList({ "-", "-", "-", "a", "b" }));
        QCOMPARE(QString::fromStdString(doc->measuredPoint(1).name), QString("gemm"));
        doc->undoStack()->redo();
        doc->undoStack()->undo();

        doc->duplicatePoints({ 4, 0 });
        QCOMPARE(groups(*doc), QStringList({ "-", "-", "-", "a", "b", "-", "b" }));
        QVERIFY(doc->workload(4)->sweep.has_value());
        QVERIFY(!doc->workload(6)->sweep.has_value()); // a copy leaves the sweep

        // A machine the workloads cannot be placed on: they fail, the measured points do not,
        // and deleting a measured point before them keeps each error with its workload.
        Hardware noBf16 = test::machine();
        doc->selectHardware(noBf16);
        QVERIFY(!doc->analysis(3).has_value());
        QVERIFY(doc->analysis(0).has_value());
        doc->removePoints({ 0 });
        QVERIFY(!doc->analysis(2).has_value());
        QVERIFY(doc->analysis(1).has_value());
        QCOMPARE(groups(*doc), QStringList({ "-", "-", "a", "b", "-", "b" }));
        doc->undoStack()->undo();
        doc->undoStack()->undo();
        QVERIFY(doc->analysis(3).has_value());

        Document copy;
        copy.loadSession(doc->toSession());
        QCOMPARE(groups(copy), groups(*doc));
        QCOMPARE(copy.analysis(6)->attainable, doc->analysis(6)->attainable);
        copy.resetPoints(test::points());
        QCOMPARE(groups(copy), QStringList({ "-", "-", "-" }));
    }

    // The Document is the Workspace with undo and signals: a session loaded into both gives the
    // same points and the same analyses, and the Document's getters read its workspace.
    void documentWrapsTheWorkspace()
    {
        doc->resetHardware(**PresetDatabase::builtin().find("H100"));
        Workload w;
        w.model = MatmulWorkload { MatmulSpec { 64, 4096, 4096, Precision::BF16, {} }, {}, {} };
        QVERIFY(doc->addWorkloads({ w }, "add").has_value());
        doc->setQuantMode(QuantMode::W4A16);
        doc->setWhatIf(0, { 0.5, 2.0 });
        doc->setWhatIf(3, { 0.25, 1.0 });
        const Session session = doc->toSession();

        Document loaded;
        loaded.loadSession(session);
        Workspace workspace;
        workspace.loadSession(session);
        QCOMPARE(loaded.pointCount(), workspace.pointCount());
        QCOMPARE(&loaded.workspace().hardware(), &loaded.hardware());
        for (std::size_t i = 0; i < workspace.pointCount(); ++i) {
            QCOMPARE(loaded.whatIf(i), workspace.whatIf(i));
            QCOMPARE(loaded.point(i).bytes.front().bytes, workspace.point(i).bytes.front().bytes);
            QCOMPARE(loaded.analysis(i).has_value(), workspace.analysis(i).has_value());
            QCOMPARE(loaded.analysis(i)->attainable, workspace.analysis(i)->attainable);
            QCOMPARE(loaded.analysis(i)->tMin, workspace.analysis(i)->tMin);
            QCOMPARE(loaded.analysis(i)->computeCeiling, workspace.analysis(i)->computeCeiling);
            QCOMPARE(loaded.analysis(i)->attainable, doc->analysis(i)->attainable);
        }
        QCOMPARE(loaded.quantMode(), QuantMode::W4A16);
        QCOMPARE(workspace.quantMode(), QuantMode::W4A16);
    }

private:
    std::unique_ptr<Document> doc;
};

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
