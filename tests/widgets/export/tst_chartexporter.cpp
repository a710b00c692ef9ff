// ChartExporter, the exports of the chart (issue 4): PNG, SVG and PDF that carry the session and
// give it back, SVGs that are valid XML with their text kept as text, PNGs of the asked size and
// resolution that are not blank, the title and the points table.
#include "tests/support/testfiles.h"
#include "tests/support/testmachine.h"

#include "widgets/chart/charttheme.h"
#include "widgets/chart/pointlayer.h"
#include "widgets/chart/reviewoverlay.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/document/sessionfile.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/figuresession.h"
#include "widgets/models/pointstablemodel.h"

#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace ridgepoint;
using test::readAll;

namespace {

// The text content of every <text> element of an SVG, in order.
QStringList svgTexts(const QByteArray &svg)
{
    QStringList texts;
    QXmlStreamReader xml(svg);
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    }
    return texts;
}

} // namespace

class TestChartExporter : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void sessionRoundTrip_data();
    void sessionRoundTrip();
    void pictureWithoutSession_data();
    void pictureWithoutSession();
    void oversizedSessionIsLeftOut();
    void pictureKind_data();
    void pictureKind();
    void svgIsValidXmlWithText();
    void selectionIsNotExported_data();
    void selectionIsNotExported();
    void pngSizeResolutionAndContent_data();
    void pngSizeResolutionAndContent();
    void titleAndTable();
    void tableSaysWhatItLeftOut();
    void tableFitsItsWidth_data();
    void tableFitsItsWidth();
    void smallExportKeepsEverythingInside_data();
    void smallExportKeepsEverythingInside();
    void baselineColumnBesideACompareMachine();

private:
    // The test points in `theme`, one with a long templated name, and a baseline 1.37x slower:
    // a table of all seven columns, the widest one the chart draws.
    void loadWideTable(int theme)
    {
        chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) {
            d.theme = ChartTheme::of(static_cast<ChartTheme::Kind>(theme));
        });
        Document *document = m_plot->document();
        auto points = test::points();
        points[0].name
            = "void flash_attention_fwd_kernel<cutlass::bfloat16_t, 128, 64, true>(Params)";
        document->resetPoints(points);
        auto before = points;
        for (auto &p : before)
            *p.seconds *= 1.37;
        document->setBaseline(Baseline { "before.csv", before });
    }

    // A picture of `size` at 96 dpi, to lay the table out on as an export would.
    static QImage screenImage(const QSize &size)
    {
        QImage device(size, QImage::Format_RGB32);
        device.setDotsPerMeterX(qRound(96 / 0.0254));
        device.setDotsPerMeterY(qRound(96 / 0.0254));
        return device;
    }

    // The session of the document as the window would save it.
    QByteArray sessionJson() const
    {
        return QByteArray::fromStdString(writeSessionJson(m_plot->document()->toSession()));
    }

    QTemporaryDir m_dir;
    RooflinePlot *m_plot = nullptr;
    ReviewOverlay *m_overlay = nullptr; // notes, targets and baseline arrows, as in the window
};

void TestChartExporter::init()
{
    m_plot = new RooflinePlot;
    m_plot->resize(900, 600);
    Document *document = m_plot->document();
    document->resetHardware(test::machine());
    auto points = test::points();
    // Names that XML, JSON and PNG text chunks must all carry unchanged.
    points[2].name = "stencil <3d> & \"halo\" ]]> ünïcødé";
    document->resetPoints(points);
    document->setAnnotations({ { "look here", "gemm", 0.0, 0.0 }, { "free note", "", 2.0, 3e10 } },
        QStringLiteral("notes"));
    document->setTargets({ { "DRAM", 0.6, "" } }, QStringLiteral("target"));
    m_overlay = new ReviewOverlay(m_plot, document);
}

void TestChartExporter::cleanup()
{
    delete m_overlay;
    m_overlay = nullptr;
    delete m_plot;
    m_plot = nullptr;
}

void TestChartExporter::sessionRoundTrip_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<bool>("table");
    QTest::newRow("png") << "png" << false;
    QTest::newRow("svg") << "svg" << false;
    QTest::newRow("pdf") << "pdf" << false;
    QTest::newRow("png with table") << "png" << true;
    QTest::newRow("svg with table") << "svg" << true;
}

void TestChartExporter::sessionRoundTrip()
{
    QFETCH(QString, suffix);
    QFETCH(bool, table);
    ExportOptions options;
    options.width = 800;
    options.height = 500;
    options.table = table;
    options.title = "Review 12: \"before\" & <after>";
    options.session = sessionJson();
    const QString file = m_dir.filePath("figure." + suffix);
    QCOMPARE(ChartExporter(*m_plot).exportTo(file, options), QString());

    const SessionReadResult read = readSessionFile(file);
    QVERIFY2(read.session,
        read.diagnostics.empty() ? "no session" : read.diagnostics[0].toString().c_str());
    // The same document, byte for byte once written again.
    QCOMPARE(QByteArray::fromStdString(writeSessionJson(*read.session)), options.session);
    QCOMPARE(read.session->points.size(), std::size_t(3));
    QCOMPARE(
        read.session->points[2].point.name, std::string("stencil <3d> & \"halo\" ]]> ünïcødé"));

    // Reopened in another chart, it draws the same points.
    RooflinePlot reopened;
    reopened.resize(900, 600);
    reopened.document()->loadSession(*read.session);
    QCOMPARE(reopened.document()->pointCount(), std::size_t(3));
    QCOMPARE(reopened.document()->annotations().size(), std::size_t(2));
    QCOMPARE(*reopened.pointCoords(1), *m_plot->pointCoords(1));
}

void TestChartExporter::pictureWithoutSession_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("png") << "png";
    QTest::newRow("svg") << "svg";
    QTest::newRow("pdf") << "pdf";
}

void TestChartExporter::pictureWithoutSession()
{
    QFETCH(QString, suffix);
    const QString file = m_dir.filePath("plain." + suffix);
    QCOMPARE(ChartExporter(*m_plot).exportTo(file, 640, 400), QString());
    const SessionReadResult read = readSessionFile(file);
    QVERIFY(!read.session);
    QCOMPARE(read.diagnostics.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(read.diagnostics[0].toString()),
        file
            + ": this picture has no Ridgepoint session in it (it was exported without one, or "
              "by another program)");
}

void TestChartExporter::oversizedSessionIsLeftOut()
{
    ExportOptions options;
    options.width = 640;
    options.height = 400;
    options.session = QByteArray(ExportOptions::kMaxEmbeddedSession + 1, ' ');
    const QString file = m_dir.filePath("big.svg");
    QCOMPARE(ChartExporter(*m_plot).exportTo(file, options), QString());
    QVERIFY(QFileInfo(file).size() < 2 * 1024 * 1024);
    QVERIFY(!readSessionFile(file).session);
}

void TestChartExporter::pictureKind_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("kind");
    QTest::newRow("png") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)
                         << int(PictureKind::Png);
    QTest::newRow("pdf") << QByteArray("%PDF-1.4\n%\xe2\xe3") << int(PictureKind::Pdf);
    QTest::newRow("bare svg") << QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
                              << int(PictureKind::Svg);
    QTest::newRow("svg after declaration, comment, doctype")
        << QByteArray("\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!-- x -->\n<!DOCTYPE svg>\n<svg>")
        << int(PictureKind::Svg);
    QTest::newRow("other xml") << QByteArray("<?xml version=\"1.0\"?><html/>")
                               << int(PictureKind::None);
    QTest::newRow("json session") << QByteArray("{\"format\": \"ridgepoint-session\"}")
                                  << int(PictureKind::None);
    QTest::newRow("csv") << QByteArray("name,flops\n") << int(PictureKind::None);
    QTest::newRow("empty") << QByteArray() << int(PictureKind::None);
}

void TestChartExporter::pictureKind()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, kind);
    QCOMPARE(int(ridgepoint::pictureKind(bytes)), kind);
}

void TestChartExporter::svgIsValidXmlWithText()
{
    ExportOptions options;
    options.width = 1000;
    options.height = 700;
    options.session = sessionJson();
    const QString file = m_dir.filePath("chart.svg");
    QCOMPARE(ChartExporter(*m_plot).exportTo(file, options), QString());
    const QByteArray svg = readAll(file);

    QXmlStreamReader xml(svg);
    while (!xml.atEnd())
        xml.readNext();
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    const QString xmllint = QStandardPaths::findExecutable("xmllint");
    if (!xmllint.isEmpty()) {
        QProcess lint;
        lint.start(xmllint, { "--noout", file });
        QVERIFY(lint.waitForFinished(30000));
        QVERIFY2(lint.exitCode() == 0, lint.readAllStandardError().constData());
    }

    // Axis titles, ceiling labels and the names of labelled points are text, not outlines.
    chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.allPointLabels = true; });
    QCOMPARE(ChartExporter(*m_plot).exportTo(file, options), QString());
    const QString texts = svgTexts(readAll(file)).join('\n');
    QVERIFY2(texts.contains("Arithmetic intensity"), qPrintable(texts));
    QVERIFY(texts.contains("DRAM"));
    QVERIFY(texts.contains("FP32 vector"));
    QVERIFY(texts.contains("gemm"));
    QVERIFY(texts.contains("look here"));
}

void TestChartExporter::pngSizeResolutionAndContent_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<double>("scale");
    QTest::addColumn<int>("dpi");
    QTest::addColumn<QSize>("pixels");
    QTest::addColumn<int>("expectedDpi");
    QTest::newRow("screen") << 800 << 500 << 1.0 << 0 << QSize(800, 500) << 96;
    QTest::newRow("retina") << 800 << 500 << 2.0 << 0 << QSize(1600, 1000) << 192;
    // A paper figure: laid out like 800×500, printed at 300 dpi (8.33 × 5.21 in).
    QTest::newRow("300 dpi") << 800 << 500 << 300.0 / 96.0 << 300 << QSize(2500, 1563) << 300;
}

void TestChartExporter::pngSizeResolutionAndContent()
{
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(double, scale);
    QFETCH(int, dpi);
    QFETCH(QSize, pixels);
    QFETCH(int, expectedDpi);
    ExportOptions options;
    options.width = width;
    options.height = height;
    options.scale = scale;
    options.dpi = dpi;
    const QString file = m_dir.filePath("chart.png");
    QCOMPARE(ChartExporter(*m_plot).exportTo(file, options), QString());
    const QImage image(file);
    QCOMPARE(image.size(), pixels);
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), expectedDpi);
    QCOMPARE(qRound(image.dotsPerMeterY() * 0.0254), expectedDpi);

    // Not blank: many colours (antialiased lines, points, text), and inside the plot area a
    // good share of pixels that are not the background.
    QSet<QRgb> colours;
    const QRgb background = image.pixel(2, 2);
    int inked = 0;
    int total = 0;
    for (int y = pixels.height() / 5; y < pixels.height() * 4 / 5; y += 2) {
        for (int x = pixels.width() / 5; x < pixels.width() * 4 / 5; x += 2) {
            const QRgb pixel = image.pixel(x, y);
            colours.insert(pixel);
            inked += pixel != background;
            ++total;
        }
    }
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    QVERIFY2(inked > total / 50, qPrintable(QStringLiteral("%1 of %2").arg(inked).arg(total)));
}

void TestChartExporter::titleAndTable()
{
    ExportOptions options;
    options.width = 1000;
    options.height = 800;
    options.title = "GEMM tuning, week 47";
    options.table = true;
    const QString file = m_dir.filePath("review.svg");
    QCOMPARE(ChartExporter(*m_plot).exportTo(file, options), QString());
    const QStringList texts = svgTexts(readAll(file));
    QVERIFY2(texts.contains("GEMM tuning, week 47"), qPrintable(texts.join('|')));
    for (const char *header : { "Kernel", "DRAM intensity", "Performance", "Bound" })
        QVERIFY2(texts.contains(header), header);
    // One row per point: the kernel's name, then its numbers (gemm: I = 100, 500 GFLOP/s).
    const qsizetype gemm = texts.lastIndexOf("gemm");
    QVERIFY(gemm >= 0);
    QCOMPARE(texts.value(gemm + 1), QString("100"));
    QVERIFY2(texts.value(gemm + 2).startsWith("500"), qPrintable(texts.value(gemm + 2)));

    // The table takes its room from the chart, not from the picture.
    options.session.clear();
    const QString png = m_dir.filePath("review.png");
    QCOMPARE(ChartExporter(*m_plot).exportTo(png, options), QString());
    QCOMPARE(QImage(png).size(), QSize(1000, 800));
}

void TestChartExporter::tableSaysWhatItLeftOut()
{
    std::vector<KernelPoint> many;
    for (int i = 0; i < 200; ++i)
        many.push_back(test::point("k" + std::to_string(i), "g", 1e9 * (i + 1), 1e9, 0.1));
    m_plot->document()->resetPoints(many);
    ExportOptions options;
    options.width = 900;
    options.height = 600;
    options.table = true;
    const QString file = m_dir.filePath("many.svg");
    QCOMPARE(ChartExporter(*m_plot).exportTo(file, options), QString());
    const QStringList texts = svgTexts(readAll(file));
    const auto more = std::find_if(
        texts.begin(), texts.end(), [](const QString &text) { return text.startsWith("… and "); });
    QVERIFY(more != texts.end());
    // Rows shown + rows left out = every point.
    const int shown = int(std::count_if(texts.begin(), texts.end(), [](const QString &text) {
        return text.size() > 1 && text[0] == 'k' && text[1].isDigit();
    }));
    const int leftOut = more->section(' ', 2, 2).toInt();
    QVERIFY(shown > 5);
    QCOMPARE(shown + leftOut, 200);
}

void TestChartExporter::tableFitsItsWidth_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("theme");
    QTest::newRow("800x500") << QSize(800, 500) << int(ChartTheme::Kind::Light);
    QTest::newRow("800x500 dark") << QSize(800, 500) << int(ChartTheme::Kind::Dark);
    QTest::newRow("800x500 print") << QSize(800, 500) << int(ChartTheme::Kind::Print);
    QTest::newRow("640x480") << QSize(640, 480) << int(ChartTheme::Kind::Light);
    QTest::newRow("1600x1000") << QSize(1600, 1000) << int(ChartTheme::Kind::Light);
}

// Issue 4: at 800 pixels the speed-up column ran off the picture. The table now fits its width:
// long names are elided with "…", then the font shrinks.
void TestChartExporter::tableFitsItsWidth()
{
    QFETCH(QSize, size);
    QFETCH(int, theme);
    loadWideTable(theme);

    ExportOptions options;
    options.width = size.width();
    options.height = size.height();
    options.table = true;
    QImage device = screenImage(size);
    const ExportTable table = ChartExporter(*m_plot).exportTable(options, &device);
    // With the speed-up: eight columns ("#" first), unless some were left out for the width.
    QCOMPARE(table.columns.size() + table.dropped.size(), std::size_t { 8 });
    if (size.width() >= 800)
        QCOMPARE(table.columns.size(), std::size_t { 8 });
    QCOMPARE(table.shown, 3);
    QVERIFY(table.columns.front().left() >= 0.0);
    QVERIFY2(table.columns.back().right() <= size.width(),
        qPrintable(QString::number(table.columns.back().right())));
    for (std::size_t c = 1; c < table.columns.size(); ++c)
        QVERIFY(table.columns[c].left() >= table.columns[c - 1].right());
    // The numbers are never cut: each column is as wide as its widest cell.
    QFont bold = table.font;
    bold.setBold(true);
    for (std::size_t r = 0; r < table.cells.size(); ++r) {
        const QFontMetricsF metrics(r == 0 ? bold : table.font, &device);
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            if (table.kinds[c] == int(PointsTableModel::Name))
                continue; // names alone give way
            QVERIFY2(metrics.horizontalAdvance(table.cells[r][int(c)])
                    <= table.columns[c].width() + 0.01,
                qPrintable(table.cells[r][int(c)]));
        }
    }

    // And in the picture: nothing is drawn in the table's right margin.
    const QString file = m_dir.filePath("narrow.png");
    QCOMPARE(ChartExporter(*m_plot).exportTo(file, options), QString());
    const QImage image = QImage(file).convertToFormat(QImage::Format_RGB32);
    const QRgb background = image.pixel(image.width() - 1, image.height() - 1);
    for (int y = qCeil(table.columns.back().top()); y < image.height(); ++y) {
        for (int x = image.width() - 4; x < image.width(); ++x)
            QVERIFY2(image.pixel(x, y) == background,
                qPrintable(QStringLiteral("ink at %1,%2").arg(x).arg(y)));
    }
    // The long name is cut with "…", the header of the last column is whole.
    const QString svg = m_dir.filePath("narrow.svg");
    QCOMPARE(ChartExporter(*m_plot).exportTo(svg, options), QString());
    const QStringList texts = svgTexts(readAll(svg));
    if (size.width() >= 800)
        QVERIFY2(texts.contains("Speed-up vs baseline"), qPrintable(texts.join('|')));
    if (size.width() <= 800) {
        QVERIFY2(
            std::any_of(texts.begin(), texts.end(),
                [](const QString &t) { return t.startsWith("void flash") && t.endsWith("…"); }),
            qPrintable(texts.join('|')));
    }
}

// The window's table puts a compared machine's columns after Utilization, which moves the
// baseline's speed-up two to the right: the picture's table still finds it, header and cells.
void TestChartExporter::baselineColumnBesideACompareMachine()
{
    loadWideTable(int(ChartTheme::Kind::Light));
    m_plot->document()->setCompareHardware(makeSimpleMachine(1e13, 1e12));
    ExportOptions options;
    options.width = 1600;
    options.height = 1000;
    options.table = true;
    QImage device = screenImage({ 1600, 1000 });
    const ExportTable table = ChartExporter(*m_plot).exportTable(options, &device);
    const auto at = std::find(
        table.kinds.begin(), table.kinds.end(), int(PointsTableModel::SpeedupVsBaseline));
    QVERIFY(at != table.kinds.end());
    const auto column = static_cast<int>(at - table.kinds.begin());
    QCOMPARE(table.cells.at(0).at(column), QString("Speed-up vs baseline"));
    for (std::size_t r = 1; r < table.cells.size(); ++r)
        QCOMPARE(table.cells[r].at(column), QString("×1.37")); // every point 1.37× slower before
}

void TestChartExporter::smallExportKeepsEverythingInside_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("theme");
    for (const QSize size : { QSize(400, 250), QSize(640, 360), QSize(800, 500) }) {
        const QByteArray name
            = QByteArray::number(size.width()) + 'x' + QByteArray::number(size.height());
        QTest::newRow(name.constData()) << size << int(ChartTheme::Kind::Light);
        QTest::newRow((name + " dark").constData()) << size << int(ChartTheme::Kind::Dark);
    }
}

// Review of issue 4: at 400x250 the table's right-hand columns ran past the picture once the
// names were "…" and the font at 70 %, and the legend under the plot left it 25 pixels high.
// Now the least important columns are left out (and a footnote names them), the table takes
// no more height than leaves the plot kMinPlotHeight, and the legend does not squeeze it.
void TestChartExporter::smallExportKeepsEverythingInside()
{
    QFETCH(QSize, size);
    QFETCH(int, theme);
    loadWideTable(theme);

    ExportOptions options;
    options.width = size.width();
    options.height = size.height();
    options.table = true;
    QImage device = screenImage(size);
    const ExportTable table = ChartExporter(*m_plot).exportTable(options, &device);
    const QRectF picture(0.0, 0.0, size.width(), size.height());
    QVERIFY(!table.columns.empty());
    // Name and intensity always stay; what went is named in a footnote.
    QCOMPARE(table.kinds.front(), kRowNumberColumn);
    QCOMPARE(table.kinds.at(1), int(PointsTableModel::Name));
    QCOMPARE(table.kinds.at(2), int(PointsTableModel::Intensity));
    QCOMPARE(table.kinds.size() + table.dropped.size(), std::size_t { 8 });
    if (!table.dropped.empty()) {
        PointsTableModel model(m_plot->document());
        const auto note = std::find_if(table.footnotes.begin(), table.footnotes.end(),
            [](const auto &f) { return f.text.startsWith("Left out"); });
        QVERIFY(note != table.footnotes.end());
        for (int kind : table.dropped) {
            const QString header
                = model.headerData(kind, Qt::Horizontal, Qt::DisplayRole).toString();
            QVERIFY2(note->text.contains(header), qPrintable(note->text));
            // Left out in the stated order: the least important first.
            QVERIFY(kind != PointsTableModel::Performance
                || std::count(table.dropped.begin(), table.dropped.end(),
                    int(PointsTableModel::Utilization)));
        }
        if (std::count(table.dropped.begin(), table.dropped.end(), int(PointsTableModel::Bound)))
            QVERIFY(std::count(
                table.dropped.begin(), table.dropped.end(), int(PointsTableModel::Attainable)));
    }
    // Every cell and footnote inside the picture, numbers and footnotes whole.
    QFont bold = table.font;
    bold.setBold(true);
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        const QRectF &column = table.columns[c];
        QVERIFY2(picture.contains(column),
            qPrintable(QStringLiteral("column %1 at %2..%3 of %4")
                           .arg(table.cells[0][int(c)])
                           .arg(column.left())
                           .arg(column.right())
                           .arg(size.width())));
        const bool name = table.kinds[c] == int(PointsTableModel::Name);
        for (std::size_t r = 0; r < table.cells.size() && !name; ++r) {
            const QFontMetricsF metrics(r == 0 ? bold : table.font, &device);
            QVERIFY2(metrics.horizontalAdvance(table.cells[r][int(c)]) <= column.width() + 0.01,
                qPrintable(table.cells[r][int(c)]));
        }
    }
    const QFontMetricsF metrics(table.font, &device);
    for (const auto &footnote : table.footnotes) {
        QVERIFY2(picture.contains(footnote.box), qPrintable(footnote.text));
        QVERIFY2(metrics.horizontalAdvance(footnote.text) <= footnote.box.width() + 0.01,
            qPrintable(footnote.text));
    }
    QVERIFY(table.height <= size.height());

    // The plot keeps a readable height (the export leaves the chart laid out at its size), and
    // the legend, when drawn, stays off the table.
    const QString png = m_dir.filePath("small.png");
    QCOMPARE(ChartExporter(*m_plot).exportTo(png, options), QString());
    const QRect area = m_plot->axisRect()->rect();
    QVERIFY2(
        area.height() >= ChartExporter::kMinPlotHeight, qPrintable(QString::number(area.height())));
    QVERIFY(area.bottom() <= size.height() - table.height);
    if (m_plot->legend->visible())
        QVERIFY(m_plot->legend->outerRect().bottom() <= size.height() - table.height);
    // Nothing drawn in the picture's right margin under the chart.
    const QImage image = QImage(png).convertToFormat(QImage::Format_RGB32);
    const QRgb background = image.pixel(image.width() - 1, image.height() - 1);
    for (int y = qCeil(size.height() - table.height); y < image.height(); ++y) {
        for (int x = image.width() - 4; x < image.width(); ++x)
            QVERIFY2(image.pixel(x, y) == background,
                qPrintable(QStringLiteral("ink at %1,%2").arg(x).arg(y)));
    }
    // The SVG draws the footnotes as text, and no header of a column left out.
    const QString svg = m_dir.filePath("small.svg");
    QCOMPARE(ChartExporter(*m_plot).exportTo(svg, options), QString());
    const QStringList texts = svgTexts(readAll(svg));
    for (const auto &footnote : table.footnotes)
        QVERIFY2(texts.contains(footnote.text), qPrintable(texts.join('|')));
    PointsTableModel model(m_plot->document());
    for (int kind : table.dropped)
        QVERIFY(
            !texts.contains(model.headerData(kind, Qt::Horizontal, Qt::DisplayRole).toString()));
}

void TestChartExporter::selectionIsNotExported_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<bool>("slide");
    QTest::newRow("png") << "png" << false;
    QTest::newRow("svg") << "svg" << false;
    // The slide preset's font scale redraws the points for the picture: the rings drawn again
    // stay out too, and the SVG's markers drawn again are still vector shapes, not bitmaps.
    QTest::newRow("png slide") << "png" << true;
    QTest::newRow("svg slide") << "svg" << true;
}

// The selection is the window's state, not the data's (issue 27, item 3): a picture with points
// selected has no ring in the selection's colour, and the window keeps its rings after the
// export. (The labels of selected points still come first in the placement.)
void TestChartExporter::selectionIsNotExported()
{
    QFETCH(QString, format);
    QFETCH(bool, slide);
    ExportOptions options = slide ? slideExportOptions() : ExportOptions {};
    if (!slide) {
        options.width = 900;
        options.height = 600;
    }
    m_plot->document()->setSelection({ 0, 1 });
    m_plot->replot();
    const auto ringsShown = [this] {
        int shown = 0;
        for (int i = 0; i < m_plot->plottableCount(); ++i) {
            const QCPAbstractPlottable *p = m_plot->plottable(i);
            shown += p->visible() && p->property(chart::kSelectionRingProperty).toBool() ? 1 : 0;
        }
        return shown;
    };
    QVERIFY(ringsShown() > 0); // the premise: the window draws the rings
    const QByteArray bytes = ChartExporter(*m_plot).renderToBytes(format, options);
    QVERIFY(!bytes.isEmpty());
    const QColor ring = chart::selectionColor();
    if (format == "png") {
        const QImage image = QImage::fromData(bytes).convertToFormat(QImage::Format_RGB32);
        int ringPixels = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x)
                ringPixels += image.pixel(x, y) == ring.rgb() ? 1 : 0;
        }
        QCOMPARE(ringPixels, 0);
    } else {
        QVERIFY(!bytes.contains(ring.name().toLatin1()));
        QVERIFY(!bytes.contains("<image")); // every marker a vector shape
    }
    QVERIFY(ringsShown() > 0);
    QCOMPARE(m_plot->display().fontScale, 1.0); // the screen's own display is back
}

QTEST_MAIN(TestChartExporter)
#include "tst_chartexporter.moc"
