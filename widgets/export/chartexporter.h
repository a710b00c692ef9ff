// The chart's exports: the picture (title, chart, points table) of a RooflinePlot painted at a
// logical size onto a PNG image, an SVG generator or a PDF writer (picturewriter.h), with the
// session embedded, written by the core writer (atomically to a file). The table's layout and
// painting are exporttable.h's. The exporter borrows the plot for one picture at a time: it sets
// the export's font scale, legend place and markers, paints, and puts the screen's back.
#pragma once

#include "widgets/chart/plotdisplay.h"
#include "widgets/export/exportoptions.h"
#include "widgets/export/exporttable.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

class QCPPainter;
class QPaintDevice;

namespace ridgepoint {

class RooflinePlot;

class ChartExporter
{
    Q_DECLARE_TR_FUNCTIONS(ridgepoint::ChartExporter)

public:
    // Exports `plot` as it is drawn (its document, view, theme and display settings).
    explicit ChartExporter(RooflinePlot &plot)
        : m_plot(plot)
    { }

    // The plot area (axis rect) of an export keeps at least this height: the table takes less
    // and the legend does not go under the plot when that would leave less (it is left out).
    static constexpr int kMinPlotHeight = chart::kMinPlotHeight;

    // Writes the chart to PNG, SVG or PDF, chosen by the file's suffix, at `width`×`height`
    // logical pixels times `scale` (PNG only). The file is replaced atomically: a failed export
    // leaves the old file alone. Returns an empty string on success, else the reason.
    [[nodiscard]] QString exportTo(
        const QString &fileName, int width, int height, double scale = 1.0);
    [[nodiscard]] QString exportTo(const QString &fileName, const ExportOptions &options);
    // The picture an export writes, as PNG or SVG bytes in memory (the clipboard's copy).
    // Empty on failure.
    QByteArray renderToBytes(const QString &format, const ExportOptions &options);

    // The points table an export at `options` draws below the chart, laid out for `device`
    // (ExportLayout::table in the legend's font). Empty without a table. Used by the export and
    // by tests.
    ExportTable exportTable(const ExportOptions &options, QPaintDevice *device) const;

private:
    // The picture of an export: title, chart, table, at `options`' logical size on a painter
    // that is already scaled.
    void paintPicture(QCPPainter *painter, const ExportOptions &options);

    RooflinePlot &m_plot;
};

} // namespace ridgepoint
