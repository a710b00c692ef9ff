// Labels that never collide (issue 17, item 3): point names placed around their markers (leader
// lines where needed) so that no label covers another, a marker or the legend, at 10, 40 and 200
// points in exports of three sizes; numbers instead of names beyond kMaxNamedPoints, matching
// the "#" column of the exported table; speed-up labels of a clustered baseline apart; a
// point's tooltip kept inside the window at its right and bottom edges.
#include "tests/support/testmachine.h"

#include "core/session/session.h"
#include "widgets/chart/charttooltip.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/dotsize.h"
#include "widgets/chart/geometry/pointlabelplacement.h"
#include "widgets/chart/legendgroups.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/pointlayer.h"
#include "widgets/chart/reviewoverlay.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/chartexporter.h"
#include "widgets/models/pointstablemodel.h"

#include <QApplication>
#include <QImage>
#include <QSortFilterProxyModel>
#include <QTest>

#include <map>
#include <random>

using namespace ridgepoint;

namespace {

// `count` points on the test machine (β = 100 GB/s, π = 1 TFLOP/s): half in a tight cluster
// around 2 FLOP/B and 100 GFLOP/s (where labels compete for room), the rest spread over
// 0.1–300 FLOP/B at 5–90 % of the roof. Names are C++ signatures, some repeated.
std::vector<KernelPoint> cloud(int count, unsigned seed = 17)
{
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<KernelPoint> points;
    for (int i = 0; i < count; ++i) {
        const bool clustered = i % 2 == 0;
        const double intensity = clustered ? 2.0 * (0.9 + 0.2 * unit(random))
                                           : std::pow(10.0, -1.0 + 3.5 * unit(random));
        const double roof = std::min(1e12, 1e11 * intensity);
        const double rate = clustered ? 1e11 * (0.85 + 0.3 * unit(random)) * 0.8
                                      : roof * (0.05 + 0.85 * unit(random));
        const double bytes = 1e9;
        const double flops = intensity * bytes;
        const std::string name = i % 7 == 3
            ? "daxpy(int, double, const double *, double *)"
            : "void ns::kernel_" + std::to_string(i) + "<float>(float const*, float*)";
        points.push_back(test::point(name, i % 3 == 0 ? "a" : "b", flops, bytes, flops / rate));
    }
    return points;
}

const RooflinePlot::LabelLayout *layoutOfWidth(const RooflinePlot &plot, int width)
{
    for (const auto &layout : plot.inspect().labelLayouts()) {
        if (layout.size.width() == width)
            return &layout;
    }
    return nullptr;
}

// The first pair of boxes that overlap, as text for the failure message; empty when none.
QString firstOverlap(const std::vector<QRectF> &a, const std::vector<QRectF> &b, bool same)
{
    const auto show = [](const QRectF &r) {
        return QStringLiteral("(%1,%2 %3×%4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
    };
    for (std::size_t i = 0; i < a.size(); ++i) {
        for (std::size_t j = same ? i + 1 : 0; j < b.size(); ++j) {
            if (a[i].intersects(b[j]))
                return show(a[i]) + " × " + show(b[j]);
        }
    }
    return {};
}

} // namespace

class TestPointLabels : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void shortNames_data();
    void shortNames();
    void duplicatesTakeTheirNumber();
    void placementAvoidsObstacles();
    void labelsNeverCollide_data();
    void labelsNeverCollide();
    void drawnTextsSitInTheirBoxes();
    void numberedMarkersMatchTableRows();
    void labelsClearBigDots_data();
    void labelsClearBigDots();
    void numberColumnMatchesMarkers();
    void speedupLabelsDoNotOverlap();
    void movedPointsComeFirst_data();
    void movedPointsComeFirst();
    void tooltipPosition_data();
    void tooltipPosition();
    void tooltipStaysInsideTheWindow_data();
    void tooltipStaysInsideTheWindow();

private:
    RooflinePlot *m_plot = nullptr;
};

void TestPointLabels::init()
{
    m_plot = new RooflinePlot;
    m_plot->resize(900, 600);
    m_plot->document()->resetHardware(test::machine());
}

void TestPointLabels::cleanup()
{
    delete m_plot;
    m_plot = nullptr;
}

void TestPointLabels::shortNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("shown");
    QTest::newRow("plain") << "gemm"
                           << "gemm";
    QTest::newRow("arguments") << "daxpy(int, double, const double *, double *)"
                               << "daxpy";
    QTest::newRow("return type and template") << "void stencil<3, float>(float const*, float*)"
                                              << "stencil";
    QTest::newRow("namespaces") << "cutlass::gemm::Kernel<T>::run(Params)"
                                << "run";
    QTest::newRow("template with parentheses") << "reduce<(int)4>(float*)"
                                               << "reduce";
    QTest::newRow("spaces around") << "  triad  "
                                   << "triad";
    QTest::newRow("nothing left keeps the whole") << "(anonymous)"
                                                  << "(anonymous)";
    // A plain name of several words is not a signature: no word is a type.
    QTest::newRow("words of a plain name") << "QKV projection"
                                           << "QKV projection";
    QTest::newRow("a remark in parentheses") << "decode qkv_proj GEMV (batch 1)"
                                             << "decode qkv_proj GEMV (batch 1)";
    QTest::newRow("kernel qualifier") << "__global__ void scale(float*)"
                                      << "scale";
}

void TestPointLabels::shortNames()
{
    QFETCH(QString, name);
    QFETCH(QString, shown);
    QCOMPARE(chart::shortKernelName(name), shown);
}

void TestPointLabels::duplicatesTakeTheirNumber()
{
    // Points 1 and 3 (numbers counted from 1) both shorten to "daxpy": told apart by number.
    const QStringList names = chart::chartNames(
        { "daxpy(int, double*)", "scale(double*)", "daxpy(long, double*)", "ns::triad" });
    QCOMPARE(names, QStringList({ "daxpy #1", "scale", "daxpy #3", "triad" }));
}

void TestPointLabels::placementAvoidsObstacles()
{
    // A 200×100 field with a marker at (100, 50) whose right and left spots are taken: the
    // label (40×10, 7 px clearance, so 9 px gap) goes above it, x = 100 − 40/2 = 80,
    // y = 50 − 9 − 10 = 31.
    chart::LabelField field(QRectF(0, 0, 200, 100));
    field.addObstacle(QRectF(105, 45, 60, 10)); // right of the marker
    field.addObstacle(QRectF(40, 45, 55, 10)); // left of it
    const auto spot = field.place(QPointF(100, 50), QSizeF(40, 10), 7.0);
    QVERIFY(spot);
    QCOMPARE(spot->box, QRectF(80, 31, 40, 10));
    QVERIFY(!spot->leader);
    // The spot is taken now: the same label again goes elsewhere, still in the field.
    const auto second = field.place(QPointF(100, 50), QSizeF(40, 10), 7.0);
    QVERIFY(second);
    QVERIFY(!second->box.intersects(spot->box));
    QVERIFY(QRectF(0, 0, 200, 100).contains(second->box));
    // A field full of obstacles has no spot at all.
    chart::LabelField full(QRectF(0, 0, 50, 50));
    full.addObstacle(QRectF(0, 0, 50, 50));
    QVERIFY(!full.place(QPointF(25, 25), QSizeF(10, 5), 2.0));
}

void TestPointLabels::labelsNeverCollide_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("table"); // the points table under the chart: the numbers' key
    for (const int count : { 10, 40, 200 }) {
        for (const QSize size : { QSize(400, 250), QSize(800, 500), QSize(1920, 1080) }) {
            for (const bool table : { false, true }) {
                if (table && count <= int(chart::kMaxNamedPoints))
                    continue;
                const QByteArray row = QByteArray::number(count) + " points, "
                    + QByteArray::number(size.width()) + "x" + QByteArray::number(size.height())
                    + (table ? ", with the table" : "");
                QTest::newRow(row.constData()) << count << size << table;
            }
        }
    }
}

void TestPointLabels::labelsNeverCollide()
{
    QFETCH(int, count);
    QFETCH(QSize, size);
    QFETCH(bool, table);
    m_plot->document()->resetPoints(cloud(count));
    m_plot->fitToData();
    ExportOptions options;
    options.width = size.width();
    options.height = size.height();
    options.table = table;
    QVERIFY(!QImage::fromData(ChartExporter(*m_plot).renderToBytes("png", options)).isNull());
    const RooflinePlot::LabelLayout *layout = layoutOfWidth(*m_plot, size.width());
    QVERIFY(layout);
    QVERIFY(size.width() < 800 || !layout->labels.empty());
    QVERIFY(!layout->markers.empty());
    QString overlap = firstOverlap(layout->labels, layout->labels, true);
    QVERIFY2(overlap.isEmpty(), qPrintable("label over label: " + overlap));
    overlap = firstOverlap(layout->labels, layout->markers, false);
    QVERIFY2(overlap.isEmpty(), qPrintable("label over marker: " + overlap));
    if (!layout->legend.isNull()) {
        overlap = firstOverlap(layout->labels, { layout->legend }, false);
        QVERIFY2(overlap.isEmpty(), qPrintable("label over legend: " + overlap));
    }
    for (const QRectF &box : layout->labels)
        QVERIFY(layout->plotArea.contains(box));
    // Names up to kMaxNamedPoints, numbers beyond when the table under the chart keys them;
    // without it, no number: the kLeadingLabels points with most time keep their names.
    const bool numbers = std::size_t(count) > chart::kMaxNamedPoints;
    for (const auto &[text, at] : layout->pointLabels) {
        bool number = false;
        text.toInt(&number);
        QCOMPARE(number, numbers && table);
    }
    if (numbers && !table) {
        QVERIFY(layout->pointLabels.size() <= chart::kLeadingLabels);
        QVERIFY(size.width() < 800 || !layout->pointLabels.empty());
    }
    // Ten points on a full-HD picture: every one is named.
    if (count == 10 && size.width() >= 800)
        QCOMPARE(layout->pointLabels.size(), std::size_t(10));
}

void TestPointLabels::drawnTextsSitInTheirBoxes()
{
    // The boxes the placement reserved hold the texts as QCustomPlot draws them.
    m_plot->document()->resetPoints(cloud(40));
    m_plot->fitToData();
    m_plot->replot();
    QVERIFY(!m_plot->inspect().labelLayouts().empty());
    const RooflinePlot::LabelLayout *layout = &m_plot->inspect().labelLayouts().back();
    int checked = 0;
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(m_plot->item(i));
        const bool pointLabel = text
            && std::any_of(layout->pointLabels.begin(), layout->pointLabels.end(),
                [text](const auto &label) { return label.first == text->text(); });
        if (!pointLabel || !text->visible())
            continue;
        const QRectF drawn(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition());
        const bool held = std::any_of(layout->labels.begin(), layout->labels.end(),
            [&](const QRectF &box) { return box.adjusted(-0.5, -0.5, 0.5, 0.5).contains(drawn); });
        QVERIFY2(held, qPrintable(text->text()));
        ++checked;
    }
    QCOMPARE(std::size_t(checked), layout->pointLabels.size());
}

void TestPointLabels::numberedMarkersMatchTableRows()
{
    const std::vector<KernelPoint> points = cloud(200);
    m_plot->document()->resetPoints(points);
    m_plot->fitToData();
    ExportOptions options;
    options.width = 1920;
    options.height = 1080;
    options.table = true;
    QImage device(options.width, options.height, QImage::Format_ARGB32);
    const ExportTable table = ChartExporter(*m_plot).exportTable(options, &device);
    QVERIFY(table.shown > 0);
    QCOMPARE(table.kinds.front(), kRowNumberColumn);
    QCOMPARE(table.cells.front().front(), QStringLiteral("#"));
    // Row r of the table: number r + 1, the name of point r.
    PointsTableModel model(m_plot->document());
    for (int r = 1; r <= table.shown; ++r) {
        QCOMPARE(table.cells[std::size_t(r)][0], QString::number(r));
        QCOMPARE(table.cells[std::size_t(r)][1],
            model.data(model.index(r - 1, PointsTableModel::Name)).toString());
    }
    // On the chart: a marker numbered n is point n − 1.
    QVERIFY(!ChartExporter(*m_plot).renderToBytes("png", options).isEmpty());
    const RooflinePlot::LabelLayout *layout = layoutOfWidth(*m_plot, options.width);
    QVERIFY(layout);
    QVERIFY(layout->pointLabels.size() > 20);
    for (const auto &[text, at] : layout->pointLabels) {
        bool ok = false;
        const int number = text.toInt(&ok);
        QVERIFY2(ok && number >= 1 && number <= 200, qPrintable(text));
        const auto coords = m_plot->pointCoords(std::size_t(number - 1));
        QVERIFY(coords);
        QVERIFY(std::abs(coords->x() / at.x() - 1.0) < 1e-12);
        QVERIFY(std::abs(coords->y() / at.y() - 1.0) < 1e-12);
    }
}

void TestPointLabels::labelsClearBigDots_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<QSize>("size");
    QTest::newRow("12 named, 800x500") << 12 << QSize(800, 500);
    QTest::newRow("40 named, 1920x1080") << 40 << QSize(1920, 1080);
    QTest::newRow("120 numbered, 1920x1080") << 120 << QSize(1920, 1080);
}

void TestPointLabels::labelsClearBigDots()
{
    // The cloud with times spread over three decades: every 5th point takes 1 s, the others
    // 1 ms to 0.3 s, so every size class is drawn and the big dots crowd the cluster.
    QFETCH(int, count);
    QFETCH(QSize, size);
    std::vector<KernelPoint> points = cloud(count, 29);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const double seconds = i % 5 == 0 ? 1.0 : std::pow(10.0, -3.0 + 2.5 * double(i % 7) / 6.0);
        points[i].seconds = seconds;
    }
    m_plot->document()->resetPoints(points);
    m_plot->fitToData();
    QVERIFY(m_plot->inspect().dotSizesShown());
    const std::vector<int> classes = m_plot->inspect().dotSizeClasses();
    QVERIFY(std::count(classes.begin(), classes.end(), chart::kDotSizeClasses - 1) > 0);
    ExportOptions options;
    options.width = size.width();
    options.height = size.height();
    QVERIFY(!QImage::fromData(ChartExporter(*m_plot).renderToBytes("png", options)).isNull());
    const RooflinePlot::LabelLayout *layout = layoutOfWidth(*m_plot, size.width());
    QVERIFY(layout);
    QVERIFY(!layout->labels.empty());
    // The markers as drawn: the big ones 24 px across plus their pen.
    double widest = 0.0;
    for (const QRectF &box : layout->markers)
        widest = std::max(widest, box.width());
    QVERIFY2(widest >= chart::kMaxDotDiameter, qPrintable(QString::number(widest)));
    QString overlap = firstOverlap(layout->labels, layout->markers, false);
    QVERIFY2(overlap.isEmpty(), qPrintable("label over marker: " + overlap));
    overlap = firstOverlap(layout->labels, layout->labels, true);
    QVERIFY2(overlap.isEmpty(), qPrintable("label over label: " + overlap));
}

void TestPointLabels::numberColumnMatchesMarkers()
{
    // The window's points table, sorted by payoff as it opens on timed points: the "#" cell of
    // each row is the number its point's marker carries.
    const std::vector<KernelPoint> points = cloud(120);
    m_plot->document()->resetPoints(points);
    m_plot->fitToData();
    PointsTableModel model(m_plot->document());
    QCOMPARE(model.headerData(PointsTableModel::Number, Qt::Horizontal, Qt::DisplayRole).toString(),
        QStringLiteral("#"));
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(PointsTableModel::kSortRole);
    proxy.sort(PointsTableModel::Payoff, Qt::DescendingOrder);
    ExportOptions options; // 1600×1000, with the table whose "#" column keys the numbers
    options.table = true;
    QVERIFY(!ChartExporter(*m_plot).renderToBytes("png", options).isEmpty());
    const RooflinePlot::LabelLayout *layout = layoutOfWidth(*m_plot, options.width);
    QVERIFY(layout);
    QVERIFY(layout->pointLabels.size() > 20);
    for (const auto &[text, at] : layout->pointLabels) {
        bool ok = false;
        const int number = text.toInt(&ok);
        QVERIFY2(ok, qPrintable(text));
        // The row of the marker's point, wherever the sort put it.
        int found = -1;
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const auto at0
                = m_plot->pointCoords(std::size_t(proxy.mapToSource(proxy.index(row, 0)).row()));
            if (at0 && std::abs(at0->x() / at.x() - 1.0) < 1e-12
                && std::abs(at0->y() / at.y() - 1.0) < 1e-12)
                found = row;
        }
        QVERIFY2(found >= 0, qPrintable(text));
        QCOMPARE(proxy.index(found, PointsTableModel::Number).data().toString(), text);
        QCOMPARE(proxy.index(found, PointsTableModel::Name).data().toString(),
            QString::fromStdString(points[std::size_t(number - 1)].name));
    }
    // Sorting by "#" is numeric: 1, 2, …, 9, 10, not 1, 10, 100, 101.
    proxy.sort(PointsTableModel::Number, Qt::AscendingOrder);
    for (int row = 0; row < proxy.rowCount(); ++row)
        QCOMPARE(
            proxy.index(row, PointsTableModel::Number).data().toString(), QString::number(row + 1));
}

void TestPointLabels::speedupLabelsDoNotOverlap()
{
    // Twelve kernels within 10 % of 2 FLOP/B and 80 GFLOP/s, each 1.5–2.6× slower in the
    // baseline: twelve arrows of nearly the same place and length.
    std::vector<KernelPoint> now;
    std::vector<KernelPoint> before;
    for (int i = 0; i < 12; ++i) {
        const double flops = 2e9 * (1.0 + 0.008 * i);
        const double seconds = flops / (8e10 * (1.0 + 0.008 * i));
        now.push_back(test::point("k" + std::to_string(i), "g", flops, 1e9, seconds));
        before.push_back(
            test::point("k" + std::to_string(i), "g", flops, 1e9, seconds * (1.5 + 0.1 * i)));
    }
    Document *document = m_plot->document();
    document->resetPoints(now);
    auto *overlay = new ReviewOverlay(m_plot, document);
    document->setBaseline(Baseline { "old.csv", before });
    m_plot->fitToData();
    ExportOptions options;
    options.width = 800;
    options.height = 500;
    QVERIFY(!ChartExporter(*m_plot).renderToBytes("png", options).isEmpty());
    const RooflinePlot::LabelLayout *layout = layoutOfWidth(*m_plot, options.width);
    QVERIFY(layout);
    QCOMPARE(overlay->baselineArrows().size(), std::size_t(12));
    // Speed-up labels are the boxes beyond the point labels: several of them found room.
    QVERIFY(layout->labels.size() >= layout->pointLabels.size() + 4);
    const QString overlap = firstOverlap(layout->labels, layout->labels, true);
    QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
    QVERIFY(firstOverlap(layout->labels, layout->markers, false).isEmpty());
    delete overlay;
}

void TestPointLabels::movedPointsComeFirst_data()
{
    QTest::addColumn<int>("count");
    QTest::newRow("12 moved") << 12;
    QTest::newRow("300 moved") << 300;
    QTest::newRow("5000 moved: past the caps") << 5000;
}

void TestPointLabels::movedPointsComeFirst()
{
    // Issue 27: a session whose every point is moved. Each moved point has its ghost and its
    // label, the labels placed before any other, the last point first; past kMaxWhatIfGhosts
    // and kMaxPriorityLabels the first points in table order keep them and the plot holds no
    // more items (QCustomPlot's items cost time in proportion to their number).
    QFETCH(int, count);
    const std::vector<KernelPoint> points = cloud(count);
    Session session;
    session.hardware = test::machine();
    for (KernelPoint point : points) {
        // A hierarchical point: its two dots joined by a line (a curve, as costly as an item).
        point.bytes.push_back({ MemoryLevel::L2, 3.0 * point.bytes.front().bytes });
        session.points.push_back({ point, 0.5, 0.8, {} });
    }
    m_plot->document()->loadSession(std::move(session));
    chart::changeDisplay(
        *m_plot, [&](chart::PlotDisplay &d) { d.points = chart::PointsMode::Dots; });
    m_plot->fitToData();
    ExportOptions options;
    options.width = 1600;
    options.height = 1000;
    QVERIFY(!ChartExporter(*m_plot).renderToBytes("png", options).isEmpty());

    const std::size_t n = std::size_t(count);
    const std::size_t ghosts = std::min(n, chart::kMaxWhatIfGhosts);
    QCOMPARE(m_plot->inspect().ghosts().size(), ghosts);
    QCOMPARE(m_plot->inspect().ghosts().back().second, *m_plot->pointCoords(ghosts - 1));
    QVERIFY2(std::size_t(m_plot->itemCount())
            <= 2 * (chart::kMaxWhatIfGhosts + chart::kMaxPriorityLabels) + 100,
        qPrintable(QString::number(m_plot->itemCount())));
    QVERIFY2(std::size_t(m_plot->plottableCount()) <= chart::kMaxLevelLines + 100,
        qPrintable(QString::number(m_plot->plottableCount())));
    // The labels placed, in the order they were placed: by point, the last first.
    std::map<std::pair<double, double>, std::size_t> byPlace; // where a label points
    for (std::size_t i = 0; i < n; ++i) {
        const auto &a = m_plot->document()->analysis(i);
        QVERIFY(a);
        byPlace[{ a->levels.back().intensity, a->performance.value_or(a->attainable) }] = i;
    }
    const RooflinePlot::LabelLayout *layout = layoutOfWidth(*m_plot, options.width);
    QVERIFY(layout);
    QVERIFY(!layout->pointLabels.empty());
    std::size_t previous = n;
    for (const auto &[text, at] : layout->pointLabels) {
        const auto it = byPlace.find({ at.x(), at.y() });
        QVERIFY2(it != byPlace.end(), qPrintable(text));
        QVERIFY2(it->second < previous, qPrintable(text));
        QVERIFY2(it->second < chart::kMaxPriorityLabels, qPrintable(text));
        previous = it->second;
    }
    if (count == 12) // room for all twelve: each is named
        QCOMPARE(layout->pointLabels.size(), n);
}

void TestPointLabels::tooltipPosition_data()
{
    QTest::addColumn<QPoint>("cursor");
    QTest::addColumn<QPoint>("expected");
    // Window (100, 100)–(699, 499), tooltip 200×80. Qt's place is cursor + (2, 16).
    QTest::newRow("room below right") << QPoint(200, 200) << QPoint(202, 216);
    // At x = 600 the tooltip would end at 801 > 699: it goes left, 600 − 4 − 200 = 396.
    QTest::newRow("right edge flips left") << QPoint(600, 200) << QPoint(396, 216);
    // At y = 450 it would end at 545 > 499: it goes above, 450 − 8 − 80 = 362.
    QTest::newRow("bottom edge flips up") << QPoint(200, 450) << QPoint(202, 362);
    QTest::newRow("corner flips both") << QPoint(690, 495) << QPoint(486, 407);
}

void TestPointLabels::tooltipPosition()
{
    QFETCH(QPoint, cursor);
    QFETCH(QPoint, expected);
    const QRect window(100, 100, 600, 400);
    const QPoint at = chart::tooltipTopLeft(cursor, QSize(200, 80), window);
    QCOMPARE(at, expected);
    QVERIFY(window.contains(QRect(at, QSize(200, 80))));
}

void TestPointLabels::tooltipStaysInsideTheWindow_data()
{
    QTest::addColumn<bool>("right"); // the point at the right edge, else at the bottom
    QTest::newRow("right edge") << true;
    QTest::newRow("bottom edge") << false;
}

void TestPointLabels::tooltipStaysInsideTheWindow()
{
    QFETCH(bool, right);
    // A window well inside the screen, so the screen's own bounds do not flip the tooltip.
    m_plot->resize(640, 480);
    m_plot->move(20, 20);
    m_plot->document()->resetPoints(test::points());
    m_plot->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_plot));
    m_plot->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_plot));
    // "gemm" (100 FLOP/B, 500 GFLOP/s) moved to 6 pixels inside the plot's right or bottom edge.
    const QRect area = m_plot->axisRect()->rect();
    const double x = 100.0;
    const double y = 5e11;
    if (right) {
        m_plot->xAxis->setRange(0.1, x);
        m_plot->xAxis->setRange(0.1, m_plot->xAxis->pixelToCoord(area.right() + 6.0));
    } else {
        m_plot->yAxis->setRange(y, 1e13);
        m_plot->yAxis->setRange(m_plot->yAxis->pixelToCoord(area.bottom() + 6.0), 1e13);
    }
    m_plot->replot();
    const QPoint at = m_plot->pointPosition(1).toPoint();
    QVERIFY(m_plot->rect().contains(at));
    QCOMPARE(m_plot->pointAt(at), 1);
    // The hover, again if need be: on the offscreen platform the session's first tooltip is
    // hidden by the window activation its own window causes.
    const auto tipShown = [] {
        const auto widgets = QApplication::topLevelWidgets();
        return std::any_of(widgets.cbegin(), widgets.cend(),
            [](const QWidget *w) { return w->inherits("QTipLabel") && w->isVisible(); });
    };
    for (int attempt = 0; attempt < 3 && !tipShown(); ++attempt) {
        QTest::mouseMove(m_plot, at - QPoint(30, 30));
        QTest::mouseMove(m_plot, at);
        QTest::qWait(200);
    }
    QVERIFY(tipShown());
    const QRect window(m_plot->mapToGlobal(QPoint(0, 0)), m_plot->size());
    for (const QWidget *tip : QApplication::topLevelWidgets()) {
        if (tip->inherits("QTipLabel") && tip->isVisible()) {
            QVERIFY2(window.contains(tip->geometry()),
                qPrintable(QStringLiteral("tooltip %1,%2 %3×%4 in window %5,%6 %7×%8")
                               .arg(tip->x())
                               .arg(tip->y())
                               .arg(tip->width())
                               .arg(tip->height())
                               .arg(window.x())
                               .arg(window.y())
                               .arg(window.width())
                               .arg(window.height())));
        }
    }
}

QTEST_MAIN(TestPointLabels)
#include "tst_pointlabels.moc"
