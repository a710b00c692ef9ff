// The chart's colours: the themes (light, dark, print) with their names and the WCAG contrast
// that keeps text and lines readable on them, and the fixed palette of roofs, groups and marks.
#pragma once

#include "core/model/hardware.h"

#include <QColor>
#include <QPalette>

#include <cstddef>

namespace ridgepoint {

// Colours and weights of the chart. Print: black on white, thicker lines, no shading.
struct ChartTheme {
    enum class Kind { Light, Dark, Print };
    Kind kind = Kind::Light;
    QColor background;
    QColor foreground; // axes, text
    QColor grid;
    QColor subGrid;
    QColor envelope;
    QColor legendBackground;
    double lineScale = 1.0;
    double fontScale = 1.0;
    bool shading = true; // region shading allowed

    static ChartTheme light();
    static ChartTheme dark();
    static ChartTheme print();
    static ChartTheme of(Kind kind);
    // The name sessions and --theme use: "light", "dark", "print" (docs/FILES.md, "theme").
    const char *key() const;
    // `color` made light or dark enough to stand out on the background: the same hue, its
    // lightness moved until the WCAG contrast ratio is at least `ratio`.
    QColor readable(const QColor &color, double ratio = kMinTextContrast) const;
    static constexpr double kMinTextContrast = 4.5; // WCAG 2 AA, normal text
    static constexpr double kMinLineContrast = 3.0; // WCAG 2 AA, graphics
    // The palette of the whole window under this theme (docks, tables, menus): dark for Dark,
    // the style's standard palette otherwise.
    QPalette windowPalette() const;

    bool operator==(const ChartTheme &) const = default;
};

// The WCAG 2 contrast ratio of two opaque colours: (L1 + 0.05) / (L2 + 0.05), 1 to 21.
double contrastRatio(const QColor &a, const QColor &b);

namespace chart {

// The roof of a memory level (the same on every theme: the dark one lightens it to read).
QColor memoryColor(MemoryLevel level);
// The colour of the `index`th group of points (eight, repeated).
QColor groupColor(std::size_t index);
// The points of the groups the legend does not name (legendgroups.h): a mid grey that reads on
// the light and the dark theme and stands back behind the palette's colours.
QColor otherGroupsColor();
QColor computeColor(); // the compute roofs (the inactive ones lighter)
QColor sparseComputeColor(); // 2:4 sparse compute roofs
QColor compareColor(); // every roof of the machine compared with
QColor impossibleColor(); // the ring round a point above its roof
QColor selectionColor(); // the ring round a selected point, the zoom rectangle
// A roof's pen colour on `theme`: its own hue, lightened on the dark theme until it stands out.
QColor lineColor(const ChartTheme &theme, const QColor &color);
// The light fill between a ceiling's two figures (spec and measured): the roof's pen colour on
// `theme`, mostly transparent (a little less on the dark theme, where it would vanish).
QColor gapFillColor(const ChartTheme &theme, const QColor &color);

} // namespace chart

} // namespace ridgepoint
