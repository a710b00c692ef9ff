// What keeps the chart readable at any size and font scale, applied at every layout: as many
// tick labels as fit without touching, every text item at the chart's font, and labels turned
// back into the plot when they would run past its edge.
#pragma once

#include <qcustomplot.h>

namespace ridgepoint::chart {

// Ticks (decades) a log axis of `length` pixels may label when its labels are `labelExtent`
// pixels long along the axis: at least two, and few enough that neighbours never touch even
// when QCPAxisTickerLog rounds its step down (by up to a factor 1.5).
int fittingTickCount(double length, double labelExtent);
// Sets both axes' tick counts for the axis rect's current size and tick-label font. True when
// a count changed (the layout must run again to use it).
bool fitTickCounts(QCustomPlot *plot);
// Every text item on the plot drawn at the plot's font size (keeping its bold or italic).
void scaleItemFonts(QCustomPlot *plot);
// A text item anchored on the plot (ridge and point labels) whose box runs past the axis rect
// is turned to the other side of its anchor, so a large font does not clip it.
void keepLabelsInside(QCustomPlot *plot);

} // namespace ridgepoint::chart
