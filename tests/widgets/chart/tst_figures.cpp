// Spec and measured figures side by side: Document::figures() picks the one the analysis uses
// (hardware() is withFigures(machine, figures())), and the chart draws both roofs of a ceiling
// that holds two, the measured one solid and the spec one dashed, the band between them filled.
#include "tests/support/provenancemachine.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"
#include "widgets/chart/rooflayer.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/exportoptions.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace ridgepoint;

namespace {

// "stream": 1e9 FLOP over 1e9 B of HBM, I = 1 FLOP/B, memory-bound under either figure
// (ridge ≥ 312e12 / 1.555e12 ≈ 200 FLOP/B).
KernelPoint stream()
{
    KernelPoint p;
    p.name = "stream";
    p.flops = 1e9;
    p.bytes = { { std::nullopt, 1e9 } };
    p.seconds = 1e-3;
    return p;
}

const chart::RoofLine *ownRoof(const chart::RoofLayer &layer, chart::RoofLine::Kind kind, int index)
{
    for (const auto &roof : layer.ownRoofs()) {
        if (roof->kind() == kind && roof->index() == index)
            return roof.get();
    }
    return nullptr;
}

} // namespace

class TestFigures : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        doc = std::make_unique<Document>();
        doc->resetHardware(test::provenanceMachine());
        doc->resetPoints({ stream() });
    }

    // Attainable of a memory-bound point = β · I = β · 1 FLOP/B:
    // measured 1.35e12 B/s → 1.35e12 FLOP/s; spec 1.555e12 B/s → 1.555e12 FLOP/s.
    void choiceSetsTheAnalysedFigure_data()
    {
        QTest::addColumn<int>("choice");
        QTest::addColumn<double>("bandwidth");
        QTest::addColumn<double>("other");
        QTest::addColumn<double>("attainable");
        QTest::newRow("measured") << int(FigureChoice::Measured) << 1.35e12 << 1.555e12 << 1.35e12;
        QTest::newRow("spec") << int(FigureChoice::Spec) << 1.555e12 << 1.35e12 << 1.555e12;
    }

    void choiceSetsTheAnalysedFigure()
    {
        QFETCH(int, choice);
        QFETCH(double, bandwidth);
        QFETCH(double, other);
        QFETCH(double, attainable);
        QCOMPARE(doc->figures(), FigureChoice::Measured); // the default
        QSignalSpy figures(doc.get(), &Document::figuresChanged);
        QSignalSpy points(doc.get(), &Document::pointsChanged);
        doc->setFigures(static_cast<FigureChoice>(choice));
        QCOMPARE(figures.count(), choice == int(FigureChoice::Spec) ? 1 : 0);
        QCOMPARE(doc->figures(), static_cast<FigureChoice>(choice));
        const MemoryCeiling &hbm = doc->hardware().memory[1];
        QCOMPARE(hbm.bandwidth, bandwidth);
        QVERIFY(hbm.alternate);
        QCOMPARE(hbm.alternate->value, other);
        QVERIFY(doc->analysis(0));
        QCOMPARE(doc->analysis(0)->attainable, attainable);
        QCOMPARE(doc->analysis(0)->bound, Bound::Memory);
        // A switch is not an edit: nothing to undo, the machine keeps its name.
        QCOMPARE(doc->undoStack()->count(), 0);
        QCOMPARE(doc->hardware().name, std::string("Provenance machine"));
        // And back: the measured figure again (1.35e12 · 1 FLOP/B).
        doc->setFigures(FigureChoice::Measured);
        QCOMPARE(doc->analysis(0)->attainable, 1.35e12);
    }

    // The compared machine and a machine picked later follow the choice too.
    void choiceAppliesToEveryMachine()
    {
        doc->setFigures(FigureChoice::Spec);
        doc->setCompareHardware(test::provenanceMachine());
        QCOMPARE(doc->compareHardware()->memory[1].bandwidth, 1.555e12);
        QCOMPARE(doc->compareAnalysis(0)->attainable, 1.555e12);
        doc->selectHardware(test::provenanceMachine());
        QCOMPARE(doc->hardware().memory[1].bandwidth, 1.555e12);
        doc->setFigures(FigureChoice::Measured);
        QCOMPARE(doc->compareHardware()->memory[1].bandwidth, 1.35e12);
        QCOMPARE(doc->compareAnalysis(0)->attainable, 1.35e12);
    }

    // Under a typed value there is one figure, used whichever is chosen.
    void editedFigureIsUsedUnderEitherChoice()
    {
        Hardware hw = doc->hardware();
        hw.memory[1].bandwidth = 2e12;
        doc->editHardware(hw, "Set HBM2");
        QCOMPARE(doc->hardware().memory[1].provenance.source, std::string(kEditedSource));
        QVERIFY(!doc->hardware().memory[1].alternate);
        doc->setFigures(FigureChoice::Spec);
        QCOMPARE(doc->analysis(0)->attainable, 2e12); // 2e12 B/s · 1 FLOP/B
    }

    // Both HBM roofs: the measured one solid, the spec one dashed, whichever the analysis uses
    // (that one is the primary, draggable roof); a filled band between them in the roof's hue.
    void chartDrawsBothFigures_data()
    {
        QTest::addColumn<int>("choice");
        QTest::addColumn<int>("theme");
        QTest::addColumn<double>("primary");
        QTest::addColumn<int>("primaryStyle");
        QTest::addColumn<double>("alternate");
        QTest::addColumn<int>("alternateStyle");
        const int solid = Qt::SolidLine;
        const int dashed = Qt::DashLine;
        for (const auto kind :
            { ChartTheme::Kind::Light, ChartTheme::Kind::Dark, ChartTheme::Kind::Print }) {
            const QByteArray name = ChartTheme::of(kind).key();
            QTest::newRow(name + " measured") << int(FigureChoice::Measured) << int(kind) << 1.35e12
                                              << solid << 1.555e12 << dashed;
            QTest::newRow(name + " spec")
                << int(FigureChoice::Spec) << int(kind) << 1.555e12 << dashed << 1.35e12 << solid;
        }
    }

    void chartDrawsBothFigures()
    {
        QFETCH(int, choice);
        QFETCH(int, theme);
        QFETCH(double, primary);
        QFETCH(int, primaryStyle);
        QFETCH(double, alternate);
        QFETCH(int, alternateStyle);
        RooflinePlot plot;
        plot.setDocument(doc.get());
        const ChartTheme chosen = ChartTheme::of(static_cast<ChartTheme::Kind>(theme));
        chart::changeDisplay(plot, [&](chart::PlotDisplay &d) { d.theme = chosen; });
        plot.resize(800, 600);
        doc->setFigures(static_cast<FigureChoice>(choice));
        const chart::RoofLayer &layer = plot.roofLayer();

        const chart::RoofLine *hbm = ownRoof(layer, chart::RoofLine::Kind::Memory, 1);
        QVERIFY(hbm);
        QCOMPARE(hbm->value(), primary);
        QCOMPARE(int(hbm->pen().style()), primaryStyle);
        // Only HBM2 holds two figures: one alternate roof, one band.
        QCOMPARE(layer.alternateRoofs().size(), std::size_t(1));
        const chart::RoofLine &other = *layer.alternateRoofs().front();
        QCOMPARE(other.kind(), chart::RoofLine::Kind::Memory);
        QCOMPARE(other.index(), -1); // not draggable
        QCOMPARE(other.value(), alternate);
        QCOMPARE(int(other.pen().style()), alternateStyle);
        QCOMPARE(other.pen().color(), hbm->pen().color());
        QVERIFY(other.text().contains(choice == int(FigureChoice::Spec) ? "measured" : "spec"));
        // L2 has one figure: solid, no alternate.
        const chart::RoofLine *l2 = ownRoof(layer, chart::RoofLine::Kind::Memory, 0);
        QVERIFY(l2);
        QCOMPARE(int(l2->pen().style()), int(Qt::SolidLine));

        QCOMPARE(layer.gaps().size(), std::size_t(1));
        QCPGraph *band = layer.gaps().front();
        QVERIFY(band->channelFillGraph());
        QCOMPARE(band->pen().style(), Qt::NoPen);
        const QColor fill = band->brush().color();
        QVERIFY(fill.alpha() > 0 && fill.alpha() < 100); // light: the points show through
        QCOMPARE(fill.rgb(), hbm->pen().color().rgb()); // the roof's own hue on this theme
        QCOMPARE(band->layer()->name(), QString("shading")); // under the roofs and points
        // The band's lower edge is the slower figure: y = 1.35e12 · x at the far left.
        QCOMPARE(band->data()->at(0)->value, 1.35e12 * chart::kFarLeft);
        QCOMPARE(band->channelFillGraph()->data()->at(0)->value, 1.555e12 * chart::kFarLeft);
    }

    // A compute ceiling with two figures draws both flat roofs and the band between them.
    void computeFigures()
    {
        Hardware hw = test::provenanceMachine();
        Provenance measured;
        measured.basis = Basis::Measured;
        hw.compute[0].alternate = AlternateFigure { 280e12, measured };
        doc->resetHardware(hw);
        RooflinePlot plot;
        plot.setDocument(doc.get());
        const chart::RoofLayer &layer = plot.roofLayer();
        // Measured is the default: 280 TFLOP/s solid in use, the spec 312 dashed beside it.
        const chart::RoofLine *fp16 = ownRoof(layer, chart::RoofLine::Kind::Compute, 0);
        QVERIFY(fp16);
        QCOMPARE(fp16->value(), 280e12);
        QCOMPARE(fp16->pen().style(), Qt::SolidLine);
        QCOMPARE(layer.alternateRoofs().size(), std::size_t(2));
        QCOMPARE(layer.gaps().size(), std::size_t(2));
        bool found = false;
        for (const auto &roof : layer.alternateRoofs()) {
            if (roof->kind() == chart::RoofLine::Kind::Compute) {
                QCOMPARE(roof->value(), 312e12);
                QCOMPARE(roof->pen().style(), Qt::DashLine);
                found = true;
            }
        }
        QVERIFY(found);
    }

    // A roof's tooltip names the basis of its figure and the other one.
    void roofTooltipNamesTheBasis()
    {
        RooflinePlot plot;
        plot.setDocument(doc.get());
        const QString tip = plot.ceilingDescription({ false, 1 });
        QVERIFY2(tip.contains("Basis: measured") && tip.contains("Other figure:")
                && tip.contains("Basis: spec"),
            qPrintable(tip));
        QVERIFY(plot.ceilingDescription({ false, 0 }).contains("Basis: derived"));
    }

    // An exported picture draws the same: the HBM2 roof in its colour once dashed and once
    // solid, and a translucent fill of that colour between them; both labels name their basis.
    void exportDrawsBothFigures()
    {
        RooflinePlot plot;
        plot.setDocument(doc.get());
        plot.resize(900, 600);
        QTemporaryDir dir;
        const QString file = dir.filePath("figures.svg");
        ExportOptions options;
        options.width = 1000;
        options.height = 700;
        QCOMPARE(ChartExporter(plot).exportTo(file, options), QString());
        QFile in(file);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QString hbm = chart::memoryColor(MemoryLevel::HBM).name();
        bool dashed = false;
        bool solid = false;
        bool band = false;
        QStringList texts;
        QXmlStreamReader xml(&in);
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isCharacters())
                texts << xml.text().toString().simplified();
            if (!xml.isStartElement() || xml.name() != QLatin1String("g"))
                continue;
            const QXmlStreamAttributes a = xml.attributes();
            if (a.value("stroke") == hbm && a.value("fill") == QLatin1String("none"))
                (a.hasAttribute("stroke-dasharray") ? dashed : solid) = true;
            if (a.value("fill") == hbm && a.value("fill-opacity").toDouble() < 0.5)
                band = true;
        }
        QVERIFY(!xml.hasError());
        QVERIFY(dashed);
        QVERIFY(solid);
        QVERIFY(band);
        const QString all = texts.join('\n');
        QVERIFY2(all.contains("HBM2 measured") && all.contains("HBM2 spec"), qPrintable(all));
    }

private:
    std::unique_ptr<Document> doc;
};

QTEST_MAIN(TestFigures)
#include "tst_figures.moc"
