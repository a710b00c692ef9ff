// The label rules a reviewer reads a picture by (issue 27, item 2), on what an export draws:
// for the built-in example and a 20-step matmul sweep, at 800×500, 1600×1000 and the slide
// preset, no point label is cut (no ellipsis), each reads as its point's chart name in whole
// words (or without its trailing remark, or as the point's number), and no two read alike.
// Every roof label lies inside the plot, on those and on a PyTorch trace whose roof runs just
// under the frame's top edge.
#include "core/io/file_io.h"
#include "core/io/readers.h"
#include "core/presets/presets.h"
#include "core/workloads/planned_workload.h"
#include "tests/support/reader_test_support.h"
#include "widgets/chart/geometry/labeltext.h"
#include "widgets/chart/geometry/pointlabelplacement.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/exportoptions.h"

#include <QSet>
#include <QTest>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <map>

using namespace ridgepoint;

namespace {

std::vector<Workload> matmulSweep(int steps)
{
    std::vector<Workload> sweep;
    for (int k = 0; k < steps; ++k) {
        MatmulWorkload matmul;
        matmul.spec.b = std::int64_t { 1 } << k;
        matmul.spec.d = 8192;
        matmul.spec.f = 8192;
        Workload w;
        w.model = matmul;
        w.group = "matmul sweep";
        w.sweep = SweepMembership { 1, "b", static_cast<double>(matmul.spec.b) };
        sweep.push_back(w);
    }
    return sweep;
}

// The label's lines read back as one text: joined by a space where the break was a space.
QString rejoined(const QString &label)
{
    const QStringList lines = label.split('\n');
    if (lines.size() < 2)
        return label;
    const QChar last = lines[0].back();
    const bool brokeAfter = last == '_' || last == '/' || last == ',' || last == '-' || last == '=';
    return lines[0] + (brokeAfter ? QString() : QStringLiteral(" ")) + lines[1];
}

// The example (or a 20-step matmul sweep) on an H100, exported as SVG at `size` ("800x500",
// "1600x1000" or "slide"): the layout the export placed its labels in, null when none.
const RooflinePlot::LabelLayout *exported(
    RooflinePlot &plot, const QString &data, const QString &size)
{
    plot.resize(1200, 800);
    Document &doc = *plot.document();
    doc.resetHardware(**PresetDatabase::builtin().find(data == "trace" ? "MI250X" : "H100"));
    if (data == "trace") {
        // A PyTorch trace on the MI250X: its frame tops out at 100 TFLOP/s, the FP32 roof the
        // points are held to runs 4 % under that edge, and its ridge lies out of view.
        auto read = readPointsFile(test::readTestData("traces/mi250_minitoy_train.json.gz"), "t");
        if (!read.points.trace)
            return nullptr;
        doc.resetPoints(std::move(read.points.points));
        doc.setTrace(std::move(*read.points.trace));
    } else if (data == "example") {
        const auto text
            = readTextFile(test::sourceFile("resources/examples/h100-transformer-kernels.csv"));
        if (!text)
            return nullptr;
        doc.resetPoints(readPointsFile(*text, "h100-transformer-kernels.csv").points.points);
    } else if (!doc.addWorkloads(matmulSweep(20), "sweep")) {
        return nullptr;
    }
    plot.fitToData();
    ExportOptions options = size == "slide" ? slideExportOptions() : ExportOptions {};
    if (size != "slide") {
        options.width = size.section('x', 0, 0).toInt();
        options.height = size.section('x', 1, 1).toInt();
    }
    if (ChartExporter(plot).renderToBytes("svg", options).isEmpty())
        return nullptr;
    const RooflinePlot::LabelLayout *layout = nullptr;
    for (const auto &candidate : plot.inspect().labelLayouts()) {
        if (candidate.size.width() == options.width)
            layout = &candidate;
    }
    return layout;
}

double distance(const QRectF &box, QPointF p)
{
    const double dx = std::max({ box.left() - p.x(), 0.0, p.x() - box.right() });
    const double dy = std::max({ box.top() - p.y(), 0.0, p.y() - box.bottom() });
    return std::hypot(dx, dy);
}

QString show(const QRectF &r)
{
    return QString("(%1,%2 %3x%4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

// The widest stretch of `box`'s row over its own flat roof that no slanted roof crosses and no
// marker, legend, ridge label or other roof label covers.
double widestFreeStretch(const RooflinePlot::LabelLayout &layout, const QRectF &box)
{
    const double top = box.top() + 1.5;
    const double bottom = box.bottom() - 1.5;
    std::vector<std::pair<double, double>> taken;
    for (const QLineF &line : layout.roofLines) {
        if (std::abs(line.dy()) < 0.5)
            continue;
        const auto xAt = [&line](double y) {
            const double t = std::clamp((y - line.y1()) / line.dy(), 0.0, 1.0);
            return line.x1() + t * line.dx();
        };
        const double a = xAt(top);
        const double b = xAt(bottom);
        const double lo = std::min(line.y1(), line.y2());
        const double hi = std::max(line.y1(), line.y2());
        if (hi >= top && lo <= bottom)
            taken.emplace_back(std::min(a, b), std::max(a, b));
    }
    std::vector<QRectF> covers = layout.markers;
    covers.push_back(layout.legend);
    covers.insert(covers.end(), layout.ridgeLabel.begin(), layout.ridgeLabel.end());
    for (const auto &other : layout.roofLabels)
        covers.insert(covers.end(), other.begin(), other.end());
    for (const QRectF &r : covers) {
        if (r != box && r.bottom() > top && r.top() < bottom)
            taken.emplace_back(r.left(), r.right());
    }
    std::sort(taken.begin(), taken.end());
    // Over its own roof: from where the flat line under (or over) the label begins.
    double from = layout.plotArea.left();
    for (const QLineF &line : layout.roofLines) {
        if (std::abs(line.dy()) < 0.5
            && std::min(std::abs(line.y1() - box.bottom()), std::abs(line.y1() - box.top())) < 3.0)
            from = std::max(from, std::min(line.x1(), line.x2()));
    }
    double widest = 0.0;
    for (const auto &[a, b] : taken) {
        widest = std::max(widest, a - from);
        from = std::max(from, b);
    }
    return std::max(widest, layout.plotArea.right() - from);
}

} // namespace

class TestLabelRules : public QObject
{
    Q_OBJECT

private slots:
    void labelsReadWhole_data()
    {
        QTest::addColumn<QString>("data");
        QTest::addColumn<QString>("size");
        for (const char *data : { "example", "sweep" }) {
            for (const char *size : { "800x500", "1600x1000", "slide" })
                QTest::newRow(qPrintable(QString("%1 at %2").arg(data, size))) << data << size;
        }
    }

    void labelsReadWhole()
    {
        QFETCH(QString, data);
        QFETCH(QString, size);
        RooflinePlot plot;
        const RooflinePlot::LabelLayout *layout = exported(plot, data, size);
        QVERIFY(layout);
        QVERIFY(!layout->pointLabels.empty());
        const Document &doc = *plot.document();

        QStringList names;
        for (std::size_t i = 0; i < doc.pointCount(); ++i)
            names << QString::fromStdString(doc.measuredPoint(i).name);
        const QStringList chartNames = chart::chartNames(names);
        QSet<QString> seen;
        for (const auto &[label, at] : layout->pointLabels) {
            QVERIFY2(!label.contains(QChar(0x2026)), qPrintable("cut: " + label));
            QVERIFY2(label.count('\n') <= 1, qPrintable("more than two lines: " + label));
            QVERIFY2(!seen.contains(label), qPrintable("two labels read alike: " + label));
            seen.insert(label);
            bool number = false;
            const int n = label.toInt(&number);
            if (number) {
                QVERIFY(n >= 1 && n <= int(doc.pointCount()));
                continue;
            }
            const QString text = rejoined(label);
            const bool whole
                = std::any_of(chartNames.begin(), chartNames.end(), [&](const QString &name) {
                      return name == text || chart::withoutTrailingRemark(name) == text;
                  });
            QVERIFY2(whole, qPrintable("not a whole name: " + label));
        }
    }

    void labelsBelongToTheirMarkers_data() { labelsReadWhole_data(); }

    // Each point label reads as its own marker's: beside it, no other marker is nearer to the
    // label than its own; with a leader,
    // no other marker hugs the label's box; no two leaders cross; no leader crosses a label.
    void labelsBelongToTheirMarkers()
    {
        QFETCH(QString, data);
        QFETCH(QString, size);
        RooflinePlot plot;
        const RooflinePlot::LabelLayout *layout = exported(plot, data, size);
        QVERIFY(layout);
        QCOMPARE(layout->pointLeaders.size(), layout->pointLabels.size());
        const auto pixel = [&plot](QPointF at) {
            return QPointF(plot.xAxis->coordToPixel(at.x()), plot.yAxis->coordToPixel(at.y()));
        };
        int leaders = 0;
        for (std::size_t i = 0; i < layout->pointLabels.size(); ++i) {
            const auto &[text, at] = layout->pointLabels[i];
            const QRectF box = layout->labels[i];
            const QPointF own = pixel(at);
            const QLineF leader = layout->pointLeaders[i];
            for (const QRectF &marker : layout->markers) {
                const QPointF centre = marker.center();
                if (QLineF(centre, own).length() < 1.0)
                    continue; // its own
                const double reach = leader.isNull() ? distance(box, own) - 0.01 : 9.0;
                QVERIFY2(distance(box, centre) >= reach,
                    qPrintable(QString("\"%1\" %2 reads as the marker at %3,%4's")
                                   .arg(text, show(box))
                                   .arg(centre.x())
                                   .arg(centre.y())));
            }
            if (leader.isNull())
                continue;
            ++leaders;
            // Where a leader is seen: from the edge of its marker (under a dot, two leaders of
            // neighbouring dots may meet unseen).
            const auto visible = [&](const QLineF &line) {
                double radius = 0.0;
                for (const QRectF &marker : layout->markers) {
                    if (QLineF(marker.center(), line.p1()).length() < 1.0)
                        radius = std::max(radius, marker.width() / 2.0);
                }
                return QLineF(line.pointAt(std::min(radius / line.length(), 1.0)), line.p2());
            };
            for (std::size_t k = 0; k < i; ++k) {
                const QLineF other = layout->pointLeaders[k];
                QVERIFY2(other.isNull()
                        || visible(leader).intersects(visible(other))
                            != QLineF::BoundedIntersection,
                    qPrintable("leaders cross: " + text + " and " + layout->pointLabels[k].first));
            }
        }
        qInfo("%zu labels, %d with a leader", layout->pointLabels.size(), leaders);
    }

    void roofLabelsAreNotCrossed_data() { labelsReadWhole_data(); }

    // The ridge's label is crossed by no line. A flat roof's label is crossed by no slanted
    // line where its row has a stretch as wide as the label that no slanted line, marker,
    // legend or other roof label takes (at 800×500 the link roofs cross the FP32 CUDA row along
    // its whole width, and a crossing there is the least bad place).
    void roofLabelsAreNotCrossed()
    {
        QFETCH(QString, data);
        QFETCH(QString, size);
        RooflinePlot plot;
        const RooflinePlot::LabelLayout *layout = exported(plot, data, size);
        QVERIFY(layout);
        QVERIFY(!layout->roofLines.empty());
        const auto slanted = [](const QLineF &line) { return std::abs(line.dy()) >= 0.5; };
        const auto crossing = [&](const std::vector<QRectF> &boxes, bool slantedOnly) {
            for (const QLineF &line : layout->roofLines) {
                if (slantedOnly && !slanted(line))
                    continue;
                for (const QRectF &box : boxes) {
                    if (chart::crosses(line, box.adjusted(1.5, 1.5, -1.5, -1.5)))
                        return show(box);
                }
            }
            return QString();
        };
        QVERIFY(!layout->ridgeLabel.empty());
        const QString ridge = crossing(layout->ridgeLabel, false);
        QVERIFY2(ridge.isEmpty(), qPrintable("ridge label crossed at " + ridge));
        for (const auto &boxes : layout->roofLabels) {
            if (boxes.size() != 1)
                continue; // a slanted label, a row of boxes along its own roof
            const QString flat = crossing(boxes, true);
            if (!flat.isEmpty()
                && widestFreeStretch(*layout, boxes.front()) >= boxes.front().width())
                QFAIL(qPrintable("flat label crossed at " + flat + " with room elsewhere"));
        }
    }

    void roofLabelsLieInsideThePlot_data()
    {
        labelsReadWhole_data();
        QTest::newRow("trace at 1600x1000") << "trace"
                                            << "1600x1000";
        QTest::newRow("trace at 800x500") << "trace"
                                          << "800x500";
        QTest::newRow("trace at 1000x700") << "trace"
                                           << "1000x700";
        QTest::newRow("trace at 660x460") << "trace"
                                          << "660x460";
    }

    // Every roof label shown lies wholly inside the plot, the bold roof's too: a roof just
    // under the frame's top edge carries its label on its other side, not cut by the edge.
    void roofLabelsLieInsideThePlot()
    {
        QFETCH(QString, data);
        QFETCH(QString, size);
        RooflinePlot plot;
        const RooflinePlot::LabelLayout *layout = exported(plot, data, size);
        QVERIFY(layout);
        // The axis rectangle: the layout's plot area is the point labels' room, 2 px inside it.
        const QRectF plotRect = layout->plotArea.adjusted(-2.5, -2.5, 2.5, 2.5);
        int flat = 0;
        for (const auto &boxes : layout->roofLabels) {
            flat += boxes.size() == 1 ? 1 : 0;
            for (const QRectF &box : boxes) {
                QVERIFY2(
                    plotRect.contains(box), qPrintable(show(box) + " outside " + show(plotRect)));
            }
        }
        QVERIFY2(flat >= 1, "no compute roof is named");
        for (const QRectF &box : layout->ridgeLabel) {
            QVERIFY2(plotRect.contains(box),
                qPrintable("ridge label " + show(box) + " outside " + show(plotRect)));
        }
    }

    // Zooming in with the wheel, step by step: a label shown before and after a step mostly stays
    // on the same side of its marker (the spot it had is tried first), it does not jump around.
    void labelsKeepTheirSideWhileZooming()
    {
        RooflinePlot plot;
        plot.resize(1200, 800);
        Document &doc = *plot.document();
        doc.resetHardware(**PresetDatabase::builtin().find("H100"));
        const auto text
            = readTextFile(test::sourceFile("resources/examples/h100-transformer-kernels.csv"));
        QVERIFY(text.has_value());
        doc.resetPoints(readPointsFile(*text, "h100-transformer-kernels.csv").points.points);
        plot.fitToData();
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        const auto sides = [&plot] {
            plot.replot();
            std::map<QString, std::pair<int, int>> out;
            const auto &layout = plot.inspect().labelLayouts().back();
            for (std::size_t i = 0; i < layout.pointLabels.size(); ++i) {
                const auto &[label, at] = layout.pointLabels[i];
                const QPointF marker(
                    plot.xAxis->coordToPixel(at.x()), plot.yAxis->coordToPixel(at.y()));
                const QPointF d = layout.labels[i].center() - marker;
                const auto sign = [](double v) { return v > 2.0 ? 1 : v < -2.0 ? -1 : 0; };
                out[label] = { sign(d.x()), sign(d.y()) };
            }
            return out;
        };
        auto before = sides();
        QVERIFY(before.size() >= 10);
        int compared = 0;
        int kept = 0;
        for (int step = 0; step < 3; ++step) {
            const QPointF centre = plot.axisRect()->rect().center() + QPointF(-120, 80);
            QWheelEvent wheel(centre, plot.mapToGlobal(centre), QPoint(), QPoint(0, 120),
                Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QCoreApplication::sendEvent(&plot, &wheel);
            const auto after = sides();
            for (const auto &[label, side] : after) {
                const auto it = before.find(label);
                if (it == before.end())
                    continue;
                ++compared;
                kept += it->second == side ? 1 : 0;
            }
            before = after;
        }
        qInfo("%d of %d labels kept their side", kept, compared);
        QVERIFY(compared >= 20);
        // Measured: 21 of 29 keep their side; 14 of 29 did when each layout placed every label
        // afresh (a marker pushed out of the plot, or a roof's label sliding along its line,
        // still moves a few).
        QVERIFY2(kept * 3 >= compared * 2, qPrintable(QString("%1 of %2").arg(kept).arg(compared)));
    }
};

QTEST_MAIN(TestLabelRules)
#include "tst_labelrules.moc"
