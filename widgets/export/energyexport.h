// The energy chart (widgets/chart/energychart.h) written to a picture file, by the roofline's
// export path (picturewriter.h): the same sizes, title and atomic write.
#pragma once

#include <QString>

namespace ridgepoint {

class Document;
struct ChartTheme;
struct ExportOptions;
namespace chart {
struct EnergyChart;
}

// Draws the energy chart of `document` to `fileName` (.png, .svg or .pdf) at `options`' size;
// `drawn` says what was drawn. An empty string on success (or when `drawn.problem` says there is
// nothing to draw: then no file is written), else why the file could not be written.
QString exportEnergyChart(const QString &fileName, const Document &document,
    const ChartTheme &theme, const ExportOptions &options, chart::EnergyChart &drawn);

} // namespace ridgepoint
