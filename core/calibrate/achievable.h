// The achievable roofs of a calibrated machine as the chart draws them (docs/MODEL.md §15.6):
// under each spec roof a calibration's fractions are of, the roof those fractions make of it
// (fraction × the figure fitted against), for the operator classes of the points on screen.
#pragma once

#include "core/calibrate/calibration.h"
#include "core/model/hardware.h"
#include "core/model/point.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

// One calibrated roof: a class's fraction of the compute or the memory roof.
struct AchievableRoof {
    OperatorClass kind = OperatorClass::Gemm;
    bool memory = false; // under the memory roof (B/s), else under the compute roof (FLOP/s)
    std::string ceiling; // the spec ceiling's name on the machine
    double spec = 0.0; // the figure the fraction is of (the calibration's peak or bandwidth)
    double fraction = 1.0;
    double achievable = 0.0; // fraction × spec
    std::size_t rows = 0; // the rows the class's fit was made on

    bool operator==(const AchievableRoof &) const = default;
};

// A fraction this close to 1 draws no band: the calibrated roof is the spec roof.
inline constexpr double kNoBandFraction = 0.995;

// The class of a point under a calibration: that of the operator fit named like the point's group
// or its name's first word (Vidur's "mlp_up_proj", a trace's "aten::mm" when fitted under that
// name), else the class a word of its group names ("gemm", "attention", "elementwise"; "gemv" and
// "matmul" are GEMMs: "prefill GEMM", "decode GEMV"); nullopt otherwise.
std::optional<OperatorClass> pointClass(const Calibration &calibration, const KernelPoint &point);

// The classes to draw: those of the points with a class, in class order; every class the
// calibration fits when no point has one (or there are none). Collectives never: they have no
// roof fraction (their link roof and latency are §15.3's).
// `pointAt(i)` is the i-th of `count` points; the search stops once every fitted class is seen.
using PointAt = std::function<const KernelPoint &(std::size_t)>;
std::vector<OperatorClass> shownClasses(
    const Calibration &calibration, std::size_t count, const PointAt &pointAt);

// The achievable roofs of `classes` on the machine: per class with a fit, its compute roof when
// the calibration's compute ceiling is a visible ceiling of the machine and the fraction is below
// kNoBandFraction (never for elementwise/norm operators: none of their times depends on it),
// likewise its memory roof. Empty without a calibration.
std::vector<AchievableRoof> achievableRoofs(
    const Hardware &hardware, const std::vector<OperatorClass> &classes);

// The message size where a collective regime's bandwidth takes over from its latency floor: the
// transfer b·m / W equals α at m½ = α·W / b (b the collective's bus factor, docs/MODEL.md §15.3).
// Nullopt for a regime without a bus bandwidth (its time does not grow with size).
std::optional<double> halfBandwidthBytes(const CollectiveFit &fit, const CollectiveRegime &regime);

// "GEMM", "Attention", "Elementwise/norm", "Collective".
std::string operatorClassTitle(OperatorClass kind);

// "GEMM achievable, 87 % of BF16 tensor, calibrated on 48 rows" (the percentage rounded to a
// whole number, or to one decimal below 10 %).
std::string achievableLabel(const AchievableRoof &roof);

} // namespace ridgepoint
