// A collective on its link roof (docs/MODEL.md §15.8): bus bandwidth against message size for each
// collective layout a calibrated machine has a fit of, with the measured rows as dots, the fit's
// curve b·m / T(m), the first regime's latency floor b·m / α (a slope of one) and the message
// size m½ where bandwidth takes over from it, under the machine's link roof. `predict --chart`.
#pragma once

#include "core/calibrate/measured.h"
#include "core/model/hardware.h"

#include <QString>

#include <optional>
#include <vector>

class QCustomPlot;

namespace ridgepoint::chart {

// The regime whose m½ is drawn: the first whose m½ lies within its sizes, else the first with a
// bus bandwidth; nullopt without one.
std::optional<std::size_t> kneeRegime(const CollectiveFit &fit);

// Clears `plot` and draws every layout of the machine's calibration that `rows` measure (all of
// them when `rows` is empty); the link roof is the machine's link between chips (chipLink: NVLink,
// else ICI, else PCIe). Returns what was drawn, one line per layout ("all_reduce on 2 ranks:
// floor 7.33 µs, n½ 484 kB"), empty when the machine has no collective fit.
QStringList drawCollectiveChart(
    QCustomPlot &plot, const Hardware &hardware, const std::vector<MeasuredRow> &rows);

} // namespace ridgepoint::chart
