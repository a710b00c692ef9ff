// WorkloadPanel and the Document's quantization mode: workloads added from the panel become
// chart points, the mode switch moves them by what the core model predicts, undo moves them
// back, sweeps draw a trajectory with the ridge crossing labelled (issues 3 and 5).
#include "tests/support/core_test_support.h"
#include "tests/support/testmachine.h"

#include "core/calibrate/calibration.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/panels/quantmodebox.h"
#include "widgets/panels/workloadpanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

using namespace ridgepoint;

namespace {

Hardware h100()
{
    return test::preset("H100");
}

// Intensity of X[B,D]·Y[D,F] with element sizes bx, by, bz: 2BDF / (bx·BD + by·DF + bz·BF).
double matmulIntensity(double b, double d, double f, double bx, double by, double bz)
{
    return 2.0 * b * d * f / (bx * b * d + by * d * f + bz * b * f);
}

} // namespace

class TestWorkloadPanel : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        doc = std::make_unique<Document>();
        doc->resetHardware(h100());
        plot = std::make_unique<RooflinePlot>();
        plot->setDocument(doc.get());
        plot->resize(900, 600);
        panel = std::make_unique<WorkloadPanel>(doc.get());
        panel->show();
    }

    void cleanup()
    {
        panel.reset();
        plot.reset();
        doc.reset();
    }

    void quantSwitchMovesMatmulByTheModelsFactor_data()
    {
        // Keyboard search in the combo box ("w4" would pass through w8a16 first: two steps).
        QTest::addColumn<QString>("typed");
        QTest::addColumn<int>("mode"); // combo order: none, int8, w8a16, w4a16
        QTest::addColumn<double>("intensity");
        QTest::addColumn<QString>("ceiling");
        const double b = 1, d = 8192, f = 8192;
        QTest::newRow("int8: all one byte, int8 ceiling")
            << QString("i") << 1 << matmulIntensity(b, d, f, 1, 1, 1) << QString("INT8 tensor");
        QTest::newRow("w8a16: int8 weights, bf16 ceiling")
            << QString("w8") << 2 << matmulIntensity(b, d, f, 2, 1, 2) << QString("BF16 tensor");
        QTest::newRow("w4a16: int4 weights")
            << QString("<end>") << 3 << matmulIntensity(b, d, f, 2, 0.5, 2)
            << QString("BF16 tensor");
    }

    void quantSwitchMovesMatmulByTheModelsFactor()
    {
        QFETCH(QString, typed);
        QFETCH(int, mode);
        QFETCH(double, intensity);
        QFETCH(QString, ceiling);
        setSpin("b", 1);
        setSpin("d", 8192);
        setSpin("f", 8192);
        QTest::mouseClick(panel->findChild<QPushButton *>("add"), Qt::LeftButton);
        QCOMPARE(doc->pointCount(), std::size_t(1));
        QVERIFY(doc->workload(0));
        const double none = matmulIntensity(1, 8192, 8192, 2, 2, 2);
        QVERIFY(std::abs(doc->analysis(0)->levels.front().intensity / none - 1.0) < 1e-12);
        const QPointF before = *plot->pointCoords(0);

        // The switch as the toolbar holds it (the panel has none of its own).
        QuantModeBox switcher(doc.get());
        switcher.show();
        auto *box = &switcher;
        box->setFocus();
        if (typed == "<end>")
            QTest::keyClick(box, Qt::Key_End);
        else
            QTest::keyClicks(box, typed);
        QCOMPARE(static_cast<int>(doc->quantMode()), mode);
        QCOMPARE(doc->undoStack()->count(), 2); // the addition and one switch
        const auto &a = doc->analysis(0);
        QVERIFY2(a.has_value(), a ? "" : a.error().c_str());
        QVERIFY(std::abs(a->levels.front().intensity / intensity - 1.0) < 1e-12);
        QCOMPARE(QString::fromStdString(a->computeCeiling), ceiling);
        QCOMPARE(QString::fromStdString(doc->activeComputeCeiling()->name), ceiling);
        // The chart point moved by the same factor.
        const QPointF after = *plot->pointCoords(0);
        QVERIFY(std::abs(after.x() / before.x() - intensity / none) < 1e-9);

        doc->undoStack()->undo(); // the mode switch is one step
        QCOMPARE(doc->quantMode(), QuantMode::None);
        QCOMPARE(box->currentIndex(), 0);
        QVERIFY(std::abs(plot->pointCoords(0)->x() / before.x() - 1.0) < 1e-12);
        QCOMPARE(QString::fromStdString(doc->activeComputeCeiling()->name),
            QStringLiteral("BF16 tensor"));
    }

    void llmDecodeW8A16RoughlyDoublesLinearLayers()
    {
        panel->findChild<QTabWidget *>()->setCurrentIndex(1);
        setSpin("seq", 1024);
        setSpin("batch", 1);
        QTest::mouseClick(panel->findChild<QPushButton *>("add"), Qt::LeftButton);
        // One point per operator kind plus the whole model.
        QVERIFY(doc->pointCount() >= 5);
        std::optional<std::size_t> ffn;
        std::optional<std::size_t> score;
        for (std::size_t i = 0; i < doc->pointCount(); ++i) {
            const std::string &name = doc->point(i).name;
            if (!ffn && name == "FFN up")
                ffn = i;
            if (name == "attention score")
                score = i;
        }
        QVERIFY(ffn && score);
        const double linear = doc->analysis(*ffn)->levels.front().intensity;
        const double attention = doc->analysis(*score)->levels.front().intensity;
        QVERIFY2(linear > 0.9 && linear < 1.1, qPrintable(QString::number(linear)));
        doc->setQuantMode(QuantMode::W8A16);
        const double ratio = doc->analysis(*ffn)->levels.front().intensity / linear;
        QVERIFY2(ratio > 1.9 && ratio < 2.05, qPrintable(QString::number(ratio)));
        // The KV cache stays bf16: attention does not move.
        QVERIFY(std::abs(doc->analysis(*score)->levels.front().intensity / attention - 1.0) < 1e-9);
        doc->undoStack()->undo();
        QVERIFY(std::abs(doc->analysis(*ffn)->levels.front().intensity / linear - 1.0) < 1e-12);
    }

    void tensorParallelPutsAllReducesOnTheNvlinkRoof()
    {
        // Llama-2-7B (the first model) decode seq 1024 batch 8, tp 2 on the H100: each
        // all-reduce moves 2·(1/2)·8·4096·2 B per layer × 32 = 2,097,152 B on NVLink 4.
        panel->findChild<QTabWidget *>()->setCurrentIndex(1);
        panel->findChild<QComboBox *>("model")->setCurrentText("Llama-2-7B");
        setSpin("seq", 1024);
        setSpin("batch", 8);
        setSpin("tp", 2);
        QTest::mouseClick(panel->findChild<QPushButton *>("add"), Qt::LeftButton);
        int allReduces = 0;
        for (std::size_t i = 0; i < doc->pointCount(); ++i) {
            if (!doc->point(i).name.starts_with("TP all-reduce"))
                continue;
            ++allReduces;
            const auto &a = doc->analysis(i);
            QVERIFY(a.has_value());
            QCOMPARE(a->levels.front().level, MemoryLevel::NVLink);
            QCOMPARE(a->limitingCeiling, std::string("NVLink 4"));
            QVERIFY(std::abs(a->levels.front().bytes / 2097152.0 - 1.0) < 1e-12);
        }
        QCOMPARE(allReduces, 2);
    }

    // The network a sharded matmul crosses is, unless chosen, the link between the chips: the
    // MI300X lists its PCIe (64 GB/s one way) before its Infinity Fabric (448 GB/s one way).
    // B = 2048, D = 8192 over 2 chips, F = 8192, bf16: the partial sums' ring all-reduce moves
    // 2·(2−1)/2 · B·F · 2 B = 33,554,432 B a chip.
    void shardedMatmulCrossesTheLinkBetweenChips_data()
    {
        QTest::addColumn<QString>("machine");
        QTest::addColumn<QString>("link");
        QTest::addColumn<double>("bandwidth");
        QTest::newRow("MI300X") << "MI300X"
                                << "Infinity Fabric (7 links)" << 448e9;
        QTest::newRow("H100") << "H100"
                              << "NVLink 4" << 450e9;
    }

    void shardedMatmulCrossesTheLinkBetweenChips()
    {
        QFETCH(QString, machine);
        QFETCH(QString, link);
        QFETCH(double, bandwidth);
        doc->resetHardware(test::preset(machine.toUtf8().constData()));
        QCOMPARE(panel->findChild<QComboBox *>("network")->currentText(), link);
        panel->findChild<QComboBox *>("variant")->setCurrentIndex(2); // sharded along D
        setSpin("b", 2048);
        setSpin("d", 8192);
        setSpin("f", 8192);
        setSpin("shards", 2);
        QTest::mouseClick(panel->findChild<QPushButton *>("add"), Qt::LeftButton);
        QCOMPARE(doc->pointCount(), std::size_t(1));
        const auto &a = doc->analysis(0);
        QVERIFY(a.has_value());
        const auto network = std::find_if(
            a->levels.begin(), a->levels.end(), [](const auto &l) { return isNetwork(l.level); });
        QVERIFY(network != a->levels.end());
        QCOMPARE(QString::fromStdString(network->memory), link);
        QCOMPARE(network->bandwidth, bandwidth);
        QVERIFY(std::abs(network->bytes / 33554432.0 - 1.0) < 1e-12);
    }

    void calibratedMachineTimesTheStepAndSaysSo_data()
    {
        QTest::addColumn<bool>("calibrated");
        QTest::newRow("calibrated H100") << true;
        QTest::newRow("plain H100") << false;
    }

    void calibratedMachineTimesTheStepAndSaysSo()
    {
        // The H100 with a calibration (docs/MODEL.md §15.7): the panel's message names it and
        // the all-reduce fit the tp = 2 step uses; a plain H100 says nothing of it.
        QFETCH(bool, calibrated);
        Hardware hw = h100();
        if (calibrated) {
            Calibration cal;
            cal.files = { "runs/h100_mlp.csv" };
            cal.rowsUsed = 42;
            cal.computeCeiling = "BF16 tensor";
            cal.peak = hw.findCompute("BF16 tensor")->peak;
            cal.memoryCeiling = hw.mainMemory()->name;
            cal.bandwidth = hw.mainMemory()->bandwidth;
            KernelFit gemm;
            gemm.name = "gemm";
            gemm.kind = OperatorClass::Gemm;
            gemm.computeFraction = 0.5;
            gemm.memoryFraction = 0.5;
            gemm.floorSeconds = 1e-6;
            cal.classes = { gemm };
            CollectiveFit ar;
            ar.collective = "all_reduce";
            ar.ranks = 2;
            ar.ranksPerNode = 2;
            ar.regimes = { { 0.0, 1e9, 1e-5, 1e11 } };
            cal.collectives = { ar };
            hw.calibration = cal;
        }
        doc->resetHardware(hw);
        panel->findChild<QTabWidget *>()->setCurrentIndex(1);
        panel->findChild<QComboBox *>("model")->setCurrentText("Llama-2-7B");
        setSpin("tp", 2);
        QTest::mouseClick(panel->findChild<QPushButton *>("add"), Qt::LeftButton);
        const QString message = panel->message();
        QCOMPARE(message.contains("calibrated: "), calibrated);
        QCOMPARE(message.contains("(calibration of h100_mlp.csv, 42 rows: gemm fit, all_reduce on "
                                  "2 ranks; roofline for elementwise: no fit, attention: no fit)"),
            calibrated);
    }

    void llmSweepIsOnePathPerOperatorLabelledOnce()
    {
        // seq 256, 512, 1024 with tp 2: Llama-2-7B's 18 operator kinds (embedding, 2 norms,
        // QKV, rotary, KV-cache write, score, softmax, value, output projection, 2 residuals,
        // FFN up, gate, activation, down, final norm, LM head) + 2 all-reduces + the whole
        // model = 21 paths of 3 points = 63.
        panel->findChild<QTabWidget *>()->setCurrentIndex(1);
        panel->findChild<QComboBox *>("model")->setCurrentText("Llama-2-7B");
        setSpin("tp", 2);
        panel->findChild<QGroupBox *>("sweep")->setChecked(true);
        panel->findChild<QComboBox *>("sweepParameter")->setCurrentText("seq");
        setSpin("sweepFrom", 256);
        setSpin("sweepTo", 1024);
        QTest::mouseClick(panel->findChild<QPushButton *>("add"), Qt::LeftButton);
        QCOMPARE(doc->pointCount(), std::size_t(21 * 3));
        // Above kMaxNamedPoints (40) the chart numbers its points by default; "label all
        // points" names them, and a path still carries its name once, not at every sample.
        // The points of the paths carry no label (no "#" numbers); the names that fit without
        // colliding are each drawn once, the longest-running operators first. The plot is
        // never shown: its viewport is set as a window of 900 × 600 would set it.
        plot->setViewport(QRect(0, 0, 900, 600));
        plot->replot();
        // A second replot places the same labels (none left over from the first blocks them).
        const QStringList first = plot->inspect().pointLabels();
        plot->replot();
        QCOMPARE(plot->inspect().pointLabels(), first);
        const QStringList labels = plot->inspect().pointLabels();
        QVERIFY(!labels.isEmpty());
        for (const QString &label : labels) {
            QVERIFY2(!label.front().isDigit(), qPrintable(label));
            QCOMPARE(labels.count(label), 1);
        }
        // The longest-running path is named first. At 900 × 600 the decode paths crowd one
        // spot, and a name is left out rather than put where it reads as another path's; on a
        // picture of 1600 × 1000 the small operators and the collective are named too.
        QVERIFY2(labels.contains("whole model"), qPrintable(labels.join(" | ")));
        plot->resize(1600, 1000);
        plot->setViewport(QRect(0, 0, 1600, 1000));
        plot->replot();
        const QStringList large = plot->inspect().pointLabels();
        QVERIFY2(large.count("embedding") == 1 && large.count("TP all-reduce (attention)") == 1,
            qPrintable(large.join(" | ")));
    }

    void llmSweepCrossingsStackAtTheKnee()
    {
        // A Llama-2-7B prefill sweep over seq crosses the ridge on several operator paths, all
        // at the knee: each label names its path and none covers another.
        panel->findChild<QTabWidget *>()->setCurrentIndex(1);
        panel->findChild<QComboBox *>("model")->setCurrentText("Llama-2-7B");
        panel->findChild<QComboBox *>("phase")->setCurrentText("prefill");
        panel->findChild<QGroupBox *>("sweep")->setChecked(true);
        panel->findChild<QComboBox *>("sweepParameter")->setCurrentText("seq");
        setSpin("sweepFrom", 64);
        setSpin("sweepTo", 8192);
        QTest::mouseClick(panel->findChild<QPushButton *>("add"), Qt::LeftButton);
        plot->resize(1600, 1000);
        plot->setViewport(QRect(0, 0, 1600, 1000));
        plot->replot();
        const auto crossings = plot->inspect().sweepCrossings();
        QVERIFY2(crossings.size() >= 2, qPrintable(QString::number(crossings.size())));
        for (std::size_t i = 0; i < crossings.size(); ++i) {
            QVERIFY2(crossings[i].text.contains(": seq ≈ "), qPrintable(crossings[i].text));
            QVERIFY(crossings[i].box.isValid());
            // Boxes one row apart may share the pixel row of their padding, never text.
            for (std::size_t j = 0; j < i; ++j)
                QVERIFY2(!crossings[i].box.adjusted(0, 1, 0, -1).intersects(crossings[j].box),
                    qPrintable(crossings[i].text + " / " + crossings[j].text));
        }
    }

    void missingCeilingIsAMessageNotACrash()
    {
        doc->resetHardware(test::machine()); // FP32 and FP64 only: no int8, no bf16
        panel->findChild<QComboBox *>("dtype")->setCurrentIndex(2); // fp32
        QTest::mouseClick(panel->findChild<QPushButton *>("add"), Qt::LeftButton);
        QCOMPARE(doc->pointCount(), std::size_t(1));
        QVERIFY(doc->analysis(0).has_value());
        doc->setQuantMode(QuantMode::Int8);
        QVERIFY(!doc->analysis(0).has_value());
        QVERIFY2(panel->message().contains("int8"), qPrintable(panel->message()));
        QVERIFY(!plot->pointCoords(0));
        QVERIFY(plot->pointDescription(0).contains("int8"));
        doc->undoStack()->undo();
        QVERIFY(doc->analysis(0).has_value());
        QVERIFY(!panel->message().contains("cannot be placed"));
    }

    void addingAWorkloadTheMachineCannotPlaceSaysWhy()
    {
        doc->resetHardware(test::machine());
        // bf16 (the default dtype) has no ceiling on the test machine.
        QTest::mouseClick(panel->findChild<QPushButton *>("add"), Qt::LeftButton);
        QCOMPARE(doc->pointCount(), std::size_t(0));
        QVERIFY2(panel->message().contains("bf16"), qPrintable(panel->message()));
    }

    void sweepDrawsTrajectoryAndLabelsTheCrossing()
    {
        setSpin("d", 8192);
        setSpin("f", 8192);
        panel->findChild<QGroupBox *>("sweep")->setChecked(true);
        panel->findChild<QComboBox *>("sweepParameter")->setCurrentText("b");
        setSpin("sweepFrom", 1);
        setSpin("sweepTo", 4096);
        QTest::mouseClick(panel->findChild<QPushButton *>("add"), Qt::LeftButton);
        QCOMPARE(doc->pointCount(), std::size_t(13)); // 1, 2, 4, ..., 4096
        QCOMPARE(doc->undoStack()->count(), 1);
        plot->replot();
        const auto crossings = plot->inspect().sweepCrossings();
        QCOMPARE(crossings.size(), std::size_t(1));
        QVERIFY(crossings.front().text.startsWith("b ≈ "));
        // Independent: the exact critical batch R·by·D·F / (2DF − R·(bx·D + bz·F)) in bf16.
        const Hardware hw = h100();
        const double ridge = hw.findCompute("BF16 tensor")->peak / hw.mainMemory()->bandwidth;
        const double d = 8192, f = 8192;
        const double exact = ridge * 2 * d * f / (2 * d * f - ridge * (2 * d + 2 * f));
        const double labelled = crossings.front().text.mid(4).toDouble();
        QVERIFY2(std::abs(labelled / exact - 1.0) < 0.05,
            qPrintable(QString("%1 vs %2").arg(labelled).arg(exact)));
        // The crossing sits on the ridge.
        QVERIFY(std::abs(crossings.front().at.x() / ridge - 1.0) < 0.05);

        // int8 weights halve the threshold (docs/MODEL.md §6.2): the crossing moves.
        doc->setQuantMode(QuantMode::W8A16);
        const auto moved = plot->inspect().sweepCrossings();
        QCOMPARE(moved.size(), std::size_t(1));
        const double halved = moved.front().text.mid(4).toDouble();
        QVERIFY2(halved / labelled > 0.45 && halved / labelled < 0.55,
            qPrintable(QString("%1 vs %2").arg(halved).arg(labelled)));

        doc->undoStack()->undo();
        doc->undoStack()->undo();
        QCOMPARE(doc->pointCount(), std::size_t(0));
        QVERIFY(plot->inspect().sweepCrossings().empty());
    }

    void panelNamesTheSwitchsModeWithoutACopy()
    {
        QuantModeBox toolbar(doc.get());
        QVERIFY(!panel->findChild<QComboBox *>("quantMode"));
        auto *note = panel->findChild<QLabel *>("quantModeNote");
        QVERIFY(note);
        QVERIFY(note->isHidden()); // under none there is nothing to say
        doc->setQuantMode(QuantMode::W4A16);
        QCOMPARE(toolbar.currentIndex(), 3);
        QCOMPARE(toolbar.currentText(), QStringLiteral("w4a16 — int4 weights, bf16 activations"));
        QVERIFY(!note->isHidden());
        QVERIFY2(note->text().contains(toolbar.currentText()), qPrintable(note->text()));
        QCOMPARE(doc->undoStack()->undoText(), QStringLiteral("Quantization w4a16"));
    }

private:
    void setSpin(const char *name, int value)
    {
        auto *box = panel->findChild<QSpinBox *>(name);
        QVERIFY2(box, name);
        box->setValue(value);
    }

    std::unique_ptr<Document> doc;
    std::unique_ptr<RooflinePlot> plot;
    std::unique_ptr<WorkloadPanel> panel;
};

QTEST_MAIN(TestWorkloadPanel)
#include "tst_workloadpanel.moc"
