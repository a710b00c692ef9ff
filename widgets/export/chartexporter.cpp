#include "widgets/export/chartexporter.h"

#include "widgets/chart/labelplacement.h"
#include "widgets/chart/pointlayer.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/sessionfile.h"
#include "widgets/export/picturewriter.h"

#include <QFileInfo>

#include <cmath>

namespace ridgepoint {

namespace {

// True when the painter draws into an SVG generator (which cannot clip).
bool svgClipping(QPainter *painter)
{
    return painter->device() && painter->device()->paintEngine()
        && painter->device()->paintEngine()->type() == QPaintEngine::SVG;
}

} // namespace

void ChartExporter::paintClippedByHand(QCPPainter *painter, int width, int height)
{
    // Qt 6.4's SVG generator ignores clipping, so roofs, the envelope and shading (drawn from
    // far left to far right and clipped to the plot area on screen) would run across the axes
    // to the picture's edge. Draw the chart, cover what lies outside the plot area with the
    // background, then draw the axes again on top: the PNG's picture. (The covered first axes
    // stay in the file under the cover: a layer's visibility hides its children's too, and the
    // grid is the axes' child, so the first pass cannot leave the axes out.)
    RooflinePlot &plot = m_plot;
    plot.toPainter(painter, width, height);
    const QRect inner = plot.axisRect()->rect(); // laid out for this size by toPainter
    const QRegion outside = QRegion(0, 0, width, height).subtracted(QRegion(inner));
    for (const QRect &strip : outside)
        painter->fillRect(strip, plot.display().theme.background);
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
    for (int i = 0; i < plot.plottableCount(); ++i)
        hide(plot.plottable(i));
    for (int i = 0; i < plot.itemCount(); ++i)
        hide(plot.item(i));
    if (!plot.m_legendPlacement
             ->outside()) // under the plot it was not covered, and stays as it is drawn
        hide(plot.legend);
    for (QCPAxis *axis : plot.axisRect()->axes())
        hide(axis->grid());
    const QBrush background = plot.mBackgroundBrush;
    const QBrush rectBackground = plot.axisRect()->backgroundBrush();
    plot.setBackground(Qt::NoBrush);
    plot.axisRect()->setBackground(Qt::NoBrush);
    // The same layout as the first pass: with the items hidden the legend would find another
    // place.
    plot.m_legendPlacement->setFixed(true);
    plot.toPainter(painter, width, height);
    plot.m_legendPlacement->setFixed(false);
    plot.setBackground(background);
    plot.axisRect()->setBackground(rectBackground);
    for (QCPLayerable *layerable : hidden)
        layerable->setVisible(true);
}

void ChartExporter::paintPicture(QCPPainter *painter, const ExportOptions &options)
{
    const QFont base = m_plot.legend->font();
    const ChartTheme &theme = m_plot.display().theme;
    painter->fillRect(QRectF(0, 0, options.width, options.height), theme.background);
    const int top = ExportLayout::titleHeight(options, base, painter->device());
    if (top > 0)
        ExportLayout::paintTitle(painter, options, base, theme, top);

    // The table first: its height is what the chart leaves.
    const ExportTable table = exportTable(options, painter->device());
    const int bottom = table.cells.empty() ? 0 : int(std::ceil(table.height));
    const int chartHeight = std::max(1, options.height - top - bottom);
    painter->save();
    painter->translate(0, top);
    if (svgClipping(painter))
        paintClippedByHand(painter, options.width, chartHeight);
    else
        m_plot.toPainter(painter, options.width, chartHeight);
    painter->restore();
    if (bottom > 0)
        ExportLayout::paintTable(painter, table, options, theme);
}

ExportTable ChartExporter::exportTable(const ExportOptions &options, QPaintDevice *device) const
{
    return ExportLayout::table(*m_plot.document(), m_plot.legend->font(), options, device);
}

QByteArray ChartExporter::renderToBytes(const QString &format, const ExportOptions &options)
{
    RooflinePlot &plot = m_plot;
    const QString kind = format.toLower();
    if (options.width < 1 || options.height < 1 || !(options.scale > 0.0))
        return {};
    // Thinned at the export's size (updateLayout runs for it). Markers are vector shapes, except
    // in a PNG at scale 1: there the screen's pre-rendered stamps give the same pixels about 40
    // times faster (antialiased ellipses were 0.6 s of a 100k-point render).
    plot.m_points->useVectorMarkers(!(kind == "png" && options.scale == 1.0));
    // A preset's font scale and legend place hold for this picture only.
    const chart::PlotDisplay before = plot.display();
    chart::changeDisplay(plot, [&options](chart::PlotDisplay &d) {
        if (options.fontScale > 0.0)
            d.fontScale = options.fontScale;
        if (options.legendBelow)
            d.legend = chart::LegendMode::Below;
    });
    const QString title = options.title.isEmpty()
        ? tr("Roofline: %1").arg(QString::fromStdString(plot.hardware().name))
        : options.title;
    // The selection rings and the table filter's veil are the window's state, not the data's:
    // a design review's picture shows neither.
    plot.m_points->showScreenOnly(false);
    QByteArray bytes = writePicture(kind, options, plot.display().theme.background, title,
        [this, &options](QCPPainter *painter) { paintPicture(painter, options); });
    plot.m_points->showScreenOnly(true);
    plot.m_points->useVectorMarkers(false);
    plot.setDisplay(before);
    plot.requestReplot(); // lays the chart out for the screen again (and thins it for it)
    return bytes;
}

QString ChartExporter::exportTo(const QString &fileName, int width, int height, double scale)
{
    ExportOptions options;
    options.width = width;
    options.height = height;
    options.scale = scale;
    return exportTo(fileName, options);
}

QString ChartExporter::exportTo(const QString &fileName, const ExportOptions &options)
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
    // The core writer: a file is replaced only once everything is written (a failed export
    // leaves the old file alone), a device or FIFO is written through.
    return writeOutput(fileName, bytes);
}

} // namespace ridgepoint
