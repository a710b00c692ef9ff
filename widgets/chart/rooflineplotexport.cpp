// What a picture needs of the plot (widgets/export/chartexporter.h paints it): the screen's own
// marks left out, vector markers, and painting for a painter that cannot clip.
#include "widgets/chart/labelplacement.h"
#include "widgets/chart/pointlayer.h"
#include "widgets/chart/rooflineplot.h"

namespace ridgepoint {

void RooflinePlot::setExporting(bool exporting, bool vectorMarkers)
{
    m_points->useVectorMarkers(exporting && vectorMarkers);
    m_points->showScreenOnly(!exporting);
    if (!exporting)
        requestReplot(); // lays the chart out for the screen again (and thins it for it)
}

void RooflinePlot::paintUnclipped(QCPPainter *painter, int width, int height)
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
        painter->fillRect(strip, m_display.theme.background);
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
    if (!m_legendPlacement->outside()) // under the plot it was not covered: drawn as it is
        hide(legend);
    for (QCPAxis *axis : axisRect()->axes())
        hide(axis->grid());
    const QBrush background = mBackgroundBrush;
    const QBrush rectBackground = axisRect()->backgroundBrush();
    setBackground(Qt::NoBrush);
    axisRect()->setBackground(Qt::NoBrush);
    // The same layout as the first pass: with the items hidden the legend would find another
    // place.
    m_legendPlacement->setFixed(true);
    toPainter(painter, width, height);
    m_legendPlacement->setFixed(false);
    setBackground(background);
    axisRect()->setBackground(rectBackground);
    for (QCPLayerable *layerable : hidden)
        layerable->setVisible(true);
}

} // namespace ridgepoint
