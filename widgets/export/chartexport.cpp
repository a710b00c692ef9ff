// RooflinePlot's exports: the picture (title, chart, points table) painted at a logical size onto
// a PNG image, an SVG generator or a PDF writer, with the session embedded, written atomically.
#include "widgets/export/figuresession.h"
#include "widgets/models/pointstablemodel.h"
#include "widgets/chart/rooflineplot.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <algorithm>
#include <array>
#include <cmath>

namespace ridgepoint {

namespace {

// Logical pixels per inch of every export: a PNG at scale 1 is 96 dpi, and SVG and PDF pages
// are as large as the PNG would be on a 96-dpi screen.
constexpr int kLogicalDpi = 96;
// The table keeps at most this share of the picture's height; the chart gets the rest.
constexpr double kMaxTableShare = 0.45;
constexpr int kTablePadding = 8; // pixels around the table and between columns
// A narrow table keeps names at least this many line heights wide before its font shrinks,
// and shrinks its font to no less than this share of the chart's.
constexpr double kMinNameWidth = 5.0;
constexpr double kMinTableFontShare = 0.7;
// What the chart keeps around its plot area, in lines of text: tick labels and the axis title
// under it, half a line over it.
constexpr double kAxesLines = 4.0;
// Columns left out, in this order, when the table is too wide even so: first those another
// column implies (attainable = performance / utilization), then the longest texts; name and
// intensity stay.
constexpr std::array kTableDropOrder = { int(PointsTableModel::Attainable),
    int(PointsTableModel::Bound), int(PointsTableModel::SpeedupVsBaseline),
    int(PointsTableModel::Utilization), int(PointsTableModel::Performance) };

QFont titleFont(const QFont &base)
{
    QFont font = base;
    font.setPointSizeF(base.pointSizeF() * 1.45);
    font.setBold(true);
    return font;
}

// The table's columns: those of the window's points table that say where a kernel stands.
std::vector<int> tableColumns(bool baseline)
{
    std::vector<int> columns = { PointsTableModel::Name, PointsTableModel::Intensity,
        PointsTableModel::Performance, PointsTableModel::Attainable, PointsTableModel::Bound,
        PointsTableModel::Utilization };
    if (baseline)
        columns.push_back(PointsTableModel::SpeedupVsBaseline);
    return columns;
}

// True when the painter draws into an SVG generator (which cannot clip).
bool svgClipping(QPainter *painter)
{
    return painter->device() && painter->device()->paintEngine()
        && painter->device()->paintEngine()->type() == QPaintEngine::SVG;
}

int titleHeight(const ExportOptions &options, const QFont &base, QPaintDevice *device)
{
    if (options.title.trimmed().isEmpty())
        return 0;
    return qCeil(QFontMetricsF(titleFont(base), device).height() * 1.8);
}

} // namespace

void RooflinePlot::paintClippedByHand(QCPPainter *painter, int width, int height)
{
    // Qt 6.4's SVG generator ignores clipping, so roofs, the envelope and shading (drawn from
    // far left to far right and clipped to the plot area on screen) would run across the axes
    // to the picture's edge. Draw the chart, cover what lies outside the plot area with the
    // background, then draw the axes again on top: the PNG's picture. (The covered first axes
    // stay in the file under the cover: a layer's visibility hides its children's too, and the
    // grid is the axes' child, so the first pass cannot leave the axes out.)
    toPainter(painter, width, height);
    const QRect inner = axisRect()->rect(); // laid out for this size by toPainter
    const QRegion outside = QRegion(0, 0, width, height).subtracted(QRegion(inner));
    for (const QRect &strip : outside)
        painter->fillRect(strip, m_theme.background);
    // Second pass: the axes only. Layers cannot be hidden for it (a layer hides its children's
    // children: the plot layout on "main" is the axis rect's parent), so every other layerable
    // is hidden on its own and shown again after.
    std::vector<QCPLayerable *> hidden;
    const auto hide = [&hidden](QCPLayerable *layerable) {
        if (layerable && layerable->visible()) {
            layerable->setVisible(false);
            hidden.push_back(layerable);
        }
    };
    for (int i = 0; i < plottableCount(); ++i)
        hide(plottable(i));
    for (int i = 0; i < itemCount(); ++i)
        hide(item(i));
    if (!m_legendOutside) // under the plot it was not covered, and stays as it is drawn
        hide(legend);
    for (QCPAxis *axis : axisRect()->axes())
        hide(axis->grid());
    const QBrush background = mBackgroundBrush;
    const QBrush rectBackground = axisRect()->backgroundBrush();
    setBackground(Qt::NoBrush);
    axisRect()->setBackground(Qt::NoBrush);
    // The same layout as the first pass: with the items hidden the legend would find another
    // place.
    m_legendFixed = true;
    toPainter(painter, width, height);
    m_legendFixed = false;
    setBackground(background);
    axisRect()->setBackground(rectBackground);
    for (QCPLayerable *layerable : hidden)
        layerable->setVisible(true);
}

void RooflinePlot::paintPicture(QCPPainter *painter, const ExportOptions &options)
{
    const QFont base = legend->font();
    painter->fillRect(QRectF(0, 0, options.width, options.height), m_theme.background);
    const int top = titleHeight(options, base, painter->device());
    if (top > 0) {
        const QFont font = titleFont(base);
        painter->setFont(font);
        painter->setPen(m_theme.foreground);
        const QRect box(kTablePadding, 0, options.width - 2 * kTablePadding, top);
        const QString text
            = QFontMetricsF(font, painter->device())
                  .elidedText(options.title.simplified(), Qt::ElideRight, box.width());
        painter->drawText(box, Qt::AlignHCenter | Qt::AlignVCenter, text);
    }

    // The table first: its height is what the chart leaves.
    const ExportTable table = exportTable(options, painter->device());
    const int bottom = table.cells.empty() ? 0 : int(std::ceil(table.height));
    const int chartHeight = std::max(1, options.height - top - bottom);
    painter->save();
    painter->translate(0, top);
    if (svgClipping(painter))
        paintClippedByHand(painter, options.width, chartHeight);
    else
        toPainter(painter, options.width, chartHeight);
    painter->restore();
    if (bottom == 0)
        return;

    // The table: a header, then the points in the document's order, numbers right-aligned.
    const double rowHeight = table.rowHeight;
    const double room = options.width - 2 * kTablePadding;
    const double y0 = options.height - bottom + kTablePadding;
    const QFontMetricsF metrics(table.font, painter->device());
    QFont bold = table.font;
    bold.setBold(true);
    painter->setPen(QPen(m_theme.grid, 1.0));
    painter->drawLine(QPointF(kTablePadding, y0), QPointF(options.width - kTablePadding, y0));
    for (std::size_t r = 0; r < table.cells.size(); ++r) {
        const double y = y0 + double(r) * rowHeight;
        if (r % 2 == 0 && r > 0 && m_theme.shading)
            painter->fillRect(QRectF(kTablePadding, y, room, rowHeight), m_theme.subGrid);
        painter->setFont(r == 0 ? bold : table.font);
        painter->setPen(m_theme.foreground);
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            const QRectF &column = table.columns[c];
            const QRectF box(column.left(), y, column.width(), rowHeight);
            const Qt::Alignment horizontal = c == 0 || table.kinds[c] == PointsTableModel::Bound
                ? Qt::AlignLeft
                : Qt::AlignRight;
            // Only the names give way: a number cut short would be a different number.
            const QString text = c == 0
                ? QFontMetricsF(r == 0 ? bold : table.font, painter->device())
                      .elidedText(table.cells[r][0], Qt::ElideRight, column.width())
                : table.cells[r][int(c)];
            painter->drawText(box, horizontal | Qt::AlignVCenter, text);
        }
        if (r == 0) {
            painter->setPen(QPen(m_theme.grid, 1.0));
            painter->drawLine(QPointF(kTablePadding, y + rowHeight),
                QPointF(options.width - kTablePadding, y + rowHeight));
        }
    }
    painter->setFont(table.font);
    painter->setPen(m_theme.foreground);
    for (const ExportTable::Footnote &note : table.footnotes)
        painter->drawText(note.box, Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(note.text, Qt::ElideRight, note.box.width()));
}

RooflinePlot::ExportTable RooflinePlot::exportTable(
    const ExportOptions &options, QPaintDevice *device) const
{
    ExportTable table;
    PointsTableModel model(m_document);
    const int rows = model.rowCount();
    if (!options.table || rows == 0)
        return table;
    table.font = legend->font();
    const QFontMetricsF baseMetrics(table.font, device);
    table.rowHeight = std::ceil(baseMetrics.height() * 1.35);
    // Lines the table may take: its share of the height, and no more than leaves the chart its
    // axes (about kAxesLines lines of text) around a plot kMinPlotHeight high.
    const int top = titleHeight(options, table.font, device);
    const double chartMinimum = kMinPlotHeight + kAxesLines * baseMetrics.height();
    const double share
        = std::min(options.height * kMaxTableShare, double(options.height - top) - chartMinimum);
    const int lines = std::max(2, int((share - 2 * kTablePadding) / table.rowHeight));
    // The rows listed before a footnote on left-out columns takes a line (their cells decide
    // the widths; fewer rows are never wider).
    const int mostShown = rows + 1 <= lines ? rows : std::max(0, lines - 2);

    const std::vector<int> all = tableColumns(m_document->baseline().has_value());
    std::vector<QStringList> cells; // every column, header first
    QStringList header;
    for (int column : all)
        header << model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
    cells.push_back(header);
    for (int row = 0; row < mostShown; ++row) {
        QStringList line;
        for (int column : all)
            line << model.data(model.index(row, column)).toString();
        cells.push_back(line);
    }

    // The widths of columns `kinds` in a font; names narrowed to what the width leaves, but to
    // no less than kMinNameWidth lines (`narrowNames`: no less than "…").
    const double room = options.width - 2 * kTablePadding;
    const auto totalOf = [](const std::vector<double> &widths) {
        double total = 0.0;
        for (double w : widths)
            total += w + 2 * kTablePadding;
        return total;
    };
    const auto widthsIn = [&](const std::vector<int> &kinds, const QFont &font, bool narrowNames) {
        QFont bold = font;
        bold.setBold(true);
        const QFontMetricsF metrics(font, device);
        const QFontMetricsF boldMetrics(bold, device);
        std::vector<double> widths(kinds.size(), 0.0);
        for (std::size_t r = 0; r < cells.size(); ++r) {
            for (std::size_t c = 0; c < kinds.size(); ++c) {
                const auto at = std::find(all.begin(), all.end(), kinds[c]) - all.begin();
                widths[c] = std::max(widths[c],
                    (r == 0 ? boldMetrics : metrics).horizontalAdvance(cells[r][int(at)]));
            }
        }
        const double over = totalOf(widths) - room;
        if (over > 0.0) {
            const double floor = narrowNames ? metrics.horizontalAdvance(QStringLiteral("…"))
                                             : kMinNameWidth * metrics.height();
            widths[0] = std::max(std::min(widths[0], floor), widths[0] - over);
        }
        return widths;
    };
    // The font shrinks (to kMinTableFontShare of its size) until the columns fit.
    const double basePoints = table.font.pointSizeF();
    const auto fit = [&](const std::vector<int> &kinds, bool narrowNames, QFont &font) {
        font = legend->font();
        std::vector<double> widths = widthsIn(kinds, font, narrowNames);
        for (int step = 0; step < 12 && totalOf(widths) > room; ++step) {
            const double points = std::max(basePoints * kMinTableFontShare,
                font.pointSizeF() * std::clamp(room / totalOf(widths), 0.8, 0.98));
            if (points >= font.pointSizeF())
                break;
            font.setPointSizeF(points);
            widths = widthsIn(kinds, font, narrowNames);
        }
        return widths;
    };
    // Still too wide: the least important columns are left out, one at a time
    // (kTableDropOrder); with name, intensity, performance and utilization left, the names
    // give way down to "…" before utilization and performance go too.
    std::vector<int> kinds = all;
    std::vector<double> widths = fit(kinds, false, table.font);
    bool narrowNames = false;
    for (const int next : kTableDropOrder) {
        if (totalOf(widths) <= room)
            break;
        if (!narrowNames && next == PointsTableModel::Utilization) {
            narrowNames = true;
            widths = fit(kinds, true, table.font);
            if (totalOf(widths) <= room)
                break;
        }
        const auto at = std::find(kinds.begin(), kinds.end(), next);
        if (at == kinds.end())
            continue;
        kinds.erase(at);
        table.dropped.push_back(next);
        widths = fit(kinds, narrowNames, table.font);
    }
    if (totalOf(widths) > room) // name and intensity only, on a picture too narrow for them
        widths[0] = std::max(0.0, widths[0] - (totalOf(widths) - room));

    // The rows shown: what the lines leave after the header and the footnotes.
    const int noteLines = table.dropped.empty() ? 0 : 1;
    const int free = lines - 1 - noteLines;
    table.shown = rows <= free ? rows : std::max(0, free - 1);
    table.kinds = kinds;
    for (int r = 0; r <= table.shown; ++r) {
        QStringList line;
        for (int kind : kinds)
            line << cells[std::size_t(r)]
                         [int(std::find(all.begin(), all.end(), kind) - all.begin())];
        table.cells.push_back(line);
    }
    QStringList footnotes;
    if (table.shown < rows)
        footnotes << tr("… and %n more kernel(s): File ▸ Export table… writes them all", nullptr,
            rows - table.shown);
    if (!table.dropped.empty()) {
        QStringList names;
        for (int kind : table.dropped)
            names << model.headerData(kind, Qt::Horizontal, Qt::DisplayRole).toString();
        footnotes << tr("Left out for the width: %1").arg(names.join(QStringLiteral(", ")));
    }

    const double lineCount = double(table.cells.size() + std::size_t(footnotes.size()));
    table.height = std::ceil(lineCount * table.rowHeight) + 2 * kTablePadding;
    const double y0 = std::ceil(options.height - table.height) + kTablePadding;
    const double height = double(table.cells.size()) * table.rowHeight;
    double x = kTablePadding;
    for (double w : widths) {
        table.columns.emplace_back(x + kTablePadding, y0, w, height);
        x += w + 2 * kTablePadding;
    }
    const QFontMetricsF metrics(table.font, device);
    for (qsizetype i = 0; i < footnotes.size(); ++i) {
        const double left = 2 * kTablePadding;
        const double width = std::min(
            metrics.horizontalAdvance(footnotes[i]), options.width - kTablePadding - left);
        table.footnotes.push_back(
            { QRectF(left, y0 + height + double(i) * table.rowHeight, width, table.rowHeight),
                footnotes[i] });
    }
    return table;
}

QByteArray RooflinePlot::renderToBytes(const QString &format, const ExportOptions &options)
{
    const QString kind = format.toLower();
    if (options.width < 1 || options.height < 1 || !(options.scale > 0.0))
        return {};
    const bool embed = !options.session.isEmpty()
        && options.session.size() <= ExportOptions::kMaxEmbeddedSession;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    // Thinned at the export's size (updateLayout runs for it). Markers are vector shapes, except
    // in a PNG at scale 1: there the screen's pre-rendered stamps give the same pixels about 40
    // times faster (antialiased ellipses were 0.6 s of a 100k-point render).
    useVectorMarkers(!(kind == "png" && options.scale == 1.0));
    bool ok = false;
    if (kind == "png") {
        const QSize pixels(
            qRound(options.width * options.scale), qRound(options.height * options.scale));
        QImage image(pixels, QImage::Format_RGB32); // every theme's background is opaque
        // Fonts are sized for 96 logical dpi while painting; the file gets the asked dpi after.
        const int dotsPerMeter96 = qRound(kLogicalDpi / 0.0254);
        image.setDotsPerMeterX(dotsPerMeter96);
        image.setDotsPerMeterY(dotsPerMeter96);
        image.fill(m_theme.background);
        QCPPainter painter(&image);
        ok = painter.isActive();
        if (ok) {
            painter.setRenderHint(QPainter::Antialiasing);
            if (options.scale > 1.0)
                painter.setMode(QCPPainter::pmNonCosmetic);
            painter.scale(options.scale, options.scale);
            paintPicture(&painter, options);
            ok = painter.end();
        }
        const double dpi = options.dpi > 0 ? options.dpi : kLogicalDpi * options.scale;
        image.setDotsPerMeterX(qRound(dpi / 0.0254));
        image.setDotsPerMeterY(qRound(dpi / 0.0254));
        if (embed)
            image.setText(
                QString::fromLatin1(kPictureSessionKey), QString::fromUtf8(options.session));
        QImageWriter writer(&buffer, "png");
        ok = ok && writer.write(image);
    } else if (kind == "svg") {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setResolution(kLogicalDpi);
        generator.setSize(QSize(options.width, options.height));
        generator.setViewBox(QRect(0, 0, options.width, options.height));
        // Qt 6.4 writes <title> and <desc> as given: escape them, or a title with '&' or '<'
        // makes the SVG invalid XML.
        generator.setTitle((options.title.isEmpty()
                ? tr("Roofline: %1").arg(QString::fromStdString(hardware().name))
                : options.title)
                               .toHtmlEscaped());
        generator.setDescription(tr("Drawn by Ridgepoint"));
        QCPPainter painter;
        ok = painter.begin(&generator);
        if (ok) {
            paintPicture(&painter, options);
            ok = painter.end();
        }
        buffer.close();
        if (ok && embed)
            bytes = embedSessionInSvg(bytes, options.session);
    } else if (kind == "pdf") {
        QPdfWriter writer(&buffer);
        writer.setResolution(kLogicalDpi);
        writer.setCreator(QStringLiteral("Ridgepoint"));
        writer.setTitle(options.title.isEmpty()
                ? tr("Roofline: %1").arg(QString::fromStdString(hardware().name))
                : options.title);
        // A page exactly the picture's size: points are 1/72 inch.
        const QSizeF points(
            options.width * 72.0 / kLogicalDpi, options.height * 72.0 / kLogicalDpi);
        writer.setPageLayout(
            QPageLayout(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch),
                QPageLayout::Portrait, QMarginsF()));
        if (embed)
            writer.addFileAttachment(QString::fromLatin1(kPictureSessionAttachment),
                options.session, QStringLiteral("application/json"));
        QCPPainter painter;
        ok = painter.begin(&writer);
        if (ok) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setWindow(0, 0, options.width, options.height);
            paintPicture(&painter, options);
            ok = painter.end();
        }
    }
    useVectorMarkers(false);
    requestReplot(); // lays the chart out for the screen again (and thins it for it)
    return ok ? bytes : QByteArray();
}

QString RooflinePlot::exportTo(const QString &fileName, int width, int height, double scale)
{
    ExportOptions options;
    options.width = width;
    options.height = height;
    options.scale = scale;
    return exportTo(fileName, options);
}

QString RooflinePlot::exportTo(const QString &fileName, const ExportOptions &options)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix != "png" && suffix != "svg" && suffix != "pdf")
        return tr("%1: unknown image type \"%2\" (expected .png, .svg or .pdf)")
            .arg(fileName, suffix);
    if (options.width < 1 || options.height < 1 || !(options.scale > 0.0))
        return tr("%1: the size must be positive (got %2×%3, scale %4)")
            .arg(fileName)
            .arg(options.width)
            .arg(options.height)
            .arg(options.scale);
    const QByteArray bytes = renderToBytes(suffix, options);
    if (bytes.isEmpty())
        return tr("%1: the chart could not be rendered").arg(fileName);
    // Replaced only once everything is written: a failed export leaves the old file alone.
    QSaveFile out(fileName);
    if (!out.open(QIODevice::WriteOnly))
        return tr("%1: cannot be written (%2)").arg(fileName, out.errorString());
    if (out.write(bytes) != bytes.size() || !out.commit())
        return tr("%1: cannot be written (%2)").arg(fileName, out.errorString());
    return {};
}

} // namespace ridgepoint
