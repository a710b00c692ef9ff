#include "widgets/export/chartexporter.h"

#include "widgets/chart/labelplacement.h" // LegendMode
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
        m_plot.paintUnclipped(painter, options.width, chartHeight);
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
    plot.setExporting(true, !(kind == "png" && options.scale == 1.0));
    // A preset's font scale and legend place hold for this picture only.
    const chart::PlotDisplay before = plot.display();
    chart::changeDisplay(plot, [&options](chart::PlotDisplay &d) {
        d.numberKey = options.table; // a number no table keys is not drawn
        if (options.fontScale > 0.0)
            d.fontScale = options.fontScale;
        if (options.legendBelow)
            d.legend = chart::LegendMode::Below;
    });
    const QString title = options.title.isEmpty()
        ? tr("Roofline: %1").arg(QString::fromStdString(plot.hardware().name))
        : options.title;
    // The selection rings and the table filter's veil (left out while exporting) are the
    // window's state, not the data's: a design review's picture shows neither.
    QByteArray bytes = writePicture(kind, options, plot.display().theme.background, title,
        [this, &options](QCPPainter *painter) { paintPicture(painter, options); });
    plot.setDisplay(before);
    plot.setExporting(false);
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
