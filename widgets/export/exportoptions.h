// What an export writes: the same for the window's Export dialog and the render command, so both
// produce the same file.
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

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
    // Text, lines and markers this many times the chart's usual size for the export only;
    // 0 keeps the window's own font scale.
    double fontScale = 0.0;
    // The legend in a strip below the plot, never over the data (the window's legend mode
    // otherwise).
    bool legendBelow = false;
};

// Text at 1.5×: at 1920 px wide a slide is seen from a room away, where the window's text (made
// for a screen at arm's length) would be too small to read.
inline constexpr double kSlideFontScale = 1.5;

// A 16:9 slide: 1920×1080 logical pixels at scale 1 (a full-HD projector's pixels), text at
// kSlideFontScale, the legend below the plot.
inline ExportOptions slideExportOptions()
{
    ExportOptions options;
    options.width = 1920;
    options.height = 1080;
    options.scale = 1.0;
    options.fontScale = kSlideFontScale;
    options.legendBelow = true;
    return options;
}

// The options of a named preset ("slide"), nullopt for an unknown name.
inline std::optional<ExportOptions> exportPreset(const QString &name)
{
    if (name.compare(QStringLiteral("slide"), Qt::CaseInsensitive) == 0)
        return slideExportOptions();
    return std::nullopt;
}

} // namespace ridgepoint
