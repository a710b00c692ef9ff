// Which groups the legend names (widgets/chart/legendgroups.h): every group up to twelve, as a
// points file always had; past twelve (a profiler trace's operators) the eight with most time,
// largest first, each in its own palette colour, and "+ N more groups (X % of time)" for the
// rest, drawn in one neutral colour. The rule on tables of times, then on a real RooflinePlot.
#include "tests/support/testmachine.h"

#include "widgets/chart/charttheme.h"
#include "widgets/chart/legendgroups.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"

#include <QImage>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ridgepoint;
using chart::legendGroups;

using Seconds = QList<double>;
using Groups = QList<int>;

namespace {

std::vector<double> toVector(const Seconds &seconds)
{
    return { seconds.begin(), seconds.end() };
}

Groups toList(const std::vector<std::size_t> &groups)
{
    Groups out;
    for (const std::size_t g : groups)
        out << static_cast<int>(g);
    return out;
}

// 1, 2, …, n seconds.
Seconds rising(int n)
{
    Seconds out;
    for (int i = 1; i <= n; ++i)
        out << i;
    return out;
}

QStringList legendNames(const RooflinePlot &plot)
{
    QStringList names;
    for (int i = 0; i < plot.legend->itemCount(); ++i) {
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot.legend->item(i)))
            names << item->plottable()->name();
    }
    return names;
}

// The candidate colour nearest most of the 3 × 3 pixels at the centre of point `i`'s dot as
// drawn (a label's leader line may cross the centre; the smallest dot is 5 pixels across).
QColor drawnColor(
    RooflinePlot &plot, const QImage &image, std::size_t i, const QList<QColor> &candidates)
{
    const QPoint centre = plot.pointPosition(i).toPoint();
    QList<int> votes(candidates.size(), 0);
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            const QColor pixel = image.pixelColor(centre + QPoint(dx, dy));
            qsizetype best = 0;
            int bestDistance = std::numeric_limits<int>::max();
            for (qsizetype c = 0; c < candidates.size(); ++c) {
                const QColor &colour = candidates[c];
                const int distance = std::abs(colour.red() - pixel.red())
                    + std::abs(colour.green() - pixel.green())
                    + std::abs(colour.blue() - pixel.blue());
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = c;
                }
            }
            ++votes[best];
        }
    }
    return candidates[std::max_element(votes.begin(), votes.end()) - votes.begin()];
}

// The palette's eight colours and the neutral one.
QList<QColor> candidateColors()
{
    QList<QColor> colors;
    for (std::size_t g = 0; g < 8; ++g)
        colors << chart::groupColor(g);
    return colors << chart::otherGroupsColor();
}

} // namespace

class TestLegendGroups : public QObject
{
    Q_OBJECT

private slots:
    void namesTheGroupsWithMostTime_data();
    void namesTheGroupsWithMostTime();
    void coloursFollowTheRank();
    void plotOfFewGroupsIsUnchanged();
    void plotOfManyGroupsFoldsTheRest();
    void leadingPointsHaveMostTime_data();
    void leadingPointsHaveMostTime();
    void crowdedPlotLabelsTheLeadingPoints();
};

void TestLegendGroups::namesTheGroupsWithMostTime_data()
{
    QTest::addColumn<Seconds>("seconds"); // per group, in the order of first appearance
    QTest::addColumn<Groups>("named"); // in the legend's order
    QTest::addColumn<int>("folded");
    QTest::addColumn<double>("foldedShare");
    QTest::newRow("none") << Seconds {} << Groups {} << 0 << 0.0;
    QTest::newRow("three: all, in order of appearance")
        << Seconds { 1, 5, 2 } << Groups { 0, 1, 2 } << 0 << 0.0;
    QTest::newRow("twelve: all (the limit)")
        << rising(12) << Groups { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 } << 0 << 0.0;
    // 1 + … + 13 = 91 s; the five smallest, 1 + … + 5 = 15 s, are folded.
    QTest::newRow("thirteen: the eight largest")
        << rising(13) << Groups { 12, 11, 10, 9, 8, 7, 6, 5 } << 5 << 15.0 / 91.0;
    // 13 groups of 1 s and one of 5 s: ties keep the order of appearance; 6 of 18 s folded.
    QTest::newRow("ties by appearance") << Seconds { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5 }
                                        << Groups { 13, 0, 1, 2, 3, 4, 5, 6 } << 6 << 6.0 / 18.0;
    QTest::newRow("no time: the first eight, no share")
        << Seconds(13, 0.0) << Groups { 0, 1, 2, 3, 4, 5, 6, 7 } << 5 << 0.0;
    // A trace's long tail: 50 s and 30 s, then 148 groups of 20/148 s each (100 s in all);
    // 142 of those folded: 142 · 20/148 = 19.19 s.
    Seconds tail { 50, 30 };
    for (int i = 0; i < 148; ++i)
        tail << 20.0 / 148.0;
    QTest::newRow("150 groups, a long tail")
        << tail << Groups { 0, 1, 2, 3, 4, 5, 6, 7 } << 142 << (142.0 * 20.0 / 148.0) / 100.0;
}

void TestLegendGroups::namesTheGroupsWithMostTime()
{
    QFETCH(Seconds, seconds);
    QFETCH(Groups, named);
    QFETCH(int, folded);
    QFETCH(double, foldedShare);
    const auto legend = legendGroups(toVector(seconds));
    QCOMPARE(toList(legend.named), named);
    QCOMPARE(legend.folded, static_cast<std::size_t>(folded));
    QVERIFY2(std::abs(legend.foldedShare - foldedShare) < 1e-12,
        qPrintable(QString::number(legend.foldedShare, 'g', 17)));
    QCOMPARE(legend.colorSlot.size(), static_cast<std::size_t>(seconds.size()));
}

void TestLegendGroups::coloursFollowTheRank()
{
    // Few groups keep their colour of first appearance; past twelve, the named get the
    // palette's colours by rank and the rest the neutral one (-1).
    QCOMPARE(legendGroups({ 1, 5, 2 }).colorSlot, (std::vector<int> { 0, 1, 2 }));
    QCOMPARE(legendGroups(toVector(rising(13))).colorSlot,
        (std::vector<int> { -1, -1, -1, -1, -1, 7, 6, 5, 4, 3, 2, 1, 0 }));
}

void TestLegendGroups::plotOfFewGroupsIsUnchanged()
{
    RooflinePlot plot;
    plot.resize(900, 600);
    plot.document()->resetHardware(test::machine());
    // Group "b" has the most time but came second: the legend keeps the order of appearance and
    // each group its colour of appearance. Intensities 0.5, 4 and 32 FLOP/B: apart on the chart.
    plot.document()->resetPoints({ test::point("k1", "a", 5e8, 1e9, 0.1),
        test::point("k2", "b", 4e9, 1e9, 0.9), test::point("k3", "c", 3.2e10, 1e9, 0.2) });
    plot.fitToData();
    plot.replot();
    const QStringList names = legendNames(plot);
    const auto a = names.indexOf("a");
    QVERIFY2(a >= 0 && names.mid(a, 3) == (QStringList { "a", "b", "c" }),
        qPrintable(names.join(" | ")));
    QVERIFY(!names.join(" ").contains("more groups"));
    const QImage image = plot.grab().toImage();
    for (std::size_t i = 0; i < 3; ++i)
        QCOMPARE(drawnColor(plot, image, i, candidateColors()), chart::groupColor(i));
}

void TestLegendGroups::plotOfManyGroupsFoldsTheRest()
{
    RooflinePlot plot;
    plot.resize(1200, 800);
    plot.document()->resetHardware(test::machine());
    // Twenty groups "g1" … "g20", group gN taking N seconds: 210 s in all. The eight named are
    // g20 … g13; the twelve folded take 1 + … + 12 = 78 s, 37.1 % of the time. Intensities
    // 1.5^N FLOP/B (1.5 … 3325) keep the dots apart.
    std::vector<KernelPoint> points;
    for (int n = 1; n <= 20; ++n) {
        const std::string name = "g" + std::to_string(n);
        points.push_back(test::point(name + " kernel", name, 1e9 * std::pow(1.5, n), 1e9, n));
    }
    plot.document()->resetPoints(points);
    plot.fitToData();
    plot.replot();
    const QStringList names = legendNames(plot);
    const auto first = names.indexOf("g20");
    QVERIFY2(first >= 0, qPrintable(names.join(" | ")));
    QCOMPARE(names.mid(first, 9),
        (QStringList { "g20", "g19", "g18", "g17", "g16", "g15", "g14", "g13",
            "+ 12 more groups (37.1 % of time)" }));
    QVERIFY(!names.contains("g12"));
    // The named groups in the palette's colours by rank (g20 the first), the rest grey.
    const QImage image = plot.grab().toImage();
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::size_t rank = points.size() - 1 - i; // g20 is point 19, rank 0
        const QColor expected = rank < 8 ? chart::groupColor(rank) : chart::otherGroupsColor();
        QVERIFY2(drawnColor(plot, image, i, candidateColors()) == expected,
            qPrintable(QString::fromStdString(points[i].group)));
    }
}

void TestLegendGroups::leadingPointsHaveMostTime_data()
{
    QTest::addColumn<Seconds>("seconds"); // per point
    QTest::addColumn<int>("count");
    QTest::addColumn<Groups>("leading"); // largest first
    QTest::newRow("the three longest") << Seconds { 1, 9, 3, 7, 5 } << 3 << Groups { 1, 3, 4 };
    QTest::newRow("ties by index") << Seconds { 2, 5, 2, 5 } << 3 << Groups { 1, 3, 0 };
    QTest::newRow("points without time never lead")
        << Seconds { 0, 4, 0, -1, 2 } << 8 << Groups { 1, 4 };
    QTest::newRow("none") << Seconds {} << 8 << Groups {};
}

void TestLegendGroups::leadingPointsHaveMostTime()
{
    QFETCH(Seconds, seconds);
    QFETCH(int, count);
    QFETCH(Groups, leading);
    QCOMPARE(
        toList(chart::leadingPoints(toVector(seconds), static_cast<std::size_t>(count))), leading);
}

void TestLegendGroups::crowdedPlotLabelsTheLeadingPoints()
{
    // 450 points (more than kMaxNumberedPoints = 400 are labelled) in one group, point k taking
    // k + 1 ms: before, none had a label; now the eight longest, "k449" … "k442", are named.
    RooflinePlot plot;
    plot.resize(1200, 800);
    plot.document()->resetHardware(test::machine());
    std::vector<KernelPoint> points;
    for (int k = 0; k < 450; ++k) {
        const double intensity = std::pow(10.0, -1.0 + 4.0 * k / 450.0); // 0.1 … 10⁴ FLOP/B
        points.push_back(
            test::point("k" + std::to_string(k), "one", 1e9 * intensity, 1e9, 1e-3 * (k + 1)));
    }
    plot.document()->resetPoints(points);
    plot.fitToData();
    plot.replot();
    const QStringList labels = plot.inspect().pointLabels();
    QVERIFY2(!labels.isEmpty() && labels.size() <= 8, qPrintable(labels.join(" | ")));
    for (const QString &label : labels) {
        const int k = label.mid(1).toInt();
        QVERIFY2(label.startsWith('k') && k >= 442, qPrintable(label));
    }
}

QTEST_MAIN(TestLegendGroups)
#include "tst_legendgroups.moc"
