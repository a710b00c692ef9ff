// What an export writes: the same for the window's Export dialog and the render command, so both
// produce the same file.
#pragma once

#include <QByteArray>
#include <QString>

namespace ridgepoint {

struct ExportOptions {
    // The picture's size in logical pixels: fonts, margins and the point thinning are laid out
    // at this size. PDF and SVG pages are this size (at 96 logical pixels per inch).
    int width = 1600;
    int height = 1000;
    // PNG: device pixels per logical pixel (a 1600×1000 picture at scale 2 is 3200×2000).
    double scale = 1.0;
    // PNG: the resolution written into the file (pHYs); 0 means 96 × scale.
    int dpi = 0;
    // Drawn above the chart when not empty.
    QString title;
    // The points' analysis (name, intensity, performance, bound, limiting roof, % of roof)
    // drawn as a table below the chart, which keeps the rest of the height.
    bool table = false;
    // A ridgepoint-session document embedded in the file, so the figure can be reopened and
    // edited: an SVG <metadata> element, a PNG text chunk, a PDF file attachment. Sessions
    // larger than kMaxEmbeddedSession are left out (the caller should say so): a million-point
    // session would make the picture hundreds of megabytes.
    QByteArray session;
    static constexpr qsizetype kMaxEmbeddedSession = qsizetype { 16 } * 1024 * 1024;
};

// The plot area (axis rect) of an export keeps at least this height: the table takes less and
// the legend does not go under the plot when that would leave less (it is left out).
inline constexpr int kMinExportPlotHeight = 60;

} // namespace ridgepoint
