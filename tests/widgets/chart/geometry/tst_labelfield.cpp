// LabelField's rules on plain pixel geometry (issue 27, item 3): a label never sits beside a
// marker that is not its own, no leader crosses another or a text, a label keeps the spot it
// had, and chart::crosses() clips a segment to a box. Without a window.
#include "widgets/chart/geometry/pointlabelplacement.h"

#include <QTest>

#include <cmath>
#include <random>

using namespace ridgepoint;

namespace {

double distance(const QRectF &box, QPointF p)
{
    const double dx = std::max({ box.left() - p.x(), 0.0, p.x() - box.right() });
    const double dy = std::max({ box.top() - p.y(), 0.0, p.y() - box.bottom() });
    return std::hypot(dx, dy);
}

// A marker's box as the chart gives it: `radius` around its centre.
QRectF markerBox(QPointF centre, double radius = 4.0)
{
    return { centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius };
}

chart::LabelRequest request(QPointF anchor, QSizeF size, double clearance, int preferred = -1)
{
    return { anchor, size, clearance, {}, preferred, true };
}

} // namespace

class TestLabelField : public QObject
{
    Q_OBJECT

private slots:
    void crossesClipsToTheBox_data();
    void crossesClipsToTheBox();
    void besideOnlyItsOwnMarker_data();
    void besideOnlyItsOwnMarker();
    void clustersNeverMislabelNorCross_data();
    void clustersNeverMislabelNorCross();
    void keepsItsSpot_data();
    void keepsItsSpot();
    void avoidsRoofsWhereItCan();
};

void TestLabelField::crossesClipsToTheBox_data()
{
    // The box (10, 10)–(30, 20); each segment worked out by hand.
    QTest::addColumn<QLineF>("line");
    QTest::addColumn<bool>("crosses");
    QTest::newRow("through, left to right") << QLineF(0, 15, 40, 15) << true;
    QTest::newRow("diagonal through a corner region") << QLineF(0, 0, 40, 30) << true;
    QTest::newRow("ends inside") << QLineF(0, 0, 20, 15) << true;
    QTest::newRow("wholly inside") << QLineF(12, 12, 28, 18) << true;
    QTest::newRow("above it") << QLineF(0, 5, 40, 5) << false;
    QTest::newRow("stops short") << QLineF(0, 15, 9, 15) << false;
    QTest::newRow("passes the corner outside") << QLineF(25, 0, 40, 15) << false;
    QTest::newRow("vertical beside") << QLineF(31, 0, 31, 40) << false;
    QTest::newRow("vertical through") << QLineF(20, 0, 20, 40) << true;
    QTest::newRow("a point outside") << QLineF(5, 5, 5, 5) << false;
}

void TestLabelField::crossesClipsToTheBox()
{
    QFETCH(QLineF, line);
    QFETCH(bool, crosses);
    QCOMPARE(chart::crosses(line, QRectF(10, 10, 20, 10)), crosses);
    // The same segment the other way round.
    QCOMPARE(chart::crosses(QLineF(line.p2(), line.p1()), QRectF(10, 10, 20, 10)), crosses);
}

void TestLabelField::besideOnlyItsOwnMarker_data()
{
    // A label 40×10 for the marker at (100, 50), clearance 7 (9 px gap): right of it is
    // (109, 45)–(149, 55), 9 px from its own centre. A second marker at `other` nearer than
    // that to the right spot takes that spot away; the label goes to the next spot, left (1).
    QTest::addColumn<QPointF>("other");
    QTest::addColumn<int>("choice");
    QTest::newRow("no neighbour near") << QPointF(300, 50) << 0;
    QTest::newRow("neighbour at the right spot's far end") << QPointF(155, 50) << 1;
    QTest::newRow("neighbour under the right spot") << QPointF(130, 62) << 1;
    QTest::newRow("neighbour 12 px under the right spot: own is nearer") << QPointF(130, 67) << 0;
    QTest::newRow("neighbour left: the right spot stays") << QPointF(60, 50) << 0;
    QTest::newRow("neighbour right and left: above (2)") << QPointF(155, 50) << 2;
}

void TestLabelField::besideOnlyItsOwnMarker()
{
    QFETCH(QPointF, other);
    QFETCH(int, choice);
    chart::LabelField field(QRectF(0, 0, 400, 200));
    field.addMarker(markerBox(QPointF(100, 50)));
    field.addMarker(markerBox(other));
    if (QByteArray(QTest::currentDataTag()).contains("right and left"))
        field.addMarker(markerBox(QPointF(55, 50)));
    const auto spot = field.place(request(QPointF(100, 50), QSizeF(40, 10), 7.0));
    QVERIFY(spot);
    QCOMPARE(spot->choice, choice);
    QVERIFY(!spot->leader);
    QVERIFY(distance(spot->box, other) >= distance(spot->box, QPointF(100, 50)));
}

void TestLabelField::clustersNeverMislabelNorCross_data()
{
    QTest::addColumn<unsigned>("seed");
    QTest::addColumn<int>("count");
    for (const unsigned seed : { 1u, 2u, 3u, 4u }) {
        for (const int count : { 8, 20, 40 }) {
            const QByteArray row = "seed " + QByteArray::number(seed) + ", "
                + QByteArray::number(count) + " markers";
            QTest::newRow(row.constData()) << seed << count;
        }
    }
}

void TestLabelField::clustersNeverMislabelNorCross()
{
    // Markers in three tight clusters (a few pixels apart, as kernels of one kind are), each
    // labelled in turn: no beside label nearer to another marker than to its own, no leader's
    // label within 27 px of another marker, no two leaders crossing, no box over another.
    QFETCH(unsigned, seed);
    QFETCH(int, count);
    std::mt19937 random(seed);
    std::normal_distribution<double> jitter(0.0, 6.0);
    const std::vector<QPointF> centres = { { 150, 120 }, { 400, 300 }, { 600, 150 } };
    std::vector<QPointF> markers;
    chart::LabelField field(QRectF(0, 0, 800, 500));
    for (int i = 0; i < count; ++i) {
        const QPointF c = centres[static_cast<std::size_t>(i) % centres.size()];
        markers.emplace_back(c.x() + jitter(random), c.y() + jitter(random));
        field.addMarker(markerBox(markers.back()));
    }
    std::vector<chart::LabelSpot> spots;
    std::vector<QPointF> owners;
    for (const QPointF &m : markers) {
        if (auto spot = field.place(request(m, QSizeF(70, 14), 5.0))) {
            spots.push_back(*spot);
            owners.push_back(m);
        }
    }
    QVERIFY(spots.size() >= std::min<std::size_t>(markers.size(), 8));
    for (std::size_t i = 0; i < spots.size(); ++i) {
        const double own = distance(spots[i].box, owners[i]);
        for (const QPointF &m : markers) {
            // Its own, or one under it (under half a pixel away: the same spot on the screen).
            if (std::abs(m.x() - owners[i].x()) < 0.5 && std::abs(m.y() - owners[i].y()) < 0.5)
                continue;
            const double reach = spots[i].leader ? 21.0 : own;
            QVERIFY2(distance(spots[i].box, m) >= reach - 1e-9,
                qPrintable(QString("label %1 (leader %2) at %3,%4 %5x%6 of %7,%8 reads as %9,%10's")
                               .arg(i)
                               .arg(spots[i].leader)
                               .arg(spots[i].box.x())
                               .arg(spots[i].box.y())
                               .arg(spots[i].box.width())
                               .arg(spots[i].box.height())
                               .arg(owners[i].x())
                               .arg(owners[i].y())
                               .arg(m.x())
                               .arg(m.y())));
        }
        for (std::size_t k = 0; k < i; ++k) {
            QVERIFY(!spots[i].box.intersects(spots[k].box));
            if (!spots[i].leader || !spots[k].leader)
                continue;
            // Seen from the edge of each marker (5 px): under a dot two leaders may meet.
            const auto seen = [](const chart::LabelSpot &s) {
                const QLineF l = s.leaderLine;
                return QLineF(l.pointAt(std::min(5.0 / l.length(), 1.0)), l.p2());
            };
            QVERIFY2(seen(spots[i]).intersects(seen(spots[k])) != QLineF::BoundedIntersection,
                qPrintable(QString("leaders %1 and %2 cross").arg(i).arg(k)));
        }
    }
}

void TestLabelField::keepsItsSpot_data()
{
    // The spot a label had (LabelSpot::choice) is tried first: above (2) stays above while it is
    // free; when it is taken, the usual order gives the right (0).
    QTest::addColumn<int>("preferred");
    QTest::addColumn<bool>("blocked");
    QTest::addColumn<int>("choice");
    QTest::newRow("no preference: right") << -1 << false << 0;
    QTest::newRow("had above: above") << 2 << false << 2;
    QTest::newRow("had below left: below left") << 7 << false << 7;
    QTest::newRow("had above, now taken: right") << 2 << true << 0;
    QTest::newRow("a leader spot it had") << 8 + 24 + 3 << false << 8 + 24 + 3;
}

void TestLabelField::keepsItsSpot()
{
    QFETCH(int, preferred);
    QFETCH(bool, blocked);
    QFETCH(int, choice);
    chart::LabelField field(QRectF(0, 0, 400, 300));
    field.addMarker(markerBox(QPointF(200, 150)));
    if (blocked)
        field.addObstacle(QRectF(180, 120, 40, 15)); // over the spot above
    const auto spot = field.place(request(QPointF(200, 150), QSizeF(40, 10), 7.0, preferred));
    QVERIFY(spot);
    QCOMPARE(spot->choice, choice);
}

void TestLabelField::avoidsRoofsWhereItCan()
{
    // A roof line through the right spot: the label takes the left one; with roofs through
    // every spot around the marker it still goes beside it, over a roof, before any leader.
    chart::LabelField field(QRectF(0, 0, 400, 300));
    field.addMarker(markerBox(QPointF(200, 150)));
    field.addLine(QLineF(230, 0, 230, 300));
    auto spot = field.place(request(QPointF(200, 150), QSizeF(40, 10), 7.0));
    QVERIFY(spot);
    QCOMPARE(spot->choice, 1);

    chart::LabelField crossed(QRectF(0, 0, 400, 300));
    crossed.addMarker(markerBox(QPointF(200, 150)));
    for (const double y : { 135.0, 150.0, 165.0 })
        crossed.addLine(QLineF(0, y, 400, y));
    for (const double x : { 170.0, 200.0, 230.0 })
        crossed.addLine(QLineF(x, 0, x, 300));
    // Ring one (radius 9 + 10 × 1.5 = 24) lies inside the grid of lines too.
    spot = crossed.place(request(QPointF(200, 150), QSizeF(40, 10), 7.0));
    QVERIFY(spot);
    QVERIFY(!spot->leader);
    QCOMPARE(spot->choice, 0);
}

QTEST_MAIN(TestLabelField)
#include "tst_labelfield.moc"
