// The limits of an exported picture: one documented range (docs/FILES.md, "Export options"),
// shared by File ▸ Export image… (widgets/dialogs/exportdialog.cpp) and `ridgepoint render`
// (app/cli/cli_render.cpp), so a size one accepts the other accepts too. Plain numbers, no Qt.
#pragma once

#include <cmath>

namespace ridgepoint {

struct ExportLimits {
    // Every picture is laid out in logical pixels at 96 per inch: fonts and line widths are in
    // pixels at that resolution, SVG and PDF pages are the logical size at 96 per inch, and a
    // PNG at D dpi is drawn D / 96 device pixels per logical pixel.
    static constexpr double kLogicalDpi = 96.0;
    // A side of the picture in logical pixels. Below 100 the axis labels and the legend alone
    // fill the chart.
    static constexpr int kMinSide = 100;
    // The largest side in logical pixels, and in device pixels of a PNG (its size × dpi / 96):
    // a 20000 × 20000 PNG is 1.6 GB of pixels in memory while it is drawn.
    static constexpr int kMaxSide = 20000;
    // The resolution of a PNG, in dots per inch.
    static constexpr int kMinDpi = 24;
    static constexpr int kMaxDpi = 2400;

    static constexpr bool sideInRange(int side) { return side >= kMinSide && side <= kMaxSide; }
    static constexpr bool dpiInRange(int dpi) { return dpi >= kMinDpi && dpi <= kMaxDpi; }
    // The device pixels of a PNG side of `side` logical pixels at `dpi`, rounded as the PNG is.
    static long devicePixels(int side, int dpi) { return std::lround(side * (dpi / kLogicalDpi)); }
};

} // namespace ridgepoint
